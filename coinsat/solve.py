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
(method ``auto``) carries out the default's plan (``search/plan.py``).
"""

from __future__ import annotations

import time
from dataclasses import replace

from .certificates.prove.screens import screen
from .errors import ConstructionError, LimitReached, UsageError
from .instance import Instance
from .limits import Limits, enforced
from .result import Result, SearchLayers, Statistics, Status
from .search.methods import METHODS, contract, get_method, spec
from .search.options import AutoOptions, RankbfsOptions
from .search.plan import FROM_BELOW_STEP, Plan, below, bound_pass, choose, from_below, idle_cores, with_bound
from .solution import Solution, certify_solution
from .theory.reach import distance_bound, fill_count_bound

__all__ = ["METHODS", "climb", "find_bound", "idle_cores", "solve", "solve_auto"]


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


@contract(AutoOptions)
def solve_auto(instance: Instance, *, limits: Limits, max_moves: int | None, options: AutoOptions) -> Result:
    """Carry out the default's plan (``search/plan.py``: the engine, and on the puzzles where the
    ranked search is the engine, the bound and the h it prunes with).

    The plan is made first: :func:`~coinsat.search.plan.choose` picks the engine; when it wants a
    bound, either the bound from below (:func:`~coinsat.search.plan.from_below`: the LM-cut h's
    puzzles; :func:`find_bound` with the brief pass makes the solution that caps U, then
    :func:`climb`) or :func:`find_bound` constructs a solution and shortens it into U, and
    :func:`~coinsat.search.plan.with_bound` picks the h.  ``options.announce(plan)`` hears it before
    the search starts, and the result's ``stats["plan"]`` keeps it (``solve --json``: ``"plan"``).
    The engine's answer is the answer: a bound U is the length of a verified solution, so the
    bounded search meets the goal at the optimum (``search/rank/search.py``, bound-and-prune).
    Only when a limit stops it (``unknown``) does the solution found for U become the answer:
    ``feasible``, with the lower bound the search proved (``optimal`` if that is U).  With
    ``max_moves`` N the bound is N itself (a solution with <= N moves is what is asked for; the
    search answers ``bounded`` when there is none, ``optimal`` with the one it meets) and nothing is
    constructed.
    """
    plan = choose(instance)
    known: Solution | None = None
    if plan.wants_bound and max_moves is not None:  # the horizon is a bound (rankbfs: --max-moves with an h)
        plan = with_bound(plan, instance, max_moves, "--max-moves")
    elif plan.wants_bound and from_below(instance, _v_member(instance)):
        known, found = find_bound(instance, limits, brief=True)
        if known is None:  # no cap (no construction applies): the search runs unbounded, as before the plan
            plan = with_bound(plan, instance, None, found)
        else:
            plan = below(plan, instance, len(known), found)
            if options.announce is not None:
                options.announce(plan)
            return climb(instance, plan, known, limits, options)
    elif plan.wants_bound:
        known, found = find_bound(instance, limits)
        plan = with_bound(plan, instance, None if known is None else len(known), found)
    if options.announce is not None:
        options.announce(plan)
    result = get_method(plan.engine)(instance, limits=limits, max_moves=max_moves, options=plan.options(options))
    stats = {**result.stats, "plan": plan.to_json()}
    method = f"auto:{result.method}"
    if result.status is Status.UNKNOWN and known is not None:  # stopped: the bound's solution is the answer
        return _stopped(result, known, result.lower_bound or 0, method, stats)
    return replace(result, method=method, stats=stats)


def _v_member(instance: Instance) -> bool:
    """The V-to-diagonal schedule recognises the puzzle (a V member or a diagonal flip;
    ``constructive/vschedule.py``, milliseconds): the family the plan's first U was fitted on."""
    from .constructive import construct

    try:
        construct(instance, "vschedule")
    except (ConstructionError, UsageError):
        return False
    return True


def climb(instance: Instance, plan: Plan, known: Solution | None, limits: Limits, o: AutoOptions) -> Result:
    """The bound from below (``search/plan.py``): bounded ranked searches with the plan's h, the
    first with U = ``plan.upper_bound``; while one answers "no solution within U" (``bounded``),
    the least depth + h among the states it pruned (``stats["least_pruned_f"]``,
    ``search/rank/loop.py``) is a lower bound (Lemma LF, docs/from-below.md), and the next search
    has U = that bound, or U + ``plan.FROM_BELOW_STEP`` when that is more (Theorem CL: the first
    search that meets the goal meets it at the optimum, whatever U).  ``known`` (a verified
    solution, or None) caps U: once the lower bound reaches its length it is optimal (proven by the
    last search when that length is U + 1), and a U past it is replaced by its length.  With
    ``o.reuse`` (and one worker) each search after the first gets the one before's keep decisions
    (``search/rank/space.Kept``): a state that search kept in its layer i, met new at depth t with
    U_before - i <= U - t, is kept without its h computed (Lemma KR, docs/from-below.md: the same
    decision, so the same layers and certificates).  The answer is the last search's:
    ``optimal`` when it meets the goal (at the optimum: bound-and-prune), else, stopped by a limit,
    ``unknown`` with the best lower bound of all the searches (``feasible`` / ``optimal`` with
    ``known``, as :func:`solve_auto`).  ``stats["plan"]["searches"]`` lists each search: U, its
    answer, the least pruned f, the states it kept and the CPU seconds it took; the statistics'
    ``states`` and ``expanded`` are summed over the searches; each search's ``trusted`` counts the
    states it kept on the decisions of the search before (None: no reuse)."""
    from .search.rank.space import Kept  # numpy: not loaded with the package

    U = plan.upper_bound
    assert U is not None
    cap = None if known is None else len(known)
    searches: list[dict] = []
    lower = 0
    total = {"states": 0, "expanded": 0}
    options = replace(plan, upper_bound=U).options(o)
    while True:
        t0 = time.process_time()
        result = get_method("rankbfs")(instance, limits=limits, options=options)
        del options
        least = result.stats.get("least_pruned_f")
        s = result.statistics
        total["states"] += s.states or 0
        total["expanded"] += s.expanded or 0
        searches.append(
            {
                "upper_bound": U,
                "status": result.status.value,
                "least_pruned_f": least,
                "states": s.states,
                "cpu_seconds": round(time.process_time() - t0, 3),
                "trusted": (result.stats.get("kept_before") or {}).get("trusted"),
            }
        )
        stats = {**result.stats, "plan": {**plan.to_json(), "searches": searches}}
        statistics = replace(result.statistics, **total)
        method = f"auto:{result.method}"
        if result.status is not Status.BOUNDED:  # found (optimal), or stopped, or the engine's own answer
            if result.status is Status.UNKNOWN:
                lb = max(lower, result.lower_bound or 0)
                if known is not None:
                    return _stopped(result, known, lb, method, stats, statistics)
                return replace(result, lower_bound=lb, method=method, stats=stats, statistics=statistics)
            return replace(result, method=method, stats=stats, statistics=statistics)
        # no solution with <= U moves; none shorter than the least pruned f either (Lemma LF)
        lower = U + 1 if least is None else max(U + 1, least)
        # nothing pruned: the search was exhaustive, the bound played no part; else the next U is
        # the lower bound, or FROM_BELOW_STEP past U when that is more (plan.py: an overshoot costs
        # less than the searches it saves; the answer is exact either way, Theorem CL)
        nxt = None if least is None else max(lower, U + FROM_BELOW_STEP)
        if cap is not None and (nxt is None or nxt >= cap):
            if lower >= cap and cap == U + 1:  # the last search proves "none within U"; ``known`` has U + 1 moves
                assert known is not None
                return _stopped(result, known, cap, method, stats, statistics)  # optimal: the bound is its length
            nxt = cap  # searched with U = cap: it meets the goal at the optimum, cap or less
        if nxt is None:  # no cap and nothing pruned: the plain search decides (unsolvable in the window)
            plain = replace(plan, upper_bound=None, heuristic=None)
            result = get_method("rankbfs")(instance, limits=limits, options=plain.options(o))
            return replace(result, method=f"auto:{result.method}", stats={**result.stats, "plan": stats["plan"]})
        U = nxt
        options = replace(plan, upper_bound=U).options(o)
        before = result.witness.layers if isinstance(result.witness, SearchLayers) else None
        if before is not None and o.reuse and isinstance(options, RankbfsOptions) and _reusable(before, options):
            try:
                options = replace(options, kept=Kept.of(before, instance))
            except (LimitReached, KeyboardInterrupt) as e:  # between two searches: what is proven stands
                why = "interrupted" if isinstance(e, KeyboardInterrupt) else str(e)
                stopped = replace(result, status=Status.UNKNOWN, lower_bound=lower, method=method)
                stopped = replace(stopped, stats={**stats, "stopped": why}, statistics=statistics)
                return stopped if known is None else _stopped(stopped, known, lower, method, stopped.stats, statistics)
        del result, before  # the layers are freed as the next search grows its own


def _reusable(layers, options: RankbfsOptions) -> bool:
    """Whether the next search of the climb gets the keep decisions of the one before (Lemma KR):
    one worker (worker processes build their own spaces), and the layers held in memory (read back
    from disk, the table would cost the memory the spill saved)."""
    return options.workers == 1 and not getattr(layers, "spilled", 0)


def _stopped(
    result: Result, known: Solution, lower: int, method: str, stats: dict, statistics: Statistics | None = None
) -> Result:
    """A search stopped by a limit (``unknown``, ``lower`` proven), or the climb's last search when
    ``lower`` reaches the cap: the verified solution ``known`` is the answer, ``feasible``
    (``optimal`` if ``lower`` reaches its length)."""
    lower = min(lower, len(known))
    status = Status.OPTIMAL if lower == len(known) else Status.FEASIBLE
    return replace(
        result,
        status=status,
        solution=known,
        lower_bound=lower,
        method=method,
        stats=stats,
        statistics=statistics or result.statistics,
    )


def find_bound(instance: Instance, limits: Limits | None = None, brief: bool = False) -> tuple[Solution | None, str]:
    """A verified solution of ``instance`` to bound the search with, and how it was found: the
    shortest of the constructive algorithms' (the instance's board's, and the V-to-diagonal
    schedule where it applies), shortened by the improve pass the plan names (``plan.bound_pass``;
    ``brief``: the brief pass; within half the time ``limits`` leave).  (None, why) when no
    construction applies."""
    from .constructive import construct
    from .search.improve import improve

    t0 = time.process_time()
    best: tuple[Instance, Solution, str] | None = None  # the instance its moves are on, its moves, the algorithm
    why = "construct gave no solution"
    for algorithm in ("auto", "vschedule"):
        try:
            built_, made = construct(instance, algorithm)
        except (ConstructionError, UsageError) as e:  # not this algorithm's puzzle
            why = f"construct: {e}" if why == "construct gave no solution" else why
            continue
        if made.solution is not None and (best is None or len(made.solution) < len(best[1])):
            best = (built_, made.solution, algorithm)
    if best is None:
        return None, why
    built, first, name = best
    left = None if limits is None else limits.remaining()
    seconds = None if left is None else left / 2
    options, how = bound_pass(instance, brief)
    better = improve(built, first, time_limit=seconds, options=options)
    if better.stats.get("stopped") == "interrupted":  # Ctrl-C: the command's, not the pass's
        raise KeyboardInterrupt
    solution = _restated(instance, built, better.solution or first)
    if solution is None:  # cannot happen on an exact window (every move stays in span(start))
        return None, "the improved solution leaves the window"
    cpu = time.process_time() - t0
    label = "construct" if name == "auto" else f"construct ({name})"
    return solution, f"{label} {len(first)}, {how}: {len(solution)} moves, {cpu:.1f} CPU s"


def _restated(instance: Instance, built: Instance, solution: Solution) -> Solution | None:
    """``solution`` (of ``built``, the same puzzle on a window that may be wider) on the cells of
    ``instance``, replayed by the move validator; None when a move leaves ``instance``'s window."""
    if built is not instance:
        coords, board = built.board.coords, instance.board
        if not all(board.has(coords[c]) for m in solution.moves for c in m):
            return None
        solution = Solution.of((board.cell(coords[s]), board.cell(coords[p])) for s, p in solution.moves)
    return certify_solution(instance, solution, "auto (bound)")
