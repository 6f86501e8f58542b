"""An explicit schedule for the V-to-diagonal family, without search (docs/v-to-diagonal.md).

:func:`schedule` (a, b, target) returns the move list of V(a, b) -> ``target`` (the instance
``families.vdiag(a, b, target)``) as pairs of cells ``((x, y), (x', y'))``, in time linear in
its length; :func:`schedule_length` is its length in closed form (Theorem L of the document),
:func:`solve_schedule` the same moves on the instance's board, replayed by ``rules.py``.

The schedule keeps the coins already reached (the *active* ones) as a **Γ chain** of their
square: coins on every other cell of the path that climbs the left side and runs along the top
(read in a *local frame*), plus two free coins (the helpers).  A Γ chain touches both top
corners, and the isolated coins of the V lie diagonally off the top corners (Lemma V), so
every coin is absorbed in O(side) moves, and no step flips the chain:

* **gadget A** (the coin off the far top corner, Lemma A): the top leg steps up one row,
  each coin one cell diagonally, three moves a coin;
* **gadget B** (the coin off the corner where the two legs meet, Lemma B, two parities):
  both legs step outward, three moves a coin, started by a corner gadget;
* **unzipping** (Lemma D): a Γ chain of side k + 1 plus the diagonal coin (k+1, k+1) ... is
  undone into the diagonal by gadget A's moves in reverse order, each of which is legal
  backwards (its source was held by two coins other than its destination).

For the target SW-NE the local frame is the real one; for NW-SE it is mirrored left-right
(the Γ chain then runs down the right side), so that the chain and the target diagonal
always join the same two corners.  When the last coin of the V is absorbed by gadget A it
is not absorbed at all: it is already the end of the diagonal, and unzipping starts one
side lower.

V(a, b) with b <= a - 2 has no schedule: its goal lies outside the span of its start
(Lemma U), so no sequence of moves reaches it; :func:`schedule` raises
:class:`~coinsat.errors.ConstructionError` and :func:`schedule_length` returns None.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..board import BoardKind
from ..errors import ConstructionError, UsageError
from ..families import TARGETS, diagonal_target, v_shape
from ..instance import Instance
from ..result import Engine, Result, Status
from ..solution import Solution, certify_solution
from ..theory import vbound
from .base import Construction

Coord = tuple[int, int]
Move = tuple[Coord, Coord]

__all__ = [
    "Absorption",
    "Schedule",
    "absorptions",
    "construct_vschedule",
    "flip_length",
    "flip_schedule",
    "ends",
    "schedule",
    "schedule_length",
    "step_costs",
    "solvable",
]


def solvable(a: int, b: int) -> bool:
    """V(a, b) -> a diagonal is solvable iff b >= a - 1 (Lemma U; for 0 <= b <= a)."""
    _check(a, b)
    return b >= a - 1


def _check(a: int, b: int, target: str = "nwse") -> None:
    if a < 1 or b < 0 or b > a:
        raise UsageError(f"V(a, b) needs a >= 1 and 0 <= b <= a, not ({a}, {b})")
    if target not in TARGETS:
        raise UsageError(f"target must be one of {', '.join(TARGETS)}, not {target!r}")


class Schedule:
    """The schedule's state: occupied cells (real coordinates), the two helpers, the moves.

    Steps work in a local frame: ``to_real(u, v)`` is ``(ox + u, v)`` or, mirrored,
    ``(ox - u, v)``; every step is stated for the Γ chain of the square [0, s-1]^2."""

    def __init__(self, a: int, b: int, target: str):
        _check(a, b, target)
        if not solvable(a, b):
            raise ConstructionError(
                f"V({a},{b}) -> {target} is unsolvable: its goal lies outside the span of its start "
                f"(b <= a - 2; docs/v-to-diagonal.md, Lemma U)"
            )
        self.a, self.b, self.target = a, b, target
        self.side = a + b + 2
        self.occ: set[Coord] = set(v_shape(a, b))
        self.moves: list[Move] = []
        self.costs: list[tuple[str, int, int]] = []  # (gadget, side, moves)
        self.mirror = target == "nwse"
        # the 2x2 block is at x = b, b+1; the local origin is its left (SW-NE) or right column
        self.ox = b + 1 if self.mirror else b
        self.helpers: list[Coord] = [self.real(1, 0), self.real(0, 1)]
        self.order = [c for k in range(1, a + 1) for c in ("TR", "TL")[: 1 + (k <= b)]]

    @classmethod
    def from_block(cls, cells: set[Coord], bx: int, order: list[str], side: int, target: str) -> "Schedule":
        """A schedule for any start made of the block {bx, bx+1} x {0, 1} and coins reached in
        ``order`` ('TR'/'TL': the top corner of the current square each lies diagonally off)."""
        self = cls.__new__(cls)
        self.a = self.b = -1
        self.target, self.side, self.order = target, side, list(order)
        self.occ, self.moves, self.costs = set(cells), [], []
        self.mirror = target == "nwse"
        self.ox = bx + 1 if self.mirror else bx
        self.helpers = [self.real(1, 0), self.real(0, 1)]
        return self

    # --- frames -----------------------------------------------------------------------
    def real(self, u: int, v: int) -> Coord:
        return (self.ox - u, v) if self.mirror else (self.ox + u, v)

    def local(self, p: Coord) -> Coord:
        return (self.ox - p[0], p[1]) if self.mirror else (p[0] - self.ox, p[1])

    # --- moves ------------------------------------------------------------------------
    def mv(self, src: Coord, dst: Coord) -> None:
        """Move the coin on local ``src`` to local ``dst`` (no check: rules.py replays later)."""
        s, d = self.real(*src), self.real(*dst)
        if s not in self.occ or d in self.occ:
            raise AssertionError(f"schedule bug: {src} -> {dst} (local) in V({self.a},{self.b})")
        self.occ.remove(s)
        self.occ.add(d)
        self.moves.append((s, d))

    def helper_to(self, dst: Coord, used: list[Coord]) -> Coord:
        """A helper onto local ``dst`` (skipped when one stands there); returns it (local)."""
        here = [self.local(h) for h in self.helpers]
        if dst in here:
            used.append(dst)
            return dst
        src = next(h for h in here if h not in used)
        self.mv(src, dst)
        self.helpers[here.index(src)] = self.real(*dst)
        used.append(dst)
        return dst

    def set_helpers(self, *cells: Coord) -> None:
        self.helpers = [self.real(*c) for c in cells]

    def relocate(self, cells: tuple[Coord, Coord]) -> None:
        """Helpers onto the two local ``cells`` (each held by two chain coins: Lemma D)."""
        here = [self.local(h) for h in self.helpers]
        todo = [c for c in cells if c not in here]
        free = [h for h in here if h not in cells]
        for src, dst in zip(free, todo):
            self.mv(src, dst)
        self.set_helpers(*cells)

    def _run(self, name: str, side: int, fn) -> None:
        before = len(self.moves)
        fn(side)
        self.costs.append((name, side, len(self.moves) - before))

    # --- gadget A: the coin at local (s, s), off the far top corner --------------------
    def gadget_a(self, s: int) -> None:
        """Γ of [0,s-1]^2 + coin (s, s) -> Γ of [0,s]^2 (Lemma A); helpers end at E(s)."""
        if s == 1:
            return
        used: list[Coord] = []
        h2 = self.helper_to((s - 2, s - 1), used)  # A2: held by (s-1, s-1) and (s-3, s-1) or (0, 0)
        h1 = self.helper_to((s - 1, s), used)  # A1: held by (s, s) and the corner (s-1, s-1)
        self.mv((s - 1, s - 1), (s - 2, s))  # A3: held by h1, h2
        for x in range(s - 3, 0, -2):  # the other top coins, right to left: the zipper
            self.mv(h1, (x, s))  # held by (x+1, s) and (x, s-1)
            h1 = (x, s)
            self.mv(h2, (x - 1, s - 1))  # held by (x, s-1) and (x-2, s-1) [or (0, s-2)]
            h2 = (x - 1, s - 1)
            self.mv((x, s - 1), (x - 1, s))  # held by h1 and h2
        self.set_helpers(h1, h2)

    def core_a(self, s: int) -> list[Move]:
        """Gadget A's moves after A1 and A2 (local), for a chain of side s: the reversible part."""
        moves = [((s - 1, s - 1), (s - 2, s))]
        h1, h2 = (s - 1, s), (s - 2, s - 1)
        for x in range(s - 3, 0, -2):
            moves += [(h1, (x, s)), (h2, (x - 1, s - 1)), ((x, s - 1), (x - 1, s))]
            h1, h2 = (x, s), (x - 1, s - 1)
        return moves

    # --- gadget B: the coin at local (-1, s), off the corner where the legs meet -----------
    def gadget_b(self, s: int) -> None:
        """Γ of [0,s-1]^2 + coin (-1, s) -> Γ of [-1,s-1] x [0,s] (Lemma B); the local origin
        moves one column out.  Two parities (the Γ's corner cell holds a coin iff s is odd)."""
        if s % 2:
            self._b_odd(s)
        else:
            self._b_even(s)
        self.ox += 1 if self.mirror else -1  # local (-1, .) becomes (0, .); helpers are kept real

    def _b_odd(self, s: int) -> None:
        r = s - 1  # the top row; the corner (0, r) holds a coin
        used: list[Coord] = []
        self.helper_to((-1, r), used)  # B1: held by q = (-1, r+1) and the corner (0, r)
        self.helper_to((0, r + 1), used)  # B2: held by q and the corner
        x_free = (-1, r + 1)  # q is free now
        for x in range(0, r - 1, 2):  # the top leg steps up, from the corner
            self.mv(x_free, (x + 1, r))  # held by (x, r) and (x+2, r)
            self.mv((x, r), (x + 1, r + 1))  # held by (x, r+1) and (x+1, r)
            self.mv((x + 1, r), (x + 2, r + 1))  # held by (x+1, r+1) and (x+2, r)
            x_free = (x + 1, r + 1)
        self.mv(x_free, (0, r))  # B3: the corner again, held by (-1, r) and (0, r+1)
        y_free = (r, r)  # the old top-right coin is free
        for y in range(r, 1, -2):  # the left leg steps left, from the top
            self.mv(y_free, (0, y - 1))  # held by (0, y) and (0, y-2)
            self.mv((0, y), (-1, y - 1))  # held by (-1, y) and (0, y-1)
            self.mv((0, y - 1), (-1, y - 2))  # held by (-1, y-1) and (0, y-2)
            y_free = (-1, y - 1)
        self.set_helpers((0, 0), y_free)

    def _b_even(self, s: int) -> None:
        r = s - 1  # the top row; the corner (0, r) is a gap, q = (-1, s) is the new corner
        used: list[Coord] = []
        self.helper_to((0, r), used)  # L1: held by (0, r-1) and (1, r)
        self.helper_to((-1, r), used)  # L2: held by q and (0, r)
        self.mv((0, r), (-1, r - 1))  # L3: held by (-1, r) and (0, r-1)
        y_free = (-1, r)
        for y in range(r - 1, 1, -2):  # the left leg steps left, from the top
            self.mv(y_free, (0, y - 1))
            self.mv((0, y), (-1, y - 1))
            self.mv((0, y - 1), (-1, y - 2))
            y_free = (-1, y - 1)
        if y_free != (-1, r):  # F1: held by q and (-1, r-1)
            self.mv(y_free, (-1, r))
        self.mv((0, 0), (0, r))  # F2: held by (-1, r) and (1, r)
        self.mv((-1, r), (0, s))  # F3: held by q and (0, r)
        self.mv((0, r), (1, s))  # F4: held by (0, s) and (1, r)
        x_free = (0, s)
        for x in range(1, r - 1, 2):  # the top leg steps up, from the corner
            self.mv(x_free, (x + 1, r))
            self.mv((x, r), (x + 1, s))
            self.mv((x + 1, r), (x + 2, s))
            x_free = (x + 1, s)
        self.set_helpers(x_free, (r, r))

    # --- unzipping: Γ of side k+1 (+ the diagonal beyond) -> the diagonal ---------------
    def unzip(self, k: int) -> None:
        """Γ of [0,k]^2 plus the diagonal coins (i, i), i > k -> the diagonal (Lemma D)."""
        for s in range(k, 1, -1):
            self.relocate(ends(s))
            for src, dst in reversed(self.core_a(s)):
                self.mv(dst, src)
            self.set_helpers((s - 1, s), (s - 2, s - 1))

    # --- the whole schedule -------------------------------------------------------------
    def run(self) -> "Schedule":
        s = 2
        order = self.order  # the coins in the order they are reached: TR, TL, TR, ... for the V
        last = len(order) - 1
        for i, corner in enumerate(order):
            gadget = "B" if (corner == "TR") == self.mirror else "A"
            if gadget == "A" and i == last:  # the last coin already ends the diagonal (Lemma D)
                self._run("D", s, lambda side: self.unzip(side - 1))
                break
            if gadget == "A":
                self._run("A", s, self.gadget_a)
            else:
                self._run("B", s, self.gadget_b)
            s += 1
        else:
            self._run("D", s, lambda side: self.unzip(side - 1))
        before = len(self.moves)
        self._finish()
        self.costs.append(("extras", self.side, len(self.moves) - before))
        return self

    def _finish(self) -> None:
        goal = set(diagonal_target(self.side, self.target))
        # the goal is stated in box coordinates; the V (v_shape) is already in them
        chain = self.occ - set(self.helpers)
        missing = sorted(goal - chain)
        if len(missing) != 2:
            raise AssertionError(f"schedule bug: the diagonal is not in place in V({self.a},{self.b})")
        self.relocate((self.local(missing[0]), self.local(missing[1])))


@dataclass(frozen=True)
class Absorption:
    """The move of a solution that first fills a cell beside an isolated coin of the V."""

    step: int  # 1-based
    index: int  # the coin's rank in the order TR, TL, TR, ... (Lemma V), from 1
    coin: Coord
    corner: str  # 'TR' or 'TL': the corner of the active square the coin is off
    near: bool  # the active square's corner beside the coin holds a coin
    opposite: bool  # its opposite corner holds a coin
    chain: bool  # a chain of coins (consecutive at distance <= 2) joins the two corners
    active: int  # coins in the active square


def absorptions(a: int, b: int, moves) -> list[Absorption]:
    """Where a solution of V(a, b) (moves as coordinate pairs) absorbs each isolated coin, and
    whether the active component is then a chain from the near corner to the opposite corner of
    its square, as the paper's proof of Theorem 'Lower Bound' asserts it must be (the exhibit of
    docs/v-to-diagonal.md, section 'Where the paper's proof breaks')."""
    occ = set(v_shape(a, b))
    right = sorted((p for p in occ if p[1] >= 2 and p[0] > b + 1), key=lambda p: p[1])
    left = sorted((p for p in occ if p[1] >= 2 and p[0] < b), key=lambda p: p[1])
    order = [c for pair in zip(right, [*left, None]) for c in pair if c is not None]
    x0, y0, x1, y1 = b, 0, b + 1, 1
    out: list[Absorption] = []
    j = 0
    for step, (src, dst) in enumerate(moves, 1):
        src, dst = tuple(src), tuple(dst)
        while j < len(order):
            p = order[j]
            if abs(dst[0] - p[0]) + abs(dst[1] - p[1]) != 1 or src == p:
                break
            right_side = p[0] > x1
            near, opp = ((x1, y1), (x0, y0)) if right_side else ((x0, y1), (x1, y0))
            act = [q for q in occ if x0 <= q[0] <= x1 and y0 <= q[1] <= y1]
            reach = {near} if near in occ else set()
            todo = list(reach)
            while todo:
                u = todo.pop()
                for v in act:
                    if v not in reach and abs(u[0] - v[0]) + abs(u[1] - v[1]) <= 2:
                        reach.add(v)
                        todo.append(v)
            corner = "TR" if right_side else "TL"
            out.append(Absorption(step, j + 1, p, corner, near in occ, opp in occ, opp in reach, len(act)))
            x0, x1, y1 = min(x0, p[0]), max(x1, p[0]), p[1]
            j += 1
        occ.remove(src)
        occ.add(dst)
    return out


def ends(s: int) -> tuple[Coord, Coord]:
    """E(s): where gadget A of side s leaves its helpers (local): two gaps of the Γ of side s+1."""
    return ((1, s), (0, s - 1)) if s % 2 == 0 else ((2, s), (1, s - 1))


def flip_schedule(k: int) -> list[Move]:
    """The k x k diagonal flip (``families.diagonal_flip``: SW-NE diagonal + extras -> NW-SE
    diagonal + extras) without search (docs/v-to-diagonal.md, Theorem F): the two extras jump
    beside (0, 0) and (1, 1), which makes the block; every further diagonal coin lies off the
    top-right corner of the square before it, and in the frame of the NW-SE target that corner
    is the Γ chain's elbow: gadget B for sides 2 .. k-1, then unzipping (Lemma D) and the
    extras (Lemma X)."""
    if k < 3:
        raise UsageError(f"a diagonal flip needs k >= 3, not {k}")
    cells = set(diagonal_target(k, "swne"))
    moves: list[Move] = []
    m = k // 2
    for src, dst in zip(((m - 1, m), (m, m - 1)), ((1, 0), (0, 1))):
        if src in ((1, 0), (0, 1)):
            continue
        free = dst if dst not in cells else next(c for c in ((1, 0), (0, 1)) if c not in cells)
        cells.remove(src)
        cells.add(free)
        moves.append((src, free))
    sched = Schedule.from_block(cells, 0, ["TR"] * (k - 2), k, "nwse").run()
    return moves + sched.moves


def flip_length(k: int) -> int:
    """F(k), the length of :func:`flip_schedule`, in closed form (Theorem F):
    F(k) = (9k^2 - 10k - 16)/4 for k even, (9k^2 - 10k - 11)/4 for k odd >= 5; F(3) = 8."""
    if k < 3:
        raise UsageError(f"a diagonal flip needs k >= 3, not {k}")
    if k == 3:
        return 8
    return (9 * k * k - 10 * k - (16 if k % 2 == 0 else 11)) // 4


def schedule(a: int, b: int, target: str = "nwse") -> list[Move]:
    """The move list of V(a, b) -> ``target`` (box coordinates), made without search."""
    return Schedule(a, b, target).run().moves


def step_costs(a: int, b: int, target: str = "nwse") -> list[tuple[str, int, int]]:
    """(gadget, side, moves) of each step: 'A', 'B', 'D' (unzipping) and 'extras'."""
    return Schedule(a, b, target).run().costs


def schedule_length(a: int, b: int, target: str = "nwse") -> int | None:
    """L(a, b, target): the length of :func:`schedule`, in closed form (Theorem L); None when
    V(a, b) is unsolvable (b <= a - 2, Lemma U).

    * NW-SE: L = (15 a^2 + 3 a - 2) / 2 for b = a and b = a - 1;
    * SW-NE: L = (15 a^2 + 21 a - 2) / 2 for b = a; for b = a - 1 it is L(a-1, a-1) (0 for a = 1).

    In the box side s = a + b + 2 = n - 2 the leading term is (15/8) s^2 in every case."""
    _check(a, b, target)
    if not solvable(a, b):
        return None
    if target == "nwse":
        return (15 * a * a + 3 * a - 2) // 2
    if b == a - 1:
        a -= 1
        if a == 0:
            return 0
    return (15 * a * a + 21 * a - 2) // 2


def construct_vschedule(instance: Instance) -> Construction:
    """``coinsat construct FILE --algorithm vschedule``: the schedule of a ``vdiag`` instance
    (recognised from its start and goal), or the flip schedule of a ``diagonal`` instance
    (``families.diagonal_flip``, Theorem F), replayed by rules.py."""
    t0 = time.perf_counter()
    k = _flip_side(instance)
    try:
        a, b, target = _recognise(instance)
    except ConstructionError:
        if k is None:
            raise
        plan, lower, what = flip_schedule(k), 1, f"diagonal flip, k = {k}"
        closed: int | None = flip_length(k)
    else:  # a V first (V(1, 0) -> NW-SE is also the 3 x 3 flip)
        plan, what, closed = schedule(a, b, target), f"V({a},{b}) -> {target}", schedule_length(a, b, target)
        lower = vbound.best_bound(a, b, target)  # Theorems LB and RF: proven for every solution
    board = instance.board
    try:
        moves = [(board.cell(s), board.cell(d)) for s, d in plan]
    except KeyError:
        raise ConstructionError("the V schedule needs the whole box on the board") from None
    solution = certify_solution(instance, Solution.of(moves), "vschedule")
    result = Result(
        status=Status.FEASIBLE,
        method="construct:vschedule",
        solution=solution,
        lower_bound=lower,
        seconds=time.perf_counter() - t0,
        stats={"schedule": what, "closed_form": closed},
        engine=Engine.CONSTRUCT,
    )
    return Construction(instance, result)


def _flip_side(instance: Instance) -> int | None:
    """k when the instance is the k x k diagonal flip of ``families.diagonal_flip`` (square grid,
    d = 2, fixed goal, in its coordinates), else None."""
    board = instance.board
    if board.kind is not BoardKind.SQUARE or instance.d != 2 or instance.goal_placement != "fixed":
        return None
    coords = board.lattice_coords
    start = sorted(coords[c] for c in instance.start.cells)
    k = len(start) - 2
    if k < 3 or start != sorted(diagonal_target(k, "swne")):
        return None
    goal = sorted(coords[c] for c in instance.goal.cells)
    return k if goal == sorted(diagonal_target(k, "nwse")) else None


def _recognise(instance: Instance) -> tuple[int, int, str]:
    """(a, b, target) of a V-to-diagonal instance: its start and goal must be exactly those of
    ``families.vdiag`` up to a translation."""
    board = instance.board
    if board.kind is not BoardKind.SQUARE or instance.d != 2 or instance.goal_placement != "fixed":
        raise ConstructionError("the V schedule applies to V-to-diagonal puzzles (square grid, d = 2, fixed goal)")
    coords = board.lattice_coords
    start = sorted(coords[c] for c in instance.start.cells)
    goal = sorted(coords[c] for c in instance.goal.cells)
    n = len(start)
    for a in range((n - 4) // 2, n - 3):
        b = n - 4 - a
        if not 0 <= b <= a:
            continue
        shape = v_shape(a, b)
        dx, dy = start[0][0] - shape[0][0], start[0][1] - shape[0][1]
        if [(x + dx, y + dy) for x, y in shape] != start:
            continue
        for target in TARGETS:
            if [(x + dx, y + dy) for x, y in diagonal_target(a + b + 2, target)] == goal:
                if (dx, dy) != (0, 0):
                    raise ConstructionError("the V schedule expects the V in vdiag's coordinates (x from 0, y from 0)")
                if not solvable(a, b):
                    raise ConstructionError(
                        f"V({a},{b}) -> {target} is unsolvable: its goal lies outside the span of its start "
                        f"(docs/v-to-diagonal.md, Lemma U)"
                    )
                return a, b, target
    raise ConstructionError(
        "not a V-to-diagonal puzzle nor a diagonal flip: start and goal are not those of coinsat family vdiag"
        " or diagonal"
    )
