"""A live progress line for long commands: what is being done, how fast, and for how long.

Shown with rich on stderr, and only when stderr is a terminal: piped output, logs and
``--json`` stay exactly what they were.  The line is transient (it disappears when the job ends),
so the answer printed afterwards is all that remains.  Where the amount of work is known (the
gallery's puzzles) it shows a bar and the time left; where it is not (a breadth-first search
does not know its last layer) it shows the rate and the time spent, and claims no ETA.
"""

from __future__ import annotations

import sys
import time
from typing import Any


class Live:
    """``with Live("counting", quiet=args.json) as live: live.update("depth 3", done=..., total=...)``."""

    def __init__(self, what: str, *, quiet: bool = False, total: int | None = None, stream: Any = None):
        self.what = what
        self.total = total
        self.stream = stream or sys.stderr
        self.enabled = not quiet and _is_terminal(self.stream)
        self._bar: Any = None
        self._task: Any = None
        self.t0 = time.perf_counter()

    def __enter__(self) -> "Live":
        if not self.enabled:
            return self
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
        except ImportError:  # rich is optional: no display
            self.enabled = False
            return self
        columns: list[Any] = [SpinnerColumn(), TextColumn("{task.description}")]
        if self.total is not None:
            columns += [BarColumn(), TextColumn("{task.completed}/{task.total}"), TimeRemainingColumn()]
        columns.append(TimeElapsedColumn())
        self._bar = Progress(*columns, console=Console(file=self.stream), transient=True)
        self._bar.start()
        self._task = self._bar.add_task(self.what, total=self.total)
        return self

    def update(self, text: str, done: int | None = None) -> None:
        if self._bar is not None:
            self._bar.update(self._task, description=f"{self.what}: {text}", completed=done)

    def rate(self, count: int) -> str:
        """``count`` per second since the start, for a description."""
        seconds = max(time.perf_counter() - self.t0, 1e-9)
        return f"{count / seconds:,.0f}/s"

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
