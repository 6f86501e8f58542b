"""Instances: goal placements and windows."""

from hypothesis import given, settings, strategies as st

from coinsat import geometry
from coinsat.board import span_coords
from coinsat.configuration import Configuration
from coinsat.instance import make_instance

from .strategies import instances


def _normal(shape):
    """Translate a labeled shape so that its lexicographically smallest cell is the origin."""
    ox, oy = min(xy for xy, _ in shape)
    return frozenset(((x - ox, y - oy), lab) for (x, y), lab in shape)


def _shape(inst, config):
    return [(inst.board.coords[c], lab) for c, lab in config.coins]


@settings(max_examples=80, deadline=None)
@given(instances(kinds=("square", "triangular")), st.data())
def test_goal_placements_are_exactly_the_images_in_the_window(inst, data):
    syms = geometry.symmetries(inst.board.kind)
    if inst.goal_placement == "fixed":
        assert inst.goal_configurations == (inst.goal,)
        return
    allowed = syms if inst.goal_placement == "congruent" else syms[:1]
    goal_shape = _shape(inst, inst.goal)
    images = {_normal([(geometry.apply(m, xy), lab) for xy, lab in goal_shape]) for m in allowed}
    for g in inst.goal_configurations:
        assert _normal(_shape(inst, g)) in images
    # a random image placed inside the window is among the placements
    m = data.draw(st.sampled_from(allowed))
    anchor = data.draw(st.sampled_from(inst.board.coords))
    image = [(geometry.apply(m, xy), lab) for xy, lab in goal_shape]
    dx, dy = anchor[0] - image[0][0][0], anchor[1] - image[0][0][1]
    moved = [((x + dx, y + dy), lab) for (x, y), lab in image]
    if all(inst.board.has(xy) for xy, _ in moved):
        assert Configuration(tuple((inst.board.cell(xy), lab) for xy, lab in moved)) in inst.goal_set


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=2, max_size=7, unique=True))
def test_square_window_is_the_span_and_exact(cells):
    inst = make_instance("square", cells, cells)
    assert inst.board.exact
    box = geometry.hull("square", cells, 3)
    assert set(inst.board.coords) == span_coords("square", cells, 2, box)
    assert inst.exact_within(10**6)


def test_triangular_window_exact_radius():
    tri = [(0, 0), (1, 0), (0, 1)]
    inst = make_instance("triangular", tri, tri, margin=3)
    assert not inst.board.exact
    assert inst.exact_radius == 3
    assert inst.exact_within(3) and not inst.exact_within(4)
