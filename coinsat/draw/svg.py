"""SVG, written by hand: a picture is a few hundred circles and lines, which needs no library.

:func:`figure_svg` writes a static figure (start and goal, a filmstrip).  :func:`animated_svg`
writes one panel whose coins glide from step to step with SMIL ``<animate>`` elements: SMIL,
unlike script, runs inside a plain ``<img>`` (and in a notebook, a gallery, a README), and
the file stays one self-contained picture.  Every coin is a ``<circle class="coin">``, so a
test (or a reader) can count them.
"""

from __future__ import annotations

from typing import Sequence
from xml.sax.saxutils import escape

from ..configuration import Configuration
from ..instance import Instance
from ..rules import Move
from .layout import Layout
from .scene import (
    Disc,
    Dot,
    Figure,
    Panel,
    Ring,
    Segment,
    Shape,
    arrow,
    background,
    coin,
    panel_size,
    to_pixels,
)
from .style import STYLE, Style

ARROW_ID = "coinsat-arrow"


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _head(width: float, height: float, style: Style, title: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="{_num(height)}" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" font-family="{escape(style.font)}">',
        f"<title>{escape(title)}</title>",
        f'<defs><marker id="{ARROW_ID}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{style.arrow}"/></marker></defs>',
        f'<rect width="100%" height="100%" fill="{style.background}"/>',
    ]


def shape_svg(s: Shape, style: Style = STYLE, extra: str = "") -> str:
    if isinstance(s, Dot):
        return f'<circle class="grid" cx="{_num(s.x)}" cy="{_num(s.y)}" r="{_num(s.r)}" fill="{s.fill}"/>'
    if isinstance(s, Disc):
        circle = f'<circle class="coin" cx="{_num(s.x)}" cy="{_num(s.y)}" r="{_num(s.r)}" fill="{s.fill}"{extra}/>'
        if not s.label:
            return circle
        return circle + (
            f'<text class="label" x="{_num(s.x)}" y="{_num(s.y + style.font_size * 0.35)}" text-anchor="middle" '
            f'font-size="{_num(style.font_size)}" fill="{style.label_text}">{escape(s.label)}</text>'
        )
    if isinstance(s, Ring):
        return (
            f'<circle class="vacated" cx="{_num(s.x)}" cy="{_num(s.y)}" r="{_num(s.r)}" fill="none" '
            f'stroke="{s.stroke}" stroke-width="1.5" stroke-dasharray="3 3"/>'
        )
    if isinstance(s, Segment):
        head = f' marker-end="url(#{ARROW_ID})"' if s.arrow else ""
        return (
            f'<line class="{"move" if s.arrow else "edge"}" x1="{_num(s.x1)}" y1="{_num(s.y1)}" x2="{_num(s.x2)}" '
            f'y2="{_num(s.y2)}" stroke="{s.stroke}" stroke-width="{_num(s.width)}"{head}/>'
        )
    return f'<text x="{_num(s.x)}" y="{_num(s.y)}" font-size="{_num(s.size)}" fill="{s.fill}">{escape(s.text)}</text>'


def panel_group(p: Panel, left: float, top: float, style: Style = STYLE, attrs: str = "") -> str:
    body = "".join(shape_svg(s, style) for s in p.shapes)
    return f'<g class="panel" transform="translate({_num(left)},{_num(top)})"{attrs}>{body}</g>'


def figure_svg(fig: Figure, title: str = "coinsat", style: Style = STYLE) -> str:
    out = _head(fig.width, fig.height, style, title)
    out += [panel_group(p, left, top, style) for left, top, p in fig.placed]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _timeline(n_moves: int, style: Style) -> tuple[float, list[float]]:
    """The animation's length and, per move t = 1..n, the times its glide starts and ends."""
    step = style.step_seconds
    total = (n_moves + 2) * step  # a pause on the goal before it starts over
    marks = []
    for t in range(1, n_moves + 1):
        marks += [((t - 1) + (1 - style.glide)) * step, t * step]
    return total, marks


def _key_times(times: Sequence[float], total: float) -> str:
    return ";".join(f"{min(1.0, t / total):.4f}" for t in times)


def _discrete(points: list[tuple[float, str]], total: float, attribute: str) -> str:
    """An ``<animate>`` that switches ``attribute`` to each value at its time (times ascending)."""
    kept: list[tuple[float, str]] = []
    for t, v in points:
        if kept and abs(kept[-1][0] - t) < 1e-9:
            kept[-1] = (t, v)
        else:
            kept.append((t, v))
    return (
        f'<animate attributeName="{attribute}" dur="{_num(total)}s" repeatCount="indefinite" calcMode="discrete" '
        f'keyTimes="{_key_times([t for t, _ in kept], total)}" values="{";".join(v for _, v in kept)}"/>'
    )


def animated_svg(
    instance: Instance,
    lay: Layout,
    trace: Sequence[Configuration],
    moves: Sequence[Move],
    title: str = "coinsat",
    style: Style = STYLE,
) -> str:
    """One panel; coins glide from move to move, the coming move's arrow shows before it, forever."""
    width, height = panel_size(lay, style)
    total, marks = _timeline(len(moves), style)
    out = _head(width, height, style, title)
    out += [shape_svg(s, style) for s in background(lay, style)]
    # follow each coin: its cell at every step
    where = {c: i for i, c in enumerate(instance.start.cells)}
    cells_of = [[c] for c in instance.start.cells]
    for move in moves:
        coin_id = where.pop(move.src)
        where[move.dst] = coin_id
        for i, path in enumerate(cells_of):
            path.append(move.dst if i == coin_id else path[-1])
    times = [0.0] + marks + [total]
    for i, (c, lab) in enumerate(instance.start.coins):
        path = cells_of[i]
        disc = coin(instance, lay, c, lab, style)
        xs, ys = [], []
        for t in range(len(path)):
            if t == 0:
                xs.append(to_pixels(lay, lay.position[path[0]], style)[0])
                ys.append(to_pixels(lay, lay.position[path[0]], style)[1])
                continue
            before = to_pixels(lay, lay.position[path[t - 1]], style)
            after = to_pixels(lay, lay.position[path[t]], style)
            xs += [before[0], after[0]]
            ys += [before[1], after[1]]
        xs.append(xs[-1])
        ys.append(ys[-1])
        key = _key_times(times, total)

        def glide(attributes: tuple[str, str], shift: float = 0.0) -> str:
            return "".join(
                f'<animate attributeName="{a}" dur="{_num(total)}s" repeatCount="indefinite" calcMode="linear" '
                f'keyTimes="{key}" values="{";".join(_num(v + (shift if a != attributes[0] else 0)) for v in vs)}"/>'
                for a, vs in zip(attributes, (xs, ys))
            )

        circle = shape_svg(Disc(disc.x, disc.y, disc.r, disc.fill, ""), style)
        circle = circle.replace("/>", f">{glide(('cx', 'cy'))}</circle>", 1)
        if disc.label:  # the label's letter travels with its disc
            lift = style.font_size * 0.35
            circle += (
                f'<text class="label" x="{_num(disc.x)}" y="{_num(disc.y + lift)}" text-anchor="middle" '
                f'font-size="{_num(style.font_size)}" fill="{style.label_text}">{escape(disc.label)}'
                f"{glide(('x', 'y'), lift)}</text>"
            )
        out.append(f'<g class="coin-{i}">{circle}</g>')
    # the arrow of move t shows from the end of move t-1 until move t lands
    for t, move in enumerate(moves, start=1):
        shown_from = 0.0 if t == 1 else marks[2 * (t - 1) - 1]
        shown_to = marks[2 * t - 1]
        blink = _discrete([(0.0, "0"), (shown_from, "1"), (shown_to, "0")], total, "opacity")
        parts = "".join(shape_svg(s, style) for s in arrow(lay, move, style))
        out.append(f'<g class="step" opacity="{"1" if t == 1 else "0"}">{parts}{blink}</g>')
    for t in range(len(moves) + 1):
        start_at = 0.0 if t == 0 else marks[2 * t - 1]
        end_at = total if t == len(moves) else marks[2 * t + 1]
        blink = _discrete([(0.0, "0"), (start_at, "1"), (end_at, "0")], total, "opacity")
        text = f"step {t} / {len(moves)}"
        out.append(
            f'<text class="counter" x="{_num(style.cell * 0.3)}" y="{_num(style.title * 0.75)}" '
            f'font-size="{_num(style.font_size)}" fill="{style.text}" opacity="{"1" if t == 0 else "0"}">'
            f"{text}{blink}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
