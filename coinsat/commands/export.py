"""``coinsat export FILE --horizon T --format NAME [-o PATH]``: formulas and tasks for other solvers.

:data:`FORMATS` is the registry (name -> ``"module:function"``, imported on
first use; the ``--format`` choices are built from it).  A format function has
the signature ``f(instance, horizon, **options)`` and returns either the file's
text (``str``) or an object with ``parts() -> ((role, text), ...)`` when the
format needs several files (PDDL: domain and problem).  It raises
``InstanceError``/``UsageError`` on parameters it cannot honour (e.g. a
missing horizon, or a horizon given to PDDL), which the CLI reports with exit 2.

Output (every file written atomically, ``coinsat/io/atomic.py``):

* no ``-o``: the text on stdout (several parts one after the other);
* ``-o PATH``: one file; compressed with xz when PATH ends in ``.xz``;
* several parts: ``-o PATH.ext`` writes the last part (the problem) to PATH.ext
  and each other part to ``PATH.<role>.ext`` (``diag.pddl`` + ``diag.domain.pddl``);
  ``-o DIR`` (an existing directory, a path ending in ``/``, or a path without
  a suffix) writes ``DIR/<role>.<format>`` (``DIR/domain.pddl``, ``DIR/problem.pddl``).
"""

from __future__ import annotations

import lzma
import sys
from pathlib import Path
from typing import Callable

from ..errors import UsageError
from ..registry import load
from .common import EXIT_OK, check_output_file, nonneg_int

# name -> "module:function" (imported on first use)
FORMATS: dict[str, str] = {
    "cnf": "coinsat.io.dimacs:write_cnf",
    "wcnf": "coinsat.io.dimacs:write_wcnf",
    "wcnf-legacy": "coinsat.io.dimacs:write_wcnf_legacy",
    "opb": "coinsat.io.dimacs:write_opb",
    "lp": "coinsat.io.lp_export:lp_text",
    "mps": "coinsat.io.lp_export:mps_text",
    "pddl": "coinsat.io.pddl:pddl_task",
}
SAT_FORMATS = ("cnf", "wcnf", "wcnf-legacy", "opb")  # the formats of coinsat.encode.sat (take --option)


def get_format(name: str) -> Callable:
    return load(FORMATS, name, "format")


def export(instance, fmt: str, horizon: int | None, **options):
    """The text (or parts) of ``instance`` in format ``fmt`` (library entry point)."""
    if horizon is not None and horizon < 0:
        raise UsageError(f"the horizon must be >= 0, not {horizon}")
    return get_format(fmt)(instance, horizon, **options)


def add_parser(sub) -> None:
    e = sub.add_parser("export", help="write the puzzle as a formula (CNF, WCNF, OPB, LP, MPS) or a PDDL task")
    e.add_argument("file")
    e.add_argument("--horizon", type=nonneg_int, default=None, metavar="T",
                   help="number of moves T (required by every format except pddl)")
    e.add_argument("--format", choices=tuple(FORMATS), required=True)
    e.add_argument("--option", action="append", default=[], metavar="NAME=0|1",
                   help="SAT encoding option (encodings/sat.md), e.g. --option commute=0; repeatable")
    e.add_argument("-o", "--output", metavar="PATH",
                   help="output file (.xz: compressed) or, for pddl, a directory or PATH.pddl; default stdout")
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
            sys.stdout.write(text)
        return EXIT_OK
    for path, text in zip(output_paths(args.output, args.format, [r for r, _ in parts]), (t for _, t in parts)):
        write_output(path, text)
        print(f"wrote {path}", file=sys.stderr)
    return EXIT_OK


def encoding_options(items: list[str]):
    """``["commute=0", "ladder=1"]`` -> EncodingOptions (defaults for the rest)."""
    from ..encode.options import DEFAULT_OPTIONS, EncodingOptions

    changes = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or name not in EncodingOptions.names() or value not in ("0", "1"):
            raise UsageError(f"bad --option {item!r}: expected NAME=0 or NAME=1 with NAME one of "
                             f"{', '.join(EncodingOptions.names())}")
        changes[name] = value == "1"
    return DEFAULT_OPTIONS.with_(**changes)


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


def write_output(path: str | Path, text: str) -> None:
    """Write ``text`` atomically; xz-compressed (deterministic bytes) when the name ends in .xz."""
    from ..io.atomic import write_atomic

    path = Path(path)
    data = text.encode("utf-8")
    if path.suffix == ".xz":
        data = lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=6)
    write_atomic(path, data)
