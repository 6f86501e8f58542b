"""CONTRIBUTING.md's "Deliberate repeats": every pair it names still exists (the files, and the
function or class in each), so the list of repeats kept on purpose cannot outlive the code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLACE = r"`(coinsat/[\w/]+\.py)::(\w+)`"
PAIR = re.compile(rf"^- {PLACE} ~ {PLACE}:", re.MULTILINE)


def _pairs() -> list[tuple[str, str, str, str]]:
    text = (ROOT / "CONTRIBUTING.md").read_text()
    section = text.split("## Deliberate repeats", 1)[1].split("\n## ", 1)[0]
    return PAIR.findall(section)


def _defines(path: Path, name: str) -> bool:
    tree = ast.parse(path.read_text())
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return any(isinstance(node, kinds) and node.name == name for node in ast.walk(tree))


def test_the_list_names_pairs():
    pairs = _pairs()
    assert len(pairs) >= 8
    assert len(set(pairs)) == len(pairs)


@pytest.mark.parametrize("path_a, name_a, path_b, name_b", _pairs())
def test_each_place_of_a_deliberate_pair_exists(path_a, name_a, path_b, name_b):
    for path, name in ((path_a, name_a), (path_b, name_b)):
        file = ROOT / path
        assert file.is_file(), f"{path} is named in CONTRIBUTING.md's deliberate repeats but does not exist"
        assert _defines(file, name), f"{path} no longer defines {name} (CONTRIBUTING.md's deliberate repeats)"


@pytest.mark.parametrize("path_a, name_a, path_b, name_b", _pairs())
def test_a_checker_repeat_pairs_the_checker_with_another_module(path_a, name_a, path_b, name_b):
    """A checker's re-implementation is one side in certificates/check/ and the other outside it."""
    if "certificates/check/" in path_a + path_b:
        assert path_a.startswith("coinsat/certificates/check/") != path_b.startswith("coinsat/certificates/check/")
