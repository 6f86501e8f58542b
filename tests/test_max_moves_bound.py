"""rankbfs --max-moves K on an exact window prunes with depth + h > K (search/rank/search.py,
"Bound-and-prune"): the same answers as the unpruned search, fewer states, and certificates
the checker accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from coinsat.certificates.check import check_certificate
from coinsat.certificates.prove.make import certify
from coinsat.errors import UsageError
from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.solve import solve

ROOT = Path(__file__).resolve().parent.parent
V22 = ROOT / "instances/families/vdiag-2-2-nwse.toml"  # optimum 24


@pytest.mark.parametrize("K", [23, 24, 30])
def test_max_moves_prunes_with_the_same_answer(K, tmp_path):
    """Against spanbfs (no h): the same answer for every h; a stronger h keeps fewer states
    (h_fill <= h_forced and h_fill <= h_lm state by state: docs/forced-supports.md, docs/lm-cut.md)."""
    inst = read_instance(V22)
    plain = solve(inst, "spanbfs", max_moves=K)
    states = {}
    for h in ("fill", "forced", "lmcut"):
        pruned = solve(inst, "rankbfs", max_moves=K, workers=1, heuristic=h)
        assert (pruned.status, pruned.lower_bound, pruned.length) == (plain.status, plain.lower_bound, plain.length)
        if K < 24:
            assert pruned.status is Status.BOUNDED and pruned.lower_bound == K + 1
        else:
            assert pruned.status is Status.OPTIMAL and pruned.length == 24
        assert pruned.stats["upper_bound"] == K
        states[h] = pruned.stats["states"]
        done = certify(inst, pruned, tmp_path / h)
        assert done.check.ok, done.check.reason
        claim = f"no solution with <= {K} moves" if K < 24 else "optimal: 24"
        assert claim in done.check.claim
    assert states["lmcut"] < states["fill"] and states["forced"] <= states["fill"]


def test_max_moves_below_the_upper_bound_wins():
    inst = read_instance(V22)
    r = solve(inst, "rankbfs", max_moves=20, upper_bound=30, workers=1, heuristic="lmcut")
    assert r.status is Status.BOUNDED and r.lower_bound == 21
    assert r.stats["upper_bound"] == 20


def test_heuristic_without_any_bound_is_a_usage_error():
    inst = read_instance(V22)
    with pytest.raises(UsageError, match="--upper-bound or --max-moves"):
        solve(inst, "rankbfs", workers=1, heuristic="lmcut")


def test_a_tampered_bound_is_rejected(tmp_path):
    """A bounded certificate whose U is raised claims more than its layers show."""
    import json

    inst = read_instance(V22)
    r = solve(inst, "rankbfs", max_moves=22, workers=1, heuristic="lmcut")
    done = certify(inst, r, tmp_path)
    assert done.check.ok
    path = next(tmp_path.glob("*.certificate.json"))
    cert = json.loads(path.read_text())
    text = json.dumps(cert)
    assert '"upper_bound": 22' in text or '"U": 22' in text
    forged = json.loads(text.replace('"upper_bound": 22', '"upper_bound": 23').replace('"U": 22', '"U": 23'))
    verdict = check_certificate(inst, forged, tmp_path, None, 1)
    assert not verdict.ok
