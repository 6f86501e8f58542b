"""Where each cell is drawn.

Square cells on a square grid; triangular cells on a true triangular layout (axial (x, y) at
Cartesian (x + y/2, y·√3/2), DESIGN.md): every 2-D lattice where its plane projection puts it
(``geometry.Lattice.plane``); cells in space (x, y, z) — the cubic puzzles, whether a
graph of cells named "x,y,z" or three coordinates — one z-layer beside the next; other graph
boards by a drawing computed here (a small deterministic spring embedding, so the same file
always gives the same picture).  A layout
covers every configuration it will show (start, goal, a solution's steps), so successive panels
line up; on a lattice it also lists the grid points to draw (the lattice points in the frame,
as in the paper's figures, not only the window's cells).  Positions are in cells; y grows down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from ..configuration import Configuration
from ..errors import UsageError
from ..instance import Instance

#: the most grid points a picture may hold (a goal far from the start is a valid puzzle)
MAX_POINTS = 40_000

Point = tuple[float, float]


@dataclass(frozen=True)
class Layout:
    position: dict[int, Point]  # board cell -> position (cells drawn or moved through)
    grid: tuple[Point, ...]  # grid points to draw
    edges: tuple[tuple[Point, Point], ...]  # graph boards: the edges to draw
    width: float
    height: float
    notes: tuple[tuple[Point, str], ...] = ()  # text under the board: (where its middle is, text)


def layout(instance: Instance, configs: Iterable[Configuration]) -> Layout:
    cells = {c for config in configs for c in config.cells}
    cells |= set(instance.start.cells) | set(instance.goal.cells)
    points = space_points(instance)
    if points is not None:
        return _layers(instance, points)
    if not instance.board.is_lattice:
        return _graph(instance)
    return _lattice(instance, cells)


def space_points(instance: Instance) -> list[tuple[int, int, int]] | None:
    """The cells as points (x, y, z) when every cell is one: three integer coordinates, or a
    graph cell named "x,y,z" (the cubic puzzles); None otherwise."""
    out = []
    for c in instance.board.coords:
        if isinstance(c, str):
            parts = c.split(",")
            if len(parts) != 3 or not all(p.strip().lstrip("-").isdigit() for p in parts):
                return None
            out.append((int(parts[0]), int(parts[1]), int(parts[2])))
        elif isinstance(c, tuple) and len(c) == 3 and all(isinstance(v, int) for v in c):
            out.append((c[0], c[1], c[2]))
        else:
            return None
    return out if out else None


#: cells between two layers of a cubic board drawn side by side
LAYER_GAP = 1.5


def _layers(instance: Instance, points: list[tuple[int, int, int]]) -> Layout:
    """A board of points in space, one z-layer beside the next (z grows to the right), each
    layer drawn as its square grid (y up); a graph board's edges inside a layer are drawn, edges
    between layers are implied by the layers' order."""
    if len(points) > MAX_POINTS:
        raise UsageError(f"too large to draw: {len(points)} cells (at most {MAX_POINTS})")
    xs, ys, zs = [p[0] for p in points], [p[1] for p in points], [p[2] for p in points]
    width = max(xs) - min(xs)
    top = max(ys)
    layer_of = {z: k for k, z in enumerate(sorted(set(zs)))}

    def place(p: tuple[int, int, int]) -> Point:
        return (p[0] - min(xs) + layer_of[p[2]] * (width + LAYER_GAP), float(top - p[1]))

    pos = [place(p) for p in points]
    edges: tuple[tuple[Point, Point], ...] = ()
    if not instance.board.is_lattice:
        nb = instance.board.neighbours
        edges = tuple(
            (pos[u], pos[v]) for u in range(len(pos)) for v in nb[u] if u < v and points[u][2] == points[v][2]
        )
    bottom = max(p[1] for p in pos)
    notes = tuple(((k * (width + LAYER_GAP) + width / 2, bottom), f"z = {z}") for z, k in sorted(layer_of.items()))
    return Layout({c: pos[c] for c in range(len(pos))}, tuple(pos), edges, max(p[0] for p in pos), bottom, notes)


def _lattice(instance: Instance, cells: set[int]) -> Layout:
    """A window of a 2-D lattice: each cell where the lattice's plane projection puts it, and the
    grid points of each row y whose plane x lies within the frame's (the row's x grows along the
    plane's x: the lattice's first unit vector points right)."""
    board = instance.board
    lat = board.lattice
    assert lat is not None  # a lattice board
    coords = board.lattice_coords
    frame = [coords[c] for c in cells]
    ys = [y for _, y in frame]
    y0, y1 = min(ys), max(ys)
    (ex, _), (fx, _) = lat.to_plane((1, 0)), lat.to_plane((0, 1))  # the plane x of the unit vectors
    cx = [lat.to_plane(xy)[0] for xy in frame]
    lo, hi = min(cx), max(cx)
    lattice = []
    if _fits(frame):
        for y in range(y0, y1 + 1):
            first = math.ceil((lo - y * fx) / ex - 1e-9)
            lattice += [(x, y) for x in range(first, math.floor((hi - y * fx) / ex + 1e-9) + 1)]
    points = [lat.to_plane(xy) for xy in lattice] + [lat.to_plane(xy) for xy in frame]
    left = min(p[0] for p in points)
    top = max(p[1] for p in points)

    def place(xy: tuple[int, int]) -> Point:
        px, py = lat.to_plane(xy)
        return (px - left, top - py)

    position = {c: place(coords[c]) for c in range(board.size)}
    grid = tuple(place(xy) for xy in lattice)
    width = max(p[0] for p in points) - left
    height = top - min(p[1] for p in points)
    return Layout(position, grid, (), width, height)


def _fits(frame: list[tuple[int, int]]) -> bool:
    xs, ys = [x for x, _ in frame], [y for _, y in frame]
    span = (max(xs) - min(xs) + 1 + (max(ys) - min(ys))) * (max(ys) - min(ys) + 1)
    if span > MAX_POINTS:
        raise UsageError(f"too large to draw: the coins span more than {MAX_POINTS} grid points")
    return True


def _graph(instance: Instance) -> Layout:
    board = instance.board
    n = board.size
    if n > 400:
        raise UsageError(f"too large to draw: a graph board of {n} cells (at most 400)")
    pos = _spring(board.neighbours)
    position = {c: pos[c] for c in range(n)}
    edges = tuple((pos[u], pos[v]) for u in range(n) for v in board.neighbours[u] if u < v)
    width = max((p[0] for p in pos), default=0.0)
    height = max((p[1] for p in pos), default=0.0)
    return Layout(position, tuple(pos), edges, width, height)


def _spring(neighbours: tuple[tuple[int, ...], ...], rounds: int = 300) -> list[Point]:
    """Fruchterman-Reingold from a circle, cooled linearly; scaled so that edges are about one cell."""
    n = len(neighbours)
    if n == 1:
        return [(0.0, 0.0)]
    pos = [[math.cos(2 * math.pi * i / n) * n / 4, math.sin(2 * math.pi * i / n) * n / 4] for i in range(n)]
    k = 1.0
    for r in range(rounds):
        temp = 0.5 * (1 - r / rounds) + 0.01
        force = [[0.0, 0.0] for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
                dist = math.hypot(dx, dy) or 1e-3
                rep = k * k / dist
                force[i][0] += dx / dist * rep
                force[i][1] += dy / dist * rep
                force[j][0] -= dx / dist * rep
                force[j][1] -= dy / dist * rep
        for i in range(n):
            for j in neighbours[i]:
                if i < j:
                    dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
                    dist = math.hypot(dx, dy) or 1e-3
                    att = dist * dist / k
                    force[i][0] -= dx / dist * att
                    force[i][1] -= dy / dist * att
                    force[j][0] += dx / dist * att
                    force[j][1] += dy / dist * att
        for i in range(n):
            fx, fy = force[i]
            f = math.hypot(fx, fy)
            if f > 0:
                step = min(f, temp)
                pos[i][0] += fx / f * step
                pos[i][1] += fy / f * step
    edges = [math.dist(pos[i], pos[j]) for i in range(n) for j in neighbours[i] if i < j]
    scale = 1.4 / (sum(edges) / len(edges)) if edges else 1.0
    x0, y0 = min(p[0] for p in pos), min(p[1] for p in pos)
    return [((x - x0) * scale, (y - y0) * scale) for x, y in pos]
