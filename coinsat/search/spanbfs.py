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
a layer comes out empty; ``bounded`` at ``max_moves``; ``unknown`` at the time,
memory or state limit (polled once per chunk of states), with the lower bound
= the first depth not yet enumerated.  On exact windows these are global.

**Inexact windows** (triangular grid, square grid with d = 1) grow as for
``bfs`` (``search/grown.py``): round H searches, to depth H, the smallest
window holding the lattice layer R_H, where every solution with <= H moves
lives; the span pruning is sound there for those solutions (Lemma "span
monotone" holds for moves inside any window, and such a solution never leaves
it).  So a goal found at depth n <= H is a global optimum and a round that ends
without one proves "none with <= H moves".  An empty layer is a global
``unsolvable`` only on an exact window: in an inexact one the pruning may have
dropped the first configurations of a longer solution that leaves it.  The
window must keep to 64 cells: a horizon whose window is larger ends the run
with ``unknown`` and the proven bound.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import LimitReached, UsageError
from ..instance import Instance
from ..limits import Limits, enforced
from ..result import Engine, Result
from ..rules import predecessors
from .layered import Ending, LayerReport, Outcome, fixed_result, grown, member, unique
from .methods import contract
from .options import SpanbfsOptions

U64 = np.uint64
ONE = U64(1)
#: States per vectorised chunk: bounds the temporaries (~N words per state).
CHUNK = 1 << 17
#: Goal placements tested one by one in the pruning; beyond, their common span is used.
MAX_GOAL_SPANS = 16


#: a state is one 64-bit word
MAX_CELLS = 64


def applicable(instance: Instance) -> str | None:
    """None if ``spanbfs`` can run on ``instance``, else the reason it cannot."""
    if instance.board.size > MAX_CELLS:
        return f"the window has {instance.board.size} cells (at most {MAX_CELLS})"
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
        self.n = board.size
        self.full = ~U64(0) if self.n == 64 else (ONE << U64(self.n)) - ONE
        by_delta: dict[int, int] = {}
        for p, mask in enumerate(board.neighbour_masks):
            for q in range(self.n):
                if mask >> q & 1:
                    by_delta[q - p] = by_delta.get(q - p, 0) | (1 << p)
        self.shifts = [(U64(abs(k)), k > 0, U64(m)) for k, m in sorted(by_delta.items())]
        degree = max((len(nb) for nb in board.neighbours), default=0)
        self.d = instance.d if instance.d <= degree else None  # None: no cell is ever supported
        self.cells = np.arange(self.n, dtype=U64)

    def supported(self, m: np.ndarray) -> np.ndarray:
        """Words of the cells with >= d occupied neighbours in ``m``.

        A cell has at most ``len(self.shifts)`` neighbours (one per shift), so a d above
        that (``self.d`` is then None) means no cell is ever supported: the counter needs
        d + 1 levels only when d is at most the number of shifts (never ~d work)."""
        if self.d is None:
            return np.zeros_like(m)
        ge = [None] * (self.d + 1)  # ge[k]: cells with >= k occupied neighbours so far
        for amount, up, mask in self.shifts:
            plane = ((m >> amount) if up else (m << amount)) & mask
            for k in range(self.d, 1, -1):
                if ge[k - 1] is not None:
                    ge[k] = ge[k - 1] & plane if ge[k] is None else ge[k] | (ge[k - 1] & plane)
            ge[1] = plane if ge[1] is None else ge[1] | plane
        top = ge[self.d]
        return top if top is not None else np.zeros_like(m)

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
    spans = unique(kernel.span(goals))
    if spans.size > MAX_GOAL_SPANS:
        return np.array([np.bitwise_and.reduce(spans)], dtype=U64)
    return spans


@contract(SpanbfsOptions)
def solve_spanbfs(instance: Instance, *, limits: Limits, max_moves: int | None, options: SpanbfsOptions) -> Result:
    """Shortest solution by span-pruned layered BFS (module docstring; options:
    ``SpanbfsOptions``).  The result's ``witness`` (``SearchLayers``) holds the list of layers (sorted uint64
    arrays, bit c = board cell c) when the instance's own window was searched (an exact
    window, or ``grow=False``): the layers certificate reuses them."""
    why = applicable(instance)
    if why is not None:
        raise UsageError(f"method 'spanbfs' cannot solve this instance: {why}")
    if options.grow and instance.board.is_lattice and not instance.board.exact:
        return grown(
            instance,
            max_moves,
            limits,
            options.max_states,
            options.prune,
            options.progress,
            _forward,
            "spanbfs",
            Engine.SPANBFS,
            MAX_CELLS,
        )
    with enforced(limits):
        out = _forward(instance, max_moves, limits, options.max_states, options.prune, options.progress)
    return fixed_result(instance, out, max_moves, limits, options.prune, "spanbfs", Engine.SPANBFS)


def _forward(
    instance: Instance, horizon: int | None, limits: Limits, max_states: int | None, prune: bool, progress
) -> Outcome:
    """Layered forward BFS with span pruning to depth ``horizon`` (None: no horizon)."""
    (start_word,) = instance.start.masks(instance.labels)
    goals = unique(np.array([g.masks(instance.labels)[0] for g in instance.goal_configurations], dtype=U64))
    layers = [np.array([start_word], dtype=U64)]
    layer_sizes = [1]
    stats: dict[str, Any] = {"layers": layer_sizes, "pruning": prune, "expanded": 0, "pruned": 0}
    visited = layers[0]
    depth = 0

    def end(kind: Ending, moves=None, reason=None) -> Outcome:
        return Outcome(kind, depth, int(visited.size), layers, moves, reason, stats)

    if member(goals, layers[0])[0]:
        return end(Ending.FOUND, [])
    try:
        kernel = _Kernel(instance)
        need = _goal_spans(kernel, goals) if prune else np.zeros(1, dtype=U64)
        while True:
            if horizon is not None and depth >= horizon:
                return end(Ending.HORIZON)
            reason = limits.exceeded()
            if reason:
                return end(Ending.LIMIT, reason=reason)
            front = layers[-1]
            parts = []
            for i in range(0, front.size, CHUNK):
                succ = unique(kernel.successors(front[i : i + CHUNK]))
                kept = succ[kernel.spans_one_of(succ, need)]
                stats["expanded"] += min(CHUNK, front.size - i)
                stats["pruned"] += succ.size - kept.size
                parts.append(kept)
                reason = limits.exceeded()
                if reason:
                    return end(Ending.LIMIT, reason=reason)
            nxt = unique(np.concatenate(parts)) if parts else np.zeros(0, U64)
            nxt = nxt[~member(visited, nxt)]
            if nxt.size == 0:
                return end(Ending.EMPTY)
            layers.append(nxt)
            visited = np.insert(visited, np.searchsorted(visited, nxt), nxt)
            depth += 1
            layer_sizes.append(int(nxt.size))
            if progress is not None:
                progress(LayerReport(depth, int(nxt.size), int(visited.size), limits.elapsed()))
            hit = nxt[member(goals, nxt)]
            if hit.size:
                return end(Ending.FOUND, _path(instance, layers, int(hit[0])))
            if max_states is not None and visited.size > max_states:
                return end(Ending.LIMIT, reason="state limit")
    except LimitReached as e:  # the ambient budget (limits.poll) or its watchdog
        return end(Ending.LIMIT, reason=str(e))
    except KeyboardInterrupt:
        return end(Ending.LIMIT, reason="interrupted")


def _path(instance: Instance, layers: list[np.ndarray], word: int) -> list:
    """Moves from the start to ``word`` (in the last layer), one predecessor per layer,
    found with the predecessor kernel of rules.py."""
    board, d = instance.board, instance.d
    moves = []
    for layer in reversed(layers[:-1]):
        for move, (prev,) in predecessors(board, d, (word,)):
            if member(layer, np.array([prev], dtype=U64))[0]:
                moves.append(move)
                word = prev
                break
        else:  # pragma: no cover - a state in layer k always has a predecessor in layer k - 1
            raise AssertionError("spanbfs: broken layer chain")
    moves.reverse()
    return moves
