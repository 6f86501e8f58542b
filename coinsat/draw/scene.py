"""Pictures as plain shapes, before any file format.

A :class:`Panel` is one configuration drawn on its layout: grid points (or a graph's edges and
vertices), one disc per coin, a caption, and optionally the move that led to it: a dotted
circle on the source and an arc over the board to the destination (a move is a lift, not a
slide).  Captions are measured with the font's widths (``metrics.py``) and wrapped, and the
:class:`Frame` of a set of panels is wide enough for the widest, so no caption is ever clipped.
A :class:`Figure` places panels in a grid.
The SVG writer and the Pillow rasteriser draw the same shapes, so a PNG and an SVG of the same
thing agree.  Coordinates are pixels, y down.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Hashable, Sequence

from ..configuration import Configuration
from ..instance import Instance
from ..rules import Move
from .layout import Layout, Point
from .metrics import text_width
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
class Segment:  # a graph board's edge
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float


@dataclass(frozen=True)
class Arc:  # a move: a quadratic curve from the source's rim over the board to the destination's, with a head
    x1: float
    y1: float
    cx: float  # the control point
    cy: float
    x2: float
    y2: float
    stroke: str
    width: float

    def point(self, t: float) -> Point:
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        return (a * self.x1 + b * self.cx + c * self.x2, a * self.y1 + b * self.cy + c * self.y2)

    def heading(self) -> float:
        """The direction at the end (radians, y down): where the arrowhead points."""
        return math.atan2(self.y2 - self.cy, self.x2 - self.cx)


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # the baseline
    text: str
    size: float
    fill: str
    anchor: str = "start"  # or "middle"
    role: str = "caption"  # or "note" (text on the board's picture, e.g. a cubic board's layer names)


Shape = Dot | Disc | Ring | Segment | Arc | Text


@dataclass(frozen=True)
class Frame:
    """A panel's size and where its board sits: ``top`` pixels of caption above the board, the
    board ``dx`` pixels in from the left (centred when a caption made the panel wider)."""

    width: float
    height: float
    top: float
    dx: float
    lines: int


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


_TOKEN = re.compile(r"\(-?\d[^()]*\)|\S+")  # a coordinate "(1, -2)" is never broken


def _wrap(text: str, width: float, style: Style) -> list[str]:
    """``text`` in at most ``style.caption_lines`` lines, each as narrow as it can be made and,
    when possible, at most ``width`` pixels wide (breaks at spaces, never inside a coordinate)."""
    words = _TOKEN.findall(text)
    if not words:
        return []
    size = style.font_size

    def fits(lines: list[str]) -> float:
        return max(text_width(line, size) for line in lines)

    best = [" ".join(words)]
    if fits(best) <= width or style.caption_lines < 2 or len(words) == 1:
        return best
    # greedy lines at this width; if that takes too many, the split into the fewest, narrowest lines
    lines: list[str] = []
    for w in words:
        if lines and text_width(lines[-1] + " " + w, size) <= width:
            lines[-1] += " " + w
        else:
            lines.append(w)
    if len(lines) <= style.caption_lines:
        return lines
    splits = [[" ".join(words[:k]), " ".join(words[k:])] for k in range(1, len(words))]
    return min(splits, key=fits)


def frame(lay: Layout, captions: Sequence[str] = ("",), style: Style = STYLE) -> Frame:
    """The one frame that holds the board and every caption in ``captions`` without clipping:
    captions are measured (``metrics.text_width``), wrapped to the board's width, and the panel
    is widened when a caption is wider still."""
    board_w = (lay.width + 2 * style.pad) * style.cell
    board_h = (lay.height + 2 * style.pad) * style.cell
    room = board_w - 2 * style.margin
    wrapped = [_wrap(c, room, style) for c in captions]
    widest = max((text_width(line, style.font_size) for lines in wrapped for line in lines), default=0.0)
    width = max(board_w, widest + 2 * style.margin)
    lines = max(1, max((len(w) for w in wrapped), default=1))
    top = style.margin + lines * style.line * style.font_size
    return Frame(width, top + board_h, top, (width - board_w) / 2, lines)


def to_pixels(lay: Layout, p: Point, style: Style = STYLE, fr: Frame | None = None) -> Point:
    fr = fr or frame(lay, ("",), style)
    return ((p[0] + style.pad) * style.cell + fr.dx, (p[1] + style.pad) * style.cell + fr.top)


def background(lay: Layout, style: Style = STYLE, fr: Frame | None = None) -> list[Shape]:
    """The board: graph edges, then grid points."""
    out: list[Shape] = []
    for a, b in lay.edges:
        (x1, y1), (x2, y2) = to_pixels(lay, a, style, fr), to_pixels(lay, b, style, fr)
        out.append(Segment(x1, y1, x2, y2, style.edge, style.edge_width))
    for p in lay.grid:
        x, y = to_pixels(lay, p, style, fr)
        out.append(Dot(x, y, style.dot * style.cell, style.grid))
    size = 0.75 * style.font_size  # notes (a cubic board's layers) under the bottom row, inside the margin
    for p, text in lay.notes:
        x, y = to_pixels(lay, p, style, fr)
        out.append(Text(x, y + style.disc * style.cell + 0.9 * size, text, size, style.grid, "middle", "note"))
    return out


def coin(instance: Instance, lay: Layout, cell: int, label: str, style: Style = STYLE, fr: Frame | None = None) -> Disc:
    x, y = to_pixels(lay, lay.position[cell], style, fr)
    shown = "" if label == "o" else label
    return Disc(x, y, style.disc * style.cell, coin_colour(label, instance.labels, style), shown)


def flight(lay: Layout, move: Move, style: Style = STYLE, fr: Frame | None = None) -> tuple[Point, Point, Point]:
    """A move's path as (source, control point, destination): a quadratic curve bowed upwards
    (to the left for a vertical move), so a jump reads as a lift over the board, not a slide."""
    (x1, y1), (x2, y2) = (
        to_pixels(lay, lay.position[move.src], style, fr),
        to_pixels(lay, lay.position[move.dst], style, fr),
    )
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    nx, ny = (y2 - y1) / length, -(x2 - x1) / length  # a unit normal
    if ny > 1e-9 or (abs(ny) <= 1e-9 and nx > 0):  # bow up, or left when the move is vertical
        nx, ny = -nx, -ny
    bow = min(style.arc * length, style.arc_cap * style.cell)
    return (x1, y1), ((x1 + x2) / 2 + nx * bow, (y1 + y2) / 2 + ny * bow), (x2, y2)


def arrow(lay: Layout, move: Move, style: Style = STYLE, fr: Frame | None = None) -> list[Shape]:
    """A dotted ring on the source and an arc that stops at the destination disc's rim."""
    (x1, y1), (cx, cy), (x2, y2) = flight(lay, move, style, fr)
    r = style.disc * style.cell

    def toward(px: float, py: float, qx: float, qy: float, by: float) -> Point:
        d = math.hypot(qx - px, qy - py) or 1.0
        return (px + (qx - px) / d * by, py + (qy - py) / d * by)

    start = toward(x1, y1, cx, cy, r)
    end = toward(x2, y2, cx, cy, r + 2)
    return [Ring(x1, y1, r, style.vacated), Arc(*start, cx, cy, *end, style.arrow, style.arrow_width)]


def caption(text: str, fr: Frame, style: Style = STYLE) -> list[Text]:
    """The caption's lines, each centred over the panel (wrapped as ``frame`` measured them)."""
    lines = _wrap(text, fr.width - 2 * fr.dx - 2 * style.margin, style)
    out = []
    for i, line in enumerate(lines):
        baseline = style.margin + (i + 1) * style.line * style.font_size - 0.3 * style.font_size
        out.append(Text(fr.width / 2, baseline, line, style.font_size, style.text, "middle"))
    return out


def panel(
    instance: Instance,
    lay: Layout,
    config: Configuration,
    caption_text: str = "",
    move: Move | None = None,
    style: Style = STYLE,
    fr: Frame | None = None,
) -> Panel:
    fr = fr or frame(lay, (caption_text,), style)
    shapes = background(lay, style, fr)
    shapes += [coin(instance, lay, c, lab, style, fr) for c, lab in config.coins]
    if move is not None:
        shapes += arrow(lay, move, style, fr)
    if caption_text:
        shapes += caption(caption_text, fr, style)
    return Panel(fr.width, fr.height, tuple(shapes))


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
