"""``coinsat improve FILE SOLUTION.json``: shorten a verified solution (``coinsat.search.improve``).

The input solution is replayed first (an illegal one is refused, exit 2, naming the file).
The answer is ``feasible`` with the best lower bound known — the static bound of
``theory.reach`` on an exact window, or what the exact engine proved on the whole solution's
window span(start) (``search/improve.py``) — or ``optimal`` only when that bound meets the length.
Anytime: ``--progress`` prints every improvement (and every larger lower bound) to stderr as it
comes, and ``--checkpoint PATH`` rewrites PATH (atomically) with every improvement, each one
replayed by ``certify_solution`` first, so a run that is stopped keeps its best solution there.
``--local-only`` runs the local passes alone (no whole-window search, so no lower bound beyond
the static one): for shortening a long solution whose lower bound is proven elsewhere.
``-o`` is written once, at the end, like every command's (not after Ctrl-C).
"""

from __future__ import annotations

import json
import sys

from .common import FILE_HELP, add_limit_arguments, check_output_file, exit_code, limits_of, nonneg_int


def add_parser(sub) -> None:
    c = sub.add_parser("improve", help="shorten a verified solution (anytime local optimisation)")
    c.add_argument("file", help=FILE_HELP)
    c.add_argument("solution", help="JSON object with 'moves' (e.g. the output of construct --json)")
    add_limit_arguments(c)
    c.add_argument("--json", action="store_true", help="print one JSON object (the solve contract)")
    c.add_argument("-o", "--output", metavar="PATH", help="also write the JSON object to PATH")
    c.add_argument("--checkpoint", metavar="PATH", help="rewrite PATH with every verified improvement")
    c.add_argument("--progress", action="store_true", help="print every improvement to stderr")
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
    from dataclasses import replace

    from ..errors import InstanceError, UsageError
    from ..io.atomic import write_atomic
    from ..io.instance_format import read_instance
    from ..io.solution_format import read_solution, result_to_json
    from ..limits import enforced
    from ..search.improve import ImproveOptions, improve, static_bound
    from ..solution import verify
    from .solve import emit

    limits = limits_of(args)
    for path in (args.output, args.checkpoint):
        if path:
            check_output_file(path, args.file, args.solution)
    options = ImproveOptions()
    if args.stretch_time is not None:
        if not args.stretch_time > 0:
            raise UsageError(f"--stretch-time must be > 0, not {args.stretch_time}")
        options = replace(options, stretch_time=args.stretch_time)
    if args.stretches is not None:
        options = replace(options, lengths=_lengths(args.stretches))
    if args.max_stretch is not None:
        lengths = tuple(n for n in options.lengths if n <= args.max_stretch)
        if not lengths:
            raise UsageError(f"--max-stretch must be >= {min(options.lengths)}, not {args.max_stretch}")
        options = replace(options, lengths=lengths)
    if args.local_only:  # the local passes get all the time; the whole window is never searched
        options = replace(options, climb=False, probe_share=0.0, local_share=1.0, final_time=0.0)
    with enforced(limits):
        original = read_instance(args.file)
        instance, solution = read_solution(original, args.solution)
        verdict = verify(instance, solution, keep_trace=False)
        if not verdict.ok:
            where = f"step {verdict.step}" if verdict.step else "its end"
            raise InstanceError(f"the solution is not legal ({where}: {verdict.reason})", args.solution, None)
        bound = static_bound(original)
    # improve polls its own limits between steps and keeps its best solution when they are
    # spent; the ambient watchdog that bounds the loading above would stop it with nothing

    def on_step(better, step) -> None:
        if args.progress:
            print(f"improve: {step.length} moves ({step.rule}, {step.seconds:.1f} s)", file=sys.stderr)
        if args.checkpoint:
            obj = result_to_json(instance, _feasible(better, bound))
            write_atomic(args.checkpoint, json.dumps(obj, indent=1) + "\n")

    def on_bound(proven: int, seconds: float) -> None:
        if args.progress:
            print(f"improve: every solution needs >= {proven} moves ({seconds:.1f} s)", file=sys.stderr)

    def on_search(horizon: int, seconds: float) -> None:
        if args.progress:
            print(f"improve: searching span(start) for <= {horizon} moves ({seconds:.1f} s)", file=sys.stderr)

    result = improve(
        instance,
        solution,
        time_limit=limits.remaining(),
        memory_limit=limits.memory_limit,
        lower_bound=bound,
        options=options,
        on_step=on_step,
        on_bound=on_bound,
        on_search=on_search,
    )
    notes = [f"  improved from {len(solution)} moves in {len(result.stats['steps'])} steps"]
    return emit(args, instance, result, result_to_json(instance, result), notes) or exit_code(result)


def _feasible(solution, bound: int):
    from ..result import Result, Status

    return Result(status=Status.FEASIBLE, method="improve", solution=solution, lower_bound=min(bound, len(solution)))


def _lengths(text: str) -> tuple[int, ...]:
    """``--stretches``: comma-separated integers >= 2, sorted, repeats dropped."""
    from ..errors import UsageError

    try:
        lengths = sorted({int(part) for part in text.split(",")})
    except ValueError:
        raise UsageError(f"--stretches takes comma-separated integers, not {text!r}") from None
    if lengths[0] < 2:
        raise UsageError(f"--stretches: a stretch has >= 2 moves, not {lengths[0]}")
    return tuple(lengths)
