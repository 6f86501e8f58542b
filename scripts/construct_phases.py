#!/usr/bin/env python3
"""Where the square construction's moves go, and how its length grows on the V family.

    python3 scripts/construct_phases.py [--a 5,6,...,18] [--phases 10,18] [--depth 2]
                                        [--out benchmarks/construct_phases.md]

Runs `construct` (in this process, one member after another) on V(a, a) -> NW-SE for each
``--a``, and reports, per member, the length of the verified solution, the CPU seconds, and
the least-squares exponent of length ~ n^k over the members with n >= 14 (n = 2a + 4 coins).
For the members in ``--phases`` it also breaks the moves down by phase (the construction's
``moves_by_phase``, counted before loops are cut, so the phases can add up to more than the
length), truncated to ``--depth`` levels.  The solutions are the ones `construct` certified
with rules.py; these are upper bounds, never optima.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from coinsat.analysis import fit_power_law
from coinsat.constructive import construct
from coinsat.families import vdiag
from coinsat.io.atomic import write_atomic

ROOT = Path(__file__).resolve().parent.parent
FIT_FROM = 14


def cpu() -> float:
    return time.process_time()


def run(a: int, target: str) -> tuple[int, float, dict[str, int]]:
    inst = vdiag(a, a, target)
    c0 = cpu()
    _, result = construct(inst)
    assert result.solution is not None
    return len(result.solution), cpu() - c0, result.stats.get("moves_by_phase", {})


def slope_error(points: list[tuple[int, int]], k: float, c: float) -> float:
    """The standard error of the fitted exponent (least squares on log n, log moves)."""
    xs = [math.log(n) for n, _ in points]
    rs = [math.log(m) - (k * x + math.log(c)) for x, (_, m) in zip(xs, points)]
    mx = sum(xs) / len(xs)
    sxx = sum((x - mx) ** 2 for x in xs)
    return math.sqrt(sum(r * r for r in rs) / (len(xs) - 2) / sxx)


def by_depth(tally: dict[str, int], depth: int) -> Counter[str]:
    out: Counter[str] = Counter()
    for path, k in tally.items():
        out["/".join(path.split("/")[:depth])] += k
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", default=",".join(str(a) for a in range(5, 19)))
    ap.add_argument("--phases", default="3,10,18", help="members V(a,a) broken down by phase")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--target", default="nwse", choices=("nwse", "swne"))
    ap.add_argument("--out", default=str(ROOT / "benchmarks/construct_phases.md"))
    args = ap.parse_args(argv)
    members = [int(a) for a in args.a.split(",") if a]
    detail = {int(a) for a in args.phases.split(",") if a}
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    rows, tallies = [], {}
    for a in members:
        length, secs, tally = run(a, args.target)
        rows.append((a, 2 * a + 4, length, secs))
        if a in detail:
            tallies[a] = tally
        print(f"V({a},{a}) n={2 * a + 4}: {length} moves, {secs:.1f} CPU s", file=sys.stderr, flush=True)
    lines = [
        f"# The square construction on V(a, a) -> {args.target}: length and where the moves go",
        "",
        f"Made by `python3 scripts/construct_phases.py {' '.join(argv if argv is not None else sys.argv[1:])}` "
        f"(code at {head.stdout.strip()}; CPU seconds of this process, one member after another).",
        "Every length is a verified solution's (rules.py replayed it): an upper bound, never an optimum.",
        "",
        "| member | n | construct | moves/n³ | CPU s |",
        "|---|---:|---:|---:|---:|",
    ]
    lines += [f"| V({a},{a}) | {n} | {k} | {k / n**3:.3f} | {s:.1f} |" for a, n, k, s in rows]
    fit = [(n, k) for _, n, k, _ in rows if n >= FIT_FROM]
    if len(fit) >= 3:
        k, c = fit_power_law(fit) or (0.0, 0.0)
        lines += [
            "",
            f"Least-squares fit over the {len(fit)} members with n >= {FIT_FROM}: moves ≈ {c:.3g}·n^{k:.2f} "
            f"± {slope_error(fit, k, c):.2f} (standard error of the slope in log-log)",
        ]
    for a, tally in tallies.items():
        total = sum(tally.values())
        lines += ["", f"## V({a},{a}): moves by phase (before loops are cut; {total} in all)", ""]
        lines += ["| phase | moves | share |", "|---|---:|---:|"]
        for path, k in sorted(by_depth(tally, args.depth).items(), key=lambda kv: -kv[1]):
            if k:
                lines.append(f"| {path} | {k} | {k / total:.1%} |")
    write_atomic(Path(args.out), "\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
