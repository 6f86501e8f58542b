"""Cheap global screens, run before any search: answer ``unsolvable`` with a certificate.

:func:`screen` tries, in order: coin counts, "the start has no legal move",
"the goal does not fit in span(start)" (boards whose window is exact),
"the goal is frozen" (its predecessors keep a part the start lacks), and on
the triangular grid (d = 2) Theorem 1 as an exact decider (which adds the
three-coin colouring case as a closed set).  Each is polynomial in the number
of coins and cells.  The certificate is checked by the independent checker
before it is returned; a rejection would be a coinsat bug (VerificationError).
"""

from __future__ import annotations

import time

from ...errors import VerificationError
from ...instance import Instance
from ...result import Engine, Evidence, Result, Status
from ...theory import triangular
from ..check import check_certificate
from . import closed_set, invariant

FINDERS = (invariant.coin_counts, invariant.no_move, invariant.span_cells, invariant.frozen_goal)


def find_screen_certificate(instance: Instance) -> dict | None:
    """The certificate object of the first screen that decides the puzzle (module docstring).

    Parameters
    ----------
    instance : Instance
        The puzzle.

    Returns
    -------
    dict or None
        A global unsolvability certificate (the JSON object of a certificate file: an invariant,
        or Theorem 1's three-coin closed set), which ``coinsat.certificates.check`` checks; None
        when no screen decides the puzzle.

    Raises
    ------
    VerificationError
        If Theorem 1 decides the puzzle unsolvable but no screen finds its certificate (a bug).
    """
    for finder in FINDERS:
        cert = finder(instance)
        if cert is not None:
            return cert
    if triangular.applies(instance):
        decision = triangular.decide(instance)
        if not decision.solvable:
            if decision.reason == "colour-type-missing":
                cert = closed_set.from_three_coin_closure(instance, decision.detail["closure"])
                cert["theorem"] = "1 (three coins: vertex 3-colouring)"
                return cert
            # no-move and conditions-fail are covered by the finders above (Theorem 1's
            # necessity proof is the frozen-goal argument); reaching here is a bug.
            raise VerificationError(f"Theorem 1 says unsolvable ({decision.reason}) but no invariant was found")
    return None


def screen(instance: Instance) -> Result | None:
    """Run the cheap unsolvability screens (what :func:`coinsat.solve` runs before any engine).

    Parameters
    ----------
    instance : Instance
        The puzzle.

    Returns
    -------
    Result or None
        ``unsolvable`` with the screen's global certificate (``result.certificate``) when a
        screen decides the puzzle; None when none does (nothing is proven then).

    Raises
    ------
    VerificationError
        If the independent checker rejects the screen's certificate (a coinsat bug).
    """
    t0 = time.perf_counter()
    cert = find_screen_certificate(instance)
    if cert is None:
        return None
    verdict = check_certificate(instance, cert)
    if not verdict.ok:
        raise VerificationError(f"screen certificate rejected by its checker: {verdict.reason}")
    reason = cert.get("reason", cert["kind"])
    return Result(
        status=Status.UNSOLVABLE,
        method=f"screen:{reason}",
        lower_bound=None,
        certificate=Evidence.of(cert),
        seconds=time.perf_counter() - t0,
        engine=Engine.SCREEN,
    )
