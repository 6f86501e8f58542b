"""Lemma P (edge budget, P8) and Lemma S (spanning lines, P9) on every configuration
that lies on some solution, by exhaustive search of small square-grid boxes."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from coinsat.configuration import Configuration
from coinsat.encode.options import EncodingOptions
from coinsat.instance import make_instance
from coinsat.rules import apply_move, legal_moves, predecessors
from coinsat.theory.reach import edge_budget, spanning_lines

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
    """Adjacent coin pairs plus, for every empty cell, (occupied neighbours - 2)^+ (Lemma P)."""
    occ, nb = config.cell_set, inst.board.neighbours
    pairs = sum(1 for a in occ for b in nb[a] if b in occ and a < b)
    holes = sum(max(0, sum(q in occ for q in nb[c]) - 2) for c in range(inst.board.size) if c not in occ)
    return pairs + holes


@settings(max_examples=60, deadline=None)
@given(box_instances())
def test_lemma_p_and_s_hold_on_every_solution_configuration(inst):
    budget, lines = edge_budget(inst), spanning_lines(inst)
    assume(budget is not None or lines is not None)
    on_path = _on_some_solution(inst)
    for config in on_path:
        if budget is not None:
            assert _edges(inst, config) <= budget
        for cells in lines or ():
            assert config.cell_set & set(cells)
    # P10: the coins a move keeps, on moves between two such configurations
    on = set(on_path)
    for config in on_path:
        for m in legal_moves(inst.board, config, 2):
            if apply_move(inst.board, config, m, 2) in on:
                kept = Configuration(tuple((c, lab) for c, lab in config.coins if c != m.src))
                if budget is not None:
                    assert _edges(inst, kept) <= budget - 2
                for cells in lines or ():
                    assert kept.cell_set & set(cells)


@settings(max_examples=40, deadline=None)
@given(box_instances(), st.sampled_from(["default", "only-span"]))
def test_span_families_against_bfs(inst, variant):
    opts = EncodingOptions()
    if variant == "only-span":
        opts = EncodingOptions.plain().with_(perimeter=True, spanning=True)
    check_horizons(inst, opts)


@st.composite
def symmetric_instances(draw):
    """Start and goal both invariant under the transposition of a k x k box."""
    k = draw(st.integers(3, 4))
    rng = draw(st.randoms(use_true_random=False))

    def sym_set():
        cells = set()
        for _ in range(rng.randint(2, 3)):
            x, y = rng.randrange(k), rng.randrange(k)
            cells |= {(x, y), (y, x)}
        return cells

    start, goal = sym_set(), sym_set()
    assume(len(start) == len(goal))
    full = [(x, y) for x in range(k) for y in range(k)]
    start |= {(0, 0), (k - 1, k - 1)}
    goal |= {(0, 0), (k - 1, k - 1)}
    assume(len(start) == len(goal) and len(start) < len(full))
    return make_instance("square", sorted(start), sorted(goal), name="sym")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(symmetric_instances())
def test_symmetry_breaking_against_bfs(inst):
    from coinsat.theory.reach import symmetries

    for g in symmetries(inst):
        b = inst.board
        assert {g[c] for c in inst.start.cells} == set(inst.start.cells)
        assert {g[c] for c in inst.goal.cells} == set(inst.goal.cells)
        assert all(sorted(g[n] for n in b.neighbours[c]) == sorted(b.neighbours[g[c]]) for c in range(b.size))
    check_horizons(inst, EncodingOptions())
    check_horizons(inst, EncodingOptions.plain().with_(symmetry=True, noop_last=True))
