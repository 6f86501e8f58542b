"""A rankbfs worker killed mid-search gives one line and exit 4 (``errors.WorkerLost``, an
internal error), never a traceback, and the other workers are stopped and reaped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from coinsat.errors import InternalError, WorkerLost
from coinsat.families import vdiag
from coinsat.limits import Limits
from coinsat.search.rank.colex import U64
from coinsat.search.rank.processes import Pool
from coinsat.search.rank.visited import Storage

ROOT = Path(__file__).resolve().parent.parent


def test_a_killed_worker_is_a_worker_lost_error_and_the_others_are_reaped():
    pool = Pool(vdiag(2, 1, "nwse"), True, None, 2, Limits(), Storage())
    try:
        assert pool.ask([("in_layer", 1, 0)] * 2) == [False, False]
        victim = pool.procs[1]
        os.kill(victim.pid, signal.SIGKILL)
        victim.join(5)
        with pytest.raises(WorkerLost, match=r"worker 2 of 2 \(pid \d+\) was killed by signal 9"):
            pool.ask([("start", np.zeros(0, dtype=U64))] * 2)
        assert issubclass(WorkerLost, InternalError)  # exit code 4
    finally:
        pool.end()
    assert all(not p.is_alive() and p.exitcode is not None for p in pool.procs)


def test_an_error_inside_a_worker_is_told_to_the_parent_without_a_traceback(capfd):
    """A request that raises in a worker (here a malformed one) is a WorkerLost naming the error
    in the parent, not a traceback printed by the child; a limit there (a full disk while
    spilling) is a LimitReached, which the search reports as a limit."""
    from coinsat.errors import LimitReached
    from coinsat.search.rank import processes as partition

    pool = Pool(vdiag(2, 1, "nwse"), True, None, 2, Limits(), Storage())
    try:
        with pytest.raises(WorkerLost, match=r"worker 1 of 2 failed: TypeError"):
            pool.ask([("layer", "not a depth")] * 2)
    finally:
        pool.end()
    assert "Traceback" not in capfd.readouterr().err
    a, b = partition.mp.Pipe()
    b.send(partition._Failed(True, "LimitReached: disk limit (No space left on device)"))
    pool.conns = [a]
    with pytest.raises(LimitReached, match=r"^disk limit \(No space left on device\)$"):
        pool._recv(0)


def test_a_worker_killed_under_the_cli_is_one_line_and_exit_4():
    """The review's reproducer: `solve vdiag-3-2-nwse --method rankbfs --workers 2`, then
    SIGKILL to one worker (there after 8 s; here as soon as it exists: the search takes ~10 s)."""
    file = str(ROOT / "instances/families/vdiag-3-2-nwse.toml")
    cmd = [sys.executable, "-m", "coinsat", "solve", file, "--method", "rankbfs", "--workers", "2", "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0, workers = time.monotonic(), []
    try:
        while len(workers) < 2 and time.monotonic() - t0 < 60 and proc.poll() is None:
            workers = _children(proc.pid)
            time.sleep(0.01)
        assert len(workers) == 2, "the workers did not appear"
        victim = workers[0]
        os.kill(victim, signal.SIGKILL)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 4, (proc.returncode, out, err)
    assert "Traceback" not in err and out == ""
    assert err.strip().splitlines() == [err.strip()], err
    assert f"(pid {victim}) was killed by signal 9" in err
    for pid in workers:  # the other worker was stopped and reaped, not left behind
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def test_a_killed_cube_worker_is_one_line_and_exit_4(tmp_path):
    """The same for the cube workers of `certify --cubes` (a ProcessPoolExecutor: BrokenProcessPool
    was a traceback); nothing is certified and the other worker is reaped."""
    pytest.importorskip("pysat")
    file = str(ROOT / "instances/families/vdiag-2-2-nwse.toml")
    out_dir = tmp_path / "cc"
    cmd = [sys.executable, "-m", "coinsat", "certify", file, "--cubes", "3", "--workers", "2", "-o", str(out_dir)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0, workers = time.monotonic(), []
    try:
        while len(workers) < 2 and time.monotonic() - t0 < 60 and proc.poll() is None:
            workers = _children(proc.pid)
            time.sleep(0.01)
        assert len(workers) == 2, "the cube workers did not appear"
        os.kill(workers[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 4, (proc.returncode, out, err)
    assert "Traceback" not in err and err.strip() == (
        "coinsat: internal error: a cube worker ended without answering (killed?); nothing certified"
    )
    assert not out_dir.exists() or not any(out_dir.iterdir())
    for pid in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
