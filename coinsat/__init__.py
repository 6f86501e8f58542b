"""coinsat — a formal solver for coin-moving puzzles (Demaine, Demaine and Verrill 2002).

Public API: build or read an :class:`Instance`, :func:`solve` it, :func:`verify`
any move list with the single move validator (``coinsat.rules``).
"""

from ._version import __version__
from .board import Board
from .configuration import Configuration
from .errors import CoinsatError, IllegalMoveError, InstanceError, VerificationError
from .instance import Instance, make_instance
from .io.instance_format import parse_instance, read_instance, write_instance
from .result import Result, Status
from .rules import Move, apply_move, check_move, legal_moves
from .solution import Solution, Verdict, verify
from .solve import METHODS, solve

__all__ = [
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
