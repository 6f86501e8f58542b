"""coinsat/theory/relaxed.py: the relaxed game and its LM-cut (docs/lm-cut.md, Theorem LM).

Against exact distances: every configuration reachable from the start of a random small
puzzle (square grid, d = 2 or 3, unlabeled; d = 1 in the other tests, where its reachable sets,
too large for a BFS in a test, are not needed) gets its distance to the goal by a BFS over
``rules.successors`` (forward to find the reachable graph, then backwards from the goal
placements inside it, the pattern of tests/test_forced_supports.py); Theorem LM says
h_fill <= h_lm <= that distance.  Lemma LC is checked on every cut the reference finds: with
the cut's actions removed, no plan of the relaxed game reaches the goal (so every plan has an
action of the cut).  h_lm <= h+ is checked against h+ by brute force (a breadth-first search
over the sets of filled cells) on tiny puzzles.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.theory import relaxed
from coinsat.theory.supports import BIG, h_fill, span_of

from .strategies import exact_distances, lattice_puzzles

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(lattice_puzzles(max_side=4, max_coins=6, adjacency=(2, 2, 3)), st.randoms(use_true_random=False))
def test_theorem_lm_admissible(instance, rnd):
    """Theorem LM (with Lemma FF and Theorem P) on reachable configurations (all of them, or 150
    drawn at random, the start among them): h_fill <= h_lm <= the exact distance; h_lm = BIG only
    where the goal is unreachable."""
    dist, goals = exact_distances(instance)
    board, d = instance.board, instance.d
    states = sorted(dist)
    if len(states) > 150:
        states = rnd.sample(states, 149) + [instance.start.mask]
    for x in states:
        true = dist[x]
        lo = h_fill(board, d, x, goals)
        lm = relaxed.h_lm(board, d, x, goals)
        assert lo <= lm, (x, lo, lm)
        assert lm <= true, (x, lm, true)
        if lm >= BIG:
            assert true == float("inf")


def test_theorem_lm_not_vacuous():
    """h_lm exceeds h_fill somewhere: at the start of V(2,2)->SW-NE (docs/lm-cut.md: h+ = 22
    there, the forced-supports h 16), and stays below the optimum 36."""
    from pathlib import Path

    from coinsat.io.instance_format import read_instance

    inst = read_instance(Path(__file__).resolve().parent.parent / "instances/families/vdiag-2-2-swne.toml")
    goals = [g.mask for g in inst.goal_configurations]
    lo = h_fill(inst.board, inst.d, inst.start.mask, goals)
    lm = relaxed.h_lm(inst.board, inst.d, inst.start.mask, goals)
    assert lo < lm <= 22


def _reachable(acts, removed: set[int], C: int) -> int:
    """The cells the relaxed game from C fills with the actions of ``acts`` not in ``removed``."""
    F, grown = C, True
    while grown:
        grown = False
        for i, (P, c) in enumerate(acts):
            if i not in removed and not F >> c & 1 and all(F >> p & 1 for p in P):
                F |= 1 << c
                grown = True
    return F


def _cuts(nbr, d: int, C: int, goal: int) -> tuple[list, list[set[int]]]:
    """The actions and the cuts the reference lm_cut_one finds: the cost vector handed to h_max
    at each round, a cut being the actions whose cost went from 1 to 0 between two rounds."""
    seen: list[tuple[list, list[int]]] = []
    real = relaxed.h_max

    def spy(acts, cost, C_, span):
        seen.append((list(acts), list(cost)))
        return real(acts, cost, C_, span)

    relaxed.h_max = spy
    try:
        rounds = relaxed.lm_cut_one(nbr, d, C, goal)
    finally:
        relaxed.h_max = real
    if not seen:
        return [], []
    acts = seen[0][0]
    pairs = [(k0, k1) for (_, k0), (_, k1) in zip(seen, seen[1:])]
    cuts = [{i for i, (a, b) in enumerate(zip(k0, k1)) if a == 1 and b == 0} for k0, k1 in pairs]
    assert len(cuts) == rounds  # one cut a round, each making only 1 -> 0 changes
    assert all(all(b <= a for a, b in zip(k0, k1)) for k0, k1 in pairs)
    return acts, cuts


@SETTINGS
@given(lattice_puzzles(max_side=5, max_coins=7), st.randoms(use_true_random=False))
def test_lemma_lc_cuts_are_landmarks(instance, rnd):
    """Lemma LC on every cut of §3 found on random configurations: non-empty, and the goal is out
    of reach of the relaxed game without its actions (every plan contains one of them); with
    all actions the goal is reached (a plan exists)."""
    board, d = instance.board, instance.d
    nbr = board.neighbour_masks
    n, k = board.size, instance.n_coins
    configs = [instance.start.mask] + [sum(1 << c for c in rnd.sample(range(n), k)) for _ in range(6)]
    for C in configs:
        for goal in (g.mask for g in instance.goal_configurations):
            acts, cuts = _cuts(nbr, d, C, goal)
            for cut in cuts:
                assert cut
                assert _reachable(acts, set(), C) & goal == goal
                assert _reachable(acts, cut, C) & goal != goal, (C, goal, cut)


def h_plus(nbr, d: int, C: int, goal: int) -> int:
    """h+ by brute force: a breadth-first search over the sets F of filled cells (one action a
    step; no action is ever worth taking twice, so F grows by one cell a step)."""
    if goal & ~C == 0:
        return 0
    span = span_of(nbr, d, C)
    if goal & ~span:
        return BIG
    acts = relaxed.actions(nbr, d, C, span)
    level, frontier, seen = 0, {C}, {C}
    while frontier:
        level += 1
        nxt = set()
        for F in frontier:
            for P, c in acts:
                if not F >> c & 1 and all(F >> p & 1 for p in P):
                    G = F | 1 << c
                    if G & goal == goal:
                        return level
                    if G not in seen:
                        seen.add(G)
                        nxt.add(G)
        frontier = nxt
    return BIG


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(lattice_puzzles(max_side=4, max_coins=5), st.randoms(use_true_random=False))
def test_lm_cut_below_h_plus(instance, rnd):
    """Theorem LM's middle step on tiny puzzles: h_fill and LM-cut <= h+ (brute force), for each
    goal placement, on the start and random configurations; so is the search's h_lm."""
    board, d = instance.board, instance.d
    nbr = board.neighbour_masks
    n, k = board.size, instance.n_coins
    configs = [instance.start.mask] + [sum(1 << c for c in rnd.sample(range(n), k)) for _ in range(5)]
    goals = [g.mask for g in instance.goal_configurations]
    for C in configs:
        plus = []
        for goal in goals:
            hp = h_plus(nbr, d, C, goal)
            plus.append(hp)
            assert relaxed.lm_cut_one(nbr, d, C, goal) <= hp
            assert relaxed.h_lm_one(nbr, d, C, goal) <= hp
        assert relaxed.h_lm(board, d, C, goals) <= min(plus)
