"""The command line a table says it was made by, without the paths of the machine that ran it.

Every table under ``benchmarks/`` names the command that made it.  An argument that is an
absolute path (``--out /tmp/run/table.md``, ``--rows-from /home/x/a.jsonl,/home/x/b.jsonl``)
would carry that machine's folders into the repository; :func:`shown` writes a path inside
the repository relative to it and any other path as its file name alone.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Iterable


def portable(argument: str, root: Path) -> str:
    """``argument`` with every absolute path in it (alone, after ``--flag=``, or in a comma-separated
    list) made relative to ``root`` when inside it, else cut to its last component."""
    flag, eq, value = argument.partition("=") if argument.startswith("--") else ("", "", argument)
    if not eq:
        flag, value = "", argument
    parts = []
    for item in value.split(","):
        if item.startswith("/"):
            path = Path(item)
            try:
                item = path.resolve().relative_to(root.resolve()).as_posix() or "."
            except ValueError:
                item = path.name or item
        parts.append(item)
    return f"{flag}{eq}{','.join(parts)}"


def shown(script: str, argv: Iterable[str], root: Path) -> str:
    """``python3 SCRIPT ARGS`` as a table prints it: arguments quoted, paths portable."""
    return " ".join(["python3", script, *(shlex.quote(portable(a, root)) for a in argv)])
