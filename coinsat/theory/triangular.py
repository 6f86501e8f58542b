"""Theorem 1 (triangular grid, d = 2) as an exact decider, unlabeled and labeled.

Statement used (paper, section "Triangular Grid"): A can be re-arranged into a
*different* B iff A has a valid move, the coins match, and one of

1. B contains a triangle (three mutually adjacent coins);
2. B has a connected component of >= 4 coins (as printed; see the claw
   correction below: exact with "a component containing a path of 4 coins");
3. B has a component of >= 3 coins and another of >= 2 coins;
4. B is one move from A.

A = B needs no move at all (the theorem speaks of a *different* B).

**Correction (the claw).**  Condition 2 as printed is too broad.  Its
sufficiency proof takes a path of four coins p1 p2 p3 p4 in the component;
a component of four coins need not have one: the *claw*, a coin with three
neighbours that are pairwise non-adjacent (every other neighbour of the centre
cell), has no triangle and no 4-coin path.  If B is a claw plus isolated
coins, the paper's own necessity argument applies with c = the claw's centre:
removing it leaves no two adjacent coins, so only the coin on c's cell can ever
be moved backwards, and B is reachable only from configurations that contain
B − c — for instance not from a straight line of four coins, which has a valid
move (``instances/counterexamples/thm1-claw.toml``; BFS and the frozen-goal
certificate agree).  A connected triangle-free set of coins without a 4-coin
path is a star, and a triangle-free star on this grid has at most three
leaves, so the claw is the only exception: the exact condition 2 is "B has a
component containing a path of four coins" (every component of >= 5 coins
without a triangle has one).  The claw still satisfies condition 3 when some
other component has >= 2 coins (its 3-coin path serves there).  With a
goal placement other than ``fixed`` the question is whether *some* placement
is reachable; conditions 1–3 do not depend on the placement, condition 4 and
equality are checked on every placement that shares n − 1 coins with A.

Labeled coins (any colour classes).  The paper's proof carries labels through
(triangle maneuvering moves only the triangle's own coins, transport moves one
coin at a time, and with >= 4 coins the triangle's three coins can be
permuted using a fourth coin), and the necessity argument is label-blind, so
for n >= 4 the same conditions decide labeled puzzles, with condition 4 read
as "one *labeled* move".  n <= 2: no move is ever legal (a destination needs
two *other* coins), so only A = B is solvable.

Three coins (the exception the paper mentions).  Colour the cells by
col(x, y) = (x − y) mod 3; adjacent cells get different colours, so the three
cells of a triangle carry the three colours.  Facts, each a one-line check:

* a triangle stays a triangle: the moved coin lands next to the other two,
  which are adjacent;
* a move of a triangle flips one coin over the opposite edge; the new cell is
  adjacent to two cells of the other two colours, so it has the moved coin's
  old colour — every coin keeps its colour while the coins form a triangle;
* with no other coins, flips move the triangle along the (connected)
  hexagonal dual grid, so every triangle position is reached, each coin on the
  cell of its own colour.

Hence the labeled state of a triangle is its *type*: the set of (label,
colour) pairs, and triangles of equal type are mutually reachable; different
types never are.  Before the first triangle appears the coins form no
triangle, and the only moves that keep it so put one coin between the other
two (a path); those configurations are A and the paths one move from A (the
middle of a bent path may hop to the other common neighbour of its ends, which
is again one move from A).  So the exact three-coin condition is:

    B ≠ A is reachable iff A has a valid move and either B is one move from A,
    or B is a triangle whose type (label -> colour of its cell) is among the
    types of the triangles reachable from A within two moves (the triangle A
    itself, or those formed by one move from A or from a path one move from A).

Unlabeled, every triangle has the same type, which gives back condition 1.
:func:`three_coin_closure` computes those types exactly with rules.py on a
local board (all cells within distance 2 of A, which contains every cell such
a move can touch), and also returns the finitely many non-triangle
configurations reachable — together they form a closed set (a certificate).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Mapping

from .. import geometry
from ..board import Board, lattice_board
from ..configuration import Configuration
from ..geometry import Coord
from ..instance import Instance
from ..rules import Move, check_move, legal_moves

TRI = "triangular"

Placement = dict  # coord -> label


@dataclass(frozen=True)
class Decision:
    """The theorem's verdict: ``solvable`` and the reason (which condition, or which failure)."""

    solvable: bool
    reason: str  # equal | one-move | condition-1..3 | colour-type | no-move | conditions-fail | colour-type-missing
    detail: dict[str, Any] = field(default_factory=dict, compare=False)


def colour(xy: Coord) -> int:
    """The vertex 3-colouring of the triangular grid."""
    return (xy[0] - xy[1]) % 3


def applies(instance: Instance) -> bool:
    """Whether the triangular theorems speak of ``instance`` (a triangular board, d = 2)."""
    return instance.board.kind == TRI and instance.d == 2


def placement_of(instance: Instance, config: Configuration) -> Placement:
    """The placement of ``config`` on the instance's board (cell -> coin label)."""
    return config.placement(instance.board.coords)


# --- conditions on the goal shape ----------------------------------------------------


def is_triangle(cells) -> bool:
    """Whether ``cells`` are three cells that touch pairwise (a unit triangle)."""
    cs = list(cells)
    return len(cs) == 3 and all(geometry.distance(TRI, a, b) == 1 for a, b in combinations(cs, 2))


def has_triangle(coords) -> bool:
    """Whether ``coords`` hold a unit triangle (three pairwise adjacent cells)."""
    s = set(coords)
    nb = geometry.neighbours
    return any(
        n1 in s and n2 in s and geometry.distance(TRI, n1, n2) == 1
        for c in s
        for n1 in nb(TRI, c)
        for n2 in nb(TRI, c)
        if n1 < n2
    )


def is_claw(component) -> bool:
    """Four coins, one adjacent to the three others, which are pairwise non-adjacent."""
    cs = list(component)
    if len(cs) != 4:
        return False
    deg = {c: sum(geometry.distance(TRI, c, o) == 1 for o in cs if o != c) for c in cs}
    return sorted(deg.values()) == [1, 1, 1, 3]


def shape_condition(coords, literal: bool = False) -> int | None:
    """The first of conditions 1–3 that the goal shape satisfies, or None.

    Condition 2 is read as "a component with a path of four coins" (the claw
    correction, module docstring); ``literal=True`` reads it as the paper
    states it ("a component with at least four coins").
    """
    from .span import components

    if has_triangle(coords):
        return 1
    comps = sorted(components(TRI, coords), key=len, reverse=True)
    sizes = [len(c) for c in comps]
    if any(len(c) >= 4 and (literal or not is_claw(c)) for c in comps):
        return 2
    if len(sizes) >= 2 and sizes[0] >= 3 and sizes[1] >= 2:
        return 3
    return None


# --- placements -------------------------------------------------------------------


def _transform(goal: Placement, m, t) -> Placement:
    return {(x + t[0], y + t[1]): lab for (x, y), lab in ((geometry.apply(m, xy), lab) for xy, lab in goal.items())}


def _symmetries(instance: Instance):
    if instance.goal_placement == "fixed":
        return (((1, 0), (0, 1)),)
    syms = geometry.symmetries(TRI)
    return syms if instance.goal_placement == "congruent" else syms[:1]


def near_placements(instance: Instance, start: Placement, goal: Placement) -> list[Placement]:
    """Goal placements sharing >= n − 1 labeled coins with ``start`` (all, if fixed)."""
    if instance.goal_placement == "fixed":
        return [goal]
    n = len(start)
    found: dict[tuple, Placement] = {}
    for m in _symmetries(instance):
        image = _transform(goal, m, (0, 0))
        for b in image:
            for a in start:
                p = _transform(image, ((1, 0), (0, 1)), (a[0] - b[0], a[1] - b[1]))
                if sum(start.get(xy) == lab for xy, lab in p.items()) >= n - 1:
                    found[tuple(sorted(p.items()))] = p
    return list(found.values())


def colour_variants(instance: Instance, goal: Placement) -> list[Placement]:
    """One placement per reachable (symmetry, translation mod 3) class: the triangle types a placement can have."""
    if instance.goal_placement == "fixed":
        return [goal]
    return [_transform(goal, m, (t, 0)) for m in _symmetries(instance) for t in range(3)]


# --- moves on a local board ----------------------------------------------------------


def local_board(coords, radius: int) -> Board:
    """The triangular grid restricted to the cells within ``radius`` of ``coords``."""
    return lattice_board(TRI, geometry.ball(TRI, coords, radius), exact=False, window=f"ball+{radius}")


def _config(board: Board, placement: Placement) -> Configuration:
    return Configuration(tuple((board.cell(xy), lab) for xy, lab in placement.items()))


def has_move(start: Placement, d: int = 2) -> bool:
    """Does ``start`` have a legal move on the infinite grid?  (Destinations lie next to coins.)"""
    board = local_board(start, 1)
    return bool(legal_moves(board, _config(board, start), d))


def one_move(start: Placement, goal: Placement, d: int = 2) -> bool:
    """Is ``goal`` exactly one legal (labeled) move away from ``start``?"""
    src = [xy for xy, lab in start.items() if goal.get(xy) != lab]
    dst = [xy for xy, lab in goal.items() if start.get(xy) != lab]
    if len(src) != 1 or len(dst) != 1 or start[src[0]] != goal[dst[0]] or dst[0] in start:
        return False
    board = local_board(list(start) + dst, 1)
    move = Move(board.cell(src[0]), board.cell(dst[0]))
    return check_move(board, _config(board, start), move, d) is None


# --- three coins ---------------------------------------------------------------------


def triangle_type(placement: Mapping[Coord, str]) -> tuple[tuple[str, int], ...]:
    """The (label, colour) pairs of a triangle, sorted."""
    return tuple(sorted((lab, colour(xy)) for xy, lab in placement.items()))


@dataclass(frozen=True)
class ThreeCoinClosure:
    """Every configuration reachable from a 3-coin start: ``explicit`` non-triangles + all triangles of ``types``."""

    explicit: tuple[Placement, ...]
    types: frozenset


def three_coin_closure(start: Placement, d: int = 2) -> ThreeCoinClosure:
    """What three coins ``start`` reach with ``d``-adjacent moves: the placements that are not
    triangles, each listed, and the types of the triangles reached (the search stops at a triangle)."""
    board = local_board(start, 2)
    inner = geometry.ball(TRI, start, 1)
    coords = board.coords
    seen = {tuple(sorted(start.items()))}
    stack = [dict(start)]
    explicit, types = [], set()
    while stack:
        p = stack.pop()
        if is_triangle(p):
            types.add(triangle_type(p))
            continue
        assert set(p) <= inner, "non-triangle closure left the ball of radius 1 (module docstring)"
        explicit.append(p)
        config = _config(board, p)
        for s, q in legal_moves(board, config, d):
            nxt = config.moved(s, q).placement(coords)
            key = tuple(sorted(nxt.items()))
            if key not in seen:
                seen.add(key)
                stack.append(nxt)
    return ThreeCoinClosure(tuple(explicit), frozenset(types))


# --- the decider ---------------------------------------------------------------------


def decide(instance: Instance, literal: bool = False) -> Decision:
    """The exact verdict for a triangular, d = 2 instance (ValueError otherwise).

    ``literal=True`` applies the paper's condition 2 as printed (wrong for claw
    goals); the default is the corrected, exact statement.
    """
    if not applies(instance):
        raise ValueError("Theorem 1 is about the triangular grid with d = 2")
    start = placement_of(instance, instance.start)
    goal = placement_of(instance, instance.goal)
    n = len(start)
    near = near_placements(instance, start, goal)
    if any(p == start for p in near):
        return Decision(True, "equal")
    if not has_move(start):
        return Decision(False, "no-move")
    for p in near:
        if one_move(start, p):
            return Decision(True, "one-move", {"goal": p})
    if n == 3:
        closure = three_coin_closure(start)
        if is_triangle(goal):
            for v in colour_variants(instance, goal):
                if triangle_type(v) in closure.types:
                    return Decision(True, "colour-type", {"type": triangle_type(v)})
            return Decision(False, "colour-type-missing", {"closure": closure})
        return Decision(False, "conditions-fail")
    cond = shape_condition(goal, literal)
    if cond is not None:
        return Decision(True, f"condition-{cond}")
    return Decision(False, "conditions-fail")
