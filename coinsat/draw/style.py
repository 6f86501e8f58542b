"""The one style of every picture coinsat draws: colours, sizes, fonts, timing.

The paper's figures are the model: plain black discs on grey grid points, nothing else.
Labeled coins get a colour per label (and the label's letter, so a picture printed in grey
still tells them apart); the move of a step is a red arrow from its source to its destination,
and the vacated source a dotted circle.  Every renderer (SVG, Pillow, HTML) reads this module
and nothing else for its looks, so a change of taste is one edit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..configuration import UNLABELED


@dataclass(frozen=True)
class Style:
    cell: float = 30.0  # pixels between neighbouring grid points
    disc: float = 0.38  # disc radius, in cells
    dot: float = 0.07  # grid point radius, in cells
    pad: float = 0.8  # margin around a panel's cells, in cells
    title: float = 22.0  # pixels above a panel for its caption
    gap: float = 16.0  # pixels between panels
    coin: str = "#000000"
    grid: str = "#9b9b9b"
    edge: str = "#cfcfcf"
    arrow: str = "#c0392b"
    vacated: str = "#c0392b"
    text: str = "#222222"
    background: str = "#ffffff"
    label_text: str = "#ffffff"
    font: str = "DejaVu Sans, Helvetica, Arial, sans-serif"
    font_size: float = 13.0
    arrow_width: float = 2.5
    columns: int = 6  # filmstrip panels per row
    step_seconds: float = 0.7  # animation: time per move (hold and glide)
    glide: float = 0.45  # share of a step spent gliding
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


STYLE = Style()


def coin_colour(label: str, labels: tuple[str, ...], style: Style = STYLE) -> str:
    """Black for unlabeled coins; otherwise the label's colour (stable: sorted label order)."""
    if label == UNLABELED:
        return style.coin
    named = [lab for lab in labels if lab != UNLABELED]
    return style.palette[named.index(label) % len(style.palette)] if label in named else style.coin
