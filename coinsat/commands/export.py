"""``coinsat export FILE --horizon T --format NAME [-o PATH]``: formulas and tasks for other solvers.

The formats, :func:`~coinsat.export.export_puzzle` (``coinsat.export``) and where the files go
live in the package (``coinsat/export.py``); this command parses the arguments.

Output (every file written atomically, ``coinsat/io/atomic.py``):

* no ``-o``: the text on stdout (several parts one after the other);
* ``-o PATH``: one file; compressed with xz when PATH ends in ``.xz``;
* several parts: ``-o PATH.ext`` writes the last part (the problem) to PATH.ext
  and each other part to ``PATH.<role>.ext`` (``diag.pddl`` + ``diag.domain.pddl``);
  ``-o DIR`` (an existing directory, a path ending in ``/``, or a path without
  a suffix) writes ``DIR/<role>.<format>`` (``DIR/domain.pddl``, ``DIR/problem.pddl``).
"""

from __future__ import annotations

import sys

from ..export import FORMATS, export_puzzle, output_paths, roles
from .common import EXIT_OK, FILE_HELP, check_output_file, nonneg_int


def add_parser(sub) -> None:
    e = sub.add_parser(  # the formats named from the registry, so that the summary cannot drift from it
        "export", help=f"write the puzzle as a formula, a planning task or a circuit ({', '.join(FORMATS)})"
    )
    e.add_argument("file", help=FILE_HELP)
    e.add_argument(
        "--horizon",
        type=nonneg_int,
        default=None,
        metavar="T",
        help="number of moves T (required by every format except pddl; optional for aiger/aig/btor2)",
    )
    e.add_argument(
        "--format",
        choices=tuple(FORMATS),
        required=True,
        help="cnf/wcnf/wcnf-legacy (DIMACS, with a symbol table), opb, lp/mps (pip install 'coinsat[ilp]'), "
        "pddl (a planning task), aiger/aig/btor2 (a circuit)",
    )
    e.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=0|1",
        help="SAT encoding option (encodings/sat.md), e.g. --option commute=0; repeatable",
    )
    e.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="output file (.xz: compressed) or, for pddl, a directory or PATH.pddl; default stdout",
    )
    e.set_defaults(run=run)


def run(args) -> int:
    from ..io.instance_format import read_instance

    if args.output is not None:  # before the (possibly long) export: see common.check_output_file
        for path in output_paths(args.output, args.format, roles(args.format)):
            check_output_file(path, args.file)
    instance = read_instance(args.file)
    out = export_puzzle(instance, args.format, args.horizon, output=args.output, encoding=args.option)
    if args.output is None:
        for _, text in out.parts:
            if isinstance(text, bytes):  # binary AIGER
                sys.stdout.flush()
                sys.stdout.buffer.write(text)
            else:
                sys.stdout.write(text)
    for path in out.files:
        print(f"wrote {path}", file=sys.stderr)
    return EXIT_OK
