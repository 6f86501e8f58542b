"""The default's bound from below (``coinsat.solve.climb``, ``search/plan.py``; docs/from-below.md).

Lemma LF: a bounded ranked search that meets no goal proves that no solution is shorter than the
least depth + h among the states it pruned (``stats["least_pruned_f"]``): checked against the exact
optimum (BFS) on random small puzzles, with the fill and the LM-cut h.  The climb: the same optimum
as the exact engines, from a first U below it (the loop runs more than one search), and the cap.
Lemma KR: a search handed an earlier search's keep decisions (``space.Kept``) keeps the same layers,
state for state, as without them (random puzzles, every h, any two bounds); the premise and the
per-state test U - i <= U' - t, each checked so that a wrong rule would fail; the climb with the
reuse on and off.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.errors import LimitReached
from coinsat.io.instance_format import read_instance
from coinsat.limits import Limits
from coinsat.search import plan as plans
from coinsat.search.options import AutoOptions
from coinsat.search.rank.space import NEVER, Kept, Space
from coinsat.search.rank.visited import Visited
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


def _layers(result) -> list[list[int]]:
    v = result.witness.layers
    return [v.layer(i).tolist() for i in range(v.depths)]


def _same_search(a, b) -> None:
    """Two runs of one bounded search: the same answer, states, least pruned f and layers."""
    assert (a.status, a.length, a.lower_bound) == (b.status, b.length, b.lower_bound)
    assert a.statistics.states == b.statistics.states
    assert a.stats.get("least_pruned_f") == b.stats.get("least_pruned_f")
    assert a.stats["bound_pruned"] == b.stats["bound_pruned"]
    assert _layers(a) == _layers(b)


#: small members with real pruning (2-11 thousand states at the optimum with the fill h)
KR_MEMBERS = ("vdiag-1-1-swne", "vdiag-2-1-nwse", "vdiag-2-1-swne", "vdiag-2-2-nwse", "diagonal-4")


@functools.cache
def _member(name: str):
    inst = read_instance(FAMILIES / f"{name}.toml")
    return inst, solve(inst, "spanbfs").length


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(KR_MEMBERS),
    st.integers(0, 8),
    st.integers(0, 8),
    st.sampled_from(("fill", "lmcut", "forced", "perimeter")),
)
def test_lemma_kr_the_kept_decisions_give_the_same_layers(name, below, below2, h):
    """Lemma KR with random bounds: a search with bound U2 = L - below2 (L the optimum, by spanbfs)
    handed the keep decisions of one with bound U = L - below (either may be the larger; every h,
    the perimeter h over LM-cut too) keeps the same states, layer for layer, with the same least
    pruned f and pruned count, as without them; with U2 >= U it takes some decisions from them."""
    instance, L = _member(name)
    U, U2 = max(0, L - below), max(0, L - below2)
    h_opts = {"perimeter": 1, "heuristic": "lmcut"} if h == "perimeter" else {"heuristic": h}
    first = solve(instance, "rankbfs", upper_bound=U, workers=1, screens=False, **h_opts)
    kept = Kept.of(first.witness.layers, instance)
    assert kept is not None and kept.upper_bound == U
    plain = solve(instance, "rankbfs", upper_bound=U2, workers=1, screens=False, **h_opts)
    reused = solve(instance, "rankbfs", upper_bound=U2, workers=1, screens=False, kept=kept, **h_opts)
    _same_search(plain, reused)
    note = reused.stats["kept_before"]
    assert "ignored" not in note and note["upper_bound"] == U and note["states"] == kept.ranks.size
    assert 0 <= note["trusted"] <= kept.ranks.size
    if U2 >= U and kept.ranks.size:
        assert note["trusted"] > 0


def test_lemma_kr_premise_the_kept_states_h_is_within_u_minus_i():
    """The premise of Lemma KR, on the states a real search kept: h_lm(y) <= U - i for each (the
    slack ``Kept`` stores), recomputed without a cap; the start (layer 0) is not in it."""
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    first = solve(inst, "rankbfs", upper_bound=33, heuristic="lmcut", workers=1)
    kept = Kept.of(first.witness.layers, inst)
    assert kept is not None and kept.ranks.size == first.statistics.states - 1
    start = first.witness.layers.layer(0)
    assert not np.isin(start, kept.ranks).any()
    space = Space(inst, True, 33, "lmcut")
    h = space.inner_heuristic(kept.ranks)  # no cap: h_lm itself
    assert (kept.slack < NEVER).all()
    assert (h <= kept.slack.astype(np.int64)).all()
    assert (h == kept.slack).any()  # the premise is tight somewhere: a slack one smaller would be false


def test_lemma_kr_is_tested_state_by_state():
    """``Kept.trusted``: a state kept in layer i is trusted at cap c iff U - i <= c; a state not
    kept, the start, a slack that does not fit a byte, and a negative cap: never."""
    v = Visited.from_layers(
        [np.array([7], dtype=np.uint64), np.array([3, 9], dtype=np.uint64), np.array([5], dtype=np.uint64)],
        upper_bound=6,
    )
    kept = Kept.of(v, None)  # type: ignore[arg-type]
    assert kept is not None
    assert kept.ranks.tolist() == [3, 5, 9] and kept.slack.tolist() == [5, 4, 5]
    ask = np.array([3, 5, 7, 8, 9], dtype=np.uint64)
    assert kept.trusted(ask, 3).tolist() == [False] * 5
    assert kept.trusted(ask, 4).tolist() == [False, True, False, False, False]
    assert kept.trusted(ask, 5).tolist() == [True, True, False, False, True]
    assert kept.trusted(ask, 10_000).tolist() == [True, True, False, False, True]
    assert kept.trusted(ask, -1).tolist() == [False] * 5
    far = Kept.of(Visited.from_layers([np.array([1], dtype=np.uint64), np.array([2], dtype=np.uint64)], 400), None)  # type: ignore[arg-type]
    assert far is not None and far.slack.tolist() == [NEVER]  # 399 does not fit: never trusted
    assert far.trusted(np.array([2], dtype=np.uint64), 10_000).tolist() == [False]


def test_a_kept_with_too_small_a_bound_changes_the_layers():
    """What the per-state test guards.  Decisions of a search with bound 36 handed to one with
    bound 32: Lemma KR trusts a state of layer i met at depth t only if 36 - i <= 32 - t (rare),
    and the layers are the search's.  The same states with their slack understated by 4 (as if
    the earlier bound had been 32: the test then passes at t <= i) make the later search keep
    states whose h exceeds 32 - t, so its layers are not the search's.  (With the climb's larger
    bounds the states come back no deeper than before, where both pass: the random test above
    takes any two bounds.)"""
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    first = solve(inst, "rankbfs", upper_bound=36, heuristic="lmcut", workers=1)
    honest = Kept.of(first.witness.layers, inst)
    assert honest is not None
    understated = np.maximum(honest.slack.astype(np.int64) - 4, 0).astype(np.uint8)
    forged = Kept(honest.ranks, understated, 32, "lmcut", honest.symmetry, inst)
    plain = solve(inst, "rankbfs", upper_bound=32, heuristic="lmcut", workers=1)
    _same_search(plain, solve(inst, "rankbfs", upper_bound=32, heuristic="lmcut", workers=1, kept=honest))
    wrong = solve(inst, "rankbfs", upper_bound=32, heuristic="lmcut", workers=1, kept=forged)
    assert wrong.statistics.states > plain.statistics.states
    assert _layers(wrong) != _layers(plain)


def test_kept_decisions_of_another_h_instance_or_exchange_are_not_used():
    """Lemma KR needs the same h on the same states: decisions of a fill-h search (h_fill <= h_lm:
    kept by fill proves nothing of h_lm), of another instance, or handed to worker processes are
    ignored, and the answer says why; the layers are the search's."""
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    fill = Kept.of(solve(inst, "rankbfs", upper_bound=35, workers=1).witness.layers, inst)
    plain = solve(inst, "rankbfs", upper_bound=35, heuristic="lmcut", workers=1)
    got = solve(inst, "rankbfs", upper_bound=35, heuristic="lmcut", workers=1, kept=fill)
    _same_search(plain, got)
    assert "h = fill" in got.stats["kept_before"]["ignored"] and "trusted" not in got.stats["kept_before"]
    other = read_instance(FAMILIES / "vdiag-2-2-nwse.toml")
    mine = Kept.of(solve(inst, "rankbfs", upper_bound=33, heuristic="lmcut", workers=1).witness.layers, inst)
    assert (
        "another instance"
        in solve(other, "rankbfs", upper_bound=24, heuristic="lmcut", workers=1, kept=mine).stats["kept_before"][
            "ignored"
        ]
    )
    two = solve(inst, "rankbfs", upper_bound=35, heuristic="lmcut", workers=2, kept=mine)
    assert "one worker" in two.stats["kept_before"]["ignored"]
    assert two.statistics.states == plain.statistics.states


def _searches(result) -> list[dict]:
    drop = ("cpu_seconds", "trusted")
    return [{k: v for k, v in s.items() if k not in drop} for s in result.stats["plan"]["searches"]]


@pytest.fixture
def one_worker(monkeypatch):
    """The plan's worker count is the machine's idle cores (``plan.idle_cores``); the reuse is for one
    worker, so the tests that expect it fix that count at one (an idle CI machine has two)."""
    monkeypatch.setattr(plans, "idle_cores", lambda: 1)


@pytest.mark.parametrize("name, first", [("vdiag-2-2-swne", 30), ("vdiag-3-2-swne", 31), ("diagonal-4", 13)])
def test_the_climb_with_and_without_reuse(name, first, one_worker):
    """The climb with the reuse on and off (``AutoOptions.reuse``): the same answer, the same
    searches (U, answer, least pruned f, states) and the same last layers; with it on, every search
    after the first took decisions from the one before, with it off none did."""
    inst = read_instance(FAMILIES / f"{name}.toml")
    on = climb(inst, _below(inst, first), None, Limits(), AutoOptions(reuse=True))
    off = climb(inst, _below(inst, first), None, Limits(), AutoOptions(reuse=False))
    assert (on.status, on.length, on.lower_bound) == (off.status, off.length, off.lower_bound)
    assert _searches(on) == _searches(off) and len(_searches(on)) >= 2
    assert _layers(on) == _layers(off)
    assert on.statistics.states == off.statistics.states
    trusted = [s["trusted"] for s in on.stats["plan"]["searches"]]
    assert trusted[0] is None and all(t is not None and t > 0 for t in trusted[1:])
    assert all(s["trusted"] is None for s in off.stats["plan"]["searches"])


def test_the_climb_s_answer_with_reuse_is_certified(tmp_path, one_worker):
    """The climb with the reuse (several searches, the last one optimal): the certificate built
    from the last search's layers is accepted by the checker (Lemma SD: the layers are the search's)."""
    from coinsat.certify import certify_result

    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    got = climb(inst, _below(inst, 32), None, Limits(), AutoOptions())
    assert got.status.value == "optimal" and got.length == 36
    assert [s["trusted"] is not None for s in got.stats["plan"]["searches"]] == [False, True, True]
    summary = certify_result(inst, got, tmp_path).summary()
    assert summary["accepted"] is True, summary


def test_the_climb_with_two_workers_does_not_reuse(monkeypatch):
    """Worker processes build their own spaces, so the climb passes no decisions to them: every
    search's ``trusted`` is None, and the answer is the one-worker climb's."""
    monkeypatch.setattr(plans, "idle_cores", lambda: 2)
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    got = climb(inst, _below(inst, 30), None, Limits(), AutoOptions())
    assert got.status.value == "optimal" and got.length == 36
    assert all(s["trusted"] is None for s in got.stats["plan"]["searches"])


@pytest.mark.parametrize("stop", [LimitReached("time limit"), KeyboardInterrupt()])
@pytest.mark.parametrize("known", [False, True])
def test_a_stop_between_two_searches_keeps_what_is_proven(monkeypatch, one_worker, stop, known):
    """A limit or Ctrl-C while the climb builds the table of Lemma KR (between two searches): the
    answer is ``unknown`` with the lower bound the searches before proved (``feasible`` with the
    verified solution when there is one), and ``stopped`` says why, not an exception."""

    def stopped(*args, **kwargs):
        raise stop

    monkeypatch.setattr(Kept, "of", stopped)
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    sol = find_bound(inst)[0] if known else None
    got = climb(inst, _below(inst, 30, None if sol is None else len(sol)), sol, Limits(), AutoOptions())
    first = got.stats["plan"]["searches"]
    assert len(first) == 1 and first[0]["status"] == "bounded"
    assert got.lower_bound is not None and got.lower_bound >= 31
    assert got.stats["stopped"] == ("interrupted" if isinstance(stop, KeyboardInterrupt) else "time limit")
    assert got.status.value == ("feasible" if known else "unknown")


def test_kept_decisions_of_another_radius_or_group_are_not_used():
    """``Kept.fits`` also refuses the decisions of a perimeter search of another radius (another h)
    and of a search over another symmetry group (other canonical forms); the layers are the search's."""
    inst = read_instance(FAMILIES / "vdiag-2-2-swne.toml")
    r2 = solve(inst, "rankbfs", upper_bound=33, heuristic="lmcut", perimeter=2, workers=1)
    plain = solve(inst, "rankbfs", upper_bound=35, heuristic="lmcut", perimeter=3, workers=1)
    got = solve(
        inst,
        "rankbfs",
        upper_bound=35,
        heuristic="lmcut",
        perimeter=3,
        workers=1,
        kept=Kept.of(r2.witness.layers, inst),
    )
    _same_search(plain, got)
    assert "pruned with h" in got.stats["kept_before"]["ignored"]
    flip = read_instance(FAMILIES / "diagonal-4.toml")
    quotient = solve(flip, "rankbfs", upper_bound=16, workers=1)
    assert quotient.witness.layers.symmetry is not None  # diagonal-4's start and goal share a symmetry
    whole = solve(flip, "rankbfs", upper_bound=18, workers=1, symmetry=False)
    got = solve(flip, "rankbfs", upper_bound=18, workers=1, symmetry=False, kept=Kept.of(quotient.witness.layers, flip))
    _same_search(whole, got)
    assert "symmetry group" in got.stats["kept_before"]["ignored"]
