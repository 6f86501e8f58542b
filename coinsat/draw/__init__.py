"""Pictures of puzzles and solutions: SVG, PNG, GIF and an HTML page with step controls.

The layers of this package, each usable alone: ``style`` (the looks), ``layout`` (where cells
go), ``scene`` (pictures as shapes), then one writer per format (``svg``, ``raster`` through
Pillow, ``html``).  :func:`draw` is the front: an instance, optionally a solution (a
:class:`~coinsat.solution.Solution` or a :class:`~coinsat.result.Result` that has one), a
format, and back comes a :class:`Drawing` that a notebook shows and ``save`` writes.

A solution is replayed by ``solution.verify`` (the one move validator) before anything is
drawn: a picture never shows an illegal move as if it were one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..configuration import Configuration
from ..errors import IllegalMoveError, UsageError
from ..instance import Instance
from ..registry import unknown
from ..result import Result
from ..rules import Move
from ..solution import Solution, verify
from .layout import Layout, layout
from .scene import Figure, Frame, Panel, frame, grid, move_text, panel
from .style import STYLE, Style

FORMATS = ("svg", "png", "gif", "html")
#: the default scale of png and gif pictures (pixels are not scaled by a viewer as SVG is)
RASTER_SCALE = 2.0
#: the largest scale accepted
MAX_SCALE = 10.0


@dataclass(frozen=True)
class Drawing:
    """A picture in one format: text for ``svg`` and ``html``, bytes for ``png`` and ``gif``.

    Writing it is the caller's (``io.atomic.write_atomic``, which this floor does not reach):
    ``coinsat.draw(..., output=PATH)`` and ``coinsat show -o PATH`` do it."""

    format: str
    data: str | bytes

    def _repr_svg_(self) -> str | None:
        return self.data if self.format == "svg" and isinstance(self.data, str) else None

    def _repr_html_(self) -> str | None:
        return self.data if self.format == "html" and isinstance(self.data, str) else None

    def _repr_png_(self) -> bytes | None:
        return self.data if self.format == "png" and isinstance(self.data, bytes) else None


def _goal_caption(instance: Instance) -> str:
    placement = instance.goal_placement.value
    return {"fixed": "goal", "translate": "goal (any translate)", "congruent": "goal (any congruent copy)"}[placement]


def start_goal(instance: Instance, lay: Layout | None = None, style: Style = STYLE) -> Figure:
    """Start and goal side by side (one frame, wide enough for both captions)."""
    lay = lay or layout(instance, [])
    captions = ["start", _goal_caption(instance)]
    fr = frame(lay, captions, style)
    panels = [
        panel(instance, lay, config, cap, style=style, fr=fr) for config, cap in zip(_configs(instance), captions)
    ]
    return grid(panels, 2, style)


def step_labels(instance: Instance, trace: Sequence[Configuration], moves: Sequence[Move]) -> list[str]:
    """The step player's text for each move: "(x, y) → (x', y')", and which coin it is when the
    coins are labeled ("coin 4: (0, 3) → (0, 1)")."""
    out = []
    for before, move in zip(trace, moves):
        label = dict(before.coins).get(move.src, "o")
        out.append(("" if label == "o" else f"coin {label}: ") + move_text(instance, move))
    return out


def step_captions(instance: Instance, moves: Sequence[Move]) -> list[str]:
    """The captions of the steps' panels: "start", then "t: (x, y) → (x', y')"."""
    return ["start"] + [f"{t}: {move_text(instance, m)}" for t, m in enumerate(moves, start=1)]


def steps(
    instance: Instance,
    trace: Sequence[Configuration],
    moves: Sequence[Move],
    lay: Layout,
    style: Style = STYLE,
    fr: Frame | None = None,
) -> list[Panel]:
    """One panel per configuration C_0..C_T; panel t shows move t as an arc.  All panels share
    one frame, wide enough for every caption (``fr``, or the one these captions need)."""
    captions = step_captions(instance, moves)
    fr = fr or frame(lay, captions, style)
    out = [panel(instance, lay, trace[0], captions[0], style=style, fr=fr)]
    for t, (move, config) in enumerate(zip(moves, trace[1:]), start=1):
        out.append(panel(instance, lay, config, captions[t], move, style, fr))
    return out


def replay(instance: Instance, solution: Solution | Result | None) -> tuple[list[Configuration], list[Move]]:
    """The configurations and moves of a legal solution (IllegalMoveError if it is not one)."""
    if isinstance(solution, Result):
        if solution.solution is None:
            raise UsageError(f"a {solution.status} result has no solution to draw")
        solution = solution.solution
    if solution is None:
        return [instance.start], []
    verdict = verify(instance, solution)
    if not verdict.ok:
        step = verdict.step
        raise IllegalMoveError(step, solution.moves[step - 1] if step else None, verdict.reason)
    return list(verdict.trace), list(solution.moves)


def draw(
    instance: Instance,
    solution: Solution | Result | None = None,
    *,
    format: str = "svg",
    animate: bool = False,
    style: Style = STYLE,
    scale: float | None = None,
) -> Drawing:
    """Draw ``instance`` (start and goal) or, with a solution, every step of it.

    ``svg``: start and goal, or a filmstrip of the steps (``animate=True``: one animated
    panel); ``png``: the same as a raster; ``gif``: one frame per step; ``html``: a page with
    start, goal and step controls.  ``scale`` multiplies every size of ``style`` (default:
    ``RASTER_SCALE`` for png and gif, 1 for svg and html, which a viewer scales anyway).

    Returns a :class:`Drawing`.  Raises ``UsageError`` for an unknown format, a scale that is
    not positive, a picture too large to draw or (png, gif) a missing Pillow, and
    ``IllegalMoveError`` when the solution does not replay.
    """
    if format not in FORMATS:
        raise UsageError(unknown("picture format", format, FORMATS))
    if scale is None:
        scale = RASTER_SCALE if format in ("png", "gif") else 1.0
    if not (isinstance(scale, (int, float)) and 0 < scale <= MAX_SCALE):
        raise UsageError(f"a picture's scale must be > 0 and <= {MAX_SCALE:g}, not {scale}")
    style = style.scaled(scale) if scale != 1 else style
    trace, moves = replay(instance, solution)
    lay = layout(instance, trace)
    title = instance.name
    if format == "html":
        from .html import page

        step_panels = steps(instance, trace, moves, lay, style) if moves else []
        labels = step_labels(instance, trace, moves)
        return Drawing("html", page(title, start_goal(instance, lay, style), step_panels, labels, style=style))
    if format == "svg" and animate and moves:
        from .svg import animated_svg

        return Drawing("svg", animated_svg(instance, lay, trace, moves, title, style))
    if format == "gif":
        from .raster import gif

        frames: list[Figure]
        if moves:
            frames = [grid([p], 1, style) for p in steps(instance, trace, moves, lay, style)]
        else:
            captions = ["start", _goal_caption(instance)]
            fr = frame(lay, captions, style)
            frames = [
                grid([panel(instance, lay, c, cap, style=style, fr=fr)], 1, style)
                for c, cap in zip(_configs(instance), captions)
            ]
        return Drawing("gif", gif(frames, style))
    figure = (
        grid(steps(instance, trace, moves, lay, style), style.columns, style)
        if moves
        else start_goal(instance, lay, style)
    )
    if format == "png":
        from .raster import png

        return Drawing("png", png(figure, style))
    from .svg import figure_svg

    return Drawing("svg", figure_svg(figure, title, style))


#: the name the package root imports (its own ``coinsat.draw`` is the public function)
draw_picture = draw


def _configs(instance: Instance) -> list[Configuration]:
    return [instance.start, instance.goal]


__all__ = [
    "FORMATS",
    "RASTER_SCALE",
    "Drawing",
    "draw",
    "draw_picture",
    "start_goal",
    "step_captions",
    "step_labels",
    "steps",
    "replay",
    "Panel",
    "STYLE",
    "Style",
]
