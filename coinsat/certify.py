"""Certificates through the front door: :func:`certify` an answer and :func:`check_certificate` a file.

:func:`certify` solves (``coinsat.solve``) or takes a known answer or solution, writes the
certificate of the answer (``certificates/prove``) into a folder and checks it with the
independent checker (``certificates/check``); :func:`check_certificate` reads a certificate
file (or a census certificate's folder) and checks it.  Both are what ``coinsat certify``,
``coinsat solve --certify`` and ``coinsat check-certificate`` print; the package root exports
them.  This module sits one floor above ``solve`` because certifying may solve first.

A limit is an answer here, as in :func:`~coinsat.solve.solve`: a certification that a time or
memory limit (or Ctrl-C) stops returns a :class:`Certification` with ``stopped`` set and no
files left behind; a *check* that a limit stops raises :class:`~coinsat.errors.LimitReached`
(a checker's verdict is accepted or rejected, never partial).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

from .certificates.check.format import Certificate, Check
from .errors import InstanceError, LimitReached, UsageError
from .instance import Instance
from .limits import Limits, enforced
from .result import Evidence, Result, Status
from .solution import Solution, verify

__all__ = ["Certification", "certify", "certify_result", "check_certificate", "SPLITS"]

#: how cube-and-conquer chooses its cubes (``certificates/prove/cubes.py``; the first is the default)
SPLITS = ("lookahead", "tree", "middle")


@dataclass(frozen=True)
class Certification:
    """What :func:`certify` did: the answer it certified and the checked certificate file.

    ``result`` is the answer whose claim the certificate proves (``optimal``, ``feasible``,
    ``unsolvable`` or ``bounded``; ``unknown`` when a limit stopped the search first).
    ``path`` is the certificate's JSON file in the output folder (its side files beside it),
    ``certificate`` what was written, ``check`` the independent checker's verdict on it
    (``check.ok`` False would be a coinsat bug: the command exits 4).  None of the three when
    nothing was certified: then ``stopped`` says why (a limit, Ctrl-C, an ``unknown`` answer),
    or ``refuted`` is True (one-shot certification: the formula one move below the given
    solution is satisfiable, so that solution is not optimal).  ``unused`` names the arguments
    of :func:`certify` that did not apply (``cubes``, ``core_only``, ``lrat``: they shape the SAT
    proof of an optimal answer only), which :meth:`note` explains.
    """

    result: Result
    path: Path | None = None
    certificate: Certificate | None = None
    check: Check | None = None
    stopped: str = ""
    refuted: bool = False
    unused: tuple[str, ...] = ()

    @property
    def accepted(self) -> bool | None:
        """The checker's verdict on the written file (None: nothing was certified)."""
        return None if self.check is None else self.check.ok

    def evidence(self) -> Evidence | None:
        """The certificate as a result's :class:`~coinsat.result.Evidence`: the kind, the scope and
        the claim the checker proved, the file, and the check's reason and seconds (None unless the
        checker accepted it)."""
        c = self.check
        if c is None or not c.ok or self.certificate is None:
            return None
        return Evidence(
            self.certificate.kind,
            c.scope,
            claim=c.claim,
            file=str(self.path),
            reason=c.reason,
            check_seconds=round(c.seconds, 6),
        )

    def note(self, spelling: Mapping[str, str] | None = None) -> str:
        """Why the ``unused`` arguments did not apply ("" when none), each named by ``spelling``
        (the command's flags) or by itself."""
        if not self.unused or self.certificate is None:
            return ""
        names = " and ".join((spelling or {}).get(u, u) for u in self.unused)
        return (
            f"{names} not used: the answer is {self.result.status.value}, certified by a "
            f"{self.certificate.kind} certificate (they apply to the proof that an optimal solution has no "
            "shorter one)"
        )

    def summary(self, spelling: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The JSON object ``coinsat certify --json`` prints beside ``name`` and ``status``
        (``spelling``: how the note names the unused arguments)."""
        if self.check is None:
            return {
                "file": None,
                "kind": None,
                "scope": None,
                "claim": None,
                "accepted": None,
                "reason": f"not certified: {self.stopped}",
                "check_seconds": 0.0,
            }
        c = self.check
        out = {
            "file": str(self.path),
            "kind": self.certificate.kind if self.certificate is not None else None,
            "scope": c.scope,
            "claim": c.claim,
            "accepted": c.ok,
            "reason": c.reason,
            "check_seconds": round(c.seconds, 6),
        }
        if self.note():
            out["note"] = self.note(spelling)
        return out


def _deadline(limits: Limits | None) -> float | None:
    return None if limits is None or limits.time_limit is None else limits.deadline


def certify_result(
    instance: Instance, result: Result, output_dir: str | Path, *, limits: Limits | None = None
) -> Certification:
    """Write and check the certificate of an answer already found.

    Parameters
    ----------
    instance : Instance
        The puzzle ``result`` answers.
    result : Result
        An answer of :func:`~coinsat.solve.solve` (or of any engine) that is not ``unknown``.
    output_dir : str or Path
        The folder the certificate files go to (created if missing).  They are made and
        checked in a scratch folder inside it and moved in only after the check.
    limits : Limits, optional
        The time (a deadline) and memory budget of the building and the check.

    Returns
    -------
    Certification
        With ``path``, ``certificate`` and ``check``; or, when a limit or Ctrl-C stopped it,
        ``stopped`` set and nothing written.

    Raises
    ------
    UsageError
        For an ``unknown`` answer (no claim to certify), or a bound of a puzzle with slide moves.
    InternalError
        If a builder cannot rebuild what the engine proved (a coinsat bug).
    """
    from .certificates.prove.make import certify as build_and_check

    if result.status is Status.UNKNOWN:
        raise UsageError("an 'unknown' answer has nothing to certify")
    try:
        done = build_and_check(instance, result, Path(output_dir), deadline=_deadline(limits))
    except (LimitReached, KeyboardInterrupt) as e:
        return Certification(result, stopped="interrupted" if isinstance(e, KeyboardInterrupt) else str(e))
    return Certification(result, done.path, done.certificate, done.check)


def certify(
    instance: Instance,
    output_dir: str | Path,
    *,
    result: Result | None = None,
    method: str = "auto",
    max_moves: int | None = None,
    solution: Solution | None = None,
    horizon_hint: int | None = None,
    core_only: bool = False,
    lrat: bool = False,
    cubes: int = 0,
    workers: int = 1,
    split: str = SPLITS[0],
    time_limit: float | None = None,
    memory_limit: int | None = None,
    limits: Limits | None = None,
    **options: Any,
) -> Certification:
    """Solve the puzzle (or take a known answer or solution), then write its certificate into
    ``output_dir`` and check it with the independent checker.

    What each answer gets (``certificates/prove/make.py``): ``unsolvable`` an invariant, an
    inductive invariant or a closed set; ``optimal`` with T moves a certificate of "no solution
    with <= T - 1 moves" (layers when spanbfs or rankbfs answered on an exact window, else a
    DRAT proof) carrying the solution; ``feasible`` the same for its lower bound; ``bounded``
    the certificate of its bound.  One-shot certification (``solution`` or ``horizon_hint``):
    no search, one fresh UNSAT call one move below the known solution, with a DRAT proof
    (``core_only``: on the core-only CNF; ``lrat``: there, and turned into an LRAT proof that
    ``scripts/referee_check.py`` checks too; ``cubes`` > 0: split into 2^cubes cubes solved by
    ``workers`` processes, chosen by ``split``).

    Parameters
    ----------
    instance : Instance
        The puzzle.
    output_dir : str or Path
        The folder for the certificate files (created if missing; the JSON file is
        ``<name>.certificate.json``).
    result : Result, optional
        An answer already found: certify it instead of solving.
    method : str
        The engine that solves first (``coinsat.METHODS``; default ``auto``).
    max_moves : int, optional
        Look for solutions of at most this many moves (then ``bounded`` is certified).
    solution : Solution, optional
        One-shot: certify that this solution is optimal (it is replayed first).
    horizon_hint : int, optional
        One-shot: a solution with at most this many moves is known to exist.
    core_only, lrat, cubes, workers, split
        How a DRAT proof is made (above); ``cubes``, ``core_only`` and ``lrat`` also apply to
        the proof of an optimal answer found by ``method`` (``lrat`` implies ``core_only`` and
        excludes ``cubes``).
    time_limit, memory_limit : optional
        Seconds and bytes for the whole call.
    limits : Limits, optional
        The same budget as one object (instead of ``time_limit`` and ``memory_limit``).
    **options
        The engine's options (``solve``'s).

    Returns
    -------
    Certification
        The answer and the checked certificate; ``stopped`` when a limit stopped the search
        or the certificate (the answer is then ``unknown``, or the certificate is missing), and
        ``refuted`` when the given solution is not optimal.

    Raises
    ------
    UsageError
        For impossible arguments (both ``solution`` and ``horizon_hint``, an unknown method,
        option or split, negative numbers, an ``unknown`` ``result``).
    MissingDependency
        When a DRAT proof is needed (``method`` sat or ilp, or one-shot) and its checker
        (``pip install 'coinsat[certify]'``) is missing: before any work.
    IllegalMoveError
        When ``solution`` does not replay from the start to a goal placement.
    InternalError
        If the checker rejects the certificate coinsat wrote, or a builder cannot rebuild what
        an engine proved (a coinsat bug).
    """
    from .solve import solve

    one_shot = solution is not None or horizon_hint is not None
    if solution is not None and horizon_hint is not None:
        raise UsageError("give a solution or a horizon hint, not both")
    if split not in SPLITS:
        raise UsageError(f"unknown split {split!r} (choose from {', '.join(SPLITS)})")
    if cubes < 0 or workers < 1 or (horizon_hint is not None and horizon_hint < 0):
        raise UsageError("cubes and horizon_hint must be >= 0 and workers >= 1")
    if limits is not None and (time_limit is not None or memory_limit is not None):
        raise UsageError("give either limits or time_limit/memory_limit, not both")
    if lrat and cubes:
        raise UsageError("an LRAT proof is one proof: give lrat or cubes, not both")
    core = core_only or lrat
    if result is None and (method in ("sat", "ilp") or one_shot or core_only or cubes) and not lrat:
        from .certificates.prove.bounded import require_proof_checker

        require_proof_checker()  # DRAT proofs: refuse before solving without the checker
    budget = limits or Limits(time_limit, memory_limit)
    with enforced(budget):
        if solution is not None:
            verdict = verify(instance, solution, keep_trace=False)
            if not verdict.ok:
                from .errors import IllegalMoveError

                step = verdict.step
                move = solution.moves[step - 1] if step else None
                raise IllegalMoveError(step, move, f"not a solution of {instance.name}: {verdict.reason}")
        if one_shot:
            return _one_shot(instance, output_dir, solution, horizon_hint, (core, lrat), cubes, workers, split, budget)
        if result is None:
            result = solve(instance, method, max_moves=max_moves, limits=budget, **options)
        elif result.status is Status.UNKNOWN:
            raise UsageError("an 'unknown' answer has nothing to certify")
        if result.status is Status.UNKNOWN:
            return Certification(result, stopped=result.stats.get("stopped", "a limit was hit"))
        if (core or cubes) and result.status is Status.OPTIMAL:
            return _one_shot(instance, output_dir, result.solution, None, (core, lrat), cubes, workers, split, budget)
        done = certify_result(instance, result, output_dir, limits=budget)
    # they shape an optimal answer's SAT proof only
    unused = ("cubes",) * bool(cubes) + (("lrat",) if lrat else ("core_only",) * core_only)
    return replace(done, unused=unused) if unused else done


def _one_shot(instance, output_dir, solution, hint, proof, cubes, workers, split, limits) -> Certification:
    """One UNSAT call below a known solution (``certificates/prove/oneshot.py``); ``proof``:
    (core-only CNF?, LRAT?)."""
    from .certificates.prove.oneshot import Mode, certify_known

    mode = Mode(core=proof[0], depth=cubes, workers=workers, split=split, lrat=proof[1])
    try:
        done = certify_known(
            instance,
            output_dir,
            solution=solution,
            hint=hint,
            mode=mode,
            time_limit=limits.remaining(),
            memory_limit=limits.memory_limit,
            deadline=_deadline(limits),
        )
    except (LimitReached, KeyboardInterrupt) as e:
        stopped = "interrupted" if isinstance(e, KeyboardInterrupt) else str(e)
        return Certification(Result(status=Status.UNKNOWN, method="sat", stats={"stopped": stopped}), stopped=stopped)
    if done.result.status is Status.UNKNOWN:
        return Certification(done.result, stopped=done.result.stats.get("stopped", "a limit was hit"))
    if done.refuted:
        return Certification(done.result, refuted=True)
    if done.certified is None:  # unsolvable, found by the SAT engine's screens: certified the usual way
        return certify_result(instance, done.result, output_dir, limits=limits)
    c = done.certified
    return Certification(done.result, c.path, c.certificate, c.check)


#: the first bytes of a zip archive (numpy's .npz): a certificate's layers, not the certificate
_ZIP = b"PK\x03\x04"

#: what a malformed certificate file's JSON raises (an integer of > 4300 digits, nesting too deep)
_BAD_JSON = (ValueError, RecursionError)


def read_certificate(path: str | Path) -> tuple[Any, str, Path]:
    """The certificate object of a file (a census certificate may be named by its folder), why
    it is not one (malformed JSON, bytes outside the DIMACS alphabet: then the object is None),
    and the folder its side files are in.  InstanceError when the file cannot be read."""
    from .certificates.check.format import alphabet_problem, unique_keys
    from .io.files import read_regular

    p = Path(path)
    if p.is_dir() and (p / "census.json").is_file():  # a census certificate is a folder
        p = p / "census.json"
    try:
        data = read_regular(p, "the certificate file")
    except OSError as e:
        raise InstanceError(f"cannot read certificate: {e}", str(p)) from None
    if data.startswith(_ZIP):  # a certificate's side file (layers, a census's layers.npz), given for it
        why = f"{p.name}: a certificate's layers file (.npz), not its JSON file; give the JSON file beside it"
        return None, why, p.parent
    outside = alphabet_problem(data, p.name)  # the checker reads no byte two parsers may disagree on
    if outside:
        return None, outside, p.parent
    try:
        return json.loads(data.decode("ascii"), object_pairs_hook=unique_keys), "", p.parent
    except json.JSONDecodeError as e:
        return None, f"malformed JSON: {e.msg} (line {e.lineno})", p.parent
    except _BAD_JSON as e:
        why = str(e).split(";")[0] if isinstance(e, ValueError) else "nested too deeply"
        return None, f"malformed JSON: {why}", p.parent


def check_certificate(
    instance: Instance,
    certificate: str | Path,
    *,
    time_limit: float | None = None,
    memory_limit: int | None = None,
    workers: int | None = None,
) -> Check:
    """Check a certificate file independently of the solver (``certificates/check``).

    The checker derives what the evidence proves from the instance and the evidence alone; the
    file is accepted only when that implies the file's own claim.

    Parameters
    ----------
    instance : Instance
        The puzzle the certificate is about (its digest must match).
    certificate : str or Path
        The certificate's JSON file, its side files beside it, as :func:`certify` wrote it; or a
        census certificate's folder (``census.json`` and ``layers.npz``).
    time_limit, memory_limit : optional
        Seconds and bytes the check may take.
    workers : int, optional
        Threads for a large layers or census certificate (default: one per core; the verdict
        does not depend on it).

    Returns
    -------
    Check
        ``ok`` (accepted) and ``reason``; ``claim`` and ``scope`` are what the checker proved
        (empty when rejected), ``claimed`` the file's own claim.  A malformed or forged file is
        rejected, not raised.

    Raises
    ------
    InstanceError
        When the certificate file cannot be read.
    MissingDependency
        For a bounded certificate when its DRAT checker (``coinsat[certify]``) is missing.
    LimitReached
        When a limit stops the check: neither accepted nor rejected.
    """
    from .certificates.check import check_certificate as check

    deadline = None if time_limit is None else time.perf_counter() + time_limit
    cert, problem, base = read_certificate(certificate)
    if cert is None:
        return Check(False, problem)
    if isinstance(cert, dict) and cert.get("kind") == "bounded":  # its DRAT proofs need the certify extra
        from .certificates.prove.bounded import require_proof_checker

        require_proof_checker()
    with enforced(Limits(time_limit, memory_limit)):
        return check(instance, cert, base, deadline, workers or os.cpu_count() or 1)
