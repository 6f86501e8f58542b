"""The engine of ``board = "plane"`` puzzles: ``theory.plane.search`` behind the statuses of every engine.

The free plane (the paper's open problem 4) has no board of cells, so its answer is a
:class:`PlaneAnswer` (moves between exact points) instead of a :class:`~coinsat.result.Result`
(moves between cells); the statuses mean what they mean everywhere:

* ``optimal`` — a solution of L moves, replayed by ``rules.check_plane_move`` (``theory.plane.verify``),
  and every level below L searched completely: no solution has fewer moves;
* ``feasible`` — a replayed solution, with the levels below it not all proven;
* ``bounded`` — no solution with <= ``lower_bound`` − 1 moves, and nothing beyond: either
  ``max_moves`` was reached or the placement argument ends (a goal placed anywhere must share
  n − L >= 2 points with the start to be listed, so levels above n − 2 cannot be proven empty);
* ``unknown`` — a limit (nodes, time, memory, Ctrl-C) stopped the search; ``lower_bound`` is
  what was proven before.

There is no ``unsolvable``: no finite argument here proves that a plane puzzle has no solution.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..result import Status
from ..theory.plane import PlaneMove, PlanePuzzle, max_provable, search

DEFAULT_NODE_LIMIT = 50_000_000


@dataclass(frozen=True)
class PlaneAnswer:
    """What the plane search proves (module docstring); ``moves`` are exact points."""

    status: Status
    moves: tuple[PlaneMove, ...] | None
    lower_bound: int
    method: str
    seconds: float
    stats: dict = field(default_factory=dict)

    @property
    def length(self) -> int | None:
        return None if self.moves is None else len(self.moves)


def solve_plane(puzzle: PlanePuzzle, *, max_moves: int | None = None, node_limit: int | None = None) -> PlaneAnswer:
    """Solve a free-plane puzzle by exact iterative deepening (``theory.plane.search``).

    ``max_moves`` (default: as far as the placement argument proves, n − 2 for goals placed
    anywhere) bounds the levels searched; time, memory and Ctrl-C are the ambient budget of
    ``coinsat.limits`` (``limits.enforced``).  Returns a :class:`PlaneAnswer`; never raises on a limit.
    """
    t0 = time.perf_counter()
    top = max_provable(puzzle) if max_moves is None else max_moves
    report = search(puzzle, top, node_limit=DEFAULT_NODE_LIMIT if node_limit is None else node_limit)
    lower = report.proven_none + 1
    stats: dict = {"nodes": report.nodes, "placements_searched": dict(report.placements_searched)}
    if report.incomplete:
        stats["incomplete"] = report.incomplete
    if report.stopped:
        stats["stopped"] = report.stopped
    if report.moves is not None:
        status = Status.OPTIMAL if lower == len(report.moves) else Status.FEASIBLE
        moves: tuple[PlaneMove, ...] | None = tuple(report.moves)
    else:
        moves = None
        if report.stopped:
            status = Status.UNKNOWN
        else:
            status = Status.BOUNDED
            if report.beyond_placements or (max_moves is None and top < puzzle.n):
                stats["beyond"] = (
                    f"levels above {max_provable(puzzle)} moves cannot be proven empty (the goal placements "
                    "sharing fewer points with the start are not finitely many)"
                )
    return PlaneAnswer(status, moves, lower, "plane", time.perf_counter() - t0, stats)
