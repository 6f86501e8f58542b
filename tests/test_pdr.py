"""Engines ``pdr`` and ``kind`` (ABC through its command line) and the inductive-invariant
certificates they give (``coinsat/certificates/check/inductive.py``), with forgeries.

Skipped without ``berkeley-abc`` on a developer's machine; under CI a missing ABC fails
(``.ci/run`` installs it).  Every engine here runs on a puzzle where ABC answers in well under
a second, except the limit tests, which stop it.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings

from coinsat.backends.abc import abc_binary
from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.format import Certificate
from coinsat.certificates.check.inductive import formula_cnfs
from coinsat.certificates.prove.inductive import _refutation, build_inductive
from coinsat.encode.aiger import replay
from coinsat.errors import UsageError
from coinsat.io.instance_format import read_instance
from coinsat.limits import Limits
from coinsat.result import InductionProof, Status
from coinsat.search.pdr import Invariant, solve_kind, solve_pdr
from coinsat.solution import verify

from .strategies import instances

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "instances" / "paper"
CX = ROOT / "instances" / "counterexamples"
UNSOLVABLE_PAPER = ["o-to-h", "one-extra", "zero-extra"]


@pytest.fixture(autouse=True)
def _abc():
    if abc_binary() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the ABC tests: .ci/run installs berkeley-abc")
        pytest.skip("ABC (berkeley-abc) is not installed")


def certified(instance, tmp_path: Path, invariant: Invariant | None = None) -> tuple[dict, Path]:
    """PDR's invariant of ``instance`` as a certificate written to ``tmp_path``."""
    if invariant is None:
        r = solve_pdr(instance, limits=Limits(60))
        assert r.status is Status.UNSOLVABLE and r.witness is not None
        invariant = r.witness
    cert = Certificate.from_json(build_inductive(instance, invariant, tmp_path, "x")).to_json()
    return json.loads(json.dumps(cert)), tmp_path


# --- answers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", UNSOLVABLE_PAPER)
def test_pdr_proves_every_unsolvable_paper_puzzle_with_a_checked_invariant(name, tmp_path):
    """The engine itself (the screens that answer these first in ``solve`` are bypassed)."""
    inst = read_instance(PAPER / f"{name}.toml")
    r = solve_pdr(inst, limits=Limits(60))
    assert r.status is Status.UNSOLVABLE and r.certificate["scope"] == "global" and r.lower_bound is None
    cert, d = certified(inst, tmp_path, r.witness)
    verdict = check_certificate(inst, cert, d)
    assert verdict.ok, verdict.reason
    assert verdict.claim == "unsolvable" and verdict.scope == "global"


@pytest.mark.parametrize("name", ["thm2-cx1-n6-5x3", "thm2-canonical-L"])
def test_pdr_proves_the_theorem_2_counterexamples(name, tmp_path):
    """No screen decides these (the paper's Theorem 2 claims them solvable)."""
    inst = read_instance(CX / f"{name}.toml")
    cert, d = certified(inst, tmp_path)
    assert check_certificate(inst, cert, d).ok


@pytest.mark.parametrize("name", ["one-extra", "zero-extra"])
def test_kind_proves_unsolvable_paper_puzzles(name):
    r = solve_kind(read_instance(PAPER / f"{name}.toml"), limits=Limits(60))
    assert r.status is Status.UNSOLVABLE and r.certificate["scope"] == "global"


def test_a_triangular_window_gives_scope_window(tmp_path):
    """An unbounded proof in a finite triangular window is not global: 'unsolvable inside the
    window', with the lower bound the window proves (its exact radius + 1)."""
    from coinsat.search.windows import exact_horizon

    inst = read_instance(CX / "thm1-claw.toml")
    r = solve_pdr(inst, limits=Limits(60))
    radius = exact_horizon(inst)
    assert radius is not None
    assert r.status is Status.UNSOLVABLE and r.certificate["scope"] == "window" and r.lower_bound == radius + 1
    cert, d = certified(inst, tmp_path, r.witness)
    verdict = check_certificate(inst, cert, d)
    assert verdict.ok and verdict.claim == "unsolvable inside the window"
    cert["claim"], cert["scope"] = "unsolvable", "global"  # a stronger claim than the evidence
    assert not check_certificate(inst, cert, d).ok


def test_counterexamples_are_solutions_replayed_by_rules():
    inst = read_instance(PAPER / "h-to-o.toml")  # optimum 4
    r = solve_pdr(inst, limits=Limits(60))
    assert r.status in (Status.FEASIBLE, Status.OPTIMAL) and verify(inst, r.solution).ok
    k = solve_kind(inst, limits=Limits(60))
    assert k.status is Status.OPTIMAL and k.length == 4 and verify(inst, k.solution).ok


def test_replay_skips_stutters_and_stops_at_the_goal():
    inst = read_instance(PAPER / "h-to-o.toml")
    moves = list(solve_kind(inst, limits=Limits(60)).solution.moves)
    frames = [(0, 0)] + moves[:2] + [(moves[2][1], moves[2][0])] + moves[2:] + [moves[0]]
    sol = replay(inst, frames)
    assert sol is not None and list(sol.moves) == moves
    assert replay(inst, moves[:3]) is None


def test_max_moves_gives_bounded_or_a_solution():
    inst = read_instance(PAPER / "h-to-o.toml")
    r = solve_pdr(inst, max_moves=3, limits=Limits(60))
    assert r.status is Status.BOUNDED and r.lower_bound == 4
    assert solve_pdr(inst, max_moves=4, limits=Limits(60)).status in (Status.OPTIMAL, Status.FEASIBLE)
    assert solve_kind(inst, max_moves=3, limits=Limits(60)).status is Status.BOUNDED


def test_the_time_limit_holds():
    inst = read_instance(PAPER / "vee-2-2.toml")  # PDR does not finish this in seconds
    for engine in (solve_pdr, solve_kind):
        t0 = time.perf_counter()
        r = engine(inst, limits=Limits(1.5))
        assert r.status is Status.UNKNOWN and "time limit" in r.stats["stopped"]
        assert time.perf_counter() - t0 < 6


def test_the_memory_limit_holds_on_abc():
    inst = read_instance(PAPER / "vee-2-2.toml")
    r = solve_pdr(inst, limits=Limits(30, 1 << 20))  # 1 MiB: ABC itself needs more
    assert r.status is Status.UNKNOWN and r.stats["stopped"] == "memory limit"


def test_a_missing_abc_names_the_package(monkeypatch):
    monkeypatch.setenv("COINSAT_ABC", "/nonexistent/berkeley-abc")
    inst = read_instance(PAPER / "h-to-o.toml")
    with pytest.raises(UsageError, match="install the package berkeley-abc"):
        solve_pdr(inst)


# --- forgeries -----------------------------------------------------------------------------------


@pytest.fixture
def honest(tmp_path):
    inst = read_instance(CX / "thm2-cx1-n6-5x3.toml")
    cert, d = certified(inst, tmp_path)
    assert check_certificate(inst, cert, d).ok
    return inst, cert, d


def _with_proofs(inst, cert: dict, d: Path, clauses: list[list[int]]) -> dict:
    """``cert`` with other clauses (over its cells), and the honest proofs of every formula that
    is refutable, the old proof where it is not (a forger has no proof of a satisfiable one)."""
    index = [inst.board.cell(tuple(c) if isinstance(c, list) else c) for c in cert["cells"]]
    over_cells = [[(index[abs(lit) - 1] + 1) * (1 if lit > 0 else -1) for lit in c] for c in clauses]
    cnfs = formula_cnfs(inst, over_cells)
    forged = dict(cert, clauses=clauses, proofs=dict(cert["proofs"]))
    for name, cnf in cnfs.items():
        proof = _refutation(cnf.clauses, None)
        if proof is not None:
            (d / f"forged-{name}.drat").write_text("\n".join(proof) + "\n")
            forged["proofs"][name] = f"forged-{name}.drat"
    return forged


def test_an_invariant_that_is_not_inductive_is_rejected(honest):
    inst, cert, d = honest
    start = sorted(inst.start.cell_set)
    cells = [inst.board.cell(tuple(c)) for c in cert["cells"]]
    # "every start cell keeps its coin": true at the start, excludes the goal, broken by any move
    units = [[cells.index(c) + 1] for c in start if c in cells]
    assert units
    forged = _with_proofs(inst, cert, d, units + cert["clauses"][-1:])
    verdict = check_certificate(inst, forged, d)
    assert not verdict.ok and "'step'" in verdict.reason


def test_an_invariant_that_excludes_the_start_is_rejected(honest):
    inst, cert, d = honest
    cells = [inst.board.cell(tuple(c)) for c in cert["cells"]]
    a = next(c for c in sorted(inst.start.cell_set) if c in cells)
    forged = _with_proofs(inst, cert, d, cert["clauses"] + [[-(cells.index(a) + 1)]])
    verdict = check_certificate(inst, forged, d)
    assert not verdict.ok and "'init'" in verdict.reason


def test_a_tampered_clause_is_rejected(honest):
    inst, cert, d = honest
    tampered = json.loads(json.dumps(cert))
    tampered["clauses"][0][0] = -tampered["clauses"][0][0]
    assert not check_certificate(inst, tampered, d).ok
    dropped = dict(cert, clauses=cert["clauses"][1:])  # ABC's clauses support each other
    assert not check_certificate(inst, dropped, d).ok


def test_an_invariant_for_a_different_instance_is_rejected(honest, tmp_path):
    inst, cert, d = honest
    other = read_instance(CX / "thm2-cx2-n6-5x3.toml")
    verdict = check_certificate(other, cert, d)
    assert not verdict.ok and "another instance" in verdict.reason
    from coinsat.certificates.check.format import instance_digest

    # with the other instance's digest the evidence is judged on its own: cx1's invariant
    # happens to hold at cx2's start too and to exclude their common goal, so it proves cx2
    # unsolvable (three refutations checked); on a solvable puzzle no relabelling can pass
    relabelled = dict(cert, instance={"name": other.name, "digest": instance_digest(other)})
    assert check_certificate(other, relabelled, d).ok
    solvable = read_instance(PAPER / "h-to-o.toml")
    relabelled = dict(cert, instance={"name": solvable.name, "digest": instance_digest(solvable)})
    assert not check_certificate(solvable, relabelled, d).ok


def test_proofs_outside_the_alphabet_or_the_folder_are_rejected(honest):
    inst, cert, d = honest
    step = d / cert["proofs"]["step"]
    (d / "bad.drat").write_bytes(step.read_bytes().replace(b"\n", b"\x0b", 1))
    verdict = check_certificate(inst, dict(cert, proofs=dict(cert["proofs"], step="bad.drat")), d)
    assert not verdict.ok and "0x0b" in verdict.reason
    outside = dict(cert, proofs=dict(cert["proofs"], step="../" + cert["proofs"]["step"]))
    assert not check_certificate(inst, outside, d).ok
    assert not check_certificate(inst, dict(cert, proofs={"init": cert["proofs"]["init"]}), d).ok


# --- the command line ----------------------------------------------------------------------------


def test_certify_and_check_certificate_on_the_command_line(tmp_path, capsys):
    from coinsat.cli import main

    f = str(CX / "thm2-cx1-n6-5x3.toml")
    assert main(["certify", f, "--method", "pdr", "-o", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unsolvable" and out["kind"] == "inductive" and out["accepted"] is True
    assert main(["check-certificate", f, out["file"]]) == 0
    capsys.readouterr()
    h_to_o = str(PAPER / "h-to-o.toml")
    assert main(["solve", h_to_o, "--method", "kind", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "optimal" and obj["length"] == 4 and obj["engine"] == "kind"


@pytest.mark.parametrize("screens", [True, False])
@pytest.mark.parametrize("name", UNSOLVABLE_PAPER)
def test_solve_method_pdr_certifies_every_unsolvable_paper_puzzle(name, screens, tmp_path, capsys):
    """On the command line, `coinsat solve FILE --method pdr --certify` answers unsolvable with an
    accepted certificate, which check-certificate accepts again.  With the screens (the default) a
    screen answers on these three puzzles, with its invariant; with --no-screens pdr runs, and the
    certificate is its own inductive invariant."""
    from coinsat.cli import main

    f = str(PAPER / f"{name}.toml")
    skip = [] if screens else ["--no-screens"]
    assert main(["solve", f, "--method", "pdr", *skip, "--certify", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unsolvable" and out["certificate_check"]["accepted"] is True
    assert out["engine"] == ("pdr" if not screens else out["engine"])
    kind = json.loads(Path(out["certificate_check"]["file"]).read_text())["kind"]
    assert (kind == "inductive") is (not screens)
    assert main(["check-certificate", f, out["certificate_check"]["file"]]) == 0


def test_certify_on_a_kind_answer_gets_pdrs_invariant(tmp_path):
    """ABC's k-induction prints no invariant; certify asks pdr for one instead of enumerating the
    reachable set (encodings/aiger.md section 5)."""
    from coinsat.certificates.prove.make import certify

    inst = read_instance(ROOT / "instances" / "open-problems" / "cubic-2x2x2-d3-n6-hypothesis.toml")
    r = solve_kind(inst, limits=Limits(60))
    assert r.status is Status.UNSOLVABLE and isinstance(r.witness, InductionProof)  # no invariant of its own
    done = certify(inst, r, tmp_path)
    assert done.check.ok and done.certificate.to_json()["kind"] == "inductive"


def test_a_missing_abc_is_one_line_and_exit_2(monkeypatch, capsys):
    from coinsat.cli import main

    monkeypatch.setenv("COINSAT_ABC", "/nonexistent/berkeley-abc")
    assert main(["solve", str(CX / "thm2-cx1-n6-5x3.toml"), "--method", "pdr"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "berkeley-abc" in err


# --- against BFS on random puzzles ---------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(instances(max_coins=4))
def test_pdr_and_kind_agree_with_bfs_in_the_same_window(tmp_path_factory, instance):
    """The circuit's window is the instance's: BFS searching that window as given (no growth)
    decides the same question.  pdr: unsolvable iff BFS exhausts the window, else a solution;
    kind: the shortest solution inside the window; an invariant certificate is accepted."""
    from coinsat.search.bfs import solve_bfs
    from coinsat.search.options import BfsOptions

    bfs = solve_bfs(instance, limits=Limits(60), max_moves=None, options=BfsOptions(grow=False))
    pdr = solve_pdr(instance, limits=Limits(60))
    kind = solve_kind(instance, limits=Limits(20))
    assert bfs.status is not Status.UNKNOWN and pdr.status is not Status.UNKNOWN
    if bfs.status is Status.UNSOLVABLE:
        assert pdr.status is Status.UNSOLVABLE and kind.status in (Status.UNSOLVABLE, Status.UNKNOWN)
        assert pdr.certificate["scope"] == bfs.certificate["scope"]
        if pdr.witness is not None:
            d = tmp_path_factory.mktemp("inv")
            cert, _ = certified(instance, d, pdr.witness)
            verdict = check_certificate(instance, cert, d)
            assert verdict.ok and verdict.scope == bfs.certificate["scope"], verdict.reason
    else:
        assert pdr.solution is not None and verify(instance, pdr.solution).ok
        assert kind.solution is not None and len(kind.solution) == len(bfs.solution)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc and prctl")
def test_abc_dies_with_a_killed_coinsat():
    """SIGTERM ends Python without running its cleanup; ABC must not run on as an orphan."""
    import signal
    import subprocess
    import sys

    code = (
        "from coinsat.io.instance_format import read_instance\n"
        "from coinsat.export import export\n"
        "from coinsat.backends.abc import run_abc\n"
        f"inst = read_instance({str(PAPER / 'vee-2-2.toml')!r})\n"
        "run_abc(export(inst, 'aig', None), ['bmc3 -F 40'], time_limit=120)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code])
    kids: list[str] = []
    for _ in range(100):  # until ABC has started
        time.sleep(0.1)
        kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
        if kids:
            break
    assert kids, "ABC did not start"
    p.send_signal(signal.SIGTERM)
    p.wait()
    time.sleep(0.5)
    for k in kids:
        stat = Path(f"/proc/{k}/stat")
        assert not stat.exists() or stat.read_text().split()[2] == "Z"
