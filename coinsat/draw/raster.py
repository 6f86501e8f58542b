"""PNG and GIF through Pillow, from the same shapes as the SVG (``scene.py``).

Pillow is the well-kept library for raster images and animated GIFs; it is imported only
here and only when a raster is asked for (the ``draw`` extra), so the SVG path needs nothing.
Shapes are drawn at ``SCALE`` times their size and scaled down once, which antialiases the
discs without a vector library.
"""

from __future__ import annotations

import io
import math
from typing import Any, Sequence

from ..errors import UsageError
from .scene import Disc, Dot, Figure, Panel, Ring, Segment, Text
from .style import STYLE, Style

SCALE = 3


def _pillow() -> Any:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise UsageError("PNG and GIF need Pillow: pip install 'coinsat[draw]'") from None
    return Image, ImageDraw, ImageFont


def _font(size: float) -> Any:
    _, _, ImageFont = _pillow()
    try:
        return ImageFont.truetype("DejaVuSans.ttf", int(size * SCALE))
    except OSError:
        return ImageFont.load_default(size=int(size * SCALE))


def _draw_panel(draw: Any, p: Panel, left: float, top: float, style: Style) -> None:
    s = SCALE

    def xy(x: float, y: float) -> tuple[float, float]:
        return ((left + x) * s, (top + y) * s)

    for shape in p.shapes:
        if isinstance(shape, (Dot, Disc)):
            x, y = xy(shape.x, shape.y)
            r = shape.r * s
            draw.ellipse((x - r, y - r, x + r, y + r), fill=shape.fill)
            if isinstance(shape, Disc) and shape.label:
                draw.text((x, y), shape.label, fill=style.label_text, font=_font(style.font_size), anchor="mm")
        elif isinstance(shape, Ring):
            x, y = xy(shape.x, shape.y)
            r = shape.r * s
            for k in range(12):  # a dotted circle
                a0 = k * 30
                draw.arc((x - r, y - r, x + r, y + r), a0, a0 + 15, fill=shape.stroke, width=int(1.5 * s))
        elif isinstance(shape, Segment):
            (x1, y1), (x2, y2) = xy(shape.x1, shape.y1), xy(shape.x2, shape.y2)
            draw.line((x1, y1, x2, y2), fill=shape.stroke, width=int(shape.width * s))
            if shape.arrow:
                angle = math.atan2(y2 - y1, x2 - x1)
                size = 4 * shape.width * s
                wing = [
                    (x2 - size * math.cos(angle - a), y2 - size * math.sin(angle - a))
                    for a in (math.pi / 7, -math.pi / 7)
                ]
                draw.polygon([(x2, y2), wing[0], wing[1]], fill=shape.stroke)
        elif isinstance(shape, Text):
            x, y = xy(shape.x, shape.y)
            draw.text((x, y), shape.text, fill=shape.fill, font=_font(shape.size), anchor="ls")


def figure_image(fig: Figure, style: Style = STYLE) -> Any:
    Image, ImageDraw, _ = _pillow()
    size = (max(1, math.ceil(fig.width * SCALE)), max(1, math.ceil(fig.height * SCALE)))
    image = Image.new("RGB", size, style.background)
    draw = ImageDraw.Draw(image)
    for left, top, p in fig.placed:
        _draw_panel(draw, p, left, top, style)
    return image.resize((max(1, math.ceil(fig.width)), max(1, math.ceil(fig.height))), Image.LANCZOS)


def png(fig: Figure, style: Style = STYLE) -> bytes:
    out = io.BytesIO()
    figure_image(fig, style).save(out, format="PNG", optimize=True)
    return out.getvalue()


def gif(frames: Sequence[Figure], style: Style = STYLE) -> bytes:
    """One frame per figure, ``style.step_seconds`` each; the last held three times as long; loops."""
    Image, _, _ = _pillow()
    images = [figure_image(f, style).convert("P", palette=Image.Palette.ADAPTIVE, colors=64) for f in frames]
    ms = int(style.step_seconds * 1000)
    durations = [ms] * (len(images) - 1) + [3 * ms]
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return out.getvalue()
