"""Builder of bounded certificates: the CNF of "a solution with <= T moves" and a DRAT refutation.

The format and its checker are :mod:`coinsat.certificates.check.bounded`.  The
formula is built in a lattice window exact for T (``exact_margin``) so that the
claim is global, and refuted by a proof-producing solver (``backends.sat_backend.prove``), in
one fresh call on the closed formula (no climb: the caller names the horizon, and a proof of
the closed formula is what the checker can replay).

``core=True`` writes the core-only CNF instead (definition families C1–C8 and N1,
written by the checker's own :mod:`~coinsat.certificates.check.core_cnf`, not by
``coinsat/encode/``): the certificate then trusts no pruning family and no encoder
code, at the price measured in ``benchmarks/core_only.md``.  ``lrat=True`` (with ``core``)
turns the DRAT proof into LRAT (:mod:`.lrat`), which the checker checks without a DRAT checker and
``scripts/referee_check.py`` checks against the core formula it writes itself
(``benchmarks/lrat.md``).
"""

from __future__ import annotations

import time
from pathlib import Path

from ...backends import Outcome
from ...backends.sat_backend import prove
from ...errors import InternalError, LimitReached
from ...instance import Instance
from ...io.atomic import write_atomic
from ...io.dimacs import gbd_hash
from ...solution import Solution
from ..check.bounded import PROOF_SOLVERS, encoding_problem, widened, window_exact
from ..check.claims import Claim
from ..check.core_cnf import core_clauses, core_cnf_text
from ..check.format import header, solution_json


def require_proof_checker() -> None:
    """MissingDependency (exit 2, naming the extra) before any work when the DRAT checker
    that every bounded certificate is checked with is not installed."""
    from ...registry import require

    for module in ("dratify", "cdclkit"):
        require(module, "a bounded certificate (checking its DRAT proof)")


def exact_margin(instance: Instance, horizon: int) -> int | None:
    """The smallest margin >= the instance's whose window is exact for ``horizon`` (None: already exact)."""
    if window_exact(instance, horizon) or not instance.board.is_lattice:
        return None
    m = instance.margin
    while not window_exact(widened(instance, m), horizon):
        m += 1
    return m


def claim_text(instance: Instance, horizon: int, solution) -> str:
    """What a bounded certificate (with or without a solution) proves, in words."""
    n = None if solution is None else len(solution)
    if horizon < 0:
        return Claim(solution=n).text()
    return Claim(solution=n, bound=horizon, window=not window_exact(instance, horizon)).text()


def build_bounded(
    instance: Instance,
    horizon: int,
    out_dir: str | Path,
    stem: str,
    solution: Solution | None = None,
    solver: str = "cadical195",
    options=None,
    deadline: float | None = None,
    core: bool = False,
    lrat: bool = False,
) -> dict | None:
    """Prove "no solution with <= T moves": write the CNF and its DRAT refutation; the certificate.

    Parameters
    ----------
    instance : Instance
        The puzzle (on a lattice, the formula is built in the window :func:`exact_margin` gives,
        so that the claim is global).
    horizon : int
        T.
    out_dir : str or Path
        Gets ``stem.h<T>.cnf`` and ``stem.h<T>.drat``.
    stem : str
        The files' name stem.
    solution : Solution, optional
        A solution, replayed by the checker and claimed beside the bound (``optimal`` when it
        has T + 1 moves).
    solver : str
        The PySAT solver that writes the proof (CaDiCaL 1.9.5 by default).
    options : EncodingOptions, optional
        The encoding (``coinsat.encode.options``; None: the default pruned one).
    deadline : float, optional
        A ``time.perf_counter()`` value: the solver runs in doubling conflict budgets (CaDiCaL
        cannot be interrupted through PySAT; the proof trace spans the budgets) up to it.
    core : bool
        Encode only the definition families C1-C8 (``encodings/sat.md`` section 9): the formula the
        checker rebuilds from the specification alone.
    lrat : bool
        With ``core``: turn the DRAT proof into LRAT (:mod:`.lrat`) and write ``stem.h<T>.lrat``
        instead of the DRAT file (``"proof_format": "lrat"``, which ``scripts/referee_check.py``
        checks too).

    Returns
    -------
    dict or None
        The certificate object (``coinsat.certificates.check.format.Certificate.from_json`` reads
        it); None if the formula is satisfiable (then there *is* a solution with <= T moves).

    Raises
    ------
    LimitReached
        Past ``deadline``, before any file is written.
    MissingDependency
        Without the DRAT checker's extra (:func:`require_proof_checker`).
    """
    from ...encode.options import DEFAULT_OPTIONS
    from ...encode.pb import clauses_with_empty
    from ...encode.sat import encode
    from ...io.dimacs import cnf_text

    if solver not in PROOF_SOLVERS:
        raise ValueError(f"solver {solver!r} cannot give trusted proofs (use one of {PROOF_SOLVERS})")
    if lrat and not core:
        raise ValueError("an LRAT proof is made on the core-only CNF only (core=True)")
    if not lrat:
        require_proof_checker()
    options = options or DEFAULT_OPTIONS
    problem = encoding_problem(options.as_dict())
    if problem:  # the checker would reject it: never write such a certificate
        raise ValueError(problem)
    margin = exact_margin(instance, horizon)
    target = instance if margin is None else widened(instance, margin)
    out = Path(out_dir)
    cnf_name, proof_name = f"{stem}.h{horizon}.cnf", f"{stem}.h{horizon}.drat"
    if core:  # the text and the clauses it prints: the formula object, never its text read back
        cnf = core_clauses(target, horizon)
        text, clauses = core_cnf_text(target, horizon, cnf), cnf.clauses
    else:
        formula = encode(target, horizon, options)
        text, clauses = cnf_text(target, formula), clauses_with_empty(formula)
    left = None if deadline is None else deadline - time.perf_counter()
    refutation = prove(clauses, solver, time_limit=left)
    if refutation.outcome is Outcome.SAT:
        return None
    if refutation.proof is None:  # a budget ran out
        raise LimitReached(f"no proof of 'no solution with <= {horizon} moves' within the time limit")
    proof, solve_seconds = refutation.proof, refutation.seconds
    drat_lines = len(proof)
    if lrat:
        from .lrat import drat_to_lrat

        try:
            proof, proof_name = drat_to_lrat(clauses, proof, deadline), f"{stem}.h{horizon}.lrat"
        except ValueError as e:  # a RAT lemma (prove/lrat.py converts RUP lemmas only)
            raise InternalError(f"the DRAT proof could not be turned into LRAT ({e}); certify without --lrat") from None
    write_atomic(out / cnf_name, text)
    proof_text = "\n".join(proof) + "\n"
    write_atomic(out / proof_name, proof_text)
    cert = header(instance, "bounded", "horizon", claim_text(target, horizon, solution))
    cert.update(
        horizon=horizon,
        margin=margin,
        encoding="core" if core else options.as_dict(),
        cnf=cnf_name,
        cnf_gbd_hash=gbd_hash(text),
        proof=proof_name,
        proof_format="lrat" if lrat else "drat",
        solver=solver,
        proof_lines=len(proof),
        proof_bytes=len(proof_text.encode()),
        solve_seconds=round(solve_seconds, 3),
        window_exact=window_exact(target, horizon),
    )
    if lrat:
        cert["drat_lines"] = drat_lines
    if solution is not None:
        cert["solution"] = solution_json(instance, solution)
    return cert
