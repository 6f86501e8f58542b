"""The time-expanded model as a 0-1 integer program (spec: ``encodings/ilp.md``).

A pure builder: :func:`build_ilp` returns an :class:`IlpModel` holding a
``pulp.LpProblem``, the variable map (keys are the small typed tuples
:class:`Occ`, :class:`Fill`, :class:`Vac`, :class:`NoOp`, :class:`Place`)
and :meth:`IlpModel.decode`, which turns solved variable values into a
:class:`~coinsat.solution.Solution`.  Nothing here runs a solver
(``coinsat.backends.ilp_backend`` does) and nothing here decides legality: the
caller replays decoded solutions through ``certify_solution`` (rules.py).

The model over horizon T, cells c, label classes l, steps t = 1..T
(ids of the spec):

* I2  x[c,l,0] = [start has a coin of class l on c]            (fixed bounds)
* I3  goal: x[c,l,T] = [goal has l on c] (one placement), or
      sum_g z[g] = 1 and x[c,l,T] = sum_{g : g has l on c} z[g]  (placements)
* I4  x[c,l,t] = x[c,l,t-1] + fill[c,l,t] - vacate[c,l,t]
* I5  sum_{c,l} fill[c,l,t] = sum_{c,l} vacate[c,l,t] = 1 - noop[t]
* I6  sum_c fill[c,l,t] = sum_c vacate[c,l,t]           (per class; >= 2 classes)
* I7  sum_l x[c,l,t] <= 1                               (>= 2 classes)
* I8  sum_l (fill[c,l,t] + vacate[c,l,t]) <= 1          (no move from c to c)
* I9  d * sum_l fill[c,l,t] <= sum_{q in N(c)} sum_l x[q,l,t]   (post-state support)
* I10 noop[t] <= noop[t+1]                              (no-ops last; option noop_last)
* I11 x[c,l,t] = 0 unless c is in the span layer R_t; fill[c,l,t] = 0 unless c is
      fillable at t (theory/reach.py, Lemma W of encodings/sat.md; option windows)
* I12 sum_l fill[c,l,t] + sum_l vacate[c,l,t+1] <= 1     (no coin moves twice in a
      row; option no_return)
* I13 start cells left <= moves so far; goal cells missing <= moves to come
      (implied cuts; option counts, off by default)
* OBJ minimise sum_{c,l,t} fill[c,l,t]  (= number of moves)

I9 is exact: after a move s -> p the occupied neighbours of p are the coins
adjacent to p before the move except the moved one (p is not its own
neighbour), which is rules.py's condition.  Integer points of I2-I9 are in
one-to-one correspondence with move sequences of length <= T padded with
no-ops (I10 fixes where the no-ops go), so the optimum of OBJ is the length
of a shortest solution within T moves, inside the board's window, and
infeasibility proves that no such solution exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping

from ..configuration import Configuration
from ..errors import DecodeError
from ..instance import Instance
from ..limits import poll
from ..solution import Solution
from .varmap import key

# Variable keys (``varmap.key``): frozen dataclasses, so that Occ(1, 0, 2) != Fill(1, 0, 2)
# (dataclass equality requires the same class; NamedTuples would compare equal).
# The names and the step field ``t`` are those of the SAT keys (encode/varmap.py);
# the ILP keys carry a label index too, since the model has one variable per class.
Occ = key("Occ", "cell label t", "x[cell, label, t]: the cell holds a coin of that class in C_t.")
Fill = key("Fill", "cell label t", "f[cell, label, t]: move t drops a coin of that class on the cell.")
Vac = key("Vac", "cell label t", "v[cell, label, t]: move t lifts a coin of that class from the cell.")
NoOp = key("NoOp", "t", "n[t]: step t moves nothing.")
Place = key("Place", "k", "z[k]: the goal is reached in its k-th placement.")


# A value further than this from 0 or 1 is not an integer answer.
INTEGRALITY_TOLERANCE = 1e-4


@dataclass(frozen=True)
class IlpModel:
    problem: Any  # pulp.LpProblem
    horizon: int
    labels: tuple[str, ...]
    placements: tuple[Configuration, ...]
    variables: Mapping[Any, Any] = field(repr=False)
    n_cells: int = 0

    def value(self, key) -> int:
        """The solved 0/1 value of a variable; DecodeError if it is not integral."""
        v = self.variables[key].varValue
        if v is None:
            raise DecodeError(f"no value for {key}")
        r = round(v)
        if abs(v - r) > INTEGRALITY_TOLERANCE or r not in (0, 1):
            raise DecodeError(f"{key} = {v} is not 0 or 1")
        return r

    def decode(self) -> Solution:
        """The move sequence of a solved model (spec: decoding): the vacated and the
        filled cell of every step that is not a no-op."""
        moves = []
        for t in range(1, self.horizon + 1):
            if self.value(NoOp(t)):
                continue
            src = self._cells_where(Vac, t)
            dst = self._cells_where(Fill, t)
            if len(src) != 1 or len(dst) != 1:
                raise DecodeError(f"step {t}: vacated {src}, filled {dst}")
            moves.append((src[0], dst[0]))
        return Solution.of(moves)

    def _cells_where(self, kind, t: int) -> list[int]:
        return [c for c in range(self.n_cells) for li in range(len(self.labels)) if self.value(kind(c, li, t))]

    @property
    def size(self) -> dict[str, int]:
        return {"variables": len(self.variables), "constraints": _n_constraints(self.problem)}


def _n_constraints(problem) -> int:
    cons = problem.constraints
    return len(cons() if callable(cons) else cons)


def build_ilp(
    instance: Instance,
    horizon: int,
    *,
    noop_last: bool = True,
    windows: bool = True,
    no_return: bool = True,
    counts: bool = False,
    name: str | None = None,
) -> IlpModel:
    """The integer program "a solution with <= ``horizon`` moves, minimising moves".

    The build polls the ambient budget (``coinsat.limits.poll``) once per step of
    every family, so under ``limits.enforced`` a spent budget stops it with
    :class:`~coinsat.errors.LimitReached`.

    The options switch the optional families I10, I11, I12, I13 (each keeps the
    optimum within the horizon: encodings/ilp.md, "Options").  Raises
    ValueError for a negative horizon.
    """
    from ..registry import require
    from ..theory.reach import SpanLayers, open_windows

    pulp = require("pulp", "the ILP model (solve --method ilp, export --format lp|mps)")

    if horizon < 0:
        raise ValueError(f"horizon must be >= 0, not {horizon}")
    labels = instance.labels
    placements = instance.goal_configurations
    if not placements:
        raise ValueError("the goal has no placement inside the window")
    prob = pulp.LpProblem(_lp_name(name or instance.name), pulp.LpMinimize)
    w = SpanLayers(instance) if windows else open_windows(instance)
    b = _Builder(pulp, prob, instance, horizon, labels, w)
    b.start()  # I2
    b.dynamics()  # I4
    b.one_move_or_noop()  # I5
    b.label_conservation()  # I6
    b.one_coin_per_cell()  # I7
    b.distinct_cells()  # I8
    b.support()  # I9
    if noop_last:
        b.noops_last()  # I10
    if no_return:
        b.no_return()  # I12
    if counts:
        b.counts(placements)  # I13
    b.goal(placements)  # I3
    prob += pulp.lpSum(v for k, v in b.vars.items() if isinstance(k, Fill)), "moves"
    return IlpModel(prob, horizon, labels, placements, b.vars, instance.board.size)


def _lp_name(s: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in s) or "coinsat"


class _Builder:
    """One method per constraint family of the spec; ``vars`` is the variable map."""

    def __init__(self, pulp, prob, instance: Instance, horizon: int, labels, windows):
        self.pulp, self.prob, self.T = pulp, prob, horizon
        self.inst, self.labels = instance, labels
        self.cells = range(instance.board.size)
        self.L = range(len(labels))
        self.vars: dict[Any, Any] = {}
        self.steps = range(1, horizon + 1)
        for t in self._steps(self.steps):
            self._var(NoOp(t), f"n_{t}")
            for c in self.cells:
                for li in self.L:
                    fix = None if windows.fillable(c, t) else 0  # I11
                    self._var(Fill(c, li, t), f"f_{c}_{li}_{t}", fix)
                    self._var(Vac(c, li, t), f"v_{c}_{li}_{t}")
        for t in self._steps(range(1, horizon + 1)):
            for c in self.cells:
                fix = None if windows.occupiable(c, t) else 0  # I11
                for li in self.L:
                    self._var(Occ(c, li, t), f"x_{c}_{li}_{t}", fix)

    @staticmethod
    def _steps(steps: Iterable[int]) -> Iterator[int]:
        """``steps``, polling the ambient budget before each (``limits.poll``): a step of a
        wide window takes a while to build, and a limit must be able to stop the build."""
        for t in steps:
            poll()
            yield t

    def _var(self, key, name: str, fixed: int | None = None):
        lo, hi = (0, 1) if fixed is None else (fixed, fixed)
        add = getattr(self.prob, "add_variable", None)
        if add is not None:  # PuLP >= 3.3.1 (the only way in 4.x)
            v = add(name, lo, hi, "Integer")
        else:
            v = self.pulp.LpVariable(name, lo, hi, "Integer")
        self.vars[key] = v
        return v

    def x(self, c: int, li: int, t: int):
        return self.vars[Occ(c, li, t)]

    def occ(self, c: int, t: int):
        return self.pulp.lpSum(self.x(c, li, t) for li in self.L)

    def fill(self, c: int, t: int):
        return self.pulp.lpSum(self.vars[Fill(c, li, t)] for li in self.L)

    def vacate(self, c: int, t: int):
        return self.pulp.lpSum(self.vars[Vac(c, li, t)] for li in self.L)

    def start(self) -> None:
        """I2: step 0 is the start, as fixed variables."""
        have = set(self.inst.start.coins)
        for c in self.cells:
            for li, lab in enumerate(self.labels):
                self._var(Occ(c, li, 0), f"x_{c}_{li}_0", int((c, lab) in have))

    def dynamics(self) -> None:
        """I4: a cell's class-l occupancy changes only by a fill or a vacate of class l."""
        for t in self._steps(self.steps):
            for c in self.cells:
                for li in self.L:
                    self.prob += (
                        self.x(c, li, t) == self.x(c, li, t - 1) + self.vars[Fill(c, li, t)] - self.vars[Vac(c, li, t)],
                        f"I4_{c}_{li}_{t}",
                    )

    def one_move_or_noop(self) -> None:
        """I5: exactly one fill and one vacate per step, or neither (a no-op)."""
        lp = self.pulp.lpSum
        for t in self._steps(self.steps):
            active = 1 - self.vars[NoOp(t)]
            self.prob += lp(self.fill(c, t) for c in self.cells) == active, f"I5f_{t}"
            self.prob += lp(self.vacate(c, t) for c in self.cells) == active, f"I5v_{t}"

    def label_conservation(self) -> None:
        """I6: the filled and the vacated cell belong to the same class (the moved coin's)."""
        if len(self.labels) < 2:
            return
        lp = self.pulp.lpSum
        for t in self._steps(self.steps):
            for li in self.L:
                self.prob += (
                    lp(self.vars[Fill(c, li, t)] for c in self.cells)
                    == lp(self.vars[Vac(c, li, t)] for c in self.cells),
                    f"I6_{li}_{t}",
                )

    def one_coin_per_cell(self) -> None:
        """I7: at most one coin per cell (implied by binarity when there is one class)."""
        if len(self.labels) < 2:
            return
        for t in self._steps(self.steps):
            for c in self.cells:
                self.prob += self.occ(c, t) <= 1, f"I7_{c}_{t}"

    def distinct_cells(self) -> None:
        """I8: a move's source and destination differ."""
        for t in self._steps(self.steps):
            for c in self.cells:
                self.prob += self.fill(c, t) + self.vacate(c, t) <= 1, f"I8_{c}_{t}"

    def support(self) -> None:
        """I9: a filled cell has >= d occupied neighbours after the move."""
        d, nbrs = self.inst.d, self.inst.board.neighbours
        for t in self._steps(self.steps):
            for c in self.cells:  # a cell with < d neighbours gets d * fill <= (< d): never filled
                around = self.pulp.lpSum(self.occ(q, t) for q in nbrs[c])
                self.prob += d * self.fill(c, t) <= around, f"I9_{c}_{t}"

    def noops_last(self) -> None:
        """I10: once a step is a no-op, every later step is one."""
        for t in self._steps(range(1, self.T)):
            self.prob += self.vars[NoOp(t)] <= self.vars[NoOp(t + 1)], f"I10_{t}"

    def no_return(self) -> None:
        """I12: the cell filled at step t is not vacated at step t + 1."""
        for t in self._steps(range(1, self.T)):
            for c in self.cells:
                self.prob += self.fill(c, t) + self.vacate(c, t + 1) <= 1, f"I12_{c}_{t}"

    def counts(self, placements) -> None:
        """I13: at step t at most (moves so far) start coins have left their cells, and
        (fixed goal) at most (moves still to come) goal coins are missing."""
        lp = self.pulp.lpSum
        index = {lab: li for li, lab in enumerate(self.labels)}
        start = [(c, index[lab]) for c, lab in self.inst.start.coins]
        goal = [(c, index[lab]) for c, lab in placements[0].coins] if len(placements) == 1 else None
        moved = lambda ts: lp(1 - self.vars[NoOp(u)] for u in ts)  # noqa: E731
        for t in self._steps(self.steps):
            self.prob += (lp(1 - self.x(c, li, t) for c, li in start) <= moved(range(1, t + 1)), f"I13s_{t}")
            if goal is not None and t < self.T:
                self.prob += (
                    lp(1 - self.x(c, li, t) for c, li in goal) <= moved(range(t + 1, self.T + 1)),
                    f"I13g_{t}",
                )

    def goal(self, placements) -> None:
        """I3: step T is the goal, or one of its placements chosen by selectors z."""
        T = self.T
        index = {lab: li for li, lab in enumerate(self.labels)}
        if len(placements) == 1:
            want = {(c, index[lab]) for c, lab in placements[0].coins}
            for c in self.cells:
                for li in self.L:
                    self.prob += self.x(c, li, T) == int((c, li) in want), f"I3_{c}_{li}"
            return
        z = [self._var(Place(g), f"z_{g}") for g in range(len(placements))]
        self.prob += self.pulp.lpSum(z) == 1, "I3_one"
        covers: dict[tuple[int, int], list] = {}
        for g, conf in enumerate(placements):
            for c, lab in conf.coins:
                covers.setdefault((c, index[lab]), []).append(z[g])
        for c in self.cells:
            for li in self.L:
                self.prob += self.x(c, li, T) == self.pulp.lpSum(covers.get((c, li), [])), f"I3_{c}_{li}"
