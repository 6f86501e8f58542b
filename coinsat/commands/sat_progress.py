"""SAT options of ``coinsat solve`` and the progress display of the long engines (stderr, rich).

The display prints one line per SAT horizon (T, answer, seconds, variables,
clauses, conflicts), per ILP horizon (when its model goes to the solver, with
its variables and constraints, and when the solver answers: feasible,
infeasible, stopped) or per ``spanbfs`` layer (depth, new states, states,
seconds) once a run has lasted ``DELAY`` seconds — short runs stay quiet — and
is off with ``--json``.  The lines held back until then are printed when the
delay passes, even while the engine is still inside one long solver call.
"""

from __future__ import annotations

import sys
import threading
import time

DELAY = 2.0


def add_sat_arguments(parser) -> None:
    from ..backends.sat_backend import DEFAULT_SOLVER, SOLVERS
    from ..search.driver import DEFAULT_STRATEGY, STRATEGIES
    from .common import nonneg_int

    parser.add_argument(
        "--solver",
        choices=SOLVERS,
        default=None,
        help=f"SAT solver (PySAT name) for --method sat/auto (default {DEFAULT_SOLVER})",
    )
    parser.add_argument(
        "--strategy", choices=STRATEGIES, default=None, help=f"SAT horizon strategy (default {DEFAULT_STRATEGY})"
    )
    parser.add_argument(
        "--horizon-hint",
        type=nonneg_int,
        default=None,
        metavar="T",
        help="SAT: a solution with <= T moves is known (any engine, a solution file): ask T first, "
        "then T - 1, instead of climbing from the lower bound",
    )


def sat_options(args) -> dict:
    """Keyword options for the SAT engine (empty unless the method may use it), and the
    progress display for the engines that report progress."""
    if args.method not in ("sat", "auto", "spanbfs"):
        return {}
    opts = {}
    if args.method != "spanbfs":
        given = (("solver", args.solver), ("strategy", args.strategy), ("horizon_hint", args.horizon_hint))
        opts = {k: v for k, v in given if v is not None}
    if not args.json:
        opts["progress"] = Progress()
    return opts


class Progress:
    """Callback for ``solve_sat(progress=...)``: a line per horizon after DELAY seconds."""

    def __init__(self, stream=None, delay: float = DELAY):
        self.t0 = time.perf_counter()
        self.delay = delay
        self.stream = stream or sys.stderr
        self.pending: list = []
        self.console = None
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    def _console(self):
        if self.console is None:
            try:
                from rich.console import Console

                self.console = Console(file=self.stream, highlight=False)
            except ImportError:  # rich is optional: plain lines
                self.console = False
        return self.console

    def __call__(self, report) -> None:
        with self._lock:
            self.pending.append(report)
            left = self.delay - (time.perf_counter() - self.t0)
            if left > 0:  # held back; a timer prints it if the run is still going when the delay passes
                if self._timer is None:
                    self._timer = threading.Timer(left, self.flush)
                    self._timer.daemon = True
                    self._timer.start()
                return
        self.flush()

    def flush(self) -> None:
        """Print the lines held back (the delay has passed, or the run asks for them)."""
        with self._lock:
            for r in self.pending:
                self._line(r)
            self.pending.clear()

    def close(self) -> None:
        """The run is over: lines still held back stay unprinted (a short run stays quiet)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self.pending.clear()

    def _line(self, r) -> None:
        if hasattr(r, "constraints"):  # an ILP horizon (search.ilp.IlpReport)
            if r.outcome == "solving":
                return self._print(
                    "yellow", f"T={r.horizon:<4d} solving  vars {r.variables:>8d}  constraints {r.constraints:>9d}"
                )
            word = {"SAT": "feasible", "UNSAT": "infeasible"}.get(r.outcome, "stopped")
            colour = {"SAT": "green", "UNSAT": "red"}.get(r.outcome, "yellow")
            return self._print(colour, f"T={r.horizon:<4d} {word:<10s} {r.seconds:8.2f} s")
        if not hasattr(r, "horizon"):  # a spanbfs layer
            return self._print(
                "cyan", f"depth {r.depth:<4d} new {r.size:>11d}  states {r.states:>12d}  {r.seconds:8.1f} s"
            )
        colour = {"SAT": "green", "UNSAT": "red"}.get(r.outcome, "yellow")
        found = f"  length {r.length}" if r.length is not None else ""
        text = (
            f"T={r.horizon:<4d} {r.outcome:<7s} {r.seconds:8.2f} s  vars {r.vars:>8d}  "
            f"clauses {r.clauses:>9d}  conflicts {r.conflicts:>9d}{found}"
        )
        self._print(colour, text)

    def _print(self, colour: str, text: str) -> None:
        c = self._console()
        if c:
            c.print(f"[{colour}]{text}[/{colour}]")
        else:
            print(text, file=self.stream, flush=True)
