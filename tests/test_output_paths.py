"""An output path is resolved before the first write, and one that reaches an input is
refused (exit 2), whatever its spelling: ``nodir/../input`` (``nodir`` missing: the writer
creates it, then writes through ``..``), a symlink, a hard link.  The review overwrote the
instance with ``solve -o``, ``construct -o``, ``show -o`` and ``improve --checkpoint``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from coinsat.cli import main
from coinsat.commands.common import resolved

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = (ROOT / "instances/paper/h-to-o.toml").read_text()


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder with the puzzle ``a.toml`` and its solution ``sol.json``, as the working directory."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.toml").write_text(PUZZLE)
    assert main(["solve", "a.toml", "--json", "-o", "sol.json"]) == 0
    return tmp_path


def _refused(argv: list[str], folder: Path, capsys, victim: str) -> None:
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    capsys.readouterr()
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "refusing to overwrite" in err and victim in err and "Traceback" not in err
    after = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    assert after == before  # the inputs untouched, nothing written
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == []  # no 'nodir' created


@pytest.mark.parametrize(
    "argv, victim",
    [
        (["solve", "a.toml", "-o", "nodir/../a.toml"], "a.toml"),
        (["solve", "a.toml", "--json", "-o", "n1/n2/../../a.toml"], "a.toml"),
        (["construct", "a.toml", "-o", "zz/../a.toml"], "a.toml"),
        (["show", "a.toml", "sol.json", "-o", "q/../a.toml"], "a.toml"),
        (["show", "a.toml", "sol.json", "--format", "svg", "-o", "q/../sol.json"], "sol.json"),
        (["improve", "a.toml", "sol.json", "--checkpoint", "nod/../a.toml"], "a.toml"),
        (["improve", "a.toml", "sol.json", "-o", "nod/../sol.json"], "sol.json"),
        (["export", "a.toml", "--format", "cnf", "--horizon", "2", "-o", "q/../a.toml"], "a.toml"),
    ],
    ids=["solve", "solve-deep", "construct", "show", "show-solution", "improve-checkpoint", "improve-o", "export"],
)
def test_a_path_through_a_missing_directory_to_an_input_is_refused(folder, capsys, argv, victim):
    _refused(argv, folder, capsys, victim)


def test_an_absolute_spelling_and_a_hard_link_are_refused(folder, capsys):
    _refused(["solve", "a.toml", "-o", str(folder / "x" / ".." / "a.toml")], folder, capsys, "a.toml")
    os.link(folder / "a.toml", folder / "hard.toml")
    _refused(["solve", "a.toml", "-o", "nodir/../hard.toml"], folder, capsys, "a.toml")


def test_a_symlinked_directory_is_followed_before_its_dotdot(folder, capsys, tmp_path_factory):
    """``link/../a.toml`` with ``link`` -> elsewhere/sub reaches elsewhere/a.toml, not the input
    (the kernel resolves the link before ``..``): allowed, and written there."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "sub").mkdir()
    (folder / "link").symlink_to(elsewhere / "sub")
    assert resolved("link/../a.toml") == elsewhere.resolve() / "a.toml"
    assert main(["solve", "a.toml", "--json", "-o", "link/../a.toml"]) == 0
    assert (folder / "a.toml").read_text() == PUZZLE
    assert '"status": "optimal"' in (elsewhere / "a.toml").read_text()
    # and a symlinked directory whose '..' is the input's folder is refused
    (folder / "inner").mkdir()
    (folder / "back").symlink_to(folder / "inner")
    capsys.readouterr()
    assert main(["solve", "a.toml", "-o", "back/../a.toml"]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err


def test_a_new_file_beside_the_input_is_still_written(folder):
    assert main(["solve", "a.toml", "--json", "-o", "nodir/../b.json"]) == 0
    assert (folder / "b.json").exists() and (folder / "a.toml").read_text() == PUZZLE
