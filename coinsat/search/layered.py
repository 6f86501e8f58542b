"""What the layered searches share: the typed end of a forward search and the answer it gives.

``spanbfs`` and ``rankbfs`` (one process, worker processes or MPI ranks) search forward by
layers: layer t holds the states first reached after t moves.  Every such search ends in
one :class:`Outcome` (:class:`Ending`: a goal found, an empty layer, the horizon, a
limit), and :func:`fixed_result` turns it into the engine's :class:`~coinsat.result.Result`
on the instance's own window; :func:`grown` runs the search in windows grown until they
are exact for each horizon (``search/grown.py``, with :class:`Layered` as its
:class:`~coinsat.search.grown.Search`).  Both take the engine's name and
:class:`~coinsat.result.Engine` label from the caller: an answer is labelled by the
engine that searched.

Also here: sorted-array helpers (:func:`unique`, :func:`member`) and :class:`LayerReport`,
what a progress display receives after every layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .._names import Name
from ..errors import InternalError
from ..instance import Instance
from ..limits import Limits, enforced
from ..result import Engine, Evidence, Result, SearchLayers, Status
from ..solution import Solution, certify_solution
from ..theory.reach import exact_for
from .grown import Proved, WindowAnswer, found_in_window, grow
from .windows import exact_horizon


class Ending(Name):
    """How a forward search ended: a goal at ``depth`` (``found``), layer ``depth`` + 1
    empty (``empty``), ``depth`` = the horizon (``horizon``), or a limit after layer
    ``depth`` (``limit``)."""

    FOUND = "found"
    EMPTY = "empty"
    HORIZON = "horizon"
    LIMIT = "limit"


@dataclass(frozen=True)
class Outcome:
    """The end of one forward search.  ``layers`` is what the certificate builders reuse
    (spanbfs: a list of sorted arrays; rankbfs: its visited set); ``stats`` the engine's
    details, with ``expanded`` and ``pruned`` counts when it keeps them."""

    kind: Ending
    depth: int
    states: int
    layers: Any = field(repr=False)
    moves: list | None = None
    reason: str | None = None
    stats: dict = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class LayerReport:
    """One finished layer: what the progress display shows."""

    depth: int
    size: int  # states first reached at this depth
    states: int  # states reached so far
    seconds: float


#: A forward search: (instance, horizon, limits, state budget, prune, progress) -> Outcome.
Forward = Callable[[Instance, "int | None", Limits, "int | None", bool, Any], Outcome]


def unique(words: np.ndarray) -> np.ndarray:
    """Sorted distinct words (a sort: numpy's hashing ``unique`` is slower on uint64)."""
    if words.size == 0:
        return words
    words = np.sort(words)
    keep = np.empty(words.size, dtype=bool)
    keep[0] = True
    np.not_equal(words[1:], words[:-1], out=keep[1:])
    return words[keep]


def member(sorted_arr: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Which ``values`` occur in the sorted array ``sorted_arr``."""
    if sorted_arr.size == 0:
        return np.zeros(values.shape, dtype=bool)
    idx = np.minimum(np.searchsorted(sorted_arr, values), sorted_arr.size - 1)
    return sorted_arr[idx] == values


def found_moves(moves: list | None) -> list:
    """The moves of a search that met the goal (the search always records them)."""
    if moves is None:
        raise InternalError("the search found the goal but kept no moves")
    return moves


def exhausted(instance: Instance, states: int, prune: bool, scope: str) -> Evidence:
    """The certificate summary of a forward search that ran out of states."""
    return Evidence(
        "exhaustive-search",
        scope,
        window=instance.board.window,
        states=states,
        side="forward",
        pruning="span" if prune else "none",
    )


def counts(out: Outcome) -> dict[str, int | None]:
    """The :class:`~coinsat.result.Statistics` counts of one search."""
    pruned = [out.stats[k] for k in ("pruned", "bound_pruned") if out.stats.get(k) is not None]
    return {
        "states": out.states,
        "expanded": out.stats.get("expanded"),
        "pruned": sum(pruned) if pruned else None,
        "layers": out.depth,
    }


def fixed_result(
    instance: Instance,
    out: Outcome,
    max_moves: int | None,
    limits: Limits,
    prune: bool,
    method: str,
    engine: Engine,
) -> Result:
    """The answer of one search of the instance's window, as given.  Its layers are the
    result's ``witness``: a layers certificate reuses them instead of searching again."""
    stats = dict(out.stats, states=out.states)
    if out.reason:
        stats["stopped"] = out.reason
    radius = exact_horizon(instance)  # None: exact for every horizon

    def result(status, solution=None, lb=None, certificate=None) -> Result:
        layers = SearchLayers(out.layers)
        return Result.measured(
            engine, limits, stats, status, solution, lb, certificate, method=method, witness=layers, **counts(out)
        )

    if out.kind == Ending.FOUND:
        solution = certify_solution(instance, Solution.of(found_moves(out.moves)), method)
        status, lb, window_optimal = found_in_window(len(solution), radius)
        if window_optimal:
            stats["window_optimal"] = True
        return result(status, solution, lb)
    if out.kind == Ending.EMPTY:
        if stats.get("upper_bound") is not None:  # bound-and-prune ran out: no solution with <= U moves
            U = stats["upper_bound"]
            return result(Status.BOUNDED, lb=U + 1, certificate=Evidence("exhaustive-search", "horizon", horizon=U))
        cert = exhausted(instance, out.states, prune, "global" if radius is None else "window")
        return result(Status.UNSOLVABLE, lb=None if radius is None else radius + 1, certificate=cert)
    if out.kind == Ending.HORIZON and max_moves is not None and exact_for(instance, max_moves):
        return result(
            Status.BOUNDED, lb=max_moves + 1, certificate=Evidence("exhaustive-search", "horizon", horizon=max_moves)
        )
    # a limit: every path of <= depth moves was enumerated
    depth_done = out.depth
    return result(Status.UNKNOWN, lb=depth_done + 1 if radius is None else min(depth_done, radius) + 1)


@dataclass
class Layered:
    """A layered search as the growth loop's :class:`~coinsat.search.grown.Search`: ``forward``
    run on each window, the counts of every round added up in ``done``."""

    instance: Instance
    forward: Forward
    limits: Limits
    max_states: int
    prune: bool
    progress: Any
    method: str
    engine: Engine
    done: dict = field(default_factory=lambda: {"states": 0, "expanded": 0, "pruned": 0, "layers": 0})
    bounded_by = "exhaustive-search"

    def run(self, window: Instance, horizon: int, states: int | None) -> WindowAnswer:
        """Round ``horizon`` of the growth: the forward search of ``window`` to depth ``horizon``."""
        prune = self.prune
        out = self.forward(window, horizon, self.limits, states, prune, self.progress)
        for k, v in counts(out).items():
            self.done[k] += v or 0
        if out.kind == Ending.FOUND:
            solution = certify_solution(window, Solution.of(found_moves(out.moves)), self.method)
            return WindowAnswer(Proved.FOUND, len(solution) - 1, solution, states=out.states)
        # Lemma G3: an empty layer is global on an exact window (the span pruning is global
        # there), and without pruning on a window exact for one move beyond the last layer
        if out.kind == Ending.EMPTY and (window.board.exact or (not prune and exact_for(window, out.depth + 1))):
            cert = exhausted(window, out.states, prune, "global")
            return WindowAnswer(Proved.CLOSED, horizon, certificate=cert, states=out.states)
        if out.kind == Ending.LIMIT:
            return WindowAnswer(Proved.STOPPED, out.depth, reason=out.reason, states=out.states)
        return WindowAnswer(Proved.NONE, horizon, states=out.states)

    def inside(self) -> Solution | None:
        """The search of the instance's own window, unbounded (its shortest solution there)."""
        with enforced(self.limits):
            out = self.forward(self.instance, None, self.limits, self.max_states, self.prune, None)
        return fixed_result(self.instance, out, None, self.limits, self.prune, self.method, self.engine).solution


def grown(
    instance: Instance,
    max_moves: int | None,
    limits: Limits,
    max_states: int,
    prune: bool,
    progress,
    forward: Forward,
    method: str,
    engine: Engine,
    max_cells: int,
) -> Result:
    """The window grows until it is exact for each horizon (search/grown.py), within
    ``max_cells`` cells; ``forward`` is the layered search run in each window."""
    search = Layered(instance, forward, limits, max_states, prune, progress, method, engine)
    g = grow(instance, search, limits, max_moves=max_moves, max_states=max_states, max_cells=max_cells)
    a = g.answer()
    stats = dict(g.stats(), pruning=prune)
    return Result.measured(
        engine,
        limits,
        stats,
        a.status,
        a.solution,
        a.lower_bound,
        a.certificate,
        method=method,
        witness=SearchLayers(),
        **search.done,
    )
