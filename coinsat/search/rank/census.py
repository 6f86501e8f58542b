"""The census kernel: one exhaustive backward search over every configuration of a window.

The proofs are ``docs/census.md``; the lemmas named here are its lemmas.

*Why a dense array.*  The ranked search (``loop.py``) keeps its visited set as sorted runs of
colex ranks, which pays when a search meets a small part of C(N, n).  A census meets a large
part of it (about a seventh of the 7 x 7 box's 2.05 * 10**9 nine-coin configurations span the
box, and only those can reach its diagonal), so here the visited set is the distance itself,
one byte per rank: ``dist[r]`` is the layer of the configuration of rank r, or ``UNSEEN``.
A layer is then read off by one scan of the array, already sorted.

*The factorisation (Lemma Z).*  A move X -> Y lifts s and drops it on p, and Z = X - s = Y - p
is an (n - 1)-set in which p has >= d coins beside it.  So the predecessors of Y are the sets
Z + s for every Z in Lift(Y) = {Y - p : p has >= d coins of Y - p beside it} and every cell s
outside Z (s = p gives Y itself).  Every (n - 1)-set Z is expanded once, at the first layer that
lifts to it (``zseen``, one bit per rank of C(N, n - 1)): its predecessors Z + s all lie within
one layer after it, so a second visit adds nothing.  That cuts the work from (layer size) x
(liftable coins) x (empty cells) to (layer size) x (liftable coins) + (new Z) x (empty cells).

*Ranks.*  The colex rank of c_0 < ... < c_{n-1} is sum_i C(c_i, i + 1) (``colex.py``).  The
ranks of Z + s for every s come from one sweep over s: the coins of Z below s keep their
index (C(c, i + 1)), those above it move up one (C(c, i + 2)), and s takes index m + 1 where m
coins lie below it.

*Threads.*  ``expand`` runs its blocks of the layer in parallel (numba ``prange``).  Two
threads may both find the same Z unseen, or write the same byte of ``dist``: both then write
the same value (t + 1) to ``dist``, so it ends the same as in one thread.  Two threads setting bits
of the same byte of ``zseen`` may lose one of them: that Z is then expanded again later, which
adds nothing (it is already expanded), so at worst a Z is expanded twice.  The layers do not
depend on the number of threads (a test).

Boards up to 64 cells (one uint64 bitboard); ``census.py`` at the package root is the front
door that builds windows, writes certificates and replays the hardest starts.
"""

from __future__ import annotations

import numpy as np

from .jit import HAVE_NUMBA, numba

#: ``dist`` of a configuration no layer holds
UNSEEN = 255
#: the deepest layer a byte can hold (UNSEEN is reserved)
MAX_DEPTH = 254
#: configurations per parallel block of ``expand``
BLOCK = 4096


def _njit(parallel: bool = False):
    def wrap(f):
        if not HAVE_NUMBA:
            return f
        return numba.njit(cache=True, nogil=True, parallel=parallel)(f)

    return wrap


def _prange(n):  # pragma: no cover - replaced by numba.prange when compiled
    return range(n)


prange = numba.prange if HAVE_NUMBA else _prange


@_njit()
def _unrank(r, n, N, binom, out):  # pragma: no cover - compiled
    """The cells of rank r, ascending, into ``out``; returns their bitboard."""
    c = N - 1
    mask = np.uint64(0)
    for i in range(n, 0, -1):
        while binom[c, i] > r:
            c -= 1
        out[i - 1] = c
        r -= binom[c, i]
        mask |= np.uint64(1) << np.uint64(c)
        c -= 1
    return mask


@_njit()
def _unrank_near(r, n, binom, cells):  # pragma: no cover - compiled
    """``_unrank`` scanning from the cells already in ``cells`` (those of the rank before, or any
    n-set): for t = n .. 1 the largest c with C(c, t) <= r, found by stepping up or down from
    cells[t - 1].  On a sorted layer the steps are few (the top coins seldom change); returns
    the bitboard."""
    mask = np.uint64(0)
    for t in range(n, 0, -1):
        c = cells[t - 1]
        if binom[c, t] <= r:
            while binom[c + 1, t] <= r:
                c += 1
        else:
            c -= 1
            while binom[c, t] > r:
                c -= 1
        cells[t - 1] = c
        r -= binom[c, t]
        mask |= np.uint64(1) << np.uint64(c)
    return mask


@_njit()
def _popcount(x):  # pragma: no cover - compiled
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@_njit()
def _expand_one(r, t1, n, N, binom, nb, d, dist, zseen, cells, z):  # pragma: no cover - compiled
    """Expand the configuration of rank r (layer t1 - 1): mark every unseen predecessor t1.
    ``cells`` holds an n-set (the configuration expanded before: ``_unrank_near``).  Returns
    the number of (n - 1)-sets expanded and of bytes of ``dist`` written."""
    mask = _unrank_near(r, n, binom, cells)
    fresh = 0
    writes = 0
    # rank(Y - p) for p = cells[j]: the coins below j keep their index (below), those above move
    # down one (above); both sums are carried from one j to the next
    below = np.uint64(0)
    above = np.uint64(0)
    for i in range(1, n):
        above += binom[cells[i], i]
    for j in range(n):
        p = cells[j]
        if j > 0:
            above -= binom[p, j]
        rz = below + above
        below += binom[p, j + 1]
        rest = mask ^ (np.uint64(1) << np.uint64(p))
        if _popcount(nb[p] & rest) < d:
            continue
        byte, bit = rz >> np.uint64(3), np.uint8(1 << (rz & np.uint64(7)))
        if zseen[byte] & bit:
            continue
        zseen[byte] |= bit
        fresh += 1
        for i in range(j):
            z[i] = cells[i]
        for i in range(j + 1, n):
            z[i - 1] = cells[i]
        # every Z + s: sweep s upwards; low = coins of Z below s, high = those above (shifted up)
        high = np.uint64(0)
        for i in range(n - 1):
            high += binom[z[i], i + 2]
        low = np.uint64(0)
        m = 0
        for s in range(N):
            if m < n - 1 and z[m] == s:
                low += binom[s, m + 1]
                high -= binom[s, m + 2]
                m += 1
                continue
            rx = low + high + binom[s, m + 1]
            if dist[rx] == UNSEEN:
                dist[rx] = t1
                writes += 1
    return fresh, writes


@_njit(parallel=True)
def expand(layer, t1, n, N, binom, nb, d, dist, zseen):  # pragma: no cover - compiled
    """Expand every configuration of ``layer`` (ranks at distance t1 - 1): each unseen
    predecessor gets ``dist`` t1.  Returns the number of (n - 1)-sets expanded and of bytes of
    ``dist`` written: the size of the next layer (one thread), or more (two threads may both
    write the same byte), never less."""
    blocks = (layer.size + BLOCK - 1) // BLOCK
    fresh = np.zeros(blocks, dtype=np.int64)
    writes = np.zeros(blocks, dtype=np.int64)
    for b in prange(blocks):
        cells = np.arange(n, dtype=np.int64)
        z = np.empty(max(n - 1, 1), dtype=np.int64)
        f = w = 0
        for idx in range(b * BLOCK, min(layer.size, (b + 1) * BLOCK)):
            df, dw = _expand_one(layer[idx], t1, n, N, binom, nb, d, dist, zseen, cells, z)
            f += df
            w += dw
        fresh[b] = f
        writes[b] = w
    return fresh.sum(), writes.sum()


@_njit(parallel=True)
def mark_lifts(layer, n, N, binom, nb, d, zseen):  # pragma: no cover - compiled
    """Set ``zseen`` for Lift(Y) of every Y in ``layer`` (rebuilding it on resume)."""
    blocks = (layer.size + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        cells = np.empty(n, dtype=np.int64)
        for idx in range(b * BLOCK, min(layer.size, (b + 1) * BLOCK)):
            mask = _unrank(layer[idx], n, N, binom, cells)
            for j in range(n):
                p = cells[j]
                if _popcount(nb[p] & (mask ^ (np.uint64(1) << np.uint64(p)))) < d:
                    continue
                rz = np.uint64(0)
                for i in range(j):
                    rz += binom[cells[i], i + 1]
                for i in range(j + 1, n):
                    rz += binom[cells[i], i]
                zseen[rz >> np.uint64(3)] |= np.uint8(1 << (rz & np.uint64(7)))


@_njit()
def _has_byte(word, pattern):  # pragma: no cover - compiled
    """Whether some byte of ``word`` equals the byte repeated in ``pattern`` (a zero byte of
    word ^ pattern: (x - 0x01..01) & ~x & 0x80..80 is nonzero exactly then)."""
    x = word ^ pattern
    return ((x - np.uint64(0x0101010101010101)) & ~x & np.uint64(0x8080808080808080)) != 0


def distance_array(size: int) -> np.ndarray:
    """``size`` bytes of ``UNSEEN``, padded with ``UNSEEN`` to whole 8-byte words (``layer_of`` reads
    them as words); the padding never equals a layer."""
    return np.full(-(-size // 8) * 8, UNSEEN, dtype=np.uint8)


@_njit()
def _collect(words, value, out):  # pragma: no cover - compiled
    """Fill ``out`` with the ranks whose byte equals ``value``, ascending, in one pass; returns
    how many, or -1 if ``out`` is too short."""
    pattern = np.uint64(value) * np.uint64(0x0101010101010101)
    low7 = np.uint64(0x7F7F7F7F7F7F7F7F)
    k = 0
    for i in range(words.size):
        w = words[i]
        if not _has_byte(w, pattern):
            continue
        # the top bit of each byte of w ^ pattern that is zero, exactly (no borrow crosses a
        # byte): those bytes hold the layer; each is visited by its bit, not all eight tested
        x = w ^ pattern
        zero = ~(((x & low7) + low7) | x | low7)
        while zero:
            if k == out.size:
                return -1
            low = zero & (~zero + np.uint64(1))
            out[k] = 8 * i + (np.int64(_popcount(low - np.uint64(1))) >> 3)
            k += 1
            zero ^= low
    return k


def layer_of(dist: np.ndarray, value: int, at_most: int) -> np.ndarray:
    """The ranks r with dist[r] == value, ascending (uint64); ``dist`` from ``distance_array``.
    Eight bytes are tested at once (``_has_byte``): most words hold no byte of the layer.  One
    pass fills an array of ``at_most`` entries (the writes ``expand`` counted, never fewer than
    the layer)."""
    out = np.empty(at_most, dtype=np.uint64)
    k = _collect(dist.view(np.uint64), np.uint64(value), out)
    if k < 0:
        raise RuntimeError(f"layer {value} has more configurations than the {at_most} writes counted")
    return out[:k]


def warm_up(n: int = 3, N: int = 4) -> None:
    """Compile every kernel once with the argument types of later calls."""
    from .colex import Colex

    binom = Colex(N, n).binom
    nb = np.zeros(N, dtype=np.uint64)
    dist = distance_array(4)
    zseen = np.zeros(6, dtype=np.uint8)
    layer = np.array([0], dtype=np.uint64)
    dist[0] = 0
    expand(layer, np.uint8(1), n, N, binom, nb, 2, dist, zseen)
    mark_lifts(layer, n, N, binom, nb, 2, zseen)
    layer_of(dist, 0, 1)


@_njit()
def _span(s, N, nb, d):  # pragma: no cover - compiled
    """The span of the bitboard s: add every cell with >= d neighbours in it until none is left."""
    while True:
        grown = s
        for p in range(N):
            if not (s >> np.uint64(p)) & np.uint64(1) and _popcount(nb[p] & s) >= d:
                grown |= np.uint64(1) << np.uint64(p)
        if grown == s:
            return s
        s = grown


@_njit(parallel=True)
def count_spanning(n, N, binom, nb, d, full, parts, pairs):  # pragma: no cover - compiled
    """Two counts over the n-sets of the N positions, by code the census does not use:
    ``spanning``, the sets whose span is ``full``, and ``two_extra``, those with two coins whose
    removal keeps the span ``full``.  When the goal spans ``full``, every configuration that can
    reach it spans ``full`` (span never grows along a move), and every one with two such coins
    can reach it when the goal's two extra coins each touch two others (the paper's Theorem 2,
    square grid, d = 2): so two_extra <= solvable <= spanning, a check of the census and of the
    theorem.  Returns (spanning, two_extra); two_extra is 0 unless ``pairs``."""
    size = binom[N, n]
    counts = np.zeros((parts, 2), dtype=np.int64)
    for q in prange(parts):
        lo = np.uint64(size * np.uint64(q) // np.uint64(parts))
        hi = np.uint64(size * np.uint64(q + 1) // np.uint64(parts))
        cells = np.empty(n, dtype=np.int64)
        r = lo
        while r < hi:
            x = _unrank(r, n, N, binom, cells)
            r += np.uint64(1)
            if _span(x, N, nb, d) != full:
                continue
            counts[q, 0] += 1
            if not pairs:
                continue
            found = False
            for i in range(n):
                for j in range(i + 1, n):
                    y = x ^ (np.uint64(1) << np.uint64(cells[i])) ^ (np.uint64(1) << np.uint64(cells[j]))
                    if _span(y, N, nb, d) == full:
                        found = True
                        break
                if found:
                    break
            if found:
                counts[q, 1] += 1
    return counts[:, 0].sum(), counts[:, 1].sum()
