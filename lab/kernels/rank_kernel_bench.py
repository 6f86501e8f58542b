#!/usr/bin/env python3
"""rankbfs's compiled kernels, each against the one it replaced, on real layers; writes a table.

Solves an instance once without a bound (one worker) to get its layers, then times, on chunks
of 2**17 states of a few layers (CPU seconds, best of ``--repeat``, the two alternating):
the expansion (``expand_chunk``, read from ``--baseline COMMIT``'s ``search/rank/jit.py``, the
last commit that had it, against ``expand_branchfree``), sorting and deduplicating a
chunk's successors (``layered.unique`` against ``FastSpace.successors``' in-place pass), the
bound-and-prune h (``schedule_h`` against ``schedule_h_words``), and the membership of a whole
layer's successors in the layers before it (``member_gallop`` against ``member_scan``).  Each
row checks that both give the same answer.  Whole searches are ``scripts/rank_engine_bench.py``.

    nice -n 10 python3 scripts/rank_kernel_bench.py [--instance vdiag-3-3-nwse] [--depths 30,45]
        [--upper-bound 53] [--repeat 5] [--baseline 0f5a110] [--out benchmarks/rankbfs-kernels.md]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from lab.baseline import module_at

ROOT = Path(__file__).resolve().parents[2]
#: the last commit whose search/rank/jit.py has ``expand_chunk`` (the first compiled expansion)
BASELINE = "0f5a110"


def baseline_jit(commit: str):
    """search/rank/jit.py as it was at ``commit`` (``lab.baseline.module_at``)."""
    return module_at(ROOT, commit, "coinsat/search/rank/jit.py", "coinsat.search.rank._baseline_jit")


def best(f, repeat: int) -> tuple[float, object]:
    """The smallest CPU seconds of ``repeat`` calls of f, and its last answer."""
    least, out = float("inf"), None
    for _ in range(repeat):
        c = time.process_time()
        out = f()
        least = min(least, time.process_time() - c)
    return least, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", default="vdiag-3-3-nwse", help="a name in instances/families/")
    ap.add_argument("--depths", default="30,45", help="layers whose first chunk is timed")
    ap.add_argument("--upper-bound", type=int, default=53, help="the U of the h being timed")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--baseline", default=BASELINE, help="the commit whose expand_chunk is timed")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()

    from coinsat import read_instance
    from coinsat.search.layered import unique
    from coinsat.search.options import RankbfsOptions
    from coinsat.search.rank import jit
    from coinsat.search.rank.heap import keep_freed_memory
    from coinsat.search.rank.search import solve_rankbfs
    from coinsat.search.rank.space import Space, union
    from coinsat.search.rank.visited import compiled

    if compiled() is None:
        raise SystemExit("numba is not installed (the 'fast' extra): there are no compiled kernels to compare")
    keep_freed_memory()  # as a search does
    inst = read_instance(ROOT / "instances" / "families" / f"{args.instance}.toml")
    load_start = os.getloadavg()[0]
    c0 = time.process_time()
    result = solve_rankbfs(inst, options=RankbfsOptions(workers=1))
    solve_cpu = time.process_time() - c0
    visited = result.witness.layers
    layers = [visited.layer(i) for i in range(visited.depths)]
    fast = jit.FastSpace(Space(inst, True, args.upper_bound))
    old_jit = baseline_jit(args.baseline)
    kernels = {"expand_chunk": old_jit.expand_chunk, "expand_branchfree": jit.expand_branchfree}
    chunk = 1 << 17
    rows = []

    def row(what: str, depth: int, states: int, old, new, same: bool) -> None:
        rows.append((what, depth, states, old[0], new[0], same))

    for depth in (int(d) for d in args.depths.split(",")):
        if depth >= len(layers) - 1:
            raise SystemExit(f"{args.instance} has {len(layers)} layers: no depth {depth} to time")
        front = layers[depth][:chunk]
        times = {}
        for name in ("expand_chunk", "expand_branchfree") * 2:
            kernel = kernels[name]
            times[name] = best(lambda: kernel(*_expand_args(fast, front)), args.repeat)
        same = np.array_equal(np.sort(times["expand_chunk"][1]), np.sort(times["expand_branchfree"][1]))
        row("expansion kernel", depth, front.size, times["expand_chunk"], times["expand_branchfree"], same)
        raw = fast.expand(front)
        old = best(lambda: unique(raw.copy()), args.repeat)
        copy = best(lambda: raw.copy(), args.repeat)[0]

        def in_place():
            a = raw.copy()
            a.sort()
            return a[: jit.dedup_sorted(a)].copy()

        new = best(in_place, args.repeat)
        row(
            f"sort + dedup of the {raw.size:,} raw successors (less one copy)",
            depth,
            front.size,
            (old[0] - copy, None),
            (new[0] - copy, None),
            bool(np.array_equal(old[1], new[1])),
        )
        old = best(lambda: jit.schedule_h(*_h_args(fast, front)), args.repeat)
        new = best(lambda: jit.schedule_h_words(*_h_args(fast, front)), args.repeat)
        row(f"h (U = {args.upper_bound})", depth, front.size, old, new, bool(np.array_equal(old[1], new[1])))
        parts = [fast.successors(layers[depth][i : i + chunk]) for i in range(0, layers[depth].size, chunk)]
        nxt = union(parts)

        def member(kernel):
            seen = np.zeros(nxt.size, dtype=bool)
            for run in layers[: depth + 1]:
                kernel(run, nxt, seen)
            return seen

        old = best(lambda: member(jit.member_gallop), args.repeat)
        new = best(lambda: member(lambda r, v, s: jit.member_scan(r, v, s, jit.SCAN_RATIO)), args.repeat)
        row(
            f"membership of the layer's {nxt.size:,} successors in layers 0 to {depth}",
            depth,
            layers[depth].size,
            old,
            new,
            bool(np.array_equal(old[1], new[1])),
        )
    lines = [
        f"# rankbfs's compiled kernels on {args.instance}'s layers, each against the one it replaced",
        "",
        f"Made by `scripts/rank_kernel_bench.py --instance {args.instance} --depths {args.depths}"
        f" --upper-bound {args.upper_bound} --repeat {args.repeat} --baseline {args.baseline}"
        + (f" --out {args.out}" if args.out else "")
        + "`:"
        f" the layers of one search without a bound ({sum(a.size for a in layers):,} states, {solve_cpu:.1f} CPU s),"
        f" then each kernel on the first {chunk:,} states of a layer (the membership: on all its successors),"
        f" CPU milliseconds, best of {args.repeat}, old and new alternating. Machine load (1-minute average) at"
        f" the start {load_start:.1f}, at the end {os.getloadavg()[0]:.1f} (2 cores, shared).",
        "",
        "| what | depth | states | old ms | new ms | new / old | same answer |",
        "|---|---|---|---|---|---|---|",
    ]
    for what, depth, states, old_s, new_s, same in rows:
        lines.append(
            f"| {what} | {depth} | {states:,} | {1e3 * old_s:.1f} | {1e3 * new_s:.1f} | {new_s / old_s:.2f} |"
            f" {'yes' if same else '**NO**'} |"
        )
    text = "\n".join(lines) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    print(text)
    return 0 if all(r[-1] for r in rows) else 1


def _common_args(fast, ranks: np.ndarray) -> tuple:
    """The arguments FastSpace passes both its expansion and its h first."""
    return (
        np.ascontiguousarray(ranks, dtype=np.uint64),
        fast.k,
        fast.n,
        fast.W,
        fast.binom,
        fast.shifts,
        fast.masks,
        fast.full,
    )


def _expand_args(fast, ranks: np.ndarray) -> tuple:
    """The arguments FastSpace.expand passes its kernel."""
    rest = (fast.nbr, fast.d, fast.need, fast.use_need, fast.has_budget, fast.rest_edges, ranks.size * fast.k * 4)
    return _common_args(fast, ranks) + rest


def _h_args(fast, ranks: np.ndarray) -> tuple:
    """The arguments FastSpace.heuristic passes its kernel."""
    return _common_args(fast, ranks) + (fast.d, fast.goals)


if __name__ == "__main__":
    sys.exit(main())
