"""The progress of ``coinsat solve --method rankbfs``: depth, layer size, states/s, memory, disk.

``rankbfs`` reports each finished layer (``search.rank.space.RankReport``); the engine only
reports, this module draws.  On a terminal the report goes into the command's transient
progress line (``progress.Live``: one line, redrawn in place, gone when the run ends).
Elsewhere (stderr a file or a pipe: a run in the background, under ``nohup`` or a batch
system) it becomes plain lines on stderr, one at most every ``PLAIN_EVERY`` seconds and
none before the search has run that long, so a short run's output is what it always was
and a long run's log says how far it got.  Never with ``--json``.  No line claims an ETA:
a breadth-first search does not know its last layer.  The rate is states expanded per
second of wall time since the search started.
"""

from __future__ import annotations

from typing import Any

#: seconds between two plain lines (and before the first)
PLAIN_EVERY = 10.0


class RankLine:
    """``progress=RankLine()``; then ``line.live = Live(...)`` once the display is open on a
    terminal, or ``line.plain = sys.stderr`` for plain lines."""

    def __init__(self, every: float | None = None) -> None:
        self.live: Any = None
        self.plain: Any = None
        self.every = PLAIN_EVERY if every is None else every
        self._last = 0.0  # the search's seconds at the last plain line

    def __call__(self, report: Any) -> None:
        if self.live is not None:
            self.live.update(text(report))
        elif self.plain is not None and report.seconds - self._last >= self.every:
            self._last = report.seconds
            print(f"rankbfs: {text(report)}  ({report.seconds:,.0f} s)", file=self.plain, flush=True)


def text(r: Any) -> str:
    """One report as the line's text (a plain LayerReport shows depth and sizes only); counts of
    10,000 and more in k, M, G (three digits) and the disk only once layers are on it, so the
    line fits a terminal's width."""
    from ..limits import format_bytes

    line = f"depth {r.depth}  layer {short(r.size)}  states {short(r.states)}"
    if hasattr(r, "per_second"):
        line += f"  {short(r.per_second)} expanded/s  memory {format_bytes(r.memory)}"
        line += f"  disk {format_bytes(r.disk)}" if r.disk else ""  # layers spilled or saved
    return line


def short(n: float) -> str:
    """1,234 as itself; 12,345 as '12.3 k', 1,234,567 as '1.23 M' (three significant digits)."""
    if n < 10_000:
        return f"{n:,.0f}"
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            v = n / size
            return f"{v:.3g} {unit}" if v < 1000 else f"{v:,.0f} {unit}"
    return f"{n:,.0f}"  # pragma: no cover - n >= 10,000 has a unit
