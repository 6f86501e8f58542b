"""The backward ball and the perimeter h (docs/perimeter-search.md).

Lemma U: the engine's predecessors are exactly the configurations with a legal move (by
``rules.check_move``) to the given one.  Lemma B: the ball's distances are the exact distances
(a BFS over ``rules.successors`` from the start, then backwards from the goal placements), and
every ball configuration outside that reachable set is checked shell by shell against
``rules.check_move`` (it has a move into the shell below and none into an earlier one; every
configuration of span(start) with a move into a shell is in the ball).  Theorem P: h_inner <=
h_perim <= dist.  The checker's ball (its own kernel) equals the engine's.  The search pruned
by h_perim gives the same answers as without it, and its certificates are checked, tampered
ones rejected.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.certificates.check import check_certificate
from coinsat.certificates.check import perimeter as check_perimeter
from coinsat.certificates.check.ranked import Decoder, Kernel
from coinsat.certificates.prove.make import certify
from coinsat.configuration import Configuration
from coinsat.errors import UsageError
from coinsat.io.instance_format import read_instance
from coinsat.rules import Move, check_move
from coinsat.search.rank import backward
from coinsat.search.rank.space import Space
from coinsat.solve import solve
from coinsat.theory.span import span_mask

from .strategies import exact_distances, lattice_puzzles

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
U64 = np.uint64


def _space(instance, h="fill") -> Space:
    return Space(instance, True, 1000, h)


def _masks(space: Space, ranks: np.ndarray) -> list[int]:
    return [sum(1 << int(c) for c in row) for row in space.colex.unrank(np.asarray(ranks, dtype=U64))]


def _rank(space: Space, mask: int) -> int:
    return space.rank_of_cells(c for c in range(space.n) if mask >> c & 1)


def _undone(instance, y: int, region: int) -> set[int]:
    """Every X inside ``region`` with a legal move (rules.check_move) to Y, by brute force."""
    board, d = instance.board, instance.d
    out = set()
    for p in range(board.size):
        if not y >> p & 1:
            continue
        for s in range(board.size):
            if y >> s & 1 or not region >> s & 1:
                continue
            x = y & ~(1 << p) | (1 << s)
            conf = Configuration.unlabeled(c for c in range(board.size) if x >> c & 1)
            if check_move(board, conf, Move(s, p), d) is None:
                out.add(x)
    return out


@SETTINGS
@given(lattice_puzzles(max_side=4, max_coins=5), st.randoms(use_true_random=False))
def test_lemma_u_predecessors_are_undone_moves(instance, rnd):
    space = _space(instance)
    full = np.zeros((space.kernel.W, 1), dtype=U64)
    for c in range(space.n):
        full[c >> 6, 0] |= U64(1 << (c & 63))
    every = (1 << space.n) - 1
    for _ in range(15):
        y = sum(1 << c for c in rnd.sample(range(space.n), space.k))
        got, _ = backward.predecessors(space, np.array([_rank(space, y)], dtype=U64), full)
        assert set(_masks(space, got)) == _undone(instance, y, every)


def _region(instance) -> int:
    return span_mask(instance.board, instance.start.mask, instance.d)


@SETTINGS
@given(lattice_puzzles(max_side=4, max_coins=5), st.integers(0, 5))
def test_lemma_b_ball_is_exact(instance, r):
    space = _space(instance)
    ball = backward.Ball(space, r)
    region = _region(instance)
    shells = [set(_masks(space, s)) for s in ball.shells]
    where = {x: i for i, s in enumerate(shells) for x in s}
    # the reachable configurations: in the ball iff their exact distance is <= r, at that distance
    dist, _ = exact_distances(instance)
    for x, true in dist.items():
        assert where.get(x, -1) == (true if true <= r else -1), (x, true)
    # every configuration of the ball: inside span(start), a move into the shell below, none earlier
    goals = {g.mask for g in instance.goal_configurations if g.mask & ~region == 0}
    assert shells[0] == goals
    for i in range(1, r + 1):
        for x in shells[i]:
            assert x & ~region == 0
        below = set().union(*shells[:i])
        for y in shells[i - 1]:
            for x in _undone(instance, y, region):  # completeness: every predecessor is in the ball
                assert x in below or x in shells[i], (i, x)
        # soundness: a state of S_i has a move into S_{i-1} (it is someone's predecessor there)
        preds = set().union(*(_undone(instance, y, region) for y in shells[i - 1])) if shells[i - 1] else set()
        assert shells[i] <= preds
        assert not shells[i] & below


@SETTINGS
@given(lattice_puzzles(max_side=4, max_coins=5), st.integers(0, 6), st.sampled_from(("fill", "forced")))
def test_theorem_p_admissible(instance, r, inner):
    space = _space(instance, inner)
    ball = backward.Ball(space, r)
    dist, _ = exact_distances(instance)
    xs = list(dist)
    ranks = np.array([_rank(space, x) for x in xs], dtype=U64)
    h_in = space.inner_heuristic(ranks)
    h_p = ball.h(ranks, space.inner_heuristic)
    for x, a, b in zip(xs, h_in.tolist(), h_p.tolist()):
        assert a <= b
        assert b <= dist[x], (x, a, b, dist[x])


def _checker_ball(instance, r):
    b = instance.board
    cells = list(b.coords)
    index = {c: i for i, c in enumerate(cells)}
    dec, ker = Decoder(len(cells), instance.n_coins), Kernel(instance, cells)
    start = sorted(index[b.coords[c]] for c in instance.start.cells)
    gp = np.array([sorted(index[b.coords[c]] for c in g.cells) for g in instance.goal_configurations])
    return check_perimeter.Ball(dec, ker, start, gp.reshape(-1, instance.n_coins), r)


@SETTINGS
@given(lattice_puzzles(max_side=5, max_coins=6), st.integers(0, 6))
def test_checker_ball_equals_engine_ball(instance, r):
    engine = backward.Ball(_space(instance), r)
    checker = _checker_ball(instance, r)
    assert len(engine.shells) == len(checker.shells) == r + 1
    for a, b in zip(engine.shells, checker.shells):
        assert a.tolist() == b.tolist()


def test_ball_on_the_v_matches_the_study():
    """V(2,2)->NW-SE: the shells of benchmarks/backward-ball.md (scripts/backward_ball.py, another
    implementation) and the checker's equal ball."""
    inst = read_instance(ROOT / "instances" / "families" / "vdiag-2-2-nwse.toml")
    ball = backward.Ball(_space(inst), 5)
    assert [s.size for s in ball.shells] == [1, 112, 1164, 2736, 9612, 14570]
    assert [s.tolist() for s in _checker_ball(inst, 5).shells] == [s.tolist() for s in ball.shells]


def test_parse_refuses_malformed_h():
    ok = {"kind": "perimeter", "r": 3, "inner": "forced"}
    assert check_perimeter.parse(ok, "rank", 10) == ("forced", 3, "")
    assert check_perimeter.parse("fill", "word", None) == ("fill", None, "")
    for bad in (
        dict(ok, r=-1),
        dict(ok, r=True),
        dict(ok, r=3.0),
        dict(ok, r=check_perimeter.MAX_RADIUS + 1),
        dict(ok, inner="partial"),
        dict(ok, kind="ball"),
        dict(ok, extra=1),
        {"kind": "perimeter", "r": 3},
        [1, 2],
    ):
        assert check_perimeter.parse(bad, "rank", 10)[2], bad
    assert check_perimeter.parse(ok, "rank", None)[2]
    assert check_perimeter.parse(ok, "word", 10)[2]


def _vee():
    return read_instance(ROOT / "instances" / "families" / "vdiag-2-2-nwse.toml")


def test_pruned_search_same_answers():
    """rankbfs --perimeter R: the same answers as without the ball (the optimum 24 at U = 24,
    bounded at U = 23: Theorems P, E), never more states, fewer with R = 6, on one process and two."""
    inst = _vee()
    for U, status in ((24, "optimal"), (23, "bounded")):
        for forced in (False, True):
            base = solve(inst, "rankbfs", upper_bound=U, forced_supports=forced, workers=1)
            assert base.status.value == status
            for r, workers in ((0, 1), (3, 1), (6, 1), (6, 2)):
                run = solve(inst, "rankbfs", upper_bound=U, forced_supports=forced, perimeter=r, workers=workers)
                assert run.status.value == status and run.length == base.length, (U, forced, r)
                assert run.stats["states"] <= base.stats["states"]
                if r == 6:
                    assert run.stats["states"] < base.stats["states"]
                    assert run.stats["ball"] == sum(s.size for s in backward.Ball(_space(inst), 6).shells)


def test_perimeter_refused_without_a_bound():
    with pytest.raises(UsageError, match="--perimeter prunes with a bound: give --upper-bound or --max-moves"):
        solve(_vee(), "rankbfs", perimeter=3, workers=1)


def _store(tmp_path, cert, layers):
    buf = io.BytesIO()
    np.savez_compressed(buf, **{k: np.diff(v, prepend=U64(0)) if v.size else v for k, v in layers.items()})
    (tmp_path / cert["layers"]).write_bytes(buf.getvalue())
    return dict(cert, layers_sha256=hashlib.sha256(buf.getvalue()).hexdigest())


def test_certificate_accepted_and_tampering_rejected(tmp_path):
    inst = _vee()
    run = solve(inst, "rankbfs", upper_bound=24, forced_supports=True, perimeter=6, workers=1)
    done = certify(inst, run, tmp_path)
    assert done.check.ok, done.check.reason
    assert done.check.claim == "optimal: 24 moves (no solution with <= 23 moves)"
    cert = json.loads(done.path.read_text())
    assert cert["h"] == {"kind": "perimeter", "r": 6, "inner": "forced"}
    h = cert["h"]
    # a smaller radius, a weaker inner h, no ball: each asks for states the search pruned
    for weaker in (dict(h, r=5), dict(h, r=0), dict(h, inner="fill"), "forced", "fill"):
        verdict = check_certificate(inst, dict(cert, h=weaker), tmp_path)
        assert not verdict.ok and "in no layer" in verdict.reason, (weaker, verdict.reason)
    # a larger radius is a larger admissible h (Theorem P): the claim stays true, and is accepted
    assert check_certificate(inst, dict(cert, h=dict(h, r=7)), tmp_path).ok
    # ... and past U - 1 = 23 every radius decides alike: the checker's ball stops there, so the
    # cost of a check does not grow with the radius a file names
    at_23, at_250 = (check_certificate(inst, dict(cert, h=dict(h, r=r)), tmp_path) for r in (23, 250))
    assert at_23.ok and at_250.ok
    assert at_23.reason.split("ball of")[1] == at_250.reason.split("ball of")[1]
    for malformed in (dict(h, r="6"), dict(h, r=-1), dict(h, kind="ball"), dict(h, inner="partial"), {"r": 6}):
        verdict = check_certificate(inst, dict(cert, h=malformed), tmp_path)
        assert not verdict.ok, malformed
    verdict = check_certificate(inst, {k: v for k, v in cert.items() if k != "upper_bound"}, tmp_path)
    assert not verdict.ok and "upper bound" in verdict.reason
    # the layers: a state removed, a goal placement added, a claim past the layers
    with np.load(tmp_path / cert["layers"]) as z:
        layers = {k: np.cumsum(z[k], dtype=U64) for k in z.files}
    peak = max(layers, key=lambda k: layers[k].size)
    verdict = check_certificate(inst, _store(tmp_path, cert, dict(layers, **{peak: layers[peak][1:]})), tmp_path)
    assert not verdict.ok and "in no layer" in verdict.reason, verdict.reason
    goal = np.array(sorted(int(g) for g in _space(inst).goal_ranks)[:1], dtype=U64)
    added = dict(layers, L10=np.union1d(layers["L10"], goal))
    verdict = check_certificate(inst, _store(tmp_path, cert, added), tmp_path)
    assert not verdict.ok and "goal placement" in verdict.reason, verdict.reason
    genuine = _store(tmp_path, cert, layers)
    assert check_certificate(inst, genuine, tmp_path).ok
    verdict = check_certificate(inst, dict(genuine, horizon=24), tmp_path)  # "none <= 24": no L24 proves it
    assert not verdict.ok


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(lattice_puzzles(max_side=4, max_coins=5), st.integers(0, 5), st.booleans())
def test_pruned_search_same_optimum_on_random_puzzles(instance, r, forced):
    """Theorems P and E on random puzzles: with U = the exact optimum L the perimeter-pruned search
    finds L, with U = L - 1 it answers bounded; the unpruned search agrees."""
    if not instance.board.exact:
        return
    dist, _ = exact_distances(instance)
    L = dist[instance.start.mask]
    plain = solve(instance, "rankbfs", workers=1)
    if L == float("inf"):
        assert plain.status.value == "unsolvable"
        return
    assert plain.status.value == "optimal" and plain.length == L
    run = solve(instance, "rankbfs", upper_bound=int(L), perimeter=r, forced_supports=forced, workers=1)
    assert run.status.value == "optimal" and run.length == L
    if L >= 1:
        below = solve(instance, "rankbfs", upper_bound=int(L) - 1, perimeter=r, forced_supports=forced, workers=1)
        assert below.status.value == "bounded"


def test_checker_ball_equals_engine_ball_on_two_words():
    """V(4,3)->NW-SE: 81 cells, two words a configuration: the same shells (engine and checker)."""
    inst = read_instance(ROOT / "instances" / "families" / "vdiag-4-3-nwse.toml")
    engine = backward.Ball(_space(inst), 3)
    assert [s.size for s in engine.shells] == [1, 280, 5910, 9912]
    assert [s.tolist() for s in _checker_ball(inst, 3).shells] == [s.tolist() for s in engine.shells]


def test_theorem_m_first_layer_meeting_the_ball_gives_the_optimum():
    """Theorem M on the engine's layers (V(2,2)->SW-NE, optimum 36, R = 8, U = 36 and a looser U = 40):
    the first layer holding a ball configuration gives min(t + dist) = 36."""
    inst = read_instance(ROOT / "instances" / "families" / "vdiag-2-2-swne.toml")
    for U in (36, 40):
        run = solve(inst, "rankbfs", upper_bound=U, perimeter=8, workers=1)
        assert run.status.value == "optimal" and run.length == 36
        ball = backward.Ball(_space(inst), 8)
        w = run.witness.layers
        met = next(t for t in range(w.depths) if (ball.distance(w.layer(t)) >= 0).any())
        d = ball.distance(w.layer(met))
        assert 0 < met <= U - 8 and met + int(d[d >= 0].min()) == 36


def test_ctrl_c_while_the_ball_is_built_is_an_unknown_answer(monkeypatch):
    """Ctrl-C before the first layer (while the ball is built) ends as a limit does: an 'unknown'
    answer with the lower bound proven so far, not an exception past the front door."""

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(backward, "Ball", interrupted)
    run = solve(_vee(), "rankbfs", upper_bound=24, perimeter=3, workers=1)
    assert run.status.value == "unknown" and run.stats["stopped"] == "interrupted"
