"""Messages that say what happened: ``certify --cubes`` (or ``--core-only``) says when the answer's
certificate does not use them, ``check-certificate --workers`` says the same for 0 and for a
negative number, and ``count``'s human output has no bare number line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coinsat.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_certify_cubes_on_an_answer_that_does_not_use_them_says_so(tmp_path, capsys):
    """The review's command: auto picks spanbfs, the answer is 'bounded' and gets a layers
    certificate; --cubes 2 was silently ignored."""
    file = str(ROOT / "instances/families/vdiag-2-1-nwse.toml")
    argv = ["certify", file, "--cubes", "2", "--max-moves", "10", "-o", str(tmp_path / "c")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "note: --cubes 2 not used: the answer is bounded, certified by a layers certificate" in out
    assert main([*argv, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["accepted"] is True and got["note"].startswith("--cubes 2 not used")
    # without --cubes: no note
    assert main(["certify", file, "--max-moves", "10", "-o", str(tmp_path / "d"), "--json"]) == 0
    assert "note" not in json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("workers", ["0", "-1"])
def test_check_certificate_workers_below_one_is_one_message(workers, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["check-certificate", "x.toml", str(tmp_path / "c.json"), "--workers", workers])
    assert e.value.code == 2
    assert f"--workers: must be >= 1, not {workers}" in capsys.readouterr().err


def test_count_prints_no_bare_number_line(capsys):
    assert main(["count", str(ROOT / "instances/paper/h-to-o.toml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and not any(line.strip().isdigit() for line in lines)
    assert "180 optimal move sequences of 4 moves" in lines[0]
