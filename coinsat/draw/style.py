"""The one style of every picture coinsat draws: colours, sizes, fonts, timing.

The paper's figures are the model: plain black discs on grey grid points, nothing else.
Labeled coins get a colour per label (and the label's letter, so a picture printed in grey
still tells them apart); the move of a step is a red arrow from its source to its destination,
and the vacated source a dotted circle.  Every renderer (SVG, Pillow, HTML) reads this module
and nothing else for its looks, so a change of taste is one edit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..configuration import UNLABELED


@dataclass(frozen=True)
class Style:
    cell: float = 40.0  # pixels between neighbouring grid points
    disc: float = 0.38  # disc radius, in cells
    dot: float = 0.07  # grid point radius, in cells
    pad: float = 0.8  # margin around a panel's cells, in cells
    margin: float = 6.0  # pixels between a caption and its panel's edges
    line: float = 1.3  # caption line height, in font sizes
    caption_lines: int = 2  # a caption wraps to at most this many lines; the panel widens beyond
    gap: float = 20.0  # pixels between panels
    coin: str = "#000000"
    grid: str = "#9b9b9b"
    edge: str = "#cfcfcf"
    arrow: str = "#c0392b"
    vacated: str = "#c0392b"
    text: str = "#222222"
    background: str = "#ffffff"
    label_text: str = "#ffffff"
    font: str = "DejaVu Sans, Helvetica, Arial, sans-serif"
    font_size: float = 15.0
    arrow_width: float = 3.0
    edge_width: float = 1.5  # graph boards' edges
    ring_width: float = 1.8  # the vacated source's dotted circle
    arc: float = 0.3  # a move's arc: the control point's offset, as a share of the move's length ...
    arc_cap: float = 1.1  # ... and at most this many cells (the arc's top is half the offset)
    lift: float = 1.25  # animation: a moving coin's radius at the top of its arc, as a share of its own
    columns: int = 6  # filmstrip panels per row
    step_seconds: float = 0.8  # animation: time per move (hold, then lift, fly and land)
    glide: float = 0.5  # share of a step spent in the air
    palette: tuple[str, ...] = (
        "#1f77b4",
        "#d62728",
        "#2ca02c",
        "#9467bd",
        "#ff7f0e",
        "#8c564b",
        "#e377c2",
        "#17becf",
        "#7f7f7f",
        "#bcbd22",
    )

    def scaled(self, factor: float) -> "Style":
        """The same looks ``factor`` times as large (every pixel size; shares and counts unchanged)."""
        if not factor > 0:
            raise ValueError(f"a picture's scale must be > 0, not {factor}")
        fields = ("cell", "margin", "gap", "font_size", "arrow_width", "edge_width", "ring_width")
        return replace(self, **{f: getattr(self, f) * factor for f in fields})


STYLE = Style()


def coin_colour(label: str, labels: tuple[str, ...], style: Style = STYLE) -> str:
    """Black for unlabeled coins; otherwise the label's colour (stable: sorted label order)."""
    if label == UNLABELED:
        return style.coin
    named = [lab for lab in labels if lab != UNLABELED]
    return style.palette[named.index(label) % len(style.palette)] if label in named else style.coin
