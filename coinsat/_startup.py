"""Ctrl-C while the ``coinsat`` command is still loading.

The console script (and ``python -m coinsat``) imports the package — numpy, PySAT, the
engines: about 0.6 s — before :func:`coinsat.cli.main` runs and takes charge of interrupts.
A Ctrl-C in that window used to print a ``KeyboardInterrupt`` traceback and end the process
by SIGINT; the contract is one line and exit code 3 (unknown: interrupted).

So, only when this process *is* the command (``sys.argv[0]`` is the console script, or the
interpreter was started as ``python -m coinsat``), the package's first lines install
:func:`_stop`, which prints that line and leaves at once: nothing has been read or written yet,
so there is nothing to clean up.  Importing this module does it (the package imports it
before anything heavy).  ``cli.main`` calls :func:`restore` once its arguments are
parsed, and from then on Python's own handler and the commands' handling apply.  A library
user's process (a notebook, pytest, a script) is never touched, nor a SIGINT that the parent
set to ignore (a background job) or that someone else already handles.

SIGTERM (``kill PID``, what a batch system sends) is the command's too, and ends it like
Ctrl-C: while loading through :func:`_stop`; afterwards :func:`_terminate` raises
KeyboardInterrupt in the main thread, so every ``finally`` runs (scratch folders are removed,
an ABC child is killed) and the command prints its one line and exits 3.  A process forked
from the command (a worker of a pool, a child of ``limits.in_child``) gets the default SIGTERM
back, so a pool's ``terminate()`` still ends its workers at once.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

EXIT_UNKNOWN = 3  # commands.common.EXIT_UNKNOWN; not imported: this module must load first and fast


def _stop(signum, frame) -> None:
    os.write(2, b"coinsat: interrupted\n")
    os._exit(EXIT_UNKNOWN)


def _terminate(signum, frame) -> None:
    raise KeyboardInterrupt


def _default_in_child() -> None:
    if signal.getsignal(signal.SIGTERM) in (_stop, _terminate):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def is_command() -> bool:
    """The console script, or ``python -m coinsat`` (not ``-m coinsat.<module>``, nor ``-m pytest``)."""
    if not sys.argv:
        return False
    if os.path.basename(sys.argv[0]) == "coinsat":
        return True
    orig = list(getattr(sys, "orig_argv", ()))
    return sys.argv[0] == "-m" and any(a == "-m" and b == "coinsat" for a, b in zip(orig, orig[1:]))


def guard_loading() -> None:
    """Make a Ctrl-C during the command's imports a clean exit 3 (module docstring)."""
    if threading.current_thread() is not threading.main_thread():
        return  # signal.signal works in the main thread only (an import from a thread must not fail)
    if not is_command():
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _stop)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _stop)


def restore() -> None:
    """Hand SIGINT back to Python (a KeyboardInterrupt), and make SIGTERM one too, if
    :func:`guard_loading` took them."""
    if signal.getsignal(signal.SIGINT) is _stop:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGTERM) is _stop:
        signal.signal(signal.SIGTERM, _terminate)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_default_in_child)


guard_loading()
