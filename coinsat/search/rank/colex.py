"""Configurations of k unlabeled coins on n cells as one uint64: their colexicographic rank.

Why ranks.  The layered searches keep every configuration they have met in
sorted arrays (sort, merge, binary search).  A bitboard word holds 64 cells;
past that a key of two or three words sorts several times slower in numpy
(``scripts/scale_bench.py``, section "keys", measures both), while the rank
of the k-subset of occupied cells fits one word as long as C(n, k) < 2**64:
C(144, 14) ~ 1.1 * 10**19 < 1.8 * 10**19, C(81, 11) ~ 1.1 * 10**13.  The
engines expand states as bitboards (``rankbfs``) and store ranks.

**Colex rank.**  For a subset c_1 < c_2 < ... < c_k of {0, ..., n - 1},

    rank = C(c_1, 1) + C(c_2, 2) + ... + C(c_k, k),

a bijection onto {0, ..., C(n, k) - 1} (the combinatorial number system).
Unranking takes, for i = k down to 1, the largest c with C(c, i) <= r and
subtracts C(c, i): one ``searchsorted`` per coin over a column of the table.

**Successors.**  A move changes two cells, so the rank of C - s + p follows
from the rank of C and prefix sums of C's terms (the coins between s and p move
one place): ``space.Ranks``, three lookups per successor.
"""

from __future__ import annotations

from math import comb

import numpy as np

U64 = np.uint64
#: the largest rank a uint64 holds
MAX_RANK = (1 << 64) - 1


def fits(n: int, k: int) -> bool:
    """C(n, k) configurations number at most 2**64 (every rank fits one uint64)."""
    return comb(n, k) - 1 <= MAX_RANK


class Colex:
    """Rank and unrank k-subsets of n cells (module docstring)."""

    def __init__(self, n: int, k: int):
        if not fits(n, k):
            raise ValueError(f"C({n}, {k}) ranks do not fit 64 bits")
        self.n, self.k = n, k
        # binom[c, i] = C(c, i) for c <= n, i <= k + 1; entries beyond 2**64 are never
        # reached by a valid subset (C(c_i, i) <= C(n, k)), so they saturate harmlessly
        table = [[min(comb(c, i), MAX_RANK) for i in range(k + 2)] for c in range(n + 1)]
        self.binom = np.array(table, dtype=U64)
        self._cols = [np.ascontiguousarray(self.binom[:, i]) for i in range(k + 2)]

    @property
    def size(self) -> int:
        return comb(self.n, self.k)

    def rank(self, coins: np.ndarray) -> np.ndarray:
        """Ranks of the rows of ``coins`` (shape (N, k), each row ascending)."""
        out = np.zeros(coins.shape[0], dtype=U64)
        for i in range(self.k):
            out += self._cols[i + 1][coins[:, i]]
        return out

    def unrank(self, ranks: np.ndarray) -> np.ndarray:
        """The rows (ascending cells, dtype int64) of the configurations with these ranks."""
        r = np.array(ranks, dtype=U64)
        coins = np.empty((r.size, self.k), dtype=np.int64)
        for i in range(self.k, 0, -1):
            c = np.searchsorted(self._cols[i], r, side="right") - 1
            coins[:, i - 1] = c
            r -= self._cols[i][c]
        return coins


def to_words(coins: np.ndarray, words: int) -> np.ndarray:
    """Bitboards (shape (words, N), bit c % 64 of word c // 64) of the rows of ``coins``."""
    out = np.zeros((words, coins.shape[0]), dtype=U64)
    w = coins >> 6
    bits = np.left_shift(U64(1), (coins & 63).astype(U64))
    for j in range(coins.shape[1]):
        for i in range(words):
            out[i] |= np.where(w[:, j] == i, bits[:, j], U64(0)) if words > 1 else bits[:, j]
    return out


def from_words(words: np.ndarray, k: int) -> np.ndarray:
    """The inverse of :func:`to_words`: rows of k ascending cells (every word has k bits)."""
    N = words.shape[1]
    bits = np.unpackbits(np.ascontiguousarray(words.T).view(np.uint8), bitorder="little").reshape(N, -1)
    _, cells = np.nonzero(bits)
    return cells.reshape(N, k)
