"""Keep freed memory in the C heap for a large search (glibc ``mallopt``): fewer page faults.

Why.  A layered search allocates and frees arrays of tens to hundreds of
megabytes per chunk and per layer (successor buffers, sorted copies, merged
runs).  glibc serves every allocation above its mmap threshold (128 KB, raised
dynamically to at most 32 MB) with a fresh ``mmap`` and returns it with
``munmap`` when it is freed, so the next array of that size is faulted in again
page by page, and a heap top above 128 KB is trimmed back to the kernel: minor
page faults and system time that grow with the search.

What.  :func:`keep_freed_memory` raises the mmap threshold to 1 GiB (arrays
below it come from the heap and are reused once freed), the trim threshold to
2 GiB and the top pad to 256 MiB (a freed top of the heap stays mapped).  The
measurements against glibc's defaults (page faults, system and CPU time, peak
RSS; neither setting alone helped) are in ``benchmarks/rankbfs-heap.md``
(``scripts/rank_engine_bench.py``).

Scope.  The setting is process wide and lasts (glibc cannot give back its
dynamic threshold): ``rankbfs`` applies it once per process when a search
starts, and worker processes forked afterwards inherit it.
``Kernels(keep_heap=False)`` (``COINSAT_MALLOC=default``) leaves the C library's defaults alone; where
``mallopt`` is missing or refuses the values (macOS, musl) nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util

#: glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD = -1, -2, -3
SETTINGS = ((M_MMAP_THRESHOLD, 1 << 30), (M_TRIM_THRESHOLD, (1 << 31) - 1), (M_TOP_PAD, 1 << 28))

_done: bool | None = None


def keep_freed_memory() -> bool:
    """Apply SETTINGS once per process (module docstring); True when they are in force."""
    global _done
    if _done is None:
        _done = _mallopt(SETTINGS)
    return _done


def in_force() -> bool:
    """Whether this process applied SETTINGS (a search with ``Kernels(keep_heap=True)`` ran here)."""
    return bool(_done)


def _mallopt(settings) -> bool:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):  # no C library found, or one without mallopt
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return all(mallopt(param, value) == 1 for param, value in settings)
