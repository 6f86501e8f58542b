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
