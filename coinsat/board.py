"""Boards: finite graphs of cells.

A :class:`Board` is frozen: cells are the integers ``0..n-1``; ``coords[i]`` is
the cell's name in the instance's own system (an ``(x, y)`` pair on a lattice,
an int or string on a graph board) and ``neighbours[i]`` the sorted tuple of
adjacent cells.

Infinite lattices are represented by finite *windows* derived from the
instance (see :func:`lattice_window`).  A window is ``exact`` when no sequence
of legal moves from the start can ever occupy a cell outside it, so that a
"no" found inside the window is a global "no":

* the window is the span of the start (plus the goal's cells, which are then
  simply unreachable if they lie outside it) whenever that span is finite and
  found inside the search region.  By the paper's Lemma "span monotone" no
  coin ever leaves span(start).  On the square grid with d >= 2 this is always
  the case (a cell outside the bounding box has at most one neighbour inside).
* otherwise (triangular grid: the span of anything with a legal move is the
  whole lattice; square grid with d = 1) the window is the lattice hull of
  start and goal (bounding box on the square grid, bounding hexagon on the
  triangular grid) grown by ``margin`` cells on every side; it is *not* exact and every "no"
  found in it has scope ``window``.  Within a horizon T, a window containing
  every cell within distance T of the start is exact (each placed coin is
  adjacent to a coin that was already there, so at step t every coin lies
  within distance t of the start): :func:`lattice_window` with
  ``margin >= T`` therefore makes "no solution within T moves" exact.

Graph boards are finite and always exact.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import ClassVar, Hashable, Iterable, Sequence, cast

from . import geometry
from .errors import InternalError
from .geometry import Coord, Lattice


class BoardKind(str):
    """What the engines see of a board: ``graph`` (a finite graph, the whole board), or the name
    of a 2-D lattice of :mod:`coinsat.geometry` (a window of it).  A kind *is* its name: it
    compares equal to the string and prints as it; one object per name, so ``kind is
    BoardKind.SQUARE`` works.  The kinds are the registered lattices' (``geometry.register``),
    not a list kept here."""

    SQUARE: ClassVar[BoardKind]
    TRIANGULAR: ClassVar[BoardKind]
    GRAPH: ClassVar[BoardKind]
    _known: ClassVar[dict[str, BoardKind]] = {}

    def __new__(cls, name: str) -> BoardKind:
        if name != "graph" and name not in geometry.LATTICES:
            raise ValueError(f"{name!r} is not a board kind ({', '.join(geometry.LATTICES)} or graph)")
        known = cls._known.get(name)
        if known is None:
            known = cls._known[name] = super().__new__(cls, name)
        return known

    @property
    def value(self) -> str:
        """The name, as files spell it."""
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"BoardKind({str.__repr__(self)})"

    def __str__(self) -> str:
        return str.__str__(self)


BoardKind.SQUARE, BoardKind.TRIANGULAR, BoardKind.GRAPH = (
    BoardKind("square"),
    BoardKind("triangular"),
    BoardKind("graph"),
)


@dataclass(frozen=True)
class Board:
    """``kind``: what the engines see (:class:`BoardKind`); ``lattice``: the lattice whose cells
    these are (None on a graph board), which answers for neighbours, pictures and drawings.  A
    window of a 2-D lattice has kind = its lattice's name; a board of a lattice in space (cubic)
    is finite and exact, so its kind is ``graph`` and only its ``lattice`` says where it lies."""

    kind: BoardKind
    coords: tuple[Hashable, ...]
    neighbours: tuple[tuple[int, ...], ...]
    exact: bool = True
    window: str = "graph"
    lattice: Lattice | None = None
    _index: dict[Hashable, int] = field(init=False, compare=False, hash=False, repr=False)
    _masks: tuple[int, ...] | None = field(init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", BoardKind(self.kind))  # a plain name is accepted and typed here
        if self.kind is not BoardKind.GRAPH:  # a window: its lattice is its kind
            object.__setattr__(self, "lattice", geometry.lattice(self.kind))
        object.__setattr__(self, "_index", {c: i for i, c in enumerate(self.coords)})
        object.__setattr__(self, "_masks", None)  # never a copy from dataclasses.replace

    @property
    def size(self) -> int:
        return len(self.coords)

    @property
    def is_lattice(self) -> bool:
        """A window of a 2-D lattice (cells (x, y); it may grow, goals may be placed)."""
        return self.kind is not BoardKind.GRAPH

    @property
    def name(self) -> str:
        """The board as an instance file names it: its lattice's name, or ``graph``."""
        return self.lattice.name if self.lattice is not None else "graph"

    @property
    def lattice_coords(self) -> tuple[Coord, ...]:
        """``coords`` typed as ``(x, y)`` pairs, which they are on a lattice board."""
        if not self.is_lattice:
            raise InternalError(f"a {self.kind} board has no lattice coordinates")
        return cast("tuple[Coord, ...]", self.coords)

    def cell(self, coord: Hashable) -> int:
        """Cell index of a coordinate; KeyError if it is not on the board."""
        return self._index[coord]

    def has(self, coord: Hashable) -> bool:
        return coord in self._index

    @property
    def neighbour_masks(self) -> tuple[int, ...]:
        """``neighbour_masks[i]`` has bit j set iff j is adjacent to i.

        Built on first use: the masks take memory quadratic in the number of cells,
        which the explicit-state engines accept on their small boards, but loading a
        large graph or checking a long move list (verify) must not pay.
        """
        masks = self._masks
        if masks is None:
            masks = tuple(sum(1 << j for j in nb) for nb in self.neighbours)
            object.__setattr__(self, "_masks", masks)
        return masks

    def distances_from(self, cells: Iterable[int]) -> list[int | None]:
        """Board graph distance of every cell to the set ``cells`` (None: unreachable)."""
        dist: list[int | None] = [None] * self.size
        frontier = list(dict.fromkeys(cells))
        for c in frontier:
            dist[c] = 0
        d = 0
        while frontier:
            d += 1
            nxt = []
            for c in frontier:
                for n in self.neighbours[c]:
                    if dist[n] is None:
                        dist[n] = d
                        nxt.append(n)
            frontier = nxt
        return dist


def _sort_key(c: Hashable):
    return (0, c) if isinstance(c, tuple) else (1, str(type(c)), str(c))


def lattice_board(lattice: str, coords: Iterable[Coord], *, exact: bool, window: str) -> Board:
    """The induced subgraph of ``lattice`` on ``coords`` (cells ordered by (y, x))."""
    cs = sorted(set(coords), key=lambda c: (c[1], c[0]))
    index = {c: i for i, c in enumerate(cs)}
    nbrs = tuple(tuple(sorted(index[n] for n in geometry.neighbours(lattice, c) if n in index)) for c in cs)
    return Board(BoardKind(lattice), tuple(cs), nbrs, exact=exact, window=window)


def graph_board(cells: Sequence[Hashable], edges: Iterable[tuple[Hashable, Hashable]]) -> Board:
    """A finite graph board; ``cells`` fixes the order, ``edges`` are unordered pairs."""
    index = {c: i for i, c in enumerate(cells)}
    adj: list[set[int]] = [set() for _ in cells]
    for u, v in edges:
        if u == v:
            raise ValueError(f"self-loop at cell {u!r}")
        adj[index[u]].add(index[v])
        adj[index[v]].add(index[u])
    return Board(BoardKind.GRAPH, tuple(cells), tuple(tuple(sorted(a)) for a in adj), True, "graph")


def span_coords(lattice: str, coins: Iterable[Coord], d: int, region: frozenset[Coord]) -> set[Coord]:
    """The span (paper, section "Span") of ``coins``, computed inside ``region``."""
    span = set(coins)
    frontier = set(span)
    while frontier:
        candidates = {n for c in frontier for n in geometry.neighbours(lattice, c)}
        new = {
            p
            for p in candidates
            if p not in span and p in region and sum(n in span for n in geometry.neighbours(lattice, p)) >= d
        }
        span |= new
        frontier = new
    return span


def cell_json(coord: Hashable):
    """A cell's coordinate as JSON: ``[x, y]`` on lattices (tuples become lists), the name on
    graph boards.  The one codec of solution files, certificates and ``--json`` output."""
    return list(coord) if isinstance(coord, tuple) else coord


def cell_key(value) -> Hashable:
    """Inverse of :func:`cell_json`: the coordinate (a tuple again) that names a board cell."""
    return tuple(value) if isinstance(value, list) else value


DEFAULT_MARGIN = 2


MAX_WINDOW_CELLS = 250_000  # far beyond what any engine can search; guards against typos


def lattice_window(
    lattice: str, start: Iterable[Coord], goal: Iterable[Coord], d: int, margin: int = DEFAULT_MARGIN
) -> Board:
    """The finite window of an infinite lattice used for an instance (module docstring).

    The span is first computed in the hull of the start alone (on the square grid with
    d >= 2 it never leaves it), so a goal drawn far away does not blow up the window;
    ValueError if the window would exceed MAX_WINDOW_CELLS cells.
    """
    start, goal = list(start), list(goal)
    margin = max(margin, 1)
    region = _bounded_hull(lattice, start, margin)
    span = span_coords(lattice, start, d, region)
    rim = {c for c in region if any(n not in region for n in geometry.neighbours(lattice, c))}
    if not (span & rim):
        return lattice_board(lattice, span | set(goal), exact=True, window="span")
    region = _bounded_hull(lattice, start + goal, margin)
    return lattice_board(lattice, region, exact=False, window=f"hull+{margin}")


def _bounded_hull(lattice: str, coords: list[Coord], margin: int) -> frozenset[Coord]:
    xs, ys = [x for x, _ in coords], [y for _, y in coords]
    area = (max(xs) - min(xs) + 1 + 2 * margin) * (max(ys) - min(ys) + 1 + 2 * margin)
    if area > MAX_WINDOW_CELLS:
        raise ValueError(
            f"the window would have about {area} cells (coordinates or margin too large; "
            f"the limit is {MAX_WINDOW_CELLS})"
        )
    return geometry.hull(lattice, coords, margin)


_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def cell_text(coord: Hashable) -> str:
    """A cell as every human output writes it (the one move notation is ``(x, y) -> (x, y)``:
    ``Instance.move_text``): ``(x, y)`` on a lattice; on a graph an
    integer name bare and a string name bare only when it cannot be read as
    anything else (``a``), otherwise quoted (``"2"``, ``"a b"``)."""
    if isinstance(coord, (tuple, list)):
        return "(" + ", ".join(str(v) for v in coord) + ")"
    if isinstance(coord, str) and not _PLAIN_NAME.fullmatch(coord):
        return json.dumps(coord, ensure_ascii=False)
    return str(coord)
