"""Absorbing coins into a staircase, rotating it, shrinking and splitting it.

Built on :class:`coinsat.constructive.staircase.Staircase` (hops, reshaping,
window gadgets).  A pending coin t within distance 2 of the staircase's
rectangle R is absorbed according to where it lies (read in the frame where
the staircase descends): inside R it is junk; at the new top-left or
bottom-right corner it is prepended or appended; beside a side of R it is
walked along that side to such a corner (the staircase is first raised to run
along that side, then window gadgets move t two cells at a time); at the two
other corners it is absorbed by the zipper below, or the staircase is rotated
first.

**Zipper** (ours; the paper rotates here): a coin t touching the rectangle's
top-right corner diagonally (read in the frame, or the bottom-left one read
upside down).  Raise the staircase so that it runs along the top and right
sides; then the cell beside the corner is supported by the corner coin and t,
and each coin of the top leg, from the right, can step up one row onto a cell
held up by its neighbour that already moved and a helper (likewise the right
leg steps right, from the top).  Each step is a window gadget, so absorbing t
costs O(k) gadgets plus the raising, which is cheap when the staircase was
raised for the previous coin; a rotation costs Theta(k^2) moves.  This is why
the V family, which the paper's Theorem "Lower Bound" says needs Theta(n^3)
moves (every isolated coin forcing a flip of the active chain), is built here
with far fewer (benchmarks/construct_phases.md).  If a step is not found, the
moves made are taken back and the staircase rotates, as before.

**Rotation** (the paper's induction): make the first step straight, peel the
top-left coin (it becomes a pending coin that nothing may disturb), rotate the
rest, and walk the peeled coin back along the side it extends; a 2x2
staircase rotates by filling its other diagonal and swapping roles.

**Shrinking / splitting** (start side only, forward moves): hop the coins onto
a monotone path through the corners of smaller rectangles and cut the chain
there; a corner whose diagonal carries no coin gets a junk coin dropped on it.
"""

from __future__ import annotations

from ..errors import GapError
from ..geometry import Coord, compose
from .base import phased
from .staircase import IDENTITY, MIRROR, RHO, SIGMA, Staircase, dist

__all__ = ["Engine"]


class Engine(Staircase):
    """A staircase that absorbs pending coins, rotates and splits (module docstring)."""

    #: absorb a diagonal corner coin by the zipper (False: always rotate, the old way; kept
    #: so that scripts/construct_phases.py can measure both in one run)
    zipper: bool = True

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
        g = IDENTITY if x > x1 else RHO if x < x0 else compose(RHO, SIGMA) if y > y1 else SIGMA
        return ("side", compose(frame, g))

    def classify_framing(self, t: Coord):
        """:meth:`classify`, after choosing the frame while the chain is still a line (a coin at
        one of the other two corners then makes the staircase climb instead)."""
        kind = self.classify(t)
        if kind == "bad" and not self.framed:
            self.frame = MIRROR if self.frame == IDENTITY else IDENTITY
            kind = self.classify(t)
        return kind

    @phased("absorb")
    def absorb(self, t: Coord) -> str:
        """Make the pending coin on ``t`` part of the structure (or junk); returns its class."""
        self.pending.discard(t)
        kind = self.classify_framing(t)
        if kind == "first":
            self.chain.add(t)
        elif kind == "junk":
            pass
        elif kind in ("head", "tail"):
            self.chain.add(t)
        elif kind == "bad":
            if not (self.zipper and self.extend_corner(t)):
                self.rotate()
                self.pending.add(t)
                return self.absorb(t)
            kind = "corner"
        else:
            self.walk_side(t, kind[1])
        x0, y0, x1, y1 = self.rect(IDENTITY)
        if x0 != x1 and y0 != y1:
            self.framed = True
        if kind != "junk":
            self.minimalize()
        self.stats[kind if isinstance(kind, str) else "side"] += 1
        return kind if isinstance(kind, str) else "side"

    @phased("corner")
    def extend_corner(self, t: Coord) -> bool:
        """Absorb ``t`` at one of the two other corners without rotating, when it touches that
        corner diagonally: raise the staircase to run along the two sides that meet there, then
        push both legs one cell outward, coin by coin from the corner (a zipper: each coin's new
        cell is supported by its neighbour already moved and a helper, so each step is a local
        window gadget).  The staircase still descends, in a rectangle one larger each way.
        O(k) gadget steps, where a rotation costs O(k^2) hops.  False (and nothing changed)
        when a step is not found; the caller then rotates."""
        view = self.frame
        x0, y0, x1, y1 = self.rect(view)
        tx, ty = self.to(view, t)
        if (tx, ty) != (x1 + 1, y1 + 1):
            view = compose(self.frame, RHO)  # the bottom-left corner, read as the top-right one
            x0, y0, x1, y1 = self.rect(view)
            tx, ty = self.to(view, t)
            if (tx, ty) != (x1 + 1, y1 + 1):
                return False
        if x0 == x1 or y0 == y1:
            return False
        saved = self._save()
        try:
            self.reshape(self.extreme(view, high=True))
            steps = self._zipper(view, t)
            if steps is None:
                raise GapError("the staircase does not run along the two sides after raising it")
            self.chain.add(t)
            for old, new in steps:
                target = (self.chain - set(old)) | set(new)
                if not self.gadget(target, list(old) + list(new)):
                    raise GapError("no window gadget pushes a leg of the staircase outward")
        except GapError:
            self._load(saved)
            return False
        self.stats["corner_extends"] += 1
        return True

    def _zipper(self, view, t: Coord):
        """The steps of :meth:`extend_corner` (real cells): the corner first, then the top leg
        from the right, then the right leg from the top; None if the chain is not raised."""
        x0, y0, x1, y1 = self.rect(view)
        pts = [self.to(view, p) for p in self.chain]
        if any(y != y1 and x != x1 for x, y in pts):
            return None
        top = sorted((p for p in pts if p[1] == y1 and p[0] < x1), reverse=True)
        col = sorted((p for p in pts if p[0] == x1 and p[1] < y1), key=lambda p: -p[1])
        if not top or not col:
            return None
        real = lambda q: self.back(view, q)  # noqa: E731
        steps: list[tuple[tuple[Coord, ...], tuple[Coord, ...]]] = []
        if (x1, y1) in pts:  # the corner coin and t take two cells of the new corner's path
            xa, yb = top[0][0], col[0][1]
            path = [(x, y1 + 1) for x in range(xa, x1 + 2)] + [(x1 + 1, y) for y in range(y1, yb - 1, -1)]
            m = len(path) - 1
            picks = (1, 3) if m == 4 else (2, m - 2)
            steps.append(((real((x1, y1)), t), (real(path[picks[0]]), real(path[picks[1]]))))
        steps += [((real(p),), (real((p[0], y1 + 1)),)) for p in top]
        steps += [((real(p),), (real((x1 + 1, p[1])),)) for p in col]
        return steps

    def _save(self):
        play = self.play
        return (
            play.config,
            dict(play.occ),
            len(play.moves),
            play.tally.copy(),
            set(self.chain),
            list(self.helpers),
            set(self.pending),
            self.frame,
            self.framed,
            self.stats.copy(),
        )

    def _load(self, saved) -> None:
        play = self.play
        play.config, occ, n, play.tally, chain, helpers, pending, self.frame, self.framed, self.stats = saved
        play.occ = dict(occ)
        del play.moves[n:]
        self.chain, self.helpers, self.pending = set(chain), list(helpers), set(pending)

    @phased("walk")
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

    def shrink(self, rect) -> None:
        """Make the chain a staircase of the smaller rectangle ``rect`` (see :meth:`split`)."""
        self.chain = self.split([rect])[0]

    @phased("split")
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
            boxes.append((min(c[0] for c in cs), min(c[1] for c in cs), max(c[0] for c in cs), max(c[1] for c in cs)))
        order = sorted(range(len(boxes)), key=lambda i: boxes[i][0] - boxes[i][3])
        X0, Y0, X1, Y1 = self.rect()
        way = [(X0, Y1)]  # the corners the path must visit, in order
        for i in order:
            x0, y0, x1, y1 = boxes[i]
            if way[-1][0] > x0 or way[-1][1] < y1:
                raise GapError(
                    "one rectangle of span(A - E) holds several of span(B - E) that no "
                    "staircase meets in turn: splitting it is not implemented"
                )
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
        material = sorted(
            set(self.play.occ) - self.active() - self.pending - self.walls, key=lambda m: (-dist(m, q), m)
        )
        for m in material + sorted(self.helpers):
            if self.play.support(q, m) >= 2:
                self.play.move(m, q)
                if m in self.helpers:
                    self.helpers.remove(m)
                self.chain.add(q)
                self.stats["inserted"] += 1
                return
        raise GapError("reducing the span: a corner of span(B - E) cannot be filled")

    @phased("rotate")
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
        self.frame = compose(self.frame, MIRROR)
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
