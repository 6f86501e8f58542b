"""A bound U that is no solution's length, on windows past 64 cells: still sound, still checked.

Why these tests: the V(4,3) proofs (``scripts/scale_bench.py --upper-bound SPEC=U``) run
``rankbfs`` with a guessed U, since the stored solutions are about eight times the optimum and
would prune nothing.  That is sound only if a guess below the optimum gives ``bounded`` (never
``optimal`` nor ``unsolvable``), a guess above it the true optimum, and the ranked certificate of
an 81-cell (two-word) window with that U is checked -- and rejected when tampered with.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from coinsat.certificates.check import check_certificate
from coinsat.certificates.prove.make import certify
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.rules import apply_move, legal_moves
from coinsat.solve import solve

from .test_layers_certificate import _rewrite_ranks

U64 = np.uint64


def _far_diagonal():
    """The 9-coin diagonal (an 81-cell window) to a configuration four legal moves away."""
    diagonal = [(i, i) for i in range(9)]
    box = make_instance("square", diagonal, diagonal, adjacency=2)
    config, seen = box.start, {box.start}
    for _ in range(4):
        move = next(m for m in legal_moves(box.board, config, 2) if apply_move(box.board, config, m, 2) not in seen)
        config = apply_move(box.board, config, move, 2)
        seen.add(config)
    inst = make_instance("square", diagonal, [box.board.coords[c] for c in config.cells], adjacency=2)
    assert inst.board.size == 81
    return inst


def test_a_guess_below_the_optimum_proves_the_guess_and_no_more(tmp_path):
    inst = _far_diagonal()
    exact = solve(inst, "rankbfs")
    assert exact.status is Status.OPTIMAL and exact.length >= 2
    L = exact.length
    low = solve(inst, "rankbfs", upper_bound=L - 1)
    assert low.status is Status.BOUNDED and low.solution is None and low.lower_bound == L
    done = certify(inst, low, tmp_path / "low")
    assert done.check.ok, done.check.reason
    assert done.check.claim == f"no solution with <= {L - 1} moves"
    high = solve(inst, "rankbfs", upper_bound=L + 3)
    assert high.status is Status.OPTIMAL and high.length == L
    done = certify(inst, high, tmp_path / "high")
    assert done.check.ok and done.check.claim == f"optimal: {L} moves (no solution with <= {L - 1} moves)"


V43 = "instances/families/vdiag-4-3-swne.toml"
HORIZON = 7


@pytest.fixture
def v43_certificate(tmp_path):
    """V(4,3) -> SW-NE searched to HORIZON moves with the guessed U = 73 (two-word bitboards)."""
    inst = read_instance(V43)
    assert inst.board.size == 81
    r = solve(inst, "rankbfs", max_moves=HORIZON, upper_bound=73)
    assert r.status is Status.BOUNDED and r.lower_bound == HORIZON + 1
    done = certify(inst, r, tmp_path)
    assert done.check.ok, done.check.reason
    assert done.check.claim == f"no solution with <= {HORIZON} moves"
    cert = json.loads(done.path.read_text())
    assert cert["encoding"] == "rank" and cert["upper_bound"] == 73
    return inst, cert, tmp_path


def test_v43_guessed_bound_below_the_horizon_is_rejected(v43_certificate):
    inst, cert, folder = v43_certificate
    verdict = check_certificate(inst, dict(cert, upper_bound=HORIZON - 1), folder)
    assert not verdict.ok and "upper bound" in verdict.reason


def test_v43_layers_missing_a_state_are_rejected(v43_certificate):
    inst, cert, folder = v43_certificate

    def drop(layers):
        layers["L5"] = layers["L5"][1:]

    verdict = check_certificate(inst, _rewrite_ranks(folder, cert, drop), folder)
    assert not verdict.ok and "in no layer" in verdict.reason


def test_a_bound_on_a_growing_window_is_refused_not_dropped():
    """h bounds the moves left on an exact window (the span of the start is closed); where the
    span is unbounded the search grows its window and cannot prune: asking for it is a usage
    error, never a silent search without the bound."""
    from coinsat.errors import UsageError

    inst = make_instance("square", [(0, 0), (1, 0), (2, 0)], [(0, 0), (1, 0), (0, 1)], adjacency=1)
    assert not inst.board.exact
    assert solve(inst, "rankbfs", workers=1).status is Status.OPTIMAL
    for extra in ({}, {"forced_supports": True}, {"perimeter": 1}):
        with pytest.raises(UsageError, match="exact window only"):
            solve(inst, "rankbfs", workers=1, upper_bound=5, **extra)


def test_a_negative_bound_or_radius_is_a_usage_error():
    from coinsat.errors import UsageError

    inst = read_instance("instances/paper/diagonal.toml")
    with pytest.raises(UsageError, match="upper_bound must be"):
        solve(inst, "rankbfs", workers=1, upper_bound=-1)
    with pytest.raises(UsageError, match="perimeter must be"):
        solve(inst, "rankbfs", workers=1, upper_bound=18, perimeter=-2)
