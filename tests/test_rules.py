"""rules.py: legal_moves, the bitmask kernels and apply_move agree with check_move."""

import pytest
from hypothesis import given, settings

from coinsat.configuration import Configuration
from coinsat.errors import IllegalMoveError
from coinsat.instance import make_instance
from coinsat.rules import (
    DEST_OCCUPIED,
    OFF_BOARD,
    SAME_CELL,
    SOURCE_EMPTY,
    Move,
    apply_move,
    check_move,
    legal_moves,
    predecessors,
    successors,
)

from .strategies import configurations


@settings(max_examples=150, deadline=None)
@given(configurations())
def test_legal_moves_is_the_brute_force_filter(case):
    inst, config = case
    b, d = inst.board, inst.d
    brute = [Move(s, p) for s in range(b.size) for p in range(b.size) if check_move(b, config, Move(s, p), d) is None]
    assert sorted(legal_moves(b, config, d)) == sorted(brute)


@settings(max_examples=150, deadline=None)
@given(configurations())
def test_successor_kernel_matches_check_move(case):
    inst, config = case
    labels = inst.labels
    state = config.masks(labels)
    got = {(m, Configuration.from_masks(labels, s)) for m, s in successors(inst.board, inst.d, state)}
    want = {(m, apply_move(inst.board, config, m, inst.d)) for m in legal_moves(inst.board, config, inst.d)}
    assert got == want


@settings(max_examples=150, deadline=None)
@given(configurations())
def test_predecessor_kernel_is_successors_reversed(case):
    inst, config = case
    labels, b, d = inst.labels, inst.board, inst.d
    state = config.masks(labels)
    preds = set()
    for move, prev in predecessors(b, d, state):
        prev_config = Configuration.from_masks(labels, prev)
        assert check_move(b, prev_config, move, d) is None
        assert prev_config.moved(*move) == config
        preds.add((move, prev_config))
    # completeness: every configuration with a legal move into `config` is found
    for s in range(b.size):
        for p in config.cells:
            if s in config.cell_set:
                continue
            prev_config = config.moved(p, s)
            if check_move(b, prev_config, Move(s, p), d) is None:
                assert (Move(s, p), prev_config) in preds


def _line(d=2):
    inst = make_instance("square", [(0, 0), (1, 0), (2, 0)], [(0, 0), (1, 0), (2, 0)], adjacency=d)
    return inst, inst.start


@pytest.mark.parametrize(
    "move, reason",
    [
        (lambda b: Move(b.cell((0, 0)), b.cell((0, 0))), SAME_CELL),
        (lambda b: Move(b.cell((1, 0)), b.cell((0, 0))), DEST_OCCUPIED),
        (lambda b: Move(b.size, b.cell((0, 0))), OFF_BOARD),
    ],
)
def test_check_move_reasons(move, reason):
    inst, config = _line()
    assert check_move(inst.board, config, move(inst.board), 2) == reason


def test_source_empty_and_too_few():
    inst = make_instance("square", [(0, 0), (1, 1), (2, 0)], [(0, 0), (1, 1), (2, 0)])
    b = inst.board
    assert check_move(b, inst.start, Move(b.cell((1, 0)), b.cell((0, 1))), 2) == SOURCE_EMPTY
    # (1,0) touches all three coins; moving (1,1) there leaves two: legal
    assert check_move(b, inst.start, Move(b.cell((1, 1)), b.cell((1, 0))), 2) is None
    # with d = 3 the moved coin does not count
    assert "fewer than 3" in check_move(b, inst.start, Move(b.cell((1, 1)), b.cell((1, 0))), 3)
    with pytest.raises(IllegalMoveError):
        apply_move(b, inst.start, Move(b.cell((1, 1)), b.cell((1, 0))), 3)


def test_a_move_model_adds_its_condition_and_unknown_models_are_refused(monkeypatch):
    from coinsat import rules
    from coinsat.errors import UsageError
    from coinsat.instance import make_instance

    inst = make_instance("square", [(0, 0), (1, 0), (0, 1)], [(1, 1), (1, 0), (0, 1)])
    (move,) = [m for m in rules.legal_moves(inst.board, inst.start) if inst.board.coords[m.dst] == (1, 1)]
    assert rules.check_move(inst.board, inst.start, move, 2, model="jump") is None
    monkeypatch.setitem(rules.MOVE_MODELS, "blocked", lambda board, config, mv: "the path is blocked")
    assert rules.check_move(inst.board, inst.start, move, 2, model="blocked") == "the path is blocked"
    with pytest.raises(UsageError):
        rules.check_move(inst.board, inst.start, move, 2, model="teleport")
