"""Forced supports: an admissible lower bound on the moves left, stronger than the fill schedule.

The proof is ``docs/forced-supports.md``; the lemmas named here are its lemmas.

*The fill schedule* (``h_fill``, the h of the ranked search and of the layers checker).
R_0 = C, R_j = R_{j-1} + {cells with >= d neighbours in R_{j-1}} (Lemma R: the configuration
after t moves from C lies in R_t).  A cell empty in C that must hold a coin later is the
destination of a move (Lemma D); the cell first in R_j cannot be the destination of a move
before the j-th one.  One destination per move, so for cells X with entry layers
f_1 <= ... <= f_m, every path from C that drops a coin on each of them has
>= max_i (f_i + m - i) moves (Lemma Q, "the schedule"; 1-based i).  h_fill takes X = the empty
cells of the goal placement.

*Forced supports* (``h_forced``).  Every configuration reached from C lies in span(C)
(Lemma SM).  When a cell x that some move must drop a coin on has exactly d neighbours in
span(C), all d hold coins other than the moving one at that drop (Lemma F): each of them that
is empty in C is itself the destination of an earlier move.  Closing the empty goal cells
under that rule (adding only cells empty in C and outside the goal: goal cells are in X
already) gives X+ (Lemma X); h_forced is the schedule over X+, and infinite (``BIG``) when a
cell of X+ has fewer than d neighbours in span(C) (it can never be a destination).  X+
contains X, and the schedule never decreases when cells are added (Lemma M), so
h_fill <= h_forced <= the distance to the goal placement (Theorem H).  Both are minimised
over the goal placements.

Two forms of each: on one configuration (Python integers as cell bitmasks, any board) and on
a batch (:class:`Batch`: numpy uint64 words, boards of at most 64 cells), tested equal.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from ..board import Board
from ..configuration import bits

#: "no path": a cell that must be filled never can be
BIG = 1 << 30


def entry_layers(nbr: Sequence[int], d: int, C: int, cells: int) -> list[int] | None:
    """f(x) for the cells x of ``cells`` - C: the j with x first in R_j (Lemma R); None if one
    never enters (it lies outside span(C))."""
    f: list[int] = []
    cur, j, todo = C, 0, cells & ~C
    n = len(nbr)
    while todo:
        j += 1
        grown = cur
        for c in range(n):
            if not cur >> c & 1 and (nbr[c] & cur).bit_count() >= d:
                grown |= 1 << c
        if grown == cur:
            return None
        new = grown & ~cur & todo
        f += [j] * new.bit_count()
        todo &= ~new
        cur = grown
    return f


def schedule(f: Iterable[int]) -> int:
    """Lemma Q: max_i (f_i + m - i) over the sorted f_1 <= ... <= f_m (0 for none)."""
    s = sorted(f)
    m = len(s)
    return max((s[i] + m - 1 - i for i in range(m)), default=0)


def _grown(nbr: Sequence[int], d: int, cur: int) -> int:
    """``cur`` and every cell with at least d neighbours in it (one step R_j -> R_{j+1})."""
    grown = cur
    for c in range(len(nbr)):
        if not cur >> c & 1 and (nbr[c] & cur).bit_count() >= d:
            grown |= 1 << c
    return grown


def span_of(nbr: Sequence[int], d: int, C: int) -> int:
    """span(C): the union of the R_j."""
    cur = C
    while (grown := _grown(nbr, d, cur)) != cur:
        cur = grown
    return cur


def forced_cells(nbr: Sequence[int], d: int, C: int, goal: int) -> int | None:
    """X+ of Lemma X (a bitmask: the empty goal cells and their forced supports, closed), or
    None when a cell of it has fewer than d neighbours in span(C) (no path to ``goal``)."""
    spn = span_of(nbr, d, C)
    X = goal & ~C
    todo = list(bits(X))
    while todo:
        around = nbr[todo.pop()] & spn
        count = around.bit_count()
        if count < d:
            return None
        if count == d:
            for q in bits(around & ~C & ~goal & ~X):
                X |= 1 << q
                todo.append(q)
    return X


def h_fill_one(nbr: Sequence[int], d: int, C: int, goal: int) -> int:
    """The fill schedule of the empty cells of one goal placement (BIG: unreachable)."""
    f = entry_layers(nbr, d, C, goal)
    return BIG if f is None else schedule(f)


def h_forced_one(nbr: Sequence[int], d: int, C: int, goal: int) -> int:
    """Theorem H: the schedule over X+ (Lemma X) for one goal placement (BIG: unreachable)."""
    X = forced_cells(nbr, d, C, goal)
    if X is None:
        return BIG
    f = entry_layers(nbr, d, C, X)
    return BIG if f is None else schedule(f)


def h_fill(board: Board, d: int, C: int, goals: Iterable[int]) -> int:
    """Today's h: the fill schedule, minimised over the goal placements (bitmasks)."""
    return min((h_fill_one(board.neighbour_masks, d, C, g) for g in goals), default=BIG)


def h_forced(board: Board, d: int, C: int, goals: Iterable[int]) -> int:
    """The forced-supports h (Theorem H), minimised over the goal placements (bitmasks)."""
    return min((h_forced_one(board.neighbour_masks, d, C, g) for g in goals), default=BIG)


class Batch:
    """Both bounds on arrays of configurations (uint64 bitmasks, boards of <= 64 cells).

    The neighbour planes are shifts: for each cell difference delta, the mask of the cells p
    with p ~ p + delta; ``count_at_least(m, t)`` is the cells with >= t neighbours in m."""

    def __init__(self, board: Board, d: int, goals: Iterable[int]):
        n = board.size
        if n > 64:
            raise ValueError(f"Batch takes boards of at most 64 cells, not {n}")
        by_delta: dict[int, int] = {}
        for p, mask in enumerate(board.neighbour_masks):
            for q in bits(mask):
                by_delta[q - p] = by_delta.get(q - p, 0) | (1 << p)
        self.shifts = [(k, np.uint64(m)) for k, m in sorted(by_delta.items())]
        self.full = np.uint64((1 << n) - 1)
        self.d = d
        self.goals = [np.uint64(g) for g in goals]

    def _planes(self, m: np.ndarray):
        for k, mask in self.shifts:
            yield ((m >> np.uint64(k)) if k > 0 else (m << np.uint64(-k))) & mask

    def count_at_least(self, m: np.ndarray, t: int) -> np.ndarray:
        """Cells with >= t neighbours in m (a t-level threshold counter over the planes)."""
        ge = [np.zeros_like(m) for _ in range(t + 1)]
        for plane in self._planes(m):
            for lvl in range(t, 1, -1):
                ge[lvl] |= ge[lvl - 1] & plane
            ge[1] |= plane
        return ge[t] & self.full

    def span(self, m: np.ndarray) -> np.ndarray:
        cur = m.copy()
        while True:
            grown = cur | self.count_at_least(cur, self.d)
            if np.array_equal(grown, cur):
                return cur
            cur = grown

    def schedule(self, m: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """Lemma Q over ``cells`` - m, per column (BIG where a cell never enters R_j)."""
        empty = cells & ~m
        left = np.bitwise_count(empty).astype(np.int64)
        h = np.zeros(m.size, dtype=np.int64)
        active = np.flatnonzero(left > 0)
        cur, empty = m[active], empty[active]
        j = 0
        while active.size:
            j += 1
            grown = cur | self.count_at_least(cur, self.d)
            new = np.bitwise_count(grown & ~cur & empty).astype(np.int64)
            h[active] = np.where(new > 0, np.maximum(h[active], j - 1 + left[active]), h[active])
            left[active] -= new
            stuck = (grown == cur) & (left[active] > 0)
            h[active[stuck]] = BIG
            go = (left[active] > 0) & ~stuck
            active, cur, empty = active[go], grown[go], empty[go]
        return h

    def forced(self, m: np.ndarray, goal: np.uint64) -> tuple[np.ndarray, np.ndarray]:
        """(X+, dead) per column: Lemma X's closure, and where a cell of it has < d span neighbours."""
        spn = self.span(m)
        at_least = self.count_at_least(spn, self.d)
        exactly = at_least & ~self.count_at_least(spn, self.d + 1)
        X = goal & ~m
        fresh = X
        while True:
            tight = fresh & exactly  # cells of X whose d span neighbours are all forced
            if not tight.any():
                break
            around = np.zeros_like(m)
            for plane in self._planes(tight):
                around |= plane
            fresh = around & spn & ~m & ~goal & ~X
            X = X | fresh
        dead = (X & ~at_least) != 0
        return X, dead

    def h_fill(self, m: np.ndarray) -> np.ndarray:
        best = np.full(m.size, BIG, dtype=np.int64)
        for g in self.goals:
            best = np.minimum(best, self.schedule(m, g))
        return best

    def h_forced(self, m: np.ndarray) -> np.ndarray:
        best = np.full(m.size, BIG, dtype=np.int64)
        for g in self.goals:
            X, dead = self.forced(m, g)
            h = self.schedule(m, X)
            h[dead] = BIG
            best = np.minimum(best, h)
        return best


# --- beyond forced supports: "r of a set" (Lemma K of docs/forced-supports.md; not in the engine) ---


def layer_map(nbr: Sequence[int], d: int, C: int) -> dict[int, int]:
    """The entry layer f(x) of every cell x of span(C) - C."""
    f: dict[int, int] = {}
    cur, j = C, 0
    while True:
        j += 1
        grown = _grown(nbr, d, cur)
        if grown == cur:
            return f
        for c in bits(grown & ~cur):
            f[c] = j
        cur = grown


def h_partial_one(nbr: Sequence[int], d: int, C: int, goal: int) -> int:
    """Lemma K: the schedule over X+ and, for cells x of X+ (in increasing order) whose free
    candidates F (empty neighbours in span(C), not in X+) are disjoint from every F taken before,
    the r = d - |occupied neighbours| - |neighbours in X+ - C| smallest entry layers of F (r >= 1)."""
    X = forced_cells(nbr, d, C, goal)
    if X is None:
        return BIG
    spn = span_of(nbr, d, C)
    f = layer_map(nbr, d, C)
    values = [f[c] for c in bits(X)]
    taken = 0
    for x in bits(X):
        around = nbr[x] & spn
        free = around & ~C & ~X
        r = d - (around & C).bit_count() - (around & ~C & X).bit_count()
        if r >= 1 and free and not free & taken:
            taken |= free
            values += sorted(f[c] for c in bits(free))[:r]
    return schedule(values)


def h_partial(board: Board, d: int, C: int, goals: Iterable[int]) -> int:
    """Lemma K's bound, minimised over the goal placements (bitmasks)."""
    return min((h_partial_one(board.neighbour_masks, d, C, g) for g in goals), default=BIG)
