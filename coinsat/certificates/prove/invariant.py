"""Invariant certificates (scope global): why no sequence of moves can ever reach the goal.

Reasons, each with the witness the checker needs (``check.py`` re-derives the
rest with rules.py and never calls this module):

* ``coin-counts`` — start and goal differ in coins or labels.  (Instances
  refuse such input already; kept so that the kind is complete.)
* ``no-move`` — the start is not a goal placement and has no legal move.  On a
  lattice the destinations of legal moves touch coins, so the ball of radius 1
  around the start holds every move of the infinite grid.
* ``span`` — witness: a cell set S ⊇ start that is *closed* (no cell outside
  S has >= d neighbours in S) and contains no goal placement.  By the argument
  of Lemma "span monotone", every reachable configuration stays inside S.  The
  finder gives span(start) itself; any closed superset would do.
* ``frozen-goal`` — the goal can only be entered from configurations the
  start is not.  Witness: a coin c of the goal G (or none).
  - none: no coin of G has >= d coin neighbours, so no legal move ends in G
    (a move ends with its coin next to >= d others); the start is not G.
  - c: every coin of G − c has <= d − 2 neighbours in G − c.  Then the family
    F = {G − c + p} (the coin of c's label on any free cell p) holds G and is
    closed under predecessors: in G − c + p a coin of G − c has at most
    d − 2 + 1 < d coin neighbours, so only the coin on p can have been the
    last one moved, and un-moving it stays in F.  Every configuration that
    reaches G is in F; the start is not (G − c is not inside it, labels
    included).  On the triangular grid with d = 2 this is exactly the
    necessity half of Theorem 1 (the goal is a 3-path plus isolated coins,
    c its middle coin).
  With a free goal placement the witness is invariant under translation and
  symmetry, and the start must avoid F for every placement.
"""

from __future__ import annotations

from typing import Any, Hashable, cast

from ... import geometry
from ...board import Board, lattice_board
from ...configuration import Configuration
from ...geometry import Coord
from ...instance import Instance
from ...rules import legal_moves
from ...theory.span import span
from ..check.format import cell_json, header

CLAIM = "unsolvable"


def _cert(instance: Instance, reason: str, **witness: Any) -> dict[str, Any]:
    cert = header(instance, "invariant", "global", CLAIM)
    cert["reason"] = reason
    cert.update(witness)
    return cert


def coin_counts(instance: Instance) -> dict | None:
    if instance.start.label_counts == instance.goal.label_counts:
        return None
    return _cert(instance, "coin-counts")


def _move_board(instance: Instance) -> tuple[Board, Configuration]:
    """A board holding every legal move of the start on the (infinite) board."""
    b = instance.board
    if not b.is_lattice:
        return b, instance.start
    coords = [b.lattice_coords[c] for c in instance.start.cells]
    local = lattice_board(b.kind, geometry.ball(b.kind, coords, 1), exact=False, window="ball+1")
    return local, Configuration(tuple((local.cell(b.coords[c]), lab) for c, lab in instance.start.coins))


def no_move(instance: Instance) -> dict | None:
    if instance.is_goal(instance.start):
        return None
    board, start = _move_board(instance)
    if legal_moves(board, start, instance.d):
        return None
    return _cert(instance, "no-move")


def span_cells(instance: Instance) -> dict | None:
    """span(start) when it is known to be finite and inside the board (exact windows, graphs)."""
    b = instance.board
    if not b.exact:
        return None
    s = span(b, instance.start.cells, instance.d)
    if any(set(g.cells) <= s for g in instance.goal_configurations):
        return None
    return _cert(instance, "span", cells=sorted((cell_json(b.coords[c]) for c in s), key=str))


# --- frozen goal -----------------------------------------------------------------------


def _placement(instance: Instance, config: Configuration) -> dict[Hashable, str]:
    return config.placement(instance.board.coords)


def _degree(instance: Instance, cell: Hashable, cells) -> int:
    b = instance.board
    if b.is_lattice:
        return sum(n in cells for n in geometry.neighbours(b.kind, cast("Coord", cell)))  # a lattice cell
    return sum(b.coords[n] in cells for n in b.neighbours[b.cell(cell)])


def _fits_somewhere(instance: Instance, part: dict, whole: dict) -> bool:
    """Is some placement (per goal_placement) of the labeled cells ``part`` inside ``whole``?"""
    if instance.goal_placement == "fixed" or not part:
        return all(whole.get(xy) == lab for xy, lab in part.items())
    kind = instance.board.kind
    syms = geometry.symmetries(kind)
    syms = syms if instance.goal_placement == "congruent" else syms[:1]
    for m in syms:
        image = [(geometry.apply(m, xy), lab) for xy, lab in part.items()]
        (x0, y0), _ = image[0]
        for x, y in whole:
            dx, dy = x - x0, y - y0
            if all(whole.get((u + dx, v + dy)) == lab for (u, v), lab in image):
                return True
    return False


def frozen_goal(instance: Instance) -> dict | None:
    d = instance.d
    goal = _placement(instance, instance.goal)
    start = _placement(instance, instance.start)
    if d < 2 or _fits_somewhere(instance, goal, start):
        return None
    cells = set(goal)
    if all(_degree(instance, xy, cells) < d for xy in cells):
        return _cert(instance, "frozen-goal", free_coin=None)
    for c in sorted(goal, key=str):
        rest = cells - {c}
        if all(_degree(instance, xy, rest) <= d - 2 for xy in rest):
            part = {xy: goal[xy] for xy in rest}
            if not _fits_somewhere(instance, part, start):
                return _cert(instance, "frozen-goal", free_coin=cell_json(c))
    return None
