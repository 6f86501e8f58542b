"""Span-pruned, vectorised breadth-first search (method ``spanbfs``).

The exact engine for the hard members of the V-to-diagonal family: it proves
optima that the SAT driver cannot reach (V(3,2) and V(3,3): 53 moves to the
NW-SE diagonal, 73 for V(3,3) to the SW-NE one).

**Pruning (sound, global).**  Lemma "span monotone" (encodings/sat.md, Lemma P (i)):
a move s -> p puts p on a cell with >= d coins of C - s around it, so p lies
in span(C) and span(C') is a subset of span(C).  Every configuration on a path
to a goal placement B therefore has span(C) containing span(B).  A state whose
span contains the span of no goal placement is dropped; nothing else is.
When the goal spans the whole window (the V family, every diagonal) the search
runs over the configurations that span the window, which are few: on V(3,2)
8.7 million of the C(49, 9) = 2.05 * 10^9 configurations of its box.
The same lemma holds inside a finite window, so on inexact (triangular)
windows the answers keep the scope they have for ``bfs``.

**Search.**  Forward breadth-first search by layers.  A state is one uint64
word (bit c = cell c occupied), so the window must have at most 64 cells and
the coins must be unlabeled (one colour class).  A layer is expanded in chunks
with numpy: for every source cell s, the neighbour counts of every cell come
from one ``bitwise_count`` over the board's neighbour masks, and a legal
destination is an empty cell other than s with >= d neighbours in C - s (the
rule of rules.py, in vector form; tests compare the two kernels state by
state).  The visited set is one sorted array; every layer is kept, sorted, to
rebuild a path: from the goal at depth D back through layers D - 1, ..., 0
with the predecessor kernel of rules.py, and the moves are then replayed by
``certify_solution`` like every engine's.

Why forward only: the predecessor relation has a branching factor of
(coins that are supported) x (every empty cell), and every predecessor of a
spanning state spans too, so a backward frontier is not pruned at all.

**Answers.**  ``optimal`` at the first layer holding a goal (every shorter
path was enumerated); ``unsolvable`` (certificate ``exhaustive-search``) when
a layer comes out empty; ``bounded`` at ``max_moves``; ``unknown`` at the time
or state limit, with the lower bound = the first depth not yet enumerated.
Scopes follow ``bfs``: global on exact windows, otherwise what the window
proves (``Instance.exact_within``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..errors import UsageError
from ..instance import Instance
from ..result import Result, Status
from ..rules import predecessors
from ..solution import Solution, certify_solution

U64 = np.uint64
ONE = U64(1)
#: States per vectorised chunk: bounds the temporaries (~N words per state).
CHUNK = 1 << 17
#: Goal placements tested one by one in the pruning; beyond, their common span is used.
MAX_GOAL_SPANS = 16


@dataclass(frozen=True)
class LayerReport:
    """One finished layer: what the progress display shows."""
    depth: int
    size: int  # states first reached at this depth
    states: int  # states reached so far
    seconds: float


def applicable(instance: Instance) -> str | None:
    """None if ``spanbfs`` can run on ``instance``, else the reason it cannot."""
    if instance.board.size > 64:
        return f"the window has {instance.board.size} cells (at most 64)"
    if len(instance.labels) > 1:
        return "the coins are labeled (spanbfs handles one colour class)"
    return None


class _Kernel:
    """The move rule and the span closure of one board, on arrays of uint64 words.

    Neighbourhoods are index shifts: for every difference delta = q - p over the
    edges p ~ q, ``_planes`` gives the word whose bit p says "p + delta is
    occupied and a neighbour of p" (a square window has 4 deltas, a triangular
    one 6; a graph board has as many as it needs).  "At least d occupied
    neighbours" is then a d-level threshold counter over the planes."""

    def __init__(self, instance: Instance):
        board = instance.board
        self.n, self.d = board.size, instance.d
        self.full = ~U64(0) if self.n == 64 else (ONE << U64(self.n)) - ONE
        by_delta: dict[int, int] = {}
        for p, mask in enumerate(board.neighbour_masks):
            for q in range(self.n):
                if mask >> q & 1:
                    by_delta[q - p] = by_delta.get(q - p, 0) | (1 << p)
        self.shifts = [(U64(abs(k)), k > 0, U64(m)) for k, m in sorted(by_delta.items())]
        self.cells = np.arange(self.n, dtype=U64)

    def supported(self, m: np.ndarray) -> np.ndarray:
        """Words of the cells with >= d occupied neighbours in ``m``."""
        ge = [None] * (self.d + 1)  # ge[k]: cells with >= k occupied neighbours so far
        for amount, up, mask in self.shifts:
            plane = ((m >> amount) if up else (m << amount)) & mask
            for k in range(self.d, 1, -1):
                if ge[k - 1] is not None:
                    ge[k] = ge[k - 1] & plane if ge[k] is None else ge[k] | (ge[k - 1] & plane)
            ge[1] = plane if ge[1] is None else ge[1] | plane
        return ge[self.d] if ge[self.d] is not None else np.zeros_like(m)

    def successors(self, states: np.ndarray) -> np.ndarray:
        """Every state one legal move away from one of ``states`` (with repeats)."""
        out = []
        for s in range(self.n):
            bit = ONE << U64(s)
            rest = states[(states & bit) != 0] & ~bit  # C - s for the states holding s
            if rest.size == 0:
                continue
            dest = self.supported(rest) & ~rest & ~bit & self.full  # empty, not s, >= d around
            p, i = np.nonzero((dest[None, :] >> self.cells[:, None]) & ONE)
            out.append(rest[i] | (ONE << p.astype(U64)))
        return np.concatenate(out) if out else np.zeros(0, U64)

    def span(self, states: np.ndarray) -> np.ndarray:
        """span(C) of every state: add the cells with >= d coins around until nothing changes."""
        m = states.copy()
        active = np.arange(m.size)
        while active.size:
            cur = m[active]
            grown = cur | (self.supported(cur) & self.full)
            changed = grown != cur
            m[active] = grown
            active = active[changed]
        return m

    def spans_one_of(self, states: np.ndarray, need: np.ndarray) -> np.ndarray:
        """Mask of the states whose span contains one of the words ``need``."""
        span = self.span(states)
        keep = np.zeros(states.shape, dtype=bool)
        for g in need:
            keep |= (span & g) == g
        return keep


def _goal_spans(kernel: _Kernel, goals: np.ndarray) -> np.ndarray:
    """The spans a state must contain one of (their intersection if there are many)."""
    spans = _unique(kernel.span(goals))
    if spans.size > MAX_GOAL_SPANS:
        return np.array([np.bitwise_and.reduce(spans)], dtype=U64)
    return spans


def _unique(words: np.ndarray) -> np.ndarray:
    """Sorted distinct words (a sort: numpy's hashing ``unique`` is slower on uint64)."""
    if words.size == 0:
        return words
    words = np.sort(words)
    keep = np.empty(words.size, dtype=bool)
    keep[0] = True
    np.not_equal(words[1:], words[:-1], out=keep[1:])
    return words[keep]


def _member(sorted_arr: np.ndarray, values: np.ndarray) -> np.ndarray:
    if sorted_arr.size == 0:
        return np.zeros(values.shape, dtype=bool)
    idx = np.minimum(np.searchsorted(sorted_arr, values), sorted_arr.size - 1)
    return sorted_arr[idx] == values


def solve_spanbfs(instance: Instance, max_moves: int | None = None, time_limit: float | None = None,
                  max_states: int = 400_000_000, prune: bool = True, progress=None,
                  keep_layers: list | None = None) -> Result:
    """Shortest solution by span-pruned layered BFS (module docstring).

    ``prune=False`` turns the span pruning off (for tests and benchmarks);
    ``progress(LayerReport)`` is called after every layer; ``keep_layers``, a list,
    receives the layers (sorted uint64 arrays, bit c = board cell c) when the run
    ends — the witness of a ``layers`` certificate (certificates/layers.py)."""
    why = applicable(instance)
    if why is not None:
        raise UsageError(f"method 'spanbfs' cannot solve this instance: {why}")
    t0 = time.perf_counter()
    deadline = float("inf") if time_limit is None else t0 + time_limit
    kernel = _Kernel(instance)
    (start_word,) = instance.start.masks(instance.labels)
    goals = _unique(np.array([g.masks(instance.labels)[0] for g in instance.goal_configurations], dtype=U64))
    need = _goal_spans(kernel, goals) if prune else np.zeros(1, dtype=U64)

    layers = [np.array([start_word], dtype=U64)]
    visited = layers[0]
    stats = {"states": 1, "layers": [1], "pruning": prune}

    def result(status, solution=None, lb=None, certificate=None) -> Result:
        stats["states"] = int(visited.size)
        if keep_layers is not None:
            keep_layers.extend(layers)
        return Result(status, "spanbfs", solution, lb, certificate, time.perf_counter() - t0, stats)

    def partial(depth_done: int) -> int:
        """Lower bound when every path of <= depth_done moves was enumerated."""
        return depth_done + 1 if instance.exact_within(depth_done) else instance.exact_radius + 1

    if _member(goals, layers[0])[0]:
        return result(Status.OPTIMAL, certify_solution(instance, Solution.of([]), "spanbfs"), 0)
    depth = 0
    while True:
        if max_moves is not None and depth >= max_moves:
            if instance.exact_within(max_moves):
                return result(Status.BOUNDED, lb=max_moves + 1,
                              certificate={"kind": "exhaustive-search", "scope": "horizon", "horizon": max_moves})
            return result(Status.UNKNOWN, lb=partial(depth))
        front = layers[-1]
        parts = []
        for i in range(0, front.size, CHUNK):
            succ = _unique(kernel.successors(front[i:i + CHUNK]))
            parts.append(succ[kernel.spans_one_of(succ, need)])
            if time.perf_counter() > deadline:
                return result(Status.UNKNOWN, lb=partial(depth))
        nxt = _unique(np.concatenate(parts)) if parts else np.zeros(0, U64)
        nxt = nxt[~_member(visited, nxt)]
        depth += 1
        if nxt.size == 0:
            scope = "global" if instance.board.exact else "window"
            cert = {"kind": "exhaustive-search", "scope": scope, "window": instance.board.window,
                    "states": int(visited.size), "side": "forward", "pruning": "span" if prune else "none"}
            if scope == "global":
                return result(Status.UNSOLVABLE, certificate=cert)
            return result(Status.UNSOLVABLE, lb=instance.exact_radius + 1, certificate=cert)
        layers.append(nxt)
        visited = np.insert(visited, np.searchsorted(visited, nxt), nxt)
        stats["layers"].append(int(nxt.size))
        if progress is not None:
            progress(LayerReport(depth, int(nxt.size), int(visited.size), time.perf_counter() - t0))
        hit = nxt[_member(goals, nxt)]
        if hit.size:
            moves = _path(instance, layers, int(hit[0]))
            solution = certify_solution(instance, Solution.of(moves), "spanbfs")
            if instance.exact_within(depth - 1):
                return result(Status.OPTIMAL, solution, depth)
            stats["window_optimal"] = True
            return result(Status.FEASIBLE, solution, min(depth, instance.exact_radius + 1))
        if visited.size > max_states or time.perf_counter() > deadline:
            return result(Status.UNKNOWN, lb=partial(depth))


def _path(instance: Instance, layers: list[np.ndarray], word: int) -> list:
    """Moves from the start to ``word`` (in the last layer), one predecessor per layer,
    found with the predecessor kernel of rules.py."""
    board, d = instance.board, instance.d
    moves = []
    for layer in reversed(layers[:-1]):
        for move, (prev,) in predecessors(board, d, (word,)):
            if _member(layer, np.array([prev], dtype=U64))[0]:
                moves.append(move)
                word = prev
                break
        else:  # pragma: no cover - a state in layer k always has a predecessor in layer k - 1
            raise AssertionError("spanbfs: broken layer chain")
    moves.reverse()
    return moves
