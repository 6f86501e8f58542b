"""``coinsat improve FILE SOLUTION.json``: shorten a verified solution (:func:`coinsat.improve.improve`).

The input solution is replayed first (an illegal one is refused, exit 2, naming the file).
The answer is ``feasible`` with the best lower bound known — the static bound of
``theory.reach`` on an exact window, or what the exact engine proved on the whole solution's
window span(start) (``search/improve.py``) — or ``optimal`` only when that bound meets the length.
Anytime: on a terminal the display (``io/terminal.py``) shows the length so far in its live line;
``--progress`` prints every improvement (and every larger lower bound) to stderr as it comes,
and ``--checkpoint PATH`` rewrites PATH (atomically) with every improvement, each one replayed
by ``certify_solution`` first, so a run that is stopped keeps its best solution there.
``--local-only`` runs the local passes alone (no whole-window search, so no lower bound beyond
the static one): for shortening a long solution whose lower bound is proven elsewhere.
``-o`` is written once, at the end, like every command's (not after Ctrl-C).
"""

from __future__ import annotations

from .common import FILE_HELP, add_limit_arguments, check_output_file, exit_code, limits_of, nonneg_int


def add_parser(sub) -> None:
    c = sub.add_parser("improve", help="shorten a verified solution (anytime local optimisation)")
    c.add_argument("file", help=FILE_HELP)
    c.add_argument("solution", help="JSON object with 'moves' (e.g. the output of construct --json)")
    add_limit_arguments(c)
    c.add_argument("--json", action="store_true", help="print one JSON object (the solve contract)")
    c.add_argument("-o", "--output", metavar="PATH", help="also write the JSON object to PATH")
    c.add_argument("--checkpoint", metavar="PATH", help="rewrite PATH with every verified improvement")
    c.add_argument(
        "--progress",
        action="store_true",
        help="print every improvement to stderr, also when it is not a terminal or with --json "
        "(default: a live line on a terminal only)",
    )
    c.add_argument(  # the defaults are search.improve.ImproveOptions's (tests/test_method_help.py holds them)
        "--stretch-time",
        type=float,
        default=None,
        metavar="S",
        help="seconds for one stretch's local puzzle (default: 5)",
    )
    c.add_argument(
        "--max-stretch",
        type=nonneg_int,
        default=None,
        metavar="N",
        help="longest stretch solved as a puzzle (default: 48, the longest of the ladder)",
    )
    c.add_argument(
        "--stretches",
        default=None,
        metavar="N,N,...",
        help="the stretch lengths, in moves, instead of the default ladder 3,4,6,8,12,16,24,32,48 "
        "(--max-stretch then caps them)",
    )
    c.add_argument(
        "--local-only",
        action="store_true",
        help="only the local passes: no search of the whole solution's window (when a lower bound "
        "comes from elsewhere, e.g. rankbfs --upper-bound, all the time goes to shortening)",
    )
    c.set_defaults(run=run)


def run(args) -> int:
    from ..errors import IllegalMoveError, InstanceError
    from ..improve import improve, improve_options
    from ..io.instance_format import read_instance
    from ..io.solution_format import read_solution, result_to_json
    from ..io.terminal import Display
    from ..limits import enforced
    from ..search.improve import static_bound
    from .solve import emit

    limits = limits_of(args)
    for path in (args.output, args.checkpoint):
        if path:
            check_output_file(path, args.file, args.solution)
    options = improve_options(
        stretch_time=args.stretch_time,
        stretches=None if args.stretches is None else _lengths(args.stretches),
        max_stretch=args.max_stretch,
        local_only=args.local_only,
    )
    with enforced(limits):
        original = read_instance(args.file)
        instance, solution = read_solution(original, args.solution)
        bound = static_bound(original)  # the file's window (the solution's may be wider)

    display = Display("improve", quiet=args.json, asked=args.progress)
    say = display.log if args.progress else display.update  # --progress: a line per event

    def on_step(better, step) -> None:
        say(f"{step.length} moves ({step.rule}, {step.seconds:.1f} s)")

    def on_bound(proven: int, seconds: float) -> None:
        say(f"every solution needs >= {proven} moves ({seconds:.1f} s)")

    def on_search(horizon: int, seconds: float) -> None:
        say(f"searching span(start) for <= {horizon} moves ({seconds:.1f} s)")

    display.header("improve", None, len(solution), args.solution)
    try:
        with display:
            result = improve(
                instance,
                solution,
                limits=limits,
                options=options,
                lower_bound=bound,
                checkpoint=args.checkpoint,
                on_step=on_step,
                on_bound=on_bound,
                on_search=on_search,
            )
            display.stopped = result.stats.get("stopped") or None
    except IllegalMoveError as e:
        where = f"step {e.step}" if e.step else "its end"
        raise InstanceError(f"the solution is not legal ({where}: {e.reason})", args.solution, None) from None
    notes = [f"  improved from {len(solution)} moves in {len(result.stats['steps'])} steps"]
    return emit(args, instance, result, result_to_json(instance, result), notes) or exit_code(result)


def _lengths(text: str) -> tuple[int, ...]:
    """``--stretches``: comma-separated integers (checked by :func:`coinsat.improve.improve_options`)."""
    from ..errors import UsageError

    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise UsageError(f"--stretches takes comma-separated integers, not {text!r}") from None
