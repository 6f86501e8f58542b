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

**Rotation** (the paper's induction): make the first step straight, peel the
top-left coin (it becomes a pending coin that nothing may disturb), rotate the
rest, and walk the peeled coin back along the side it extends; a 2x2
staircase rotates by putting the helpers on its other diagonal and swapping
roles.  **Splitting / shrinking** (start side only): hop the coins onto a
monotone path through the corners of smaller rectangles and cut.

Coins are unlabeled, so roles are bookkeeping: the chain and the helpers are
the *active* coins; the others are *pending* (not yet absorbed, never moved)
or *junk* (redundant).  A move of an active coin onto a cell holding a
passive one is done by the paper's emulation: no physical move, the roles
swap.  Every physical move goes through Play.move (rules.apply_move); on the
goal side of a puzzle (``reversible=True``) each move is also checked to be
reversible, and helpers are kept in *pockets* (cells with two neighbours) so
that they can always move again.  Where the local steps are not derived by
hand (walking a coin along a leg, moving the short step) they come from exact
search over a small window (coinsat.constructive.window).
"""

from __future__ import annotations

from collections import Counter

from ..geometry import Coord, apply
from .base import ConstructionError, Play
from .window import GoalSpec, solve_window

IDENTITY = ((1, 0), (0, 1))
MIRROR = ((-1, 0), (0, 1))
SIGMA = ((0, -1), (-1, 0))  # (x, y) -> (-y, -x): keeps staircases descending, right side -> bottom
RHO = ((-1, 0), (0, -1))  # half turn: keeps staircases descending, right side -> left


def _mul(a, b):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(2)) for j in range(2)) for i in range(2))


def _inv(m):  # orthogonal integer matrices: inverse = transpose
    return ((m[0][0], m[1][0]), (m[0][1], m[1][1]))


def nbrs(p: Coord):
    x, y = p
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def dist(a: Coord, b: Coord) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class GapError(ConstructionError):
    """A documented gap of the square construction (message says which)."""


class Engine:
    """Chain + two helpers on a Play, with role bookkeeping (module docstring)."""

    def __init__(self, play: Play, helpers, pending, reversible: bool):
        self.play = play
        self.rev = reversible
        self.frame = IDENTITY  # frame -> real
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
            raise GapError(f"the move {src}->{dst} would not be reversible (a helper lost its support)")
        self.play.move(src, dst)
        self._rename(src, dst)

    def _rename(self, src, dst):
        if src in self.chain:
            self.chain.discard(src)
            self.chain.add(dst)
        else:
            self.helpers[self.helpers.index(src)] = dst

    def pocket_support(self, q, lost=None, gained=None) -> int:
        """Neighbours of ``q`` held by non-helper coins (after ``lost`` leaves, ``gained`` fills)."""
        occ = self.play.occ
        return sum(1 for n in nbrs(q)
                   if ((n in occ and n != lost) or n == gained) and n not in self.helpers)

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
        stranded = [h for h in spare if self.rev and dist(h, b) == 1
                    and self._support_after(h, b, dst) < 2] if len(spare) > len(empty) else []
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

    def reshape(self, target: dict[Coord, Coord]) -> None:
        """Hop every chain coin to its target cell on its own diagonal (module docstring)."""
        where = {p: p for p in self.chain}
        u = self.back(self.frame, (1, 1))
        for _ in range(100_000):
            todo = [o for o in where if where[o] != target[o]]
            if not todo:
                return
            order = self.order()
            pos = {p: i for i, p in enumerate(order)}
            for o in sorted(todo, key=lambda o: (self._s(target[o]) > self._s(where[o]),
                                                 self._s(where[o]) * (1 if self._s(target[o]) > self._s(where[o]) else -1))):
                cur = where[o]
                v = u if self._s(target[o]) > self._s(cur) else (-u[0], -u[1])
                nxt = (cur[0] + v[0], cur[1] + v[1])
                i = pos[cur]
                if 0 < i < len(order) - 1 and self.chain_ok(order[i - 1], nxt, order[i + 1]):
                    self.hop(cur, v)
                    where[o] = nxt
                    break
            else:
                raise GapError("internal: reshape found no legal hop")
        raise GapError("internal: reshape did not converge")

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
            window = {(x, y) for x in range(min(xs) - r, max(xs) + r + 1)
                      for y in range(min(ys) - r, max(ys) + r + 1)
                      if self.play.on_board((x, y))}
            if any(p not in window for p in (self.chain ^ new_chain)):
                continue
            for h in list(self.helpers):  # helpers must be inside the window to take part
                if h not in window:
                    spot = self.find_pocket(h if not xs else (xs[0], ys[0]), within=window,
                                            avoid=self.chain | new_chain)
                    if spot is None:
                        break
                    self.move_helper(h, spot)
            if any(h not in window for h in self.helpers):
                continue
            req = frozenset(p for p in new_chain if p in window)
            moves = None
            for pockets in (("strict", True) if self.rev else (False,)):
                moves = solve_window(self.active(), window, GoalSpec(req, pockets=pockets),
                                     reversible=self.rev, walls=self.pending | self.walls)
                if moves is not None:
                    break
            if moves is None:
                continue
            for s, p in moves:
                self.kmove_any(s, p)
            cells = self.active()
            assert new_chain <= cells, "gadget did not reach its goal"
            self.chain = set(new_chain)
            self.helpers = sorted(cells - new_chain)
            self.stats["window_gadgets"] += 1
            return True
        return False

    def kmove_any(self, s, p):
        """kmove for a gadget's move: the coin may be a chain coin or a helper."""
        self.kmove(s, p)

    # --- absorbing coins -----------------------------------------------------------------
    def classify(self, t: Coord, frame=None):
        """Where ``t`` lies relative to the chain's rectangle, read in ``frame``:
        'junk' (inside), 'first' (no chain yet), 'head'/'tail' (it becomes the new
        top-left / bottom-right corner), 'bad' (top-right / bottom-left corner) or
        ('side', view) with the view in which it is on the right side."""
        if not self.chain:
            return "first"
        frame = frame or self.frame
        x0, y0, x1, y1 = self.rect(frame)
        x, y = self.to(frame, t)
        if x0 <= x <= x1 and y0 <= y <= y1:
            return "junk"
        nx0, ny0, nx1, ny1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
        if (x, y) == (nx0, ny1):
            return "head"
        if (x, y) == (nx1, ny0):
            return "tail"
        if not (x0 <= x <= x1 or y0 <= y <= y1):  # it extends both dimensions, off the diagonal
            return "bad"
        g = IDENTITY if x > x1 else RHO if x < x0 else _mul(RHO, SIGMA) if y > y1 else SIGMA
        return ("side", _mul(frame, g))

    def absorb(self, t: Coord) -> str:
        """Make the pending coin on ``t`` part of the structure (or junk); returns its class."""
        self.pending.discard(t)
        kind = self.classify(t)
        if kind == "bad" and not self.framed:
            self.frame = MIRROR if self.frame == IDENTITY else IDENTITY
            kind = self.classify(t)
        if kind == "first":
            self.chain.add(t)
        elif kind == "junk":
            pass
        elif kind in ("head", "tail"):
            self.chain.add(t)
        elif kind == "bad":
            self.rotate()
            self.pending.add(t)
            return self.absorb(t)
        else:
            self.walk_side(t, kind[1])
        x0, y0, x1, y1 = self.rect(IDENTITY)
        if x0 != x1 and y0 != y1:
            self.framed = True
        if kind != "junk":
            self.minimalize()
        self.stats[kind if isinstance(kind, str) else "side"] += 1
        return kind if isinstance(kind, str) else "side"

    def walk_side(self, t: Coord, view) -> None:
        """``t`` lies beside the right side of the chain (read in ``view``): raise the chain
        there, then walk ``t`` down along it to the new corner by window gadgets."""
        self.reshape(self.extreme(view, high=True))
        x0, y0, x1, y1 = self.rect(view)
        self.chain.add(t)
        for _ in range(4 * (y1 - y0) + 8):
            tx, ty = self.to(view, t)
            if ty == y0:
                return
            for step in (2, 1):
                nt = self.back(view, (tx, max(ty - step, y0)))
                if nt in self.chain or nt == t:
                    continue
                new_chain = (self.chain - {t}) | {nt}
                if self.gadget(new_chain, [t, nt]):
                    t = nt
                    self.stats["walk_steps"] += 1
                    break
            else:
                raise GapError("no window gadget walks a coin along the side of the staircase")
        raise GapError("internal: walk did not end")

    # --- chain upkeep --------------------------------------------------------------------
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
                if dist(fa, q) == 2 and dist(q, fc) == 1 and (
                        self.chain_ok(a, real, c) if forward else self.chain_ok(c, real, a)):
                    cands.append(real)
        for q in sorted(cands, key=lambda q: (dist(q, b), q)):
            if self.gadget((self.chain - {b}) | {q}, [b, q]):
                self.stats["short_shifts"] += 1
                return
        raise GapError("no window gadget moves the short step of the staircase")

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

    def shrink(self, rect) -> None:
        """Make the chain a staircase of the smaller rectangle ``rect`` (see :meth:`split`)."""
        self.chain = self.split([rect])[0]

    def split(self, rects) -> list[set[Coord]]:
        """Cut the chain into staircases of the smaller rectangles ``rects`` (real
        coordinates, inside the chain's, in the order the chain meets them): hop the coins onto
        a monotone path through their corners (along each one's left and bottom sides, along
        rows then columns between them), keep the coins from each top-left to bottom-right
        corner, and let the others become junk.  A corner whose diagonal carries no coin is then
        touched by the coins of the two neighbouring diagonals and gets a junk coin dropped on
        it.  Forward moves only (the start side): the span shrinks.  Returns the chains."""
        boxes = []
        for rx0, ry0, rx1, ry1 in rects:
            cs = [self._f(p) for p in ((rx0, ry0), (rx0, ry1), (rx1, ry0), (rx1, ry1))]
            boxes.append((min(c[0] for c in cs), min(c[1] for c in cs),
                          max(c[0] for c in cs), max(c[1] for c in cs)))
        order = sorted(range(len(boxes)), key=lambda i: boxes[i][0] - boxes[i][3])
        X0, Y0, X1, Y1 = self.rect()
        way = [(X0, Y1)]  # the corners the path must visit, in order
        for i in order:
            x0, y0, x1, y1 = boxes[i]
            if way[-1][0] > x0 or way[-1][1] < y1:
                raise GapError("one rectangle of span(A - E) holds several of span(B - E) that no "
                               "staircase meets in turn: splitting it is not implemented")
            way += [(x0, y1), (x1, y0)]
        way.append((X1, Y0))
        target = {}
        for p in self.chain:
            d = self._f(p)[0] - self._f(p)[1]
            for k in range(len(way) - 1):
                (ax, ay), (bx, by) = way[k], way[k + 1]
                if ax - ay <= d <= bx - by:
                    if k % 2:  # inside a rectangle: its left side, then its bottom row
                        x = max(ax, by + d)
                    else:  # between rectangles: along row ay, then down column bx
                        x = d + ay if d + ay <= bx else bx
                    break
            target[p] = self.back(self.frame, (x, x - d))
        self.reshape(target)
        pieces = []
        for k in range(1, len(way) - 1, 2):
            lo, hi = way[k][0] - way[k][1], way[k + 1][0] - way[k + 1][1]
            pieces.append({p for p in self.chain if lo <= self._f(p)[0] - self._f(p)[1] <= hi})
        self.stats["shrunk"] += len(self.chain) - sum(len(c) for c in pieces)
        self.chain = set().union(*pieces)
        for k, piece in zip(range(1, len(way) - 1, 2), pieces):
            for corner in (way[k], way[k + 1]):
                real = self.back(self.frame, corner)
                if real not in piece:
                    self._fill(real)
                    piece.add(real)
        while len(self.helpers) < 2:  # a helper was used as filling: promote a junk coin
            spare = sorted(set(self.play.occ) - self.active() - self.pending - self.walls)
            if not spare:
                raise GapError("reducing the span: no coin left to serve as a helper")
            self.helpers.append(spare[0])
        return [pieces[order.index(i)] for i in range(len(boxes))]

    def _fill(self, q: Coord) -> None:
        """Forward moves only: drop a junk coin (or a helper) on ``q`` and make it a chain coin."""
        if q in self.play.occ:  # already held by a junk coin or a helper: adopt it
            if q in self.helpers:
                self.helpers.remove(q)
            self.chain.add(q)
            return
        material = sorted(set(self.play.occ) - self.active() - self.pending - self.walls,
                          key=lambda m: (-dist(m, q), m))
        for m in material + sorted(self.helpers):
            if self.play.support(q, m) >= 2:
                self.play.move(m, q)
                if m in self.helpers:
                    self.helpers.remove(m)
                self.chain.add(q)
                self.stats["inserted"] += 1
                return
        raise GapError("reducing the span: a corner of span(B - E) cannot be filled")

    def rotate(self) -> None:
        """Turn the staircase into one that climbs the other diagonal of its rectangle (the
        paper's rotation by induction): peel the top-left coin after making the first step
        straight, rotate the rest, and walk the peeled coin back along the side it extends."""
        peeled = []
        while len(self.chain) > 1:
            x0, y0, x1, y1 = self.rect()
            if x0 == x1 or y0 == y1:
                break
            if x1 - x0 == 1 and y1 - y0 == 1:
                self._rotate_square()
                break
            self.reshape(self.extreme(self.frame, high=y1 - y0 < 2))
            order = self.order()
            a, b = self._f(order[0]), self._f(order[1])
            if a[0] != b[0] and a[1] != b[1]:
                raise GapError("internal: rotation could not straighten the first step")
            self.chain.discard(order[0])
            self.pending.add(order[0])
            peeled.append(order[0])
        self.frame = _mul(self.frame, MIRROR)
        self.framed = True
        self.stats["rotations"] += 1
        for t in reversed(peeled):
            kind = self.absorb(t)
            if kind == "bad":
                raise GapError("internal: rotation re-absorbed a coin at a bad corner")

    def _rotate_square(self) -> None:
        """A 2x2 staircase (two diagonal coins): the other diagonal gets filled (by the helpers
        or by junk already there) and the roles swap; the old chain coins, each now touching
        both new ones, become helpers (or junk, when junk was adopted)."""
        x0, y0, x1, y1 = self.rect(IDENTITY)
        other = [p for p in ((x0, y0), (x0, y1), (x1, y0), (x1, y1)) if p not in self.chain]
        for q in other:
            if q in self.play.occ:
                continue
            h = next(h for h in self.helpers if h not in other)
            self.move_helper(h, q)
        old = sorted(self.chain)
        spare = [h for h in self.helpers if h not in other]
        self.chain = set(other)
        self.helpers = (spare + old)[:2]
