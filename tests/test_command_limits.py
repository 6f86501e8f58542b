"""Every command with a limit stops at it (issue 28, "limits everywhere").

R3-2: ``certify --cubes 3 --time-limit 3`` printed its answer and then hung at exit (5 of 7
runs), an orphaned cube worker blocked on a pipe.  The regression runs it in its own
session, so that any process it leaves behind is found.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run_alone(argv: list[str], timeout: float) -> tuple[int, str, str, float, list[int]]:
    """Run ``coinsat argv`` in a new session; (exit code, stdout, stderr, wall seconds, pids
    of the session still alive after it exited)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(
        [sys.executable, "-m", "coinsat", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, err = p.communicate()
        pytest.fail(f"coinsat {' '.join(argv)} did not end within {timeout} s: {err[-500:]}")
    wall = time.perf_counter() - t0
    time.sleep(0.2)
    left = [pid for pid in _session(p.pid)]
    return p.returncode, out, err, wall, left


def _session(sid: int) -> list[int]:
    """Live processes of session ``sid`` (zombies excluded)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[3]) == sid and fields[0] != "Z":  # fields: state, ppid, pgrp, session
            found.append(int(entry))
    return found


def test_certify_cubes_exits_at_its_limit_and_reaps_every_worker(tmp_path):
    """R3-2 (the review's command; the issue asks 2 x limit + 1 s = 7 s; the bound here is
    generous for a loaded machine, the measured figures are in benchmarks/limits.md)."""
    pytest.importorskip("pysat")
    file = str(ROOT / "instances/families/vdiag-2-2-nwse.toml")
    code, out, err, wall, left = _run_alone(
        ["certify", file, "--cubes", "3", "--time-limit", "3", "-o", str(tmp_path / "cc")], timeout=60
    )
    assert code == 3, (code, out, err)
    assert "unknown" in out and "Traceback" not in err
    assert wall < 20, wall
    assert left == [], f"processes left behind: {left}"
