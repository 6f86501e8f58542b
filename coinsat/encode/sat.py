"""The time-expanded SAT encoding of a coin-moving puzzle (spec: ``encodings/sat.md``).

Public API (relied on by the exporter, the certificate engine and the driver):

``encode(instance, horizon, options=None, goal=True) -> SatFormula``
    The closed formula for horizon T: start (C1), T transition layers
    (C2-C7, N1 and the enabled pruning families P1-P7), and, with ``goal``,
    the goal at step T as hard clauses (C8: units for a fixed goal; for a
    translate/congruent goal one placement selector per placement plus the
    unit g[T]).  With ``options.noop`` (the default) it is satisfiable iff
    some solution has *at most* T moves inside the board's window, so
    UNSAT proves "no solution with <= T moves" (globally when the window is
    exact for T: ``coinsat.theory.reach.exact_for``; on an inexact window
    encode ``coinsat.search.driver.widen(instance, T)`` instead, the same
    puzzle on a window exact for T).  This single CNF, goal selectors
    included, is what the DIMACS export and the DRAT certificates use.  The
    same input always gives the same clauses and numbering.

``SatFormula`` (frozen)
    ``.clauses`` (list of lists of ints), ``.nvars``, ``.pool`` (the IDPool),
    ``.decode(model) -> Solution`` (moves read off the model, *not* verified:
    callers pass them to ``certify_solution``), ``.symbols()`` ->
    ``[(var, meaning)]`` by variable number, ``.move_vars()`` -> the f, v and
    no-op variables (a model projected on them is exactly its move sequence).

``Encoder(instance, options)``
    The incremental builder behind ``encode``: ``extend(T)`` returns the
    clauses of the layers up to T not emitted yet, ``goal(T)`` returns
    (assumptions, new clauses) for "C_T is a goal configuration".  The driver
    keeps one solver and feeds it these; ``encode`` is exactly
    ``extend(T)`` + ``goal(T)`` with the assumptions as unit clauses.

This module only builds formulas and reads models; rules.py alone decides
legality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, TypeVar

from pysat.formula import IDPool

from ..errors import InternalError
from ..instance import Instance
from ..limits import poll
from ..rules import Move
from ..solution import Solution
from ..theory.reach import SpanLayers, edge_budget, open_windows, placement_bounds, spanning_lines, symmetries
from . import sat_families as fam
from .options import DEFAULT_OPTIONS, EncodingOptions
from .varmap import Fill, GoalAt, Lab, NoOp, Occ, OffGoal, Place, Vac, VarMap

#: The transition families of one layer, in emission order (each cites its spec id).
LAYER_FAMILIES = (
    ("C2", fam.c2_fill, None),
    ("C3", fam.c3_vacate, None),
    ("C4", fam.c4_one_fill, None),
    ("C5", fam.c5_one_vacate, None),
    ("C6", fam.c6_adjacency, None),
    ("C7", fam.c7_labels, None),
    ("P1", fam.p1_noop_last, "noop_last"),
    ("P7", fam.p7_goal_count, "goal_count"),
    ("P3", fam.p3_no_return, "no_return"),
    ("P5", fam.p5_tight, "tight"),
    ("P4", fam.p4_useful, "useful"),
    ("P6", fam.p6_commute, "commute"),
    ("P8", fam.p8_perimeter, "perimeter"),
    ("P9", fam.p9_spanning, "spanning"),
    ("P10", fam.p10_kept, "kept"),
    ("P11", fam.p11_distinct, "distinct"),
    ("P12", fam.p12_symmetry, "symmetry"),
)


UNLABELED_ONLY = ("useful", "tight", "distinct", "symmetry")


_V = TypeVar("_V")


def made(value: _V | None, what: str) -> _V:
    """A variable (or literal list) the encoding always makes by this point; None would be a bug."""
    if value is None:
        raise InternalError(f"the encoding has no variable for {what}")
    return value


class Encoder:
    """Incremental builder of the encoding (layers t = 0, 1, 2, ... in order)."""

    def __init__(self, instance: Instance, options: EncodingOptions | None = None, goal_aware: bool = True):
        self.instance = instance
        self.options = options or DEFAULT_OPTIONS
        b = instance.board
        self.vm = VarMap(b.coords)
        self.nbrs = b.neighbours
        self.nbr_sets = tuple(frozenset(n) for n in b.neighbours)
        labels = instance.labels
        self.labels: tuple[str, ...] = labels if len(labels) > 1 else ()
        self.windows = SpanLayers(instance) if self.options.windows else open_windows(instance)
        self.cells: list[tuple[int, ...]] = []  # cells[t] = R_t
        self.fills: list[tuple[int, ...]] = [()]  # fills[t] = cells fillable at t (t >= 1)
        self.horizon = -1
        self.counts: dict[str, int] = {}  # clauses per family id
        self._placement_lb: tuple | None = None
        # P8, P9 are invariants of solutions (they use the goal): off for goal-free formulas
        self.edge_budget = edge_budget(instance) if self.options.perimeter and goal_aware else None
        self.spanning_lines = spanning_lines(instance) if self.options.spanning and goal_aware else None
        self.symmetries = symmetries(instance) if self.options.symmetry and goal_aware else ()
        fixed = instance.goal_placement == "fixed"
        self.goal_cells = tuple(instance.goal.cells) if fixed and goal_aware and self.options.goal_count else None
        self.off_goal_start = len(set(instance.start.cells) - set(instance.goal.cells))
        self._new_layer(0)
        self.pending = self._count("C1", fam.c1_start(self))

    # variable access (None = ruled out by the windows = constant false)
    def x(self, c: int, t: int) -> int | None:
        return self.vm.get(Occ, c, t)

    def f(self, c: int, t: int) -> int | None:
        return self.vm.get(Fill, c, t)

    def v(self, c: int, t: int) -> int | None:
        return self.vm.get(Vac, c, t)

    def noop(self, t: int) -> int:
        return made(self.vm.get(NoOp, t), f"the no-op at step {t}")

    def _count(self, fid: str, clauses: list) -> list:
        self.counts[fid] = self.counts.get(fid, 0) + len(clauses)
        return clauses

    def _new_layer(self, t: int) -> None:
        w, vm = self.windows, self.vm
        cells = w.cells_at(t)
        self.cells.append(cells)
        for c in cells:
            vm.new(Occ, c, t)
        if t == 0:
            self.horizon = 0
            return
        fills = tuple(c for c in cells if w.fillable(c, t))
        self.fills.append(fills)
        for c in fills:
            vm.new(Fill, c, t)
        for c in self.cells[t - 1]:
            vm.new(Vac, c, t)
        if self.options.noop:
            vm.new(NoOp, t)
        self.horizon = t

    def extend(self, horizon: int) -> list[list[int]]:
        """Clauses of every layer up to ``horizon`` not returned before (plus C1 the first time)."""
        out, self.pending = self.pending, []
        for t in range(self.horizon + 1, horizon + 1):
            poll()  # a layer of a wide window takes seconds: let a limit stop the run inside it
            self._new_layer(t)
            for fid, build, option in LAYER_FAMILIES:
                if option is None or self.active(option):
                    poll()
                    out += self._count(fid, build(self, t))
        return out

    def active(self, option: str) -> bool:
        """Is the family of ``option`` emitted?  P4/P5, P11 and P12 only without labels
        (spec §4: their proofs look at occupancy alone, which labels make insufficient)."""
        if option in UNLABELED_ONLY and self.labels:
            return False
        if option == "tight" and not self.options.useful:
            return False  # P5 only refines P4
        return getattr(self.options, option)

    def placement_lbs(self) -> tuple:
        if self._placement_lb is None:
            self._placement_lb = placement_bounds(self.instance, self.windows)
        return self._placement_lb

    def goal(self, horizon: int) -> tuple[list[int] | None, list[list[int]]]:
        """C8 at step T: (assumptions, clauses); assumptions None if no goal placement
        can be reached within T moves (Lemma W and the placement lower bounds)."""
        assert horizon <= self.horizon, "extend() the layers first"
        T = horizon
        inst = self.instance
        goals = inst.goal_configurations
        ok = [
            k
            for k, lb in enumerate(self.placement_lbs())
            if lb is not None and lb <= T and self._goal_lits(goals[k], T) is not None
        ]
        if not ok:
            return None, []
        if inst.goal_placement == "fixed":
            extra = (
                [-made(self.vm.get(OffGoal, T, 1), f"off-goal at step {T}")]
                if self.goal_cells is not None and T > 0
                else []
            )
            return made(self._goal_lits(goals[0], T), "the goal's literals") + extra, []
        g = self.vm.get(GoalAt, T)
        if g is not None:  # built before
            return [g], []
        g = self.vm.new(GoalAt, T)
        z = {k: self.vm.new(Place, k) for k in ok}
        clauses = [[-g, *z.values()]]
        for k in ok:
            clauses += [
                [-g, -z[k], lit] for lit in made(self._goal_lits(goals[k], T, empties=False), "a placement's literals")
            ]
        return [g], self._count("C8", clauses)

    def _goal_lits(self, goal, T: int, empties: bool = True) -> list[int] | None:
        """Literals saying C_T = goal (None if a goal coin is ruled out at T)."""
        found = [self.x(c, T) for c in goal.cells]
        if self.labels:
            found += [self.vm.get(Lab, lab, c, T) for c, lab in goal.coins]
        if not all(found):
            return None
        lits = [lit for lit in found if lit is not None]
        if empties:
            on = set(goal.cells)
            lits += [-made(self.x(c, T), f"cell {c} at step {T}") for c in self.cells[T] if c not in on]
        return lits

    def decode(self, model: Iterable[int], horizon: int) -> Solution:
        """The moves of a model (not verified: the caller certifies them with rules.py)."""
        true = {l for l in model if l > 0}
        moves = []
        for t in range(1, horizon + 1):
            if self.options.noop and self.noop(t) in true:
                continue
            dst = [c for c in self.fills[t] if self.f(c, t) in true]
            src = [c for c in self.cells[t - 1] if self.v(c, t) in true]
            if len(dst) != 1 or len(src) != 1:
                raise ValueError(f"model has no single move at step {t}: fills {dst}, vacates {src}")
            moves.append(Move(src[0], dst[0]))
        return Solution(tuple(moves))

    def move_vars(self, horizon: int) -> list[int]:
        out = []
        for t in range(1, horizon + 1):
            if self.options.noop:
                out.append(self.noop(t))
            out += [made(self.f(c, t), f"fill {c} at step {t}") for c in self.fills[t]]
            out += [made(self.v(c, t), f"vacate {c} at step {t}") for c in self.cells[t - 1]]
        return out


@dataclass(frozen=True)
class SatFormula:
    """A closed formula for one horizon (see the module docstring)."""

    clauses: list[list[int]]
    nvars: int
    pool: IDPool
    horizon: int
    options: EncodingOptions
    encoder: Encoder = field(repr=False, compare=False)

    def decode(self, model: Iterable[int]) -> Solution:
        return self.encoder.decode(model, self.horizon)

    def symbols(self) -> list[tuple[int, str]]:
        return self.encoder.vm.symbols()

    def move_vars(self) -> list[int]:
        return self.encoder.move_vars(self.horizon)

    @property
    def family_counts(self) -> dict[str, int]:
        """Clauses per constraint family id (C1..C8, N1, P1..P12; encodings/sat.md §4)."""
        return dict(self.encoder.counts)


def encode(instance: Instance, horizon: int, options: EncodingOptions | None = None, goal: bool = True) -> SatFormula:
    """The closed formula "a solution with <= horizon moves exists" (module docstring).

    Parameters
    ----------
    instance : Instance
        The puzzle; the formula lives on its window (``coinsat.certificates.check.bounded.widened``
        gives one exact for the horizon).
    horizon : int
        T, the number of steps (>= 0).
    options : EncodingOptions, optional
        The constraint families (``coinsat.encode.options``; None: the default pruned encoding).
    goal : bool
        False leaves the goal out, and with it the families that are consequences of the goal
        (P8, P9): every legal move sequence of length ``horizon`` that the pruning families allow,
        padded with no-ops, is a model (used to count moves).

    Returns
    -------
    SatFormula
        The clauses and the variable map (``coinsat.io.dimacs.cnf_text`` writes them as DIMACS).

    Raises
    ------
    ValueError
        For a negative horizon.
    """
    if horizon < 0:
        raise ValueError(f"horizon must be >= 0, not {horizon}")
    enc = Encoder(instance, options, goal_aware=goal)
    clauses = enc.extend(horizon)
    if goal:
        assumptions, extra = enc.goal(horizon)
        clauses += extra
        clauses += [[a] for a in assumptions] if assumptions is not None else [[]]
    return SatFormula(clauses, enc.vm.nvars, enc.vm.pool, horizon, enc.options, enc)
