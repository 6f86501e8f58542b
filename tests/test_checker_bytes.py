"""The checker decides from its own bytes: the parser-differential forgeries, and file names.

A comment line ``c x`` + separator + ``0`` appended to the genuine CNF hid the empty clause
from gbdc (which ends lines only at ``\\n``) and showed it to dratify (``str.splitlines``); an empty
proof then "refuted" the formula, on the single-proof, core-only and cube paths.  The checker now
replays every proof against the formula text it writes itself, compares the certificate's CNF
only byte for byte, and reads no byte outside printable ASCII and the newline
(``encodings/sat.md`` section 9).  File names stay inside the certificate's folder.
A forged horizon is bounded by what the checker computes, and the window growth polls the
limits.
"""

from __future__ import annotations

import copy
import json
import os
import time
from pathlib import Path

import pytest

from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.bounded import formula_text, gbd_hash, gbd_hash_text, max_horizon
from coinsat.certificates.check.format import alphabet_problem, instance_digest
from coinsat.certificates.prove.bounded import build_bounded
from coinsat.certificates.prove.cubes import build_cubes
from coinsat.cli import main
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance

ROOT = Path(__file__).resolve().parent.parent
H_TO_O = ROOT / "instances" / "paper" / "h-to-o.toml"
# the separators the reliability round tried (5 of 5 accepted before): \v, \f, \x1c, U+0085, U+2028
SEPARATORS = ["\v", "\f", "\x1c", "\x85", "\u2028"]
ALL_SPLITLINES = SEPARATORS + ["\x1d", "\x1e", "\u2029", "\r"]


@pytest.fixture(scope="module")
def hto():
    return read_instance(H_TO_O)


@pytest.fixture(scope="module")
def genuine(hto, tmp_path_factory):
    """A genuine bounded certificate for h-to-o at horizon 3 (the optimum is 4), default encoding."""
    d = tmp_path_factory.mktemp("genuine")
    cert = build_bounded(hto, 3, d, "hto")
    assert cert is not None
    return d, json.loads(json.dumps(cert))


@pytest.fixture(scope="module")
def genuine_core(hto, tmp_path_factory):
    d = tmp_path_factory.mktemp("core")
    cert = build_bounded(hto, 3, d, "hto", core=True)
    assert cert is not None
    return d, json.loads(json.dumps(cert))


def _forge(hto, d: Path, cert: dict, sep: str, *, horizon: int = 4, core: bool = False) -> dict:
    """The parser-differential forgery: the genuine formula at ``horizon`` + ``c x`` + sep + ``0``, an empty proof."""
    text = formula_text(hto, horizon, "core" if core else cert["encoding"])
    (d / f"forged{horizon}.cnf").write_bytes(text.encode() + f"c x{sep}0\n".encode("utf-8"))
    (d / "empty.drat").write_bytes(b"")
    forged = copy.deepcopy(cert)
    forged.update(
        horizon=horizon,
        claim=f"no solution with <= {horizon} moves",
        cnf=f"forged{horizon}.cnf",
        cnf_gbd_hash=gbd_hash(text),
        proof="empty.drat",
    )
    return forged


def _detours(inst):
    from coinsat.rules import legal_moves

    b = inst.board
    for m in legal_moves(b, inst.goal, inst.d):
        yield list(b.coords[m.src]), list(b.coords[m.dst])


def _replays(inst, moves) -> bool:
    from coinsat.solution import Solution, verify

    b = inst.board
    sol = Solution.of((b.cell(tuple(s)), b.cell(tuple(t))) for s, t in moves)
    return verify(inst, sol).ok


def test_genuine_certificates_are_accepted(hto, genuine, genuine_core):
    for d, cert in (genuine, genuine_core):
        verdict = check_certificate(hto, cert, d)
        assert verdict.ok, verdict.reason
        assert verdict.claim == "no solution with <= 3 moves"


@pytest.mark.parametrize("sep", SEPARATORS, ids=[f"U+{ord(s):04X}" for s in SEPARATORS])
def test_r3_1_hidden_empty_clause_is_rejected(hto, genuine, sep):
    d, cert = genuine
    forged = _forge(hto, d, cert, sep)
    verdict = check_certificate(hto, forged, d)
    assert not verdict.ok
    assert "re-encoding" in verdict.reason  # the copy differs from the checker's text
    # without the copy the proof meets the checker's own formula, which an empty proof does not refute
    del forged["cnf"]
    verdict = check_certificate(hto, forged, d)
    assert not verdict.ok and "DRAT proof rejected" in verdict.reason


@pytest.mark.parametrize("sep", SEPARATORS, ids=[f"U+{ord(s):04X}" for s in SEPARATORS])
def test_r3_1_core_only_path(hto, genuine_core, sep):
    d, cert = genuine_core
    forged = _forge(hto, d, cert, sep, core=True)
    assert not check_certificate(hto, forged, d).ok
    del forged["cnf"]
    assert not check_certificate(hto, forged, d).ok


@pytest.mark.parametrize("sep", SEPARATORS, ids=[f"U+{ord(s):04X}" for s in SEPARATORS])
def test_r3_1_cube_path(hto, genuine, sep):
    d, cert = genuine
    forged = _forge(hto, d, cert, sep)
    del forged["proof"]
    forged.update(proof_format="cubes", cubes=[[1]], cube_proofs=["empty.drat"], cover_proof="empty.drat")
    verdict = check_certificate(hto, forged, d)
    assert not verdict.ok
    del forged["cnf"]
    verdict = check_certificate(hto, forged, d)
    assert not verdict.ok and "DRAT proof rejected" in verdict.reason


def test_r3_1_optimal_six_for_a_four_move_puzzle(hto, genuine, tmp_path):
    """The stronger forgery: horizon 5, the hidden empty clause, and a genuine 6-move solution."""
    d, cert = genuine
    out = tmp_path / "sol.json"
    assert main(["solve", str(H_TO_O), "--json", "-o", str(out)]) == 0
    moves = json.loads(out.read_text())["moves"]
    assert len(moves) == 4
    six = None
    for a, b in _detours(hto):  # a legal move out of the goal and its legal reverse
        candidate = moves + [[a, b], [b, a]]
        if _replays(hto, candidate):
            six = candidate
            break
    assert six is not None, "no legal two-move detour from the goal"
    forged = _forge(hto, d, cert, "\v", horizon=5)
    forged.update(claim="optimal: 6 moves (no solution with <= 5 moves)", solution=six)
    verdict = check_certificate(hto, forged, d)
    assert not verdict.ok


def test_a_proof_with_a_byte_outside_the_alphabet_is_rejected(hto, genuine, tmp_path):
    d, cert = genuine
    proof = (d / cert["proof"]).read_bytes()
    for bad in (b"\v", b"\r", b"\xc2\x85", b"\t", b"\x00"):
        work = tmp_path / f"b{bad.hex()}"
        work.mkdir()
        (work / cert["cnf"]).write_bytes((d / cert["cnf"]).read_bytes())
        (work / cert["proof"]).write_bytes(proof + b"c x" + bad + b"\n")
        verdict = check_certificate(hto, cert, work)
        assert not verdict.ok and "outside the DIMACS alphabet" in verdict.reason


@pytest.mark.parametrize("sep", ALL_SPLITLINES)
def test_the_alphabet_refuses_every_line_break_but_newline(sep):
    assert alphabet_problem(f"p cnf 1 1\nc x{sep}0\n".encode(), "f")
    assert alphabet_problem(b"p cnf 1 1\n1 0\n", "f") is None


def test_the_checkers_gbd_hash_is_gbdcs(hto, genuine):
    d, cert = genuine
    text = (d / cert["cnf"]).read_text()
    assert gbd_hash(text) == gbd_hash_text(text) == cert["cnf_gbd_hash"]


def test_an_instance_name_cannot_inject_a_clause(tmp_path):
    """The instance's name goes into a comment of the checker's own text: a line break in it
    would start a clause line.  Comments are escaped into the alphabet."""
    inst = make_instance("square", [(0, 0), (0, 1), (1, 0)], [(0, 1), (1, 1), (1, 0)], name="x\n0\n\v0")
    for encoding in ("core", {}):
        text = formula_text(inst, 0, encoding)
        assert alphabet_problem(text.encode(), "t") is None
        assert "\n0\n" not in text


@pytest.mark.parametrize("name", ["../hto.h3.cnf", "/etc/hostname", "sub/x.cnf", "..", ".", "", 7, None], ids=repr)
def test_r3_10_file_names_stay_in_the_folder(hto, genuine, name):
    d, cert = genuine
    for field in ("cnf", "proof"):
        if field == "cnf" and name is None:
            continue  # no copy at all is allowed: the checker writes the formula itself
        bad = dict(copy.deepcopy(cert), **{field: name})
        verdict = check_certificate(hto, bad, d)
        assert not verdict.ok and ("file" in verdict.reason or "name" in verdict.reason), verdict.reason


def test_r3_10_a_symlink_out_of_the_folder_is_refused(hto, genuine, tmp_path):
    d, cert = genuine
    for f in d.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    os.replace(tmp_path / cert["proof"], tmp_path / "elsewhere.drat")
    os.symlink(tmp_path / "elsewhere.drat", tmp_path / cert["proof"])
    verdict = check_certificate(hto, cert, tmp_path)
    assert not verdict.ok and "regular file" in verdict.reason


def test_r3_5_a_forged_horizon_is_bounded_by_the_checker(tmp_path):
    """A 22-byte CNF and horizon 100,000 on the triangular grid: refused or stopped at once."""
    inst = make_instance("triangular", [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (2, 0)], name="tri2oline")
    assert max_horizon(inst) < 100_000
    (tmp_path / "tiny.cnf").write_text("p cnf 100000000 1\n1 0\n")
    (tmp_path / "p.drat").write_text("")
    cert = {
        "coinsat_certificate": 1,
        "kind": "bounded",
        "scope": "horizon",
        "claim": "no solution with <= 100000 moves",
        "instance": {"name": inst.name, "digest": instance_digest(inst)},
        "horizon": 100_000,
        "margin": None,
        "encoding": {},
        "cnf": "tiny.cnf",
        "proof": "p.drat",
        "proof_format": "drat",
        "solver": "cadical195",
        "window_exact": False,
    }
    t0 = time.perf_counter()
    verdict = check_certificate(inst, cert, tmp_path, deadline=time.perf_counter() + 3)
    assert not verdict.ok and time.perf_counter() - t0 < 3


def test_genuine_cube_certificate_is_accepted(tmp_path):
    swap = read_instance(ROOT / "instances" / "paper" / "swap5-a.toml")  # optimum 8
    cert = build_cubes(swap, 7, tmp_path, "swap", depth=2)
    assert cert is not None and len(cert["cubes"]) == 4
    cert = json.loads(json.dumps(cert))
    verdict = check_certificate(swap, cert, tmp_path)
    assert verdict.ok, verdict.reason
    # the copy is optional: the checker writes the formula itself
    verdict = check_certificate(swap, {k: v for k, v in cert.items() if k != "cnf"}, tmp_path)
    assert verdict.ok, verdict.reason
    # a cube proof with a vertical tab is refused before dratify reads it
    first = tmp_path / cert["cube_proofs"][0]
    first.write_bytes(first.read_bytes() + b"c x\v0\n")
    verdict = check_certificate(swap, cert, tmp_path)
    assert not verdict.ok and "outside the DIMACS alphabet" in verdict.reason


def test_check_certificate_refuses_a_json_byte_outside_the_alphabet(hto, genuine, tmp_path, capsys):
    d, cert = genuine
    for f in d.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    text = json.dumps(cert, ensure_ascii=False).replace('"no solution', '"\u2028no solution', 1)
    (tmp_path / "c.json").write_text(text, encoding="utf-8")
    assert main(["check-certificate", str(H_TO_O), str(tmp_path / "c.json")]) == 1
    assert "outside the DIMACS alphabet" in capsys.readouterr().out
    (tmp_path / "c.json").write_text(json.dumps(cert))
    assert main(["check-certificate", str(H_TO_O), str(tmp_path / "c.json"), "--memory-limit", "4G"]) == 0


def test_the_checking_child_rejects_on_a_failure_and_gives_no_verdict_at_a_limit():
    """The checker's rules around its forked child: a failure inside is a rejection naming it, a
    child killed without a verdict is a rejection, running out of memory is LimitReached."""
    from coinsat.certificates.check.bounded import verdict_in_child
    from coinsat.errors import LimitReached

    soon = time.perf_counter() + 30
    assert verdict_in_child(_fails, (), soon) == (False, "ZeroDivisionError: division by zero")
    assert verdict_in_child(_killed, (), soon) == (False, "the proof checker stopped without a verdict")
    with pytest.raises(LimitReached, match="memory limit"):
        verdict_in_child(_out_of_memory, (), soon)
    assert verdict_in_child(lambda: (True, "fine"), (), soon) == (True, "fine")


def _fails():
    return 1 / 0


def _killed():
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def _out_of_memory():
    raise MemoryError


def test_running_out_of_memory_is_a_limit_never_a_rejection(monkeypatch):
    """A checker that runs out of memory (an address-space limit, a small machine) says nothing
    about the certificate: check_certificate raises LimitReached (the CLI: unknown, exit 3), it
    does not reject a certificate that may be true."""
    from coinsat.certificates import check as check_module
    from coinsat.errors import LimitReached

    inst = read_instance(ROOT / "instances" / "paper" / "diagonal.toml")

    def out_of_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(check_module, "_check", out_of_memory)
    with pytest.raises(LimitReached, match="memory limit"):
        check_certificate(inst, {"kind": "layers", "claim": "optimal: 18 moves"}, ".")


def test_check_certificate_given_a_layers_file_says_so(tmp_path, capsys):
    """A user who passes a certificate's layers (.npz) instead of its JSON file is told which file
    to give, not that a byte is outside the DIMACS alphabet; the verdict is still "not accepted"."""
    import numpy as np

    npz = tmp_path / "puzzle.h10.layers.npz"
    np.savez(npz, layer_0=np.zeros(1, dtype=np.uint64))
    assert main(["check-certificate", str(H_TO_O), str(npz)]) == 1
    out = capsys.readouterr().out
    assert "not its JSON file" in out and "DIMACS" not in out
