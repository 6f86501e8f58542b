"""SVG, written by hand: a picture is a few hundred circles and lines, which needs no library.

:func:`figure_svg` writes a static figure (start and goal, a filmstrip).  :func:`animated_svg`
writes one panel in which each move's coin lifts off its cell, flies along the move's arc above
the other coins and lands, with SMIL ``<animate>`` elements: SMIL,
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
    Arc,
    Disc,
    Dot,
    Figure,
    Frame,
    Panel,
    Ring,
    Segment,
    Shape,
    arrow,
    background,
    caption,
    coin,
    flight,
    frame,
    to_pixels,
)
from .style import STYLE, Style

ARROW_ID = "coinsat-arrow"
#: points sampled along a move's arc for the animation (linear between them)
FLIGHT_SAMPLES = 8


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _head(width: float, height: float, style: Style, title: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="{_num(height)}" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" font-family="{escape(style.font)}">',
        f"<title>{escape(title)}</title>",
        f'<defs><marker id="{ARROW_ID}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="3.2" markerHeight="3.2" '
        f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{style.arrow}"/></marker></defs>',
        f'<rect width="100%" height="100%" fill="{style.background}"/>',
    ]


def _label(x: float, y: float, label: str, style: Style, cls: str = "label", inner: str = "") -> str:
    return (
        f'<text class="{cls}" x="{_num(x)}" y="{_num(y + style.font_size * 0.35)}" text-anchor="middle" '
        f'font-size="{_num(style.font_size)}" fill="{style.label_text}">{escape(label)}{inner}</text>'
    )


def shape_svg(s: Shape, style: Style = STYLE, extra: str = "") -> str:
    if isinstance(s, Dot):
        return f'<circle class="grid" cx="{_num(s.x)}" cy="{_num(s.y)}" r="{_num(s.r)}" fill="{s.fill}"/>'
    if isinstance(s, Disc):
        circle = f'<circle class="coin" cx="{_num(s.x)}" cy="{_num(s.y)}" r="{_num(s.r)}" fill="{s.fill}"{extra}/>'
        return circle + (_label(s.x, s.y, s.label, style) if s.label else "")
    if isinstance(s, Ring):
        return (
            f'<circle class="vacated" cx="{_num(s.x)}" cy="{_num(s.y)}" r="{_num(s.r)}" fill="none" '
            f'stroke="{s.stroke}" stroke-width="{_num(style.ring_width)}" stroke-dasharray="3 3"/>'
        )
    if isinstance(s, Segment):
        return (
            f'<line class="edge" x1="{_num(s.x1)}" y1="{_num(s.y1)}" x2="{_num(s.x2)}" '
            f'y2="{_num(s.y2)}" stroke="{s.stroke}" stroke-width="{_num(s.width)}"/>'
        )
    if isinstance(s, Arc):
        return (
            f'<path class="move" d="M{_num(s.x1)},{_num(s.y1)} Q{_num(s.cx)},{_num(s.cy)} {_num(s.x2)},{_num(s.y2)}" '
            f'fill="none" stroke="{s.stroke}" stroke-width="{_num(s.width)}" stroke-linecap="round" '
            f'marker-end="url(#{ARROW_ID})"/>'
        )
    anchor = ' text-anchor="middle"' if s.anchor == "middle" else ""
    return (
        f'<text class="{s.role}" x="{_num(s.x)}" y="{_num(s.y)}"{anchor} font-size="{_num(s.size)}" '
        f'fill="{s.fill}">{escape(s.text)}</text>'
    )


def panel_group(p: Panel, left: float, top: float, style: Style = STYLE, attrs: str = "") -> str:
    body = "".join(shape_svg(s, style) for s in p.shapes)
    return f'<g class="panel" transform="translate({_num(left)},{_num(top)})"{attrs}>{body}</g>'


def figure_svg(fig: Figure, title: str = "coinsat", style: Style = STYLE) -> str:
    out = _head(fig.width, fig.height, style, title)
    out += [panel_group(p, left, top, style) for left, top, p in fig.placed]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _timeline(n_moves: int, style: Style) -> tuple[float, list[float]]:
    """The animation's length and, per move t = 1..n, the times its coin lifts and lands."""
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


def _linear(times: Sequence[float], values: Sequence[float], total: float, attribute: str) -> str:
    return (
        f'<animate attributeName="{attribute}" dur="{_num(total)}s" repeatCount="indefinite" calcMode="linear" '
        f'keyTimes="{_key_times(times, total)}" values="{";".join(_num(v) for v in values)}"/>'
    )


def animation_frame(lay: Layout, n_moves: int, style: Style = STYLE) -> Frame:
    """The frame of the animated panel: room for its step counter."""
    return frame(lay, (f"step {n_moves} / {n_moves}",), style)


def animated_svg(
    instance: Instance,
    lay: Layout,
    trace: Sequence[Configuration],
    moves: Sequence[Move],
    title: str = "coinsat",
    style: Style = STYLE,
) -> str:
    """One panel, forever: the coming move's arc shows, its coin lifts off (it leaves its cell,
    flies along the arc above every other coin, larger at the top as if nearer) and lands."""
    fr = animation_frame(lay, len(moves), style)
    total, marks = _timeline(len(moves), style)
    out = _head(fr.width, fr.height, style, title)
    out += [shape_svg(s, style) for s in background(lay, style, fr)]
    # the arc of move t shows from the landing of move t-1 until move t lands (under the coins)
    for t, move in enumerate(moves, start=1):
        shown_from = 0.0 if t == 1 else marks[2 * (t - 1) - 1]
        shown_to = marks[2 * t - 1]
        blink = _discrete([(0.0, "0"), (shown_from, "1"), (shown_to, "0")], total, "opacity")
        parts = "".join(shape_svg(s, style) for s in arrow(lay, move, style, fr))
        out.append(f'<g class="step" opacity="{"1" if t == 1 else "0"}">{parts}{blink}</g>')
    # the coins on the board: each leaves its cell when it lifts and is back when it lands
    which = {c: i for i, c in enumerate(instance.start.cells)}
    at = list(instance.start.cells)
    events: list[list[tuple[float, float, int]]] = [[] for _ in at]  # per coin: (lift, land, new cell)
    movers: list[int] = []
    for t, move in enumerate(moves, start=1):
        i = which.pop(move.src)
        which[move.dst] = i
        events[i].append((marks[2 * t - 2], marks[2 * t - 1], move.dst))
        movers.append(i)
    for i, (c, lab) in enumerate(instance.start.coins):
        disc = coin(instance, lay, c, lab, style, fr)
        if not events[i]:
            out.append(f'<g class="coin-{i}">{shape_svg(disc, style)}</g>')
            continue
        xs = [(0.0, _num(disc.x))]
        ys = [(0.0, _num(disc.y))]
        shown = [(0.0, "1")]
        for lift, land, dst in events[i]:
            x, y = to_pixels(lay, lay.position[dst], style, fr)
            xs.append((land, _num(x)))
            ys.append((land, _num(y)))
            shown += [(lift, "0"), (land, "1")]
        moving = _discrete(xs, total, "cx") + _discrete(ys, total, "cy") + _discrete(shown, total, "opacity")
        circle = shape_svg(Disc(disc.x, disc.y, disc.r, disc.fill, ""), style).replace("/>", f">{moving}</circle>", 1)
        if disc.label:  # the label's letter stays with its disc
            lift_y = style.font_size * 0.35
            follow = (
                _discrete(xs, total, "x")
                + _discrete([(t, _num(float(v) + lift_y)) for t, v in ys], total, "y")
                + _discrete(shown, total, "opacity")
            )
            circle += _label(disc.x, disc.y, disc.label, style, inner=follow)
        out.append(f'<g class="coin-{i}">{circle}</g>')
    # each move's coin in the air: drawn last, so it passes above every coin on the board
    for t, move in enumerate(moves, start=1):
        lift, land = marks[2 * t - 2], marks[2 * t - 1]
        src, ctl, end = flight(lay, move, style, fr)
        ks = [k / FLIGHT_SAMPLES for k in range(FLIGHT_SAMPLES + 1)]
        path = [
            (
                (1 - k) ** 2 * src[0] + 2 * (1 - k) * k * ctl[0] + k * k * end[0],
                (1 - k) ** 2 * src[1] + 2 * (1 - k) * k * ctl[1] + k * k * end[1],
            )
            for k in ks
        ]
        times = [0.0] + [lift + k * (land - lift) for k in ks] + [total]
        xs2 = [path[0][0]] + [p[0] for p in path] + [path[-1][0]]
        ys2 = [path[0][1]] + [p[1] for p in path] + [path[-1][1]]
        lab = instance.start.coins[movers[t - 1]][1]
        disc = coin(instance, lay, move.src, lab, style, fr)
        radii = [disc.r] + [disc.r * (1 + (style.lift - 1) * 4 * k * (1 - k)) for k in ks] + [disc.r]
        body = (
            f'<circle class="flying" cx="{_num(src[0])}" cy="{_num(src[1])}" r="{_num(disc.r)}" fill="{disc.fill}" '
            f'stroke="{style.background}" stroke-width="{_num(style.ring_width)}">'
            + _linear(times, xs2, total, "cx")
            + _linear(times, ys2, total, "cy")
            + _linear(times, radii, total, "r")
            + "</circle>"
        )
        if disc.label:
            lift_y = style.font_size * 0.35
            body += _label(
                src[0],
                src[1],
                disc.label,
                style,
                "flying-label",
                _linear(times, xs2, total, "x") + _linear(times, [y + lift_y for y in ys2], total, "y"),
            )
        blink = _discrete([(0.0, "0"), (lift, "1"), (land, "0")], total, "opacity")
        out.append(f'<g class="flight" opacity="0">{body}{blink}</g>')
    # the step counter
    for t in range(len(moves) + 1):
        start_at = 0.0 if t == 0 else marks[2 * t - 1]
        end_at = total if t == len(moves) else marks[2 * t + 1]
        blink = _discrete([(0.0, "0"), (start_at, "1"), (end_at, "0")], total, "opacity")
        for line in caption(f"step {t} / {len(moves)}", fr, style):
            out.append(f'<g class="counter" opacity="{"1" if t == 0 else "0"}">{shape_svg(line, style)}{blink}</g>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
