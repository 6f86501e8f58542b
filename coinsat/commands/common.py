"""Argument types and exit codes shared by the subcommands."""

from __future__ import annotations

import argparse

from ..result import Result, Status

EXIT_OK, EXIT_ILLEGAL, EXIT_USAGE, EXIT_UNKNOWN, EXIT_INTERNAL = 0, 1, 2, 3, 4


def nonneg_int(s: str) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {s!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, not {v}")
    return v


def pos_float(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {s!r}") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, not {s}")
    return v


def exit_code(result: Result) -> int:
    return EXIT_UNKNOWN if result.status is Status.UNKNOWN else EXIT_OK
