#!/usr/bin/env python3
"""Integer sequences from the stored records, as OEIS b-files in sequences/.

    python3 scripts/sequences.py [--out sequences]

Writes one b-file per sequence of ``lab.sequences.BUILDERS`` (lines ``n a(n)``, only
proven terms, ``#`` comment lines naming the record of each term's proof) and sequences/README.md
(each sequence's definition, index and the bounds on its first open term).  The records are
benchmarks/diagonal_flips.json, benchmarks/vfamily_results.json, benchmarks/vfamily_growth.json
and benchmarks/pinwheel_results.json; nothing is computed here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from coinsat.io.atomic import write_atomic
from lab import sequences
from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "sequences"), help="the folder of the b-files and README.md")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = shown("scripts/sequences.py", sys.argv[1:] if argv is None else argv, ROOT)
    records = sequences.Records.read(ROOT)
    made = [build(records) for build in sequences.BUILDERS.values()]
    for seq in made:
        write_atomic(out / seq.file, sequences.b_file(seq, command))
    write_atomic(out / "README.md", sequences.readme(made, command))
    for seq in made:
        print(seq.file, len(seq.terms), "terms", "open:" if seq.open_term else "", *(seq.open_term or ())[:1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
