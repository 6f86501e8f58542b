"""Argument types, limits, output checks and exit codes shared by the subcommands.

Outputs are checked *before* any work (``check_output_file``,
``check_output_dir``), so a typo costs nothing and never loses an answer: an
existing directory (or device) given as a file, the input file itself (by any
name that reaches it: a symlink, a hard link, ``nodir/../input``), a place
where no file can be created (permissions, read-only file system, a file where
a directory should be) are refused with exit 2.  Missing directories are
created, as before, but only when the file is written at the end (a refused or
stopped command leaves nothing behind); the check tries to create a file in the
nearest existing ancestor instead.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import textwrap
from pathlib import Path

from ..errors import UsageError
from ..io.terminal import Display
from ..limits import Limits, default_memory_limit, parse_memory
from ..result import Result, Status

EXIT_OK, EXIT_ILLEGAL, EXIT_USAGE, EXIT_UNKNOWN, EXIT_INTERNAL = 0, 1, 2, 3, 4


#: the positional FILE of every command that reads a puzzle
FILE_HELP = "the instance file (TOML; README 'File format'), or a puzzle shipped with coinsat: paper/diagonal"


def method_help(methods) -> str:
    """The help of ``--method``: a line per engine, from its record (``search/methods.py``), so that
    the text cannot drift from the registry; in the registry's order (``auto`` first)."""
    from ..search.methods import ENGINES

    return "\n".join(["the engine (default auto):", *(ENGINES[m].summary() for m in methods)])


def add_method_arguments(parser, max_moves_help: str) -> None:
    """``--method`` (an engine of the registry, default ``auto``) and ``--max-moves N`` (its help
    says what the command answers when there is no solution of at most N moves)."""
    from ..search.methods import METHODS

    parser.add_argument("--method", choices=sorted(METHODS), default="auto", help=method_help(METHODS))
    parser.add_argument("--max-moves", type=nonneg_int, default=None, metavar="N", help=max_moves_help)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, except that a help text with line breaks keeps them: each line is
    wrapped on its own, its continuation indented (``--method``: a line per engine)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if "\n" not in text:
            return super()._split_lines(text, width)
        out: list[str] = []
        for line in text.splitlines():
            out.extend(textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False) or [""])
        return out


def _int_at_least(s: str, low: int) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {s!r}") from None
    if v < low:
        raise argparse.ArgumentTypeError(f"must be >= {low}, not {v}")
    return v


def nonneg_int(s: str) -> int:
    return _int_at_least(s, 0)


def pos_int(s: str) -> int:
    """An integer >= 1 (``--workers``): one message for 0 and for a negative number."""
    return _int_at_least(s, 1)


def pos_float(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {s!r}") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, not {s}")
    return v


def memory_size(s: str) -> int | str:
    """``--memory-limit``: bytes (K, M, G suffixes) or ``none``."""
    try:
        v = parse_memory(s)
    except UsageError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return "none" if v is None else v


#: what ``--time-limit`` does to a command that searches (solve, improve, certify)
WHEN_STOPPED = (
    "a command stopped before its answer is complete says what it has proven so far ('unknown' and "
    "exit 3, or 'feasible' when it has a solution)"
)


def add_limit_arguments(parser, when_stopped: str = WHEN_STOPPED) -> None:
    """``--time-limit`` (its help ends with ``when_stopped``: what the command does when stopped)
    and ``--memory-limit``."""
    parser.add_argument(
        "--time-limit",
        type=pos_float,
        default=None,
        metavar="S",
        help=f"stop after S seconds, loading included: {when_stopped}",
    )
    parser.add_argument(
        "--memory-limit",
        type=memory_size,
        default=None,
        metavar="BYTES",
        help="stop (answer 'unknown', exit 3) when this process uses more memory, e.g. 2G; "
        "'none' for no limit (default: 75%% of RAM)",
    )


def memory_limit_of(args) -> int | None:
    """The memory budget in bytes (None: no limit): the default share of RAM unless given."""
    given = getattr(args, "memory_limit", None)
    if given is None:
        return default_memory_limit()
    return None if given == "none" else given


def limits_of(args) -> Limits:
    """The command's budget, started now (so it covers loading)."""
    return Limits(getattr(args, "time_limit", None), memory_limit_of(args))


def check_output_file(path: str | os.PathLike, *inputs: str | os.PathLike | None) -> None:
    """UsageError unless a new file can be written at ``path`` (module docstring)."""
    try:
        _check_output_file(Path(path), inputs)
    except OSError as e:  # e.g. a name too long for the file system
        raise UsageError(f"{_short(path)}: cannot write there: {e.strerror or e}") from None


def _short(path) -> str:
    text = os.fspath(path)
    return text if len(text) <= 120 else text[:60] + "..." + text[-40:]


def resolved(path: str | os.PathLike) -> Path:
    """The file that a write to ``path`` reaches once its missing directories are created:
    symlinks of the existing part resolved, and a ``..`` after a directory that does not
    exist yet taken lexically, as the kernel will take it once the writer has created it
    (``nodir/../input.toml`` is ``input.toml``)."""
    return Path(os.path.realpath(path))  # not abspath first: it would drop "link/.." before resolving link


def _check_output_file(p: Path, inputs) -> None:
    path = _short(p)
    target = resolved(p)
    if target.is_dir():
        raise UsageError(f"{path}: is a directory (give a file name)")
    if target.exists() and not target.is_file():
        raise UsageError(f"{path}: exists and is not a regular file")
    for i in inputs:
        if i is None:
            continue
        same = resolved(i) == target or (target.exists() and Path(i).exists() and os.path.samefile(target, i))
        if same:
            raise UsageError(f"{path}: is the input file {i}; refusing to overwrite it")
    _check_writable_dir(target.parent, path)


def check_output_dir(path: str | os.PathLike) -> None:
    """UsageError unless ``path`` is, or can be created as, a writable directory."""
    p = Path(path)
    try:
        if p.exists() and not p.is_dir():
            raise UsageError(f"{_short(path)}: exists and is not a directory")
        _check_writable_dir(p, _short(path))
    except OSError as e:
        raise UsageError(f"{_short(path)}: cannot write there: {e.strerror or e}") from None


def _check_writable_dir(directory: Path, path) -> None:
    """``directory``, or its nearest existing ancestor (where it would be created), takes files."""
    directory = Path(os.path.abspath(directory))
    while not directory.exists() and directory.parent != directory:
        directory = directory.parent
    if not directory.is_dir():
        raise UsageError(f"{path}: {directory} is not a directory")
    try:  # the only reliable test (permissions, read-only file systems, root): try it
        fd, probe = tempfile.mkstemp(dir=directory, prefix=".coinsat-probe.")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise UsageError(f"{path}: cannot write in {directory}: {e.strerror or e}") from None


def exit_code(result: Result) -> int:
    return EXIT_UNKNOWN if result.status is Status.UNKNOWN else EXIT_OK


def add_progress_argument(parser) -> None:
    """``--progress``: the display (``io/terminal.py:Display``) off a terminal too, and with --json."""
    parser.add_argument(
        "--progress",
        action="store_true",
        help="show the progress on stderr also when it is not a terminal (a pipe, a log) or with --json: "
        "the engine, h and bound first, a line every 10 s, a final line (default: on a terminal only)",
    )


def progress_options(method: str, display: Display) -> dict:
    """The display as the progress callback (and the default's ``announce``) of ``method``'s engine,
    for the options it takes (``search/options.py``)."""
    from dataclasses import fields

    from ..search.methods import spec

    hooks = {f.name for f in fields(spec(method).options)}
    options: dict = {}
    if display.enabled and "progress" in hooks:
        options["progress"] = display
    if "announce" in hooks:
        options["announce"] = display.announce
    return options
