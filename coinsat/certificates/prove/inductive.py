"""Builder of inductive-invariant certificates: PDR's invariant and three DRAT refutations.

The format and its checker are :mod:`coinsat.certificates.check.inductive`.  The invariant
comes from the ``pdr`` engine (``Result.witness``, a :class:`coinsat.search.pdr.Invariant`:
clauses over cell indices); the three formulas are the checker's own texts
(:func:`~coinsat.certificates.check.inductive.formulas`), each refuted here by a
proof-producing solver (``backends.sat_backend.prove``, handed the clauses those texts print:
:func:`~coinsat.certificates.check.inductive.formula_cnfs`), and the proofs written beside the
certificate.
"""

from __future__ import annotations

import time
from pathlib import Path

from ...backends import Outcome
from ...backends.sat_backend import prove
from ...errors import InternalError, LimitReached
from ...instance import Instance
from ...io.atomic import write_atomic
from ..check.claims import Claim
from ..check.format import cell_json, header
from ..check.inductive import PROOF_NAMES, formula_cnfs, window_closed

SOLVER = "cadical195"


def _refutation(clauses: list[list[int]], deadline: float | None) -> list[str] | None:
    """A DRAT proof that ``clauses`` are unsatisfiable (None: they are satisfiable)."""
    refutation = prove(clauses, SOLVER, time_limit=None if deadline is None else deadline - time.perf_counter())
    if refutation.outcome is Outcome.UNKNOWN:
        raise LimitReached("time limit (the invariant's proofs were not made in time)")
    return refutation.proof


def build_inductive(
    instance: Instance, invariant, out_dir: str | Path, stem: str, deadline: float | None = None
) -> dict:
    """Certify an inductive invariant: write ``stem.inv-<name>.drat`` for its three formulas (module
    docstring); the certificate.

    Parameters
    ----------
    instance : Instance
        The puzzle the invariant separates from its goal.
    invariant : coinsat.search.pdr.Invariant
        The ``pdr`` engine's witness (``Result.witness``): clauses over cell indices (literal
        +-(c + 1)) and ``from_abc``.
    out_dir : str or Path
        Gets the three DRAT proofs.
    stem : str
        The files' name stem.
    deadline : float, optional
        A ``time.perf_counter()`` value.

    Returns
    -------
    dict
        The certificate object (kind ``inductive``), which ``coinsat.certificates.check`` checks.

    Raises
    ------
    InternalError
        If a formula is satisfiable: the invariant is not one (a bug of the engine).
    LimitReached
        Past ``deadline``.
    """
    if len(instance.labels) > 1:
        raise InternalError("an inductive-invariant certificate was asked for a labeled instance")
    clauses = [list(c) for c in invariant.clauses]
    used = sorted({abs(lit) - 1 for c in clauses for lit in c})
    local = {cell: i + 1 for i, cell in enumerate(used)}
    cnfs = formula_cnfs(instance, clauses)
    out = Path(out_dir)
    names = {}
    sizes = {}
    for name in PROOF_NAMES:
        proof = _refutation(cnfs[name].clauses, deadline)
        if proof is None:
            raise InternalError(f"PDR's invariant fails the '{name}' check: the formula is satisfiable")
        names[name] = f"{stem}.inv-{name}.drat"
        body = "\n".join(proof) + "\n"
        write_atomic(out / names[name], body)
        sizes[name] = len(body.encode())
    closed = window_closed(instance)
    claim = Claim(unsolvable=True, window=not closed)
    cert = header(instance, "inductive", claim.scope, claim.text())
    coords = instance.board.coords
    cert.update(
        cells=[cell_json(coords[c]) for c in used],
        clauses=[[local[abs(lit) - 1] * (1 if lit > 0 else -1) for lit in c] for c in clauses],
        proofs=names,
        proof_format="drat",
        solver=SOLVER,
        from_pdr=invariant.from_abc,
        proof_bytes=sizes,
    )
    if not closed:
        cert["window"] = instance.board.window
    return cert


def pdr_invariant(instance: Instance, deadline: float | None = None):
    """An inductive invariant for an ``unsolvable`` answer that carries none (``kind``: ABC's
    k-induction proves the property but prints no invariant; its inductive step is strengthened
    by uniqueness constraints over k frames, which no clause set over one frame records): ask the
    ``pdr`` engine for one.  None when PDR does not prove the property before ``deadline`` or the
    instance has labels (no invariant certificate exists for them); a PDR counterexample means
    the two engines contradict each other (InternalError)."""
    from ...limits import Limits
    from ...result import Status
    from ...search.pdr import solve_pdr

    if len(instance.labels) > 1:
        return None
    left = None if deadline is None else max(0.5, deadline - time.perf_counter())
    r = solve_pdr(instance, limits=Limits(left))
    if r.solution is not None:
        raise InternalError(f"'unsolvable' was answered, but pdr found a solution of {len(r.solution)} moves")
    return r.witness if r.status is Status.UNSOLVABLE else None
