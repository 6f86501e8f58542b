"""Write the certificate of a solve result to a directory, then check it.

What the answer carries (``Result.witness``, a typed record) decides the builder, never the
engine's name.  What each status gets:

* ``unsolvable`` — the inductive invariant the answer carries (``pdr``'s ``Invariant``,
  ``inductive.py``), else the screens' invariant (or Theorem 1 closed set) when one applies;
  an :class:`~coinsat.result.InductionProof` (``kind``) has no invariant, so PDR is asked
  for one; else a closed set:
  the forward closure of the start in the window (scope global on exact windows and
  graphs, window otherwise);
* ``optimal`` with T moves — the bounded certificate for T − 1 carrying the
  solution (for T = 0, the solution alone); when the answer carries
  :class:`~coinsat.result.SearchLayers` (``spanbfs``, ``rankbfs``) on an exact window, the
  layers certificate for T − 1 instead (its witness is the search itself, where a DRAT
  proof may be out of reach; the layers of the answer's own search are reused);
* ``feasible`` with lower bound L >= 1 — the bounded certificate for L − 1
  carrying the solution; with L = 0 there is nothing to certify but the
  solution, which verify checks;
* ``bounded`` (no solution with <= T moves) — the bounded certificate for T;
* ``unknown`` — nothing (UsageError: there is no claim to certify).

A builder that cannot rebuild what the engine proved (no closed set for an
``unsolvable`` answer, a satisfiable formula below a proven lower bound) is a
coinsat bug: :class:`~coinsat.errors.InternalError`, exit 4.  A builder that runs
out of time or states raises :class:`~coinsat.errors.LimitReached`, exit 3.

Files: ``<name>.certificate.json`` plus, for bounded certificates, the CNF and
the DRAT proof beside it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ...errors import InternalError, UsageError
from ...instance import Instance
from ...io.atomic import write_atomic
from ...result import InductionProof, Result, SearchLayers, Status
from ...search.pdr import Invariant
from ..check import check_certificate
from ..check.format import Certificate, Check, header, solution_json
from .bounded import build_bounded, claim_text
from .closed_set import forward_closure
from .screens import find_screen_certificate


@dataclass(frozen=True)
class Certified:
    path: Path
    check: Check
    certificate: Certificate


def stem(instance: Instance) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", instance.name) or "instance"


def build_certificate(
    instance: Instance, result: Result, out_dir: str | Path, deadline: float | None = None
) -> Certificate:
    """The certificate of ``result`` (bounded and layers ones also write their side files).

    Past ``deadline`` (a ``time.perf_counter()`` value) it raises
    :class:`~coinsat.errors.LimitReached`.
    """
    return Certificate.from_json(_build(instance, result, out_dir, deadline))


def _build(instance: Instance, result: Result, out_dir: str | Path, deadline: float | None) -> dict:
    """The certificate object of the kind that fits ``result`` (module docstring)."""
    status = result.status
    witness = result.witness
    if status is Status.UNSOLVABLE:
        # pdr's own invariant first: it is there only when pdr ran, i.e. no screen answered before
        # it or the screens were skipped (solve --no-screens: the engine's own certificate asked for)
        cert = _inductive(instance, witness, out_dir, deadline) if isinstance(witness, Invariant) else None
        cert = cert or find_screen_certificate(instance)
        if cert is None and isinstance(witness, InductionProof):  # no invariant of its own: ask pdr for one
            from .inductive import pdr_invariant

            invariant = pdr_invariant(instance, deadline)
            if invariant is not None:
                cert = _inductive(instance, invariant, out_dir, deadline)
        cert = cert or forward_closure(instance, deadline=deadline)
        if cert is None:
            raise InternalError("a goal placement is reachable, yet the answer was 'unsolvable'")
        return cert
    if status is Status.UNKNOWN:
        raise UsageError("an 'unknown' answer has nothing to certify")
    if result.lower_bound is None:  # Result allows it only for a certified 'unsolvable'
        raise InternalError(f"a '{status}' answer without a lower bound")
    if status is Status.BOUNDED:
        horizon, solution = result.lower_bound - 1, None
    else:
        horizon, solution = result.lower_bound - 1, result.solution
    if horizon < 0:
        if solution is None:
            raise InternalError(f"a '{status}' answer with lower bound 0 and no solution")
        cert = header(instance, "bounded", "horizon", claim_text(instance, -1, solution))
        cert.update(horizon=-1, solution=solution_json(instance, solution))
        return cert
    if isinstance(witness, SearchLayers) and instance.board.exact:  # layers need an exact window
        from .layers import build_layers

        cert = build_layers(
            instance, horizon, out_dir, stem(instance), solution, deadline=deadline, searched=witness.layers
        )
        if cert is None:
            raise InternalError(f"spanbfs did not prove 'no solution with <= {horizon} moves' again")
        return cert
    cert = build_bounded(instance, horizon, out_dir, stem(instance), solution, deadline=deadline)
    if cert is None:
        raise InternalError(f"the formula for horizon {horizon} is satisfiable: the lower bound was wrong")
    return cert


def _inductive(instance: Instance, invariant, out_dir: str | Path, deadline: float | None) -> dict:
    from .inductive import build_inductive

    return build_inductive(instance, invariant, out_dir, stem(instance), deadline=deadline)


def certify(instance: Instance, result: Result, out_dir: str | Path, deadline: float | None = None) -> Certified:
    """Build, write and check the certificate of ``result``.

    The files are made and checked in a fresh folder inside ``out_dir`` and moved into it
    only when the check has finished: past ``deadline`` (a ``time.perf_counter()``
    value), on Ctrl-C or on any failure the folder is removed, so ``out_dir`` never holds
    a half-made certificate, nor one whose side files belong to another run.
    """
    if instance.moves != "jump" and result.status != Status.UNSOLVABLE:  # slides: bounds are proven for jumps
        raise UsageError(
            f"certificates of bounds are made for jump moves; this instance has moves = {instance.moves!r} "
            "(only its unsolvable answers, which hold for jumps too, can be certified)"
        )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".coinsat-certify-", dir=out))
    try:
        cert = build_certificate(instance, result, work, deadline)
        text = cert.text()
        check = check_certificate(instance, json.loads(text), work, deadline, os.cpu_count() or 1)
        write_atomic(work / f"{stem(instance)}.certificate.json", text)
        for f in sorted(work.iterdir(), key=lambda f: f.suffix == ".json"):  # the JSON last
            os.replace(f, out / f.name)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Certified(out / f"{stem(instance)}.certificate.json", check, cert)
