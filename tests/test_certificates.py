"""Certificates: accepted when right, rejected when tampered with; screens against BFS; CLI."""

from __future__ import annotations

import ast
import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.placements import is_goal
from coinsat.certificates.prove import closed_set, invariant
from coinsat.certificates.prove.bounded import build_bounded
from coinsat.certificates.prove.make import certify
from coinsat.certificates.prove.screens import screen
from coinsat.cli import main
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.limits import Limits
from coinsat.result import Status
from coinsat.search.bfs import solve_bfs
from coinsat.solve import solve
from tests.strategies import configurations, instances

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "instances" / "paper"

# 3x3 diagonal plus the two other centre-column coins: optimum 6, a small non-trivial DRAT proof.
DIAG3 = make_instance(
    "square", [(0, 0), (1, 1), (2, 2), (1, 2), (2, 1)], [(0, 2), (1, 1), (2, 0), (1, 2), (2, 1)], name="diag3"
)
# unsolvable on the square grid (a Theorem 2 counterexample), but not by any screen: needs the closed set.
CLOSED = make_instance(
    "square",
    [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 2)],
    [(0, 0), (0, 1), (0, 2), (4, 0), (4, 1), (4, 2)],
    name="line-to-columns",
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(instances(max_coins=5))
def test_screens_never_contradict_bfs(inst):
    r = screen(inst)
    if r is None:
        return
    assert r.status is Status.UNSOLVABLE and r.lower_bound is None and r.certificate["scope"] == "global"
    assert check_certificate(inst, r.certificate.to_json()).ok
    assert solve_bfs(inst, limits=Limits(time_limit=30)).solution is None


def test_invariant_kinds_on_paper_instances():
    o_to_h = read_instance(PAPER / "o-to-h.toml")
    r = solve(o_to_h)
    assert r.status is Status.UNSOLVABLE and r.certificate["reason"] == "span" and r.seconds < 1
    zero = read_instance(PAPER / "zero-extra.toml")
    assert solve(zero).certificate["reason"] == "frozen-goal"
    stuck = make_instance("square", [(0, 0), (2, 2), (4, 4)], [(0, 0), (2, 2), (4, 5)])
    cert = invariant.no_move(stuck)
    assert cert is not None and check_certificate(stuck, cert).ok


def test_tampered_invariants_are_rejected():
    o_to_h = read_instance(PAPER / "o-to-h.toml")
    cert = invariant.span_cells(o_to_h)
    assert check_certificate(o_to_h, cert).ok
    bad = copy.deepcopy(cert)
    bad["cells"] = [c for c in bad["cells"] if c != [1, 1]]  # (1, 1) is a valid destination again
    assert not check_certificate(o_to_h, bad).ok
    zero = read_instance(PAPER / "zero-extra.toml")
    cert = invariant.frozen_goal(zero)
    assert check_certificate(zero, cert).ok
    assert not check_certificate(read_instance(PAPER / "one-extra.toml"), cert).ok  # another instance
    h_to_o = read_instance(PAPER / "h-to-o.toml")
    fake = invariant._cert(h_to_o, "no-move")
    assert not check_certificate(h_to_o, fake).ok
    fake = invariant._cert(h_to_o, "frozen-goal", free_coin=None)
    assert not check_certificate(h_to_o, fake).ok


def test_claw_certificate_is_global():
    inst = make_instance("triangular", [(0, 0), (1, 0), (2, 0), (3, 0)], [(1, 1), (1, 0), (2, 1), (0, 2)])
    r = solve(inst)
    assert r.status is Status.UNSOLVABLE and r.certificate["reason"] == "frozen-goal"
    assert r.certificate["free_coin"] == [1, 1]


def test_three_coin_colouring_closed_set():
    tri = {(0, 0): "A", (1, 0): "B", (0, 1): "C"}
    inst = make_instance("triangular", tri, {(x + 1, y): lab for (x, y), lab in tri.items()})
    r = solve(inst)
    assert r.status is Status.UNSOLVABLE and r.certificate["kind"] == "closed-set"
    bad = copy.deepcopy(r.certificate.to_json())
    bad["triangle_types"] = [[["A", 1], ["B", 2], ["C", 0]]]  # the goal's type
    assert not check_certificate(inst, bad).ok


def test_closed_set_accepted_and_missing_successor_rejected():
    assert screen(CLOSED) is None
    cert = closed_set.forward_closure(CLOSED)
    assert cert["scope"] == "global" and cert["space"] == "lattice"
    assert check_certificate(CLOSED, cert).ok
    start_row = cert["members"][0]
    for k in range(len(cert["members"])):
        bad = copy.deepcopy(cert)
        removed = bad["members"].pop(k)
        if removed != start_row or k > 0:
            break
    verdict = check_certificate(CLOSED, bad)
    assert not verdict.ok and ("not closed" in verdict.reason or "start" in verdict.reason)


def test_closed_set_on_a_window_says_window():
    inst = make_instance(
        "triangular", [(0, 0), (1, 0), (2, 0), (3, 0)], [(1, 1), (1, 0), (2, 1), (0, 2)], margin=1
    )  # the claw: unsolvable, here shown only inside the window
    cert = closed_set.forward_closure(inst)
    assert cert is not None and cert["scope"] == "window"
    assert check_certificate(inst, cert).ok


@pytest.fixture(scope="module")
def bounded_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("bounded")
    cert = build_bounded(DIAG3, 5, d, "diag3")
    assert cert is not None and cert["proof_lines"] > 0
    return d, cert


def test_bounded_accepted(bounded_dir):
    d, cert = bounded_dir
    verdict = check_certificate(DIAG3, cert, d)
    assert verdict.ok, verdict.reason
    assert verdict.claim == "no solution with <= 5 moves"


def test_bounded_satisfiable_horizon_gives_no_certificate(tmp_path):
    assert build_bounded(DIAG3, 6, tmp_path, "diag3") is None


def test_bounded_changed_proof_line_rejected(bounded_dir, tmp_path):
    d, cert = bounded_dir
    lines = (d / cert["proof"]).read_text().splitlines()
    (tmp_path / cert["cnf"]).write_text((d / cert["cnf"]).read_text())
    # The first lemma replaced by the empty clause: not RUP (the formula is not refuted by
    # unit propagation alone, or the solver would have needed no proof steps).
    changed = ["0"] + lines[1:]
    (tmp_path / cert["proof"]).write_text("\n".join(changed) + "\n")
    verdict = check_certificate(DIAG3, cert, tmp_path)
    assert not verdict.ok and "DRAT" in verdict.reason
    # Learned clauses strengthened to units: the checker catches the unjustified ones.
    rejected = 0
    for k in [i for i, line in enumerate(lines) if not line.startswith("d") and len(line.split()) > 2][:6]:
        changed = list(lines)
        changed[k] = lines[k].split()[0] + " 0"
        (tmp_path / cert["proof"]).write_text("\n".join(changed) + "\n")
        rejected += not check_certificate(DIAG3, cert, tmp_path).ok
    assert rejected > 0


def test_bounded_wrong_hash_and_wrong_horizon_rejected(bounded_dir):
    d, cert = bounded_dir
    bad = dict(cert, cnf_gbd_hash="0" * 32)
    assert "hash" in check_certificate(DIAG3, bad, d).reason
    bad = dict(cert, horizon=6, claim="no solution with <= 6 moves")
    verdict = check_certificate(DIAG3, bad, d)
    assert not verdict.ok and "re-encoding" in verdict.reason


def test_certify_optimal_and_unsolvable(tmp_path):
    done = certify(DIAG3, solve(DIAG3, "bfs"), tmp_path)
    assert done.check.ok and done.check.claim.startswith("optimal: 6 moves")
    done = certify(CLOSED, solve(CLOSED, "bfs"), tmp_path)
    assert done.check.ok and done.certificate.kind == "closed-set"


def test_cli_certify_and_check(tmp_path, capsys):
    assert main(["certify", str(PAPER / "o-to-h.toml"), "-o", str(tmp_path)]) == 0
    cert_path = tmp_path / "o-to-h.certificate.json"
    assert main(["check-certificate", str(PAPER / "o-to-h.toml"), str(cert_path)]) == 0
    assert main(["check-certificate", str(PAPER / "o-to-h.toml"), str(cert_path), "--workers", "2"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:  # argparse: the same message for 0 and -1
        main(["check-certificate", str(PAPER / "o-to-h.toml"), str(cert_path), "--workers", "0"])
    assert refused.value.code == 2
    assert "--workers: must be >= 1, not 0" in capsys.readouterr().err
    cert = json.loads(cert_path.read_text())
    cert["cells"] = cert["cells"][:-1]
    cert_path.write_text(json.dumps(cert))
    capsys.readouterr()
    assert main(["check-certificate", str(PAPER / "o-to-h.toml"), str(cert_path)]) == 1
    assert "rejected" in capsys.readouterr().out
    assert main(["solve", str(PAPER / "h-to-o.toml"), "--certify", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["certificate_check"]["accepted"] and out["status"] == "optimal"


def _imports(path: Path, package: str) -> set[str]:
    """Absolute names of every module ``path`` imports (top level and inside functions)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            out |= {mod} | {f"{mod}.{a.name}" for a in node.names}
    return out


CHECK_DIR = ROOT / "coinsat" / "certificates" / "check"
FINDERS = ("coinsat.certificates.prove", "coinsat.search", "coinsat.theory", "coinsat.constructive", "coinsat.solve")


@pytest.mark.parametrize("module", sorted(p.name for p in CHECK_DIR.glob("*.py")))
def test_checker_does_not_import_the_finders(module):
    imported = _imports(CHECK_DIR / module, "coinsat.certificates.check")
    assert not [m for m in imported if m.startswith(FINDERS)], imported


def test_the_import_walk_sees_a_finder_import(tmp_path):  # the test above can fail
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from ..prove.screens import screen\n")
    assert "coinsat.certificates.prove.screens" in _imports(bad, "coinsat.certificates.check")


def test_bounded_in_a_widened_window_is_global(tmp_path):
    inst = read_instance(PAPER / "pyramid-to-line.toml")  # window hull+2 is exact only up to 3 moves
    cert = build_bounded(inst, 6, tmp_path, "pyr")
    assert cert["margin"] > inst.margin and cert["window_exact"]
    verdict = check_certificate(inst, cert, tmp_path)
    assert verdict.ok and verdict.claim == "no solution with <= 6 moves"
    assert not check_certificate(inst, dict(cert, margin=inst.margin), tmp_path).ok


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(instances(max_coins=4))
def test_every_answer_gets_an_accepted_certificate(tmp_path_factory, inst):
    r = solve(inst, "bfs", time_limit=20)
    if r.status is Status.UNKNOWN:
        return
    done = certify(inst, r, tmp_path_factory.mktemp("cert"))
    assert done.check.ok, (done.check.reason, done.certificate.kind)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(configurations())
def test_the_checkers_goal_placements_restate_the_instances(case):
    """check/placements.py restates Instance.goal_configurations on purpose: pinned here."""
    inst, config = case
    coins = {inst.board.coords[c]: lab for c, lab in config.coins}
    assert is_goal(inst, coins) == any(config == g for g in inst.goal_configurations)
    for g in inst.goal_configurations[:3]:
        assert is_goal(inst, {inst.board.coords[c]: lab for c, lab in g.coins})
