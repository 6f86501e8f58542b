"""Exported formulas and tasks give the same answers as the BFS oracle.

CNF (PySAT, and Debian's ``cadical`` program when installed), WCNF (RC2),
OPB (translated back to CNF here, and ``minisat+`` when installed) and PDDL
(Fast Downward, slow) are solved from their *text*, and models are decoded
through the file's own symbol table before ``verify`` judges them.
"""

from __future__ import annotations

import lzma
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.card import CardEnc, EncType
from pysat.examples.rc2 import RC2
from pysat.formula import CNF, WCNF, IDPool
from pysat.solvers import Solver

from coinsat.cli import main
from coinsat.commands.export import output_paths
from coinsat.export import FORMATS, export
from coinsat.io.dimacs import decode_symbols, gbd_hash, read_symbols
from coinsat.io.instance_format import read_instance
from coinsat.io.pddl import cell_names, fast_downward_driver, pddl_task, read_plan
from coinsat.search.bfs import solve_bfs
from coinsat.search.options import BfsOptions
from coinsat.solution import Solution, verify

from .strategies import instances

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "instances" / "paper"


def window_distance(inst):
    """Length of a shortest solution inside the window (BFS oracle), None if there is none."""
    r = solve_bfs(inst, options=BfsOptions(grow=False))
    return None if r.solution is None else len(r.solution)


def solve_cnf_text(text: str):
    cnf = CNF(from_string=text)
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as s:
        return s.get_model() if s.solve() else None


def check_model(inst, text, model, horizon):
    sol = decode_symbols(inst, read_symbols(text), model)
    assert len(sol) <= horizon
    assert verify(inst, sol).ok


# --- CNF ----------------------------------------------------------------------------------


@pytest.mark.parametrize("horizon, sat", [(17, False), (18, True)])
def test_diagonal_threshold_cnf(horizon, sat, tmp_path, capsys):
    path = tmp_path / f"diagonal-{horizon}.cnf"
    assert (
        main(["export", str(PAPER / "diagonal.toml"), "--horizon", str(horizon), "--format", "cnf", "-o", str(path)])
        == 0
    )
    text = path.read_text()
    assert f"c expected: {'SAT' if sat else 'UNSAT'}" in text
    model = solve_cnf_text(text)
    assert (model is not None) == sat
    if sat:
        check_model(read_instance(PAPER / "diagonal.toml"), text, model, horizon)


@pytest.mark.skipif(shutil.which("cadical") is None, reason="Debian's cadical program is not installed")
@pytest.mark.parametrize("horizon, sat", [(17, False), (18, True)])
def test_diagonal_threshold_external_cadical(horizon, sat, tmp_path):
    inst = read_instance(PAPER / "diagonal.toml")
    path = tmp_path / "f.cnf.xz"  # cadical reads xz-compressed files too
    assert (
        main(["export", str(PAPER / "diagonal.toml"), "--horizon", str(horizon), "--format", "cnf", "-o", str(path)])
        == 0
    )
    p = subprocess.run(["cadical", "-q", str(path)], capture_output=True, text=True, timeout=300)
    assert p.returncode == (10 if sat else 20), p.stdout[-500:]
    if sat:
        model = [
            int(x) for line in p.stdout.splitlines() if line.startswith("v ") for x in line[2:].split() if x != "0"
        ]
        check_model(inst, lzma.decompress(path.read_bytes()).decode(), model, horizon)


@settings(max_examples=40, deadline=None)
@given(instances(max_coins=4), st.integers(0, 6))
def test_cnf_answer_equals_bfs(inst, horizon):
    """SAT at horizon T <=> a solution with <= T moves exists in the window; models verify."""
    text = export(inst, "cnf", horizon)
    want = window_distance(inst)
    model = solve_cnf_text(text)
    assert (model is not None) == (want is not None and want <= horizon)
    if model is not None:
        check_model(inst, text, model, horizon)


@settings(max_examples=15, deadline=None)
@given(instances(max_coins=4), st.integers(0, 5))
def test_export_is_deterministic_and_symbol_table_complete(inst, horizon):
    a, b = export(inst, "cnf", horizon), export(inst, "cnf", horizon)
    assert a == b
    nvars = int(re.search(r"^p cnf (\d+) ", a, re.M).group(1))
    assert sorted(read_symbols(a)) == list(range(1, nvars + 1))


def test_export_twice_gives_identical_bytes(tmp_path):
    for fmt, name in (("cnf", "a.cnf"), ("cnf", "a.cnf.xz"), ("wcnf", "a.wcnf"), ("opb", "a.opb")):
        paths = [tmp_path / "1" / name, tmp_path / "2" / name]
        for p in paths:
            assert main(["export", str(PAPER / "h-to-o.toml"), "--horizon", "5", "--format", fmt, "-o", str(p)]) == 0
        assert paths[0].read_bytes() == paths[1].read_bytes()
    raw = lzma.decompress((tmp_path / "1" / "a.cnf.xz").read_bytes()).decode()
    assert raw == export(read_instance(PAPER / "h-to-o.toml"), "cnf", 5)


@pytest.mark.parametrize("fmt", ["cnf", "wcnf", "opb", "lp", "mps", "pddl"])
def test_identical_bytes_across_processes(fmt):
    """Different hash seeds, same bytes: nothing depends on set or dict hash order."""
    if fmt in ("lp", "mps"):
        pytest.importorskip("pulp")
    horizon = [] if fmt == "pddl" else ["--horizon", "5"]
    outs = []
    for seed in ("1", "2"):
        p = subprocess.run(
            [sys.executable, "-m", "coinsat", "export", str(PAPER / "swap5-b.toml"), "--format", fmt, *horizon],
            capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            timeout=120,
        )
        assert p.returncode == 0, p.stderr
        outs.append(p.stdout)
    assert outs[0] == outs[1] and outs[0]


def test_stdout_is_the_file(tmp_path, capsys):
    assert main(["export", str(PAPER / "h-to-o.toml"), "--horizon", "3", "--format", "cnf"]) == 0
    assert capsys.readouterr().out == export(read_instance(PAPER / "h-to-o.toml"), "cnf", 3)


def test_gbd_hash_equals_gbdc(tmp_path):
    gbdc = pytest.importorskip("gbdc")
    text = export(read_instance(PAPER / "h-to-o.toml"), "cnf", 4)
    path = tmp_path / "h.cnf"
    path.write_text(text)
    assert gbd_hash(text) == gbdc.gbdhash(str(path))


# --- WCNF ---------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(instances(max_coins=4), st.integers(0, 6), st.booleans())
def test_wcnf_optimum_equals_bfs(inst, horizon, legacy):
    text = export(inst, "wcnf-legacy" if legacy else "wcnf", horizon)
    want = window_distance(inst)
    with RC2(WCNF(from_string=text)) as rc2:
        model = rc2.compute()
        if want is None or want > horizon:
            assert model is None
        else:
            assert model is not None and rc2.cost == want
            check_model(inst, text, model, horizon)


def test_wcnf_formats():
    inst = read_instance(PAPER / "h-to-o.toml")
    new, old = export(inst, "wcnf", 4), export(inst, "wcnf-legacy", 4)
    assert not re.search(r"^p ", new, re.M) and re.search(r"^h ", new, re.M)
    assert re.search(r"^p wcnf \d+ \d+ 5$", old, re.M) and not re.search(r"^h ", old, re.M)


# --- OPB ----------------------------------------------------------------------------------

_TERM = re.compile(r"([+-]\d+) x(\d+)")


def opb_to_cnf(text: str) -> list[list[int]]:
    """Translate the OPB rows coinsat writes back into clauses (independently of dimacs.py)."""
    nvars = int(re.match(r"\* #variable= (\d+) #constraint= (\d+)", text).group(1))
    pool = IDPool(start_from=nvars + 1)
    out: list[list[int]] = []
    for line in text.splitlines():
        if line.startswith("*"):
            continue
        lhs, rel, rhs = re.match(r"(.*) (>=|=) (-?\d+) ;$", line).groups()
        terms = [(int(a), int(v)) for a, v in _TERM.findall(lhs)]
        rhs = int(rhs)
        if rel == "=":  # sum of positive unit terms = k
            assert all(a == 1 for a, _ in terms)
            out += CardEnc.equals([v for _, v in terms], rhs, vpool=pool, encoding=EncType.seqcounter).clauses
        elif all(abs(a) == 1 for a, _ in terms):  # a clause: sum l >= 1 - #neg
            assert rhs == 1 - sum(a < 0 for a, _ in terms)
            out.append([v if a > 0 else -v for a, v in terms])
        else:  # -d g + sum x >= 0: g -> at least d of the x
            (d, g), rest = (-terms[0][0], terms[0][1]), [v for a, v in terms[1:]]
            assert rhs == 0 and d > 1 and all(a == 1 for a, _ in terms[1:])
            card = CardEnc.atleast(rest, d, vpool=pool, encoding=EncType.seqcounter).clauses
            out += [[-g, *c] for c in card]
    return out


@settings(max_examples=25, deadline=None)
@given(instances(max_coins=4), st.integers(0, 6))
def test_opb_answer_equals_bfs(inst, horizon):
    text = export(inst, "opb", horizon)
    n_rows = sum(1 for line in text.splitlines() if not line.startswith("*"))
    assert f"#constraint= {n_rows}" in text.splitlines()[0]
    want = window_distance(inst)
    with Solver(name="cadical195", bootstrap_with=opb_to_cnf(text)) as s:
        sat = s.solve()
        assert sat == (want is not None and want <= horizon)
        if sat:
            check_model(inst, text, s.get_model(), horizon)


def test_opb_has_native_cardinality():
    text = export(read_instance(PAPER / "diagonal.toml"), "opb", 6)
    assert re.search(r"^(\+1 x\d+ )+= 1 ;$", text, re.M)
    assert re.search(r"^-2 x\d+ (\+1 x\d+ )+>= 0 ;$", text, re.M)


@pytest.mark.skipif(shutil.which("minisat+") is None, reason="minisat+ is not installed")
@pytest.mark.parametrize("name, horizon", [("h-to-o", 3), ("h-to-o", 4), ("swap5-a", 7), ("swap5-a", 8)])
def test_opb_external_minisat_plus(name, horizon, tmp_path):
    inst = read_instance(PAPER / f"{name}.toml")
    path = tmp_path / "f.opb"
    path.write_text(export(inst, "opb", horizon))
    p = subprocess.run(["minisat+", str(path)], capture_output=True, text=True, timeout=300)
    status = re.search(r"^s (\S+)", p.stdout, re.M).group(1)
    assert status == ("SATISFIABLE" if horizon >= inst.known_optimal else "UNSATISFIABLE")


# --- CLI ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["--format", "cnf"],  # no horizon
        ["--format", "pddl", "--horizon", "3"],  # PDDL has none
        ["--format", "cnf", "--horizon", "3", "--option", "nope=1"],
        ["--format", "cnf", "--horizon", "3", "--option", "commute=2"],
        ["--format", "xyz", "--horizon", "3"],
        ["--format", "cnf", "--horizon", "-1"],
    ],
)
def test_bad_parameters_exit_2(argv, capsys):
    try:
        code = main(["export", str(PAPER / "h-to-o.toml"), *argv])
    except SystemExit as e:  # argparse's own checks
        code = e.code
    assert code == 2
    assert capsys.readouterr().err.strip()


def test_format_choices_come_from_the_registry():
    assert {"cnf", "wcnf", "opb", "lp", "mps", "pddl"} <= set(FORMATS)


def test_encoding_options_reach_the_header(capsys):
    assert (
        main(["export", str(PAPER / "h-to-o.toml"), "--horizon", "2", "--format", "cnf", "--option", "commute=0"]) == 0
    )
    assert "commute=0" in capsys.readouterr().out


# --- PDDL ---------------------------------------------------------------------------------


def _balanced(text: str) -> bool:
    depth = 0
    for line in text.splitlines():
        for ch in line.split(";", 1)[0]:
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth < 0:
                return False
    return depth == 0


@settings(max_examples=30, deadline=None)
@given(instances(max_coins=4))
def test_pddl_is_sane(inst):
    task = pddl_task(inst)
    assert _balanced(task.domain) and _balanced(task.problem)
    body = lambda t: "\n".join(l.split(";", 1)[0] for l in t.splitlines())  # noqa: E731
    dom, prob = body(task.domain), body(task.problem)
    declared = set(
        re.findall(r"\b([a-z]\w*)\b", " ".join(re.findall(r"\(:(?:objects|constants)([^)]*)\)", dom + prob)))
    )
    used = set(re.findall(r"\((?:occupied|empty|adj|before|holds) ([^)]*)\)", prob + dom))
    for args in used:
        for name in args.split():
            assert name.startswith("?") or name in declared or name in ("-", "cell", "label"), name
    # the move action names d supporting neighbours
    assert len(re.search(r":parameters \(\?s \?p - cell ([^)]*)\)", dom).group(1).split("?n")) - 1 == inst.d


@settings(max_examples=30, deadline=None)
@given(instances(max_coins=4))
def test_plans_read_back_through_cell_names(inst):
    r = solve_bfs(inst, options=BfsOptions(grow=False))
    if r.solution is None:
        return
    cn = cell_names(inst)
    plan = "\n".join(f"(move {cn[s].upper()} {cn[p]} whatever)" for s, p in r.solution.moves)
    assert read_plan(inst, plan + "\n; cost = 1 (unit cost)\n") == r.solution


def test_pddl_output_paths(tmp_path):
    assert output_paths(str(tmp_path / "out") + "/", "pddl", ["domain", "problem"]) == [
        tmp_path / "out" / "domain.pddl",
        tmp_path / "out" / "problem.pddl",
    ]
    assert output_paths(str(tmp_path / "d.pddl"), "pddl", ["domain", "problem"]) == [
        tmp_path / "d.domain.pddl",
        tmp_path / "d.pddl",
    ]
    assert main(["export", str(PAPER / "h-to-o.toml"), "--format", "pddl", "-o", str(tmp_path / "t")]) == 0
    assert (tmp_path / "t" / "domain.pddl").read_text().startswith(";")


def run_fd(inst, tmp_path: Path) -> Solution | None:
    task = pddl_task(inst)
    (tmp_path / "domain.pddl").write_text(task.domain)
    (tmp_path / "problem.pddl").write_text(task.problem)
    p = subprocess.run(
        [
            "python3",
            fast_downward_driver(),
            "--plan-file",
            "plan",
            "domain.pddl",
            "problem.pddl",
            "--search",
            "astar(lmcut())",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if p.returncode in (10, 11):  # proven unsolvable
        return None
    assert p.returncode == 0, p.stdout[-1000:]
    return read_plan(inst, (tmp_path / "plan").read_text())


@pytest.mark.slow
@pytest.mark.skipif(fast_downward_driver() is None, reason="up-fast-downward is not installed")
@pytest.mark.parametrize("name", ["diagonal", "h-to-o", "o-to-h", "swap5-a", "swap5-b", "rhomboid"])
def test_fast_downward_solves_paper_pddl(name, tmp_path):
    inst = read_instance(PAPER / f"{name}.toml")
    sol = run_fd(inst, tmp_path)
    want = window_distance(inst)
    if want is None:
        assert sol is None
    else:
        assert sol is not None and verify(inst, sol).ok and len(sol) == want


@pytest.mark.slow
@pytest.mark.skipif(fast_downward_driver() is None, reason="up-fast-downward is not installed")
@settings(max_examples=15, deadline=None)
@given(instances(max_coins=4))
def test_fast_downward_agrees_with_bfs(inst):
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        sol = run_fd(inst, Path(tmp))
    want = window_distance(inst)
    assert (sol is None) == (want is None)
    if sol is not None:
        assert verify(inst, sol).ok and len(sol) == want


@pytest.mark.parametrize("path", sorted(PAPER.glob("*.toml")), ids=lambda p: p.stem)
def test_cnf_headers_spell_the_sources_in_ascii(path):
    """The headers stay in the DIMACS alphabet without escapes a reader must decode: "§5" is
    "section 5" (review round 4: "REFERENCE.md \\xa75"); other characters are still escaped."""
    from coinsat.io.dimacs import comment_safe

    text = export(read_instance(path), "cnf", 2)
    header = [line for line in text.splitlines() if line.startswith("c")]
    assert all(re.fullmatch(r"[\x20-\x7e]*", line) for line in header)
    assert not [line for line in header if re.search(r"\\(x[0-9a-f]{2}|u[0-9a-f]{4})", line)]
    if path.stem == "diagonal":
        assert any("REFERENCE.md section 5" in line for line in header)
    assert comment_safe("a\u2028b §1 → 2") == "a\\u2028b section 1 -> 2"
