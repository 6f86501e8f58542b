"""A compiled expansion for ``rankbfs`` (numba; the ``fast`` extra): the same successors, one state at a time.

Why.  The numpy expansion (``space.Space._expand_chunk``) works on whole
chunks, but its work is irregular: each coin's span closure runs a different
number of rounds, each state has a different number of destinations, so it
pays for masks, gathers and compaction arrays between every step
(``benchmarks/rankbfs-engine.md`` has the profile: span closures, successor
ranks and bit extraction take most of it).  Compiled scalar code does the same
steps per state with the bitboard in registers and no temporaries.

What it computes is exactly ``_expand_chunk``'s set of successors (a test
compares both on random instances, the span pruning on and off): for each
state C (unranked into its cells), each coin s:

* the span test of C - s (when pruning): kept at once if s has >= d
  neighbours in C - s (then span(C - s) = span(C)), dropped if C - s has more
  edges than the goal's edge budget allows, else the closure of C - s grows
  until it contains a goal span or s (kept) or stops growing (dropped);
* the destinations p: cells outside C with >= d neighbours in C - s;
* each successor's colex rank from rank(C) in O(1) (``space.Ranks``'s formula).

Loading.  numba is imported and these kernels loaded in one place,
``visited.compiled`` (its docstring: interrupts held back meanwhile, LLVM's
SIGINT handler undone after), and ``warm_up`` loads all of them at once with
the argument types of every later call, so nothing compiles in the middle of
a search.

Bitboards are W <= 4 words; neighbour planes are the same shifts as
``space.Kernel`` (cell difference k, masked).  One word (up to 64 cells)
and two words (65 to 128: V(4,3) has 81) keep the board in scalars, two
words as one 128-bit shift (``_shift2``), with the threshold counter in
registers for d <= 3 (and for d = 2 on four planes, the square grid, in
straight-line code: "two of four" needs no counter, ``_two_of_four1``; it made
the span closures of V(3,3) about six times faster than the loop over planes);
three and four words, or d >= 4, go through loops over
arrays of words (on V(4,3)->SW-NE to depth 39 the scalar path took 6.7 CPU s,
the loops 14.4 and the numpy expansion 27.8: ``benchmarks/rankbfs-wide.md``).
The successor ranks come out unsorted, with repeats; the caller sorts them as
before.  ``expand_branchfree`` computes them with the coins that may move found as a
bitmask first and branch-free ranks: on V(3,3) about half the CPU of
the first compiled expansion, ``expand_chunk`` (commit 0f5a110 and before), since
mispredicted branches, not arithmetic, were most of its time
(``benchmarks/rankbfs-throughput.md``).  Its coin mask is one word: past 64 coins
``space.Space.expand`` runs the numpy expansion (the h and the canonical forms stay
compiled).  Likewise ``schedule_h_words``
computes bound-and-prune's h on one or two words in scalars, about a ninth of
``schedule_h``'s CPU (which runs on three and four words, or d >= 4), and ``member_scan``
walks instead of galloping between arrays of similar sizes (``member_gallop`` otherwise).
``scripts/rank_kernel_bench.py`` times each pair (a tested kernel against the same kernel of
a past commit, ``--baseline``).  Without numba, or with ``Kernels(compiled=False)``
(``coinsat/environment.py``), the numpy path runs and answers the same.
"""

from __future__ import annotations

import math

import numpy as np

try:  # optional: pip install 'coinsat[fast]'
    import numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - the numpy path runs
    numba = None  # type: ignore[assignment]
    HAVE_NUMBA = False


def available() -> bool:
    return HAVE_NUMBA


def _jit(f):
    return numba.njit(cache=True, nogil=True)(f) if HAVE_NUMBA else f


@_jit
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@_jit
def _shift_into(out, m, k, W):
    """out[w] = bits p + k of m (k may be negative), across W words."""
    q = abs(k) // 64
    r = abs(k) % 64
    for w in range(W):
        out[w] = np.uint64(0)
        src = w + q if k > 0 else w - q
        if 0 <= src < W:
            out[w] = (m[src] >> np.uint64(r)) if k > 0 else (m[src] << np.uint64(r))
        if r:
            nxt = src + 1 if k > 0 else src - 1
            if 0 <= nxt < W:
                if k > 0:
                    out[w] |= m[nxt] << np.uint64(64 - r)
                else:
                    out[w] |= m[nxt] >> np.uint64(64 - r)


@_jit
def _supported(out, m, shifts, masks, d, W, ge, plane):
    """out = cells with >= d set neighbours in m (d >= 1), a threshold counter ge[1..d]."""
    for lvl in range(d + 1):
        for w in range(W):
            ge[lvl, w] = np.uint64(0)
    for s in range(shifts.size):
        _shift_into(plane, m, shifts[s], W)
        for w in range(W):
            plane[w] &= masks[s, w]
        for lvl in range(d, 1, -1):
            for w in range(W):
                ge[lvl, w] |= ge[lvl - 1, w] & plane[w]
        for w in range(W):
            ge[1, w] |= plane[w]
    for w in range(W):
        out[w] = ge[d, w]


@_jit
def _supported1(m, rs, ls, masks, d):
    """_supported on one word (W = 1) for 1 <= d <= 3: the threshold counter in scalars, each
    plane shifted right by rs[s] then left by ls[s] (one of them 0: no branch on the sign)."""
    g1 = np.uint64(0)
    g2 = np.uint64(0)
    g3 = np.uint64(0)
    for s in range(rs.size):
        plane = ((m >> rs[s]) << ls[s]) & masks[s, 0]
        g3 |= g2 & plane
        g2 |= g1 & plane
        g1 |= plane
    return g1 if d == 1 else (g2 if d == 2 else g3)


@_jit
def _two_of_four1(m, R, L, M):
    """W = 1, d = 2, four neighbour planes (the square grid): the cells with two of them set.
    Two of four means both of the first pair, both of the second, or one of each; the shift
    amounts and masks are tuples, so the four planes are straight-line code (this runs in
    every round of every span closure: a loop over the planes took several times as long)."""
    p0 = ((m >> R[0]) << L[0]) & M[0]
    p1 = ((m >> R[1]) << L[1]) & M[1]
    p2 = ((m >> R[2]) << L[2]) & M[2]
    p3 = ((m >> R[3]) << L[3]) & M[3]
    return (p0 & p1) | (p2 & p3) | ((p0 | p1) & (p2 | p3))


@_jit
def _span_keeps1(rest, sb, need, d, full, rs, ls, masks, four, R, L, M):
    """W = 1: does the closure of ``rest`` reach a goal span of ``need`` or the cell ``sb``?"""
    cur = rest
    while True:
        if cur & sb:
            return True
        for g in range(need.shape[0]):
            if need[g, 0] & ~cur == 0:
                return True
        sup = _two_of_four1(cur, R, L, M) if four else _supported1(cur, rs, ls, masks, d)
        grown = cur | (sup & full)
        if grown == cur:
            return False
        cur = grown


@_jit
def _shift2(lo, hi, k):
    """Two words as one 128-bit board: bit p of the result = bit p + k (0 < |k| < 128)."""
    if k > 0:
        if k >= 64:
            return hi >> np.uint64(k - 64), np.uint64(0)
        return (lo >> np.uint64(k)) | (hi << np.uint64(64 - k)), hi >> np.uint64(k)
    k = -k
    if k >= 64:
        return np.uint64(0), lo << np.uint64(k - 64)
    return lo << np.uint64(k), (hi << np.uint64(k)) | (lo >> np.uint64(64 - k))


@_jit
def _supported2(lo, hi, shifts, masks, d):
    """_supported on two words (W = 2, 65 to 128 cells), the threshold counter in scalars (1 <= d <= 3)."""
    a1 = np.uint64(0)
    a2 = np.uint64(0)
    a3 = np.uint64(0)
    b1 = np.uint64(0)
    b2 = np.uint64(0)
    b3 = np.uint64(0)
    for s in range(shifts.size):
        plo, phi = _shift2(lo, hi, shifts[s])
        plo &= masks[s, 0]
        phi &= masks[s, 1]
        a3 |= a2 & plo
        a2 |= a1 & plo
        a1 |= plo
        b3 |= b2 & phi
        b2 |= b1 & phi
        b1 |= phi
    if d == 1:
        return a1, b1
    if d == 2:
        return a2, b2
    return a3, b3


@_jit
def _two_of_four2(lo, hi, K, ML, MH):
    """_two_of_four1 on two words: shifts K, masks ML (low words) and MH (high words), as tuples."""
    a0, b0 = _shift2(lo, hi, K[0])
    a1, b1 = _shift2(lo, hi, K[1])
    a2, b2 = _shift2(lo, hi, K[2])
    a3, b3 = _shift2(lo, hi, K[3])
    a0, a1, a2, a3 = a0 & ML[0], a1 & ML[1], a2 & ML[2], a3 & ML[3]
    b0, b1, b2, b3 = b0 & MH[0], b1 & MH[1], b2 & MH[2], b3 & MH[3]
    return (a0 & a1) | (a2 & a3) | ((a0 | a1) & (a2 | a3)), (b0 & b1) | (b2 & b3) | ((b0 | b1) & (b2 | b3))


@_jit
def _span_keeps2(lo, hi, sw, sb, need, d, full, shifts, masks, four, K, ML, MH):
    """W = 2: does the closure of (lo, hi) reach a goal span of ``need`` or the cell ``sb`` of word ``sw``?"""
    while True:
        if (lo if sw == 0 else hi) & sb:
            return True
        for g in range(need.shape[0]):
            if need[g, 0] & ~lo == 0 and need[g, 1] & ~hi == 0:
                return True
        if four:
            slo, shi = _two_of_four2(lo, hi, K, ML, MH)
        else:
            slo, shi = _supported2(lo, hi, shifts, masks, d)
        glo = lo | (slo & full[0])
        ghi = hi | (shi & full[1])
        if glo == lo and ghi == hi:
            return False
        lo, hi = glo, ghi


@_jit
def expand_branchfree(
    ranks, k, n, W, binom, shifts, masks, full, nbr, d, need, use_need, has_budget, rest_edges, cap
):  # pragma: no cover - compiled
    """Successor ranks (unsorted, with repeats) of the states ``ranks``; arguments as
    ``FastSpace`` prepares them (d = 0: no cell is ever supported).  The first compiled expansion's
    successors (``expand_chunk``, the same multiset, in the same order of states), with fewer
    mispredicted branches: the coins that may move are found first as a bitmask (at most 64
    coins: held ones, then the budget and closure for the rest), and only its set bits are
    visited; each successor's rank
    takes its prefix-sum correction without a branch (p lies above the moved coin exactly when
    mm >= j); the output has room for a whole state's successors before the state starts; each
    coin is unranked by scanning up or down from the same coin of the state before (any start
    finds the largest c with C(c, t) <= r; in a sorted chunk the scan is short).  On
    V(3,3) -> NW-SE the kernel took 0.53x the CPU of ``expand_chunk`` per chunk of 2**17 states
    (benchmarks/rankbfs-throughput.md)."""
    N = ranks.size
    one = W == 1 and 1 <= d <= 3  # the scalar one-word path ...
    two = W == 2 and 1 <= d <= 3  # ... and two-word path (else the loops over W words)
    four = d == 2 and shifts.size == 4  # straight-line planes (_two_of_four1, _two_of_four2)
    rs = np.zeros(shifts.size, dtype=np.uint64)
    ls = np.zeros(shifts.size, dtype=np.uint64)
    for t in range(shifts.size):
        rs[t] = max(shifts[t], 0)
        ls[t] = max(-shifts[t], 0)
    K4 = np.zeros(4, dtype=np.int64)  # the first four planes as tuples (used when four)
    R4 = np.zeros(4, dtype=np.uint64)
    L4 = np.zeros(4, dtype=np.uint64)
    M4 = np.zeros(4, dtype=np.uint64)
    H4 = np.zeros(4, dtype=np.uint64)
    for t in range(min(4, shifts.size)):
        K4[t], R4[t], L4[t], M4[t], H4[t] = shifts[t], rs[t], ls[t], masks[t, 0], masks[t, W - 1]
    K = (K4[0], K4[1], K4[2], K4[3])
    R = (R4[0], R4[1], R4[2], R4[3])
    L = (L4[0], L4[1], L4[2], L4[3])
    M = (M4[0], M4[1], M4[2], M4[3])
    MH = (H4[0], H4[1], H4[2], H4[3])
    out = np.empty(max(cap, 16), dtype=np.uint64)
    count = 0
    coins = np.empty(k, dtype=np.int64)
    for t in range(k):
        coins[t] = t
    m = np.zeros(W, dtype=np.uint64)
    rest = np.zeros(W, dtype=np.uint64)
    cur = np.zeros(W, dtype=np.uint64)
    grown = np.zeros(W, dtype=np.uint64)
    sup = np.zeros(W, dtype=np.uint64)
    plane = np.zeros(W, dtype=np.uint64)
    ge = np.zeros((max(d, 1) + 1, W), dtype=np.uint64)
    deg = np.zeros(k, dtype=np.int64)
    PD = np.zeros(k + 1, dtype=np.uint64)
    PU = np.zeros(k + 1, dtype=np.uint64)
    for i in range(N):
        # unrank: for t = k .. 2, the largest c with C(c, t) <= r; then C(c, 1) = c, so the lowest
        # coin is what is left of r (it changes from one state to the next most often)
        r = ranks[i]
        for t in range(k, 1, -1):
            c = coins[t - 1]
            if binom[c, t] <= r:
                while binom[c + 1, t] <= r:
                    c += 1
            else:
                c -= 1
                while binom[c, t] > r:
                    c -= 1
            coins[t - 1] = c
            r -= binom[c, t]
        coins[0] = np.int64(r)
        for w in range(W):
            m[w] = np.uint64(0)
        for t in range(k):
            m[coins[t] >> 6] |= np.uint64(1) << np.uint64(coins[t] & 63)
        PD[0] = np.uint64(0)
        PU[0] = np.uint64(0)
        for t in range(k):
            own = binom[coins[t], t + 1]
            PD[t + 1] = PD[t] + (own - binom[coins[t], t])
            PU[t + 1] = PU[t] + (binom[coins[t], t + 2] - own)
        edges2 = 0
        for t in range(k):
            e = 0
            for w in range(W):
                e += np.int64(_popcount(nbr[coins[t], w] & m[w]))
            deg[t] = e
            edges2 += e
        # which coins may move (a bitmask over j): held ones at once, the rest by the budget and the closure
        movable = np.uint64(0)
        ask = np.uint64(0)  # the coins whose closure decides
        for j in range(k):
            held = np.uint64(d > 0 and deg[j] >= d)
            tight = np.uint64(has_budget and edges2 // 2 - deg[j] > rest_edges)
            movable |= held << np.uint64(j)
            ask |= (np.uint64(1) - held) * (np.uint64(1) - tight) << np.uint64(j)
        if use_need:
            while ask:
                low = ask & (~ask + np.uint64(1))
                j = np.int64(_popcount(low - np.uint64(1)))
                ask ^= low
                s = coins[j]
                sw, sb = s >> 6, np.uint64(1) << np.uint64(s & 63)
                for w in range(W):
                    rest[w] = m[w]
                rest[sw] &= ~sb
                keep = False
                if one:
                    keep = _span_keeps1(rest[0], sb, need, d, full[0], rs, ls, masks, four, R, L, M)
                elif two:
                    keep = _span_keeps2(rest[0], rest[1], sw, sb, need, d, full, shifts, masks, four, K, M, MH)
                else:
                    for w in range(W):
                        cur[w] = rest[w]
                    while True:
                        if cur[sw] & sb:
                            keep = True
                            break
                        for g in range(need.shape[0]):
                            inside = True
                            for w in range(W):
                                if need[g, w] & ~cur[w]:
                                    inside = False
                                    break
                            if inside:
                                keep = True
                                break
                        if keep or d == 0:
                            break
                        _supported(sup, cur, shifts, masks, d, W, ge, plane)
                        changed = False
                        for w in range(W):
                            grown[w] = cur[w] | (sup[w] & full[w])
                            if grown[w] != cur[w]:
                                changed = True
                            cur[w] = grown[w]
                        if not changed:
                            break
                if keep:
                    movable |= np.uint64(1) << np.uint64(j)
        elif d > 0:
            movable = (np.uint64(1) << np.uint64(k)) - np.uint64(1) if k < 64 else ~np.uint64(0)
        if d == 0:  # no cell is ever supported: no move
            movable = np.uint64(0)
        if count + k * n > out.size:
            bigger = np.empty(max(out.size * 2, count + k * n), dtype=np.uint64)
            bigger[:count] = out[:count]
            out = bigger
        while movable:
            low = movable & (~movable + np.uint64(1))
            j = np.int64(_popcount(low - np.uint64(1)))
            movable ^= low
            s = coins[j]
            sw, sb = s >> 6, np.uint64(1) << np.uint64(s & 63)
            for w in range(W):
                rest[w] = m[w]
            rest[sw] &= ~sb
            if one:
                sup[0] = _two_of_four1(rest[0], R, L, M) if four else _supported1(rest[0], rs, ls, masks, d)
            elif two and four:
                sup[0], sup[1] = _two_of_four2(rest[0], rest[1], K, M, MH)
            elif two:
                sup[0], sup[1] = _supported2(rest[0], rest[1], shifts, masks, d)
            else:
                _supported(sup, rest, shifts, masks, d, W, ge, plane)
            # rank of C - c_j + p from rank(C) and the prefix sums (space.Ranks, 0-based here), branch-free:
            # p lies above s exactly when mm >= j
            base = ranks[i] - binom[s, j + 1]
            below_w = 0
            for w in range(W):
                dest = sup[w] & ~rest[w] & full[w]
                if w == sw:
                    dest &= ~sb
                while dest:
                    low = dest & (~dest + np.uint64(1))
                    p = w * 64 + np.int64(_popcount(low - np.uint64(1)))
                    dest ^= low
                    mm = below_w + np.int64(_popcount(rest[w] & (low - np.uint64(1))))
                    lt = np.uint64(mm < j)
                    out[count] = (
                        base + binom[p, mm + 1] + lt * (PU[j] - PU[mm]) + (np.uint64(1) - lt) * (PD[j + 1] - PD[mm + 1])
                    )
                    count += 1
                below_w += np.int64(_popcount(rest[w]))
    return out[:count]


@_jit
def _grow(cur, sup, W, one, two, four, rs, ls, masks, R, L, M, K, MH, shifts, d, ge, plane):
    """sup = the cells with >= d neighbours in cur: the scalar paths of expand_branchfree by W."""
    if one:
        sup[0] = _two_of_four1(cur[0], R, L, M) if four else _supported1(cur[0], rs, ls, masks, d)
    elif two and four:
        sup[0], sup[1] = _two_of_four2(cur[0], cur[1], K, M, MH)
    elif two:
        sup[0], sup[1] = _supported2(cur[0], cur[1], shifts, masks, d)
    else:
        _supported(sup, cur, shifts, masks, d, W, ge, plane)


@_jit
def schedule_h(ranks, k, n, W, binom, shifts, masks, full, d, goals):  # pragma: no cover - compiled
    """h of every state (``rankbfs`` module docstring, Bound-and-prune), int64, the minimum over
    the goal placements ``goals`` (G, W): the span layers R_0 = C, R_j = R_{j-1} + supported, and
    h = max_i (f_i + m - i) over the empty goal cells in the order they enter; 2**30 when one never
    does.  The same numbers as ``space.Space._schedule`` (a test compares them); the numpy
    version ran the layers of a whole chunk in lock step and took three quarters of a bounded
    search's time on V(4,3) (``benchmarks/rankbfs-heuristic.md``)."""
    N = ranks.size
    BIG = np.int64(1 << 30)
    one = W == 1 and 1 <= d <= 3
    two = W == 2 and 1 <= d <= 3
    four = d == 2 and shifts.size == 4
    # the planes (and below, the unranking) as in expand_branchfree, written out again: the planes returned
    # by a shared helper made the expansion 8 % slower (V(4,3) to 40 moves, 7.6 against 7.0 CPU s, best of 3)
    rs = np.zeros(shifts.size, dtype=np.uint64)
    ls = np.zeros(shifts.size, dtype=np.uint64)
    for t in range(shifts.size):
        rs[t] = max(shifts[t], 0)
        ls[t] = max(-shifts[t], 0)
    K4 = np.zeros(4, dtype=np.int64)
    R4 = np.zeros(4, dtype=np.uint64)
    L4 = np.zeros(4, dtype=np.uint64)
    M4 = np.zeros(4, dtype=np.uint64)
    H4 = np.zeros(4, dtype=np.uint64)
    for t in range(min(4, shifts.size)):
        K4[t], R4[t], L4[t], M4[t], H4[t] = shifts[t], rs[t], ls[t], masks[t, 0], masks[t, W - 1]
    K = (K4[0], K4[1], K4[2], K4[3])
    R = (R4[0], R4[1], R4[2], R4[3])
    L = (L4[0], L4[1], L4[2], L4[3])
    M = (M4[0], M4[1], M4[2], M4[3])
    MH = (H4[0], H4[1], H4[2], H4[3])
    out = np.empty(N, dtype=np.int64)
    coins = np.empty(k, dtype=np.int64)
    m = np.zeros(W, dtype=np.uint64)
    cur = np.zeros(W, dtype=np.uint64)
    sup = np.zeros(W, dtype=np.uint64)
    plane = np.zeros(W, dtype=np.uint64)
    ge = np.zeros((max(d, 1) + 1, W), dtype=np.uint64)
    empty = np.zeros(W, dtype=np.uint64)
    for i in range(N):
        r = ranks[i]
        c = n - 1
        for t in range(k, 0, -1):
            while binom[c, t] > r:
                c -= 1
            coins[t - 1] = c
            r -= binom[c, t]
            c -= 1
        for w in range(W):
            m[w] = np.uint64(0)
        for t in range(k):
            m[coins[t] >> 6] |= np.uint64(1) << np.uint64(coins[t] & 63)
        best = BIG
        for g in range(goals.shape[0]):
            left = np.int64(0)
            for w in range(W):
                empty[w] = goals[g, w] & ~m[w]
                left += np.int64(_popcount(empty[w]))
                cur[w] = m[w]
            h = np.int64(0)
            j = 0
            while left > 0:
                j += 1
                if d == 0:
                    h = BIG
                    break
                _grow(cur, sup, W, one, two, four, rs, ls, masks, R, L, M, K, MH, shifts, d, ge, plane)
                new = np.int64(0)
                changed = False
                for w in range(W):
                    grown = cur[w] | (sup[w] & full[w])
                    if grown != cur[w]:
                        changed = True
                    new += np.int64(_popcount(grown & ~cur[w] & empty[w]))
                    cur[w] = grown
                if new > 0:
                    h = max(h, j - 1 + left)
                    left -= new
                elif not changed:
                    h = BIG
                    break
            if h < best:
                best = h
        out[i] = best
    return out


@_jit
def schedule_h_words(ranks, k, n, W, binom, shifts, masks, full, d, goals):  # pragma: no cover - compiled
    """``schedule_h``'s numbers for one or two words and 1 <= d <= 3, with the board, the goal
    cells still empty and the span layer in scalars (no arrays of words, no helper writing
    through memory), the h update without a branch and the unranking of ``expand_branchfree``:
    1.1 us a state became about a tenth of it on V(3,3) (benchmarks/rankbfs-throughput.md).
    ``heuristic_kernel`` chooses it."""
    N = ranks.size
    BIG = np.int64(1 << 30)
    two = W == 2
    four = d == 2 and shifts.size == 4
    rs = np.zeros(shifts.size, dtype=np.uint64)
    ls = np.zeros(shifts.size, dtype=np.uint64)
    for t in range(shifts.size):
        rs[t] = max(shifts[t], 0)
        ls[t] = max(-shifts[t], 0)
    K4 = np.zeros(4, dtype=np.int64)
    R4 = np.zeros(4, dtype=np.uint64)
    L4 = np.zeros(4, dtype=np.uint64)
    M4 = np.zeros(4, dtype=np.uint64)
    H4 = np.zeros(4, dtype=np.uint64)
    for t in range(min(4, shifts.size)):
        K4[t], R4[t], L4[t], M4[t], H4[t] = shifts[t], rs[t], ls[t], masks[t, 0], masks[t, W - 1]
    K = (K4[0], K4[1], K4[2], K4[3])
    R = (R4[0], R4[1], R4[2], R4[3])
    L = (L4[0], L4[1], L4[2], L4[3])
    M = (M4[0], M4[1], M4[2], M4[3])
    MH = (H4[0], H4[1], H4[2], H4[3])
    full0 = full[0]
    full1 = full[W - 1] if two else np.uint64(0)
    zero = np.uint64(0)
    out = np.empty(N, dtype=np.int64)
    coins = np.empty(k, dtype=np.int64)
    for t in range(k):
        coins[t] = t
    for i in range(N):
        r = ranks[i]
        for t in range(k, 0, -1):  # the unranking of expand_branchfree (any start is right)
            c = coins[t - 1]
            if binom[c, t] <= r:
                while binom[c + 1, t] <= r:
                    c += 1
            else:
                c -= 1
                while binom[c, t] > r:
                    c -= 1
            coins[t - 1] = c
            r -= binom[c, t]
        mlo = zero
        mhi = zero
        for t in range(k):
            bit = np.uint64(1) << np.uint64(coins[t] & 63)
            if coins[t] >= 64:
                mhi |= bit
            else:
                mlo |= bit
        best = BIG
        for g in range(goals.shape[0]):
            elo = goals[g, 0] & ~mlo
            ehi = (goals[g, W - 1] & ~mhi) if two else zero
            left = np.int64(_popcount(elo)) + np.int64(_popcount(ehi))
            clo = mlo
            chi = mhi
            h = np.int64(0)
            j = np.int64(0)
            while left > 0:
                j += 1
                if two:
                    if four:
                        slo, shi = _two_of_four2(clo, chi, K, M, MH)
                    else:
                        slo, shi = _supported2(clo, chi, shifts, masks, d)
                    glo = clo | (slo & full0)
                    ghi = chi | (shi & full1)
                else:
                    sup = _two_of_four1(clo, R, L, M) if four else _supported1(clo, rs, ls, masks, d)
                    glo = clo | (sup & full0)
                    ghi = zero
                new = np.int64(_popcount(glo & ~clo & elo)) + np.int64(_popcount(ghi & ~chi & ehi))
                if new == 0 and glo == clo and ghi == chi:  # stuck with goal cells left
                    h = BIG
                    break
                h = max(h, (j - 1 + left) * np.int64(new > 0))
                left -= new
                clo = glo
                chi = ghi
            if h < best:
                best = h
        out[i] = best
    return out


def heuristic_kernel(W: int, d: int):
    """``schedule_h_words`` for one or two words and 1 <= d <= 3, else ``schedule_h``."""
    if W <= 2 and 1 <= d <= 3:
        return schedule_h_words
    return schedule_h


_warm = False


def warm_up() -> bool:
    """Load (or compile) every kernel now, once, with arguments of the types ``FastSpace`` and
    ``spill`` pass (so no later call compiles); False when the numpy path runs.  Callers go
    through ``visited.compiled``, which holds interrupts back meanwhile (its docstring says why)."""
    global _warm
    if not available():
        return False
    if not _warm:
        u = np.uint64
        one, none = np.zeros(1, dtype=u), np.zeros((0, 1), dtype=u)  # no shifts, masks or goal spans
        binom, shifts = np.ones((2, 3), dtype=u), np.zeros(0, dtype=np.int64)
        args = (one[:0], 1, 1, 1, binom, shifts, none, one, one.reshape(1, 1), 0, none, False, False, 0, 0)
        expand_branchfree(*args)  # the types FastSpace.expand passes
        member_gallop(one, one, np.zeros(1, dtype=np.bool_))
        member_scan(one, one, np.zeros(1, dtype=np.bool_), SCAN_RATIO)
        merge_unique(one, one)
        merge_unique_select(one, one)  # the types loop.Part.absorb passes
        merge_disjoint(one, one[:0].copy())  # the types Pool.collect passes
        dedup_sorted(one.copy())
        sort_distinct(one.copy(), 1)
        canonical_into(one[:0].copy(), 1, 1, binom, np.zeros((0, 1), dtype=np.int64))  # Space.canonical
        split_owned(one, 2)  # the types loop.split passes
        schedule_h(one[:0], 1, 1, 1, binom, shifts, none, one, 0, none)  # the types FastSpace.heuristic passes
        schedule_h_words(one[:0], 1, 1, 1, binom, shifts, none, one, 0, none)
        _warm = True
    return True


class FastSpace:
    """The arrays ``expand_branchfree`` needs, from a ``space.Space``."""

    def __init__(self, space) -> None:
        K = space.kernel
        self.k, self.n, self.W = space.k, space.n, K.W
        self.binom = np.ascontiguousarray(space.colex.binom)
        self.shifts = np.array([s for s, _ in K.shifts], dtype=np.int64)
        self.masks = np.ascontiguousarray(
            np.stack([m[:, 0] for _, m in K.shifts]) if K.shifts else np.zeros((0, K.W), np.uint64)
        )
        self.full = np.ascontiguousarray(K.full[:, 0])
        self.nbr = np.ascontiguousarray(K.nbr.T)  # (n, W)
        self.d = 0 if K.d is None else int(K.d)
        need = [g[:, 0] for g in space.need]
        self.use_need = bool(need)
        self.need = np.ascontiguousarray(np.stack(need)) if need else np.zeros((0, K.W), dtype=np.uint64)
        self.has_budget = space.rest_edges is not None
        self.rest_edges = 0 if space.rest_edges is None else int(space.rest_edges)
        goals = [g[:, 0] for g in space.goal_words]
        self.goals = np.ascontiguousarray(np.stack(goals)) if goals else np.zeros((0, K.W), dtype=np.uint64)
        self.h_kernel = heuristic_kernel(self.W, self.d)
        #: the bits of the largest rank, C(n, k) - 1 (``sort_distinct`` sorts that many)
        self.bits = max(1, (math.comb(self.n, self.k) - 1).bit_length())
        perms = space.symmetry
        self.perms = None if perms is None else np.ascontiguousarray(perms, dtype=np.int64)

    def canonical(self, ranks: np.ndarray) -> None:
        """Replace each rank by its canonical form under ``space.symmetry``, in place."""
        if self.perms is not None:
            canonical_into(ranks, self.k, self.n, self.binom, self.perms)

    def expand(self, ranks: np.ndarray) -> np.ndarray:
        return expand_branchfree(
            np.ascontiguousarray(ranks, dtype=np.uint64),
            self.k,
            self.n,
            self.W,
            self.binom,
            self.shifts,
            self.masks,
            self.full,
            self.nbr,
            self.d,
            self.need,
            self.use_need,
            self.has_budget,
            self.rest_edges,
            ranks.size * self.k * 4,
        )

    def successors(self, ranks: np.ndarray) -> np.ndarray:
        """The sorted distinct successors of ``ranks`` (in canonical form when the space has a
        symmetry group, ``canonical_into``): the kernel's output radix-sorted, its repeats
        squeezed out and the distinct ones copied out of the kernel's oversized buffer
        (``sort_distinct``)."""
        raw = sort_distinct(self.expand(ranks), self.bits)
        if self.perms is not None:  # canonical forms of the distinct successors (about half as many)
            self.canonical(raw)
            raw = sort_distinct(raw, self.bits)
        return raw

    def heuristic(self, ranks: np.ndarray) -> np.ndarray:
        return self.h_kernel(
            np.ascontiguousarray(ranks, dtype=np.uint64),
            self.k,
            self.n,
            self.W,
            self.binom,
            self.shifts,
            self.masks,
            self.full,
            self.d,
            self.goals,
        )


@_jit
def _gallop(a, lo, x):  # pragma: no cover - compiled
    """The first index i >= lo with a[i] >= x (a sorted): doubling steps, then a binary search."""
    n = a.size
    step = 1
    hi = lo
    while hi < n and a[hi] < x:
        lo = hi + 1
        hi = lo + step
        step *= 2
    if hi > n:
        hi = n
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


#: ``member_scan`` walks when the larger array has at most this many times the smaller one's size
SCAN_RATIO = 8


def member_sorted(run, values, seen) -> None:
    """seen[i] |= values[i] in run (both sorted, distinct): ``member_scan`` (which gallops,
    ``member_gallop``, between arrays of sizes more than ``SCAN_RATIO`` apart)."""
    member_scan(run, values, seen, SCAN_RATIO)


@_jit
def member_scan(run, values, seen, ratio):  # pragma: no cover - compiled
    """``member_gallop``'s answer; when the two sizes are within ``ratio`` of each other, each
    element of the smaller array walks the larger one element at a time instead of galloping (a
    walk of a few steps mispredicts once, a gallop at each of its doublings and halvings): 200
    against 233 ms for the membership of 6.2 M successors in the 46 layers of V(3,3) before them."""
    if run.size == 0 or values.size == 0:
        return
    if run.size <= values.size and values.size <= ratio * run.size:
        at = 0
        nv = values.size
        for r in range(run.size):
            x = run[r]
            while at < nv and values[at] < x:
                at += 1
            if at == nv:
                return
            seen[at] |= values[at] == x
    elif values.size < run.size and run.size <= ratio * values.size:
        at = 0
        nr = run.size
        for v in range(values.size):
            x = values[v]
            while at < nr and run[at] < x:
                at += 1
            if at == nr:
                return
            seen[v] |= run[at] == x
    else:
        member_gallop(run, values, seen)


@_jit
def member_gallop(run, values, seen):  # pragma: no cover - compiled
    """seen[i] |= values[i] in run (both sorted, distinct): each element of the smaller array
    gallops forward in the larger from where the previous one stopped."""
    if run.size == 0 or values.size == 0:
        return
    if run.size <= values.size:
        at = 0
        for r in range(run.size):
            at = _gallop(values, at, run[r])
            if at == values.size:
                return
            if values[at] == run[r]:
                seen[at] = True
    else:
        at = 0
        for v in range(values.size):
            at = _gallop(run, at, values[v])
            if at == run.size:
                return
            if run[at] == values[v]:
                seen[v] = True


@_jit
def dedup_sorted(a):  # pragma: no cover - compiled
    """Squeeze the repeats out of the sorted ``a`` in place; returns how many distinct values
    now lead it (one pass, no branch, the previous value held in a register: 0.7 ms for 1.5 M
    values, where reading back the last one kept took 3.8 and numpy's mask and compaction more)."""
    if a.size == 0:
        return 0
    m = 1
    prev = a[0]  # the last value seen is the last one kept (a is sorted): no load of a[m - 1]
    for i in range(1, a.size):
        x = a[i]
        a[m] = x
        m += np.int64(x != prev)
        prev = x
    return m


#: bits per digit of ``sort_distinct`` at most (2**11 counters: they stay in the L1 cache)
RADIX_BITS = 11


@_jit
def sort_distinct(a, bits):  # pragma: no cover - compiled
    """The distinct values of ``a`` (each below 2**bits), sorted, in a new array of their size;
    ``a`` is overwritten.  A least-significant-digit radix sort: the counts of every digit in one
    pass, then one stable scatter per digit of at most ``RADIX_BITS`` bits between ``a`` and a
    buffer (four passes for the 38 bits of V(3,3)'s ranks), then ``dedup_sorted``.  numpy's sort
    (a comparison sort on uint64) took about 55 ns a successor, this about 10, on V(3,3)'s
    chunks of 1.3 M successors (benchmarks/rankbfs-kernels.md)."""
    n = a.size
    if n == 0:
        return a.copy()
    passes = max(1, (bits + RADIX_BITS - 1) // RADIX_BITS)
    D = (bits + passes - 1) // passes
    B = 1 << D
    mask = np.uint64(B - 1)
    count = np.zeros((passes, B), dtype=np.int64)
    for i in range(n):
        x = a[i]
        for q in range(passes):
            count[q, np.int64((x >> np.uint64(q * D)) & mask)] += 1
    src = a
    dst = np.empty(n, dtype=np.uint64)
    for q in range(passes):
        at = 0
        for b in range(B):
            c = count[q, b]
            count[q, b] = at
            at += c
        shift = np.uint64(q * D)
        for i in range(n):
            x = src[i]
            b = np.int64((x >> shift) & mask)
            dst[count[q, b]] = x
            count[q, b] += 1
        src, dst = dst, src
    return src[: dedup_sorted(src)].copy()


@_jit
def canonical_into(ranks, k, n, binom, perms):  # pragma: no cover - compiled
    """Each rank replaced, in place, by its canonical form: the least colex rank of g(C) over
    the rows g of ``perms`` (cell permutations, the identity left out: C itself is the first
    candidate) (docs/symmetry.md).  Colex order on k-sets is the numeric order of their
    bitmasks (the largest cell where two sets differ decides both), so the images are compared
    as bitboards of up to four words, top word first, and only the least is ranked (reading its
    cells upwards): O(k) per permutation, one rank per state.  Fastest on sorted ranks (the
    unranking starts from the coins of the rank before)."""
    coins = np.empty(k, dtype=np.int64)
    for t in range(k):
        coins[t] = t
    img = np.zeros(4, dtype=np.uint64)
    best = np.zeros(4, dtype=np.uint64)
    for i in range(ranks.size):
        r = ranks[i]
        for w in range(4):
            best[w] = np.uint64(0)
        # unrank: for t = k .. 1, the largest c with C(c, t) <= r, scanning from the same coin of
        # the rank before (as ``expand_branchfree``: on sorted ranks the scan is short)
        for t in range(k, 0, -1):
            c = coins[t - 1]
            if binom[c, t] <= r:
                while c + 1 < n and binom[c + 1, t] <= r:
                    c += 1
            else:
                c -= 1
                while binom[c, t] > r:
                    c -= 1
            coins[t - 1] = c
            best[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
            r -= binom[c, t]
        moved = False
        for g in range(perms.shape[0]):
            img[0] = img[1] = img[2] = img[3] = np.uint64(0)
            for t in range(k):
                q = perms[g, coins[t]]
                img[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
            for w in range(3, -1, -1):
                if img[w] != best[w]:
                    if img[w] < best[w]:
                        for v in range(4):
                            best[v] = img[v]
                        moved = True
                    break
        if moved:
            rank = np.uint64(0)
            t = 1
            for w in range(4):
                x = best[w]
                while x:
                    low = x & (~x + np.uint64(1))
                    rank += binom[np.int64(_popcount(low - np.uint64(1))) + 64 * w, t]
                    t += 1
                    x ^= low
            ranks[i] = rank


@_jit
def merge_unique(a, b):  # pragma: no cover - compiled
    """The sorted distinct union of two sorted distinct arrays, in one pass (numpy has no merge:
    sorting their concatenation again cost about five times as much on a layer of V(3,3)).  A
    branch per element, on purpose: the parts of a layer come in long stretches from one side,
    which the branch predictor learns; a branch-free select was slower on them (101.8 against
    69.6 ms for the 14 parts of V(3,3)'s depth 45, best of 5), though faster on finely
    interleaved runs."""
    out = np.empty(a.size + b.size, dtype=np.uint64)
    i = 0
    j = 0
    m = 0
    while i < a.size and j < b.size:
        x = a[i]
        y = b[j]
        if x <= y:
            out[m] = x
            i += 1
            if x == y:
                j += 1
        else:
            out[m] = y
            j += 1
        m += 1
    while i < a.size:
        out[m] = a[i]
        i += 1
        m += 1
    while j < b.size:
        out[m] = b[j]
        j += 1
        m += 1
    return out[:m]


@_jit
def merge_unique_select(a, b):  # pragma: no cover - compiled
    """``merge_unique``'s answer without a branch per element: each step writes the smaller head
    (a select, not a jump) and advances the side or sides that held it.  For two runs that
    interleave finely with many values in common, where ``merge_unique``'s branch mispredicts:
    the successors a worker owns, those it made itself and those another worker sent
    (``loop.Part.absorb``), which share most of their values."""
    out = np.empty(a.size + b.size, dtype=np.uint64)
    i = 0
    j = 0
    m = 0
    while i < a.size and j < b.size:
        x = a[i]
        y = b[j]
        out[m] = x if x <= y else y
        i += np.int64(x <= y)
        j += np.int64(y <= x)
        m += 1
    out[m : m + a.size - i] = a[i:]  # one of the two is empty
    m += a.size - i
    out[m : m + b.size - j] = b[j:]
    m += b.size - j
    return out[:m]


@_jit
def merge_disjoint(a, b):  # pragma: no cover - compiled
    """The sorted union of two sorted arrays with no value in common (the parts of a layer that
    two workers own), in one pass without a branch per element: the parts of a layer cut by a
    hash interleave finely, where ``merge_unique``'s branch mispredicts (about half its CPU on
    V(3,3)'s layers: benchmarks/rankbfs-kernels.md)."""
    out = np.empty(a.size + b.size, dtype=np.uint64)
    i = 0
    j = 0
    m = 0
    while i < a.size and j < b.size:
        x = a[i]
        y = b[j]
        first = x < y
        out[m] = x if first else y
        i += np.int64(first)
        j += 1 - np.int64(first)
        m += 1
    out[m : m + a.size - i] = a[i:]  # one of the two is empty
    out[m + a.size - i :] = b[j:]
    return out


@_jit
def split_owned(ranks, parts):  # pragma: no cover - compiled
    """``ranks`` (sorted) cut by owner (``loop.owner``'s hash, recomputed here) in two passes:
    the count of each owner, then every rank scattered to its owner's stretch of one new array
    (a stretch stays sorted: ranks are visited in order).  Returns (the array, ``ends``): part p
    holds ``out[ends[p] : ends[p + 1]]``.  Replaces one hash pass, one comparison and one
    ``compress`` pass per owner (``loop.split`` below ``space.FAST_MIN`` states or without numba)."""
    n = ranks.size
    golden = np.uint64(0x9E3779B97F4A7C15)
    P = np.uint64(parts)
    s32 = np.uint64(32)
    ends = np.zeros(parts + 1, dtype=np.int64)
    out = np.empty(n, dtype=np.uint64)
    if parts == 2:  # two cursors in registers, no branch: the count lives in ``a`` and ``b``
        ones = np.int64(0)
        for i in range(n):
            ones += np.int64((ranks[i] * golden) >> np.uint64(63))
        a = np.int64(0)
        b = n - ones
        for i in range(n):
            x = ranks[i]
            q = np.int64((x * golden) >> np.uint64(63))
            out[a + q * (b - a)] = x
            a += 1 - q
            b += q
        ends[1] = n - ones
        ends[2] = n
        return out, ends
    for i in range(n):
        ends[np.int64((((ranks[i] * golden) >> s32) * P) >> s32) + 1] += 1
    for p in range(parts):
        ends[p + 1] += ends[p]
    at = ends[:parts].copy()
    for i in range(n):
        x = ranks[i]
        p = np.int64((((x * golden) >> s32) * P) >> s32)
        out[at[p]] = x
        at[p] += 1
    return out, ends
