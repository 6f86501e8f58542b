"""Bitmask searches of the forced-supports studies (docs/forced-supports.md), in numpy.

Boards of at most 64 cells: a configuration is one uint64 bitmask; unlabeled jumps with the
instance's d, the successors and predecessors computed with ``theory/supports.py``'s
``Batch.count_at_least`` (pinned to ``rules.py``'s kernels by tests/test_forced_supports.py).

* :func:`search`: a layered BFS pruned by a lower bound h with the ranked engine's rule
  (``search/rank/search.py``, bound-and-prune): a state first met at depth t is kept iff
  t + h(state) <= U, every kept state is in exactly one layer.  The span pruning of the engine
  is implied: h is finite iff every goal cell is in the successor's span.  Used to compare
  ``h_fill`` (the engine's h) with ``h_forced`` (Theorem H) and ``h_partial`` (Lemma K) by the
  states each keeps (``scripts/forced_supports_search.py``), and to build layers certificates
  of the forced kind in the tests.
* :func:`predecessors`, :func:`successors`, :func:`shells`: the backward ball, the shells of
  configurations at distance r from the goal placements inside span(start), and the forward
  ones from the start, with their mean branching (``scripts/backward_ball.py``).
"""

from __future__ import annotations

import time

import numpy as np

from coinsat.errors import LimitReached
from coinsat.theory.supports import Batch, h_partial

CHUNK = 1 << 16
ONE = np.uint64(1)


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
    CPU seconds, the layer sizes, and with ``keep_layers`` the layers ("kept": sorted bitmasks).
    ``which``: "fill" (``Batch.h_fill``), "forced" (``Batch.h_forced``) or "partial" (Lemma K, one
    state at a time in Python).  Raises LimitReached past ``max_states`` states."""
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
            raise LimitReached(f"{instance.name}: more than {max_states} states")
    return {
        "depth": found,
        "states": int(visited.size),
        "expanded": expanded,
        "cpu": time.process_time() - t0,
        "layers": sizes,
        **({"kept": kept_layers} if keep_layers else {}),
    }


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
