"""Lattice maths: directions, neighbours of a coordinate, distances, symmetries.

Square grid: ``(x, y)`` with the 4 unit directions.  Triangular grid: axial
``(x, y)`` with neighbours (±1,0), (0,±1), (1,−1), (−1,1), drawn at Cartesian
(x + y/2, y·√3/2).  Symmetries are integer 2x2 matrices acting on coordinates
(the point group of the lattice: 8 for the square grid, 12 for the triangular).
"""

from __future__ import annotations

from typing import Iterable

Coord = tuple[int, int]
Matrix = tuple[tuple[int, int], tuple[int, int]]

LATTICES = ("square", "triangular")

DIRECTIONS: dict[str, tuple[Coord, ...]] = {
    "square": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "triangular": ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)),
}

# Generators of the point groups: a rotation of order 4 (resp. 6) and a reflection.
_GENERATORS: dict[str, tuple[Matrix, Matrix]] = {
    "square": (((0, -1), (1, 0)), ((1, 0), (0, -1))),
    # axial rotation by 60 degrees: (x, y) -> (-y, x + y); reflection swaps the axes.
    "triangular": (((0, -1), (1, 1)), ((0, 1), (1, 0))),
}


def neighbours(lattice: str, c: Coord) -> tuple[Coord, ...]:
    x, y = c
    return tuple((x + dx, y + dy) for dx, dy in DIRECTIONS[lattice])


def distance(lattice: str, a: Coord, b: Coord) -> int:
    """Graph distance on the infinite lattice."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if lattice == "square":
        return abs(dx) + abs(dy)
    return (abs(dx) + abs(dy) + abs(dx + dy)) // 2


def apply(m: Matrix, c: Coord) -> Coord:
    return (m[0][0] * c[0] + m[0][1] * c[1], m[1][0] * c[0] + m[1][1] * c[1])


def compose(a: Matrix, b: Matrix) -> Matrix:
    """The matrix product a·b (apply b first, then a)."""
    return tuple(
        tuple(sum(a[i][k] * b[k][j] for k in range(2)) for j in range(2)) for i in range(2)
    )  # type: ignore[return-value]


def symmetries(lattice: str) -> tuple[Matrix, ...]:
    """All lattice symmetries fixing the origin (identity first)."""
    identity: Matrix = ((1, 0), (0, 1))
    group = [identity]
    frontier = [identity]
    while frontier:
        g = frontier.pop()
        for h in _GENERATORS[lattice]:
            k = compose(g, h)
            if k not in group:
                group.append(k)
                frontier.append(k)
    return tuple(group)


def ball(lattice: str, centre: Iterable[Coord], radius: int) -> frozenset[Coord]:
    """All coordinates within lattice distance ``radius`` of the set ``centre``."""
    seen = set(centre)
    frontier = list(seen)
    for _ in range(radius):
        nxt = []
        for c in frontier:
            for n in neighbours(lattice, c):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return frozenset(seen)


def hull(lattice: str, coords: Iterable[Coord], margin: int = 0) -> frozenset[Coord]:
    """The lattice hull of ``coords`` grown by ``margin``.

    Square grid: the bounding box.  Triangular grid: the bounding hexagon, the
    cells whose x, y and x + y all lie in the ranges spanned by ``coords``.
    """
    cs = list(coords)
    xs = [c[0] for c in cs]
    ys = [c[1] for c in cs]
    x0, x1, y0, y1 = min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin
    box = ((x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))
    if lattice == "square":
        return frozenset(box)
    ss = [x + y for x, y in cs]
    s0, s1 = min(ss) - margin, max(ss) + margin
    return frozenset((x, y) for x, y in box if s0 <= x + y <= s1)
