"""The SAT horizon loop (search/driver.py) against the BFS oracle, and its honest statuses."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from coinsat.encode.options import DEFAULT_OPTIONS, EncodingOptions
from coinsat.errors import UsageError
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.limits import Limits
from coinsat.result import Status
from coinsat.search.bfs import solve_bfs
from coinsat.search.driver import STRATEGIES, solve_sat, widen
from coinsat.search.options import SatOptions
from coinsat.solution import verify
from coinsat.solve import solve
from coinsat.theory.reach import exact_for, lower_bound

from .strategies import instances
from .test_sat import walked

LIMIT = 7


def exact_kinds():
    return st.one_of(walked(kinds=("square", "graph")), instances(kinds=("square", "graph"), max_coins=4))


@settings(max_examples=40, deadline=None)
@given(exact_kinds(), st.sampled_from(STRATEGIES), st.integers(1, 3))
def test_sat_equals_bfs_on_exact_windows(inst, strategy, stride):
    assume(inst.board.exact)
    want = solve_bfs(inst, max_moves=LIMIT)
    got = solve_sat(inst, max_moves=LIMIT, options=SatOptions(strategy=strategy, stride=stride))
    if want.solution is not None:
        assert got.status is Status.OPTIMAL and want.status is Status.OPTIMAL
        assert got.length == want.length == got.lower_bound
        assert verify(inst, got.solution).ok
    else:
        assert got.solution is None
        assert got.status in (Status.BOUNDED, Status.UNSOLVABLE)
        if got.status is Status.UNSOLVABLE:
            assert solve_bfs(inst).status is Status.UNSOLVABLE  # without the move limit
            assert got.certificate["scope"] == "global"
        else:
            assert got.lower_bound == LIMIT + 1


@settings(max_examples=25, deadline=None)
@given(st.one_of(walked(kinds=("triangular",), max_coins=4), walked(kinds=("square",), max_coins=4, d=1)))
def test_inexact_windows_arewidened_not_trusted(inst):
    want = solve_bfs(inst, max_moves=LIMIT)
    got = solve_sat(inst, max_moves=LIMIT)
    if got.solution is not None:
        assert verify(inst, got.solution).ok
        if want.solution is not None:
            assert got.length <= want.length  # the wider window may hold a shorter solution
        if got.status is Status.OPTIMAL:
            assert got.lower_bound == got.length
    if want.status is Status.OPTIMAL:
        assert got.status is Status.OPTIMAL and got.length == want.length
    # every "no" the driver reports is global: the widened window was exact for it
    assert got.lower_bound is None or got.lower_bound <= (want.length or LIMIT + 1) or want.solution is None


@settings(max_examples=25, deadline=None)
@given(walked(max_coins=4))
def test_options_off_give_the_same_optimum(inst):
    a = solve_sat(inst, max_moves=LIMIT)
    b = solve_sat(inst, max_moves=LIMIT, options=SatOptions(encoding=EncodingOptions.plain()))
    c = solve_sat(inst, max_moves=LIMIT, options=SatOptions(encoding=EncodingOptions.plain().with_(noop=False)))
    assert a.status == b.status == c.status
    assert a.length == b.length == c.length
    assert a.lower_bound == b.lower_bound == c.lower_bound


@settings(max_examples=20, deadline=None)
@given(walked(kinds=("square", "graph"), max_coins=4))
def test_max_moves_below_the_optimum_is_bounded(inst):
    assume(inst.board.exact)
    want = solve_bfs(inst, max_moves=LIMIT)
    if want.solution is None or len(want.solution) == 0:
        return
    n = len(want.solution)
    r = solve_sat(inst, max_moves=n - 1)
    assert r.status is Status.BOUNDED and r.lower_bound == n
    assert r.certificate["scope"] == "horizon"


@settings(max_examples=20, deadline=None)
@given(walked(max_coins=4))
def test_lower_bound_is_a_lower_bound(inst):
    want = solve_bfs(inst, max_moves=LIMIT)
    lb = lower_bound(inst)
    if want.status is Status.OPTIMAL:
        assert lb is not None and lb <= want.length


def test_time_limit_gives_unknown_with_proven_bound():
    inst = read_instance("instances/paper/vee-2-2.toml")
    r = solve_sat(inst, limits=Limits(time_limit=0.5))
    assert r.status in (Status.UNKNOWN, Status.OPTIMAL)
    if r.status is Status.UNKNOWN:
        assert r.solution is None and 0 < r.lower_bound <= 24


def test_time_limited_search_is_deterministic():
    inst = read_instance("instances/paper/diagonal.toml")
    a, b = solve_sat(inst, limits=Limits(time_limit=600)), solve_sat(inst, limits=Limits(time_limit=600))
    assert a.stats["conflicts"] == b.stats["conflicts"] and a.length == b.length == 18


def test_progress_reports_every_horizon():
    inst = read_instance("instances/paper/h-to-o.toml")
    seen = []
    r = solve_sat(inst, options=SatOptions(progress=seen.append))
    assert r.status is Status.OPTIMAL
    assert [h.horizon for h in seen] == [h["horizon"] for h in r.stats["horizons"]]
    assert seen[-1].outcome == "SAT" and seen[-1].length == r.length


def test_no_noop_needs_linear():
    from coinsat.search.methods import run

    inst = read_instance("instances/paper/h-to-o.toml")
    with pytest.raises(UsageError):
        solve_sat(inst, options=SatOptions(encoding=DEFAULT_OPTIONS.with_(noop=False), strategy="geometric"))
    with pytest.raises(UsageError):
        run("sat", inst, bogus=True)
    assert solve_sat(inst, options=SatOptions(encoding=DEFAULT_OPTIONS.with_(noop=False))).length == 4


def testwiden_makes_the_window_exact():
    inst = make_instance(
        "triangular", [(0, 0), (1, 0), (0, 1)], [(3, 0), (4, 0), (3, 1)], goal_placement="fixed", margin=1
    )
    assert not exact_for(inst, 6)
    wide = widen(inst, 6)
    assert exact_for(wide, 6) and wide.board.size > inst.board.size


def test_unsolvable_goal_outside_span():
    inst = read_instance("instances/paper/o-to-h.toml")
    r = solve_sat(inst)
    assert r.status is Status.UNSOLVABLE and r.certificate["scope"] == "global"
    assert r.lower_bound is None


def test_unsolvable_by_completeness_threshold():
    inst = read_instance("instances/paper/zero-extra.toml")  # 84 configurations
    r = solve_sat(inst, options=SatOptions(strategy="geometric"))
    assert r.status is Status.UNSOLVABLE and r.certificate["kind"] == "sat-unsat"


PAPER = sorted(Path("instances/paper").glob("*.toml"))
SLOW = {"vee-2-2", "one-extra"}


@pytest.mark.parametrize(
    "path", [pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem in SLOW else []) for p in PAPER]
)
def test_paper_instances_by_sat(path):
    inst = read_instance(path)
    expected = dict(inst.metadata).get("expected")
    if expected == "unsolvable":
        r = solve_sat(inst, limits=Limits(time_limit=60), max_moves=30)
        assert r.status not in (Status.OPTIMAL, Status.FEASIBLE)
        return
    r = solve(inst, "sat")
    assert r.status is Status.OPTIMAL, r
    assert r.length == inst.known_optimal
    assert verify(inst, r.solution).ok


def test_cli_solve_sat_json(capsys):
    import json

    from coinsat.cli import main

    code = main(
        [
            "solve",
            "instances/paper/swap5-b.toml",
            "--method",
            "sat",
            "--solver",
            "glucose4",
            "--strategy",
            "geometric",
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "optimal" and out["length"] == 11 and out["method"] == "sat"


def test_auto_uses_sat_beyond_small_state_spaces():
    inst = read_instance("instances/paper/pyramid-to-line.toml")  # inexact window: SAT proves it
    r = solve(inst, "auto", strategy="linear")
    assert r.method == "auto:sat" and r.status is Status.OPTIMAL and r.length == 7
    small = read_instance("instances/paper/h-to-o.toml")
    assert solve(small, "auto", solver="glucose4").method == "auto:bfs"


def test_ctrl_c_in_the_loop_gives_unknown_with_the_bound_so_far():
    """A KeyboardInterrupt (the backend's translation of PySAT's "Caught keyboard interrupt")
    ends the run like a time-out: unknown, the proven bound, stats["stopped"]."""
    inst = read_instance(str(Path(__file__).parent.parent / "instances/paper/diagonal.toml"))  # optimum 18
    seen = []

    def progress(report):
        seen.append(report)
        if len(seen) == 3:
            raise KeyboardInterrupt

    r = solve_sat(inst, options=SatOptions(progress=progress))
    assert r.status is Status.UNKNOWN and r.stats["stopped"] == "interrupted"
    proven = max(rep.horizon for rep in seen if rep.outcome == "UNSAT")
    assert r.lower_bound == proven + 1 <= 18


def test_window_cap_is_unknown_with_the_distance_bound():
    """D6: the window exact for the first horizon would pass the cap: a limit, not bad input."""
    dx = 60
    inst = make_instance("triangular", [(0, 0), (1, 0), (0, 1), (1, 1)], [(dx, 0), (dx + 1, 0), (dx, 1), (dx + 1, 1)])
    r = solve_sat(inst)
    assert r.status is Status.UNKNOWN and r.stats["stopped"].startswith("window cap")
    assert r.lower_bound >= dx  # each goal cell is >= dx - 1 cells from every start coin


def test_memory_limit_stops_the_sat_engine():
    inst = read_instance(str(Path(__file__).parent.parent / "instances/paper/diagonal.toml"))
    r = solve_sat(inst, limits=Limits(memory_limit=1))  # one byte: spent before the first query
    assert r.status is Status.UNKNOWN and r.stats["stopped"] == "memory limit" and r.lower_bound >= 0
