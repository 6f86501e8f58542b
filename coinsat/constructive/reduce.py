"""Reducing the span by search, where the staircase split of absorb.py does not apply.

The paper proves Theorem 2 for spans that are equal and says nothing on how a
configuration is brought down to a *smaller* span; the start side of the
square construction needs exactly that when a rectangle of span(A - E) holds
rectangles of span(B - E) that differ from it.  absorb.py handles the cases
where one staircase meets every smaller rectangle in turn (a monotone path
through their corners).  Two rectangles stacked in a column or a row cannot be
met by one monotone chain, and a corner of a smaller rectangle is sometimes
left without support; for those cases this module searches for forward moves
(start side: no reversibility needed) that leave, in every target rectangle,
coins whose own span is that rectangle.  Each target is then canonicalized on
its own (square.py), with every other coin standing still.

The search is greedy best-first over the coins of one rectangle of
span(A - E) (the other coins are fixed support), scored by the number of cells
of the targets not yet spanned; it is bounded (``max_states``) and says so
(GapError) when the bound is hit: it is a search, not a proof that no
reduction exists.  Every move it returns is replayed by rules.py through
Play.move like every other move of the construction.
"""

from __future__ import annotations

import heapq
from typing import Callable, Sequence

from ..errors import GapError
from ..geometry import Coord
from .staircase import nbrs

Rect = tuple[int, int, int, int]


def _inside(r: Rect, p: Coord) -> bool:
    return r[0] <= p[0] <= r[2] and r[1] <= p[1] <= r[3]


class _Grid:
    """The search window as bit positions, with neighbour masks and fixed support."""

    def __init__(self, cells: list[Coord], walls: set[Coord]):
        self.cells = cells
        self.index = {c: i for i, c in enumerate(cells)}
        self.nbr = [0] * len(cells)
        self.fixed = [0] * len(cells)
        for c, i in self.index.items():
            for n in nbrs(c):
                if n in self.index:
                    self.nbr[i] |= 1 << self.index[n]
                elif n in walls:
                    self.fixed[i] += 1

    def mask(self, coords) -> int:
        m = 0
        for c in coords:
            m |= 1 << self.index[c]
        return m

    def closure(self, mask: int, region: int) -> int:
        """The span of ``mask`` computed inside ``region`` (exact when region holds the span)."""
        span = mask
        while True:
            new = 0
            rest = region & ~span
            while rest:
                low = rest & -rest
                rest ^= low
                if (self.nbr[low.bit_length() - 1] & span).bit_count() >= 2:
                    new |= low
            if not new:
                return span
            span |= new

    def support_cost(self, s: int, goal: int) -> int:
        """A guide, not a bound: the fewest coins to drop (ignoring where they come from) before
        some cell of ``goal`` is occupied, each drop on a cell with two occupied neighbours or
        cheaper cells (Knuth's generalised Dijkstra over c(q) = 1 + the two cheapest neighbours)."""
        inf = 1 << 30
        n = len(self.cells)
        low1 = [0 if self.fixed[i] else inf for i in range(n)]  # cheapest finalised neighbour
        low2 = [0 if self.fixed[i] > 1 else inf for i in range(n)]  # second cheapest
        heap = [(0, i) for i in range(n) if s >> i & 1]
        for i in range(n):
            if low2[i] == 0 and not s >> i & 1:
                heap.append((1, i))
        heapq.heapify(heap)
        done = 0
        while heap:
            c, i = heapq.heappop(heap)
            if done >> i & 1:
                continue
            done |= 1 << i
            if goal >> i & 1:
                return c
            m = self.nbr[i] & ~done
            while m:
                low = m & -m
                m ^= low
                j = low.bit_length() - 1
                if c < low1[j]:
                    low1[j], low2[j] = c, low1[j]
                elif c < low2[j]:
                    low2[j] = c
                else:
                    continue
                if low2[j] < inf:
                    heapq.heappush(heap, (1 + low1[j] + low2[j], j))
        return inf

    def moves(self, s: int):
        """Every legal forward move from the occupied mask ``s``: (src bit, dst bit)."""
        full = (1 << len(self.cells)) - 1
        src = s
        while src:
            a = src & -src
            src ^= a
            rest = s & ~a
            empty = full & ~s
            while empty:
                b = empty & -empty
                empty ^= b
                i = b.bit_length() - 1
                if (self.nbr[i] & rest).bit_count() + self.fixed[i] >= 2:
                    yield a, b


def reduce_moves(
    occupied: set[Coord],
    movable: set[Coord],
    targets: Sequence[Rect],
    accept: Callable[[set[Coord]], bool],
    max_states: int = 20_000,
) -> list[tuple[Coord, Coord]]:
    """Forward moves of the ``movable`` coins (the others stand still and give support)
    after which the coins inside each target rectangle span it and ``accept`` holds.

    ``accept`` must depend on the coins alone: results (and failures) are remembered per
    position, because the driver tries the same reduction under both mirror frames."""
    key = (frozenset(occupied), frozenset(movable), tuple(targets), max_states)
    if key not in _SEEN:
        if len(_SEEN) > 256:
            _SEEN.clear()
        _SEEN[key] = _search(occupied, movable, targets, accept, max_states)
    found = _SEEN[key]
    if found is None:
        raise GapError(
            "reducing the span: no forward moves found (bounded search) that leave every "
            "rectangle of span(B - E) spanned by its own coins"
        )
    return list(found)


_SEEN: dict = {}


def _search(occupied, movable, targets, accept, max_states) -> tuple[tuple[Coord, Coord], ...] | None:
    walls = set(occupied) - set(movable)
    xs = [p[0] for p in movable] + [r[0] for r in targets] + [r[2] for r in targets]
    ys = [p[1] for p in movable] + [r[1] for r in targets] + [r[3] for r in targets]
    cells = [
        (x, y) for x in range(min(xs) - 1, max(xs) + 2) for y in range(min(ys) - 1, max(ys) + 2) if (x, y) not in walls
    ]
    grid = _Grid(cells, walls)
    regions = [grid.mask(c for c in cells if _inside(r, c)) for r in targets]

    def deficit(s: int) -> int:
        h = 0
        for reg in regions:
            missing = reg & ~grid.closure(s & reg, reg)
            if missing:
                h += missing.bit_count() + 2 * grid.support_cost(s, missing & ~s)
        return h

    start = grid.mask(movable)
    prev: dict[int, tuple[int, tuple[int, int]] | None] = {start: None}
    heap = [(deficit(start), 0, start)]
    while heap:
        h, g, s = heapq.heappop(heap)
        if h == 0 and accept({cells[i] for i in range(len(cells)) if s >> i & 1}):
            out = []
            while prev[s] is not None:
                s, (a, b) = prev[s]  # type: ignore[misc]
                out.append((cells[a.bit_length() - 1], cells[b.bit_length() - 1]))
            return tuple(out[::-1])
        for a, b in grid.moves(s):
            t = (s & ~a) | b
            if t in prev:
                continue
            prev[t] = (s, (a, b))
            heapq.heappush(heap, (deficit(t), g + 1, t))
        if len(prev) > max_states:
            break
    return None


def reaches(cells: list[Coord], start, goals, max_states: int) -> bool | None:
    """Whether some configuration of ``goals`` is reachable from ``start`` by moves inside
    ``cells`` (exact when the cells hold the start's span); None past ``max_states``."""
    grid = _Grid(cells, set())
    targets = {grid.mask(g) for g in goals}
    first = grid.mask(start)
    seen = {first}
    queue = [first]
    for s in queue:
        if s in targets:
            return True
        for a, b in grid.moves(s):
            if (t := (s & ~a) | b) not in seen:
                seen.add(t)
                queue.append(t)
        if len(seen) > max_states:
            return None
    return False
