"""The front door: ``solve(instance, method)`` runs the cheap screens, then the named engine.

It sits above the engines (``coinsat.search``) and the certificate screens
(``coinsat.certificates.build.screens``), which is why it is not in ``search/``:
the engines never import the certificates.

:func:`solve` makes its limits the ambient budget (``limits.enforced``), so the
screens, which know nothing of limits, are bounded too; an engine gets the time
that is left.  A limit that stops code with no answer of its own (the screens,
or an engine's loop that does not poll) gives ``unknown`` with the cheap bounds
``theory.reach.fill_count_bound`` and ``distance_bound`` (computed first, before
the screens) and ``stats["stopped"]``.  :func:`solve_auto`
(method ``auto``) picks an engine.
"""

from __future__ import annotations

from dataclasses import replace

from .board import BoardKind, span_coords
from .certificates.build.screens import screen
from .errors import LimitReached, UsageError
from .instance import Instance
from .limits import Limits, enforced
from .result import Result, Statistics, Status
from .search.methods import METHODS, get_method, inapplicable, spec
from .search.options import AutoOptions, BfsOptions, SpanbfsOptions
from .theory.reach import configuration_count, distance_bound, fill_count_bound

__all__ = ["METHODS", "solve", "solve_auto"]


def solve(
    instance: Instance,
    method: str = "auto",
    *,
    max_moves: int | None = None,
    time_limit: float | None = None,
    memory_limit: int | None = None,
    limits: Limits | None = None,
    **options,
) -> Result:
    """Run the screens, then engine ``method`` with ``options`` (the fields of its options
    dataclass, ``search/options.py``; an unknown one is a UsageError).  ``limits`` (or
    ``time_limit`` and ``memory_limit``) bound the whole call."""
    if max_moves is not None and max_moves < 0:
        raise UsageError(f"max_moves must be >= 0, not {max_moves}")
    if time_limit is not None and time_limit <= 0:
        raise UsageError(f"time_limit must be > 0, not {time_limit}")
    if memory_limit is not None and memory_limit <= 0:
        raise UsageError(f"memory_limit must be > 0, not {memory_limit}")
    if limits is not None and (time_limit is not None or memory_limit is not None):
        raise UsageError("give either limits or time_limit/memory_limit, not both")
    record = spec(method)
    opts = record.make_options(options)
    engine = get_method(method)
    with enforced(limits or Limits(time_limit, memory_limit)) as budget:
        floor = fill_count_bound(instance)  # what a stop can report; raised below while it is cheap
        try:
            floor = max(floor, distance_bound(instance) or 0)
            screened = screen(instance)
            if screened is not None:
                return _measured(screened, budget)
            return engine(instance, limits=budget, max_moves=max_moves, options=opts)
        except LimitReached as e:
            stopped = Result(
                status=Status.UNKNOWN,
                method=method,
                lower_bound=floor,
                seconds=budget.elapsed(),
                stats={"stopped": str(e)},
            )
            return _measured(stopped, budget)


def _measured(result: Result, limits: Limits) -> Result:
    """``result`` with the memory and CPU seconds of the run (for answers made outside a search)."""
    return replace(result, statistics=Statistics.measured(limits.cpu0))


#: solve_auto uses BFS on exact windows with at most this many configurations, SAT elsewhere.
#: Measured (`scripts/sat_options.py --sections crossover`, benchmarks/sat_crossover.md): BFS and
#: SAT tie near 5e5 configurations (V(2,1), 24 moves), BFS wins below, SAT wins 6.7x at 3e7 (V(2,2)).
AUTO_BFS_CONFIGURATIONS = 500_000


def solve_auto(
    instance: Instance,
    *,
    limits: Limits | None = None,
    max_moves: int | None = None,
    options: AutoOptions | None = None,
) -> Result:
    """Pick an engine.

    * ``spanbfs`` when it applies (unlabeled coins, <= 64 cells), the window is
      exact and the goal spans the whole window: its pruning then keeps only the
      configurations that span the window, and it beats SAT and BFS on every
      such puzzle measured (benchmarks/engines.md);
    * BFS when the window is exact and holds few configurations (BFS then also
      decides unsolvable instances by exhaustion);
    * SAT otherwise — including inexact windows (triangular grid), where the SAT
      driver widens the window and proves optimality globally while the
      explicit engines can only answer for the window.
    """
    o = options or AutoOptions()
    opts: object
    if instance.moves != "jump":  # the engines that decide other move models: search.methods.ENGINES
        name, opts = "bfs", BfsOptions()
    elif instance.board.exact and inapplicable("spanbfs", instance) is None and _goal_spans_window(instance):
        name, opts = "spanbfs", SpanbfsOptions(progress=o.progress)
    elif instance.board.exact and configuration_count(instance) <= AUTO_BFS_CONFIGURATIONS:
        name, opts = "bfs", BfsOptions()
    else:
        name, opts = "sat", o.sat()
    result = get_method(name)(instance, limits=limits, max_moves=max_moves, options=opts)
    return replace(result, method=f"auto:{result.method}")


def _goal_spans_window(instance: Instance) -> bool:
    """Every goal placement spans the whole window (the spanbfs pruning is then strongest)."""
    board = instance.board
    if board.kind is BoardKind.GRAPH:
        return False
    coords = board.lattice_coords
    region = frozenset(coords)
    for g in instance.goal_configurations:
        cells = [coords[c] for c, _ in g.coins]
        if len(span_coords(board.kind, cells, instance.d, region)) < board.size:
            return False
    return True
