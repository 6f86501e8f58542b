"""The ILP model (encodings/ilp.md) as LP or MPS text, for other MIP solvers.

``lp_text`` / ``mps_text`` return the file's text (the ``coinsat export``
format functions); ``write_lp`` / ``write_mps`` write it atomically
(io/atomic.py).  PuLP writes these formats only to a path, so the text is
produced in a private temporary directory and read back.

Variable names (the symbol table, also written as comments at the top):
``x_<cell>_<label>_<t>`` occupancy, ``f_...``/``v_...`` fill/vacate of step t,
``n_<t>`` no-op, ``z_<g>`` goal placement selector; cells and labels are
indices, and the comments give their coordinates and names.  The objective
``moves`` is the number of moves; its minimum is the length of a shortest
solution within the horizon, and an infeasible model proves there is none.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..encode.ilp import build_ilp
from ..errors import UsageError
from ..instance import Instance
from .atomic import write_atomic


def lp_text(instance: Instance, horizon: int | None, **options) -> str:
    return _export(instance, horizon, "lp", options)


def mps_text(instance: Instance, horizon: int | None, **options) -> str:
    return _export(instance, horizon, "mps", options)


def write_lp(instance: Instance, horizon: int, path: str | os.PathLike, **options) -> None:
    write_atomic(path, lp_text(instance, horizon, **options))


def write_mps(instance: Instance, horizon: int, path: str | os.PathLike, **options) -> None:
    write_atomic(path, mps_text(instance, horizon, **options))


def symbol_table(instance: Instance, horizon: int) -> list[str]:
    """Lines describing the variable names (without comment markers)."""
    b = instance.board
    lines = [
        f"coinsat ILP model of {instance.name!r}: horizon {horizon}, adjacency {instance.d}, "
        f"board {b.kind} (window {b.window}), goal placement {instance.goal_placement}",
        "x_<cell>_<label>_<t> occupancy; f_/v_<cell>_<label>_<t> fill/vacate at step t; "
        "n_<t> no-op; z_<g> goal placement; objective = number of moves",
    ]
    lines += [f"label {li} = {lab}" for li, lab in enumerate(instance.labels)]
    lines += [f"cell {c} = {b.coords[c]}" for c in range(b.size)]
    return lines


def _export(instance: Instance, horizon: int | None, fmt: str, options: dict) -> str:
    if horizon is None:
        raise UsageError(f"the {fmt} format needs a horizon (--horizon T)")
    if horizon < 0:
        raise UsageError(f"the horizon must be >= 0, not {horizon}")
    model = build_ilp(instance, horizon, **options)
    with tempfile.TemporaryDirectory(prefix="coinsat-") as tmp:
        path = Path(tmp) / f"model.{fmt}"
        if fmt == "lp":
            model.problem.writeLP(str(path))
        else:
            model.problem.writeMPS(str(path))
        body = path.read_text(encoding="utf-8")
    marker = "\\ " if fmt == "lp" else "* "
    header = "".join(f"{marker}{line}\n" for line in symbol_table(instance, horizon))
    return header + body
