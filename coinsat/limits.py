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
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

#: the share of physical memory an engine may use when the user names no limit
DEFAULT_MEMORY_SHARE = 0.75


def physical_memory() -> int | None:
    """Bytes of RAM on this machine (None when the platform does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def default_memory_limit() -> int | None:
    total = physical_memory()
    return None if total is None else int(total * DEFAULT_MEMORY_SHARE)


def rss_bytes() -> int | None:
    """Resident set size of this process in bytes (None where /proc is missing)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            resident_pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return resident_pages * os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class Limits:
    """A time limit (seconds from ``t0``) and a memory limit (bytes of RSS); None = no limit."""

    time_limit: float | None = None
    memory_limit: int | None = None
    t0: float = field(default_factory=time.perf_counter)

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
