#!/usr/bin/env python3
"""States kept by a bound-and-prune search with the forced-supports h against today's h.

``--engine rankbfs`` (default): the ranked engine itself, one process (``solve(..., "rankbfs",
upper_bound=U, forced_supports=False / True, workers=1)``; its h_fill is compiled when numba is
installed, its h_forced is numpy), numba warmed up on V(2,2) before the first timed run.

``--engine own``: written while ``coinsat/search/rank/`` was being restructured, a layered BFS
of its own on bitmask states (boards of <= 64 cells, d from the instance,
unlabeled jumps), with the engine's pruning rule (``search/rank/search.py``, Bound-and-prune): a
state first met at depth t is kept iff t + h(state) <= U, the layers hold every kept state once
(a successor already kept at any depth is not kept again).  The span pruning of the engine (the
successor's span contains the goal's span) is implied: h is finite iff every goal cell is in the
successor's span.  h is ``theory/supports.py``'s ``Batch.h_fill`` (today's h, the engine's) or
``Batch.h_forced`` (docs/forced-supports.md, Theorem H); both run in numpy here, so the CPU
columns compare the two bounds in this search, not in the compiled engine.

For each instance, U = the stored solution's length L (instances/families/solutions/): the search
meets the goal at depth L (Theorem H: no shortest solution is pruned); with ``--proof`` also
U = L - 1, where the search ends with an empty layer ("no solution with <= L - 1 moves").
Baseline (h_fill) and contender (h_forced) run one after the other in the same process.

    nice -n 10 python3 scripts/forced_supports_search.py --members vdiag-2-2-nwse vdiag-3-2-nwse \\
        --proof --out benchmarks/forced-supports-search.md
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from coinsat.io.instance_format import read_instance
from coinsat.rules import Move, apply_move
from coinsat.theory.supports import Batch, h_partial

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = ROOT / "instances" / "families"
CHUNK = 1 << 16
DEFAULT_MEMBERS = ["vdiag-2-2-nwse", "vdiag-3-2-nwse", "vdiag-3-3-swne"]


def expand(batch: Batch, m: np.ndarray, n: int) -> np.ndarray:
    """Sorted distinct successors (jumps) of the states m (uint64 bitmasks)."""
    out = []
    for c in range(n):
        bit = np.uint64(1) << np.uint64(c)
        sel = m[(m & bit) != 0]
        if sel.size == 0:
            continue
        rest = sel & ~bit
        dest = batch.count_at_least(rest, batch.d) & ~sel
        keep = dest != 0
        rest, dest = rest[keep], dest[keep]
        while rest.size:
            low = dest & (~dest + np.uint64(1))
            out.append(rest | low)
            dest = dest ^ low
            keep = dest != 0
            rest, dest = rest[keep], dest[keep]
    return np.unique(np.concatenate(out)) if out else np.zeros(0, dtype=np.uint64)


def _member(visited: np.ndarray, x: np.ndarray) -> np.ndarray:
    if visited.size == 0:
        return np.zeros(x.size, dtype=bool)
    i = np.searchsorted(visited, x)
    i[i == visited.size] = 0
    return visited[i] == x


def search(instance, upper_bound: int, which: str, max_states: int | None = None, keep_layers: bool = False) -> dict:
    """Layered BFS pruned by t + h <= U (module docstring); stops at the first layer holding a
    goal placement or at an empty layer.  Returns depth (None: no goal), states kept, expanded,
    CPU seconds, the layer sizes, and with ``keep_layers`` the layers ("kept": sorted bitmasks)."""
    board = instance.board
    goals = [g.mask for g in instance.goal_configurations]
    batch = Batch(board, instance.d, goals)
    h = batch.h_fill if which == "fill" else batch.h_forced
    if which == "partial":  # Lemma K, one state at a time in Python (small instances only)

        def h(m: np.ndarray) -> np.ndarray:
            return np.fromiter((h_partial(board, instance.d, int(x), goals) for x in m), np.int64, m.size)

    goal_arr = np.array(sorted(goals), dtype=np.uint64)
    start = np.array([instance.start.mask], dtype=np.uint64)
    t0 = time.process_time()
    if h(start)[0] > upper_bound:
        return {"depth": None, "states": 0, "expanded": 0, "cpu": time.process_time() - t0, "layers": [0]}
    visited, front, sizes, expanded, depth = start, start, [1], 0, 0
    kept_layers = [start]
    found = None
    while front.size and found is None:
        if _member(goal_arr, front).any():
            found = depth
            break
        if depth >= upper_bound:
            break
        kept = []
        for i in range(0, front.size, CHUNK):
            succ = expand(batch, front[i : i + CHUNK], board.size)
            succ = succ[~_member(visited, succ)]
            if succ.size:
                succ = succ[depth + 1 + h(succ) <= upper_bound]
            kept.append(succ)
        expanded += front.size
        front = np.unique(np.concatenate(kept))
        depth += 1
        sizes.append(int(front.size))
        if keep_layers:
            kept_layers.append(front)
        if front.size:
            visited = np.sort(np.concatenate([visited, front]), kind="stable")  # two sorted runs: a merge
        if max_states is not None and visited.size > max_states:
            raise SystemExit(f"{instance.name}: more than {max_states} states (--max-states)")
    return {
        "depth": found,
        "states": int(visited.size),
        "expanded": expanded,
        "cpu": time.process_time() - t0,
        "layers": sizes,
        **({"kept": kept_layers} if keep_layers else {}),
    }


def engine_run(instance, upper_bound: int, which: str) -> dict:
    """The ranked engine with either h (one process); the same fields as :func:`search`."""
    from coinsat.solve import solve

    t0 = time.process_time()
    r = solve(instance, "rankbfs", upper_bound=upper_bound, forced_supports=which == "forced", workers=1)
    cpu = time.process_time() - t0
    if r.status.value not in ("optimal", "bounded"):
        raise SystemExit(f"{instance.name}, U = {upper_bound}, h {which}: rankbfs answered {r.status.value}")
    return {
        "depth": r.length if r.status.value == "optimal" else None,
        "states": int(r.stats["states"]),
        "expanded": int(r.stats["expanded"]),
        "cpu": cpu,
        "layers": list(r.stats["layers"]),
    }


def stored_length(name: str) -> int:
    """The length of the stored solution of ``name``, after replaying it with rules.apply_move."""
    sol = json.loads((FAMILIES / "solutions" / f"{name}.json").read_text())
    inst = read_instance(FAMILIES / f"{name}.toml")
    config = inst.start
    for src, dst in sol["moves"]:
        config = apply_move(inst.board, config, Move(inst.board.cell(tuple(src)), inst.board.cell(tuple(dst))), inst.d)
    if not inst.is_goal(config):
        raise SystemExit(f"{name}: the stored solution does not end on a goal placement")
    return len(sol["moves"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--members", nargs="+", default=DEFAULT_MEMBERS)
    ap.add_argument("--engine", choices=("rankbfs", "own"), default="rankbfs")
    ap.add_argument(
        "--contender", choices=("forced", "partial"), default="forced", help="partial: Lemma K, --engine own only"
    )
    ap.add_argument("--proof", action="store_true", help="also U = L - 1 (the search that proves L optimal)")
    ap.add_argument("--max-states", type=int, default=None)
    ap.add_argument("--rows", default=None, help="JSON lines: rows done are read and skipped, new ones appended")
    ap.add_argument("--out", default=None, help="write the Markdown table here (default: print only)")
    args = ap.parse_args()
    if args.contender == "partial" and args.engine != "own":
        ap.error("--contender partial runs in --engine own only (Lemma K is not in the engine)")
    rows = []
    done = {}
    if args.rows and Path(args.rows).exists():
        for line in Path(args.rows).read_text().splitlines():
            r = json.loads(line)
            done[(r[0], r[4], r[-1])] = tuple(r)
    run = search if args.engine == "own" else engine_run
    if args.engine == "rankbfs":  # numba compiles here, not inside the first timed run
        engine_run(read_instance(FAMILIES / "vdiag-2-2-swne.toml"), 35, "fill")
    for name in args.members:
        inst = read_instance(FAMILIES / f"{name}.toml")
        L = stored_length(name)
        for U in [L] + ([L - 1] if args.proof else []):
            if (name, U, f"{args.engine} {args.contender}") in done:
                rows.append(done[(name, U, f"{args.engine} {args.contender}")])
                print(_line(rows[-1]), "(from --rows)", flush=True)
                continue
            base = run(inst, U, "fill") if args.engine == "rankbfs" else search(inst, U, "fill", args.max_states)
            c = args.contender
            new = run(inst, U, c) if args.engine == "rankbfs" else search(inst, U, c, args.max_states)
            if base["depth"] != new["depth"]:
                raise SystemExit(f"{name}, U = {U}: the two searches disagree ({base['depth']} vs {new['depth']})")
            expect = L if U == L else None
            if base["depth"] != expect:
                raise SystemExit(f"{name}, U = {U}: goal met at depth {base['depth']}, expected {expect}")
            peak = int(np.argmax(base["layers"]))
            row = (name, inst.board.size, inst.n_coins, L, U, base, new, peak, f"{args.engine} {args.contender}")
            rows.append(row)
            print(_line(row), flush=True)
            if args.rows:
                with open(args.rows, "a") as f:
                    f.write(json.dumps(row) + "\n")
    if args.out:
        cmd = "python3 scripts/forced_supports_search.py " + " ".join(sys.argv[1:])
        text = [
            "# Forced supports in a whole bounded search: states kept, against today's h\n",
            f"Made by `{cmd}` (nice -n 10, one core, the machine shared; see the script's docstring; "
            "rows resumed from --rows "
            "were measured by an earlier invocation of the same command). "
            "Column 'search': rankbfs = the ranked engine, one process (its h_fill compiled with "
            "numba, its h_forced numpy: the CPU columns include that difference); own = the script's "
            "layered BFS on bitmasks, numpy, with the engine's pruning rule (keep a state first met at "
            "depth t iff t + h <= U). Each row: once with today's h (h_fill, the fill schedule of the "
            "empty goal cells) and once with h_forced (docs/forced-supports.md, Theorem H), same U, "
            "one after the other. U = L (the stored solution's length, replayed by rules.py): both "
            "meet the goal at depth L; U = L - 1: both end with an empty layer (no solution with "
            "<= L - 1 moves). 'states' = configurations kept over all layers; 'peak' = the largest "
            "layer of the baseline and the same depth's layer of the contender. Contender 'partial': "
            "Lemma K of docs/forced-supports.md, Python one state at a time (its CPU is not comparable).\n",
            "| instance | search, contender | cells | coins | L | U | answer | states (h_fill) | "
            "states (contender) | ratio | "
            "peak depth | peak layer (h_fill) | same depth (contender) | ratio | CPU s (h_fill) | "
            "CPU s (contender) | CPU ratio |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        text += [_line(r) for r in rows]
        Path(args.out).write_text("\n".join(text) + "\n")
    return 0


def _line(row) -> str:
    name, cells, coins, L, U, base, new, peak, engine = row
    answer = f"goal at {base['depth']}" if base["depth"] is not None else f"none <= {U}"
    pb = base["layers"][peak]
    pn = new["layers"][peak] if peak < len(new["layers"]) else 0
    return (
        f"| {name} | {engine} | {cells} | {coins} | {L} | {U} | {answer} | {base['states']:,} | {new['states']:,} | "
        f"{new['states'] / max(base['states'], 1):.3f} | {peak} | {pb:,} | {pn:,} | {pn / max(pb, 1):.3f} | "
        f"{base['cpu']:.1f} | {new['cpu']:.1f} | {new['cpu'] / max(base['cpu'], 1e-9):.2f} |"
    )


if __name__ == "__main__":
    raise SystemExit(main())
