"""Theorem 2 (square grid, d = 2, unlabeled) made constructive, as far as it goes.

Hypothesis (coinsat.theory.square): coins e1, e2 with span(A - E) ⊇ span(B - E)
and each e_i adjacent to two coins of B - E.  The theorem is known to be too
broad (Galliot, Gravier, Sivignon, arXiv 2307.06767; ``instances/counterexamples/``).
Whatever happens, a sequence is only returned after rules.py has replayed it
(certify_solution); every case the construction does not cover raises
ConstructionError naming it, never an illegal sequence.

Strategy (the paper's): bring A and B to one meeting configuration with the
same span, A by any legal moves, B by *reversible* moves, and join
A -> meeting -> B by reversing B's half.  The theorem only asks for *some*
e1, e2: several choices are tried (:func:`witnesses`), and both mirror images
of the L.

* **Canonicalizing** (paper, "Canonicalizing Algorithm"; our own merge, one
  coin at a time): for each rectangle of span(B - E), the coins of X - E there
  are absorbed into a staircase (an L in the paper's wide sense, staircase.py)
  while e1, e2 serve as helpers, shared by the rectangles.  A coin inside the
  staircase's rectangle is redundant (junk, emulated: paper, Lemma
  "emulation").  A coin that becomes the new top-left or bottom-right corner
  is appended.  A coin beside a side is walked along it to that corner by
  window gadgets after the staircase is raised to run along that side.  A coin
  touching one of the other two corners diagonally is absorbed by pushing the
  two legs that meet there one cell outward (absorb.py, "Zipper"); any other
  coin there needs the staircase rotated first (the paper's rotation by
  induction).  The order of absorption comes from a dry run over
  the start coins.  Finally the staircase is hopped into the canonical L
  (coins lowest-leftmost on their diagonals, short step last).
* **Reducing the span** (start side only; the paper proves the theorem for
  equal spans and gives no method here): a rectangle of span(A - E) larger
  than the one of span(B - E) it holds (or holding several of them) gets one
  staircase, which is hopped onto a path through the smaller rectangles'
  corners and cut; corners the path cannot carry (parity) get a junk coin.
  Where no monotone path meets the smaller rectangles in turn (two of them in
  one column or row) or a corner cannot be filled, a bounded best-first search
  (reduce.py) finds forward moves, first from the coins as they stand, then
  from the staircase, after which each smaller rectangle is spanned by its own
  coins and is canonicalized alone.  Every witness is tried by staircases
  alone before any search.
* **Meeting**: B's half ends at its L's + its junk where it lies + its helpers.
  A's half ends at the same L's; then each L of A is raised to the opposite L
  and lowered back: just after a coin has passed a cell where B keeps junk,
  the two helpers of that hop support the cell and one of A's junk coins is
  dropped there (paper, "Final Sweep"); what remains is filled in any
  supported order, and A's helpers go where B's ended.

Goal-side helpers: a role swap can leave a helper on a junk cell with fewer
than two neighbours, from which no move is reversible; the move is then made by
a passive coin that can move reversibly (staircase.py, ``_substitute``).

Documented gaps (ConstructionError, counted by scripts/construct_vs_optimal.py):
no pending coin within distance 2 of the staircase's rectangle (two L's would
have to be merged: paper, "Merging L's"); the span-reduction search hitting its
bound; a window gadget not found; a junk cell of B the final sweep
cannot support.  When every witness fails, a bounded forward closure of the
start inside its bounding box (:func:`decide_small`) tells a counterexample to
Theorem 2 (refused as unsolvable, with that reason) from a gap.  Labeled coins
are outside the theorem (a conjecture in the paper, section "Labeled Coins").
Moves: an absorption costs O(n^2) hops at most (raising the staircase) and a
rotation Theta(k^2) moves (rotations made 86 % of the moves on V(10,10) before the zipper,
benchmarks/construct_phases.md), so O(n^3) with
at most n rotations, as in the paper.  The zipper makes a diagonal corner coin
cost O(k) once the staircase runs along the right sides; on the V family
every absorption is of that kind (benchmarks/construct_phases.md).  Where
the moves go: ``result.stats["moves_by_phase"]`` (counted before loops are cut).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..errors import ConstructionError, GapError
from ..geometry import Coord
from ..instance import Instance
from ..limits import poll
from ..theory.span import bits, lattice_span, rectangles, span_mask
from ..theory.square import box_board
from .absorb import Engine
from .base import Construction, Play, run_construction
from .reduce import reaches, reduce_moves
from .staircase import IDENTITY, MIRROR, dist, nbrs

KIND = "square"


def check_scope(instance: Instance) -> None:
    """Raise ConstructionError unless Theorem 2 speaks of ``instance`` (a square board, d = 2, unlabeled coins)."""
    if instance.board.kind != KIND:
        raise ConstructionError(f"construct:square needs a square board, not '{instance.board.kind}'")
    if instance.d != 2:
        raise ConstructionError(f"Theorem 2 is stated for d = 2, not d = {instance.d}")
    if instance.start.is_labeled:
        raise ConstructionError(
            "Theorem 2 is about unlabeled coins (labeled coins: only a conjecture "
            "in the paper, section 'Labeled Coins')"
        )


def witnesses(instance: Instance, limit: int = 8):
    """Up to ``limit`` choices (A, B, E_A, E_B, R, R_A) satisfying the hypothesis with
    span(B - E_B) a single rectangle R, best first: R_A (the rectangle of span(A - E_A)
    holding R) equal to R first.  The theorem only asks for *some* e1, e2; the
    construction may succeed with one choice and not another."""
    b = instance.board
    start = {b.lattice_coords[c] for c in instance.start.cells}
    found: list[tuple[tuple[bool, bool, int], tuple[Any, ...]]] = []
    for goal in instance.goal_configurations:
        cells = {b.lattice_coords[c] for c in goal.cells}
        box = box_board(start | cells)
        amask = _mask(box, start)
        gmask = _mask(box, cells)
        a_spans: dict[int, list[set[Coord]]] = {}
        for e in combinations(sorted(start), 2):
            poll()  # the command's budget: k^2 / 2 spans of a k x k box (diagonal k = 200: minutes)
            m = span_mask(box, amask & ~_mask(box, e), 2)
            a_spans.setdefault(m, []).append(set(e))
        nbr = box.neighbour_masks
        for e in combinations(sorted(cells), 2):
            poll()
            rest = gmask & ~_mask(box, e)
            if any((nbr[box.cell(c)] & rest).bit_count() < 2 for c in e):
                continue
            sb = span_mask(box, rest, 2)
            rb = rectangles(box.lattice_coords[c] for c in bits(sb))
            for sa, eas in a_spans.items():
                if sb & ~sa:
                    continue
                r = rb[0]
                ra = [
                    q
                    for q in rectangles(box.lattice_coords[c] for c in bits(sa))
                    if q.x0 <= r.x0 and q.y0 <= r.y0 and q.x1 >= r.x1 and q.y1 >= r.y1
                ]
                for ea in eas[:2]:
                    key = (len(rb) != 1, not ra or ra[0] != r, len(found))
                    found.append((key, (start, cells, ea, set(e), rb, ra[0] if ra else None)))
        if found:
            break
    found.sort(key=lambda f: f[0])
    return [w for _, w in found[:limit]]


def _mask(board, coords) -> int:
    m = 0
    for xy in coords:
        m |= 1 << board.cell(xy)
    return m


# --- choosing the order of absorption ---------------------------------------------------


def _rect_dist(rect, p):
    x0, y0, x1, y1 = rect
    return max(0, x0 - p[0], p[0] - x1) + max(0, y0 - p[1], p[1] - y1)


_RANK = {"junk": 0, "head": 1, "tail": 1, "first": 1, "side": 2, "bad": 9}


def _next(eng: Engine):
    """The pending coin to absorb next: the best class among those within distance 2."""
    if not eng.chain:
        return None
    rect = eng.rect(IDENTITY)
    best = None
    for p in eng.pending:
        if _rect_dist(rect, p) > 2:
            continue
        kind = eng.classify(p)
        kind = kind if isinstance(kind, str) else "side"
        if kind == "bad" and not eng.framed:
            kind = "head"
        key = (_RANK[kind], _rect_dist(rect, p), p)
        best = key if best is None or key < best else best
    return None if best is None else best[2]


def _dry_run(coins, start, frame):
    """Count the costly cases of absorbing ``coins`` from ``start`` (no moves made)."""
    play = _NullPlay()
    eng = Engine(play, [], set(coins) - {start}, reversible=False)
    eng.frame = frame
    eng.chain = {start}
    bad = sides = 0
    while eng.pending:
        t = _next(eng)
        if t is None:
            return (1, bad, sides), eng.frame
        eng.pending.discard(t)
        kind = eng.classify_framing(t)
        if kind == "bad":
            bad += 1
        elif not isinstance(kind, str):
            sides += 1
        if kind != "junk":
            eng.chain.add(t)
            x0, y0, x1, y1 = eng.rect(IDENTITY)
            eng.framed = x0 != x1 and y0 != y1
    return (0, bad, sides), eng.frame


class _NullPlay:
    occ: dict = {}

    def on_board(self, xy):
        return True


def choose_start(coins, frame):
    """The start coin whose dry run has no stuck step and fewest bad corners, ending in ``frame``."""
    best = None
    for s in sorted(coins):
        cost, fr = _dry_run(coins, s, frame)
        key = (cost[0], cost[1], fr != frame, cost[2], s)
        best = key if best is None or key < best else best
    return best


# --- the two halves ----------------------------------------------------------------------


def canonicalize(
    play: Play, core, helpers, frame, reversible: bool, shrink=None, walls=(), finish: bool = True
) -> Engine:
    """Absorb ``core`` into a staircase and make it the canonical L in ``frame`` (of the
    rectangle ``shrink`` when given: the paper's "Reducing Span", forward moves)."""
    key = choose_start(core, frame)
    if key[0]:
        raise GapError(
            "no coin lies within distance 2 of the staircase's rectangle: two L's "
            "would have to be merged (paper, 'Merging L's'), not implemented"
        )
    start = key[-1]
    eng = Engine(play, helpers, set(core) - {start}, reversible)
    eng.walls = set(walls)
    eng.frame = frame
    eng.chain = {start}
    while eng.pending:
        t = _next(eng)
        if t is None:
            raise GapError("no pending coin within distance 2 (merging L's), not implemented")
        eng.absorb(t)
    if eng.frame != frame:
        x0, y0, x1, y1 = eng.rect(IDENTITY)
        if x0 == x1 or y0 == y1:
            eng.frame = frame
        else:
            eng.rotate()
    if shrink is not None:
        eng.shrink(shrink)
    if finish:
        eng.canonical()
    return eng


def park(eng: Engine, spots) -> None:
    """Forward moves: put the helpers on the cells where the goal side's helpers ended
    (a cell held by another coin, or not yet supported, is left for a later round)."""
    for _ in range(2):
        for h in sorted(eng.helpers, key=lambda h: h not in spots):
            if h in spots:
                continue
            free = [q for q in spots if q not in eng.play.occ and eng.play.support(q, h) >= 2]
            if free:
                eng.move_helper(h, max(free, key=lambda q: eng.play.support(q, h)))


def sweep_drops(eng: Engine, targets: set[Coord]) -> None:
    """Raise the L to the opposite corner, then lower it back, dropping junk on ``targets``."""
    eng.reshape(eng.extreme(eng.frame, high=True))
    low = eng.extreme(eng.frame, high=False)
    where = {p: p for p in eng.chain}
    u = eng.back(eng.frame, (1, 1))
    down = (-u[0], -u[1])
    for _ in range(100_000):
        _drop_round(eng, targets, where, low, down)
        if not eng.hop_once(where, low):
            break
    _drop_round(eng, targets, where, low, down)


def _future(where, low, down):
    """Cells some chain coin will still pass (or stop on) while the L is lowered."""
    out = set()
    for o, cur in where.items():
        p = cur
        while p != low[o]:
            p = (p[0] + down[0], p[1] + down[1])
            out.add(p)
    return out


def _drop_round(eng: Engine, targets, where, low, down) -> None:
    """Drop junk on every empty target that is supported now and no chain coin will pass again."""
    fut = _future(where, low, down)
    occ = eng.play.occ
    while True:
        material = sorted(set(occ) - eng.active() - set(targets) - eng.walls)
        move = next(
            (
                (m, q)
                for q in sorted(targets)
                if q not in occ and q not in fut
                for m in material
                if eng.play.support(q, m) >= 2
            ),
            None,
        )
        if move is None:
            return
        eng.play.move(*move)


def _drop_greedy(eng: Engine, targets) -> bool:
    """With the L fixed, fill empty targets in any supported order; if stuck, stand a helper
    next to a target that lacks one neighbour and return True (park and call again)."""
    occ = eng.play.occ
    for _ in range(4 * len(targets) + 4):
        todo = sorted(q for q in targets if q not in occ)
        if not todo:
            return False
        material = sorted(set(occ) - eng.active() - set(targets) - eng.walls)
        move = next(((m, q) for q in todo for m in material if eng.play.support(q, m) >= 2), None)
        if move is None:
            break
        eng.play.move(*move)
    for q in sorted(q for q in targets if q not in occ):
        for h in eng.helpers:
            for r in nbrs(q):
                if (
                    r not in occ
                    and r not in targets
                    and eng.play.on_board(r)
                    and eng.play.support(r, h) >= 2
                    and dist(h, q) != 1
                ):
                    eng.play.move(h, r)
                    eng.helpers[eng.helpers.index(h)] = r
                    material = sorted(set(occ) - eng.active() - set(targets) - eng.walls)
                    m = next((m for m in material if eng.play.support(q, m) >= 2), None)
                    if m is not None:
                        eng.play.move(m, q)
                    return True
    return False


# --- the driver --------------------------------------------------------------------------


def plan(play: Play) -> None:
    """Play Theorem 2's construction on ``play`` (a ConstructionError where its hypothesis fails)."""
    inst = play.instance
    if inst.is_goal(inst.start):
        return
    options = witnesses(inst)
    if not options:
        raise ConstructionError(
            "Theorem 2 hypothesis fails: no coins e1, e2 with span(A - E) ⊇ "
            "span(B - E) and each e_i next to two coins of B - E"
        )
    errors = []
    # every witness by staircases alone, then the first four with a search, then the first one
    # with a twenty times larger budget for the search from the coins as they stand (only the
    # instances that fail everything else pay for it)
    for search in (0, 1, 20):
        for a, b, ea, eb, rb, _ in options[: {0: len(options), 1: 4, 20: 1}[search]]:
            goal_config = play.config.__class__.unlabeled(inst.board.cell(p) for p in b)
            for frame in (IDENTITY, MIRROR) if search < 20 else (IDENTITY,):
                try:
                    _meet(play, goal_config, a, ea, b, eb, rb, frame, search)
                    return
                except GapError as e:
                    errors.append(str(e))
                    play.restart()  # start again from A
    errors = errors[2 * len(options) :]  # the messages of the passes with search
    verdict = decide_small(inst)
    if verdict is False:
        raise ConstructionError(
            "unsolvable although Theorem 2's hypothesis holds: the forward closure of the start "
            "inside its bounding box (exact by Lemma 'span monotone') misses the goal, a "
            "counterexample to Theorem 2 (instances/counterexamples/README.md)"
        )
    if verdict is True:
        raise GapError(f"{errors[0]} (the goal is reachable: a gap of the construction)")
    raise GapError(errors[0])


def decide_small(inst: Instance, max_states: int = 50_000) -> bool | None:
    """Whether the goal is reachable, by the forward closure of the start inside the start's
    bounding box (every reachable configuration lies in span(A), which that box holds); None
    when the closure has more than ``max_states`` configurations.  Only said when the
    construction fails, to tell a counterexample to the theorem from a gap."""
    b = inst.board
    start = [b.lattice_coords[c] for c in inst.start.cells]
    box = box_board(start)
    goals = [[b.lattice_coords[c] for c in goal.cells] for goal in inst.goal_configurations]
    return reaches(list(box.lattice_coords), start, [g for g in goals if all(box.has(p) for p in g)], max_states)


def _pairs(a, ea, rb):
    """For each rectangle of span(B - E_B), the rectangle of span(A - E_A) holding it."""
    ra = rectangles(lattice_span(KIND, a - ea, 2))
    out = []
    for r in rb:
        hold = [q for q in ra if q.x0 <= r.x0 and q.y0 <= r.y0 and q.x1 >= r.x1 and q.y1 >= r.y1]
        if not hold:
            raise GapError("no rectangle of span(A - E) contains a rectangle of span(B - E)")
        out.append((r, hold[0]))
    return out


def _side(play, coins, helpers, rects, frame, reversible, pairs=None, search=1):
    """Canonicalize rectangle by rectangle, the two helpers shared; returns the engines (one
    per rectangle of ``rects``).  On the start side (``pairs``) a rectangle of span(A - E)
    holding smaller ones of span(B - E) is reduced (:func:`_reduce`)."""
    engines = [None] * len(rects)
    holders = [r for r in rects] if pairs is None else [q for _, q in pairs]
    for hold in dict.fromkeys(holders):
        ks = [k for k, q in enumerate(holders) if q == hold]
        core = {p for p in play.occ if p in hold and p not in helpers}  # coins move: read the board
        targets = [(rects[k].x0, rects[k].y0, rects[k].x1, rects[k].y1) for k in ks]
        walls = {p for p in play.occ if p not in hold and p not in helpers}
        if len(ks) > 1 or hold != rects[ks[0]]:  # start side, the span shrinks
            subs = _reduce(play, core, helpers, frame, walls, targets, search)
            for k, sub in zip(ks, subs):
                engines[k] = sub
            helpers = subs[-1].helpers
            continue
        eng = canonicalize(play, core, helpers, frame, reversible, walls=walls, finish=False)
        sub = Engine(play, eng.helpers, set(), reversible)
        sub.frame, sub.framed, sub.chain, sub.walls = eng.frame, True, set(eng.chain), eng.walls
        sub.canonical()
        engines[ks[0]] = sub
        helpers = sub.helpers
    return engines


def _snapshot(play: Play):
    return play.config, dict(play.occ), list(play.moves)


def _restore(play: Play, snap) -> None:
    play.config, occ, moves = snap
    play.occ, play.moves = dict(occ), list(moves)


def _reduce(play: Play, core, helpers, frame, walls, targets, search: int = 1) -> list[Engine]:
    """Start side, one rectangle of span(A - E) holding smaller ones: the staircase split
    (absorb.py) first; where it fails, a search from the coins as they stand, then a search
    from the staircase (reduce.py)."""
    snap = _snapshot(play)
    try:
        eng = canonicalize(play, core, helpers, frame, False, walls=walls, finish=False)
        pieces = eng.split(targets)
        subs = []
        for piece in pieces:
            sub = Engine(play, eng.helpers, set(), False)
            sub.frame, sub.framed, sub.chain = eng.frame, True, set(piece)
            sub.walls = (eng.walls | set().union(*pieces)) - set(piece)
            sub.canonical()
            subs.append(sub)
            eng.helpers = sub.helpers
        return subs
    except GapError:
        if not search:
            raise
        _restore(play, snap)
    try:  # from the coins as they stand: often much shorter, but a smaller budget
        return _reduce_by_search(play, walls, targets, frame, max_states=6_000 * search)
    except GapError:
        _restore(play, snap)
    canonicalize(play, core, helpers, frame, False, walls=walls, finish=False)
    return _reduce_by_search(play, walls, targets, frame, max_states=20_000)


def _spare(coins: set[Coord], targets) -> list[Coord]:
    """Coins that can serve as helpers once every target is spanned by the coins inside it:
    those outside every target, then those inside whose removal keeps the target's span."""
    out = sorted(p for p in coins if not any(_in(t, p) for t in targets))
    for t in targets:
        inside = {p for p in coins if _in(t, p)}
        full = lattice_span(KIND, inside, 2)
        for p in sorted(inside):
            if len(out) >= 2:
                return out
            if lattice_span(KIND, inside - {p}, 2) == full:
                inside.discard(p)
                out.append(p)
    return out


def _in(t, p) -> bool:
    return t[0] <= p[0] <= t[2] and t[1] <= p[1] <= t[3]


def _reduce_by_search(play: Play, walls: set[Coord], targets, frame, max_states: int = 20_000) -> list[Engine]:
    """Start side, when the split fails: move the holder's coins (reduce.py) until each target
    is spanned by its own coins, then canonicalize each target with the others standing still."""
    movable = set(play.occ) - set(walls)

    def accept(coins: set[Coord]) -> bool:  # the same under both frames (reduce.py remembers)
        if len(_spare(coins, targets)) < 2:
            return False
        return all(choose_start({p for p in coins if _in(t, p)}, IDENTITY)[0] == 0 for t in targets)

    for src, dst in reduce_moves(set(play.occ), movable, targets, accept, max_states):
        play.move(src, dst)
    coins = set(play.occ) - set(walls)
    helpers = _spare(coins, targets)[:2]
    subs = []
    for t in targets:
        core = {p for p in coins if _in(t, p) and p not in helpers}
        others = set(play.occ) - core - set(helpers)
        sub = canonicalize(play, core, helpers, frame, False, walls=others)
        subs.append(sub)
        helpers = sub.helpers
        coins = set(play.occ) - set(walls)
    return subs


def _meet(play, goal_config, a, ea, b, eb, rb, frame, search=1):
    inst = play.instance
    pairs = _pairs(a, ea, rb)
    play_b = Play.at(inst, goal_config)
    with play_b.phase("goal side"):
        engs_b = _side(play_b, b, eb, rb, frame, True)
    with play.phase("start side"):
        engs_a = _side(play, a, ea, rb, frame, False, pairs, search)
    chains = set().union(*(e.chain for e in engs_b))
    if chains != set().union(*(e.chain for e in engs_a)):
        raise GapError("internal: the two halves reached different L's")
    last_b, last_a = engs_b[-1], engs_a[-1]
    junk_b = set(play_b.occ) - chains - set(last_b.helpers)
    spots = sorted(last_b.helpers)  # where B's helpers end; A's helpers will park there
    with play.phase("sweep"):
        for eng, r in zip(engs_a, rb):
            eng.walls = chains - eng.chain  # the other L's are not material
            eng.helpers = last_a.helpers
            sweep_drops(eng, {q for q in junk_b if q in r})
            last_a.helpers = eng.helpers
    last_a.walls = chains - last_a.chain
    with play.phase("final drops"):
        for _ in range(len(junk_b) + 3):
            park(last_a, spots)
            more = _drop_greedy(last_a, junk_b)
            park(last_a, spots)
            if not more and set(play.occ) == set(play_b.occ):
                break
    if set(play.occ) != set(play_b.occ):
        raise GapError("the final sweep could not drop A's junk on every cell where B keeps junk")
    coords = inst.board.coords
    with play.phase("reversed"):
        for s, p in reversed(play_b.moves):
            play.move(coords[p], coords[s])
    del play.tally["reversed"]  # counted by the phase that made each move on the goal side
    play.tally.update(play_b.tally)


def construct_square(instance: Instance) -> Construction:
    """Theorem 2's construction (module docstring); ConstructionError where it does not apply."""
    check_scope(instance)
    return run_construction(instance, "square", plan, margins=(), stats=_tally)


def _tally(play: Play) -> dict[str, Any]:
    """The moves made, by phase (before loops are cut): where the construction spends them."""
    return {"moves_by_phase": dict(play.tally)}
