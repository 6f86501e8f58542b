"""The default's bound from below (``coinsat.solve.climb``, ``search/plan.py``; docs/from-below.md).

Lemma LF: a bounded ranked search that meets no goal proves that no solution is shorter than the
least depth + h among the states it pruned (``stats["least_pruned_f"]``): checked against the exact
optimum (BFS) on random small puzzles, with the fill and the LM-cut h.  The climb: the same optimum
as the exact engines, from a first U below it (the loop runs more than one search), and the cap.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.io.instance_format import read_instance
from coinsat.limits import Limits
from coinsat.search import plan as plans
from coinsat.search.options import AutoOptions
from coinsat.solve import _v_member, climb, find_bound, solve

from .strategies import exact_distances, lattice_puzzles

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = ROOT / "instances" / "families"


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    lattice_puzzles(max_side=4, max_coins=6, adjacency=(2, 2, 3)),
    st.integers(1, 6),
    st.sampled_from(("fill", "lmcut")),
)
def test_lemma_lf_least_pruned_f_against_exact_distances(instance, below, h):
    """Lemma LF on random small puzzles (exact windows, a finite optimum L >= 1 by BFS): with
    U = L - below (>= 0) the search answers bounded and prunes something, and the least pruned
    f is in U + 1 .. L."""
    if not instance.board.exact:
        return
    dist, _ = exact_distances(instance)
    L = dist[instance.start.mask]
    if L == float("inf") or L == 0:
        return
    U = max(0, int(L) - below)
    run = solve(instance, "rankbfs", upper_bound=U, heuristic=h, workers=1, screens=False)
    assert run.status.value == "bounded"
    least = run.stats.get("least_pruned_f")
    assert least is not None  # a solution exists, so its first state past the layers was pruned
    assert U + 1 <= least <= L, (U, least, L)


def test_lemma_lf_with_two_workers_as_with_one():
    """The least pruned f is the same whatever the exchange (the parts' minimum, loop.combine)."""
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    one = solve(inst, "rankbfs", upper_bound=33, heuristic="lmcut", workers=1)
    two = solve(inst, "rankbfs", upper_bound=33, heuristic="lmcut", workers=2)
    assert one.status.value == two.status.value == "bounded"
    assert one.stats["least_pruned_f"] == two.stats["least_pruned_f"]
    assert 34 <= one.stats["least_pruned_f"] <= 36


def _below(inst, first: int, cap: int | None = None):
    plan = plans.below(plans.choose(inst), inst, cap, "the test's cap")
    return replace(plan, upper_bound=first)


@pytest.mark.parametrize("name, optimum", [("vdiag-2-2-swne", 36), ("vdiag-2-1-nwse", 24), ("diagonal-4", 18)])
def test_the_climb_reaches_the_optimum_from_below(name, optimum):
    """A first U five moves below the optimum: the first search fails (bounded), the loop raises U
    (to the least pruned f, or by FROM_BELOW_STEP) until a search meets the goal, at the optimum,
    with a verified solution; every U it tries is at most the optimum + FROM_BELOW_STEP - 1."""
    inst = read_instance(FAMILIES / f"{name}.toml")
    got = climb(inst, _below(inst, optimum - 5), None, Limits(), AutoOptions())
    assert got.status.value == "optimal" and got.length == optimum
    searches = got.stats["plan"]["searches"]
    assert len(searches) >= 2 and searches[0]["status"] == "bounded"
    assert searches[-1]["status"] == "optimal"
    Us = [s["upper_bound"] for s in searches]
    assert Us == sorted(set(Us)) and Us[-1] <= optimum + plans.FROM_BELOW_STEP - 1  # Theorem CL (a)
    for s, nxt in zip(searches, Us[1:]):
        assert nxt == max(s["upper_bound"] + 1, s["least_pruned_f"], s["upper_bound"] + plans.FROM_BELOW_STEP)


def test_the_cap_answers_when_the_bound_reaches_it():
    """A verified solution of optimum length as the cap and a first U one below it: the search
    proves none within U, and the cap's solution is the optimal answer (no second search)."""
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    known, _ = find_bound(inst, brief=True)
    assert known is not None
    cheap = solve(inst, "spanbfs")
    got = climb(inst, _below(inst, 35, 36), cheap.solution, Limits(), AutoOptions())
    assert got.status.value == "optimal" and got.length == 36 and got.solution == cheap.solution
    assert [s["upper_bound"] for s in got.stats["plan"]["searches"]] == [35]


def test_the_cap_replaces_a_bound_past_it():
    """A cap of the optimum's length and a first U below it by more than one: the search at U
    fails, the next U would pass the cap only if the least pruned f did; the answer is optimal."""
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    cheap = solve(inst, "spanbfs")
    got = climb(inst, _below(inst, 30, 36), cheap.solution, Limits(), AutoOptions())
    assert got.status.value == "optimal" and got.length == 36
    assert all(s["upper_bound"] <= 36 for s in got.stats["plan"]["searches"])


def test_a_limit_gives_unknown_with_the_cap_as_feasible():
    """A time limit that stops the climb: the cap's solution is the answer, feasible, with a lower
    bound below its length (honest: no optimality claimed)."""
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    known, _ = find_bound(inst, brief=True)
    assert known is not None and len(known) > 36
    got = climb(inst, _below(inst, 20, len(known)), known, Limits(time_limit=0.05), AutoOptions())
    assert got.status.value == "feasible" and got.length == len(known)
    assert got.lower_bound is not None and got.lower_bound <= 36


def test_the_default_plans_from_below_on_the_v_puzzles():
    """V(3,3)->NW-SE: the default's plan is the bound from below with the LM-cut h, first U =
    ceil(FROM_BELOW_RATIO x h_lm(start)), at most the cap; the flips, the smaller windows and the
    pinwheels (not the family the first U was fitted on) keep the improve pass."""
    inst = read_instance(FAMILIES / "vdiag-3-3-nwse.toml")
    assert plans.from_below(inst, _v_member(inst))
    known, found = find_bound(inst, brief=True)
    assert known is not None
    plan = plans.below(plans.choose(inst), inst, len(known), found)
    lm = plans.start_h(inst)[1]
    assert plan.strategy == "from below" and plan.heuristic == "lmcut"
    assert plan.upper_bound == min(len(known), -(-163 * lm // 100))
    assert plan.to_json()["bound_strategy"] == "from below" and "from below" in plan.describe()
    for name, why in (("diagonal-7", "a flip"), ("vdiag-2-2-swne", "36 cells"), ("pinwheel-5-nwse", "no V")):
        other = read_instance(FAMILIES / f"{name}.toml")
        assert not plans.from_below(other, _v_member(other)), why
    assert not _v_member(read_instance(FAMILIES / "pinwheel-5-nwse.toml"))


@pytest.mark.parametrize(
    "path",
    [FAMILIES / "vdiag-2-2-nwse.toml", FAMILIES / "diagonal-5.toml", ROOT / "instances/paper/vee-2-2.toml"],
)
def test_climb_same_optimum_as_the_default(path):
    """The climb from ceil(FROM_BELOW_RATIO x h_lm(start)) gives the default's optimum on small V,
    diagonal and paper puzzles (the default's own engine there is spanbfs)."""
    inst = read_instance(path)
    want = solve(inst)
    got = climb(inst, _below(inst, plans.first_bound(inst, None)), None, Limits(), AutoOptions())
    assert want.status.value == got.status.value == "optimal"
    assert got.length == want.length


def test_the_cap_s_answer_is_certified(tmp_path):
    """The cap's solution answered as optimal after "none within U" (U + 1 its length): the
    certificate built from the last search's layers is accepted by the checker."""
    from coinsat.certify import certify_result

    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    cheap = solve(inst, "spanbfs")
    got = climb(inst, _below(inst, 35, 36), cheap.solution, Limits(), AutoOptions())
    assert got.status.value == "optimal" and got.length == 36
    done = certify_result(inst, got, tmp_path)
    summary = done.summary()
    assert summary["accepted"] is True, summary
    assert "35" in summary["claim"]
