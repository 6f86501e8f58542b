"""``coinsat decode FILE FORMULA MODEL``: an outside solver's model of an exported formula, as a solution file.

``coinsat export FILE --horizon T --format cnf`` writes the formula with its symbol table
(``c var N Fill(cell=(x, y), t=k)``); any SAT solver's model of it (the SAT Competition's
``s SATISFIABLE`` / ``v 1 -2 ... 0`` lines, or a bare list of literals; ``x12`` / ``-x12`` as
pseudo-Boolean solvers print them) is read through that table (``io.dimacs.decode_symbols``),
replayed by rules.py (``verify``) and printed or written as a solution object, which ``verify``,
``show``, ``improve`` and ``certify --solution`` read.  A model that does not decode to legal
moves reaching the goal is reported (exit 1) and nothing is written.
"""

from __future__ import annotations

import json
import re

from .common import EXIT_ILLEGAL, EXIT_OK, check_output_file

_LITERAL = re.compile(r"^[-+]?x?\d+$")


def add_parser(sub) -> None:
    d = sub.add_parser(
        "decode", help="turn an outside SAT solver's model of an exported CNF into a solution file (replayed)"
    )
    d.add_argument("file", help="the instance file (or a shipped puzzle: paper/diagonal)")
    d.add_argument("formula", help="the file coinsat export wrote (its 'c var N ...' symbol table is read)")
    d.add_argument("model", help="the solver's output: 's SATISFIABLE' and 'v ... 0' lines, or the literals alone")
    d.add_argument("-o", "--output", metavar="PATH", help="write the solution object (JSON) here")
    d.add_argument("--json", action="store_true", help="print the solution object instead of the moves")
    d.set_defaults(run=run)


def read_model(path: str) -> list[int]:
    """The true and false literals of a solver's output; InstanceError naming the file otherwise."""
    from ..errors import InstanceError

    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except FileNotFoundError:
        raise InstanceError("no such file", path) from None
    except OSError as e:
        raise InstanceError(f"cannot read the model: {e.strerror or e}", path) from None
    literals: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        if words[0] in ("s", "SAT", "UNSAT", "UNSATISFIABLE", "SATISFIABLE", "INDET", "UNKNOWN"):
            answer = " ".join(words[1:] if words[0] == "s" else words)
            if "UNSAT" in answer:
                raise InstanceError(
                    "the solver answered UNSATISFIABLE: no solution within the formula's horizon, no model",
                    path,
                    number,
                )
            if answer not in ("SATISFIABLE", "SAT"):
                raise InstanceError(f"the solver answered {answer!r}: no model", path, number)
            continue
        if words[0] == "v":
            words = words[1:]
        for w in words:
            if not _LITERAL.match(w):
                raise InstanceError(f"{w[:40]!r} is not a literal (an integer, or x12 / -x12)", path, number)
            value = int(w.replace("x", ""))
            if value != 0:
                literals.append(value)
    if not literals:
        raise InstanceError("no literals: not a model (give the solver's output for the exported formula)", path)
    return literals


def run(args) -> int:
    from ..errors import InstanceError
    from ..io.atomic import write_atomic
    from ..io.dimacs import decode_symbols, read_symbols
    from ..io.instance_format import read_instance
    from ..io.solution_format import moves_to_json
    from ..solution import verify

    if args.output:
        check_output_file(args.output, args.file, args.formula, args.model)
    instance = read_instance(args.file)
    try:
        with open(args.formula, encoding="utf-8", errors="replace") as f:
            header = f.read(1 << 20)  # the symbol table precedes the clauses
    except OSError as e:
        raise InstanceError(f"cannot read the formula: {e.strerror or e}", args.formula) from None
    symbols = read_symbols(header)
    if not symbols:
        raise InstanceError("no 'c var N ...' symbol table: not a formula coinsat export wrote", args.formula)
    named = re.search(r"^c instance: (.*)$", header, re.M)
    if named and named.group(1).strip() != instance.name:
        raise InstanceError(f"the formula is of {named.group(1).strip()!r}, not of {instance.name!r}", args.formula)
    solution = decode_symbols(instance, symbols, read_model(args.model))
    verdict = verify(instance, solution, keep_trace=False)
    if not verdict.ok:
        where = f"step {verdict.step}" if verdict.step else "the end"
        print(f"illegal at {where}: {verdict.reason} (the model is not a solution; nothing written)")
        return EXIT_ILLEGAL
    moves: list = moves_to_json(instance, solution) or []
    obj = {
        "name": instance.name,
        "status": "feasible",
        "length": len(solution),
        "lower_bound": 0,  # nothing proven about shorter solutions
        "moves": moves,
        "method": "decode",
    }
    if args.output:
        write_atomic(args.output, json.dumps(obj, indent=1) + "\n")
    if args.json:
        print(json.dumps(obj))
    else:
        print(
            f"{instance.name}: {len(solution)} moves decoded from {args.model}; "
            "replayed by rules.py: they reach the goal"
        )
        for t, (s, p) in enumerate(moves, start=1):
            print(f"  {t:3d}. {s} -> {p}")
    return EXIT_OK
