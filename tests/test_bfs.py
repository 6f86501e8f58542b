"""The BFS oracle against a tiny, obviously-correct forward enumerator (inside the
window, ``grow=False``), and its grown-window answers against SAT (globally)."""

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsat.instance import make_instance
from coinsat.limits import Limits, rss_bytes
from coinsat.result import Status
from coinsat.rules import apply_move, legal_moves
from coinsat.search.bfs import solve_bfs
from coinsat.search.options import BfsOptions
from coinsat.solution import verify
from coinsat.solve import solve
from coinsat.theory.reach import exact_for

from .strategies import instances, unsolvable_against_bounded
from .test_sat import walked


def brute_distance(inst, limit=10**6):
    """Plain forward BFS over Configuration objects through rules.legal_moves."""
    seen = {inst.start: 0}
    queue = deque([inst.start])
    while queue:
        c = queue.popleft()
        if inst.is_goal(c):
            return seen[c]
        for m in legal_moves(inst.board, c, inst.d):
            n = apply_move(inst.board, c, m, inst.d)
            if n not in seen:
                seen[n] = seen[c] + 1
                queue.append(n)
        assert len(seen) < limit
    return None


@settings(max_examples=120, deadline=None)
@given(instances(max_coins=4))
def test_bfs_agrees_with_brute_force(inst):
    want = brute_distance(inst)
    r = solve_bfs(inst, options=BfsOptions(grow=False))
    if want is None:
        assert r.status is Status.UNSOLVABLE
        assert r.certificate["scope"] in (("global",) if inst.board.exact else ("global", "window"))
    else:
        assert r.status in (Status.OPTIMAL, Status.FEASIBLE)
        assert r.length == want
        assert verify(inst, r.solution).ok
        if r.status is Status.OPTIMAL:
            assert r.lower_bound == want


@settings(max_examples=60, deadline=None)
@given(instances(max_coins=4))
def test_bfs_horizon_limit_is_bounded_not_unsolvable(inst):
    want = brute_distance(inst)
    if want is None or want == 0:
        return
    r = solve_bfs(inst, max_moves=want - 1, options=BfsOptions(grow=False))
    # "none within want - 1 moves" is a bounded answer only where the window proves it
    assert r.status is (Status.BOUNDED if exact_for(inst, want - 1) else Status.UNKNOWN)
    assert r.lower_bound <= want
    assert solve_bfs(inst, max_moves=want, options=BfsOptions(grow=False)).length == want


# --- grown windows: global answers (search/grown.py) ---------------------------------------------

INEXACT = st.one_of(
    walked(kinds=("triangular",), max_coins=5),
    instances(kinds=("triangular",), max_coins=5),
    walked(kinds=("square",), max_coins=4, d=1),
)


def _answer(r):
    return r.status, r.length, r.lower_bound


@settings(max_examples=60, deadline=None)
@given(INEXACT, st.sampled_from([None, 3, 6]))
def test_grown_bfs_answers_as_sat(inst, max_moves):
    """Same status, length and lower bound as the SAT driver (global answers both)."""
    if max_moves is None and inst.d != 2:
        max_moves = 5  # unbounded growth is for d = 2 (Theorem 1 ends it); d = 1 branches widely
    want = solve(inst, "sat", max_moves=max_moves)
    got = solve(inst, "bfs", max_moves=max_moves)
    assert got.status is not Status.UNKNOWN
    if unsolvable_against_bounded(got, want, max_moves):
        return
    assert _answer(got) == _answer(want)
    if got.solution is not None:
        assert verify(inst, got.solution).ok
    if got.certificate is not None:
        assert got.certificate["scope"] in ("global", "horizon")


@settings(max_examples=40, deadline=None)
@given(walked(kinds=("triangular",), max_coins=4))
def test_grown_bfs_is_never_beaten_by_a_wider_window(inst):
    """The engine itself (no screens): an optimum is one that a far wider window confirms."""
    r = solve_bfs(inst, max_moves=6)
    if r.status is not Status.OPTIMAL:
        assert r.status is Status.BOUNDED and r.lower_bound == 7
        return
    coords = inst.board.coords
    wide = make_instance(
        "triangular",
        {coords[c]: lab for c, lab in inst.start.coins},
        {coords[c]: lab for c, lab in inst.goal.coins},
        adjacency=inst.d,
        goal_placement=inst.goal_placement,
        margin=r.length + 2,
    )
    assert exact_for(wide, r.length)
    assert solve_bfs(wide, max_moves=r.length, options=BfsOptions(grow=False)).length == r.length


@pytest.mark.parametrize("name", ["rhomboid", "upside-down", "pyramid-to-line"])
def test_paper_triangular_puzzles_are_optimal(name):
    from coinsat.io.instance_format import read_instance

    inst = read_instance(f"instances/paper/{name}.toml")
    r = solve(inst, "bfs")
    assert r.status is Status.OPTIMAL and r.length == r.lower_bound == inst.known_optimal
    assert r.stats["grown"] and verify(inst, r.solution).ok


def test_a_triangular_unsolvable_puzzle_is_global():
    """The screens (Theorem 1) decide it: growing could only end at a limit."""
    line, claw = [(0, 0), (1, 0), (2, 0), (3, 0)], [(1, 1), (1, 0), (2, 1), (0, 2)]
    r = solve_bfs(make_instance("triangular", line, claw))
    assert r.status is Status.UNSOLVABLE and r.lower_bound is None
    assert r.certificate["scope"] == "global"


def test_a_horizon_below_the_optimum_is_bounded_globally():
    from coinsat.io.instance_format import read_instance

    inst = read_instance("instances/paper/pyramid-to-line.toml")
    r = solve_bfs(inst, max_moves=5)
    assert r.status is Status.BOUNDED and r.lower_bound == 6
    assert r.certificate == {"kind": "exhaustive-search", "scope": "horizon", "horizon": 5}


def test_the_window_cap_is_unknown_with_the_bound():
    """A horizon whose exact window passes the cap ends the growth: unknown, not an error."""
    from coinsat.search.grown import grow

    class Unused:
        bounded_by = "exhaustive-search"

        def run(self, window, horizon, states):
            pytest.fail("no round should run")

        def inside(self):
            pytest.fail("no solution to replace")

    inst = make_instance("triangular", [(0, 0), (1, 0), (0, 1)], [(30, 0), (31, 0), (30, 1)], margin=1)
    g = grow(inst, Unused(), Limits(), max_cells=500)
    assert g.kind == "stopped" and g.reason.startswith("window cap")
    # goal cells 30, 30 and 31 steps away (Lemma W): every solution needs >= 32 moves
    assert 30 <= g.lower_bound <= 32


# --- limits --------------------------------------------------------------------------------------


def _big():
    from coinsat.io.instance_format import read_instance

    return read_instance("instances/paper/pyramid-to-line.toml")


@pytest.mark.parametrize("grow", [True, False])
def test_a_memory_limit_gives_unknown_with_a_lower_bound(grow):
    inst = _big()
    r = solve_bfs(inst, limits=Limits(memory_limit=rss_bytes() // 2), options=BfsOptions(grow=grow))
    assert r.status is Status.UNKNOWN and r.solution is None
    assert r.stats["stopped"] == "memory limit"
    assert 0 <= r.lower_bound <= inst.known_optimal


def test_a_state_limit_is_shared_by_the_rounds():
    inst = _big()
    r = solve_bfs(inst, options=BfsOptions(max_states=20_000))
    assert r.status is Status.UNKNOWN and r.stats["stopped"] == "state limit"
    assert sum(w["states"] for w in r.stats["windows"]) <= 20_000 + 2 * 256 * 100
    assert 1 <= r.lower_bound <= 7
