"""The LM-cut h of ``rankbfs`` (``--heuristic lmcut``), compiled: docs/lm-cut.md §3, one state at a time.

The proof and the procedure are ``docs/lm-cut.md``; ``coinsat/theory/relaxed.py`` is the reference
(pure Python), and tests compare this kernel with it state by state.  h_lm(C) = min over the goal
placements G of max(h_fill(C, G), LM(C, G)) (Theorem LM: h_fill <= h_lm <= h+ <= the moves left).

*Actions* are precomputed once per window: every (P -> c) with P a d-subset of N(c) (at most 6 a
cell on the square grid with d = 2), listed by the cell they fill and by each of their supports.
No list is made per state: the actions of the relaxed game from C are the window's actions into a
cell of span(C) - C whose supports all lie in span(C), and the kernel tells them apart by the
values alone.  Outside the span V = BIG, so an action with a support outside it has its pcf (its
support of largest V) there: it is skipped wherever a pcf is read (the cut, the before zone), is
never free, and never lowers a value (its bound is >= BIG); an action into a cell of C never lowers
one either (V = 0 there).  So every value and set below is the one §3 defines over the game's actions.

*Round 1* (every cost 1) is the span layers: c enters R_{j+1} when the d-th of its neighbours enters
R_j, counted per cell (``_span_layers``; a cell's first action to fire is the one whose supports
are its d earliest neighbours, so V(c) = 1 + the d-th smallest V of its neighbours, as the 0-1
sweep of step 1 gives with every cost 1).  The fill schedule of every goal placement comes out of
it (Lemma Q), and so does Lemma UP's plan.

*The rounds* (steps 2-6, ``_rounds``) follow §3 to the letter: pcf ties to the smallest cell, t*
ties to the smallest cell, the goal zone Z backwards from t* through the free actions' pcf, the cut
= the actions into Z whose pcf is in the before zone B.  pcf is read off the current values where
it is needed (two loads for d = 2), not stored.  B is not built: only the pcf of the cut's
candidates (the actions into Z that are not free) is asked about.  A cell valued below top is in B
(Lemma BZ); for another, p in B iff going backwards from p (cell -> the pcf of an action into it)
outside Z one meets a cell of B, since B is the least set holding C and closed forwards through
the actions whose pcf is in B and whose cell is not in Z (step 5 in ``_rounds``, with the answers of the
round kept).  The cut's costs become 0 (a stamp of the placement, so no reset per placement), and
h^max is updated instead of recomputed (Lemma HM (d): a cut only lowers costs, so the sweep's
values only decrease, and lowering a value to an action's bound until every bound holds gives
them): from the cut's cells on, in order of the new values (a bucket per value; an entry whose
cell was lowered again since is stale); a cell settles at its final value, and an action it
supports can then lower only a cell valued above it.  The rounds stop at the first r with
r + top_r > cap (Lemma ES).  The values are those of the kernel before this one (which kept lists
of actions per state and pcf per action, and built B forwards), state for state
(``tests/test_lm_cut_search.py``; ``scripts/lm_cut_cost.py`` compares the two on real layers).

*Only the decision is needed.*  The search keeps a state y first met at depth t iff t + h_lm(y) <= U.
With ``cap`` = U - t the kernel returns min over G of max(fill_G, min(LM_G, cap + 1)), where LM_G is
not computed when fill_G > cap or when a plan of the relaxed game read off the span layers has
<= cap actions (Lemma UP: then LM_G <= cap, and fill_G stands in for it), and its rounds stop at
the first r with r + top_r > cap (Lemma ES):
a value <= h_lm (so still a lower bound) that is <= cap exactly when h_lm is.  ``cap`` < 0 is
"no cap" (the exact h_lm, for the tests).  The search first prunes with the compiled fill h
(``jit.schedule_h_words``, h_lm >= h_fill) and runs this kernel on the states that pass.

*The memo of pruned states* (Lemma PM).  A state the search prunes at depth t is not visited, so
it comes back as a successor of the next layers, with a smaller cap; each placement whose fill
schedule is within that cap had LM > the old cap, so it needs no round again.  ``LmCut`` keeps,
per object (one per search process), a direct-mapped table of 2^``MEMO_BITS`` slots: the colex
rank + 1 of a state the kernel answered above its cap, and that cap (a state that falls into a
taken slot replaces it; only ascending rows have a key).  The kernel asks it only when a placement
would need rounds (its fill schedule within the cap, Lemma UP's plan longer): if the state is in
the table with a cap no larger, that placement gets cap + 1, what its rounds would return, without
them (the states Lemma UP keeps never pay for a look-up).  The values, hence every decision, are those
without the memo (``tests/test_lm_cut_memo.py``); on V(3,3)->SW-NE with U = 73, 369,634 of the
1,371,224 questions about states it prunes are answered from it (``benchmarks/lm-cut-cost.md``).

*Unsigned indices.*  numba checks every load through a signed index for wraparound (a negative
index counts from the end); through an unsigned one it does not.  So the cells and actions are
stored as uint32 (the window's actions, the goal cells, the lists of the rounds) and the loops over
an offset range convert their index (``np.uint32(a0)``): the same values, each load cheaper
(benchmarks/lm-cut-cost.md: the kernel on the same states, with the caps of the search).
``unrank_cells`` finds each cell by bisection (Lemma CB of docs/lm-cut.md).

*The layout of the rounds* (the same values, state for state; each step is the same test on the
same value, read from another place).  The supports are one flat array (``Actions.supf``, row a at
a * d: a shift for d = 2 where a two-dimensional row costs a multiplication by the row length),
and ``_pcf`` returns the pcf with its value, which was loaded again.  The h^max update reads,
beside each entry of ``by_sup`` (cell c, action a), a's cell (``sup_eff``) and, for d = 2, a's
other support (``sup_other``): a's bound is max(V(c), V(other)) + cost, and V(c) is the level being
settled, so the update loads neither a's row nor its cell through a.  The buckets and the rounds'
lists are indexed unsigned, as above.  Step 4 finds each candidate's pcf while it builds Z (V does
not change within a round), and drops there the candidates whose pcf is outside the span (never in
a cut, Lemma NL); T, the goal cells outside C, is listed once a placement instead of tested each
round.  Lemma UP's plan marks the cells of C with its stamp, so a support is "in C or needed" in one
load.  The rounds are compiled twice (``_rounds_for``): for d = 2, the usual adjacency, with d a
constant of the compiled code (its tests fold, the loops for other d are gone), and for any d.
``tests/test_lm_cut_search.py::test_actions_tables_beside_by_sup`` checks the tables against the
actions' rows; the kernel's values are compared with the reference's by the tests of that file (on
puzzles with d = 1, 2 and 3: both compilations), and with the kernel before by
``scripts/lm_cut_cost.py`` (on the search's own inputs).
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Sequence

import numpy as np

from . import jit


def _jit(f):
    """Compiled as the kernels of ``jit.py`` are (numba, cached), or plain Python without numba."""
    return jit.numba.njit(cache=True, nogil=True)(f) if jit.HAVE_NUMBA else f


def _inline(f):
    """``_jit``, inlined into its callers by numba: no call and no reference counts of the arrays
    passed (the helpers called once a state or several times a round)."""
    return jit.numba.njit(cache=True, nogil=True, inline="always")(f) if jit.HAVE_NUMBA else f


#: "no path" (as ``theory.supports.BIG`` and the fill kernels)
BIG = 1 << 30


class Actions:
    """The window's actions (P -> c) for every cell c and d-subset P of its neighbours, as arrays:
    ``sup[a]`` the d supports (ascending), ``eff[a]`` the cell; ``by_eff`` / ``by_sup`` CSR lists
    (start offsets ``*_at``, length n + 1) of the actions filling a cell / supported by a cell;
    ``supf`` = ``sup`` flat; beside ``by_sup``, ``sup_eff`` the entry's action's cell and (d = 2)
    ``sup_other`` its other support (the h^max update reads them without the action)."""

    def __init__(self, neighbours: Sequence[Sequence[int]], d: int):
        n = len(neighbours)
        sup, eff = [], []
        for c in range(n):
            for P in combinations(sorted(neighbours[c]), d) if d >= 1 else ():
                sup.append(P)
                eff.append(c)
        A = len(eff)
        self.n, self.d, self.size = n, d, A
        self.sup = np.array(sup, dtype=np.uint32).reshape(A, max(d, 0))
        self.eff = np.array(eff, dtype=np.uint32)
        self.eff_at = np.searchsorted(self.eff, np.arange(n + 1)).astype(np.int64)
        lists: list[list[int]] = [[] for _ in range(n)]
        for a, P in enumerate(sup):
            for p in P:
                lists[p].append(a)
        self.sup_at = np.cumsum([0] + [len(x) for x in lists]).astype(np.int64)
        self.by_sup = np.array([a for x in lists for a in x], dtype=np.uint32)
        self.supf = np.ascontiguousarray(self.sup.reshape(-1))  # row a at a * d: one shift for d = 2
        # beside each entry of by_sup (cell p, action a): a's cell, and for d = 2 its other support
        self.sup_eff = np.array([eff[a] for x in lists for a in x], dtype=np.uint32)
        self.sup_other = np.array(
            [sum(sup[a]) - p if d == 2 else 0 for p, x in enumerate(lists) for a in x], dtype=np.uint32
        )
        into: list[list[int]] = [[] for _ in range(n)]  # the cells c with p among their neighbours
        for c in range(n):
            for p in sorted(neighbours[c]):
                into[p].append(c)
        self.rev_at = np.cumsum([0] + [len(x) for x in into]).astype(np.int64)
        self.rev = np.array([c for x in into for c in x], dtype=np.uint32)


def goal_arrays(goals: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """The goal placements' cells as one CSR list: (cells, start offsets)."""
    at = np.cumsum([0] + [len(g) for g in goals]).astype(np.int64)
    cells = np.array([c for g in goals for c in sorted(g)], dtype=np.uint32)
    return cells, at


@_inline
def _span_layers(C_list, k, d, rev, rev_at, V1, ncnt, q0, q1):  # pragma: no cover - compiled
    """Round 1 (every cost 1): V1(c) = the span layer c enters (BIG outside the span), by a count per
    cell of its neighbours already in the span: c enters R_{j+1} when the d-th of them enters R_j."""
    n = V1.size
    for c in range(n):
        V1[c] = BIG
        ncnt[c] = 0
    cur = q0
    nxt = q1
    ncur = 0
    for i in range(k):
        V1[C_list[i]] = 0
        cur[ncur] = C_list[i]
        ncur += 1
    level = 0
    while ncur > 0:
        nnext = 0
        for i in range(ncur):
            p = cur[i]
            for t0 in range(rev_at[p], rev_at[p + 1]):
                t = np.uint32(t0)  # an unsigned index: no wraparound check
                c = rev[t]
                if V1[c] == BIG:
                    ncnt[c] += 1
                    if ncnt[c] == d:
                        V1[c] = level + 1
                        nxt[nnext] = c
                        nnext += 1
        cur, nxt = nxt, cur
        ncur = nnext
        level += 1


@_inline
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


@_inline
def _lower(c, v, V, head, node_next, node_cell, used, top):  # pragma: no cover - compiled
    """V(c) = v and c into bucket v (a stack of nodes per value; ``used`` unsigned); returns (nodes
    used, top bucket)."""
    V[c] = v
    node_cell[used] = c
    node_next[used] = head[np.uint64(v)]
    head[np.uint64(v)] = used
    return used + np.uint64(1), max(top, v)


@_inline
def _plan_length(V1, gcells, g0, g1, C_list, k, eff_at, supf, d, need, stack, stamp):  # pragma: no cover
    """Lemma UP (docs/lm-cut.md): the length of a plan of the relaxed game for the goal placement
    gcells[g0:g1], read off the span layers V1: each needed cell takes an action whose supports all
    lie on lower layers (so in the span: an action of the game from C), one with the fewest supports
    neither in C nor needed already; the needed cells, by layer, are a plan.  ``need`` marks with
    ``stamp`` the cells of C (C_list[:k]) and the needed ones.  The goal cells lie in the span (the
    caller checked their fill schedule)."""
    one = np.uint64(1)
    for i in range(k):
        need[C_list[i]] = stamp
    length = 0
    sp = np.uint64(0)
    for i in range(g0, g1):
        t = gcells[i]
        if need[t] != stamp:
            need[t] = stamp
            stack[sp] = t
            sp += one
            length += 1
    while sp > 0:
        sp -= one
        c = stack[sp]
        vc = V1[c]
        best = np.uint64(0)
        fewest = d + 1
        for a0 in range(eff_at[c], eff_at[c + one]):
            a = np.uint32(a0)  # an unsigned index: no wraparound check
            i = np.uint64(a) * np.uint64(d)
            if d == 2:  # the usual adjacency, without the loop
                q0 = supf[a + a]
                q1 = supf[a + a + one]
                if V1[q0] >= vc or V1[q1] >= vc:
                    continue
                new = (need[q0] != stamp) + (need[q1] != stamp)
            else:
                new = 0
                for j in range(d):
                    q = supf[i + np.uint64(j)]
                    if V1[q] >= vc:
                        new = d + 1
                        break
                    if need[q] != stamp:
                        new += 1
            if new < fewest:
                fewest = new
                best = i
        for j in range(d):  # such an action exists: c entered its layer through d supports below it (Lemma R)
            q = supf[best + np.uint64(j)]
            if need[q] != stamp:
                need[q] = stamp
                stack[sp] = q
                sp += one
                length += 1
    return length


@_inline
def _pcf(a, supf, V, d):  # pragma: no cover - compiled
    """pcf of action a under V, and its value: its support with the largest V, ties to the smallest
    cell (BIG: a support outside the span, so a is not an action of the game from C).  ``supf``: the
    supports, d a row, flat (``Actions.supf``): row a starts at a * d, a shift for d = 2."""
    if d == 2:  # the usual adjacency, without the loop
        i = a + a  # unsigned (uint32 + uint32): no wraparound check
        b = supf[i]
        q = supf[i + np.uint64(1)]
        vb = V[b]
        vq = V[q]
        if vq > vb:  # supports ascending: ties keep the smaller cell
            return q, vq
        return b, vb
    i = np.uint64(a) * np.uint64(d)
    b = supf[i]
    vb = V[b]
    for j in range(1, d):
        q = supf[i + np.uint64(j)]
        if V[q] > vb:
            b = q
            vb = V[q]
    return b, vb


def _rounds_for(D):
    """``_rounds`` compiled for the adjacency D (D = 0: the argument d), a constant of the compiled code."""

    def _rounds(g0, g1, limit, d, V, free, fst, acts, gcells, inC, scratch):  # pragma: no cover - compiled
        """Steps 1-6 of §3 for the goal placement gcells[g0:g1], from round 1's values V (lowered in
        place): the number of rounds, or limit + 1 at the first round with r + top > limit (Lemma ES).

        The actions are the window's; those of the game from C need no list: an action with a support
        outside the span has its pcf there (V = BIG), and is skipped wherever a pcf is read; into a
        cell of C it never lowers a value (V = 0).  An action is free (cost 0) iff ``free[a]`` = ``fst``,
        a stamp of this placement.  ``acts``: the window's actions (``Actions``: eff, supf, eff_at,
        sup_at, by_sup, sup_eff, sup_other); ``scratch``: (marks, work, head, node_next, node_cell), whose
        ``marks`` rows are 0 the stamp of the next round, 1 Z, 2 in B, 3 not in B, 4 visited by step 5's
        question (row 0, column 1: its stamp)."""
        if D > 0:  # the adjacency known when compiled: its tests fold
            d = D
        eff, supf, eff_at, sup_at, by_sup, sup_eff, sup_other = acts
        marks, work, head, node_next, node_cell = scratch
        n = V.size
        zmark = marks[1]
        inb = marks[2]
        outb = marks[3]
        vis = marks[4]
        stamp = marks[0, 0]
        vst = marks[0, 1]
        zlist = work[0]
        cand = work[1]
        cut = work[2]
        stack = work[3]
        seen = work[4]
        cutp = work[5]
        candp = work[6]
        tl = work[7]  # T = the goal cells outside C
        nt = np.uint64(0)
        for i0 in range(g0, g1):
            t = gcells[np.uint64(i0)]
            if not inC[t]:
                tl[nt] = t
                nt += np.uint64(1)
        one = np.uint64(1)
        rounds = np.int64(0)
        while True:
            top = np.int64(0)
            tstar = np.uint32(0)
            for i0 in range(nt):
                t = tl[np.uint64(i0)]
                vt = V[t]
                if vt > top or (vt == top and t < tstar):
                    top = vt
                    tstar = t
            if top == 0:
                break
            if rounds + top > limit:  # Lemma ES: the answer is >= rounds + top, past the cap
                rounds = limit + 1
                break
            # step 4: the goal zone, backwards from t* through the free actions' pcf; the
            # other actions into it are the cut's candidates
            stamp += 1
            zmark[tstar] = stamp
            zlist[0] = tstar
            nz = one
            ncand = np.uint64(0)
            i = np.uint64(0)
            while i < nz:
                c = zlist[i]
                i += one
                for a0 in range(eff_at[c], eff_at[c + one]):
                    a = np.uint32(a0)  # an unsigned index: no wraparound check
                    p, vp = _pcf(a, supf, V, d)
                    if free[a] == fst:
                        if zmark[p] != stamp:
                            zmark[p] = stamp
                            zlist[nz] = p
                            nz += one
                    elif vp < BIG:  # (an action with a support outside the span is not the game's)
                        cand[ncand] = a
                        candp[ncand] = p
                        ncand += one
            # steps 5 and 6: the cut, the candidates (of the game from C) whose pcf is in the before zone
            nc = np.uint64(0)
            for i0 in range(ncand):
                a = cand[np.uint64(i0)]
                p = candp[np.uint64(i0)]  # its pcf (V has not changed since)
                vp = V[p]
                if zmark[p] == stamp or outb[p] == stamp:
                    continue
                if vp >= top and inb[p] != stamp:
                    # p in B?  Backwards from p (cell -> the pcf of an action into it) outside Z, until a
                    # cell of B: one valued below top (Lemma BZ) or found in B this round (Lemma BQ).
                    # Written out here, not a helper: numba counts the references of every array a
                    # helper is passed, at each call
                    vst += 1
                    vis[p] = vst
                    stack[0] = p
                    sp = one
                    seen[0] = p
                    nseen = one
                    found = False
                    while sp > 0 and not found:
                        sp -= one
                        x = stack[sp]
                        for a1 in range(eff_at[x], eff_at[x + one]):
                            b = np.uint32(a1)  # an unsigned index: no wraparound check
                            q, vq = _pcf(b, supf, V, d)
                            if vq >= BIG or zmark[q] == stamp or outb[q] == stamp or vis[q] == vst:
                                continue
                            if vq < top or inb[q] == stamp:
                                found = True
                                break
                            vis[q] = vst
                            stack[sp] = q
                            sp += one
                            seen[nseen] = q
                            nseen += one
                    if not found:  # the cells visited form a set closed backwards with no cell of B
                        for j in range(nseen):
                            outb[seen[np.uint64(j)]] = stamp
                        continue
                    inb[p] = stamp
                cut[nc] = a
                cutp[nc] = p
                nc += one
            rounds += 1
            # the cut's costs to 0, and h^max updated from its cells on (bucket indices unsigned)
            used = np.uint64(0)
            hi = np.int64(0)
            lo = np.int64(n + 2)
            for i0 in range(nc):
                i = np.uint64(i0)
                a = cut[i]
                free[a] = fst
                v = V[cutp[i]]
                if v < V[eff[a]]:
                    used, hi = _lower(eff[a], v, V, head, node_next, node_cell, used, hi)
                    lo = min(lo, v)
            level = lo
            while level <= hi:
                lv = np.uint64(level)
                while head[lv] >= 0:
                    node = np.uint64(head[lv])
                    head[lv] = node_next[node]
                    c = node_cell[node]
                    if V[c] != level:  # stale: lowered again since
                        continue
                    # c's value is final (values settle in increasing order); an action it supports
                    # has a bound >= V(c) = level, so only a cell valued above level can fall
                    # d = 2: each entry's cell and other support beside it (``Actions``), and
                    # max V(P) = max(level, V(other))
                    if d == 2:
                        for t0 in range(sup_at[c], sup_at[c + one]):
                            t = np.uint32(t0)  # an unsigned index: no wraparound check
                            e = sup_eff[t]
                            ve = V[e]
                            if ve <= level:
                                continue
                            vq = V[sup_other[t]]
                            mx = vq if vq > level else level
                            v = mx if free[by_sup[t]] == fst else mx + 1
                            if v < ve:
                                used, hi = _lower(e, v, V, head, node_next, node_cell, used, hi)
                        continue
                    for t0 in range(sup_at[c], sup_at[c + one]):
                        t = np.uint32(t0)  # an unsigned index: no wraparound check
                        a = by_sup[t]
                        e = eff[a]
                        if V[e] <= level:
                            continue
                        _, mx = _pcf(a, supf, V, d)
                        v = mx if free[a] == fst else mx + 1
                        if v < V[e]:
                            used, hi = _lower(e, v, V, head, node_next, node_cell, used, hi)
                level += 1
        marks[0, 0] = stamp
        marks[0, 1] = vst
        return rounds

    return _jit(_rounds)


_rounds = _rounds_for(0)
_rounds2 = _rounds_for(2)


@_jit
def lm_cut_states(  # pragma: no cover - compiled
    cells,
    d,
    eff,
    eff_at,
    sup_at,
    by_sup,
    rev,
    rev_at,
    gcells,
    gat,
    cap,
    binom,
    mkeys,
    mcaps,
    mbits,
    hits,
    supf,
    sup_eff,
    sup_other,
):
    """h_lm (capped: module docstring) of every row of ``cells`` (N, k), the occupied cells of a state.

    Round 1 (``_span_layers``) gives the span layers, hence the fill schedules (``_fill_of``) and
    Lemma UP's plan (``_plan_length``); a placement that needs rounds runs ``_rounds``, which
    updates h^max instead of recomputing it (Lemma HM (d): a cut only lowers costs, so the sweep's
    values only decrease, and lowering a value to an action's bound until every bound holds gives
    them): from the cut's cells on, in order of the new values (a bucket per value; an entry whose
    cell was lowered again since is stale).  pcf is read off the current values where it is needed.
    The goal zone Z is found backwards from t* (step 4), and with it the actions into Z that are not
    free: the cut's candidates.  Step 5's before zone is asked only of their pcf (in ``_rounds``:
    Lemma BZ answers for the cells valued below top, a search backwards for the others); the cut is
    the candidates whose pcf is in it (step 6).  The rounds stop at the first r with r + top > cap
    (Lemma ES: the answer is max_r (r + top_r)).

    The memo of pruned states (``mkeys``, ``mcaps``: 2^``mbits`` slots, none when empty; ``hits[0]``
    counts its answers): a state whose answer was above a cap is stored (its colex rank + 1, under
    its slot) with that cap.  It is asked only about a state whose placement would need rounds (the
    fill schedule within the cap, Lemma UP's plan too long); if the state is there with a cap no
    larger, the placement gets cap + 1, the rounds' answer, without them (Lemma PM, docs/lm-cut.md)."""
    N, k = cells.shape
    n = eff_at.size - 1
    A = eff.size
    G = gat.size - 1
    out = np.empty(N, dtype=np.int64)
    V1 = np.zeros(n, dtype=np.int64)
    V = np.zeros(n, dtype=np.int64)
    ncnt = np.zeros(n, dtype=np.int32)
    inC = np.zeros(n, dtype=np.uint8)
    marks = np.zeros((5, max(n, 2)), dtype=np.int64)  # the stamps of the rounds (``_rounds``)
    q0 = np.zeros(n, dtype=np.uint32)
    q1 = np.zeros(n, dtype=np.uint32)
    stack = np.zeros(n, dtype=np.uint32)
    buf = np.zeros(max(k, 1) + n, dtype=np.int64)
    fills = np.zeros(max(G, 1), dtype=np.int64)
    free = np.zeros(A, dtype=np.int64)  # = fst: the action's cost is 0 in this placement's rounds
    fst = np.int64(0)
    # the rounds' lists: Z, candidates, cut, two stacks, the cut's pcf, the candidates' pcf, T
    work = np.zeros((8, max(A, n)), dtype=np.uint32)
    # the buckets of the h^max update: values <= n + 1; a node per lowering, at most n * (n + 2) a round
    head = np.full(n + 2, -1, dtype=np.int64)
    node_next = np.zeros(n * (n + 2) + 1, dtype=np.int64)
    node_cell = np.zeros(n * (n + 2) + 1, dtype=np.uint32)
    need = np.zeros(n, dtype=np.int64)
    pstamp = np.int64(0)
    acts = (eff, supf, eff_at, sup_at, by_sup, sup_eff, sup_other)
    scratch = (marks, work, head, node_next, node_cell)
    limit = np.int64(cap) if cap >= 0 else np.int64(BIG)
    for s in range(N):
        C_list = cells[s]
        for i in range(k):
            inC[C_list[i]] = 1
        # round 1 (every cost 1): the span layers, the fill schedules
        _span_layers(C_list, k, d, rev, rev_at, V1, ncnt, q0, q1)
        best = np.int64(BIG)
        for g in range(G):
            fills[g] = _fill_of(V1, gcells, gat[g], gat[g + 1], inC, buf)
        slot = np.int64(-1)  # the state's slot in the memo, once asked (-2: no key)
        key = np.uint64(1)  # the colex rank + 1 (0: an empty slot)
        known = False  # the memo says: pruned before with a cap >= this one
        for g in range(G):
            fill = fills[g]
            if fill > limit or fill >= best:  # pruned by h_fill alone, or no better than a placement done
                if fill < best:
                    best = fill
                continue
            if cap >= 0:  # Lemma UP: a plan of <= cap actions bounds LM by cap; fill is then the answer's stand-in
                pstamp += 1
                if (
                    _plan_length(V1, gcells, gat[g], gat[g + 1], C_list, k, eff_at, supf, d, need, stack, pstamp)
                    <= limit
                ):
                    best = fill
                    continue
                if slot == -1 and mbits > 0:  # rounds ahead: ask the memo first (once a state)
                    for i in range(k):
                        if i > 0 and C_list[i] <= C_list[i - 1]:  # not ascending: no key, no memo
                            slot = -2
                        key += binom[C_list[i], i + 1]
                    if slot == -1:
                        slot = np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - mbits))
                        known = mkeys[slot] == key and mcaps[slot] >= limit
                        if known:
                            hits[0] += 1
                if known:  # Lemma PM: LM > cap here, so the rounds would end at cap + 1 (> fill)
                    if limit + 1 < best:
                        best = limit + 1
                    continue
            for i in range(n):
                V[i] = V1[i]
            fst += 1
            if d == 2:
                rounds = _rounds2(gat[g], gat[g + 1], limit, d, V, free, fst, acts, gcells, inC, scratch)
            else:
                rounds = _rounds(gat[g], gat[g + 1], limit, d, V, free, fst, acts, gcells, inC, scratch)
            h = fill if fill > rounds else rounds
            if h < best:
                best = h
        for i in range(k):
            inC[C_list[i]] = 0
        out[s] = best
        if slot >= 0 and best > limit and not known:  # into the memo (a state in the slot before is forgotten)
            mkeys[slot] = key
            mcaps[slot] = limit
    return out


@_jit
def unrank_cells(ranks, k, n, binom):  # pragma: no cover - compiled
    """The occupied cells (N, k), ascending, of the colex ranks ``ranks``: the t-th cell (t = k .. 1)
    is the largest c < n with C(c, t) <= the rank left, found by bisection (C(c, t) grows with c)."""
    N = ranks.size
    out = np.empty((N, k), dtype=np.uint32)
    for i in range(N):
        r = ranks[i]
        hi = n  # the t-th cell is below the (t + 1)-th
        for t in range(k, 0, -1):
            lo = t - 1  # C(t - 1, t) = 0 <= r
            while hi - lo > 1:
                mid = (lo + hi) >> 1
                if binom[mid, t] <= r:
                    lo = mid
                else:
                    hi = mid
            out[i, t - 1] = lo
            r -= binom[lo, t]
            hi = lo
    return out


#: the memo of pruned states: 2^MEMO_BITS slots of a colex rank (8 bytes) and a cap (4 bytes), 24 MiB,
#: allocated at the first capped call (``LmCut.of_cells``).  On V(3,3)->SW-NE with U = 73 the kernel is
#: asked 1,371,224 times about states it prunes, 991,581 distinct (benchmarks/lm-cut-cost.md): a
#: state pruned at depth t is met again from the next layer, and is pruned there too (Lemma PM)
MEMO_BITS = 21


class LmCut:
    """The LM-cut h of one window (``Space`` builds it for ``h == "lmcut"``).  ``memo_bits``: the
    memo of pruned states has 2^memo_bits slots (0: no memo; None: ``MEMO_BITS``, read when the
    object is made; ``lm_cut_states``, Lemma PM)."""

    def __init__(
        self, neighbours: Sequence[Sequence[int]], d: int, goals: list[list[int]], memo_bits: int | None = None
    ):
        self.actions = Actions(neighbours, d)
        self.d = d
        self.gcells, self.gat = goal_arrays(goals)
        self.n = len(neighbours)
        self.memo_bits = MEMO_BITS if memo_bits is None else memo_bits
        self.hits = np.zeros(1, dtype=np.int64)  # the answers the memo gave
        self._binom = np.zeros((0, 0), dtype=np.uint64)
        self._keys = np.zeros(0, dtype=np.uint64)
        self._caps = np.zeros(0, dtype=np.int32)

    def _memo(self, k: int, cap: int) -> int:
        """The memo's bits for states of k cells asked with ``cap`` (0: none: no cap, or too many
        placements C(n, k) for a colex rank + 1 in 64 bits); allocates it on first use."""
        if cap < 0 or self.memo_bits <= 0 or comb(self.n, k) >= 1 << 63:
            return 0
        if self._binom.shape != (self.n + 1, k + 1):
            self._binom = np.array([[comb(c, j) for j in range(k + 1)] for c in range(self.n + 1)], dtype=np.uint64)
            self._keys = np.zeros(1 << self.memo_bits, dtype=np.uint64)
            self._caps = np.zeros(1 << self.memo_bits, dtype=np.int32)
        return self.memo_bits

    def of_cells(self, cells: np.ndarray, cap: int | None = None) -> np.ndarray:
        """h_lm of every row of ``cells`` (N, k) (capped at cap + 1 when ``cap`` is given and >= 0)."""
        a = self.actions
        cells = np.ascontiguousarray(cells, dtype=np.uint32)
        c = -1 if cap is None else int(cap)
        if cap is not None and cap < 0:  # depth > U: every h >= 0 is above the cap
            return np.zeros(cells.shape[0], dtype=np.int64)
        bits = self._memo(cells.shape[1], c)
        return lm_cut_states(
            cells,
            self.d,
            a.eff,
            a.eff_at,
            a.sup_at,
            a.by_sup,
            a.rev,
            a.rev_at,
            self.gcells,
            self.gat,
            c,
            self._binom,
            self._keys,
            self._caps,
            bits,
            self.hits,
            a.supf,
            a.sup_eff,
            a.sup_other,
        )


def warm_up() -> None:
    """Load (or compile) the kernels with the argument types ``LmCut`` passes."""
    lm = LmCut([[1], [0]], 1, [[0, 1]])
    lm.of_cells(np.zeros((1, 1), dtype=np.int32), None)
    unrank_cells(np.zeros(1, dtype=np.uint64), 1, 2, np.ones((3, 3), dtype=np.uint64))
