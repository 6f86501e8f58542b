"""The constraint families of the SAT encoding, one function each (spec: ``encodings/sat.md``).

Every function takes the builder state ``e`` (an :class:`~coinsat.encode.sat.Encoder`)
and a step ``t`` and returns the list of clauses of its family at that step;
it may create the auxiliary variables of its own family, nothing else.  A
variable that the windows (P2) rule out does not exist: :func:`pos` of it is
the constant false (dropped from the clause) and :func:`neg` of it the
constant true (the clause is dropped).  The ids C1..C8, N1, P1..P7 are the
spec's.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

from .varmap import Count, Edge, Idle, Kept, Lab, Ladder, Moved, Near, OffGoal, Tight

TRUE = True  # a literal that is constantly true: the clause is dropped
SUBSET_LIMIT = 64  # direct cardinality clauses up to this many, a counter beyond


def pos(v: int | None):
    """The literal of variable ``v`` where None or 0 is the constant false (0)."""
    return v if v else 0


def neg(v: int | None):
    """The negated literal of ``v`` where None or 0 (false) becomes the constant true (``TRUE``)."""
    return -v if v else TRUE


def clause(*lits) -> list[int] | None:
    """A clause from literals that may be constants (0 = false, TRUE = true)."""
    if TRUE in lits:
        return None
    return [l for l in lits if l]


def _add(out: list, *lits) -> None:
    c = clause(*lits)
    if c is not None:
        out.append(c)


# --- C1: the start ----------------------------------------------------------------------


def c1_start(e) -> list[list[int]]:
    """C1: x[c,0] = [c in A] (and y[l,c,0] = [A has l on c])."""
    out = []
    occupied = dict(e.instance.start.coins)
    for c in e.cells[0]:
        out.append([e.x(c, 0) if c in occupied else -e.x(c, 0)])
    if e.labels:
        for c, lab in sorted(occupied.items()):
            out.append([e.vm.new(Lab, lab, c, 0)])
    return out


# --- C2, C3: fill and vacate channels ---------------------------------------------------


def c2_fill(e, t: int) -> list[list[int]]:
    """C2: f[c,t] <-> x[c,t] & -x[c,t-1]; a cell that cannot be filled cannot become occupied."""
    out: list[list[int]] = []
    for c in e.cells[t]:
        x, x0, f = e.x(c, t), e.x(c, t - 1), e.f(c, t)
        if f:
            _add(out, -f, neg(x0))
            _add(out, -f, x)
        _add(out, pos(x0), -x, pos(f))
    return out


def c3_vacate(e, t: int) -> list[list[int]]:
    """C3: v[c,t] <-> x[c,t-1] & -x[c,t]."""
    out: list[list[int]] = []
    for c in e.cells[t - 1]:
        x, x0, v = e.x(c, t), e.x(c, t - 1), e.v(c, t)
        out.append([-v, x0])
        out.append([-v, -x])
        out.append([-x0, x, v])
    return out


# --- C4, C5: one move per step (or a no-op) ---------------------------------------------


def exactly_one(e, lits: list[int], family: str, t: int) -> list[list[int]]:
    """At least one and at most one of ``lits``: pairwise, or a sequential ladder (option)."""
    out = [list(lits)]
    n = len(lits)
    if not e.options.ladder or n <= 5:
        out += [[-a, -b] for a, b in combinations(lits, 2)]
        return out
    s = [e.vm.new(Ladder, family, t, i) for i in range(n - 1)]  # s_i: one of lits[0..i] is true
    for i, l in enumerate(lits):
        if i < n - 1:
            out.append([-l, s[i]])
        if i > 0:
            out.append([-l, -s[i - 1]])
            if i < n - 1:
                out.append([-s[i - 1], s[i]])
    return out


def c4_one_fill(e, t: int) -> list[list[int]]:
    """C4: exactly one of n[t], f[c,t] (c fillable at t)."""
    lits = ([e.noop(t)] if e.options.noop else []) + [e.f(c, t) for c in e.fills[t]]
    return exactly_one(e, lits, "fill", t)


def c5_one_vacate(e, t: int) -> list[list[int]]:
    """C5: exactly one of n[t], v[c,t] (c in R_{t-1})."""
    lits = ([e.noop(t)] if e.options.noop else []) + [e.v(c, t) for c in e.cells[t - 1]]
    return exactly_one(e, lits, "vacate", t)


# --- C6: d-adjacency in the post-move state ---------------------------------------------


def at_least(e, guard: int, lits: list[int], k: int, what: str, owner: int, t: int) -> list[list[int]]:
    """guard -> at least k of lits: direct subset clauses when few, a sequential counter else."""
    m = len(lits)
    if k <= 0:
        return []
    if m < k:
        return [[-guard]]
    if comb(m, m - k + 1) <= SUBSET_LIMIT:
        return [[-guard, *sub] for sub in combinations(lits, m - k + 1)]

    # r(i, j): at least j of lits[:i]; only the "r -> reason" direction is needed.
    def r(i, j):
        return e.vm.new(Count, what, owner, t, i, j)

    out = [[-guard, r(m, k)]]
    for i in range(1, m + 1):
        for j in range(1, min(i, k) + 1):
            rij = r(i, j)
            prev_same = r(i - 1, j) if j <= i - 1 else 0
            prev_less = r(i - 1, j - 1) if j >= 2 else 0
            out.append([l for l in (-rij, prev_same, lits[i - 1]) if l])
            if j >= 2:
                out.append([l for l in (-rij, prev_same, prev_less) if l])
    return out


def c6_adjacency(e, t: int) -> list[list[int]]:
    """C6: f[p,t] -> at least d of x[n,t], n in N(p) (n in R_{t-1}: only those can be occupied)."""
    out = []
    for p in e.fills[t]:
        support = [e.x(n, t) for n in e.nbrs[p] if e.x(n, t - 1)]
        out += at_least(e, e.f(p, t), support, e.instance.d, "support", p, t)
    return out


# --- C7: labels ---------------------------------------------------------------------------


def c7_labels(e, t: int) -> list[list[int]]:
    """C7: y channelled to x; one label per cell; frames; the moved coin keeps its label."""
    if not e.labels:
        return []
    out: list[list[int]] = []
    vm = e.vm
    moved = [vm.new(Moved, l, t) for l in e.labels]
    out += [[-a, -b] for a, b in combinations(moved, 2)]
    for c in e.cells[t]:
        ys = [vm.new(Lab, l, c, t) for l in e.labels]
        x, f, v = e.x(c, t), e.f(c, t), e.v(c, t)
        out.append([-x, *ys])
        out += [[-y, x] for y in ys]
        out += [[-a, -b] for a, b in combinations(ys, 2)]
        for l, y, m in zip(e.labels, ys, moved):
            y0 = vm.get(Lab, l, c, t - 1)
            _add(out, neg(y0), pos(v), y)  # frame: nothing lifted from c keeps its label
            _add(out, -y, pos(f), pos(y0))  # frame: a label appears only by a fill
            if v:
                _add(out, -v, neg(y0), m)  # the lifted coin's label is the moved label
            if f:
                out.append([-f, -m, y])  # the dropped coin carries the moved label
    return out


# --- P1, P3..P6: optional pruning -----------------------------------------------------------


def p1_noop_last(e, t: int) -> list[list[int]]:
    """P1: n[t-1] -> n[t] (no-ops only after the last move)."""
    if t < 2 or not e.options.noop:
        return []
    return [[-e.noop(t - 1), e.noop(t)]]


def p3_no_return(e, t: int) -> list[list[int]]:
    """P3: f[p,t-1] -> -v[p,t] (the coin just placed is not lifted at once)."""
    if t < 2:
        return []
    return [[-e.f(p, t - 1), -e.v(p, t)] for p in e.fills[t - 1] if e.v(p, t)]


def p5_tight(e, t: int) -> list[list[int]]:
    """P5: k[p,t] -> f[p,t] and p has at most d occupied neighbours at t."""
    out = []
    d = e.instance.d
    for p in e.fills[t]:
        support = [e.x(n, t) for n in e.nbrs[p] if e.x(n, t - 1)]
        if comb(len(support), d + 1) > SUBSET_LIMIT:
            continue  # no k[p,t]: every fill of p counts as a use (weaker, still sound)
        k = e.vm.new(Tight, p, t)
        out.append([-k, e.f(p, t)])
        out += [[-k, *(-s for s in sub)] for sub in combinations(support, d + 1)]
    return out


def p4_useful(e, t: int) -> list[list[int]]:
    """P4: w[p,t] (coin placed on p, not used since); v[p,t] -> -w[p,t-1].

    A use of the coin on p at step t is a fill of a neighbour of p at t (with P5:
    a tight one, k[n,t]).
    """
    out: list[list[int]] = []
    vm = e.vm
    for p in e.cells[t]:
        w0 = vm.get(Idle, p, t - 1)
        f = e.f(p, t)
        if not (w0 or f):
            continue
        w = vm.new(Idle, p, t)
        if f:
            out.append([-f, w])
        if w0:
            uses = []
            for n in e.nbrs[p]:
                k = vm.get(Tight, n, t) if e.active("tight") else None
                u = k or e.f(n, t)
                if u:
                    uses.append(u)
            v = e.v(p, t)
            out.append([-w0, *([v] if v else []), *uses, w])
            if v:
                out.append([-v, -w0])
    return out


def p6_commute(e, t: int) -> list[list[int]]:
    """P6: moves s1->p1 at t-1 and s2->p2 at t with p2 < p1, p2 not adjacent to p1,
    s1 != p2, s2 not in N[p1]: forbidden (the swapped order is legal and lex-smaller)."""
    if t < 2:
        return []
    out: list[list[int]] = []
    vm = e.vm
    near = {}
    for p1 in e.fills[t - 1]:
        vs = [e.v(n, t) for n in (p1, *e.nbrs[p1]) if e.v(n, t)]
        a = vm.new(Near, p1, t)
        out.append([-a, *vs])
        near[p1] = a
    for p1 in e.fills[t - 1]:
        f1, a = e.f(p1, t - 1), near[p1]
        adj = e.nbr_sets[p1]
        for p2 in e.fills[t]:
            if p2 >= p1:
                break
            if p2 in adj:
                continue
            _add(out, -f1, -e.f(p2, t), pos(e.v(p2, t - 1)), a)
    return out


def at_most(e, lits: list[int], k: int, what: str, owner: int, t: int, unless: int | None = None) -> list[list[int]]:
    """At most k of lits (unless ``unless`` holds): sequential counter (Sinz),
    s(i, j) = at least j of lits[:i+1]."""
    m = len(lits)
    g = [unless] if unless else []
    if m <= k:
        return []
    if k < 0:
        return [g]
    if k == 0:
        return [[-l, *g] for l in lits]

    def s(i, j):
        return e.vm.new(Count, what, owner, t, i, j)

    out = []
    for i, l in enumerate(lits):
        if i < m - 1:
            out.append([-l, s(i, 1)])
            if i > 0:
                for j in range(1, k + 1):
                    out.append([-s(i - 1, j), s(i, j)])
                for j in range(2, k + 1):
                    out.append([-l, -s(i - 1, j - 1), s(i, j)])
        if i > 0:
            out.append([-l, -s(i - 1, k), *g])
    return out


def perimeter_terms(e, occ: dict[int, int], t: int, tag: str) -> tuple[list, list[int]]:
    """Indicators whose number bounds the perimeter loss of the set ``occ`` (cell -> literal):
    one per adjacent occupied pair, and for each empty cell with k >= 3 occupied
    neighbours k - 2 (the span closure will add it with >= k neighbours)."""
    out: list[list[int]] = []
    lits: list[int] = []
    vm = e.vm
    for a in sorted(occ):
        for b in e.nbrs[a]:
            if a < b and b in occ:
                y = vm.new(Edge, a, b, t if tag == "state" else -t)
                out.append([-occ[a], -occ[b], y])
                lits.append(y)
    for c in range(len(e.nbrs)):
        nb = [occ[q] for q in e.nbrs[c] if q in occ]
        empty = [occ[c]] if c in occ else []
        for k in range(3, len(nb) + 1):
            h = vm.new(Count, f"hole{k}-{tag}", c, t, 0, 0)
            out += [[*(-q for q in sub), *empty, h] for sub in combinations(nb, k)]
            lits.append(h)
    return out, lits


def p8_perimeter(e, t: int) -> list[list[int]]:
    """P8: Lemma P for C_t: (adjacent coin pairs) + (sum over empty cells of
    (occupied neighbours - 2)^+) <= K (bounds.edge_budget)."""
    K = e.edge_budget
    if K is None:
        return []
    occ = {c: e.x(c, t) for c in e.cells[t]}
    out, lits = perimeter_terms(e, occ, t, "state")
    return out + at_most(e, lits, K, "edges", 0, t)


def p9_spanning(e, t: int) -> list[list[int]]:
    """P9: each line set of Lemma S (bounds.spanning_lines) holds a coin in C_t."""
    if not e.spanning_lines:
        return []
    out = []
    for cells in e.spanning_lines:
        c = [e.x(x, t) for x in cells if e.x(x, t)]
        out.append(c)
    return out


def p10_kept(e, t: int) -> list[list[int]]:
    """P10: Lemmas P and S for the coins kept by move t, I_t = C_{t-1} & C_t.

    span(C_t) = span(I_t) (the dropped coin lies in span(I_t)), so I_t must span
    span(B) too: at most K - 2 adjacent pairs among its n - 1 coins (unless step t
    is a no-op, when I_t = C_t) and a coin in every line set.
    """
    K, lines = e.edge_budget, e.spanning_lines
    if K is None and not lines:
        return []
    out: list[list[int]] = []
    kept = {}
    for c in e.cells[t - 1]:
        a, b = e.x(c, t - 1), e.x(c, t)
        k = e.vm.new(Kept, c, t)
        out += [[-k, a], [-k, b], [-a, -b, k]]
        kept[c] = k
    if K is not None:
        clauses, lits = perimeter_terms(e, kept, t, "kept")
        out += clauses
        noop = e.noop(t) if e.options.noop else None
        out += at_most(e, lits, K - 2, "kept-edges", 0, t, unless=noop)
    for cells in lines or ():
        out.append([kept[c] for c in cells if c in kept])
    return out


def p7_goal_count(e, t: int) -> list[list[int]]:
    """P7 (fixed goal B): o[t,j] <-> at least j coins of C_t lie off B, by unary
    increments: a move from B to off B adds one, from off B to B removes one.
    Every coin off B must still be lifted, so the goal at T needs o[T-t, .] small:
    the goal assumption -o[T,1] propagates back as -o[t, T-t+1].
    """
    B = e.goal_cells
    if B is None:
        return []
    vm, n = e.vm, e.instance.n_coins
    og0 = e.off_goal_start

    def o(tt, j):
        if j <= 0:
            return TRUE
        if j > n:
            return 0
        if tt == 0:
            return TRUE if j <= og0 else 0
        return vm.new(OffGoal, tt, j)

    def lit_neg(l):
        return 0 if l is TRUE else (TRUE if l == 0 else -l)

    out: list[list[int]] = []
    fB = vm.new(Count, "fill-in-goal", 0, t, 0, 0)
    vB = vm.new(Count, "lift-from-goal", 0, t, 0, 0)
    fs = [e.f(c, t) for c in B if e.f(c, t)]
    vs = [e.v(c, t) for c in B if e.v(c, t)]
    out.append([-fB, *fs])
    out += [[-f, fB] for f in fs]
    out.append([-vB, *vs])
    out += [[-v, vB] for v in vs]
    inc = vm.new(Count, "off-goal+1", 0, t, 0, 0)
    dec = vm.new(Count, "off-goal-1", 0, t, 0, 0)
    out += [[-inc, vB], [-inc, -fB], [-vB, fB, inc]]
    out += [[-dec, fB], [-dec, -vB], [-fB, vB, dec]]
    for j in range(1, n + 1):
        cur = o(t, j)
        prev, lo, hi = o(t - 1, j), o(t - 1, j - 1), o(t - 1, j + 1)
        _add(out, -inc, lit_neg(lo), cur)
        _add(out, -dec, lit_neg(hi), cur)
        _add(out, inc, dec, lit_neg(prev), cur)
        _add(out, -cur, -inc, lo)
        _add(out, -cur, -dec, hi)
        _add(out, -cur, inc, dec, prev)
        _add(out, lit_neg(hi), cur)  # redundant: one move changes the count by <= 1
        _add(out, -cur, lo)
        _add(out, -cur, o(t, j - 1) if j > 1 else TRUE)
    return out


def p11_distinct(e, t: int) -> list[list[int]]:
    """P11: a real move t never returns to an earlier configuration C_u, u <= t - 3
    (u = t - 1 cannot happen, u = t - 2 is P3): some cell is occupied in C_t and not in C_u."""
    if t < 3:
        return []
    out: list[list[int]] = []
    vm = e.vm
    noop = [e.noop(t)] if e.options.noop else []
    for u in range(0, t - 2):
        ds = []
        for c in e.cells[t]:
            xu = e.x(c, u)
            d = vm.new(Count, "new-vs", c, t, u, 0)
            out.append([-d, e.x(c, t)])
            if xu:
                out.append([-d, -xu])
            ds.append(d)
        out.append(noop + ds)
    return out


def p12_symmetry(e, t: int) -> list[list[int]]:
    """P12: while C_{t-1} is invariant under a symmetry g fixing start and goal
    (bounds.symmetries), move t = (s, p) is not larger, as the pair (p, s), than
    (g p, g s).  u[g,t] <-> C_t is g-invariant (u[g,0] is true)."""
    if not e.symmetries:
        return []
    out: list[list[int]] = []
    vm = e.vm
    for k, g in enumerate(e.symmetries):
        inv = vm.get(Count, "invariant", k, t - 1, 0, 0) if t > 1 else None
        guard = [-inv] if inv else []
        if t > 1 and not inv:
            continue
        for s in e.cells[t - 1]:
            for p in e.fills[t]:
                if p != s and (g[p], g[s]) < (p, s):
                    out.append([*guard, -e.v(s, t), -e.f(p, t)])
        # u[g,t]: only true if C_t is invariant, and true whenever it is
        u = vm.new(Count, "invariant", k, t, 0, 0)
        diffs = []
        for c in range(len(g)):
            a, b = e.x(c, t), e.x(g[c], t)
            if not (a or b):
                continue
            if not (a and b):
                out.append([-u, -(a or b)])
                diffs.append(a or b)
                continue
            d = vm.new(Count, "asymmetric", k, t, c, 0)
            out += [[-u, -a, b], [-u, a, -b], [-d, a, b], [-d, -a, -b]]
            diffs.append(d)
        out.append([u, *diffs])
    return out
