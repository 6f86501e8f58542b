"""The checker of invariant certificates (the reasons are explained in
:mod:`coinsat.certificates.prove.invariant`, which finds them; nothing here calls it)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from ... import geometry
from ...board import graph_board
from ...configuration import Configuration
from ...geometry import Coord
from ...instance import Instance
from ...rules import Move, check_move, legal_moves
from .claims import Claim
from .format import cell_key
from .placements import ball_board, coins_at, degree, fits, is_goal


def check_invariant(
    instance: Instance, cert: dict, base_dir: Path, deadline: float | None = None
) -> tuple[bool, str, Claim | None]:
    """Every invariant reason, when its witness holds, proves "unsolvable" (globally)."""
    ok, why = _invariant(instance, cert)
    return ok, why, Claim(unsolvable=True) if ok else None


def _invariant(instance: Instance, cert: dict) -> tuple[bool, str]:
    reason = cert.get("reason")
    start, goal = coins_at(instance, instance.start), coins_at(instance, instance.goal)
    if reason == "coin-counts":
        if instance.start.label_counts == instance.goal.label_counts:
            return False, "start and goal have the same coins"
        return True, "start and goal differ in coins"
    if is_goal(instance, start):
        return False, "the start is a goal placement (0 moves)"
    if reason == "no-move":
        b = instance.board
        if b.is_lattice:
            board = ball_board(b.kind, start, 1)
            config = Configuration(tuple((board.cell(c), lab) for c, lab in start.items()))
        else:
            board, config = b, instance.start
        moves = legal_moves(board, config, instance.d)
        if moves:
            s, p = moves[0]
            return False, f"the start has a legal move {board.coords[s]} -> {board.coords[p]}"
        return True, "the start has no legal move"
    if reason == "span":
        return _span(instance, cert, start, goal)
    if reason == "frozen-goal":
        return _frozen(instance, cert, start, goal)
    return False, f"unknown invariant reason {reason!r}"


_AUX = ("coinsat-auxiliary-cell",)


def _span(instance: Instance, cert: dict, start: dict, goal: dict) -> tuple[bool, str]:
    cells = {cell_key(c) for c in cert["cells"]}
    if not set(start) <= cells:
        return False, "the cell set does not contain the start"
    b, d = instance.board, instance.d
    # Closed: no cell outside S is a valid destination while every cell of S holds a coin.
    # Asked of rules.py with one auxiliary coin, far from everything, as the mover.
    if b.is_lattice:
        pairs = cast("set[Coord]", cells)  # cell_key reads a lattice cell [x, y] as the pair (x, y)
        far = (max(x for x, _ in pairs) + 10, max(y for _, y in pairs) + 10)
        board = ball_board(b.kind, cells, 1, extra=[far])
        aux = board.cell(far)
        outside = [board.cell(c) for c in geometry.ball(b.kind, pairs, 1) if c not in cells]
    else:
        if any(not b.has(c) for c in cells):
            return False, "the cell set names a cell that is not on the board"
        edges = [(b.coords[u], b.coords[v]) for u in range(b.size) for v in b.neighbours[u] if u < v]
        board = graph_board(list(b.coords) + [_AUX], edges)
        aux = board.cell(_AUX)
        outside = [board.cell(c) for c in b.coords if c not in cells]
    config = Configuration(tuple((board.cell(c), "o") for c in cells) + ((aux, "o"),))
    for p in outside:
        if check_move(board, config, Move(aux, p), d) is None:
            return False, f"the cell set is not closed: {board.coords[p]} has >= {d} neighbours in it"
    if fits(instance, {c: "o" for c in goal}, {c: "o" for c in cells}):
        return False, "a goal placement lies inside the closed cell set"
    return True, "the goal does not fit in a closed cell set containing the start (span monotone)"


def _frozen(instance: Instance, cert: dict, start: dict, goal: dict) -> tuple[bool, str]:
    d = instance.d
    if d < 2:
        return False, "frozen-goal needs d >= 2"
    free = cert.get("free_coin")
    if free is None:
        cells = set(goal)
        busy = [c for c in cells if degree(instance, c, cells) >= d]
        if busy:
            return False, f"goal coin {busy[0]} has >= {d} coin neighbours: the goal has predecessors"
        return True, "no legal move ends in the goal, and the start is not the goal"
    c = cell_key(free)
    if c not in goal:
        return False, f"free coin {c} is not a goal coin"
    rest = {x: lab for x, lab in goal.items() if x != c}
    crowded = [x for x in rest if degree(instance, x, rest) > d - 2]
    if crowded:
        return False, f"goal coin {crowded[0]} has > {d - 2} neighbours among the other frozen coins"
    if fits(instance, rest, start):
        return False, "the start contains the frozen part of a goal placement"
    return True, "every predecessor chain of the goal keeps its frozen part, which the start lacks"
