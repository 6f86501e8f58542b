"""The public API: one function per verb, exported from the package root with a typed result and
a numpydoc docstring that lists what it raises; every public exception exported; each verb called
once on a small puzzle (paper/diagonal, diagonal-4 for the census); and the commands calling
exactly these functions."""

from __future__ import annotations

import ast
import builtins
import inspect
import json
import re
import sys
from pathlib import Path

import pytest

import coinsat
from coinsat import errors

ROOT = Path(__file__).resolve().parent.parent

#: the verbs of the command line, each one public function
VERBS = (
    "solve certify check_certificate export decode construct improve count verify draw census write_certificate "
    "write_hardest"
).split()
#: exceptions a user never meets: caught inside the package where they are raised
PRIVATE_ERRORS = {"WindowTooSmall", "DecodeError"}

#: The public surface beyond ``coinsat.__all__``: these modules (and the modules of these packages)
#: are public, every name in them without a leading underscore.  They hold the model (lattices,
#: boards, configurations, the move rules, instances, solutions, results, budgets, errors), the
#: instance families, the theorems and bounds (``theory``), the paper's constructions
#: (``constructive``), the engines' options (``search.options``: their fields are the keyword
#: options of ``coinsat.solve``) and their registry (``search.methods``: ``ENGINES``, one
#: ``EngineSpec`` per method), the file formats (``io``: instances, solutions, DIMACS, AIGER,
#: BTOR2, PDDL, LP, pictures, the all-at-once writer), the formula builders (``encode``) and the
#: solver runners they feed (``backends``: one ``Outcome``), the independent certificate checkers
#: (``certificates.check``) and the builders of a chosen kind (five modules of
#: ``certificates.prove``: the screens, bounded DRAT certificates, cube-and-conquer, inductive
#: invariants, closed sets), the gallery's pages and stored answers (``gallery``), the census's
#: module (``census``: its record, certificate files and the span counts that check it) and the command
#: line run in-process (``cli.main``).  Everything else (the engines, the rest of
#: ``certificates.prove``: ``certify``'s plumbing, the ranked-search kernels) is internal, reached
#: through the verbs of ``coinsat.__all__``.  CONTRIBUTING.md lists the same, with why each is
#: public; ``tests/test_layering.py`` holds the laboratory (``lab/``, ``scripts/``) to this surface.
PUBLIC_MODULES = (
    "coinsat.errors",
    "coinsat.geometry",
    "coinsat.configuration",
    "coinsat.board",
    "coinsat.rules",
    "coinsat.instance",
    "coinsat.solution",
    "coinsat.result",
    "coinsat.limits",
    "coinsat.environment",
    "coinsat.families",
    "coinsat.theory",
    "coinsat.constructive",
    "coinsat.search.options",
    "coinsat.search.methods",
    "coinsat.search.heuristics",
    "coinsat.io",
    "coinsat.encode",
    "coinsat.backends",
    "coinsat.certificates.check",
    "coinsat.certificates.prove.screens",
    "coinsat.certificates.prove.bounded",
    "coinsat.certificates.prove.cubes",
    "coinsat.certificates.prove.inductive",
    "coinsat.certificates.prove.closed_set",
    "coinsat.gallery",
    "coinsat.census",
    "coinsat.cli",
    "coinsat.hwmcc",
    "coinsat.pack",
)


def public_modules() -> list[str]:
    """Every public module: those of PUBLIC_MODULES and the modules of its packages."""
    import pkgutil
    from importlib import import_module

    out = []
    for name in PUBLIC_MODULES:
        out.append(name)
        path = getattr(import_module(name), "__path__", None)
        out += [m.name for m in pkgutil.walk_packages(path, name + ".")] if path else []
    return out


@pytest.mark.parametrize("module", public_modules())
def test_every_public_module_and_what_it_defines_has_a_docstring(module):
    from importlib import import_module

    mod = import_module(module)
    assert (mod.__doc__ or "").strip(), f"{module} has no docstring"
    bare = [
        n
        for n, o in vars(mod).items()
        if not n.startswith("_")
        and (inspect.isfunction(o) or inspect.isclass(o))
        and o.__module__ == module
        and not inspect.getdoc(o)
    ]
    assert not bare, f"{module}: public names without a docstring: {bare}"


def _section(doc: str, title: str) -> str | None:
    """The text of a numpydoc section (a title over a line of dashes), None when there is none."""
    m = re.search(rf"^{title}\n-{{{len(title)}}}\n(.*?)(?=^\w[\w ]*\n-{{3,}}\n|\Z)", doc, re.M | re.S)
    return None if m is None else m.group(1)


def test_every_verb_and_every_public_exception_is_exported():
    missing = [n for n in VERBS if n not in coinsat.__all__ or not inspect.isfunction(getattr(coinsat, n))]
    assert not missing, missing
    public = {
        n
        for n, c in vars(errors).items()
        if inspect.isclass(c) and issubclass(c, Exception) and c.__module__ == errors.__name__
    }
    assert public - PRIVATE_ERRORS <= set(coinsat.__all__), public - PRIVATE_ERRORS - set(coinsat.__all__)
    assert all(hasattr(coinsat, n) for n in coinsat.__all__)


def test_dir_lists_the_public_api_only():
    """Review round 4 (newcomer, m7): ``dir(coinsat)`` showed ``annotations``, ``sys`` and ``Path``."""
    assert dir(coinsat) == sorted(coinsat.__all__)
    assert "Census" in dir(coinsat) and "annotations" not in dir(coinsat)


@pytest.mark.parametrize("name", [n for n in coinsat.__all__ if inspect.isfunction(getattr(coinsat, n))])
def test_every_public_function_says_what_it_takes_returns_and_raises(name):
    """networkx's style: Parameters, Returns and Raises sections; each raised name is an exception
    a caller can catch (exported by coinsat, or a built-in one)."""
    fn = getattr(coinsat, name)
    doc = inspect.getdoc(fn) or ""
    sig = inspect.signature(fn)
    assert sig.return_annotation is not inspect.Signature.empty, f"coinsat.{name} has no return type"
    params = _section(doc, "Parameters")
    assert params is not None and _section(doc, "Returns") is not None, f"coinsat.{name}"
    documented = {
        w.strip().lstrip("*")
        for line in params.splitlines()
        if line and not line[0].isspace()
        for w in line.split(" : ")[0].split(",")
    }
    taken = {p for p in sig.parameters}
    assert taken <= documented, f"coinsat.{name}: parameters without a line: {taken - documented}"
    raises = _section(doc, "Raises")
    assert raises, f"coinsat.{name} has no Raises section"
    names = [line.strip() for line in raises.splitlines() if line and not line[0].isspace()]
    assert names, f"coinsat.{name}: an empty Raises section"
    for exc in names:
        cls = getattr(coinsat, exc, None) or getattr(builtins, exc, None)
        assert inspect.isclass(cls) and issubclass(cls, BaseException), f"coinsat.{name} raises {exc}?"


def test_the_docstring_checks_can_fail():
    assert _section("Parameters\n----------\nx : int\n    y\n", "Raises") is None
    assert _section("Raises\n------\nUsageError\n    when\n\nExamples\n--------\n>>> 1\n", "Raises") == (
        "UsageError\n    when\n\n"
    )


def test_public_exceptions_are_caught_by_their_exported_class():
    with pytest.raises(coinsat.UsageError, match="unknown method"):
        coinsat.solve(coinsat.load("paper/h-to-o"), "no-such-method")
    with pytest.raises(coinsat.InstanceError):
        coinsat.load("no/such/puzzle.toml")
    assert issubclass(coinsat.MissingDependency, coinsat.UsageError)
    assert issubclass(coinsat.VerificationError, coinsat.InternalError)


@pytest.fixture(scope="module")
def diagonal():
    return coinsat.load("paper/diagonal")


def test_solve_and_verify(diagonal):
    result = coinsat.solve(diagonal)
    assert isinstance(result, coinsat.Result) and result.status is coinsat.Status.OPTIMAL
    assert result.length == 18 and result.certificate is None  # no certificate unless asked
    verdict = coinsat.verify(diagonal, result.solution)
    assert isinstance(verdict, coinsat.Verdict) and verdict.ok


def test_solve_with_certify_returns_the_checked_certificate(diagonal, tmp_path):
    result = coinsat.solve(diagonal, certify=tmp_path)
    assert result.status is coinsat.Status.OPTIMAL and result.length == 18
    cert = result.certificate
    assert isinstance(cert, coinsat.Evidence)
    assert cert["claim"] == "optimal: 18 moves (no solution with <= 17 moves)" and cert.scope is coinsat.Scope.HORIZON
    written = json.loads(Path(cert["file"]).read_text())
    assert Path(cert["file"]).parent == tmp_path and written["kind"] == cert.kind
    check = coinsat.check_certificate(diagonal, cert["file"])
    assert isinstance(check, coinsat.Check) and check.ok and check.claim == cert["claim"]


def test_certify_and_check_certificate(diagonal, tmp_path):
    done = coinsat.certify(diagonal, tmp_path)
    assert isinstance(done, coinsat.Certification) and done.accepted is True
    assert done.result.status is coinsat.Status.OPTIMAL and done.path is not None and done.path.exists()
    assert done.summary()["claim"] == done.check.claim
    # the checker reads the file again, independently; a forged claim is rejected, not raised
    forged = json.loads(done.path.read_text())
    forged["claim"] = "unsolvable"
    bad = tmp_path / "forged.certificate.json"
    bad.write_text(json.dumps(forged))
    verdict = coinsat.check_certificate(diagonal, bad)
    assert isinstance(verdict, coinsat.Check) and not verdict.ok
    (tmp_path / "junk.json").write_text("{not json")
    assert "malformed JSON" in coinsat.check_certificate(diagonal, tmp_path / "junk.json").reason


def test_an_unknown_answer_certifies_nothing():
    from coinsat.result import Result, Status

    with pytest.raises(coinsat.UsageError, match="nothing to certify"):
        coinsat.certify(coinsat.load("paper/h-to-o"), ".", result=Result(status=Status.UNKNOWN, method="x"))


def test_export_then_decode_an_outside_solvers_model(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    puzzle = coinsat.load("paper/h-to-o")
    out = coinsat.export(puzzle, "cnf", 4, output=tmp_path / "h.cnf")
    assert isinstance(out, coinsat.Export) and out.files == (tmp_path / "h.cnf",)
    assert (tmp_path / "h.cnf").read_text() == out.data
    with Solver(bootstrap_with=CNF(from_string=out.data).clauses) as s:
        assert s.solve()
        (tmp_path / "model.txt").write_text("s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n")
    decoded = coinsat.decode(puzzle, tmp_path / "h.cnf", tmp_path / "model.txt")
    assert isinstance(decoded, coinsat.Result) and decoded.status is coinsat.Status.FEASIBLE
    assert decoded.length is not None and decoded.length <= 4 and coinsat.verify(puzzle, decoded.solution).ok
    with pytest.raises(coinsat.UsageError, match="does not take them"):
        coinsat.export(puzzle, "pddl", encoding=["commute=0"])


def test_decode_refuses_a_model_of_an_unsatisfiable_horizon(tmp_path):
    puzzle = coinsat.load("paper/h-to-o")
    coinsat.export(puzzle, "cnf", 3, output=tmp_path / "h3.cnf")
    (tmp_path / "m.txt").write_text("s UNSATISFIABLE\n")
    with pytest.raises(coinsat.InstanceError, match="UNSATISFIABLE"):
        coinsat.decode(puzzle, tmp_path / "h3.cnf", tmp_path / "m.txt")


def test_construct_then_improve(diagonal):
    built = coinsat.construct(diagonal)
    assert isinstance(built, coinsat.Construction) and built.result.status is coinsat.Status.FEASIBLE
    assert coinsat.verify(built.instance, built.result.solution).ok
    better = coinsat.improve(built.instance, built.result.solution, time_limit=60)
    assert isinstance(better, coinsat.Result) and better.solution is not None
    assert better.length <= built.result.length and coinsat.verify(built.instance, better.solution).ok
    assert better.lower_bound <= 18 <= better.length  # 18 is the optimum (the census below proves it too)


def test_improve_refuses_an_illegal_solution(diagonal):
    with pytest.raises(coinsat.IllegalMoveError):
        coinsat.improve(diagonal, coinsat.Solution(((0, 0),)))


def test_count_and_draw(diagonal, tmp_path):
    counted = coinsat.count(diagonal)
    assert isinstance(counted, coinsat.Count) and counted.length == 18 and counted.sequences > 0
    picture = coinsat.draw(diagonal, output=tmp_path / "d.svg")
    assert isinstance(picture, coinsat.Drawing) and (tmp_path / "d.svg").read_text() == picture.data


def test_census_its_certificate_and_its_hardest_starts(tmp_path):
    pytest.importorskip("numba")
    puzzle = coinsat.load(str(ROOT / "instances" / "families" / "diagonal-4.toml"))
    result = coinsat.census(puzzle)
    assert isinstance(result, coinsat.Census)
    assert sum(result.layer_sizes) == result.reachable and result.max_distance == len(result.layer_sizes) - 1
    folder = coinsat.write_certificate(result, tmp_path / "census")
    check = coinsat.check_certificate(puzzle, folder)
    assert check.ok, check.reason
    files = coinsat.write_hardest(result, tmp_path / "hardest")
    assert len(files) == len(result.hardest) >= 1
    hardest = coinsat.load(files[0])
    answer = json.loads((files[0].parent / "solutions" / f"{files[0].stem}.json").read_text())
    assert answer["length"] == result.max_distance
    assert coinsat.solve(hardest).length == result.max_distance


#: command module -> (library module, function) it must call: the command line is a thin layer
COMMANDS = {
    "solve": ("solve", "solve"),
    "certify": ("certify", "certify"),
    "check_certificate": ("certify", "check_certificate"),
    "export": ("export", "export_puzzle"),
    "decode": ("export", "decode"),
    "construct": ("constructive", "construct"),
    "improve": ("improve", "improve"),
    "count": ("count", "count"),
    "verify": ("solution", "verify"),
    "census": ("census", "census"),
}


def _imported(source: str) -> set[tuple[str, str]]:
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
            out |= {(node.module, a.name) for a in node.names}
    return out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_calls_the_library_function_the_package_exports(command):
    module, function = COMMANDS[command]
    source = (ROOT / "coinsat" / "commands" / f"{command}.py").read_text()
    assert (module, function) in _imported(source), f"coinsat {command} does not call coinsat.{module}.{function}"
    library = getattr(sys.modules[f"coinsat.{module}"], function)
    public = getattr(coinsat, {"export_puzzle": "export"}.get(function, function))
    # the package root exports that same function, or (solve, census: see __init__) wraps it
    assert public is library or library.__name__ in inspect.getsource(public), command


def test_the_command_test_sees_a_command_that_does_the_work_itself():
    assert ("export", "decode") not in _imported("from ..io.dimacs import decode_symbols\n")
    assert ("export", "decode") in _imported("def run(a):\n    from ..export import decode\n")


def test_importing_the_package_leaves_the_census_and_numpy_unloaded():
    """Every command imports the package; the census (numpy) loads when it is first used.
    (Measured when this was written: ``import coinsat.cli`` took 0.10 CPU s, the median of 7 runs.)"""
    import subprocess

    code = "import sys, coinsat; print('coinsat.census' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.split() == ["False", "False"]
    assert inspect.isfunction(coinsat.census) and coinsat.Census.__name__ == "Census"
