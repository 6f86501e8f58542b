"""PNG and GIF through Pillow, from the same shapes as the SVG (``scene.py``).

Pillow is the well-kept library for raster images and animated GIFs; it is imported only
here and only when a raster is asked for (the ``draw`` extra), so the SVG path needs nothing.
Shapes are drawn at ``SCALE`` times their size and scaled down once, which antialiases the
discs without a vector library.  Text is set in DejaVu Sans (the system's, or matplotlib's copy);
with another font a caption is set smaller until it is no wider than ``metrics.py`` measured it,
so the frame computed for the SVG holds it here too.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any, Sequence

from ..errors import UsageError
from .metrics import text_width
from .scene import Arc, Disc, Dot, Figure, Panel, Ring, Segment, Text
from .style import STYLE, Style

SCALE = 3


def _pillow() -> Any:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise UsageError("PNG and GIF need Pillow: pip install 'coinsat[draw]'") from None
    return Image, ImageDraw, ImageFont


_FONTS: dict[int, Any] = {}


def _font_file() -> str | None:
    _, _, ImageFont = _pillow()
    candidates = ["DejaVuSans.ttf"]
    try:
        import matplotlib

        candidates.append(str(Path(matplotlib.__file__).parent / "mpl-data/fonts/ttf/DejaVuSans.ttf"))
    except ImportError:
        pass
    for name in candidates:
        try:
            ImageFont.truetype(name, 10)
            return name
        except OSError:
            continue
    return None


def font(pixels: int) -> Any:
    """DejaVu Sans at ``pixels`` (Pillow's own font when no DejaVu Sans is installed)."""
    if pixels not in _FONTS:
        _, _, ImageFont = _pillow()
        name = _FONTS.setdefault(-1, _font_file())
        _FONTS[pixels] = ImageFont.truetype(name, pixels) if name else ImageFont.load_default(size=pixels)
    return _FONTS[pixels]


def fitted_font(text: str, size: float, scale: int = SCALE) -> Any:
    """The font for ``text`` at ``size`` (in picture pixels, drawn at ``scale``): at most as wide
    as ``metrics.text_width`` says, the width every frame was made for."""
    pixels = max(1, int(size * scale))
    room = text_width(text, size) * scale
    f = font(pixels)
    while pixels > 4 and f.getlength(text) > room + 0.5:
        pixels -= 1
        f = font(pixels)
    return f


def text_boxes(fig: Figure, style: Style = STYLE) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every text of ``fig`` with its ink box in the PNG's pixels (Pillow's ``textbbox``, with the
    font and anchor the PNG is drawn with): what a test holds against the picture's bounds."""
    Image, ImageDraw, _ = _pillow()
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    out = []
    for left, top, p in fig.placed:
        for shape in p.shapes:
            if isinstance(shape, Text):
                x, y = (left + shape.x) * SCALE, (top + shape.y) * SCALE
                anchor = "ms" if shape.anchor == "middle" else "ls"
                box = draw.textbbox((x, y), shape.text, font=fitted_font(shape.text, shape.size), anchor=anchor)
                out.append((shape.text, tuple(v / SCALE for v in box)))
            elif isinstance(shape, Disc) and shape.label:
                x, y = (left + shape.x) * SCALE, (top + shape.y) * SCALE
                f = fitted_font(shape.label, style.font_size)
                out.append(
                    (shape.label, tuple(v / SCALE for v in draw.textbbox((x, y), shape.label, font=f, anchor="mm")))
                )
    return out


def _draw_panel(draw: Any, p: Panel, left: float, top: float, style: Style, s: int = SCALE) -> None:

    def xy(x: float, y: float) -> tuple[float, float]:
        return ((left + x) * s, (top + y) * s)

    for shape in p.shapes:
        if isinstance(shape, (Dot, Disc)):
            x, y = xy(shape.x, shape.y)
            r = shape.r * s
            draw.ellipse((x - r, y - r, x + r, y + r), fill=shape.fill)
            if isinstance(shape, Disc) and shape.label:
                f = fitted_font(shape.label, style.font_size, s)
                draw.text((x, y), shape.label, fill=style.label_text, font=f, anchor="mm")
        elif isinstance(shape, Ring):
            x, y = xy(shape.x, shape.y)
            r = shape.r * s
            for k in range(12):  # a dotted circle
                a0 = k * 30
                draw.arc((x - r, y - r, x + r, y + r), a0, a0 + 15, fill=shape.stroke, width=int(style.ring_width * s))
        elif isinstance(shape, Segment):
            (x1, y1), (x2, y2) = xy(shape.x1, shape.y1), xy(shape.x2, shape.y2)
            draw.line((x1, y1, x2, y2), fill=shape.stroke, width=int(shape.width * s))
        elif isinstance(shape, Arc):
            size = 3.2 * shape.width * s  # the arrowhead, as long as the SVG marker
            angle = shape.heading()
            tip = xy(shape.x2, shape.y2)
            # the curve stops under the head's base, so its end does not poke through the tip
            base = (tip[0] - 0.7 * size * math.cos(angle), tip[1] - 0.7 * size * math.sin(angle))
            points = [xy(*shape.point(k / 24)) for k in range(24)] + [base]
            draw.line(points, fill=shape.stroke, width=int(shape.width * s), joint="curve")
            wing = [(tip[0] - size * math.cos(angle - a), tip[1] - size * math.sin(angle - a)) for a in (0.45, -0.45)]
            draw.polygon([tip, wing[0], wing[1]], fill=shape.stroke)
        elif isinstance(shape, Text):
            x, y = xy(shape.x, shape.y)
            anchor = "ms" if shape.anchor == "middle" else "ls"
            draw.text((x, y), shape.text, fill=shape.fill, font=fitted_font(shape.text, shape.size, s), anchor=anchor)


#: the largest PNG and GIF (pixels of the picture; a GIF's summed over its frames) drawn; past them
#: a UsageError before anything is drawn.  The same numbers as ``coinsat show``'s MAX_PNG_PIXELS and
#: MAX_GIF_PIXELS (commands/show.py checks them before laying the figure out).
MAX_PNG_PIXELS = 64_000_000
MAX_GIF_PIXELS = 1_000_000_000
#: the largest canvas drawn before scaling down: a large picture's supersampling drops from SCALE
#: towards 1 to stay under it (a 53.5 M pixel PNG at SCALE 3 was a 2.8 GB canvas)
MAX_CANVAS = 120_000_000


def check_raster_size(figures: Sequence[Figure], what: str) -> None:
    """Refuse, before drawing anything, a raster too large to make (UsageError, exit 2)."""
    pixels = sum(math.ceil(f.width) * math.ceil(f.height) for f in figures)
    cap = MAX_GIF_PIXELS if what == "GIF" else MAX_PNG_PIXELS
    if pixels > cap:
        w, h = math.ceil(figures[0].width), math.ceil(figures[0].height)
        frames = f" in {len(figures)} frames of {w} x {h}" if len(figures) > 1 else f" ({w} x {h})"
        raise UsageError(
            f"too large for a {what}: {pixels:,} pixels{frames}, at most {cap:,}; "
            "draw it as svg or html, or with a smaller scale"
        )


def figure_image(fig: Figure, style: Style = STYLE, checked: bool = False) -> Any:
    Image, ImageDraw, _ = _pillow()
    if not checked:
        check_raster_size([fig], "PNG")
    final = (max(1, math.ceil(fig.width)), max(1, math.ceil(fig.height)))
    ss = next((k for k in range(SCALE, 0, -1) if final[0] * final[1] * k * k <= MAX_CANVAS), 1)
    image = Image.new("RGB", (final[0] * ss, final[1] * ss), style.background)
    draw = ImageDraw.Draw(image)
    for left, top, p in fig.placed:
        _draw_panel(draw, p, left, top, style, ss)
    return image if ss == 1 else image.resize(final, Image.LANCZOS)


def _frame_image(fig: Figure, style: Style) -> Any:
    """One GIF frame (the GIF's size was checked as a whole)."""
    return figure_image(fig, style, checked=True)


def png(fig: Figure, style: Style = STYLE) -> bytes:
    out = io.BytesIO()
    figure_image(fig, style).save(out, format="PNG", optimize=True)
    return out.getvalue()


def gif(frames: Sequence[Figure], style: Style = STYLE) -> bytes:
    """One frame per figure, ``style.step_seconds`` each; the last held three times as long; loops."""
    Image, _, _ = _pillow()
    check_raster_size(frames, "GIF")
    images = [_frame_image(f, style).convert("P", palette=Image.Palette.ADAPTIVE, colors=64) for f in frames]
    ms = int(style.step_seconds * 1000)
    durations = [ms] * (len(images) - 1) + [3 * ms]
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0)
    return out.getvalue()
