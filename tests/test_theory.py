"""Theory: span properties, extra coins, Theorem 1 decider against BFS, Theorem 2 hypothesis."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat import geometry
from coinsat.board import lattice_board
from coinsat.configuration import Configuration
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.limits import Limits
from coinsat.result import Status
from coinsat.rules import legal_moves
from coinsat.search.bfs import solve_bfs
from coinsat.theory import span as sp
from coinsat.theory import square, triangular
from tests.strategies import instances

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@st.composite
def square_coins(draw, max_side=6, max_coins=8):
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    cells = [(x, y) for x in range(w) for y in range(h)]
    n = draw(st.integers(1, min(max_coins, len(cells))))
    return draw(st.permutations(cells))[:n]


# --- span ------------------------------------------------------------------------------------


@SETTINGS
@given(square_coins())
def test_square_span_is_union_of_far_rectangles(coins):
    s = sp.lattice_span("square", coins, 2)
    assert set(coins) <= s
    assert sp.is_rectangle_union(s)
    # closed: no outside cell has two neighbours inside
    for c in geometry.ball("square", s, 1) - s:
        assert sum(n in s for n in geometry.neighbours("square", c)) < 2
    assert sp.chain_bound_holds(coins)


@SETTINGS
@given(square_coins(max_side=5, max_coins=6))
def test_board_span_agrees_with_lattice_span(coins):
    box = lattice_board("square", geometry.hull("square", coins, 1), exact=True, window="box")
    cells = [box.cell(c) for c in coins]
    assert {box.coords[c] for c in sp.span(box, cells, 2)} == sp.lattice_span("square", coins, 2)


def test_rectangle_union_detects_bad_sets():
    assert not sp.is_rectangle_union({(0, 0), (1, 0), (0, 1)})  # an L is not a rectangle
    assert not sp.is_rectangle_union({(0, 0), (1, 1)})  # distance 2: not a span
    assert sp.is_rectangle_union({(0, 0), (2, 1)})  # distance 3
    assert sp.is_rectangle_union({(0, 0), (3, 0)})
    assert sp.chain_bound(sp.Rectangle(0, 0, 3, 3)) == 4


@SETTINGS
@given(square_coins(max_side=4, max_coins=6))
def test_extra_coins_and_span_minimal_fragile(coins):
    box = lattice_board("square", geometry.hull("square", coins, 1), exact=True, window="box")
    cells = [box.cell(c) for c in coins]
    full = sp.span(box, cells, 2)
    extra = sp.extra_coins(box, cells, 2)
    for e in cells:
        assert (sp.span(box, [c for c in cells if c != e], 2) == full) == (e in extra)
    for a, b in sp.extra_pairs(box, cells, 2):
        assert sp.span(box, [c for c in cells if c not in (a, b)], 2) == full
    if sp.is_span_minimal(box, cells, 2):  # Lemma "span-minimal fragile": every move shrinks the span
        config = Configuration.unlabeled(cells)
        for s, p in legal_moves(box, config, 2):
            assert sp.span(box, config.moved(s, p).cells, 2) < full


def test_lattice_span_refuses_infinite_cases():
    with pytest.raises(ValueError):
        sp.lattice_span("triangular", [(0, 0)], 2)


# --- Theorem 1 ---------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(instances(kinds=("triangular",), max_coins=5, d=2))
def test_theorem1_decider_matches_bfs(inst):
    decision = triangular.decide(inst)
    if decision.solvable:
        for margin in (2, 3, 4):
            wide = make_instance(
                "triangular",
                _placement(inst, inst.start),
                _placement(inst, inst.goal),
                goal_placement=inst.goal_placement,
                margin=margin,
            )
            if solve_bfs(wide, limits=Limits(time_limit=30)).solution is not None:
                return
        pytest.fail(f"decider says solvable ({decision.reason}) but BFS found nothing up to margin 4")
    else:
        assert solve_bfs(inst, limits=Limits(time_limit=30)).solution is None


def _placement(inst, config):
    return {inst.board.coords[c]: lab for c, lab in config.coins}


def test_claw_goal_is_the_exception_to_condition_2():
    line, claw = [(0, 0), (1, 0), (2, 0), (3, 0)], [(1, 1), (1, 0), (2, 1), (0, 2)]
    inst = make_instance("triangular", line, claw, margin=3)
    assert triangular.decide(inst, literal=True).solvable  # the paper's statement as printed
    assert not triangular.decide(inst).solvable
    assert solve_bfs(inst, limits=Limits(time_limit=60)).status is Status.UNSOLVABLE  # window-scoped, see certificates
    # a 4-path goal (not a claw) is fine
    path = [(0, 1), (1, 1), (2, 1), (3, 0)]
    assert triangular.decide(make_instance("triangular", line, path)).solvable


def test_three_labeled_coins_follow_the_colouring():
    tri = {(0, 0): "A", (1, 0): "B", (0, 1): "C"}
    # the same triangle one step right: every coin lands on a cell of another colour
    shifted = {(x + 1, y): lab for (x, y), lab in tri.items()}
    inst = make_instance("triangular", tri, shifted, margin=3)
    assert not triangular.decide(inst).solvable
    assert solve_bfs(inst).solution is None
    # a colour-preserving translate is reachable
    far = {(x + 2, y + 2): lab for (x, y), lab in tri.items()}
    inst2 = make_instance("triangular", tri, far, margin=3)
    assert triangular.decide(inst2).solvable and solve_bfs(inst2).solution is not None
    # with translation allowed, some placement has the right colours
    inst3 = make_instance("triangular", tri, shifted, goal_placement="translate", margin=3)
    assert triangular.decide(inst3).solvable


def test_three_coin_closure_types_are_colour_consistent():
    start = {(0, 0): "A", (2, 0): "B", (5, 5): "C"}  # C can only move between A and B, to (1, 0)
    closure = triangular.three_coin_closure(start)
    for t in closure.types:
        assert sorted(col for _, col in t) == [0, 1, 2]
    assert all(not triangular.is_triangle(p) for p in closure.explicit)
    assert {(1, 0): "C"}.items() <= next(p for p in closure.explicit if (1, 0) in p).items()
    assert closure.types  # from the path A C B a triangle forms


# --- Theorem 2 -----------------------------------------------------------------------------------


def test_theorem2_hypothesis_on_paper_instances():
    assert square.hypothesis(read_instance(ROOT / "instances/paper/diagonal.toml")) is not None
    assert square.hypothesis(read_instance(ROOT / "instances/paper/zero-extra.toml")) is None


def test_theorem2_counterexamples_are_counterexamples():
    files = sorted((ROOT / "instances/counterexamples").glob("thm2-*.toml"))
    assert files, "no counterexample committed"
    for f in files:
        inst = read_instance(f)
        assert square.hypothesis(inst) is not None, f
        assert solve_bfs(inst).status is Status.UNSOLVABLE, f


def test_theorem2_small_box_has_no_counterexample():
    """Every 5-coin puzzle with start box 3x3 satisfying the hypothesis is solvable (BFS)."""
    box = [(x, y) for x in range(3) for y in range(3)]
    checked = 0
    for a in combinations(box, 5):
        if a[0] != (0, 0):
            continue
        for b in list(combinations(box, 5))[::7]:
            inst = make_instance("square", a, b)
            if square.hypothesis(inst) is not None:
                checked += 1
                assert solve_bfs(inst).solution is not None
    assert checked > 0
