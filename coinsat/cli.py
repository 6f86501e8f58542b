"""The command line.  Thin: each subcommand lives in ``coinsat/commands/<name>.py``.

Exit codes: 0 answered (optimal, feasible, unsolvable, bounded) · 1 ``verify``
found an illegal solution, or ``check-certificate`` rejected a certificate · 2 bad input or
usage · 3 unknown (a limit was hit) · 4 internal error (an engine produced a solution that
failed verification).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback

from ._startup import restore
from ._version import __version__
from .commands import COMMANDS
from .commands.common import EXIT_INTERNAL, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE, HelpFormatter
from .errors import CoinsatError, InternalError, LimitReached
from .io.terminal import EscapingWriter, escaped
from .registry import unknown


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)  # a help text's line breaks are kept
        super().__init__(*args, **kwargs)
        self._one_line = False

    def _check_value(self, action, value):  # a mistyped choice: one line, the closest name first
        if action.choices is not None and value not in action.choices:
            self._one_line = True
            if isinstance(action, argparse._SubParsersAction):  # "unknown command 'sovle' (...)"
                raise argparse.ArgumentError(None, unknown("command", value, action.choices))
            raise argparse.ArgumentError(action, unknown("choice", value, action.choices))

    def error(self, message):  # usage errors: exit 2 without a traceback
        if not self._one_line:
            self.print_usage(sys.stderr)
        print(f"coinsat: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def get_parser() -> argparse.ArgumentParser:
    """The ``coinsat`` argument parser, one subcommand per module of ``coinsat/commands``."""
    p = _Parser(prog="coinsat", description="Formal solver for coin-moving puzzles.")
    p.add_argument("--version", action="version", version=f"coinsat {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"coinsat.commands.{name}").add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``) in this process; return the exit code."""
    args = get_parser().parse_args(argv)
    restore()  # the loading guard hands Ctrl-C back: the commands handle it from here (_startup)
    stdout = sys.stdout
    sys.stdout = EscapingWriter(stdout)  # names from files print as text, never terminal commands (io/terminal)
    try:
        return _run(args)
    finally:
        sys.stdout = stdout


def _run(args) -> int:
    try:
        return args.run(args)
    except InternalError as e:  # coinsat contradicted itself (VerificationError among them)
        print(escaped(f"coinsat: internal error: {e}"), file=sys.stderr)
        return EXIT_INTERNAL
    except LimitReached as e:  # a limit (or Ctrl-C) stopped a command that had no answer to give
        bound = "" if e.lower_bound is None else f" (lower bound {e.lower_bound})"
        print(
            escaped(
                f"coinsat: unknown: stopped by the {e}{bound}" if "limit" in str(e) else f"coinsat: unknown: {e}{bound}"
            ),
            file=sys.stderr,
        )
        return EXIT_UNKNOWN
    except CoinsatError as e:
        print(escaped(f"coinsat: error: {e}"), file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # e.g. `coinsat solve ... | head`: the reader left, not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        print("coinsat: interrupted", file=sys.stderr)
        return EXIT_UNKNOWN
    except Exception as e:
        if _pysat_interrupt(e):
            print("coinsat: interrupted", file=sys.stderr)
            return EXIT_UNKNOWN
        # a bug: say so plainly, keep the traceback for the report
        traceback.print_exc()
        print("coinsat: internal error (please report it with the traceback above)", file=sys.stderr)
        return EXIT_INTERNAL


def _pysat_interrupt(e: BaseException) -> bool:
    """PySAT reports a Ctrl-C inside a solver as ``pysolvers.error("Caught keyboard interrupt")``,
    not as a KeyboardInterrupt (the SAT backend converts it; this catches any other solver call)."""
    return type(e).__name__ == "error" and "keyboard interrupt" in str(e).lower()
