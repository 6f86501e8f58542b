"""``coinsat export FILE --horizon T --format NAME [-o PATH]``: formulas and tasks for other solvers.

The formats and :func:`~coinsat.export.export` live in the package
(``coinsat/export.py``); this command parses the arguments and writes the files.

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
from pathlib import Path

from ..errors import UsageError
from ..export import FORMATS, SAT_FORMATS, encoding_options, export, write_output
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
        roles = ["domain", "problem"] if args.format == "pddl" else [""]
        for path in output_paths(args.output, args.format, roles):
            check_output_file(path, args.file)
    instance = read_instance(args.file)
    if args.option and args.format not in SAT_FORMATS:
        raise UsageError(f"--option sets SAT encoding options; format {args.format!r} does not take them")
    opts = {"encoding": encoding_options(args.option)} if args.option else {}
    out = export(instance, args.format, args.horizon, **opts)
    parts = out.parts() if hasattr(out, "parts") else (("", out),)
    if args.output is None:
        for _, text in parts:
            if isinstance(text, bytes):  # binary AIGER
                sys.stdout.flush()
                sys.stdout.buffer.write(text)
            else:
                sys.stdout.write(text)
        return EXIT_OK
    for path, text in zip(output_paths(args.output, args.format, [r for r, _ in parts]), (t for _, t in parts)):
        write_output(path, text)
        print(f"wrote {path}", file=sys.stderr)
    return EXIT_OK


def output_paths(output: str, fmt: str, roles: list[str]) -> list[Path]:
    """Where each part goes (module docstring)."""
    path = Path(output)
    if len(roles) == 1:
        return [path]
    if output.endswith(("/", "\\")) or path.is_dir() or not path.suffix:
        return [path / f"{role}.{fmt}" for role in roles]
    if path.suffix == ".xz":
        raise UsageError(f"{fmt} output has several files and cannot go to one .xz file: {output}")
    return [path.with_suffix(f".{role}{path.suffix}") for role in roles[:-1]] + [path]
