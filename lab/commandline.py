"""The command line a table says it was made by, without the paths of the machine that ran it.

Every table under ``benchmarks/`` names the command that made it.  An argument that is an
absolute path (``--out /tmp/run/table.md``, ``--rows-from /home/x/a.jsonl,/home/x/b.jsonl``)
would carry that machine's folders into the repository; :func:`shown` writes a path inside
the repository relative to it and any other path as its file name alone.
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterable


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


def solve_process(
    path: Path | str, extra: Iterable[str], time_limit: float, pythonpath: str | None = None
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """One ``coinsat solve PATH --json --time-limit S EXTRA`` process, as a user runs it (start-up and
    imports included), of the package on ``pythonpath`` (None: the installed one): its JSON object
    (None when it printed none) and ``{"wall", "cpu", "exit", "stderr"}``, the CPU seconds those of the
    process and its children (``RUSAGE_CHILDREN``)."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    cmd = [sys.executable, "-m", "coinsat", "solve", str(path), "--json", "--time-limit", str(time_limit), *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/")
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    measured = {"wall": wall, "cpu": cpu, "exit": p.returncode, "stderr": p.stderr}
    try:
        return json.loads(p.stdout), measured
    except json.JSONDecodeError:
        return None, measured
