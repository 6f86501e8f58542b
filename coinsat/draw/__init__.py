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
from ..result import Result
from ..rules import Move
from ..solution import Solution, verify
from .layout import Layout, layout
from .scene import Figure, Panel, grid, move_text, panel
from .style import STYLE, Style

FORMATS = ("svg", "png", "gif", "html")


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
    """Start and goal side by side."""
    lay = lay or layout(instance, [])
    panels = [
        panel(instance, lay, instance.start, "start", style=style),
        panel(instance, lay, instance.goal, _goal_caption(instance), style=style),
    ]
    return grid(panels, 2, style)


def steps(instance: Instance, trace: Sequence[Configuration], moves: Sequence[Move], lay: Layout, style: Style = STYLE):
    """One panel per configuration C_0..C_T; panel t shows move t as an arrow."""
    out = [panel(instance, lay, trace[0], "start", style=style)]
    for t, (move, config) in enumerate(zip(moves, trace[1:]), start=1):
        out.append(panel(instance, lay, config, f"{t}: {move_text(instance, move)}", move, style))
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
) -> Drawing:
    """Draw ``instance`` (start and goal) or, with a solution, every step of it.

    ``svg``: start and goal, or a filmstrip of the steps (``animate=True``: one animated
    panel); ``png``: the same as a raster; ``gif``: one frame per step; ``html``: a page with
    start, goal and step controls.
    """
    if format not in FORMATS:
        raise UsageError(f"unknown picture format {format!r} (choose from {', '.join(FORMATS)})")
    trace, moves = replay(instance, solution)
    lay = layout(instance, trace)
    title = instance.name
    if format == "html":
        from .html import page

        frames = steps(instance, trace, moves, lay, style) if moves else []
        labels = [move_text(instance, m) for m in moves]
        return Drawing("html", page(title, start_goal(instance, lay, style), frames, labels, style=style))
    if format == "svg" and animate and moves:
        from .svg import animated_svg

        return Drawing("svg", animated_svg(instance, lay, trace, moves, title, style))
    if format == "gif":
        from .raster import gif

        if moves:
            frames = [grid([p], 1, style) for p in steps(instance, trace, moves, lay, style)]
        else:
            frames = [grid([panel(instance, lay, c, cap, style=style)], 1, style) for c, cap in _ends(instance)]
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


def _ends(instance: Instance) -> list[tuple[Configuration, str]]:
    return [(instance.start, "start"), (instance.goal, _goal_caption(instance))]


__all__ = ["FORMATS", "Drawing", "draw", "draw_picture", "start_goal", "steps", "replay", "Panel", "STYLE", "Style"]
