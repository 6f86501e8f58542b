"""What the command prints: text, never terminal commands (round-4 defect R4-4); and the one
progress display of every long command (:class:`Display`).

A puzzle's name, a graph's cell names and a certificate's fields come from files someone else
may have written.  Printed raw, a name holding ``ESC [31m`` recolours the terminal, an OSC
sequence (``ESC ] 0 ; ... BEL``) retitles the window, and U+202E (right-to-left override)
turns the rest of the line around.  :func:`escaped` writes every such character as a visible
escape (``\\x1b``, ``\\u202e``): the C0 controls but the newline and the tab, DEL, the C1
controls, the bidirectional embeddings, overrides, isolates and marks, and the Unicode line
and paragraph separators.  The command line (``cli.main``) wraps its standard output in
:class:`EscapingWriter` for the whole command, so every human output is covered, and escapes
its own error line; ``--json`` output is ASCII already (``json.dumps``), so it is unchanged.

The progress display (:class:`Display`, on stderr, whose lines are escaped too) is one class for
every path: the commands make it, print its header (the engine, h and bound; for ``auto`` the plan
it hears through ``AutoOptions.announce``) and hand it to the engine as its ``progress`` callback;
an engine only reports (a record per layer or horizon, drawn by :func:`report_text`).
"""

from __future__ import annotations

import re
from typing import Any

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _visible(m: re.Match) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escaped(text: str) -> str:
    """``text`` with every control, bidirectional and line-separator character written as an
    escape (module docstring); any other text is returned as it is."""
    return _UNSAFE.sub(_visible, text)


class EscapingWriter:
    """A text stream that writes :func:`escaped` text to ``stream``; everything else
    (``buffer`` for binary output, ``fileno``, ``isatty``, ``flush``) is the stream's own."""

    def __init__(self, stream: Any):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(escaped(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


# --- the progress display -----------------------------------------------------------------------

#: seconds between two plain lines (``--progress`` off a terminal)
PLAIN_EVERY = 10.0


class Display:
    """The one progress display of every long command (solve with any method, certify, census,
    check-certificate, improve, count, construct, gallery, pack), on stderr.

    * **A header** before the search starts (:meth:`header`): ``coinsat: engine X, h Y, bound U
      (from ...)``; for ``auto`` the plan's choice (:meth:`announce`), with the plan's reason.
    * **Live progress**: on a terminal one transient line, redrawn in place (rich): the engine's
      name, its depth, layer or horizon, the states and their rate, and the time spent; a bar and
      the time left where the amount of work is known (``total``).  The engines only report (a
      ``LayerReport``, ``RankReport``, ``HorizonReport`` or ``IlpReport``: :func:`report_text`);
      the display is the engines' ``progress`` callback (``display(report)``).
    * **A final line** when the work ends: the engine, done or what stopped it (``stopped``), the
      time, and its last report.

    On a terminal all three are shown, unless ``quiet`` (``--json``: stdout is one object, and
    stderr stays empty).  Off a terminal (a pipe, a file) nothing is shown unless ``asked``
    (``--progress``): then the header, a plain line at most every ``every`` seconds (the first
    report at once) and the final line, for the log of a run in the background.  No line claims
    an ETA where the work is not known: a breadth-first search does not know its last layer.
    """

    def __init__(
        self,
        what: str,
        *,
        quiet: bool = False,
        asked: bool = False,
        total: int | None = None,
        stream: Any = None,
        every: float | None = None,
    ):
        import sys
        import time

        self.label = what
        self.total = total
        self.stream = stream or sys.stderr
        self.every = PLAIN_EVERY if every is None else every
        terminal = _is_terminal(self.stream)
        self.mode = "live" if terminal and (asked or not quiet) else "plain" if asked else "off"
        self.enabled = self.mode != "off"
        self.last: str | None = None  # the last report's text (for the final line)
        self.stopped: str | None = None  # what stopped the work before its end (a limit, Ctrl-C), for the final line
        self.headers: list[str] = []  # every header line (printed or not), for the tests
        self._bar: Any = None
        self._task: Any = None
        self._printed: float | None = None  # the time of the last plain line
        self._clock = time.perf_counter
        self.t0 = self._clock()

    # --- the context --------------------------------------------------------------------------

    def __enter__(self) -> "Display":
        if self.mode != "live":
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
        except ImportError:  # rich is optional: plain lines on the terminal instead
            self.mode = "plain"
            return self
        columns: list[Any] = [SpinnerColumn(), TimeElapsedColumn()]  # the time first: a narrow terminal cuts the text
        if self.total is not None:
            columns += [BarColumn(), TextColumn("{task.completed}/{task.total}"), TimeRemainingColumn()]
        columns.append(TextColumn("{task.description}", markup=False))
        console = Console(file=self.stream, highlight=False)
        self._bar = Progress(*columns, console=console, transient=True)
        self._bar.start()
        self._task = self._bar.add_task(escaped(self.label), total=self.total)
        return self

    def __exit__(self, kind: Any, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        if kind is None and self.enabled:  # an exception prints its own line (cli.main)
            seconds = self._clock() - self.t0
            end = "done" if self.stopped is None else f"stopped ({self.stopped})"
            self._print(f"{self.label} {end} after {seconds:,.2f} s" + (f": {self.last}" if self.last else ""))

    # --- what the command and the engines call ------------------------------------------------

    def header(
        self,
        engine: str,
        heuristic: str | None = None,
        bound: int | None = None,
        bound_from: str | None = None,
        note: str | None = None,
    ) -> None:
        """``coinsat: engine X, h Y, bound U (from ...)``, printed before the search starts; the
        live line is then named after the engine."""
        text = header_text(engine, heuristic, bound, bound_from) + (f"; {note}" if note else "")
        self.headers.append(text)
        self.label, self.last = engine, None  # the search starts: what came before is not its progress
        if self._bar is not None:
            self._bar.update(self._task, description=escaped(engine))
        self._print(text)

    def announce(self, plan: Any) -> None:
        """The default's plan (``search/plan.py``'s ``Plan``, read through its public fields) as the
        header: ``AutoOptions.announce``."""
        self.header(plan.engine, plan.heuristic, plan.upper_bound, plan.bound_from, f"auto: {plan.reason}")

    def __call__(self, report: Any) -> None:
        """An engine's progress report (its ``progress`` callback)."""
        self.update(report_text(report))

    def update(self, text: str, done: int | None = None) -> None:
        """The live line's text (and the work done, with a ``total``); off a terminal, when asked,
        a plain line at most every ``every`` seconds."""
        self.last = text
        if self._bar is not None:
            self._bar.update(self._task, description=escaped(f"{self.label}: {text}"), completed=done)
        elif self.mode == "plain":
            now = self._clock()
            if self._printed is None or now - self._printed >= self.every:
                self._printed = now
                self._print(f"{self.label}: {text}  ({now - self.t0:,.0f} s)")

    def waiting(self, text: str) -> None:
        """The live line's text before the work that reports starts (no plain line, no final text)."""
        if self._bar is not None:
            self._bar.update(self._task, description=escaped(f"{self.label}: {text}"))

    def title(self, text: str) -> None:
        """What a command that runs no engine does (check-certificate, gallery), before it starts."""
        self._print(f"{self.label}: {text}")

    def log(self, text: str) -> None:
        """A line that stays (an event worth a line of its own: ``improve --progress``'s steps)."""
        self.last = text
        self._print(f"{self.label}: {text}")

    def rate(self, count: int) -> str:
        """``count`` per second since the start, for a line's text."""
        return f"{short(count / max(self._clock() - self.t0, 1e-9))}/s"

    def _print(self, text: str) -> None:
        if self.mode == "off":
            return
        line = escaped(f"coinsat: {text}")
        if self._bar is not None:  # above the live line, which is redrawn below it
            self._bar.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            print(line, file=self.stream, flush=True)


def header_text(engine: str, heuristic: str | None, bound: int | None, bound_from: str | None) -> str:
    """``engine X, h Y, bound U (from ...)``: ``h none`` where the engine prunes with no h, ``bound
    none`` where it has no bound (then ``bound_from`` may say why)."""
    text = f"engine {engine}, h {heuristic or 'none'}, bound {'none' if bound is None else bound}"
    return text + (f" ({'from ' if bound is not None else ''}{bound_from})" if bound_from else "")


def report_text(r: Any) -> str:
    """An engine's report as the line's text: a ranked layer (``RankReport``: depth, layer, states,
    states expanded per second, memory, disk once layers are on it), an explicit layer
    (``LayerReport``: depth, layer, states, states per second), a SAT horizon (``HorizonReport``:
    T, the answer, variables, clauses, conflicts) or an ILP one (``IlpReport``).  Counts of 10,000
    and more in k, M, G (three digits), so the line fits a terminal's width."""
    if hasattr(r, "constraints"):  # an ILP horizon
        if r.outcome == "solving":
            return f"horizon {r.horizon}: solving  vars {short(r.variables)}  constraints {short(r.constraints)}"
        word = {"SAT": "feasible", "UNSAT": "infeasible"}.get(r.outcome, "stopped")
        return f"horizon {r.horizon}: {word} in {r.seconds:,.2f} s"
    if hasattr(r, "clauses"):  # a SAT horizon
        found = f"  length {r.length}" if r.length is not None else ""
        return (
            f"horizon {r.horizon}: {r.outcome} in {r.seconds:,.2f} s  vars {short(r.vars)}  "
            f"clauses {short(r.clauses)}  conflicts {short(r.conflicts)}{found}"
        )
    from ..limits import format_bytes

    line = f"depth {r.depth}  layer {short(r.size)}  states {short(r.states)}"
    if hasattr(r, "per_second"):  # a ranked layer
        line += f"  {short(r.per_second)} expanded/s  memory {format_bytes(r.memory)}"
        return line + (f"  disk {format_bytes(r.disk)}" if r.disk else "")  # layers spilled or saved
    return line + f"  {short(r.states / max(r.seconds, 1e-9))} states/s"


def short(n: float) -> str:
    """1,234 as itself; 12,345 as '12.3 k', 1,234,567 as '1.23 M' (three significant digits)."""
    if n < 10_000:
        return f"{n:,.0f}"
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            v = n / size
            return f"{v:.3g} {unit}" if v < 1000 else f"{v:,.0f} {unit}"
    return f"{n:,.0f}"  # pragma: no cover - n >= 10,000 has a unit


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
