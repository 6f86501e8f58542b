#!/usr/bin/env python3
"""The census checker against the census it checks: CPU seconds of each, on the diagonal family.

For each k, builds the k x k diagonal flip's goal (``coinsat family diagonal``), runs the census
on one thread (``coinsat.census.census``), writes its certificate, and checks it in the same
process (``coinsat.certificates.check.census.check_census``, one thread), timing the checker's
passes (each layer scattered into l, lambda lifted, the sweep of Lemma S, the hardest orbits;
the rest of the check CPU is reading the files and the JSON checks).
numba's compilation is done before either clock starts.  ``--sweep-only N,n`` adds one row:
the sweep alone over every configuration of n coins on N cells with empty layers (the pass that
grows with C(N, n) whatever the census holds), on a quarter of the ranks.  ``--check DIR`` adds
the check alone of a certificate ``coinsat census`` wrote earlier (the 7 x 7 box's census is
larger than a benchmark should recompute; its own CPU seconds are in its census.json's folder
only if the run printed them, so that column says "-").

    nice -n 10 python3 scripts/census_check_bench.py [--k 4,5,6] [--sweep-only 49,9]
        [--check DIR ...] [--out benchmarks/census-check.md]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from math import comb
from pathlib import Path

import numpy as np

from coinsat import census, write_certificate
from coinsat.certificates.check import census as checker
from coinsat.certificates.check import censusjit
from coinsat.families import diagonal_flip
from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]
PASSES = ("scatter", "lift", "sweep", "canonical")


def timed_check(folder: Path) -> tuple[float, dict[str, float], bool]:
    """CPU seconds of the whole check, per pass, and the verdict."""
    spent = dict.fromkeys(PASSES, 0.0)
    originals = {}

    def wrap(owner, name):
        f = getattr(owner, name)
        originals[(owner, name)] = f

        def timed(*a, **k):
            c = time.process_time()
            try:
                return f(*a, **k)
            finally:
                spent[name] += time.process_time() - c

        setattr(owner, name, timed)

    for name in PASSES:
        wrap(censusjit, name)
    try:
        c = time.process_time()
        verdict = checker.check_census(folder)
        total = time.process_time() - c
    finally:
        for (owner, name), f in originals.items():
            setattr(owner, name, f)
    return total, spent, verdict.ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", default="4,5,6", help="box sides, comma-separated")
    ap.add_argument("--sweep-only", default=None, metavar="N,n", help="also time the sweep alone on C(N, n)")
    ap.add_argument("--check", action="append", default=[], metavar="DIR", help="also check this certificate")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    censusjit.warm_up()
    census(diagonal_flip(3), workers=1)  # the engine's kernels compiled (or loaded) before its clock
    rows = []

    def row(k, folder: Path, search: float | None) -> None:
        """Check the certificate in ``folder`` and add its row (``search``: the census's CPU s)."""
        meta = json.loads((folder / "census.json").read_text())
        N, n = len(meta["cells"]), len(meta["goal"])
        total, spent, ok = timed_check(folder)
        rows.append(
            f"| {k} | {N} | {n} | {comb(N, n):,} | {meta['reachable']:,} | {meta['max_distance']} | "
            + ("-" if search is None else f"{search:.2f}")
            + f" | {total:.2f} | "
            + " | ".join(f"{spent[p]:.2f}" for p in PASSES)
            + (" | - |" if search is None else f" | {total / search:.2f} |")
            + f" {'accepted' if ok else 'REJECTED'} |"
        )
        print(rows[-1], flush=True)

    for k in (int(x) for x in args.k.split(",")):
        c0 = time.process_time()
        result = census(diagonal_flip(k), workers=1)
        search = time.process_time() - c0
        with tempfile.TemporaryDirectory() as tmp:
            write_certificate(result, tmp)
            row(k, Path(tmp), search)
    for folder in args.check:
        N = len(json.loads((Path(folder) / "census.json").read_text())["cells"])
        row(round(N**0.5), Path(folder), None)
    sweep_row = ""
    if args.sweep_only:
        N, n = (int(x) for x in args.sweep_only.split(","))
        total = comb(N, n)
        none = 255
        l = np.full(total, none, dtype=np.uint8)
        lam = np.full(comb(N, n - 1), none, dtype=np.uint8)
        c0 = time.process_time()
        code, _ = censusjit.sweep(l, lam, 0, total // 4, n, N, censusjit.binomials(N, n), none)
        spent_sweep = time.process_time() - c0
        sweep_row = (
            f"\nThe sweep alone on C({N}, {n}) = {total:,} configurations with empty layers: "
            f"{spent_sweep:.1f} CPU s for the first quarter of the ranks "
            f"({spent_sweep / (total // 4) * 1e9:.1f} ns a configuration; verdict code {code}).\n"
        )
        print(sweep_row, flush=True)
    cmd = shown("scripts/census_check_bench.py", sys.argv[1:], ROOT)
    text = (
        "# The census checker against the census\n\n"
        f"Made by `nice -n 10 {cmd}` (CPU seconds, one thread each, in one process; numba compiled "
        "before the clocks start). The goal is the k x k diagonal flip's; N cells, n coins.\n\n"
        "| k | N | n | C(N, n) | reachable | D | census CPU s | check CPU s | scatter | lift | sweep | orbits "
        "| check / census | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        + "\n".join(rows)
        + "\n"
        + (
            "\nA row with '-' for the census is a certificate written earlier by `coinsat census FILE "
            "--certificate DIR` and checked alone here (`--check DIR`).\n"
            if args.check
            else ""
        )
        + sweep_row
    )
    if args.out:
        Path(args.out).write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
