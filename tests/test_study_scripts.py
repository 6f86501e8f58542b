"""The improve and growth study scripts' command lines: what their tables say about where each row
comes from.  Both run as a user runs them (a subprocess), from rows already measured, so no engine
runs here; the table is written into a temporary folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def _script(name: str, *args: str) -> None:
    p = subprocess.run([sys.executable, str(SCRIPTS / f"{name}.py"), *args], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


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
    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps(_row("vdiag-3-3-swne", 194, "")) + "\n" + json.dumps(_row("diagonal-3", 5, "")) + "\n")
    out = tmp_path / "t.md"
    _script("improve_table", "--members", "none", "--rows-from", str(old), "--out", str(out))
    text = out.read_text()
    assert text.count("| vdiag-3-3-swne |") == 1 and "| old.jsonl |" in text
    assert text.index("| vdiag-3-3-swne |") < text.index("| diagonal-3 |")  # the instances' order
    assert str(tmp_path) not in text  # the table names the log, not this machine's folder
    new = tmp_path / "new.jsonl"
    new.write_text(json.dumps(_row("vdiag-3-3-swne", 75, "this run (HEAD x)")) + "\n")
    _script("improve_table", "--members", "none", "--rows-from", f"{old},{new}", "--out", str(out))
    rows = [line for line in out.read_text().splitlines() if line.startswith("| vdiag-3-3-swne |")]
    assert len(rows) == 1 and "| 75 |" in rows[0] and "| yes | new.jsonl (HEAD x) |" in rows[0]


def test_the_growth_header_prints_the_note_once(tmp_path):
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
    results, out = tmp_path / "growth.json", tmp_path / "growth.md"
    results.write_text(json.dumps({"vdiag-1-1-swne": row}))
    argv = ["--table-only", "--results", str(results), "--out", str(out), "--note", "a sentence"]
    _script("vfamily_growth", *argv, "--targets", "swne")
    text = out.read_text()
    assert text.count("a sentence") == 1 and "| V(1,1) | swne | 6 | 56 |" in text
    assert "--targets swne" in text and str(tmp_path) not in text


def test_a_table_names_files_without_this_machines_folders(tmp_path):
    from lab.commandline import portable, shown

    root = SCRIPTS.parent
    assert portable(str(root / "benchmarks" / "x.md"), root) == "benchmarks/x.md"
    assert portable(f"--out={tmp_path}/t.md", root) == "--out=t.md"
    assert portable(f"{tmp_path}/a.jsonl,{tmp_path}/b.jsonl", root) == "a.jsonl,b.jsonl"
    assert portable("--seed", root) == "--seed" and portable("3", root) == "3"
    said = shown("scripts/x.py", ["--note", "two words", "--out", str(tmp_path / "t.md")], root)
    assert said == "python3 scripts/x.py --note 'two words' --out t.md"
