"""The ranked layers checker's own decoder and vector kernel, written for throughput.

Checking a ranked layers certificate (:mod:`.layers`) means expanding every
configuration of every layer once, as the search did; it should cost about
what the search cost.  The first checker computed each span closure by
counting, for every cell, its occupied neighbours ((cells x configurations)
temporaries, ~85 % of its time) and ran 10-20x slower than ``rankbfs``.
This module is a second implementation of the same conditions, sharing no
code with the finder (nothing here imports ``coinsat.search``):

**Decoder.**  A rank r of a k-subset c_0 < ... < c_{k-1} of the window's
positions is sum_i C(c_i, i + 1) (colex; a bijection onto 0 .. C(n, k) - 1).
It is decoded from the top coin down (c_{k-1} is the largest c with
C(c, k) <= r, and so on), one ``searchsorted`` per coin.

**Successor ranks from prefix sums.**  Moving coin j from c_j to an empty p:
the other coins keep their order, p lands at index m = #{i != j : c_i < p},
and coin i (i != j) moves to index i - [i > j] + [c_i > p]: only the coins
between c_j and p change index, by one.  So the new rank is the old one less
C(c_j, j + 1), plus C(p, m + 1), plus the change of the coins in between,
a difference of prefix sums of C(c_i, i + 2) - C(c_i, i + 1) (moving up) or
C(c_i, i) - C(c_i, i + 1) (moving down), tabulated once per configuration
(``Decoder.tables``, ``Decoder.moved``): a few lookups per successor, no sort.

**Bitboards and the threshold counter.**  A configuration is W = ceil(n / 64)
uint64 words (bit q % 64 of word q // 64: a coin on position q).  The
neighbour relation is grouped by index difference delta = q - p: the plane
of delta is the board shifted by delta, masked to the positions p that have
p + delta as a neighbour.  "At least d occupied neighbours" is a bit-sliced
counter over the planes (ge[t] = "at least t so far"), so one closure step
costs a few word operations per plane, whatever the window's size.

**One closure per removed coin, usually none.**  A move s -> p puts p on a
cell with >= d coins of C - s around it, so p lies in span(C - s) and
span(C - s + p) = span(C - s): the span condition is decided once per
(configuration, coin).  When s itself has >= d coins of C - s around it, s
lies in span(C - s), so span(C - s) = span(C), decided once per
configuration; otherwise the closure of C - s is grown until it contains a
goal span (kept), reaches s (then it is span(C)), or stops (dropped).
"""

from __future__ import annotations

import math

import numpy as np

from ... import geometry
from ...board import BoardKind
from ...instance import Instance

U64 = np.uint64
ONE = U64(1)
_BIG = 1 << 30  # h of a configuration from which a goal cell can never be filled


def edge_cap(cells: list, need: list[np.ndarray], k: int) -> int | None:
    """The most adjacent pairs of coins C - s (k - 1 coins) may have if span(C - s) is to contain
    one of the spans ``need`` (bitboards over ``cells``), on the square grid with d = 2.

    Perimeter.  P(A) = 4|A| - 2E(A) (E: adjacent pairs of A), the lattice edges leaving A.  A
    cell added to the span has t >= 2 neighbours in the set, changing P by 4 - 2t <= 0, so
    P(span(A)) <= P(A).  Each connected component K of a needed span lies in one component R
    of span(A); P adds up over components (no edge joins two), and a connected R has two
    boundary edges in each of its rows and columns, so P(span(A)) >= P(R) >= 2 (w_R + h_R)
    >= 2 (w_K + h_K), the perimeter of K's bounding box.  (On the whole grid R is a rectangle;
    the span here is taken inside the certificate's window, any superset of span(start), where
    R need not be one: the bound does not use it.)  Hence span(A) contains S only if
    E(A) <= (4|A| - max_K 2 (w_K + h_K)) / 2; the cap is the largest such value over ``need``.
    """
    best = None
    for column in need:
        bits = [sum(int(column[w, 0]) << (64 * w) for w in range(column.shape[0]))]
        inside = {cells[i] for i in range(len(cells)) if bits[0] >> i & 1}
        perimeter = 0
        todo = set(inside)
        while todo:  # components by 4-adjacency, their bounding boxes
            stack = [todo.pop()]
            xs, ys = [], []
            while stack:
                x, y = stack.pop()
                xs.append(x)
                ys.append(y)
                for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if q in todo:
                        todo.remove(q)
                        stack.append(q)
            perimeter = max(perimeter, 2 * (max(xs) - min(xs) + 1 + max(ys) - min(ys) + 1))
        cap = (4 * (k - 1) - perimeter) // 2
        best = cap if best is None else max(best, cap)
    return best


class Decoder:
    """Colex ranks of k-subsets of n positions (module docstring), with a table of binomials."""

    def __init__(self, n: int, k: int):
        top = (1 << 64) - 1
        self.n, self.k = n, k
        self.size = math.comb(n, k)
        # binom[c, i] = C(c, i), saturated: a valid subset never reaches a saturated entry
        table = [[min(math.comb(c, i), top) for i in range(k + 2)] for c in range(n + 1)]
        self.binom = np.array(table, dtype=U64)
        self.flat = self.binom.ravel()
        self.width = k + 2
        self.cols = [np.ascontiguousarray(self.binom[:, i]) for i in range(k + 1)]

    def positions(self, ranks: np.ndarray) -> np.ndarray:
        """(N, k) ascending positions of ranks < C(n, k)."""
        r = np.array(ranks, dtype=U64)
        out = np.empty((r.size, self.k), dtype=np.int64)
        for i in range(self.k, 0, -1):
            c = np.searchsorted(self.cols[i], r, side="right") - 1
            out[:, i - 1] = c
            r -= self.cols[i][c]
        return out

    def ranks(self, pos: np.ndarray) -> np.ndarray:
        """Ranks of rows of ascending positions."""
        out = np.zeros(pos.shape[0], dtype=U64)
        for i in range(self.k):
            out += self.cols[i + 1][pos[:, i]]
        return out

    def tables(self, pos: np.ndarray) -> np.ndarray:
        """Prefix sums, per configuration, of its coins' terms at their own index (O), one index
        up (U) and one index down (D), as the rows O, O - U and D - O: shape (3, k + 1, N), entry
        [., t, r] the sum over coins i < t of row r (uint64, wrapping: only differences count)."""
        N, k = pos.shape
        out = np.zeros((3, k + 1, N), dtype=U64)
        for i in range(k):
            at = pos[:, i] * self.width + i
            own = self.flat[at + 1]  # C(c_i, i + 1)
            out[0, i + 1] = out[0, i] + own
            out[1, i + 1] = out[1, i] + (own - self.flat[at + 2])  # C(c_i, i + 1) - C(c_i, i + 2)
            out[2, i + 1] = out[2, i] + (self.flat[at] - own)  # C(c_i, i) - C(c_i, i + 1)
        return out

    def moved(self, tables: np.ndarray, rows: np.ndarray, j: int, p: np.ndarray, m: np.ndarray) -> np.ndarray:
        """Ranks of the moves of coin j (rows, destination p with m of the other coins below it).

        With O, U, D the prefix sums of the terms at own index, one up and one down: if
        m <= j, the coins c_m .. c_{j-1} move one index up and the rank is
        O[m] + (U[j] - U[m]) + (O[k] - O[j+1]) + C(p, m + 1); if m > j, the coins
        c_{j+1} .. c_m move one index down: O[j] + (D[m+1] - D[j+1]) + (O[k] - O[m+1]) + C(p, m + 1).
        The parts that depend on the configuration and j only are formed once per configuration."""
        k, N = self.k, tables.shape[2]
        O, OmU, DmO = tables
        early = (O[k] - O[j + 1]) - OmU[j] + O[j]  # U[j] + O[k] - O[j+1], as O - (O - U) = U
        late = O[j] + O[k] - (DmO[j + 1] + O[j + 1])  # O[j] - D[j+1] + O[k]
        m1 = np.minimum(m + 1, k)
        low = m <= j
        # early: + O[m] - U[m] = + (O - U)[m]; late: + D[m+1] - O[m+1] = + (D - O)[m+1]
        part = np.where(low, OmU.ravel()[m * N + rows], DmO.ravel()[m1 * N + rows])
        return np.where(low, early[rows], late[rows]) + part + self.flat[p * self.width + m + 1]


class Kernel:
    """Move rule, span and h on bitboards (W, N) over the window ``cells`` (module docstring)."""

    def __init__(self, instance: Instance, cells: list):
        index = {c: i for i, c in enumerate(cells)}
        b = instance.board
        self.n, self.d = len(cells), instance.d
        self.W = max(1, -(-self.n // 64))
        planes: dict[int, int] = {}
        nbr = [0] * self.n
        for i, c in enumerate(cells):
            if b.kind is BoardKind.GRAPH:
                around = [b.coords[q] for q in b.neighbours[b.cell(c)]]
            else:
                around = list(geometry.neighbours(b.kind, c))
            for q in around:
                j = index.get(q)
                if j is not None and j != i:
                    planes[j - i] = planes.get(j - i, 0) | (1 << i)
                    nbr[i] |= 1 << j
        self.planes = [(delta, self.split(mask)) for delta, mask in sorted(planes.items())]
        self.nbr = np.concatenate([self.split(m) for m in nbr], axis=1) if nbr else np.zeros((self.W, 0), U64)
        # below[:, p]: the positions < p
        self.below = np.concatenate([self.split((1 << p) - 1) for p in range(self.n)], axis=1)

    def split(self, mask: int) -> np.ndarray:
        """An integer bitmask as a (W, 1) column."""
        return np.array([[(mask >> (64 * w)) & ((1 << 64) - 1)] for w in range(self.W)], dtype=U64)

    def words(self, pos: np.ndarray) -> np.ndarray:
        """Bitboards (W, N) of rows of positions."""
        out = np.zeros((self.W, pos.shape[0]), dtype=U64)
        bits = ONE << (pos & 63).astype(U64)
        if self.W == 1:
            np.bitwise_or.reduce(bits, axis=1, out=out[0])
            return out
        word = pos >> 6
        for w in range(self.W):
            np.bitwise_or.reduce(np.where(word == w, bits, U64(0)), axis=1, out=out[w])
        return out

    def any(self, m: np.ndarray) -> np.ndarray:
        return m[0] != 0 if self.W == 1 else (m != 0).any(axis=0)

    def count(self, m: np.ndarray) -> np.ndarray:
        return np.bitwise_count(m).sum(axis=0, dtype=np.int64)

    def _shifted(self, m: np.ndarray, delta: int) -> np.ndarray:
        """Bit p of the result = bit p + delta of m (delta of either sign; zeros shifted in)."""
        if self.W == 1:
            return m >> U64(delta) if delta >= 0 else m << U64(-delta)
        out = np.zeros_like(m)
        q, r = divmod(abs(delta), 64)
        for w in range(self.W):
            if delta >= 0:
                lo, hi = w + q, w + q + 1  # bits come from words lo (low part) and hi
                if lo < self.W:
                    out[w] = m[lo] >> U64(r)
                if r and hi < self.W:
                    out[w] |= m[hi] << U64(64 - r)
            else:
                lo, hi = w - q, w - q - 1
                if lo >= 0:
                    out[w] = m[lo] << U64(r)
                if r and hi >= 0:
                    out[w] |= m[hi] >> U64(64 - r)
        return out

    def supported(self, m: np.ndarray) -> np.ndarray:
        """The positions with >= d occupied neighbours in m."""
        return self.at_least(m, self.d)

    def at_least(self, m: np.ndarray, d: int) -> np.ndarray:
        """The positions with >= d occupied neighbours in m (a d-level threshold counter)."""
        if d <= 0:
            return np.broadcast_to(self.full, m.shape).copy()
        ge: list[np.ndarray | None] = [None] * (d + 1)
        for delta, mask in self.planes:
            plane = self._shifted(m, delta) & mask
            for t in range(d, 1, -1):
                below = ge[t - 1]
                if below is not None:
                    both = below & plane
                    ge[t] = both if ge[t] is None else ge[t] | both
            ge[1] = plane if ge[1] is None else ge[1] | plane
        top = ge[d]
        return np.zeros_like(m) if top is None else top

    @property
    def full(self) -> np.ndarray:
        return self.split((1 << self.n) - 1)

    def span(self, m: np.ndarray) -> np.ndarray:
        """The span of every column (grown until nothing changes)."""
        m = m.copy()
        todo = np.arange(m.shape[1])
        while todo.size:
            cur = m[:, todo]
            grown = cur | self.supported(cur)
            m[:, todo] = grown
            todo = todo[self.any(grown ^ cur)]
        return m

    def reaches(
        self, m: np.ndarray, need: list[np.ndarray], stop: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each column: does its span contain one of ``need`` (each (W, 1))?  With ``stop``
        (W, N), a column whose closure meets its ``stop`` bits ends there and is reported in
        the second array (the caller knows its answer)."""
        N = m.shape[1]
        hit, met = np.zeros(N, dtype=bool), np.zeros(N, dtype=bool)
        cols = np.arange(N)
        cur = m
        stop_cur = stop
        while cols.size:
            here = np.zeros(cols.size, dtype=bool)
            for g in need:
                here |= ~self.any(g & ~cur)
            hit[cols[here]] = True
            done = here
            if stop_cur is not None:
                at = ~here & self.any(cur & stop_cur)
                met[cols[at]] = True
                done = done | at
            grown = cur | self.supported(cur)
            go = ~done & self.any(grown ^ cur)
            cols, cur = cols[go], grown[:, go]
            if stop_cur is not None:
                stop_cur = stop_cur[:, go]
        return hit, met

    def h(self, m: np.ndarray, goals: list[np.ndarray]) -> np.ndarray:
        """The fill-schedule lower bound on the moves to the nearest goal placement (see
        :mod:`.layers`): with f_1 <= ... <= f_q the span layers in which the empty goal
        cells appear, max_i (f_i + q - i); _BIG when some goal cell is never reached."""
        best = np.full(m.shape[1], _BIG, dtype=np.int64)
        for goal in goals:
            best = np.minimum(best, self.schedule(m, goal & ~m))
        return best

    def schedule(self, m: np.ndarray, empty: np.ndarray) -> np.ndarray:
        """max_i (f_i + q - i) over the cells of ``empty`` (per column), f_i the span layer of m
        in which each appears; _BIG when one never does."""
        left = self.count(empty)  # cells not yet reached
        h = np.zeros(m.shape[1], dtype=np.int64)
        cols = np.flatnonzero(left > 0)
        cur, empty = m[:, cols], empty[:, cols]
        step = 0
        while cols.size:
            step += 1
            grown = cur | self.supported(cur)
            new = self.count(grown & ~cur & empty)
            h[cols] = np.where(new > 0, np.maximum(h[cols], step - 1 + left[cols]), h[cols])
            left[cols] -= new
            stuck = ~self.any(grown ^ cur) & (left[cols] > 0)
            h[cols[stuck]] = _BIG
            go = (left[cols] > 0) & ~stuck
            cols, cur, empty = cols[go], grown[:, go], empty[:, go]
        return h

    def h_forced(self, m: np.ndarray, goals: list[np.ndarray]) -> np.ndarray:
        """The forced-supports bound (:mod:`.layers`, "Forced supports"): the schedule over the
        empty goal cells closed under "a cell to fill with exactly d neighbours in span(m) needs
        its empty non-goal ones filled first"; _BIG when a cell of that set has fewer than d
        neighbours in span(m).  The minimum over the goal placements."""
        best = np.full(m.shape[1], _BIG, dtype=np.int64)
        spn = self.span(m)
        enough = self.at_least(spn, self.d)
        exactly = enough & ~self.at_least(spn, self.d + 1)
        for goal in goals:
            X = goal & ~m
            fresh = X
            while True:
                tight = fresh & exactly
                if not self.any(tight).any():
                    break
                fresh = self.at_least(tight, 1) & spn & ~m & ~goal & ~X
                X = X | fresh
            h = self.schedule(m, X)
            h[self.any(X & ~enough)] = _BIG
            best = np.minimum(best, h)
        return best

    def successors(
        self,
        pos: np.ndarray,
        words: np.ndarray,
        need: list[np.ndarray],
        whole: np.ndarray,
        edge_cap: int | None = None,
    ):
        """For each coin index j: (j, rows, p, m) of the moves of coin j of the configurations ``pos``
        (bitboards ``words``) whose successor spans a column of ``need``; ``whole`` says, per
        configuration, whether span(C) does (module docstring: one closure per removed coin);
        m counts the other coins below p.  With ``edge_cap`` (:func:`edge_cap`), C - s with
        more adjacent pairs of coins than that is dropped without a closure."""
        if not need:  # no goal placement in the window: no successor is asked for
            return
        k = pos.shape[1]
        degree = [self.count(self.nbr[:, pos[:, j]] & words) for j in range(k)]  # s is not its own neighbour
        edges = sum(degree) // 2
        for j in range(k):
            s = pos[:, j]
            sbit = self._bits(s)
            rest = words & ~sbit
            held = degree[j] >= self.d
            keep = held & whole
            open_ = ~held if edge_cap is None else ~held & (edges - degree[j] <= edge_cap)
            free = np.flatnonzero(open_)
            if free.size:
                hit, met = self.reaches(rest[:, free], need, sbit[:, free])
                keep[free] = hit | (met & whole[free])
            rows = np.flatnonzero(keep)
            if rows.size == 0:
                continue
            rest = rest[:, rows]
            dest = self.supported(rest) & ~words[:, rows]
            r, p = self._set_bits(dest)
            m = self.count(self.below[:, p] & rest[:, r])  # coins of C - s below p
            yield j, rows[r], p, m

    def predecessors(self, pos: np.ndarray, words: np.ndarray, region: np.ndarray):
        """For each coin index j: (j, rows, s, m) of the moves that end in the configurations
        ``pos`` by dropping coin j, undone: coin j (>= d coins of C beside it, so it was the
        last move's destination) goes back to an empty cell s of ``region`` ((W, 1)); m counts
        the other coins below s (``Decoder.moved`` gives the ranks of C - c_j + s)."""
        k = pos.shape[1]
        for j in range(k):
            rows = np.flatnonzero(self.count(self.nbr[:, pos[:, j]] & words) >= self.d)
            if rows.size == 0:
                continue
            w = words[:, rows]
            r, s = self._set_bits(region & ~w)
            rest = w[:, r] & ~self._bits(pos[rows[r], j])
            yield j, rows[r], s, self.count(self.below[:, s] & rest)

    def _bits(self, s: np.ndarray) -> np.ndarray:
        """Bitboards (W, N) of single positions."""
        bit = ONE << (s & 63).astype(U64)
        if self.W == 1:
            return bit[None, :]
        return np.where((s >> 6)[None, :] == np.arange(self.W)[:, None], bit[None, :], U64(0))

    def _set_bits(self, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(column, position) of every set bit of m, taking the lowest set bit of every nonzero
        word per round (x & -x; its position is the count of the bits below it)."""
        rows, cells = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
        for w in range(self.W):
            idx = np.flatnonzero(m[w])
            vals = m[w][idx]
            while idx.size:
                low = vals & (~vals + ONE)
                rows.append(idx)
                cells.append(np.bitwise_count(low - ONE).astype(np.int64) + 64 * w)
                vals = vals ^ low
                more = vals != 0
                idx, vals = idx[more], vals[more]
        return np.concatenate(rows), np.concatenate(cells)
