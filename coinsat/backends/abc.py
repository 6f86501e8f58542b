"""Run Berkeley ABC (the ``berkeley-abc`` binary) on a binary AIGER file.  Knows nothing about coins.

:func:`run_abc` writes the circuit to a scratch folder, runs ``read_aiger`` and the given
commands there, and returns ABC's printed output and the files the commands wrote
(counterexamples, invariants).  Limits hold from outside: ABC runs in its own process,
which is killed when the time limit passes or its resident memory passes the memory limit
(read from ``/proc/<pid>/statm`` every ``POLL`` seconds); the run then reports
``stopped`` and its output is not to be trusted for an answer.  Ctrl-C kills ABC too, and
on Linux ABC gets SIGKILL when coinsat dies by a signal (``prctl(PR_SET_PDEATHSIG)``).

The binary is ``berkeley-abc`` on the PATH (Debian's package of that name), or the file
named by the environment variable ``COINSAT_ABC``.  A missing binary is a
:class:`~coinsat.errors.UsageError` naming the package (exit 2).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..environment import abc_path
from ..errors import UsageError
from ..limits import rss_bytes

BINARY = "berkeley-abc"
PACKAGE_HINT = "ABC is not installed: install the package berkeley-abc (apt-get install berkeley-abc)"
#: seconds between two looks at ABC's clock and memory
POLL = 0.05


def abc_binary() -> str | None:
    """The ABC executable to run (None: there is none)."""
    env = abc_path()
    if env:
        return env if os.access(env, os.X_OK) else None
    return shutil.which(BINARY)


def require_abc() -> str:
    """The path of the ABC binary (UsageError with the install hint when it is missing)."""
    path = abc_binary()
    if path is None:
        raise UsageError(PACKAGE_HINT)
    return path


@dataclass(frozen=True)
class AbcRun:
    output: str  # what ABC printed (stdout and stderr)
    files: dict[str, str] = field(default_factory=dict)  # name -> text of each wanted file that exists
    seconds: float = 0.0
    stopped: str | None = None  # "time limit" | "memory limit" when ABC was killed
    returncode: int | None = None


def _die_with_parent():
    """A preexec function that makes the child get SIGKILL when this process dies (Linux
    ``prctl(PR_SET_PDEATHSIG)``), so that a killed coinsat never leaves ABC running; None
    where there is no such call."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None

    def arm() -> None:
        prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG

    return arm


def run_abc(
    aig: bytes,
    commands: list[str],
    *,
    time_limit: float | None = None,
    memory_limit: int | None = None,
    want: tuple[str, ...] = (),
) -> AbcRun:
    """``read_aiger model.aig`` then ``commands`` in a scratch folder (module docstring).
    ``want``: the names of files the commands write, returned when they exist."""
    binary = require_abc()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="coinsat-abc-") as tmp:
        work = Path(tmp)
        (work / "model.aig").write_bytes(aig)
        script = "; ".join(["read_aiger model.aig", *commands])
        log = work / "abc.log"
        stopped = None
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [binary, "-c", script],
                cwd=work,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                preexec_fn=_die_with_parent(),
            )
            try:
                while True:
                    try:
                        proc.wait(timeout=POLL)
                        break
                    except subprocess.TimeoutExpired:
                        pass
                    if time_limit is not None and time.perf_counter() - t0 > time_limit:
                        stopped = "time limit"
                    elif memory_limit is not None and (rss_bytes(proc.pid) or 0) > memory_limit:
                        stopped = "memory limit"
                    if stopped:
                        proc.kill()
                        proc.wait()
                        break
            except BaseException:  # Ctrl-C, the watchdog's LimitReached: never leave ABC running
                proc.kill()
                proc.wait()
                raise
        output = log.read_text(encoding="utf-8", errors="replace")
        files = {}
        for name in want:
            p = work / name
            if p.is_file():
                files[name] = p.read_text(encoding="utf-8", errors="replace")
    return AbcRun(output, files, time.perf_counter() - t0, stopped, proc.returncode)
