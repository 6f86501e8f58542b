"""Exact explicit-state oracle: bidirectional breadth-first search on bitmasks.

A state is a tuple of occupancy bitmasks, one per colour class.  Successors
and predecessors come from the kernels of rules.py (the single move
validator).  The search expands, level by level, whichever side has the
smaller frontier; the first level that meets the other side gives an optimal
solution (every meeting found while completing the level has the same total
length, because the two explored balls were disjoint before it).

**Exact windows** (square grid with d >= 2, graph boards; and any window with
``grow=False``): one search of the instance's window.

* ``optimal`` when a solution is found and the window is exact up to its
  length minus one (``bounds.exact_for``); otherwise ``feasible`` with the
  lower bound that the window does prove;
* ``unsolvable`` when one side is exhausted: scope ``global`` on an exact
  window (square grid: span(start), by Lemma "span monotone"; graph boards),
  scope ``window`` otherwise — then it means "no solution that stays inside
  the window", and ``lower_bound`` is only what the window proves globally;
* ``bounded`` when ``max_moves`` is reached and the window is exact for that
  horizon; ``unknown`` when it is not, and on a time, memory or state limit.

**Inexact windows** (triangular grid, square grid with d = 1): the window grows
until it is exact for the horizon searched (``search/grown.py``: round H
searches the smallest window holding the lattice layer R_H, to total depth H).
Every answer is then global: ``optimal``, ``bounded`` at ``max_moves``,
``unsolvable`` from the screens or from a forward side that runs out inside a
window holding R_{f+1} (the set of every reachable configuration), and
``unknown``/``feasible`` with the proven lower bound when a limit (time, memory,
the state budget shared by all rounds, the window cap) stops the growth.

In a round at horizon H the backward side is pruned by the same lemma: a
configuration k moves before the end of a solution with <= H moves lies in
R_{H-k}, so a backward state at depth k outside R_{H-k} is dropped.  Every
state of a shortest solution of length L <= H survives (C_{L-k} lies in
R_{L-k}, inside R_{H-k}), so the first meeting still gives the optimum, and a
level pair (f, b) with f + b = H and no meeting still proves "none with <= H
moves"; a pruned backward side that runs out proves only that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..errors import InternalError, LimitReached
from ..instance import Instance
from ..limits import Limits, enforced
from ..result import Engine, Evidence, Result, Status
from ..rules import predecessors, successors
from ..solution import Solution, certify_solution
from ..theory.reach import exact_for, layer_steps
from .grown import Proved, WindowAnswer, found_in_window, grow
from .methods import contract
from .options import BfsOptions
from .windows import exact_horizon, fits

#: states expanded between two polls of the time and memory limits
POLL = 256


@dataclass(frozen=True)
class _Outcome:
    """How one bidirectional search ended.  ``explored`` = f + b: no solution with
    <= explored moves inside the window (for a meeting: its length minus one)."""

    kind: str  # meet | forward | backward (that side ran out) | horizon | limit
    explored: int
    forward_depth: int
    states: int
    moves: list | None = None
    reason: str | None = None
    expanded: int = 0


@contract(BfsOptions)
def solve_bfs(instance: Instance, *, limits: Limits, max_moves: int | None, options: BfsOptions) -> Result:
    """Shortest solution by bidirectional BFS (module docstring; options: ``BfsOptions``)."""
    if options.grow and instance.board.is_lattice and not instance.board.exact:
        return _grown(instance, max_moves, limits, options.max_states)
    return _fixed(instance, max_moves, limits, options.max_states)


def _result(limits: Limits, stats: dict, counts: dict):
    """The result maker of one run: ``result(status, solution, lb, certificate)``."""

    def result(status, solution=None, lb=None, certificate=None) -> Result:
        return Result.measured(Engine.BFS, limits, stats, status, solution, lb, certificate, **counts)

    return result


# --- one window, as given -----------------------------------------------------------------------


def _fixed(instance: Instance, max_moves: int | None, limits: Limits, max_states: int) -> Result:
    with enforced(limits):
        out = _search(instance, max_moves, limits, max_states)
    stats: dict[str, Any] = {
        "states": out.states,
        "forward_depth": out.forward_depth,
        "backward_depth": out.explored - out.forward_depth,
    }
    if out.reason:
        stats["stopped"] = out.reason
    result = _result(limits, stats, {"states": out.states, "expanded": out.expanded, "layers": out.explored})
    radius = exact_horizon(instance)  # None: exact for every horizon
    if out.kind == "meet":
        solution = certify_solution(instance, Solution.of(_found_moves(out.moves)), "bfs")
        status, lb, window_optimal = found_in_window(len(solution), radius)
        if window_optimal:
            stats["window_optimal"] = True  # optimal among solutions that stay in the window
        return result(status, solution, lb)
    proven = out.explored if radius is None else min(out.explored, radius)
    if out.kind in ("forward", "backward"):
        scope = "global" if radius is None else "window"
        cert = Evidence("exhaustive-search", scope, window=instance.board.window, states=out.states, side=out.kind)
        return result(Status.UNSOLVABLE, lb=None if radius is None else radius + 1, certificate=cert)
    if out.kind == "horizon" and max_moves is not None and exact_for(instance, max_moves):
        cert = Evidence("exhaustive-search", "horizon", horizon=max_moves)
        return result(Status.BOUNDED, lb=max_moves + 1, certificate=cert)
    # a limit, or "none within max_moves" inside a window not exact for it: not a bounded answer
    return result(Status.UNKNOWN, lb=proven + 1)


# --- a window grown to each horizon -------------------------------------------------------------


def _grown(instance: Instance, max_moves: int | None, limits: Limits, max_states: int) -> Result:
    g = grow(instance, _Windows(instance, limits, max_states), limits, max_moves=max_moves, max_states=max_states)
    counts = {"states": sum(r["states"] for r in g.rounds), "layers": len(g.rounds)}
    result, a = _result(limits, g.stats(), counts), g.answer()
    return result(a.status, a.solution, a.lower_bound, a.certificate)


@dataclass(frozen=True)
class _Windows:
    """The bidirectional search as the growth loop's :class:`~coinsat.search.grown.Search`."""

    original: Instance
    limits: Limits
    max_states: int
    bounded_by = "exhaustive-search"

    def run(self, window: Instance, horizon: int, states: int | None) -> WindowAnswer:
        """Round ``horizon`` of the growth: search ``window`` (exact for it) to total depth ``horizon``."""
        H = horizon  # the round's horizon, as in the module docstring
        allowed = None if window.board.exact else _allowed(window, H)
        out = _search(window, H, self.limits, states, allowed, fits(self.original, window))
        if out.kind == "meet":
            solution = certify_solution(window, Solution.of(_found_moves(out.moves)), "bfs")
            return WindowAnswer(Proved.FOUND, len(solution) - 1, solution, states=out.states)
        # Lemma G3: a forward side that ran out inside R_{f+1} enumerated every configuration
        # reachable on the lattice; a backward side proves that only on an exact window, unpruned
        if (out.kind == "forward" and exact_for(window, out.forward_depth + 1)) or (
            out.kind == "backward" and allowed is None
        ):
            w = window.board.window
            cert = Evidence("exhaustive-search", "global", window=w, states=out.states, side=out.kind)
            return WindowAnswer(Proved.CLOSED, H, certificate=cert, states=out.states)
        if out.kind == "limit":
            return WindowAnswer(Proved.STOPPED, out.explored, reason=out.reason, states=out.states)
        return WindowAnswer(Proved.NONE, H, states=out.states)  # horizon reached, or a side ran out

    def inside(self) -> Solution | None:
        """One search of the instance's own window (its shortest solution there)."""
        return _fixed(self.original, None, self.limits, self.max_states).solution


def _allowed(work: Instance, H: int) -> list[int]:
    """``allowed[k]``: the cells of R_{H-k} as a bitmask (backward pruning, module docstring)."""
    step = layer_steps(work.board.neighbours, work.start.cells, work.d)
    out = []
    for k in range(H + 1):
        out.append(sum(1 << c for c, s in enumerate(step) if s is not None and s <= H - k))
    return out


# --- the search ----------------------------------------------------------------------------------


def _search(
    instance: Instance,
    horizon: int | None,
    limits: Limits,
    max_states: int | None,
    allowed: Sequence[int] | None = None,
    prefer: Callable[[list], bool] | None = None,
) -> _Outcome:
    """Bidirectional BFS to total depth ``horizon`` (None: until a side runs out).

    ``allowed[k]`` (optional) is the mask of cells a backward state at depth k may
    occupy; ``prefer(moves)`` picks, among the meetings of the last level, one whose
    path it accepts (when there is one)."""
    labels = instance.labels
    board, d, model = instance.board, instance.d, instance.moves
    start = instance.start.masks(labels)
    goals = {g.masks(labels) for g in instance.goal_configurations}
    if allowed is not None:
        goals = {g for g in goals if _inside(g, allowed[0])}
    fwd: dict = {start: None}  # state -> (previous state, move)
    bwd: dict = {g: None for g in goals}  # state -> (next state, move)
    f_front, b_front = [start], list(goals)
    f_depth = b_depth = 0
    expanded = polled = 0

    def end(kind, moves=None, reason=None) -> _Outcome:
        return _Outcome(kind, f_depth + b_depth, f_depth, len(fwd) + len(bwd), moves, reason, expanded + polled)

    if start in bwd:
        return end("meet", [])
    try:
        while True:
            if not f_front:
                return end("forward")
            if not b_front:
                return end("backward")
            if horizon is not None and f_depth + b_depth >= horizon:
                return end("horizon")
            reason = limits.exceeded()
            if reason:
                return end("limit", reason=reason)
            forward = len(f_front) <= len(b_front)
            expand = successors if forward else predecessors
            seen, other = (fwd, bwd) if forward else (bwd, fwd)
            mask = None if forward or allowed is None else allowed[b_depth + 1]
            nxt, meets = [], []
            for state in f_front if forward else b_front:
                for move, new in expand(board, d, state, model):
                    if new in seen or (mask is not None and not _inside(new, mask)):
                        continue
                    seen[new] = (state, move)
                    nxt.append(new)
                    if new in other:
                        meets.append(new)
                polled += 1
                if polled >= POLL:
                    expanded += polled
                    polled = 0
                    reason = limits.exceeded()
                    if reason is None and max_states is not None and len(fwd) + len(bwd) > max_states:
                        reason = "state limit"
                    if reason:
                        return end("limit", reason=reason)
            if forward:
                f_front, f_depth = nxt, f_depth + 1
            else:
                b_front, b_depth = nxt, b_depth + 1
            if meets:
                paths = (_path(fwd, bwd, m) for m in meets[:64])
                chosen = None if prefer is None else next((p for p in paths if prefer(p)), None)
                return end("meet", chosen if chosen is not None else _path(fwd, bwd, meets[0]))
    except LimitReached as e:  # the ambient budget (limits.poll) or its watchdog
        return end("limit", reason=str(e))
    except KeyboardInterrupt:
        return end("limit", reason="interrupted")


def _inside(state: tuple, mask: int) -> bool:
    return not any(m & ~mask for m in state)


def _found_moves(moves: list | None) -> list:
    """The moves of a search that met the goal (the search always records them)."""
    if moves is None:
        raise InternalError("the search found the goal but kept no moves")
    return moves


def _path(fwd: dict, bwd: dict, meet) -> list:
    head = []
    state = meet
    while fwd[state] is not None:
        prev, move = fwd[state]
        head.append(move)
        state = prev
    head.reverse()
    state = meet
    while bwd[state] is not None:
        nxt, move = bwd[state]
        head.append(move)
        state = nxt
    return head
