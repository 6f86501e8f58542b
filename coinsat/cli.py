"""The command line.  Thin: every subcommand calls the library and prints.

Exit codes: 0 answered (optimal, feasible, unsolvable, bounded) · 1 ``verify``
found an illegal solution · 2 bad input or usage · 3 unknown (a limit was hit)
· 4 internal error (an engine produced a solution that failed verification).
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback

from . import __version__
from .errors import CoinsatError, VerificationError
from .result import Result, Status

EXIT_OK, EXIT_ILLEGAL, EXIT_USAGE, EXIT_UNKNOWN, EXIT_INTERNAL = 0, 1, 2, 3, 4


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: exit 2 without a traceback
        self.print_usage(sys.stderr)
        print(f"coinsat: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _nonneg_int(s: str) -> int:
    v = int(s)
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, not {v}")
    return v


def _pos_float(s: str) -> float:
    v = float(s)
    if not v > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, not {s}")
    return v


def get_parser() -> argparse.ArgumentParser:
    from .search.methods import METHODS

    p = _Parser(prog="coinsat", description="Formal solver for coin-moving puzzles.")
    p.add_argument("--version", action="version", version=f"coinsat {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("solve", help="find a shortest solution, or prove there is none")
    s.add_argument("file")
    s.add_argument("--method", choices=sorted(METHODS), default="auto")
    s.add_argument("--max-moves", type=_nonneg_int, default=None, metavar="N",
                   help="look for solutions of at most N moves (answer 'bounded' if none)")
    s.add_argument("--time-limit", type=_pos_float, default=None, metavar="S",
                   help="stop after S seconds (answer 'unknown' or 'feasible')")
    s.add_argument("--json", action="store_true", help="print one JSON object (the contract)")
    s.add_argument("-o", "--output", metavar="PATH", help="also write the JSON object to PATH")
    s.set_defaults(run=_cmd_solve)

    v = sub.add_parser("verify", help="check a move list against the rules")
    v.add_argument("file")
    v.add_argument("solution", help="JSON object with 'moves' (e.g. the output of solve --json)")
    v.add_argument("--json", action="store_true")
    v.set_defaults(run=_cmd_verify)

    sh = sub.add_parser("show", help="pictures of start and goal (and of a solution's steps)")
    sh.add_argument("file")
    sh.add_argument("solution", nargs="?", help="also draw every step of this solution")
    sh.set_defaults(run=_cmd_show)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = get_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except VerificationError as e:
        print(f"coinsat: internal error: {e}", file=sys.stderr)
        return EXIT_INTERNAL
    except CoinsatError as e:
        print(f"coinsat: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("coinsat: interrupted", file=sys.stderr)
        return EXIT_UNKNOWN
    except Exception:  # a bug: say so plainly, keep the traceback for the report
        traceback.print_exc()
        print("coinsat: internal error (please report it with the traceback above)", file=sys.stderr)
        return EXIT_INTERNAL


def _exit_code(result: Result) -> int:
    return EXIT_UNKNOWN if result.status is Status.UNKNOWN else EXIT_OK


def _cmd_solve(args) -> int:
    from .io.atomic import write_atomic
    from .io.instance_format import read_instance
    from .io.solution_format import result_to_json
    from .search.methods import solve

    instance = read_instance(args.file)
    result = solve(instance, args.method, max_moves=args.max_moves, time_limit=args.time_limit)
    obj = result_to_json(instance, result)
    if args.output:
        write_atomic(args.output, json.dumps(obj, indent=1) + "\n")
    if args.json:
        print(json.dumps(obj))
    else:
        print(_human(instance, result, obj))
    return _exit_code(result)


def _human(instance, result: Result, obj: dict) -> str:
    lines = [f"{instance.name}: {result.status.value}"]
    if result.solution is not None:
        lines[0] += f" — {result.length} moves"
    lb = "none (no solution exists)" if result.lower_bound is None else result.lower_bound
    lines.append(f"  lower bound: {lb}   method: {result.method}   "
                 f"time: {result.seconds:.3f} s")
    cert = result.certificate
    if cert:
        lines.append(f"  certificate: {cert['kind']} (scope {cert['scope']})")
        if cert["scope"] == "window":
            lines.append(f"  note: proven inside the window {instance.board.window} only, not globally")
    if result.stats.get("window_optimal"):
        lines.append("  note: shortest among solutions inside the window; not proven globally optimal")
    for t, (s, p) in enumerate(obj["moves"], start=1):
        lines.append(f"  {t:3d}. {s} -> {p}")
    return "\n".join(lines)


def _cmd_verify(args) -> int:
    from .io.instance_format import read_instance
    from .io.solution_format import read_solution
    from .solution import verify

    instance = read_instance(args.file)
    solution = read_solution(instance, args.solution)
    verdict = verify(instance, solution)
    if args.json:
        print(json.dumps({"ok": verdict.ok, "step": verdict.step, "reason": verdict.reason,
                          "length": len(solution)}))
    elif verdict.ok:
        print(f"ok: {len(solution)} legal moves reach the goal")
    elif verdict.step is not None:
        s, p = solution.moves[verdict.step - 1]
        b = instance.board
        show = lambda c: b.coords[c] if 0 <= c < b.size else "off-board cell"  # noqa: E731
        print(f"illegal: step {verdict.step} ({show(s)} -> {show(p)}): {verdict.reason}")
    else:
        print(f"illegal: {verdict.reason}")
    return EXIT_OK if verdict.ok else EXIT_ILLEGAL


def _cmd_show(args) -> int:
    from .io.instance_format import read_instance
    from .io.render import picture, render_solution
    from .io.solution_format import read_solution
    from .solution import verify

    instance = read_instance(args.file)
    b = instance.board
    head = (f"{instance.name}: {b.kind} board, {instance.n_coins} coins, d = {instance.d}, "
            f"goal {instance.goal_placement}, window {b.window} ({b.size} cells"
            f"{', exact' if b.exact else ''})")
    print(head)
    if args.solution is None:
        print("\nstart\n" + picture(instance, instance.start))
        print("\ngoal\n" + picture(instance, instance.goal))
        return EXIT_OK
    solution = read_solution(instance, args.solution)
    verdict = verify(instance, solution)
    print()
    print(render_solution(instance, verdict.trace, solution.moves))
    if not verdict.ok:
        where = f"step {verdict.step}" if verdict.step else "the end"
        print(f"\nillegal at {where}: {verdict.reason}")
        return EXIT_ILLEGAL
    return EXIT_OK
