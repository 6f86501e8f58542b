"""What a user reads: answers that do not contradict themselves, a progress
line for ILP, --animate refused where it means nothing, decode, stored records that say what is
proven, help text for every argument, and the README's command list."""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
from pathlib import Path

import pytest

from coinsat.cli import get_parser, main

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# --- the scope of an optimal answer -----------------------------------------------------------------


def test_pyramid_to_line_says_what_its_proof_covers(capsys):
    """Optimal, found inside the window: the answer names the scope (global) instead of saying
    'not proven globally optimal' right after 'optimal'."""
    code, out, _ = run(capsys, "solve", "paper/pyramid-to-line")
    assert code == 0 and out.startswith("pyramid-to-line: optimal — 7 moves")
    assert "not proven" not in out
    assert "scope: global — no solution with <= 6 moves exists anywhere" in out


# --- ILP progress -------------------------------------------------------------------------------------


def test_ilp_reports_every_horizon():
    pytest.importorskip("pulp")
    from coinsat import load
    from coinsat.io.terminal import Display
    from coinsat.solve import solve

    stream = io.StringIO()
    with Display("ilp", asked=True, stream=stream, every=0) as line:
        result = solve(load("paper/h-to-o"), "ilp", progress=line)
    text = stream.getvalue()
    assert result.length == 4
    assert "ilp: horizon 4: solving" in text and "constraints" in text and "horizon 4: feasible" in text


# --- show --animate --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "png", "html"])
def test_animate_is_refused_where_it_means_nothing(capsys, tmp_path, fmt):
    out = tmp_path / f"x.{fmt}"
    code, _, err = run(capsys, "show", "paper/h-to-o", "--format", fmt, "--animate", "-o", str(out))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--animate" in err
    assert not out.exists()


def test_animate_svg_still_works(capsys, tmp_path):
    out, sol = tmp_path / "a.svg", tmp_path / "h.json"
    assert run(capsys, "solve", "paper/h-to-o", "--json", "-o", str(sol))[0] == 0
    code, _, _ = run(capsys, "show", "paper/h-to-o", str(sol), "--format", "svg", "--animate", "-o", str(out))
    assert code == 0 and "<animate" in out.read_text()


# --- decode ------------------------------------------------------------------------------------------------


def _model(cnf: Path, answer: str = "SATISFIABLE") -> str:
    from pysat.solvers import Solver

    clauses = [[int(x) for x in line.split()[:-1]] for line in cnf.read_text().splitlines() if line[:1] not in "cp"]
    with Solver(name="cadical195", bootstrap_with=[c for c in clauses if c]) as s:
        assert s.solve()
        model = s.get_model()
    return f"c a solver\ns {answer}\nv " + " ".join(map(str, model)) + " 0\n"


def test_decode_an_outside_model(capsys, tmp_path):
    cnf, model, sol = tmp_path / "h.cnf", tmp_path / "h.model", tmp_path / "h.json"
    assert run(capsys, "export", "paper/h-to-o", "--horizon", "4", "--format", "cnf", "-o", str(cnf))[0] == 0
    model.write_text(_model(cnf))
    code, out, err = run(capsys, "decode", "paper/h-to-o", str(cnf), str(model), "-o", str(sol))
    assert code == 0, err
    assert "4 moves decoded" in out
    assert json.loads(sol.read_text())["length"] == 4
    assert run(capsys, "verify", "paper/h-to-o", str(sol))[:2] == (0, "ok: 4 legal moves reach the goal\n")


def test_decode_refuses_what_is_not_a_model_of_this_formula(capsys, tmp_path):
    cnf, model, sol = tmp_path / "h.cnf", tmp_path / "h.model", tmp_path / "h.json"
    run(capsys, "export", "paper/h-to-o", "--horizon", "4", "--format", "cnf", "-o", str(cnf))
    good = _model(cnf)
    cases = {
        "c nothing\ns UNSATISFIABLE\n": "UNSATISFIABLE",
        "s SATISFIABLE\nv 1 -2 three 0\n": "'three' is not a literal",
        "": "no literals",
    }
    for text, words in cases.items():
        model.write_text(text)
        code, _, err = run(capsys, "decode", "paper/h-to-o", str(cnf), str(model), "-o", str(sol))
        assert code == 2 and words in err and str(model) in err and not sol.exists(), err
    model.write_text(good)
    code, _, err = run(capsys, "decode", "paper/diagonal", str(cnf), str(model))
    assert code == 2 and "not of 'diagonal'" in err
    # every variable false: no move at all, so the start is not the goal
    nothing = " ".join(str(-abs(int(w))) for w in good.split("v ", 1)[1].split()[:-1])
    model.write_text(f"v {nothing} 0\n")
    code, out, _ = run(capsys, "decode", "paper/h-to-o", str(cnf), str(model), "-o", str(sol))
    assert code == 1 and out.startswith("illegal") and not sol.exists()


def _plan(puzzle: str) -> str:
    """A plan as Fast Downward writes one (``sas_plan``) of an optimal solution, the cells named as
    the PDDL export names them (the supports, which read_plan does not need, left out)."""
    from coinsat import load, solve
    from coinsat.io.pddl import cell_names

    instance = load(puzzle)
    names = cell_names(instance)
    result = solve(instance, method="bfs")
    lines = [f"(move {names[m.src]} {names[m.dst]})" for m in result.solution.moves]
    return "\n".join(lines) + f"\n; cost = {len(lines)} (unit cost)\n"


def test_decode_a_planners_plan_of_the_pddl_export(capsys, tmp_path):
    """Review round 4 (newcomer, section 6): a plan of the PDDL task came back only in the
    laboratory.  ``decode`` reads it with the problem or the domain file, and replays it."""
    assert run(capsys, "export", "paper/diagonal", "--format", "pddl", "-o", str(tmp_path))[0] == 0
    plan, sol = tmp_path / "sas_plan", tmp_path / "d.json"
    plan.write_text(_plan("paper/diagonal"))
    for task in ("problem.pddl", "domain.pddl"):
        code, out, err = run(capsys, "decode", "paper/diagonal", str(tmp_path / task), str(plan), "-o", str(sol))
        assert code == 0 and "18 moves decoded" in out, err
        assert run(capsys, "verify", "paper/diagonal", str(sol))[:2] == (0, "ok: 18 legal moves reach the goal\n")


def test_decode_refuses_a_plan_of_another_task_or_with_foreign_steps(capsys, tmp_path):
    run(capsys, "export", "paper/diagonal", "--format", "pddl", "-o", str(tmp_path))
    problem, plan, sol = tmp_path / "problem.pddl", tmp_path / "sas_plan", tmp_path / "d.json"
    good = _plan("paper/diagonal")
    plan.write_text(good)
    code, _, err = run(capsys, "decode", "paper/h-to-o", str(problem), str(plan), "-o", str(sol))
    assert code == 2 and f"{problem}:1: the task is of 'diagonal', not of 'h-to-o'" in err and not sol.exists()
    other = tmp_path / "other.pddl"  # the same puzzle's task written for another window
    other.write_text(re.sub(r"(?m)^; board: square, window \w+", "; board: square, window margin", problem.read_text()))
    code, _, err = run(capsys, "decode", "paper/diagonal", str(other), str(plan), "-o", str(sol))
    assert code == 2 and "another board" in err and str(other) in err and not sol.exists()
    for bad, words in (("(move x9y9 x0y0)\n", "unknown cells"), ("move x0y0 x1y1\n", "not a plan step")):
        plan.write_text(good.replace("; cost", bad + "; cost", 1))
        code, _, err = run(capsys, "decode", "paper/diagonal", str(problem), str(plan), "-o", str(sol))
        assert code == 2 and words in err and f"{plan}:19:" in err and not sol.exists(), err
    plan.write_text("\n".join(good.splitlines()[:3]) + "\n")  # legal, but short of the goal
    code, out, _ = run(capsys, "decode", "paper/diagonal", str(problem), str(plan), "-o", str(sol))
    assert code == 1 and out.startswith("illegal at the end") and not sol.exists()


def test_the_pddl_recipe_with_fast_downward(capsys, tmp_path):
    """encodings/pddl.md's recipe end to end: export, Fast Downward's A* with LM-cut, decode."""
    import subprocess
    import sys

    from coinsat.io.pddl import fast_downward_driver

    driver = fast_downward_driver()
    if driver is None:
        pytest.skip("Fast Downward is not installed (pip install 'coinsat[bench]')")
    run(capsys, "export", "paper/diagonal", "--format", "pddl", "-o", str(tmp_path))
    fd = [
        sys.executable,
        driver,
        "--plan-file",
        "sas_plan",
        "domain.pddl",
        "problem.pddl",
        "--search",
        "astar(lmcut())",
    ]
    assert subprocess.run(fd, cwd=tmp_path, capture_output=True).returncode == 0
    code, out, err = run(capsys, "decode", "paper/diagonal", str(tmp_path / "problem.pddl"), str(tmp_path / "sas_plan"))
    assert code == 0 and "18 moves decoded" in out, err


# --- stored solution records ------------------------------------------------------------------------------


# the V-to-diagonal, diagonal-flip and pinwheel members (the stored records)
RECORDS = sorted(
    p
    for p in (ROOT / "instances" / "families" / "solutions").glob("*.json")
    if p.stem.startswith(("vdiag-", "diagonal-", "pinwheel-"))
)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_stored_records_say_what_is_proven(path):
    obj = json.loads(path.read_text())
    assert obj["length"] == len(obj["moves"])
    assert obj["proven"].startswith("optimal: ") == (obj["status"] == "optimal")
    if obj["status"] == "optimal" and obj["length"] == 0:
        assert obj["lower_bound"] == 0 and "the start is the goal" in obj["proven"]
    elif obj["status"] == "optimal":
        assert obj["lower_bound"] == obj["length"]
        assert f"no solution has <= {obj['length'] - 1} moves" in obj["proven"]
    else:
        assert obj["lower_bound"] < obj["length"] and "optimality is open" in obj["proven"]


def test_v43_nwse_is_optimal_95_with_its_certificate_named():
    obj = json.loads((ROOT / "instances/families/solutions/vdiag-4-3-nwse.json").read_text())
    assert (obj["status"], obj["length"], obj["lower_bound"]) == ("optimal", 95, 95)
    cert = obj["certificate"]
    assert cert["kind"] == "layers" and cert["scope"] == "global" and cert["claim"] == "no solution with <= 94 moves"
    # the table that records the checked certificate says the same
    proofs = (ROOT / "benchmarks" / "scale-proofs.md").read_text()
    row = next(line for line in proofs.splitlines() if line.startswith("| vdiag-4-3-nwse |"))
    assert "| 94 |" in row and "✓ no solution with <= 94 moves" in row


def test_families_readme_agrees_with_the_records():
    readme = (ROOT / "instances" / "families" / "README.md").read_text()
    for path in RECORDS:
        obj = json.loads(path.read_text())
        link = f"(solutions/{path.name})"
        for line in readme.splitlines():
            if link in line and "(optimal)" in line.split(link)[0][-40:]:
                assert obj["status"] == "optimal", path.name


# --- help and the README ---------------------------------------------------------------------------------


def _arguments(parser, prefix=()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _arguments(sub, (*prefix, name))
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            yield " ".join(prefix), action


def test_every_argument_has_help_text():
    missing = [f"{cmd} {a.option_strings or a.dest}" for cmd, a in _arguments(get_parser()) if not a.help]
    assert missing == []


def test_readme_command_list_and_benchmark_description():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Command line", 1)[1].split("```", 2)[1]
    for words in ("coinsat count FILE", "rankbfs", "slidesat", "coinsat decode FILE", "coinsat solve FILE"):
        assert words in block, words
    commands = {c for c, _ in _arguments(get_parser()) if c and " " not in c}
    for command in commands - {"family"}:
        assert f"coinsat {command} " in block, command
    assert "encodings/competition-description.md" in readme
    text = (ROOT / "encodings" / "competition-description.md").read_text(encoding="utf-8")
    rows = list(csv.DictReader((ROOT / "benchmarks" / "competition-manifest.csv").open()))
    assert f"The {len(rows)} files come from {len({r['instance'] for r in rows})} puzzles" in text


def test_the_description_gives_each_open_member_the_horizon_the_pack_writes():
    """The organisers' text names each open file by the horizon ``coinsat pack`` writes for it, its
    proven lower bound B, and the bracket B <= L <= the best length, all read from the stored records
    (the V(4,4) row once said T = 105 after a certified search had moved the bound to 109)."""
    from coinsat.pack import family_files, member

    text = " ".join((ROOT / "encodings" / "competition-description.md").read_text(encoding="utf-8").split())
    members = [member(p) for p in family_files("open", ROOT / "instances")]
    assert members and not any(m.optimal for m in members)
    for m in members:
        (t, answer), *_ = m.horizons()
        assert answer == "unknown" and t == m.lower_bound
        assert f"at T = {t} ({t} ≤ L ≤ {m.length}" in text, m.path.name


def test_the_competition_texts_agree_with_the_v_proof():
    """The paper's Θ(n³) for V to diagonal is a claim that docs/v-to-diagonal.md refutes (Θ(n²)): the
    texts for the organisers say so, as the README does, and none presents n³ as shown or proven."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## V to diagonal: Θ(n²), not Θ(n³)" in readme
    for name in ("competition-description.md", "competition.md"):
        text = (ROOT / "encodings" / name).read_text(encoding="utf-8")
        assert "Θ(n²)" in text and "docs/v-to-diagonal.md" in text, name
        sentences = re.split(r"(?<=[.;])\s", " ".join(text.split()))
        assert not [
            s for s in sentences if re.search(r"\b(shows|proves|proven)\b", s) and "n³" in s and "claim" not in s
        ], name


def test_the_readme_synopsis_names_every_option_of_construct_and_gallery():
    """The synopsis of the README's Command line lists each option these commands take (review round 4:
    construct's --algorithm was missing); their help is the parser's."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Command line", 1)[1].split("```", 2)[1]
    for command in ("construct", "gallery"):
        lines = [line for line in block.splitlines() if line.startswith(f"coinsat {command} ")]
        assert lines, command
        options = {a.option_strings[0] for cmd, a in _arguments(get_parser()) if cmd == command and a.option_strings}
        shown = {o for o in options if o in lines[0]}
        assert options - shown <= {"--time-limit", "--memory-limit"}, (command, options - shown)
