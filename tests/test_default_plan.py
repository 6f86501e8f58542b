"""The default (``coinsat solve FILE``, method auto) says its plan before it searches, finds its own
bound, prunes with the h the policy names, and answers what BFS answers (``search/plan.py``).

The bounded path runs where the ranked search is the engine (over 1e8 placements); the tests lower
that threshold so a small puzzle takes it, and compare with BFS."""

from __future__ import annotations

import json

import pytest

from coinsat import solve
from coinsat.cli import main
from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.search import plan as policy

DIAGONAL = "instances/paper/diagonal.toml"  # 4x4, 6 coins, optimum 18; Theorem 2 builds 27 moves, the flip schedule 22
O_TO_H = "instances/paper/o-to-h.toml"  # Theorem 2's hypothesis fails: no construction


@pytest.fixture
def ranked(monkeypatch):
    """Every exact window the goal spans is a ranked-search puzzle (the bounded path)."""
    monkeypatch.setattr(policy, "AUTO_RANK_CONFIGURATIONS", 0)


def test_the_default_announces_its_plan_and_finds_the_optimum_bfs_finds(ranked, capsys):
    bfs = solve(read_instance(DIAGONAL), "bfs")
    assert main(["solve", DIAGONAL, "--progress"]) == 0  # stderr is no terminal here: --progress shows it
    out, err = capsys.readouterr()
    assert err.startswith("coinsat: engine rankbfs, h fill, bound ")
    assert out.startswith(f"diagonal: optimal — {bfs.length} moves")
    assert "  plan: rankbfs, h = fill, upper bound " in out
    assert main(["solve", DIAGONAL, "--json"]) == 0
    out, err = capsys.readouterr()
    obj = json.loads(out)
    assert err == ""  # --json: one object, the plan inside it
    assert obj["status"] == "optimal" and obj["length"] == bfs.length == obj["lower_bound"]
    assert obj["method"] == "auto:rankbfs"
    assert obj["plan"]["engine"] == "rankbfs" and obj["plan"]["heuristic"] == "fill"
    assert obj["plan"]["upper_bound"] >= bfs.length
    assert obj["plan"]["bound_from"].startswith("construct (vschedule) 22, ")  # the shorter construction


def test_the_plan_is_heard_before_the_search_starts(ranked):
    events: list = []
    result = solve(
        read_instance(DIAGONAL),
        announce=lambda p: events.append(("plan", p.engine, p.upper_bound)),
        progress=lambda report: events.append("layer"),
    )
    assert events[0][:2] == ("plan", "rankbfs") and events[0][2] is not None
    assert "layer" in events[1:]
    assert result.status is Status.OPTIMAL and result.stats["upper_bound"] == events[0][2]


def test_the_policy_is_the_one_place_the_plan_comes_from(ranked, monkeypatch):
    """The plan's fields are ``Plan.to_json``'s, its h is ``heuristic_for``'s, and the search prunes
    with that h: change the policy's numbers and the search follows."""
    instance = read_instance(DIAGONAL)
    result = solve(instance)
    plan = result.stats["plan"]
    assert set(plan) == set(policy.Plan("rankbfs", "").to_json())
    assert plan["heuristic"] == policy.heuristic_for(instance, plan["upper_bound"])[0] == result.stats["h"]
    monkeypatch.setattr(policy, "LMCUT_MIN_CELLS", 0)
    monkeypatch.setattr(policy, "FILL_WEAK_RATIO", 1e9)
    monkeypatch.setattr(policy, "LMCUT_MAX_BOUND_RATIO", 1e9)
    lm = solve(instance)
    assert lm.stats["plan"]["heuristic"] == "lmcut" == lm.stats["h"]
    assert lm.status is Status.OPTIMAL and lm.length == result.length


def test_the_h_rule_reads_the_bound_and_the_start():
    """LM-cut on a V member (64 cells, not a flip) with a bound near its optimum (53 on
    V(3,3)->NW-SE, h_lm(start) = 32), the fill h with a loose bound, on a flip, and on a small window."""
    v = read_instance("instances/families/vdiag-3-3-nwse.toml")
    assert policy.start_h(v) == (21, 32)
    assert policy.heuristic_for(v, 53)[0] == "lmcut"
    edge = int(policy.LMCUT_MAX_BOUND_RATIO * 32)
    assert policy.heuristic_for(v, edge)[0] == "lmcut" and policy.heuristic_for(v, edge + 1)[0] == "fill"
    h, why = policy.heuristic_for(v, 206)
    assert h == "fill" and "loose bound" in why
    flip = read_instance("instances/families/diagonal-7.toml")
    assert policy.heuristic_for(flip, 69)[0] == "fill"
    assert policy.heuristic_for(read_instance(DIAGONAL), 18)[0] == "fill"


def test_without_a_construction_the_search_runs_unbounded(ranked):
    bfs = solve(read_instance(O_TO_H), "bfs", screens=False)
    result = solve(read_instance(O_TO_H), screens=False)
    plan = result.stats["plan"]
    assert plan["upper_bound"] is None and plan["heuristic"] is None and "no bound (construct: " in plan["reason"]
    assert result.status is bfs.status and result.length == bfs.length


@pytest.mark.parametrize("horizon", [10, 30])
def test_a_horizon_is_the_bound(ranked, horizon):
    """--max-moves N: the bound is N (nothing constructed); below the optimum the answer is
    'bounded', as BFS's, above it the optimum."""
    bfs = solve(read_instance(DIAGONAL), "bfs", max_moves=horizon)
    result = solve(read_instance(DIAGONAL), max_moves=horizon)
    assert result.stats["plan"]["upper_bound"] == horizon and result.stats["plan"]["bound_from"] == "--max-moves"
    assert result.status is bfs.status and result.lower_bound == bfs.lower_bound and result.length == bfs.length
    assert result.status is (Status.BOUNDED if horizon < 18 else Status.OPTIMAL)


def test_small_puzzles_keep_the_cheap_path():
    """Below the ranked search's threshold the plan is today's engine, with no bound to find; a flip
    of as many placements as vee-2-2 (3.0e7) gets the bounded ranked search (the fill h is weak
    there, and spanbfs was slower)."""
    for path, engine in (("instances/paper/vee-2-2.toml", "spanbfs"), ("instances/paper/h-to-o.toml", "bfs")):
        plan = policy.choose(read_instance(path))
        assert plan.engine == engine and not plan.wants_bound
    flip = read_instance("instances/families/diagonal-6.toml")
    assert policy.fill_weak(flip) and not policy.fill_weak(read_instance("instances/paper/vee-2-2.toml"))
    plan = policy.choose(flip)
    assert plan.engine == "rankbfs" and plan.wants_bound and "fill h weak" in plan.reason


def test_a_limit_leaves_the_bound_s_solution_as_the_answer(ranked):
    """Stopped by the time limit after the bound was found: 'feasible' with that (verified)
    solution and the lower bound the search proved, never 'unknown' (nor 'optimal' unproven)."""
    from coinsat.solution import verify

    instance = read_instance("instances/paper/vee-2-2.toml")  # optimum 24; the search takes seconds
    result = solve(instance, time_limit=1.5)
    if result.stats.get("plan", {}).get("upper_bound") is None:
        pytest.skip("the machine was too slow to find the bound within the limit")
    assert result.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert verify(instance, result.solution).ok and result.lower_bound <= 24 <= result.length
    assert (result.status is Status.OPTIMAL) == (result.lower_bound == result.length == 24)


@pytest.mark.parametrize("limit, why", [({"stall": 1e-9}, "stalled"), ({"cpu_limit": 1e-9}, "CPU limit")])
def test_the_bound_pass_stops_on_cpu_seconds(limit, why):
    """improve's ``stall`` and ``cpu_limit`` (what the plan's bound pass stops on) end the pass with
    the best solution so far, replayed, and say why."""
    from coinsat.constructive import construct
    from coinsat.search.improve import ImproveOptions, improve
    from coinsat.solution import verify

    built, made = construct(read_instance(DIAGONAL))
    result = improve(built, made.solution, options=ImproveOptions(**limit))
    assert result.stats["stopped"] == why
    assert verify(built, result.solution).ok and result.length <= len(made.solution)
    full = improve(built, made.solution, options=ImproveOptions(climb=False))
    assert full.stats["stopped"] == ""


def test_the_bounded_default_s_certificate_is_accepted(ranked, tmp_path, capsys):
    """--certify on the default's bounded search: a layers certificate naming its U and h, which the
    checker accepts again on its own."""
    assert main(["solve", DIAGONAL, "--certify", str(tmp_path / "cert"), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    check = obj["certificate_check"]
    assert check["accepted"] and check["claim"] == f"optimal: {obj['length']} moves (no solution with <= 17 moves)"
    assert f"upper bound {obj['plan']['upper_bound']}" in check["reason"]
    assert main(["check-certificate", DIAGONAL, check["file"]]) == 0
