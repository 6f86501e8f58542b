"""The LM-cut h of ``rankbfs`` (``--heuristic lmcut``), compiled: docs/lm-cut.md §3, one state at a time.

The proof and the procedure are ``docs/lm-cut.md``; ``coinsat/theory/relaxed.py`` is the reference
(pure Python), and tests compare this kernel with it state by state.  h_lm(C) = min over the goal
placements G of max(h_fill(C, G), LM(C, G)) (Theorem LM: h_fill <= h_lm <= h+ <= the moves left).

*Actions* are precomputed once per window: every (P -> c) with P a d-subset of N(c) (at most 6 a
cell on the square grid with d = 2), listed by the cell they fill and by each of their supports.
Per state they are restricted to span(C) without a test of their own: h^max from C settles exactly
the cells of span(C) (a cell enters when d of its neighbours have, Lemma R), so an action fires,
that is has all its supports settled, exactly when it is an action of the relaxed game from C
(actions into C are never armed).

*h^max* (step 1, Lemma HM).  Costs are 0 or 1 (Lemma LC), so h^max is a 0-1 level sweep: the cells of value v
are settled in one queue, an action counts its supports down as they settle and fires at the last
one (whose value is the largest of its supports, cells settle in the order of their values), which
puts its cell in this level's queue (cost 0) or the next one's (cost 1).  The first round, all
costs 1, gives the span layers: V(c) is the layer R_j that c enters, so the fill schedule of every
goal placement comes out of it (Lemma Q).

*The rounds* (steps 2-6) follow §3 to the letter: pcf ties to the smallest cell, t* ties to the
smallest cell, the goal zone Z backwards from t* through the free actions' pcf, the before zone B
forwards from C through actions whose pcf is in B and whose cell is not in Z, the cut = actions with
pcf in B and cell in Z, set to cost 0.  Later rounds update the values instead of recomputing
them and use Lemmas BZ and ES of docs/lm-cut.md (``lm_cut_states``).

*Only the decision is needed.*  The search keeps a state y first met at depth t iff t + h_lm(y) <= U.
With ``cap`` = U - t the kernel returns min over G of max(fill_G, min(LM_G, cap + 1)), where LM_G is
not computed when fill_G > cap or when a plan of the relaxed game read off the span layers has
<= cap actions (Lemma UP: then LM_G <= cap, and fill_G stands in for it), and its rounds stop at
the first r with r + top_r > cap (Lemma ES):
a value <= h_lm (so still a lower bound) that is <= cap exactly when h_lm is.  ``cap`` < 0 is
"no cap" (the exact h_lm, for the tests).  The search first prunes with the compiled fill h
(``jit.schedule_h_words``, h_lm >= h_fill) and runs this kernel on the states that pass.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

import numpy as np

from . import jit


def _jit(f):
    """Compiled as the kernels of ``jit.py`` are (numba, cached), or plain Python without numba."""
    return jit.numba.njit(cache=True, nogil=True)(f) if jit.HAVE_NUMBA else f


#: "no path" (as ``theory.supports.BIG`` and the fill kernels)
BIG = 1 << 30
#: an action counter that never reaches 0 (the action is not one of the relaxed game from C)
NEVER = 1 << 30


class Actions:
    """The window's actions (P -> c) for every cell c and d-subset P of its neighbours, as arrays:
    ``sup[a]`` the d supports (ascending), ``eff[a]`` the cell; ``by_eff`` / ``by_sup`` CSR lists
    (start offsets ``*_at``, length n + 1) of the actions filling a cell / supported by a cell."""

    def __init__(self, neighbours: Sequence[Sequence[int]], d: int):
        n = len(neighbours)
        sup, eff = [], []
        for c in range(n):
            for P in combinations(sorted(neighbours[c]), d) if d >= 1 else ():
                sup.append(P)
                eff.append(c)
        A = len(eff)
        self.n, self.d, self.size = n, d, A
        self.sup = np.array(sup, dtype=np.int32).reshape(A, max(d, 0))
        self.eff = np.array(eff, dtype=np.int32)
        self.eff_at = np.searchsorted(self.eff, np.arange(n + 1)).astype(np.int64)
        lists: list[list[int]] = [[] for _ in range(n)]
        for a, P in enumerate(sup):
            for p in P:
                lists[p].append(a)
        self.sup_at = np.cumsum([0] + [len(x) for x in lists]).astype(np.int64)
        self.by_sup = np.array([a for x in lists for a in x], dtype=np.int32)


def goal_arrays(goals: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """The goal placements' cells as one CSR list: (cells, start offsets)."""
    at = np.cumsum([0] + [len(g) for g in goals]).astype(np.int64)
    cells = np.array([c for g in goals for c in sorted(g)], dtype=np.int32)
    return cells, at


@_jit
def _hmax(C_list, k, d, sup, eff, sup_at, by_sup, kappa, cnt, pcf, V, settled, q0, q1):  # pragma: no cover
    """Step 1 (module docstring): V (BIG outside the span), pcf of every fired action; ``cnt``
    holds each action's supports still to settle (0: fired), armed by the caller."""
    n = V.size
    for c in range(n):
        V[c] = BIG
        settled[c] = 0
    cur = q0
    nxt = q1
    ncur = 0
    for i in range(k):
        V[C_list[i]] = 0
        cur[ncur] = C_list[i]
        ncur += 1
    level = 0
    while ncur > 0:
        nnext = 0
        i = 0
        while i < ncur:
            p = cur[i]
            i += 1
            if settled[p]:
                continue
            settled[p] = 1
            for t in range(sup_at[p], sup_at[p + 1]):
                a = by_sup[t]
                cnt[a] -= 1
                if cnt[a] == 0:
                    best = sup[a, 0]
                    for j in range(1, d):
                        q = sup[a, j]
                        if V[q] > V[best]:  # supports ascending: ties keep the smaller cell
                            best = q
                    pcf[a] = best
                    c = eff[a]
                    nv = level + kappa[a]
                    if nv < V[c]:
                        V[c] = nv
                        if kappa[a] == 0:
                            cur[ncur] = c
                            ncur += 1
                        else:
                            nxt[nnext] = c
                            nnext += 1
        cur, nxt = nxt, cur
        ncur = nnext
        level += 1


@_jit
def _fill_of(V, gcells, g0, g1, inC, buf):  # pragma: no cover - compiled
    """Lemma Q over the empty cells of one goal placement, from the span layers V (round 1)."""
    m = 0
    for i in range(g0, g1):
        c = gcells[i]
        if inC[c]:
            continue
        if V[c] >= BIG:
            return BIG
        # insertion into the sorted buf[:m]
        j = m
        while j > 0 and buf[j - 1] > V[c]:
            buf[j] = buf[j - 1]
            j -= 1
        buf[j] = V[c]
        m += 1
    h = 0
    for i in range(m):
        x = buf[i] + m - 1 - i
        if x > h:
            h = x
    return h


@_jit
def _lower(c, v, V, head, node_next, node_cell, used, top):  # pragma: no cover - compiled
    """V(c) = v and c into bucket v (a stack of nodes per value); returns (nodes used, top bucket)."""
    V[c] = v
    node_cell[used] = c
    node_next[used] = head[v]
    head[v] = used
    return used + 1, max(top, v)


@_jit
def _plan_length(V1, gcells, g0, g1, inC, eff_at_w, sup, cnt, eff, d, need, stack, stamp):  # pragma: no cover
    """Lemma UP (docs/lm-cut.md): the length of a plan of the relaxed game for the goal placement
    gcells[g0:g1], read off the span layers V1: each needed cell takes an action of the game from C
    (``cnt`` 0) whose supports all lie on lower layers, one with the fewest supports neither in C
    nor needed already; the needed cells, by layer, are a plan.  ``need`` marks with ``stamp``."""
    length = 0
    sp = 0
    for i in range(g0, g1):
        t = gcells[i]
        if not inC[t] and need[t] != stamp:
            need[t] = stamp
            stack[sp] = t
            sp += 1
            length += 1
    while sp > 0:
        sp -= 1
        c = stack[sp]
        best = -1
        fewest = d + 1
        for a in range(eff_at_w[c], eff_at_w[c + 1]):
            if cnt[a] != 0:
                continue
            new = 0
            ok = True
            for j in range(d):
                q = sup[a, j]
                if V1[q] >= V1[c]:
                    ok = False
                    break
                if not inC[q] and need[q] != stamp:
                    new += 1
            if ok and new < fewest:
                fewest = new
                best = a
        for j in range(d):  # best >= 0: c entered its layer through d supports below it (Lemma R)
            q = sup[best, j]
            if not inC[q] and need[q] != stamp:
                need[q] = stamp
                stack[sp] = q
                sp += 1
                length += 1
    return length


@_jit
def lm_cut_states(cells, d, sup, eff, eff_at, sup_at, by_sup, gcells, gat, cap):  # pragma: no cover - compiled
    """h_lm (capped: module docstring) of every row of ``cells`` (N, k), the occupied cells of a state.

    Round 1 runs ``_hmax`` over the window's actions; the actions that fire (those of the relaxed
    game from C) are then copied into per-state arrays (local numbers, CSR lists by cell filled and
    by support), and every later round updates h^max instead of recomputing it (Lemma HM (d): a
    cut only lowers costs, so the sweep's values only decrease, and lowering a value to an action's
    bound until every bound holds gives them): from the cut's cells on, in order of the new values
    (a bucket per value; an entry whose cell was lowered again since is stale).  pcf is recomputed
    for the actions of the cells whose V changed, and each action is kept in the list of its pcf's
    actions.  The before zone holds every cell valued below top (Lemma BZ), so only the cells
    valued top or more are decided, from those lists; the rounds stop at the first r with
    r + top > cap (Lemma ES: the answer is max_r (r + top_r))."""
    N, k = cells.shape
    n = eff_at.size - 1
    A = eff.size
    G = gat.size - 1
    dd = max(d, 1)
    out = np.empty(N, dtype=np.int64)
    ones = np.ones(A, dtype=np.int8)
    cnt = np.zeros(A, dtype=np.int32)
    pcf = np.zeros(A, dtype=np.int32)
    V1 = np.zeros(n, dtype=np.int64)
    V = np.zeros(n, dtype=np.int64)
    settled = np.zeros(n, dtype=np.uint8)
    inC = np.zeros(n, dtype=np.uint8)
    zmark = np.zeros(n, dtype=np.int64)
    bmark = np.zeros(n, dtype=np.int64)
    cmark = np.zeros(n, dtype=np.int64)
    q0 = np.zeros(n, dtype=np.int32)
    q1 = np.zeros(n, dtype=np.int32)
    stack = np.zeros(n, dtype=np.int32)
    changed = np.zeros(n, dtype=np.int32)
    buf = np.zeros(max(k, 1) + n, dtype=np.int64)
    fills = np.zeros(max(G, 1), dtype=np.int64)
    # the per-state (local) actions
    le = np.zeros(A, dtype=np.int32)
    ls = np.zeros((A, dd), dtype=np.int32)
    lp = np.zeros(A, dtype=np.int32)
    lp1 = np.zeros(A, dtype=np.int32)
    lk = np.zeros(A, dtype=np.int8)
    cut = np.zeros(A, dtype=np.int32)
    # the actions by pcf: a doubly linked list per cell (the before zone walks them)
    child = np.full(n, -1, dtype=np.int32)
    cnext = np.zeros(A, dtype=np.int32)
    cprev = np.zeros(A, dtype=np.int32)
    leff_at = np.zeros(n + 1, dtype=np.int64)
    lsup_at = np.zeros(n + 2, dtype=np.int64)
    lby_sup = np.zeros(A * dd, dtype=np.int32)
    # the buckets of the h^max update: values <= n + 1; a node per lowering, at most n * (n + 2) a round
    head = np.full(n + 2, -1, dtype=np.int64)
    node_next = np.zeros(n * (n + 2) + 1, dtype=np.int64)
    node_cell = np.zeros(n * (n + 2) + 1, dtype=np.int32)
    stamp = np.int64(0)
    need = np.zeros(n, dtype=np.int64)
    pstamp = np.int64(0)
    limit = np.int64(cap) if cap >= 0 else np.int64(BIG)
    for s in range(N):
        C_list = cells[s]
        for i in range(k):
            inC[C_list[i]] = 1
        # round 1 (every cost 1): the span layers, the fill schedules, the actions of the game
        for a in range(A):
            cnt[a] = NEVER if inC[eff[a]] else d
        _hmax(C_list, k, d, sup, eff, sup_at, by_sup, ones, cnt, pcf, V1, settled, q0, q1)
        best = np.int64(BIG)
        for g in range(G):
            fills[g] = _fill_of(V1, gcells, gat[g], gat[g + 1], inC, buf)
        m = 0
        built = False
        for g in range(G):
            fill = fills[g]
            if fill > limit or fill >= best:  # pruned by h_fill alone, or no better than a placement done
                if fill < best:
                    best = fill
                continue
            if cap >= 0:  # Lemma UP: a plan of <= cap actions bounds LM by cap; fill is then the answer's stand-in
                pstamp += 1
                if (
                    _plan_length(V1, gcells, gat[g], gat[g + 1], inC, eff_at, sup, cnt, eff, d, need, stack, pstamp)
                    <= limit
                ):
                    best = fill
                    continue
            if not built:  # the local actions, by cell filled (the window's order) and by support
                built = True
                for c in range(n + 2):
                    lsup_at[c] = 0
                c0 = 0
                for a in range(A):
                    if cnt[a] == 0:
                        c = eff[a]
                        while c0 <= c:
                            leff_at[c0] = m
                            c0 += 1
                        le[m] = c
                        for j in range(d):
                            ls[m, j] = sup[a, j]
                            lsup_at[sup[a, j] + 2] += 1
                        lp1[m] = pcf[a]
                        m += 1
                while c0 <= n:
                    leff_at[c0] = m
                    c0 += 1
                for c in range(n):
                    lsup_at[c + 2] += lsup_at[c + 1]
                for a in range(m):  # lsup_at[c + 1] is the fill position of cell c, then its end
                    for j in range(d):
                        p = ls[a, j]
                        lby_sup[lsup_at[p + 1]] = a
                        lsup_at[p + 1] += 1
            for i in range(n):
                V[i] = V1[i]
            for c in range(n):
                child[c] = -1
            for a in range(m):
                lp[a] = lp1[a]
                lk[a] = 1
                p = lp[a]
                cprev[a] = -1
                cnext[a] = child[p]
                if child[p] >= 0:
                    cprev[child[p]] = a
                child[p] = a
            rounds = np.int64(0)
            while True:
                top = np.int64(0)
                tstar = -1
                for i in range(gat[g], gat[g + 1]):
                    t = gcells[i]
                    if inC[t]:
                        continue
                    if V[t] > top or (V[t] == top and t < tstar):
                        top = V[t]
                        tstar = t
                if top == 0:
                    break
                if rounds + top > limit:  # Lemma ES: the answer is >= rounds + top, past the cap
                    rounds = limit + 1
                    break
                # step 4: the goal zone, backwards from t* through the free actions' pcf
                stamp += 1
                zmark[tstar] = stamp
                sp = 0
                stack[sp] = tstar
                sp += 1
                while sp > 0:
                    sp -= 1
                    c = stack[sp]
                    for a in range(leff_at[c], leff_at[c + 1]):
                        if lk[a] == 0:
                            p = lp[a]
                            if zmark[p] != stamp:
                                zmark[p] = stamp
                                stack[sp] = p
                                sp += 1
                # step 5: the before zone.  Every cell valued below top is in it (Lemma BZ), so only
                # the cells valued top or more, outside Z, are decided: those filled by an action whose
                # pcf is valued below top, then forwards through the pcf lists of the ones found
                sp = 0
                for c in range(n):
                    if V[c] >= top and V[c] < BIG and zmark[c] != stamp:
                        for a in range(leff_at[c], leff_at[c + 1]):
                            if V[lp[a]] < top:
                                bmark[c] = stamp
                                stack[sp] = c
                                sp += 1
                                break
                while sp > 0:
                    sp -= 1
                    p = stack[sp]
                    a = child[p]
                    while a >= 0:
                        c = le[a]
                        if V[c] >= top and zmark[c] != stamp and bmark[c] != stamp:
                            bmark[c] = stamp
                            stack[sp] = c
                            sp += 1
                        a = cnext[a]
                # step 6: the cut, the actions into Z whose pcf is in the before zone
                nc = 0
                for c in range(n):
                    if zmark[c] == stamp:
                        for a in range(leff_at[c], leff_at[c + 1]):
                            p = lp[a]
                            if V[p] < top or bmark[p] == stamp:
                                cut[nc] = a
                                nc += 1
                rounds += 1
                # the cut's costs to 0, and h^max updated from its cells on
                used = 0
                hi = 0
                lo = n + 2
                for i in range(nc):
                    a = cut[i]
                    lk[a] = 0
                    v = V[lp[a]]
                    if v < V[le[a]]:
                        used, hi = _lower(le[a], v, V, head, node_next, node_cell, used, hi)
                        lo = min(lo, v)
                nch = 0
                level = lo
                while level <= hi:
                    while head[level] >= 0:
                        node = head[level]
                        head[level] = node_next[node]
                        c = node_cell[node]
                        if V[c] != level:  # stale: lowered again since
                            continue
                        if cmark[c] != stamp:
                            cmark[c] = stamp
                            changed[nch] = c
                            nch += 1
                        for t in range(lsup_at[c], lsup_at[c + 1]):
                            a = lby_sup[t]
                            mx = V[ls[a, 0]]
                            for j in range(1, d):
                                mx = max(mx, V[ls[a, j]])
                            v = mx + lk[a]
                            if v < V[le[a]]:
                                used, hi = _lower(le[a], v, V, head, node_next, node_cell, used, hi)
                    level += 1
                for i in range(nch):  # pcf of the actions supported by a cell whose V changed
                    c = changed[i]
                    for t in range(lsup_at[c], lsup_at[c + 1]):
                        a = lby_sup[t]
                        b = ls[a, 0]
                        for j in range(1, d):
                            q = ls[a, j]
                            if V[q] > V[b]:  # supports ascending: ties keep the smaller cell
                                b = q
                        old = lp[a]
                        if b != old:  # a moves from the list of its old pcf to the new one's
                            if cprev[a] >= 0:
                                cnext[cprev[a]] = cnext[a]
                            else:
                                child[old] = cnext[a]
                            if cnext[a] >= 0:
                                cprev[cnext[a]] = cprev[a]
                            lp[a] = b
                            cprev[a] = -1
                            cnext[a] = child[b]
                            if child[b] >= 0:
                                cprev[child[b]] = a
                            child[b] = a
            h = fill if fill > rounds else rounds
            if h < best:
                best = h
        for i in range(k):
            inC[C_list[i]] = 0
        out[s] = best
    return out


@_jit
def unrank_cells(ranks, k, n, binom):  # pragma: no cover - compiled
    """The occupied cells (N, k), ascending, of the colex ranks ``ranks``."""
    N = ranks.size
    out = np.empty((N, k), dtype=np.int32)
    for i in range(N):
        r = ranks[i]
        c = n - 1
        for t in range(k, 0, -1):
            while binom[c, t] > r:
                c -= 1
            out[i, t - 1] = c
            r -= binom[c, t]
            c -= 1
    return out


class LmCut:
    """The LM-cut h of one window (``Space`` builds it for ``h == "lmcut"``)."""

    def __init__(self, neighbours: Sequence[Sequence[int]], d: int, goals: list[list[int]]):
        self.actions = Actions(neighbours, d)
        self.d = d
        self.gcells, self.gat = goal_arrays(goals)

    def of_cells(self, cells: np.ndarray, cap: int | None = None) -> np.ndarray:
        """h_lm of every row of ``cells`` (N, k) (capped at cap + 1 when ``cap`` is given and >= 0)."""
        a = self.actions
        cells = np.ascontiguousarray(cells, dtype=np.int32)
        c = -1 if cap is None else int(cap)
        if cap is not None and cap < 0:  # depth > U: every h >= 0 is above the cap
            return np.zeros(cells.shape[0], dtype=np.int64)
        return lm_cut_states(cells, self.d, a.sup, a.eff, a.eff_at, a.sup_at, a.by_sup, self.gcells, self.gat, c)


def warm_up() -> None:
    """Load (or compile) the kernels with the argument types ``LmCut`` passes."""
    lm = LmCut([[1], [0]], 1, [[0, 1]])
    lm.of_cells(np.zeros((1, 1), dtype=np.int32), None)
    unrank_cells(np.zeros(1, dtype=np.uint64), 1, 2, np.ones((3, 3), dtype=np.uint64))
