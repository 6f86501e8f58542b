"""benchmarks/competition-manifest.csv stays the encoder's: every CNF hash equals a re-encoding.

If this fails, the SAT encoding (or its defaults) changed: regenerate the competition family
(encodings/competition.md gives the command) and commit the new manifest."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from coinsat.export import cnf as write_cnf
from coinsat.families import diagonal_flip, vdiag
from coinsat.io.instance_format import read_instance

ROOT = Path(__file__).resolve().parent.parent
ROWS = [r for r in csv.DictReader((ROOT / "benchmarks/competition-manifest.csv").open()) if r["format"] == "cnf"]


def _instance(row):
    p = dict(kv.split("=") for kv in row["parameters"].split(";"))
    if row["family"] == "paper":
        return read_instance(ROOT / f"instances/paper/{p['puzzle']}.toml")
    if row["family"] == "diagonal":
        return diagonal_flip(int(p["k"]))
    return vdiag(int(p["a"]), int(p["b"]), p.get("target", "nwse"))


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_manifest_hash_is_the_current_encoding(row):
    pytest.importorskip("gbdc")
    from coinsat.certificates.check.bounded import gbd_hash_text

    assert gbd_hash_text(write_cnf(_instance(row), int(row["horizon"]))) == row["gbd_hash"]
