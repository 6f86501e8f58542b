"""``coinsat construct FILE``: a solution built by the paper's constructive algorithm.

No search: Theorem 1's triangle maneuvering on the triangular grid, Theorem 2's
canonical L's on the square grid.  The answer is ``feasible`` (verified, not
claimed optimal); when the theorem's hypothesis fails the command says which
condition and exits 2.  The moves may use cells outside the file's window
(the construction widens it: ``window`` in the human view).
"""

from __future__ import annotations

from .common import FILE_HELP, check_output_file, exit_code


def add_parser(sub) -> None:
    from ..constructive import ALGORITHMS

    c = sub.add_parser("construct", help="build a solution with the paper's constructive algorithm")
    c.add_argument("file", help=FILE_HELP)
    c.add_argument(
        "--algorithm",
        choices=("auto", *sorted(ALGORITHMS)),
        default="auto",
        help="which construction (default: the one for the file's board)",
    )
    c.add_argument("--json", action="store_true", help="print one JSON object (the solve contract)")
    c.add_argument("-o", "--output", metavar="PATH", help="also write the JSON object to PATH")
    from .common import add_limit_arguments

    add_limit_arguments(c, "'unknown' and exit 3, nothing written")
    c.set_defaults(run=run)


def run(args) -> int:
    from ..constructive import construct
    from ..errors import ConstructionError
    from ..io.instance_format import read_instance
    from ..io.solution_format import result_to_json
    from ..io.terminal import Display
    from ..limits import enforced
    from .common import limits_of
    from .solve import emit

    limits = limits_of(args)
    if args.output:
        check_output_file(args.output, args.file)
    try:  # the budget covers loading, building and replaying (LimitReached: exit 3, nothing written)
        with enforced(limits), Display(f"construct ({args.algorithm or 'auto'})", quiet=args.json):
            instance = read_instance(args.file)
            built, result = construct(instance, args.algorithm)
    except ConstructionError as e:  # the hypothesis fails for this file: say which file
        raise ConstructionError(f"{args.file}: {e}") from None
    notes = []
    if built.margin != instance.margin:
        notes.append(f"  note: uses cells outside the file's window (margin {built.margin} needed)")
    return emit(args, built, result, result_to_json(built, result), notes) or exit_code(result)
