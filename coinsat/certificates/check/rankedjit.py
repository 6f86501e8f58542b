"""The ranked checker's compiled kernel (numba, the ``fast`` extra): :mod:`.ranked`, a configuration at a time.

Why.  :mod:`.ranked` works on chunks of configurations in numpy, and its
work is irregular (each closure runs a different number of rounds, each
configuration has a different number of successors), so it pays for masks,
gathers and compactions between every step.  On V(4,3) -> SW-NE to 50 moves
with U = 73 (38 M configurations, two words each) it checked in 449 CPU s
while the search took 112 s; under cProfile the span closures (the threshold
counter ``supported``, its shifts and the ``reaches`` loop) were about 60 % of
it.  This module computes the same successor ranks and the same h with
compiled scalar loops: 199 CPU s, 2.25x (``benchmarks/scale-checkkernel.md``,
``scripts/scale_bench.py --sections checkkernel``).  On one word numpy's
whole-array operations are as fast (0.73x there), so ``layers._compiled``
keeps numpy for windows of up to 64 cells.

Independence.  Like the rest of the checker it imports nothing from
``coinsat.search`` (a test follows its imports); it is a second
implementation of :mod:`.ranked`'s definitions (planes, closures, colex
ranks), tested against it (``tests/test_ranked_checker_jit.py``): the same
successor sets and the same h on random windows of one to three words and
graphs with d = 1 .. 4, and the same verdicts on accepted and tampered
certificates.

What one call computes.  ``successors`` walks a chunk of ranks from a given
index: each rank is decoded (top coin down, a binary search per coin in the
binomial table), put on W <= 4 words (padded by P zero words on each side, so
that a shifted word never needs a bounds test: ``plane_arrays``), and for each coin s the span test of
C - s is decided as in :mod:`.ranked` (at once when s has >= d coins of C - s
around it; dropped by the perimeter cap; else a closure grown until it holds a
goal span, reaches s, or stops).  Each destination p (>= d coins of C - s
around it, p not in C) gives the rank of C - s + p, summed afresh over the
sorted cells (k lookups).  The output buffer is the caller's: when fewer than
k * n slots are left the call returns where it stopped and the caller empties
the buffer and calls again, so no chunk needs a buffer of its worst case.

Loading.  The checker imports this module, and :func:`warm_up` compiles
(or loads from numba's cache) both kernels with the argument types of every
later call, under ``limits.signals_deferred`` (``layers._compiled``): neither
a Ctrl-C nor the time limit's alarm can cut the import of numba in half, and
LLVM's SIGINT handler, put in place when it first compiles, is undone when
the block ends.  ``COINSAT_CHECK_KERNEL=numpy`` (or no numba) keeps the
numpy kernel; ``=numba`` uses this one on every size (the tests); the variable is read in
``coinsat/environment.py`` (``check_kernel``).
"""

from __future__ import annotations

import threading

import numpy as np

from ...environment import check_kernel

BIG = 1 << 30  # h of a configuration from which a goal cell is never filled (as in .ranked)

try:  # optional: pip install 'coinsat[fast]'
    if check_kernel() == "numpy":
        raise ImportError("COINSAT_CHECK_KERNEL=numpy")
    import numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - the numpy kernel runs
    numba = None  # type: ignore[assignment]
    HAVE_NUMBA = False

u0, u1 = np.uint64(0), np.uint64(1)


def jit_compiled(f):
    """``f`` compiled by numba (cached, without the GIL) when numba is installed, else ``f`` itself."""
    return numba.njit(cache=True, nogil=True)(f) if HAVE_NUMBA else f


@jit_compiled
def popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@jit_compiled
def supported(out, m, P, off, near, right, r, masks, d, W, ge):
    """out = the positions with >= d set neighbours in m (boards padded by P zero words on each
    side): a threshold counter over the planes, ge[t] |= ge[t - 1] & plane from the top level
    down, per word, in three scalars when d <= 3 (``ge``: scratch for larger d).  Plane s, word w
    is m shifted by delta_s: words w + off[s] and w + near[s] (the next one towards the shift)
    shifted right by r[s] (``right``) or left; the second shift is split in two so that r = 0
    needs no branch (a shift by 64 is undefined)."""
    for w in range(W):
        g1, g2, g3 = u0, u0, u0
        if d > 3:
            for t in range(d + 1):
                ge[t] = u0
        for s in range(off.size):
            a, b, k = m[w + off[s]], m[w + near[s]], r[s]
            if right[s]:
                v = (a >> k) | ((b << (np.uint64(63) - k)) << u1)
            else:
                v = (a << k) | ((b >> (np.uint64(63) - k)) >> u1)
            v &= masks[s, w]
            if d <= 3:
                g3 |= g2 & v
                g2 |= g1 & v
                g1 |= v
            else:
                for t in range(d, 1, -1):
                    ge[t] |= ge[t - 1] & v
                ge[1] |= v
        out[P + w] = g1 if d == 1 else (g2 if d == 2 else (g3 if d == 3 else ge[d]))


@jit_compiled
def holds_need(cur, P, need, W):
    for g in range(need.shape[0]):
        inside = True
        for w in range(W):
            if need[g, w] & ~cur[P + w]:
                inside = False
                break
        if inside:
            return True
    return False


@jit_compiled
def closure_meets(cur, P, need, stop, s_word, s_bit, planes, d, W, ge, sup):
    """Grow ``cur`` (in place) to its span: 1 if it comes to hold a goal span, 2 if it reaches
    the stop cell first (``stop``: s_bit in word s_word), 0 if it stops growing."""
    off, near, right, r, masks = planes
    while True:
        if holds_need(cur, P, need, W):
            return 1
        if stop and cur[P + s_word] & s_bit:
            return 2
        supported(sup, cur, P, off, near, right, r, masks, d, W, ge)
        changed = False
        for w in range(P, P + W):
            grown = cur[w] | sup[w]
            if grown != cur[w]:
                changed = True
            cur[w] = grown
        if not changed:
            return 0


@jit_compiled
def decode(rank, binom, n, k, pos):
    """pos[0 .. k-1]: the ascending positions of the colex rank (top coin first)."""
    r = rank
    hi = n - 1
    for i in range(k, 0, -1):
        lo = i - 1  # C(i - 1, i) = 0 <= r: the answer lies in [lo, hi]
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if binom[mid, i] <= r:
                lo = mid
            else:
                hi = mid - 1
        pos[i - 1] = lo
        r -= binom[lo, i]
        hi = lo - 1


@jit_compiled
def board_words(m, P, W, pos, k):
    """m = the padded board of the cells pos[0 .. k-1] (the padding words stay zero)."""
    for w in range(m.size):
        m[w] = u0
    for i in range(k):
        m[P + (pos[i] >> 6)] |= u1 << np.uint64(pos[i] & 63)


@jit_compiled
def successors(ranks, first, binom, n, k, planes, P, d, W, nbr, need, cap, out):
    """The successor ranks of ranks[first:] into ``out`` (module docstring); returns (how many
    written, the index of the first rank not expanded)."""
    off, near, right, r, masks = planes
    pos = np.empty(k, dtype=np.int64)
    deg = np.empty(k, dtype=np.int64)
    words = np.zeros(W + 2 * P, dtype=np.uint64)
    rest = np.zeros(W + 2 * P, dtype=np.uint64)
    cur = np.zeros(W + 2 * P, dtype=np.uint64)
    sup = np.zeros(W + 2 * P, dtype=np.uint64)
    ge = np.empty(d + 1, dtype=np.uint64)
    count = 0
    for idx in range(first, ranks.size):
        if out.size - count < k * n:
            return count, idx
        decode(ranks[idx], binom, n, k, pos)
        board_words(words, P, W, pos, k)
        cur[:] = words
        whole = closure_meets(cur, P, need, False, 0, u0, planes, d, W, ge, sup) == 1
        edges = 0
        for j in range(k):
            c = 0
            for w in range(W):
                c += popcount(nbr[pos[j], w] & words[P + w])
            deg[j] = c
            edges += c
        edges //= 2
        for j in range(k):
            s = pos[j]
            s_word = s >> 6
            s_bit = u1 << np.uint64(s & 63)
            rest[:] = words
            rest[P + s_word] &= ~s_bit
            if deg[j] >= d:
                keep = whole
            elif cap >= 0 and edges - deg[j] > cap:
                keep = False
            else:
                cur[:] = rest
                met = closure_meets(cur, P, need, True, s_word, s_bit, planes, d, W, ge, sup)
                keep = met == 1 or (met == 2 and whole)
            if not keep:
                continue
            supported(sup, rest, P, off, near, right, r, masks, d, W, ge)
            for w in range(W):
                dest = sup[P + w] & ~words[P + w]
                while dest:
                    low = dest & (~dest + u1)
                    p = 64 * w + popcount(low - u1)
                    dest ^= low
                    # the rank of C - s + p: the cells in ascending order, s left out, p put in
                    rank = u0
                    i = 0
                    placed = False
                    for t in range(k):
                        if t == j:
                            continue
                        if not placed and p < pos[t]:
                            i += 1
                            rank += binom[p, i]
                            placed = True
                        i += 1
                        rank += binom[pos[t], i]
                    if not placed:
                        rank += binom[p, k]
                    out[count] = rank
                    count += 1
    return count, ranks.size


@jit_compiled
def h_values(ranks, binom, n, k, planes, P, d, W, goals, out):
    """out[i] = h of ranks[i] (:meth:`.ranked.Kernel.h`: the fill schedule over the span
    layers, the minimum over the goal placements; BIG when a goal cell is never reached)."""
    off, near, right, r, masks = planes
    pos = np.empty(k, dtype=np.int64)
    m = np.zeros(W + 2 * P, dtype=np.uint64)
    cur = np.zeros(W + 2 * P, dtype=np.uint64)
    sup = np.zeros(W + 2 * P, dtype=np.uint64)
    empty = np.empty(W, dtype=np.uint64)
    ge = np.empty(d + 1, dtype=np.uint64)
    for idx in range(ranks.size):
        decode(ranks[idx], binom, n, k, pos)
        board_words(m, P, W, pos, k)
        best = BIG
        for g in range(goals.shape[0]):
            left = 0
            for w in range(W):
                empty[w] = goals[g, w] & ~m[P + w]
                left += popcount(empty[w])
            cur[:] = m
            h = 0
            step = 0
            while left > 0:
                step += 1
                supported(sup, cur, P, off, near, right, r, masks, d, W, ge)
                new = 0
                changed = False
                for w in range(W):
                    add = sup[P + w] & ~cur[P + w]
                    if add:
                        changed = True
                    new += popcount(add & empty[w])
                    cur[P + w] |= add
                if new > 0:
                    h = max(h, step - 1 + left)
                left -= new
                if left > 0 and not changed:
                    h = BIG
                    break
            best = min(best, h)
        out[idx] = best


class Expander:
    """The compiled kernel's arguments for one certificate (the arrays of :class:`.ranked.Kernel`
    and :class:`.ranked.Decoder`, in the layout the kernels read)."""

    BUFFER = 1 << 22  # successor ranks per call (32 MB)

    def __init__(self, dec, ker, need: list[np.ndarray], goals: list[np.ndarray], cap: int | None):
        self.n, self.k, self.d, self.W = dec.n, dec.k, ker.d, ker.W
        self.binom = np.ascontiguousarray(dec.binom)
        self.planes, self.P = plane_arrays(ker.planes, ker.W)
        self.nbr = np.ascontiguousarray(ker.nbr.T)  # (n, W)
        self.need = as_rows(need, ker.W)
        self.goals = as_rows(goals, ker.W)
        self.cap = -1 if cap is None else int(cap)
        self._local = threading.local()  # one output buffer per thread (the layers checker's threads)

    @property
    def buffer(self) -> np.ndarray:
        """This thread's output buffer, at least one configuration's worst case (k * n successors)."""
        buf = getattr(self._local, "buffer", None)
        if buf is None:
            buf = self._local.buffer = np.empty(max(self.BUFFER, self.k * self.n), dtype=np.uint64)
        return buf

    @buffer.setter
    def buffer(self, buf: np.ndarray) -> None:  # tests: a small buffer, refilled many times
        if buf.size < self.k * self.n:
            raise ValueError("the output buffer must hold one configuration's k * n successors")
        self._local.buffer = buf

    def successors(self, ranks: np.ndarray) -> list[np.ndarray]:
        """The successor ranks of ``ranks`` asked for by condition (3) (unsorted, with repeats)."""
        if self.need.shape[0] == 0 or ranks.size == 0:
            return []
        parts, first = [], 0
        while first < ranks.size:
            count, first = successors(
                ranks, first, self.binom, self.n, self.k, self.planes, self.P, self.d, self.W,
                self.nbr, self.need, self.cap, self.buffer,
            )  # fmt: skip
            parts.append(self.buffer[:count].copy())
        return parts

    def h(self, ranks: np.ndarray) -> np.ndarray:
        out = np.empty(ranks.size, dtype=np.int64)
        if ranks.size:
            h_values(ranks, self.binom, self.n, self.k, self.planes, self.P, self.d, self.W, self.goals, out)
        return out


def plane_arrays(planes: list, W: int) -> tuple[tuple, int]:
    """:class:`.ranked.Kernel`'s planes (delta, (W, 1) mask) as the arrays ``supported`` reads, and
    the padding P: on a board padded by P zero words, word w of m shifted by delta = q * 64 + r
    (q, r >= 0) is word w + P + q shifted right by r with the low bits of word w + P + q + 1
    (delta < 0: word w + P - q shifted left, the high bits of word w + P - q - 1)."""
    P = 1 + max((abs(delta) // 64 for delta, _ in planes), default=0)
    off, near, right, r, masks = [], [], [], [], []
    for delta, mask in planes:
        q, rem = divmod(abs(delta), 64)
        step = 1 if delta >= 0 else -1
        off.append(P + step * q)
        near.append(P + step * (q + 1))
        right.append(delta >= 0)
        r.append(rem)
        masks.append(mask[:, 0])
    arrays = (
        np.array(off, dtype=np.int64),
        np.array(near, dtype=np.int64),
        np.array(right, dtype=np.bool_),
        np.array(r, dtype=np.uint64),
        np.ascontiguousarray(np.array(masks, dtype=np.uint64).reshape(len(planes), W)),
    )
    return arrays, P


def warm_up() -> bool:
    """Compile (or load) both kernels on a toy board, with the argument types of every later call;
    False without numba."""
    if not HAVE_NUMBA:
        return False
    binom = np.array([[1, i, i * (i - 1) // 2] for i in range(3)], dtype=np.uint64)
    ranks = np.zeros(1, dtype=np.uint64)
    rows = np.zeros((1, 2), dtype=np.uint64)
    planes, P = plane_arrays([(1, np.zeros((2, 1), dtype=np.uint64))], 2)
    successors(ranks, 0, binom, 2, 1, planes, P, 2, 2, rows, rows, -1, np.zeros(4, dtype=np.uint64))
    h_values(ranks, binom, 2, 1, planes, P, 2, 2, rows, np.zeros(1, dtype=np.int64))
    return True


def as_rows(columns: list[np.ndarray], W: int) -> np.ndarray:
    """(W, 1) bitboard columns as the rows of a (len, W) array."""
    if not columns:
        return np.zeros((0, W), dtype=np.uint64)
    return np.ascontiguousarray(np.concatenate(columns, axis=1).T)
