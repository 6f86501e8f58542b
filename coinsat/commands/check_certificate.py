"""``coinsat check-certificate FILE CERT.json``: exit 0 accepted, 1 rejected (with the reason).

The check is :func:`coinsat.certify.check_certificate`.  The output says what the *checker*
proved (``proven``), derived from the instance and the evidence; the file's own ``claim`` is
shown beside it and is accepted only when implied.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import LimitReached
from .common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_UNKNOWN,
    FILE_HELP,
    add_progress_argument,
    memory_limit_of,
    memory_size,
    pos_float,
    pos_int,
)


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
    add_progress_argument(s)
    s.set_defaults(run=run)


def run(args) -> int:
    from ..certify import check_certificate
    from ..io.instance_format import read_instance
    from ..io.terminal import Display

    instance = read_instance(args.file)
    display = Display("check", quiet=args.json, asked=args.progress)
    display.title(f"the independent checker on {Path(args.certificate).name}")
    try:
        with display:
            c = check_certificate(
                instance,
                args.certificate,
                time_limit=args.time_limit,
                memory_limit=memory_limit_of(args),
                workers=args.workers,
            )
    except LimitReached as e:
        if args.json:
            print(json.dumps({"accepted": None, "reason": str(e), "proven": "", "scope": "", "claim": ""}))
        else:
            print(f"unknown: {e}")
        return EXIT_UNKNOWN
    if args.json:
        print(
            json.dumps(
                {
                    "accepted": c.ok,
                    "reason": c.reason,
                    "proven": c.claim,
                    "scope": c.scope,
                    "claim": c.claimed,
                    "seconds": round(c.seconds, 6),
                }
            )
        )
    elif c.ok:
        also = "" if c.claimed == c.claim else f"\n  the certificate claims less: {c.claimed}"
        print(f"accepted: {c.reason}\n  proven: {c.claim} (scope {c.scope}){also}")
    else:
        print(f"rejected: {c.reason}")
    return EXIT_OK if c.ok else EXIT_ILLEGAL
