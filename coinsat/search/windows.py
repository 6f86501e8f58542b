"""Growing a lattice window until it is exact for the horizon an explicit engine proves.

The explicit engines (``bfs``, ``spanbfs``, ``ilp``) search one finite board.
On an *exact* window (square grid with d >= 2: span(start); graph boards) every
answer is global and nothing here is used.  On an inexact window (triangular
grid, square grid with d = 1) a "no" found in the window is global only up to
the horizons the window is exact for, and the instance's default window
(hull of start and goal + margin) is usually exact for a few moves only.  This
module is the loop that lets those engines answer globally anyway, as the SAT
driver does (``search/driver.py``, ``widen``).

**Why a window exact for T suffices (Lemma W, encodings/sat.md).**  Let R_0 be
the start's cells and R_{t+1} = R_t plus every lattice cell with >= d
neighbours in R_t.  The cell filled by move t has d coin neighbours that were
already occupied in C_{t-1}, so by induction every coin of C_t lies in R_t.
A solution with <= T moves therefore never occupies a cell outside R_T, and it
ends on a goal placement inside R_T: it is a solution of the puzzle on any
window W containing R_T (``theory.reach.exact_for``; the layers themselves are
``theory.reach.LatticeLayers``).  So, on such a W,

* an explicit search that has enumerated every configuration reachable within
  k <= T moves (forward) and every one within T - k moves of a goal placement
  (backward), with no meeting, proves "no solution with <= T moves" globally;
* a shortest solution found in W with n <= T moves is a shortest one on the
  whole lattice (a shorter one would lie in W too);
* a forward search that runs out of new configurations at depth f, with
  R_{f+1} inside W, has found the set of *all* configurations reachable on the
  lattice (every move from depth <= f lands in R_{f+1}): no goal in it means
  ``unsolvable`` with global scope.  A backward search that runs out proves
  nothing beyond T (on the lattice a coin can always have come from farther
  away), and neither does a pruned search: both only give "none with <= T".

**The loop (``grow``).**  ``none_upto`` is what is proven globally ("no
solution with <= none_upto moves"); the next horizon is H = none_upto + 1
(``geometric``: at least twice the last one).  Each round builds the smallest
window exact for H (``window_for``: the lattice layer R_H plus the goal's cells;
the instance's own window when it is already exact for H), first tries the
cheap lower bound of theory/reach.py on it (on a window exact for H, "every
solution in the window needs >= L moves" gives min(L, H + 1) globally, so a
bound above H skips the search), and otherwise runs the engine at horizon H
there.  It stops at a solution, a global ``unsolvable``, ``max_moves``, or a
limit: time or memory (``coinsat.limits.Limits``), the engine's state budget
(shared by all rounds), or a window over ``max_cells`` cells — an engine-side
limit, answered ``unknown`` with the proven bound, never bad input.  Restarting
each round costs a constant factor: the work of a round grows about
geometrically with H (bfs on pyramid-to-line: 0.02, 0.13, 0.69 and 2.7 s for
H = 4..7), so the earlier rounds add about a third.  Before the first round Theorem 1 (``theory/triangular.py``,
the exact decider of every triangular d = 2 puzzle, which the screens of
``methods.solve`` also use) may answer ``unsolvable``: no finite window proves
that on the triangular grid, so the growth could only end at a limit there.
A start without any legal move needs no theorem: its forward side runs out at
depth 0 inside a window holding R_1.

A solution found in a grown window is mapped back to the instance's cells; one
that leaves the instance's window cannot be expressed (a ``Result`` names
board cells), so the engine then searches the instance's own window for the
shortest solution that stays inside it (``optimal`` if its length is the proven
bound, else ``feasible`` with that bound) — the SAT driver's fallback.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable

from .._names import Name
from ..board import MAX_WINDOW_CELLS, lattice_board
from ..configuration import Configuration
from ..errors import LimitReached
from ..instance import Instance
from ..limits import Limits, enforced
from ..result import Evidence, Result, Status
from ..solution import Solution, certify_solution
from ..theory.reach import LatticeLayers as Layers
from ..theory.reach import distance_bound, exact_for, lower_bound


def exact_horizon(instance: Instance, limit: int = 10_000) -> int | None:
    """The largest T (at most ``limit``) such that the instance's window is exact for T:
    it holds R_T.  None when it is exact for every T (an exact board, or a window that
    holds the whole, finite, span(start))."""
    b = instance.board
    if b.exact:
        return None
    layers = Layers(instance)
    for t in range(limit):
        layers.grow_to(t + 1)
        if not all(b.has(c) for c in layers.cells(t + 1)):
            return t
        if layers.stable:
            return None
    return limit


def window_for(original: Instance, layers: Layers, horizon: int, max_cells: int = MAX_WINDOW_CELLS) -> Instance | None:
    """The puzzle on a window exact for ``horizon`` moves (None: more than ``max_cells`` cells).

    The instance itself when its window already is; otherwise the board R_horizon plus
    the goal's cells, declared exact when the layers have stopped growing (R is then
    span(start), which no coin ever leaves)."""
    if original.board.size <= max_cells and exact_for(original, horizon):
        return original
    if not layers.grow_to(horizon, max_cells):
        return None
    b = original.board
    cells = set(layers.cells(horizon)) | {b.lattice_coords[c] for c in original.goal.cells}
    if len(cells) > max_cells:
        return None
    exact = layers.stable
    board = lattice_board(b.kind, cells, exact=exact, window="span" if exact else f"R_{horizon}")

    def moved(config: Configuration) -> Configuration:
        return Configuration(tuple((board.cell(b.coords[c]), lab) for c, lab in config.coins))

    return replace(original, board=board, start=moved(original.start), goal=moved(original.goal))


def to_original(original: Instance, work: Instance, solution: Solution) -> Solution | None:
    """``solution`` (cells of ``work``) in the cells of ``original``; None if it leaves its window."""
    if work is original:
        return solution
    coords, b = work.board.coords, original.board
    if not all(b.has(coords[c]) for move in solution.moves for c in move):
        return None
    moves = [(b.cell(coords[s]), b.cell(coords[p])) for s, p in solution.moves]
    return Solution.of(moves)


def fits(original: Instance, work: Instance) -> Callable[[list], bool]:
    """A test "these moves (cells of ``work``) stay inside the original window"."""
    if work is original:
        return lambda moves: True
    coords, b = work.board.coords, original.board
    inside = [b.has(c) for c in coords]
    return lambda moves: all(inside[s] and inside[p] for s, p in moves)


# --- one round and the loop ---------------------------------------------------------------------


class Proved(Name):
    """What a round (:class:`Step`) or the whole loop (:class:`Grown`) ended with (their docstrings)."""

    FOUND = "found"
    INCUMBENT = "incumbent"
    NONE = "none"
    CLOSED = "closed"
    STOPPED = "stopped"
    OUTSIDE = "outside"


@dataclass(frozen=True)
class Step:
    """What one engine run on a window exact for horizon H proved.

    ``kind`` (:class:`Proved`): ``found`` (``solution``, a shortest one in the window: nothing shorter
    exists), ``incumbent`` (a solution, optimality not proven), ``none`` (no solution
    with <= H moves in the window), ``closed`` (no solution at all, globally:
    ``certificate``), ``stopped`` (a limit, named by ``reason``).  ``none_upto``: no
    solution with <= none_upto moves in the window (what the run proved)."""

    kind: Proved
    none_upto: int = -1
    solution: Solution | None = None
    reason: str | None = None
    certificate: Evidence | None = None
    states: int = 0


#: An engine's round: (work instance, horizon H, limits, states it may still use) -> Step.
Round = Callable[[Instance, int, Limits, int | None], Step]


@dataclass
class Grown:
    """How the loop ended.  ``none_upto`` is global; ``solution`` is in the original's cells."""

    kind: Proved
    none_upto: int
    solution: Solution | None = None
    outside: int | None = None  # length of a solution that leaves the original window
    reason: str | None = None
    certificate: Evidence | None = None
    rounds: list = field(default_factory=list)
    window: str = ""

    @property
    def lower_bound(self) -> int:
        return self.none_upto + 1

    def stats(self) -> dict:
        out = {"windows": self.rounds, "window": self.window, "grown": True}
        if self.reason:
            out["stopped"] = self.reason
        if self.outside is not None:
            out["outside"] = self.outside
        return out


def decided_unsolvable(instance: Instance) -> Evidence | None:
    """Theorem 1 (``theory/triangular.py``, the exact decider for the triangular grid with
    d = 2, labeled or not): a global ``unsolvable`` certificate stub when it says no, else
    None.  ``certify`` builds the checkable certificate itself (the screens' invariant or
    closed set); this only stops a growth that could otherwise end at a limit alone."""
    from ..theory import triangular

    if not triangular.applies(instance):
        return None
    decision = triangular.decide(instance)
    if decision.solvable:
        return None
    return Evidence("theorem-1", "global", reason=decision.reason)


def grow(
    original: Instance,
    engine: Round,
    limits: Limits,
    *,
    max_moves: int | None = None,
    max_states: int | None = None,
    max_cells: int = MAX_WINDOW_CELLS,
    geometric: bool = False,
) -> Grown:
    """The growth loop of the module docstring.  A limit met anywhere in it (the engine's
    own polls, ``limits.poll`` in shared code, Ctrl-C) ends it as ``stopped`` with what
    was proven before."""
    g = Grown(Proved.NONE, -1)
    if original.start in original.goal_set:
        g.kind, g.solution = Proved.FOUND, Solution.of([])
        return g
    g.none_upto = 0
    with enforced(limits):
        try:
            _loop(original, engine, limits, g, max_moves, max_states, max_cells, geometric)
        except LimitReached as e:
            g.kind, g.reason = Proved.STOPPED, str(e)
        except KeyboardInterrupt:
            g.kind, g.reason = Proved.STOPPED, "interrupted"
    return g


def _loop(
    original: Instance,
    engine: Round,
    limits: Limits,
    g: Grown,
    max_moves: int | None,
    max_states: int | None,
    max_cells: int,
    geometric: bool,
) -> None:
    far = distance_bound(original)  # global, whatever the window (fixed goals)
    if far is not None:
        g.none_upto = max(g.none_upto, far - 1)
    cert = decided_unsolvable(original)
    if cert is not None:
        g.kind, g.certificate = Proved.CLOSED, cert
        return
    layers = Layers(original)
    used, last = 0, 0
    while True:
        if max_moves is not None and g.none_upto >= max_moves:
            g.kind = Proved.NONE
            return
        H = g.none_upto + 1 if not geometric else max(g.none_upto + 1, 2 * last)
        if max_moves is not None:
            H = min(H, max_moves)
        reason = limits.exceeded()
        if reason is None and max_states is not None and used >= max_states:
            reason = "state limit"
        work = None if reason else window_for(original, layers, H, max_cells)
        if work is None:
            g.kind, g.reason = Proved.STOPPED, reason or window_cap(max_cells)
            return
        g.window = work.board.window
        wlb = lower_bound(work)
        if wlb is None or wlb > H:  # every solution in the window needs > H moves
            g.none_upto = H
            continue
        if wlb - 1 > g.none_upto:
            g.none_upto = wlb - 1
            continue
        t0 = time.perf_counter()
        step = engine(work, H, limits, None if max_states is None else max_states - used)
        used += step.states
        last = H
        g.rounds.append(
            {
                "horizon": H,
                "cells": work.board.size,
                "answer": step.kind.value,
                "states": step.states,
                "seconds": round(time.perf_counter() - t0, 4),
            }
        )
        g.none_upto = max(g.none_upto, min(step.none_upto, H))
        if step.kind is Proved.NONE:
            continue
        g.kind, g.reason, g.certificate = step.kind, step.reason, step.certificate
        if step.solution is not None:
            mapped = to_original(original, work, step.solution)
            if mapped is None:
                g.kind, g.outside = Proved.OUTSIDE, len(step.solution)
            else:
                g.solution = certify_solution(original, mapped, "window growth")
        return


def found_in_window(n: int, radius: int | None) -> tuple[Status, int, bool]:
    """(status, lower bound, window_optimal) of a shortest solution of ``n`` moves inside a
    window exact for every horizon up to ``radius`` (None: for every horizon).

    Optimal when the window is exact for n - 1 moves: no shorter solution exists outside
    it either.  Otherwise it is the shortest *inside* the window (``window_optimal``) and
    only ``radius + 1`` moves are proven globally.  The explicit engines (bfs, spanbfs)
    share this mapping; ILP's differs (its bound comes from the horizons it closed).
    """
    if radius is None or n - 1 <= radius:
        return Status.OPTIMAL, n, False
    return Status.FEASIBLE, min(n, radius + 1), True


def result_of(
    g: Grown, result: Callable[..., Result], inside: Callable[[], Result], bounded_certificate: Evidence
) -> Result:
    """The Result of a growth loop.  ``result(status, solution, lb, certificate)`` makes
    the engine's Result; ``inside()`` searches the instance's own window, for when the
    solution found leaves it (module docstring)."""
    lb = g.lower_bound
    solution = g.solution
    if g.kind is Proved.OUTSIDE:
        solution = inside().solution
        if solution is None:
            return result(Status.UNKNOWN, None, lb)
    if solution is not None:
        n = len(solution)
        return result(Status.OPTIMAL if lb >= n else Status.FEASIBLE, solution, min(lb, n))
    if g.kind is Proved.CLOSED:
        return result(Status.UNSOLVABLE, None, None, g.certificate)
    if g.kind is Proved.NONE:  # max_moves reached, every horizon up to it proven
        return result(Status.BOUNDED, None, lb, bounded_certificate)
    return result(Status.UNKNOWN, None, lb)


def window_cap(max_cells: int) -> str:
    """``stats["stopped"]`` when the window exact for the next horizon is too large."""
    return f"window cap (a window exact for the next horizon would have over {max_cells:,} cells)"


def remaining(limits: Limits) -> float | None:
    """Seconds left on ``limits`` (a small positive number once spent)."""
    r = limits.remaining()
    return None if r is None else max(r, 1e-3)


def elapsed(limits: Limits) -> float:
    """Seconds since the run (and its ``limits``) started."""
    return limits.elapsed()
