"""Differential fuzz of the certificate checker (lab/checker_fuzz.py): mutated genuine
certificates must never be accepted with a claim stronger than the truth.

    python3 scripts/checker_fuzz.py --minutes 60                         # prints the table
    python3 scripts/checker_fuzz.py --minutes 60 --out benchmarks/fuzz.md # replaces its checker section
    python3 scripts/checker_fuzz.py --cases 200 --seed 7

With ``--out FILE`` the table replaces the section between the checker-campaign markers of
FILE (appended when FILE has none); other text in FILE is kept.  ``--failures DIR`` keeps every
false accept and crash as JSON (certificate and files) for a regression test.  Exit 1 when a
case failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from lab import checker_fuzz
from lab.commandline import shown

BEGIN, END = "<!-- checker-campaign: begin -->", "<!-- checker-campaign: end -->"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=None, help="run for this long")
    p.add_argument("--cases", type=int, default=None, help="run this many cases")
    p.add_argument("--seed", type=int, default=20261127, help="random seed of the campaign")
    p.add_argument("--case-time-limit", type=float, default=20.0, help="--time-limit of each check")
    p.add_argument("--out", type=Path, default=None, help="write the table into this Markdown file's section")
    p.add_argument("--failures", type=Path, default=None, help="keep failing cases here as JSON")
    args = p.parse_args()
    if args.minutes is None and args.cases is None:
        p.error("give --minutes or --cases")
    root = Path(checker_fuzz.__file__).resolve().parents[1]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="coinsat-fuzz-seeds-") as work:
        seeds = checker_fuzz.make_seeds(root, Path(work))
        print(f"{len(seeds)} seeds in {time.perf_counter() - t0:.0f} s", file=sys.stderr)

        def progress(c):
            bad = len(c.failures)
            print(f"  {c.cases} cases, {bad} failures, {time.perf_counter() - t0:.0f} s", file=sys.stderr)

        result = checker_fuzz.campaign(
            seeds,
            seconds=None if args.minutes is None else 60 * args.minutes,
            cases=args.cases,
            seed=args.seed,
            time_limit=args.case_time_limit,
            progress=progress,
        )
    wall = time.perf_counter() - t0
    root_command = shown("scripts/checker_fuzz.py", sys.argv[1:], root)
    text = checker_fuzz.table(result, seeds, root_command, wall)
    if args.out is None:
        print(text)
    else:
        old = args.out.read_text() if args.out.exists() else ""
        section = f"{BEGIN}\n{text}{END}\n"
        if BEGIN in old and END in old:
            new = old[: old.index(BEGIN)] + section + old[old.index(END) + len(END) + 1 :]
        else:
            new = old + ("\n" if old and not old.endswith("\n\n") else "") + section
        args.out.write_text(new)
    if args.failures is not None and result.failures:
        args.failures.mkdir(parents=True, exist_ok=True)
        for i, r in enumerate(result.failures):
            (args.failures / f"case-{i:03d}.json").write_text(json.dumps(r, indent=1, default=str))
    return 1 if result.failures else 0


if __name__ == "__main__":
    sys.exit(main())
