#!/usr/bin/env python3
"""The HWMCC pack: AIGER 1.9 and BTOR2 safety benchmarks with checked witnesses (encodings/hwmcc-pack.md).

    nice -n 15 python3 scripts/hwmcc_pack.py --out build/hwmcc-pack --cap 20 \
        --manifest-copy benchmarks/hwmcc-pack.csv --summary benchmarks/hwmcc-pack.md

A thin wrapper of :func:`coinsat.hwmcc.write_hwmcc_pack` (the lead's ``coinsat pack hwmcc DIR``
will call the same function): the paper's puzzles and the counterexamples to its theorems, the
answers stored in benchmarks/gallery_answers.json, and ABC's ``pdr`` timed on every ``.aig``
file for at most ``--cap`` seconds.  The files are not committed; the manifest and the summary are.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from coinsat.hwmcc import write_hwmcc_pack
from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]


def summary(pack, command: str, cap: float) -> str:
    rows = pack.rows
    aig = [r for r in rows if r.format == "aig"]
    by = {(r.expected, r.abc_pdr) for r in aig}
    count = {k: sum(1 for r in aig if (r.expected, r.abc_pdr) == k) for k in by}
    abc = [r.abc_pdr_cpu for r in aig if r.abc_pdr_cpu is not None]
    lines = [
        "# The HWMCC pack",
        "",
        f"Made by `{command}` (the table: [hwmcc-pack.csv](hwmcc-pack.csv); spec "
        "`encodings/hwmcc-pack.md`). CPU seconds; the machine was shared.",
        "",
        f"- {len(rows)} benchmark files: " + ", ".join(f"{n} {k}" for k, n in sorted(pack.counts.items())) + ".",
        f"- witnesses: {sum(r.expected == 'unsafe' for r in rows)} traces (every one simulated to bad at its last "
        f"step), {sum(r.expected == 'safe' and r.format == 'aig' for r in rows)} Certifaiger witness circuits "
        "(every one passing the five checks).",
        f"- left out: {'; '.join(f'{n} ({why})' for n, why in pack.left_out) or 'nothing'}.",
        f"- ABC `pdr` under a {cap:g} s cap on the {len(aig)} `.aig` files: "
        + ", ".join(f"{n} {exp} answered {ans}" for (exp, ans), n in sorted(count.items()))
        + f"; {sum(abc):.1f} CPU s of ABC in all (largest {max(abc, default=0):.1f}).",
        f"- this process: {pack.cpu_seconds:.1f} CPU s; every child (ABC for the invariants and the timing, the "
        f"DRAT checks): {pack.abc_cpu_seconds:.1f} CPU s.",
        "",
        "| file | expected | depth | latches | gates | ABC pdr | ABC CPU s |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in aig:
        cpu = "" if r.abc_pdr_cpu is None else f"{r.abc_pdr_cpu:.2f}"
        lines.append(
            f"| {r.file} | {r.expected} | {'' if r.depth is None else r.depth} | {r.latches} | {r.gates} "
            f"| {r.abc_pdr} | {cpu} |"
        )
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="directory for the pack")
    ap.add_argument("--cap", type=float, default=20.0, help="seconds of ABC's pdr per .aig file (0: not run)")
    ap.add_argument("--manifest-copy", default=None, help="also copy manifest.csv here")
    ap.add_argument("--summary", default=None, help="write a Markdown summary here")
    args = ap.parse_args(argv)
    instances = sorted((ROOT / "instances" / "paper").glob("*.toml")) + sorted(
        (ROOT / "instances" / "counterexamples").glob("*.toml")
    )
    pack = write_hwmcc_pack(args.out, instances, ROOT / "benchmarks" / "gallery_answers.json", abc_cap=args.cap or None)
    if args.manifest_copy:
        shutil.copyfile(Path(args.out) / "manifest.csv", args.manifest_copy)
    if args.summary:
        command = shown("scripts/hwmcc_pack.py", argv if argv is not None else sys.argv[1:], ROOT)
        Path(args.summary).write_text(summary(pack, command, args.cap))
    print(f"{len(pack.rows)} files in {args.out}; left out {len(pack.left_out)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
