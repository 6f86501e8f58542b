"""``coinsat improve``: never an illegal or longer solution, planted detours removed, honest statuses."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.cli import main
from coinsat.families import vdiag
from coinsat.io.instance_format import read_instance
from coinsat.io.solution_format import result_to_json
from coinsat.result import Status
from coinsat.rules import legal_moves
from coinsat.search.improve import ImproveOptions, exchange, improve, shortcut, static_bound
from coinsat.search.improve import _Puzzle as Puzzle
from coinsat.search.improve import _state as state_of
from coinsat.solution import Solution, verify
from coinsat.solve import solve

from .strategies import instances

FAST = ImproveOptions(lengths=(3, 4, 6), radii=(1, None), stretch_time=0.5, final_time=2.0)


def _walk(instance, rng: random.Random, steps: int) -> Solution:
    """A random walk of legal moves from the start (it may revisit configurations)."""
    config, moves = instance.start, []
    for _ in range(steps):
        legal = legal_moves(instance.board, config, instance.d)
        if not legal:
            break
        mv = rng.choice(legal)
        moves.append(mv)
        config = config.moved(*mv)
    return Solution(tuple(moves))


def _end(instance, walk: Solution):
    config = instance.start
    for mv in walk.moves:
        config = config.moved(*mv)
    return config


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(max_coins=5), st.integers(0, 10**6), st.integers(1, 14))
def test_improve_never_returns_an_illegal_or_longer_solution(base, seed, steps):
    walk = _walk(base, random.Random(seed), steps)
    if not walk.moves:
        return
    instance = replace(base, goal=_end(base, walk))
    result = improve(instance, walk, time_limit=5, options=FAST)
    assert result.solution is not None
    assert verify(instance, result.solution).ok
    assert len(result.solution) <= len(walk)
    exact = solve(instance, "bfs", time_limit=10)
    if exact.status is Status.OPTIMAL:
        assert exact.lower_bound is not None and len(result.solution) >= exact.lower_bound
        if result.status is Status.OPTIMAL:
            assert len(result.solution) == exact.lower_bound
        assert result.lower_bound is not None and result.lower_bound <= exact.lower_bound  # the climb's bounds
    assert result.lower_bound is not None and result.lower_bound <= len(result.solution)


def _detour(instance, config):
    """Two legal moves from ``config`` that come back to it (s -> p, then p -> s)."""
    for mv in legal_moves(instance.board, config, instance.d):
        after = config.moved(*mv)
        back = (mv.dst, mv.src)
        if any(tuple(m) == back for m in legal_moves(instance.board, after, instance.d)):
            return [mv, type(mv)(*back)]
    return None


def test_a_planted_detour_is_removed():
    instance = read_instance("instances/paper/h-to-o.toml")
    best = solve(instance, "bfs")
    assert best.status is Status.OPTIMAL and best.solution is not None
    moves = list(best.solution.moves)
    config = instance.start
    for mv in moves[:2]:
        config = config.moved(*mv)
    detour = _detour(instance, config)
    assert detour is not None
    planted = Solution(tuple(moves[:2] + detour + detour + moves[2:]))
    assert verify(instance, planted).ok and len(planted) == len(moves) + 4
    result = improve(instance, planted, time_limit=20, options=FAST)
    assert result.solution is not None and verify(instance, result.solution).ok
    assert len(result.solution) == len(moves)


def test_shortcut_takes_one_move_for_two_of_the_same_coin():
    instance = read_instance("instances/paper/h-to-o.toml")
    best = solve(instance, "bfs")
    assert best.solution is not None
    labels = instance.start.labels
    puzzle = Puzzle(instance, labels, state_of(instance.start, labels), frozenset({state_of(instance.goal, labels)}))
    # s -> p then p -> q is one move s -> q when legal (lemma P3); plant it where it is
    moves = list(best.solution.moves)
    first = moves[0]
    config = instance.start.moved(*first)
    for mv in legal_moves(instance.board, config, instance.d):
        if mv.src == first.dst and mv.dst != first.src:
            two = [first, mv, type(mv)(mv.dst, first.dst)]
            if verify(instance, Solution(tuple(two + moves[1:]))).ok:
                out = shortcut(puzzle, two + moves[1:])
                assert len(out) <= len(moves) and verify(instance, Solution(tuple(out))).ok
                return
    raise AssertionError("no planted pattern found")


def test_exchange_keeps_solutions_legal_on_constructed_output():
    from coinsat.constructive import construct

    built, result = construct(vdiag(2, 1, "nwse"))
    assert result.solution is not None
    labels = built.start.labels
    puzzle = Puzzle(
        built, labels, state_of(built.start, labels), frozenset(state_of(g, labels) for g in built.goal_set)
    )
    out = exchange(puzzle, list(result.solution.moves))
    assert verify(built, Solution(tuple(out))).ok
    assert len(out) < len(result.solution)  # construct's output has dropped-and-lifted coins


def test_the_whole_stretch_proves_optimality_on_an_exact_window():
    from coinsat.constructive import construct

    built, constructed = construct(vdiag(1, 1, "swne"))
    assert constructed.solution is not None and len(constructed.solution) > 13
    result = improve(built, constructed.solution, time_limit=60, options=FAST)
    # README: V(1,1) -> SW-NE needs 13 moves; the bound comes from spanbfs on the whole puzzle
    assert result.status is Status.OPTIMAL and result.length == 13 and result.lower_bound == 13
    assert static_bound(built) < 13


def test_cli_improve_writes_a_verified_solution(tmp_path, capsys):
    from coinsat.constructive import construct

    instance = vdiag(1, 1, "nwse")
    built, result = construct(instance)
    src = tmp_path / "v11.toml"
    from coinsat.io.instance_format import write_instance

    write_instance(instance, src)
    sol = tmp_path / "built.json"
    sol.write_text(json.dumps(result_to_json(built, result)))
    out, ckpt = tmp_path / "out.json", tmp_path / "ckpt.json"
    code = main(["improve", str(src), str(sol), "--time-limit", "30", "-o", str(out), "--checkpoint", str(ckpt)])
    assert code == 0
    obj = json.loads(out.read_text())
    assert obj["status"] in ("feasible", "optimal") and obj["length"] <= len(result.solution or ())
    assert obj["stopped"] is None  # it ended by itself: null, not an empty reason
    assert main(["verify", str(src), str(out)]) == 0
    assert main(["verify", str(src), str(ckpt)]) == 0
    capsys.readouterr()


def test_cli_improve_local_only_never_searches_the_whole_window(tmp_path, capsys):
    from coinsat.constructive import construct
    from coinsat.io.instance_format import write_instance

    instance = vdiag(2, 2, "swne")
    built, result = construct(instance)
    src, sol = tmp_path / "v22.toml", tmp_path / "built.json"
    write_instance(instance, src)
    sol.write_text(json.dumps(result_to_json(built, result)))
    capsys.readouterr()
    assert main(["improve", str(src), str(sol), "--time-limit", "60", "--progress", "--json"]) == 0
    assert "searching span(start)" in capsys.readouterr().err  # the default climbs: the test can fail
    out = tmp_path / "local.json"
    code = main(["improve", str(src), str(sol), "--time-limit", "8", "--progress", "--local-only", "-o", str(out)])
    assert code in (0, 3)  # the local passes may end before the limit (0) or be stopped by it (3)
    assert "searching span(start)" not in capsys.readouterr().err
    obj = json.loads(out.read_text())
    assert obj["length"] <= len(result.solution or ()) and main(["verify", str(src), str(out)]) == 0


@pytest.mark.parametrize(("text", "message"), [("1,4", "a stretch has >= 2 moves"), ("4,x", "comma-separated")])
def test_cli_improve_refuses_bad_stretch_lengths(tmp_path, capsys, text, message):
    assert main(["improve", "instances/paper/h-to-o.toml", str(tmp_path / "none.json"), "--stretches", text]) == 2
    assert message in capsys.readouterr().err


def test_cli_improve_takes_the_stretch_lengths_given(tmp_path, capsys, monkeypatch):
    from coinsat.constructive import construct
    from coinsat.io.instance_format import write_instance
    from coinsat.search import improve as module

    seen = []
    real = module.stretch_pass

    def spy(puzzle, moves, length, *args, **kwargs):
        seen.append(length)
        return real(puzzle, moves, length, *args, **kwargs)

    monkeypatch.setattr(module, "stretch_pass", spy)
    instance = vdiag(1, 1, "swne")
    built, result = construct(instance)
    src, sol = tmp_path / "v11.toml", tmp_path / "built.json"
    write_instance(instance, src)
    sol.write_text(json.dumps(result_to_json(built, result)))
    code = main(["improve", str(src), str(sol), "--local-only", "--stretches", "5,3,5", "--time-limit", "20", "--json"])
    final = json.loads(capsys.readouterr().out)["length"]
    assert code in (0, 3) and final <= len(result.solution or ())
    # the lengths given, and the whole solution as it stood (a pass always ends with it)
    assert {3, 5} <= set(seen) and all(n in (3, 5) or n >= final for n in seen)


def test_cli_improve_refuses_an_illegal_solution(tmp_path, capsys):
    src = "instances/paper/h-to-o.toml"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"moves": [[[0, 0], [5, 5]]]}))
    assert main(["improve", src, str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "not legal" in err and "Traceback" not in err


def test_the_rankbfs_stretches_improve_what_the_cheap_rewrites_leave():
    from coinsat.constructive import construct

    built, constructed = construct(vdiag(1, 1, "swne"))
    assert constructed.solution is not None
    cheap_only = ImproveOptions(lengths=(8,), radii=(2,), methods=(), final_time=0.0)
    left = improve(built, constructed.solution, time_limit=30, options=cheap_only)
    assert left.solution is not None and len(left.solution) > 13  # the cheap rewrites stop above the optimum
    only_rankbfs = ImproveOptions(lengths=(8, 16), radii=(2,), methods=("rankbfs",), final_time=0.0, probe_share=0)
    result = improve(built, constructed.solution, time_limit=60, options=only_rankbfs)
    assert result.solution is not None and verify(built, result.solution).ok
    assert len(result.solution) < len(left.solution)
    assert any(rule.startswith("stretch") for _, rule, _ in result.stats["steps"])


def test_the_whole_rankbfs_pass_proves_an_optimal_input_optimal():
    from coinsat.constructive import construct

    built, _ = construct(vdiag(1, 1, "swne"))
    optimal = solve(built, "spanbfs")
    assert optimal.status is Status.OPTIMAL and optimal.solution is not None and len(optimal.solution) == 13
    whole_only = ImproveOptions(lengths=(2,), radii=(None,), methods=("rankbfs",), passes=0)
    result = improve(built, optimal.solution, time_limit=60, options=whole_only)
    # nothing to shorten: rankbfs with U = 12 on span(start) runs out of states, which proves 13
    assert result.status is Status.OPTIMAL and result.lower_bound == 13 and result.length == 13
    assert static_bound(built) < 13


def test_the_first_whole_try_comes_right_after_the_cheap_rewrites():
    from coinsat.constructive import construct

    built, constructed = construct(vdiag(1, 1, "swne"))
    assert constructed.solution is not None
    for climb, last in ((True, "-> 13 (climb)"), (False, "-> 13 (radius span)")):
        options = ImproveOptions(probe_share=0.1, climb=climb)
        result = improve(built, constructed.solution, time_limit=60, options=options)
        assert result.status is Status.OPTIMAL and result.length == 13
        rules = [rule for _, rule, _ in result.stats["steps"]]
        first = next(i for i, rule in enumerate(rules) if not rule.startswith(("repeats", "exchange")))
        assert rules[first].endswith(last) and first == len(rules) - 1  # no local pass ran first


def test_the_first_whole_try_takes_at_most_the_local_share():
    import pytest

    from coinsat.errors import UsageError

    with pytest.raises(UsageError):
        ImproveOptions(probe_share=0.6, local_share=0.5)
    with pytest.raises(UsageError):
        ImproveOptions(probe_share=0.3, climb_local_share=0.2)


def test_the_climb_step_grows_the_states_about_the_growth_asked():
    from coinsat.search.improve import ClimbPlan, ClimbStep

    plan = ClimbPlan()
    assert plan.next_horizon(20) == 20  # the first search asks for the lower bound itself
    small = plan.after(ClimbStep(20, None, 21, 50, False), 4.0)
    assert (small.horizon, small.delta) == (20, 2) and small.next_horizon(21) == 22  # too few states: doubles
    # 10,000 -> 80,000 states over 3 units of U: x2 per unit, so x4 is two units
    measured = ClimbPlan(20, 10_000, 4).after(ClimbStep(23, None, 24, 80_000, False), 4.0)
    assert measured.delta == 2 and measured.next_horizon(24) == 25
    slow = ClimbPlan(20, 10_000, 1).after(ClimbStep(21, None, 22, 10_001, False), 4.0)
    assert slow.delta == 2  # nearly flat growth: at most doubled
    steep = ClimbPlan(20, 10_000, 4).after(ClimbStep(21, None, 22, 1_000_000, False), 4.0)
    assert steep.delta == 1
    assert ClimbPlan(30, 10, 8).next_horizon(50) == 50  # never below the proven bound


def test_the_climb_proves_the_optimum_from_below():
    from coinsat.constructive import construct

    built, constructed = construct(vdiag(2, 2, "swne"))
    assert constructed.solution is not None and len(constructed.solution) > 36
    climb_only = ImproveOptions(lengths=(2,), radii=(None,), methods=("rankbfs",), passes=0, probe_share=0.0)
    result = improve(built, constructed.solution, time_limit=120, options=climb_only)
    # README: V(2,2) -> SW-NE needs 36 moves; the climb's last search met the goal at depth 36
    assert result.status is Status.OPTIMAL and result.length == 36 and result.lower_bound == 36
    assert result.solution is not None and verify(built, result.solution).ok
    steps = result.stats["steps"]
    assert steps[-1][1].endswith("-> 36 (climb)") and static_bound(built) < 36
    horizon = int(steps[-1][1].split("U = ")[1].split(" ")[0])
    before = steps[-2][0] if len(steps) > 1 else len(constructed.solution)  # what the cheap rewrites left
    assert 36 <= horizon < before - 1  # from below, not U = best - 1


def test_without_the_climb_the_whole_search_starts_at_the_best_length():
    from coinsat.constructive import construct

    built, constructed = construct(vdiag(1, 1, "swne"))
    assert constructed.solution is not None
    whole_only = ImproveOptions(lengths=(2,), radii=(None,), methods=("rankbfs",), passes=0, probe_share=0.0)
    result = improve(built, constructed.solution, time_limit=60, options=replace(whole_only, climb=False))
    assert result.status is Status.OPTIMAL and result.length == 13
    assert not any(rule.endswith("(climb)") for _, rule, _ in result.stats["steps"])


def test_a_careful_climb_starts_no_step_it_expects_to_be_cut():
    from coinsat.constructive import construct
    from coinsat.limits import Limits
    from coinsat.search.improve import ClimbPlan, climb

    built, constructed = construct(vdiag(1, 1, "swne"))
    assert constructed.solution is not None
    labels = built.start.labels
    puzzle = Puzzle(built, labels, state_of(built.start, labels), frozenset({state_of(built.goal, labels)}))
    moves, seen = list(constructed.solution.moves), []
    slow = ClimbPlan(horizon=10, states=5000, delta=1, seconds=30.0)  # the next step should take ~120 s
    args = (puzzle, moves, lambda: 11, slow, ImproveOptions(), Limits(60.0))
    kept, plan = climb(*args, lambda m, r: seen.append(r), lambda b: seen.append(b), careful=True)
    assert kept == moves and plan == slow and seen == []
    kept, plan = climb(*args, lambda m, r: seen.append(r), lambda b: seen.append(b))  # not careful: it climbs
    assert len(kept) == 13 and seen[-1].endswith("-> 13 (climb)")
