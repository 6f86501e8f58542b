"""Span, span-minimality and extra coins (paper, section "General Tools").

The *span* of a set of occupied cells C under adjacency d is the smallest set
S ⊇ C such that no cell outside S has d or more neighbours in S (the paper
defines it by repeatedly adding every valid destination; the limit is this
least fixed point).  Lemma "span monotone": a legal move never leaves the span
— if C ⊆ S and s → p is legal, p has >= d coins of C - s ⊆ S around it, so
p ∈ S.  The same argument shows more: *any* cell set S ⊇ start closed in that
sense contains every reachable configuration (this is what the span
certificates check, without computing a span).

Two entry points, one algorithm each:

* :func:`span` — on a finite :class:`~coinsat.board.Board` (graph boards,
  lattice windows), with bitmasks;
* :func:`lattice_span` — on an infinite lattice, in coordinates; it calls
  :func:`coinsat.board.span_coords` inside a region that is known to contain
  the span (square grid, d >= 2: the bounding box, since a cell outside it has
  at most one neighbour inside).  On the triangular grid with d = 2 the span of
  anything with a valid move is the whole plane, so no finite region works.

Square grid (d = 2): the span is a disjoint union of rectangles at pairwise
distance >= 3 (paper, section "Basics"); :func:`rectangles` returns them and
:func:`is_rectangle_union` checks the property.  Lemma "min chain size": a
span rectangle of half-perimeter h (width + height) holds at least ⌈h/2⌉
coins — the perimeter of the coins never increases while the span is filled
in, starts <= 4n and ends at 2h (:func:`chain_bound`).

Extra coins: a set E of coins is *extra* when span(C - E) = span(C); a
configuration is *span-minimal* when no single coin is extra.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

from .. import geometry
from ..board import Board, span_coords
from ..configuration import bits
from ..geometry import Coord

# --- finite boards ---------------------------------------------------------------


def span_mask(board: Board, mask: int, d: int) -> int:
    """The span of the cells in bitmask ``mask`` on ``board`` (a bitmask)."""
    nbr = board.neighbour_masks
    span = mask
    frontier = mask
    while frontier:
        candidates = 0
        for c in bits(frontier):
            candidates |= nbr[c]
        candidates &= ~span
        new = 0
        for p in bits(candidates):
            if (nbr[p] & span).bit_count() >= d:
                new |= 1 << p
        # cells added in this round can make more cells valid: iterate to the fixed point
        span |= new
        frontier = new
    return span


def span(board: Board, cells: Iterable[int], d: int) -> frozenset[int]:
    """The span of ``cells`` on ``board`` (a finite board: graph, or lattice window)."""
    return frozenset(bits(span_mask(board, mask_of(cells), d)))


def is_span_minimal(board: Board, cells: Iterable[int], d: int) -> bool:
    """True iff removing any single coin shrinks the span."""
    return not extra_coins(board, cells, d)


def extra_coins(board: Board, cells: Iterable[int], d: int) -> tuple[int, ...]:
    """The coins whose (individual) removal keeps the span."""
    m = mask_of(cells)
    full = span_mask(board, m, d)
    return tuple(c for c in bits(m) if span_mask(board, m & ~(1 << c), d) == full)


def extra_pairs(board: Board, cells: Iterable[int], d: int) -> tuple[tuple[int, int], ...]:
    """The pairs of coins whose joint removal keeps the span (Theorem 2's e1, e2 in A)."""
    m = mask_of(cells)
    full = span_mask(board, m, d)
    singles = [c for c in bits(m) if span_mask(board, m & ~(1 << c), d) == full]
    # a pair is extra only if both coins are extra on their own (span is monotone in C)
    return tuple((a, b) for a, b in combinations(singles, 2) if span_mask(board, m & ~(1 << a) & ~(1 << b), d) == full)


# --- infinite lattices -------------------------------------------------------------


def lattice_span(lattice: str, coins: Iterable[Coord], d: int) -> frozenset[Coord]:
    """The span on the infinite lattice, when it is finite.

    Square grid with d >= 2: computed inside the bounding box (exact).  Raises
    ValueError where the span is not confined to a finite region that we know
    (triangular grid, or d = 1), rather than returning a truncated set.
    """
    coins = list(coins)
    if lattice != "square" or d < 2:
        raise ValueError(f"the span on the {lattice} grid with d = {d} need not be finite")
    if not coins:
        return frozenset()
    return frozenset(span_coords(lattice, coins, d, geometry.hull(lattice, coins, 0)))


@dataclass(frozen=True)
class Rectangle:
    """Cells x0 <= x <= x1, y0 <= y <= y1 of the square grid."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0 + 1

    @property
    def height(self) -> int:
        return self.y1 - self.y0 + 1

    @property
    def half_perimeter(self) -> int:
        return self.width + self.height

    @property
    def cells(self) -> frozenset[Coord]:
        return frozenset((x, y) for x in range(self.x0, self.x1 + 1) for y in range(self.y0, self.y1 + 1))

    def __contains__(self, xy) -> bool:
        x, y = xy
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def distance(self, other: "Rectangle") -> int:
        """Least grid (L1) distance between a cell of self and a cell of other."""
        dx = max(0, other.x0 - self.x1, self.x0 - other.x1)
        dy = max(0, other.y0 - self.y1, self.y0 - other.y1)
        return dx + dy


def components(lattice: str, coords: Iterable[Coord]) -> list[frozenset[Coord]]:
    """Connected components of the subgraph induced by ``coords`` (sorted)."""
    left = set(coords)
    out = []
    while left:
        seed = min(left)
        comp, stack = {seed}, [seed]
        left.discard(seed)
        while stack:
            for n in geometry.neighbours(lattice, stack.pop()):
                if n in left:
                    left.discard(n)
                    comp.add(n)
                    stack.append(n)
        out.append(frozenset(comp))
    return out


def bounding_rectangle(coords: Iterable[Coord]) -> Rectangle:
    """The smallest axis-parallel rectangle holding ``coords``."""
    cs = list(coords)
    xs, ys = [c[0] for c in cs], [c[1] for c in cs]
    return Rectangle(min(xs), min(ys), max(xs), max(ys))


def rectangles(span_coords_: Iterable[Coord]) -> list[Rectangle]:
    """The bounding rectangles of the connected components of a square-grid cell set."""
    return [bounding_rectangle(c) for c in components("square", span_coords_)]


def is_rectangle_union(span_coords_: Iterable[Coord]) -> bool:
    """The paper's span lemma: components are full rectangles, pairwise at distance >= 3."""
    cells = set(span_coords_)
    comps = components("square", cells)
    rects = [bounding_rectangle(c) for c in comps]
    if any(len(c) != r.width * r.height for c, r in zip(comps, rects)):
        return False
    return all(a.distance(b) >= 3 for a, b in combinations(rects, 2))


def chain_bound(rect: Rectangle) -> int:
    """Lemma "min chain size": a span rectangle of half-perimeter h holds >= ⌈h/2⌉ coins."""
    return (rect.half_perimeter + 1) // 2


def chain_bound_holds(coins: Iterable[Coord], d: int = 2) -> bool:
    """Check Lemma "min chain size" on every rectangle of span(coins) (square grid)."""
    coins = list(coins)
    return all(sum(c in r for c in coins) >= chain_bound(r) for r in rectangles(lattice_span("square", coins, d)))


# --- bit helpers ---------------------------------------------------------------------


def mask_of(cells: Iterable[int]) -> int:
    """The bit set of ``cells``."""
    m = 0
    for c in cells:
        m |= 1 << c
    return m
