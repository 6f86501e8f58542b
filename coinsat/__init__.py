"""coinsat — a formal solver for coin-moving puzzles (Demaine, Demaine and Verrill 2002).

The public API is this package's ``__all__``: one function per verb of the command line, each
with a typed result and a docstring that says what it raises (every exception is exported too,
under :class:`CoinsatError`).  :func:`load` or build an :class:`Instance`, then

* :func:`solve` it (``certify=DIR``: with a checked certificate), :func:`verify` any move list
  with the single move validator (``coinsat.rules``), :func:`count` the optimal solutions,
  :func:`draw` the puzzle or a solution;
* :func:`certify` an answer and :func:`check_certificate` a certificate file independently;
* :func:`export` the puzzle for other solvers and :func:`decode` their models;
* :func:`construct` a solution by the paper's algorithms and :func:`improve` one;
* take the :func:`census` of a goal (every configuration's distance to it), and
  :func:`write_certificate` / :func:`write_hardest` its certificate and hardest starts.

The command line (``coinsat.cli``, one module per command in ``coinsat/commands``) is a thin
layer over these functions.  In a notebook (run from the repository root):

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

Certificates and formulas for other solvers:

>>> import tempfile
>>> diagonal = coinsat.load("paper/diagonal")
>>> with tempfile.TemporaryDirectory() as folder:
...     done = coinsat.certify(diagonal, folder)     # solve, write the certificate, check it
...     again = coinsat.check_certificate(diagonal, done.path)   # the independent checker, on the file
>>> done.certificate.kind, done.check.claim, again.ok
('layers', 'optimal: 18 moves (no solution with <= 17 moves)', True)
>>> formula = coinsat.export(puzzle, "cnf", horizon=3)        # satisfiable iff <= 3 moves suffice
>>> formula.format, formula.horizon, formula.data.startswith("c coinsat")
('cnf', 3, True)
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from . import _startup  # noqa: F401  first: the command's Ctrl-C while the rest loads is one line, exit 3
from ._version import __version__
from .board import Board
from .certificates.check.format import Check
from .certify import Certification, check_certificate
from .certify import certify as _certify
from .configuration import Configuration
from .constructive import Construction, construct
from .count import Count, count
from .draw import Drawing, draw_picture
from .errors import (
    CoinsatError,
    ConstructionError,
    GapError,
    IllegalMoveError,
    InstanceError,
    InternalError,
    LimitReached,
    MissingDependency,
    OutputError,
    UsageError,
    VerificationError,
    WorkerLost,
)
from .export import Export, decode
from .export import export_puzzle as export
from .improve import ImproveOptions, Step, improve
from .instance import Instance, make_instance
from .io.instance_format import parse_instance, read_instance, write_instance
from .limits import Limits
from .result import Evidence, Result, Scope, Statistics, Status
from .rules import Move, apply_move, check_move, legal_moves
from .solution import Solution, Verdict, verify
from .solve import METHODS
from .solve import solve as _solve

if TYPE_CHECKING:
    from .census import Census


class _Package(types.ModuleType):
    """The package's module type.  The import system binds a submodule on its package by name
    when it first loads it; where that name is a public function (census, certify, count, draw,
    export, improve, solve: the verb and the module that holds it), the function stays."""

    def __setattr__(self, name: str, value: Any) -> None:
        here = self.__dict__.get(name)
        if isinstance(value, types.ModuleType) and callable(here) and not isinstance(here, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    """``Census``, loaded on first use: the census module brings numpy, which a command that does
    not count needs not wait for."""
    if name == "Census":
        from .census import Census

        return Census
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """What ``dir(coinsat)`` lists: the public API (``__all__``), not the names this module
    imports for its own use (``annotations``, ``sys``, ``Path``, ...)."""
    return sorted(__all__)


__all__ = [
    # the verbs: one function each, what the commands call (tests/test_api.py holds them)
    "load",
    "solve",
    "certify",
    "check_certificate",
    "export",
    "decode",
    "construct",
    "improve",
    "count",
    "verify",
    "draw",
    "census",
    "write_certificate",
    "write_hardest",
    # the model
    "Board",
    "Configuration",
    "Instance",
    "make_instance",
    "parse_instance",
    "read_instance",
    "write_instance",
    "Move",
    "apply_move",
    "check_move",
    "legal_moves",
    "METHODS",
    "Limits",
    # the results
    "Result",
    "Status",
    "Scope",
    "Evidence",
    "Statistics",
    "Solution",
    "Verdict",
    "Certification",
    "Check",
    "Export",
    "Construction",
    "ImproveOptions",
    "Step",
    "Count",
    "Drawing",
    "Census",
    # the exceptions
    "CoinsatError",
    "InstanceError",
    "UsageError",
    "MissingDependency",
    "OutputError",
    "IllegalMoveError",
    "ConstructionError",
    "GapError",
    "LimitReached",
    "InternalError",
    "VerificationError",
    "WorkerLost",
    "__version__",
]


def load(path: str | Path) -> Instance:
    """Read an instance file, or a puzzle shipped with the package by name.

    Parameters
    ----------
    path : str or Path
        A TOML instance file (the README's "File format"), or a shipped puzzle's name:
        ``"paper/diagonal"`` (every name: ``coinsat.io.instance_format.shipped()``).

    Returns
    -------
    Instance
        The puzzle (:func:`read_instance` reads and validates it).

    Raises
    ------
    InstanceError
        On a missing or malformed file (naming the file and line).

    Examples
    --------
    >>> puzzle = load("paper/diagonal")
    >>> puzzle.name, puzzle.n_coins, puzzle.board.kind.value
    ('diagonal', 6, 'square')
    >>> load("instances/paper/diagonal.toml") == puzzle
    True
    """
    return read_instance(path)


def solve(
    instance: Instance,
    method: str = "auto",
    *,
    max_moves: int | None = None,
    time_limit: float | None = None,
    memory_limit: int | None = None,
    limits: Limits | None = None,
    screens: bool = True,
    certify: str | Path | None = None,
    **options: Any,
) -> Result:
    """Solve the puzzle: the cheap screens, then the engine ``method``; with ``certify=DIR`` also
    write its certificate into DIR and check it.

    Parameters
    ----------
    instance : Instance
        The puzzle.
    method : str
        An engine of :data:`METHODS` (``auto``: the one measured fastest for the puzzle).
    max_moves : int, optional
        Look for solutions of at most this many moves (``bounded`` when there is none).
    time_limit, memory_limit : optional
        Seconds and bytes for the whole call, certificate included.
    limits : Limits, optional
        The same budget as one object (instead of ``time_limit`` and ``memory_limit``).
    screens : bool
        False runs the engine alone (to measure it, or to get its own certificate where a
        screen would answer).
    certify : str or Path, optional
        A folder: write the certificate of the answer there and check it with the independent
        checker (:func:`certify`).
    **options
        The fields of the engine's options (``coinsat/search/options.py``).

    Returns
    -------
    Result
        ``optimal`` (a solution and a proof that none is shorter), ``feasible``, ``unsolvable``,
        ``bounded`` (no solution within ``max_moves``) or ``unknown``; every solution was replayed
        by the move validator.  A limit is an answer, not an exception: ``unknown`` with the
        lower bound proven so far.  With ``certify``, ``certificate`` is the checked certificate
        (its kind, the scope and claim the checker proved, ``file``, its path, and the check's
        ``reason`` and ``check_seconds``); when a limit stops the certificate, ``certificate`` is
        the engine's own and ``stats["not_certified"]`` says why.

    Raises
    ------
    UsageError
        For a bad argument, an unknown method or option, or a method that does not apply.
    MissingDependency
        For an engine (or, with ``certify``, a proof checker) whose extra is not installed.
    InternalError
        If an engine's solution fails verification, or the checker rejects the certificate
        coinsat wrote (a coinsat bug).

    Examples
    --------
    >>> result = solve(load("paper/h-to-o"))
    >>> result.status.value, result.length
    ('optimal', 4)
    """
    if certify is None:
        return _solve(
            instance,
            method,
            max_moves=max_moves,
            time_limit=time_limit,
            memory_limit=memory_limit,
            limits=limits,
            screens=screens,
            **options,
        )
    from dataclasses import replace

    done = _certify(
        instance,
        certify,
        method=method,
        max_moves=max_moves,
        time_limit=time_limit,
        memory_limit=memory_limit,
        limits=limits,
        screens=screens,
        **options,
    )
    result = done.result
    if done.accepted is False:
        why = done.check.reason if done.check is not None else ""
        raise InternalError(f"the checker rejected the certificate coinsat wrote ({done.path}): {why}")
    if done.accepted is None:
        if result.status is Status.UNKNOWN:
            return result
        return replace(result, stats={**result.stats, "not_certified": done.stopped})
    return replace(result, certificate=done.evidence())


certify = _certify  # after solve: its ``certify`` argument is a folder


def draw(
    instance: Instance,
    solution: Solution | Result | None = None,
    *,
    format: str = "svg",
    animate: bool = False,
    output: str | Path | None = None,
    scale: float | None = None,
) -> Drawing:
    """Draw the start and goal, or every step of a solution (``coinsat/draw``).

    Parameters
    ----------
    instance : Instance
        The puzzle.
    solution : Solution or Result, optional
        Draw every step of it (a filmstrip; ``animate``: one animated panel).
    format : str
        ``svg`` (``animate=True``: SMIL), ``png``, ``gif`` (one frame per step) or ``html``
        (a page with step controls).
    animate : bool
        SVG only: one animated panel instead of the filmstrip.
    output : str or Path, optional
        Also write the picture to this file (atomically).
    scale : float, optional
        Multiply every size (default 2 for png and gif, 1 for svg and html).

    Returns
    -------
    Drawing
        ``.format`` and ``.data`` (text, or bytes for png and gif); a notebook shows it.

    Raises
    ------
    UsageError
        For an unknown format or scale, a picture too large to draw, or a missing Pillow
        (png, gif).
    IllegalMoveError
        If the solution does not replay from the start to a goal placement.
    OutputError
        When ``output`` cannot be written.

    Examples
    --------
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


# The census's own module (``coinsat/census.py``) is documented in prose; these three give its
# functions the API's docstrings and pass every argument through unchanged (loading it on first use).


def census(
    instance: Instance,
    *,
    limits: Limits | None = None,
    workers: int | None = None,
    resume: str | Path | None = None,
    progress: Callable[[Any], None] | None = None,
) -> Census:
    """The exact distance to the puzzle's goal of every configuration of its window.

    One breadth-first search backwards from the goal over every configuration of the window
    with as many coins (``coinsat/census.py``; on the square grid the window is span(start) plus
    the goal: the k x k box of the diagonal family).  The answers are about moves inside the
    window; they hold on the unbounded board when the window is closed (``Census.closed``).

    Parameters
    ----------
    instance : Instance
        The puzzle whose goal is measured (unlabeled coins, a fixed goal, jump moves, at most
        64 cells); its start only shapes the window.
    limits : Limits, optional
        Time and memory (the arrays must fit under the memory limit).
    workers : int, optional
        Threads that expand each layer (default: one per core).
    resume : str or Path, optional
        A folder where every finished layer is saved, and from which a stopped census goes on.
    progress : callable, optional
        Called with a ``coinsat.census.Progress`` as the layers are expanded.

    Returns
    -------
    Census
        The layer sizes (configurations at each distance), the solvable and unsolvable counts,
        the largest distance D (``max_distance``) and the hardest starts up to the goal's
        symmetries (``hardest``).

    Raises
    ------
    UsageError
        For a puzzle the census does not cover (labels, a goal that may move, slides, more than
        64 cells), arrays larger than the memory limit, or a missing numba (``coinsat[fast]``).
    LimitReached
        When the time limit stops it (the layers saved in ``resume`` are kept).
    """
    from .census import census as run

    return run(instance, limits=limits, workers=workers, resume=resume, progress=progress)


def write_certificate(result: Census, folder: str | Path) -> Path:
    """Write a census's certificate: ``census.json`` and ``layers.npz`` (docs/census.md).

    Parameters
    ----------
    result : Census
        What :func:`census` found.
    folder : str or Path
        Where the two files go (created if missing); each is written whole or not at all.

    Returns
    -------
    Path
        The folder; :func:`check_certificate` checks it (or its ``census.json``).

    Raises
    ------
    OutputError
        When ``census.json`` cannot be written.
    OSError
        When ``layers.npz`` cannot be written (numpy writes it).
    """
    from .census import write_certificate as write

    return write(result, folder)


def write_hardest(result: Census, folder: str | Path) -> list[Path]:
    """Write each hardest start of a census as an instance file, its optimal solution beside it.

    Parameters
    ----------
    result : Census
        What :func:`census` found.
    folder : str or Path
        Gets ``<name>-hardest-<i>.toml`` per symmetry class of the hardest starts, and
        ``solutions/<name>-hardest-<i>.json``: D moves, replayed by ``rules.py`` (the census
        certificate is the proof that none is shorter).

    Returns
    -------
    list of Path
        The instance files written.

    Raises
    ------
    OutputError
        When a file cannot be written.
    InternalError
        If a solution read off the layers fails to replay (a coinsat bug).
    """
    from .census import write_hardest as write

    return write(result, folder)
