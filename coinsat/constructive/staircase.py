"""Staircases with two helper coins: the moving parts of the square-grid construction.

A *staircase* is a chain of coins (consecutive coins at grid distance 1 or 2)
that is monotone from the top-left corner to the bottom-right corner of its
bounding rectangle R, read in a *frame* (identity, or the mirror x -> -x for
staircases that climb).  A chain spans its bounding box, so a staircase spans
R; with the fewest coins, ceil(h/2) for half-perimeter h, it is an "L" in the
paper's wide sense.  The paper's canonical L is the staircase whose coins all
sit lowest-leftmost on their diagonals, with the one short step (h odd) last.

Coins on a minimal staircase lie on the diagonals x - y = d_0 + 2i (shifted by
one after the short step); the coin of diagonal i sits at height s_i = x + y.
**Diagonal hop** (the paper's "flipping a 3-coin L", derived here): an inner
coin b may move to b +- (1, 1) when both chain neighbours lie on the side it
moves to; the two other corners of that unit square each touch b and one chain
neighbour, so the two helpers can be put there, then b's target and b's old
cell each touch both helpers: the move is legal and reversible.  Any minimal
staircase reaches any other with the same diagonals by hops (raise the lowest
coin that must rise, lower the highest that must fall), so flipping an L is
O(k^2) hops.

Absorbing coins, rotating, shrinking and splitting staircases: absorb.py.

Coins are unlabeled, so roles are bookkeeping: the chain and the helpers are
the *active* coins; the others are *pending* (not yet absorbed, never moved)
or *junk* (redundant).  A move of an active coin onto a cell holding a
passive one is done by the paper's emulation: no physical move, the roles
swap.  Every physical move goes through Play.move (rules.apply_move); on the
goal side of a puzzle (``reversible=True``) each move is also checked to be
reversible, and helpers are kept in *pockets* (cells with two neighbours) so
that they can always move again.  Where the local steps are not derived by
hand (walking a coin along a leg, moving the short step) they come from exact
search over a small window (coinsat.constructive.gadgets).
"""

from __future__ import annotations

from collections import Counter

from ..errors import GapError
from ..geometry import Coord, Matrix, apply, distance, neighbours
from .base import Play, phased
from .gadgets import GoalSpec, solve_window

IDENTITY = ((1, 0), (0, 1))
MIRROR = ((-1, 0), (0, 1))
SIGMA = ((0, -1), (-1, 0))  # (x, y) -> (-y, -x): keeps staircases descending, right side -> bottom
RHO = ((-1, 0), (0, -1))  # half turn: keeps staircases descending, right side -> left


def _inv(m):  # orthogonal integer matrices: inverse = transpose
    return ((m[0][0], m[1][0]), (m[0][1], m[1][1]))


def nbrs(p: Coord) -> tuple[Coord, ...]:
    """The four square-grid neighbours of ``p``."""
    return neighbours("square", p)


def dist(a: Coord, b: Coord) -> int:
    """The square-grid distance between ``a`` and ``b``."""
    return distance("square", a, b)


class Staircase:
    """Chain + two helpers on a Play, with role bookkeeping (module docstring)."""

    def __init__(self, play: Play, helpers, pending, reversible: bool):
        self.play = play
        self.rev = reversible
        self.frame: Matrix = IDENTITY  # frame -> real
        self.framed = False  # frame fixed (the chain is two-dimensional)
        self.chain: set[Coord] = set()
        self.helpers: list[Coord] = list(helpers)
        self.pending: set[Coord] = set(pending)
        self.walls: set[Coord] = set()  # passive coins of other rectangles: never disturbed
        self.stats: Counter = Counter()

    # --- geometry in a view (matrix view -> real) ------------------------------------
    def to(self, view, p):
        return apply(_inv(view), p)

    def back(self, view, q):
        return apply(view, q)

    def order(self, view=None):
        """Chain coins sorted top-left -> bottom-right in ``view`` (default: the frame)."""
        view = view or self.frame
        return sorted(self.chain, key=lambda p: (lambda q: q[0] - q[1])(self.to(view, p)))

    def rect(self, view=None, extra=()):
        view = view or self.frame
        pts = [self.to(view, p) for p in list(self.chain) + list(extra)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)

    def active(self) -> set[Coord]:
        return set(self.chain) | set(self.helpers)

    # --- moves ---------------------------------------------------------------------------
    def kmove(self, src: Coord, dst: Coord) -> None:
        """Move the active coin on ``src`` to ``dst`` (a role swap if a passive coin is there)."""
        occ = self.play.occ
        if dst in occ:
            if dst in self.chain or dst in self.helpers:
                raise GapError(f"internal: active coins collide at {dst}")
            if dst in self.pending:
                self.pending.discard(dst)
                self.pending.add(src)
            self._rename(src, dst)
            self.stats["role_swaps"] += 1
            return
        if self.rev and self.play.support(src) < 2:
            sub = self._substitute(src, dst)
            if sub is None:
                raise GapError(f"the move {src}->{dst} would not be reversible (a helper lost its support)")
            self.play.move(sub, dst)  # the stranded helper stays as junk; the coin from sub takes its role
            self._rename(src, dst)
            self.stats["substitutions"] += 1
            return
        self.play.move(src, dst)
        self._rename(src, dst)

    def _substitute(self, src: Coord, dst: Coord) -> Coord | None:
        """Goal side: a helper on ``src`` with fewer than two neighbours cannot move reversibly
        (a role swap put it on a lone junk cell).  Coins are unlabeled (paper, Lemma
        "emulation"), so a passive coin that can move reversibly onto ``dst`` does the move
        instead; the nearest one, or None."""
        if src not in self.helpers:
            return None
        busy = self.active() | self.pending | self.walls
        cands = [
            j for j in self.play.occ if j not in busy and self.play.support(j) >= 2 and self.play.support(dst, j) >= 2
        ]
        return min(cands, key=lambda j: (dist(j, dst), j)) if cands else None

    def _rename(self, src, dst):
        if src in self.chain:
            self.chain.discard(src)
            self.chain.add(dst)
        else:
            self.helpers[self.helpers.index(src)] = dst

    def pocket_support(self, q, lost=None, gained=None) -> int:
        """Neighbours of ``q`` held by non-helper coins (after ``lost`` leaves, ``gained`` fills)."""
        occ = self.play.occ
        return sum(1 for n in nbrs(q) if ((n in occ and n != lost) or n == gained) and n not in self.helpers)

    def find_pocket(self, near, avoid=(), within=None, lost=None, gained=None):
        """The empty cell nearest ``near`` with two non-helper neighbours (inside ``within``)."""
        occ = self.play.occ
        cands = {q for c in occ for q in nbrs(c)} - set(occ) - set(avoid)
        if gained is not None:
            cands.discard(gained)
        best = None
        for q in cands:
            if not self.play.on_board(q) or (within is not None and q not in within):
                continue
            if self.pocket_support(q) >= 2 and self.pocket_support(q, lost, gained) >= 2:
                key = (dist(q, near), q)
                best = key if best is None or key < best else best
        return None if best is None else best[1]

    def move_helper(self, h: Coord, q: Coord) -> None:
        if q not in self.play.occ and self.play.support(q, h) < 2:
            raise GapError(f"internal: no support for a helper at {q}")
        self.kmove(h, q)

    # --- diagonal hops -------------------------------------------------------------------
    def hop(self, b: Coord, v: Coord) -> None:
        """Move chain coin ``b`` by the diagonal ``v``, helpers on the two other corners.

        If both corners already hold coins and a helper next to ``b`` would lose its
        support, that helper jumps to the target instead and ``b`` becomes a helper
        (coins are unlabeled: same cells, roles swapped)."""
        dst = (b[0] + v[0], b[1] + v[1])
        corners = [(b[0] + v[0], b[1]), (b[0], b[1] + v[1])]
        occ = self.play.occ
        if dst in self.helpers:
            free = [c for c in corners if c not in occ]
            if not free:  # both corners held: the helper on dst and b just swap roles
                self.chain.discard(b)
                self.chain.add(dst)
                self.helpers[self.helpers.index(dst)] = b
                self.stats["hops"] += 1
                return
            spot = next((c for c in free if self.play.support(c, dst) >= 2), None)
            spot = spot or self.find_pocket(dst, avoid=corners + [dst], lost=dst)
            if spot is None:
                raise GapError(f"a helper on the hop target {dst} has nowhere to go")
            self.move_helper(dst, spot)
        spare = [h for h in self.helpers if h not in corners]
        empty = [c for c in corners if c not in occ]
        stranded = (
            [h for h in spare if self.rev and dist(h, b) == 1 and self._support_after(h, b, dst) < 2]
            if len(spare) > len(empty)
            else []
        )
        if stranded and dst not in occ:
            h = stranded[0]
            for c in empty:
                other = next(o for o in spare if o != h)
                spare.remove(other)
                self.move_helper(other, c)
            self.move_helper(h, dst)  # dst touches both corners
            self.chain.discard(b)
            self.chain.add(dst)
            self.helpers[self.helpers.index(dst)] = b
            self.stats["hops"] += 1
            return
        for c in empty:
            h = min(spare, key=lambda h: (dist(h, c), h))
            spare.remove(h)
            self.move_helper(h, c)
        for h in spare:
            if self.rev and dist(h, b) == 1 and self._support_after(h, b, dst) < 2:
                spot = self.find_pocket(h, avoid=corners + [dst], lost=b, gained=dst)
                if spot is None:
                    raise GapError(f"a helper at {h} would be stranded by a hop")
                self.move_helper(h, spot)
        self.kmove(b, dst)
        self.stats["hops"] += 1

    def stabilize(self) -> None:
        """Goal side: two helpers that only hold each other up (one non-helper neighbour each)
        would strand one another; move one next to the other on a cell with two non-helper
        neighbours, then the other to any such cell."""
        if not self.rev:
            return
        weak = [h for h in self.helpers if self.pocket_support(h) < 2]
        if len(weak) != 1 and not (len(weak) == 2 and dist(*self.helpers) == 1):
            return
        for h in sorted(self.helpers, key=lambda h: h in weak):
            other = next(o for o in self.helpers if o != h)
            if self.play.support(h) < 2:
                continue
            spots = [
                q
                for q in nbrs(other)
                if q not in self.play.occ
                and self.play.on_board(q)
                and self.pocket_support(q, lost=h) >= 2
                and self.play.support(q, h) >= 2
            ]
            if spots:
                self.move_helper(h, spots[0])
                if self.pocket_support(other) < 2:
                    q = self.find_pocket(other, avoid=[other])
                    if q is not None:
                        self.move_helper(other, q)
                return

    def hop_or_gadget(self, b: Coord, v: Coord) -> None:
        """A hop; if the helpers cannot do it as derived (one would lose its support), the
        same step by a window gadget."""
        try:
            self.hop(b, v)
        except GapError:
            dst = (b[0] + v[0], b[1] + v[1])
            if dst in self.chain or not self.gadget((self.chain - {b}) | {dst}, [b, dst]):
                raise

    def _support_after(self, h, lost, gained) -> int:
        occ = self.play.occ
        return sum(1 for n in nbrs(h) if (n in occ and n != lost) or n == gained)

    def _f(self, p):
        return self.to(self.frame, p)

    def _s(self, p):
        q = self._f(p)
        return q[0] + q[1]

    def chain_ok(self, a, b, c=None) -> bool:
        """Consecutive frame-monotone steps of length 1 or 2."""
        pts = [self._f(p) for p in (a, b, c) if p is not None]
        return all(u[0] <= w[0] and u[1] >= w[1] and 1 <= dist(u, w) <= 2 for u, w in zip(pts, pts[1:]))

    @phased("reshape")
    def reshape(self, target: dict[Coord, Coord]) -> None:
        """Hop every chain coin to its target cell on its own diagonal (module docstring)."""
        where = {p: p for p in self.chain}
        for _ in range(100_000):
            if all(where[o] == target[o] for o in where):
                return
            if not self.hop_once(where, target):
                raise GapError("internal: reshape found no legal hop")
        raise GapError("internal: reshape did not converge")

    def hop_once(self, where: dict[Coord, Coord], target: dict[Coord, Coord]) -> bool:
        """One hop toward ``target`` (``where``: each coin's original cell -> its cell now):
        the lowest coin that must rise, else the highest that must fall.  False if none can."""
        u = self.back(self.frame, (1, 1))
        order = self.order()
        pos = {p: i for i, p in enumerate(order)}
        todo = [o for o in where if where[o] != target[o]]
        rises = lambda o: self._s(target[o]) > self._s(where[o])  # noqa: E731
        for o in sorted(todo, key=lambda o: (rises(o), self._s(where[o]) * (1 if rises(o) else -1))):
            cur = where[o]
            v = u if rises(o) else (-u[0], -u[1])
            nxt = (cur[0] + v[0], cur[1] + v[1])
            i = pos[cur]
            if 0 < i < len(order) - 1 and self.chain_ok(order[i - 1], nxt, order[i + 1]):
                self.hop_or_gadget(cur, v)
                where[o] = nxt
                return True
        return False

    def extreme(self, view, high: bool) -> dict[Coord, Coord]:
        """Each chain coin's highest (or lowest) cell on its diagonal in the rectangle, read in ``view``."""
        x0, y0, x1, y1 = self.rect(view)
        out = {}
        for p in self.chain:
            q = self.to(view, p)
            d = q[0] - q[1]
            x = min(x1, y1 + d) if high else max(x0, y0 + d)
            out[p] = self.back(view, (x, x - d))
        return out

    # --- window gadgets ------------------------------------------------------------------
    def gadget(self, new_chain: set[Coord], around, radius: int = 2) -> bool:
        """Reach a configuration whose chain cells are ``new_chain`` (differing only near
        ``around``) with both helpers in pockets, by a window search; True on success."""
        xs = [p[0] for p in around]
        ys = [p[1] for p in around]
        for r in (radius, radius + 1, radius + 2):
            window = {
                (x, y)
                for x in range(min(xs) - r, max(xs) + r + 1)
                for y in range(min(ys) - r, max(ys) + r + 1)
                if self.play.on_board((x, y))
            }
            if any(p not in window for p in (self.chain ^ new_chain)):
                continue
            for h in list(self.helpers):  # helpers must be inside the window to take part
                if h not in window:
                    spot = self.find_pocket(
                        h if not xs else (xs[0], ys[0]), within=window, avoid=self.chain | new_chain
                    )
                    if spot is None:
                        break
                    self.move_helper(h, spot)
            if any(h not in window for h in self.helpers):
                continue
            req = frozenset(p for p in new_chain if p in window)
            moves = None
            for pockets in ("strict", True) if self.rev else (False,):
                moves = solve_window(
                    self.active(),
                    window,
                    GoalSpec(req, pockets=pockets),
                    reversible=self.rev,
                    walls=self.pending | self.walls,
                )
                if moves is not None:
                    break
            if moves is None:
                continue
            for s, p in moves:
                self.kmove(s, p)
            cells = self.active()
            assert new_chain <= cells, "gadget did not reach its goal"
            self.chain = set(new_chain)
            self.helpers = sorted(cells - new_chain)
            self.stats["window_gadgets"] += 1
            self.stabilize()
            return True
        return False

    # --- chain upkeep --------------------------------------------------------------------
    @phased("minimalize")
    def minimalize(self) -> None:
        """Drop redundant chain coins (they become junk) and merge pairs of short steps."""
        for _ in range(200):
            order = self.order()
            for i in range(1, len(order) - 1):
                if self.chain_ok(order[i - 1], order[i + 1]):
                    self.chain.discard(order[i])
                    self.stats["dropped"] += 1
                    break
            else:
                shorts = [i for i in range(len(order) - 1) if self._dd(order[i], order[i + 1]) == 1]
                if len(shorts) < 2:
                    return
                self.shift_short(shorts[0], forward=True)
        raise GapError("internal: minimalize did not converge")

    def _dd(self, a, b):
        fa, fb = self._f(a), self._f(b)
        return (fb[0] - fb[1]) - (fa[0] - fa[1])

    @phased("short")
    def shift_short(self, i: int, forward: bool) -> None:
        """Move the short step between chain coins i and i+1 one coin forward (or back)."""
        order = self.order()
        if forward:
            a, b, c = order[i], order[i + 1], order[i + 2]
        else:
            a, b, c = order[i + 1], order[i], order[i - 1]
        fa, fc = self._f(a), self._f(c)
        cands = []
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                q = (fa[0] + dx, fa[1] + dy)
                real = self.back(self.frame, q)
                if real == b or real in self.chain or not self.play.on_board(real):
                    continue
                if (
                    dist(fa, q) == 2
                    and dist(q, fc) == 1
                    and (self.chain_ok(a, real, c) if forward else self.chain_ok(c, real, a))
                ):
                    cands.append(real)
        for q in sorted(cands, key=lambda q: (dist(q, b), q)):
            if self.gadget((self.chain - {b}) | {q}, [b, q]):
                self.stats["short_shifts"] += 1
                return
        raise GapError("no window gadget moves the short step of the staircase")

    @phased("canonical")
    def canonical(self) -> None:
        """Turn the staircase into the paper's canonical L (in the frame): short step last,
        every coin lowest-leftmost on its diagonal."""
        self.minimalize()
        for _ in range(100):
            order = self.order()
            shorts = [i for i in range(len(order) - 1) if self._dd(order[i], order[i + 1]) == 1]
            if not shorts or shorts[0] == len(order) - 2:
                break
            self.shift_short(shorts[0], forward=True)
        self.reshape(self.extreme(self.frame, high=False))
