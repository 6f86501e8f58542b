"""The paper's constructive algorithms, by name.

:data:`ALGORITHMS` maps a name to ``"module:function"`` (imported on first
use); each function takes an :class:`~coinsat.instance.Instance` and returns a
:class:`~coinsat.constructive.base.Construction` ``(instance, result)``: the
instance the moves are stated on (the same puzzle, possibly on a wider
window) and a ``feasible`` Result whose solution went through
``certify_solution``.  When the theorem's hypothesis fails the algorithm raises
:class:`ConstructionError` (a CoinsatError) saying which condition.

* ``triangular`` — Theorem 1 (triangle maneuvering with ghost coins), O(n d) moves;
* ``square`` — Theorem 2 (canonical L's with two extra coins), square grid;
* ``vschedule`` — the explicit schedule of the V-to-diagonal family (docs/v-to-diagonal.md),
  Theta(n^2) moves in closed form; only for ``coinsat family vdiag`` puzzles and the diagonal
  flips of ``coinsat family diagonal`` (Theorem F).
"""

from __future__ import annotations

from ..errors import ConstructionError
from ..instance import Instance
from ..registry import load
from .base import Construction

ALGORITHMS: dict[str, str] = {
    "triangular": "coinsat.constructive.triangular:construct_triangular",
    "square": "coinsat.constructive.square:construct_square",
    "vschedule": "coinsat.constructive.vschedule:construct_vschedule",
}

__all__ = ["ALGORITHMS", "Construction", "ConstructionError", "construct", "get_algorithm"]


def get_algorithm(name: str):
    return load(ALGORITHMS, name, "algorithm")


def construct(instance: Instance, algorithm: str = "auto") -> Construction:
    """Run the constructive algorithm for the instance's board (or the one named)."""
    if algorithm == "auto":
        kind = instance.board.kind
        if kind not in ALGORITHMS:
            raise ConstructionError(
                f"no constructive algorithm for '{kind}' boards "
                f"(the paper's constructions are for the square and triangular grids)"
            )
        algorithm = kind
    return get_algorithm(algorithm)(instance)
