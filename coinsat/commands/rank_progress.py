"""The live line of ``coinsat solve --method rankbfs``: depth, layer size, states/s, memory, disk.

``rankbfs`` reports each finished layer (``search.rank.space.RankReport``); this callback
writes it into the command's transient progress line (``progress.Live``), which exists
only on a terminal and never with ``--json``, so piped output and logs are unchanged.
The rate is states expanded per second of wall time since the search started.
"""

from __future__ import annotations

from typing import Any


class RankLine:
    """``progress=RankLine()``; ``line.live = Live(...)`` once the display is open."""

    def __init__(self) -> None:
        self.live: Any = None

    def __call__(self, report: Any) -> None:
        if self.live is None:
            return
        self.live.update(text(report))


def text(r: Any) -> str:
    """One report as the line's text (a plain LayerReport shows depth and sizes only)."""
    from ..limits import format_bytes

    line = f"depth {r.depth}  layer {r.size:,}  states {r.states:,}"
    if hasattr(r, "per_second"):
        line += f"  {r.per_second:,.0f} expanded/s  memory {format_bytes(r.memory)}  disk {format_bytes(r.disk)}"
    return line
