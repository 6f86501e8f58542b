"""``coinsat certify FILE -o DIR``: solve, write the certificate of the answer, check it."""

from __future__ import annotations

import json

from .common import EXIT_INTERNAL, EXIT_OK, EXIT_UNKNOWN, nonneg_int, pos_float


def add_parser(sub) -> None:
    from ..search.methods import METHODS

    s = sub.add_parser("certify", help="solve, then write and check a certificate of the answer")
    s.add_argument("file")
    s.add_argument("-o", "--output-dir", required=True, metavar="DIR", help="where the certificate files go")
    s.add_argument("--method", choices=sorted(METHODS), default="auto")
    s.add_argument("--max-moves", type=nonneg_int, default=None, metavar="N")
    s.add_argument("--time-limit", type=pos_float, default=None, metavar="S")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=run)


def run(args) -> int:
    from ..io.instance_format import read_instance
    from ..result import Status
    from ..search.methods import solve

    instance = read_instance(args.file)
    result = solve(instance, args.method, max_moves=args.max_moves, time_limit=args.time_limit)
    if result.status is Status.UNKNOWN:
        print(f"{instance.name}: unknown (a limit was hit): nothing to certify")
        return EXIT_UNKNOWN
    return report(instance, result, args.output_dir, args.json)


def certify_report(instance, result, out_dir) -> tuple[dict, int]:
    """Certify ``result`` into ``out_dir``: (a JSON-able summary, exit code); shared with ``solve --certify``."""
    from ..certificates.make import certify

    done = certify(instance, result, out_dir)
    c = done.check
    summary = {"file": str(done.path), "kind": done.certificate["kind"], "scope": c.scope, "claim": c.claim,
               "accepted": c.ok, "reason": c.reason, "check_seconds": round(c.seconds, 6)}
    return summary, (EXIT_OK if c.ok else EXIT_INTERNAL)


def format_report(summary: dict) -> str:
    verdict = "accepted" if summary["accepted"] else "REJECTED"
    return (f"  certificate {summary['file']} ({summary['kind']}, scope {summary['scope']}): {verdict} "
            f"in {summary['check_seconds']:.3f} s\n  claim: {summary['claim']}\n  check: {summary['reason']}")


def report(instance, result, out_dir, as_json: bool) -> int:
    summary, code = certify_report(instance, result, out_dir)
    if as_json:
        print(json.dumps({"name": instance.name, "status": result.status.value, **summary}))
    else:
        print(f"{instance.name}: {result.status.value}\n" + format_report(summary))
    return code
