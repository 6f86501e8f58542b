"""``coinsat count FILE``: in how many ways can the puzzle be solved optimally (``coinsat/count.py``)."""

from __future__ import annotations

import json

from .common import EXIT_OK, EXIT_UNKNOWN, FILE_HELP, add_limit_arguments, add_progress_argument, limits_of


def add_parser(sub) -> None:
    c = sub.add_parser("count", help="count the optimal solutions (move sequences, traces, configurations)")
    c.add_argument("file", help=FILE_HELP)
    c.add_argument(
        "--up-to-symmetry",
        action="store_true",
        help="also print the optimal sequences up to the puzzle's symmetries (rotations, reflections)",
    )
    add_limit_arguments(c, "'unknown' and exit 3 when the count is not complete")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    add_progress_argument(c)
    c.set_defaults(run=run)


def run(args) -> int:
    from ..count import Progress, count
    from ..io.instance_format import read_instance
    from ..io.terminal import Display, short
    from ..limits import enforced

    limits = limits_of(args)
    display = Display("count", quiet=args.json, asked=args.progress)
    display.header("count", note="the optimum by auto, then the layers of the optimal solutions from both ends")
    with enforced(limits), display:
        instance = read_instance(args.file)
        left = limits.remaining()

        def show(p: Progress) -> None:
            display.update(f"{p.side} layer {p.depth}  states {short(p.states)}  {display.rate(p.states)}")

        counted = count(
            instance,
            time_limit=None if left is None else max(left, 1e-3),
            memory_limit=limits.memory_limit,
            progress=show,
        )
    if args.json:
        print(json.dumps(counted.as_json()))
    elif counted.sequences is None:
        print(f"{instance.name}: {counted.status}: not counted ({counted.note})")
    elif counted.length is None:
        print(f"{instance.name}: {counted.status}: 0 solutions")
    else:
        traces = "not counted" if counted.traces is None else str(counted.traces)
        per_step = " ".join(map(str, counted.configurations or ()))
        print(
            f"{instance.name}: {counted.sequences} optimal move sequences of {counted.length} moves; "
            f"{traces} up to reordering commuting moves; {counted.configuration_sets} distinct sets of "
            f"configurations visited; configurations on some optimal sequence, step by step: {per_step}"
        )
        if args.up_to_symmetry:
            print(
                f"up to symmetry: {counted.up_to_symmetry} classes of optimal sequences "
                f"(a symmetry group of order {counted.symmetries})"
            )
        if counted.note:
            print(f"note: {counted.note}")
    return EXIT_UNKNOWN if counted.sequences is None else EXIT_OK
