#!/usr/bin/env python3
"""The free plane (open problem 4): shortest solutions of plane puzzle files, proven by exact search.

For each file (board = "plane"), read by the instance reader (``read_puzzle``, the door of
``coinsat solve``) and solved by the search under that command's plane engine
(``theory.plane.search`` deepens L = 0, 1, ... up to --max-moves, and at most n − 2 for congruent goals, where the
placement argument stops): every level below the answer is searched completely in exact
arithmetic, the solution found is replayed by ``theory.plane.verify`` (rules.check_plane_move).
The table says what is proven; ``coinsat solve FILE`` gives the same answer for one file.

Usage (benchmarks/plane.md names the command that made it; without --out the table is printed):

    python3 scripts/plane_study.py [FILE ...] [--max-moves 6] [--out benchmarks/plane.md]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from coinsat.errors import InstanceError
from coinsat.io.instance_format import read_puzzle
from coinsat.theory.plane import PlanePuzzle, search

ROOT = Path(__file__).resolve().parents[2]
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
    ap.add_argument("files", nargs="*", default=DEFAULT, help='board = "plane" files (default: the five studied)')
    ap.add_argument("--max-moves", type=int, default=6, help="search levels L = 0 .. N (default 6)")
    ap.add_argument("--node-limit", type=int, default=2_000_000, help="stop a file after N nodes (default 2,000,000)")
    ap.add_argument("--out", default=None, help="write the table here (e.g. benchmarks/plane.md); default: print it")
    args = ap.parse_args(argv)
    lines = [
        "# The free plane: exact shortest solutions",
        "",
        f"Made by `python3 scripts/plane_study.py --max-moves {args.max_moves} --node-limit {args.node_limit}"
        f"{' --out ' + args.out if args.out else ''}` "
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
            puzzle = read_puzzle(f)
            if not isinstance(puzzle, PlanePuzzle):
                raise InstanceError('not a board = "plane" file', f, None)
        except InstanceError as e:  # bad input: one line naming file and line, exit 2
            print(f"plane_study: error: {e}", file=sys.stderr)
            return 2
        c0 = time.process_time()
        report = search(puzzle, args.max_moves, node_limit=args.node_limit)
        cpu = time.process_time() - c0
        if report.stopped and report.moves is None:
            lines.append(
                f"| {f} | {puzzle.n} | – | {report.proven_none} | no (stopped: {report.stopped}) "
                f"| {report.nodes} | – | {cpu:.1f} |"
            )
            print(lines[-1], flush=True)
            continue
        found = None if report.moves is None else len(report.moves)
        optimal = "yes" if found is not None and report.proven_none + 1 == found else "no"
        lines.append(
            f"| {f} | {puzzle.n} | {found if found is not None else '–'} | {report.proven_none} "
            f"| {optimal} | {report.nodes} | {dict(report.placements_searched)} | {cpu:.1f} |"
        )
        print(lines[-1], flush=True)
        if report.moves:
            steps = "; ".join(f"{_point(s)} -> {_point(d)}" for s, d in report.moves)
            witnesses.append(f"* {puzzle.name}: {steps}")
        if report.incomplete:
            witnesses.append(f"  (level {found} searched incompletely: {report.incomplete})")
    lines += ["", "## Solutions (exact coordinates; √ as written)", ""] + witnesses + [""]
    if args.out:
        Path(args.out).write_text("\n".join(lines))
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
