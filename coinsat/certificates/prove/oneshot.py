"""One-shot certification: a known solution (or upper bound) and one UNSAT call below it.

Why: once any engine (``spanbfs``, ``construct``, a solution file) knows a solution of L
moves, a proof of optimality needs one fact, "no solution with <= L − 1 moves" — not the
SAT engine's climb through every horizon from the lower bound.  ``certify_known`` makes
exactly that call, fresh, on the closed formula (``build_bounded``: one DRAT proof;
``build_cubes``: cube-and-conquer), optionally on the core-only CNF, and checks the
certificate.  Given only a bound T (``hint``) it first asks the SAT engine for a solution
with <= T moves (one call; no descent: the certificate's call is the descent, and when it
finds the formula at L − 1 satisfiable the next solution is asked at L − 1).

Outcomes: ``optimal`` (the certificate proves L − 1 impossible and carries the solution),
``feasible`` with ``refuted=True`` (the formula at L − 1 is satisfiable: the solution is
not optimal; no certificate), ``bounded`` (the hint T itself is impossible: the
certificate of "no solution with <= T moves"), or ``unknown`` (a limit).
Files are made and checked in a scratch folder and moved into ``out_dir`` only after the
check (as :func:`~coinsat.certificates.prove.make.certify` does).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ...errors import InternalError, UsageError
from ...instance import Instance
from ...io.atomic import write_atomic
from ...result import Engine, Result, Status
from ...solution import Solution, certify_solution
from ..check import check_certificate
from ..check.format import Certificate
from .bounded import build_bounded
from .cubes import DEFAULT_SPLIT, build_cubes
from .make import Certified, certify, stem


@dataclass(frozen=True)
class Mode:
    """How the UNSAT call is made: the CNF (pruned or core-only) and the cubes (depth 0: one proof)."""

    core: bool = False
    depth: int = 0
    lrat: bool = False  # one proof on the core-only CNF, turned into LRAT (build_bounded)
    workers: int = 1
    split: str = DEFAULT_SPLIT


@dataclass(frozen=True)
class OneShot:
    result: Result
    certified: Certified | None
    refuted: bool = False  # the formula below the solution is satisfiable


def certify_known(
    instance: Instance,
    out_dir: str | Path,
    *,
    solution: Solution | None = None,
    hint: int | None = None,
    mode: Mode = Mode(),
    time_limit: float | None = None,
    memory_limit: int | None = None,
    deadline: float | None = None,
) -> OneShot:
    """Certify the optimality of ``solution`` (or of the best solution within ``hint``)."""
    t0 = time.perf_counter()
    searching = solution is None
    while True:
        if solution is None:
            if hint is None:
                raise UsageError("one-shot certification needs a solution or a horizon hint")
            found = _solution_within(instance, hint, time_limit, memory_limit)
            if found.status in (Status.UNKNOWN, Status.UNSOLVABLE):
                return OneShot(found, None)
            if found.solution is None:  # no solution with <= hint moves: certify that instead
                bounded = Result(
                    status=Status.BOUNDED, method="sat", lower_bound=hint + 1, stats=found.stats, engine=Engine.SAT
                )
                return OneShot(bounded, _in_scratch(instance, out_dir, hint, None, mode, deadline))
            solution = found.solution
        solution = certify_solution(instance, solution, "certify")
        n = len(solution)
        optimal = Result(status=Status.OPTIMAL, method="sat", solution=solution, lower_bound=n, engine=Engine.SAT)
        if n == 0:
            return OneShot(optimal, certify(instance, optimal, out_dir, deadline))
        done = _in_scratch(instance, out_dir, n - 1, solution, mode, deadline)
        seconds = time.perf_counter() - t0
        if done is not None:
            answer = Result(
                status=Status.OPTIMAL,
                method="sat",
                solution=solution,
                lower_bound=n,
                seconds=seconds,
                engine=Engine.SAT,
            )
            return OneShot(answer, done)
        if not searching:  # a given solution that is not optimal
            feasible = Result(
                status=Status.FEASIBLE,
                method="sat",
                solution=solution,
                lower_bound=0,
                seconds=seconds,
                engine=Engine.SAT,
            )
            return OneShot(feasible, None, refuted=True)
        solution, hint = None, n - 1  # the hint was above the optimum: one step down


def _solution_within(instance: Instance, hint: int, time_limit, memory_limit) -> Result:
    """One SAT call at the hint (no climb, no descent: the certificate's call is the descent)."""
    from ...limits import Limits
    from ...search.driver import solve_sat
    from ...search.options import SatOptions

    return solve_sat(
        instance,
        limits=Limits(time_limit, memory_limit),
        max_moves=hint,
        options=SatOptions(horizon_hint=hint, descend=False),
    )


def _build(instance, horizon, work: Path, solution, mode: Mode, deadline) -> dict | None:
    if mode.depth > 0:
        return build_cubes(
            instance,
            horizon,
            work,
            stem(instance),
            solution,
            core=mode.core,
            split=mode.split,
            depth=mode.depth,
            workers=mode.workers,
            deadline=deadline,
        )
    return build_bounded(
        instance, horizon, work, stem(instance), solution, deadline=deadline, core=mode.core, lrat=mode.lrat
    )


def _in_scratch(instance, out_dir, horizon: int, solution, mode: Mode, deadline) -> Certified | None:
    """Build, check and move into ``out_dir`` (None: the formula at ``horizon`` is satisfiable)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".coinsat-certify-", dir=out))
    try:
        obj = _build(instance, horizon, work, solution, mode, deadline)
        if obj is None:
            if solution is None:
                raise InternalError(f"the SAT engine proved 'no solution with <= {horizon} moves', the builder not")
            return None
        cert = Certificate.from_json(obj)
        text = cert.text()
        check = check_certificate(instance, json.loads(text), work, deadline)
        name = f"{stem(instance)}.certificate.json"
        write_atomic(work / name, text)
        for f in sorted(work.iterdir(), key=lambda f: f.suffix == ".json"):  # the JSON last
            os.replace(f, out / f.name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Certified(out / name, check, cert)
