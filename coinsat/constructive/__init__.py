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
    """The construction function registered as ``name`` in :data:`ALGORITHMS` (a UsageError if none)."""
    return load(ALGORITHMS, name, "algorithm")


def construct(
    instance: Instance,
    algorithm: str = "auto",
    *,
    time_limit: float | None = None,
    memory_limit: int | None = None,
) -> Construction:
    """A solution built by the paper's constructive algorithm: no search.

    Theorem 1's triangle maneuvering on the triangular grid, Theorem 2's canonical L's on the
    square grid, or the V-to-diagonal schedule (:data:`ALGORITHMS`).  The moves may use cells
    outside the instance's window: the construction widens it.

    Parameters
    ----------
    instance : Instance
        The puzzle.
    algorithm : str
        A name of :data:`ALGORITHMS`, or ``auto``: the one for the instance's board.
    time_limit, memory_limit : optional
        Seconds and bytes the construction (and its replay) may take.

    Returns
    -------
    Construction
        ``(instance, result)``: the instance the moves are stated on (the same puzzle, possibly
        on a wider window) and a ``feasible`` Result whose solution was replayed by ``rules.py``
        (not claimed optimal).

    Raises
    ------
    ConstructionError
        When the theorem's hypothesis fails, or the puzzle is out of the algorithm's scope
        (the message says which condition).
    UsageError
        For an unknown algorithm.
    LimitReached
        When a limit stops it.
    """
    from ..limits import Limits, enforced

    if algorithm == "auto":
        kind = instance.board.kind
        if kind not in ALGORITHMS:
            raise ConstructionError(
                f"no constructive algorithm for '{kind}' boards "
                f"(the paper's constructions are for the square and triangular grids)"
            )
        algorithm = kind
    build = get_algorithm(algorithm)
    if time_limit is None and memory_limit is None:
        return build(instance)
    with enforced(Limits(time_limit, memory_limit)):
        return build(instance)
