"""``coinsat certify FILE -o DIR``: solve, write the certificate of the answer, check it.

``--time-limit`` and ``--memory-limit`` bound the whole command: loading, solving,
and building and checking the certificate (the certificate builder gets the
deadline, and the ambient budget of :mod:`coinsat.limits` stops what does not
poll).  The certificate builder works in a scratch folder and moves the files
into DIR only once the certificate is checked, so a limit, a Ctrl-C or an
error leaves no partial certificate behind.

One-shot certification (``certificates/prove/oneshot.py``): with ``--solution FILE`` (a
solution of L moves from any engine, replayed by rules.py first) or ``--horizon-hint T``
(a solution with <= T moves is known to exist: one SAT call finds it) there is no climb:
one fresh UNSAT call at L − 1 with a DRAT proof makes the optimality certificate.
``--core-only`` builds that proof on the core-only CNF (definition families C1–C8 only,
checked without the encoder); ``--lrat`` builds it there and turns it into an LRAT proof
(``docs/certificates.md``, "LRAT proofs"), which ``scripts/referee_check.py`` checks too;
``--cubes K`` splits the call into 2^K cubes solved by ``--workers`` processes
(cube-and-conquer).  Without a solution or hint, ``--core-only``, ``--lrat`` and ``--cubes``
certify an optimal answer of ``--method`` the same way.  A solution that
is not optimal (the formula at L − 1 is satisfiable) is reported and exits 1.
"""

from __future__ import annotations

import json

from ..io.terminal import Display
from ..result import Status
from .common import (
    EXIT_ILLEGAL,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_UNKNOWN,
    FILE_HELP,
    add_limit_arguments,
    add_method_arguments,
    add_progress_argument,
    check_output_dir,
    limits_of,
    nonneg_int,
    pos_int,
    progress_options,
)


def add_parser(sub) -> None:
    from ..certify import SPLITS

    s = sub.add_parser("certify", help="solve, then write and check a certificate of the answer")
    s.add_argument("file", help=FILE_HELP)
    s.add_argument(
        "-o", "--output-dir", required=True, metavar="DIR", help="where the certificate files go (created if missing)"
    )
    add_method_arguments(s, "look for solutions of at most N moves (then certify 'bounded': none with <= N)")
    s.add_argument("--solution", metavar="SOLUTION.json", help="one-shot: certify that this solution is optimal")
    s.add_argument(
        "--horizon-hint", type=nonneg_int, default=None, metavar="T", help="one-shot: a solution with <= T moves exists"
    )
    s.add_argument("--core-only", action="store_true", help="prove on the core-only CNF (no pruning, no encoder)")
    s.add_argument(
        "--lrat",
        action="store_true",
        help="an LRAT proof on the core-only CNF (scripts/referee_check.py checks it too)",
    )
    s.add_argument(
        "--cubes", type=nonneg_int, default=0, metavar="K", help="cube-and-conquer: 2^K cubes (default: 0, one proof)"
    )
    s.add_argument(
        "--workers", type=pos_int, default=1, metavar="N", help="processes solving the cubes (default: %(default)s)"
    )
    s.add_argument(  # the names of certificates/prove/cubes.py SPLITS, DEFAULT_SPLIT first (benchmarks/cubes.md)
        "--split",
        choices=SPLITS,
        default=SPLITS[0],
        help="how the cubes are chosen (default: %(default)s)",
    )
    add_limit_arguments(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    add_progress_argument(s)
    s.set_defaults(run=run)


def run(args) -> int:
    from ..certify import certify
    from ..errors import IllegalMoveError
    from ..io.instance_format import read_instance
    from ..limits import enforced

    check_output_dir(args.output_dir)
    limits = limits_of(args)
    with enforced(limits):  # the budget covers loading too
        instance = read_instance(args.file)
        solution = None
        if args.solution:
            from ..io.solution_format import read_solution

            instance, solution = read_solution(instance, args.solution)
    display = Display(args.method, quiet=args.json, asked=args.progress)
    options = progress_options(args.method, display)
    if solution is not None or args.horizon_hint is not None:  # one-shot: one UNSAT call below a known length
        known = len(solution) if solution is not None else args.horizon_hint
        where = args.solution if solution is not None else "--horizon-hint"
        display.header("sat", None, known, where, "one-shot: one UNSAT call with a DRAT proof, one move below")
    elif args.method != "auto":
        display.header(args.method, None, args.max_moves, "--max-moves" if args.max_moves is not None else None)
    try:
        with display:
            done = certify(
                instance,
                args.output_dir,
                method=args.method,
                max_moves=args.max_moves,
                solution=solution,
                horizon_hint=args.horizon_hint,
                core_only=args.core_only,
                lrat=args.lrat,
                cubes=args.cubes,
                workers=args.workers,
                split=args.split,
                limits=limits,
                **options,
            )
            display.stopped = done.stopped or None
    except IllegalMoveError as e:
        print(f"{args.solution}: {e.reason}")
        return EXIT_ILLEGAL
    spelling = {"cubes": f"--cubes {args.cubes}", "core_only": "--core-only", "lrat": "--lrat"}
    return report_certification(instance, done, args.json, spelling)


def report_certification(instance, done, as_json: bool, spelling=None) -> int:
    """Print what :func:`coinsat.certify.certify` did; the exit code (0 accepted, 1 refuted, 3 stopped, 4 rejected)."""
    result = done.result
    if result.status is Status.UNKNOWN:
        why = done.stopped
        if as_json:
            obj = {"name": instance.name, "status": "unknown", "lower_bound": result.lower_bound}
            print(json.dumps({**obj, "stopped": why, "accepted": None}))
        else:
            print(f"{instance.name}: unknown ({why}; lower bound {result.lower_bound}): nothing to certify")
        return EXIT_UNKNOWN
    if done.refuted:
        n = result.length
        msg = f"the solution of {n} moves is not optimal: the formula for <= {n - 1} moves is satisfiable"
        if as_json:
            print(json.dumps({"name": instance.name, "status": "feasible", "length": n, "refuted": msg}))
        else:
            print(f"{instance.name}: {msg}")
        return EXIT_ILLEGAL
    return report(instance, result, done.summary(spelling), _code(done), as_json)


def _code(done) -> int:
    return EXIT_UNKNOWN if done.accepted is None else EXIT_OK if done.accepted else EXIT_INTERNAL


def certify_report(
    instance, result, out_dir, limits=None, quiet: bool = False, asked: bool = False
) -> tuple[dict, int]:
    """Certify ``result`` into ``out_dir``: (a JSON-able summary, exit code); what ``solve --certify``
    prints (:func:`coinsat.certify.certify_result`).

    A limit or Ctrl-C while building or checking gives a summary with ``accepted`` None
    and exit code 3; nothing is left in ``out_dir``.  The display (``io/terminal.py``) shows the
    work on a terminal unless ``quiet`` (``--json``), and elsewhere when ``asked`` (``--progress``)."""
    from ..certify import certify_result

    with Display(f"certificate ({result.status.value})", quiet=quiet, asked=asked):
        done = certify_result(instance, result, out_dir, limits=limits)
    return done.summary(), _code(done)


def format_report(summary: dict) -> str:
    if summary["accepted"] is None:
        return f"  certificate: {summary['reason']}"
    verdict = "accepted" if summary["accepted"] else "REJECTED"
    return (
        f"  certificate {summary['file']} ({summary['kind']}, scope {summary['scope']}): {verdict} "
        f"in {summary['check_seconds']:.3f} s\n  claim: {summary['claim']}\n  check: {summary['reason']}"
    )


def report(instance, result, summary: dict, code: int, as_json: bool) -> int:
    if as_json:
        print(json.dumps({"name": instance.name, "status": result.status.value, **summary}))
    else:
        print(f"{instance.name}: {result.status.value}\n" + format_report(summary))
        if summary.get("note"):
            print(f"  note: {summary['note']}")
    return code
