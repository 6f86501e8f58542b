#!/usr/bin/env python3
"""rankbfs's compiled kernels, each against the one it replaced, on real layers; writes a table.

Solves an instance once without a bound (one worker) to get its layers, then times, on chunks
of 2**17 states of a few layers (CPU seconds, best of ``--repeat``, the two alternating):
the expansion (``--baseline COMMIT``'s ``search/rank/jit.py``: its ``expand_chunk``, up to
0f5a110, else its ``expand_branchfree``, against today's ``expand_branchfree``), sorting and
deduplicating a chunk's successors (numpy's sort and ``dedup_sorted``, up to e36dd00, against
``sort_distinct``'s radix sort), the
bound-and-prune h (``schedule_h`` against ``schedule_h_words``), the merge of a layer's two parts
by owner (``merge_unique`` against ``merge_disjoint``, as ``processes.Pool.collect`` gathers a
witness), and the membership of a whole layer's successors in the layers before it
(``member_gallop`` against ``member_scan``).  Then every layer is replayed, each step timed: where
one worker's CPU goes.  Each
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
    from coinsat.search.options import RankbfsOptions
    from coinsat.search.rank import jit
    from coinsat.search.rank.heap import keep_freed_memory
    from coinsat.search.rank.loop import split
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
    # the first compiled expansion (commits up to 0f5a110), else the baseline's own expand_branchfree
    old_name = "expand_chunk" if hasattr(old_jit, "expand_chunk") else "expand_branchfree"
    kernels = {"old": getattr(old_jit, old_name), "new": jit.expand_branchfree}
    chunk = 1 << 17
    rows = []

    def row(what: str, depth: int, states: int, old, new, same: bool) -> None:
        rows.append((what, depth, states, old[0], new[0], same))

    for depth in (int(d) for d in args.depths.split(",")):
        if depth >= len(layers) - 1:
            raise SystemExit(f"{args.instance} has {len(layers)} layers: no depth {depth} to time")
        front = layers[depth][:chunk]
        times = {}
        for name in ("old", "new") * 2:
            kernel = kernels[name]
            times[name] = best(lambda: kernel(*_expand_args(fast, front)), args.repeat)
        same = np.array_equal(np.sort(times["old"][1]), np.sort(times["new"][1]))
        row(f"expansion kernel ({old_name} of {args.baseline})", depth, front.size, times["old"], times["new"], same)
        raw = fast.expand(front)
        copy = best(lambda: raw.copy(), args.repeat)[0]

        def comparison_sort():  # up to e36dd00: numpy's sort in place, then dedup_sorted
            a = raw.copy()
            a.sort()
            return a[: jit.dedup_sorted(a)].copy()

        old = best(comparison_sort, args.repeat)
        new = best(lambda: jit.sort_distinct(raw.copy(), fast.bits), args.repeat)
        row(
            f"sort + dedup of the {raw.size:,} raw successors (numpy's sort, then radix; less a copy)",
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

        halves = split(layers[depth], 2)  # the parts two workers own, merged when the witness is gathered
        old = best(lambda: jit.merge_unique(*halves), args.repeat)
        new = best(lambda: jit.merge_disjoint(*halves), args.repeat)
        row(
            "merge of the layer's two parts by owner (merge_unique, then merge_disjoint)",
            depth,
            layers[depth].size,
            old,
            new,
            bool(np.array_equal(old[1], new[1]) and np.array_equal(new[1], layers[depth])),
        )
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
    profile = where_time_goes(fast, layers)
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
    lines += ["", *profile]
    text = "\n".join(lines) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    print(text)
    return 0 if all(r[-1] for r in rows) else 1


def where_time_goes(fast, layers: list[np.ndarray]) -> list[str]:
    """Every layer of the search replayed as one worker builds it, each step timed (CPU s):
    the expansion kernel, the sort and dedup of each chunk's successors (``FastSpace.successors``),
    the merge of the chunks (``space.union``) and the membership of the merged successors in
    the layers before (``jit.member_sorted``); checks that the layers come out the same.
    Returns the table's lines (the CPU per state expanded and per successor)."""
    from coinsat.search.rank import jit
    from coinsat.search.rank.space import union

    spent = dict.fromkeys(("expansion kernel", "sort + dedup of a chunk", "merge of the chunks", "membership"), 0.0)
    raw = distinct = merged = expanded = 0
    chunk = 1 << 17  # FastSpace's step (space.CHUNK * 4)
    for t in range(len(layers) - 1):
        parts = []
        for i in range(0, layers[t].size, chunk):
            c = time.process_time()
            out = fast.expand(layers[t][i : i + chunk])
            spent["expansion kernel"] += time.process_time() - c
            raw += out.size
            c = time.process_time()
            parts.append(jit.sort_distinct(out, fast.bits))
            spent["sort + dedup of a chunk"] += time.process_time() - c
            distinct += parts[-1].size
        c = time.process_time()
        succ = union(parts)
        spent["merge of the chunks"] += time.process_time() - c
        seen = np.zeros(succ.size, dtype=bool)
        c = time.process_time()
        for run in layers[: t + 1]:
            jit.member_sorted(run, succ, seen)
        spent["membership"] += time.process_time() - c
        if not np.array_equal(succ[~seen], layers[t + 1]):
            raise SystemExit(f"layer {t + 1} replayed differs from the search's")
        expanded += layers[t].size
        merged += succ.size
    total = sum(spent.values())
    per = {
        "expansion kernel": (raw, "raw successor"),
        "sort + dedup of a chunk": (raw, "raw successor"),
        "merge of the chunks": (distinct, "distinct successor of a chunk"),
        "membership": (merged, "distinct successor of a layer (a visited test)"),
    }
    lines = [
        f"Where one worker's CPU goes: every layer replayed ({expanded:,} states expanded, {raw:,} raw"
        f" successors, {distinct:,} distinct within their chunk, {merged:,} distinct within their layer),"
        f" {total:.1f} CPU s in all, {expanded / total / 1e6:.2f} M states expanded per CPU s (the search"
        " itself adds its bookkeeping: storing layers, polls, the goal test).",
        "",
        "| step | CPU s | share | ns per state expanded | ns per unit | unit |",
        "|---|---|---|---|---|---|",
    ]
    for step, cpu in spent.items():
        count, unit = per[step]
        lines.append(
            f"| {step} | {cpu:.2f} | {cpu / total:.0%} | {1e9 * cpu / expanded:.0f} | {1e9 * cpu / max(count, 1):.1f}"
            f" | {unit} |"
        )
    return lines


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
