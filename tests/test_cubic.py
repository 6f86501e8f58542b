"""The cubic lattice (the paper's open problem 3): boxes, 3-D spans, exact closures, Theorem 2's analogue."""

from __future__ import annotations

import random

import pytest

from coinsat.instance import make_instance
from coinsat.solve import solve
from coinsat.theory import cubic
from coinsat.theory.span import span_mask


def test_a_box_is_the_cubic_lattice_restricted_to_it():
    b = cubic.box_board((2, 2, 2))
    assert b.size == 8 and all(len(n) == 3 for n in b.neighbours)
    b = cubic.box_board((3, 3, 3))
    assert sorted(len(n) for n in b.neighbours).count(6) == 1  # only the centre has all six
    assert len(cubic.box_symmetries((2, 2, 2))) == 48 and len(cubic.box_symmetries((3, 2, 2))) == 16


@pytest.mark.parametrize("d", [2, 3])
def test_span_stays_in_the_bounding_box(d):
    """The reason a box is an exact board: computed in a larger box, the span of coins in a
    corner sub-box never leaves that sub-box."""
    big = cubic.box_board((5, 5, 5))
    rng = random.Random(d)
    for _ in range(200):
        pts = rng.sample([(x, y, z) for x in range(3) for y in range(3) for z in range(3)], rng.randint(2, 12))
        span = span_mask(big, cubic.mask_of(big, pts), d)
        lo = [min(p[k] for p in pts) for k in range(3)]
        hi = [max(p[k] for p in pts) for k in range(3)]
        for c in range(big.size):
            if span >> c & 1:
                assert all(lo[k] <= big.coords[c][k] <= hi[k] for k in range(3))


def _graph_instance(board, a: int, b: int, d: int):
    names = [",".join(map(str, p)) for p in board.coords]
    edges = [(names[i], names[j]) for i in range(board.size) for j in board.neighbours[i] if i < j]
    start = [names[c] for c in range(board.size) if a >> c & 1]
    goal = [names[c] for c in range(board.size) if b >> c & 1]
    return make_instance("graph", start, goal, adjacency=d, edges=edges, cells=names)


@pytest.mark.parametrize("dims,d", [((2, 2, 2), 2), ((2, 2, 2), 3), ((3, 2, 2), 2)])
def test_closure_is_what_bfs_reaches(dims, d):
    board = cubic.box_board(dims)
    rng = random.Random(sum(dims) + d)
    for _ in range(15):
        n = rng.randint(3, board.size - 2)
        a, b = (sum(1 << c for c in rng.sample(range(board.size), n)) for _ in range(2))
        r = solve(_graph_instance(board, a, b, d), "bfs")
        assert (b in cubic.closure(board, a, d)) == (r.solution is not None), (dims, d, a, b)


def test_theorem_two_analogue_fails_for_d3_in_the_2x2x2_box_and_bfs_agrees():
    board, d = cubic.box_board((2, 2, 2)), 3
    found = None
    for a in cubic.full_span_starts(board, (2, 2, 2), 6, d):
        reach = cubic.closure(board, a, d)
        for b in cubic.all_masks(board.size, 6):
            if b != a and b not in reach and cubic.hypothesis(board, a, b, d):
                found = (a, b)
                break
        if found:
            break
    assert found is not None
    r = solve(_graph_instance(board, *found, d), "bfs")
    assert r.status == "unsolvable" and r.certificate["scope"] == "global"


def test_theorem_two_hypothesis_never_fails_for_d2_in_the_2x2x2_box():
    board, d = cubic.box_board((2, 2, 2)), 2
    for n in range(3, 8):
        for a in cubic.full_span_starts(board, (2, 2, 2), n, d):
            reach = cubic.closure(board, a, d)
            assert all(b in reach for b in cubic.all_masks(8, n) if b != a and cubic.hypothesis(board, a, b, d))


def test_two_extra_coins():
    board = cubic.box_board((2, 2, 2))
    full = (1 << 8) - 1
    assert cubic.has_two_extra(board, full, 2)  # any two coins of the full cube are extra
    three = cubic.mask_of(board, [(0, 0, 0), (1, 0, 0), (0, 1, 0)])
    assert not cubic.has_two_extra(board, three, 2)
