"""The frontier measurements' own logic: budgets, search order and grades.

The scripts under ``scripts/`` make the numbers of ``benchmarks/sat_limits.md``, ``cubes.md``
and the competition manifest from ``lab.sat_limits`` and ``lab.competition``.
Their runs take CPU hours, so these tests pin the parts that decide what a number *means*: a
cube call stops at its CPU budget (shared by the workers) and at the first satisfiable cube,
the search over horizons asks the calls in the documented order, and a timeout under a cap
below 1000 s is never graded "hard".
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from coinsat.certificates.prove.cubes import CubeOutcome, CubeTask
from coinsat.errors import LimitReached
from lab import competition as bench
from lab import sat_limits as limits


def spin_or_model(task: CubeTask) -> CubeOutcome:
    """A stand-in for ``solve_cube``: cube (1,) is 'satisfiable' at once, every other spins."""
    if task.cube == (1,):
        return CubeOutcome(task.index, False, 0.0, 0, 0)
    end = time.process_time() + 30
    while time.process_time() < end:
        pass
    return CubeOutcome(task.index, True, 30.0, 0, 0)


def _tasks(*cubes):
    return [CubeTask(i, "f.cnf", c, f"{i}.drat") for i, c in enumerate(cubes)]


def test_a_cube_call_stops_when_its_workers_together_spend_the_budget():
    t0 = time.perf_counter()
    with pytest.raises(LimitReached):
        limits.BudgetPool(2, 1.0).map(spin_or_model, _tasks((-2,), (-3,)))
    assert time.perf_counter() - t0 < 20  # not the 30 s each worker would spin


def test_a_satisfiable_cube_ends_the_call_at_once():
    t0 = time.perf_counter()
    out = limits.BudgetPool(2, 100.0).map(spin_or_model, _tasks((-2,), (1,)))
    assert [o.index for o in out] == [0, 1]
    assert out[1].unsat is False and out[0].unsat is None
    assert time.perf_counter() - t0 < 20


def test_the_search_starts_after_the_climb_and_goes_up_while_it_proves():
    m = limits.Member("x", Path("x.toml"), 53)
    asked = []

    def call(_m, T, budget):
        asked.append(T)
        return (True if T <= 46 else None), 10.0

    proven, log = limits.search(m, 44, 300.0, call)
    assert proven == 46 and asked == [45, 46, 47]
    assert log[-1].startswith("T = 47: stopped")


def test_the_search_goes_down_until_something_is_proven():
    m = limits.Member("x", Path("x.toml"), 36)
    asked = []

    def call(_m, T, budget):
        asked.append(T)
        return (True if T <= 33 else None), 1.0

    proven, _ = limits.search(m, 35, 300.0, call)
    assert asked == [35, 34, 33] and proven == 33


def _row(answer: str, cpu: float, cap: float) -> dict:
    return {"answer": answer, "cpu_seconds": str(cpu), "cap": str(cap)}


def test_a_timeout_below_a_1000_s_cap_is_not_graded_hard():
    assert bench.grade(_row("timeout", 197, 200), "UNSAT") == "not graded (cap 200 s)"
    assert bench.grade(_row("timeout", 999, 1000), "UNSAT") == "hard"
    assert bench.grade(_row("UNSAT", 150, 1000), "UNSAT") == "medium"
    assert bench.grade(_row("SAT", 5, 1000), "UNSAT") == "MISMATCH"


def test_the_cadical_program_grades_a_file_the_first_solver_left_ungraded():
    rows = {"cadical-pysat": _row("timeout", 197, 200), "cadical-bin": _row("UNSAT", 400, 1000)}
    assert bench.file_grade(rows, "UNSAT") == "medium (by cadical sc2021)"
    rows["cadical-bin"] = _row("timeout", 108, 110)
    assert bench.file_grade(rows, "UNSAT") == "not graded (cap 200 s)"
    rows["cadical-pysat"] = _row("UNSAT", 89, 110)
    assert bench.file_grade(rows, "UNSAT") == "medium"


def test_only_accepted_scale_proofs_give_an_optimum(tmp_path):
    entry = {"check": {"check_ok": True, "claim": "optimal: 73 moves (no solution with <= 72 moves)", "check_cpu": 387}}
    bad = {"check": {"check_ok": False, "claim": "optimal: 40 moves"}}
    path = tmp_path / "proofs.json"
    path.write_text(json.dumps({"a": entry, "b": bad}))
    got = bench.scale_optima(str(path))
    assert set(got) == {"a"} and got["a"][0] == 73
    assert got["a"][1].startswith("layers certificate accepted")


def test_the_climb_child_runs_the_sat_engine_to_the_optimum_minus_one():
    """The climb runs in a child process from a code string: it must still call the engine's
    current contract (a wrong keyword would answer nothing, silently: 'no call answered')."""
    families = Path(__file__).resolve().parent.parent / "instances" / "families"
    proven, cpu, log = limits.climb(limits.Member("v11swne", families / "vdiag-1-1-swne.toml", 13), 60.0)
    assert proven == 12 and "UNSAT" in log[0], log
