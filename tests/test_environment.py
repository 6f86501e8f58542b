"""coinsat/environment.py: the one module that reads ``COINSAT_*`` variables, and ``Kernels``."""

from __future__ import annotations

import re
from pathlib import Path

from coinsat.environment import Kernels, abc_path, check_kernel
from coinsat.search.options import RankbfsOptions

ROOT = Path(__file__).resolve().parents[1] / "coinsat"
#: a read of the environment: os.environ (get, [...], items), os.getenv, os.environb
READ = re.compile(r"\b(?:os\.)?(?:environb?|getenv)\b")


def readers() -> list[str]:
    """The modules of the package that read the environment and name a COINSAT_ variable."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        code = [line.split("#", 1)[0] for line in text.splitlines()]
        if any(READ.search(line) for line in code) and "COINSAT_" in text:
            found.append(str(path.relative_to(ROOT.parent)))
    return found


def test_coinsat_variables_are_read_in_one_module():
    assert readers() == ["coinsat/environment.py"]


def test_the_grep_sees_a_second_reader(tmp_path, monkeypatch):
    """The check can fail: a module reading COINSAT_X with os.environ.get is found."""
    import tests.test_environment as me

    (tmp_path / "coinsat").mkdir()
    (tmp_path / "coinsat" / "one.py").write_text('import os\nA = os.environ.get("COINSAT_X")\n')
    (tmp_path / "coinsat" / "two.py").write_text('"""COINSAT_X is named in a docstring only."""\n')
    monkeypatch.setattr(me, "ROOT", tmp_path / "coinsat")
    assert me.readers() == ["coinsat/one.py"]


def test_the_kernels_come_from_the_environment(monkeypatch):
    for name in ("COINSAT_KERNEL", "COINSAT_ROUTE", "COINSAT_MALLOC", "COINSAT_CHECK_KERNEL", "COINSAT_ABC"):
        monkeypatch.delenv(name, raising=False)
    assert Kernels.from_environment() == Kernels() == Kernels(compiled=True, memfd=True, keep_heap=True)
    assert RankbfsOptions().kernels == Kernels()
    assert (check_kernel(), abc_path()) == ("auto", None)
    monkeypatch.setenv("COINSAT_KERNEL", "numpy")
    monkeypatch.setenv("COINSAT_ROUTE", "pipes")
    monkeypatch.setenv("COINSAT_MALLOC", "default")
    monkeypatch.setenv("COINSAT_CHECK_KERNEL", "numba")
    monkeypatch.setenv("COINSAT_ABC", "/opt/abc")
    assert RankbfsOptions().kernels == Kernels(compiled=False, memfd=False, keep_heap=False)
    assert RankbfsOptions(kernels=Kernels()).kernels == Kernels()  # a caller's choice wins
    assert (check_kernel(), abc_path()) == ("numba", "/opt/abc")
    monkeypatch.setenv("COINSAT_CHECK_KERNEL", "fast")
    assert check_kernel() == "auto"
