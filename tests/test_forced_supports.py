"""coinsat/theory/supports.py: the forced-supports h (docs/forced-supports.md, Theorem H).

Against exact distances: every configuration reachable from the start of a random small
square-grid puzzle (d = 2, unlabeled) gets its distance to the goal by a BFS over
``rules.successors`` (forward to find the reachable graph, then backwards from the goal
placements inside it); Theorem H says h_fill <= h_forced <= that distance (BIG allowed only
where the goal is unreachable).  Lemma M (the schedule never drops when cells are added) and
Lemma X's closure are checked on their own; the batch form is checked equal to the one-state
form, and h_fill equal to the ranked engine's h and to the checker's.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.rules import successors
from coinsat.theory import supports as sp

from .strategies import exact_distances, lattice_puzzles

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(lattice_puzzles())
def test_theorem_h_admissible_and_above_fill(instance):
    """Theorem H on every reachable configuration: h_fill <= h_forced <= the exact distance;
    Lemma K: h_forced <= h_partial <= the exact distance."""
    dist, goals = exact_distances(instance)
    for x, true in dist.items():
        lo = sp.h_fill(instance.board, 2, x, goals)
        hi = sp.h_forced(instance.board, 2, x, goals)
        assert lo <= hi, (x, lo, hi)
        assert hi <= true, (x, hi, true)
        k = sp.h_partial(instance.board, 2, x, goals)  # Lemma K: stronger still, also admissible
        assert hi <= k <= true, (x, hi, k, true)
        if hi >= sp.BIG:
            assert true == float("inf")


@SETTINGS
@given(lattice_puzzles(max_side=6, max_coins=8), st.randoms(use_true_random=False))
def test_batch_equals_one_state(instance, rnd):
    """Batch.h_fill / h_forced (numpy words) = the one-state forms, on random configurations."""
    n, k = instance.board.size, instance.n_coins
    goals = [g.mask for g in instance.goal_configurations]
    configs = [sum(1 << c for c in rnd.sample(range(n), k)) for _ in range(40)] + [instance.start.mask]
    batch = sp.Batch(instance.board, 2, goals)
    m = np.array(configs, dtype=np.uint64)
    assert batch.h_fill(m).tolist() == [sp.h_fill(instance.board, 2, x, goals) for x in configs]
    assert batch.h_forced(m).tolist() == [sp.h_forced(instance.board, 2, x, goals) for x in configs]


@SETTINGS
@given(st.lists(st.integers(1, 40), max_size=12), st.integers(1, 40))
def test_lemma_m_schedule_monotone(f, v):
    """Lemma M: adding a cell (entry layer v >= 1) never lowers the schedule; it is >= the count."""
    assert sp.schedule(f + [v]) >= sp.schedule(f)
    assert sp.schedule(f) >= len(f)


def test_lemma_x_closure_on_a_corridor():
    """Lemma X on a hand example: a goal cell at the end of a one-wide corridor of span."""
    # coins at (0,0),(1,0),(0,1),(1,1) span the 2x2 block only; the goal (0,0),(1,0),(0,1),(2,0)
    # is outside the span: unreachable, both bounds say BIG.
    inst = make_instance("square", [(0, 0), (1, 0), (0, 1), (1, 1)], [(0, 0), (1, 0), (0, 1), (2, 0)], margin=1)
    goals = [g.mask for g in inst.goal_configurations]
    assert sp.h_fill(inst.board, 2, inst.start.mask, goals) == sp.BIG
    assert sp.h_forced(inst.board, 2, inst.start.mask, goals) == sp.BIG


def _family_states(name: str, limit: int) -> tuple[object, list[int]]:
    inst = read_instance(ROOT / "instances" / "families" / f"{name}.toml")
    seen, queue = {inst.start.mask}, deque([inst.start.mask])
    while queue and len(seen) < limit:
        x = queue.popleft()
        for _, (y,) in successors(inst.board, inst.d, (x,)):
            if y not in seen:
                seen.add(y)
                queue.append(y)
    return inst, sorted(seen)


def test_forced_is_stronger_somewhere():
    """Not vacuous: on the first 3000 configurations of V(2,2)->NW-SE (BFS order) h_forced
    exceeds h_fill on some of them, and is never below it."""
    inst, states = _family_states("vdiag-2-2-nwse", 3000)
    goals = [g.mask for g in inst.goal_configurations]
    batch = sp.Batch(inst.board, inst.d, goals)
    m = np.array(states, dtype=np.uint64)
    lo, hi = batch.h_fill(m), batch.h_forced(m)
    assert (hi >= lo).all()
    assert (hi > lo).any()


def test_fill_is_the_engine_h_and_the_checker_h():
    """h_fill is today's h: the ranked engine's Space.heuristic and the checker's Kernel.h."""
    from coinsat.certificates.check.ranked import Kernel
    from coinsat.search.rank.space import Space

    inst, states = _family_states("vdiag-2-2-nwse", 2000)
    goals = [g.mask for g in inst.goal_configurations]
    space = Space(inst, prune=True)
    ranks = np.array([space.rank_of_cells(c for c in range(inst.board.size) if x >> c & 1) for x in states], np.uint64)
    ours = sp.Batch(inst.board, inst.d, goals).h_fill(np.array(states, dtype=np.uint64))
    assert ours.tolist() == space.heuristic(ranks).tolist()
    ker = Kernel(inst, list(inst.board.coords))
    pos = np.array([[c for c in range(inst.board.size) if x >> c & 1] for x in states], dtype=np.int64)
    goal_words = ker.words(np.array([sorted(g.cells) for g in inst.goal_configurations], dtype=np.int64))
    checker = ker.h(ker.words(pos), [goal_words[:, i : i + 1] for i in range(goal_words.shape[1])])
    assert np.minimum(checker, sp.BIG).tolist() == np.minimum(ours, sp.BIG).tolist()


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(lattice_puzzles(), st.integers(0, 3))
def test_pruned_search_keeps_the_optimum(instance, slack):
    """A search pruned by h_forced (or h_fill) with U = opt + slack meets the goal at the optimum of
    the unpruned BFS; with U = opt - 1 it ends without one; h_forced keeps no more states."""
    from lab.forced_supports import search

    dist, _ = exact_distances(instance)
    opt = dist[instance.start.mask]
    if opt == float("inf"):
        for which in ("fill", "forced"):
            assert search(instance, 6, which)["depth"] is None
        return
    opt = int(opt)
    runs = {which: search(instance, opt + slack, which) for which in ("fill", "forced")}
    assert runs["fill"]["depth"] == runs["forced"]["depth"] == opt
    assert runs["forced"]["states"] <= runs["fill"]["states"]
    if opt > 0:
        for which in ("fill", "forced"):
            assert search(instance, opt - 1, which)["depth"] is None


def test_backward_ball_predecessors_are_the_rule():
    """The backward ball's vectorised predecessors and successors (lab.forced_supports,
    scripts/backward_ball.py) = rules.py's kernels."""
    import random

    from coinsat.rules import predecessors
    from lab import forced_supports as bb

    inst = read_instance(ROOT / "instances" / "families" / "vdiag-2-2-nwse.toml")
    b, n, k = inst.board, inst.board.size, inst.n_coins
    batch = sp.Batch(b, inst.d, [g.mask for g in inst.goal_configurations])
    rnd = random.Random(5)
    configs = [sum(1 << c for c in rnd.sample(range(n), k)) for _ in range(30)]
    m = np.array(configs, dtype=np.uint64)
    got, _ = bb.predecessors(batch, m, n, np.uint64((1 << n) - 1))
    want = {y for x in configs for _, (y,) in predecessors(b, inst.d, (x,))}
    assert set(got.tolist()) == want
    got, _ = bb.successors(batch, m, n)
    assert set(got.tolist()) == {y for x in configs for _, (y,) in successors(b, inst.d, (x,))}
