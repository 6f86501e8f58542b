"""Why the V's schedule does not carry over to the pinwheel (docs/v-to-diagonal.md §5), in code.

* :func:`coin_order`: the pinwheel's isolated coins p_1 .. p_m in box coordinates, each with the
  corner c_{j-1} of the square Q_{j-1} it lies diagonally off and that square;
* :func:`absorptions`: for a solution (moves as coordinate pairs), the step at which each coin
  is absorbed (the first move filling a cell beside it) and what Lemma P says must hold then;
* :func:`adjacent_pairs`: the pairs of coins side by side (Lemma T bounds them by 4);
* :func:`gamma` and :func:`corner_cost`: R(k), the measured step where the Γ chain breaks — the
  fewest moves from a Γ chain of side k plus two helpers to a coin on the corner opposite its
  elbow, keeping the goal inside the span;
* :func:`diagonal_corner_cost`: D(k), the same from the diagonal that holds all four corners to
  the next corner of the grown square.

Both are :func:`fewest_moves`, an exhaustive BFS on the bitmasks of :class:`Grid` with
rules.py's jump moves and d = 2 (``Grid.successors`` and ``Grid.span`` are pinned to
``rules.legal_moves`` and ``theory.span`` by tests/test_pinwheel_gap.py, and both costs to a plain
BFS over rules.py for small k).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from coinsat.errors import LimitReached, UsageError
from coinsat.families import CORNERS, pinwheel_shape

Coord = tuple[int, int]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (inclusive)

__all__ = [
    "Absorption",
    "Grid",
    "absorptions",
    "adjacent_pairs",
    "coin_order",
    "corner_cost",
    "diagonal_corner_cost",
    "fewest_moves",
    "gamma",
]


def coin_order(m: int, order=CORNERS) -> list[tuple[Coord, str, Box]]:
    """(p_j, corner of Q_{j-1} it is off, Q_{j-1}) for j = 1..m, in ``pinwheel_shape``'s coordinates."""
    if m < 0:
        raise UsageError(f"a pinwheel needs m >= 0 coins around its block, not {m}")
    order = tuple(order)
    x0, y0, x1, y1 = 0, 0, 1, 1
    raw = []
    for j in range(m):
        corner = order[j % len(order)]
        p = (x1 + 1 if corner[1] == "R" else x0 - 1, y1 + 1 if corner[0] == "T" else y0 - 1)
        raw.append((p, corner, (x0, y0, x1, y1)))
        x0, y0, x1, y1 = min(x0, p[0]), min(y0, p[1]), max(x1, p[0]), max(y1, p[1])
    return [((p[0] - x0, p[1] - y0), c, (b[0] - x0, b[1] - y0, b[2] - x0, b[3] - y0)) for p, c, b in raw]


def corner_cell(box: Box, corner: str) -> Coord:
    x0, y0, x1, y1 = box
    return (x1 if corner[1] == "R" else x0, y1 if corner[0] == "T" else y0)


@dataclass(frozen=True)
class Absorption:
    """Coin p_j of the pinwheel in one solution (Lemma P's three claims, as observed)."""

    index: int  # j, from 1
    coin: Coord
    corner: str  # the corner c_{j-1} of Q_{j-1} it lies off
    step: int | None  # the absorbing move (1-based), None if no move fills a cell beside it
    moved_before: bool  # p_j moved before its absorption (Lemma P (i) says never)
    outside_before: bool  # some earlier move's destination lies outside Q_{j-1} (P (ii): never)
    corner_occupied: bool  # c_{j-1} holds a coin at the absorbing move (P (iii): always)


def absorptions(m: int, moves, order=CORNERS) -> list[Absorption]:
    """Where a solution of ``families.pinwheel(m, ., order)`` absorbs each isolated coin."""
    coins = coin_order(m, order)
    occ = set(pinwheel_shape(m, order))
    history = [(tuple(map(tuple, mv))) for mv in moves]
    out = []
    for j, (p, corner, box) in enumerate(coins, 1):
        c = corner_cell(box, corner)
        cur = set(occ)
        step = None
        moved = outside = False
        for t, (src, dst) in enumerate(history, 1):
            if abs(dst[0] - p[0]) + abs(dst[1] - p[1]) == 1 and src != p:
                step = t
                break
            moved |= src == p
            outside |= not (box[0] <= dst[0] <= box[2] and box[1] <= dst[1] <= box[3])
            cur.remove(src)
            cur.add(dst)
        out.append(Absorption(j, p, corner, step, moved, outside, step is not None and c in cur))
    return out


def adjacent_pairs(cells) -> int:
    """The number of pairs of coins side by side (square grid)."""
    s = set(map(tuple, cells))
    return sum((x + 1, y) in s for x, y in s) + sum((x, y + 1) in s for x, y in s)


def gamma(k: int) -> list[Coord]:
    """The Γ chain of [0, k-1]^2 (docs/v-to-diagonal.md §2): every other cell of the path up the
    left side and along the top, from (0, 0); its elbow is TL = (0, k-1), it misses BR."""
    path = [(0, y) for y in range(k)] + [(x, k - 1) for x in range(1, k)]
    return path[::2]


class Grid:
    """A w x h window of the square grid as bitmasks: cell (x, y) is bit y*(w+1) + x (one empty
    padding column keeps the shifts from wrapping)."""

    def __init__(self, w: int, h: int):
        self.w, self.h, self.row = w, h, w + 1
        self.valid = sum(1 << (y * self.row + x) for x in range(w) for y in range(h))

    def bit(self, x: int, y: int) -> int:
        return 1 << (y * self.row + x)

    def mask(self, cells) -> int:
        return sum(self.bit(x, y) for x, y in cells)

    def cells(self, mask: int) -> list[Coord]:
        return [(i % self.row, i // self.row) for i in range(mask.bit_length()) if mask >> i & 1]

    def held(self, s: int) -> int:
        """Cells (occupied or not) with >= 2 occupied neighbours."""
        v = self.valid
        a, b, c, d = (s << 1) & v, (s >> 1) & v, (s << self.row) & v, s >> self.row
        return (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)

    def span(self, s: int) -> int:
        while True:
            t = s | self.held(s)
            if t == s:
                return s
            s = t

    def successors(self, s: int, region: int, fixed: int = 0):
        """Every configuration one jump (d = 2) from s whose destination lies in ``region``; the
        coins of ``fixed`` hold cells but never move."""
        free = s & ~fixed
        while free:
            u = free & -free
            free ^= u
            rest = s ^ u
            dst = self.held(rest) & ~s & region
            while dst:
                v = dst & -dst
                dst ^= v
                yield rest | v


def fewest_moves(
    g: Grid, starts: list[int], target: int, region: int, fixed: int = 0, max_states: int = 20_000_000
) -> tuple[int | None, int, list[int]]:
    """Layered BFS from all ``starts`` at once to a configuration with a coin on ``target`` (a
    bit), by jumps into ``region``; the coins of ``fixed`` never move, and every configuration
    kept must span the whole window (the goal stays reachable).  Returns (moves or None, states
    seen, one shortest path as masks)."""
    full = g.valid
    parent: dict[int, int] = {s: 0 for s in starts}
    layer = [s for s in starts if g.span(s) == full]
    depth = 0
    while layer:
        hit = next((s for s in layer if s & target), None)
        if hit is not None:
            path = [hit]
            while parent[path[-1]]:
                path.append(parent[path[-1]])
            return depth, len(parent), path[::-1]
        nxt = []
        for s in layer:
            for t in g.successors(s, region, fixed):
                if t not in parent and g.span(t) == full:
                    parent[t] = s
                    nxt.append(t)
        if len(parent) > max_states:
            raise LimitReached(f"fewest_moves: more than {max_states} states")
        layer, depth = nxt, depth + 1
    return None, len(parent), []


def corner_cost(k: int, max_states: int = 20_000_000) -> tuple[int | None, int, list[int]]:
    """R(k): the fewest moves from Γ(k) (:func:`gamma`) plus two helpers, each on a cell held by
    two chain coins, to a coin on the corner BR = (k-1, 0) the Γ misses, when the next coin p lies
    diagonally off BR, at (k, -1): every configuration on the way must keep the (k+1)-square
    Q' = [0, k] x [-1, k-1] inside span(C + p) (else the goal is lost: Lemma P (i)'s argument),
    and before BR holds a coin every move stays in Q = [0, k-1]^2 and p stays (Lemma P (ii)).
    Exhaustive BFS from all such starts at once.  Returns (moves or None, states seen, the
    states of one shortest path as masks of :class:`Grid` (k+1, k+1), shifted up one row, p
    included)."""
    if k < 2:
        raise UsageError(f"corner_cost needs a square of side k >= 2, not {k}")
    g = Grid(k + 1, k + 1)
    chain = g.mask((x, y + 1) for x, y in gamma(k))
    p = g.bit(k, 0)
    inside = g.mask((x, y) for x in range(k) for y in range(1, k + 1))
    spots = g.cells(g.held(chain) & ~chain & inside)
    starts = [chain | p | g.bit(*a) | g.bit(*b) for a, b in itertools.combinations(spots, 2)]
    return fewest_moves(g, starts, g.bit(k - 1, 1), inside, fixed=p, max_states=max_states)


def diagonal_corner_cost(k: int, max_states: int = 20_000_000) -> tuple[int | None, int, list[int]]:
    """D(k): the fewest moves from the SW-NE diagonal of Q = [0, k-1]^2 plus coins on its two other
    corners (k + 2 coins holding all four corners of Q) and the next coin p = (k, k) off TR, to a
    coin on the corner (0, k) of Q' = [0, k]^2 that the coin after p needs (TL), keeping Q' the
    span; p may move once absorbed (the span check forbids it before).  Returns as
    :func:`corner_cost` (masks of :class:`Grid` (k+1, k+1), p included)."""
    if k < 2:
        raise UsageError(f"diagonal_corner_cost needs a square of side k >= 2, not {k}")
    g = Grid(k + 1, k + 1)
    start = g.mask([(i, i) for i in range(k + 1)] + [(0, k - 1), (k - 1, 0)])
    return fewest_moves(g, [start], g.bit(0, k), g.valid, max_states=max_states)
