"""docs/lm-cut.md, the lemmas about the rounds of §3 (the reference, coinsat/theory/relaxed.py).

Lemma ES: the goal's top value falls by at most one a round (so r + top never falls and the
answer is max_r (r + top_r): the kernels' early stop).  Lemma RP: the rounds left after r rounds
are at most the cost of a plan under the costs of round r.  Lemma BZ: every cell valued below the
top is in the before zone.  Lemma LC's checkable parts: every cut is non-empty, leads from the
before zone into the goal zone, and the zones are disjoint.  On random graphs (d = 1, 2) and on
the two regressions a review found (a cycle of free actions, which "the least fixpoint" of
step 1 would value 0).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.io.instance_format import read_instance
from coinsat.theory.relaxed import lm_cut_one, lm_rounds, relaxed_plan
from coinsat.theory.supports import span_of

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@st.composite
def relaxed_tasks(draw):
    """A random graph on <= 9 cells, d in {1, 2}, a configuration C and a goal inside span(C)."""
    n = draw(st.integers(3, 9))
    edges = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    nbr = [0] * n
    for a, b in edges:
        if a != b:
            nbr[a] |= 1 << b
            nbr[b] |= 1 << a
    d = draw(st.sampled_from((1, 2)))
    C = draw(st.integers(1, (1 << n) - 1))
    span = span_of(nbr, d, C)
    goal = draw(st.integers(0, (1 << n) - 1)) & span
    return nbr, d, C, goal


def check_rounds(nbr, d, C, goal) -> int:
    """Assert Lemmas ES, BZ and LC's checkable parts on every round; return the answer."""
    rounds = list(lm_rounds(nbr, d, C, goal))
    tops = [r.top for r in rounds]
    assert tops[-1] == 0 and all(t > 0 for t in tops[:-1])
    for a, b in zip(tops, tops[1:]):
        assert b >= a - 1, f"Lemma ES: top fell from {a} to {b}"
    answer = len(rounds) - 1
    assert answer == max(r + t for r, t in enumerate(tops)), "the answer is max_r (r + top_r)"
    for r in rounds[:-1]:
        assert r.cut, "Lemma LC: a cut is never empty"
        assert not r.zone & r.before, "Lemma LC: Z and B are disjoint"
        for P, c in r.cut:
            pcf = max(P, key=lambda p: (r.values[p], -p))
            assert pcf in r.before and c in r.zone
        low = {c for c, v in r.values.items() if v < r.top}
        assert low <= r.before, f"Lemma BZ: cells {sorted(low - r.before)} valued below the top are not in B"
    return answer


@SETTINGS
@given(relaxed_tasks())
def test_lemma_es_early_stop(task):
    check_rounds(*task)


@SETTINGS
@given(relaxed_tasks())
def test_lemma_bz_before_zone(task):
    nbr, d, C, goal = task
    assert check_rounds(nbr, d, C, goal) == lm_cut_one(nbr, d, C, goal)


def test_free_cycle_regression_d1():
    """Cells 0-3, edges 0-2, 0-3, 1-2, 2-3, d = 1, C = {1}, goal {0, 3}: after two rounds the
    free actions form a cycle; the sweep's values give 3 (= h+), a least fixpoint would give 2."""
    nbr = [0b1100, 0b0100, 0b1011, 0b0101]
    assert check_rounds(nbr, 1, 0b0010, 0b1001) == 3


def test_free_cycle_regression_square_grid():
    """The review's d = 2 case on the V(2,2) board: the answer is 7 (a least fixpoint: 5)."""
    inst = read_instance(ROOT / "instances/families/vdiag-2-2-swne.toml")
    nbr = inst.board.neighbour_masks
    C = 0b11000010001000010000100110000010
    assert check_rounds(nbr, 2, C, 1 << 12) == 7


@SETTINGS
@given(relaxed_tasks())
def test_lemma_up_plan_from_the_layers(task):
    """Lemma UP: the plan read off the span layers is a plan of the relaxed game, so
    LM-cut <= h+ <= its length."""
    nbr, d, C, goal = task
    plan = relaxed_plan(nbr, d, C, goal)
    assert plan is not None  # the goal lies in span(C) by construction
    F = C
    for P, c in plan:
        assert len(P) == d and all(F >> p & 1 for p in P) and all(nbr[c] >> p & 1 for p in P) and not F >> c & 1
        F |= 1 << c
    assert goal & ~F == 0
    assert lm_cut_one(nbr, d, C, goal) <= len(plan)


@SETTINGS
@given(relaxed_tasks())
def test_lemma_rp_rounds_left_below_a_plan(task):
    """Lemma RP: after r rounds, LM <= r + the cost of a plan under the costs of round r (Lemma
    UP's plan, its actions freed by the cuts so far costing 0); and for that plan, fixed before
    the rounds, r + its cost <= its length (every cut meets it)."""
    nbr, d, C, goal = task
    plan = relaxed_plan(nbr, d, C, goal)
    assert plan is not None
    rounds = list(lm_rounds(nbr, d, C, goal))
    answer = len(rounds) - 1
    freed: set = set()
    for r, rnd in enumerate(rounds):
        cost = sum(1 for a in plan if a not in freed)
        assert answer <= r + cost <= len(plan)
        met = sum(1 for a in rnd.cut if a in plan)
        assert rnd.top == 0 or met >= 1, "a cut is a landmark: it meets every plan"
        freed |= set(rnd.cut)


def test_kernel_plan_shortcut_keeps_the_decisions():
    """The search's kernel answers "h_lm <= cap?" as the reference does, with caps around the
    layer plan's length on states of the 6x6 flip (where the plan shortcut decides most of them)."""
    import random

    import numpy as np
    import pytest

    pytest.importorskip("numba")
    from coinsat.rules import successors
    from coinsat.search.rank.lmcut import LmCut
    from coinsat.theory.relaxed import h_lm

    inst = read_instance(ROOT / "instances/families/diagonal-6.toml")
    b, d, nbr = inst.board, inst.d, inst.board.neighbour_masks
    goals = [g.mask for g in inst.goal_configurations]
    seen, layer = {inst.start.mask}, [inst.start.mask]
    for _ in range(5):
        layer = [y for x in layer for _, (y,) in successors(b, d, (x,)) if y not in seen and not seen.add(y)]
    rng = random.Random(4)
    alive = [x for x in layer if relaxed_plan(nbr, d, x, goals[0]) is not None]
    states = rng.sample(alive, min(150, len(alive)))
    assert len(states) >= 50
    kernel = LmCut([list(b.neighbours[c]) for c in range(b.size)], d, [sorted(bits_of(g)) for g in goals])
    cells = np.array([sorted(bits_of(x)) for x in states], dtype=np.int32)
    exact = [h_lm(b, d, x, goals) for x in states]
    plans = [len(relaxed_plan(nbr, d, x, goals[0]) or ()) for x in states]
    assert len(goals) == 1
    for shift in (-3, -1, 0, 1, 3):
        for x, h, cap in zip(states, exact, (p + shift for p in plans)):
            got = int(kernel.of_cells(cells[states.index(x) : states.index(x) + 1], cap)[0])
            assert (got <= cap) == (h <= cap) and got <= h


def bits_of(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]
