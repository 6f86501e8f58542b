"""Ctrl-C while the ``coinsat`` command loads: one line and exit 3, never a traceback
(``coinsat/_startup.py``); a library user's process keeps Python's KeyboardInterrupt."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from coinsat import _startup

from .strategies import default_sigint

# argv[0] as the command sees it, then a SIGINT sent to itself *while the package still loads*
# (the kill sits between the guard and the heavy imports, which a real Ctrl-C hits by timing).
CHILD = """
import os, signal, sys
sys.argv[0] = {name!r}
sys.orig_argv = {orig!r}
import coinsat._startup
os.kill(os.getpid(), signal.SIGINT)
import coinsat.cli
print("survived")
"""


def child(name: str, orig: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", CHILD.format(name=name, orig=orig)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=default_sigint,
    )


@pytest.mark.parametrize(
    "name, orig",
    [("/usr/local/bin/coinsat", ["python3", "/usr/local/bin/coinsat", "solve"]), ("-m", ["python3", "-m", "coinsat"])],
)
def test_the_command_interrupted_while_loading_exits_3_with_one_line(name, orig):
    p = child(name, orig)
    assert p.returncode == 3, p.stderr
    assert p.stderr == "coinsat: interrupted\n" and p.stdout == ""


@pytest.mark.parametrize(
    "name, orig", [("notebook.py", ["python3", "notebook.py"]), ("-m", ["python3", "-m", "coinsat.search.rank.mpi"])]
)
def test_a_library_user_keeps_the_keyboard_interrupt(name, orig):
    p = child(name, orig)
    assert p.returncode != 3 and "KeyboardInterrupt" in p.stderr and "survived" not in p.stdout


def test_restore_hands_sigint_back_and_leaves_other_handlers_alone(monkeypatch):
    before = signal.getsignal(signal.SIGINT)
    try:
        monkeypatch.setattr(sys, "argv", ["coinsat", "solve"])
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _startup.guard_loading()
        assert signal.getsignal(signal.SIGINT) is _startup._stop
        _startup.restore()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a background job: ignored stays ignored
        _startup.guard_loading()
        _startup.restore()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
