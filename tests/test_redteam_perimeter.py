"""Red-team regressions of the perimeter search (docs/perimeter-search.md), beyond tests/test_perimeter.py.

* Lemma B on graph boards (d = 1, 2, 3) and on a window past 64 cells (two words): the checker's
  ball (certificates/check/perimeter.py) and the engine's (search/rank/backward.py) equal a
  breadth-first search backwards over ``rules.predecessors``, inside a span computed here.
* Theorem M by brute force: a layered search pruned by h_perim (inner h = 0), stopped at the first
  layer that meets B_r, gives min(t + dist) = the optimum (a forward BFS over ``rules.successors``),
  and an empty layer when U is below the optimum, unless the start itself lies in the ball: L_0 =
  {start} is never pruned, so then m = dist(start) (the optimum) even when m > U, where the doc's
  Theorem M says m <= U.
* Perimeter certificates on graph boards: accepted, and rejected when any one state is removed.
* A deadline that ends while the checker builds the ball is a limit, never a verdict.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import time

import numpy as np
import pytest

from coinsat import rules
from coinsat.certificates.check import check_certificate
from coinsat.certificates.check import perimeter as check_perimeter
from coinsat.certificates.check.ranked import Decoder, Kernel
from coinsat.certificates.prove.make import certify
from coinsat.errors import LimitReached
from coinsat.instance import make_instance
from coinsat.search.rank import backward
from coinsat.search.rank.space import Space
from coinsat.solve import solve

U64 = np.uint64


def _span(board, mask: int, d: int) -> int:
    while True:
        add = 0
        for c in range(board.size):
            if not mask >> c & 1 and sum(1 for q in board.neighbours[c] if mask >> q & 1) >= d:
                add |= 1 << c
        if not add:
            return mask
        mask |= add


def _mask(cells) -> int:
    return sum(1 << int(c) for c in cells)


def _brute_ball(inst, r: int) -> dict[int, int]:
    """{configuration mask: distance} of the configurations inside span(start) within r moves of a
    goal placement inside it, by a backward BFS over rules.predecessors."""
    b, d = inst.board, inst.d
    region = _span(b, _mask(inst.start.cells), d)
    goals = {_mask(g.cells) for g in inst.goal_configurations}
    dist = {g: 0 for g in goals if g & ~region == 0}
    front = list(dist)
    for i in range(1, r + 1):
        nxt = []
        for y in front:
            for _, (x,) in rules.predecessors(b, d, (y,)):
                if x & ~region == 0 and x not in dist:
                    dist[x] = i
                    nxt.append(x)
        front = nxt
    return dist


def _walked(rng: random.Random, make, steps: int):
    """The instance ``make(goal)`` whose goal is the end of a random walk of legal moves from the start."""
    inst = make(None)
    m = _mask(inst.start.cells)
    for _ in range(steps):
        succ = [x for _, (x,) in rules.successors(inst.board, inst.d, (m,))]
        if not succ:
            break
        m = rng.choice(succ)
    return make([inst.board.coords[c] for c in range(inst.board.size) if m >> c & 1])


def _graph(seed: int):
    rng = random.Random(seed)
    n = rng.randint(8, 13)
    cells = list(range(n))
    order = cells[:]
    rng.shuffle(order)
    edges = {tuple(sorted((order[i], order[i + 1]))) for i in range(n - 1)}
    edges |= set(rng.sample([(u, v) for u in cells for v in cells if u < v], rng.randint(2, 2 * n)))
    d = (1, 2, 3)[seed % 3]
    start = rng.sample(cells, rng.randint(d + 1, min(6, n - 2)))

    def make(goal):
        goal = start if goal is None else goal
        return make_instance(
            "graph", {c: "o" for c in start}, {c: "o" for c in goal}, adjacency=d, edges=sorted(edges), cells=cells
        )

    return _walked(rng, make, rng.randint(3, 20))


def _square(seed: int):
    rng = random.Random(seed)
    w, h = rng.randint(3, 5), rng.randint(3, 4)
    cells = [(x, y) for x in range(w) for y in range(h)]
    start = rng.sample(cells, rng.randint(4, 7))

    def make(goal):
        goal = start if goal is None else goal
        return make_instance("square", {c: "o" for c in start}, {c: "o" for c in goal}, adjacency=2)

    return _walked(rng, make, rng.randint(3, 20))


def _checker_ball(inst, r: int) -> dict[int, int]:
    cells = list(inst.board.coords)
    dec, ker = Decoder(len(cells), inst.n_coins), Kernel(inst, cells)
    goal_pos = np.array([sorted(g.cells) for g in inst.goal_configurations], dtype=np.int64)
    ball = check_perimeter.Ball(dec, ker, sorted(inst.start.cells), goal_pos.reshape(-1, inst.n_coins), r)
    return {_mask(row): int(dist) for row, dist in zip(dec.positions(ball.ranks), ball.dist)}


def _engine_ball(inst, r: int) -> dict[int, int]:
    space = Space(inst, True, 1000, "fill")
    ball = backward.Ball(space, r)
    return {_mask(row): int(dist) for row, dist in zip(space.colex.unrank(ball.ranks), ball.dist)}


@pytest.mark.parametrize("seed", range(12))
def test_balls_are_exact_on_graph_boards(seed):
    inst = _graph(seed)
    for r in (0, 1, 2, 4):
        want = _brute_ball(inst, r)
        assert _checker_ball(inst, r) == want, r
        assert _engine_ball(inst, r) == want, r


def _wide():
    """An 80-cell window (two words): a spread diagonal start whose span is the 10 x 8 box."""
    start = [(i, i) for i in range(8)] + [(8, 6), (9, 7)]

    def make(goal):
        goal = start if goal is None else goal
        return make_instance("square", {c: "o" for c in start}, {c: "o" for c in goal}, adjacency=2)

    return _walked(random.Random(3), make, 9)


def test_balls_are_exact_past_64_cells():
    inst = _wide()
    assert inst.board.size > 64
    for r in (0, 1):
        want = _brute_ball(inst, r)
        assert len(want) > 1 or r == 0
        assert _checker_ball(inst, r) == want
        assert _engine_ball(inst, r) == want


def _optimum(inst) -> int | None:
    start, goals = _mask(inst.start.cells), {_mask(g.cells) for g in inst.goal_configurations}
    seen, front, depth = {start}, [start], 0
    while front:
        if any(x in goals for x in front):
            return depth
        nxt = []
        for x in front:
            for _, (y,) in rules.successors(inst.board, inst.d, (x,)):
                if y not in seen:
                    seen.add(y)
                    nxt.append(y)
        front, depth = nxt, depth + 1
    return None


def _meet(inst, U: int, r: int, ball: dict[int, int]) -> int | None:
    """Theorem M's search: layers pruned by t + h_perim > U (inner h = 0), stopped at the first
    layer that meets the ball; min(t + dist) there, or None at an empty layer."""
    start = _mask(inst.start.cells)
    seen, layer, t = {start}, {start}, 0
    while layer:
        hit = [t + ball[x] for x in layer if x in ball]
        if hit:
            return min(hit)
        nxt = set()
        for x in layer:
            for _, (y,) in rules.successors(inst.board, inst.d, (x,)):
                if y not in seen and (t + 1) + ball.get(y, r + 1) <= U:
                    nxt.add(y)
        seen |= nxt
        layer, t = nxt, t + 1
    return None


@pytest.mark.parametrize("seed", range(16))
def test_theorem_m_first_layer_meeting_the_ball_gives_the_optimum(seed):
    inst = _graph(seed) if seed % 2 else _square(seed)
    opt = _optimum(inst)
    for r in range(4):
        ball = _brute_ball(inst, r)
        for U in [opt - 1, opt, opt + 2] if opt is not None else [4]:
            if U < 0:
                continue
            got = _meet(inst, U, r, ball)
            if opt is not None and (U >= opt or opt <= r):
                # L_0 = {start} is not pruned: a start inside the ball meets it at t = 0 with
                # m = dist(start), the optimum, even when m > U (Theorem M says m <= U)
                assert got == opt, (r, U)
            else:
                assert got is None, (r, U)


def _store(folder, cert, layers):
    buf = io.BytesIO()
    np.savez(buf, **{k: np.diff(v, prepend=U64(0)) if v.size else v for k, v in layers.items()})
    (folder / "edited.layers.npz").write_bytes(buf.getvalue())
    return dict(cert, layers="edited.layers.npz", layers_sha256=hashlib.sha256(buf.getvalue()).hexdigest())


@pytest.mark.parametrize("seed", [1, 4, 5, 7])
def test_graph_perimeter_certificate_accepted_and_every_removal_rejected(tmp_path, seed):
    inst = _graph(seed)
    opt = _optimum(inst)
    if opt is None or opt < 2:
        pytest.skip("no move to prove")
    run = solve(inst, "rankbfs", upper_bound=opt, perimeter=1, workers=1)
    assert run.status.value == "optimal" and run.length == opt
    done = certify(inst, run, tmp_path)
    assert done.check.ok, done.check.reason
    cert = json.loads(done.path.read_text())
    assert cert["h"] == {"kind": "perimeter", "r": 1, "inner": "fill"}
    with np.load(tmp_path / cert["layers"]) as z:
        layers = {k: np.cumsum(z[k], dtype=U64) for k in z.files}
    for key in sorted(layers):
        if key == "L0":
            continue
        for j in range(layers[key].size):
            edited = _store(tmp_path, cert, dict(layers, **{key: np.delete(layers[key], j)}))
            verdict = check_certificate(inst, edited, tmp_path)
            assert not verdict.ok and "in no layer" in verdict.reason, (key, j, verdict.reason)


def test_a_deadline_inside_the_ball_is_a_limit(tmp_path):
    inst = _square(2)
    opt = _optimum(inst)
    run = solve(inst, "rankbfs", upper_bound=opt, perimeter=3, workers=1)
    done = certify(inst, run, tmp_path)
    assert done.check.ok, done.check.reason
    cert = json.loads(done.path.read_text())
    with pytest.raises(LimitReached):
        check_certificate(inst, cert, tmp_path, deadline=time.perf_counter() - 1)
