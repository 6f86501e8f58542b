"""Goal placements and local boards, as the checkers see them (restated, not imported).

These restate :attr:`coinsat.instance.Instance.goal_configurations` (placements of the
goal under translation or congruence) and the lattice windows of ``board.py`` on
purpose: the checkers must not trust the code that decides what a goal placement is
when they refute one.  ``tests/test_certificates.py`` pins ``is_goal`` to the
instance's own placements.
"""

from __future__ import annotations

from typing import Hashable

from ... import geometry
from ...board import Board, lattice_board
from ...configuration import Configuration
from ...instance import Instance


def coins_at(instance: Instance, config: Configuration) -> dict[Hashable, str]:
    """The coins of ``config`` as a map from cell coordinates to label."""
    return config.placement(instance.board.coords)


def symmetries(instance: Instance):
    """The symmetries a goal may be placed by: None for a fixed goal, the identity alone for a
    translated one (:func:`fits` tries the translations), the lattice's point group for a congruent one.
    """
    if instance.goal_placement == "fixed":
        return None
    g = geometry.symmetries(instance.board.kind)
    return g if instance.goal_placement == "congruent" else g[:1]


def fits(instance: Instance, part: dict, whole: dict) -> bool:
    """Does some placement of the labeled cells ``part`` (per goal_placement) lie inside ``whole``?"""
    syms = symmetries(instance)
    if syms is None or not part:
        return all(whole.get(c) == lab for c, lab in part.items())
    for m in syms:
        moved = {geometry.apply(m, c): lab for c, lab in part.items()}
        pivot = min(moved)
        for anchor in whole:
            sx, sy = anchor[0] - pivot[0], anchor[1] - pivot[1]
            if all(whole.get((x + sx, y + sy)) == lab for (x, y), lab in moved.items()):
                return True
    return False


def is_goal(instance: Instance, coins: dict) -> bool:
    """Is the coin map ``coins`` (cell coordinates to label) a placement of the instance's goal?"""
    goal = coins_at(instance, instance.goal)
    return len(coins) == len(goal) and fits(instance, goal, coins)


def ball_board(kind: str, coords, radius: int, extra=()) -> Board:
    """A lattice board of the cells within ``radius`` of ``coords`` (and the cells ``extra``)."""
    cells = set(geometry.ball(kind, coords, radius)) | set(extra)
    return lattice_board(kind, cells, exact=False, window=f"check-ball+{radius}")


def degree(instance: Instance, cell, cells) -> int:
    """How many of ``cells`` (coordinates) are neighbours of ``cell`` on the instance's board."""
    b = instance.board
    if b.is_lattice:
        return sum(n in cells for n in geometry.neighbours(b.kind, cell))
    return sum(b.coords[n] in cells for n in b.neighbours[b.cell(cell)])
