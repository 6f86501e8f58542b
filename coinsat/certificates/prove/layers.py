"""Builder of layers certificates: ``spanbfs``'s search layers L0..LT in a ``.npz`` file.

The format, the argument and the checker are :mod:`coinsat.certificates.check.layers`.
A ``rankbfs`` witness (its visited set: ranks and depths) is written as ranked
layers (``encoding = "rank"``), each stored as first differences (the first rank,
then the gaps) so that zlib squeezes the sorted ranks; with the bound U its
search pruned by, which the checker re-applies with an h of its own.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
import time
import zipfile
from pathlib import Path

import numpy as np

from ...errors import LimitReached
from ...instance import Instance
from ...io.atomic import write_atomic
from ...search.heuristics import certificate_field
from ...solution import Solution
from ..check.claims import Claim
from ..check.format import cell_json, header, solution_json
from ..check.layers import U64


def claim_text(horizon: int, solution: Solution | None) -> str:
    return Claim(solution=None if solution is None else len(solution), bound=horizon).text()


def build_layers(
    instance: Instance,
    horizon: int,
    out_dir: str | Path,
    stem: str,
    solution: Solution | None = None,
    deadline: float | None = None,
    searched=None,
) -> dict | None:
    """Write the certificate's layers file for ``horizon``; None if the search does not prove
    the bound (a solution within the horizon).

    ``searched`` is the layers of an earlier ``spanbfs`` run on this instance's window
    (``Result.witness``): when it reaches the horizon they are written as they are, without
    a second search (the checker verifies them like any others).  Otherwise spanbfs searches
    to ``horizon``, and :class:`~coinsat.errors.LimitReached` is raised when it passes
    ``deadline`` (a ``time.perf_counter()`` value) or its state cap."""
    if searched is not None and hasattr(searched, "layer"):  # a rankbfs witness
        return _write_ranked(instance, horizon, searched, out_dir, stem, solution)
    if searched is not None and len(searched) > horizon:
        return _write(instance, horizon, list(searched[: horizon + 1]), out_dir, stem, solution)
    from ...limits import Limits
    from ...result import Status
    from ...search.options import RankbfsOptions, SpanbfsOptions
    from ...search.spanbfs import solve_spanbfs

    if instance.board.size > 64:  # past spanbfs's words: search again with rankbfs
        from ...search.rank.search import solve_rankbfs

        left = None if deadline is None else max(1e-3, deadline - time.perf_counter())
        again = solve_rankbfs(instance, limits=Limits(left), max_moves=horizon, options=RankbfsOptions(grow=False))
        if again.status is Status.UNKNOWN:
            raise LimitReached(
                f"the layers of 'no solution with <= {horizon} moves' were not rebuilt within the limit",
                again.lower_bound,
            )
        if again.status not in (Status.BOUNDED, Status.UNSOLVABLE):
            return None
        return _write_ranked(instance, horizon, again.witness.layers, out_dir, stem, solution)

    left = None if deadline is None else max(1e-3, deadline - time.perf_counter())
    result = solve_spanbfs(instance, limits=Limits(left), max_moves=horizon, options=SpanbfsOptions(grow=False))
    layers: list[np.ndarray] = list(result.witness.layers)
    if result.status is Status.UNKNOWN:
        raise LimitReached(
            f"the layers of 'no solution with <= {horizon} moves' were not rebuilt within the limit", result.lower_bound
        )
    if result.status is Status.UNSOLVABLE:  # exhausted before the horizon: the layers still prove it
        layers += [np.zeros(0, dtype=U64)] * (horizon + 1 - len(layers))
    elif result.status is not Status.BOUNDED:
        return None
    return _write(instance, horizon, layers, out_dir, stem, solution)


def _write(
    instance: Instance, horizon: int, layers: list, out_dir: str | Path, stem: str, solution: Solution | None
) -> dict:
    """Word layers 0..horizon of a ``spanbfs`` search."""
    arrays = {f"L{i}": layer for i, layer in enumerate(layers[: horizon + 1])}
    states = int(sum(layer.size for layer in layers[: horizon + 1]))
    return _write_npz(instance, horizon, arrays, states, out_dir, stem, solution)


def _write_ranked(
    instance: Instance, horizon: int, visited, out_dir: str | Path, stem: str, solution: Solution | None
) -> dict:
    """Ranked layers 0..horizon of a ``rankbfs`` visited set (layers past its last depth are
    empty: that search ran out of states there), stored as first differences, one layer at a
    time (the file is streamed: writing holds one layer's differences beside the search, not a
    second copy of the visited set)."""
    name = f"{stem}.h{horizon}.layers.npz"
    path = Path(out_dir) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{name}.", suffix=".tmp")
    os.close(fd)
    states = 0
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, allowZip64=True) as zf:
            for i in range(horizon + 1):
                layer = visited.layer(i)
                states += int(layer.size)
                diffs = np.diff(layer, prepend=U64(0)) if layer.size else np.zeros(0, dtype=U64)
                del layer
                with zf.open(f"L{i}.npy", "w", force_zip64=True) as f:
                    np.lib.format.write_array(f, np.ascontiguousarray(diffs, dtype=U64), allow_pickle=False)
        digest = hashlib.sha256()
        with open(tmp, "rb") as f:
            for block in iter(lambda: f.read(1 << 24), b""):
                digest.update(block)
        size = os.path.getsize(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    cert = header(instance, "layers", "horizon", claim_text(horizon, solution))
    cert.update(horizon=horizon, cells=[cell_json(c) for c in instance.board.coords], encoding="rank")
    cert.update(layers=name, layers_sha256=digest.hexdigest(), states=states)
    cert["bytes_per_state"] = round(size / max(1, states), 3)
    if visited.upper_bound is not None:
        cert["upper_bound"] = visited.upper_bound
        h = certificate_field(getattr(visited, "heuristic", None))  # the h's record says what is written
        if h is not None:  # the checker recomputes the h named here
            cert["h"] = h
    group = getattr(visited, "symmetry", None)
    if group is not None:  # layers of one configuration per orbit (docs/symmetry.md, Lemma QS)
        n = len(instance.board.coords)
        cert["symmetries"] = [list(range(n))] + [[int(q) for q in g] for g in group]
    if solution is not None:
        cert["solution"] = solution_json(instance, solution)
    return cert


def _write_npz(
    instance: Instance,
    horizon: int,
    arrays: dict,
    states: int,
    out_dir: str | Path,
    stem: str,
    solution: Solution | None,
    ranked: bool = False,
    upper_bound: int | None = None,
) -> dict:
    """Write the layers file (compressed npz) and return the certificate that names it."""
    name = f"{stem}.h{horizon}.layers.npz"
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    data = buf.getvalue()
    write_atomic(Path(out_dir) / name, data)
    cert = header(instance, "layers", "horizon", claim_text(horizon, solution))
    cert.update(horizon=horizon, cells=[cell_json(c) for c in instance.board.coords])
    if ranked:
        cert["encoding"] = "rank"
    cert.update(layers=name, layers_sha256=hashlib.sha256(data).hexdigest(), states=states)
    if ranked:
        cert["bytes_per_state"] = round(len(data) / max(1, states), 3)
    if upper_bound is not None:
        cert["upper_bound"] = upper_bound
    if solution is not None:
        cert["solution"] = solution_json(instance, solution)
    return cert
