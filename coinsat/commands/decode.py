"""``coinsat decode FILE FORMULA MODEL``: an outside solver's model of an exported formula, or a
planner's plan of an exported PDDL task, as a solution file.

``coinsat export FILE --horizon T --format cnf`` writes the formula with its symbol table
(``c var N Fill(cell=(x, y), t=k)``); any SAT solver's model of it (the SAT Competition's
``s SATISFIABLE`` / ``v 1 -2 ... 0`` lines, or a bare list of literals; ``x12`` / ``-x12`` as
pseudo-Boolean solvers print them) is read through that table (:func:`coinsat.export.decode`),
replayed by rules.py (``verify``) and printed or written as a solution object, which ``verify``,
``show``, ``improve`` and ``certify --solution`` read.  With FORMULA a domain or problem file of
``coinsat export FILE --format pddl``, MODEL is a planner's plan (Fast Downward's ``sas_plan``:
``(move s p ...)`` lines; encodings/pddl.md).  A model or plan that does not decode to legal
moves reaching the goal is reported (exit 1) and nothing is written.
"""

from __future__ import annotations

import json

from .common import EXIT_ILLEGAL, EXIT_OK, check_output_file


def add_parser(sub) -> None:
    d = sub.add_parser(
        "decode",
        help="turn an outside SAT solver's model of an exported CNF, or a planner's plan of an exported "
        "PDDL task, into a solution file (replayed)",
    )
    d.add_argument("file", help="the instance file (or a shipped puzzle: paper/diagonal)")
    d.add_argument(
        "formula",
        help="the file coinsat export wrote: a CNF/WCNF/OPB (its 'c var N ...' symbol table is read), "
        "or the PDDL domain or problem",
    )
    d.add_argument(
        "model",
        help="the solver's output: 's SATISFIABLE' and 'v ... 0' lines, or the literals alone; "
        "for PDDL, the planner's plan ('(move s p ...)' lines)",
    )
    d.add_argument("-o", "--output", metavar="PATH", help="write the solution object (JSON) here")
    d.add_argument("--json", action="store_true", help="print the solution object instead of the moves")
    d.set_defaults(run=run)


def run(args) -> int:
    from ..errors import IllegalMoveError
    from ..export import decode
    from ..io.atomic import write_atomic
    from ..io.instance_format import read_instance
    from ..io.solution_format import moves_to_json

    if args.output:
        check_output_file(args.output, args.file, args.formula, args.model)
    instance = read_instance(args.file)
    try:
        result = decode(instance, args.formula, args.model)
    except IllegalMoveError as e:
        where = f"step {e.step}" if e.step else "the end"
        print(f"illegal at {where}: {e.reason} (not a solution; nothing written)")
        return EXIT_ILLEGAL
    solution = result.solution
    assert solution is not None  # feasible
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
        print(solution.text(instance))
    return EXIT_OK
