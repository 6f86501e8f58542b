"""Typed errors of coinsat.

Every error a user can cause derives from :class:`CoinsatError`; the CLI turns
them into a message and exit code 2.  :class:`VerificationError` is different:
it means an engine produced a move list that :func:`coinsat.solution.verify`
rejected — a bug in coinsat, reported with exit code 4, never a result.
"""

from __future__ import annotations


class CoinsatError(Exception):
    """Root of coinsat's own exceptions."""


class InstanceError(CoinsatError):
    """A malformed or inconsistent instance (or solution) file.

    ``path`` and ``line`` locate the problem; ``line`` is 1-based or None when
    the problem belongs to the file as a whole.
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = self.path or "<instance>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


class UsageError(CoinsatError):
    """Impossible parameters (negative horizon, unknown method, ...)."""


class IllegalMoveError(CoinsatError):
    """A move that rules.py rejects, raised by :func:`coinsat.rules.apply_move`."""

    def __init__(self, step: int | None, move, reason: str):
        self.step, self.move, self.reason = step, move, reason
        at = f"step {step}: " if step is not None else ""
        super().__init__(f"{at}illegal move {move}: {reason}")


class VerificationError(CoinsatError):
    """An engine returned a solution that fails verification (a coinsat bug)."""


class LimitReached(CoinsatError):
    """A time or memory limit (or Ctrl-C) stopped a command that has no partial answer to give.

    The CLI reports it as ``unknown`` with exit code 3 (not as bad input); ``lower_bound``
    carries the best bound proven before the stop, when there is one.
    """

    def __init__(self, message: str, lower_bound: int | None = None):
        self.lower_bound = lower_bound
        super().__init__(message)
