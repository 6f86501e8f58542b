"""Lattices as data: neighbour vectors, point groups, hulls and distances agree with first principles."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsat import geometry
from coinsat.geometry import apply, ball, distance, hull, lattice, neighbours, symmetries

NAMES = ["square", "triangular", "cubic", "hypercubic-2", "hypercubic-4"]


def _dim(name: str) -> int:
    return lattice(name).dimension


@pytest.mark.parametrize(
    "name, degree, order",
    [("square", 4, 8), ("triangular", 6, 12), ("cubic", 6, 48), ("hypercubic-2", 4, 8), ("hypercubic-4", 8, 384)],
)
def test_degree_and_point_group_order(name, degree, order):
    origin = (0,) * _dim(name)
    assert len(set(neighbours(name, origin))) == degree
    group = symmetries(name)
    assert len(group) == order and group[0] == tuple(
        tuple(int(i == k) for k in range(_dim(name))) for i in range(_dim(name))
    )


@pytest.mark.parametrize("name", NAMES)
def test_every_symmetry_maps_neighbours_to_neighbours(name):
    origin = (0,) * _dim(name)
    nbrs = set(neighbours(name, origin))
    for m in symmetries(name):
        assert {apply(m, v) for v in nbrs} == nbrs


def _bfs_distance(name: str, a, b, cap: int = 24) -> int:
    seen, todo = {a: 0}, deque([a])
    while todo:
        c = todo.popleft()
        if c == b:
            return seen[c]
        if seen[c] < cap:
            for n in neighbours(name, c):
                if n not in seen:
                    seen[n] = seen[c] + 1
                    todo.append(n)
    raise AssertionError("too far for the test")


@given(st.sampled_from(NAMES[:3]), st.data())
def test_distance_is_the_graph_distance(name, data):
    coord = st.tuples(*[st.integers(-2, 2)] * _dim(name))
    a, b = data.draw(coord), data.draw(coord)
    assert distance(name, a, b) == _bfs_distance(name, a, b)
    assert ball(name, [a], 2) == {c for c in ball(name, [a], 3) if distance(name, a, c) <= 2}


def test_triangular_hull_is_the_bounding_hexagon():
    pts = [(0, 0), (3, 0), (0, 3)]
    h = hull("triangular", pts)
    assert h == {(x, y) for x in range(4) for y in range(4) if x + y <= 3}
    assert hull("square", pts) == {(x, y) for x in range(4) for y in range(4)}
    assert len(hull("cubic", [(0, 0, 0), (1, 2, 3)])) == 2 * 3 * 4


def test_only_the_lattices_with_boards_are_board_kinds():
    assert geometry.LATTICES == ("square", "triangular")
    with pytest.raises(ValueError):
        lattice("hexagonal")
