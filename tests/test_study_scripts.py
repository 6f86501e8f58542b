"""The improve and growth study scripts: what their tables say about where each row comes from."""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _row(name: str, improved: int, run: str) -> dict:
    return {
        "name": name,
        "n": 10,
        "construct": 585,
        "improved": improved,
        "status": "feasible",
        "lower_bound": 54,
        "verified": True,
        "improve_seconds": 1.0,
        "improve_cpu": 1.0,
        "optimum": 73,
        "source": "test",
        "run": run,
    }


def test_a_rerun_member_replaces_its_merged_row_and_says_which_run(tmp_path):
    table = _load("improve_table")
    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps(_row("vdiag-3-3-swne", 194, "")) + "\n" + json.dumps(_row("diagonal-3", 5, "")) + "\n")
    out = tmp_path / "t.md"
    assert table.main(["--members", "none", "--rows-from", str(old), "--out", str(out)]) == 0
    text = out.read_text()
    assert text.count("| vdiag-3-3-swne |") == 1 and "| old.jsonl |" in text
    assert text.index("| vdiag-3-3-swne |") < text.index("| diagonal-3 |")  # the instances' order
    new = tmp_path / "new.jsonl"
    new.write_text(json.dumps(_row("vdiag-3-3-swne", 75, "this run (HEAD x)")) + "\n")
    assert table.main(["--members", "none", "--rows-from", f"{old},{new}", "--out", str(out)]) == 0
    rows = [line for line in out.read_text().splitlines() if line.startswith("| vdiag-3-3-swne |")]
    assert len(rows) == 1 and "| 75 |" in rows[0] and "| yes | new.jsonl (HEAD x) |" in rows[0]


def test_the_growth_header_prints_the_note_once():
    growth = _load("vfamily_growth")
    argv = ["--targets", "swne", "--note", "a sentence", "--improve-time", "10"]
    assert growth.without_note(argv) == ["--targets", "swne", "--improve-time", "10"]
    args = argparse.Namespace(note="a sentence", table_only=True)
    row = {
        "a": 1,
        "b": 1,
        "target": "swne",
        "n": 6,
        "construct": 56,
        "improved": 13,
        "static_bound": 9,
        "improve_time": 10,
    }
    text = growth.table({"vdiag-1-1-swne": row}, args, 0.0, 0.0)
    assert text.count("a sentence") == 1 and "| V(1,1) | swne | 6 | 56 |" in text
