"""The relaxed game (no lifts) and its LM-cut: the h that counts the scaffolding.

The proof is ``docs/lm-cut.md``; the lemmas named here are its lemmas, and §3 of it is the
procedure :func:`lm_cut_one` follows step by step (the ranked search's compiled kernel and the
checker's own kernel follow the same text; tests compare all three).

In the relaxed game a cell, once filled, stays filled: an action (P -> c) fills c in span(C) - C
when its d supports P are filled.  The first fills of any path form a plan of it (Lemma FF), so
the least plan length h+ is at most the moves left (Theorem P).  LM-cut bounds h+ from below:
each round finds a set of actions every plan must use (a cut, Lemma LC), counts one and makes
them free (Lemma CP).  ``h_lm`` = min over the goal placements of max(h_fill, LM-cut)
(Theorem LM): h_fill <= h_lm <= h+ <= the distance to the goal.

One configuration as a Python bitmask, any board, any d >= 1: the reference, clear before fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Iterator, Sequence

from ..board import Board
from ..configuration import bits
from .supports import BIG, h_fill_one, span_of

#: an action: (its supports, sorted by cell number, and the cell it fills)
Action = tuple[tuple[int, ...], int]


def actions(nbr: Sequence[int], d: int, C: int, span: int) -> list[Action]:
    """Step 0: every (P -> c), c in span - C, P a d-subset of N(c) within the span."""
    return [(P, c) for c in bits(span & ~C) for P in combinations(bits(nbr[c] & span), d)]


def h_max(acts: Sequence[Action], cost: Sequence[int], C: int, span: int) -> dict[int, int]:
    """Step 1: V by the 0-1 sweep (costs are 0 or 1, Lemma LC): level k is closed under the free
    actions before the paid actions of level k + 1 start (Lemma HM; not "the least fixpoint",
    which would value a cycle of free actions 0)."""
    V = {q: 0 for q in bits(C)}
    level, todo = 0, set(bits(span & ~C))
    while todo:
        before = len(todo)
        changed = True
        while changed:  # close this level under the free actions
            changed = False
            for (P, c), k in zip(acts, cost):
                if k == 0 and c in todo and all(V.get(p, BIG) <= level for p in P):
                    V[c] = level
                    todo.discard(c)
                    changed = True
        level += 1
        paid = [c for (P, c), k in zip(acts, cost) if k == 1 and c in todo and all(V.get(p, BIG) < level for p in P)]
        for c in paid:  # then the paid ones, from the cells valued below this level
            V[c] = level
            todo.discard(c)
        if len(todo) == before:
            break  # nothing more is reachable (cannot happen inside the span)
    return V


@dataclass(frozen=True)
class Round:
    """One round of docs/lm-cut.md §3: step 1's values, the goal's top value max_T V, and (when
    top > 0) the goal zone Z, the before zone B and the cut K that steps 4-6 found."""

    values: dict[int, int]
    top: int
    zone: frozenset[int] = frozenset()
    before: frozenset[int] = frozenset()
    cut: tuple[Action, ...] = ()


def lm_rounds(nbr: Sequence[int], d: int, C: int, goal: int) -> Iterator[Round]:
    """The rounds of §3 for one goal placement whose empty cells lie in span(C), the last one
    with top 0 (no cut): the answer is the number of rounds before it."""
    if d < 1:
        raise ValueError("the relaxed game needs adjacency d >= 1 (an action needs a support)")
    T = goal & ~C
    span = span_of(nbr, d, C)
    if T & ~span:
        raise ValueError("a goal cell lies outside span(C): no plan, no rounds")
    acts = actions(nbr, d, C, span)
    cost = [1] * len(acts)
    targets = list(bits(T))
    while True:
        V = h_max(acts, cost, C, span)
        top = max((V[t] for t in targets), default=0)
        if top == 0:
            yield Round(V, 0)
            return
        t_star = min(t for t in targets if V[t] == top)  # step 3: ties to the smallest cell
        pcf = [max(P, key=lambda p: (V[p], -p)) for P, _ in acts]
        zone = {t_star}  # step 4
        stack = [t_star]
        free_into: dict[int, list[int]] = {}
        for i, ((_, c), k) in enumerate(zip(acts, cost)):
            if k == 0:
                free_into.setdefault(c, []).append(i)
        while stack:
            c = stack.pop()
            for i in free_into.get(c, ()):
                if pcf[i] not in zone:
                    zone.add(pcf[i])
                    stack.append(pcf[i])
        before = set(bits(C))  # step 5
        by_pcf: dict[int, list[int]] = {}
        for i, p in enumerate(pcf):
            by_pcf.setdefault(p, []).append(i)
        stack = list(before)
        cut = []
        while stack:
            p = stack.pop()
            for i in by_pcf.get(p, ()):
                c = acts[i][1]
                if c in zone:
                    cut.append(i)
                elif c not in before:
                    before.add(c)
                    stack.append(c)
        if not cut or any(cost[i] != 1 for i in cut):  # Lemma LC says neither happens
            raise AssertionError("LM-cut: a cut that Lemma LC excludes")
        yield Round(V, top, frozenset(zone), frozenset(before), tuple(acts[i] for i in cut))
        for i in cut:  # step 6
            cost[i] = 0


def lm_cut_one(nbr: Sequence[int], d: int, C: int, goal: int) -> int:
    """docs/lm-cut.md §3 for one goal placement: the number of rounds (BIG: a goal cell lies
    outside span(C), so no path reaches the goal)."""
    if not goal & ~C:
        return 0
    if goal & ~C & ~span_of(nbr, d, C):
        return BIG
    return sum(1 for r in lm_rounds(nbr, d, C, goal) if r.top > 0)


def relaxed_plan(nbr: Sequence[int], d: int, C: int, goal: int) -> list[Action] | None:
    """Lemma UP: a plan of the relaxed game for one goal placement, read off the span layers
    (None when a goal cell lies outside span(C)).  Each needed cell c, entering at layer f(c),
    takes d supports among its neighbours of layers < f(c), those in C or already needed first;
    the actions, in increasing layer of their cells, are a plan, so h+ and LM-cut are at most
    its length.  A kernel that finds a plan of <= k actions knows "LM <= k" without its rounds."""
    span = span_of(nbr, d, C)
    T = goal & ~C
    if T & ~span:
        return None
    layer = {q: 0 for q in bits(C)}
    cur, j = C, 0
    while cur != span:
        j += 1
        new = [c for c in bits(span & ~cur) if (nbr[c] & cur).bit_count() >= d]
        for c in new:
            layer[c] = j
        for c in new:
            cur |= 1 << c
    need = set(bits(T))
    chosen: dict[int, tuple[int, ...]] = {}
    todo = sorted(need, key=lambda c: -layer[c])
    while todo:
        c = todo.pop(0)
        if c in chosen:
            continue
        below = [q for q in bits(nbr[c] & span) if layer[q] < layer[c]]
        below.sort(key=lambda q: (not C >> q & 1, q not in need, layer[q], q))
        P = tuple(sorted(below[:d]))
        chosen[c] = P
        for q in P:
            if not C >> q & 1 and q not in need:
                need.add(q)
        todo = sorted((x for x in need if x not in chosen), key=lambda x: -layer[x])
    return sorted(((P, c) for c, P in chosen.items()), key=lambda a: layer[a[1]])


def h_lm_one(nbr: Sequence[int], d: int, C: int, goal: int) -> int:
    """Theorem LM for one goal placement: max(h_fill, LM-cut)."""
    fill = h_fill_one(nbr, d, C, goal)
    return BIG if fill >= BIG else max(fill, lm_cut_one(nbr, d, C, goal))


def h_lm(board: Board, d: int, C: int, goals: Iterable[int]) -> int:
    """The LM-cut h of the ranked search (``--heuristic lmcut``), minimised over the goal placements."""
    return min((h_lm_one(board.neighbour_masks, d, C, g) for g in goals), default=BIG)
