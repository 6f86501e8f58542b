"""``coinsat check-certificate FILE CERT.json``: exit 0 accepted, 1 rejected (with the reason).

The output says what the *checker* proved (``proven``), derived from the instance and the
evidence; the file's own ``claim`` is shown beside it and is accepted only when implied.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from ..errors import InstanceError, LimitReached
from .common import EXIT_ILLEGAL, EXIT_OK, EXIT_UNKNOWN, FILE_HELP, limits_of, memory_size, pos_float, pos_int


def add_parser(sub) -> None:
    s = sub.add_parser("check-certificate", help="check a certificate file independently of the solver")
    s.add_argument("file", help=FILE_HELP)
    s.add_argument(
        "certificate",
        help="the certificate's JSON file (its other files beside it), as certify wrote it; "
        "or a census certificate's folder (census.json and layers.npz, as census wrote it)",
    )
    s.add_argument(
        "--time-limit",
        type=pos_float,
        default=None,
        metavar="S",
        help="stop after S seconds: exit 3, neither accepted nor rejected",
    )
    s.add_argument(
        "--memory-limit",
        type=memory_size,
        default=None,
        metavar="BYTES",
        help="stop (exit 3, neither accepted nor rejected) when the check uses more memory, e.g. 2G; "
        "'none' for no limit (default: 75%% of RAM)",
    )
    s.add_argument(
        "--workers",
        type=pos_int,
        default=None,
        metavar="N",
        help="threads for a large layers certificate (default: one per core; the verdict is the same)",
    )
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=run)


def run(args) -> int:
    from ..certificates.check import check_certificate
    from ..certificates.check.format import alphabet_problem
    from ..io.instance_format import read_instance
    from ..limits import enforced
    from .progress import Live

    workers = args.workers or os.cpu_count() or 1
    deadline = None if args.time_limit is None else time.perf_counter() + args.time_limit
    instance = read_instance(args.file)
    path = Path(args.certificate)
    if path.is_dir() and (path / "census.json").is_file():  # a census certificate is a folder
        path = path / "census.json"
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InstanceError(f"cannot read certificate: {e}", str(path)) from None
    outside = alphabet_problem(data, path.name)  # the checker reads no byte two parsers may disagree on
    try:
        if outside:
            raise ValueError(outside)
        cert = json.loads(data.decode("ascii"))
    except json.JSONDecodeError as e:
        cert = None
        reason = f"malformed JSON: {e.msg} (line {e.lineno})"
    except (ValueError, RecursionError) as e:  # an integer of > 4300 digits, nesting too deep
        cert = None
        reason = (
            outside or f"malformed JSON: {str(e).split(';')[0] if isinstance(e, ValueError) else 'nested too deeply'}"
        )
    if isinstance(cert, dict) and cert.get("kind") == "bounded":  # its DRAT proofs need the certify extra
        from ..registry import require

        for module in ("dratify", "cdclkit"):
            require(module, "checking a bounded certificate's DRAT proof")
    if cert is not None:
        try:
            with enforced(limits_of(args)), Live(f"checking {path.name}", quiet=args.json):
                c = check_certificate(instance, cert, path.parent, deadline, workers)
        except LimitReached as e:
            if args.json:
                print(
                    json.dumps(
                        {
                            "accepted": None,
                            "reason": str(e),
                            "proven": "",
                            "scope": "",
                            "claim": cert.get("claim", "") if isinstance(cert, dict) else "",
                        }
                    )
                )
            else:
                print(f"unknown: {e}")
            return EXIT_UNKNOWN
        ok, reason, proven, scope, claimed, seconds = c.ok, c.reason, c.claim, c.scope, c.claimed, c.seconds
    else:
        ok, proven, scope, claimed, seconds = False, "", "", "", 0.0
    if args.json:
        print(
            json.dumps(
                {
                    "accepted": ok,
                    "reason": reason,
                    "proven": proven,
                    "scope": scope,
                    "claim": claimed,
                    "seconds": round(seconds, 6),
                }
            )
        )
    elif ok:
        also = "" if claimed == proven else f"\n  the certificate claims less: {claimed}"
        print(f"accepted: {reason}\n  proven: {proven} (scope {scope}){also}")
    else:
        print(f"rejected: {reason}")
    return EXIT_OK if ok else EXIT_ILLEGAL
