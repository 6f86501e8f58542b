#!/usr/bin/env python3
"""The backward ball: how fast the set of configurations within r moves of the goal grows.

A search that meets the goal halfway needs the backward branching factor.  Undoing a move s -> p
lifts a coin p that has >= d coins beside it (rules.predecessors) and puts it on any empty cell
s; only configurations inside span(start) can be reached from the start (Lemma SM of
docs/forced-supports.md), so s ranges over the empty cells of span(start).  For radii r = 1, 2,
... this script counts the shell S_r (configurations at exact distance r from the goal
placements, inside span(start)), the mean number of predecessors per configuration of S_{r-1}
(before removing repeats), and for comparison the forward shells from the start (every
successor, no pruning) and their mean number of successors.  Bitmask states (<= 64 cells,
``lab.forced_supports``); a radius is skipped once a shell passes --max-states.

    nice -n 10 python3 scripts/backward_ball.py --members vdiag-3-3-swne --radius 3 \\
        --out benchmarks/backward-ball.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from coinsat import read_instance
from coinsat.theory.span import span_mask
from coinsat.theory.supports import Batch
from lab.commandline import shown
from lab.forced_supports import predecessors, shells, successors

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ROOT / "instances" / "families"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--members", nargs="+", default=["vdiag-3-3-swne"])
    ap.add_argument("--radius", type=int, default=3)
    ap.add_argument("--max-states", type=int, default=5_000_000, help="no shell is expanded past this size")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    lines = []
    for name in args.members:
        inst = read_instance(FAMILIES / f"{name}.toml")
        b, n = inst.board, inst.board.size
        if n > 64:
            raise SystemExit(f"{FAMILIES / name}.toml: {n} cells, this script takes at most 64")
        goals = [g.mask for g in inst.goal_configurations]
        batch = Batch(b, inst.d, goals)
        region = np.uint64(span_mask(b, inst.start.mask, inst.d))
        t0 = time.process_time()
        back = shells(
            lambda m: predecessors(batch, m, n, region), np.array(goals, np.uint64), args.radius, args.max_states
        )
        fwd = shells(
            lambda m: successors(batch, m, n), np.array([inst.start.mask], np.uint64), args.radius, args.max_states
        )
        cpu = time.process_time() - t0
        for (r, size, br), f in zip(back, fwd + [None] * len(back)):
            fs, fb = (f[1], f[2]) if f else (None, None)
            lines.append(
                f"| {name} | {n} | {int(region).bit_count()} | {inst.n_coins} | {r} | {size:,} | {br:.1f} | "
                + (f"{fs:,} | {fb:.1f} | {br / fb:.1f} |" if f else "- | - | - |")
            )
            print(lines[-1], flush=True)
        print(f"{name}: {cpu:.1f} CPU s", flush=True)
    if args.out:
        cmd = shown("scripts/backward_ball.py", sys.argv[1:], ROOT)
        head = [
            "# The backward ball: shells around the goal against shells around the start\n",
            f"Made by `{cmd}` (nice -n 10, one core; the script's docstring says what is counted). "
            "S_r = configurations at exact distance r from the goal placement, inside span(start) "
            "(Lemma SM: nothing else is reachable from the start); 'preds / state' = predecessors "
            "(rules.predecessors' rule) per configuration of S_{r-1}, repeats included; the forward "
            "columns: the same from the start, every successor (no span or h pruning).\n",
            "| instance | cells | span(start) | coins | r | backward shell S_r | preds / state | "
            "forward shell | succs / state | backward / forward branching |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        Path(args.out).write_text("\n".join(head + lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
