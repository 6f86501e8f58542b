"""scripts/vfamily_study.py end to end on the smallest member, into a temporary directory."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from coinsat.io.instance_format import read_instance
from coinsat.io.solution_format import read_solution
from coinsat.solution import verify

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "vfamily_study.py"


def _load():
    spec = importlib.util.spec_from_file_location("vfamily_study", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_study_records_optimum_certificate_and_solution(tmp_path, monkeypatch):
    study = _load()
    monkeypatch.setattr(study, "FAMILIES", tmp_path)
    monkeypatch.setattr(study, "SOLUTIONS", tmp_path / "solutions")
    monkeypatch.setattr(study, "RESULTS", tmp_path / "results.json")
    monkeypatch.setattr(study, "PLOT", tmp_path / "plot.png")
    assert (
        study.main(["--max-a", "1", "--members", "vdiag-1-1-nwse", "--methods", "spanbfs,construct", "--certify", "60"])
        == 0
    )
    entry = json.loads((tmp_path / "results.json").read_text())["vdiag-1-1-nwse"]
    assert entry["runs"]["spanbfs"]["status"] == "optimal" and entry["runs"]["spanbfs"]["length"] == 5
    assert entry["runs"]["construct"]["length"] >= 5  # an upper bound, never below the optimum
    for kind in ("drat", "layers"):
        cert = entry["certificates"][kind]
        assert cert["accepted"] and "optimal: 5 moves (no solution with <= 4 moves)" == cert["claim"], kind
    inst = read_instance(tmp_path / "vdiag-1-1-nwse.toml")
    _, sol = read_solution(inst, tmp_path / "solutions" / "vdiag-1-1-nwse.json")
    assert len(sol) == 5 and verify(inst, sol).ok
    table = (tmp_path / "README.md").read_text()
    assert "**5** (optimal)" in table and "drat ✓" in table and "layers ✓" in table
    assert (tmp_path / "plot.png").exists()


def test_only_solutions_are_kept(tmp_path, monkeypatch):
    study = _load()
    monkeypatch.setattr(study, "SOLUTIONS", tmp_path)

    class Done:
        returncode, stderr = 3, ""
        stdout = json.dumps({"name": "x", "status": "unknown", "length": None, "moves": []})

    monkeypatch.setattr(study.subprocess, "run", lambda *a, **k: Done())
    assert study.run_engine(tmp_path / "x.toml", "sat", 1.0)["status"] == "unknown"
    assert not (tmp_path / "x.json").exists()  # an unknown answer's empty move list is no solution


def test_fit_with_error_recovers_an_exact_law_and_sees_noise():
    study = _load()
    k, se, c = study.fit_with_error([(n, 3 * n**2) for n in (3, 4, 5, 6)])
    assert abs(k - 2) < 1e-9 and se < 1e-9 and abs(c - 3) < 1e-9
    k, se, _ = study.fit_with_error([(3, 5), (4, 18), (5, 30), (6, 49)])
    assert k > 2 and se > 0.05  # real data scatter: the error is not zero


def test_flip_and_growth_sections_label_bounds(tmp_path, monkeypatch):
    study = _load()
    flips = {
        "4": {"k": 4, "cells": 16, "n": 6, "runs": {"spanbfs": {"status": "optimal", "length": 18, "lower_bound": 18}}},
        "5": {
            "k": 5,
            "cells": 25,
            "n": 7,
            "runs": {"spanbfs": {"status": "unknown", "length": None, "lower_bound": 9}},
        },
    }
    for e in flips.values():
        for r in e["runs"].values():
            r["seconds"] = 1.0
    lines: list[str] = []
    pts = study.flip_section(flips, lines)
    assert pts == [(4, 18)]  # only proven optima are fitted
    text = "\n".join(lines)
    assert "**18** (optimal)" in text and "9–?" in text
    growth = {
        "vdiag-9-9-nwse": {
            "a": 9,
            "b": 9,
            "target": "nwse",
            "n": 22,
            "construct": 900,
            "improved": 800,
            "lower_bound": 21,
        }
    }
    lines = []
    study.growth_section(growth, {}, lines)
    text = "\n".join(lines)
    assert "21 (static)" in text and "optimum" not in text.split("| V(9,9)")[1]


def test_a_lower_bound_is_labelled_by_where_it_comes_from():
    study = _load()
    row = {"a": 4, "b": 4, "target": "nwse", "n": 12, "static_bound": 40, "lower_bound": 58}
    assert study.best_lower_bound(row, {}) == (58, "improve's exact pass")
    assert study.best_lower_bound(dict(row, lower_bound=40), {}) == (40, "static")
    exact = {"vdiag-4-4-nwse": {"runs": {"sat": {"status": "unknown", "length": None, "lower_bound": 65}}}}
    assert study.best_lower_bound(row, exact) == (65, "the exact engines' bound")  # never called an optimum


def test_the_verdict_fits_each_target_apart():
    study = _load()
    growth = {}
    for n in (14, 16, 18, 20):
        a = (n - 4) // 2
        for target, power in (("nwse", 3), ("swne", 4)):
            growth[f"vdiag-{a}-{a}-{target}"] = {
                "a": a,
                "b": a,
                "target": target,
                "n": n,
                "construct": 2 * n**power,
                "improved": n**power,
                "static_bound": n,
            }
    lines: list[str] = []
    study.verdict([(4, 18), (5, 30)], growth, {"nwse": [(6, 5)], "swne": []}, {}, lines)
    text = "\n".join(lines)
    nwse = text.split("* Upper side (NW-SE)")[1].split("\n")[0]
    swne = text.split("* Upper side (SW-NE)")[1].split("\n")[0]
    assert "n^3.00 ± 0.00" in nwse and "This meets" in nwse
    assert "n^4.00 ± 0.00" in swne and "This misses" in swne
    assert "Lower side (NW-SE)" in text and "Lower side (SW-NE)" in text


def test_the_verdict_says_when_upper_bounds_grow_clearly_slower_than_n3():
    study = _load()
    (text,) = study.verdict_paragraph({"swne": (2.5, 0.05, [(0.2, 14), (0.1, 40)])})
    assert "**SW-NE: the upper bounds grow clearly slower than n³.**" in text and "not a refutation" in text
    assert "For NW-SE, Θ(n³) is *consistent*" in text and "For SW-NE" not in text
    (plain,) = study.verdict_paragraph({})
    assert plain.startswith("So Θ(n³) is *consistent* with every number we have")


def test_scale_proofs_are_merged_as_runs_and_accepted_certificates_only(tmp_path, monkeypatch):
    study = _load()
    monkeypatch.setattr(study, "RESULTS", tmp_path / "results.json")
    base = {"a": 1, "b": 1, "n": 6, "cells": 16, "runs": {}}
    (tmp_path / "results.json").write_text(json.dumps({"vdiag-1-1-nwse": base, "vdiag-1-1-swne": {**base}}))
    solved = {"status": "optimal", "length": 5, "lower_bound": 5, "cpu": 1.23, "cert_bytes": 2_000_000, "options": {}}
    proofs = {
        "vdiag-1-1-nwse": {"solve": solved, "check": {"check_ok": True, "check_cpu": 4.56, "claim": "optimal: 5"}},
        "vdiag-1-1-swne": {"solve": {**solved, "length": 13, "lower_bound": 13}, "check": {"check_ok": False}},
        "diagonal-8": {"solve": solved, "check": {"check_ok": True, "check_cpu": 1.0}},  # not a V member
    }
    (tmp_path / "proofs.json").write_text(json.dumps(proofs))
    study.adopt_scale_proofs(tmp_path / "proofs.json")
    results = json.loads((tmp_path / "results.json").read_text())
    assert set(results) == {"vdiag-1-1-nwse", "vdiag-1-1-swne"}
    nw, sw = results["vdiag-1-1-nwse"], results["vdiag-1-1-swne"]
    assert nw["runs"]["rankbfs"]["length"] == 5 and nw["runs"]["rankbfs"]["seconds"] == 1.2
    assert nw["certificates"]["ranked layers"]["check_seconds"] == 4.6
    assert study.cert_cells(nw["certificates"]) == "ranked layers ✓ (2.0 MB, checked in 4.6 s)"
    assert sw["runs"]["rankbfs"]["length"] == 13 and "certificates" not in sw  # a rejected check is no certificate
