"""Instances: a board, the adjacency d, a start and a goal.

The goal is a configuration; ``goal_placement`` says where it may sit:
``"fixed"`` exactly as given, ``"translate"`` any translate of it,
``"congruent"`` any image under a lattice symmetry (rotation or reflection)
followed by a translation.  Only placements that lie inside the board's
window are considered; on an exact window (see board.py) that loses nothing,
because no coin can ever leave the window.

Build instances with :func:`make_instance` (from coordinates) or read them
from files (``coinsat.io.instance_format``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Hashable, Iterable, Mapping, Sequence, cast

from . import geometry
from ._names import Name
from .board import DEFAULT_MARGIN, MAX_WINDOW_CELLS, Board, BoardKind, cell_text, graph_board, lattice_window
from .configuration import UNLABELED, Configuration
from .errors import InstanceError
from .geometry import Coord


class GoalPlacement(Name):
    """Where the goal may sit: exactly where drawn, anywhere by translation, or anywhere up to
    rotation and reflection too (the TOML and JSON spell the value)."""

    FIXED = "fixed"
    TRANSLATE = "translate"
    CONGRUENT = "congruent"


GOAL_PLACEMENTS = tuple(p.value for p in GoalPlacement)


@dataclass(frozen=True)
class Instance:
    name: str
    board: Board
    start: Configuration
    goal: Configuration
    adjacency: int = 2
    goal_placement: GoalPlacement = GoalPlacement.FIXED
    source: str = ""
    known_optimal: int | None = None
    margin: int = DEFAULT_MARGIN
    metadata: tuple[tuple[str, Any], ...] = field(default=())
    moves: str = "jump"  # the move model, a key of rules.MOVE_MODELS

    def __post_init__(self) -> None:
        if not isinstance(self.adjacency, int) or self.adjacency < 1:
            raise InstanceError(f"adjacency must be an integer >= 1, not {self.adjacency!r}", key="adjacency")
        _check_moves(self.moves, self.board.kind)
        object.__setattr__(self, "goal_placement", _goal_placement(self.goal_placement))
        if self.goal_placement != "fixed" and not self.board.is_lattice:
            raise InstanceError("goal_placement other than 'fixed' needs a lattice board", key="goal_placement")
        if self.start.label_counts != self.goal.label_counts:
            raise InstanceError(
                f"start and goal differ in coins: start has {_describe(self.start)}, goal has {_describe(self.goal)}",
                key="goal",
            )
        if len(self.start) == 0:
            raise InstanceError("the start has no coins", key="start")

    @property
    def d(self) -> int:
        return self.adjacency

    @property
    def n_coins(self) -> int:
        return len(self.start)

    @property
    def labels(self) -> tuple[str, ...]:
        return self.start.labels

    @cached_property
    def goal_configurations(self) -> tuple[Configuration, ...]:
        """Every placement of the goal inside the window (just the goal when fixed)."""
        if self.goal_placement == "fixed":
            return (self.goal,)
        b = self.board
        coords = b.lattice_coords  # __post_init__: a placement other than fixed needs a lattice
        shape = [(coords[c], lab) for c, lab in self.goal.coins]
        syms = geometry.symmetries(b.kind) if self.goal_placement == "congruent" else geometry.symmetries(b.kind)[:1]
        found: set[Configuration] = set()
        for m in syms:
            image = [(geometry.apply(m, xy), lab) for xy, lab in shape]
            ax, ay = image[0][0]
            for anchor in coords:
                dx, dy = anchor[0] - ax, anchor[1] - ay
                moved = [((x + dx, y + dy), lab) for (x, y), lab in image]
                if all(b.has(xy) for xy, _ in moved):
                    found.add(Configuration(tuple((b.cell(xy), lab) for xy, lab in moved)))
        return tuple(sorted(found))

    @cached_property
    def exact_radius(self) -> int | None:
        """How far the window is exact: None if it is exact outright (board.py), else
        the largest r such that every lattice cell within distance r of the start is
        on the board.  Every solution with at most r moves stays inside ball(start, r),
        so "no solution with <= r moves in the window" is a global fact.
        """
        if self.board.exact:
            return None
        start = [self.board.lattice_coords[c] for c in self.start.cells]  # graph boards are exact
        seen, frontier, r = set(start), list(start), 0
        while True:
            nxt = []
            for xy in frontier:
                for n in geometry.neighbours(self.board.kind, xy):
                    if n not in seen:
                        if not self.board.has(n):
                            return r
                        seen.add(n)
                        nxt.append(n)
            frontier, r = nxt, r + 1

    def exact_within(self, horizon: int) -> bool:
        """True iff a "no solution with <= horizon moves" found in the window holds globally."""
        r = self.exact_radius
        return r is None or horizon <= r

    def is_goal(self, config: Configuration) -> bool:
        return config in self.goal_set

    @cached_property
    def goal_set(self) -> frozenset[Configuration]:
        return frozenset(self.goal_configurations)

    def coord(self, cell: int) -> Hashable:
        return self.board.coords[cell]

    def move_text(self, move: tuple[int, int]) -> str:
        """A move as every human output writes it (solve, show, verify, decode): ``(3, 1) -> (1, 2)``,
        source then destination in the instance's coordinates (graph boards: cell names)."""
        src, dst = move
        return f"{cell_text(self.coord(src))} -> {cell_text(self.coord(dst))}"

    def __repr__(self) -> str:
        """One line (the generated repr printed every cell of the board: review round 4, m7)."""
        labels = "" if self.labels == (UNLABELED,) else f", labels {' '.join(map(str, self.labels))}"
        moves = "" if self.moves == "jump" else f", moves = {self.moves!r}"
        return (
            f"<Instance {self.name!r}: {self.board.kind} board of {self.board.size} cells, {self.n_coins} coins"
            f"{labels}, d = {self.d}, goal {self.goal_placement}{moves}>"
        )

    def _repr_svg_(self) -> str:
        """Notebooks: start and goal side by side (coinsat/draw, reached by name: it sits above)."""
        from .registry import load

        return load({"svg": "coinsat.draw.notebook:instance_svg"}, "svg", "picture")(self)


def with_cells(instance: Instance, coords: Iterable[Hashable]) -> Instance:
    """The same puzzle on a lattice window that also holds ``coords``.

    Used to check a move list that leaves the window: the board grows by the
    induced lattice subgraph on the new cells, which is all rules.py needs (every
    occupied cell is a start cell or an earlier destination, so all of them are on
    the grown board).  Graph boards and coordinates already present: unchanged.
    """
    b = instance.board
    extra = [c for c in dict.fromkeys(coords) if not b.has(c)]
    if not extra or not b.is_lattice:
        return instance
    from .board import lattice_board

    # on a lattice the moves name (x, y) cells; lattice_board reads them as such
    grown = lattice_board(
        b.kind, list(b.lattice_coords) + cast("list[Coord]", extra), exact=b.exact, window=f"{b.window}+moves"
    )

    def moved(config: Configuration) -> Configuration:
        return Configuration(tuple((grown.cell(b.coords[c]), lab) for c, lab in config.coins))

    return replace(instance, board=grown, start=moved(instance.start), goal=moved(instance.goal))


def _describe(c: Configuration) -> str:
    counts = c.label_counts
    if set(counts) == {"o"}:
        return f"{counts['o']} coins"
    return ", ".join(f"{k}×{v}" for k, v in sorted(counts.items()))


Placement = Mapping[Hashable, str]


def make_instance(
    kind: str,
    start: Placement | Iterable[Hashable],
    goal: Placement | Iterable[Hashable],
    *,
    adjacency: int = 2,
    goal_placement: str = "fixed",
    name: str = "instance",
    source: str = "",
    known_optimal: int | None = None,
    edges: Iterable[tuple[Hashable, Hashable]] | None = None,
    cells: Sequence[Hashable] | None = None,
    margin: int = DEFAULT_MARGIN,
    metadata: Mapping[str, Any] | None = None,
    moves: str = "jump",
) -> Instance:
    """Build an instance from coordinates (lattices) or cell names (graphs).

    Parameters
    ----------
    kind : str
        The board: a lattice's name (``square``, ``triangular``, ``cubic``: ``geometry.TABLE``) or ``graph``.
    edges, cells : optional
        A graph board's edges (pairs of cell names), and its cells when some are on no edge.
    start, goal : iterable or mapping
        Coordinates (unlabeled coins), or a mapping coordinate -> label.
    adjacency : int
        d: a coin lands on a cell with at least d occupied neighbours.
    goal_placement : str
        ``fixed``, or where the goal may be placed (``translation``, ...).
    moves : str
        The move model (``jump``, or a slide model).
    name, source, known_optimal, margin, metadata
        What the instance file holds under the same names.

    Returns
    -------
    Instance
        The puzzle, its board built around the coins (``margin`` cells beyond them on a
        lattice) and every rule above checked.

    Raises
    ------
    InstanceError
        On any inconsistency (start and goal with different coins, an unknown board, ...).
    """
    start_map = _as_placement(start, "start")
    goal_map = _as_placement(goal, "goal")
    if not start_map:  # before any window is built around the (missing) coins
        raise InstanceError("the start has no coins", key="start")
    lattice = geometry.TABLE.get(kind)
    if lattice is not None:
        for where, placement in (("start", start_map), ("goal", goal_map)):
            for p in placement:
                if not (isinstance(p, tuple) and len(p) == lattice.dimension and all(isinstance(v, int) for v in p)):
                    raise InstanceError(f"{where}: {p!r} is not an integer {lattice.point_words()}", key=where)
    if kind in geometry.LATTICES:
        try:
            # the loop above checked that every key is an integer (x, y) pair
            board = lattice_window(
                kind, cast("list[Coord]", list(start_map)), cast("list[Coord]", list(goal_map)), adjacency, margin
            )
        except ValueError as e:  # the window is too large (_bounded_hull)
            raise InstanceError(str(e), key="margin") from None
    elif lattice is not None:
        board = span_board(lattice, start_map, goal_map, adjacency)
    elif kind == BoardKind.GRAPH:
        if edges is None:
            raise InstanceError("a graph board needs edges", key="board")
        # lists from JSON become tuples; graph_board's unpacking rejects any other length
        edges = [cast("tuple[Hashable, Hashable]", tuple(e)) for e in edges]
        # dict keys, not list scans: loading stays linear in the file (a 100k-cell path graph)
        names: dict[Hashable, None] = {}
        for c in cells if cells is not None else ():
            if c in names:
                raise InstanceError(f"graph cells: {c!r} is listed twice", key="graph.cells")
            names[c] = None
        for u, v in edges:
            names.setdefault(u)
            names.setdefault(v)
        for where, placement in (("start", start_map), ("goal", goal_map)):
            for c in placement:
                if c not in names:
                    raise InstanceError(f"{where}: cell {c!r} is not on the graph", key=where)
        try:
            board = graph_board(list(names), edges)
        except ValueError as e:  # a self-loop (graph_board)
            raise InstanceError(str(e), key="graph.edges") from None
    else:
        raise InstanceError(f"unknown board kind {kind!r} (expected {', '.join(geometry.TABLE)} or graph)", key="board")
    return Instance(
        name=name,
        board=board,
        start=Configuration(tuple((board.cell(c), lab) for c, lab in start_map.items())),
        goal=Configuration(tuple((board.cell(c), lab) for c, lab in goal_map.items())),
        adjacency=adjacency,
        goal_placement=_goal_placement(goal_placement),
        source=source,
        known_optimal=known_optimal,
        margin=margin,
        metadata=tuple(sorted((metadata or {}).items())),
        moves=moves,
    )


def span_board(lattice: geometry.Lattice, start: Placement, goal: Placement, d: int) -> Board:
    """The board of a puzzle on a lattice in space (the cubic lattice: cells (x, y, z), 6 neighbours).

    For d >= 2 no coin ever leaves span(start) (the paper's Lemma "span monotone"); on the cubic
    lattice the span lies in the bounding box of the start (a cell outside the box has at most
    one neighbour inside it: ``theory/cubic.py``), and on any lattice the span is checked to stay
    off the rim of the box grown by one.  So the board span(start) plus the goal's cells is exact,
    as on the square grid.  It is a graph board (every engine that takes graphs takes it) whose
    cells are named by their points, ordered by their coordinates from the last, with its
    lattice recorded.  With d = 1 the span is the whole lattice and no finite board is exact:
    refused.
    """
    from .board import span_coords

    name = lattice.name
    if d < 2:
        raise InstanceError(
            f"adjacency: a {name} board needs d >= 2 (with d = 1 a coin can walk away forever, so no finite "
            "board is exact)",
            key="adjacency",
        )
    points = cast("list[tuple[int, ...]]", list(start))
    volume = 1
    for i in range(lattice.dimension):
        volume *= max(p[i] for p in points) - min(p[i] for p in points) + 1
    if volume > MAX_WINDOW_CELLS:
        raise InstanceError(
            f"start: its bounding box has {volume} cells (at most {MAX_WINDOW_CELLS}: coins too far apart)",
            key="start",
        )
    region = geometry.hull(name, points, 1)
    # span_coords works in any dimension (it only asks the lattice for neighbours)
    span = cast("set[tuple[int, ...]]", span_coords(name, cast(Any, points), d, cast(Any, region)))
    if any(n not in region for p in span for n in geometry.neighbours(name, p)):
        raise InstanceError(
            f"start: its span on the {name} lattice leaves its bounding box (no finite board is exact)", key="start"
        )
    cells = sorted(span | cast("set[tuple[int, ...]]", set(goal)), key=lambda p: p[::-1])
    index = {p: i for i, p in enumerate(cells)}
    nbrs = tuple(tuple(sorted(index[q] for q in geometry.neighbours(name, p) if q in index)) for p in cells)
    return Board(BoardKind.GRAPH, tuple(cells), nbrs, exact=True, window=f"{name} span", lattice=lattice)


#: the move models an instance can name (rules.MOVE_MODELS holds their conditions)
MOVE_MODELS = ("jump", "slide")


def _check_moves(moves: str, kind: str) -> None:
    if moves not in MOVE_MODELS:
        raise InstanceError(f"moves must be one of {', '.join(MOVE_MODELS)}, not {moves!r}", key="moves")
    if moves == "slide" and kind not in geometry.SLIDE_LATTICES:
        raise InstanceError(
            f"moves = 'slide' needs a board in the plane ({', '.join(geometry.SLIDE_LATTICES)}), not {kind}",
            key="board",
        )


def _goal_placement(name: str) -> GoalPlacement:
    if name not in GOAL_PLACEMENTS:
        raise InstanceError(
            f"goal_placement must be one of {', '.join(GOAL_PLACEMENTS)}, not {name!r}", key="goal_placement"
        )
    return GoalPlacement(name)


def _as_placement(coins: Placement | Iterable[Hashable], where: str) -> dict[Hashable, str]:
    if isinstance(coins, Mapping):
        given = dict(coins)
        return {(tuple(k) if isinstance(k, list) else k): str(v) for k, v in given.items()}
    out: dict[Hashable, str] = {}
    for c in coins:
        c = tuple(c) if isinstance(c, list) else c
        if c in out:
            raise InstanceError(f"{where}: two coins on cell {c!r}", key=where)
        out[c] = "o"
    return out
