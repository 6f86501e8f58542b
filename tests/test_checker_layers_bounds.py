"""Layers certificates are read under bounds the checker derives itself.

A 2.4 MB ``.npz`` whose member declared 300 M states (deflated zeros) made the checker
allocate 2.6 GB and ignore ``--time-limit 1``.  Now every member's ``.npy`` header is read
first, and a layer may hold at most C(cells, coins) states (a layer is a set of configurations):
the bomb is rejected before any of it is inflated.  Data is then inflated in pieces with the
limits polled between them.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from coinsat.certificates.check import check_certificate
from coinsat.cli import main
from coinsat.io.instance_format import read_instance

ROOT = Path(__file__).resolve().parent.parent
DIAGONAL = ROOT / "instances" / "paper" / "diagonal.toml"


@pytest.fixture(scope="module")
def layers_cert(tmp_path_factory):
    d = tmp_path_factory.mktemp("layers")
    assert main(["certify", str(DIAGONAL), "-o", str(d)]) == 0
    (path,) = d.glob("*.certificate.json")
    cert = json.loads(path.read_text())
    assert cert["kind"] == "layers"
    return d, cert


def _rewrite(src: Path, dst: Path, member: str, header_shape: int, payload: bytes) -> None:
    """Copy the npz, replacing ``member`` by a header declaring ``header_shape`` uint64s and ``payload``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED) as zout:
        for name in zin.namelist():
            with zout.open(name, "w", force_zip64=True) as f:
                if name == member:
                    np.lib.format.write_array_header_1_0(
                        f, {"descr": "<u8", "fortran_order": False, "shape": (header_shape,)}
                    )
                    f.write(payload)
                else:
                    f.write(zin.read(name))


def _with_file(cert: dict, d: Path, name: str) -> dict:
    return dict(cert, layers=name, layers_sha256=hashlib.sha256((d / name).read_bytes()).hexdigest())


def test_the_genuine_certificate_is_accepted(layers_cert):
    d, cert = layers_cert
    verdict = check_certificate(read_instance(DIAGONAL), cert, d)
    assert verdict.ok and verdict.claim == "optimal: 18 moves (no solution with <= 17 moves)"


def test_r3_4_a_layer_declaring_more_states_than_configurations_is_rejected_at_once(layers_cert):
    d, cert = layers_cert
    inst = read_instance(DIAGONAL)
    cap = math.comb(len(cert["cells"]), len(inst.start.cells))
    _rewrite(d / cert["layers"], d / "bomb.npz", "L5.npy", cap + 1, bytes(1 << 20))
    t0 = time.perf_counter()
    verdict = check_certificate(inst, _with_file(cert, d, "bomb.npz"), d)
    assert not verdict.ok and "more than C(cells, coins)" in verdict.reason
    assert time.perf_counter() - t0 < 5


def test_a_truncated_layer_is_rejected(layers_cert):
    d, cert = layers_cert
    _rewrite(d / cert["layers"], d / "short.npz", "L5.npy", 1000, bytes(80))
    verdict = check_certificate(read_instance(DIAGONAL), _with_file(cert, d, "short.npz"), d)
    assert not verdict.ok and "truncated" in verdict.reason


def test_a_big_layer_within_the_bound_stops_at_the_time_limit(layers_cert, capsys):
    """Within C(cells, coins) but large (50 M states of deflated zeros, 400 MB): the inflation
    polls the clock, so --time-limit holds (exit 3: neither accepted nor rejected)."""
    d, cert = layers_cert
    inst = read_instance(DIAGONAL)
    n = min(50_000_000, math.comb(len(cert["cells"]), len(inst.start.cells)))
    _rewrite(d / cert["layers"], d / "big.npz", "L5.npy", n, bytes(8 * n))
    (d / "big.json").write_text(json.dumps(_with_file(cert, d, "big.npz")))
    t0 = time.perf_counter()
    code = main(["check-certificate", str(DIAGONAL), str(d / "big.json"), "--time-limit", "0.3"])
    assert code in (1, 3)  # stopped at the limit, or rejected (zeros are not a sorted set) if fast
    assert time.perf_counter() - t0 < 0.3 * 1.2 + 1


@pytest.mark.parametrize("name", ["../x.npz", "/etc/hostname", "a/b.npz"])
def test_r3_10_the_layers_file_stays_in_the_folder(layers_cert, name):
    d, cert = layers_cert
    verdict = check_certificate(read_instance(DIAGONAL), dict(cert, layers=name), d)
    assert not verdict.ok and "plain file name" in verdict.reason
