"""ASCII pictures of configurations, in the instance file's own picture style: the board's
lattice's row syntax (``geometry.Picture``).

Square grid: one character per cell, blank-separated, top row = largest y.
Triangular grid: row y is shifted right by y characters (cell x at column
2x + y), exactly as instance files draw it.  Lattices in space (cubic) layer by layer
(z = 0, 1, ...), as their files draw them.  Graph boards are listed by name.

A picture never costs more than MAX_PICTURE_CELLS characters: when start, goal
and the coins drawn lie too far apart (a goal 10^20 cells away is a valid
puzzle), the configuration is listed by coordinates instead.  Cell names are
written by :func:`cell_text`, which keeps the graph names 2 and "2" apart.
"""

from __future__ import annotations

from functools import partial
from typing import Iterable, cast

from ..board import cell_text
from ..configuration import Configuration
from ..geometry import Picture
from ..instance import Instance
from ..rules import Move

MAX_PICTURE_CELLS = 40_000


def picture(instance: Instance, config: Configuration, marks: dict[int, str] | None = None) -> str:
    """A text picture of ``config`` on the instance's board (``o`` or the label per coin, ``.`` per
    empty cell; ``marks`` maps cells to a character drawn in place); the listing of coins on a graph board.
    """
    b = instance.board
    placed = {c: lab for c, lab in config.coins}
    marks = marks or {}
    listing = "  ".join(f"{cell_text(b.coords[c])}:{lab}" for c, lab in config.coins) or "(no coins)"
    if b.lattice is None:
        return listing
    syntax = cast(Picture, b.lattice.picture)  # every registered lattice has one
    if syntax.layers:
        return _layers(instance, syntax, placed, marks)
    cs = b.lattice_coords
    frame = [cs[c] for c in list(placed) + list(marks)] or list(cs)
    # The frame: every cell of start and goal, so successive pictures line up.
    frame += [cs[c] for c in instance.start.cells + instance.goal.cells]
    ys = [y for _, y in frame]
    y0, y1 = min(ys), max(ys)
    cols = [syntax.column_of(c) for c in frame]
    c0, c1 = min(cols), max(cols)
    if (c1 - c0 + 1) * (y1 - y0 + 1) > MAX_PICTURE_CELLS:
        return f"(too wide to draw; coins at) {listing}"
    return "\n".join(syntax.row(y, c0, c1, lambda xy: _char(b, placed, marks, xy)) for y in range(y1, y0 - 1, -1))


def _layers(instance: Instance, syntax: Picture, placed: dict, marks: dict) -> str:
    """A board in space (``board = "cubic"``) layer by layer, as its files draw it: ``z = k`` then
    the layer by the lattice's row syntax over the board's x and y range (blank: not on the board)."""
    b = instance.board
    cs = [cast("tuple[int, int, int]", c) for c in b.coords]
    c0, c1 = min(syntax.column_of(c) for c in cs), max(syntax.column_of(c) for c in cs)
    y0, y1 = min(y for _, y, _ in cs), max(y for _, y, _ in cs)
    out = []
    for z in range(min(c[2] for c in cs), max(c[2] for c in cs) + 1):
        out.append(f"z = {z}")
        for y in range(y1, y0 - 1, -1):
            out.append(syntax.row(y, c0, c1, partial(_layer_char, b, placed, marks, z)).rstrip())
    return "\n".join(out)


def _layer_char(board, placed, marks, z: int, xy: tuple[int, int]) -> str:
    return _char(board, placed, marks, (*xy, z))


def _char(board, placed, marks, xy) -> str:
    if not board.has(xy):
        return " "
    c = board.cell(xy)
    if c in marks:
        return marks[c]
    return placed.get(c, ".")


def render_solution(instance: Instance, trace: Iterable[Configuration], moves: Iterable[Move]) -> str:
    """Every step: the move in coordinates and the configuration after it (``*`` = vacated)."""
    trace = list(trace)
    out = ["step 0 (start)", picture(instance, trace[0])]
    for t, (move, config) in enumerate(zip(moves, trace[1:]), start=1):
        s, p = move
        out += [
            "",
            f"step {t}: {instance.move_text(move)}",
            picture(instance, config, marks={s: "*"}),
        ]
    return "\n".join(out)
