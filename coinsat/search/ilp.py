"""The ILP method: shortest solutions from one integer program per horizon.

``solve_ilp(instance, max_moves=T)`` builds the model of encodings/ilp.md at
horizon T (no-ops allowed) and solves it once:

* optimum L found: no solution inside the window has fewer than L moves (any
  such solution has <= T moves, so the model contains it).  The answer is
  ``optimal`` when the window is exact up to L - 1 moves
  (``Instance.exact_within``), else ``feasible`` with the lower bound the
  window proves (``stats["window_optimal"]``), exactly as the BFS oracle;
* infeasible: ``bounded`` (no solution with <= T moves; certificate scope
  ``horizon``, or ``window`` when the window is not exact up to T);
* a time limit: ``feasible`` (incumbent, with the solver's proven bound;
  ``optimal`` if that bound reaches the incumbent's length) or ``unknown``,
  never a "no".

Without ``max_moves`` the horizon grows from T = max(1, L0) (L0 a proven
lower bound) until the model is feasible; the first feasible horizon gives
the optimum in the same solve, every infeasible one raises the proven lower
bound to T + 1.  Option ``strategy``: ``linear`` (default; T, T + 1, ...: the
first feasible T is the optimum) or ``geometric`` (T, 2T, 4T, ...: fewer
solves, but the optimum must then be proven at a horizon above it, which MIP
solvers find much harder: on the paper instances ``linear`` proved what
``geometric`` left unknown).  The cap is
``N - 1``, N the number of configurations of the coins inside the window: a
shortest solution never repeats a configuration, so it has at most N - 1
moves, and infeasibility at that horizon proves that no solution exists
(``unsolvable``; scope ``global`` on an exact window, else ``window``).  The
same cap turns a ``max_moves >= N - 1`` run into that proof.  On boards with
many cells N is astronomically large: an unsolvable instance then ends only
at ``time_limit`` or at the ``max_horizon`` option (answer ``bounded``).

The first horizon is the lower bound of theory/reach.py (shared with the
SAT engine); when it finds no goal placement in the span of the start the
answer is ``unsolvable`` (certificate ``goal-outside-span``) without a solve.

**Inexact windows** (triangular grid, square grid with d = 1) grow as for
``bfs`` (``search/grown.py``): the horizon H = (proven bound) + 1, ... is
posed on the smallest window holding the lattice layer R_H, where every
solution with <= H moves lives, so an infeasible model proves "no solution with
<= H moves" globally and the optimum of a feasible one is the global optimum.
``geometric`` doubles H there instead.  Answers are global: ``optimal``,
``bounded`` at ``max_moves`` (or ``max_horizon``), ``unsolvable`` only from the
screens or on a window that turns out exact, and ``feasible``/``unknown`` with
the proven bound at a limit.  ``grow=False`` keeps the old window-only answers.

Limits: ``time_limit`` and ``memory_limit`` (``coinsat.limits.Limits``) are
polled before every model, while it is built (``build_ilp`` polls the ambient
budget once per step of every constraint family) and after every solve; the
solver itself gets the time that is left (HiGHS has no memory limit of its
own, so a solve may overshoot the memory limit until it returns).

Options: ``solver`` ("highs" | "cbc"), ``threads``, ``max_horizon``, ``strategy``, and the
encoding families ``noop_last`` (I10), ``windows`` (I11), ``no_return`` (I12),
on by default, and ``counts`` (I13), off by default.  Every decoded solution
is replayed by ``certify_solution``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from ..backends.ilp_backend import SAT, UNKNOWN, UNSAT, IlpAnswer, run_ilp
from ..encode.ilp import build_ilp
from ..errors import DecodeError, LimitReached, UsageError
from ..instance import Instance
from ..limits import Limits, enforced
from ..registry import unknown
from ..result import Engine, Evidence, Result, Status
from ..solution import Solution, certify_solution
from ..theory.reach import configuration_count, exact_for, lower_bound
from .grown import Proved, WindowAnswer, grow
from .methods import contract
from .options import ILP_ENCODING, ILP_STRATEGIES, IlpOptions
from .windows import exact_horizon

ENCODING_OPTIONS = ILP_ENCODING
STRATEGIES = ILP_STRATEGIES
DEFAULT_STRATEGY = IlpOptions().strategy


@contract(IlpOptions)
def solve_ilp(instance: Instance, *, limits: Limits, max_moves: int | None, options: IlpOptions) -> Result:
    """Shortest solution by integer programming (module docstring; options: ``IlpOptions``)."""
    strategy = options.strategy
    if strategy not in STRATEGIES:
        raise UsageError(unknown("strategy", strategy, STRATEGIES))
    run = _Run(instance, options, limits)
    if options.grow and instance.board.is_lattice and not instance.board.exact:
        return run.grown(max_moves, strategy)
    with enforced(limits):
        try:
            return _fixed(run, max_moves, strategy)
        except LimitReached as e:
            return run.stopped(str(e))
        except KeyboardInterrupt:
            return run.stopped("interrupted")


def _fixed(run: "_Run", max_moves: int | None, strategy: str) -> Result:
    """One window, as given (the module docstring's first part)."""
    instance = run.inst
    window_lb = lower_bound(instance)
    if window_lb is None:
        return run.unsolvable(0, None)
    r = run.radius
    run.known_lb = window_lb if r is None else min(window_lb, r + 1)
    cap = configuration_count(instance) - 1
    if max_moves is not None:
        horizons = [min(max_moves, cap)]
    else:
        horizons = _schedule(max(1, window_lb), cap, run.opts.max_horizon, strategy)
    for T in horizons:
        answer, model = run.solve_at(instance, T)
        if answer.outcome == SAT:
            return run.found(answer, model, T)
        if answer.outcome != UNSAT:
            return run.unknown(answer, T)
        run.none_upto = T
        if T >= cap:
            return run.unsolvable(T, cap + 1)
    return run.bounded(run.none_upto)


@dataclass(frozen=True)
class IlpReport:
    """One horizon of the ILP engine for a progress display (``IlpOptions.progress``): ``outcome``
    is "solving" when the model of ``horizon`` moves goes to the solver, then what it answered
    (SAT: a solution with <= horizon moves, UNSAT: none, UNKNOWN: stopped), after ``seconds``."""

    horizon: int
    outcome: str
    seconds: float
    variables: int
    constraints: int


def _schedule(first: int, cap: int, max_horizon: int | None, strategy: str):
    """Horizons first, 2 first, 4 first, ... (geometric) or first, first + 1, ... (linear),
    capped at ``cap`` and ``max_horizon``."""
    last = cap if max_horizon is None else min(cap, max_horizon)
    T = min(first, last)
    while True:
        yield T
        if T >= last:
            return
        T = min(2 * T if strategy == "geometric" else T + 1, last)


class _Run:
    """The proofs gathered so far and the Result each way of ending gives; in a grown window,
    the growth loop's :class:`~coinsat.search.grown.Search` (:meth:`run`, :meth:`inside`)."""

    bounded_by = "ilp-infeasible"

    def __init__(self, instance: Instance, options: IlpOptions, limits: Limits):
        self.inst, self.opts, self.limits = instance, options, limits
        self.none_upto = -1  # no solution in the window with <= none_upto moves (proven)
        self.known_lb = 0
        self.stats: dict = {"horizons": []}
        self.stop_reason: str | None = None

    @property
    def radius(self) -> int | None:
        """The largest horizon the instance's window is exact for (None: every horizon)."""
        if "_radius" not in self.__dict__:
            self._radius = exact_horizon(self.inst)
        return self._radius

    def _report(self, report: "IlpReport") -> None:
        if self.opts.progress is not None:
            self.opts.progress(report)

    def solve_at(self, work: Instance, T: int):
        """Build and solve the model of ``work`` at horizon T, within the limits (the build
        polls the ambient budget: a LimitReached from it ends the run)."""
        solver = self.opts.solver
        reason = self.limits.exceeded()
        if reason is None:
            encoding: dict[str, Any] = self.opts.encoding()
            model = build_ilp(work, T, **encoding)
            reason = self.limits.exceeded()
        if reason is not None:  # no time (or memory) left: do not solve
            self.stop_reason = reason
            return IlpAnswer(UNKNOWN, False, None, None, solver, reason, 0.0), None
        left = self.limits.remaining()
        size = model.size
        self._report(IlpReport(T, "solving", 0.0, size["variables"], size["constraints"]))
        answer = run_ilp(
            model.problem,
            solver,
            time_limit=None if left is None else max(left, 1e-3),
            threads=self.opts.threads,
        )
        if answer.outcome == UNKNOWN or (answer.outcome == SAT and not answer.optimal):
            self.stop_reason = self.limits.exceeded() or answer.status_text
        self.stats["horizons"].append(
            {"horizon": T, "answer": answer.outcome, "seconds": round(answer.seconds, 4), **model.size}
        )
        self._report(IlpReport(T, str(answer.outcome.value), answer.seconds, size["variables"], size["constraints"]))
        self.stats["solver"] = answer.solver
        return answer, model

    def lower_bound(self) -> int:
        """The largest L such that every solution (globally) needs >= L moves."""
        proven = self.none_upto
        r = self.radius
        if r is not None:
            proven = min(proven, r)  # beyond the exact horizon only the window is covered
        return max(self.known_lb, proven + 1)

    def _result(self, status, solution=None, lb=None, certificate=None) -> Result:
        if status in (Status.UNKNOWN, Status.FEASIBLE) and self.stop_reason:
            self.stats["stopped"] = self.stop_reason
        layers = len(self.stats["horizons"])
        return Result.measured(Engine.ILP, self.limits, self.stats, status, solution, lb, certificate, layers=layers)

    def found(self, answer, model, T: int) -> Result:
        try:
            solution = model.decode()
        except DecodeError:
            if answer.optimal:
                raise
            return self.unknown(answer, T)  # a limit-hit incumbent we cannot read
        solution = certify_solution(self.inst, solution, "ilp")
        n = len(solution)
        if answer.objective is not None and round(answer.objective) != n:
            raise AssertionError(f"ILP objective {answer.objective} but {n} moves decoded")
        bound = n if answer.optimal else answer.best_bound
        self._use_bound(None if bound is None else min(bound, n), T)  # a bound above n is noise
        lb = min(self.lower_bound(), n)
        if lb == n:  # the optimum, or an incumbent whose length the dual bound matches
            return self._result(Status.OPTIMAL, solution, n)
        if answer.optimal:
            self.stats["window_optimal"] = True  # shortest inside the window, not proven globally
        return self._result(Status.FEASIBLE, solution, lb)

    def _use_bound(self, bound: float | None, T: int) -> None:
        """A proven lower bound on the horizon-T objective: no window solution with
        <= min(T, ceil(bound) - 1) moves (longer ones are not in the model)."""
        if bound is not None:
            self.none_upto = max(self.none_upto, _bound_upto(bound, T))

    def unknown(self, answer, T: int) -> Result:
        self._use_bound(answer.best_bound, T)
        return self._result(Status.UNKNOWN, None, self.lower_bound())

    def stopped(self, reason: str) -> Result:
        """A limit or Ctrl-C outside a solve: what was proven so far."""
        self.stop_reason = reason
        return self._result(Status.UNKNOWN, None, self.lower_bound())

    def bounded(self, T: int) -> Result:
        if not exact_for(self.inst, T):
            # infeasible only inside a window that is not exact for T: not a bounded answer
            self.stop_reason = f"window {self.inst.board.window} not exact for horizon {T}"
            return self._result(Status.UNKNOWN, None, self.lower_bound())
        cert = Evidence("ilp-infeasible", "horizon", horizon=T, window=self.inst.board.window)
        return self._result(Status.BOUNDED, None, self.lower_bound(), cert)

    def unsolvable(self, T: int, configurations: int | None) -> Result:
        """No solution inside the window: the model is infeasible at a horizon that every
        shortest solution fits in, or (configurations None) no goal placement lies in the
        span of the start (theory/reach.py)."""
        exact = self.radius is None
        scope = "global" if exact else "window"
        if configurations is None:
            cert = Evidence("goal-outside-span", scope, window=self.inst.board.window)
        else:
            cert = Evidence(
                "ilp-infeasible", scope, horizon=T, window=self.inst.board.window, configurations=configurations
            )
        # Window scope: a solution with <= r moves stays in the window, so every one has > r.
        lb = None if self.radius is None else max(self.known_lb, self.radius + 1)
        return self._result(Status.UNSOLVABLE, None, lb, cert)

    # --- a window grown to each horizon (search/grown.py) --------------------------------------

    def grown(self, max_moves: int | None, strategy: str) -> Result:
        tops = [x for x in (max_moves, self.opts.max_horizon) if x is not None]
        top = min(tops) if tops else None
        g = grow(self.inst, self, self.limits, max_moves=top, geometric=strategy == "geometric")
        self.stats.update(g.stats())
        self.stop_reason = g.reason or self.stop_reason
        a = g.answer()
        return self._result(a.status, a.solution, a.lower_bound, a.certificate)

    def inside(self) -> Solution | None:
        """The instance's own window, as given (its shortest solution there)."""
        return solve_ilp(self.inst, limits=self.limits, options=replace(self.opts, grow=False)).solution

    def run(self, window: Instance, horizon: int, states: int | None) -> WindowAnswer:
        """Round H of the growth loop: the model of ``window`` (exact for H) at horizon H."""
        H = horizon
        answer, model = self.solve_at(window, H)
        proven = -1 if answer.best_bound is None else _bound_upto(answer.best_bound, H)
        if answer.outcome == UNSAT:
            cap = configuration_count(window) - 1 if window.board.exact else None
            if cap is not None and H >= cap:  # a window that turned out exact (finite span)
                w = window.board.window
                cert = Evidence("ilp-infeasible", "global", horizon=H, window=w, configurations=cap + 1)
                return WindowAnswer(Proved.CLOSED, H, certificate=cert)
            return WindowAnswer(Proved.NONE, H)
        if answer.outcome == SAT:
            try:
                solution = certify_solution(window, model.decode(), "ilp")
            except DecodeError:
                if answer.optimal:
                    raise
                return WindowAnswer(Proved.STOPPED, proven, reason=self.stop_reason)
            n = len(solution)
            if answer.objective is not None and round(answer.objective) != n:
                raise AssertionError(f"ILP objective {answer.objective} but {n} moves decoded")
            if answer.optimal:
                return WindowAnswer(Proved.FOUND, n - 1, solution)
            return WindowAnswer(Proved.INCUMBENT, min(proven, n - 1), solution, reason=self.stop_reason)
        return WindowAnswer(Proved.STOPPED, proven, reason=self.stop_reason)


def _bound_upto(bound: float, T: int) -> int:
    """The horizon-T objective is >= ``bound``: no solution with <= this many moves."""
    return min(T, math.ceil(bound - 1e-6) - 1)
