"""Cross-engine agreement (scripts/crosscheck.py): BFS, SAT and ILP give the same answers.

A fast sample of the script's random instances runs here (the script runs
thousands); any disagreement fails and is written to tests/data/regressions/,
whose files are all replayed.  The comparison rules themselves are checked on
made-up answers, so that a comparator that accepts everything would fail.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.result import Result, Status
from coinsat.solution import Solution

ROOT = Path(__file__).resolve().parent.parent
REGRESSIONS = ROOT / "tests" / "data" / "regressions"


def _load_script():
    spec = importlib.util.spec_from_file_location("crosscheck", ROOT / "scripts" / "crosscheck.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("crosscheck", module)
    spec.loader.exec_module(module)
    return module


cc = _load_script()


def test_engines_come_from_the_registry():
    from coinsat.search.methods import METHODS

    assert "bfs" in cc.engines() and "ilp" in cc.engines()
    assert set(cc.engines()) == {e for e in ("bfs", "spanbfs", "sat", "ilp") if e in METHODS}


SAMPLE = range(40)  # seeds of the fast sample (the script: --n 1000 and more)


@pytest.mark.parametrize("seed", SAMPLE)
def test_engines_agree_on_random_instances(seed):
    inst, horizon = cc.random_instance(random.Random(seed), name=f"crosscheck-{seed}")
    results, problems = cc.check(inst, horizon)
    if problems:
        path = cc.save_regression(inst, horizon, results, problems)
        pytest.fail(f"{'; '.join(problems)} (written to {path})")


def test_sample_covers_the_categories():
    insts = [cc.random_instance(random.Random(s)) for s in range(300)]
    kinds = {i.board.kind for i, _ in insts}
    assert kinds == {"square", "triangular", "graph"}
    assert {i.d for i, _ in insts} == {2, 3}
    assert {i.goal_placement for i, _ in insts} == {"fixed", "translate", "congruent"}
    assert {i.start.is_labeled for i, _ in insts} == {True, False}
    assert any(not i.exact_within(T) for i, T in insts) and any(i.exact_within(T) for i, T in insts)


@pytest.mark.parametrize("path", sorted(REGRESSIONS.glob("*.toml")), ids=lambda p: p.stem)
def test_regression(path):
    inst = read_instance(path)
    horizon = dict(inst.metadata)["max_moves"]
    _, problems = cc.check(inst, horizon)
    assert not problems, problems


# --- the comparison rules on made-up answers ---------------------------------------------

def _inst():
    return make_instance("square", [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (1, 1)])


def _found(status, n, lb):
    return Result(status, "x", Solution.of([(0, 1)] * n), lb)


def test_compare_accepts_agreement_and_rejects_differences():
    inst = _inst()
    opt3 = _found(Status.OPTIMAL, 3, 3)
    assert cc.compare(inst, 5, {"bfs": opt3, "ilp": _found(Status.OPTIMAL, 3, 3)}) == []
    none_b = Result(Status.BOUNDED, "x", None, 6, {"kind": "k", "scope": "horizon"})
    none_u = Result(Status.UNSOLVABLE, "x", None, None, {"kind": "k", "scope": "global"})
    assert cc.compare(inst, 5, {"bfs": none_u, "ilp": none_b}) == []  # both: none within T
    assert cc.compare(inst, 5, {"bfs": opt3, "ilp": _found(Status.OPTIMAL, 4, 4)})
    assert cc.compare(inst, 5, {"bfs": opt3, "ilp": _found(Status.FEASIBLE, 3, 2)})
    assert cc.compare(inst, 5, {"bfs": opt3, "ilp": none_b})
    assert cc.compare(inst, 5, {"bfs": opt3, "ilp": Result(Status.UNKNOWN, "x", None, 0)})


def test_compare_checks_bounds_across_window_semantics():
    tri = make_instance("triangular", [(0, 0), (1, 0), (0, 1)], [(1, 0), (0, 1), (1, 1)], margin=1)
    assert not tri.exact_within(6)
    feas = _found(Status.FEASIBLE, 3, 2)
    # an engine outside the window semantics may be stronger, never contradictory
    assert cc.compare(tri, 6, {"bfs": feas, "sat": _found(Status.OPTIMAL, 3, 3)}) == []
    # a shorter solution than the window's optimum may leave the window: no contradiction
    assert cc.compare(tri, 6, {"bfs": feas, "sat": _found(Status.OPTIMAL, 2, 2)}) == []
    assert cc.compare(tri, 6, {"bfs": feas, "sat": _found(Status.OPTIMAL, 1, 1)})  # below bfs's bound
    assert cc.compare(tri, 6, {"bfs": _found(Status.FEASIBLE, 3, 4), "sat": _found(Status.OPTIMAL, 3, 3)})


def test_a_disagreement_is_saved_and_replayable(tmp_path, monkeypatch):
    monkeypatch.setattr(cc, "REGRESSIONS", tmp_path)
    inst, horizon = cc.random_instance(random.Random(7), name="crosscheck-test")
    results, _ = cc.check(inst, horizon)
    path = cc.save_regression(inst, horizon, results, ["made-up problem"])
    back = read_instance(path)
    meta = dict(back.metadata)
    assert meta["max_moves"] == horizon and meta["problems"] == ["made-up problem"]
    assert set(meta["answers"]) == set(results)
    assert (back.board.coords, back.start, back.goal) == (inst.board.coords, inst.start, inst.goal)
    assert cc.check(back, horizon)[1] == []
