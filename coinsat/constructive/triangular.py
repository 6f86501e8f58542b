"""Theorem 1 (triangular grid, d = 2) made constructive.

Contract.  :func:`construct_triangular` returns a verified solution whenever
Theorem 1 says the puzzle is solvable; otherwise it raises
:class:`~coinsat.constructive.base.ConstructionError` naming the condition
that fails.  The theorem: A can be rearranged into a different B iff A has a
valid move, the coin counts match, and B has (1) a triangle, or (2) a
connected component of >= 4 coins, or (3) a component of >= 3 coins and
another of >= 2, or (4) B is one move from A.  Labeled coins: the same, except
with exactly three coins, where every triangle keeps each coin on its colour
class of the vertex 3-colouring ``(x - y) mod 3`` (a triangle's only moves are
flips across an edge, which land on the vacated cell's colour).

The algorithm is the paper's sufficiency proof:

* **getting started** — a valid move of A either closes a triangle or makes a
  path x-p-y; then x moves to a common neighbour of p and y (both empty, or a
  triangle already exists).
* **maneuvering with ghost coins** — the triangle T is a set of three mutually
  adjacent *occupied* cells; three designated coins F (chosen by label: the
  labels of B's triangle) do all the walking.  Stepping across the edge {b, c}
  opposite a onto q = b + c - a: if q is occupied, nothing moves (the occupant
  is a ghost); otherwise some coin of F not on b or c jumps to q (legal: q
  touches b and c).  So F need not start inside T — this is also the labeled
  "bootstrapping".  Triangles are indexed by their strips (min x, min y,
  min x+y); the dual-grid distance is the sum of the strip differences and
  every triangle has a neighbour one closer, so a greedy walk is a geodesic and
  stays inside the strip box of its two ends (hence inside a hexagonal window
  that holds both ends).  Ghost steps cost no move and are preferred.
* **transportation** — for each unplaced coin c and its destination d: walk T
  onto one of the six triangles with an edge facing d that avoid c; if d is
  occupied (never by a placed coin) move that coin to another valid
  destination; then c jumps to d.  Placed coins are never moved again.
* **finale** — walk T onto B's triangle: all other coins are placed, so the
  occupants are F.  If F's labels are permuted, walk to a spot where a pivot
  vertex u touches a non-F coin and the cell o opposite u (beyond edge v-w) is
  empty; there swap(u, x) = [u->o, x->u, o->x] (legal: o touches v, w; u keeps
  its other triangle neighbour and the outside coin; x touches u and the
  third vertex).  The walk back is deterministic in the cells, so it is
  simulated first with tokens to know which arrangement to build at the spot.
* **properties 2 and 3** — reverse-move p2 of a path p1-p2-p3(-p4) next to
  {p3, p4} (resp. an adjacent pair {q1, q2} of another component): the cell is
  empty because B has no triangle; build that B' (property 1), then move the
  coin back to p2 (legal: p1 and p3 are occupied).

The verdict comes from :func:`coinsat.theory.triangular.decide` (the exact
decider), which corrects condition 2: a *claw* (a coin with three pairwise
non-adjacent neighbours) is a 4-coin component without a 4-coin path, the
paper's step "there is a path in B of length four" fails, and such goals are
unreachable unless one move away.  Should a claw goal ever get here, the
construction refuses it itself (``CLAW_GAP``).

Cost: <= 2 moves to start, each transport O(d) walk steps + 2 moves, the
finale O(d) + 9: O(n d) moves, with d the diameter of A u B.  Each move is
replayed by rules.apply_move on the immutable Configuration (O(n) per move),
so the measured running time is O(n^2 d) here, not the paper's O(n d).

Windows: every cell used lies within distance 2 of a cell of A u B, so the
default window (hull + 2) normally suffices; when a cell outside is needed the
instance is rebuilt with a wider margin (``Construction.instance``).
"""

from __future__ import annotations

from collections import Counter, deque

from ..errors import ConstructionError, WindowTooSmall
from ..geometry import Coord, apply, distance, neighbours, symmetries
from ..instance import Instance
from ..theory.triangular import decide, placement_of, triangle_type
from .base import Construction, Play, run_construction

KIND = "triangular"
# The six unit directions in cyclic order: consecutive ones are adjacent to each other.
RING = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
MARGINS = (2, 3, 4, 6)

Triangle = tuple[Coord, Coord, Coord]


def _add(a: Coord, b: Coord) -> Coord:
    return (a[0] + b[0], a[1] + b[1])


def _dist(a: Coord, b: Coord) -> int:
    return distance(KIND, a, b)


def _nbrs(p: Coord) -> tuple[Coord, ...]:
    return neighbours(KIND, p)


def colour(p: Coord) -> int:
    """The vertex 3-colouring of the triangular grid (adjacent cells differ)."""
    return (p[0] - p[1]) % 3


def triangles_at(p: Coord) -> list[Triangle]:
    """The six unit triangles with a corner at ``p``."""
    return [(p, _add(p, RING[i]), _add(p, RING[(i + 1) % 6])) for i in range(6)]


def find_triangle(cells) -> Triangle | None:
    """Some three mutually adjacent cells of ``cells``, or None."""
    s = set(cells)
    for p in sorted(s):
        for t in triangles_at(p):
            if t[1] in s and t[2] in s:
                return t
    return None


def strips(t: Triangle) -> tuple[int, int, int]:
    """The triangle's three strip coordinates (its lowest row in each of the three directions)."""
    return (min(p[0] for p in t), min(p[1] for p in t), min(p[0] + p[1] for p in t))


def tri_distance(s: Triangle, t: Triangle) -> int:
    """Steps between two triangles in the dual (honeycomb) grid."""
    return sum(abs(a - b) for a, b in zip(strips(s), strips(t)))


def facing(d: Coord) -> list[Triangle]:
    """The six triangles with an edge facing ``d`` (two cells adjacent to d, not d)."""
    out = []
    for i in range(6):
        e1, e2 = RING[i], RING[(i + 1) % 6]
        out.append((_add(d, e1), _add(d, e2), (d[0] + e1[0] + e2[0], d[1] + e1[1] + e2[1])))
    return out


def components(cells) -> list[set[Coord]]:
    """The connected components of ``cells`` on the triangular grid."""
    left, out = set(cells), []
    while left:
        comp, todo = set(), [left.pop()]
        while todo:
            p = todo.pop()
            comp.add(p)
            for n in _nbrs(p):
                if n in left:
                    left.discard(n)
                    todo.append(n)
        out.append(comp)
    return out


# --- the hypothesis ---------------------------------------------------------------------


def _path4(cells) -> tuple[Coord, ...] | None:
    s = set(cells)
    for p2 in sorted(s):
        for p3 in _nbrs(p2):
            if p3 not in s:
                continue
            for p1 in _nbrs(p2):
                if p1 in s and p1 != p3:
                    for p4 in _nbrs(p3):
                        if p4 in s and p4 not in (p1, p2):
                            return (p1, p2, p3, p4)
    return None


def _path3_and_pair(cells):
    comps = components(cells)
    for k in comps:
        mid = next((p for p in sorted(k) if sum(n in k for n in _nbrs(p)) >= 2), None)
        if mid is None:
            continue
        p1, p3 = [n for n in _nbrs(mid) if n in k][:2]
        for other in comps:
            if other is not k and len(other) >= 2:
                q1 = min(other)
                q2 = next(n for n in _nbrs(q1) if n in other)
                return (p1, mid, p3), (q1, q2)
    return None


def check_scope(instance: Instance) -> None:
    """Raise ConstructionError unless Theorem 1 speaks of ``instance`` (a triangular board, d = 2)."""
    if instance.board.kind != KIND:
        raise ConstructionError(f"construct:triangular needs a triangular board, not '{instance.board.kind}'")
    if instance.d != 2:
        raise ConstructionError(f"Theorem 1 is stated for d = 2, not d = {instance.d}")


# --- triangle maneuvering ---------------------------------------------------------------


class Walker:
    """Triangle maneuvering with ghost coins (module docstring)."""

    def __init__(self, play: Play, tri: Triangle, free: list[Coord]):
        self.play, self.free = play, list(free)
        self.tri: Triangle = (tri[0], tri[1], tri[2])
        assert all(play.occupied(p) for p in self.tri) and len(set(self.free)) == 3

    def step(self, a: Coord) -> None:
        b, c = (p for p in self.tri if p != a)
        q = (b[0] + c[0] - a[0], b[1] + c[1] - a[1])
        if not self.play.occupied(q):
            if a in self.free:
                f = a
            else:  # a is a ghost: fetch a free coin left behind elsewhere
                f = min((p for p in self.free if p not in (b, c)), key=lambda p: (_dist(p, q), p))
            self.play.move(f, q)
            self.free[self.free.index(f)] = q
        self.tri = (b, c, q)

    def walk(self, target: Triangle) -> None:
        goal = strips(target)
        while strips(self.tri) != goal:
            here = tri_distance(self.tri, target)
            best = None
            for a in sorted(self.tri):
                b, c = (p for p in self.tri if p != a)
                q = (b[0] + c[0] - a[0], b[1] + c[1] - a[1])
                if tri_distance((b, c, q), target) < here:
                    rank = (not self.play.occupied(q), a)  # ghost steps are free
                    if best is None or rank < best[0]:
                        best = (rank, a)
            assert best is not None, "every triangle has a neighbour closer to the target"
            self.step(best[1])


# --- the construction -------------------------------------------------------------------


def _get_started(play: Play) -> Triangle:
    occ = play.occ
    tri = find_triangle(occ)
    if tri is not None:
        return tri
    moves = []
    for p in sorted({n for c in occ for n in _nbrs(c)} - set(occ)):
        if not play.on_board(p):
            continue
        for src in sorted(occ):
            if play.support(p, src) >= 2:
                closes = any(
                    _add(p, RING[i]) in occ
                    and _add(p, RING[(i + 1) % 6]) in occ
                    and src not in (_add(p, RING[i]), _add(p, RING[(i + 1) % 6]))
                    for i in range(6)
                )
                moves.append((not closes, src, p))
    if not moves:
        raise ConstructionError("Theorem 1 hypothesis fails: the start has no valid move")
    _, src, p = min(moves)
    play.move(src, p)
    tri = find_triangle(occ)
    if tri is not None:
        return tri
    x, y = [n for n in _nbrs(p) if n in occ][:2]  # not adjacent, else a triangle
    spot = next(z for z in _nbrs(p) if z in set(_nbrs(y)) and play.on_board(z))
    play.move(x, spot)
    tri = find_triangle(occ)
    assert tri is not None
    return tri


def _choose_free(play: Play, goal: dict[Coord, str], btri: Triangle, t0: Triangle) -> list[Coord]:
    need = Counter(goal[p] for p in btri)
    placed = {p for p, lab in play.occ.items() if p not in btri and goal.get(p) == lab}
    free = []
    for lab in sorted(need):
        cands = sorted(
            (p for p, l in play.occ.items() if l == lab and p not in free),
            key=lambda p: (p in placed, p not in t0, min(_dist(p, t) for t in t0), p),
        )
        free.extend(cands[: need[lab]])
    return free


def _clear(play: Play, walker: Walker, d: Coord, todo: set[Coord]) -> None:
    """Move the coin on ``d`` (not placed, not in the triangle) to another valid destination."""
    pool = {n for c in play.occ for n in _nbrs(c)} - set(play.occ) - {d}
    cands = [e for e in pool if play.support(e, d) >= 2]
    on = [e for e in cands if play.on_board(e)]
    if not on:
        if cands:
            raise WindowTooSmall(min(cands))
        raise ConstructionError(f"documented gap: no valid destination to clear cell {d}")
    e = min(on, key=lambda e: (e in todo, _dist(e, d), e))
    play.move(d, e)
    if d in walker.free:
        walker.free[walker.free.index(d)] = e


def _transport_all(play: Play, walker: Walker, goal: dict[Coord, str], btri: Triangle) -> None:
    rest = {p: lab for p, lab in goal.items() if p not in btri}
    while True:
        free = set(walker.free)
        todo = {p for p, lab in rest.items() if play.occ.get(p) != lab or p in free}
        if not todo:
            return
        movable = {p for p, lab in play.occ.items() if p not in free and rest.get(p) != lab}
        options = []
        for d in todo:
            for t in facing(d):
                if all(play.on_board(p) for p in t):
                    options.append((tri_distance(walker.tri, t), d, t))
        if not options:
            raise WindowTooSmall(min(todo))
        # nearest destination first; then the nearest coin with its label
        for _, d, _t in sorted(options):
            cands = [c for c in movable if play.occ[c] == rest[d]]
            if cands:
                break
        c = min(cands, key=lambda c: (_dist(c, d), c))
        targets = [t for t in facing(d) if c not in t and all(play.on_board(p) for p in t)]
        if not targets:
            raise WindowTooSmall(d)
        walker.walk(min(targets, key=lambda t: (tri_distance(walker.tri, t), t)))
        if play.occupied(d):
            _clear(play, walker, d, todo)
        play.move(c, d)


def _swap_spot(play: Play, walker: Walker, btri: Triangle):
    """The nearest (pivot u, v, w, o) where u touches a non-F coin and nothing non-F is on u, v, w, o."""
    free = set(walker.free)
    fixed = {p for p in play.occ if p not in free}
    best = None
    for c in sorted(fixed):
        for g in symmetries(KIND):
            u, v, w, o = (_add(c, apply(g, e)) for e in ((0, 1), (1, 1), (0, 2), (1, 2)))
            cells = (u, v, w, o)
            if any(p in fixed or not play.on_board(p) for p in cells):
                continue
            key = (tri_distance((u, v, w), btri), cells)
            if best is None or key < best:
                best = key
    if best is None:
        raise WindowTooSmall(btri[0])
    return best[1]


def _relabel(play: Play, walker: Walker, goal: dict[Coord, str], btri: Triangle) -> None:
    if all(play.occ[p] == goal[p] for p in btri):
        return
    if len(play.occ) <= 3:
        raise ConstructionError("labeled triangle with no other coin cannot be relabeled")
    u, v, w, o = _swap_spot(play, walker, btri)
    walker.walk((u, v, w))
    # Simulate the walk back with tokens to learn where each spot cell ends up.
    tokens = {p: f"\0{i}" for i, p in enumerate((u, v, w))}
    ghost = play.clone(tokens)
    Walker(ghost, walker.tri, walker.free).walk(btri)
    lands = {tok: p for p, tok in ghost.occ.items() if tok in tokens.values()}
    want = {p: goal[lands[tokens[p]]] for p in (u, v, w)}
    # Breadth-first over the arrangements reachable by swap(u, v) and swap(u, w).
    startk = tuple(play.occ[p] for p in (u, v, w))
    wantk = tuple(want[p] for p in (u, v, w))
    prev: dict[tuple[str, ...], tuple[tuple[str, ...], int] | None] = {startk: None}
    queue = deque([startk])
    while queue:
        k = queue.popleft()
        for i in (1, 2):
            swapped = list(k)
            swapped[0], swapped[i] = swapped[i], swapped[0]
            nk = tuple(swapped)
            if nk not in prev:
                prev[nk] = (k, i)
                queue.append(nk)
    ops, k = [], wantk
    while (link := prev[k]) is not None:
        k, i = link
        ops.append(i)
    for i in reversed(ops):
        x = (u, v, w)[i]
        play.move(u, o)
        play.move(x, u)
        play.move(o, x)
    walker.walk(btri)
    assert all(play.occ[p] == goal[p] for p in btri)


def build_property1(play: Play, goal: dict[Coord, str], btri: Triangle) -> None:
    """Rearrange the current configuration into ``goal``, which has the triangle ``btri``."""
    t0 = _get_started(play)
    walker = Walker(play, t0, _choose_free(play, goal, btri, t0))
    _transport_all(play, walker, goal, btri)
    walker.walk(btri)
    assert set(walker.free) == set(btri)
    _relabel(play, walker, goal, btri)


def _three_labeled(play: Play, targets: list[dict[Coord, str]]) -> None:
    """Exactly three labeled coins: search the few configurations before the first
    triangle (from there on a triangle's colour -> label map is frozen), stop at the
    first whose type matches a goal placement, and walk it there."""
    want: dict[tuple[tuple[str, int], ...], dict[Coord, str]] = {}
    for g in targets:
        want.setdefault(triangle_type(g), g)
    start = frozenset(play.occ.items())
    Step = tuple[frozenset[tuple[Coord, str]], tuple[Coord, Coord]]
    prev: dict[frozenset[tuple[Coord, str]], Step | None] = {start: None}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        occ = dict(s)
        tri = find_triangle(occ)
        if tri is not None:
            goal = want.get(triangle_type(occ))
            if goal is not None:
                path = []
                while (link := prev[s]) is not None:
                    s, mv = link
                    path.append(mv)
                for src, dst in reversed(path):
                    play.move(src, dst)
                a, b, c = goal  # the goal of three coins is a triangle of the wanted type
                Walker(play, tri, list(tri)).walk((a, b, c))
                return
            continue
        for src in occ:
            others = [p for p in occ if p != src]
            for dst in set(_nbrs(others[0])) & set(_nbrs(others[1])):
                if dst not in occ and play.on_board(dst):
                    nxt = dict(occ)
                    nxt[dst] = nxt.pop(src)
                    ns = frozenset(nxt.items())
                    if ns not in prev:
                        prev[ns] = (s, (src, dst))
                        queue.append(ns)
    raise WindowTooSmall(min(play.occ))


CLAW_GAP = (
    "counterexample to Theorem 1: the goal's only component with >= 3 coins is a claw (a centre and "
    "three pairwise non-adjacent neighbours), which has no path of four coins; going backwards from "
    "the goal only the coin on the centre can ever move, so the goal is reachable only from "
    "configurations one move away, and this start is not one of them"
)

_REFUSALS = {
    "no-move": "the start has no valid move, so it cannot change at all",
    "conditions-fail": "the goal has no triangle, no component with a path of four coins (a claw, "
    "the one 4-coin component without one, does not count: paper's condition 2 "
    "is too broad), no components of >= 3 and >= 2 coins, and is not one move "
    "from the start",
    "colour-type-missing": "three labeled coins: no triangle reachable from the start puts the goal's "
    "labels on the goal's colour classes (x - y) mod 3",
}


def plan(play: Play) -> None:
    """Play Theorem 1's construction on ``play`` (a ConstructionError where the theorem says unsolvable)."""
    inst = play.instance
    decision = decide(inst)
    if not decision.solvable:
        why = _REFUSALS.get(decision.reason, decision.reason)
        raise ConstructionError(f"Theorem 1 says unsolvable: {why}")
    if decision.reason == "equal":
        return
    if decision.reason == "one-move":
        goal = decision.detail["goal"]
        (src,) = [xy for xy, lab in play.occ.items() if goal.get(xy) != lab]
        (dst,) = [xy for xy, lab in goal.items() if play.occ.get(xy) != lab]
        play.move(src, dst)
        return
    placements = [placement_of(inst, g) for g in inst.goal_configurations]
    if decision.reason == "colour-type":
        _three_labeled(play, [g for g in placements if find_triangle(g) is not None])
        return
    goal = placement_of(inst, inst.goal)
    undo: list[tuple[Coord, Coord]] = []
    found = find_triangle(goal)
    if found is not None:
        btri = found
    else:
        path4, path3_pair = _path4(goal), _path3_and_pair(goal)
        if path4 is not None:
            p1, p2, p3, p4 = path4
            pair = (p3, p4)
        elif path3_pair is not None:
            (p1, p2, p3), pair = path3_pair
        else:
            raise ConstructionError(CLAW_GAP)
        # the two common neighbours of the pair are empty: B has no triangle
        x = min(z for z in set(_nbrs(pair[0])) & set(_nbrs(pair[1])) if play.on_board(z))
        assert x not in goal
        goal = dict(goal)
        goal[x] = goal.pop(p2)
        btri = (x, pair[0], pair[1])
        undo.append((x, p2))
    build_property1(play, goal, btri)
    for src, dst in undo:
        play.move(src, dst)


def construct_triangular(instance: Instance) -> Construction:
    """Theorem 1's construction (module docstring); ConstructionError if it does not apply."""
    check_scope(instance)
    return run_construction(instance, "triangular", plan, MARGINS)
