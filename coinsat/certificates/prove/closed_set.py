"""Closed-set certificates: a set of configurations that holds the start, is closed
under legal moves and holds no goal placement — so the goal is unreachable.

Fields::

    "space":   "lattice" (moves of the infinite lattice: scope global),
               "board"   (a graph board, finite: scope global),
               "window"  (moves inside the instance's finite window only: scope window —
                          it then proves "no solution that stays inside the window");
    "labels":  the colour classes, in the order of each member's masks;
    "cells":   the cells members may use (coordinates), indexing the masks;
    "members": one list per configuration of hex occupancy masks, one per label;
    "triangle_types": optional (triangular grid, three coins): every triangle whose
               (label, colour) pairs are one of these types is also a member
               (see coinsat.theory.triangular for why that family is closed).

The finder here is an explicit forward closure (with the rules.py kernels);
the checker (check.py) re-expands every member on its own board.
"""

from __future__ import annotations

import time
from typing import Any

from ...errors import LimitReached
from ...instance import Instance
from ...rules import successors
from ...theory.triangular import ThreeCoinClosure
from ..check.format import cell_json, header

CLAIM = "unsolvable"


def _space(instance: Instance) -> tuple[str, str]:
    b = instance.board
    if not b.is_lattice:
        return "board", "global"
    return ("lattice", "global") if b.exact else ("window", "window")


def forward_closure(instance: Instance, max_states: int = 2_000_000, deadline: float | None = None) -> dict | None:
    """The set of configurations reachable from the start in the window, as a closed-set certificate.

    Parameters
    ----------
    instance : Instance
        The puzzle (scope ``global`` on a graph board or an exact lattice window, else ``window``).
    max_states : int
        Give up past this many configurations.
    deadline : float, optional
        A ``time.perf_counter()`` value.

    Returns
    -------
    dict or None
        The certificate object (kind ``closed-set``); None if a goal placement is reachable.

    Raises
    ------
    LimitReached
        When the closure exceeds ``max_states`` or the search passes ``deadline``.
    """
    labels = instance.labels
    board, d = instance.board, instance.d
    goals = {g.masks(labels) for g in instance.goal_configurations}
    start = instance.start.masks(labels)
    seen = {start}
    stack = [start]
    pops = 0
    while stack:
        state = stack.pop()
        if state in goals:
            return None
        pops += 1
        if deadline is not None and pops % 4096 == 0 and time.perf_counter() > deadline:
            raise LimitReached("the closed set was not built within the time limit")
        for _, nxt in successors(board, d, state):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
                if len(seen) > max_states:
                    raise LimitReached(f"the closed set has more than {max_states} configurations")
    return _encode(instance, labels, sorted(seen), None)


def from_three_coin_closure(instance: Instance, closure: ThreeCoinClosure) -> dict:
    """Theorem 1's three-coin case: explicit non-triangles plus triangle families (lattice space)."""
    labels = instance.labels
    cells = sorted({xy for p in closure.explicit for xy in p}, key=str)
    index = {xy: i for i, xy in enumerate(cells)}
    members = [
        [_hex(sum(1 << index[xy] for xy, lab in p.items() if lab == want)) for want in labels] for p in closure.explicit
    ]
    cert = header(instance, "closed-set", "global", CLAIM)
    cert.update(
        space="lattice",
        labels=list(labels),
        cells=[cell_json(c) for c in cells],
        members=members,
        triangle_types=[[list(pair) for pair in t] for t in sorted(closure.types)],
    )
    return cert


def _encode(instance: Instance, labels, states, triangle_types) -> dict[str, Any]:
    coords = instance.board.coords
    used = 0
    for st in states:
        for m in st:
            used |= m
    cells = [c for c in range(instance.board.size) if used >> c & 1]
    remap = {c: i for i, c in enumerate(cells)}
    members = []
    for st in states:
        row = []
        for m in st:
            out = 0
            for c in cells:
                if m >> c & 1:
                    out |= 1 << remap[c]
            row.append(_hex(out))
        members.append(row)
    space, scope = _space(instance)
    cert = header(instance, "closed-set", scope, CLAIM if scope == "global" else f"{CLAIM} inside the window")
    cert.update(space=space, labels=list(labels), cells=[cell_json(coords[c]) for c in cells], members=members)
    if space == "window":
        cert["window"] = instance.board.window
    return cert


def _hex(m: int) -> str:
    return format(m, "x")
