"""The zipper (constructive/absorb.py): a coin touching a 'bad' corner of the staircase's
rectangle diagonally is absorbed by pushing two legs outward, not by a rotation.

What could go wrong, and what each test pins: the staircase after the zipper must span the
larger rectangle (else the construction's later steps lose the span); a failed zipper must
leave nothing behind (the fallback rotation starts from the same state, so the moves are those
of the rotations-only construction); on the goal side every move must stay reversible; and
the V family must actually avoid rotations (the reason the zipper exists).
"""

from __future__ import annotations

import pytest

from coinsat.constructive import construct
from coinsat.constructive.absorb import Engine
from coinsat.constructive.base import Play
from coinsat.families import vdiag
from coinsat.instance import make_instance
from coinsat.rules import Move, check_move
from coinsat.solution import verify
from coinsat.theory.span import lattice_span


def _engine(chain, helpers, reversible):
    """An engine on a board wide enough around ``chain``; the extra coin at (3, 3) is pending."""
    coins = list(chain) + list(helpers) + [(3, 3)]
    inst = make_instance("square", coins + [(-2, -2), (6, 6)], coins + [(-2, -2), (6, 6)])
    play = Play(inst)
    eng = Engine(play, helpers, {(3, 3)}, reversible)
    eng.chain = set(chain)
    eng.framed = True
    return inst, play, eng


def _reversible(inst, moves) -> bool:
    config = inst.start
    for mv in moves:
        if check_move(inst.board, config, mv) is not None:
            return False
        config = config.moved(*mv)
        if check_move(inst.board, config, Move(mv.dst, mv.src)) is not None:
            return False
    return True


@pytest.mark.parametrize("reversible", [False, True])
def test_a_diagonal_corner_coin_is_absorbed_without_rotation(reversible):
    # a canonical L in [0, 2] x [0, 2] (descending, frame = identity), t at (3, 3): the top-right
    # corner touched diagonally, the case that used to cost a rotation
    inst, play, eng = _engine([(0, 2), (0, 0), (2, 0)], [(0, 1), (1, 0)], reversible)
    kind = eng.absorb((3, 3))
    assert kind == "corner"
    assert eng.stats["rotations"] == 0 and eng.stats["corner_extends"] == 1
    assert eng.rect() == (0, 0, 3, 3)
    assert set(lattice_span("square", eng.chain, 2)) == {(x, y) for x in range(4) for y in range(4)}
    order = eng.order()  # still a staircase descending from the top-left corner
    assert (order[0], order[-1]) == ((0, 3), (3, 0))
    assert all(eng.chain_ok(p, q) for p, q in zip(order, order[1:]))
    assert len(eng.helpers) == 2 and not (set(eng.helpers) & eng.chain)
    if reversible:
        assert _reversible(inst, play.moves)


def test_a_failed_zipper_leaves_no_trace(monkeypatch):
    """When no window gadget is found the state is restored and the staircase rotates: the
    moves are exactly those of the rotations-only engine."""
    chain, helpers = [(0, 2), (0, 0), (2, 0)], [(0, 1), (1, 0)]
    _, play_rot, eng_rot = _engine(chain, helpers, False)
    monkeypatch.setattr(Engine, "zipper", False)
    eng_rot.absorb((3, 3))
    monkeypatch.setattr(Engine, "zipper", True)
    gadget = Engine.gadget
    made = []

    def no_zipper_gadget(self, new_chain, around, radius=2):  # the zipper's second step fails
        if "corner" in self.play.phases:
            made.append(len(self.play.moves))
            if len(made) > 1:
                return False
        return gadget(self, new_chain, around, radius)

    monkeypatch.setattr(Engine, "gadget", no_zipper_gadget)
    _, play, eng = _engine(chain, helpers, False)
    kind = eng.absorb((3, 3))
    assert made[-1] > 0  # moves were made inside the zipper before it failed
    assert kind != "corner" and eng.stats["rotations"] == 1 and eng.stats["corner_extends"] == 0
    assert play.moves == play_rot.moves and eng.chain == eng_rot.chain
    assert play.tally == play_rot.tally


def test_the_v_family_needs_no_rotation_and_fewer_moves(monkeypatch):
    rotations = []
    rotate = Engine.rotate
    monkeypatch.setattr(Engine, "rotate", lambda self: rotations.append(len(self.chain)) or rotate(self))
    inst = vdiag(2, 2, "nwse")
    built, result = construct(inst)
    assert verify(built, result.solution).ok
    assert rotations == []
    monkeypatch.setattr(Engine, "zipper", False)
    _, before = construct(inst)
    assert rotations  # without the zipper, V(2,2) rotates (every other coin)
    assert len(result.solution) < len(before.solution)


def test_moves_by_phase_count_every_move_made():
    """The tally counts each move made once (before loops are cut), so it bounds the length."""
    built, result = construct(vdiag(3, 3, "swne"))
    tally = result.stats["moves_by_phase"]
    assert all(k > 0 for k in tally.values())
    assert sum(tally.values()) >= len(result.solution)
    assert any(p.startswith("goal side") for p in tally) and any(p.startswith("start side") for p in tally)
