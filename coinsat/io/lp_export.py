"""The ILP model (encodings/ilp.md) as LP or MPS text, for other MIP solvers.

``lp_text`` / ``mps_text`` print a model built by
:func:`coinsat.encode.ilp.build_ilp` (``coinsat.export`` builds it for the
CLI).  PuLP writes these formats only to a path, so the text is produced in a
private temporary directory and read back.

Variable names (the symbol table, also written as comments at the top):
``x_<cell>_<label>_<t>`` occupancy, ``f_...``/``v_...`` fill/vacate of step t,
``n_<t>`` no-op, ``z_<g>`` goal placement selector; cells and labels are
indices, and the comments give their coordinates and names.  The objective
``moves`` is the number of moves; its minimum is the length of a shortest
solution within the horizon, and an infeasible model proves there is none.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..encode.ilp import IlpModel
from ..instance import Instance


def lp_text(instance: Instance, model: IlpModel, horizon: int) -> str:
    """The LP-format text of ``model`` (built for ``instance`` at ``horizon``)."""
    return _text(instance, model, horizon, "lp")


def mps_text(instance: Instance, model: IlpModel, horizon: int) -> str:
    """The MPS-format text of ``model`` (built for ``instance`` at ``horizon``)."""
    return _text(instance, model, horizon, "mps")


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


def _text(instance: Instance, model: IlpModel, horizon: int, fmt: str) -> str:
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
