"""Run a ``pulp.LpProblem`` and say honestly what came back: SAT, UNSAT or UNKNOWN.

The backend knows nothing about coins (encode/ilp.py builds the problem).
:data:`SOLVERS` names the solvers it supports:

* ``highs`` (default): HiGHS through highspy, ``pulp.HiGHS``;
* ``cbc``: CBC through ``pulp.COIN_CMD`` when a ``cbc`` program is on PATH,
  else PuLP 3's bundled ``PULP_CBC_CMD`` when it is available (PuLP 4 bundles
  no CBC).

PuLP reports two things, and their shape differs between versions:

* PuLP 3.x: ``solve()`` returns the status code and the problem carries
  ``status`` and ``sol_status``.  A time limit with an incumbent is reported as
  status *Optimal* (1) with sol_status *IntegerFeasible* (2), so the status
  alone must never be read as a proof.
* PuLP 4.x: ``solve()`` returns an ``LpSolveStats`` with ``status`` (an
  IntEnum; *TimeLimit*, *GapLimit*... are distinct from *Optimal*) and
  ``has_solution``.

:func:`classify` maps either shape onto one :class:`IlpAnswer`: ``SAT`` with
``optimal`` True only for a proven optimum; ``UNSAT`` only for a proof of
infeasibility (PuLP's *Infeasible*, which HiGHS and CBC set only on a proof;
a limit is reported as NotSolved / a limit status); ``UNKNOWN`` otherwise.  A
time limit therefore ends in ``SAT`` (not optimal) or ``UNKNOWN``, never
``UNSAT``.  Only HiGHS and CBC are supported because some of PuLP's other
interfaces report a reached limit as *Infeasible*.

Interrupts: PuLP runs HiGHS inside one C call that Python's signal handlers cannot enter, so a
Ctrl-C, a SIGTERM or the watchdog's time limit waited for the solve to end (27 s measured).
Asking HiGHS to stop (highspy's user interrupt) is not enough: it looks at the request only
now and then, and not in presolve or the root node's cuts (4 to 10 s measured).  So
:func:`_run_in_child` runs each solve in a forked child (``limits.in_child``): the parent
waits in short slices and kills the child on a signal, and on the memory budget too (HiGHS
has none of its own); the answer comes back as plain numbers (:class:`_Solved`).
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import time
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from ..errors import MissingDependency, UsageError
from ..registry import require, unknown
from . import Outcome

SAT, UNSAT, UNKNOWN = Outcome.SAT, Outcome.UNSAT, Outcome.UNKNOWN
SOLVERS = ("highs", "cbc")

# PuLP's numeric codes (identical in 3.x constants and 4.x LpSolveStatus).
_OPTIMAL, _NOT_SOLVED, _INFEASIBLE = 1, 0, -1
_SOL_OPTIMAL, _SOL_FEASIBLE = 1, 2


@dataclass(frozen=True)
class IlpAnswer:
    outcome: Outcome
    optimal: bool  # SAT and proven optimal
    objective: float | None  # the incumbent's objective (SAT only)
    best_bound: float | None  # a proven lower bound on the objective (minimisation), if known
    solver: str
    status_text: str  # what PuLP said, for the record
    seconds: float


def classify(status: int, sol_status: int | None = None, has_solution: bool | None = None) -> tuple[Outcome, bool]:
    """(outcome, optimal) from PuLP 3's (status, sol_status) or PuLP 4's (status, has_solution).

    Exactly one of ``sol_status`` / ``has_solution`` is given.
    """
    status = int(status)
    if has_solution is not None:  # PuLP 4
        if has_solution:
            return SAT, status == _OPTIMAL
        return (UNSAT if status == _INFEASIBLE else UNKNOWN), False
    sol_status = None if sol_status is None else int(sol_status)
    if sol_status == _SOL_OPTIMAL and status == _OPTIMAL:
        return SAT, True
    if sol_status in (_SOL_OPTIMAL, _SOL_FEASIBLE):
        return SAT, False
    if status == _INFEASIBLE:
        return UNSAT, False
    return UNKNOWN, False


def make_solver(name: str = "highs", *, time_limit: float | None = None, threads: int | None = None, msg: bool = False):
    """A PuLP solver object for one of :data:`SOLVERS`; UsageError if it is not available."""
    pulp = require("pulp", "the ILP engine")

    if name == "highs":
        _silence_highs_banner()
        solver = pulp.HiGHS(msg=msg, timeLimit=time_limit, threads=threads)
        if not solver.available():
            raise MissingDependency("ILP solver 'highs' needs highspy: pip install 'coinsat[ilp]' (or 'coinsat[all]')")
        if hasattr(solver, "callSolver"):  # PuLP's highspy interface: solve in a child we can stop
            solver.callSolver = _run_in_child
        return solver
    if name == "cbc":
        kw: dict[str, Any] = {"msg": msg, "timeLimit": time_limit}
        if threads is not None:
            kw["threads"] = threads
        path = shutil.which("cbc")
        if path is not None:
            return pulp.COIN_CMD(path=path, **kw)
        bundled = getattr(pulp, "PULP_CBC_CMD", None)  # PuLP 3.x only
        if bundled is not None and bundled(**kw).available():
            return bundled(**kw)
        raise UsageError("solver 'cbc' needs a cbc program on PATH (PuLP 4 bundles none)")
    raise UsageError(unknown("ILP solver", name, SOLVERS))


def run_ilp(
    problem, solver: str = "highs", *, time_limit: float | None = None, threads: int | None = None
) -> IlpAnswer:
    """Solve ``problem`` (variable values are left on its variables) and classify the outcome."""
    if time_limit is not None and time_limit <= 0:
        return IlpAnswer(UNKNOWN, False, None, None, solver, "no time left", 0.0)
    engine = make_solver(solver, time_limit=time_limit, threads=threads)
    t0 = time.perf_counter()
    returned = problem.solve(engine)
    seconds = time.perf_counter() - t0
    if hasattr(returned, "has_solution"):  # PuLP 4: LpSolveStats
        outcome, optimal = classify(returned.status, has_solution=bool(returned.has_solution))
        text = str(getattr(returned, "status_str", returned.status))
        bound = getattr(returned, "best_bound", None)
    else:  # PuLP 3: status on the problem
        outcome, optimal = classify(problem.status, sol_status=problem.sol_status)
        text = f"status={problem.status} sol_status={problem.sol_status}"
        bound = _highs_bound(problem) if solver == "highs" else None
    objective = None
    if outcome == SAT:
        objective = _objective_value(problem)
        if optimal:
            bound = objective
    if bound is not None and not math.isfinite(bound):
        bound = None
    return IlpAnswer(outcome, optimal, objective, bound, solver, text, seconds)


#: seconds the solve may run past the budget's deadline before it is killed: HiGHS stops
#: itself at its own time limit (the budget's) and reports its incumbent in that time
KILL_SLACK = 2.0


def _run_in_child(lp) -> None:
    """PuLP's ``callSolver`` for HiGHS: ``lp.solverModel.run()`` in a forked child (module
    docstring), whose answer then stands in for the model, as :class:`_Solved`."""
    from ..limits import in_child

    lp.solverModel = _Solved(*in_child(_solved, (lp.solverModel,), slack=KILL_SLACK, what="the ILP solve"))


def _solved(model) -> tuple:
    """In the child: run HiGHS, and return what PuLP and :func:`_highs_bound` read back.  HiGHS's
    scheduler is made afresh first: the one copied from the parent counts on worker threads that
    a forked child does not have (a HiGHS that ran in the parent before made every child wait
    forever in ``parallel::sync``)."""
    reset = getattr(type(model), "resetGlobalScheduler", None)
    if reset is not None:
        reset(False)
    model.run()
    solution = model.getSolution()
    try:
        bound = float(model.getInfo().mip_dual_bound)
    except Exception:  # not a MIP run, or an older highspy: no bound, which is always safe
        bound = None
    columns = (list(solution.col_value), list(solution.col_dual))
    rows = (list(solution.row_value), list(solution.row_dual))
    return int(model.getModelStatus()), float(model.getObjectiveValue()), columns, rows, bound


class _Solved:
    """The parts of a solved ``highspy.Highs`` that PuLP's ``findSolutionValues`` and
    :func:`_highs_bound` read, from the child's answer."""

    def __init__(self, status: int, objective: float, columns: tuple, rows: tuple, bound: float | None):
        import highspy

        self._status = highspy.HighsModelStatus(status)
        self._objective = objective
        col_value, col_dual = columns
        row_value, row_dual = rows
        self._solution = SimpleNamespace(col_value=col_value, col_dual=col_dual, row_value=row_value, row_dual=row_dual)
        self._info = SimpleNamespace(mip_dual_bound=math.nan if bound is None else bound)

    def getModelStatus(self):
        return self._status

    def getObjectiveValue(self) -> float:
        return self._objective

    def getSolution(self):
        return self._solution

    def getInfo(self):
        return self._info


def _objective_value(problem) -> float | None:
    import pulp

    v = pulp.value(problem.objective)
    return None if v is None else float(v)


def _highs_bound(problem) -> float | None:
    """HiGHS's proven MIP dual bound, read from the highspy model PuLP 3 leaves on the problem."""
    model = getattr(problem, "solverModel", None)
    if model is None:  # not solved by highspy: no bound
        return None
    try:
        return float(model.getInfo().mip_dual_bound)
    except Exception:  # not a MIP run, or an older highspy: no bound, which is always safe
        return None


_banner_done = False


def _silence_highs_banner() -> None:
    """HiGHS prints a banner on stdout (at the C level, once per process) when the
    first ``Highs`` object is made, whatever its options; ``solve --json`` must print
    nothing but its JSON object.  Make that first object here with fd 1 on /dev/null."""
    global _banner_done
    if _banner_done:
        return
    _banner_done = True
    try:
        import highspy
    except ImportError:
        return
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
