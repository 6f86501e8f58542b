"""Run CNF formulas with PySAT: SAT | UNSAT | UNKNOWN.  Knows nothing about coins.

:class:`SatBackend` wraps one incremental PySAT solver chosen by name
(``SOLVERS``; default CaDiCaL 1.9.5).  ``solve(assumptions, time_limit)``
returns an :class:`Answer`; a time limit yields ``UNKNOWN`` (never a guess):
the search runs in doubling conflict budgets (2000 up to 64000; learnt clauses
are kept between them) and stops between two of them.  A memory budget
(``limits=``, a :class:`coinsat.limits.Limits`) is checked there too.
Statistics (conflicts, decisions, propagations) are accumulated by the solver
and reported per call.

Why budgets and not ``interrupt()`` from a timer thread (which PySAT offers
for every solver but CaDiCaL): an interruptible solve releases the GIL, and a
Ctrl-C during it makes PySAT's SIGINT handler jump out without taking the GIL
back — the process hangs (measured with glucose4, minisat22, maplechrono).
Under a budget, Ctrl-C reaches Python as PySAT's ``pysolvers.error`` ("Caught
keyboard interrupt"), not as a KeyboardInterrupt: ``solve`` turns it back into
one (the solver is left in an unknown state and is not used again).
``lingeling`` takes no budget, so it is refused whenever a limit is set
(``require_limitable``).

Proofs: ``SatBackend(solver, proof=True)`` logs a DRAT proof (``proof()`` after UNSAT;
``PROOF_SOLVERS`` only), and :func:`prove` refutes a clause list in one fresh call.  The
certificate builders make every proof here, so this module is the one place that knows PySAT's
solvers; ``propagate`` serves their look-ahead.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..errors import UsageError
from ..limits import Limits
from ..registry import unknown
from . import Outcome

#: PySAT names offered (all incremental; all but lingeling take conflict budgets).
#: Proof-producing: cadical153/195, glucose4.
SOLVERS = ("cadical195", "cadical153", "glucose4", "glucose42", "minisat22", "maplechrono", "lingeling")
DEFAULT_SOLVER = "cadical195"

CHUNK = 2000
MAX_CHUNK = 64_000
#: the budget while the solver's speed (conflicts per second) is not known yet: some solvers
#: need over a second for 2000 conflicts on large formulas (maplechrono, measured on V(3,3))
FIRST_CHUNK = 100
#: Solvers that log a DRAT proof through PySAT (never MapleSAT: its proofs are not sound).
PROOF_SOLVERS = ("cadical195", "cadical153", "glucose4")
#: Solvers PySAT can neither interrupt nor budget: no time or memory limit can stop them.
UNLIMITABLE = ("lingeling",)


def require_limitable(solver: str, time_limit: float | None, memory_limit: int | None) -> None:
    """UsageError if ``solver`` cannot honour the limits asked for (before any work is done)."""
    if solver in UNLIMITABLE and (time_limit is not None or memory_limit is not None):
        given = " and ".join(
            n for n, v in (("a time limit", time_limit), ("a memory limit", memory_limit)) if v is not None
        )
        verb = "were" if " and " in given else "was"
        raise UsageError(
            f"the SAT solver {solver} cannot be stopped by a limit, but {given} {verb} set "
            f"(choose another --solver, or run it with no --time-limit and --memory-limit none)"
        )


#: CaDiCaL options applied by default (measured: scripts/sat_options.py, benchmarks/sat_options.md).
CADICAL_DEFAULTS: dict[str, int] = {}


@dataclass(frozen=True)
class Answer:
    outcome: Outcome
    model: tuple[int, ...] | None
    seconds: float
    stats: dict = field(default_factory=dict)


class SatBackend:
    """One incremental solver: add clauses, solve under assumptions with a time limit."""

    def __init__(self, solver: str = DEFAULT_SOLVER, config: dict[str, int] | None = None, proof: bool = False):
        from pysat.solvers import Solver  # lazy: keep `import coinsat` light

        if solver not in SOLVERS:
            raise UsageError(unknown("SAT solver", solver, SOLVERS))
        if proof and solver not in PROOF_SOLVERS:
            raise UsageError(f"the SAT solver {solver} gives no trusted proof (choose from {', '.join(PROOF_SOLVERS)})")
        self.name = solver
        self._solver = Solver(name=solver, with_proof=True) if proof else Solver(name=solver)
        if solver.startswith("cadical"):
            cfg = dict(CADICAL_DEFAULTS if config is None else config)
            if cfg:
                self._solver.solver.configure(cfg)
        self.nclauses = 0
        self._rate: float | None = None  # conflicts per second in the last full budget
        self._broken = False  # a SIGINT jumped out of the solver: do not touch it again
        self._prev = {"conflicts": 0, "decisions": 0, "propagations": 0}

    def add(self, clauses: Iterable[Sequence[int]]) -> None:
        n = 0
        for c in clauses:
            self._solver.add_clause(c)
            n += 1
        self.nclauses += n

    @property
    def nvars(self) -> int:
        return self._solver.nof_vars()

    def solve(
        self,
        assumptions: Sequence[int] = (),
        time_limit: float | None = None,
        limits: Limits | None = None,
        cpu_limit: float | None = None,
    ) -> Answer:
        """SAT | UNSAT | UNKNOWN under ``assumptions``; UNKNOWN once ``time_limit`` seconds
        pass, ``cpu_limit`` CPU seconds of this process are spent, or ``limits`` (time and
        memory) is exceeded."""
        if (time_limit is not None and time_limit <= 0) or (cpu_limit is not None and cpu_limit <= 0):
            return Answer(Outcome.UNKNOWN, None, 0.0, self._delta())
        t0 = time.perf_counter()
        deadline = math.inf if time_limit is None else t0 + time_limit
        cpu_deadline = math.inf if cpu_limit is None else time.process_time() + cpu_limit
        if limits is not None:
            deadline = min(deadline, limits.deadline)
        limited = (
            deadline < math.inf or cpu_deadline < math.inf or (limits is not None and limits.memory_limit is not None)
        )
        try:
            if not limited:
                res = self._solver.solve(assumptions=list(assumptions))
            elif self.name in UNLIMITABLE:
                raise UsageError(f"the SAT solver {self.name} cannot be stopped by a limit")
            else:
                res = self._solve_in_chunks(list(assumptions), deadline, limits, cpu_deadline)
        except Exception as e:  # pysolvers.error: PySAT's own report of a SIGINT inside the solver
            if "keyboard interrupt" in str(e).lower():
                self._broken = True
                raise KeyboardInterrupt from None
            raise
        seconds = time.perf_counter() - t0
        stats = self._delta()
        if res is True:
            return Answer(Outcome.SAT, tuple(self._solver.get_model()), seconds, stats)
        if res is False:
            return Answer(Outcome.UNSAT, None, seconds, stats)
        return Answer(Outcome.UNKNOWN, None, seconds, stats)

    def _solve_in_chunks(
        self, assumptions: list[int], deadline: float, limits: Limits | None = None, cpu_deadline: float = math.inf
    ):
        """Run conflict budgets (module docstring) until an answer, the deadline (of the wall
        clock, or of this process's CPU seconds) or a spent memory budget.  Budgets double up
        to MAX_CHUNK, from FIRST_CHUNK until the solver's speed is known, then from CHUNK; the
        search depends on the clock only in the last budget before the wall deadline, which is
        shortened to fit."""
        budget = CHUNK if self._rate is not None else FIRST_CHUNK
        while True:
            now = time.perf_counter()
            left = deadline - now
            if left <= 0 or time.process_time() >= cpu_deadline or (limits is not None and limits.exceeded()):
                return None
            rate = self._rate
            b = budget if rate is None or budget <= rate * left else max(FIRST_CHUNK, int(rate * left))
            self._solver.conf_budget(b)
            res = self._solver.solve_limited(assumptions=assumptions)
            if res is not None:
                return res
            self._rate = b / max(time.perf_counter() - now, 1e-3)
            budget = min(2 * budget, MAX_CHUNK)

    def _delta(self) -> dict:
        try:
            now = self._solver.accum_stats() or {}
        except NotImplementedError:
            return {}
        out = {k: now.get(k, 0) - self._prev.get(k, 0) for k in self._prev}
        self._prev = {k: now.get(k, 0) for k in self._prev}
        return out

    def proof(self) -> list[str]:
        """The DRAT proof lines logged so far (a ``proof=True`` backend, after UNSAT)."""
        return list(self._solver.get_proof())

    def propagate(self, assumptions: Sequence[int]) -> tuple[bool, list[int]]:
        """Unit propagation of ``assumptions``: (no conflict, the literals it fixes)."""
        ok, units = self._solver.propagate(assumptions=list(assumptions))
        return bool(ok), list(units)

    def close(self) -> None:
        if not self._broken:
            self._solver.delete()

    def __enter__(self) -> "SatBackend":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass(frozen=True)
class Refutation:
    """What :func:`prove` found: UNSAT with its DRAT proof, SAT, or UNKNOWN (a budget ran out)."""

    outcome: Outcome
    proof: list[str] | None  # the DRAT lines when UNSAT
    seconds: float
    stats: dict = field(default_factory=dict)


def prove(
    clauses: Iterable[Sequence[int]],
    solver: str = DEFAULT_SOLVER,
    time_limit: float | None = None,
    cpu_limit: float | None = None,
) -> Refutation:
    """Refute ``clauses`` in one fresh call of a proof-logging ``solver`` (``PROOF_SOLVERS``),
    within ``time_limit`` wall seconds and ``cpu_limit`` CPU seconds (None: no limit).  The
    proof spans the conflict budgets the limits need; an empty clause is refuted at once."""
    with SatBackend(solver, proof=True) as s:
        s.add(clauses)
        answer = s.solve(time_limit=time_limit, cpu_limit=cpu_limit)
        proof = s.proof() if answer.outcome is Outcome.UNSAT else None
    return Refutation(answer.outcome, proof, answer.seconds, answer.stats)
