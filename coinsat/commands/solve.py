"""``coinsat solve FILE``: a shortest solution, or a proof that there is none."""

from __future__ import annotations

import json
import sys

from ..result import Result
from .common import (
    EXIT_UNKNOWN,
    EXIT_USAGE,
    add_limit_arguments,
    check_output_dir,
    check_output_file,
    exit_code,
    limits_of,
    nonneg_int,
)
from .sat_progress import add_sat_arguments, sat_options


def add_parser(sub) -> None:
    from ..search.methods import METHODS

    s = sub.add_parser("solve", help="find a shortest solution, or prove there is none")
    s.add_argument("file")
    s.add_argument("--method", choices=sorted(METHODS), default="auto")
    s.add_argument(
        "--max-moves",
        type=nonneg_int,
        default=None,
        metavar="N",
        help="look for solutions of at most N moves (answer 'bounded' if none)",
    )
    add_limit_arguments(s)
    s.add_argument("--json", action="store_true", help="print one JSON object (the contract)")
    s.add_argument("-o", "--output", metavar="PATH", help="also write the JSON object to PATH")
    s.add_argument("--certify", metavar="DIR", help="write the answer's certificate to DIR and check it")
    add_sat_arguments(s)
    s.add_argument(
        "--upper-bound",
        metavar="FILE",
        help="rankbfs: a solution file (or 'construct') whose verified length U prunes states with depth + h > U",
    )
    s.add_argument(
        "--workers", type=nonneg_int, default=None, metavar="N", help="rankbfs: processes (default: one per core)"
    )
    s.add_argument(
        "--cluster",
        action="store_true",
        help="rankbfs: run as one rank of an MPI job (mpiexec -n N coinsat solve FILE --method rankbfs --cluster)",
    )
    s.add_argument(
        "--resume",
        metavar="DIR",
        help="rankbfs: save every layer in DIR; if DIR holds layers of this search, continue from the last",
    )
    s.set_defaults(run=run)


def run(args) -> int:
    from ..io.instance_format import read_puzzle
    from ..io.solution_format import result_to_json
    from ..limits import enforced
    from ..solve import solve
    from ..theory.plane import PlanePuzzle
    from .progress import Live

    limits = limits_of(args)
    check_solver(args, limits)
    if args.output:
        check_output_file(args.output, args.file)
    if args.certify:
        check_output_dir(args.certify)
    certified = None
    with enforced(limits):
        instance = read_puzzle(args.file)
        if isinstance(instance, PlanePuzzle):  # board = "plane": its own exact engine (commands/plane.py)
            from .plane import solve as solve_plane

            return solve_plane(args, instance)
        options = sat_options(args)  # with a line per SAT horizon or spanbfs layer when it can
        ranked = rank_options(args, instance)
        with Live(f"solving ({args.method})", quiet=args.json or "progress" in options) as live:
            if "progress" in ranked:  # rankbfs: depth, layer, states/s, memory, disk in the live line
                ranked["progress"].live = live
            result = solve(
                instance,
                args.method,
                max_moves=args.max_moves,
                time_limit=args.time_limit,
                memory_limit=limits.memory_limit,
                **options,
                **ranked,
            )
        if args.cluster and not _primary():  # an MPI job: rank 0 alone reports
            return exit_code(result)
        if args.certify and result.status.value != "unknown":
            from .certify import certify_report

            certified = certify_report(instance, result, args.certify, limits, quiet=args.json)
    obj = result_to_json(instance, result)
    if "resumed" in result.stats:  # rankbfs --resume: the answer continues saved layers
        obj["resumed"] = result.stats["resumed"]
    code = 0
    if certified is not None:
        from .certify import format_report

        obj["certificate_check"], code = certified
    notes = [format_report(obj["certificate_check"])] if "certificate_check" in obj else []
    return emit(args, instance, result, obj, notes) or code or exit_code(result)


def rank_options(args, instance) -> dict:
    """``upper_bound`` (the length of a verified solution) and ``workers`` for ``rankbfs``."""
    from ..errors import UsageError

    given = args.upper_bound is not None or args.workers is not None or args.cluster or args.resume is not None
    if args.method != "rankbfs":
        if given:
            raise UsageError("--upper-bound, --workers, --cluster and --resume need --method rankbfs")
        return {}
    opts: dict = {"workers": args.workers}
    if not args.json:
        from .rank_progress import RankLine

        opts["progress"] = RankLine()
    if args.cluster:
        opts["cluster"] = True
    if args.resume is not None:
        opts["resume"] = args.resume
        opts["workers"] = 1 if args.workers is None else args.workers
    if args.upper_bound == "construct":
        from ..constructive import construct
        from ..errors import ConstructionError

        try:
            _, built = construct(instance)
        except ConstructionError as e:
            raise UsageError(f"--upper-bound construct: {e}") from None
        if built.solution is not None:
            opts["upper_bound"] = len(built.solution)
    elif args.upper_bound is not None:
        from ..io.solution_format import read_solution
        from ..solution import verify

        extended, solution = read_solution(instance, args.upper_bound)
        if not verify(extended, solution, keep_trace=False).ok:
            raise UsageError(f"{args.upper_bound}: not a legal solution of {args.file}, so no upper bound")
        opts["upper_bound"] = len(solution)
    return opts


def _primary() -> bool:
    from ..search.cluster import is_primary

    return is_primary()


def check_solver(args, limits) -> None:
    """Refuse up front a SAT solver that cannot honour the limits (it could not be stopped)."""
    from ..backends.sat_backend import DEFAULT_SOLVER, require_limitable

    if args.method in ("sat", "auto"):
        require_limitable(args.solver or DEFAULT_SOLVER, limits.time_limit, limits.memory_limit)


def emit(args, instance, result: Result, obj: dict, notes=()) -> int:
    """Print the JSON object (``--json``) or the human view followed by ``notes``, and write
    it to ``--output`` (atomically) — the output of every command that answers a puzzle.

    Returns 0, or an exit code the caller must use: 3 after Ctrl-C (the answer so far is
    printed, nothing is written), 2 when the output file could not be written (the answer
    was printed all the same)."""
    from ..errors import OutputError
    from ..io.atomic import write_atomic

    interrupted = result.stats.get("stopped") == "interrupted"
    error = None
    if args.output and not interrupted:
        try:
            write_atomic(args.output, json.dumps(obj, indent=1) + "\n")
        except OutputError as e:
            error = e
    if args.json:
        print(json.dumps(obj))
    else:
        print("\n".join([human(instance, result, obj), *notes]))
    if interrupted:
        print(f"coinsat: interrupted (lower bound {result.lower_bound}); nothing written", file=sys.stderr)
        return EXIT_UNKNOWN
    if error is not None:
        print(f"coinsat: error: {error} (the answer is printed above)", file=sys.stderr)
        return EXIT_USAGE
    return 0


def human(instance, result: Result, obj: dict) -> str:
    lines = [f"{instance.name}: {result.status.value}"]
    if result.solution is not None:
        lines[0] += f" — {result.length} moves"
    lb = "none (no solution exists)" if result.lower_bound is None else result.lower_bound
    lines.append(f"  lower bound: {lb}   method: {result.method}   time: {result.seconds:.3f} s")
    cert = result.certificate
    if cert:
        lines.append(f"  certificate: {cert['kind']} (scope {cert['scope']})")
        if cert["scope"] == "window":
            lines.append(f"  note: proven inside the window {instance.board.window} only, not globally")
    if result.stats.get("stopped"):
        lines.append(f"  stopped: {result.stats['stopped']}")
    if result.stats.get("resumed"):
        r = result.stats["resumed"]
        lines.append(
            f"  resumed: from the layers saved in {r['directory']} (depth {r['depth']}); checked: {r['checked']}"
        )
    if result.stats.get("window_optimal"):
        lines.append("  note: shortest among solutions inside the window; not proven globally optimal")
    for t, (s, p) in enumerate(obj["moves"], start=1):
        lines.append(f"  {t:3d}. {_cell(s)} -> {_cell(p)}")
    return "\n".join(lines)


def _cell(c) -> str:
    """A cell of the JSON move list for people: [x, y] as is; graph names 2 and "2" kept apart."""
    from ..io.render import cell_text

    return str(c) if isinstance(c, list) else cell_text(c)
