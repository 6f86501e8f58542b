"""Typed errors of coinsat: every exception the package raises lives here.

Every error a user can cause derives from :class:`CoinsatError`; the CLI turns
them into a message and exit code 2.  :class:`InternalError` is different: coinsat
contradicted itself (an engine produced a move list that
:func:`coinsat.solution.verify` rejected, a certificate builder could not rebuild
what an engine proved) — a bug, reported with exit code 4, never a result.
:class:`LimitReached` is neither: a limit stopped the command (exit 3).
"""

from __future__ import annotations


class CoinsatError(Exception):
    """Root of coinsat's own exceptions."""


class InstanceError(CoinsatError):
    """A malformed or inconsistent instance (or solution) file.

    ``path`` and ``line`` locate the problem; ``line`` is 1-based or None when
    the problem belongs to the file as a whole.  ``key``, set where the problem is found
    (:func:`coinsat.instance.make_instance`), names the instance file's key it belongs to
    (``"start"``, ``"adjacency"``, ``"graph.edges"`` for the key ``edges`` of the table
    ``[graph]``), so that a file reader can point at that key's line; None: not known.
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None, *, key: str | None = None):
        self.message = message
        self.path = path
        self.line = line
        self.key = key
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = self.path or "<instance>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


class OutputError(CoinsatError):
    """An output file could not be written (the message names it and says why)."""


class UsageError(CoinsatError):
    """Impossible parameters (negative horizon, unknown method, ...)."""


class MissingDependency(UsageError):
    """An optional package is not installed: the message names the extra that installs it (exit 2)."""


class IllegalMoveError(CoinsatError):
    """A move that rules.py rejects, raised by :func:`coinsat.rules.apply_move`; or a move list
    that does not solve the puzzle (``move`` None: every move is legal, the last configuration is
    no goal placement)."""

    def __init__(self, step: int | None, move, reason: str):
        self.step, self.move, self.reason = step, move, reason
        at = f"step {step}: " if step is not None else ""
        super().__init__(f"{at}illegal move {move}: {reason}" if move is not None else f"{at}{reason}")


class InternalError(CoinsatError):
    """coinsat contradicted itself (a bug): exit code 4."""


class WorkerLost(InternalError):
    """A worker process of a search ended without answering (killed, or out of memory): exit
    code 4 with one line, since the search cannot go on without its part of the states."""


class VerificationError(InternalError):
    """An engine returned a solution that fails verification (a coinsat bug)."""


class DecodeError(CoinsatError, ValueError):
    """Solved values of a 0-1 program that do not describe a move sequence (non-integral or
    inconsistent): the ILP engine treats the model as unusable, never as an answer."""


class ConstructionError(CoinsatError):
    """The constructive algorithm does not apply: the theorem's hypothesis fails,
    the puzzle is out of scope (board kind, d), or a documented gap was hit."""


class GapError(ConstructionError):
    """A documented gap of the square construction (the message says which)."""


class WindowTooSmall(CoinsatError):
    """Internal to the constructions: a step needs a cell outside the instance's window
    (caught there, which then widens the window)."""

    def __init__(self, coord):
        self.coord = coord
        super().__init__(f"cell {coord} is outside the window")


class LimitReached(CoinsatError):
    """A time or memory limit (or Ctrl-C) stopped a command that has no partial answer to give.

    The CLI reports it as ``unknown`` with exit code 3 (not as bad input); ``lower_bound``
    carries the best bound proven before the stop, when there is one.
    """

    def __init__(self, message: str, lower_bound: int | None = None):
        self.lower_bound = lower_bound
        super().__init__(message)
