"""The newcomer's path works: the tutorial script runs, and the public API's doctests pass."""

from __future__ import annotations

import doctest
import inspect
import runpy
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import coinsat

ROOT = Path(__file__).resolve().parent.parent


def test_the_tutorial_runs_and_writes_its_pictures(tmp_path, capsys):
    pytest.importorskip("PIL")
    tutorial = runpy.run_path(str(ROOT / "examples" / "tutorial.py"))
    assert tutorial["main"](tmp_path) == 0
    out = capsys.readouterr().out
    assert "solve: optimal" in out and "verify: ok" in out
    for name in ("start-goal.svg", "steps.svg", "animated.svg", "animated.gif", "steps.html"):
        assert (tmp_path / name).stat().st_size > 0
    ET.parse(tmp_path / "animated.svg")  # well-formed


def test_the_public_api_examples_hold(monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples read instances/ as a newcomer would, from the repository
    failures, tried = doctest.testmod(coinsat, verbose=False, raise_on_error=False)
    assert tried >= 10 and failures == 0


def test_the_public_names_stay_functions_after_their_modules_are_imported():
    import coinsat.census  # noqa: F401
    import coinsat.certify  # noqa: F401
    import coinsat.count  # noqa: F401
    import coinsat.draw.svg  # noqa: F401
    import coinsat.export  # noqa: F401
    import coinsat.improve  # noqa: F401
    import coinsat.solve  # noqa: F401

    names = ("census", "certify", "count", "draw", "export", "improve", "solve", "load")
    assert all(inspect.isfunction(getattr(coinsat, n)) for n in names)


def test_the_examples_of_the_exported_functions_hold(monkeypatch):
    """The functions the root re-exports from their own modules (count, ...) keep their examples."""
    monkeypatch.chdir(ROOT)
    modules = {inspect.getmodule(getattr(coinsat, n)) for n in coinsat.__all__}
    tried = 0
    for module in sorted((m for m in modules if m is not None and m is not coinsat), key=lambda m: m.__name__):
        finder = doctest.DocTestFinder()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        for name in coinsat.__all__:
            obj = getattr(coinsat, name)
            if inspect.getmodule(obj) is module and (inspect.isfunction(obj) or inspect.isclass(obj)):
                for test in finder.find(obj, name, module=module):
                    runner.run(test)
        result = runner.summarize(verbose=False)
        assert result.failed == 0, module.__name__
        tried += result.attempted
    assert tried >= 3
