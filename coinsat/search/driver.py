"""The horizon loop of the SAT engine: ``solve_sat`` (the ILP engine has its own, ``search/ilp.py``).

One incremental solver (``backends/sat_backend.py``) receives the layers of the
encoding (``encode/sat.py``) as the horizon grows; the goal at horizon T is
posed by assumptions (``Encoder.goal``), with no-ops assumed after T, so every
query "a solution with <= T moves?" reuses the layers and the learnt clauses
of the earlier ones.  Answers and what they prove:

* UNSAT at T: no solution with <= T moves inside the window.  It is recorded
  as a global fact only when the window is exact for T
  (``bounds.exact_for``); otherwise the run first re-builds the instance with
  a margin large enough (``widen``: the hull of start and goal grown by 2T
  contains the span layer R_T of the infinite lattice, the only cells a
  solution with <= T moves can occupy).
* SAT at T: the model is decoded and replayed by ``certify_solution``; its
  length L <= T is an upper bound.

``optimal`` is reported only for a verified solution of length L with
"no solution with <= L - 1 moves" proven (or L equal to the proven lower bound
of ``bounds.lower_bound``).  A time limit ends in ``unknown`` (or ``feasible``
with a verified solution) with ``lower_bound`` = what was proven; ``max_moves``
= M ends in ``bounded`` when UNSAT at M was proven.  On an exact window with
N configurations, UNSAT at N - 1 proves ``unsolvable`` (a shortest solution
never repeats a configuration).

Horizon strategies (``strategy=``): ``linear`` (T = L0, L0 + s, L0 + 2s, ...
with ``stride`` s, default 1; after a SAT at T with a solution of length L,
T = L - 1, L - 2, ... until UNSAT: UNSAT at T implies UNSAT below, so a stride
skips calls without losing proofs),
``geometric`` (T grows by half until SAT, then bisection between the proven
bound and the best length), ``descend`` (as geometric, then T = best - 1
until UNSAT).  scripts/sat_options.py measures them.

A horizon hint (``horizon_hint=T``: a solution with <= T moves is known, from another
engine or a solution file) replaces the climb: one call at T gives a verified solution
of some length L <= T, then the calls at L - 1, L - 2, ... run until UNSAT — one call
when the solution is optimal.  The calls below the best length reuse the solver of the
call at T (``fresh=False``, the default) or get a new one (``fresh=True``); the kept solver
is the faster (the lemmas about the same layers carry over: ``scripts/oneshot_bench.py``,
``benchmarks/oneshot.md``).  The certificate
builders still make their call fresh: a DRAT proof must refute the closed formula, not the
formula under assumptions.  A hint that is too low (UNSAT at T) is no error: the climb
continues from T + 1.

Limits (``time_limit``, ``memory_limit``; :mod:`coinsat.limits`) bound the
whole run, not only the solver calls: widening a window, growing span layers
and encoding layers poll the budget (``limits.poll``), and the run catches
the resulting ``LimitReached`` — like a Ctrl-C (a KeyboardInterrupt, which the
backend also makes of PySAT's "Caught keyboard interrupt") — and answers
``unknown`` (or ``feasible``) with the bound proven so far.  ``stats["stopped"]``
says why: ``"time limit"``, ``"memory limit"``, ``"interrupted"`` or
``"window cap"`` (a window exact for the next horizon would pass the
250,000-cell cap of board.py: a limit of the engine, not bad input).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..backends import Outcome
from ..backends.sat_backend import SatBackend, require_limitable
from ..board import MAX_WINDOW_CELLS
from ..encode.options import DEFAULT_OPTIONS, EncodingOptions
from ..encode.sat import Encoder
from ..errors import InstanceError, InternalError, LimitReached, UsageError
from ..instance import Instance, make_instance
from ..limits import Limits, enforced, poll
from ..registry import unknown
from ..result import Engine, Evidence, Result, Status
from ..solution import Solution, certify_solution
from ..theory.reach import configuration_count, distance_bound, exact_for, lower_bound
from .methods import contract
from .options import SAT_STRATEGIES, SatOptions

#: ``stats["stopped"]`` when the window exact for the next horizon is over board.py's cap
WINDOW_CAP = f"window cap (a window exact for the next horizon would have over {MAX_WINDOW_CELLS:,} cells)"
STRATEGIES = SAT_STRATEGIES
DEFAULT_STRATEGY = SatOptions().strategy
GROWTH = 1.5


@dataclass(frozen=True)
class HorizonReport:
    """One solver call: what the progress display shows and Result.stats records."""

    horizon: int
    outcome: Outcome
    seconds: float
    vars: int
    clauses: int
    conflicts: int
    length: int | None = None

    def as_dict(self) -> dict:
        return {
            "horizon": self.horizon,
            "outcome": self.outcome,
            "seconds": round(self.seconds, 4),
            "vars": self.vars,
            "clauses": self.clauses,
            "conflicts": self.conflicts,
            "length": self.length,
        }


def widen(instance: Instance, horizon: int) -> Instance:
    """The same puzzle on a window exact for ``horizon`` moves (itself if it already is):
    ``encode(widen(inst, T), T)`` is UNSAT iff no solution with <= T moves exists at all."""
    if exact_for(instance, horizon):
        return instance
    coords = instance.board.coords
    start = instance.start.placement(coords)
    goal = instance.goal.placement(coords)
    margin = max(instance.margin, 2 * horizon, 4)
    while True:
        poll()
        if _hull_area(list(start) + list(goal), margin) > MAX_WINDOW_CELLS:
            raise LimitReached(WINDOW_CAP, horizon)
        try:
            wide = make_instance(
                instance.board.kind,
                start,
                goal,
                adjacency=instance.d,
                goal_placement=instance.goal_placement,
                name=instance.name,
                margin=margin,
            )
        except InstanceError as e:  # the instance was valid: only the window cap can refuse it
            raise LimitReached(WINDOW_CAP, horizon) from e
        if exact_for(wide, horizon):
            return wide
        margin *= 2


def _hull_area(coords: list, margin: int) -> int:
    """The area board.lattice_window checks against its cap (so a refusal costs no board)."""
    xs, ys = [x for x, _ in coords], [y for _, y in coords]
    return (max(xs) - min(xs) + 1 + 2 * margin) * (max(ys) - min(ys) + 1 + 2 * margin)


class _Session:
    """One encoder + one solver on one (possibly widened) instance."""

    def __init__(self, instance: Instance, options: EncodingOptions, solver: str, config=None):
        self.instance = instance
        self.encoder = Encoder(instance, options)
        self.backend = SatBackend(solver, config)
        self.options = options

    def query(self, T: int, limits: Limits):
        """(outcome, solution or None, report) for "a solution with <= T moves?"."""
        enc, be = self.encoder, self.backend
        if T > enc.horizon:
            be.add(enc.extend(T))
            poll()
        assumptions, clauses = enc.goal(T)
        if assumptions is None:  # no goal placement reachable within T (theory/reach.py)
            return Outcome.UNSAT, None, HorizonReport(T, Outcome.UNSAT, 0.0, be.nvars, be.nclauses, 0)
        be.add(clauses)
        assumptions = assumptions + [enc.noop(t) for t in range(T + 1, enc.horizon + 1)]
        ans = be.solve(assumptions, limits=limits)
        solution = None
        if ans.outcome is Outcome.SAT:
            if ans.model is None:
                raise InternalError("the backend answered SAT without a model")
            solution = certify_solution(self.instance, enc.decode(ans.model, enc.horizon), "sat")
        report = HorizonReport(
            T,
            ans.outcome,
            ans.seconds,
            enc.vm.nvars,
            be.nclauses,
            ans.stats.get("conflicts", 0),
            None if solution is None else len(solution),
        )
        return ans.outcome, solution, report

    def close(self) -> None:
        self.backend.close()


@contract(SatOptions)
def solve_sat(instance: Instance, *, limits: Limits, max_moves: int | None, options: SatOptions) -> Result:
    """Shortest solution by SAT (module docstring; options: ``SatOptions``)."""
    encoding = options.encoding or DEFAULT_OPTIONS
    if options.horizon_hint is not None and options.horizon_hint < 0:
        raise UsageError(f"the horizon hint must be >= 0, not {options.horizon_hint}")
    if options.strategy not in STRATEGIES:
        raise UsageError(unknown("strategy", options.strategy, STRATEGIES))
    if not encoding.noop and options.strategy != "linear":
        raise UsageError("without no-op steps only the 'linear' strategy is sound")
    if options.stride < 1:
        raise UsageError(f"stride must be >= 1, not {options.stride}")
    require_limitable(options.solver, limits.time_limit, limits.memory_limit)
    config = None if options.solver_config is None else dict(options.solver_config)
    with enforced(limits):
        run = _Run(instance, encoding, options.solver, limits, options.progress, config)
        run.stride = options.stride
        run.hint, run.fresh, run.descend = options.horizon_hint, options.fresh, options.descend
        try:
            return run.go(max_moves, options.strategy)
        except LimitReached as e:
            return run.stopped(str(e), max_moves)
        except KeyboardInterrupt:
            return run.stopped("interrupted", max_moves)
        finally:
            run.close()


class _Run:
    stride: int  # set by the caller right after construction
    hint: int | None = None  # a known upper bound: asked first (module docstring)
    fresh: bool = False  # with a hint: a new solver for each call below the best length
    descend: bool = True  # with a hint: go below the best length found at the hint

    def __init__(self, instance, opts, solver, limits: Limits, progress, config=None):
        self.original = instance
        self.config = config
        self.opts, self.solver, self.progress = opts, solver, progress
        self.limits = limits
        self.t0 = limits.t0
        self.deadline = limits.deadline
        self.stop_reason: str | None = None
        self.session: _Session | None = None
        self.none_upto = -1  # proven (globally): no solution with <= none_upto moves
        self.best: Solution | None = None  # verified, in the original instance's cells
        self.outside: int | None = None  # length of a solution that leaves the original window
        self.reports: list[HorizonReport] = []

    # --- bookkeeping ---------------------------------------------------------------------------
    @property
    def lb(self) -> int:
        return self.none_upto + 1

    def _session_for(self, T: int) -> _Session:
        s = self.session
        if s is None or not exact_for(s.instance, T):
            if s is not None:
                s.close()
            self.session = s = _Session(widen(self.original, max(T, 2 * self.lb)), self.opts, self.solver, self.config)
        return s

    def query(self, T: int) -> Outcome:
        reason = self.limits.exceeded()
        if reason is not None:
            self.stop_reason = reason
            return Outcome.UNKNOWN
        s = self._session_for(T)
        outcome, solution, report = s.query(T, self.limits)
        if outcome is Outcome.UNKNOWN:
            self.stop_reason = self.limits.exceeded() or "time limit"
        self.reports.append(report)
        if outcome is Outcome.UNSAT:
            self.none_upto = max(self.none_upto, T)
        elif outcome is Outcome.SAT:
            self._record(s.instance, solution)
        if self.progress:  # after the bookkeeping: a Ctrl-C in the display keeps what was proven
            self.progress(report)
        return outcome

    def _record(self, work: Instance, solution: Solution) -> None:
        if work is not self.original:
            cells = work.board.coords
            b = self.original.board
            if not all(b.has(cells[c]) for m in solution.moves for c in m):
                self.outside = len(solution) if self.outside is None else min(self.outside, len(solution))
                return
            solution = Solution.of((b.cell(cells[s]), b.cell(cells[p])) for s, p in solution.moves)
            solution = certify_solution(self.original, solution, "sat")
        if self.best is None or len(solution) < len(self.best):
            self.best = solution

    @property
    def upper(self) -> int | None:
        lengths = [n for n in (self.outside, None if self.best is None else len(self.best)) if n is not None]
        return min(lengths) if lengths else None

    # --- the loop --------------------------------------------------------------------------------
    def go(self, max_moves: int | None, strategy: str) -> Result:
        far = distance_bound(self.original)  # global and cheap: first, so that an early stop reports it
        if far is not None:
            self.none_upto = max(self.none_upto, far - 1)
        lb0 = lower_bound(self.original)
        if lb0 is None and self.original.board.exact:
            # a goal cell that needs a (differently labeled) coin can never be filled (Lemma W)
            cert = Evidence("goal-unfillable", "global", window=self.original.board.window)
            return self._result(Status.UNSOLVABLE, None, None, cert)
        work = self._session_for(max(lb0 or 0, 1)).instance
        # Every solution inside the window needs >= lb moves; one with <= lb - 1 moves
        # stays inside the window when the window is exact for lb - 1: then lb is global.
        lb = lower_bound(work)
        if lb is not None and exact_for(work, max(lb - 1, 0)):
            self.none_upto = max(self.none_upto, lb - 1)
        cap = configuration_count(work) - 1 if work.board.exact else None
        top = min(x for x in (max_moves, cap, math.inf) if x is not None)
        step = {"linear": self._linear, "geometric": self._geometric, "descend": self._geometric}[strategy]
        finished = self._hinted(top) if self.hint is not None else step(top, strategy)
        return self._finish(finished, max_moves, cap)

    def _linear(self, top, strategy) -> bool:
        T = self.lb
        while T <= top:
            out = self.query(T)
            if out is Outcome.UNKNOWN:
                return False
            if out is Outcome.SAT:
                return self._tighten("descend")
            T = min(T + self.stride, top) if T < top else T + 1
        return True

    def _hinted(self, top) -> bool:
        """One call at the hint; then down to the first UNSAT (or up, if the hint was low)."""
        T = max(self.lb, min(self._hint_value(), top))
        out = self.query(T)
        if out is Outcome.UNKNOWN:
            return False
        if out is Outcome.UNSAT:
            return self._linear(top, "linear")
        while self.descend and self.upper is not None and self.lb < self.upper:
            if self.fresh:  # a new solver: the closed formula of this horizon alone
                self._drop_session()
            if self.query(self.upper - 1) is Outcome.UNKNOWN:
                return False
        return True

    def _hint_value(self) -> int:
        if self.hint is None:
            raise InternalError("a hinted run without a hint")
        return self.hint

    def _drop_session(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None

    def _geometric(self, top, strategy) -> bool:
        T = self.lb
        while self.upper is None:
            if T > top:
                return True
            out = self.query(T)
            if out is Outcome.UNKNOWN:
                return False
            if out is Outcome.UNSAT:
                T = T + 1 if T >= top else min(top, max(T + 1, math.ceil(T * GROWTH)))
        return self._tighten(strategy)

    def _tighten(self, strategy) -> bool:
        """Close the gap between the proven bound and the best length."""
        while self.upper is not None and self.lb < self.upper:
            hi = self.upper - 1
            T = hi if strategy != "geometric" else (self.lb + hi) // 2
            if self.query(T) is Outcome.UNKNOWN:
                return False
        return True

    # --- results ---------------------------------------------------------------------------------
    def stopped(self, reason: str, max_moves) -> Result:
        """The answer when a limit or Ctrl-C cut the run short: what was proven so far."""
        self.stop_reason = reason
        return self._finish(False, max_moves, None)

    def _finish(self, finished: bool, max_moves, cap) -> Result:
        if self.best is None and self.outside is not None and finished:
            return self._fallback()
        if self.best is not None:
            n = len(self.best)
            status = Status.OPTIMAL if self.lb >= n else Status.FEASIBLE
            return self._result(status, self.best, n if status is Status.OPTIMAL else self.lb)
        if finished and cap is not None and self.none_upto >= cap:
            cert = Evidence(
                "sat-unsat",
                "global",
                horizon=self.none_upto,
                configurations=cap + 1,
                window=self.original.board.window,
            )
            return self._result(Status.UNSOLVABLE, None, None, cert)
        if finished and max_moves is not None and self.none_upto >= max_moves:
            cert = Evidence("sat-unsat", "horizon", horizon=max_moves)
            return self._result(Status.BOUNDED, None, self.lb, cert)
        return self._result(Status.UNKNOWN, None, self.lb)

    def _fallback(self) -> Result:
        """The shortest solutions leave the original window: search inside it for the best
        expressible one; the proven (global) lower bound stays."""
        inner = solve_sat(
            _frozen_window(self.original),
            limits=self.limits,
            options=SatOptions(solver=self.solver, encoding=self.opts, solver_config=self.config),
        )
        if inner.stats.get("stopped"):
            self.stop_reason = inner.stats["stopped"]
        if inner.solution is None:
            return self._result(Status.UNKNOWN, None, self.lb)
        sol = certify_solution(self.original, inner.solution, "sat")
        status = Status.OPTIMAL if self.lb >= len(sol) else Status.FEASIBLE
        self.stats_extra = {"window_optimal": inner.status is Status.OPTIMAL}
        return self._result(status, sol, len(sol) if status is Status.OPTIMAL else self.lb)

    def _result(self, status, solution, lb, certificate=None) -> Result:
        s = self.session
        stats = {
            "solver": self.solver,
            "options": self.opts.as_dict(),
            "horizons": [r.as_dict() for r in self.reports],
            "conflicts": sum(r.conflicts for r in self.reports),
            "vars": self.reports[-1].vars if self.reports else 0,
            "clauses": self.reports[-1].clauses if self.reports else 0,
            "window": s.instance.board.window if s else self.original.board.window,
            "cells": s.instance.board.size if s else self.original.board.size,
            **getattr(self, "stats_extra", {}),
        }
        if status in (Status.UNKNOWN, Status.FEASIBLE) and self.stop_reason is not None:
            stats["stopped"] = self.stop_reason
        return Result.measured(
            Engine.SAT, self.limits, stats, status, solution, lb, certificate, layers=len(self.reports)
        )

    def close(self) -> None:
        if self.session is not None:
            self.session.close()


def _frozen_window(instance: Instance) -> Instance:
    """The instance with its window declared exact (answers then hold inside it only)."""
    from dataclasses import replace

    return replace(instance, board=replace(instance.board, exact=True))
