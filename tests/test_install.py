"""The installs (pyproject.toml, README, LICENSE): what a user install gets, what an optional
package adds, and the one-line error when it is missing (exit 2, the extra named, nothing written).

A missing package is simulated with ``sys.modules[name] = None``, which makes ``import name``
fail as it does when the package is not installed.  The clean-venv install itself (build the
wheel, install it without extras, run the main job) is a step of ``.ci/run``.
"""

from __future__ import annotations

import json
import re
import sys

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib
from pathlib import Path

import pytest

import coinsat
from coinsat.cli import main

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def missing(monkeypatch, *modules):
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def one_line_naming(err: str, extra: str) -> bool:
    lines = err.strip().splitlines()
    return len(lines) == 1 and f"coinsat[{extra}]" in lines[0] and "Traceback" not in err


# --- missing optional packages ------------------------------------------------------------------


def test_ilp_without_pulp_is_one_line_naming_the_extra(capsys, monkeypatch, tmp_path):
    missing(monkeypatch, "pulp")
    out = tmp_path / "r.json"
    code, _, err = run(capsys, "solve", "instances/paper/h-to-o.toml", "--method", "ilp", "--json", "-o", str(out))
    assert code == 2 and one_line_naming(err, "ilp"), err
    assert "pulp" in err and not out.exists()


@pytest.mark.parametrize("fmt", ["lp", "mps"])
def test_lp_export_without_pulp(capsys, monkeypatch, tmp_path, fmt):
    missing(monkeypatch, "pulp")
    out = tmp_path / f"m.{fmt}"
    code, _, err = run(
        capsys, "export", "instances/paper/h-to-o.toml", "--horizon", "4", "--format", fmt, "-o", str(out)
    )
    assert code == 2 and one_line_naming(err, "ilp"), err
    assert not out.exists()


def test_cnf_export_needs_no_optional_package(capsys, monkeypatch, tmp_path):
    missing(monkeypatch, "pulp", "gbdc", "dratify", "cdclkit")
    out = tmp_path / "f.cnf"
    code, _, err = run(
        capsys, "export", "instances/paper/h-to-o.toml", "--horizon", "4", "--format", "cnf", "-o", str(out)
    )
    assert code == 0, err
    assert out.read_text().startswith("c")


def test_highs_without_highspy(monkeypatch):
    from coinsat.backends.ilp_backend import make_solver
    from coinsat.errors import MissingDependency

    pytest.importorskip("pulp")
    import pulp

    monkeypatch.setattr(pulp.HiGHS, "available", lambda self: False)
    with pytest.raises(MissingDependency, match=r"coinsat\[ilp\]"):
        make_solver("highs")


def test_certify_sat_without_dratify(capsys, monkeypatch, tmp_path):
    missing(monkeypatch, "dratify")
    out = tmp_path / "cert"
    code, _, err = run(capsys, "certify", "instances/paper/h-to-o.toml", "--method", "sat", "-o", str(out))
    assert code == 2 and one_line_naming(err, "certify"), err
    assert not out.exists() or not any(out.iterdir())


def test_certify_without_gbdc_uses_the_builtin_hash(capsys, monkeypatch, tmp_path):
    """The GBD hash falls back to coinsat.io.dimacs.gbd_hash (test_export checks it against gbdc)."""
    pytest.importorskip("dratify")
    missing(monkeypatch, "gbdc")
    out = tmp_path / "cert"
    code, stdout, err = run(
        capsys, "certify", "instances/paper/h-to-o.toml", "--method", "sat", "-o", str(out), "--json"
    )
    assert code == 0, err
    cert = json.loads((out / "h-to-o.certificate.json").read_text())
    from coinsat.io.dimacs import gbd_hash

    assert cert["cnf_gbd_hash"] == gbd_hash((out / cert["cnf"]).read_text())


def test_check_certificate_bounded_without_dratify(capsys, monkeypatch, tmp_path):
    pytest.importorskip("dratify")
    out = tmp_path / "cert"
    assert run(capsys, "certify", "instances/paper/h-to-o.toml", "--method", "sat", "-o", str(out))[0] == 0
    missing(monkeypatch, "dratify")
    cert = out / "h-to-o.certificate.json"
    code, _, err = run(capsys, "check-certificate", "instances/paper/h-to-o.toml", str(cert))
    assert code == 2 and one_line_naming(err, "certify"), err


def test_cluster_without_mpi4py(capsys, monkeypatch):
    missing(monkeypatch, "mpi4py")
    code, _, err = run(capsys, "solve", "instances/paper/h-to-o.toml", "--method", "rankbfs", "--cluster")
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


# --- the package metadata -------------------------------------------------------------------------


def test_user_install_has_progress_and_pictures():
    deps = " ".join(PYPROJECT["project"]["dependencies"])
    for name in ("python-sat", "numpy", "rich", "pillow"):
        assert name in deps


def _names(requirements) -> set[str]:
    return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_extras_are_built_from_each_other():
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert extras["all"] == ["coinsat[ilp,certify,fast,cluster]"]
    assert extras["dev"] == ["coinsat[all,test,lint,lab]"]
    # no package is listed twice across the building blocks (a copy could drift)
    blocks = ["ilp", "certify", "fast", "cluster", "test", "lint", "lab"]
    seen: set[str] = set()
    for block in blocks:
        names = _names(extras[block])
        assert not names & seen, (block, names & seen)
        seen |= names
    assert not _names(PYPROJECT["project"]["dependencies"]) & seen


def test_the_wheel_packages_the_library_alone():
    """The packages setuptools puts in the wheel (pyproject's find rule, as the build reads it):
    coinsat and its subpackages, no laboratory (lab/, the old coinsat/study/), scripts or tests.
    (.ci/run checks the built wheel's file list too.)"""
    from setuptools import find_packages

    rule = PYPROJECT["tool"]["setuptools"]["packages"]["find"]
    packages = find_packages(where=str(ROOT), include=rule["include"], exclude=rule.get("exclude", ()))
    assert "coinsat" in packages and "coinsat.search.rank" in packages
    lab = [p for p in packages if set(p.split(".")) & {"lab", "study", "scripts", "tests"}]
    assert lab == []


def test_no_open_prerelease_floor():
    """Every pin is a release; python-sat's releases are all numbered .devN, so its floor names one
    exact release (the one the suite runs against) and caps the major version."""
    for req in PYPROJECT["project"]["dependencies"] + sum(PYPROJECT["project"]["optional-dependencies"].values(), []):
        if ".dev" in req:
            assert req.startswith("python-sat>=") and ",<" in req and ".dev0" not in req, req


def test_license_is_mit_in_both_places():
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY" in text


def test_the_citation_file_names_this_version_and_license():
    """Review round 4 (newcomer, section 6): a CITATION.cff, which must not drift from the package."""
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    fields = dict(re.findall(r"^([a-z-]+): *(.+)$", cff, re.MULTILINE))
    assert fields["cff-version"] == "1.2.0" and fields["type"] == "software"
    assert fields["version"] == PYPROJECT["project"]["version"] == coinsat.__version__
    assert fields["license"] == PYPROJECT["project"]["license"]["text"]


# --- self-contained ---------------------------------------------------------------------------------


def test_no_tracked_file_cites_the_shared_folder():
    """Nothing in the repository cites the project's working folder outside it (its facts are
    copied in: instances/paper/REFERENCE.md)."""
    import subprocess

    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    needle = ("shared" + "/").encode()  # spelled apart so this file does not cite it
    citing = [
        name
        for name in listed.decode().split("\0")
        if name and (ROOT / name).is_file() and needle in (ROOT / name).read_bytes()
    ]
    assert citing == []


def test_paper_puzzles_ship_with_their_reference():
    from coinsat import load
    from coinsat.io.instance_format import DATA, shipped

    names = shipped()
    assert "paper/diagonal" in names and len(names) == len(list((ROOT / "instances" / "paper").glob("*.toml")))
    assert (DATA / "paper" / "REFERENCE.md").is_file() and (DATA / "paper" / "reference.json").is_file()
    assert load("paper/diagonal") == load("instances/paper/diagonal.toml") == load("paper/diagonal.toml")
    reference = json.loads((DATA / "paper" / "reference.json").read_text(encoding="utf-8"))
    diagonal = next(r for r in reference["instances"] if r["id"] == "diagonal")
    puzzle = load("paper/diagonal")
    cells = {puzzle.board.coords[c] for c in puzzle.start.cells}
    assert cells == {tuple(p) for p in diagonal["start"]}


def test_a_shipped_name_on_the_command_line(capsys):
    code, out, _ = run(capsys, "solve", "paper/h-to-o", "--json")
    assert code == 0 and json.loads(out)["length"] == 4
    code, _, err = run(capsys, "solve", "paper/no-such-puzzle")
    assert code == 2 and "paper/no-such-puzzle: no such file (shipped puzzles: paper/diagonal" in err


def test_the_quick_start_makes_a_venv_and_ci_runs_what_it_says():
    """Review round 4 (M2): Debian refuses ``pip install .`` outside a virtual environment, and an
    environment that is not activated has no ``coinsat`` on the PATH.  The quick start makes and
    activates one, then keeps its two commands; .ci/run installs the wheel into a clean one and runs
    the user commands the README names (the main job, the gallery)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0].strip().splitlines()
    assert block[0].startswith("python3 -m venv .venv") and ". .venv/bin/activate" in block[0]
    assert block[1:] == [
        "python3 -m pip install . && coinsat solve paper/diagonal",
        "python3 -m pip install -e '.[dev]' && python3 -m pytest -q",
    ]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'python3 -m venv "$tmp/venv"' in ci
    for command in ("coinsat solve paper/diagonal", "coinsat gallery site"):
        assert f"venv/bin/{command}" in ci, command
    assert "`coinsat gallery site`" in readme
