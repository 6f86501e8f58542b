#!/usr/bin/env python3
"""Open problem 3, by computation: does Theorem 2 (square grid) extend to boxes of the cubic lattice?

For every box a x b x c (a >= b >= c >= 2, up to --max-cells cells), every d in --d and every
coin count n, and every start A whose span is the whole box (one per symmetry class of the box):

* the exact reachable set R(A) is computed on the box (exact for d >= 2: theory/cubic.py);
* every goal B with n coins in the box is checked against two statements:
  - **hypothesis** (the paper's formal Theorem 2, read in 3-D with "adjacent to d coins"):
    there are E_A ⊆ A, E_B ⊆ B of two cells with span(A − E_A) ⊇ span(B − E_B) and every
    cell of E_B adjacent to d coins of B − E_B  =>  B ∈ R(A);
  - **two extra** (the informal reading): A has two extra coins (span(A − E) = span(A) for
    some pair E)  =>  every B in the box (span(B) ⊆ span(A) = the box) is in R(A);
* a pair satisfying the premise with B ∉ R(A) is a counterexample.

A row over --row-seconds of CPU time stops early and says so (its counts are then partial).

Usage (benchmarks/cubic_study.md names the command that made it; without --out the table is printed):

    python3 scripts/cubic_study.py [--max-cells 18] [--d 2 3] [--out benchmarks/cubic_study.md]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from coinsat import solve, write_instance
from coinsat.instance import make_instance
from coinsat.theory import cubic
from coinsat.theory.span import span_mask
from coinsat.theory.square import goal_spans, start_spans

ROOT = Path(__file__).resolve().parents[2]


def study(dims, d: int, n: int, deadline: float) -> dict:
    board = cubic.box_board(dims)
    row = {"starts": 0, "two_extra": 0, "hyp_pairs": 0, "hyp_cx": 0, "extra_pairs": 0, "extra_cx": 0}
    row["first_cx"] = None
    row["complete"] = True
    goals = cubic.all_masks(board.size, n)
    gspans: dict[int, list[int]] = {}
    for a in cubic.full_span_starts(board, dims, n, d):
        if time.process_time() > deadline:
            row["complete"] = False
            break
        row["starts"] += 1
        reach = cubic.closure(board, a, d)
        sa = list(start_spans(board, a, d))
        extra = cubic.has_two_extra(board, a, d)
        row["two_extra"] += extra
        for b in goals:
            if b == a:
                continue
            if b not in gspans:
                gspans[b] = list(goal_spans(board, b, d))
            hyp = any(g & ~s == 0 for g in gspans[b] for s in sa)
            inside = b in reach
            if hyp:
                row["hyp_pairs"] += 1
                if not inside:
                    row["hyp_cx"] += 1
                    row["first_cx"] = row["first_cx"] or ("hypothesis", a, b)
            if extra:
                row["extra_pairs"] += 1
                if not inside:
                    row["extra_cx"] += 1
                    row["first_cx"] = row["first_cx"] or ("two extra", a, b)
    return row


def as_instance(board, a: int, b: int, d: int, name: str = "cubic", source: str = ""):
    """The puzzle on a box as a ``board = "cubic"`` instance (the door of ``coinsat solve``: its board
    is span(start) plus the goal, the box itself for the full-span starts studied here)."""
    return make_instance("cubic", points(board, a), points(board, b), adjacency=d, name=name, source=source)


def confirm(board, a: int, b: int, d: int) -> str:
    """A second engine's word on a counterexample: bfs on the same puzzle as a cubic instance."""
    r = solve(as_instance(board, a, b, d), "bfs", time_limit=60)
    cert = r.certificate or {}
    return f"{r.status} (certificate {cert.get('kind')}, scope {cert.get('scope')})"


def points(board, mask: int) -> list:
    return [board.coords[c] for c in range(board.size) if mask >> c & 1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-cells", type=int, default=18, help="boxes with at most N cells (default 18)")
    ap.add_argument("--d", type=int, nargs="+", default=[2, 3], help="the adjacencies d to study (default 2 3)")
    ap.add_argument("--row-seconds", type=float, default=120.0, help="CPU seconds per row before it stops (partial)")
    ap.add_argument(
        "--out", default=None, help="write the table here (e.g. benchmarks/cubic_study.md); default: print it"
    )
    ap.add_argument(
        "--write", metavar="DIR", help='write each row\'s first counterexample there as a board = "cubic" instance'
    )
    args = ap.parse_args(argv)
    lines = [
        "# Theorem 2 on the cubic lattice: exhaustive small boxes",
        "",
        f"Made by `python3 scripts/cubic_study.py --max-cells {args.max_cells} --d {' '.join(map(str, args.d))} "
        f"--row-seconds {args.row_seconds}{' --out ' + args.out if args.out else ''}` "
        "(one core of a shared 2-core machine).",
        "",
        "Starts: one per symmetry class of the box among the n-coin configurations whose span (under d) is the",
        "whole box.  'hyp.' counts pairs (A, B) satisfying the paper's formal Theorem 2 hypothesis read in 3-D;",
        "'2 extra' counts pairs where A has two extra coins (every B in the box).  'cx' = B unreachable from A",
        "(exact: forward closure on the box).  The analogue holds in a row iff both cx columns are 0.",
        "",
        "| box | d | coins | start classes | with 2 extra | hyp. pairs | hyp. cx | 2-extra pairs | 2-extra cx "
        "| analogue holds | CPU s | wall s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    firsts = []
    for dims in cubic.boxes(args.max_cells):
        size = dims[0] * dims[1] * dims[2]
        for d in args.d:
            for n in range(3, size):
                t0, c0 = time.perf_counter(), time.process_time()
                row = study(dims, d, n, c0 + args.row_seconds)
                secs, cpu = time.perf_counter() - t0, time.process_time() - c0
                if row["starts"] == 0 and row["complete"]:
                    continue
                holds = "yes" if row["hyp_cx"] == 0 and row["extra_cx"] == 0 else "**no**"
                if not row["complete"]:
                    holds += " (partial: row stopped at the time limit)"
                box = "x".join(map(str, dims))
                lines.append(
                    f"| {box} | {d} | {n} | {row['starts']} | {row['two_extra']} | {row['hyp_pairs']} "
                    f"| {row['hyp_cx']} | {row['extra_pairs']} | {row['extra_cx']} | {holds} | {cpu:.1f} | {secs:.1f} |"
                )
                print(lines[-1], flush=True)
                if row["first_cx"]:
                    kind, a, b = row["first_cx"]
                    board = cubic.box_board(dims)
                    firsts.append(
                        f"* box {box}, d = {d}, {n} coins ({kind}): start {points(board, a)} -> goal {points(board, b)}"
                        f" (span(start) = box: {span_mask(board, a, d) == (1 << board.size) - 1}); "
                        f"`bfs` on it: {confirm(board, a, b, d)}"
                    )
                    if args.write:
                        name = f"cubic-{box}-d{d}-n{n}-{kind.replace(' ', '-')}"
                        src = f"scripts/cubic_study.py: Theorem 2's analogue ({kind}) fails in the {box} box, d = {d}"
                        write_instance(as_instance(board, a, b, d, name, src), Path(args.write) / f"{name}.toml")
                if args.out:
                    Path(args.out).write_text("\n".join(lines + ["", "(partial: the run is still going)", ""]))
    lines += ["", "## First counterexample of each row that has one", ""] + (firsts or ["(none)"]) + [""]
    if args.out:
        Path(args.out).write_text("\n".join(lines))
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
