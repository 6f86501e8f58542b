"""The layers checker recomputes the forced-supports h itself (certificate field ``h`` = "forced").

A certificate of the kind is made here from the layers of the bound-and-prune search of
``lab.forced_supports`` (what ``scripts/forced_supports_search.py --engine own`` runs)
with h_forced (docs/forced-supports.md, Theorem H),
put in a genuine ranked certificate of the same instance and bound in place of its layers.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.ranked import Decoder, Kernel
from coinsat.certificates.prove.make import certify
from coinsat.io.instance_format import read_instance
from coinsat.solve import solve
from coinsat.theory.supports import BIG, Batch
from lab.forced_supports import search

ROOT = Path(__file__).resolve().parent.parent
DIAG = read_instance(ROOT / "instances" / "paper" / "diagonal.toml")
U64 = np.uint64


def _ranks(masks: np.ndarray, n: int, k: int) -> np.ndarray:
    pos = np.array([[c for c in range(n) if int(x) >> c & 1] for x in masks], dtype=np.int64).reshape(-1, k)
    return np.sort(Decoder(n, k).ranks(pos))


def _certificate(tmp_path, which: str, upper_bound: int):
    """A genuine rankbfs certificate (U = upper_bound), its layers replaced by those of the
    script's search pruned with ``which`` and the field h set to "forced"."""
    done = certify(DIAG, solve(DIAG, "rankbfs", upper_bound=upper_bound, symmetry=False), tmp_path)  # plain layers
    assert done.check.ok, done.check.reason
    cert = json.loads(done.path.read_text())
    run = search(DIAG, upper_bound, which, keep_layers=True)
    n, k = DIAG.board.size, DIAG.n_coins
    layers = {f"L{t}": _ranks(run["kept"][t], n, k) for t in range(cert["horizon"] + 1)}
    return _store(tmp_path, dict(cert, h="forced"), layers), layers


def _store(tmp_path, cert, layers):
    buf = io.BytesIO()
    np.savez_compressed(buf, **{k: np.diff(v, prepend=U64(0)) if v.size else v for k, v in layers.items()})
    (tmp_path / cert["layers"]).write_bytes(buf.getvalue())
    return dict(cert, layers_sha256=hashlib.sha256(buf.getvalue()).hexdigest())


def test_forced_certificate_accepted_and_tampering_rejected(tmp_path):
    cert, layers = _certificate(tmp_path, "forced", 18)
    verdict = check_certificate(DIAG, cert, tmp_path)
    assert verdict.ok, verdict.reason
    assert verdict.claim == "optimal: 18 moves (no solution with <= 17 moves)"
    assert "pruned by h (forced)" in verdict.reason
    # the same layers under today's h: it asks for states the forced h pruned
    for plain in ({k: v for k, v in cert.items() if k != "h"}, dict(cert, h="fill")):
        verdict = check_certificate(DIAG, plain, tmp_path)
        assert not verdict.ok and "in no layer" in verdict.reason, verdict.reason
    for bad in (
        dict(cert, h="forced-supports"),
        dict(cert, h=None),
        {k: v for k, v in cert.items() if k != "upper_bound"},
    ):
        verdict = check_certificate(DIAG, bad, tmp_path)
        assert not verdict.ok and "unknown h" in verdict.reason, verdict.reason
    # a state dropped from a layer
    dropped = dict(layers, L9=layers["L9"][1:])
    verdict = check_certificate(DIAG, _store(tmp_path, cert, dropped), tmp_path)
    assert not verdict.ok and "in no layer" in verdict.reason


def test_forced_keeps_fewer_states_than_fill():
    """Not vacuous: on the diagonal with U = 18 the forced search keeps fewer states."""
    assert search(DIAG, 18, "forced")["states"] < search(DIAG, 18, "fill")["states"]


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.randoms(use_true_random=False))
def test_checker_h_forced_is_theorem_h(rnd):
    """ranked.Kernel.h_forced (the checker's own) = theory/supports.py's Batch.h_forced."""
    n, k = DIAG.board.size, DIAG.n_coins
    goals = [g.mask for g in DIAG.goal_configurations]
    masks = [sum(1 << c for c in rnd.sample(range(n), k)) for _ in range(60)] + [DIAG.start.mask]
    ker = Kernel(DIAG, list(DIAG.board.coords))
    pos = np.array([[c for c in range(n) if x >> c & 1] for x in masks], dtype=np.int64)
    goal_words = ker.words(np.array([sorted(g.cells) for g in DIAG.goal_configurations], dtype=np.int64))
    got = ker.h_forced(ker.words(pos), [goal_words[:, i : i + 1] for i in range(goal_words.shape[1])])
    want = Batch(DIAG.board, DIAG.d, goals).h_forced(np.array(masks, dtype=U64))
    assert np.minimum(got, BIG).tolist() == np.minimum(want, BIG).tolist()


def test_engine_option_same_answers_fewer_states_checked(tmp_path):
    """rankbfs --forced-supports: the same answers as today's h with the same U (the optimum at
    U = opt, bounded at U = opt - 1), no more states, and certificates naming h = forced that the
    checker accepts; without the field the same layers are rejected."""
    inst = read_instance(ROOT / "instances" / "families" / "vdiag-2-2-nwse.toml")
    for U, status in ((24, "optimal"), (23, "bounded")):
        runs = {f: solve(inst, "rankbfs", upper_bound=U, forced_supports=f, workers=1) for f in (False, True)}
        assert runs[False].status.value == runs[True].status.value == status
        assert runs[False].length == runs[True].length
        assert runs[True].stats["states"] < runs[False].stats["states"]
        done = certify(inst, runs[True], tmp_path / str(U))
        assert done.check.ok, done.check.reason
        cert = json.loads(done.path.read_text())
        assert cert["h"] == "forced"
        verdict = check_certificate(inst, {k: v for k, v in cert.items() if k != "h"}, tmp_path / str(U))
        assert not verdict.ok and "in no layer" in verdict.reason


def test_engine_h_forced_is_theorem_h():
    """search/rank/space.py's Space(h="forced").heuristic = theory/supports.py's Batch.h_forced."""
    from coinsat.search.rank.space import Space

    inst = read_instance(ROOT / "instances" / "families" / "vdiag-3-2-nwse.toml")
    n, k = inst.board.size, inst.n_coins
    rng = np.random.default_rng(3)
    masks = [sum(1 << int(c) for c in rng.choice(n, k, replace=False)) for _ in range(300)] + [inst.start.mask]
    space = Space(inst, True, 60, "forced")
    ranks = np.array([space.rank_of_cells(c for c in range(n) if x >> c & 1) for x in masks], dtype=U64)
    want = Batch(inst.board, inst.d, [g.mask for g in inst.goal_configurations]).h_forced(np.array(masks, dtype=U64))
    assert np.minimum(space.heuristic(ranks), BIG).tolist() == np.minimum(want, BIG).tolist()
