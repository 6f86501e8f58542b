"""The one module that reads ``COINSAT_*`` environment variables, and ``Kernels``, rankbfs's kernel choice.

``rankbfs`` runs compiled kernels (numba, the ``fast`` extra) where they load and numpy
where they do not; it sends successors between its worker processes through memory files
on Linux and through pipes elsewhere; it keeps freed memory in the C heap.  Each of these is
a field of :class:`Kernels`, a field of ``RankbfsOptions`` (``kernels``): a library caller
or a test chooses them there.  The defaults come from the environment, read here and
nowhere else (``tests/test_environment.py`` greps the package):

* ``COINSAT_KERNEL=numpy``: the numpy kernels, as without numba (``Kernels.compiled``);
* ``COINSAT_ROUTE=pipes``: successors through the parent's pipes even where memory files
  exist (``Kernels.memfd``);
* ``COINSAT_MALLOC=default``: the C library's own heap settings (``Kernels.keep_heap``);
* ``COINSAT_CHECK_KERNEL=numpy|numba``: the ranked layers checker's kernel
  (:func:`check_kernel`; the checker imports nothing from ``search/``, so it asks here);
* ``COINSAT_ABC``: the ABC executable (:func:`abc_path`).

Each choice names two live paths, one of which is a fallback some machine needs (no numba,
no ``memfd_create``, no glibc); a kernel kept only to be compared against lives in a past
commit that the benchmark scripts check out (``--baseline COMMIT``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

#: the values of COINSAT_CHECK_KERNEL: auto (numba on two words and large checks), numpy, numba
CHECK_KERNELS = ("auto", "numpy", "numba")


@dataclass(frozen=True)
class Kernels:
    """How ``rankbfs`` computes (never what: every choice gives the same layers).

    Attributes
    ----------
    compiled : bool
        Run the compiled kernels when numba loads (False: the numpy kernels, as without numba).
    memfd : bool
        Worker processes exchange successors through memory files where Linux has them
        (False: through the parent's pipes, the route of every other system).
    keep_heap : bool
        Keep freed memory in the C heap (glibc ``mallopt``; False: the C library's defaults,
        for a process shared with other work).
    """

    compiled: bool = True
    memfd: bool = True
    keep_heap: bool = True

    @classmethod
    def from_environment(cls) -> "Kernels":
        """The defaults with ``COINSAT_KERNEL``, ``COINSAT_ROUTE`` and ``COINSAT_MALLOC`` applied."""
        env = os.environ
        return cls(
            compiled=env.get("COINSAT_KERNEL", "auto") != "numpy",
            memfd=env.get("COINSAT_ROUTE", "memfd") != "pipes",
            keep_heap=env.get("COINSAT_MALLOC", "keep") != "default",
        )


def check_kernel() -> str:
    """The ranked layers checker's kernel, ``COINSAT_CHECK_KERNEL`` (one of ``CHECK_KERNELS``;
    anything else is "auto")."""
    mode = os.environ.get("COINSAT_CHECK_KERNEL", "auto")
    return mode if mode in CHECK_KERNELS else "auto"


def abc_path() -> str | None:
    """``COINSAT_ABC``: the ABC executable to run instead of the one on the PATH (None: not set)."""
    return os.environ.get("COINSAT_ABC") or None
