"""In how many ways?  Exact counts of a puzzle's optimal solutions.

Recreational puzzles always ask it (Langman's H to O "in four moves"), and the answer is a
property of the move graph, not of any one engine, so it is computed here from the rules alone.

**Sequences.**  Let D be the optimum.  A bidirectional breadth-first search over the explicit
states (``rules.successors`` / ``rules.predecessors``, the kernels pinned to the move validator)
keeps every layer, and for every state s it reaches the number of shortest paths to it:
``nf(s)`` from the start, ``nb(s)`` to the goal set (all goal placements are sources of the
backward side).  The first time the two sides touch, at forward depth a and backward depth b,
a + b = D (a shortest path's state at position a has backward distance D - a, which the
backward side holds exactly when a + b >= D).  Every optimal sequence passes through exactly
one state at position a, so their number is the sum of ``nf(s) * nb(s)`` over the states of
forward layer a that lie in backward layer b.  Python integers do not overflow.  A path of
states is a move sequence and back: from one configuration distinct moves ``(src, dst)`` give
distinct configurations, labels or not.

**The optimal sub-graph.**  Walking back from the meeting states through the forward layers
(and on through the backward layers) gives the configurations that lie on some optimal
sequence, step by step (``configurations``).  The *sets* of configurations that optimal
sequences visit are exactly as many as the sequences: on a shortest path configuration C_i is
at distance i from the start, so the set fixes the order.  (``tests/test_count.py`` checks
this against enumeration rather than trusting the argument.)

**Traces.**  Two consecutive moves commute when doing them in the other order is legal and
leaves the same configuration; a *trace* is a class of sequences under such swaps.  Which
pairs commute depends on the configuration (a move may need the support of the other), so
the classical normal forms of trace monoids do not apply; the traces are counted by listing
the optimal sequences of the sub-graph and joining those that differ by one swap (the set of
optimal sequences is closed under legal swaps: the swapped pair ends on the same
configuration).  That is done only up to ``max_sequences`` sequences; beyond, ``traces`` is
None.

**Up to symmetry.**  A symmetry of the lattice that fixes the start and the (fixed) goal maps
optimal sequences to optimal sequences; ``up_to_symmetry`` is the number of orbits, by
Burnside's lemma: the average over the group of the sequences a symmetry fixes, which are those
whose every move lifts from and drops on cells it fixes (``theory.reach.symmetries`` finds the
group; goals placed by translation or congruence are counted with the identity alone).

The explicit kernels implement the jump model only, so other move models are refused.

**Windows.**  The optimum comes from the engines (``auto``), after the screens; the count then
searches a window exact for D moves (``search/windows.window_for``: on the triangular grid the
layer R_D, which every solution with <= D moves stays inside), so every count is global.  The
search must itself meet at exactly D: anything else is an internal error.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterator

from .certificates.prove.screens import screen
from .errors import InternalError, LimitReached, UsageError
from .instance import Instance
from .limits import Limits, enforced, poll
from .result import Result, Status
from .rules import JUMP, Move, predecessors, successors
from .search.methods import get_method
from .search.windows import window_for
from .theory.reach import LatticeLayers, layer_steps, symmetries

State = tuple[int, ...]

#: traces are counted by listing the optimal sequences; above this many they are not
MAX_SEQUENCES = 200_000


@dataclass(frozen=True)
class Count:
    """The counts of an instance's optimal solutions (None: not computed, and why in ``note``)."""

    name: str
    status: Status
    length: int | None  # the optimum D
    sequences: int | None  # optimal move sequences
    traces: int | None  # ... up to reordering commuting moves
    configuration_sets: int | None  # distinct sets of configurations the optimal sequences visit
    configurations: tuple[int, ...] | None  # per step t = 0..D: configurations on some optimal sequence
    states: int  # configurations the counting search stored
    seconds: float
    note: str = ""
    symmetries: int = 1  # the order of the puzzle's symmetry group used below
    up_to_symmetry: int | None = None  # optimal sequences up to the puzzle's symmetries (orbits)

    def as_json(self) -> dict:
        return {
            "name": self.name,
            "status": self.status.value,
            "length": self.length,
            "sequences": self.sequences,
            "traces": self.traces,
            "configuration_sets": self.configuration_sets,
            "configurations": None if self.configurations is None else list(self.configurations),
            "symmetries": self.symmetries,
            "up_to_symmetry": self.up_to_symmetry,
            "states": self.states,
            "seconds": round(self.seconds, 3),
            "note": self.note,
        }


@dataclass(frozen=True)
class Progress:
    """A finished layer of the counting search (for a progress display)."""

    side: str  # "forward" or "backward"
    depth: int
    states: int  # stored so far, both sides


@dataclass(frozen=True)
class Layered:
    """What the counting search keeps: per side, the layers with their path counts."""

    forward: list[dict[State, int]]  # forward[i][s] = nf(s), s at distance i from the start
    backward: list[dict[State, int]]  # backward[j][s] = nb(s), s at distance j from the goal set
    meet: tuple[int, int]  # (a, b): forward[a] and backward[b] share states, a + b = D


def count(
    instance: Instance,
    *,
    time_limit: float | None = None,
    memory_limit: int | None = None,
    max_sequences: int = MAX_SEQUENCES,
    progress: Callable[[Progress], None] | None = None,
) -> Count:
    """Count the optimal solutions: move sequences, traces (up to reordering commuting moves),
    and the configurations on optimal sequences (the module docstring says how).

    Parameters
    ----------
    instance : Instance
        The puzzle (jump moves).
    time_limit, memory_limit : optional
        Seconds and bytes for the whole count.
    max_sequences : int
        Count the sequences up to symmetry only when there are at most this many.
    progress : callable, optional
        Called with a :class:`Progress` as the layers are searched.

    Returns
    -------
    Count
        ``status`` optimal with the counts; unsolvable with 0 sequences; otherwise (a limit hit,
        the optimum unknown) the counts are None and ``note`` says why: a limit is an answer
        here, not an exception.

    Raises
    ------
    UsageError
        For a move model it does not count (slides).

    Examples
    --------
    >>> from coinsat import load
    >>> c = count(load("instances/paper/diagonal.toml"))
    >>> c.length, c.sequences, c.traces
    (18, 5856, 1296)
    """
    if instance.moves != JUMP:
        raise UsageError(f"count: the {instance.moves!r} move model is not supported (only {JUMP!r})")
    t0 = time.perf_counter()
    with enforced(Limits(time_limit, memory_limit)) as budget:
        try:
            result = screen(instance) or _solve(instance, budget)
            if result.status is Status.UNSOLVABLE:
                return Count(
                    instance.name, result.status, None, 0, 0, 0, (), 0, _since(t0), "no solution", up_to_symmetry=0
                )
            if result.status is not Status.OPTIMAL or result.length is None:
                return _unknown(instance, result.status, t0, f"the optimum is not known ({result.status})")
            return _count_optimal(instance, result.length, max_sequences, t0, progress)
        except LimitReached as e:
            return _unknown(instance, Status.UNKNOWN, t0, f"stopped by the {e}")


def _solve(instance: Instance, budget: Limits) -> Result:
    return get_method("auto")(instance, limits=budget)


def _unknown(instance: Instance, status: Status, t0: float, note: str) -> Count:
    return Count(instance.name, status, None, None, None, None, None, 0, _since(t0), note)


def _since(t0: float) -> float:
    return time.perf_counter() - t0


def _count_optimal(
    instance: Instance, length: int, max_sequences: int, t0: float, progress: Callable[[Progress], None] | None = None
) -> Count:
    work = window_for(instance, LatticeLayers(instance), length)
    if work is None:
        return _unknown(instance, Status.UNKNOWN, t0, f"the window exact for {length} moves is too large")
    layered = layered_search(work, length, progress)
    a, b = layered.meet
    if a + b != length:
        raise InternalError(f"the counting search met at depth {a + b}, the engines proved the optimum {length}")
    sequences = sum(n * layered.backward[b][s] for s, n in layered.forward[a].items() if s in layered.backward[b])
    steps = optimal_layers(work, layered)
    traces = None
    note = ""
    if sequences <= max_sequences:
        listed = list(enumerate_sequences(work, steps))
        if len(listed) != sequences:
            raise InternalError(f"{len(listed)} optimal sequences listed, {sequences} counted")
        traces = count_traces(listed)
    else:
        note = f"traces not counted: {sequences} sequences exceed the listing cap of {max_sequences}"
    states = sum(map(len, layered.forward)) + sum(map(len, layered.backward))
    group = symmetries(work)
    fixed = sum(fixed_sequences(work, steps, g) for g in group)
    if (sequences + fixed) % (len(group) + 1):
        raise InternalError(f"Burnside's count is not an integer: ({sequences} + {fixed}) / {len(group) + 1}")
    return Count(
        instance.name,
        Status.OPTIMAL,
        length,
        sequences,
        traces,
        sequences,
        tuple(len(s) for s in steps),
        states,
        _since(t0),
        note,
        len(group) + 1,
        (sequences + fixed) // (len(group) + 1),
    )


def fixed_sequences(instance: Instance, steps: list[set[State]], symmetry: tuple[int, ...]) -> int:
    """The optimal sequences that ``symmetry`` (a cell permutation) maps to themselves: those whose
    every move lifts from and drops on cells it fixes (a path count in the optimal sub-graph)."""
    board, d = instance.board, instance.d
    paths = dict.fromkeys(steps[0], 1)
    for t in range(len(steps) - 1):
        nxt: dict[State, int] = {}
        for state, n in paths.items():
            for move, new in successors(board, d, state):
                if new in steps[t + 1] and symmetry[move.src] == move.src and symmetry[move.dst] == move.dst:
                    nxt[new] = nxt.get(new, 0) + n
        paths = nxt
    return sum(paths.values())


def layered_search(
    instance: Instance, horizon: int | None = None, progress: Callable[[Progress], None] | None = None
) -> Layered:
    """Bidirectional BFS that keeps every layer and its shortest-path counts, to the first meeting.

    With the optimum ``horizon`` known, a backward state at depth k must lie in R_{horizon-k}
    (``theory.reach.layer_steps``): the configuration at step t of any sequence from the start
    has its coins in R_t, so the states this drops lie on no optimal sequence, and the counts of
    those it keeps are unchanged (every path from a kept state on an optimal sequence to the goal
    is the tail of an optimal sequence).  Raises InternalError if a side runs out or the sides
    do not meet within ``horizon`` (the caller knows a solution of that length exists)."""
    labels = instance.labels
    board, d = instance.board, instance.d
    start = instance.start.masks(labels)
    allowed = None if horizon is None else _allowed(instance, horizon)
    goals = {g.masks(labels) for g in instance.goal_configurations}
    if allowed is not None:
        goals = {g for g in goals if _inside(g, allowed[0])}
    forward: list[dict[State, int]] = [{start: 1}]
    backward: list[dict[State, int]] = [dict.fromkeys(goals, 1)]
    seen_f: set[State] = {start}
    seen_b: set[State] = set(goals)
    while True:
        a, b = len(forward) - 1, len(backward) - 1
        if any(s in backward[b] for s in forward[a]):
            return Layered(forward, backward, (a, b))
        if horizon is not None and a + b >= horizon:
            raise InternalError(f"the counting search found no solution within {horizon} moves")
        grow_forward = len(forward[a]) <= len(backward[b])
        layers, seen = (forward, seen_f) if grow_forward else (backward, seen_b)
        expand = successors if grow_forward else predecessors
        mask = None if grow_forward or allowed is None else allowed[b + 1]
        nxt: dict[State, int] = {}
        for state, n in layers[-1].items():
            poll()
            for _move, new in expand(board, d, state):
                if new not in seen and (mask is None or _inside(new, mask)):
                    nxt[new] = nxt.get(new, 0) + n
        if not nxt:
            raise InternalError("the counting search ran out of configurations before the goal")
        seen.update(nxt)
        layers.append(nxt)
        if progress is not None:
            progress(Progress("forward" if grow_forward else "backward", len(layers) - 1, len(seen_f) + len(seen_b)))


def _allowed(instance: Instance, horizon: int) -> list[int]:
    """``allowed[k]``: the cells of R_{horizon-k} as a bitmask."""
    step = layer_steps(instance.board.neighbours, instance.start.cells, instance.d)
    return [sum(1 << c for c, s in enumerate(step) if s is not None and s <= horizon - k) for k in range(horizon + 1)]


def _inside(state: State, mask: int) -> bool:
    return not any(m & ~mask for m in state)


def optimal_layers(instance: Instance, layered: Layered) -> list[set[State]]:
    """``steps[t]``: the configurations at step t of some optimal sequence, t = 0..D."""
    board, d = instance.board, instance.d
    a, b = layered.meet
    middle = {s for s in layered.forward[a] if s in layered.backward[b]}
    before: list[set[State]] = [middle]
    for i in range(a, 0, -1):  # back through the forward layers
        prev = layered.forward[i - 1]
        before.append({p for s in before[-1] for _m, p in predecessors(board, d, s) if p in prev})
    after: list[set[State]] = []
    current = middle
    for j in range(b, 0, -1):  # on through the backward layers
        nxt = layered.backward[j - 1]
        current = {q for s in current for _m, q in successors(board, d, s) if q in nxt}
        after.append(current)
    return before[::-1] + after


def enumerate_sequences(instance: Instance, steps: list[set[State]]) -> Iterator[tuple[Move, ...]]:
    """Every optimal move sequence, by depth-first search inside the optimal sub-graph."""
    board, d = instance.board, instance.d
    last = len(steps) - 1

    def walk(t: int, state: State, prefix: list[Move]) -> Iterator[tuple[Move, ...]]:
        if t == last:
            yield tuple(prefix)
            return
        poll()
        for move, new in successors(board, d, state):
            if new in steps[t + 1]:
                prefix.append(move)
                yield from walk(t + 1, new, prefix)
                prefix.pop()

    for s in steps[0]:
        yield from walk(0, s, [])


def count_traces(sequences: list[tuple[Move, ...]]) -> int:
    """The classes of ``sequences`` under swapping two adjacent moves, when the swapped sequence
    is in the list too (for a list closed under legal swaps: the traces)."""
    index = {seq: i for i, seq in enumerate(sequences)}
    parent = list(range(len(sequences)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    classes = len(sequences)
    for i, seq in enumerate(sequences):
        for t in range(len(seq) - 1):
            other = index.get(seq[:t] + (seq[t + 1], seq[t]) + seq[t + 2 :])
            if other is not None:
                ri, ro = find(i), find(other)
                if ri != ro:
                    parent[ri] = ro
                    classes -= 1
    return classes
