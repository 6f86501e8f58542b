#!/usr/bin/env python3
"""The backward ball: how fast the set of configurations within r moves of the goal grows.

Issue 32's "meet the goal halfway" needs the backward branching factor.  Undoing a move s -> p
lifts a coin p that has >= d coins beside it (rules.predecessors) and puts it on any empty cell
s; only configurations inside span(start) can be reached from the start (Lemma SM of
docs/forced-supports.md), so s ranges over the empty cells of span(start).  For radii r = 1, 2,
... this script counts the shell S_r (configurations at exact distance r from the goal
placements, inside span(start)), the mean number of predecessors per configuration of S_{r-1}
(before removing repeats), and for comparison the forward shells from the start (every
successor, no pruning) and their mean number of successors.  Bitmask states (<= 64 cells),
numpy; a radius is skipped once a shell passes --max-states.

    nice -n 10 python3 scripts/backward_ball.py --members vdiag-3-3-swne --radius 3 \\
        --out benchmarks/backward-ball.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from coinsat.io.instance_format import read_instance
from coinsat.theory.span import span_mask
from coinsat.theory.supports import Batch

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = ROOT / "instances" / "families"
ONE = np.uint64(1)


def _bits_loop(base: np.ndarray, choices: np.ndarray, out: list) -> int:
    """Append base | (one bit of choices) for every set bit; return how many."""
    total = 0
    keep = choices != 0
    base, choices = base[keep], choices[keep]
    while base.size:
        low = choices & (~choices + ONE)
        out.append(base | low)
        total += base.size
        choices = choices ^ low
        keep = choices != 0
        base, choices = base[keep], choices[keep]
    return total


def predecessors(batch: Batch, m: np.ndarray, n: int, region: np.uint64) -> tuple[np.ndarray, int]:
    """Distinct predecessors of the states m inside ``region``, and the count before removing repeats."""
    lift = batch.count_at_least(m, batch.d) & m  # coins with >= d coins beside them
    out: list = []
    total = 0
    for c in range(n):
        bit = ONE << np.uint64(c)
        sel = (lift & bit) != 0
        if not sel.any():
            continue
        rest = m[sel] & ~bit
        total += _bits_loop(rest, region & ~m[sel], out)
    return (np.unique(np.concatenate(out)) if out else np.zeros(0, np.uint64)), total


def successors(batch: Batch, m: np.ndarray, n: int) -> tuple[np.ndarray, int]:
    out: list = []
    total = 0
    for c in range(n):
        bit = ONE << np.uint64(c)
        sel = m[(m & bit) != 0]
        if sel.size == 0:
            continue
        rest = sel & ~bit
        total += _bits_loop(rest, batch.count_at_least(rest, batch.d) & ~sel, out)
    return (np.unique(np.concatenate(out)) if out else np.zeros(0, np.uint64)), total


def shells(step, first: np.ndarray, radius: int, max_states: int) -> list[tuple[int, int, float]]:
    """(r, |S_r|, mean branching from S_{r-1}) for r = 1 .. radius (stops past max_states)."""
    seen, shell, rows = first, first, []
    for r in range(1, radius + 1):
        if shell.size > max_states:
            break
        nxt, total = step(shell)
        nxt = nxt[~np.isin(nxt, seen)]
        rows.append((r, int(nxt.size), total / max(shell.size, 1)))
        seen = np.union1d(seen, nxt)
        shell = nxt
    return rows


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
        cmd = "python3 scripts/backward_ball.py " + " ".join(sys.argv[1:])
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
