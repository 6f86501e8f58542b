"""Reading an input file whole, but only a regular file and only up to a size.

Every file a command is given (an instance, a solution, a certificate) is read through
:func:`read_regular`.  A path that names a device (a link to ``/dev/zero``), a FIFO or a
folder is refused before one byte is read, and so is a regular file larger than the cap:
reading either whole used to happen before and outside ``--time-limit`` and
``--memory-limit`` (a link to ``/dev/zero`` grew the process until the kernel killed it).
The file is opened without blocking (a FIFO with no writer would wait for one) and its type
and size are taken from the open descriptor, so the file that is read is the file that was
checked.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import InstanceError

#: the largest input file read (bytes): far beyond any instance, solution or certificate
#: file the tests and benchmarks write (the largest window has 250,000 cells, board.py)
MAX_INPUT_BYTES = 256 << 20

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words (for the message that refuses it)."""
    return next((word for test, word in _KINDS if test(mode)), "not a regular file")


def read_regular(path: str | Path, what: str = "file", limit: int = MAX_INPUT_BYTES, first: int | None = None) -> bytes:
    """The bytes of the regular file ``path`` (a link to one is followed); with ``first``, only
    its first ``first`` bytes (a file of any size).

    Raises InstanceError naming the file when it is not a regular file or is larger than
    ``limit`` bytes; OSError (FileNotFoundError among them) when it cannot be opened, for the
    caller to phrase."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InstanceError(f"{what} is not a regular file ({kind_of(info.st_mode)})", str(path))
        if first is not None:
            limit = first
        elif info.st_size > limit:
            raise InstanceError(f"{what} is too large ({info.st_size} bytes; at most {limit})", str(path))
        chunks = []
        left = limit + 1  # a file that grows while it is read is cut here, and refused below
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if first is not None:
        return data[:first]
    if len(data) > limit:
        raise InstanceError(f"{what} is too large (more than {limit} bytes)", str(path))
    return data
