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

from .varmap import Count, Edge, Idle, Ladder, Lab, Moved, Near, Occ, Tight

TRUE = True  # a literal that is constantly true: the clause is dropped
SUBSET_LIMIT = 64  # direct cardinality clauses up to this many, a counter beyond


def pos(v: int | None):
    return v if v else 0


def neg(v: int | None):
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
            out.append([e.vm.new(Lab(lab, c, 0))])
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
    s = [e.vm.new(Ladder(family, t, i)) for i in range(n - 1)]  # s_i: one of lits[0..i] is true
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
        return e.vm.new(Count(what, owner, t, i, j))
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
    moved = [vm.new(Moved(l, t)) for l in e.labels]
    out += [[-a, -b] for a, b in combinations(moved, 2)]
    for c in e.cells[t]:
        ys = [vm.new(Lab(l, c, t)) for l in e.labels]
        x, f, v = e.x(c, t), e.f(c, t), e.v(c, t)
        out.append([-x, *ys])
        out += [[-y, x] for y in ys]
        out += [[-a, -b] for a, b in combinations(ys, 2)]
        for l, y, m in zip(e.labels, ys, moved):
            y0 = vm.get(Lab(l, c, t - 1))
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
        k = e.vm.new(Tight(p, t))
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
        w0 = vm.get(Idle(p, t - 1))
        f = e.f(p, t)
        if not (w0 or f):
            continue
        w = vm.new(Idle(p, t))
        if f:
            out.append([-f, w])
        if w0:
            uses = []
            for n in e.nbrs[p]:
                k = vm.get(Tight(n, t)) if e.active("tight") else None
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
        a = vm.new(Near(p1, t))
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


def at_most(e, lits: list[int], k: int, what: str, owner: int, t: int) -> list[list[int]]:
    """At most k of lits: sequential counter (Sinz), s(i, j) = at least j of lits[:i+1]."""
    m = len(lits)
    if m <= k:
        return []
    if k == 0:
        return [[-l] for l in lits]
    def s(i, j):
        return e.vm.new(Count(what, owner, t, i, j))
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
            out.append([-l, -s(i - 1, k)])
    return out


def p8_perimeter(e, t: int) -> list[list[int]]:
    """P8: at most K pairs of adjacent coins in C_t (Lemma P, bounds.edge_budget)."""
    K = e.edge_budget
    if K is None:
        return []
    cells = e.cells[t]
    edges = [(a, b) for a in cells for b in e.nbrs[a] if a < b and e.x(b, t)]
    if len(edges) <= K:
        return []
    out: list[list[int]] = []
    lits = []
    for a, b in edges:
        if K == 0:
            out.append([-e.x(a, t), -e.x(b, t)])
            continue
        y = e.vm.new(Edge(a, b, t))
        out.append([-e.x(a, t), -e.x(b, t), y])
        lits.append(y)
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
