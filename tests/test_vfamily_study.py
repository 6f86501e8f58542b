"""The V-family study (lab.vfamily, scripts/vfamily_study.py) end to end on the smallest
member, into a temporary directory, and the parts of its table that say what a number means."""

from __future__ import annotations

import json
from pathlib import Path

from coinsat.io.instance_format import read_instance
from coinsat.io.solution_format import read_solution
from coinsat.solution import verify
from lab import vfamily


def _study(tmp_path: Path) -> vfamily.Study:
    return vfamily.Study(
        families=tmp_path,
        results=tmp_path / "results.json",
        flips=tmp_path / "flips.json",
        growth=tmp_path / "growth.json",
        plot=tmp_path / "plot.png",
    )


def test_study_records_optimum_certificate_and_solution(tmp_path):
    study = _study(tmp_path)
    study.run(1, ["spanbfs", "construct"], 1800.0, only={"vdiag-1-1-nwse"}, certify=60)
    study.write_table()
    entry = json.loads((tmp_path / "results.json").read_text())["vdiag-1-1-nwse"]
    assert entry["runs"]["spanbfs"]["status"] == "optimal" and entry["runs"]["spanbfs"]["length"] == 5
    # "construct" is every constructive algorithm: upper bounds, never below the optimum, or refusals
    assert set(entry["runs"]) == {"spanbfs", *vfamily.construct_methods()}
    assert entry["runs"]["construct:square"]["length"] >= 5 and entry["runs"]["construct:vschedule"]["length"] == 8
    assert entry["runs"]["construct:triangular"]["status"] == "refused"
    assert "needs a triangular board" in entry["runs"]["construct:triangular"]["note"]
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
    study = _study(tmp_path)

    class Done:
        returncode, stderr = 3, ""
        stdout = json.dumps({"name": "x", "status": "unknown", "length": None, "moves": []})

    monkeypatch.setattr(vfamily.subprocess, "run", lambda *a, **k: Done())
    assert study.run_engine(tmp_path / "x.toml", "sat", 1.0)["status"] == "unknown"
    assert not (tmp_path / "solutions" / "x.json").exists()  # an unknown answer's empty move list is no solution


def test_fit_with_error_recovers_an_exact_law_and_sees_noise():
    k, se, c = vfamily.fit_with_error([(n, 3 * n**2) for n in (3, 4, 5, 6)])
    assert abs(k - 2) < 1e-9 and se < 1e-9 and abs(c - 3) < 1e-9
    k, se, _ = vfamily.fit_with_error([(3, 5), (4, 18), (5, 30), (6, 49)])
    assert k > 2 and se > 0.05  # real data scatter: the error is not zero


def test_flip_and_growth_sections_label_bounds():
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
    pts = vfamily.flip_section(flips, lines)
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
    vfamily.growth_section(growth, {}, lines)
    text = "\n".join(lines)
    row = text.split("| V(9,9)")[1]
    assert "optimum" not in row
    # the vschedule (Theorem L: 620 moves) beats improve's 800, and Theorems LB and RF (220) the static 21
    assert "| 800 | 620 | 620 | 0.058 | 220 (Theorems LB, RF) |" in row


def test_a_lower_bound_is_labelled_by_where_it_comes_from():
    row = {"a": 4, "b": 4, "target": "nwse", "n": 12, "static_bound": 40, "lower_bound": 58}
    assert vfamily.best_lower_bound(row, {}) == (58, "improve's exact pass")
    assert vfamily.best_lower_bound(dict(row, lower_bound=40), {}) == (40, "static")
    exact = {"vdiag-4-4-nwse": {"runs": {"sat": {"status": "unknown", "length": None, "lower_bound": 65}}}}
    assert vfamily.best_lower_bound(row, exact) == (65, "the exact engines' bound")  # never called an optimum


def _growth(powers: dict[str, int]) -> dict:
    growth = {}
    for n in (14, 16, 18, 20):
        a = (n - 4) // 2
        for target, power in powers.items():
            growth[f"vdiag-{a}-{a}-{target}"] = {
                "a": a,
                "b": a,
                "target": target,
                "n": n,
                "construct": 2 * n**power,
                "improved": n**power,
                "static_bound": n,
            }
    return growth


def test_the_verdict_states_the_proof_and_keeps_the_fits_as_measurements():
    results = {
        "vdiag-3-2-nwse": {"a": 3, "b": 2, "target": "nwse", "n": 9, "runs": {"x": {"length": 53, "lower_bound": 53}}},
        "vdiag-1-1-nwse": {"a": 1, "b": 1, "target": "nwse", "n": 6, "runs": {"x": {"length": 5, "lower_bound": 5}}},
        "vdiag-4-4-nwse": {"a": 4, "b": 4, "target": "nwse", "n": 12, "runs": {"x": {"length": 99, "lower_bound": 65}}},
    }
    lines: list[str] = []
    vfamily.verdict([(4, 18), (5, 30)], _growth({"nwse": 3, "swne": 4}), results, lines)
    text = "\n".join(lines)
    proven, measured = text.split("**Measured**")
    assert "Θ(n²) moves; the paper's Θ(n³) is false" in proven and "docs/v-to-diagonal.md" in proven
    assert "L/RF = 2.530 (NW-SE) and 2.535 (SW-NE)" in proven  # the proven closed forms at a = b = 100
    assert "n^" not in proven  # no fit among the proofs
    # the fits are reported as what they are, per target, and never as the puzzle's rate
    assert "NW-SE: n^3.00 for construct + improve, n^3.00 for construct" in measured
    assert "SW-NE: n^4.00 for construct + improve" in measured and "not the puzzle" in measured
    # the schedule (71 and 8 moves by Theorem L) against the two proven optima; the unproven member is left out
    assert "(n ≤ 9) the schedule is 1.34–1.60 times longer" in measured
    assert "k = 4..5: 18, 30" in measured and "is the paper's 18" in measured
    assert "consistent" not in text and "Θ(n³) is" not in measured


def test_scale_proofs_are_merged_as_runs_and_accepted_certificates_only(tmp_path):
    study = _study(tmp_path)
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
    assert vfamily.cert_cells(nw["certificates"]) == "ranked layers ✓ (2.0 MB, checked in 4.6 s)"
    assert sw["runs"]["rankbfs"]["length"] == 13 and "certificates" not in sw  # a rejected check is no certificate


def test_an_adopted_solve_brings_its_certificate_only_with_a_fresh_acceptance(tmp_path):
    import subprocess
    import sys

    import pytest

    member = Path(__file__).resolve().parent.parent / "instances" / "families" / "vdiag-1-1-nwse.toml"
    answer, check, certs = tmp_path / "answer.json", tmp_path / "check.json", tmp_path / "certs"
    coinsat = [sys.executable, "-m", "coinsat"]
    solve = ["solve", str(member), "--method", "rankbfs", "--max-moves", "5", "--heuristic", "lmcut"]
    subprocess.run([*coinsat, *solve, "--certify", str(certs), "--json", "-o", str(answer)], check=True)
    cert = json.loads(answer.read_text())["certificate_check"]["file"]
    fresh = subprocess.run([*coinsat, "check-certificate", str(member), cert, "--json"], capture_output=True, text=True)
    check.write_text(fresh.stdout)
    study = _study(tmp_path)
    base = {"a": 1, "b": 1, "n": 6, "cells": 16, "runs": {}}
    (tmp_path / "results.json").write_text(json.dumps({"vdiag-1-1-nwse": base}))
    # a check that did not accept the claim brings nothing
    refused = tmp_path / "refused.json"
    refused.write_text(json.dumps({**json.loads(fresh.stdout), "accepted": False}))
    with pytest.raises(ValueError, match="no fresh acceptance"):
        study.adopt_run(answer, refused)
    assert json.loads((tmp_path / "results.json").read_text())["vdiag-1-1-nwse"]["runs"] == {}
    assert not (tmp_path / "solutions").exists()
    study.adopt_run(answer, check)
    entry = json.loads((tmp_path / "results.json").read_text())["vdiag-1-1-nwse"]
    assert entry["runs"]["rankbfs"]["status"] == "optimal" and entry["runs"]["rankbfs"]["length"] == 5
    layers = entry["certificates"]["ranked layers"]
    assert layers["accepted"] and layers["claim"] == "optimal: 5 moves (no solution with <= 4 moves)"
    assert layers["bytes"]["npz"] > 0 and "fresh process" in layers["note"]
    assert vfamily.cert_cells(entry["certificates"]).startswith("ranked layers ✓ (")


def test_an_adopted_flip_run_is_a_bound_with_its_certificate_and_never_an_optimum(tmp_path):
    import subprocess
    import sys

    import pytest

    flip = Path(__file__).resolve().parent.parent / "instances" / "families" / "diagonal-4.toml"
    coinsat = [sys.executable, "-m", "coinsat"]
    bounded, check, built = tmp_path / "bounded.json", tmp_path / "check.json", tmp_path / "built.json"
    solve = ["solve", str(flip), "--method", "rankbfs", "--max-moves", "14", "--heuristic", "lmcut"]
    subprocess.run([*coinsat, *solve, "--certify", str(tmp_path / "certs"), "--json", "-o", str(bounded)], check=True)
    subprocess.run([*coinsat, "construct", str(flip), "--json", "-o", str(built)], check=True, capture_output=True)
    cert = json.loads(bounded.read_text())["certificate_check"]["file"]
    fresh = subprocess.run([*coinsat, "check-certificate", str(flip), cert, "--json"], capture_output=True, text=True)
    check.write_text(fresh.stdout)
    study = _study(tmp_path)
    study.adopt_run(bounded, check)
    study.adopt_run(built)
    entry = json.loads((tmp_path / "flips.json").read_text())["4"]
    assert (entry["k"], entry["cells"], entry["n"]) == (4, 16, 6)
    assert entry["runs"]["rankbfs"]["status"] == "bounded" and entry["runs"]["rankbfs"]["lower_bound"] == 15
    length = entry["runs"]["construct:square"]["length"]
    record = json.loads((tmp_path / "solutions" / "diagonal-4.json").read_text())
    assert length > 18 and record["length"] == length and record["status"] == "feasible"
    # the record names the best bound proven (the bounded search's 15), whichever run was adopted first
    assert record["lower_bound"] == 15 and "the proven lower bound is 15 move(s)" in record["proven"]
    assert entry["certificates"]["ranked layers"]["claim"] == "no solution with <= 14 moves"
    lines: list[str] = []
    assert vfamily.flip_section({"4": entry}, lines) == []  # a bound is not an optimum: nothing fitted
    row = next(line for line in lines if line.startswith("| 4 |"))
    assert f"| 15–{length} |" in row and "ranked layers ✓ (no solution with <= 14 moves;" in row
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**json.loads(built.read_text()), "name": "diagonal-four"}))
    with pytest.raises(ValueError, match="neither a member"):
        study.adopt_run(other)


def test_a_bound_that_meets_the_stored_solution_makes_it_optimal_and_one_past_it_is_refused(tmp_path):
    import pytest

    study = _study(tmp_path)
    (tmp_path / "solutions").mkdir()
    record = {"name": "diagonal-4", "status": "feasible", "length": 18, "lower_bound": 1, "method": "improve"}
    record["proven"] = vfamily.proven(record)
    (tmp_path / "solutions" / "diagonal-4.json").write_text(json.dumps({**record, "moves": [[[0, 0], [0, 1]]] * 18}))
    study.raise_bound("diagonal-4", 12)
    assert json.loads((tmp_path / "solutions" / "diagonal-4.json").read_text())["lower_bound"] == 12
    study.raise_bound("diagonal-4", 9)  # a weaker bound changes nothing
    assert json.loads((tmp_path / "solutions" / "diagonal-4.json").read_text())["lower_bound"] == 12
    with pytest.raises(ValueError, match="a bound of 19 moves against a stored 18-move solution"):
        study.raise_bound("diagonal-4", 19)
    study.raise_bound("diagonal-4", 18)
    obj = json.loads((tmp_path / "solutions" / "diagonal-4.json").read_text())
    assert obj["status"] == "optimal" and obj["lower_bound"] == 18 and "no solution has <= 17 moves" in obj["proven"]


def test_a_flip_solved_by_the_study_is_recorded_with_its_solution(tmp_path):
    study = _study(tmp_path)
    study.solve_flip(3, "spanbfs", 60.0, False)
    entry = json.loads((tmp_path / "flips.json").read_text())["3"]
    assert (entry["k"], entry["cells"], entry["n"]) == (3, 9, 5)
    run = entry["runs"]["spanbfs"]
    assert run["status"] == "optimal" and run["length"] == run["lower_bound"] == 5 and run["time_limit"] == 60.0
    assert json.loads((tmp_path / "solutions" / "diagonal-3.json").read_text())["status"] == "optimal"
