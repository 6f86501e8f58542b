"""The ranked state space of ``rankbfs``: colex ranks expanded as bitboards.

:class:`Space` holds one instance's ranks (``colex.py``), its move kernel on bitboards
of W = ceil(n / 64) words (:class:`Kernel`; the neighbour planes are shifts across
words), the goal spans the pruning keeps and the bound-and-prune heuristic; it
expands a chunk of ranks into the sorted ranks of their successors (compiled by
``jit.py`` when numba is installed and the chunk is large).  :func:`union` merges
sorted runs, :func:`path` rebuilds a solution from the kept layers, :class:`Rate`
makes the per-layer progress reports.  The engine (``search.py``) and its exchanges
(``processes.py``, ``mpi.py``) share these; the module docstring of ``search.py``
has the arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from ...errors import InternalError
from ...instance import Instance
from ...limits import Limits, signals_deferred
from ...rules import predecessors
from ...theory.reach import edge_budget
from ..heuristics import DEFAULT, heuristic, pruned_by
from ..layered import LayerReport, unique
from ..windows import elapsed
from .colex import U64, Colex, fits, to_words
from .visited import compiled

ONE = U64(1)
#: frontier states expanded at once (temporaries are a few hundred bytes per state)
CHUNK = 1 << 15
#: bitboards of at most this many words (256 cells)
MAX_WORDS = 4
#: frontiers this large use the compiled expansion when numba is installed (smaller ones are
#: done before numba would have loaded)
FAST_MIN = 1 << 14
#: past this many coins the numpy expansion runs (``jit.expand_branchfree``'s coin mask is one word)
MAX_FAST_COINS = 64


def max_cells(k: int) -> int:
    """The largest window ``rankbfs`` takes for k coins (ranks fit 64 bits, <= MAX_WORDS words)."""
    n = 64 * MAX_WORDS
    while n > k and not fits(n, k):
        n -= 1
    return n


def applicable(instance: Instance) -> str | None:
    """None if ``rankbfs`` can run on ``instance``, else the reason it cannot."""
    if len(instance.labels) > 1:
        return "the coins are labeled (rankbfs handles one colour class)"
    if instance.moves != "jump":
        return f"the move model is '{instance.moves}' (rankbfs implements jumps)"
    cap = max_cells(instance.n_coins)
    if instance.board.size > cap:
        return f"the window has {instance.board.size} cells (at most {cap} for {instance.n_coins} coins)"
    return None


class Kernel:
    """The move rule and span closure on bitboards of shape (W, N): word w holds cells
    64w .. 64w + 63.  A neighbour plane for a cell difference delta is the bitboard
    shifted by delta across words, masked to the cells p with p ~ p + delta."""

    def __init__(self, instance: Instance):
        board = instance.board
        self.n = n = board.size
        self.W = max(1, -(-n // 64))
        by_delta: dict[int, int] = {}
        for p, mask in enumerate(board.neighbour_masks):
            for q in range(n):
                if mask >> q & 1:
                    by_delta[q - p] = by_delta.get(q - p, 0) | (1 << p)
        self.shifts = [(k, self._split(m)) for k, m in sorted(by_delta.items())]
        self.full = self._split((1 << n) - 1)
        degree = max((len(nb) for nb in board.neighbours), default=0)
        self.d = instance.d if instance.d <= degree else None
        # below[:, p]: the cells < p; nbr[:, p]: the neighbours of p
        self.below = np.stack([self._split((1 << p) - 1)[:, 0] for p in range(n)], axis=1)
        self.nbr = np.stack([self._split(m)[:, 0] for m in board.neighbour_masks], axis=1)

    def any0(self, m: np.ndarray) -> np.ndarray:
        """Columns of m with a bit set (a reduction over the W words, none when W = 1)."""
        return m[0] != 0 if self.W == 1 else (m != 0).any(axis=0)

    def count0(self, m: np.ndarray) -> np.ndarray:
        """Bits set in each column of m."""
        return np.bitwise_count(m[0]) if self.W == 1 else np.bitwise_count(m).sum(axis=0, dtype=np.uint8)

    def _split(self, mask: int) -> np.ndarray:
        return np.array([[(mask >> (64 * w)) & ((1 << 64) - 1)] for w in range(self.W)], dtype=U64)

    def _shift(self, m: np.ndarray, k: int) -> np.ndarray:
        """Bit p of the result = bit p + k of m (k may be negative), across words."""
        if self.W == 1:
            return (m >> U64(k)) if k > 0 else (m << U64(-k))
        out = np.zeros_like(m)
        q, r = divmod(abs(k), 64)
        W = self.W
        for w in range(W):
            src = w + q if k > 0 else w - q
            if 0 <= src < W:
                out[w] = (m[src] >> U64(r)) if k > 0 else (m[src] << U64(r))
            if r:
                nxt = src + 1 if k > 0 else src - 1
                if 0 <= nxt < W:
                    out[w] |= (m[nxt] << U64(64 - r)) if k > 0 else (m[nxt] >> U64(64 - r))
        return out

    def supported(self, m: np.ndarray) -> np.ndarray:
        """Cells with >= d occupied neighbours in m (a d-level threshold counter over the planes)."""
        if self.d is None:
            return np.zeros_like(m)
        ge: list = [None] * (self.d + 1)
        for k, mask in self.shifts:
            plane = self._shift(m, k) & mask
            for lvl in range(self.d, 1, -1):
                if ge[lvl - 1] is not None:
                    both = ge[lvl - 1] & plane
                    ge[lvl] = both if ge[lvl] is None else ge[lvl] | both
            ge[1] = plane if ge[1] is None else ge[1] | plane
        top = ge[self.d]
        return top if top is not None else np.zeros_like(m)

    def at_least(self, m: np.ndarray, t: int) -> np.ndarray:
        """Cells with >= t occupied neighbours in m (t >= 1; ``supported`` is t = d)."""
        ge: list = [None] * (t + 1)
        for k, mask in self.shifts:
            plane = self._shift(m, k) & mask
            for lvl in range(t, 1, -1):
                if ge[lvl - 1] is not None:
                    both = ge[lvl - 1] & plane
                    ge[lvl] = both if ge[lvl] is None else ge[lvl] | both
            ge[1] = plane if ge[1] is None else ge[1] | plane
        top = ge[t]
        return top & self.full if top is not None else np.zeros_like(m)

    def span(self, m: np.ndarray) -> np.ndarray:
        """span of every column of m."""
        m = m.copy()
        active = np.arange(m.shape[1])
        while active.size:
            cur = m[:, active]
            grown = cur | (self.supported(cur) & self.full)
            changed = self.any0(grown ^ cur)
            m[:, active] = grown
            active = active[changed]
        return m

    def spans_one_of(self, m: np.ndarray, need: list[np.ndarray], back: np.ndarray | None = None) -> np.ndarray:
        """Columns whose span contains one of the bitboards ``need`` (each (W, 1)); the
        closure stops growing a column once it contains one, or once it holds its cell of
        ``back`` (the removed coin s: then span(C - s) = span(C), which contains a goal span)."""
        keep = np.zeros(m.shape[1], dtype=bool)
        active = np.arange(m.shape[1])
        cur = m
        while active.size:
            hit = np.zeros(active.size, dtype=bool) if back is None else self.any0(cur & back[:, active])
            for g in need:
                hit |= ~self.any0(g & ~cur)
            keep[active[hit]] = True
            grown = cur | (self.supported(cur) & self.full)
            go = ~hit & self.any0(grown ^ cur)
            active, cur = active[go], grown[:, go]
        return keep


class Space:
    """What expanding a layer needs: the ranking, the kernel, the span targets and h."""

    def __init__(self, instance: Instance, prune: bool = True, upper_bound: int | None = None, h: str = DEFAULT):
        # the h's record (``search/heuristics.py``): its kernel is the inner h of :meth:`heuristic`
        self.h_spec = heuristic(h)
        self.h = h
        self._h_kernel = self.h_spec.function()
        self.instance = instance
        self.kernel = Kernel(instance)
        self.k = instance.n_coins
        self.n = instance.board.size
        self.colex = Colex(self.n, self.k)
        goals = np.array([list(g.cells) for g in instance.goal_configurations], dtype=np.int64).reshape(-1, self.k)
        self.goals = np.sort(goals, axis=1)
        self.goal_ranks = unique(self.colex.rank(self.goals))
        gw = to_words(self.goals, self.kernel.W)
        spans = self.kernel.span(gw)
        spans = np.unique(spans.T, axis=0).T if spans.shape[1] else spans
        every = spans.shape[1] <= 16  # the target is "one of the goal spans", as in spanbfs
        if not every:  # too many: their common part is a weaker, still sound target
            spans = np.bitwise_and.reduce(spans, axis=1, keepdims=True)
        self.need = [spans[:, i : i + 1] for i in range(spans.shape[1])] if prune else []
        self.prune = prune
        self.upper_bound = upper_bound
        budget = edge_budget(instance) if prune and every else None
        # the edges C - s may have if span(C - s) is to contain a goal span (module docstring)
        self.rest_edges = None if budget is None else budget - 2
        self.goal_words = [gw[:, i : i + 1] for i in range(gw.shape[1])]
        self._fast: object = False  # not decided yet (see ``fast``)
        self._lm: Any = None  # the LM-cut kernel's tables (``lmcut.LmCut``), built on first use

    def kernel_words(self, ranks: np.ndarray) -> np.ndarray:
        """The bitboards (W, N) of the states with these ranks."""
        return to_words(self.colex.unrank(ranks), self.kernel.W)

    def rank_of_cells(self, cells) -> int:
        return int(self.colex.rank(np.array([sorted(cells)], dtype=np.int64))[0])

    def cells_of_rank(self, r: int) -> list[int]:
        return self.colex.unrank(np.array([r], dtype=U64))[0].tolist()

    #: the symmetry group the search is quotiented by (``search.py`` sets it; docs/symmetry.md):
    #: the nontrivial ones as cell permutations, an int64 array (g, n); None: no quotient
    symmetry: Any = None

    def expand(self, ranks: np.ndarray) -> np.ndarray:
        """Sorted distinct ranks of the successors of ``ranks`` that keep a goal span
        (the compiled kernel of ``search/rank/jit.py`` when numba is installed, up to 64 coins:
        its coin mask is one word), in canonical form when ``symmetry`` is set (:meth:`canonical`)."""
        out = [np.zeros(0, dtype=U64)]
        # small batches: no numba import; once it is loaded, compiled at every size (the numpy
        # expansion of the small layers at a search's end took a quarter of its CPU on diagonal-6)
        fast = self.fast if ranks.size >= FAST_MIN or self._fast not in (False, None) else None
        if self.k > MAX_FAST_COINS:
            fast = None
        step = CHUNK if fast is None else CHUNK * 4
        for i in range(0, ranks.size, step):
            part = ranks[i : i + step]
            out.append(self.canonical(self._expand_chunk(part)) if fast is None else fast.successors(part))
        return union(out[1:])

    def canonical(self, ranks: np.ndarray) -> np.ndarray:
        """The canonical forms of ``ranks``, sorted and distinct (docs/symmetry.md, Lemma QS): each
        the least colex rank of its images under ``symmetry`` and itself; ``ranks`` as they are
        without a group.  Compiled (``jit.canonical_into``) for large batches, else numpy."""
        if self.symmetry is None or ranks.size == 0:
            return ranks
        # compiled once numba is loaded (the numpy form unranks and sorts per permutation)
        fast = self.fast if ranks.size >= FAST_MIN or self._fast not in (False, None) else None
        if fast is not None:
            out = np.array(ranks, dtype=U64)
            fast.canonical(out)
            return unique(out)
        pos = self.colex.unrank(ranks)
        best = np.array(ranks, dtype=U64)
        for g in self.symmetry:
            np.minimum(best, self.colex.rank(np.sort(g[pos], axis=1)), out=best)
        return unique(best)

    @property
    def fast(self):
        """The compiled expansion (None: numpy), built on first use."""
        if self._fast is False:
            kernels = compiled()  # loaded with interrupts held back (visited.compiled)
            self._fast = None if kernels is None else kernels.FastSpace(self)
        return self._fast

    def _expand_chunk(self, ranks: np.ndarray) -> np.ndarray:
        """Successor ranks of one chunk (with repeats removed).

        Per coin j of every state: the span test on C - c_j (held coins and the edge budget
        first, the closure only for the rest), the destinations as one bitboard, then the
        ranks by the shift formula (``_Ranks``)."""
        K, colex = self.kernel, self.colex
        coins = np.ascontiguousarray(colex.unrank(ranks).T)  # (k, N): coin j of every state
        words = to_words(coins.T, K.W)
        k, W = self.k, K.W
        sbits = np.left_shift(ONE, (coins & 63).astype(U64))  # (k, N)
        onehot = [(coins[j] >> 6)[None, :] == np.arange(W)[:, None] for j in range(k)] if W > 1 else None
        ranked = Ranks(colex, coins, ranks)
        if self.need:
            deg = np.stack([K.count0(K.nbr[:, coins[j]] & words) for j in range(k)])  # (k, N)
            held = deg >= (K.d if K.d is not None else 1 << 30)
            if self.rest_edges is not None:
                too_tight = deg.sum(axis=0, dtype=np.int64) // 2 - deg > self.rest_edges
        out = []
        for j in range(k):
            sb = sbits[j][None, :] if onehot is None else np.where(onehot[j], sbits[j][None, :], U64(0))
            rest = words & ~sb
            idx = None
            if self.need:
                # s held by >= d coins of C - s lies in span(C - s), so span(C - s) = span(C),
                # a kept state's span; C - s with too many edges cannot span a goal span
                # (Lemma P); only the other columns need their closure
                keep = held[j].copy()
                free = ~keep if self.rest_edges is None else ~keep & ~too_tight[j]
                f = np.flatnonzero(free)
                if f.size:
                    keep[f] = K.spans_one_of(rest[:, f], self.need, sb[:, f])
                idx = np.flatnonzero(keep)
                if idx.size == 0:
                    continue
                rest, sb = rest[:, idx], sb[:, idx]
            dest = K.supported(rest) & ~rest & ~sb & K.full
            row, p = _set_bits(dest)
            if row.size:
                out.append(ranked.successors(j, row if idx is None else idx[row], p, rest[:, row], K.below))
        return unique(np.concatenate(out)) if out else np.zeros(0, dtype=U64)

    #: the backward ball of ``--perimeter`` (``backward.Ball``); None: h is the inner h alone
    perimeter: Any = None

    @property
    def h_record(self):
        """The h as a certificate names it: the inner h's name, or the perimeter's record."""
        return pruned_by(self.h, None if self.perimeter is None else self.perimeter.radius)

    #: the keep decisions of an earlier bounded search of this instance with this h (:class:`Kept`,
    #: Lemma KR of docs/from-below.md; ``search.py`` sets it); None: every h is computed
    kept: Any = None
    #: states whose decision :meth:`heuristic` took from ``kept`` instead of computing their h
    trusted = 0

    def heuristic(self, ranks: np.ndarray, depth: int | None = None) -> np.ndarray:
        """The h the search prunes with: the inner h, or with a ball set the perimeter h
        (``backward.Ball.h``, docs/perimeter-search.md, Theorem P).  ``depth``: the states'
        depth t, when only the decision t + h <= U is wanted (the LM-cut h then stops its
        rounds past U - t: a value <= h that is <= U - t exactly when h is, ``lmcut.py``).

        With ``kept`` set and a depth given, a state the earlier search kept in a layer i with
        U_before - i <= U - t gets 0 without its h being computed: by Lemma KR (docs/from-below.md)
        its h is <= U - t, so 0 decides as h does (a value <= h, <= U - t exactly when h is)."""
        cap = None if depth is None or self.upper_bound is None else self.upper_bound - depth
        if self.kept is not None and cap is not None and ranks.size:
            trusted = self.kept.trusted(ranks, cap)
            n = int(np.count_nonzero(trusted))
            if n:
                self.trusted += n
                out = np.zeros(ranks.size, dtype=np.int64)
                rest = np.flatnonzero(~trusted)
                if rest.size:
                    out[rest] = self._decided(ranks[rest], cap)
                return out
        return self._decided(ranks, cap)

    def _decided(self, ranks: np.ndarray, cap: int | None) -> np.ndarray:
        """:meth:`heuristic` of ``ranks``, every h computed."""
        if self.perimeter is not None:
            return self.perimeter.h(ranks, lambda r: self.inner_heuristic(r, cap))
        return self.inner_heuristic(ranks, cap)

    def inner_heuristic(self, ranks: np.ndarray, cap: int | None = None) -> np.ndarray:
        """h of every state (module docstring), int64; a large value when a goal cell is out of reach
        (the compiled ``jit.schedule_h`` for large batches when numba is installed).  ``cap``: see
        ``heuristic`` (only the LM-cut h uses it).  The kernel is the h's record's
        (``search/heuristics.py``): :func:`fill_h`, :func:`forced_h`, :func:`lmcut_h`."""
        return self._h_kernel(self, ranks, cap)

    def _lmcut(self, ranks: np.ndarray, cap: int | None) -> np.ndarray:
        """h_lm (docs/lm-cut.md, Theorem LM; coinsat/theory/relaxed.py is the reference, tests
        compare): the fill h first on the whole batch (h_lm >= h_fill), then the compiled LM-cut
        (``lmcut.py``) on the states it does not prune, with its rounds stopped past ``cap``;
        without numba the reference, one state at a time."""
        fill = self._fill(ranks)
        todo = np.flatnonzero(fill < (1 << 30) if cap is None else fill <= cap)
        if todo.size == 0:
            return fill
        if compiled() is None:
            from ...theory.relaxed import h_lm

            board, d, goals = self.instance.board, self.instance.d, self._goal_masks()
            for i in todo.tolist():
                cells = self.cells_of_rank(int(ranks[i]))
                fill[i] = h_lm(board, d, sum(1 << c for c in cells), goals)
            return fill
        from .lmcut import LmCut, unrank_cells, warm_up

        if self._lm is None:
            with signals_deferred():  # as visited.compiled: no interrupt while numba loads a kernel
                warm_up()
            self._lm = LmCut(self.instance.board.neighbours, self.instance.d, [list(g) for g in self.goals])
        out = []
        for i in range(0, todo.size, CHUNK):
            part = ranks[todo[i : i + CHUNK]]
            cells = unrank_cells(np.ascontiguousarray(part, dtype=U64), self.k, self.n, self.colex.binom)
            out.append(self._lm.of_cells(cells, cap))
        fill[todo] = np.concatenate(out)
        return fill

    def _goal_masks(self) -> list[int]:
        return [sum(1 << int(c) for c in g) for g in self.goals]

    def _fill(self, ranks: np.ndarray) -> np.ndarray:
        """The fill h (module docstring of ``search.py``)."""
        fast = self.fast if ranks.size >= FAST_MIN else None
        if fast is not None:  # in expand's batches, so that a Ctrl-C waits at most one batch
            return np.concatenate([fast.heuristic(ranks[i : i + CHUNK * 4]) for i in range(0, ranks.size, CHUNK * 4)])
        K = self.kernel
        words = to_words(self.colex.unrank(ranks), K.W)
        best = np.full(ranks.size, 1 << 30, dtype=np.int64)
        for g in self.goal_words:
            best = np.minimum(best, self._schedule(words, g))
        return best

    def _forced(self, ranks: np.ndarray) -> np.ndarray:
        """The forced-supports h (docs/forced-supports.md, Theorem H; coinsat/theory/supports.py
        is the reference, tests compare): the schedule over the empty goal cells closed under
        Lemma F (a cell to fill with exactly d neighbours in span(C) needs its empty non-goal
        ones filled first); 2**30 when a cell of the closure has fewer than d span neighbours."""
        K = self.kernel
        words = to_words(self.colex.unrank(ranks), K.W)
        best = np.full(ranks.size, 1 << 30, dtype=np.int64)
        spn = K.span(words)
        d = K.d if K.d is not None else 1 << 30
        enough = K.at_least(spn, d) if K.d is not None else np.zeros_like(spn)
        exactly = enough & ~K.at_least(spn, d + 1) if K.d is not None else enough
        for g in self.goal_words:
            X = g & ~words
            fresh = X
            while True:
                tight = fresh & exactly
                if not K.any0(tight).any():
                    break
                fresh = K.at_least(tight, 1) & spn & ~words & ~g & ~X
                X = X | fresh
            h = self._schedule(words, X, empty_given=True)
            h[K.any0(X & ~enough)] = 1 << 30
            best = np.minimum(best, h)
        return best

    def _schedule(self, words: np.ndarray, goal: np.ndarray, empty_given: bool = False) -> np.ndarray:
        K = self.kernel
        empty = goal if empty_given else goal & ~words  # goal cells still to fill
        left = np.bitwise_count(empty).sum(axis=0).astype(np.int64)  # m - (cells placed at steps < j)
        h = np.zeros(words.shape[1], dtype=np.int64)
        layer, j = words, 0
        active = np.nonzero(left > 0)[0]
        layer, empty = layer[:, active], empty[:, active]
        while active.size:
            j += 1
            grown = layer | (K.supported(layer) & K.full)
            new = np.bitwise_count(grown & ~layer & empty).sum(axis=0).astype(np.int64)
            a = active
            h[a] = np.where(new > 0, np.maximum(h[a], j - 1 + left[a]), h[a])
            left[a] -= new
            stuck = (grown == layer).all(axis=0) & (left[a] > 0)
            h[a[stuck]] = 1 << 30
            go = (left[a] > 0) & ~stuck
            active, layer, empty = a[go], grown[:, go], empty[:, go]
        return h


#: a :class:`Kept` stores U - i in a byte; this value (and every U - i it would not fit) means
#: "never trusted": storing more than U - i only fails Lemma KR's test more often
NEVER = 255


class Kept:
    """The keep decisions of a finished bounded search (bound U, h with record ``h``): every state
    it kept past the start, sorted (``ranks``, uint64), and for each U - i, i its layer (``slack``,
    uint8; :data:`NEVER` where U - i does not fit).  9 bytes a state.

    **Lemma KR** (docs/from-below.md): the search kept y in layer i >= 1 only if i + h(y) <= U,
    so h(y) <= U - i; a later search of the same instance with the same h and bound U' that meets
    y new at depth t keeps it iff h(y) <= U' - t, which holds when U - i <= U' - t.
    :meth:`trusted` tests exactly that, per state (``Space.heuristic`` then skips its h).
    The start (layer 0) is kept without a decision, so it is never trusted."""

    def __init__(self, ranks: np.ndarray, slack: np.ndarray, upper_bound: int, h: Any, symmetry, instance: Instance):
        self.ranks, self.slack, self.upper_bound = ranks, slack, upper_bound
        self.h, self.symmetry, self.instance = h, symmetry, instance

    @classmethod
    def of(cls, layers, instance: Instance) -> "Kept | None":
        """The decisions of the search whose visited set is ``layers`` (``visited.Visited``: its
        ``upper_bound``, ``heuristic`` and ``symmetry`` are the search's), of ``instance``; None
        when it had no bound."""
        U = layers.upper_bound
        if U is None:
            return None
        ranks = np.concatenate([layers.layer(i) for i in range(1, layers.depths)] or [np.zeros(0, dtype=U64)])
        ranks.sort(kind="stable")  # sorted runs, one per layer: a merge
        slack = np.full(ranks.size, NEVER, dtype=np.uint8)
        for i in range(1, layers.depths):
            run = layers.layer(i)
            if run.size and 0 <= U - i < NEVER:
                slack[np.searchsorted(ranks, run)] = U - i
        return cls(ranks, slack, U, layers.heuristic, layers.symmetry, instance)

    def fits(self, space: Space) -> str | None:
        """None if ``space`` prunes with the same h on the same states (same instance, h record and
        symmetry group), so that Lemma KR applies; else why not."""
        if space.upper_bound is None:
            return "the search has no bound"
        if space.h_record != self.h:
            return f"the earlier search pruned with h = {self.h}, this one with {space.h_record}"
        same = (
            np.array_equal(space.symmetry, self.symmetry)
            if space.symmetry is not None and self.symmetry is not None
            else space.symmetry is None and self.symmetry is None
        )
        if not same:
            return "the earlier search's symmetry group is not this one's"
        if space.instance != self.instance:
            return "the earlier search was of another instance"
        return None

    def trusted(self, ranks: np.ndarray, cap: int) -> np.ndarray:
        """Which of ``ranks`` (met at a depth t with cap = U' - t) Lemma KR keeps: those the
        earlier search kept in a layer i with U - i <= cap."""
        if cap < 0 or self.ranks.size == 0:
            return np.zeros(ranks.size, dtype=bool)
        at = np.searchsorted(self.ranks, ranks)
        np.minimum(at, self.ranks.size - 1, out=at)
        return (self.ranks[at] == ranks) & (self.slack[at] <= min(cap, NEVER - 1))

    @property
    def nbytes(self) -> int:
        return int(self.ranks.nbytes + self.slack.nbytes)


def fill_h(space: Space, ranks: np.ndarray, cap: int | None = None) -> np.ndarray:
    """The fill h of ``ranks`` (the kernel of ``search/heuristics.py``'s "fill"; ``cap`` unused)."""
    return space._fill(ranks)


def forced_h(space: Space, ranks: np.ndarray, cap: int | None = None) -> np.ndarray:
    """The forced-supports h of ``ranks`` (the kernel of "forced"; numpy, by chunks; ``cap`` unused)."""
    parts = [space._forced(ranks[i : i + CHUNK]) for i in range(0, ranks.size, CHUNK)]
    return np.concatenate(parts or [np.zeros(0, np.int64)])


def lmcut_h(space: Space, ranks: np.ndarray, cap: int | None = None) -> np.ndarray:
    """The LM-cut h of ``ranks``, its rounds stopped past ``cap`` (the kernel of "lmcut")."""
    return space._lmcut(ranks, cap)


def union(parts: list[np.ndarray]) -> np.ndarray:
    """The sorted distinct union of sorted distinct arrays: merged pairwise by the compiled
    ``merge_unique`` (linear in their sizes) when numba is installed and they are large, else
    one sort of their concatenation."""
    if len(parts) <= 1:
        return parts[0] if parts else np.zeros(0, dtype=U64)
    kernels = compiled() if sum(p.size for p in parts) >= FAST_MIN else None
    if kernels is None:
        return unique(np.concatenate(parts))
    while len(parts) > 1:
        pairs = range(0, len(parts) - 1, 2)
        parts = [kernels.merge_unique(parts[i], parts[i + 1]) for i in pairs] + parts[len(parts) & ~1 :]
    return parts[0]


#: _BYTE_BITS[v, t]: the t-th set bit of the byte v; _BYTE_COUNT[v]: how many
_BYTE_COUNT = np.array([bin(v).count("1") for v in range(256)], dtype=np.int64)
_BYTE_BITS = np.array([[b for b in range(8) if v >> b & 1] + [0] * (8 - bin(v).count("1")) for v in range(256)])


def _set_bits(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(column, cell) of every set bit of the bitboards m (W, N): the nonzero bytes first,
    then each byte's bits from a table (an eighth of the scan of one byte per bit)."""
    W, N = m.shape
    flat = np.ascontiguousarray(m.T).view(np.uint8).ravel()  # byte b of column i at i * 8W + b
    nz = np.flatnonzero(flat)
    values = flat[nz]
    counts = _BYTE_COUNT[values]
    total = int(counts.sum())
    at = np.repeat(nz, counts)
    first = np.cumsum(counts) - counts
    t = np.arange(total) - np.repeat(first, counts)
    bit = _BYTE_BITS[np.repeat(values, counts), t]
    col, byte = np.divmod(at, 8 * W)
    return col, byte * 8 + bit


class Ranks:
    """Ranks of the successors C - c_j + p of a chunk of states from the rank of C.

    With p landing after m coins of C - c_j (1-based positions; D_i = C(c_i, i) - C(c_i, i-1),
    U_i = C(c_i, i+1) - C(c_i, i)): if p > c_j the coins c_{j+1} .. c_{m+1} move one place
    down, if p < c_j the coins c_{m+1} .. c_{j-1} one place up, so

        rank(C - c_j + p) = rank(C) - C(c_j, j) + C(p, m + 1) - (PD[m+1] - PD[j])   (p > c_j)
                          = rank(C) - C(c_j, j) + C(p, m + 1) + (PU[j-1] - PU[m])   (p < c_j)

    with PD, PU the prefix sums of D and U (uint64 arithmetic wraps, the result is exact)."""

    def __init__(self, colex: Colex, coins: np.ndarray, ranks: np.ndarray):
        k, N = coins.shape
        B = colex.binom
        self.k, self.flat = k, B.ravel()
        self.width = B.shape[1]
        own = [B[coins[i], i + 1] for i in range(k)]
        PD = [np.zeros(N, dtype=U64)]
        PU = [np.zeros(N, dtype=U64)]
        for i in range(k):
            PD.append(PD[-1] + own[i] - B[coins[i], i])
            PU.append(PU[-1] + B[coins[i], i + 2] - own[i])
        self.PD = np.ascontiguousarray(np.stack(PD, axis=1)).ravel()  # PD[t] of state r at r * (k + 1) + t
        self.PU = np.ascontiguousarray(np.stack(PU, axis=1)).ravel()
        self.coins, self.ranks, self.own = coins, ranks, own

    def successors(self, j: int, row: np.ndarray, p: np.ndarray, rest: np.ndarray, below: np.ndarray) -> np.ndarray:
        """Ranks for the moves (row: state, p: destination) of coin j; ``rest`` = the bitboards
        of C - c_j of those rows."""
        m = np.bitwise_count(below[:, p] & rest).sum(axis=0, dtype=np.int64)
        base = self.ranks[row] - self.own[j][row] + self.flat[p * self.width + m + 1]
        late = p > self.coins[j][row]
        r1 = row * (self.k + 1)
        up = self.PU[r1 + j] - self.PU[r1 + m]  # PU[j-1] with 1-based j is PU[j] here
        down = self.PD[r1 + m + 1] - self.PD[r1 + j + 1]
        return np.where(late, base - down, base + up)


@dataclass(frozen=True)
class RankReport(LayerReport):
    """One finished layer of ``rankbfs``, for the live display: with the rate, memory and disk."""

    expanded: int = 0
    per_second: float = 0.0  # states expanded per second, since the start
    memory: int = 0  # resident bytes of this process
    disk: int = 0  # bytes of layers on disk


class Rate:
    """Builds :class:`RankReport` values (the clock of one search)."""

    def __init__(self, limits: Limits):
        self.limits = limits

    def report(self, depth: int, size: int, states: int, expanded: int, disk: int) -> RankReport:
        from ...limits import rss_bytes

        seconds = elapsed(self.limits)
        rate = expanded / max(seconds, 1e-9)
        return RankReport(depth, size, states, seconds, expanded, rate, rss_bytes() or 0, disk)


def path(space: Space, in_layer, depth: int, rank: int) -> list:
    """Moves from the start to the state ``rank`` at ``depth``: one predecessor per layer
    (predecessor kernel of rules.py), looked up with ``in_layer(rank, t) -> bool``."""
    board, d = space.instance.board, space.instance.d
    moves = []
    mask = sum(1 << c for c in space.cells_of_rank(rank))
    for t in range(depth - 1, -1, -1):
        for move, (prev,) in predecessors(board, d, (mask,)):
            r = space.rank_of_cells(c for c in range(space.n) if prev >> c & 1)
            if space.symmetry is not None:  # the layers hold canonical forms (docs/symmetry.md, Lemma QS)
                r = int(space.canonical(np.array([r], dtype=U64))[0])
            if in_layer(r, t):
                moves.append(move)
                mask = prev
                break
        else:  # a state at depth t + 1 has a predecessor at depth t, unless saved layers were edited
            raise InternalError(f"rankbfs: the layers do not chain (a state at depth {t + 1} has no predecessor)")
    moves.reverse()
    return _unfold(space, moves, mask)


def _unfold(space: Space, moves: list, first: int) -> list:
    """``moves``, checked to begin at the start: the path rebuilt backwards from the goal begins
    at a state of the start's orbit (docs/symmetry.md, Lemma QS), which is the start itself, as
    the group ``search.py`` takes fixes the start (``first``: the bitmask the path begins at)."""
    if {c for c in range(space.n) if first >> c & 1} != set(space.instance.start.cells):
        raise InternalError("rankbfs: the path rebuilt does not begin at the start")
    return moves


def configurations(instance: Instance) -> int:
    """C(n, k): the configurations of the window (for the docs' bytes-per-state estimates)."""
    return comb(instance.board.size, instance.n_coins)
