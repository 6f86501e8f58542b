"""The independent checker of certificate files: ``check_certificate`` and one checker per kind.

Trust base: rules.py (the one move validator), board.py / geometry.py (the
lattices and their induced subgraphs), and, for bounded certificates, the
DRAT checker and the formula: the SAT encoding (``coinsat.encode``) for the
default pruned CNF, or, for ``"encoding": "core"``, only the definition
families C1–C8 written from the spec by :mod:`.core_cnf`, which imports nothing
from ``coinsat.encode`` (see :mod:`.bounded` and ``encodings/sat.md`` §9); for
layers certificates, the span lemma and the checker's own vector kernel (see
:mod:`.layers`).
Nothing in this package imports the code that *finds* certificates
(``coinsat.certificates.prove``, ``coinsat.search``, ``coinsat.theory``): every
claim is re-derived from the witness (a test walks every module's imports).

Each kind checker has one signature, ``(instance, cert, base_dir, deadline) ->
(ok, reason, proven)``: ``proven`` is the :class:`~.claims.Claim` the evidence
implies, and the file is accepted only when that implies its own claim.  The
layers checker also takes ``workers`` (threads for the chunks of a layer: the
one check long enough to want them); the others run on one thread.

Lattice semantics.  Claims of scope ``global`` on a lattice are checked on
the infinite lattice, not on the instance's window: a legal move lands next
to coins, so the induced subgraph on the cells within distance 1 of a
configuration's coins holds every legal move of that configuration with the
right neighbour counts.  The checkers build such boards themselves.
"""

from __future__ import annotations

import time
import zipfile
from pathlib import Path
from typing import Any, Callable

from ...errors import InternalError, LimitReached
from ...instance import Instance
from ...registry import load
from .claims import Claim, judge
from .format import FORMAT_VERSION, KINDS, Check, instance_digest

#: kind -> "module:function" of its checker (imported on first use: the DRAT checker's
#: dependencies load only for bounded certificates)
CHECKERS: dict[str, str] = {
    "invariant": "coinsat.certificates.check.invariant:check_invariant",
    "closed-set": "coinsat.certificates.check.closed_set:check_closed_set",
    "bounded": "coinsat.certificates.check.bounded:check_bounded",
    "layers": "coinsat.certificates.check.layers:check_layers",
    "inductive": "coinsat.certificates.check.inductive:check_inductive",
    "census": "coinsat.certificates.check.census_start:check_census_kind",
}
assert set(CHECKERS) == set(KINDS)
#: the kinds whose checker also takes ``workers`` (threads)
THREADED = frozenset({"layers", "census"})
#: a census certificate (``census.json``) has no header: it names itself by this format field
CENSUS_FORMAT = "coinsat-census"

KindChecker = Callable[[Instance, dict, Path, "float | None"], "tuple[bool, str, Claim | None]"]

#: what a malformed certificate can make the kind checkers raise; each means "rejected".  Not
#: MemoryError: running out of memory says nothing about the certificate (a true one is checked with
#: less memory than the machine had), so it is a limit, "unknown", like the time limit.  A file that
#: declares more than it could hold is rejected before anything is allocated (layers: C(cells, coins)).
_MALFORMED = (
    KeyError,
    TypeError,
    ValueError,
    IndexError,
    AttributeError,
    OverflowError,
    RecursionError,
    OSError,
    EOFError,
    zipfile.BadZipFile,
)


def check_certificate(
    instance: Instance,
    cert: Any,
    base_dir: str | Path | None = None,
    deadline: float | None = None,
    workers: int = 1,
) -> Check:
    """Accept or reject a certificate of ``instance``: the independent checker (module docstring).

    The kind checker derives what the evidence proves (a :class:`~.claims.Claim`) from the
    instance and the evidence alone; the certificate is accepted only when that implies its own
    claim (:func:`~.claims.judge`).  :func:`coinsat.check_certificate` is the same check on a file.

    Parameters
    ----------
    instance : Instance
        The puzzle the certificate is for (its digest must match).
    cert : dict
        The parsed JSON object of a certificate file.
    base_dir : str or Path, optional
        Where its side files (CNF, DRAT proofs, layers) are (default: the current folder).
    deadline : float, optional
        A ``time.perf_counter()`` value by which the check must finish.
    workers : int
        Threads a layers certificate's check may use (the verdict does not depend on it).

    Returns
    -------
    Check
        ``ok``, the ``reason``, and the claim and scope the evidence proves (empty when rejected);
        a malformed certificate is rejected, not raised.

    Raises
    ------
    LimitReached
        When the check cannot finish by ``deadline`` or runs out of memory: neither accepted nor
        rejected.
    InternalError
        If a kind checker accepts without deriving a claim (a coinsat bug).
    """
    t0 = time.perf_counter()
    census = isinstance(cert, dict) and cert.get("format") == CENSUS_FORMAT
    claimed = cert.get("claim", "") if isinstance(cert, dict) else ""
    try:
        ok, reason, proven = _check(instance, cert, Path(base_dir or "."), deadline, workers)
        if ok and census and proven is not None:  # a census states no claim of the puzzle's: it is derived
            claimed = proven.text()
        elif ok:
            if proven is None:
                raise InternalError("a checker accepted the certificate without deriving a claim")
            ok, why = judge(proven, cert)
            reason = reason if ok else why
    except LimitReached:
        raise
    except MemoryError:
        raise LimitReached("memory limit (the check ran out of memory)") from None
    except _MALFORMED as e:
        ok, reason, proven = False, f"malformed certificate: {type(e).__name__}: {e}", None
    if not ok:
        return Check(False, reason, "", "", time.perf_counter() - t0, claimed if isinstance(claimed, str) else "")
    if proven is None:
        raise InternalError("a checker accepted the certificate without deriving a claim")
    return Check(True, reason, proven.text(), proven.scope, time.perf_counter() - t0, claimed)


def _check(
    instance: Instance, cert: Any, base_dir: Path, deadline: float | None, workers: int = 1
) -> tuple[bool, str, Claim | None]:
    if isinstance(cert, dict) and cert.get("format") == CENSUS_FORMAT:  # census.json: a census of the puzzle's goal
        census: KindChecker = load(CHECKERS, "census", "certificate kind")
        return census(instance, cert, base_dir, deadline, workers=workers)  # type: ignore[call-arg]
    version = cert.get("coinsat_certificate") if isinstance(cert, dict) else None
    if type(version) is not int or version != FORMAT_VERSION:  # true and 1.0 equal 1 in Python: not here
        return False, "not a coinsat certificate (version 1)", None
    if cert.get("kind") not in CHECKERS:
        return False, f"unknown certificate kind {cert.get('kind')!r}", None
    if cert["instance"]["digest"] != instance_digest(instance):
        return False, "the certificate is for another instance (digest mismatch)", None
    checker: KindChecker = load(CHECKERS, cert["kind"], "certificate kind")
    if workers != 1 and cert["kind"] in THREADED:
        return checker(instance, cert, base_dir, deadline, workers=workers)  # type: ignore[call-arg]
    return checker(instance, cert, base_dir, deadline)
