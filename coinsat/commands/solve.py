"""``coinsat solve FILE``: a shortest solution, or a proof that there is none."""

from __future__ import annotations

import json
import sys

from ..io.terminal import Display, escaped
from ..result import Result, Scope, Status
from .common import (
    EXIT_UNKNOWN,
    EXIT_USAGE,
    FILE_HELP,
    add_limit_arguments,
    add_method_arguments,
    add_progress_argument,
    check_output_dir,
    check_output_file,
    exit_code,
    limits_of,
    nonneg_int,
    progress_options,
)


def add_parser(sub) -> None:
    s = sub.add_parser("solve", help="find a shortest solution, or prove there is none")
    s.add_argument("file", help=FILE_HELP)
    add_method_arguments(
        s,
        "look for solutions of at most N moves (answer 'bounded' if none); rankbfs with --heuristic H "
        "also prunes every state with depth + h > N",
    )
    s.add_argument(
        "--no-screens",
        dest="screens",
        action="store_false",
        help="run the engine alone, without the cheap screens first (invariants, closed sets): "
        "to measure an engine, or to get its own certificate where a screen would answer",
    )
    add_limit_arguments(s)
    s.add_argument("--json", action="store_true", help="print one JSON object (the contract)")
    s.add_argument("-o", "--output", metavar="PATH", help="also write the JSON object to PATH")
    s.add_argument("--certify", metavar="DIR", help="write the answer's certificate to DIR and check it")
    add_progress_argument(s)
    add_engine_arguments(s)
    s.set_defaults(run=run)


def engine_flags() -> dict[str, tuple[dict, list[str]]]:
    """flag -> (its metadata, the methods whose options have it), from every engine's options."""
    from ..search.methods import ENGINES
    from ..search.options import flags_of

    out: dict[str, tuple[dict, list[str]]] = {}
    for name, record in ENGINES.items():
        for _, meta in flags_of(record.options):
            out.setdefault(meta["flag"], (dict(meta), []))[1].append(name)
    return out


def _dest(flag: str) -> str:
    return flag.lstrip("-").replace("-", "_")


def add_engine_arguments(parser) -> None:
    """One flag per option field that an engine offers (``search/options.py``)."""
    for name, (meta, _) in engine_flags().items():
        if meta["type"] == "switch":
            parser.add_argument(name, dest=_dest(name), action="store_true", default=None, help=meta["help"])
            continue
        kw: dict = {"dest": _dest(name), "default": None, "help": meta["help"]}
        if meta["type"] == "count":
            kw["type"] = nonneg_int
        if meta["type"] == "choice":
            kw["choices"] = meta["choices"]
        else:
            kw["metavar"] = meta["metavar"]
        parser.add_argument(name, **kw)


def engine_options(args, instance, display: Display | None = None) -> dict:
    """The chosen method's options from the flags given (a flag of another method is a usage
    error), and ``display`` as the progress callback of the engines that report progress (and as
    the default's ``announce``, which hears the plan)."""
    from dataclasses import fields

    from ..errors import UsageError
    from ..search.methods import spec

    record = spec(args.method)
    own = {f.metadata["flag"]: f.name for f in fields(record.options) if f.metadata}
    options: dict = {}
    for flag, (meta, methods) in engine_flags().items():
        value = getattr(args, _dest(flag))
        if flag not in own:
            if value is not None:
                raise UsageError(f"{flag} is an option of --method {' or '.join(methods)}, not of {args.method!r}")
            continue
        if value is None:
            if "cli_default" in meta:
                options[own[flag]] = meta["cli_default"]
            continue
        if meta["type"] == "solution-length":
            value = solution_length(value, instance, args.file, flag)
        if meta.get("negate"):  # a --no-... switch turns a field that is on by default off
            value = not value
        options[own[flag]] = value
    if display is not None:
        options.update(progress_options(args.method, display))
    return options


def header(args, instance, options: dict) -> tuple[str, str | None, int | None, str | None]:
    """(engine, h, bound, where the bound comes from) of an explicit method, for the display's
    header: rankbfs's h and bound U as the engine takes them (``rank.search.pruning``), SAT's
    horizon hint, or the horizon ``--max-moves``."""
    from ..search.methods import spec

    method, max_moves = args.method, args.max_moves
    given = "--max-moves" if max_moves is not None else None
    if method == "rankbfs":
        from ..search.options import RankbfsOptions
        from ..search.rank.search import pruning

        o = spec(method).make_options(options)
        assert isinstance(o, RankbfsOptions)
        h, bound = pruning(instance, o, max_moves)
        if bound is None:
            return method, None, max_moves, given
        if o.perimeter is not None:
            h += f" + perimeter {o.perimeter}"
        return method, h, bound, f"--upper-bound {args.upper_bound}" if bound == o.upper_bound else "--max-moves"
    hint = options.get("horizon_hint")
    if hint is not None and (max_moves is None or hint < max_moves):
        return method, None, hint, "--horizon-hint"
    return method, None, max_moves, given


def solution_length(text: str, instance, file: str, flag: str) -> int | None:
    """The length of a verified solution: of the solution file ``text``, or of the constructive
    algorithm's (``construct``; None when it builds none)."""
    from ..errors import UsageError

    if text == "construct":
        from ..constructive import construct
        from ..errors import ConstructionError

        try:
            _, built = construct(instance)
        except ConstructionError as e:
            raise UsageError(f"{flag} construct: {e}") from None
        return None if built.solution is None else len(built.solution)
    from ..io.solution_format import read_solution
    from ..solution import verify

    extended, solution = read_solution(instance, text)
    if not verify(extended, solution, keep_trace=False).ok:
        raise UsageError(f"{text}: not a legal solution of {file}, so no upper bound")
    return len(solution)


def run(args) -> int:
    from ..io.instance_format import read_puzzle
    from ..io.solution_format import result_to_json
    from ..limits import enforced
    from ..solve import solve
    from ..theory.plane import PlanePuzzle

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
        silent = args.cluster and not _primary()  # an MPI job: rank 0 alone reports
        display = Display(args.method, quiet=args.json or silent, asked=args.progress and not silent)
        options = engine_options(args, instance, display)
        if args.method != "auto":  # auto's header is its plan, once made (display.announce)
            display.header(*header(args, instance, options))
        with display:
            if args.method == "auto":  # until the plan is made (the screens, a bound of its own)
                display.waiting("the screens, then the plan (engine, h, bound)")
            result = solve(
                instance, args.method, max_moves=args.max_moves, limits=limits, screens=args.screens, **options
            )
            display.stopped = result.stats.get("stopped") or None
            if result.method.startswith("screen:"):  # no search ran
                display.last = f"answered by {result.method}, before any search"
        if args.cluster and not _primary():  # an MPI job: rank 0 alone reports
            return exit_code(result)
        if args.certify and result.status is not Status.UNKNOWN:
            from .certify import certify_report

            certified = certify_report(instance, result, args.certify, limits, quiet=args.json, asked=args.progress)
    obj = result_to_json(instance, result)
    if "resumed" in result.stats:  # rankbfs --resume: the answer continues saved layers
        obj["resumed"] = result.stats["resumed"]
    if "plan" in result.stats:  # method auto: the engine, h and bound it chose (search/plan.py)
        obj["plan"] = result.stats["plan"]
    code = 0
    if certified is not None:
        from .certify import format_report

        obj["certificate_check"], code = certified
    notes = [format_report(obj["certificate_check"])] if "certificate_check" in obj else []
    return emit(args, instance, result, obj, notes) or code or exit_code(result)


def _primary() -> bool:
    from ..search.rank.mpi import is_primary

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
        if obj.get("against_known_optimal"):  # loud on the terminal too (the field says it in the JSON)
            print(escaped(f"coinsat: WARNING: {obj['against_known_optimal']}"), file=sys.stderr)
    else:
        print("\n".join([human(instance, result, obj), *notes]))
    if interrupted:
        print(f"coinsat: interrupted (lower bound {result.lower_bound}); nothing written", file=sys.stderr)
        return EXIT_UNKNOWN
    if error is not None:
        print(escaped(f"coinsat: error: {error} (the answer is printed above)"), file=sys.stderr)
        return EXIT_USAGE
    return 0


def human(instance, result: Result, obj: dict) -> str:
    lines = [f"{instance.name}: {result.status.value}"]
    if result.solution is not None:
        lines[0] += f" — {result.length} moves"
    if obj.get("against_known_optimal"):  # a finding, or a bug: either way the first thing said
        lines.append(f"  WARNING: {obj['against_known_optimal']} (a finding, or a bug)")
    lb = "none (no solution exists)" if result.lower_bound is None else result.lower_bound
    lines.append(f"  lower bound: {lb}   method: {result.method}   time: {result.seconds:.3f} s")
    if "plan" in result.stats:  # method auto: what it chose before the search (search/plan.py)
        lines.append(f"  {describe(result.stats['plan'])}")
    st = result.statistics
    counted = [(k, getattr(st, k)) for k in ("states", "expanded", "pruned", "layers")]
    shown = "   ".join(f"{k}: {v:,}" for k, v in counted if v is not None)
    if shown:
        lines.append(f"  {shown}")
    cert = result.certificate
    if cert:
        lines.append(f"  certificate: {cert.kind} (scope {cert.scope.value})")
        if cert.scope is Scope.WINDOW:
            lines.append(f"  note: proven inside the window {instance.board.window} only, not globally")
    if result.stats.get("stopped"):
        lines.append(f"  stopped: {result.stats['stopped']}")
    if result.stats.get("resumed"):
        r = result.stats["resumed"]
        lines.append(
            f"  resumed: from the layers saved in {r['directory']} (depth {r['depth']}); checked: {r['checked']}"
        )
    if result.stats.get("window_optimal"):  # the engine searched the instance's own window for the solution
        window = instance.board.window
        if result.status is Status.OPTIMAL:  # the lower bound is global: say so, the window is only where it looked
            n = result.length or 0
            lines.append(
                f"  scope: global — no solution with <= {n - 1} moves exists anywhere on the lattice; "
                f"this one of {n} moves, found inside the window {window}, is replayed by rules.py"
            )
        else:
            lines.append(
                f"  note: shortest among the solutions inside the window {window}; "
                f"globally only >= {result.lower_bound} moves is proven"
            )
    for t, (s, p) in enumerate(obj["moves"], start=1):
        lines.append(f"  {t:3d}. {_cell(s)} -> {_cell(p)}")
    return "\n".join(lines)


def describe(plan: dict) -> str:
    """The ``"plan"`` object of the JSON as ``Plan.describe`` words it."""
    from ..search.plan import Plan

    return Plan.from_json(plan).describe()


def _cell(c) -> str:
    """A cell of the JSON move list for people, as every output names it (``cell_text``): [x, y] as
    (x, y), so a move reads ``(3, 1) -> (1, 2)`` here as in show, verify and decode; graph names 2
    and "2" kept apart."""
    from ..io.render import cell_text

    return cell_text(tuple(c) if isinstance(c, list) else c)
