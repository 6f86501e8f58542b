"""The backward ball and the perimeter h of ``rankbfs`` (``--perimeter R``).

The proofs are ``docs/perimeter-search.md``; the lemmas named here are its lemmas.

*Undoing a move* (Lemma U).  A move s -> p is legal in X iff s holds a coin, p is empty and p
has >= d coins of X - s around it (``coinsat/rules.py``).  It leads to Y = X - s + p, and
X - s = Y - p, so the move is legal exactly when p is a coin of Y with >= d coins of Y beside it
(p is not its own neighbour) and s is empty in Y.  The predecessors of Y are therefore
Y - p + s for every coin p of Y with >= d coins of Y around it and every empty cell s: the
condition sits on the lifted coin, not on the target, so the reverse of a move is not a move of
the same kind (``rules.predecessors`` is the same rule on bitmasks; a test pins them).

*The ball* (Lemma B).  S = span(start) is closed (no cell outside has >= d neighbours in it),
so every path from a configuration inside S stays inside S (Lemma SM): the distance to the
goal of a configuration of S is the same in the graph of the configurations of S as in the
window's, and a breadth-first search backwards from the goal placements of S, over
configurations of S, meets each configuration of S first at its distance.  The shells
S_0, ..., S_r (sorted colex ranks, ``uint64``) are that search to depth r.

*The perimeter h* (Theorem P).  h_perim(C) = dist(C) when C lies in B_r = S_0 + ... + S_r, and
max(h(C), r + 1) otherwise, for any admissible inner h (``fill``, ``forced`` or ``lmcut``): outside the
ball dist(C) > r.  It is admissible, so the ranked search prunes with it exactly as with h.

Nothing here is needed by the checker, which recomputes the ball with a kernel of its own
(``certificates/check/perimeter.py``).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ...errors import LimitReached, UsageError
from ...limits import Limits
from ..layered import unique
from .colex import U64, to_words
from .space import CHUNK, Ranks, Space, union

#: the distances of the ball are stored as one byte each
MAX_RADIUS = 250


def region_of(space: Space) -> np.ndarray:
    """span(start) inside the window, a (W, 1) bitboard (Lemma B: configurations outside it
    are never reached from the start)."""
    start = to_words(np.array([sorted(space.instance.start.cells)], dtype=np.int64), space.kernel.W)
    return space.kernel.span(start)


def _set_bits(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(column, cell) of every set bit of the bitboards m (W, N): the lowest set bit of every
    nonzero word per round (x & -x; its cell is the count of the bits below it)."""
    rows, cells = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for w in range(m.shape[0]):
        idx = np.flatnonzero(m[w])
        vals = m[w][idx]
        while idx.size:
            low = vals & (~vals + U64(1))
            rows.append(idx)
            cells.append(np.bitwise_count(low - U64(1)).astype(np.int64) + 64 * w)
            vals = vals ^ low
            more = vals != 0
            idx, vals = idx[more], vals[more]
    return np.concatenate(rows), np.concatenate(cells)


def predecessors(space: Space, ranks: np.ndarray, region: np.ndarray) -> tuple[np.ndarray, int]:
    """The sorted distinct ranks of the predecessors inside ``region`` of the configurations
    ``ranks`` (Lemma U), and how many were generated before repeats were removed."""
    K, colex = space.kernel, space.colex
    out = [np.zeros(0, dtype=U64)]
    made = 0
    d = K.d if K.d is not None else 1 << 30
    for i in range(0, ranks.size, CHUNK):
        part = ranks[i : i + CHUNK]
        coins = np.ascontiguousarray(colex.unrank(part).T)  # (k, N)
        words = to_words(coins.T, K.W)
        ranked = Ranks(colex, coins, part)
        here = []
        for j in range(space.k):
            rows = np.flatnonzero(K.count0(K.nbr[:, coins[j]] & words) >= d)  # coin j was the last drop
            if rows.size == 0:
                continue
            w = words[:, rows]
            r, s = _set_bits(region & ~w)  # the undone move's source: any empty cell of S
            cj = coins[j][rows[r]]
            coin = np.zeros((K.W, r.size), dtype=U64)
            coin[cj >> 6, np.arange(r.size)] = U64(1) << (cj & 63).astype(U64)
            rest = w[:, r] & ~coin
            made += int(r.size)
            here.append(ranked.successors(j, rows[r], s, rest, K.below))
        if here:
            out.append(unique(np.concatenate(here)))
    return union(out[1:]) if len(out) > 1 else out[0], made


class Ball:
    """The shells S_0 .. S_r of the backward ball (Lemma B) and the perimeter h (Theorem P).

    ``shells[i]``: the sorted ranks at distance exactly i; ``made[i]``: predecessors generated
    from S_{i-1} (repeats included), for the branching measurements."""

    def __init__(
        self,
        space: Space,
        radius: int,
        limits: Limits | None = None,
        max_states: int | None = None,
        progress: Callable[[int, int], None] | None = None,
    ):
        if not 0 <= radius <= MAX_RADIUS:
            raise UsageError(f"--perimeter: the radius must be 0 .. {MAX_RADIUS}, not {radius}")
        self.space, self.radius = space, radius
        region = region_of(space)
        inside = [g for g in space.goals if all(int(region[int(c) >> 6, 0]) >> (int(c) & 63) & 1 for c in g)]
        goal = unique(space.colex.rank(np.array(inside, dtype=np.int64).reshape(-1, space.k)))
        self.shells = [goal]
        self.made = [0]
        seen = goal
        for i in range(1, radius + 1):
            if limits is not None and (reason := limits.exceeded()):
                raise LimitReached(f"the backward ball stopped at radius {i} ({reason})")
            pre, made = predecessors(space, self.shells[-1], region)
            shell = pre[~np.isin(pre, seen, assume_unique=True)] if seen.size else pre
            self.shells.append(shell)
            self.made.append(made)
            seen = union([seen, shell])
            if max_states is not None and seen.size > max_states:
                raise LimitReached(f"the backward ball passed {max_states} states at radius {i}")
            if progress is not None:
                progress(i, int(shell.size))
        order = np.argsort(np.concatenate(self.shells), kind="stable")
        self.ranks = np.concatenate(self.shells)[order]
        self.dist = np.concatenate([np.full(s.size, i, dtype=np.uint8) for i, s in enumerate(self.shells)])[order]

    @property
    def size(self) -> int:
        return int(self.ranks.size)

    def distance(self, ranks: np.ndarray) -> np.ndarray:
        """dist(C) for the ranks in the ball, -1 for the others (int64)."""
        out = np.full(ranks.size, -1, dtype=np.int64)
        if self.ranks.size == 0 or ranks.size == 0:
            return out
        idx = np.minimum(np.searchsorted(self.ranks, ranks), self.ranks.size - 1)
        hit = self.ranks[idx] == ranks
        out[hit] = self.dist[idx[hit]]
        return out

    def h(self, ranks: np.ndarray, inner: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """Theorem P: dist(C) inside the ball, max(inner(C), r + 1) outside (inner computed only there)."""
        out = self.distance(ranks)
        far = out < 0
        if far.any():
            out[far] = np.maximum(inner(ranks[far]), self.radius + 1)
        return out
