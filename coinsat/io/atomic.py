"""Write files all at once: to a temporary file beside the target, then rename.

An interrupted or failing command therefore never leaves a half-written file.
A failure (no space, no permission, a read-only file system, a directory in
the way) is an :class:`OutputError`, a CoinsatError that names the path, not a
bare OSError: the commands check their outputs before working
(``commands.common.check_output_file``), and when writing still fails at the
end they print the answer anyway and report the error (exit 2).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import OutputError


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` to ``path`` all at once (missing parent directories are created)."""
    try:
        _write(Path(path), data)
    except OSError as e:
        raise OutputError(f"cannot write {os.fspath(path)}: {e.strerror or e}") from None


def _write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
        with os.fdopen(fd, mode, encoding=None if isinstance(data, bytes) else "utf-8") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
