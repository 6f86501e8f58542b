"""coinsat — a formal solver for coin-moving puzzles (Demaine, Demaine and Verrill 2002).

Public API: :func:`load` or build an :class:`Instance`, :func:`solve` it, :func:`verify`
any move list with the single move validator (``coinsat.rules``), :func:`count` the optimal
solutions, :func:`draw` the puzzle or a solution.  In a notebook (run from the repository root):

>>> import coinsat
>>> puzzle = coinsat.load("instances/paper/h-to-o.toml")
>>> result = coinsat.solve(puzzle)
>>> print(result.status, result.length)
optimal 4
>>> coinsat.verify(puzzle, result.solution).ok
True
>>> coinsat.count(puzzle).sequences
180
>>> picture = coinsat.draw(puzzle, result)     # a notebook shows it; format="png", "gif", "html" too
>>> picture.format, picture.data.count('class="panel"')
('svg', 5)
"""

from __future__ import annotations

from pathlib import Path

from . import _startup  # noqa: F401  first: the command's Ctrl-C while the rest loads is one line, exit 3
from ._version import __version__
from .board import Board
from .configuration import Configuration

# count and draw are loaded here, before the functions of the same names below: a submodule's
# first import binds it on the package, so a later import would replace those functions.
from .count import Count, count_optimal
from .draw import Drawing, draw_picture
from .errors import CoinsatError, IllegalMoveError, InstanceError, VerificationError
from .instance import Instance, make_instance
from .io.instance_format import parse_instance, read_instance, write_instance
from .result import Result, Status
from .rules import Move, apply_move, check_move, legal_moves
from .solution import Solution, Verdict, verify
from .solve import METHODS, solve

__all__ = [
    "load",
    "count",
    "draw",
    "Board",
    "Configuration",
    "CoinsatError",
    "IllegalMoveError",
    "InstanceError",
    "VerificationError",
    "Instance",
    "make_instance",
    "parse_instance",
    "read_instance",
    "write_instance",
    "Result",
    "Status",
    "Move",
    "apply_move",
    "check_move",
    "legal_moves",
    "METHODS",
    "solve",
    "Solution",
    "Verdict",
    "verify",
    "__version__",
]


def load(path: str | Path) -> Instance:
    """Read an instance file (TOML; the README's "File format"), or a puzzle shipped with the
    package by name: ``"paper/diagonal"`` (every name: ``coinsat.io.instance_format.shipped()``).
    Returns the :class:`Instance`; raises :class:`InstanceError` (naming the file and line) on
    a missing or malformed file.

    >>> puzzle = load("paper/diagonal")
    >>> puzzle.name, puzzle.n_coins, puzzle.board.kind.value
    ('diagonal', 6, 'square')
    >>> load("instances/paper/diagonal.toml") == puzzle
    True
    """
    return read_instance(path)


def count(instance: Instance, *, time_limit: float | None = None, memory_limit: int | None = None) -> Count:
    """Count the optimal solutions: move sequences, traces (up to reordering commuting moves),
    the configurations on optimal sequences (``coinsat/count.py``).

    Returns a :class:`Count`: ``status`` optimal with the counts; unsolvable with 0 sequences;
    otherwise (a limit hit, the optimum unknown) ``status`` says so and the counts are None, with
    the reason in ``note`` (a limit is an answer here, not an exception).  Raises ``UsageError``
    for a move model it does not count (slides).

    >>> c = count(load("instances/paper/diagonal.toml"))
    >>> c.length, c.sequences, c.traces
    (18, 5856, 1296)
    """
    return count_optimal(instance, time_limit=time_limit, memory_limit=memory_limit)


def draw(
    instance: Instance,
    solution: Solution | Result | None = None,
    *,
    format: str = "svg",
    animate: bool = False,
    output: str | Path | None = None,
    scale: float | None = None,
) -> Drawing:
    """Draw the start and goal, or every step of a solution (``coinsat/draw``); ``output`` also
    writes the picture to that file.  Formats: svg (``animate=True``: SMIL), png, gif, html.
    ``scale`` multiplies every size (default 2 for png and gif, 1 for svg and html).

    Returns the :class:`Drawing` (``.format``, ``.data``: text or bytes).  Raises ``UsageError``
    for an unknown format or scale, or a missing Pillow (png, gif), and ``IllegalMoveError`` if
    the solution does not replay from the start.

    >>> puzzle = load("instances/paper/h-to-o.toml")
    >>> svg = draw(puzzle).data                  # start and goal side by side
    >>> svg.count('class="coin"')
    16
    >>> draw(puzzle, solve(puzzle), format="gif").data[:6]
    b'GIF89a'
    """
    from .io.atomic import write_atomic

    picture = draw_picture(instance, solution, format=format, animate=animate, scale=scale)
    if output is not None:
        write_atomic(output, picture.data)
    return picture
