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
checked without the encoder); ``--cubes K`` splits the call into 2^K cubes solved by
``--workers`` processes (cube-and-conquer).  Without a solution or hint, ``--core-only``
and ``--cubes`` certify an optimal answer of ``--method`` the same way.  A solution that
is not optimal (the formula at L − 1 is satisfiable) is reported and exits 1.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import LimitReached
from ..result import Status
from .common import (
    EXIT_ILLEGAL,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_UNKNOWN,
    FILE_HELP,
    add_limit_arguments,
    check_output_dir,
    limits_of,
    method_help,
    nonneg_int,
    pos_int,
)


def _one_shot(args) -> bool:
    return bool(args.solution or args.horizon_hint is not None or args.core_only or args.cubes)


def add_parser(sub) -> None:
    from ..search.methods import METHODS

    s = sub.add_parser("certify", help="solve, then write and check a certificate of the answer")
    s.add_argument("file", help=FILE_HELP)
    s.add_argument(
        "-o", "--output-dir", required=True, metavar="DIR", help="where the certificate files go (created if missing)"
    )
    s.add_argument("--method", choices=sorted(METHODS), default="auto", help=method_help(METHODS))
    s.add_argument(
        "--max-moves",
        type=nonneg_int,
        default=None,
        metavar="N",
        help="look for solutions of at most N moves (then certify 'bounded': none with <= N)",
    )
    s.add_argument("--solution", metavar="SOLUTION.json", help="one-shot: certify that this solution is optimal")
    s.add_argument(
        "--horizon-hint", type=nonneg_int, default=None, metavar="T", help="one-shot: a solution with <= T moves exists"
    )
    s.add_argument("--core-only", action="store_true", help="prove on the core-only CNF (no pruning, no encoder)")
    s.add_argument(
        "--cubes", type=nonneg_int, default=0, metavar="K", help="cube-and-conquer: 2^K cubes (0: one proof)"
    )
    s.add_argument(
        "--workers", type=pos_int, default=1, metavar="N", help="processes solving the cubes (default: %(default)s)"
    )
    s.add_argument(  # the names of certificates/prove/cubes.py SPLITS, DEFAULT_SPLIT first (benchmarks/cubes.md)
        "--split",
        choices=("lookahead", "tree", "middle"),
        default="lookahead",
        help="how the cubes are chosen (default: %(default)s)",
    )
    add_limit_arguments(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=run)


def run(args) -> int:
    from ..io.instance_format import read_instance
    from ..limits import enforced
    from ..solve import solve

    check_output_dir(args.output_dir)
    limits = limits_of(args)
    if args.method in ("sat", "ilp") or _one_shot(args):  # DRAT proofs: refuse before solving without the checker
        from ..certificates.prove.bounded import require_proof_checker

        require_proof_checker()
    if args.solution and args.horizon_hint is not None:
        from ..errors import UsageError

        raise UsageError("give --solution or --horizon-hint, not both")
    if _one_shot(args) and (args.solution or args.horizon_hint is not None):
        return run_one_shot(args, limits)
    with enforced(limits):
        instance = read_instance(args.file)
        result = solve(
            instance,
            args.method,
            max_moves=args.max_moves,
            time_limit=args.time_limit,
            memory_limit=limits.memory_limit,
        )
        if result.status is Status.UNKNOWN:
            why = result.stats.get("stopped", "a limit was hit")
            if args.json:
                print(
                    json.dumps(
                        {
                            "name": instance.name,
                            "status": "unknown",
                            "lower_bound": result.lower_bound,
                            "stopped": why,
                            "accepted": None,
                        }
                    )
                )
            else:
                print(f"{instance.name}: unknown ({why}; lower bound {result.lower_bound}): nothing to certify")
            return EXIT_UNKNOWN
        if _one_shot(args) and result.status is Status.OPTIMAL:
            return _report_one_shot(args, instance, _certify_known(args, instance, limits, result.solution, None))
        summary, code = certify_report(instance, result, args.output_dir, limits, quiet=args.json)
        unused = [f"--cubes {args.cubes}" if args.cubes else "", "--core-only" if args.core_only else ""]
        if any(unused) and summary["kind"] is not None:  # they shape the SAT proof of an optimal answer only
            summary["note"] = (
                f"{' and '.join(u for u in unused if u)} not used: the answer is {result.status.value}, "
                f"certified by a {summary['kind']} certificate (they apply to the proof that an optimal "
                "solution has no shorter one)"
            )
    return report(instance, result, summary, code, args.json)


def run_one_shot(args, limits) -> int:
    """``--solution`` / ``--horizon-hint``: no solve, one UNSAT call below the known solution."""
    from ..io.instance_format import read_instance
    from ..limits import enforced

    with enforced(limits):
        instance = read_instance(args.file)
        solution = None
        if args.solution:
            from ..io.solution_format import read_solution
            from ..solution import verify

            instance, solution = read_solution(instance, args.solution)
            verdict = verify(instance, solution, keep_trace=False)
            if not verdict.ok:
                print(f"{args.solution}: not a solution of {instance.name}: {verdict.reason}")
                return EXIT_ILLEGAL
        return _report_one_shot(args, instance, _certify_known(args, instance, limits, solution, args.horizon_hint))


def _certify_known(args, instance, limits, solution, hint):
    from ..certificates.prove.oneshot import Mode, certify_known

    mode = Mode(core=args.core_only, depth=args.cubes, workers=args.workers, split=args.split)
    deadline = None if limits is None or limits.time_limit is None else limits.deadline
    try:
        return certify_known(
            instance,
            args.output_dir,
            solution=solution,
            hint=hint,
            mode=mode,
            time_limit=limits.remaining() if limits is not None else None,
            memory_limit=limits.memory_limit if limits is not None else None,
            deadline=deadline,
        )
    except (LimitReached, KeyboardInterrupt) as e:
        return "interrupted" if isinstance(e, KeyboardInterrupt) else str(e)


def _report_one_shot(args, instance, done) -> int:
    if isinstance(done, str) or done.result.status is Status.UNKNOWN:
        why = done if isinstance(done, str) else done.result.stats.get("stopped", "a limit was hit")
        if args.json:
            print(json.dumps({"name": instance.name, "status": "unknown", "stopped": why, "accepted": None}))
        else:
            print(f"{instance.name}: unknown ({why}): nothing certified")
        return EXIT_UNKNOWN
    if done.refuted:
        n = len(done.result.solution)
        msg = f"the solution of {n} moves is not optimal: the formula for <= {n - 1} moves is satisfiable"
        if args.json:
            print(json.dumps({"name": instance.name, "status": "feasible", "length": n, "refuted": msg}))
        else:
            print(f"{instance.name}: {msg}")
        return EXIT_ILLEGAL
    if done.certified is None:  # unsolvable found by the SAT engine's screens: certify the usual way
        summary, code = certify_report(instance, done.result, args.output_dir, None, quiet=args.json)
        return report(instance, done.result, summary, code, args.json)
    return report(
        instance,
        done.result,
        _summary(done.certified),
        EXIT_OK if done.certified.check.ok else EXIT_INTERNAL,
        args.json,
    )


def certify_report(instance, result, out_dir, limits=None, quiet: bool = False) -> tuple[dict, int]:
    """Certify ``result`` into ``out_dir``: (a JSON-able summary, exit code); shared with ``solve --certify``.

    A limit or Ctrl-C while building or checking gives a summary with ``accepted`` None
    and exit code 3; nothing is left in ``out_dir``.  A live line shows the work on a terminal
    unless ``quiet`` (``--json``)."""
    from .progress import Live

    try:
        with Live(f"certifying ({result.status.value})", quiet=quiet):
            done = _certify_into(instance, result, Path(out_dir), limits)
    except (LimitReached, KeyboardInterrupt) as e:
        reason = "interrupted" if isinstance(e, KeyboardInterrupt) else str(e)
        return {
            "file": None,
            "kind": None,
            "scope": None,
            "claim": None,
            "accepted": None,
            "reason": f"not certified: {reason}",
            "check_seconds": 0.0,
        }, EXIT_UNKNOWN
    return _summary(done), (EXIT_OK if done.check.ok else EXIT_INTERNAL)


def _summary(done) -> dict:
    c = done.check
    return {
        "file": str(done.path),
        "kind": done.certificate.kind,
        "scope": c.scope,
        "claim": c.claim,
        "accepted": c.ok,
        "reason": c.reason,
        "check_seconds": round(c.seconds, 6),
    }


def _certify_into(instance, result, out: Path, limits):
    """``certificates.prove.make.certify`` with the command's deadline (it builds in a scratch
    folder and moves the files into ``out`` only after the check)."""
    from ..certificates.prove.make import certify

    deadline = None if limits is None or limits.time_limit is None else limits.deadline
    return certify(instance, result, out, deadline=deadline)


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
