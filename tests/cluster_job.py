"""Run under ``mpiexec -n 2``: rankbfs on the MPI ranks against one process and bfs (tests/test_rankbfs_cluster.py).

Every rank builds the same seeded random instances (a goal a random walk of legal moves away)
and runs the collective search; rank 0 also runs the single-process search and bfs, and prints
one JSON line per instance: the answers, whether the layers are equal state for state, and
the moves of both (the same path: both walk back from the smallest goal rank met).  A case
named "forced" prunes with the forced-supports h (bounded cases only).
"""

from __future__ import annotations

import json
import random
import sys

import numpy as np

from coinsat.families import vdiag
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.rules import apply_move, legal_moves
from coinsat.search.bfs import solve_bfs
from coinsat.search.options import RankbfsOptions
from coinsat.search.rank.mpi import is_primary
from coinsat.search.rank.search import solve_rankbfs


def walked(rnd: random.Random):
    """A square or graph instance, goal 3..9 random legal moves (no repeats) from the start."""
    if rnd.random() < 0.5:
        cells: list = [(x, y) for x in range(4) for y in range(3)]
        kind, edges = "square", None
    else:
        cells = list(range(8))
        pairs = [(u, v) for u in cells for v in cells if u < v]
        kind, edges = "graph", sorted(set(rnd.sample(pairs, 12)) | {(i, i + 1) for i in range(7)})
    k, d = rnd.randint(3, 5), rnd.choice((1, 2, 2, 3))
    start = rnd.sample(cells, k)
    inst = make_instance(kind, start, start, adjacency=d, edges=edges, cells=cells)
    config, seen = inst.start, {inst.start}
    for _ in range(rnd.randint(3, 9)):
        moves = [m for m in legal_moves(inst.board, config, d) if apply_move(inst.board, config, m, d) not in seen]
        if not moves:
            break
        config = apply_move(inst.board, config, rnd.choice(moves), d)
        seen.add(config)
    coords = inst.board.coords
    goal = [coords[c] for c in config.cells]
    return make_instance(kind, start, goal, adjacency=d, edges=edges, cells=cells)


def answer(r) -> list:
    return [r.status.value, r.length, r.lower_bound]


def cases(count: int):
    """(name, instance, max_moves, upper bound): paper and V-family members, then random walks."""
    diag, v21, v21s = read_instance("instances/paper/diagonal.toml"), vdiag(2, 1, "nwse"), vdiag(2, 1, "swne")
    yield "diagonal", diag, None, None
    yield "V(2,1)->NW-SE U=24", v21, None, 24
    yield "V(2,1)->NW-SE U=23 (too low: bounded)", v21, None, 23
    yield "V(2,1)->NW-SE U=24 forced", v21, None, 24
    yield "V(2,1)->NW-SE U=23 forced (too low: bounded)", v21, None, 23
    yield "diagonal U=18 forced", diag, None, 18
    yield "V(2,1)->SW-NE <= 10 moves (bounded)", v21s, 10, None
    rnd = random.Random(14)
    for i in range(count):
        inst = walked(rnd)
        U = None
        if i % 2 and is_primary():
            b = solve_bfs(inst)
            U = b.length if b.status is Status.OPTIMAL else None
        from mpi4py import MPI

        U = MPI.COMM_WORLD.bcast(U, root=0)
        yield f"random {i}" + (" forced" if U is not None and i % 4 == 3 else ""), inst, None, U


def main(count: int) -> None:
    for name, inst, T, U in cases(count):
        forced = "forced" in name
        got = solve_rankbfs(
            inst, max_moves=T, options=RankbfsOptions(cluster=True, upper_bound=U, forced_supports=forced)
        )
        if not is_primary():
            continue
        one = solve_rankbfs(inst, max_moves=T, options=RankbfsOptions(upper_bound=U, forced_supports=forced))
        a, b = got.witness.layers, one.witness.layers
        same = got.stats.get("layers") == one.stats.get("layers") and (
            (a is None and b is None)
            or (a is not None and b is not None and np.array_equal(a.keys, b.keys) and np.array_equal(a.depth, b.depth))
        )
        # a U below the optimum: no solution with <= U moves (bfs to U would repeat the U = 24 case)
        want = got if "too low" in name else solve_bfs(inst, max_moves=T)
        line = {"case": name, "cluster": answer(got), "one": answer(one), "bfs": answer(want), "same_layers": same}
        line["ranks"] = got.stats.get("cluster_ranks")
        line["same_moves"] = (got.solution and got.solution.moves) == (one.solution and one.solution.moves)
        line["h"] = [got.stats.get("h"), one.stats.get("h"), a.heuristic if a is not None else None]
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]))
