#!/usr/bin/env python3
"""The free plane (open problem 4): shortest solutions of plane puzzle files, proven by exact search.

For each file (board = "plane"), ``theory.plane.search`` deepens L = 0, 1, ... up to --max-moves
(and at most n − 2 for congruent goals, where the placement argument stops): every level below
the answer is searched completely in exact arithmetic, the solution found is replayed by
``theory.plane.verify`` (rules.check_plane_move).  The table says what is proven.

Usage (benchmarks/plane.md names the command that made it):

    python3 scripts/plane_study.py [FILE ...] [--max-moves 6] [--out benchmarks/plane.md]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from coinsat.errors import InstanceError
from coinsat.io.instance_format import read_plane
from coinsat.theory.plane import search

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [
    "instances/open-problems/h-to-o-plane.toml",
    "instances/open-problems/o-to-h-plane.toml",
    "instances/open-problems/rhomboid-plane.toml",
    "instances/open-problems/upside-down-plane.toml",
    "instances/open-problems/pyramid-to-line-plane.toml",
]


def _point(p) -> str:
    return f"({p[0]}, {p[1]})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", default=DEFAULT)
    ap.add_argument("--max-moves", type=int, default=6)
    ap.add_argument("--node-limit", type=int, default=2_000_000)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "plane.md"))
    args = ap.parse_args(argv)
    lines = [
        "# The free plane: exact shortest solutions",
        "",
        f"Made by `python3 scripts/plane_study.py --max-moves {args.max_moves} --node-limit {args.node_limit}` "
        "(one core of a shared 2-core machine).",
        "",
        "'none up to' = the largest L with no solution of <= L moves proven (every placement of the goal sharing",
        ">= n - L coins with the start searched completely, exact arithmetic).  'found' = a solution replayed",
        "exactly; it is optimal when 'none up to' = found - 1.",
        "",
        "| file | coins | found | none up to | optimal | nodes | placements per level | CPU s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    witnesses = []
    for f in args.files:
        try:
            puzzle = read_plane(f)
        except InstanceError as e:  # bad input: one line naming file and line, exit 2
            print(f"plane_study: error: {e}", file=sys.stderr)
            return 2
        c0 = time.process_time()
        try:
            report = search(puzzle, args.max_moves, node_limit=args.node_limit)
            stop = ""
        except Exception as e:  # a node limit: say so, prove nothing more
            report, stop = None, f" (stopped: {e})"
        cpu = time.process_time() - c0
        if report is None:
            lines.append(f"| {f} | {puzzle.n} | – | – | no{stop} | – | – | {cpu:.1f} |")
            continue
        optimal = "yes" if report.length is not None and report.proven_none == report.length - 1 else "no"
        lines.append(
            f"| {f} | {puzzle.n} | {report.length if report.length is not None else '–'} | {report.proven_none} "
            f"| {optimal} | {report.nodes} | {report.placements_searched} | {cpu:.1f} |"
        )
        print(lines[-1], flush=True)
        if report.moves:
            steps = "; ".join(f"{_point(s)} -> {_point(d)}" for s, d in report.moves)
            witnesses.append(f"* {puzzle.name}: {steps}")
        if report.incomplete:
            witnesses.append(f"  (level {report.length} searched incompletely: {report.incomplete})")
    lines += ["", "## Solutions (exact coordinates; √ as written)", ""] + witnesses + [""]
    Path(args.out).write_text("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
