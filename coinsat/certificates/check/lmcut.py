"""The layers checker's own LM-cut h (certificate field ``"h": "lmcut"``), compiled with numba.

What it computes.  For a configuration C and each goal placement G: h_fill(C, G) (the fill
schedule of :mod:`.layers`) and LM(C, G), the number of rounds of the LM-cut procedure on the
game without lifts, and h_lm(C) = min over G of max(h_fill(C, G), LM(C, G)).  The procedure is
the one of ``docs/lm-cut.md`` §3, with its tie-breaks, restated here so that this file can be
read alone (the proof that h_lm never exceeds the moves left, Theorem LM, is in that document):

0. S = span(C) in the window, T = G - C (0 if empty; infinite if T is not inside S).  The actions
   are the (P -> c), c in S - C, P a d-subset of the neighbours of c inside S; every cost is 1.
1. V by the 0-1 sweep: L_0 = C closed under the actions of cost 0, L_k = L_{k-1} and the effects
   of the cost-1 actions with supports in L_{k-1}, closed under the cost-0 actions; V(c) = the
   least k with c in L_k.  (Not "the least fixpoint of V(c) = min cost + max V(P)", which may
   value a cycle of free actions 0.)
2. If max V over T is 0, the answer is the number of rounds done.
3. pcf(P -> c) = the cell of P with the largest V, ties to the smallest cell number; t* = the
   cell of T with the largest V, ties to the smallest.
4. Z: the least set holding t* and pcf(a) for every action a of cost 0 into a cell of Z.
5. B: the least set holding C and c for every (P -> c) with pcf in B and c not in Z.
6. The cut: the actions with pcf in B and effect in Z; their costs become 0; one more round.

Cells are numbered by the certificate's window (bit i: ``cells[i]``), the numbering of the
search that wrote the layers.  ``docs/lm-cut.md`` proves every cut non-empty with all its costs 1
(Lemma LC); the kernel raises if either fails (a bug, never a verdict).

Only the decision matters.  Condition (3) of :mod:`.layers` asks for a successor y at depth
i + 1 iff (i + 1) + h(y) <= U, so the kernel takes a budget b = U - (i + 1) and returns a value
v <= h_lm with v <= b exactly when h_lm <= b: min(h_lm, b + 1), except where a plan of the game
without lifts of at most b actions, read off the span layers, shows LM <= b (``docs/lm-cut.md``,
Lemma UP): then v is that placement's h_fill.  That lets it stop early: a goal placement whose
h_fill is already past the best value so far is skipped, one with such a plan needs no round, and
the rounds stop as soon as r + max_T V reaches the best value, r the rounds done (Lemma ES: max_T V
falls by at most one a round, so the answer is at least r + max_T V at every round).
``budget`` = ``BIG`` - 1 gives h_lm itself (``BIG`` when no goal placement can be reached),
which the tests compare with the reference ``coinsat.theory.relaxed.h_lm`` (imported by the
tests only: nothing here imports ``coinsat.search`` or ``coinsat.theory``).

How.  One configuration at a time: decoded from its colex rank and put on the padded bitboards
of :mod:`.rankedjit` (whose ``supported`` threshold counter grows the span layer by layer and
gives every cell its entry layer, which h_fill reads), the cells of S numbered in increasing
order (so "the smallest cell" is the smallest local number), the actions listed once per
configuration, grouped by the cell they fill, with the list of actions each cell is a
support of.  The values and sets are those the text defines, whatever the order of the work:

* Step 1, first round: every cost is 1, so L_k = L_{k-1} and the cells of S - C with d
  neighbours in L_{k-1}: the span layers R_k, and V is the entry layer h_fill already read.
* Step 1, later rounds (``docs/lm-cut.md``, Lemma HM (d)): the costs only fell (the cut's, from
  1 to 0), so the new values V' are <= V, and V may be lowered, one violated inequality
  V(c) <= cost(a) + max V(P) at a time, until none is: every value stays >= V' and the end is V'.
  Here a bucket queue from the cut actions' effects settles the lowered cells in increasing
  order and re-evaluates the actions they support (an action is re-evaluated after the last
  change of its supports, so none is left violated).  Each round touches only the cells whose V
  falls.
* Step 5 (Lemma BZ): every cell with V < top = max_T V is in B.  Along the sweep's settling
  order: a cell of C is; another has an action a with V(c) = cost(a) + V(pcf(a)) whose supports
  come earlier, so pcf(a), with V <= V(c) < top, is in B, and c is not in Z, whose cells all have
  V >= top (Lemma LC (i)), so c is in B.  B is therefore found among the cells with V >= top
  only: those outside Z with an action whose pcf has V < top, closed forward through the
  actions whose pcf is one of them (step 5's rule restricted to them).
* Step 6: the actions into Z whose pcf is in B (V < top, or found above).
"""

from __future__ import annotations

import math

import numpy as np

from .rankedjit import BIG, HAVE_NUMBA, as_rows, board_words, decode, jit_compiled, plane_arrays, popcount, supported


@jit_compiled
def _entry_layers(m, cur, sup, ge, P, W, n, pos, k, planes, d, layer):
    """layer[c] = j for the cells c first in R_j (0 on the coins of m), -1 outside span(m)."""
    off, near, right, r, masks = planes
    for c in range(n):
        layer[c] = -1
    for i in range(k):
        layer[pos[i]] = 0
    cur[:] = m
    j = 0
    while True:
        supported(sup, cur, P, off, near, right, r, masks, d, W, ge)
        j += 1
        changed = False
        for w in range(W):
            add = sup[P + w] & ~cur[P + w]
            if add:
                changed = True
                cur[P + w] |= add
                while add:
                    low = add & (~add + np.uint64(1))
                    layer[64 * w + popcount(low - np.uint64(1))] = j
                    add ^= low
        if not changed:
            return


@jit_compiled
def _fill(goal, m, P, W, layer, cnt):
    """The fill schedule of the empty cells of ``goal``: max over the entry layers j of
    j - 1 + #(empty goal cells entering at j or later); BIG when one never enters."""
    left = 0
    top = 0
    bad = False
    for w in range(W):
        e = goal[w] & ~m[P + w]
        while e:
            low = e & (~e + np.uint64(1))
            e ^= low
            f = layer[64 * w + popcount(low - np.uint64(1))]
            if f < 0:
                bad = True
            else:
                cnt[f] += 1
                left += 1
                top = max(top, f)
    h = 0
    for j in range(1, top + 1):
        if cnt[j]:
            h = max(h, j - 1 + left)
            left -= cnt[j]
            cnt[j] = 0
    return BIG if bad else h


@jit_compiled
def _pcf(pre, a, d, V):
    """Step 3: the support of action a with the largest V, ties to the smallest cell (the
    supports are listed in increasing order: a later one wins only with a larger V)."""
    p = pre[a, 0]
    for j in range(1, d):
        q = pre[a, j]
        if V[q] > V[p]:
            p = q
    return p


@jit_compiled
def _push(x, v, head, nxt, node_cell, nn):
    """Put cell x in bucket v of the bucket queue (linked lists in flat arrays); returns nn + 1."""
    node_cell[nn] = x
    nxt[nn] = head[v]
    head[v] = nn
    return nn + 1


@jit_compiled
def _rounds(limit, ms, d, cells, layer, pre, eff, first, by_pre_start, by_pre, n_act, tgt, nt, work):
    """LM(C, G) of §3 on the actions built by ``h_lm_values`` if it is below ``limit``, else
    ``limit`` (the rounds stop there).  ``work``: the scratch arrays."""
    cost, V, in_z, in_bh, stack, zone, cut, head, nxt, node_cell, stamp = work
    # step 1 of the first round: every cost is 1, so the sweep's L_k are the span layers R_k
    # (a cell of S - C joins when d of its neighbours are in the layer before): V = entry layer
    for a in range(n_act):
        cost[a] = 1
    for x in range(ms):
        V[x] = layer[cells[x]]
        stamp[x] = -1
    rounds = 0
    while True:
        # steps 2 and 3
        top = -1
        star = -1
        for i in range(nt):  # tgt ascending: the first of the largest is the smallest cell
            if V[tgt[i]] > top:
                top = V[tgt[i]]
                star = tgt[i]
        if top == 0:
            return rounds
        if rounds + top >= limit:  # Lemma ES: the answer is at least rounds + top
            return limit
        # step 4: the goal zone, back from t* through the free actions (its cells have V >= top)
        for x in range(ms):
            in_z[x] = False
            in_bh[x] = False
        in_z[star] = True
        zone[0] = star
        nz = 1
        i = 0
        while i < nz:
            c = zone[i]
            i += 1
            for a in range(first[c], first[c + 1]):
                if cost[a] == 0:
                    p = _pcf(pre, a, d, V)
                    if not in_z[p]:
                        in_z[p] = True
                        zone[nz] = p
                        nz += 1
        # step 5: every cell with V < top is in B (the module docstring); the cells with V >= top
        # outside Z that are in B (in_bh): those with an action whose pcf has V < top, closed
        # forward through the actions whose pcf is one of them
        na = 0
        for e in range(ms):
            if V[e] >= top and not in_z[e]:
                for a in range(first[e], first[e + 1]):
                    if V[_pcf(pre, a, d, V)] < top:
                        in_bh[e] = True
                        stack[na] = e
                        na += 1
                        break
        while na > 0:
            na -= 1
            p = stack[na]
            for t in range(by_pre_start[p], by_pre_start[p + 1]):
                a = by_pre[t]
                e = eff[a]
                if V[e] >= top and not in_z[e] and not in_bh[e] and _pcf(pre, a, d, V) == p:
                    in_bh[e] = True
                    stack[na] = e
                    na += 1
        # step 6: the cut, the actions into Z whose pcf is in B
        nk = 0
        for i in range(nz):
            c = zone[i]
            for a in range(first[c], first[c + 1]):
                p = _pcf(pre, a, d, V)
                if V[p] < top or in_bh[p]:
                    if cost[a] != 1:
                        raise AssertionError("LM-cut: a cut action of cost 0 (Lemma LC excludes it)")
                    cut[nk] = a
                    nk += 1
        if nk == 0:
            raise AssertionError("LM-cut: an empty cut (Lemma LC excludes it)")
        for i in range(nk):
            cost[cut[i]] = 0
        rounds += 1
        # step 1 of the next round, from this one's V: costs only fell, so V only falls; a bucket
        # queue from the cut actions' effects, each lowered cell settled once, at its new value
        for v in range(ms + 1):
            head[v] = -1
        nn = 0
        lo = BIG
        for i in range(nk):
            a = cut[i]
            e = eff[a]
            val = V[_pcf(pre, a, d, V)]  # cost 0 now: the largest V of its supports
            if val < V[e]:
                V[e] = val
                nn = _push(e, val, head, nxt, node_cell, nn)
                lo = min(lo, val)
        v = lo
        while v <= ms:
            while head[v] != -1:
                node = head[v]
                head[v] = nxt[node]
                x = node_cell[node]
                if V[x] != v or stamp[x] == rounds:
                    continue
                stamp[x] = rounds
                for t in range(by_pre_start[x], by_pre_start[x + 1]):
                    a = by_pre[t]
                    e = eff[a]
                    val = cost[a] + V[_pcf(pre, a, d, V)]
                    if val < V[e]:
                        V[e] = val
                        nn = _push(e, val, head, nxt, node_cell, nn)
            v += 1


@jit_compiled
def _plan_length(d, cells, layer, in_c, pre, first, tgt, nt, need, stack, mark):
    """The number of actions of a plan of the game without lifts read off the span layers
    (docs/lm-cut.md, Lemma UP): every target, then every support it needs outside C, takes an
    action whose supports all entered S at lower layers, with the fewest supports not yet in C or
    needed.  LM <= h+ <= this number."""
    length = 0
    sp = 0
    for i in range(nt):
        x = tgt[i]
        if need[x] != mark:
            need[x] = mark
            stack[sp] = x
            sp += 1
            length += 1
    while sp > 0:
        sp -= 1
        x = stack[sp]
        lx = layer[cells[x]]
        best = -1
        fewest = d + 1
        for a in range(first[x], first[x + 1]):
            new = 0
            for j in range(d):
                y = pre[a, j]
                if layer[cells[y]] >= lx:
                    new = d + 1
                    break
                if not in_c[y] and need[y] != mark:
                    new += 1
            if new < fewest:
                fewest = new
                best = a
        for j in range(d):  # an action exists: x entered its layer through d neighbours below it
            y = pre[best, j]
            if not in_c[y] and need[y] != mark:
                need[y] = mark
                stack[sp] = y
                sp += 1
                length += 1
    return length


@jit_compiled
def h_lm_values(ranks, budget, binom, n, k, planes, P, d, W, goals, nb_start, nb_idx, max_act, out):
    """out[i] = min(h_lm(ranks[i]), budget + 1) (module docstring); budget <= BIG - 1."""
    pos = np.empty(k, dtype=np.int64)
    m = np.zeros(W + 2 * P, dtype=np.uint64)
    cur = np.zeros(W + 2 * P, dtype=np.uint64)
    sup = np.zeros(W + 2 * P, dtype=np.uint64)
    ge = np.empty(d + 1, dtype=np.uint64)
    layer = np.empty(n, dtype=np.int64)
    cnt = np.zeros(n + 2, dtype=np.int64)
    G = goals.shape[0]
    fill = np.empty(G, dtype=np.int64)
    loc = np.full(n, -1, dtype=np.int64)
    cells = np.empty(n, dtype=np.int64)
    in_c = np.zeros(n, dtype=np.bool_)
    nbl = np.empty(n, dtype=np.int64)
    idx = np.empty(d, dtype=np.int64)
    tgt = np.empty(n, dtype=np.int64)
    A = max(max_act, 1)
    pre = np.empty((A, d), dtype=np.int64)
    eff = np.empty(A, dtype=np.int64)
    first = np.empty(n + 1, dtype=np.int64)
    by_pre_start = np.empty(n + 2, dtype=np.int64)
    by_pre = np.empty(A * d, dtype=np.int64)
    work = (
        np.empty(A, dtype=np.int64),  # cost
        np.empty(n, dtype=np.int64),  # V
        np.zeros(n, dtype=np.bool_),  # in_z
        np.zeros(n, dtype=np.bool_),  # in_bh
        np.empty(n, dtype=np.int64),  # a stack of cells
        np.empty(n, dtype=np.int64),  # the cells of Z
        np.empty(A, dtype=np.int64),  # the cut
        np.empty(n + 2, dtype=np.int64),  # bucket queue: the first node of each value
        np.empty(A * (d + 1) + n, dtype=np.int64),  # bucket queue: the next node
        np.empty(A * (d + 1) + n, dtype=np.int64),  # bucket queue: the node's cell
        np.empty(n, dtype=np.int64),  # the round in which a cell was last settled
    )
    need = np.zeros(n, dtype=np.int64)
    plan_stack = np.empty(n, dtype=np.int64)
    mark = 0
    for i in range(ranks.size):
        decode(ranks[i], binom, n, k, pos)
        board_words(m, P, W, pos, k)
        _entry_layers(m, cur, sup, ge, P, W, n, pos, k, planes, d, layer)
        best = budget + 1
        for g in range(G):
            fill[g] = _fill(goals[g], m, P, W, layer, cnt)
            if fill[g] < best and fill[g] == 0:
                best = 0  # a goal placement itself
        built = False
        ms = 0
        n_act = 0
        for g in range(G):
            if fill[g] >= best or fill[g] >= BIG:
                continue
            if not built:  # step 0: S, its cells in increasing order, the actions
                built = True
                for c in range(n):
                    if layer[c] >= 0:
                        loc[c] = ms
                        cells[ms] = c
                        in_c[ms] = layer[c] == 0
                        ms += 1
                for x in range(ms):
                    first[x] = n_act
                    if in_c[x]:
                        continue
                    c = cells[x]
                    q = 0
                    for t in range(nb_start[c], nb_start[c + 1]):
                        y = loc[nb_idx[t]]
                        if y >= 0:
                            nbl[q] = y
                            q += 1
                    if q < d:
                        continue
                    for j in range(d):
                        idx[j] = j
                    while True:  # the d-subsets of nbl[:q], each ascending
                        for j in range(d):
                            pre[n_act, j] = nbl[idx[j]]
                        eff[n_act] = x
                        n_act += 1
                        j = d - 1
                        while j >= 0 and idx[j] == q - d + j:
                            j -= 1
                        if j < 0:
                            break
                        idx[j] += 1
                        for t in range(j + 1, d):
                            idx[t] = idx[t - 1] + 1
                first[ms] = n_act
                for x in range(ms + 2):
                    by_pre_start[x] = 0
                for a in range(n_act):
                    for j in range(d):
                        by_pre_start[pre[a, j] + 2] += 1
                for x in range(ms):
                    by_pre_start[x + 2] += by_pre_start[x + 1]
                for a in range(n_act):  # by_pre_start[x + 1]: the cursor of x while filling
                    for j in range(d):
                        x = pre[a, j]
                        by_pre[by_pre_start[x + 1]] = a
                        by_pre_start[x + 1] += 1
            nt = 0
            for w in range(W):
                e = goals[g, w] & ~m[P + w]
                while e:
                    low = e & (~e + np.uint64(1))
                    e ^= low
                    tgt[nt] = loc[64 * w + popcount(low - np.uint64(1))]
                    nt += 1
            if budget < BIG - 1:  # Lemma UP: a plan of <= budget actions decides "LM <= budget"
                mark += 1
                if _plan_length(d, cells, layer, in_c, pre, first, tgt, nt, need, plan_stack, mark) <= budget:
                    best = min(best, fill[g])  # <= h_lm, and <= budget exactly as h_lm is
                    continue
            lm = _rounds(best, ms, d, cells, layer, pre, eff, first, by_pre_start, by_pre, n_act, tgt, nt, work)
            best = min(best, max(fill[g], lm))
        if built:
            for x in range(ms):
                loc[cells[x]] = -1
        out[i] = best


class LMCut:
    """The compiled kernel's arguments for one certificate (the window of :class:`.ranked.Kernel`,
    the decoder of :class:`.ranked.Decoder`, the goal placements as (W, 1) bitboards)."""

    def __init__(self, dec, ker, goals: list[np.ndarray]):
        if ker.d < 1:
            raise ValueError("the LM-cut h needs adjacency d >= 1 (docs/lm-cut.md §3: pcf of an action)")
        self.n, self.k, self.d, self.W = dec.n, dec.k, ker.d, ker.W
        self.binom = np.ascontiguousarray(dec.binom)
        self.planes, self.P = plane_arrays(ker.planes, ker.W)
        self.goals = as_rows(goals, ker.W)
        nbr = [sum(int(ker.nbr[w, c]) << (64 * w) for w in range(ker.W)) for c in range(self.n)]
        lists = [[q for q in range(self.n) if mask >> q & 1] for mask in nbr]
        self.nb_start = np.cumsum([0] + [len(x) for x in lists], dtype=np.int64)
        self.nb_idx = np.array([q for x in lists for q in x], dtype=np.int64)
        self.max_act = sum(math.comb(len(x), self.d) for x in lists)

    def h(self, ranks: np.ndarray, budget: int = BIG - 1) -> np.ndarray:
        """min(h_lm, budget + 1) of each rank (module docstring); budget at most BIG - 1."""
        out = np.empty(ranks.size, dtype=np.int64)
        if ranks.size:
            h_lm_values(
                np.ascontiguousarray(ranks, dtype=np.uint64), min(int(budget), BIG - 1), self.binom, self.n,
                self.k, self.planes, self.P, self.d, self.W, self.goals, self.nb_start, self.nb_idx,
                self.max_act, out,
            )  # fmt: skip
        return out


def warm_up() -> bool:
    """Compile (or load from numba's cache) the kernel with the argument types of every later call;
    False without numba (the same functions then run as Python, slowly)."""
    if not HAVE_NUMBA:
        return False
    binom = np.array([[1, i, i * (i - 1) // 2] for i in range(3)], dtype=np.uint64)
    planes, P = plane_arrays([(1, np.array([[1]], dtype=np.uint64))], 1)
    h_lm_values(
        np.zeros(1, dtype=np.uint64), 0, binom, 2, 1, planes, P, 1, 1, np.array([[2]], dtype=np.uint64),
        np.array([0, 1, 1], dtype=np.int64), np.array([1], dtype=np.int64), 1, np.zeros(1, dtype=np.int64),
    )  # fmt: skip
    return True
