"""Lemma P (edge budget, P8) and Lemma S (spanning lines, P9) on every configuration
that lies on some solution, by exhaustive search of small square-grid boxes."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from coinsat.configuration import Configuration
from coinsat.encode.options import EncodingOptions
from coinsat.instance import make_instance
from coinsat.rules import apply_move, legal_moves, predecessors
from coinsat.search.bounds import edge_budget, spanning_lines

from .test_sat import check_horizons


@st.composite
def box_instances(draw):
    w, h = draw(st.integers(3, 4)), draw(st.integers(3, 4))
    cells = [(x, y) for x in range(w) for y in range(h)]
    n = draw(st.integers(3, 6))
    start = draw(st.permutations(cells))[:n]
    inst = make_instance("square", start, start, name="box")
    config, rng = inst.start, draw(st.randoms(use_true_random=False))
    for _ in range(rng.randint(1, 10)):
        moves = legal_moves(inst.board, config, 2)
        if not moves:
            break
        config = apply_move(inst.board, config, rng.choice(moves), 2)
    goal = [inst.board.coords[c] for c in config.cells]
    return make_instance("square", start, goal, name="box")


def _on_some_solution(inst):
    """Every configuration reachable from the start from which the goal is reachable."""
    board = inst.board
    fwd, frontier = {inst.start}, [inst.start]
    while frontier:
        nxt = []
        for c in frontier:
            for m in legal_moves(board, c, inst.d):
                n = apply_move(board, c, m, inst.d)
                if n not in fwd:
                    fwd.add(n)
                    nxt.append(n)
        frontier = nxt
    bwd, frontier = {inst.goal.mask}, [inst.goal.mask]
    while frontier:
        nxt = []
        for m in frontier:
            for _, (prev,) in predecessors(board, inst.d, (m,)):
                if prev not in bwd:
                    bwd.add(prev)
                    nxt.append(prev)
        frontier = nxt
    return [c for c in fwd if c.mask in bwd]


def _edges(inst, config: Configuration) -> int:
    occ = config.cell_set
    return sum(1 for a in occ for b in inst.board.neighbours[a] if b in occ and a < b)


@settings(max_examples=60, deadline=None)
@given(box_instances())
def test_lemma_p_and_s_hold_on_every_solution_configuration(inst):
    budget, lines = edge_budget(inst), spanning_lines(inst)
    assume(budget is not None or lines is not None)
    for config in _on_some_solution(inst):
        if budget is not None:
            assert _edges(inst, config) <= budget
        for cells in lines or ():
            assert config.cell_set & set(cells)


@settings(max_examples=40, deadline=None)
@given(box_instances(), st.sampled_from(["default", "only-span"]))
def test_span_families_against_bfs(inst, variant):
    opts = EncodingOptions()
    if variant == "only-span":
        opts = EncodingOptions.plain().with_(perimeter=True, spanning=True)
    check_horizons(inst, opts)
