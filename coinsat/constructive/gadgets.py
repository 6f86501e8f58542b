"""Local gadgets by exact search over a small window (square grid, d = 2).

Where the paper's figures (lost) show a local operation — walking a coin along
a leg of an L, closing a corner, moving the short step of an L — we compute it
once by breadth-first search over a small window and reuse it.  The search is
over the *active* coins only (the staircase, the two helpers and the coin being
absorbed): active coins inside the window move, those outside are frozen but
give support, every other coin is ignored.  By the emulation lemma (paper,
Lemma "emulation") ignoring the other coins is safe: a move that is legal
among the active coins stays legal when more coins are present, and a move
onto a cell held by an ignored coin becomes a role swap (no physical move).

A goal is a :class:`GoalSpec`: cells that must hold active coins, cells that
must be empty, and — for the left-over active coins (the helpers) — that each
sits in a *pocket*: a cell with at least two neighbours among the required
coins and the frozen ones, so that it can move again later.  With
``reversible=True`` only moves whose source also has two other neighbours are
used (the reverse move is then legal too).

Results are cached by the window pattern translated to the origin, so each
distinct gadget is searched for once per process (``GADGETS``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ..geometry import Coord, neighbours

DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _nbrs(p: Coord) -> tuple[Coord, ...]:
    return neighbours("square", p)


@dataclass(frozen=True)
class GoalSpec:
    required: frozenset  # cells that must hold active coins
    forbid: frozenset = frozenset()  # cells that must be empty
    pockets: bool | str = True  # every other active coin has two active neighbours ("strict":
    # two neighbours among the required and frozen coins alone)


GADGETS: dict = {}  # normalised pattern -> tuple of relative moves, or None (no gadget)


def solve_window(
    active: set[Coord],
    window: set[Coord],
    goal: GoalSpec,
    *,
    reversible: bool,
    walls: set[Coord] | frozenset[Coord] = frozenset(),
    max_states: int = 400_000,
) -> list[tuple[Coord, Coord]] | None:
    """Moves (absolute cells) taking the active coins in ``window`` to ``goal``, or None.

    ``walls`` are passive coins that must not be disturbed: their cells leave the
    window and they count as support like the frozen active coins."""
    window = set(window) - set(walls)
    active = set(active) | set(walls)
    cells = sorted(window)
    ax, ay = cells[0]
    rel = lambda p: (p[0] - ax, p[1] - ay)  # noqa: E731
    frozen = {p for p in active if p not in window}
    ring = {n for c in cells for n in _nbrs(c)} - set(window)
    key = (
        tuple(rel(c) for c in cells),
        tuple(sorted(rel(p) for p in active if p in window)),
        tuple(sorted(rel(p) for p in frozen & ring)),
        tuple(sorted(rel(p) for p in goal.required)),
        tuple(sorted(rel(p) for p in goal.forbid)),
        goal.pockets,
        reversible,
    )
    if key not in GADGETS:
        GADGETS[key] = _search(
            cells, {p for p in active if p in window}, frozen & ring, goal, reversible, max_states, (ax, ay)
        )
    found = GADGETS[key]
    if found is None:
        return None
    return [((s[0] + ax, s[1] + ay), (p[0] + ax, p[1] + ay)) for s, p in found]


def _search(cells, inside, frozen, goal, reversible, max_states, origin):
    index = {c: i for i, c in enumerate(cells)}
    m = len(cells)
    nbr = [0] * m
    fsup = [0] * m
    for c, i in index.items():
        for n in _nbrs(c):
            if n in index:
                nbr[i] |= 1 << index[n]
            elif n in frozen:
                fsup[i] += 1
    req = sum(1 << index[c] for c in goal.required if c in index)
    forbid = sum(1 << index[c] for c in goal.forbid if c in index)
    if any(c not in index for c in goal.required):
        return None
    start = sum(1 << index[c] for c in inside)

    def is_goal(s: int) -> bool:
        if s & req != req or s & forbid:
            return False
        if goal.pockets:
            rest = s & ~req
            while rest:
                low = rest & -rest
                i = low.bit_length() - 1
                if (nbr[i] & (req if goal.pockets == "strict" else s)).bit_count() + fsup[i] < 2:
                    return False
                rest ^= low
        return True

    prev = {start: None}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if is_goal(s):
            moves = []
            while prev[s] is not None:
                s, mv = prev[s]
                moves.append(mv)
            ox, oy = origin
            return tuple(
                ((cells[a][0] - ox, cells[a][1] - oy), (cells[b][0] - ox, cells[b][1] - oy)) for a, b in reversed(moves)
            )
        src = s
        while src:
            low = src & -src
            a = low.bit_length() - 1
            src ^= low
            rest = s & ~low
            if reversible and (nbr[a] & rest).bit_count() + fsup[a] < 2:
                continue
            empty = ((1 << m) - 1) & ~s
            while empty:
                lowb = empty & -empty
                b = lowb.bit_length() - 1
                empty ^= lowb
                if (nbr[b] & rest).bit_count() + fsup[b] >= 2:
                    t = rest | lowb
                    if t not in prev:
                        prev[t] = (s, (a, b))
                        queue.append(t)
        if len(prev) > max_states:
            return None
    return None
