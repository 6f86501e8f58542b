"""Pictures as plain shapes, before any file format.

A :class:`Panel` is one configuration drawn on its layout: grid points (or a graph's edges and
vertices), one disc per coin, and optionally the move that led to it (an arrow from the source,
drawn as a dotted circle, to the destination).  A :class:`Figure` places panels in a grid.
The SVG writer and the Pillow rasteriser draw the same shapes, so a PNG and an SVG of the same
thing agree.  Coordinates are pixels, y down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Hashable, Sequence

from ..configuration import Configuration
from ..instance import Instance
from ..rules import Move
from .layout import Layout, Point
from .style import STYLE, Style, coin_colour


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    r: float
    fill: str


@dataclass(frozen=True)
class Disc:
    x: float
    y: float
    r: float
    fill: str
    label: str  # "" for unlabeled coins


@dataclass(frozen=True)
class Ring:  # the vacated source of a move
    x: float
    y: float
    r: float
    stroke: str


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float
    arrow: bool  # an arrowhead at (x2, y2)


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: float
    fill: str


Shape = Dot | Disc | Ring | Segment | Text


@dataclass(frozen=True)
class Panel:
    width: float
    height: float
    shapes: tuple[Shape, ...]


@dataclass(frozen=True)
class Figure:
    width: float
    height: float
    placed: tuple[tuple[float, float, Panel], ...]  # (left, top, panel)


def to_pixels(lay: Layout, p: Point, style: Style = STYLE) -> Point:
    return ((p[0] + style.pad) * style.cell, (p[1] + style.pad) * style.cell + style.title)


def panel_size(lay: Layout, style: Style = STYLE) -> tuple[float, float]:
    return ((lay.width + 2 * style.pad) * style.cell, (lay.height + 2 * style.pad) * style.cell + style.title)


def background(lay: Layout, style: Style = STYLE) -> list[Shape]:
    """The board: graph edges, then grid points."""
    out: list[Shape] = []
    for a, b in lay.edges:
        (x1, y1), (x2, y2) = to_pixels(lay, a, style), to_pixels(lay, b, style)
        out.append(Segment(x1, y1, x2, y2, style.edge, 1.5, False))
    for p in lay.grid:
        x, y = to_pixels(lay, p, style)
        out.append(Dot(x, y, style.dot * style.cell, style.grid))
    return out


def coin(instance: Instance, lay: Layout, cell: int, label: str, style: Style = STYLE) -> Disc:
    x, y = to_pixels(lay, lay.position[cell], style)
    shown = "" if label == "o" else label
    return Disc(x, y, style.disc * style.cell, coin_colour(label, instance.labels, style), shown)


def arrow(lay: Layout, move: Move, style: Style = STYLE) -> list[Shape]:
    """A ring on the source and an arrow that stops at the destination disc's rim."""
    (x1, y1), (x2, y2) = to_pixels(lay, lay.position[move.src], style), to_pixels(lay, lay.position[move.dst], style)
    r = style.disc * style.cell
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    return [
        Ring(x1, y1, r, style.vacated),
        Segment(x1 + ux * r, y1 + uy * r, x2 - ux * (r + 2), y2 - uy * (r + 2), style.arrow, style.arrow_width, True),
    ]


def panel(
    instance: Instance,
    lay: Layout,
    config: Configuration,
    caption: str = "",
    move: Move | None = None,
    style: Style = STYLE,
) -> Panel:
    width, height = panel_size(lay, style)
    shapes = background(lay, style)
    shapes += [coin(instance, lay, c, lab, style) for c, lab in config.coins]
    if move is not None:
        shapes += arrow(lay, move, style)
    if caption:
        shapes.append(Text(style.cell * 0.3, style.title * 0.75, caption, style.font_size, style.text))
    return Panel(width, height, tuple(shapes))


def grid(panels: Sequence[Panel], columns: int, style: Style = STYLE) -> Figure:
    """Panels left to right, ``columns`` to a row (all panels of one layout share a size)."""
    w = max(p.width for p in panels)
    h = max(p.height for p in panels)
    cols = max(1, min(columns, len(panels)))
    rows = math.ceil(len(panels) / cols)
    placed = tuple(((i % cols) * (w + style.gap), (i // cols) * (h + style.gap), p) for i, p in enumerate(panels))
    return Figure(cols * w + (cols - 1) * style.gap, rows * h + (rows - 1) * style.gap, placed)


def move_text(instance: Instance, move: Move) -> str:
    return f"{_cell(instance.coord(move.src))} → {_cell(instance.coord(move.dst))}"


def _cell(coord: Hashable) -> str:
    if isinstance(coord, tuple):
        return "(" + ", ".join(str(v) for v in coord) + ")"
    return str(coord)
