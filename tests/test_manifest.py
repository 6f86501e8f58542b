"""benchmarks/competition-manifest.csv stays the encoder's: every CNF hash equals a re-encoding.

If this fails, the SAT encoding (or its defaults) changed: regenerate the competition family
(encodings/competition.md gives the command) and commit the new manifest.  Core-only rows
(``encoding`` = core) are rebuilt by certificates/check/core_cnf.py; the largest formulas
(over 40,000 variables: seconds each to encode) are checked under ``-m slow``.  Every file
counted as certified names a certificate or a solution file, and the solution files replay."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from coinsat.export import cnf as write_cnf
from coinsat.families import diagonal_flip, vdiag
from coinsat.io.instance_format import read_instance

ROOT = Path(__file__).resolve().parent.parent
ROWS = [r for r in csv.DictReader((ROOT / "benchmarks/competition-manifest.csv").open()) if r["format"] == "cnf"]
BIG = 40_000


def _param(row):
    marks = [pytest.mark.slow] if int(row["variables"]) > BIG else []
    return pytest.param(row, id=row["file"], marks=marks)


def _instance(row):
    p = dict(kv.split("=") for kv in row["parameters"].split(";"))
    if row["family"] == "paper":
        return read_instance(ROOT / f"instances/paper/{p['puzzle']}.toml")
    if row["family"] == "diagonal":
        return diagonal_flip(int(p["k"]))
    if row["family"] == "vdiag":
        return vdiag(int(p["a"]), int(p["b"]), p.get("target", "nwse"))
    raise ValueError(f"unknown family {row['family']!r}")


@pytest.mark.parametrize("row", [_param(r) for r in ROWS])
def test_manifest_hash_is_the_current_encoding(row):
    pytest.importorskip("gbdc")
    from coinsat.certificates.check.bounded import gbd_hash_text

    inst, T = _instance(row), int(row["horizon"])
    if row.get("encoding", "pruned") == "core":
        from coinsat.certificates.check.bounded import widened
        from coinsat.certificates.check.core_cnf import core_cnf_text
        from coinsat.certificates.prove.bounded import exact_margin

        m = exact_margin(inst, T)
        text = core_cnf_text(inst if m is None else widened(inst, m), T)
    else:
        text = write_cnf(inst, T)
    assert gbd_hash_text(text) == row["gbd_hash"]


def test_every_certified_answer_names_its_evidence():
    certified = [r for r in ROWS if r.get("certified") == "yes"]
    for r in certified:
        evidence = ("certificate accepted", "verified solution", "known_optimal")
        assert any(e in r["answer_source"] for e in evidence), r["file"]
        if r["expected"] == "SAT" and "verified solution" in r["answer_source"]:
            from coinsat.io.solution_format import read_solution
            from coinsat.solution import verify

            path = ROOT / r["answer_source"].split("verified solution ")[1].split(" ")[0]
            inst, sol = read_solution(_instance(r), path)
            assert len(sol) == int(r["optimum"]) and verify(inst, sol, keep_trace=False).ok
