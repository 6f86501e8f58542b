"""The answer of a grown search: an engine run on windows grown until they are exact.

The explicit engines (``bfs``, ``spanbfs``, ``rankbfs``, ``ilp``) search one finite board.  On
an *exact* window (square grid with d >= 2: span(start); graph boards) every answer is global
and nothing here is used.  On an inexact window (triangular grid, square grid with d = 1) a
"no" found in the window is global only up to the horizons the window is exact for
(``search/windows.py``, the geometry), and the instance's default window (hull of start and
goal + margin) is usually exact for a few moves only.  This module is the loop that lets those
engines answer globally anyway, as the SAT driver does (``search/driver.py``, ``widen``); the
lemmas behind each step are ``docs/grown-windows.md``'s.

**The engine's side** is a :class:`Search`: an object with ``run(window, horizon, states)``,
one round on a window exact for ``horizon`` that says what it proved (:class:`WindowAnswer`),
``inside()``, the shortest solution that stays inside the instance's own window, and
``bounded_by``, the evidence kind of "no solution with <= max_moves moves".  Each engine that
grows windows supplies one (``bfs._Windows``, ``layered.Layered`` for ``spanbfs`` and
``rankbfs``, ``ilp._Run``); nothing is passed back.

**The loop** (:func:`grow`).  ``none_upto`` is what is proven globally ("no solution with <=
none_upto moves"); the next horizon is H = none_upto + 1 (``geometric``: at least twice the
last one).  Each round builds the smallest window exact for H (``windows.window_for``), first
tries the cheap lower bound of theory/reach.py on it (Lemma G4: a bound above H skips the
search), and otherwise runs the engine at horizon H there.  It stops at a solution, a global
``unsolvable``, ``max_moves``, or a limit: time or memory (``coinsat.limits.Limits``), the
engine's state budget (shared by all rounds), or a window over ``max_cells`` cells — an
engine-side limit, answered ``unknown`` with the proven bound, never bad input.  Restarting
each round costs a constant factor: the work of a round grows about geometrically with H (bfs
on pyramid-to-line: 0.02, 0.13, 0.69 and 2.7 s for H = 4..7), so the earlier rounds add about
a third.  Before the first round Theorem 1 (``theory/triangular.py``, the exact decider of
every triangular d = 2 puzzle, which the screens of ``methods.solve`` also use) may answer
``unsolvable``: no finite window proves that on the triangular grid, so the growth could only
end at a limit there.  A start without any legal move needs no theorem: its forward side runs
out at depth 0 inside a window holding R_1.

**The answer** (:meth:`Grown.answer`, a pure function of the loop's record).  A solution found
in a grown window is mapped back to the instance's cells; one that leaves the instance's window
cannot be expressed (a ``Result`` names board cells), so the loop then asks the search for the
shortest solution that stays inside the instance's window (``optimal`` if its length is the
proven bound, else ``feasible`` with that bound) — the SAT driver's fallback.
:func:`found_in_window` is the same question for one search of a window as given.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from .._names import Name
from ..board import MAX_WINDOW_CELLS
from ..errors import LimitReached
from ..instance import Instance
from ..limits import Limits, enforced
from ..result import Evidence, Status
from ..solution import Solution, certify_solution
from ..theory.reach import LatticeLayers, distance_bound, lower_bound
from .windows import to_original, window_for


class Proved(Name):
    """What a round (:class:`WindowAnswer`) or the whole loop (:class:`Grown`) ended with
    (their docstrings)."""

    FOUND = "found"
    INCUMBENT = "incumbent"
    NONE = "none"
    CLOSED = "closed"
    STOPPED = "stopped"
    OUTSIDE = "outside"


@dataclass(frozen=True)
class WindowAnswer:
    """What one engine run on a window exact for horizon H proved.

    ``kind`` (:class:`Proved`): ``found`` (``solution``, a shortest one in the window: nothing
    shorter exists), ``incumbent`` (a solution, optimality not proven), ``none`` (no solution
    with <= H moves in the window), ``closed`` (no solution at all, globally:
    ``certificate``), ``stopped`` (a limit, named by ``reason``).  ``none_upto``: no solution
    with <= none_upto moves in the window (what the run proved)."""

    kind: Proved
    none_upto: int = -1
    solution: Solution | None = None
    reason: str | None = None
    certificate: Evidence | None = None
    states: int = 0


class Search(Protocol):
    """An engine that answers on one window: what :func:`grow` runs (module docstring)."""

    @property
    def bounded_by(self) -> str:
        """The evidence kind of "no solution with <= max_moves moves" (every round said none)."""
        ...

    def run(self, window: Instance, horizon: int, states: int | None) -> WindowAnswer:
        """Search ``window`` (exact for ``horizon``: ``windows.window_for``) for a solution with
        <= ``horizon`` moves, within the search's limits and at most ``states`` states (None: no
        cap), and say what that proved."""
        ...

    def inside(self) -> Solution | None:
        """The shortest solution that stays inside the instance's own window (None: none
        found), for when the one found in a grown window leaves it."""
        ...


@dataclass(frozen=True)
class Answer:
    """What a grown search proved, as an engine's ``Result`` states it."""

    status: Status
    solution: Solution | None
    lower_bound: int | None
    certificate: Evidence | None = None


@dataclass
class Grown:
    """How the loop ended.  ``none_upto`` is global; ``solution`` is in the original's cells
    (kind ``outside``: the search's shortest one inside the original window, if any)."""

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

    def answer(self) -> Answer:
        """The answer on the board (Lemma G5, docs/grown-windows.md): a solution is optimal
        when the proven bound meets its length, else feasible; ``closed`` is unsolvable, a
        ``none`` at max_moves is bounded, anything else unknown with the proven bound."""
        lb = self.lower_bound
        if self.solution is not None:
            n = len(self.solution)
            return Answer(Status.OPTIMAL if lb >= n else Status.FEASIBLE, self.solution, min(lb, n))
        if self.kind is Proved.CLOSED:
            return Answer(Status.UNSOLVABLE, None, None, self.certificate)
        if self.kind is Proved.NONE:  # max_moves reached, every horizon up to it proven
            return Answer(Status.BOUNDED, None, lb, self.certificate)
        return Answer(Status.UNKNOWN, None, lb)


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
    search: Search,
    limits: Limits,
    *,
    max_moves: int | None = None,
    max_states: int | None = None,
    max_cells: int = MAX_WINDOW_CELLS,
    geometric: bool = False,
) -> Grown:
    """The growth loop of the module docstring.  A limit met anywhere in it (the engine's
    own polls, ``limits.poll`` in shared code, Ctrl-C) ends it as ``stopped`` with what
    was proven before.  A solution that leaves the original window is replaced by
    ``search.inside()``'s (kind ``outside``)."""
    g = Grown(Proved.NONE, -1)
    if original.start in original.goal_set:
        g.kind, g.solution = Proved.FOUND, Solution.of([])
        return g
    g.none_upto = 0
    with enforced(limits):
        try:
            _loop(original, search, limits, g, max_moves, max_states, max_cells, geometric)
        except LimitReached as e:
            g.kind, g.reason = Proved.STOPPED, str(e)
        except KeyboardInterrupt:
            g.kind, g.reason = Proved.STOPPED, "interrupted"
    if g.kind is Proved.NONE:
        g.certificate = Evidence(search.bounded_by, "horizon", horizon=max_moves)
    elif g.kind is Proved.OUTSIDE:
        g.solution = search.inside()
    return g


def _loop(
    original: Instance,
    search: Search,
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
    layers = LatticeLayers(original)
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
        if wlb is None or wlb > H:  # Lemma G4: every solution in the window needs > H moves
            g.none_upto = H
            continue
        if wlb - 1 > g.none_upto:
            g.none_upto = wlb - 1
            continue
        t0 = time.perf_counter()
        step = search.run(work, H, None if max_states is None else max_states - used)
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
        g.none_upto = max(g.none_upto, min(step.none_upto, H))  # Lemma G1
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
    window exact for every horizon up to ``radius`` (None: for every horizon; Lemma G2).

    Optimal when the window is exact for n - 1 moves: no shorter solution exists outside
    it either.  Otherwise it is the shortest *inside* the window (``window_optimal``) and
    only ``radius + 1`` moves are proven globally.  The explicit engines (bfs, spanbfs)
    share this mapping; ILP's differs (its bound comes from the horizons it closed).
    """
    if radius is None or n - 1 <= radius:
        return Status.OPTIMAL, n, False
    return Status.FEASIBLE, min(n, radius + 1), True


def window_cap(max_cells: int) -> str:
    """``stats["stopped"]`` when the window exact for the next horizon is too large."""
    return f"window cap (a window exact for the next horizon would have over {max_cells:,} cells)"
