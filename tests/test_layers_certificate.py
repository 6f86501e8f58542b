"""Layers certificates (certificates/layers.py): accepted when true, rejected when tampered."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from coinsat.certificates.build.make import certify
from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.layers import U64, _Rule
from coinsat.io.instance_format import read_instance
from coinsat.result import Status
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
    assert result.witness is not None and len(result.witness) == 19

    def no_second_search(*args, **kwargs):
        raise AssertionError("certify searched again")

    monkeypatch.setattr(spanbfs, "solve_spanbfs", no_second_search)
    done = certify(DIAG, result, tmp_path)
    assert done.check.ok and done.check.claim == "optimal: 18 moves (no solution with <= 17 moves)"
    # a witness that stops short of the horizon is not used: the builder searches (here: refused)
    with pytest.raises(AssertionError, match="searched again"):
        certify(DIAG, dataclasses.replace(result, witness=result.witness[:5]), tmp_path / "short")
