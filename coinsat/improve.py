"""The front door of the local optimiser: :func:`improve` a verified solution (``coinsat improve``).

The rewrites and the climb are ``coinsat/search/improve.py``'s (its module docstring says what
each does); this module takes what a user gives (a solution to replay, the stretch lengths, a
checkpoint file) and hands the search its options, the static lower bound and the callbacks.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

from .errors import IllegalMoveError, UsageError
from .instance import Instance
from .limits import Limits, enforced
from .result import Result, Status
from .search.improve import ImproveOptions, Step, static_bound
from .solution import Solution, verify

__all__ = ["ImproveOptions", "Step", "improve", "improve_options"]


def improve_options(
    *,
    stretch_time: float | None = None,
    stretches: Sequence[int] | None = None,
    max_stretch: int | None = None,
    local_only: bool = False,
) -> ImproveOptions:
    """The optimiser's options from what ``coinsat improve`` takes (None: the default).

    ``stretches`` replaces the ladder of stretch lengths (sorted, repeats dropped), ``max_stretch``
    caps it, ``local_only`` gives the local passes all the time (no search of the whole
    solution's window).  UsageError for a time <= 0, a stretch shorter than 2 moves, or a cap
    below every stretch."""
    options = ImproveOptions()
    if stretch_time is not None:
        if not stretch_time > 0:
            raise UsageError(f"the time per stretch must be > 0, not {stretch_time}")
        options = replace(options, stretch_time=stretch_time)
    if stretches is not None:
        lengths = sorted(set(stretches))
        if not lengths or lengths[0] < 2:
            raise UsageError(f"a stretch has >= 2 moves, not {lengths[0] if lengths else 'none'}")
        options = replace(options, lengths=tuple(lengths))
    if max_stretch is not None:
        capped = tuple(n for n in options.lengths if n <= max_stretch)
        if not capped:
            raise UsageError(f"the longest stretch must be >= {min(options.lengths)}, not {max_stretch}")
        options = replace(options, lengths=capped)
    if local_only:  # the local passes get all the time; the whole window is never searched
        options = replace(options, climb=False, probe_share=0.0, local_share=1.0, final_time=0.0)
    return options


def improve(
    instance: Instance,
    solution: Solution,
    *,
    time_limit: float | None = None,
    memory_limit: int | None = None,
    limits: Limits | None = None,
    options: ImproveOptions | None = None,
    lower_bound: int = 0,
    checkpoint: str | Path | None = None,
    on_step: Callable[[Solution, Step], None] | None = None,
    on_bound: Callable[[int, float], None] | None = None,
    on_search: Callable[[int, float], None] | None = None,
) -> Result:
    """Shorten a verified solution: an anytime local optimiser around the exact engines.

    Rewrites, cheapest first: repeats and one-move shortcuts, exchanges (lemma P4), stretches
    re-solved on a small local board, then the whole solution on span(start), climbing from the
    lower bound on an exact window (``coinsat/search/improve.py``).  Every shorter solution is
    replayed by ``rules.py``.

    Parameters
    ----------
    instance : Instance
        The puzzle.
    solution : Solution
        A solution of it (replayed first).
    time_limit, memory_limit : optional
        Seconds and bytes for the whole call; without a time limit it runs until no rewrite helps.
    limits : Limits, optional
        The same budget as one object (its remaining time is used).
    options : ImproveOptions, optional
        How hard it tries (:func:`improve_options` builds them from the command's flags).
    lower_bound : int
        A lower bound for every solution known from elsewhere (the static bound of
        ``theory.reach`` is always used too).
    checkpoint : str or Path, optional
        Rewrite this file (atomically; a solution object, ``verify`` reads it) with every
        shorter solution, so that a run that is stopped keeps its best one.
    on_step : callable, optional
        Called with every shorter solution (replayed) and its :class:`Step`.
    on_bound, on_search : callable, optional
        Called with every larger lower bound proven for all solutions, and with the bound U of
        every climb step as it starts (each with the seconds since the start).

    Returns
    -------
    Result
        ``feasible`` with the shortest solution found and the best lower bound known (the
        static bound of ``theory.reach``, or what the exact engine proved on span(start)), or
        ``optimal`` when the two meet.  A limit or Ctrl-C is an answer: the best solution so
        far, with ``stats["stopped"]`` saying why.

    Raises
    ------
    IllegalMoveError
        When ``solution`` does not replay from the start to a goal placement.
    UsageError
        For impossible limits or options.
    """
    from .io.atomic import write_atomic
    from .io.solution_format import result_to_json

    if limits is not None and (time_limit is not None or memory_limit is not None):
        raise UsageError("give either limits or time_limit/memory_limit, not both")
    budget = limits or Limits(time_limit, memory_limit)
    with enforced(budget):
        verdict = verify(instance, solution, keep_trace=False)
        if not verdict.ok:
            move = solution.moves[verdict.step - 1] if verdict.step else None
            raise IllegalMoveError(verdict.step, move, verdict.reason)
        bound = max(lower_bound, static_bound(instance))
    # the search polls its own limits between steps and keeps its best solution when they are
    # spent; the ambient watchdog that bounds the loading above would stop it with nothing

    def step(better: Solution, s: Step) -> None:
        if checkpoint is not None:
            lower = min(bound, len(better))
            obj = result_to_json(
                instance, Result(status=Status.FEASIBLE, method="improve", solution=better, lower_bound=lower)
            )
            write_atomic(checkpoint, json.dumps(obj, indent=1) + "\n")
        if on_step is not None:
            on_step(better, s)

    from .search.improve import improve as search

    return search(
        instance,
        solution,
        time_limit=budget.remaining(),
        memory_limit=budget.memory_limit,
        lower_bound=bound,
        options=options,
        on_step=step,
        on_bound=on_bound,
        on_search=on_search,
    )
