"""SAT certificates for large horizons: one-shot certification, core-only CNFs, cube-and-conquer.

* the core-only CNF (certificates/check/core_cnf.py) agrees with the known optima, and its
  checker runs with ``coinsat.encode`` made unimportable;
* a planted unsound pruning clause: the pruned certificate (the checker re-encodes with
  the same code) is accepted, the core-only one is rejected;
* cube-and-conquer certificates are accepted, and rejected with a cube left out or a
  cube proof tampered with;
* ``solve --horizon-hint`` makes no climb; ``certify --solution`` makes one UNSAT call.
"""

from __future__ import annotations

import ast
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pysat.solvers import Solver

import coinsat.encode.sat as sat_encoding
from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.bounded import gbd_hash_file
from coinsat.certificates.check.core_cnf import core_clauses, core_cnf_text
from coinsat.certificates.check.format import Certificate
from coinsat.certificates.prove import bounded as build_bounded_module
from coinsat.certificates.prove.bounded import build_bounded
from coinsat.certificates.prove.cubes import build_cubes, occupancy_candidates, read_clauses, tree_cubes
from coinsat.cli import main
from coinsat.io.instance_format import read_instance
from coinsat.search.driver import solve_sat
from coinsat.search.options import SatOptions

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "instances/paper"
FAMILIES = ROOT / "instances/families"


def as_json(cert: dict) -> dict:
    return json.loads(Certificate.from_json(cert).text())


@pytest.mark.parametrize("name", ["h-to-o", "rhomboid", "upside-down", "swap5-a", "pyramid-to-line"])
def test_core_cnf_is_unsat_below_the_known_optimum_and_sat_at_it(name):
    inst = read_instance(PAPER / f"{name}.toml")
    L = inst.known_optimal
    from coinsat.certificates.check.bounded import widened
    from coinsat.certificates.prove.bounded import exact_margin

    for T, expected in ((L - 1, False), (L, True)):
        m = exact_margin(inst, T)
        target = inst if m is None else widened(inst, m)
        with Solver(name="cadical195", bootstrap_with=core_clauses(target, T).clauses) as s:
            assert s.solve() is expected, (name, T)


def test_core_cnf_module_and_cube_checker_import_nothing_from_the_encoder():
    for rel in ("coinsat/certificates/check/core_cnf.py", "coinsat/certificates/check/cubes.py"):
        tree = ast.parse((ROOT / rel).read_text())
        names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [n for n in names if "encode" in n], rel


_BLOCKED_CHECK = """
import importlib.abc, json, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "coinsat.encode" or name.startswith("coinsat.encode."):
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
from pathlib import Path
from coinsat.io.instance_format import read_instance
from coinsat.certificates.check import check_certificate
inst = read_instance(sys.argv[1])
c = check_certificate(inst, json.loads(Path(sys.argv[2]).read_text()), Path(sys.argv[2]).parent)
print(json.dumps([c.ok, c.reason, [m for m in sys.modules if m.startswith("coinsat.encode")]]))
"""


def test_the_core_only_certificate_is_checked_without_the_encoder(tmp_path):
    path = PAPER / "swap5-a.toml"  # labeled coins: C7 is part of the core
    inst = read_instance(path)
    cert = build_bounded(inst, inst.known_optimal - 1, tmp_path, "x", core=True)
    assert cert is not None and cert["encoding"] == "core"
    (tmp_path / "c.json").write_text(Certificate.from_json(cert).text())
    out = subprocess.run(
        [sys.executable, "-c", _BLOCKED_CHECK, str(path), str(tmp_path / "c.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    ok, reason, loaded = json.loads(out.stdout)
    assert ok, reason
    assert loaded == []


def _planted_core_clauses(instance, horizon):
    """The core CNF plus one unsound 'pruning' clause: step 1 is a no-op (n[1])."""
    n1 = (horizon + 1) * instance.board.size + 2 * instance.board.size + 1
    cnf = core_clauses(instance, horizon)
    cnf.add(n1)
    return cnf


def test_a_planted_unsound_clause_fails_the_core_only_certificate(tmp_path, monkeypatch):
    inst = read_instance(PAPER / "h-to-o.toml")  # optimal: 4 moves, so "none with <= 4" is false
    T = inst.known_optimal
    monkeypatch.setattr(build_bounded_module, "core_clauses", _planted_core_clauses)
    cert = build_bounded(inst, T, tmp_path, "x", core=True)
    assert cert is not None  # the planted clause made the formula unsatisfiable
    verdict = check_certificate(inst, as_json(cert), tmp_path)
    assert not verdict.ok and "re-encoding differs" in verdict.reason
    # the honest core CNF with the planted formula's proof: the DRAT check fails
    (tmp_path / cert["cnf"]).write_text(core_cnf_text(inst, T))
    cert["cnf_gbd_hash"] = gbd_hash_file(tmp_path / cert["cnf"])
    verdict = check_certificate(inst, as_json(cert), tmp_path)
    assert not verdict.ok and "DRAT proof rejected" in verdict.reason


def test_the_same_planted_clause_in_the_encoder_passes_the_pruned_certificate(tmp_path, monkeypatch):
    """Why the core-only mode exists: the pruned checker re-encodes with the encoder's code."""
    inst = read_instance(PAPER / "h-to-o.toml")
    planted = ("X", lambda e, t: [[e.noop(1)]] if t == 1 else [], None)
    monkeypatch.setattr(sat_encoding, "LAYER_FAMILIES", sat_encoding.LAYER_FAMILIES + (planted,))
    cert = build_bounded(inst, inst.known_optimal, tmp_path, "x")
    assert cert is not None
    assert check_certificate(inst, as_json(cert), tmp_path).ok  # a false claim, accepted


@pytest.fixture(scope="module")
def cube_certificate(tmp_path_factory):
    out = tmp_path_factory.mktemp("cubes")
    inst = read_instance(FAMILIES / "vdiag-1-1-swne.toml")  # optimal 13
    cert = build_cubes(inst, 12, out, "v", core=True, depth=2, workers=2)
    assert cert is not None
    return inst, as_json(cert), out


def test_a_cube_and_conquer_certificate_is_accepted(cube_certificate):
    inst, cert, out = cube_certificate
    verdict = check_certificate(inst, cert, out)
    assert verdict.ok, verdict.reason
    assert "4 cube proofs and the cover proof" in verdict.reason
    assert verdict.claim == "no solution with <= 12 moves"


@pytest.mark.parametrize("left_out", range(4))
def test_a_cube_set_with_one_cube_missing_is_rejected(cube_certificate, left_out):
    inst, cert, out = cube_certificate
    cert = copy.deepcopy(cert)
    del cert["cubes"][left_out], cert["cube_proofs"][left_out]
    verdict = check_certificate(inst, cert, out)
    assert not verdict.ok and verdict.reason.startswith("the cover: DRAT proof rejected")


def test_a_cube_set_with_a_proof_short_is_rejected(cube_certificate):
    inst, cert, out = cube_certificate
    cert = copy.deepcopy(cert)
    del cert["cube_proofs"][1]
    assert "one cube proof per cube" in check_certificate(inst, cert, out).reason


def test_a_tampered_cube_proof_is_rejected(cube_certificate, tmp_path):
    inst, cert, out = cube_certificate
    for f in out.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    proof = tmp_path / cert["cube_proofs"][0]
    lines = proof.read_text().splitlines()
    proof.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    verdict = check_certificate(inst, cert, tmp_path)
    assert not verdict.ok and verdict.reason.startswith("cube 0: DRAT proof rejected")


def test_a_cube_proof_path_outside_the_folder_is_rejected(cube_certificate):
    inst, cert, out = cube_certificate
    cert = copy.deepcopy(cert)
    cert["cube_proofs"][0] = "../" + cert["cube_proofs"][0]
    assert "plain file names" in check_certificate(inst, cert, out).reason


def test_a_pruned_cube_certificate_is_accepted(tmp_path):
    inst = read_instance(FAMILIES / "vdiag-1-1-swne.toml")
    cert = build_cubes(inst, 12, tmp_path, "v", depth=2, split="middle", workers=1)
    assert cert is not None and isinstance(cert["encoding"], dict)
    assert check_certificate(inst, as_json(cert), tmp_path).ok


@pytest.mark.parametrize("leaves", [2, 5, 8])
def test_the_tree_split_gives_disjoint_cubes_that_cover_every_assignment(tmp_path, leaves):
    from coinsat.encode.sat import encode
    from coinsat.io.dimacs import cnf_text

    inst = read_instance(FAMILIES / "vdiag-2-1-swne.toml")  # optimal 13
    formula = encode(inst, 12)
    (tmp_path / "f.cnf").write_text(cnf_text(inst, formula))
    clauses = read_clauses(tmp_path / "f.cnf")
    cubes = tree_cubes(clauses, occupancy_candidates(inst, 12, False, formula), leaves)
    assert len(cubes) == leaves and len(set(cubes)) == leaves
    for i, a in enumerate(cubes):  # the leaves of one binary tree: every two disagree on a literal
        assert all(any(-lit in b for lit in a) for b in cubes[i + 1 :])
    with Solver(name="cadical195", bootstrap_with=[[-lit for lit in c] for c in cubes]) as s:
        assert not s.solve()  # without the formula: every assignment satisfies some cube


def test_certify_offers_every_split_and_the_default_of_the_builder(capsys):
    from coinsat.certificates.prove.cubes import DEFAULT_SPLIT, SPLITS

    with pytest.raises(SystemExit):
        main(["certify", "--help"])
    assert "{" + ",".join(SPLITS) + "}" in capsys.readouterr().out.replace("\n", "").replace(" ", "")
    assert SPLITS[0] == DEFAULT_SPLIT


def test_a_horizon_hint_replaces_the_climb():
    inst = read_instance(FAMILIES / "vdiag-2-1-swne.toml")  # optimal 13, lower bound far below
    r = solve_sat(inst, options=SatOptions(horizon_hint=13))
    assert r.status.value == "optimal" and len(r.solution) == 13
    assert [h["horizon"] for h in r.stats["horizons"]] == [13, 12]
    low = solve_sat(inst, options=SatOptions(horizon_hint=11))  # too low: the climb goes on from 12
    assert low.status.value == "optimal" and len(low.solution) == 13


def test_certify_a_solution_file_in_one_shot(tmp_path, capsys):
    inst = FAMILIES / "vdiag-2-1-swne.toml"
    sol = FAMILIES / "solutions/vdiag-2-1-swne.json"
    code = main(["certify", str(inst), "-o", str(tmp_path), "--solution", str(sol), "--core-only", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["accepted"] and out["claim"] == "optimal: 13 moves (no solution with <= 12 moves)"
    cert = json.loads(Path(out["file"]).read_text())
    assert cert["encoding"] == "core"


def test_certify_refutes_a_solution_that_is_not_optimal(tmp_path, capsys):
    inst = read_instance(FAMILIES / "vdiag-2-1-swne.toml")
    r = solve_sat(inst, options=SatOptions(horizon_hint=13))
    moves = r.solution.moves
    coords = inst.board.coords
    s, p = moves[0]
    padded = [[list(coords[s]), list(coords[p])], [list(coords[p]), list(coords[s])]]  # there and back
    padded += [[list(coords[a]), list(coords[b])] for a, b in moves]
    sol = tmp_path / "s.json"
    sol.write_text(json.dumps({"moves": padded}))
    code = main(["certify", str(FAMILIES / "vdiag-2-1-swne.toml"), "-o", str(tmp_path / "o"), "--solution", str(sol)])
    assert code == 1 and "not optimal" in capsys.readouterr().out
    assert not list((tmp_path / "o").glob("*.json"))


def _read_back(text: str) -> list[list[int]]:
    return [[int(x) for x in line.split()[:-1]] for line in text.splitlines() if line and line[0] not in "cp"]


@pytest.mark.parametrize("name", ["h-to-o", "swap5-a"])
def test_the_provers_refute_the_clauses_their_text_prints(name):
    """The builders hand the solver the formula object's clauses, never the text read back: the
    two must be the same formula (for the core-only CNF and the encoder's, an empty clause too)."""
    from coinsat.encode.options import DEFAULT_OPTIONS
    from coinsat.encode.pb import clauses_with_empty
    from coinsat.encode.sat import encode
    from coinsat.io.dimacs import cnf_text

    inst = read_instance(PAPER / f"{name}.toml")
    for horizon in range(inst.known_optimal + 1):
        cnf = core_clauses(inst, horizon)
        assert _read_back(core_cnf_text(inst, horizon, cnf)) == cnf.clauses
        assert core_cnf_text(inst, horizon, cnf) == core_cnf_text(inst, horizon)
        formula = encode(inst, horizon, DEFAULT_OPTIONS)
        assert _read_back(cnf_text(inst, formula)) == clauses_with_empty(formula)


def test_the_invariant_prover_refutes_the_clauses_the_checker_prints():
    from coinsat.certificates.check.inductive import formula_cnfs, formulas

    inst = read_instance(PAPER / "h-to-o.toml")
    invariant = [[1, -2], [3], [-4, 5, -6]]  # any clauses over cells: the formulas are built the same way
    texts, cnfs = formulas(inst, invariant), formula_cnfs(inst, invariant)
    assert set(texts) == set(cnfs) == {"init", "step", "goal"}
    for name, cnf in cnfs.items():
        assert _read_back(texts[name]) == cnf.clauses


def _pigeons(n: int) -> list[list[int]]:
    """n + 1 pigeons in n holes (unsatisfiable, and hard for resolution)."""
    var = [[p * n + h + 1 for h in range(n)] for p in range(n + 1)]
    out = [list(row) for row in var]
    out += [[-var[p][h], -var[q][h]] for h in range(n) for p in range(n + 1) for q in range(p)]
    return out


def test_prove_gives_a_proof_dratify_accepts_none_when_satisfiable_and_unknown_past_its_budget():
    import dratify

    from coinsat.backends import Outcome
    from coinsat.backends.sat_backend import PROOF_SOLVERS, prove
    from coinsat.certificates.check.bounded import PROOF_SOLVERS as CHECKED
    from coinsat.errors import UsageError

    assert PROOF_SOLVERS == CHECKED  # the solvers the builders use are those the checker trusts
    clauses = _pigeons(4)
    text = f"p cnf {5 * 4} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    for solver in PROOF_SOLVERS:
        refuted = prove(clauses, solver)
        assert refuted.outcome is Outcome.UNSAT and refuted.proof is not None
        assert dratify.check_proof(dratify.parse_dimacs(text), "\n".join(refuted.proof) + "\n").ok
    assert prove(clauses[1:], "cadical195").outcome is Outcome.SAT  # a pigeon fewer: it fits
    assert prove(clauses[1:], "cadical195").proof is None
    assert prove(_pigeons(11), "cadical195", cpu_limit=0.05).outcome is Outcome.UNKNOWN
    assert prove(_pigeons(11), "cadical195", time_limit=0.05).outcome is Outcome.UNKNOWN
    with pytest.raises(UsageError, match="no trusted proof"):
        prove(clauses, "minisat22")
