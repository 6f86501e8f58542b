"""Where the V's schedule breaks on the pinwheel (docs/v-to-diagonal.md §5): Lemmas P, T and G,
and the measured corner cost R(k), against rules.py and the stored optimal solutions."""

import json
import random
from collections import deque
from pathlib import Path

import pytest

from coinsat.board import lattice_board
from coinsat.configuration import Configuration
from coinsat.constructive.vschedule import Schedule, schedule
from coinsat.families import CORNERS, diagonal_target, pinwheel, pinwheel_shape, v_shape
from coinsat.rules import Move, apply_move, legal_moves
from coinsat.theory.span import lattice_span
from lab.pinwheel_gap import (
    Grid,
    absorptions,
    adjacent_pairs,
    coin_order,
    corner_cost,
    diagonal_corner_cost,
    gamma,
)

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = sorted((ROOT / "instances/families/solutions").glob("pinwheel-*.json"))


def stored(path):
    m, target = path.stem.split("-")[1:3]
    return int(m), target, json.loads(path.read_text())["moves"]


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_lemma_p_holds_in_every_stored_optimal_solution(path):
    """Each coin stays put until absorbed, nothing lands outside Q_{j-1} before, the corner c_{j-1}
    holds a coin at the absorbing move, and the absorptions come in order."""
    m, target, moves = stored(path)
    seen = absorptions(m, moves)
    assert len(seen) == m
    steps = [a.step for a in seen if a.step is not None]
    assert steps == sorted(set(steps))
    goal = set(diagonal_target(m + 2, target))
    for a in seen:
        assert not a.moved_before and not a.outside_before
        if a.step is None:  # only a last coin that is already a goal cell is never absorbed
            assert a.index == m and a.coin in goal
        else:
            assert a.corner_occupied


@pytest.mark.parametrize("m", range(2, 9))
@pytest.mark.parametrize("target", ["nwse", "swne"])
def test_lemma_p_moving_an_isolated_coin_loses_the_goal(m, target):
    """Lemma P (i): every legal first move of an isolated coin leaves the goal outside the span."""
    inst = pinwheel(m, target)
    board, coords = inst.board, inst.board.lattice_coords
    goal = set(diagonal_target(m + 2, target))
    isolated = {p for p, _, _ in coin_order(m)}
    moved = 0
    for mv in legal_moves(board, inst.start):
        if coords[mv.src] not in isolated:
            continue
        after = apply_move(board, inst.start, mv)
        assert not goal <= lattice_span("square", [coords[c] for c in after.cells], 2)
        moved += 1
    assert moved > 0  # coins p_2 .. p_m can jump beside p_1 at the start: the lemma is not vacuous


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_lemma_t_at_most_four_adjacent_pairs_in_every_configuration(path):
    m, _, moves = stored(path)
    occ = set(pinwheel_shape(m))
    assert adjacent_pairs(occ) == 4  # the block
    for src, dst in moves:
        occ.remove(tuple(src))
        occ.add(tuple(dst))
        assert adjacent_pairs(occ) <= 4


@pytest.mark.parametrize("a,b,target", [(a, b, t) for a in range(1, 7) for b in (a - 1, a) for t in ("nwse", "swne")])
def test_lemma_t_holds_for_the_v_schedule_too(a, b, target):
    """The bound is the perimeter argument for any s + 2 coins whose span must stay an s x s box;
    the V's schedule (a helper on a gap of the Γ makes 2 pairs) meets it with equality."""
    occ = set(v_shape(a, b))
    most = adjacent_pairs(occ)
    for src, dst in schedule(a, b, target):
        occ.remove(src)
        occ.add(dst)
        most = max(most, adjacent_pairs(occ))
    assert most == 4


def corners_of(cells):
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    return {(x, y) for x in (min(xs), max(xs)) for y in (min(ys), max(ys))}


def neighbours(c):
    return [(c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1)]


def symmetries(cells):
    out = []
    for f in (lambda x, y: (x, y), lambda x, y: (y, x)):
        for sx in (1, -1):
            for sy in (1, -1):
                out.append([(sx * f(x, y)[0], sy * f(x, y)[1]) for x, y in cells])
    return out


@pytest.mark.parametrize("k", range(3, 12))
def test_lemma_g_every_gamma_misses_one_corner_and_four_pinwheel_coins_meet_it(k):
    """Each of the 8 images of Γ(k) holds exactly 3 corners of its square; 4 consecutive pinwheel
    coins lie off all 4 corners, so one of them lies off the corner the Γ misses."""
    for image in symmetries(gamma(k)):
        chain = set(image)
        touched = [c for c in corners_of(image) if c in chain or len(set(neighbours(c)) & chain) == 2]
        missed = [c for c in corners_of(image) if not (set(neighbours(c)) | {c}) & chain]
        assert len(touched) == 3 and len(missed) == 1  # a corner is a coin or a gap, or far from both
    for j in range(0, 12):
        assert {c for _, c, _ in coin_order(j + 4)[j : j + 4]} == set(CORNERS)


def test_the_v_schedule_breaks_at_the_third_coin_for_nwse():
    """pinwheel-3-nwse: the V's gadgets (B off the mirrored Γ's elbow TR, A off its far end TL)
    absorb p_1 and p_2; the Γ of side 4 then holds TL, TR, BR and misses BL, which p_3 lies off."""
    m = 3
    cells = set(pinwheel_shape(m))
    p3, c3, q3 = coin_order(m)[2]
    # vschedule's frames put the block on rows 0 and 1: here it is on rows 1 and 2
    sched = Schedule.from_block({(x, y - 1) for x, y in cells}, 2, ["TR", "TL"], m + 2, "nwse")
    sched.gadget_b(2)  # p_1 lies off TR, the mirrored Γ's elbow
    sched.gadget_a(3)  # p_2 lies off TL, its far top corner
    inst = pinwheel(m, "nwse")
    board, coords = inst.board, inst.board.lattice_coords
    config = inst.start
    index = {c: i for i, c in enumerate(coords)}
    for (sx, sy), (dx, dy) in sched.moves:  # replayed by rules.py
        config = apply_move(board, config, Move(index[(sx, sy + 1)], index[(dx, dy + 1)]))
    occ = {coords[c] for c in config.cells}
    assert c3 == "BL" and q3 == (1, 1, 4, 4)
    square = {(x, y) for x in range(1, 5) for y in range(1, 5)}
    active = occ & square
    assert occ == active | {p3}
    corner = (1, 1)
    assert corner not in occ and not {(2, 1), (1, 2)} & occ  # BL and both its inside neighbours are empty
    # the mirrored Γ(4): BR (4, 1) up the right side and along the top to TL (1, 4); TR is a held gap
    assert {(4, 1), (4, 3), (3, 4), (1, 4)} <= active and len(active) == 6
    assert lattice_span("square", active, 2) >= square


def test_grid_successors_are_rules_legal_moves():
    rng = random.Random(40)
    for _ in range(60):
        w, h = rng.randint(2, 5), rng.randint(2, 5)
        g = Grid(w, h)
        cells = [(x, y) for x in range(w) for y in range(h)]
        coins = rng.sample(cells, rng.randint(2, min(8, len(cells) - 1)))
        board = lattice_board("square", cells, exact=True, window="span")
        index = {c: i for i, c in enumerate(board.lattice_coords)}
        config = Configuration.unlabeled(index[c] for c in coins)
        want = {
            frozenset(board.lattice_coords[c] for c in config.moved(*mv).cells) for mv in legal_moves(board, config)
        }
        got = {frozenset(g.cells(t)) for t in g.successors(g.mask(coins), g.valid)}
        assert got == want
        assert set(g.cells(g.span(g.mask(coins)))) == set(lattice_span("square", coins, 2)) & set(cells)


def plain_corner_cost(k):
    """corner_cost by another road: rules.legal_moves and theory.span on coordinates."""
    qp = [(x, y) for x in range(k + 1) for y in range(-1, k)]
    box = set(qp)
    square = {(x, y) for x in range(k) for y in range(k)}
    p, br = (k, -1), (k - 1, 0)
    board = lattice_board("square", qp, exact=True, window="span")
    coords = board.lattice_coords
    index = {c: i for i, c in enumerate(coords)}
    chain = set(gamma(k))
    spots = sorted(c for c in square - chain if len(set(neighbours(c)) & chain) >= 2)
    dist = {}
    todo = deque()
    for i, a in enumerate(spots):
        for b in spots[i + 1 :]:
            s = frozenset(chain | {a, b})
            if lattice_span("square", s | {p}, 2) >= box:
                dist[s] = 0
                todo.append(s)
    while todo:
        s = todo.popleft()
        if br in s:
            return dist[s]
        config = Configuration.unlabeled([index[c] for c in s | {p}])
        for mv in legal_moves(board, config):
            if coords[mv.src] == p or coords[mv.dst] not in square:
                continue
            t = frozenset(coords[c] for c in config.moved(*mv).cells) - {p}
            if t not in dist and lattice_span("square", t | {p}, 2) >= box:
                dist[t] = dist[s] + 1
                todo.append(t)
    return None


@pytest.mark.parametrize("k", [3, 4])
def test_corner_cost_agrees_with_a_plain_bfs_over_rules_py(k):
    assert corner_cost(k)[0] == plain_corner_cost(k)


@pytest.mark.parametrize("k", [3, 4, 5])
def test_corner_cost_path_is_legal_and_keeps_the_goal_in_the_span(k):
    d, states, path = corner_cost(k)
    g = Grid(k + 1, k + 1)
    assert len(path) == d + 1 and states >= len(path)
    p, br = g.bit(k, 0), g.bit(k - 1, 1)
    for s, t in zip(path, path[1:]):
        assert s & p and t in set(g.successors(s, g.valid, fixed=p))
        assert g.span(t) == g.valid
    assert path[-1] & br and not any(s & br for s in path[:-1])


def plain_diagonal_cost(k):
    """diagonal_corner_cost by another road: rules.legal_moves and theory.span on coordinates."""
    box = {(x, y) for x in range(k + 1) for y in range(k + 1)}
    board = lattice_board("square", box, exact=True, window="span")
    coords = board.lattice_coords
    index = {c: i for i, c in enumerate(coords)}
    start = frozenset([(i, i) for i in range(k + 1)] + [(0, k - 1), (k - 1, 0)])
    dist = {start: 0}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        if (0, k) in s:
            return dist[s]
        config = Configuration.unlabeled([index[c] for c in s])
        for mv in legal_moves(board, config):
            t = frozenset(coords[c] for c in config.moved(*mv).cells)
            if t not in dist and lattice_span("square", t, 2) >= box:
                dist[t] = dist[s] + 1
                todo.append(t)
    return None


@pytest.mark.parametrize("k", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_diagonal_corner_cost_agrees_with_a_plain_bfs_over_rules_py(k):
    assert diagonal_corner_cost(k)[0] == plain_diagonal_cost(k)


@pytest.mark.parametrize("k", [3, 4])
def test_diagonal_corner_cost_path_is_legal(k):
    d, _, path = diagonal_corner_cost(k)
    g = Grid(k + 1, k + 1)
    assert len(path) == d + 1 and bin(path[0]).count("1") == k + 3
    for s, t in zip(path, path[1:]):
        assert t in set(g.successors(s, g.valid)) and g.span(t) == g.valid
    assert path[-1] & g.bit(0, k) and not any(s & g.bit(0, k) for s in path[:-1])


def test_the_best_gamma_breaks_at_the_fourth_coin_for_swne():
    """pinwheel-4-swne with the Γ joining BL and TR, elbow TL: gadget A absorbs p_1 (off TR),
    gadget B p_2 (off TL, the elbow), gadget A reflected in the anti-diagonal through the elbow
    p_3 (off BL, the far end of the left leg; the Γ is symmetric in it).  The moves replay under
    rules.py; the Γ of side 5 then misses BR, which p_4 lies off, and no route from
    it puts a coin on BR in fewer than R(5) moves (its helpers stand on gaps: one of
    corner_cost's starts, up to the frame)."""
    m, target = 4, "swne"
    cells = set(pinwheel_shape(m))
    sched = Schedule.from_block({(x, y - 2) for x, y in cells}, 2, ["TR", "TL"], m + 2, target)
    sched.gadget_a(2)
    sched.gadget_b(3)
    moves = [((sx, sy + 2), (dx, dy + 2)) for (sx, sy), (dx, dy) in sched.moves]
    occ = {(x, y + 2) for x, y in sched.occ}
    helpers = [(x, y + 2) for x, y in sched.helpers]
    q2 = coin_order(m)[2][2]
    assert q2 == (1, 2, 4, 5)

    def sigma(c):  # box -> the reflected local frame of Q2 (an involution on local cells)
        u, v = c[0] - 1, c[1] - 2
        return (3 - v, 3 - u)

    def back(c):
        u, v = 3 - c[1], 3 - c[0]
        return (u + 1, v + 2)

    mirror = Schedule.__new__(Schedule)
    mirror.a = mirror.b = -1
    mirror.mirror, mirror.ox, mirror.moves, mirror.costs = False, 0, [], []
    mirror.occ = {sigma(c) for c in occ}
    mirror.helpers = [sigma(h) for h in helpers]
    assert sigma((0, 1)) == (4, 4)  # p_3 lies off the far top corner in that frame
    mirror.gadget_a(4)
    moves += [(back(s), back(d)) for s, d in mirror.moves]
    inst = pinwheel(m, target)
    board, coords = inst.board, inst.board.lattice_coords
    index = {c: i for i, c in enumerate(coords)}
    config = inst.start
    for src, dst in moves:
        config = apply_move(board, config, Move(index[src], index[dst]))
    occ = {coords[c] for c in config.cells}
    p4, c4, q3 = coin_order(m)[3]
    assert (c4, q3, p4) == ("BR", (0, 1, 4, 5), (5, 0))
    chain = {(x, y + 1) for x, y in gamma(5)}  # left side x = 0 and top row y = 5 of Q3
    assert chain <= occ and len(occ) == m + 4 and p4 in occ
    assert not {(4, 1), (3, 1), (4, 2)} & occ  # BR and both its inside neighbours are empty
    helpers_now = occ - chain - {p4}
    assert all(len(set(neighbours(h)) & chain) == 2 for h in helpers_now)  # on gaps: a corner_cost start
