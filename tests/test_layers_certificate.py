"""Layers certificates (certificates/layers.py): accepted when true, rejected when tampered."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.layers import U64, _Rule
from coinsat.certificates.prove.make import certify
from coinsat.io.instance_format import read_instance
from coinsat.result import SearchLayers, Status
from coinsat.rules import successors
from coinsat.solve import solve

from .strategies import configurations, instances

DIAG = read_instance("instances/paper/diagonal.toml")


@settings(max_examples=100, deadline=None)
@given(configurations(instances(kinds=("square", "graph"), labeled=False, max_coins=5)))
def test_checker_kernel_is_the_move_rule(case):
    inst, config = case
    b = inst.board
    (word,) = config.masks(inst.labels)
    want = {new for _, (new,) in successors(b, inst.d, (word,))}
    got = {int(w) for w in _Rule(inst, list(b.coords)).successors(np.array([word], dtype=U64))}
    assert got == want


def _certified(tmp_path):
    done = certify(DIAG, solve(DIAG), tmp_path)
    assert done.certificate.kind == "layers"
    return done


def test_diagonal_layers_certificate_accepted(tmp_path):
    done = _certified(tmp_path)
    assert done.check.ok, done.check.reason
    assert done.check.claim == "optimal: 18 moves (no solution with <= 17 moves)"


def _rewrite(tmp_path, cert, change):
    """Change the layers file, re-hash it (so only the closure check can object)."""
    path = tmp_path / cert["layers"]
    with np.load(path) as z:
        layers = {k: z[k] for k in z.files}
    change(layers)
    buf = io.BytesIO()
    np.savez_compressed(buf, **layers)
    path.write_bytes(buf.getvalue())
    return dict(cert, layers_sha256=hashlib.sha256(buf.getvalue()).hexdigest())


def test_tampered_layers_are_rejected(tmp_path):
    cert = json.loads(_certified(tmp_path).path.read_text())
    assert not check_certificate(DIAG, dict(cert, layers_sha256="0" * 64), tmp_path).ok

    def drop(layers):  # a reachable configuration goes missing
        layers["L9"] = layers["L9"][1:]

    verdict = check_certificate(DIAG, _rewrite(tmp_path, cert, drop), tmp_path)
    assert not verdict.ok and "in no layer" in verdict.reason


def test_goal_in_a_layer_and_wrong_windows_are_rejected(tmp_path):
    cert = json.loads(_certified(tmp_path).path.read_text())
    (goal,) = DIAG.goal.masks(DIAG.labels)

    def plant(layers):
        layers["L17"] = np.unique(np.append(layers["L17"], U64(goal)))

    verdict = check_certificate(DIAG, _rewrite(tmp_path, cert, plant), tmp_path)
    assert not verdict.ok and "goal" in verdict.reason
    assert not check_certificate(DIAG, dict(cert, cells=cert["cells"][1:] + cert["cells"][:1]), tmp_path).ok
    verdict = check_certificate(DIAG, dict(cert, cells=cert["cells"][:-1]), tmp_path)  # a window too small
    assert not verdict.ok and "span(start)" in verdict.reason


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(instances(kinds=("square", "graph"), labeled=False, max_coins=4))
def test_every_spanbfs_answer_gets_an_accepted_certificate(tmp_path_factory, inst):
    if inst.board.kind == "square" and inst.d < 2:
        return  # the window is exact only for d >= 2
    r = solve(inst, "spanbfs")
    if r.status is not Status.OPTIMAL:
        return
    done = certify(inst, r, tmp_path_factory.mktemp("layers"))
    assert done.check.ok, (done.check.reason, done.certificate.kind)


def test_certify_reuses_the_layers_of_the_answer(tmp_path, monkeypatch):
    """A spanbfs answer carries its layers (Result.witness): certifying it searches no more."""
    import coinsat.search.spanbfs as spanbfs

    result = solve(DIAG, "spanbfs")
    assert result.witness.layers is not None and len(result.witness.layers) == 19

    def no_second_search(*args, **kwargs):
        raise AssertionError("certify searched again")

    monkeypatch.setattr(spanbfs, "solve_spanbfs", no_second_search)
    done = certify(DIAG, result, tmp_path)
    assert done.check.ok and done.check.claim == "optimal: 18 moves (no solution with <= 17 moves)"
    # a witness that stops short of the horizon is not used: the builder searches (here: refused)
    with pytest.raises(AssertionError, match="searched again"):
        certify(DIAG, dataclasses.replace(result, witness=SearchLayers(result.witness.layers[:5])), tmp_path / "short")


# --- ranked layers (rankbfs): past 64 cells, pruned by a bound --------------------------------------


def _ranked(tmp_path, **options):
    done = certify(DIAG, solve(DIAG, "rankbfs", **options), tmp_path)
    assert done.check.ok, done.check.reason
    assert done.check.claim == "optimal: 18 moves (no solution with <= 17 moves)"
    cert = json.loads(done.path.read_text())
    assert cert["encoding"] == "rank" and cert.get("upper_bound") == options.get("upper_bound")
    return cert


def _rewrite_ranks(tmp_path, cert, change):
    """Decode the ranked layers (first differences), change them, encode and re-hash."""
    path = tmp_path / cert["layers"]
    with np.load(path) as z:
        layers = {k: np.cumsum(z[k], dtype=U64) for k in z.files}
    change(layers)
    buf = io.BytesIO()
    np.savez_compressed(buf, **{k: np.diff(v, prepend=U64(0)) if v.size else v for k, v in layers.items()})
    path.write_bytes(buf.getvalue())
    return dict(cert, layers_sha256=hashlib.sha256(buf.getvalue()).hexdigest())


@pytest.mark.parametrize("options", [{}, {"upper_bound": 18}, {"upper_bound": 20, "workers": 2}])
def test_ranked_layers_are_accepted(tmp_path, options):
    _ranked(tmp_path, **options)


def test_tampered_ranked_layers_are_rejected(tmp_path):
    cert = _ranked(tmp_path)

    def drop(layers):
        layers["L9"] = layers["L9"][1:]

    verdict = check_certificate(DIAG, _rewrite_ranks(tmp_path, cert, drop), tmp_path)
    assert not verdict.ok and "in no layer" in verdict.reason
    cert = _ranked(tmp_path / "again")
    goal = sum(
        math.comb(i, j + 1)
        for j, i in enumerate(sorted(DIAG.board.cell(DIAG.board.coords[c]) for c in DIAG.goal.cells))
    )

    def plant(layers):
        layers["L17"] = np.unique(np.append(layers["L17"], U64(goal)))

    verdict = check_certificate(DIAG, _rewrite_ranks(tmp_path / "again", cert, plant), tmp_path / "again")
    assert not verdict.ok and "goal" in verdict.reason


def test_a_pruned_certificate_needs_its_bound(tmp_path):
    """The layers of a pruned search miss states an unpruned closure asks for; a bound below the
    horizon proves nothing."""
    cert = _ranked(tmp_path, upper_bound=18)
    verdict = check_certificate(DIAG, {k: v for k, v in cert.items() if k != "upper_bound"}, tmp_path)
    assert not verdict.ok and "in no layer" in verdict.reason
    verdict = check_certificate(DIAG, dict(cert, upper_bound=16), tmp_path)
    assert not verdict.ok and "upper bound" in verdict.reason


def test_ranked_certificate_past_64_cells(tmp_path):
    """A 9 x 9 window (81 cells): the diagonal to a configuration three moves away."""
    from coinsat.instance import make_instance
    from coinsat.rules import apply_move, legal_moves

    diagonal = [(i, i) for i in range(9)]
    box = make_instance("square", diagonal, diagonal, adjacency=2)
    config, seen = box.start, {box.start}
    for _ in range(3):  # three legal moves away, never back
        move = next(m for m in legal_moves(box.board, config, 2) if apply_move(box.board, config, m, 2) not in seen)
        config = apply_move(box.board, config, move, 2)
        seen.add(config)
    inst = make_instance("square", diagonal, [box.board.coords[c] for c in config.cells], adjacency=2)
    assert inst.board.size == 81
    r = solve(inst, "rankbfs")
    assert r.status is Status.OPTIMAL
    done = certify(inst, r, tmp_path)
    assert done.check.ok, done.check.reason


def test_certify_reuses_the_ranked_layers(tmp_path, monkeypatch):
    import coinsat.search.rank.search as rankbfs

    result = solve(DIAG, "rankbfs")

    def no_second_search(*args, **kwargs):
        raise AssertionError("certify searched again")

    monkeypatch.setattr(rankbfs, "solve_rankbfs", no_second_search)
    assert certify(DIAG, result, tmp_path).check.ok


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([("square", 9), ("graph", 90), ("square", 7)]), st.randoms(use_true_random=False))
def test_wide_checker_kernel_is_the_move_rule(board, rnd):
    """The ranked checker's successors (span test off: an empty target) are those of rules.py,
    on windows of 49, 81 and 90 cells, and their ranks (from the prefix tables) are those of
    the sorted successor sets."""
    from coinsat.certificates.check.ranked import Decoder, Kernel
    from coinsat.instance import make_instance

    kind, size = board
    if kind == "square":
        start = [(i, i) for i in range(size)]
        inst = make_instance("square", start, start, adjacency=2)
    else:
        cells = list(range(size))
        edges = sorted(
            {tuple(sorted(rnd.sample(cells, 2))) for _ in range(2 * size)} | {(i, i + 1) for i in range(size - 1)}
        )
        start = rnd.sample(cells, 6)
        inst = make_instance("graph", start, start, adjacency=rnd.randint(1, 2), edges=edges, cells=cells)
    b = inst.board
    ker, dec = Kernel(inst, list(b.coords)), Decoder(b.size, len(start))
    configs = [sorted(rnd.sample(range(b.size), len(start))) for _ in range(3)]
    pos = np.array(configs, dtype=np.int64)
    assert dec.positions(dec.ranks(pos)).tolist() == configs  # the rank round trip
    words = ker.words(pos)
    nothing = [np.zeros((ker.W, 1), dtype=U64)]
    got: list[set] = [set() for _ in configs]
    tables = dec.tables(pos)
    for j, rows, p, m in ker.successors(pos, words, nothing, np.ones(len(configs), dtype=bool)):
        ranks = dec.moved(tables, rows, j, p, m)
        for r, q, rank in zip(rows.tolist(), p.tolist(), ranks.tolist()):
            new = sorted(set(configs[r]) - {configs[r][j]} | {q})
            assert rank == int(dec.ranks(np.array([new]))[0])
            got[r].add(tuple(new))
    for config, mine in zip(configs, got):
        word = sum(1 << c for c in config)
        want = {tuple(c for c in range(b.size) if w >> c & 1) for _, (w,) in successors(b, inst.d, (word,))}
        assert mine == want


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_edge_cap_never_drops_a_spanning_set(rnd):
    """The perimeter bound (ranked.edge_cap): a set whose span contains a goal span has at most
    the cap's adjacent pairs; and the bound is not vacuous (a full square's own cap is met)."""
    from coinsat.certificates.check.ranked import Kernel, edge_cap
    from coinsat.instance import make_instance

    size = 7
    cells = [(x, y) for x in range(size) for y in range(size)]
    inst = make_instance("square", [(0, 0), (1, 1)], [(0, 0), (1, 1)], adjacency=2, cells=cells)
    ker = Kernel(inst, cells)
    goal = sorted(rnd.sample(range(len(cells)), rnd.randint(2, 5)))
    need = ker.span(ker.words(np.array([goal])))
    spanning = 0
    for t in range(40):
        extra = rnd.sample(range(len(cells)), rnd.randint(1, 6))
        a = sorted(set(extra) | (set(goal) if t % 2 else set()))  # half of them contain the goal
        word = ker.words(np.array([a], dtype=np.int64))
        if ((ker.span(word) & need) == need).all():
            spanning += 1
            edges = sum(
                1
                for i in a
                for j in a
                if i < j and abs(cells[i][0] - cells[j][0]) + abs(cells[i][1] - cells[j][1]) == 1
            )
            assert edges <= edge_cap(cells, [need], len(a) + 1)  # the cap for sets of len(a) cells
    assert spanning >= 20
