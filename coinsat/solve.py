"""The front door: ``solve(instance, method)`` runs the cheap screens, then the named engine.

It sits above the engines (``coinsat.search``) and the certificate screens
(``coinsat.certificates.prove.screens``), which is why it is not in ``search/``:
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

import os
from dataclasses import replace
from math import comb

from .board import BoardKind, span_coords
from .certificates.prove.screens import screen
from .errors import LimitReached, UsageError
from .instance import Instance
from .limits import Limits, enforced
from .result import Result, Statistics, Status
from .search.methods import METHODS, get_method, inapplicable, spec
from .search.options import AutoOptions, BfsOptions, RankbfsOptions, SpanbfsOptions
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
    screens: bool = True,
    **options,
) -> Result:
    """Run the screens, then engine ``method`` with ``options`` (the fields of its options
    dataclass, ``search/options.py``; an unknown one is a UsageError).  ``limits`` (or
    ``time_limit`` and ``memory_limit``) bound the whole call.  ``screens=False`` runs the
    engine alone (to measure it, or to get its own certificate where a screen would answer).

    Returns a :class:`~coinsat.result.Result`: ``optimal`` (a solution and a proof that none is
    shorter), ``feasible``, ``unsolvable``, ``bounded`` (no solution within ``max_moves``) or
    ``unknown``; a limit is an answer, not an exception: ``unknown`` with the lower bound proven
    so far.  Every solution was replayed by the move validator.  Raises ``UsageError`` for a bad
    argument, an unknown method or option, or a method that does not apply to the instance, and
    ``InternalError`` if an engine's solution fails verification."""
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
            screened = screen(instance) if screens else None
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
#: ... and rankbfs instead of spanbfs on windows with more configurations C(n, k) than this
#: (benchmarks/engine-choice.md: spanbfs wins on V(2,2), 3.0e7; rankbfs on V(3,2), 2.0e9)
AUTO_RANK_CONFIGURATIONS = 100_000_000


def solve_auto(
    instance: Instance,
    *,
    limits: Limits | None = None,
    max_moves: int | None = None,
    options: AutoOptions | None = None,
) -> Result:
    """Pick the exact engine measured fastest for the instance (benchmarks/engine-choice.md).

    * ``rankbfs`` when the window is exact, the goal spans the whole window and the window
      holds more than ``AUTO_RANK_CONFIGURATIONS`` configurations (the V and flip families
      from V(3,2) and diagonal-7 on, and every such window past spanbfs's 64 cells), in as
      many processes as there are idle cores (:func:`idle_cores`);
    * ``spanbfs`` on the smaller such windows (its pruning keeps only the configurations
      that span the window, and it starts faster than rankbfs);
    * BFS when the window is exact and holds few configurations (BFS then also
      decides unsolvable instances by exhaustion);
    * SAT otherwise — including inexact windows (triangular grid), where the SAT
      driver widens the window and proves optimality globally while the
      explicit engines can only answer for the window.
    """
    o = options or AutoOptions()
    opts: object
    spans = instance.moves == "jump" and instance.board.exact and _goal_spans_window(instance)
    if instance.moves != "jump":  # the engines that decide other move models: search.methods.ENGINES
        name, opts = "bfs", BfsOptions()
    elif spans and inapplicable("rankbfs", instance) is None and _configurations(instance) > AUTO_RANK_CONFIGURATIONS:
        name, opts = "rankbfs", RankbfsOptions(workers=idle_cores(), progress=o.progress)
    elif spans and inapplicable("spanbfs", instance) is None:
        name, opts = "spanbfs", SpanbfsOptions(progress=o.progress)
    elif instance.board.exact and configuration_count(instance) <= AUTO_BFS_CONFIGURATIONS:
        name, opts = "bfs", BfsOptions()
    else:
        name, opts = "sat", o.sat()
    result = get_method(name)(instance, limits=limits, max_moves=max_moves, options=opts)
    return replace(result, method=f"auto:{result.method}")


def _configurations(instance: Instance) -> int:
    """C(n, k): the placements of the coins in the window, colours ignored."""
    return comb(instance.board.size, instance.n_coins)


def idle_cores() -> int:
    """The cores not busy over the last minute (the load average), at least one: a search on
    a shared machine gains nothing from a process that has no core to run on."""
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average on this platform
        return 1
    return max(1, min(cores, int(cores - load + 0.5)))


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
