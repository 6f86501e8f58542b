"""The ILP engine (encodings/ilp.md) against the BFS oracle, its status mapping, its files.

* ILP = BFS (status and length) at a fixed horizon, on random instances of every
  board kind, labeled or not, d in {1, 2, 3}, every goal placement;
* without a horizon (geometric growth, configuration-count cap) on small graphs,
  where "unsolvable" is reachable;
* every optional family (I10-I13) on and off gives the same optimum;
* the backend's mapping of PuLP 3 and PuLP 4 statuses never turns a limit into
  "infeasible", and a tiny time limit never yields bounded/unsolvable;
* LP and MPS files are re-read (PuLP's MPS reader, HiGHS's LP reader) and give
  the same optimum; model sizes match the spec's formulas.
"""

from __future__ import annotations

import json

import pulp
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from coinsat.backends.ilp_backend import SAT, UNKNOWN, UNSAT, classify, run_ilp
from coinsat.cli import main
from coinsat.encode.ilp import Fill, NoOp, build_ilp
from coinsat.errors import DecodeError
from coinsat.export import lp as lp_text
from coinsat.export import mps as mps_text
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.limits import Limits
from coinsat.result import Status
from coinsat.search.bfs import solve_bfs
from coinsat.search.ilp import solve_ilp
from coinsat.search.options import BfsOptions, IlpOptions
from coinsat.solution import verify
from coinsat.theory.reach import configuration_count

from .strategies import instances

NONE = (Status.BOUNDED, Status.UNSOLVABLE)


def none_within(inst, horizon):
    """The statuses that say "no solution within the horizon inside the window": unknown
    too when the window is not exact for the horizon (then nothing global is proven)."""
    return NONE if horizon is None or inst.exact_within(horizon) else NONE + (Status.UNKNOWN,)


def same_answer(ilp, bfs, inst=None, horizon=None):
    """ILP and BFS agree: the same status (bounded ~ unsolvable) and length."""
    none = NONE if inst is None else none_within(inst, horizon)
    if bfs.status in none:
        assert ilp.status in none, (ilp.status, bfs.status)
    else:
        assert (ilp.status, ilp.length, ilp.lower_bound) == (bfs.status, bfs.length, bfs.lower_bound)


@settings(max_examples=40, deadline=None)
@given(instances(max_coins=4), st.integers(0, 5))
def test_ilp_equals_bfs_at_a_horizon(inst, horizon):
    bfs = solve_bfs(inst, max_moves=horizon)
    ilp = solve_ilp(inst, max_moves=horizon)
    same_answer(ilp, bfs, inst, horizon)
    if ilp.solution is not None:
        assert verify(inst, ilp.solution).ok and ilp.length <= horizon
    if ilp.status is Status.BOUNDED:
        assert ilp.certificate["horizon"] == horizon
        if bfs.status is Status.BOUNDED:
            assert ilp.lower_bound >= bfs.lower_bound  # at least what the search proves
        full = solve_bfs(inst, options=BfsOptions(grow=False))  # some solution (in the window), if any
        if full.solution is not None:
            assert ilp.lower_bound <= full.length


@settings(max_examples=25, deadline=None)
@given(instances(kinds=("graph",), max_coins=3), st.sampled_from(("linear", "geometric")))
def test_ilp_without_horizon_equals_bfs_on_graphs(inst, strategy):
    assume(configuration_count(inst) <= 20)  # the cap N - 1 is the last horizon tried; proving
    # infeasibility at long horizons is slow for MIP solvers (30-40 s at T = 48 on 8 cells)
    bfs = solve_bfs(inst)
    ilp = solve_ilp(inst, options=IlpOptions(strategy=strategy))
    assert ilp.status == bfs.status
    assert ilp.length == bfs.length
    if ilp.status is Status.UNSOLVABLE:
        assert ilp.certificate["scope"] == "global" and ilp.lower_bound is None


@settings(max_examples=25, deadline=None)
@given(instances(kinds=("square", "triangular"), max_coins=4))
def test_ilp_without_horizon_on_lattices(inst):
    bfs = solve_bfs(inst, max_moves=6)  # both grow inexact windows: global answers
    ilp = solve_ilp(inst, options=IlpOptions(max_horizon=6))
    if bfs.solution is not None:
        assert (ilp.status, ilp.length, ilp.lower_bound) == (bfs.status, bfs.length, bfs.lower_bound)
    else:
        assert bfs.status in NONE and ilp.status in NONE


OPTION_SETS = [
    dict(noop_last=False, windows=False, no_return=False),
    dict(noop_last=False),
    dict(windows=False),
    dict(no_return=False),
    dict(counts=True),
]


@settings(max_examples=20, deadline=None)
@given(instances(max_coins=4), st.sampled_from(OPTION_SETS))
def test_optional_families_keep_the_optimum(inst, options):
    on = solve_ilp(inst, max_moves=4)
    off = solve_ilp(inst, max_moves=4, options=IlpOptions(**options))
    assert (on.status, on.length) == (off.status, off.length)


# --- statuses ------------------------------------------------------------------------------

# PuLP 3: (status, sol_status) -> what coinsat may conclude
PULP3 = {
    (1, 1): (SAT, True),  # optimal
    (1, 2): (SAT, False),  # time limit with an incumbent (HiGHS and CBC report status 1!)
    (0, 0): (UNKNOWN, False),  # time limit, no incumbent
    (-1, -1): (UNSAT, False),  # proven infeasible
    (-1, 0): (UNSAT, False),  # CBC "Integer infeasible"
    (-2, -2): (UNKNOWN, False),
    (-3, 0): (UNKNOWN, False),
}
# PuLP 4: (LpSolveStatus, has_solution)
PULP4 = {
    (1, True): (SAT, True),
    (-4, True): (SAT, False),  # TimeLimit with an incumbent
    (-4, False): (UNKNOWN, False),
    (-7, True): (SAT, False),  # GapLimit
    (-10, False): (UNKNOWN, False),
    (0, False): (UNKNOWN, False),
    (-3, False): (UNKNOWN, False),  # Undefined (HiGHS "unbounded or infeasible")
    (-1, False): (UNSAT, False),
}


@pytest.mark.parametrize("pair", sorted(PULP3))
def test_pulp3_status_mapping(pair):
    assert classify(pair[0], sol_status=pair[1]) == PULP3[pair]


@pytest.mark.parametrize("pair", sorted(PULP4))
def test_pulp4_status_mapping(pair):
    assert classify(pair[0], has_solution=pair[1]) == PULP4[pair]


@pytest.mark.parametrize("status", range(-12, 2))
def test_only_infeasible_means_unsat(status):
    for has in (True, False):
        outcome, _ = classify(status, has_solution=has)
        assert (outcome == UNSAT) == (status == -1 and not has)
    for sol in (-2, -1, 0, 1, 2):
        outcome, optimal = classify(status, sol_status=sol)
        if outcome == UNSAT:
            assert status == -1 and sol in (-1, 0, -2)
        assert not optimal or (status, sol) == (1, 1)


def test_tiny_time_limit_is_never_a_no():
    inst = read_instance("instances/paper/diagonal.toml")  # needs 18 moves; far beyond 0.05 s
    model = build_ilp(inst, 17)  # infeasible, but not provably so in 0.05 s
    answer = run_ilp(model.problem, time_limit=0.05)
    assert answer.outcome in (SAT, UNKNOWN) or answer.seconds < 0.05
    for T in (None, 17, 18):
        r = solve_ilp(inst, limits=Limits(time_limit=0.05), max_moves=T)
        assert r.status in (Status.UNKNOWN, Status.FEASIBLE), r.status
        assert r.lower_bound <= 18


# --- models, files -------------------------------------------------------------------------

SWAP_START = {(0, 0): "A", (1, 0): "B", (2, 0): "A", (0, 1): "A", (1, 1): "A", (1, 2): "B"}
SWAP_GOAL = {(0, 0): "A", (1, 0): "A", (2, 0): "A", (0, 1): "B", (1, 1): "A", (1, 2): "B"}


def swap_instance(labeled=True, **kw):
    """Two labels on a 3x3 span; optimum 3 (fixed), 2 (congruent: 8 placements)."""
    if not labeled:
        return make_instance("square", list(SWAP_START), list(SWAP_GOAL), **kw)
    return make_instance("square", SWAP_START, SWAP_GOAL, **kw)


@pytest.mark.parametrize("placement", ["fixed", "translate", "congruent"])
def test_lp_and_mps_files_reread_give_the_same_optimum(placement, tmp_path):
    import highspy

    inst = swap_instance(goal_placement=placement)
    want = solve_bfs(inst)
    assert want.status is Status.OPTIMAL
    T = want.length + 1
    _write(tmp_path / "m.mps", mps_text(inst, T))
    _write(tmp_path / "m.lp", lp_text(inst, T))
    _, prob = pulp.LpProblem.fromMPS(str(tmp_path / "m.mps"))
    answer = run_ilp(prob)
    assert answer.outcome == SAT and answer.optimal and round(answer.objective) == want.length
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(tmp_path / "m.lp")) == highspy.HighsStatus.kOk
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert round(h.getInfo().objective_function_value) == want.length
    # one horizon short: infeasible in both formats
    _, prob = pulp.LpProblem.fromMPS(_write(tmp_path / "s.mps", mps_text(inst, want.length - 1)))
    assert run_ilp(prob).outcome == UNSAT


def _write(path, text):
    path.write_text(text)
    return str(path)


def test_files_carry_the_symbol_table():
    inst = swap_instance()
    lp, mps = lp_text(inst, 2), mps_text(inst, 2)
    for text, marker in ((lp, "\\ "), (mps, "* ")):
        assert f"{marker}cell 3 = (0, 1)" in text and f"{marker}label 1 = B" in text
    assert "f_4_1_2" in lp and "z_0" not in lp
    assert "z_7" in lp_text(swap_instance(goal_placement="congruent"), 2)


@pytest.mark.parametrize("labeled", [False, True])
def test_model_sizes_match_the_spec(labeled):
    inst = swap_instance(labeled, goal_placement="congruent")
    n, k, m, T = inst.board.size, len(inst.labels), len(inst.goal_configurations), 3
    model = build_ilp(inst, T, windows=False)
    assert m >= 2
    assert model.size["variables"] == k * n * (T + 1) + 2 * k * n * T + T + m
    rows = k * n * T + 2 * T + (k * T + n * T if k >= 2 else 0) + 2 * n * T + (T - 1) + n * (T - 1) + k * n + 1
    assert model.size["constraints"] == rows


def test_horizon_zero():
    inst = swap_instance()
    assert solve_ilp(inst, max_moves=0).status is Status.BOUNDED
    same = make_instance("square", [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (0, 1)])
    r = solve_ilp(same, max_moves=0)
    assert (r.status, r.length) == (Status.OPTIMAL, 0)
    assert solve_ilp(same).length == 0


def test_decoder_rejects_fractional_values():
    inst = swap_instance()
    model = build_ilp(inst, 3)
    assert run_ilp(model.problem).outcome == SAT
    assert len(model.decode()) == solve_bfs(inst).length
    step = next(t for t in range(1, 4) if not model.value(NoOp(t)))
    key = next(k for k in model.variables if isinstance(k, Fill) and k.t == step and model.value(k))
    model.variables[key].varValue = 0.5
    with pytest.raises(DecodeError):
        model.decode()


def test_unknown_option_is_a_usage_error():
    from coinsat.errors import UsageError
    from coinsat.search.methods import run

    with pytest.raises(UsageError):
        run("ilp", swap_instance(), bogus=1)
    with pytest.raises(UsageError):
        solve_ilp(swap_instance(), options=IlpOptions(solver="gurobi"))
    with pytest.raises(UsageError):
        solve_ilp(swap_instance(), options=IlpOptions(strategy="random"))


def test_cli_solve_and_export(capsys, tmp_path):
    assert main(["solve", "instances/paper/h-to-o.toml", "--method", "ilp", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)  # nothing but the JSON object on stdout
    assert (obj["status"], obj["length"], obj["lower_bound"], obj["method"]) == ("optimal", 4, 4, "ilp")
    out = tmp_path / "h.mps"
    assert main(["export", "instances/paper/h-to-o.toml", "--horizon", "4", "--format", "mps", "-o", str(out)]) == 0
    _, prob = pulp.LpProblem.fromMPS(str(out))
    answer = run_ilp(prob)
    assert answer.optimal and round(answer.objective) == 4
    assert main(["export", "instances/paper/h-to-o.toml", "--format", "lp"]) == 2


def test_cbc_when_available_agrees():
    from coinsat.backends.ilp_backend import make_solver
    from coinsat.errors import UsageError

    try:
        make_solver("cbc")
    except UsageError:
        pytest.skip("no CBC (PuLP 4 bundles none; no cbc program on PATH)")
    for placement in ("fixed", "congruent"):
        inst = swap_instance(goal_placement=placement)
        want = solve_bfs(inst)
        got = solve_ilp(inst, options=IlpOptions(solver="cbc"))
        assert (got.status, got.length) == (want.status, want.length)
        assert got.stats["solver"] == "cbc"


def test_a_limit_incumbent_is_feasible_with_the_proven_bound():
    """The path of a time-limited solve that returned an incumbent (hard to provoke on
    purpose): the incumbent is verified and reported feasible; the solver's dual bound b
    proves only "no solution with <= min(T, ceil(b) - 1) moves"."""
    from coinsat.backends.ilp_backend import IlpAnswer
    from coinsat.limits import Limits
    from coinsat.search.ilp import _Run

    inst = swap_instance()  # optimum 3
    T = 5
    model = build_ilp(inst, T)
    assert run_ilp(model.problem).optimal
    for bound, lb in ((None, 0), (1.0, 1), (2.5, 3), (9.0, 3)):
        run = _Run(inst, {}, Limits())
        r = run.found(IlpAnswer(SAT, False, 3.0, bound, "highs", "TimeLimit", 1.0), model, T)
        assert r.length == 3 and verify(inst, r.solution).ok
        assert r.lower_bound == lb  # capped by the solution itself, never above it
        # optimal only when the bound proves it (ceil(2.5) = 3 = the length)
        assert r.status is (Status.OPTIMAL if lb == 3 else Status.FEASIBLE)


# --- grown windows, limits -----------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(instances(kinds=("triangular",), max_coins=3), st.integers(1, 3))
def test_ilp_on_triangular_boards_answers_as_sat(inst, horizon):
    """The window grows to each horizon (search/windows.py): global answers, SAT's."""
    from coinsat.solve import solve

    want = solve(inst, "sat", max_moves=horizon)
    got = solve(inst, "ilp", max_moves=horizon)
    assert (got.status, got.length, got.lower_bound) == (want.status, want.length, want.lower_bound)
    if got.solution is not None:
        assert verify(inst, got.solution).ok


def test_ilp_proves_a_paper_triangular_optimum():
    inst = read_instance("instances/paper/upside-down.toml")
    r = solve_ilp(inst)
    assert (r.status, r.length, r.lower_bound) == (Status.OPTIMAL, 3, 3) and r.stats["grown"]


def test_a_memory_limit_gives_unknown_with_a_lower_bound():
    from coinsat.limits import rss_bytes

    inst = read_instance("instances/paper/diagonal.toml")  # 18 moves
    r = solve_ilp(inst, limits=Limits(memory_limit=rss_bytes() // 2))
    assert r.status is Status.UNKNOWN and r.solution is None
    assert r.stats["stopped"] == "memory limit"
    assert 0 <= r.lower_bound <= 18


def test_the_model_build_polls_the_budget():
    """Report A153: the build of diagonal k = 20 took 1.8 s under a 1 s limit."""
    from coinsat.errors import LimitReached
    from coinsat.families import diagonal_flip
    from coinsat.limits import Limits, enforced

    inst = diagonal_flip(20)
    with pytest.raises(LimitReached):
        with enforced(Limits(time_limit=1e-6)):
            build_ilp(inst, 40)
    r = solve_ilp(inst, limits=Limits(time_limit=0.2))
    assert r.status is Status.UNKNOWN and r.stats["stopped"] == "time limit"
    assert r.stats["horizons"] == []  # stopped inside the first build, not after it
