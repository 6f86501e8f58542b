#!/usr/bin/env python3
"""Where the V's schedule breaks on the pinwheel (docs/v-to-diagonal.md §5), measured.

    python3 scripts/pinwheel_gap.py [--max-k 6] [--max-k-d K] [--path-k 5] [--out benchmarks/pinwheel_gap.md]

Four tables.  (1) Every stored optimal solution instances/families/solutions/pinwheel-M-T.json:
the step at which each isolated coin is absorbed (lab.pinwheel_gap.absorptions), the moves
between consecutive absorptions, whether Lemma P's three claims hold, and the most pairs of
side-by-side coins in any of its configurations (Lemma T says <= 4).  (2) R(k), the fewest moves
from a Γ chain of side k plus two helpers on held cells to a coin on the corner the Γ misses,
keeping the goal in the span (``corner_cost``, an exhaustive BFS; states and CPU seconds of this
process), next to what the V's gadgets A and B cost at side k (read from
``vschedule.step_costs``, not from the closed form).  (3) D(k), the same from the diagonal
holding all four corners (``diagonal_corner_cost``).  (4) One shortest path of (2) for
k = --path-k, drawn.  Without --out the tables go to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from coinsat.constructive.vschedule import step_costs
from coinsat.families import pinwheel_shape
from coinsat.io.atomic import write_atomic
from lab.commandline import shown
from lab.pinwheel_gap import Grid, absorptions, adjacent_pairs, corner_cost, diagonal_corner_cost

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "instances/families/solutions"


def optima_table() -> list[str]:
    rows = [
        "| member | optimum | absorbed at step (corner) | moves from one absorption to the next, then to the goal "
        "| Lemma P | most adjacent pairs |",
        "|---|---:|---|---|---|---:|",
    ]
    files = sorted(SOLUTIONS.glob("pinwheel-*.json"), key=lambda p: (p.stem.split("-")[2], int(p.stem.split("-")[1])))
    for path in files:
        m = int(path.stem.split("-")[1])
        moves = json.loads(path.read_text())["moves"]
        seen = absorptions(m, moves)
        steps = [a.step for a in seen if a.step is not None]
        ok = all(not a.moved_before and not a.outside_before and (a.step is None or a.corner_occupied) for a in seen)
        ok = ok and steps == sorted(set(steps))
        marks = ", ".join(f"{a.step if a.step is not None else '—'} ({a.corner})" for a in seen)
        gaps = [b - a for a, b in zip([0, *steps], [*steps, len(moves)])]
        occ = set(pinwheel_shape(m))
        most = adjacent_pairs(occ)
        for src, dst in moves:
            occ.remove(tuple(src))
            occ.add(tuple(dst))
            most = max(most, adjacent_pairs(occ))
        rows.append(
            f"| {path.stem} | {len(moves)} | {marks} | {', '.join(map(str, gaps))} "
            f"| {'holds' if ok else 'FAILS'} | {most} |"
        )
    return rows


def gadget_costs(k_max: int) -> dict[tuple[str, int], int]:
    """(gadget, side) -> moves, as the V's schedule makes them (both targets cover both parities;
    the larger of the two when a helper already stands on gadget A's first cell in one of them)."""
    out: dict[tuple[str, int], int] = {}
    a = k_max
    for target in ("nwse", "swne"):
        for gadget, side, cost in step_costs(a, a, target):
            if gadget in ("A", "B"):
                out[(gadget, side)] = max(cost, out.get((gadget, side), 0))
    return out


def draw(k: int, path: list[int], per_line: int = 7) -> list[str]:
    g = Grid(k + 1, k + 1)
    frames = []
    for s in path:
        frames.append(
            [
                " ".join("p" if (x, y) == (k, 0) else ("o" if s & g.bit(x, y) else ".") for x in range(k + 1))
                for y in range(k, -1, -1)
            ]
        )
    out = ["```"]
    for i in range(0, len(frames), per_line):
        chunk = frames[i : i + per_line]
        out.append("   ".join(f"{'move ' + str(i + j):<{2 * k + 1}}" for j in range(len(chunk))))
        for r in range(k + 1):
            out.append("   ".join(f[r] for f in chunk))
        out.append("")
    out[-1] = "```"
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-k", type=int, default=6, help="largest side k for R(k) (k = 7: ~3.5 M states)")
    ap.add_argument("--max-k-d", type=int, help="largest k for D(k) (default: --max-k)")
    ap.add_argument("--path-k", type=int, default=5, help="draw one shortest route of R(k) for this k")
    ap.add_argument("--out", type=Path, help="write the tables here (default: stdout)")
    args = ap.parse_args(argv)
    lines = [
        "# The pinwheel's gap: where the V's schedule breaks",
        "",
        f"Made by `{shown('scripts/pinwheel_gap.py', sys.argv[1:] if argv is None else argv, ROOT)}`; "
        "the lemmas are those of docs/v-to-diagonal.md §5.",
        "",
        "## 1. The stored optimal solutions (Lemmas P and T, measured)",
        "",
        "Coin j is absorbed at the first move that fills a cell beside it; '—': never (the last coin is "
        "already a goal cell). Lemma P: no coin moves, and no move lands outside Q_{j-1}, before coin j is "
        "absorbed, the corner c_{j-1} holds a coin at that move, and the absorptions come in order.",
        "",
        *optima_table(),
        "",
        "## 2. R(k): from a Γ chain to the corner it misses (exhaustive BFS)",
        "",
        "R(k) = the fewest moves from Γ(k) plus two helpers (each on a cell held by two chain coins; all "
        "such starts at once) to a coin on the corner opposite the Γ's elbow, when the next coin p lies "
        "diagonally off that corner and every configuration keeps the (k+1)-square in span(C + p) "
        "(lab.pinwheel_gap.corner_cost). One move more absorbs p. Gadgets A and B: the moves the V's "
        "schedule spends at side k to absorb a coin off the far top corner or the elbow and rebuild the Γ "
        "of side k + 1 (vschedule.step_costs).",
        "",
        "| k | R(k) | R(k) / k² | states | CPU s | gadget A at side k | gadget B at side k |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    costs = gadget_costs(args.max_k)
    shortest: list[int] = []
    for k in range(3, args.max_k + 1):
        c0 = time.process_time()
        d, states, path = corner_cost(k)
        cpu = time.process_time() - c0
        if k == args.path_k:
            shortest = path
        ratio = f"{d / k**2:.2f}" if d is not None else "—"
        lines.append(
            f"| {k} | {d} | {ratio} | {states:,} | {cpu:.1f} "
            f"| {costs.get(('A', k), '—')} | {costs.get(('B', k), '—')} |"
        )
        print(f"k = {k}: R = {d}, {states} states, {cpu:.1f} CPU s", file=sys.stderr, flush=True)
    lines += [
        "",
        "## 3. D(k): from the diagonal holding all four corners to the next corner (exhaustive BFS)",
        "",
        "D(k) = the fewest moves from the SW-NE diagonal of the k-square plus coins on its other two corners "
        "(k + 2 coins; every corner holds a coin) and the next coin p off TR, to a coin on the corner TL of "
        "the grown (k+1)-square, which the coin after p needs; every configuration keeps the (k+1)-square "
        "the span (lab.pinwheel_gap.diagonal_corner_cost).",
        "",
        "| k | D(k) | D(k) / k² | states | CPU s |",
        "|---:|---:|---:|---:|---:|",
    ]
    for k in range(3, (args.max_k_d or args.max_k) + 1):
        c0 = time.process_time()
        d, states, _ = diagonal_corner_cost(k)
        cpu = time.process_time() - c0
        ratio = f"{d / k**2:.2f}" if d is not None else "—"
        lines.append(f"| {k} | {d} | {ratio} | {states:,} | {cpu:.1f} |")
        print(f"k = {k}: D = {d}, {states} states, {cpu:.1f} CPU s", file=sys.stderr, flush=True)
    if shortest:
        lines += [
            "",
            f"## 4. One shortest route of R(k) for k = {args.path_k} ({len(shortest) - 1} moves)",
            "",
            "The Γ's elbow is TL; p lies off BR and never moves.",
            "",
            *draw(args.path_k, shortest),
        ]
    text = "\n".join(lines) + "\n"
    if args.out:
        write_atomic(args.out, text)
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
