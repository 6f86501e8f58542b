"""Shorten a verified solution (``coinsat improve``): an anytime local optimiser around the exact engines.

A solution C_0 -> C_1 -> ... -> C_m is improved by rewrites that each keep it legal and
never make it longer; every accepted rewrite is replayed move by move with
``rules.check_move`` on the stretch it changes, and the final answer (and every solution
handed to ``on_step``) goes through ``certify_solution`` like any engine's.

The rewrites, cheapest first:

* **repeats and one-move shortcuts** — a shortest path through the trace, where C_i -> C_j
  costs 0 when C_i = C_j and 1 when one legal move turns C_i into C_j (j > i + 1); the
  first goal placement on the way ends the solution;
* **exchange** (encodings/sat.md, lemma P4, unlabeled coins): a coin dropped on p and lifted
  again later is skipped, a "ghost" cell takes its place, and the moves in between that fill
  the ghost are skipped too; applied only when the replay accepts the result;
* **stretches** — the moves i+1..j are replaced by a shorter solution of the puzzle
  C_i -> C_j posed on a small *local board*: the cells the stretch touches and their
  neighbours within ``radius``, as a graph board, with the coins of C_i that lie on it.
  Coins outside the local board are left out, which only removes support, so a solution of
  the local puzzle is legal in the whole configuration (the cells it uses hold the same
  coins in both).  The local puzzle is solved by ``rankbfs`` when it applies (one colour
  class, jumps, a window whose ranks fit 64 bits) with the stretch's length minus one as its
  upper bound U (bound-and-prune: a state that cannot reach the stretch's end within U moves
  is dropped), else by ``spanbfs`` (<= 64 cells), else by ``sat``, each with
  ``max_moves = j - i - 1``; a stretch is skipped when its own lower bound (the coins that
  must change cell) leaves nothing to gain.  Stretch lengths grow (``lengths``) while the
  time lasts; the passes repeat while one of them shortens the solution;
* **the whole solution** — last, the stretch C_0 -> C_m on span(start), with all the time
  that is left and U = m - 1.  On the square grid with d >= 2 that window is exact and the
  local puzzle *is* the puzzle: a shorter solution found there is optimal, and a search that
  exhausts or stops proves a lower bound for every solution;
* **the climb** (that last search on an exact window, done from below): a search with a
  bound U costs about as many states as there are configurations C with depth + h(C) <= U,
  a number that grows geometrically with U, so one search with U = m - 1 far above the
  optimum costs nearly the unpruned search, while searches with U = L, L + 1, L + 2, L + 4,
  ... from the proven lower bound L cost a few times the last one.  Each search with
  U = m' - 1 or less either exhausts (no solution with <= U moves: the lower bound becomes
  U + 1) or meets the goal at depth L' <= U, which is then the optimum (the engine's
  soundness argument, search/rank/search.py).  The step in U after a search is chosen so the
  states should grow about ``climb_growth``-fold (measured on the last two searches), and
  U never reaches the best length known.  A first part runs right after the cheap rewrites
  (``probe_share`` of the time), the rest after the local passes.

What the answer proves: a verified solution, status ``feasible``, with the lower bound the
caller knows (``lower_bound``) or the cheap fill-count bound; ``optimal`` only when the two
meet.  A local puzzle's "bounded" says nothing about the whole puzzle and is never used as
a bound.

Where it lives: the front door is ``coinsat.improve`` (``coinsat/improve.py``, beside
``solve.py``), which takes what a user gives (the solution to replay, the stretch lengths, a
checkpoint file) and calls :func:`improve` here.  The optimiser itself sits among the engines
because the default plan runs it as a pass (``search/plan.py`` chooses its options,
``solve.find_bound`` shortens the construction with it), and the floors of
``tests/test_layering.py`` let ``solve.py`` import ``search/`` but not another front door.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..configuration import Configuration
from ..errors import InternalError, LimitReached, UsageError
from ..instance import Instance, make_instance
from ..limits import Limits, cpu_seconds
from ..result import Result, Status
from ..rules import Move, check_move
from ..solution import Solution, certify_solution
from ..theory.reach import fill_count_bound, static_bound
from ..theory.span import span_mask
from .methods import inapplicable, run

#: A configuration as one occupancy bitmask per colour class (the labels in sorted order).
State = tuple[int, ...]


@dataclass(frozen=True)
class ImproveOptions:
    """How hard :func:`improve` tries: stretch lengths, the local board and the engines' budget."""

    lengths: tuple[int, ...] = (3, 4, 6, 8, 12, 16, 24, 32, 48)
    radii: tuple[int | None, ...] = (1, 2, None)
    stretch_time: float = 5.0
    max_local_cells: int = 400
    methods: tuple[str, ...] = ("rankbfs", "spanbfs", "sat")
    #: seconds for the last stretch, the whole solution on span(start) (default: all that is left)
    final_time: float = float("inf")
    #: the share of the time limit the local passes may use when the whole solution's window can be
    #: searched but not climbed (else they get it all); the rest is the last stretch's
    local_share: float = 0.5
    #: the local passes' share when the climb runs: on an exact window it pays more than they do
    #: (benchmarks/improve.md: V(3,3)->SW-NE, where they ended 205 moves against the optimum 73)
    climb_local_share: float = 0.2
    #: the share of the time limit for a first try of the whole solution on span(start), right after
    #: the cheap rewrites (taken from the local passes' share; 0: none).  On small exact windows
    #: the exact engine finishes in less time than the local passes would spend.
    probe_share: float = 0.1
    passes: int = 1000
    #: the whole-solution searches climb from the lower bound (module docstring) on an exact
    #: window; False: one search with U = best - 1, as the local passes leave it
    climb: bool = True
    #: how many times more states the next climb step should search than the last one.  Past the
    #: optimum the states grow nearly as fast as below it: on V(3,3)->SW-NE a step aimed at 4x went
    #: from U = 68 past the optimum 73 and was cut after 1395 s (benchmarks/improve.md), so 2.
    climb_growth: float = 2.0
    #: stop once this many CPU seconds pass without a shorter solution (the default's bound pass,
    #: ``search/plan.py``: there the solution is a bound, and a pass that finds nothing costs the
    #: search it was meant to save); inf: never
    stall: float = math.inf
    #: stop after this many CPU seconds in all (a wall-clock ``time_limit`` gives a loaded machine
    #: less work); inf: never
    cpu_limit: float = math.inf

    def __post_init__(self) -> None:
        if not self.lengths or min(self.lengths) < 2:
            raise UsageError("improve: stretch lengths must be >= 2")
        if any(r is not None and r < 1 for r in self.radii) or not self.radii:
            raise UsageError("improve: a local board's radius must be >= 1 (the stretch's own supports) or None")
        if self.stretch_time <= 0:
            raise UsageError("improve: the time per stretch must be > 0")
        if not 0 < self.local_share <= 1:
            raise UsageError("improve: the local passes' share of the time must be in (0, 1]")
        if not 0 < self.climb_local_share <= 1:
            raise UsageError("improve: the local passes' share of the time with the climb must be in (0, 1]")
        if not 0 <= self.probe_share <= min(self.local_share, self.climb_local_share):
            raise UsageError(
                "improve: the first whole try's share of the time must be in [0, min(local_share, climb_local_share)]"
            )
        if not self.stall > 0:
            raise UsageError("improve: the CPU seconds without progress before it stops must be > 0")
        if not self.cpu_limit > 0:
            raise UsageError("improve: the CPU seconds it may use must be > 0")
        if not self.climb_growth > 1:
            raise UsageError("improve: the climb's growth per step must be > 1")


@dataclass(frozen=True)
class Step:
    """One accepted improvement: the new length, the rewrite that made it, when (seconds from the start)."""

    length: int
    rule: str
    seconds: float


@dataclass(frozen=True)
class _Puzzle:
    """What the rewrites read: the board, d, the colour classes, the start and the goal test."""

    instance: Instance
    labels: tuple[str, ...]
    start: State
    goals: frozenset[State]

    @property
    def board(self):
        return self.instance.board

    @property
    def d(self) -> int:
        return self.instance.d


def _state(config: Configuration, labels: Sequence[str]) -> State:
    masks = dict.fromkeys(labels, 0)
    for c, lab in config.coins:
        masks[lab] |= 1 << c
    return tuple(masks[lab] for lab in labels)


def _config(state: State, labels: Sequence[str]) -> Configuration:
    return Configuration.from_masks(tuple(labels), state)


def _apply(state: State, move: Move) -> State:
    s, p = 1 << move.src, 1 << move.dst
    return tuple(m ^ s ^ p if m & s else m for m in state)


def _occupied(state: State) -> int:
    occ = 0
    for m in state:
        occ |= m
    return occ


def _trace(start: State, moves: Sequence[Move]) -> list[State]:
    trace = [start]
    for mv in moves:
        trace.append(_apply(trace[-1], mv))
    return trace


def _legal(puzzle: _Puzzle, state: State, move: Move) -> bool:
    return check_move(puzzle.board, _config(state, puzzle.labels), move, puzzle.d) is None


def _replays(puzzle: _Puzzle, start: State, moves: Sequence[Move], end: State) -> bool:
    """rules.check_move accepts every move, and the moves lead from ``start`` to ``end``."""
    config = _config(start, puzzle.labels)
    for mv in moves:
        if check_move(puzzle.board, config, mv, puzzle.d) is not None:
            return False
        config = config.moved(*mv)
    return _state(config, puzzle.labels) == end


# --- rewrite 1: repeats and one-move shortcuts ---------------------------------------------------


def shortcut(puzzle: _Puzzle, moves: Sequence[Move], window: int = 4000, limits: Limits | None = None) -> list[Move]:
    """The shortest path through the trace with 0-cost repeats and 1-move shortcuts (module docstring).

    A shortcut C_i -> C_j (j <= i + ``window``) is found through the keys "C minus one coin":
    C_i - s = C_j - p means the move s -> p turns C_i into C_j; it is taken when check_move
    accepts it.  The path ends at the first goal placement.  A spent ``limits`` returns the moves
    unchanged (the pass is all or nothing)."""
    trace = _trace(puzzle.start, moves)
    end = next((k for k, st in enumerate(trace) if st in puzzle.goals), None)
    if end is None:
        raise InternalError("improve: the solution does not reach the goal")
    trace = trace[: end + 1]
    m = len(trace) - 1
    inf = m + 1
    dist = [inf] * (m + 1)
    back: list[tuple[int, Move | None]] = [(-1, None)] * (m + 1)
    dist[0] = 0
    first: dict[State, int] = {}
    for j, st in enumerate(trace):
        first.setdefault(st, j)
    # minus-one keys of the states in a sliding window ahead of i
    keys: dict[tuple[int, State], deque[tuple[int, int]]] = {}
    made: list[list[tuple[int, State]]] = []  # the keys index j added, to drop them behind i
    added = 0
    for i in range(m + 1):
        if limits is not None and i % 1024 == 1023 and limits.exceeded() is not None:
            return list(moves)
        while added <= min(m, i + window):
            st = trace[added]
            mine = []
            for k, mask in enumerate(st):
                rest = mask
                while rest:
                    low = rest & -rest
                    rest ^= low
                    key = (k, st[:k] + (mask ^ low,) + st[k + 1 :])
                    keys.setdefault(key, deque()).append((added, low))
                    mine.append(key)
            made.append(mine)
            added += 1
        if i >= 2:  # index i - 2 can no longer be the end of a shortcut from i or later
            for key in made[i - 2]:
                queue = keys[key]
                queue.popleft()
                if not queue:
                    del keys[key]
            made[i - 2] = []
        if i and trace[i] in first and first[trace[i]] < i and dist[first[trace[i]]] < dist[i]:
            dist[i], back[i] = dist[first[trace[i]]], (first[trace[i]], None)
        if dist[i] >= inf:
            continue
        if i < m and dist[i] + 1 < dist[i + 1]:
            dist[i + 1], back[i + 1] = dist[i] + 1, (i, moves[i])
        st = trace[i]
        for k, mask in enumerate(st):
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                for j, bit in keys.get((k, st[:k] + (mask ^ low,) + st[k + 1 :]), ()):
                    if j <= i + 1 or j > i + window or dist[i] + 1 >= dist[j] or bit == low:
                        continue
                    mv = Move(low.bit_length() - 1, bit.bit_length() - 1)
                    if _legal(puzzle, st, mv):
                        dist[j], back[j] = dist[i] + 1, (i, mv)
    path: list[Move] = []
    j = m
    while j > 0:
        j, taken = back[j]
        if taken is not None:
            path.append(taken)
    path.reverse()
    return path


# --- rewrite 2: the exchange of lemma P4 ---------------------------------------------------------


#: how far ahead the exchange looks for the next lift of a dropped coin (keeps a pass linear)
EXCHANGE_LOOKAHEAD = 400


def exchange(puzzle: _Puzzle, moves: Sequence[Move], limits: Limits | None = None) -> list[Move]:
    """Apply lemma P4's exchange wherever the replay accepts it (unlabeled coins only): one pass,
    left to right, with the configuration before move t kept up to date; a spent ``limits`` ends
    the pass early (every rewrite made so far was replayed)."""
    if len(puzzle.labels) != 1:
        return list(moves)
    out = list(moves)
    state = puzzle.start
    t = 0
    while t < len(out):
        if limits is not None and t % 256 == 255 and limits.exceeded() is not None:
            break
        rewritten = _exchange_at(puzzle, out, t, state)
        if rewritten is None:
            state = _apply(state, out[t])
            t += 1
        else:
            out = rewritten
    return out


def _exchange_at(puzzle: _Puzzle, moves: list[Move], t: int, before: State) -> list[Move] | None:
    src, p = moves[t]
    stop = min(len(moves), t + 1 + EXCHANGE_LOOKAHEAD)
    later = next((u for u in range(t + 1, stop) if moves[u].src == p), None)
    if later is None:
        return None
    ghost = src
    kept: list[Move] = []
    for mv in moves[t + 1 : later]:
        if mv.dst == ghost:
            ghost = mv.src
        else:
            kept.append(mv)
    q = moves[later].dst
    if q != ghost:
        kept.append(Move(ghost, q))
    end = _trace(before, moves[t : later + 1])[-1]
    if not _replays(puzzle, before, kept, end):
        return None
    return moves[:t] + kept + moves[later + 1 :]


# --- rewrite 3: stretches solved as local puzzles ------------------------------------------------


def _local_cells(puzzle: _Puzzle, a: State, stretch: Sequence[Move], radius: int | None) -> list[int]:
    """The cells within ``radius`` of those the stretch touches; ``None``: every cell of the board
    that the span of ``a`` reaches (on the square grid with d >= 2 no coin ever leaves it)."""
    board = puzzle.board
    if radius is None:
        span = span_mask(board, _occupied(a), puzzle.d)
        return [c for c in range(board.size) if span >> c & 1]
    touched = {c for mv in stretch for c in mv}
    dist = board.distances_from(touched) if len(touched) * 50 > board.size else None
    if dist is not None:
        return [c for c in range(board.size) if dist[c] is not None and dist[c] <= radius]
    cells, frontier = set(touched), set(touched)
    for _ in range(radius):
        frontier = {n for c in frontier for n in board.neighbours[c]} - cells
        cells |= frontier
    return sorted(cells)


def _local_puzzle(puzzle: _Puzzle, cells: list[int], a: State, b: State) -> Instance:
    board = puzzle.board
    on = set(cells)
    edges = [(c, n) for c in cells for n in board.neighbours[c] if n in on and c < n]

    def placement(state: State) -> dict[int, str]:
        return {c: lab for lab, mask in zip(puzzle.labels, state) for c in cells if mask >> c & 1}

    return make_instance(
        "graph",
        placement(a),
        placement(b),
        adjacency=puzzle.d,
        edges=edges,
        cells=cells,
        name="stretch",
    )


def _change_bound(a: State, b: State) -> int:
    """Moves the local puzzle a -> b needs at least: one per cell of b not holding its label in a."""
    return sum((mb & ~ma).bit_count() for ma, mb in zip(a, b))


@dataclass(frozen=True)
class LocalAnswer:
    """What one local puzzle gave: a shorter replacement (or None) and the local lower bound proven."""

    moves: list[Move] | None
    lower_bound: int | None


def solve_stretch(
    puzzle: _Puzzle,
    a: State,
    stretch: Sequence[Move],
    radius: int | None,
    options: ImproveOptions,
    limits: Limits,
    seconds: float | None = None,
) -> LocalAnswer:
    """A shorter replacement of ``stretch`` (from state ``a``), if the local puzzle has one within
    ``seconds`` (default ``options.stretch_time``; never past the limits)."""
    b = _trace(a, stretch)[-1]
    length = len(stretch)
    if _change_bound(a, b) >= length:
        return LocalAnswer(None, length)
    cells = _local_cells(puzzle, a, stretch, radius)
    if len(cells) > options.max_local_cells:
        return LocalAnswer(None, None)
    local = _local_puzzle(puzzle, cells, a, b)
    for name in options.methods:
        if inapplicable(name, local) is not None:
            continue
        left = limits.remaining()
        own = options.stretch_time if seconds is None else seconds
        budget = own if left is None else min(own, left)
        if budget <= 0.05:
            break
        try:
            result = run(
                name,
                local,
                limits=Limits(None if budget == float("inf") else budget, limits.memory_limit),
                max_moves=length - 1,
                **_engine_options(name, length),
            )
        except LimitReached:  # the engine's own watchdog fired outside its loop: this stretch only
            return LocalAnswer(None, None)
        if result.stats.get("stopped") == "interrupted":  # the engine caught Ctrl-C: stop improving too
            raise KeyboardInterrupt
        if result.solution is None or len(result.solution) >= length:
            return LocalAnswer(None, result.lower_bound)
        coords = local.board.coords
        found = [Move(int(coords[s]), int(coords[p])) for s, p in result.solution.moves]  # type: ignore[call-overload]
        if not _replays(puzzle, a, found, b):
            raise InternalError(f"improve: engine {name!r} gave a stretch that rules.py rejects")
        return LocalAnswer(found, result.lower_bound)
    return LocalAnswer(None, None)


def _engine_options(name: str, length: int) -> dict:
    """Options of the local engine beyond the horizon: ``rankbfs`` gets the stretch's length minus
    one as its upper bound (it looks for a strictly shorter replacement, so a state that cannot
    reach the stretch's end within that many moves is dropped) and runs in this process."""
    return {"upper_bound": length - 1, "workers": 1} if name == "rankbfs" else {}


def _whole_is_exact(puzzle: _Puzzle) -> bool:
    """The local puzzle of the whole solution on span(start) *is* the puzzle: the board is exact (no
    solution leaves span(start), Lemma "span monotone") and the goal has one placement."""
    return puzzle.board.exact and len(puzzle.goals) == 1


#: the exact engines that can search the whole solution on span(start)
EXACT_METHODS = ("rankbfs", "spanbfs")


def _whole_is_searchable(puzzle: _Puzzle, options: ImproveOptions) -> bool:
    """The last stretch (the whole solution on span(start)) is worth its time: an exact engine of
    ``options.methods`` (``rankbfs``, ``spanbfs``) runs on that window.  Otherwise the local passes
    get all the time."""
    exact = [name for name in options.methods if name in EXACT_METHODS]
    cells = _local_cells(puzzle, puzzle.start, (), None)
    if not exact or len(cells) > options.max_local_cells:
        return False
    window = _local_puzzle(puzzle, cells, puzzle.start, puzzle.start)
    return any(inapplicable(name, window) is None for name in exact)


def stretch_pass(
    puzzle: _Puzzle,
    moves: list[Move],
    length: int,
    radius: int | None,
    options: ImproveOptions,
    limits: Limits,
    on_change: Callable[[list[Move], str], None],
    on_bound: Callable[[int], None],
    seconds: float | None = None,
) -> list[Move]:
    """Slide a window of ``length`` moves over the solution (half-overlapping), replacing what shrinks.

    When the stretch is the whole solution on span(start) of an exact puzzle, the local
    engine's lower bound holds for every solution and goes to ``on_bound``."""
    i = 0
    state = puzzle.start
    step = max(1, length // 2)
    while i + length <= len(moves) and limits.exceeded() is None:
        stretch = moves[i : i + length]
        answer = solve_stretch(puzzle, state, stretch, radius, options, limits, seconds)
        if radius is None and i == 0 and length == len(moves) and answer.lower_bound is not None:
            if _whole_is_exact(puzzle) and puzzle.start == state:
                on_bound(answer.lower_bound)
        if answer.moves is not None:
            moves = moves[:i] + answer.moves + moves[i + length :]
            on_change(moves, f"stretch of {length} -> {len(answer.moves)} (radius {radius or 'span'})")
            continue
        for mv in moves[i : i + step]:
            state = _apply(state, mv)
        i += step
    return moves


# --- rewrite 4: the climb, whole-window searches with U rising from the lower bound --------------


#: below this many states a climb step's count says little about the growth: the step doubles
CLIMB_MIN_STATES = 1000


@dataclass(frozen=True)
class ClimbStep:
    """One whole-window search with bound ``horizon``: a solution (then optimal), the lower bound it
    proved, the states it kept, and whether a limit stopped it."""

    horizon: int
    moves: list[Move] | None
    lower_bound: int | None
    states: int | None
    stopped: bool
    seconds: float = 0.0


@dataclass(frozen=True)
class ClimbPlan:
    """Where the climb stands: the last bound searched to the end, its states and wall seconds,
    the next step."""

    horizon: int | None = None
    states: int | None = None
    delta: int = 1
    seconds: float = 0.0

    def next_horizon(self, bound: int) -> int:
        """The next U: the last one plus the step, never below the proven lower bound."""
        return bound if self.horizon is None else max(bound, self.horizon + self.delta)

    def after(self, step: ClimbStep, growth: float) -> ClimbPlan:
        """The plan after an exhausted step: the step in U that should multiply the states by
        about ``growth``, from the growth per unit of U between the last two steps (doubled while
        the counts are too small to tell; at most doubled at a time)."""
        delta = 2 * self.delta
        if self.horizon is not None and self.states and step.states and step.horizon > self.horizon:
            if min(self.states, step.states) >= CLIMB_MIN_STATES and step.states > self.states:
                per_unit = math.log(step.states / self.states) / (step.horizon - self.horizon)
                delta = max(1, min(delta, math.floor(math.log(growth) / per_unit + 1e-9)))
        return ClimbPlan(step.horizon, step.states, delta, step.seconds)


def climb_step(puzzle: _Puzzle, horizon: int, options: ImproveOptions, limits: Limits) -> ClimbStep:
    """Search the whole puzzle on span(start) for a solution of at most ``horizon`` moves, with that
    bound as rankbfs's U (spanbfs: as its horizon).  Only on an exact window with one goal placement
    (``_whole_is_exact``): then the engine's lower bound holds for every solution."""
    if not _whole_is_exact(puzzle):
        raise InternalError("improve: the climb needs an exact window and one goal placement")
    t0 = time.perf_counter()
    cells = _local_cells(puzzle, puzzle.start, (), None)
    local = _local_puzzle(puzzle, cells, puzzle.start, next(iter(puzzle.goals)))
    for name in options.methods:
        if name not in EXACT_METHODS or inapplicable(name, local) is not None:
            continue
        left = limits.remaining()
        if left is not None and left <= 0.05:
            break
        extra = {"upper_bound": horizon, "workers": 1} if name == "rankbfs" else {}
        try:
            result = run(name, local, limits=Limits(left, limits.memory_limit), max_moves=horizon, **extra)
        except LimitReached:
            return ClimbStep(horizon, None, None, None, True)
        if result.stats.get("stopped") == "interrupted":
            raise KeyboardInterrupt
        states = result.stats.get("states")
        seconds = time.perf_counter() - t0
        if result.solution is None:
            stopped = result.status is Status.UNKNOWN
            return ClimbStep(horizon, None, result.lower_bound, states, stopped, seconds)
        coords = local.board.coords
        found = [Move(int(coords[s]), int(coords[p])) for s, p in result.solution.moves]  # type: ignore[call-overload]
        if not _replays(puzzle, puzzle.start, found, next(iter(puzzle.goals))):
            raise InternalError(f"improve: engine {name!r} gave a whole solution that rules.py rejects")
        return ClimbStep(horizon, found, result.lower_bound, states, False, seconds)
    return ClimbStep(horizon, None, None, None, True)


def climb(
    puzzle: _Puzzle,
    moves: list[Move],
    bound: Callable[[], int],
    plan: ClimbPlan,
    options: ImproveOptions,
    limits: Limits,
    on_change: Callable[[list[Move], str], None],
    on_bound: Callable[[int], None],
    careful: bool = False,
    on_search: Callable[[int], None] | None = None,
) -> tuple[list[Move], ClimbPlan]:
    """Climb (module docstring) until the gap closes or ``limits`` stop a step; the moves (shorter
    when a step met the goal) and the plan to resume from.  ``careful``: start no step that should
    take longer than the time left (``climb_growth`` times the last step's), so that no search is
    cut short and redone later."""
    while len(moves) > bound() and limits.exceeded() is None:
        left = limits.remaining()
        if careful and left is not None and plan.seconds * options.climb_growth > left:
            break
        horizon = min(len(moves) - 1, plan.next_horizon(bound()))
        if on_search is not None:
            on_search(horizon)
        step = climb_step(puzzle, horizon, options, limits)
        if step.lower_bound is not None:
            on_bound(step.lower_bound)
        if step.moves is not None:
            moves = step.moves
            on_change(moves, f"whole window, U = {horizon} -> {len(moves)} (climb)")
            break
        if step.stopped:
            break
        plan = plan.after(step, options.climb_growth)
    return moves, plan


# --- the loop -----------------------------------------------------------------------------------


def improve(
    instance: Instance,
    solution: Solution,
    *,
    time_limit: float | None = None,
    memory_limit: int | None = None,
    lower_bound: int = 0,
    options: ImproveOptions | None = None,
    on_step: Callable[[Solution, Step], None] | None = None,
    on_bound: Callable[[int, float], None] | None = None,
    on_search: Callable[[int, float], None] | None = None,
) -> Result:
    """Shorten ``solution`` (a solution of ``instance``) within the limits (module docstring).

    ``on_step`` receives every shorter solution, already replayed by ``certify_solution``;
    ``on_bound`` every larger lower bound proven for all solutions, ``on_search`` the U of every climb
    step as it starts (both with the seconds since the start)."""
    options = options or ImproveOptions()
    t0 = time.perf_counter()
    limits = _Stalling(time_limit, memory_limit, stall=options.stall, cpu_limit=options.cpu_limit)
    certify_solution(instance, solution, "improve (input)")
    labels = instance.start.labels
    puzzle = _Puzzle(
        instance, labels, _state(instance.start, labels), frozenset(_state(g, labels) for g in instance.goal_set)
    )
    bound = max(lower_bound, fill_count_bound(instance))
    best = list(solution.moves)
    steps: list[Step] = []

    def accept(moves: list[Move], rule: str) -> None:
        nonlocal best
        if len(moves) < len(best):
            best = list(moves)
            limits.progressed()
            step = Step(len(best), rule, time.perf_counter() - t0)
            steps.append(step)
            if on_step is not None:
                on_step(certify_solution(instance, Solution(tuple(best)), "improve"), step)

    def cheap(moves: list[Move]) -> list[Move]:
        while True:
            before = len(moves)
            moves = shortcut(puzzle, moves, limits=limits)
            accept(moves, "repeats and one-move shortcuts")
            moves = exchange(puzzle, moves, limits)
            accept(moves, "exchange (lemma P4)")
            if len(moves) == before or limits.exceeded() is not None:
                return moves

    def raise_bound(proven: int) -> None:
        nonlocal bound
        if proven > bound and on_bound is not None:
            on_bound(proven, time.perf_counter() - t0)
        bound = max(bound, proven)

    searchable = _whole_is_searchable(puzzle, options)
    climbing = options.climb and searchable and _whole_is_exact(puzzle)
    share = (options.climb_local_share if climbing else options.local_share) if searchable else 1.0
    local_time = None if time_limit is None else time_limit * share
    local = _Stalling(local_time, memory_limit, stall=options.stall, cpu_limit=options.cpu_limit, last=limits.last)
    probe = 0.0 if not searchable else float("inf") if time_limit is None else time_limit * options.probe_share
    try:
        searching = None if on_search is None else lambda u: on_search(u, time.perf_counter() - t0)
        budgets = (local, limits)
        _search(puzzle, best, lambda: bound, options, budgets, accept, cheap, raise_bound, probe, searching)
        stopped = limits.exceeded() or ""
    except KeyboardInterrupt:  # the best solution so far is the answer (the command exits 3)
        stopped = "interrupted"
    except LimitReached as e:  # an ambient budget's watchdog (the passes poll their own first)
        stopped = str(e)
    final = certify_solution(instance, Solution(tuple(best)), "improve")
    status = Status.OPTIMAL if bound >= len(final) else Status.FEASIBLE
    return Result(
        status=status,
        method="improve",
        solution=final,
        lower_bound=len(final) if status is Status.OPTIMAL else bound,
        seconds=time.perf_counter() - t0,
        stats={
            "input_length": len(solution),
            "steps": [(s.length, s.rule, round(s.seconds, 3)) for s in steps],
            "stopped": stopped,
        },
    )


@dataclass(frozen=True)
class _Stalling(Limits):
    """Limits that also end (``"stalled"``) once ``stall`` CPU seconds pass after the last shorter
    solution (``progressed``; ``last`` holds its CPU time, shared by the limits of one run), and
    (``"CPU limit"``) once ``cpu_limit`` CPU seconds pass after ``cpu0``."""

    stall: float = math.inf
    cpu_limit: float = math.inf
    last: list[float] = field(default_factory=lambda: [cpu_seconds()])

    def progressed(self) -> None:
        self.last[0] = cpu_seconds()

    def exceeded(self) -> str | None:
        now = cpu_seconds()
        if now - self.last[0] > self.stall:
            return "stalled"
        if now - self.cpu0 > self.cpu_limit:
            return "CPU limit"
        return super().exceeded()


def _within(limits: Limits, seconds: float) -> Limits:
    """Limits that end ``seconds`` from now or when ``limits`` end, whichever comes first."""
    left = limits.remaining()
    if seconds == float("inf"):
        return Limits(left, limits.memory_limit)
    return Limits(seconds if left is None else min(seconds, left), limits.memory_limit)


def _search(puzzle, moves, bound, options, budgets, accept, cheap, on_bound, probe=0.0, on_search=None) -> None:
    """The passes: cheap rewrites, a first try of the whole solution on span(start) for ``probe``
    seconds (when > 0), then stretches of growing length on growing local boards, within the local
    passes' budget; last, the whole solution on span(start) with all the time that is left (on an
    exact window that is the puzzle itself, and the engine's answer proves a lower bound).  On an
    exact window both whole-solution phases are one climb (module docstring), resumed where the
    first part stopped; when its next step should take longer than the whole run has left, the
    local passes get all of it.  ``budgets`` = (the local passes' limits, the whole run's)."""
    local, overall = budgets
    climbing = options.climb and _whole_is_exact(puzzle) and _whole_is_searchable(puzzle, options)
    plan = ClimbPlan()
    moves = cheap(moves)
    if probe > 0 and len(moves) > bound() and local.exceeded() is None:
        if climbing:
            first = _within(local, probe)
            moves, plan = climb(
                puzzle, moves, bound, plan, options, first, accept, on_bound, careful=True, on_search=on_search
            )
            left = overall.remaining()
            if left is not None and plan.seconds * options.climb_growth > left:
                local = overall  # the next step should not fit in the whole run: the local passes take it
        else:
            moves = stretch_pass(puzzle, moves, len(moves), None, options, local, accept, on_bound, seconds=probe)
    for radius in options.radii:
        for _ in range(options.passes):
            if len(moves) <= bound() or local.exceeded() is not None:
                break
            before = len(moves)
            for length in sorted({min(n, len(moves)) for n in options.lengths} | {len(moves)}):
                if local.exceeded() is not None or length < 2:
                    break
                moves = stretch_pass(puzzle, moves, length, radius, options, local, accept, on_bound)
                moves = cheap(moves)
            if len(moves) == before:
                break
    if climbing:
        if options.final_time > 0 and overall.exceeded() is None:
            last = _within(overall, options.final_time)
            climb(puzzle, moves, bound, plan, options, last, accept, on_bound, on_search=on_search)
        return
    while len(moves) > bound() and overall.exceeded() is None and options.final_time > 0:
        before = len(moves)
        moves = stretch_pass(
            puzzle, moves, len(moves), None, options, overall, accept, on_bound, seconds=options.final_time
        )
        if len(moves) == before:
            return


__all__ = [
    "ClimbPlan",
    "ClimbStep",
    "ImproveOptions",
    "LocalAnswer",
    "Step",
    "climb",
    "climb_step",
    "exchange",
    "improve",
    "shortcut",
    "solve_stretch",
    "static_bound",
]
