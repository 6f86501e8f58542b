"""Resource limits shared by every engine: a time budget and a memory budget.

One small value, :class:`Limits`, travels from the command line to the engine;
the engine asks :meth:`Limits.exceeded` wherever it already checked the clock
(once per layer, per horizon, per chunk of states) and, when the answer is not
None, stops with ``unknown`` (or ``feasible``) and the lower bound proven so
far.  Memory is the resident set size of this process, read from
``/proc/self/statm`` (one small read, cheap enough for a per-layer check);
where that file does not exist the memory budget is not enforced.

Why a polled budget and not ``RLIMIT_AS``: an address-space limit turns the
first allocation past it into a ``MemoryError`` anywhere, inside numpy or a C
solver, where no engine can still report its bound; polling lets the engine
stop between steps, with its answer intact.  The price is overshoot by at most
one step's allocation, which engines keep small by working in chunks.

Code that has no engine state to report (loading, screens, building a board,
widening a window) does not need to be handed a ``Limits``: a command makes
its budget *ambient* with :func:`enforced`, and any loop may call
:func:`poll`, which raises :class:`~coinsat.errors.LimitReached` once the
budget is spent; the SAT driver catches it and reports its bound.  In the
main thread, :func:`enforced` also arms a watchdog (a SIGALRM timer every
``TICK`` seconds) that raises the same exception from whatever Python code is
running once the budget is spent by a margin (``GRACE``): a backstop for loops
nobody polls, late enough that engines that poll stop first, with their
answer.  C code (a SAT solver, numpy) is interrupted only when it returns to
Python, which is why the backends run in bounded chunks.
"""

from __future__ import annotations

import os
import re
import resource
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, TypeVar

from .errors import InternalError, LimitReached, UsageError

#: the share of physical memory an engine may use when the user names no limit
DEFAULT_MEMORY_SHARE = 0.75

_T = TypeVar("_T")


def physical_memory() -> int | None:
    """Bytes of RAM on this machine (None when the platform does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def default_memory_limit() -> int | None:
    """The memory budget when none is given: a share of the machine's memory (None: unknown)."""
    total = physical_memory()
    return None if total is None else int(total * DEFAULT_MEMORY_SHARE)


def rss_bytes(pid: int | None = None) -> int | None:
    """Resident set size in bytes of this process, or of process ``pid`` (None where /proc is
    missing, or the process is gone)."""
    try:
        with open(f"/proc/{'self' if pid is None else pid}/statm", "rb") as f:
            resident_pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return resident_pages * os.sysconf("SC_PAGE_SIZE")


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended (user + system)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def peak_memory() -> int:
    """The process's peak resident set in bytes (or its largest ended child's, if larger)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return max(me.ru_maxrss, kids.ru_maxrss) * 1024  # Linux: kilobytes


@dataclass(frozen=True)
class Limits:
    """A time limit (seconds from ``t0``) and a memory limit (bytes of RSS); None = no limit.

    One value passed whole from the command line to the engine (python-chess's ``Limit``);
    ``t0`` and ``cpu0`` (the wall clock and :func:`cpu_seconds` when it was made) are where
    the run's seconds are counted from."""

    time_limit: float | None = None
    memory_limit: int | None = None
    t0: float = field(default_factory=time.perf_counter)
    cpu0: float = field(default_factory=cpu_seconds)

    def elapsed(self) -> float:
        """Wall seconds since ``t0``."""
        return time.perf_counter() - self.t0

    @property
    def deadline(self) -> float:
        return float("inf") if self.time_limit is None else self.t0 + self.time_limit

    def remaining(self) -> float | None:
        """Seconds left (never negative), None without a time limit."""
        return None if self.time_limit is None else max(0.0, self.deadline - time.perf_counter())

    def exceeded(self) -> str | None:
        """``"time limit"`` or ``"memory limit"`` once a budget is spent, else None."""
        if time.perf_counter() > self.deadline:
            return "time limit"
        if self.memory_limit is not None:
            used = rss_bytes()
            if used is not None and used > self.memory_limit:
                return "memory limit"
        return None


# --- parsing ------------------------------------------------------------------------------------

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_memory(text: str) -> int | None:
    """Bytes from ``"500M"``, ``"2G"``, ``"123456"`` (binary units, optional ``B``/``iB``);
    ``"none"`` means no memory limit.  UsageError on anything else."""
    t = text.strip()
    if t.lower() in ("none", "off", "unlimited"):
        return None
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?", t, flags=re.IGNORECASE)
    if m is None:
        raise UsageError(f"not a memory size: {text!r} (use bytes with an optional K, M, G or T suffix, or 'none')")
    value = int(float(m.group(1)) * _UNITS[m.group(2).upper()])
    if value <= 0:
        raise UsageError(f"the memory limit must be > 0, not {text!r}")
    return value


def format_bytes(n: int) -> str:
    """``n`` bytes for a person to read: ``1.5 GB``, ``12.0 KB``, ``300 B``."""
    for unit in ("T", "G", "M", "K"):
        if n >= _UNITS[unit]:
            return f"{n / _UNITS[unit]:.1f} {unit}B"
    return f"{n} B"


# --- the ambient budget -------------------------------------------------------------------------

#: how often the watchdog looks at the clock and the RSS (seconds)
TICK = 0.1
#: the watchdog fires this long after the deadline: GRACE_SHARE x limit + GRACE_SECONDS ...
GRACE_SHARE, GRACE_SECONDS = 0.05, 0.2
#: ... or once the RSS passes this multiple of the memory limit
MEMORY_GRACE = 1.05
#: poll() reads the RSS at most this often (seconds): a read of /proc costs ~10 us
RSS_EVERY = 0.02

_active: "Limits | None" = None
_last_rss = 0.0


def active() -> "Limits | None":
    """The ambient budget (None outside :func:`enforced`)."""
    return _active


def poll() -> None:
    """Raise LimitReached(reason) if the ambient budget is spent (a no-op without one).

    Cheap enough for an inner loop: a clock read, and an RSS read at most every
    ``RSS_EVERY`` seconds."""
    global _last_rss
    lim = _active
    if lim is None:
        return
    now = time.perf_counter()
    if now > lim.deadline:
        raise LimitReached("time limit")
    if lim.memory_limit is not None and now - _last_rss >= RSS_EVERY:
        _last_rss = now
        used = rss_bytes()
        if used is not None and used > lim.memory_limit:
            raise LimitReached("memory limit")


@contextmanager
def enforced(limits: "Limits") -> Iterator["Limits"]:
    """Make ``limits`` the ambient budget (module docstring).  Nested use keeps the outer
    budget (a command's budget covers the library calls it makes).  The watchdog is armed
    only in the main thread and only when nobody else handles SIGALRM."""
    global _active
    if _active is not None:
        yield _active
        return
    _active = limits
    armed = _arm(limits)
    try:
        yield limits
    finally:
        if armed is not None:
            # ignore first: a tick that arrives now must not raise here (it would skip the rest,
            # leave the watchdog armed, and its next tick would kill the process at exit)
            signal.signal(signal.SIGALRM, signal.SIG_IGN)
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, armed)
        _active = None


def _arm(limits: "Limits"):
    """Start the watchdog; returns the handler to restore (None: not armed)."""
    if limits.time_limit is None and limits.memory_limit is None:
        return None
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return None
    previous = signal.getsignal(signal.SIGALRM)
    if previous not in (signal.SIG_DFL, signal.SIG_IGN, None):
        return None
    late = limits.deadline + (0.0 if limits.time_limit is None else GRACE_SHARE * limits.time_limit + GRACE_SECONDS)
    heavy = None if limits.memory_limit is None else MEMORY_GRACE * limits.memory_limit

    def watchdog(signum, frame):
        if time.perf_counter() > late:
            _disarm()
            raise LimitReached("time limit")
        if heavy is not None:
            used = rss_bytes()
            if used is not None and used > heavy:
                _disarm()
                raise LimitReached("memory limit")

    signal.signal(signal.SIGALRM, watchdog)
    signal.setitimer(signal.ITIMER_REAL, TICK, TICK)
    return previous


#: after firing, the watchdog looks again only this much later: the code that caught the
#: exception has that long to report its answer; code that swallowed it is hit again
REFIRE = 1.0


def _disarm() -> None:
    signal.setitimer(signal.ITIMER_REAL, REFIRE, REFIRE)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT (and the command's SIGTERM) and the watchdog's SIGALRM back for the block; one
    that arrives meanwhile is raised again when it ends, to the handler that was in place. For
    code that must not be cut in half: an exception raised in the middle of an ``import`` leaves
    the package's finished submodules in ``sys.modules`` but not on the package, so every later
    import of it fails (seen with numba: "module 'numba' has no attribute 'core'", an internal
    error in the next search). The handlers are swapped, not the signal mask: a process-directed
    signal goes to any thread that does not block it (a progress display's thread, say), and
    Python then runs the handler in the main thread anyway. Main thread only (elsewhere a
    no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []

    def hold(signum, frame):
        held.append(signum)

    old = {}
    for sig in (signal.SIGINT, signal.SIGALRM):
        if signal.getsignal(sig) is not None:  # None: a handler Python did not install; leave it
            old[sig] = signal.signal(sig, hold)
    if callable(signal.getsignal(signal.SIGTERM)):  # the command's SIGTERM, a Ctrl-C too (_startup)
        old[signal.SIGTERM] = signal.signal(signal.SIGTERM, hold)
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(held):
            signal.raise_signal(signum)


#: how often :func:`in_child` looks at the clock and the child's memory (seconds)
CHILD_TICK = 0.05


def in_child(
    fn: Callable[..., _T],
    args: tuple = (),
    kwargs: dict | None = None,
    *,
    deadline: float | None = None,
    what: str | None = None,
    lost: Callable[[int], _T] | None = None,
    slack: float | None = None,
) -> _T:
    """``fn(*args, **kwargs)`` computed in a forked child process, stopped with the budget.

    For long calls that neither a poll nor the watchdog can cut: Pillow drawing a large
    picture (``show``), the certificate checker building a formula and replaying a DRAT proof
    (``certificates/check/``).  The budget is the ambient one (:func:`enforced`) and
    ``deadline`` (a ``time.perf_counter()`` value), whichever ends first.  The parent waits,
    looking every ``CHILD_TICK`` seconds at the clock and at the child's resident memory
    (which counts the pages it shares with the waiting parent, so it stands for both), and
    kills the child once the budget is spent: LimitReached, whose reason names ``what``
    ("time limit (the proof check did not finish)").  Ctrl-C is the parent's: the child
    ignores it and is killed.  The child inherits the ambient budget, so a limit it meets by
    polling comes back as LimitReached too.

    The result comes back pickled; an exception of ``fn`` is raised again here.  A child that
    ends without an answer (killed from outside, the kernel's OOM killer say, or crashed) is
    ``lost(exit status)`` when given, else a MemoryError (killed) or an InternalError.  A
    plain ``os.fork``: it works inside daemonic worker processes too, where multiprocessing
    refuses children.  Without a budget, or where ``fork`` does not exist, ``fn`` runs here.

    ``slack`` (seconds) is for a computation that stops itself at the budget's time (a solver
    given the time that is left): it always runs in a child, so that a signal can stop it, and
    is killed only ``slack`` seconds after the budget's deadline, so that it can report."""
    import pickle
    import select

    kwargs = kwargs or {}
    budget = _active
    memory = None if budget is None else budget.memory_limit
    end = min(float("inf") if deadline is None else deadline, float("inf") if budget is None else budget.deadline)
    if not hasattr(os, "fork") or slack is None and end == float("inf") and memory is None:
        return fn(*args, **kwargs)
    end += slack or 0.0
    why = "" if what is None else f" ({what} did not finish)"
    read_end, write_end = os.pipe()
    with signals_deferred():  # a Ctrl-C between the fork and the try would leave the child running
        pid = os.fork()
        if pid == 0:  # the child: compute, send the answer, leave without running any cleanup
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the parent's too: it kills this child
                os.close(read_end)
                _answer(write_end, fn, args, kwargs)
            finally:
                os._exit(0)
    os.close(write_end)
    data = bytearray()
    try:
        while True:
            wait = min(CHILD_TICK, end - time.perf_counter())
            if wait <= 0:
                raise LimitReached(f"time limit{why}")
            ready, _, _ = select.select([read_end], [], [], wait)
            if ready:
                chunk = os.read(read_end, 1 << 16)
                if not chunk:  # the child closed its end: the answer is whole, or it died
                    break
                data += chunk
            if memory is not None and (rss_bytes(pid) or 0) > memory:
                raise LimitReached("memory limit" + ("" if what is None else f" ({what} needs more)"))
    finally:
        with signals_deferred():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            _, status = os.waitpid(pid, 0)
            os.close(read_end)
    try:
        ok, value = pickle.loads(bytes(data))
    except (pickle.UnpicklingError, EOFError):  # nothing, or half an answer: the child died first
        if lost is not None:
            return lost(status)
        raise _lost(status, what or str(getattr(fn, "__name__", fn))) from None
    if not ok:
        raise value
    return value


def _answer(fd: int, fn, args, kwargs) -> None:
    """In the child: ``(True, result)`` or ``(False, exception)`` pickled into ``fd``."""
    import pickle

    try:
        answer = (True, fn(*args, **kwargs))
    except BaseException as e:  # noqa: BLE001 — any exception goes back to the parent, which raises it
        answer = (False, e)
    try:
        data = pickle.dumps(answer)
        if not answer[0]:
            pickle.loads(data)  # an exception whose class cannot be rebuilt from its arguments
    except Exception as e:  # noqa: BLE001 — an answer that does not pickle: its text does
        data = pickle.dumps((False, RuntimeError(f"{type(e).__name__}: {e}")))
    with os.fdopen(fd, "wb") as out:
        out.write(data)


def _lost(status: int, what: str) -> BaseException:
    """A child that ended without an answer: killed (the kernel's OOM killer: out of memory) or crashed."""
    code = os.waitstatus_to_exitcode(status)
    text = f"the process computing {what} ended without an answer (exit {code})"
    return MemoryError(text) if code == -signal.SIGKILL else InternalError(text)
