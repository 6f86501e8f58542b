"""``coinsat certify FILE -o DIR``: solve, write the certificate of the answer, check it.

``--time-limit`` and ``--memory-limit`` bound the whole command: loading, solving,
and building and checking the certificate (the certificate builder gets the
deadline, and the ambient budget of :mod:`coinsat.limits` stops what does not
poll).  The certificate builder works in a scratch folder and moves the files
into DIR only once the certificate is checked, so a limit, a Ctrl-C or an
error leaves no partial certificate behind.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import LimitReached
from .common import EXIT_INTERNAL, EXIT_OK, EXIT_UNKNOWN, add_limit_arguments, check_output_dir, limits_of, nonneg_int


def add_parser(sub) -> None:
    from ..search.methods import METHODS

    s = sub.add_parser("certify", help="solve, then write and check a certificate of the answer")
    s.add_argument("file")
    s.add_argument(
        "-o", "--output-dir", required=True, metavar="DIR", help="where the certificate files go (created if missing)"
    )
    s.add_argument("--method", choices=sorted(METHODS), default="auto")
    s.add_argument("--max-moves", type=nonneg_int, default=None, metavar="N")
    add_limit_arguments(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=run)


def run(args) -> int:
    from ..io.instance_format import read_instance
    from ..limits import enforced
    from ..result import Status
    from ..solve import solve

    check_output_dir(args.output_dir)
    limits = limits_of(args)
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
        summary, code = certify_report(instance, result, args.output_dir, limits)
    return report(instance, result, summary, code, args.json)


def certify_report(instance, result, out_dir, limits=None) -> tuple[dict, int]:
    """Certify ``result`` into ``out_dir``: (a JSON-able summary, exit code); shared with ``solve --certify``.

    A limit or Ctrl-C while building or checking gives a summary with ``accepted`` None
    and exit code 3; nothing is left in ``out_dir``."""
    try:
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
    c = done.check
    summary = {
        "file": str(done.path),
        "kind": done.certificate.kind,
        "scope": c.scope,
        "claim": c.claim,
        "accepted": c.ok,
        "reason": c.reason,
        "check_seconds": round(c.seconds, 6),
    }
    return summary, (EXIT_OK if c.ok else EXIT_INTERNAL)


def _certify_into(instance, result, out: Path, limits):
    """``certificates.build.make.certify`` with the command's deadline (it builds in a scratch
    folder and moves the files into ``out`` only after the check)."""
    from ..certificates.build.make import certify

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
    return code
