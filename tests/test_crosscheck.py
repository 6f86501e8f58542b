"""Cross-engine agreement (lab.agreement, scripts/crosscheck.py): the engines give the same answers.

A fast sample of the script's random instances runs here (the script runs
10,000 in parallel; benchmarks/crosscheck.md); any disagreement fails and is
written to tests/data/crosscheck_failures/, whose files (and the older ones in
tests/data/regressions/) are all replayed.  The comparison rules themselves are
checked on made-up answers, so that a comparator that accepts everything would
fail, and the supervisor's hard limit on a worker that stalls is exercised.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from coinsat.families import random_case
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.result import Evidence, Result, Status
from coinsat.solution import Solution
from lab import agreement as ag
from lab import crosscheck as cc

ROOT = Path(__file__).resolve().parent.parent
FAILURES = ROOT / "tests" / "data" / "crosscheck_failures"
SAVED = sorted((ROOT / "tests" / "data" / "regressions").glob("*.toml")) + sorted(
    (ROOT / "tests" / "data" / "crosscheck_failures").glob("*.toml")
)


LIMIT = 20.0  # seconds per engine here: generous, the sample instances take well under one


def test_engines_come_from_the_registry():
    from coinsat.search.methods import METHODS

    assert "bfs" in ag.engines() and "ilp" in ag.engines()
    from coinsat.backends.abc import abc_binary

    mc = ("pdr", "kind") if abc_binary() is not None else ()
    base = {e for e in ("bfs", "spanbfs", "rankbfs", "sat", "ilp", *mc) if e in METHODS}
    assert set(ag.engines()) == base | {"rankbfs-forced", "rankbfs-lmcut"}


SAMPLE = range(24)  # seeds of the fast sample


@pytest.mark.parametrize("seed", SAMPLE)
def test_engines_agree_on_random_instances(seed):
    case = random_case(seed)
    results, problems = ag.check(case.instance, case.horizon, time_limit=LIMIT)
    if problems:
        path = ag.save_failure(case.instance, case.horizon, results, problems, FAILURES, seed=seed)
        pytest.fail(f"{'; '.join(problems)} (written to {path})")


def test_random_cases_are_reproducible_and_cover_the_mix():
    cases = [random_case(s) for s in range(400)]
    again = random_case(17)
    assert (again.instance.start, again.instance.goal, again.horizon) == (
        cases[17].instance.start,
        cases[17].instance.goal,
        cases[17].horizon,
    )
    columns = list(zip(*(c.category for c in cases)))
    assert set(columns[0]) == {"square", "triangular", "graph"}
    assert set(columns[1]) == {"labeled", "unlabeled"}
    assert set(columns[2]) == {"d=1", "d=2", "d=3"}
    assert set(columns[3]) == {"fixed", "translate", "congruent"}
    assert set(columns[4]) == {"walk", "random"}
    exact = [c.instance.exact_within(c.horizon) for c in cases]
    assert any(exact) and not all(exact)
    assert max(c.horizon for c in cases if c.goal_source == "walk") >= 8


def test_a_walk_goal_is_solvable_within_the_horizon():
    walks = [c for c in map(random_case, range(60)) if c.goal_source == "walk"][:8]
    assert walks
    for case in walks:
        results, problems = ag.check(case.instance, case.horizon, ("bfs", "sat"), time_limit=LIMIT)
        assert not problems, problems
        assert all(r.status in ag.FOUND for r in results.values() if r.method != "screen"), {
            e: ag.describe(r) for e, r in results.items()
        }


@pytest.mark.parametrize("path", SAVED, ids=lambda p: p.stem)
def test_saved_disagreement(path):
    assert not ag.check_file(path, time_limit=LIMIT)


# --- the comparison rules on made-up answers ---------------------------------------------


def _inst():
    return make_instance("square", [(0, 0), (1, 0), (0, 1)], [(1, 0), (0, 1), (1, 1)])


def _tri():
    inst = make_instance("triangular", [(0, 0), (1, 0), (0, 1)], [(1, 0), (0, 1), (1, 1)], margin=1)
    assert not inst.exact_within(6)
    return inst


def _solution(inst, n):
    """n legal moves, back and forth (0, 0) <-> (1, 1): on the goal when n is odd."""
    a, b = inst.board.cell((0, 0)), inst.board.cell((1, 1))
    return Solution.of([(a, b), (b, a)] * (n // 2) + [(a, b)] * (n % 2))


def _found(inst, status, n, lb, **stats):
    return Result(status=status, method="x", solution=_solution(inst, n), lower_bound=lb, stats=stats)


NONE_BOUNDED = Result(status=Status.BOUNDED, method="x", lower_bound=6, certificate=Evidence("k", "horizon"))
NONE_GLOBAL = Result(status=Status.UNSOLVABLE, method="x", lower_bound=None, certificate=Evidence("k", "global"))


def test_compare_accepts_agreement_and_rejects_differences():
    inst = _inst()
    opt1 = _found(inst, Status.OPTIMAL, 1, 1)
    assert ag.compare(inst, 5, {"bfs": opt1, "ilp": _found(inst, Status.OPTIMAL, 1, 1)}) == []
    assert ag.compare(inst, 5, {"bfs": NONE_GLOBAL, "ilp": NONE_BOUNDED}) == []  # both: none within T
    assert ag.compare(inst, 5, {"bfs": opt1, "ilp": _found(inst, Status.OPTIMAL, 3, 3)})
    assert ag.compare(inst, 5, {"bfs": _found(inst, Status.OPTIMAL, 3, 3), "ilp": opt1})
    assert ag.compare(inst, 5, {"bfs": opt1, "ilp": NONE_BOUNDED})
    assert ag.compare(inst, 5, {"bfs": opt1, "ilp": NONE_GLOBAL})
    assert ag.compare(inst, 5, {"bfs": _found(inst, Status.FEASIBLE, 3, 1), "ilp": opt1}) == []


def test_unknown_is_no_disagreement_but_strict_flags_an_early_one():
    inst = _inst()
    opt1 = _found(inst, Status.OPTIMAL, 1, 1)
    unknown = Result(status=Status.UNKNOWN, method="x", lower_bound=0, seconds=0.01)
    assert ag.compare(inst, 5, {"bfs": opt1, "ilp": unknown}) == []
    assert ag.compare(inst, 5, {"bfs": opt1, "ilp": unknown}, strict=("ilp",), time_limit=10)
    late = Result(status=Status.UNKNOWN, method="x", lower_bound=0, seconds=9.9)
    assert ag.compare(inst, 5, {"bfs": opt1, "ilp": late}, strict=("ilp",), time_limit=10) == []
    assert ag.compare(inst, 5, {"bfs": unknown, "ilp": unknown}, strict=("ilp",), time_limit=10) == []
    assert ag.compare(
        inst, 5, {"bfs": Result(status=Status.UNKNOWN, method="x", lower_bound=2), "sat": opt1}
    )  # bound 2 > 1


def test_every_solution_is_replayed_by_the_rules():
    inst = _inst()
    illegal = Result(
        status=Status.OPTIMAL,
        method="x",
        solution=Solution.of([(inst.board.cell((1, 0)), inst.board.cell((1, 1)))]),
        lower_bound=1,
    )
    wrong_end = _found(inst, Status.FEASIBLE, 2, 0)  # legal moves, back at the start
    assert any("rules.py" in p for p in ag.compare(inst, 5, {"bfs": illegal}))
    assert any("rules.py" in p for p in ag.compare(inst, 5, {"bfs": wrong_end}))


def test_window_answers_are_compared_only_with_answers_about_the_window():
    tri = _tri()
    win3 = _found(tri, Status.FEASIBLE, 3, 2, window_optimal=True)
    # an answer with global scope may be stronger than a window's, never contradictory
    assert ag.compare(tri, 6, {"bfs": win3, "sat": _found(tri, Status.OPTIMAL, 3, 3)}) == []
    assert ag.compare(tri, 6, {"bfs": win3, "sat": _found(tri, Status.FEASIBLE, 5, 2)}) == []
    # two answers about the same window must agree on its optimum
    assert ag.compare(tri, 6, {"bfs": win3, "ilp": _found(tri, Status.FEASIBLE, 5, 2, window_optimal=True)})
    # the window's optimum is no longer than any solution (all of them lie in the window)
    assert ag.compare(tri, 6, {"bfs": win3, "sat": _found(tri, Status.OPTIMAL, 1, 1)})
    # "no solution in the window" contradicts any solution
    no_window = Result(status=Status.UNSOLVABLE, method="x", lower_bound=2, certificate=Evidence("k", "window"))
    assert ag.compare(tri, 6, {"bfs": no_window, "sat": _found(tri, Status.OPTIMAL, 3, 3)})
    assert ag.compare(tri, 6, {"bfs": no_window, "sat": NONE_BOUNDED}) == []
    # a lower bound above another's solution is a contradiction whatever the scopes
    assert ag.compare(tri, 6, {"bfs": _found(tri, Status.FEASIBLE, 3, 4), "sat": _found(tri, Status.OPTIMAL, 3, 3)})
    # strict: the named engines must decide globally where another engine did
    assert ag.compare(tri, 6, {"bfs": win3, "sat": _found(tri, Status.OPTIMAL, 3, 3)}, strict=("bfs",))
    assert ag.compare(tri, 6, {"bfs": win3, "sat": _found(tri, Status.OPTIMAL, 3, 3)}, strict=("sat",)) == []


def test_a_disagreement_is_saved_and_replayable(tmp_path):
    case = random_case(7)
    results, _ = ag.check(case.instance, case.horizon, time_limit=LIMIT)
    path = ag.save_failure(case.instance, case.horizon, results, ["made-up problem"], tmp_path, seed=7)
    back = read_instance(path)
    meta = dict(back.metadata)
    assert meta["max_moves"] == case.horizon and meta["problems"] == ["made-up problem"] and meta["seed"] == 7
    assert set(meta["answers"]) == set(results)
    # seed 7 has a triangular coin at x = -1: saved translated by one cell (the picture
    # writer cannot draw x < 0), the same puzzle
    assert meta["translated_by"] == [1, 0]

    def coins(inst, dx=0):
        return [
            sorted(((inst.board.coords[c][0] + dx, inst.board.coords[c][1]), lab) for c, lab in conf.coins)
            for conf in (inst.start, inst.goal)
        ]

    assert coins(back) == coins(case.instance, dx=1)
    assert (back.d, back.goal_placement, back.margin) == (case.instance.d, "fixed", case.instance.margin)
    assert ag.check_file(path, time_limit=LIMIT) == []


# --- the parallel campaign ------------------------------------------------------------------


def test_campaign_runs_every_seed_in_parallel_and_reports(tmp_path):
    """The script, run as a user runs it (its logic is lab.crosscheck)."""
    report = tmp_path / "r.md"
    args = ["--n", "4", "--seed", "3", "--workers", "2", "--time-limit", str(LIMIT)]
    args += ["--failures", str(tmp_path), "--report", str(report), "--progress", "0"]
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "crosscheck.py"), *args], capture_output=True, text=True)
    text = report.read_text()
    assert p.returncode == 0 and "instances: 4; workers: 2" in text and "**disagreements: 0**" in text
    assert "--workers 2" in text  # the exact command


def _sleeping_case(seed, settings):
    time.sleep(30)


def test_a_stalled_worker_is_killed_at_the_hard_limit(monkeypatch):
    monkeypatch.setattr(cc, "run_case", _sleeping_case)  # the forked workers inherit it
    settings = cc.Settings(("bfs",), 1.0, save=False)
    t0 = time.perf_counter()
    records = list(cc.campaign([1, 2, 3], settings, workers=2, hard_limit=0.5))
    assert sorted(r.seed for r in records) == [1, 2, 3] and all(r.stalled for r in records)
    assert time.perf_counter() - t0 < 20
