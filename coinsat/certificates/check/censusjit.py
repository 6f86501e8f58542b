"""The census checker's compiled kernels (numba, the ``fast`` extra; plain Python without it).

:mod:`.census` checks a census certificate (``docs/census.md``) with three passes over
dense arrays indexed by colex rank: ``l[C(N, n)]`` (the layer of each configuration, or the
sentinel ``NONE`` = "in no layer") and ``lam[C(N, n - 1)]`` (lambda of each (n - 1)-set).
A configuration is one uint64 (bit q: a coin on position q), so N <= 64.

* :func:`scatter` writes one layer into ``l`` and finds the first rank that is out of order,
  out of range, or already in a layer (condition (0)).
* :func:`lift` computes lambda from the layers (condition (1)): for Y in layer t and each coin p
  of Y with >= d neighbours in Y - p, lambda(Y - p) = min(lambda(Y - p), t).  Layers are passed
  in increasing t, so the first write is the minimum.
* :func:`sweep` visits every configuration X of a rank range in colex order and compares l(X)
  with m(X) = min over the coins s of X of lambda(X - s): conditions (2) and (3) together say
  exactly "l(X) = m(X) + 1 for l(X) >= 1, and m(X) is NONE when l(X) is" (Lemma S of
  ``docs/census.md``).
* :func:`canonical` maps each rank to the least rank of its images under a permutation group
  (the orbits of the hardest layer).

Ranks: the colex rank of c_0 < ... < c_{n-1} is sum_i C(c_i, i + 1).  Removing the coin of
index j gives sum_{i<j} C(c_i, i + 1) + sum_{i>j} C(c_i, i): prefix sums, no re-sort.
Nothing here imports ``coinsat.search`` or ``coinsat.theory`` (a test walks the imports).
"""

from __future__ import annotations

import numpy as np

from .rankedjit import HAVE_NUMBA, jit_compiled, popcount

__all__ = ["HAVE_NUMBA", "scatter", "lift", "sweep", "canonical", "warm_up"]

#: sweep verdicts (the code of the first bad configuration of a range)
OK, MISSING, TOO_FAR, UNSUPPORTED = 0, 1, 2, 3


@jit_compiled
def unrank(r, n, N, binom, c):
    """c[0..n-1] = the positions of colex rank r (r < C(N, n)), top coin first found."""
    cc = N - 1
    for i in range(n - 1, -1, -1):
        while binom[cc, i + 1] > r:
            cc -= 1
        c[i] = cc
        r -= binom[cc, i + 1]
        cc -= 1


@jit_compiled
def scatter(l, ranks, t, total, none):
    """l[r] = t for the ranks of one layer; (-1, 0) if all is well, else (index, why) of the first
    bad entry: 1 not above the one before, 2 outside 0 .. total - 1, 3 already in a layer."""
    prev = -1
    for i in range(ranks.size):
        r = ranks[i]
        if r <= prev:
            return i, 1
        if r < 0 or r >= total:  # ranks are read as int64: one >= 2**63 is negative here
            return i, 2
        if l[r] != none:
            return i, 3
        l[r] = t
        prev = r
    return -1, 0


@jit_compiled
def lift(lam, ranks, t, n, N, binom, nb, d):
    """lambda(Y - p) = min(., t) for Y in ``ranks`` (one layer) and each p in Y with >= d
    neighbours (``nb[p]``: a bit mask) among the other coins of Y (Z in Lift(Y))."""
    c = np.empty(n, dtype=np.int64)
    suffix = np.empty(n + 1, dtype=np.int64)
    for k in range(ranks.size):
        unrank(ranks[k], n, N, binom, c)
        bits = np.uint64(0)
        for i in range(n):
            bits |= np.uint64(1) << np.uint64(c[i])
        suffix[n] = 0
        for i in range(n - 1, -1, -1):
            suffix[i] = suffix[i + 1] + binom[c[i], i]
        prefix = 0
        for j in range(n):
            p = c[j]
            rest = bits & ~(np.uint64(1) << np.uint64(p))
            if popcount(nb[p] & rest) >= d:
                z = prefix + suffix[j + 1]
                if lam[z] > t:
                    lam[z] = t
            prefix += binom[p, j + 1]


@jit_compiled
def sweep(l, lam, lo, hi, n, N, binom, none):
    """Visit ranks lo .. hi - 1 (colex order) and return (code, rank) of the first X where
    l(X) and m(X) = min_s lambda(X - s) disagree, or (OK, -1).  Codes: MISSING (X in no layer, m
    finite: a predecessor of layer m is missing), TOO_FAR (l(X) > m + 1), UNSUPPORTED (l(X) >= 1
    and no coin s has lambda(X - s) = l(X) - 1).  The goal (l = 0) needs nothing."""
    c = np.empty(n + 1, dtype=np.int64)
    if lo >= hi:
        return OK, -1
    unrank(lo, n, N, binom, c)
    c[n] = N  # a sentinel above the top coin
    suffix = np.empty(n + 1, dtype=np.int64)
    for r in range(lo, hi):
        suffix[n] = 0
        for i in range(n - 1, -1, -1):
            suffix[i] = suffix[i + 1] + binom[c[i], i]
        m = none
        prefix = 0
        for j in range(n):
            v = lam[prefix + suffix[j + 1]]
            if v < m:
                m = v
            prefix += binom[c[j], j + 1]
        t = l[r]
        if t == none:
            if m != none:
                return MISSING, r
        elif t != 0:
            if m == none:
                return UNSUPPORTED, r
            if t > m + 1:
                return TOO_FAR, r
            if t < m + 1:
                return UNSUPPORTED, r
        # the next combination in colex order: raise the lowest coin that can rise, reset those below
        i = 0
        while i < n - 1 and c[i] + 1 == c[i + 1]:
            i += 1
        c[i] += 1
        for k in range(i):
            c[k] = k
    return OK, -1


@jit_compiled
def canonical(ranks, perms, n, N, binom, out):
    """out[k] = the least colex rank of g(X) over the rows g of ``perms`` (X = ranks[k])."""
    c = np.empty(n, dtype=np.int64)
    img = np.empty(n, dtype=np.int64)
    for k in range(ranks.size):
        unrank(ranks[k], n, N, binom, c)
        best = -1
        for g in range(perms.shape[0]):
            for i in range(n):
                v = perms[g, c[i]]
                j = i
                while j > 0 and img[j - 1] > v:  # insertion sort: n is small
                    img[j] = img[j - 1]
                    j -= 1
                img[j] = v
            r = 0
            for i in range(n):
                r += binom[img[i], i + 1]
            if best < 0 or r < best:
                best = r
        out[k] = best


def warm_up() -> bool:
    """Compile (or load from numba's cache) every kernel with the argument types of later calls,
    for both sentinel widths; False without numba."""
    if not HAVE_NUMBA:
        return False
    binom = binomials(3, 2)
    ranks = np.zeros(1, dtype=np.int64)
    nb = np.zeros(3, dtype=np.uint64)
    for dtype in (np.uint8, np.uint16):
        none = np.iinfo(dtype).max
        l = np.full(3, none, dtype=dtype)
        lam = np.full(3, none, dtype=dtype)
        scatter(l, ranks, 0, 3, none)
        lift(lam, ranks, 0, 2, 3, binom, nb, 1)
        sweep(l, lam, 0, 3, 2, 3, binom, none)
    canonical(ranks, np.zeros((1, 3), dtype=np.int64), 2, 3, binom, np.zeros(1, dtype=np.int64))
    return True


def binomials(N: int, n: int) -> np.ndarray:
    """C(c, k) for 0 <= c <= N, 0 <= k <= n + 1 (int64: C(64, 32) < 2**63)."""
    table = np.zeros((N + 1, n + 2), dtype=np.int64)
    for c in range(N + 1):
        for k in range(n + 2):
            table[c, k] = _comb(c, k)
    return table


def _comb(c: int, k: int) -> int:
    from math import comb

    return comb(c, k) if 0 <= k <= c else 0
