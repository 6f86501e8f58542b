"""Lower bounds and per-step reachability windows (spec: ``encodings/sat.md`` §2, §5).

Pure functions of an instance: no solver, no PySAT, so that every engine (SAT,
ILP, scripts) uses the same windows and bounds.

**Span layers.**  R_0 = cells of the start; R_t = R_{t-1} plus every cell with
at least d neighbours in R_{t-1}.  Lemma W (spec §2): every cell occupied at
step t lies in R_t, and a cell can be filled at step t only if it has at least
d neighbours in R_{t-1}.  (The coins supporting the cell p filled by move t
are occupied in C_t and are not p, so they were already occupied in C_{t-1}.)
R_t is contained in the ball of radius t around the start and, for d = 1,
equals it; its union over t is span(start).  There is no such window from the
goal backwards: a coin can be lifted from anywhere.

**Lower bounds.**  For a goal placement B and a label l, every cell of
B_l \\ A_l needs its own move (a move fills one cell), and the cell c cannot
be filled before ``fill_step[c]`` (Lemma W); the fills happen at distinct
steps, so T >= the last step of the greedy schedule of those cells.  A goal
placement with a cell outside the span of the start is unreachable in the
window.  The bound of an instance is the minimum over its goal placements.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterable, Sequence

from .. import geometry
from ..board import BoardKind
from ..configuration import Configuration
from ..instance import Instance
from ..limits import poll


def layer_steps(neighbours: Sequence[Sequence[int]], start: Iterable[int], d: int) -> tuple[int | None, ...]:
    """``step[c]`` = the first t with c in R_t (None: c is outside the span)."""
    step: list[int | None] = [None] * len(neighbours)
    frontier = sorted(set(start))
    for c in frontier:
        step[c] = 0
    count = [0] * len(neighbours)  # neighbours of c already in the layers
    t = 0
    while frontier:
        poll()
        t += 1
        new = []
        for c in frontier:
            for n in neighbours[c]:
                if step[n] is None:
                    count[n] += 1
                    if count[n] == d:
                        new.append(n)
        for n in new:
            step[n] = t
        frontier = sorted(new)
    return tuple(step)


def fill_steps(neighbours: Sequence[Sequence[int]], layer: Sequence[int | None], d: int) -> tuple[int | None, ...]:
    """``fill[c]`` = the first step at which a move can drop a coin on c (Lemma W):
    one more than the d-th smallest layer step among c's neighbours (None: never)."""
    out: list[int | None] = []
    for nb in neighbours:
        steps = sorted(s for s in (layer[n] for n in nb) if s is not None)
        out.append(steps[d - 1] + 1 if len(steps) >= d else None)
    return tuple(out)


class SpanLayers:
    """Span layers of an instance: which (cell, step) pairs can hold a coin or be filled."""

    def __init__(self, instance: Instance):
        b = instance.board
        self.layer = layer_steps(b.neighbours, instance.start.cells, instance.d)
        self.fill = fill_steps(b.neighbours, self.layer, instance.d)

    def occupiable(self, cell: int, t: int) -> bool:
        s = self.layer[cell]
        return s is not None and s <= t

    def fillable(self, cell: int, t: int) -> bool:
        s = self.fill[cell]
        return s is not None and s <= t and t >= 1

    def cells_at(self, t: int) -> tuple[int, ...]:
        """R_t, sorted."""
        return tuple(c for c, s in enumerate(self.layer) if s is not None and s <= t)


def open_windows(instance: Instance) -> "SpanLayers":
    """SpanLayers that rule nothing out (the option ``windows`` off)."""
    w = SpanLayers.__new__(SpanLayers)
    n = instance.board.size
    starts = set(instance.start.cells)
    w.layer = tuple(0 if c in starts else 1 for c in range(n))
    w.fill = tuple(1 for _ in range(n))
    return w


def placement_bound(instance: Instance, goal: Configuration, fill: Sequence[int | None]) -> int | None:
    """Lower bound on the moves from the start to ``goal`` (None: unreachable in the window)."""
    start = dict(instance.start.coins)
    steps = []
    for c, lab in goal.coins:
        if start.get(c) == lab:
            continue
        s = fill[c]
        if s is None:
            return None
        # a cell holding another label must be emptied by an earlier move
        steps.append(max(s, 2) if c in start else max(s, 1))
    last = 0
    for s in sorted(steps):
        last = max(s, last + 1)
    return last


def placement_bounds(instance: Instance, windows: "SpanLayers | None" = None) -> tuple[int | None, ...]:
    """:func:`placement_bound` of every goal placement, in ``instance.goal_configurations`` order."""
    w = windows or SpanLayers(instance)
    return tuple(placement_bound(instance, g, w.fill) for g in instance.goal_configurations)


def lower_bound(instance: Instance, windows: "SpanLayers | None" = None) -> int | None:
    """Every solution inside the window needs at least this many moves; None if no goal
    placement lies in the span of the start (no solution inside the window at all)."""
    bounds = [b for b in placement_bounds(instance, windows) if b is not None]
    return min(bounds) if bounds else None


def fill_count_bound(instance: Instance) -> int:
    """The cells of a fixed goal that do not hold their label at the start: each needs a move of
    its own (a move fills one cell), on any board and window.  Linear time, no polling: the
    bound a command stopped before any engine ran can still report.  0 for other placements."""
    if instance.goal_placement != "fixed":
        return 0
    start = dict(instance.start.coins)
    return sum(1 for c, lab in instance.goal.coins if start.get(c) != lab)


def distance_bound(instance: Instance) -> int | None:
    """A lower bound that holds on the whole lattice, whatever the window (None: none known).

    Lemma W on the infinite lattice: R_t lies in the ball of radius t around the
    start, so a goal cell at lattice distance r from every start coin cannot be
    filled before step r; the cells of B_l \\ A_l are filled at distinct steps
    (placement_bound's schedule).  Fixed goals only: the placements of a
    translate/congruent goal are enumerated inside the window, so their minimum
    says nothing about placements outside it.  Cheap (no window is built), so
    it is the bound a run stopped early can always report.
    """
    b = instance.board
    if not b.is_lattice or instance.goal_placement != "fixed":
        return None
    coords = b.lattice_coords
    start = [coords[c] for c in instance.start.cells]
    dist = [0] * b.size
    for c, _ in instance.goal.coins:
        poll()
        dist[c] = min(geometry.distance(b.kind, coords[c], s) for s in start)
    return placement_bound(instance, instance.goal, dist)


def static_bound(instance: Instance) -> int:
    """The best cheap lower bound for every solution: the fill count, the lattice distance bound, and
    the span-layer placement bound when the window is exact (then it holds for all solutions)."""
    bounds = [fill_count_bound(instance), distance_bound(instance) or 0]
    if instance.board.exact:
        bounds.append(lower_bound(instance) or 0)
    return max(bounds)


def symmetries(instance: Instance, fix_start: bool = True) -> tuple[tuple[int, ...], ...]:
    """The lattice symmetries of the window that fix the start (unless ``fix_start`` is False:
    the census's group fixes the goal only) and the goal (labels included; fixed goals only), as
    cell permutations; the identity is left out.

    A symmetry maps solutions to solutions of the same length (rules.py is
    invariant under graph automorphisms), which P12 uses to break it.
    """
    b = instance.board
    if not b.is_lattice or instance.goal_placement != "fixed":
        return ()
    cs = b.lattice_coords
    coords = set(cs)
    start = instance.start.placement(cs)
    goal = instance.goal.placement(cs)
    out = []
    for m in geometry.symmetries(b.kind)[1:]:
        poll()
        image = {c: geometry.apply(m, c) for c in cs}
        xs0 = min(c[0] for c in coords), min(c[1] for c in coords)
        xs1 = min(c[0] for c in image.values()), min(c[1] for c in image.values())
        dx, dy = xs0[0] - xs1[0], xs0[1] - xs1[1]
        moved = {c: (xy[0] + dx, xy[1] + dy) for c, xy in image.items()}
        if set(moved.values()) != coords:
            continue
        if fix_start and {moved[c]: lab for c, lab in start.items()} != start:
            continue
        if {moved[c]: lab for c, lab in goal.items()} != goal:
            continue
        out.append(tuple(b.cell(moved[c]) for c in cs))
    return tuple(out)


def configuration_count(instance: Instance) -> int:
    """How many configurations of the instance's coins fit on the board (window).

    A shortest solution never repeats a configuration, so on an exact window it
    has at most this many minus one moves (the completeness threshold).
    """
    n, count = instance.board.size, 1
    for k in instance.start.label_counts.values():
        count *= math.comb(n, k)
        n -= k
    return count


def _min_group_perimeter(rects: list[tuple[int, int, int, int]]) -> int:
    """Least total perimeter of bounding boxes over all groupings of the rectangles."""
    best = None

    def bbox(group):
        return (min(r[0] for r in group), min(r[1] for r in group), max(r[2] for r in group), max(r[3] for r in group))

    def per(r):
        return 2 * ((r[2] - r[0] + 1) + (r[3] - r[1] + 1))

    def rec(i, groups):
        nonlocal best
        if i == len(rects):
            total = sum(per(bbox(g)) for g in groups)
            best = total if best is None else min(best, total)
            return
        for g in groups:
            g.append(rects[i])
            rec(i + 1, groups)
            g.pop()
        groups.append([rects[i]])
        rec(i + 1, groups)
        groups.pop()

    rec(0, [])
    return best or 0


def edge_budget(instance: Instance) -> int | None:
    """Lemma P (spec §4.8): on the square grid with d = 2, every configuration C_t of
    a solution has at most this many pairs of adjacent coins (None: not applicable).

    The perimeter 4n - 2E(C) of a cell set never grows when its span is filled in
    (a cell with k >= 2 occupied neighbours adds 4 - 2k), span(C_t) contains
    span(B) (spans only shrink along a solution and C_T = B), and a closed set
    containing span(B) (a union of rectangles) has perimeter at least the least
    total perimeter of bounding boxes of a grouping of the rectangles of span(B).
    """
    if instance.board.kind is not BoardKind.SQUARE or instance.d != 2:
        return None
    from .span import components, span

    n, b = instance.n_coins, instance.board
    budgets = []
    for goal in instance.goal_configurations:
        cells = [b.lattice_coords[c] for c in span(b, goal.cells, 2)]
        rects = []
        for comp in components("square", cells):
            xs, ys = [c[0] for c in comp], [c[1] for c in comp]
            rects.append((min(xs), min(ys), max(xs), max(ys)))
        if len(rects) > 7:
            return None  # too many groupings to enumerate; no budget claimed
        budgets.append((4 * n - _min_group_perimeter(rects)) // 2)
    return max(budgets) if budgets else None


def spanning_lines(instance: Instance) -> tuple[tuple[int, ...], ...] | None:
    """Lemma S (spec §4.9): cell sets that hold a coin in every C_t of a solution.

    Applies on the square grid with d = 2 when the window is exact, is a full
    rectangle, and every goal placement spans all of it: then span(C_t) must be
    the whole rectangle at every step, which needs a coin on each boundary row
    and column, and a coin in every two adjacent rows and every two adjacent
    columns (an empty boundary line, or two empty adjacent lines, can never be
    filled in: the first cell filled there would have <= 1 occupied neighbour).
    None when the lemma does not apply.
    """
    b = instance.board
    if b.kind is not BoardKind.SQUARE or instance.d != 2 or not b.exact:
        return None
    from .span import span

    xs, ys = [c[0] for c in b.lattice_coords], [c[1] for c in b.lattice_coords]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    if b.size != (x1 - x0 + 1) * (y1 - y0 + 1):
        return None
    if any(len(span(b, g.cells, 2)) != b.size for g in instance.goal_configurations):
        return None
    rows = [tuple(b.cell((x, y)) for x in range(x0, x1 + 1)) for y in range(y0, y1 + 1)]
    cols = [tuple(b.cell((x, y)) for y in range(y0, y1 + 1)) for x in range(x0, x1 + 1)]
    out = []
    for lines in (rows, cols):
        out += [lines[0], lines[-1]]
        out += [lines[i] + lines[i + 1] for i in range(len(lines) - 1)]
    return tuple(dict.fromkeys(tuple(sorted(c)) for c in out))


class LatticeLayers:
    """The span layers R_0 ⊆ R_1 ⊆ ... of an instance's start on its infinite lattice (module
    docstring), computed on demand: ``step[c]`` = the first t with c in R_t.  The one home of
    the lattice layers: ``exact_for`` asks them whether a window holds R_T, and the engines
    that grow their windows (``search/windows.py``) cut windows from them.

    A cell joins R_{t+1} when >= d of its neighbours are in R_t; only the neighbours of the
    newest layer can have gained one, so the work per layer is linear in its size.
    ``grow_to`` polls the ambient budget (``limits.poll``) once per layer.
    """

    def __init__(self, instance: Instance):
        b = instance.board
        self._start(b.kind, [b.coords[c] for c in instance.start.cells], instance.d)

    @classmethod
    def of_coords(cls, kind: str, start: Iterable, d: int) -> "LatticeLayers":
        """The layers of the coins at ``start`` (coordinates) on the ``kind`` lattice."""
        out = cls.__new__(cls)
        out._start(kind, start, d)
        return out

    def _start(self, kind: str, start: Iterable, d: int) -> None:
        self.kind, self.d = kind, d
        self.step: dict = {xy: 0 for xy in start}
        self._frontier = list(self.step)
        self.depth = 0  # R_depth is complete in ``step``
        self.stable = False  # R_{depth+1} = R_depth: the layers are span(start), finite

    def grow_to(self, t: int, max_cells: int | None = None) -> bool:
        """Compute R_t (False, with R_t unfinished, once more than ``max_cells`` cells)."""
        while self.depth < t and not self.stable:
            poll()
            count: dict = {}
            for c in self._frontier:
                for n in geometry.neighbours(self.kind, c):
                    if n not in self.step:
                        count[n] = count.get(n, 0) + 1
            new = [n for n in count if sum(q in self.step for q in geometry.neighbours(self.kind, n)) >= self.d]
            self.depth += 1
            if not new:
                self.stable = True
                break
            for n in new:
                self.step[n] = self.depth
            self._frontier = new
            if max_cells is not None and len(self.step) > max_cells:
                return False
        return True

    def cells(self, t: int) -> list:
        """R_t (after ``grow_to(t)``)."""
        return [c for c, s in self.step.items() if s <= t]


@lru_cache(maxsize=64)
def _layers_of(kind: str, start: tuple, d: int) -> LatticeLayers:
    """One growing set of layers per start (``exact_for`` is asked about many horizons)."""
    return LatticeLayers.of_coords(kind, start, d)


def exact_for(instance: Instance, horizon: int) -> bool:
    """True iff "no solution with <= horizon moves in the window" holds on the whole lattice.

    Exact windows (board.py) always qualify.  Otherwise the window must contain
    the span layer R_horizon computed on the infinite lattice (Lemma W): no
    solution with at most ``horizon`` moves ever occupies a cell outside it.
    This is weaker than, and implied by, ``instance.exact_within(horizon)``.
    """
    b = instance.board
    if b.exact or instance.exact_within(horizon):
        return True
    start = tuple(sorted(b.lattice_coords[c] for c in instance.start.cells))  # graph boards are exact
    layers = _layers_of(b.kind, start, instance.d)
    if layers.depth < horizon and not layers.grow_to(horizon, max_cells=b.size):
        return False  # R_horizon has more cells than the window
    return all(b.has(xy) for xy in layers.cells(horizon))
