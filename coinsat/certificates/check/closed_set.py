"""The checker of closed-set certificates (found by :mod:`coinsat.certificates.prove.closed_set`).

A set of configurations that holds the start, no goal placement, and every
successor of each member (under rules.py's moves) proves that the goal is
unreachable: on the whole lattice or board (space ``lattice``/``board``), or
only among moves inside the instance's window (space ``window``).  Triangle
families (Theorem 1's three-coin case) stand for infinitely many members;
their closure is checked on six representatives.
"""

from __future__ import annotations

import time
from pathlib import Path

from ... import geometry
from ...board import BoardKind
from ...configuration import Configuration, bits
from ...errors import LimitReached
from ...instance import Instance
from ...rules import legal_moves, successors
from .claims import Claim
from .format import cell_key
from .placements import ball_board, coins_at, is_goal, symmetries


def check_closed_set(
    instance: Instance, cert: dict, base_dir: Path, deadline: float | None = None
) -> tuple[bool, str, Claim | None]:
    """A closed set proves "unsolvable" — only inside the window for space ``window``."""
    ok, why = _closed_set(instance, cert, deadline)
    return ok, why, Claim(unsolvable=True, window=cert["space"] == "window") if ok else None


def _closed_set(instance: Instance, cert: dict, deadline: float | None = None) -> tuple[bool, str]:
    b, d = instance.board, instance.d
    space = cert["space"]  # what it proves: unsolvable, inside the window for space "window"
    if space not in ("lattice", "board", "window"):
        return False, f"unknown space {space!r}"
    if (space == "lattice") != b.is_lattice and space != "window":
        return False, f"space {space!r} does not match a {b.kind} board"
    if space == "window" and not b.is_lattice:
        return False, "window space is for lattice instances"
    labels = tuple(cert["labels"])
    if labels != instance.labels:
        return False, f"labels {labels} differ from the instance's {instance.labels}"
    cells = [cell_key(c) for c in cert["cells"]]
    if space == "lattice":  # the start may be a family member outside ``cells``
        board = ball_board(b.kind, cells + [b.coords[c] for c in instance.start.cells], 1)
    else:
        board = b
        if any(not b.has(c) for c in cells):
            return False, "a member uses a cell that is not on the board"
    pos = [board.cell(c) for c in cells]

    def state(row) -> tuple[int, ...]:
        out = []
        for h in row:
            m, mm = int(h, 16), 0
            if m >> len(pos):
                raise ValueError("member mask beyond the listed cells")
            i = 0
            while m:
                if m & 1:
                    mm |= 1 << pos[i]
                m >>= 1
                i += 1
            out.append(mm)
        return tuple(out)

    members = {state(row) for row in cert["members"]}
    types = {tuple(sorted((lab, int(col)) for lab, col in t)) for t in cert.get("triangle_types") or []}
    if types and (b.kind is not BoardKind.TRIANGULAR or space != "lattice" or d != 2 or len(instance.start) != 3):
        return False, "triangle families are for three coins on the triangular grid (d = 2)"
    ok, why = _triangle_families_closed(types)
    if not ok:
        return False, why

    def coins_of(st) -> dict:
        return {board.coords[c]: lab for lab, m in zip(labels, st) for c in bits(m)}

    def member(st) -> bool:
        return st in members or (bool(types) and _triangle_type(coins_of(st)) in types)

    start_coins = coins_at(instance, instance.start)
    if not all(board.has(c) for c in start_coins):
        return False, "the start is not in the set"
    start = tuple(sum(1 << board.cell(c) for c, lab in start_coins.items() if lab == want) for want in labels)
    if not member(start):
        return False, "the start is not in the set"
    for k, st in enumerate(members):
        if deadline is not None and k % 1024 == 0 and time.perf_counter() > deadline:
            raise LimitReached(f"the closure check stopped after {k} of {len(members)} members (time limit)")
        for (s, p), nxt in successors(board, d, st):
            if not member(nxt):
                return False, (
                    f"not closed: the move {board.coords[s]} -> {board.coords[p]} leaves the set "
                    f"from member {sorted(coins_of(st).items(), key=str)}"
                )
        if is_goal(instance, coins_of(st)):
            return False, f"member {sorted(coins_of(st).items(), key=str)} is a goal placement"
    goal = coins_at(instance, instance.goal)
    if types and _triangle_type(goal) is not None:
        for v in _colour_variants(instance, goal):
            if _triangle_type(v) in types:
                return False, "a goal placement is a triangle of a member type"
    where = "the window " + str(cert.get("window", "")) if space == "window" else "the whole board"
    return True, f"{len(members)} configurations closed under legal moves on {where}, no goal among them"


def _colour(xy) -> int:
    return (xy[0] - xy[1]) % 3


def _triangle_type(coins: dict):
    cs = list(coins)
    if len(cs) != 3 or any(geometry.distance("triangular", cs[i], cs[j]) != 1 for i in range(3) for j in range(i)):
        return None
    return tuple(sorted((lab, _colour(xy)) for xy, lab in coins.items()))


def _colour_variants(instance: Instance, goal: dict) -> list[dict]:
    """Placements of ``goal`` covering every (symmetry, colour shift) class."""
    syms = symmetries(instance)
    if syms is None:
        return [goal]
    return [
        {(geometry.apply(m, xy)[0] + t, geometry.apply(m, xy)[1]): lab for xy, lab in goal.items()}
        for m in syms
        for t in range(3)
    ]


def _triangle_families_closed(types) -> tuple[bool, str]:
    """Every successor of a triangle of type θ is a triangle of type θ.

    Rules are invariant under translation and translations by (a, b) with
    a ≡ b (mod 3) keep every cell's colour, so it suffices to check the six
    representatives: up and down triangles with each colour at the left corner.
    """
    for t in types:
        by_colour = {col: lab for lab, col in t}
        if sorted(by_colour) != [0, 1, 2]:
            return False, f"triangle type {t} does not give one label per colour"
        for k in range(3):
            for tri in (((k, 0), (k + 1, 0), (k, 1)), ((k + 1, 0), (k, 1), (k + 1, 1))):
                coins = {xy: by_colour[_colour(xy)] for xy in tri}
                board = ball_board("triangular", tri, 1)
                config = Configuration(tuple((board.cell(xy), lab) for xy, lab in coins.items()))
                for mv in legal_moves(board, config, 2):
                    after = config.moved(*mv).placement(board.coords)
                    if _triangle_type(after) != t:
                        return False, f"triangle family {t} is not closed (move {mv})"
    return True, "triangle families closed"
