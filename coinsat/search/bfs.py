"""Exact explicit-state oracle: bidirectional breadth-first search on bitmasks.

A state is a tuple of occupancy bitmasks, one per colour class.  Successors
and predecessors come from the kernels of rules.py (the single move
validator).  The search expands, level by level, whichever side has the
smaller frontier; the first level that meets the other side gives an optimal
solution (every meeting found while completing the level has the same total
length, because the two explored balls were disjoint before it).

Answers and their scope:

* ``optimal`` when a solution is found and the window is exact up to its
  length minus one (Instance.exact_within); otherwise ``feasible`` with the
  lower bound that the window does prove;
* ``unsolvable`` when one side is exhausted: scope ``global`` on an exact
  window (square grid: span(start), by Lemma "span monotone"; graph boards),
  scope ``window`` otherwise — then it means "no solution that stays inside
  the window", and ``lower_bound`` is only what the window proves globally;
* ``bounded`` when ``max_moves`` is reached and the window is exact for that
  horizon; ``unknown`` when it is not (the window is then the limit: give the
  instance a larger ``margin``), and on a time or state limit.
"""

from __future__ import annotations

import time

from ..instance import Instance
from ..result import Result, Status
from ..rules import predecessors, successors
from ..solution import Solution, certify_solution

INF = float("inf")


def solve_bfs(
    instance: Instance,
    max_moves: int | None = None,
    time_limit: float | None = None,
    max_states: int = 20_000_000,
) -> Result:
    t0 = time.perf_counter()
    deadline = INF if time_limit is None else t0 + time_limit
    labels = instance.labels
    board, d = instance.board, instance.d
    start = instance.start.masks(labels)
    goals = {g.masks(labels) for g in instance.goal_configurations}

    fwd: dict = {start: None}  # state -> (previous state, move)
    bwd: dict = {g: None for g in goals}  # state -> (next state, move)
    f_front, b_front = [start], list(goals)
    f_depth = b_depth = 0

    def done(status: Status, meet=None, certificate=None) -> Result:
        stats = {"states": len(fwd) + len(bwd), "forward_depth": f_depth, "backward_depth": b_depth}
        seconds = time.perf_counter() - t0
        if meet is None:
            explored = f_depth + b_depth  # no solution with <= explored moves in the window
            if status is Status.UNSOLVABLE and certificate["scope"] == "global":
                return Result(status, "bfs", None, None, certificate, seconds, stats)
            if status is Status.UNSOLVABLE or not instance.exact_within(explored):
                explored = instance.exact_radius  # type: ignore[assignment]
            return Result(status, "bfs", None, explored + 1, certificate, seconds, stats)
        moves = _path(fwd, bwd, meet)
        solution = certify_solution(instance, Solution.of(moves), "bfs")
        n = len(solution)
        if instance.exact_within(n - 1):
            return Result(Status.OPTIMAL, "bfs", solution, n, None, seconds, stats)
        lb = min(n, instance.exact_radius + 1)  # type: ignore[operator]
        stats["window_optimal"] = True  # optimal among solutions that stay in the window
        return Result(Status.FEASIBLE, "bfs", solution, lb, None, seconds, stats)

    if start in bwd:
        return done(Status.OPTIMAL, meet=start)
    while True:
        if not f_front or not b_front:
            scope = "global" if instance.board.exact else "window"
            cert = {
                "kind": "exhaustive-search",
                "scope": scope,
                "window": instance.board.window,
                "states": len(fwd) if not f_front else len(bwd),
                "side": "forward" if not f_front else "backward",
            }
            return done(Status.UNSOLVABLE, certificate=cert)
        if max_moves is not None and f_depth + b_depth >= max_moves:
            if instance.exact_within(max_moves):
                return done(Status.BOUNDED, certificate={"kind": "exhaustive-search",
                                                         "scope": "horizon", "horizon": max_moves})
            # "none within max_moves" holds only inside this window: not a bounded answer.
            return done(Status.UNKNOWN)
        forward = len(f_front) <= len(b_front)
        expand = successors if forward else predecessors
        seen, other = (fwd, bwd) if forward else (bwd, fwd)
        nxt, meets = [], []
        for state in (f_front if forward else b_front):
            for move, new in expand(board, d, state):
                if new in seen:
                    continue
                seen[new] = (state, move)
                nxt.append(new)
                if new in other:
                    meets.append(new)
            if time.perf_counter() > deadline or len(fwd) + len(bwd) > max_states:
                return done(Status.UNKNOWN)
        if forward:
            f_front, f_depth = nxt, f_depth + 1
        else:
            b_front, b_depth = nxt, b_depth + 1
        if meets:
            return done(Status.OPTIMAL, meet=meets[0])


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
