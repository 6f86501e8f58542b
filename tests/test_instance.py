"""Instances: goal placements and windows."""

from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_graph_names_int_and_string_are_different_cells_and_load_linearly():
    from coinsat.instance import make_instance as mk

    n = 30_000
    inst = mk("graph", [0, "0"], [1, "0"], edges=[(i, i + 1) for i in range(n)] + [("0", 0), ("0", 1)])
    assert inst.board.size == n + 2
    assert inst.board.has(0) and inst.board.has("0") and inst.board.cell(0) != inst.board.cell("0")


def test_graph_cell_listed_twice_is_refused():
    import pytest

    from coinsat.errors import InstanceError
    from coinsat.instance import make_instance as mk

    with pytest.raises(InstanceError, match="listed twice"):
        mk("graph", [1], [1], edges=[(1, 2)], cells=[1, 2, 3, 2])


def test_neighbour_masks_are_built_on_first_use_and_never_copied_stale():
    from dataclasses import replace

    from coinsat.board import graph_board

    b = graph_board([0, 1, 2], [(0, 1), (1, 2)])
    assert b.neighbour_masks == (0b010, 0b101, 0b010)
    c = replace(b, neighbours=((1, 2), (0,), (0,)))
    assert c.neighbour_masks == (0b110, 0b001, 0b001)


def test_verify_grows_the_window_only_up_to_the_first_impossible_move():
    import json

    from coinsat.io.instance_format import read_instance
    from coinsat.io.solution_format import parse_solution
    from coinsat.solution import verify

    inst = read_instance("instances/paper/h-to-o.toml")
    moves = [[[3, 1], [1, 2]]] + [[[i, 1000], [i, 1001]] for i in range(5000)]
    grown, sol = parse_solution(inst, json.dumps({"moves": moves}))
    assert len(sol) == 5001
    assert grown.board.size <= inst.board.size + 4  # not 10,000 far cells
    verdict = verify(grown, sol)
    assert not verdict.ok and verdict.step == 2 and verdict.reason == "source cell is empty"


def test_a_legal_move_list_that_leaves_the_window_is_still_checked_in_full():
    import json

    from coinsat.instance import make_instance as mk
    from coinsat.io.solution_format import parse_solution
    from coinsat.solution import verify

    # a triangle rolls 10 cells to the right, far out of the margin-1 window
    tri = [(0, 0), (1, 0), (0, 1)]
    inst = mk("triangular", tri, tri, margin=1)
    moves = []
    for k in range(10):
        moves += [[[k, 0], [k + 1, 1]], [[k, 1], [k + 2, 0]]]
    grown, sol = parse_solution(inst, json.dumps({"moves": moves}))
    assert grown.board.has((11, 0)) and not inst.board.has((11, 0))
    verdict = verify(grown, sol)
    assert verdict.step is None and verdict.reason == "the final configuration is not the goal"
    assert len(verdict.trace) == 21


def test_human_output_keeps_graph_names_2_and_quoted_2_apart():
    from coinsat.io.render import cell_text

    assert cell_text(2) == "2" and cell_text("2") == '"2"'
    assert cell_text("a") == "a" and cell_text("a b") == '"a b"' and cell_text((3, -1)) == "(3, -1)"


@settings(max_examples=150, deadline=None)
@given(instances(), st.data())
def test_verify_without_trace_gives_the_same_verdict(inst, data):
    from coinsat.solution import Solution, verify

    n = inst.board.size
    moves = data.draw(st.lists(st.tuples(st.integers(-1, n), st.integers(-1, n)), max_size=6))
    if data.draw(st.booleans()):  # also long legal prefixes: follow legal moves
        from coinsat.rules import legal_moves

        config, moves = inst.start, []
        for _ in range(data.draw(st.integers(0, 6))):
            options = legal_moves(inst.board, config, inst.d)
            if not options:
                break
            mv = data.draw(st.sampled_from(options))
            moves.append(mv)
            config = config.moved(*mv)
    sol = Solution.of(moves)
    full, lean = verify(inst, sol), verify(inst, sol, keep_trace=False)
    assert (full.ok, full.step, full.reason) == (lean.ok, lean.step, lean.reason)
    assert full.trace[-1] == lean.trace[-1]
