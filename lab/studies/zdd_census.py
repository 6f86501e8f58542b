"""The census as ZDD layers (oxidd) against the explicit census kernel, on the same layers.

    nice -n 10 python3 scripts/zdd_census.py --instances diagonal-4,diagonal-5,diagonal-6 \\
        [--time-limit 600] [--out benchmarks/zdd-census.md]

Issue 41's item 5: one symbolic lever, kept only if it pays.  The census (``coinsat census``) is
a backward breadth-first search over every configuration of a window; its explicit kernel keeps
one byte of distance per colex rank.  Here each layer is a zero-suppressed decision diagram
(a ZDD: a family of sets of cells) and the backward image is computed symbolically:

* a move lifts a coin from u and drops it on an empty v with at least d coins around v besides the
  one lifted; after the move, v is occupied, u is empty and v has at least d occupied neighbours
  (u is not one of them, being empty).  So the predecessors of a family L are, over every ordered
  pair (v, u) of distinct cells, ``change_u(subset0_u(subset1_v(L & need_v)))``, where ``need_v``
  is the family of sets holding at least d of v's neighbours (a Boolean function built from the
  variables);
* the next layer is the image less every family met so far.

The layer sizes (``sat_count``) are compared with the explicit census's; a difference raises.
Cost: CPU seconds of each side in the same process (the explicit side is ``coinsat.census`` with
one thread, its compiled kernel warmed up first), and memory: the ZDDs' peak inner nodes (oxidd
stores a node in 16 bytes or so; the table gives nodes) against the explicit arrays' bytes.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import combinations
from math import comb
from pathlib import Path

from coinsat import Limits, census, read_instance
from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]


def zdd_census(instance, time_limit: float) -> dict:
    """The census's layers as ZDDs (module docstring): sizes, peak nodes, CPU seconds."""
    import oxidd.zbdd as zbdd

    board = instance.board
    N, d = board.size, instance.d
    goal = sorted(instance.goal.cells)
    c0 = time.process_time()
    m = zbdd.ZBDDManager(1 << 24, 1 << 22, 1)
    m.add_vars(N)
    var = [m.var(q) for q in range(N)]
    empty_family = m.empty()
    need = []
    for v in range(N):
        f = empty_family
        for group in combinations(board.neighbours[v], d):  # at least d of v's neighbours
            g = m.true()
            for q in group:
                g = g & var[q]
            f = f | g
        need.append(var[v] & f)
    start = m.base()
    for q in goal:
        start = start.change(q)
    layer, seen = start, start
    sizes = [1]
    peak = seen.node_count()
    while True:
        if time.process_time() - c0 > time_limit:
            return {"sizes": sizes, "peak_nodes": peak, "cpu": time.process_time() - c0, "complete": False}
        image = empty_family
        for v in range(N):
            lifted = (layer & need[v]).subset1(v)  # the sets after the move, v emptied again
            if not lifted.satisfiable():
                continue
            for u in range(N):
                if u != v:
                    image = image | lifted.subset0(u).change(u)
        layer = image - seen
        if not layer.satisfiable():
            break
        seen = seen | layer
        sizes.append(int(layer.sat_count(N)))
        peak = max(peak, seen.node_count() + layer.node_count())
    return {"sizes": sizes, "peak_nodes": peak, "cpu": time.process_time() - c0, "complete": True}


def explicit(instance) -> dict:
    """The explicit census, one thread (its kernel compiled before the clock starts)."""
    census(instance, workers=1, limits=Limits())  # warm-up (compilation), not measured
    c0 = time.process_time()
    c = census(instance, workers=1, limits=Limits())
    cells, coins = c.cells, c.coins
    return {
        "sizes": c.layer_sizes,
        "cpu": time.process_time() - c0,
        "bytes": comb(cells, coins) + comb(cells, coins - 1) // 8,
        "cells": cells,
        "coins": coins,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--instances", default="diagonal-4,diagonal-5")
    ap.add_argument("--time-limit", type=float, default=600.0, help="CPU seconds for each ZDD census")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    rows = []
    for name in args.instances.split(","):
        inst = read_instance(ROOT / "instances" / "families" / f"{name}.toml")
        e = explicit(inst)
        z = zdd_census(inst, args.time_limit)
        done = len(z["sizes"])
        if z["sizes"] != e["sizes"][:done] or (z["complete"] and done != len(e["sizes"])):
            raise SystemExit(f"{name}: the ZDD layers differ from the census's: {z['sizes']} vs {e['sizes']}")
        rows.append((name, e, z))
        print(name, e["cpu"], z["cpu"], z["peak_nodes"], z["complete"], file=sys.stderr)
    lines = [
        "# The census as ZDD layers against the explicit census kernel",
        "",
        f"Made by `nice -n 10 {shown('scripts/zdd_census.py', sys.argv[1:], ROOT)}` "
        "(`lab/studies/zdd_census.py`; oxidd's ZBDD manager, one thread). "
        "CPU seconds in one process, the explicit census (`coinsat.census`, one thread, compiled "
        "beforehand) first. Layers: the same sizes on both sides (checked). Memory: the explicit "
        "arrays (a byte per configuration and a bit per (n - 1)-set) against the ZDDs' peak inner "
        "nodes (the set met so far plus the newest layer).",
        "",
        "| puzzle | cells | coins | layers | reachable | explicit CPU s | ZDD CPU s | ZDD / explicit CPU "
        "| explicit bytes | ZDD peak nodes |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, e, z in rows:
        done = len(z["sizes"]) if z["complete"] else f"{len(z['sizes'])} of {len(e['sizes'])} (limit)"
        lines.append(
            f"| {name} | {e['cells']} | {e['coins']} | {done} | {sum(e['sizes']):,} | {e['cpu']:.2f} "
            f"| {z['cpu']:.2f} | {z['cpu'] / max(e['cpu'], 1e-9):.0f}x | {e['bytes']:,} | {z['peak_nodes']:,} |"
        )
    text = "\n".join(lines) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
