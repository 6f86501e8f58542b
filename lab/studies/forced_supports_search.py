#!/usr/bin/env python3
"""States kept by a bound-and-prune search with the forced-supports h against today's h.

``--engine rankbfs`` (default): the ranked engine itself, one process (``solve(..., "rankbfs",
upper_bound=U, forced_supports=False / True, workers=1)``; its h_fill is compiled when numba is
installed, its h_forced is numpy), numba warmed up on V(2,2) before the first timed run.

``--engine own``: ``lab.forced_supports.search``, a layered BFS on bitmask states
(boards of <= 64 cells) with the engine's pruning rule (a state first met at depth t is kept iff
t + h(state) <= U).  h is ``theory/supports.py``'s ``Batch.h_fill`` (today's h, the engine's) or
``Batch.h_forced`` (docs/forced-supports.md, Theorem H); both run in numpy there, so the CPU
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

from coinsat import Status, read_instance
from coinsat.errors import LimitReached
from lab.commandline import shown
from lab.forced_supports import search
from lab.proofs import known_length

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ROOT / "instances" / "families"
DEFAULT_MEMBERS = ["vdiag-2-2-nwse", "vdiag-3-2-nwse", "vdiag-3-3-swne"]


def engine_run(instance, upper_bound: int, which: str) -> dict:
    """The ranked engine with either h (one process); the same fields as :func:`search`."""
    from coinsat import solve

    t0 = time.process_time()
    r = solve(instance, "rankbfs", upper_bound=upper_bound, forced_supports=which == "forced", workers=1)
    cpu = time.process_time() - t0
    if r.status not in (Status.OPTIMAL, Status.BOUNDED):
        raise SystemExit(f"{instance.name}, U = {upper_bound}, h {which}: rankbfs answered {r.status.value}")
    return {
        "depth": r.length if r.status is Status.OPTIMAL else None,
        "states": int(r.stats["states"]),
        "expanded": int(r.stats["expanded"]),
        "cpu": cpu,
        "layers": list(r.stats["layers"]),
    }


def stored_length(name: str) -> int:
    """The length of the stored solution of ``name``, replayed by rules.py (study.proofs.known_length)."""
    length = known_length(read_instance(FAMILIES / f"{name}.toml"), FAMILIES / "solutions" / f"{name}.json")
    if length is None:
        raise SystemExit(f"{name}: no stored solution, or it does not end on a goal placement")
    return length


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
            c = args.contender
            try:
                base = run(inst, U, "fill") if args.engine == "rankbfs" else search(inst, U, "fill", args.max_states)
                new = run(inst, U, c) if args.engine == "rankbfs" else search(inst, U, c, args.max_states)
            except LimitReached as e:
                raise SystemExit(f"{e} (--max-states)") from None
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
        cmd = shown("scripts/forced_supports_search.py", sys.argv[1:], ROOT)
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
