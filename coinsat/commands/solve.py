"""``coinsat solve FILE``: a shortest solution, or a proof that there is none."""

from __future__ import annotations

import json

from ..result import Result
from .common import exit_code, nonneg_int, pos_float
from .sat_progress import add_sat_arguments, sat_options


def add_parser(sub) -> None:
    from ..search.methods import METHODS

    s = sub.add_parser("solve", help="find a shortest solution, or prove there is none")
    s.add_argument("file")
    s.add_argument("--method", choices=sorted(METHODS), default="auto")
    s.add_argument("--max-moves", type=nonneg_int, default=None, metavar="N",
                   help="look for solutions of at most N moves (answer 'bounded' if none)")
    s.add_argument("--time-limit", type=pos_float, default=None, metavar="S",
                   help="stop after S seconds (answer 'unknown' or 'feasible')")
    s.add_argument("--json", action="store_true", help="print one JSON object (the contract)")
    s.add_argument("-o", "--output", metavar="PATH", help="also write the JSON object to PATH")
    s.add_argument("--certify", metavar="DIR", help="write the answer's certificate to DIR and check it")
    add_sat_arguments(s)
    s.set_defaults(run=run)


def run(args) -> int:
    from ..io.instance_format import read_instance
    from ..io.solution_format import result_to_json
    from ..search.methods import solve

    instance = read_instance(args.file)
    result = solve(instance, args.method, max_moves=args.max_moves, time_limit=args.time_limit,
                   **sat_options(args))
    obj = result_to_json(instance, result)
    code = 0
    if args.certify and result.status.value != "unknown":
        from .certify import certify_report, format_report

        obj["certificate_check"], code = certify_report(instance, result, args.certify)
    notes = [format_report(obj["certificate_check"])] if "certificate_check" in obj else []
    emit(args, instance, result, obj, notes)
    return code or exit_code(result)


def emit(args, instance, result: Result, obj: dict, notes=()) -> None:
    """Write the JSON object to ``--output`` (atomically), then print it (``--json``) or
    the human view followed by ``notes`` — the output of every command that answers a puzzle."""
    from ..io.atomic import write_atomic

    if args.output:
        write_atomic(args.output, json.dumps(obj, indent=1) + "\n")
    if args.json:
        print(json.dumps(obj))
    else:
        print("\n".join([human(instance, result, obj), *notes]))


def human(instance, result: Result, obj: dict) -> str:
    lines = [f"{instance.name}: {result.status.value}"]
    if result.solution is not None:
        lines[0] += f" — {result.length} moves"
    lb = "none (no solution exists)" if result.lower_bound is None else result.lower_bound
    lines.append(f"  lower bound: {lb}   method: {result.method}   time: {result.seconds:.3f} s")
    cert = result.certificate
    if cert:
        lines.append(f"  certificate: {cert['kind']} (scope {cert['scope']})")
        if cert["scope"] == "window":
            lines.append(f"  note: proven inside the window {instance.board.window} only, not globally")
    if result.stats.get("stopped"):
        lines.append(f"  stopped: {result.stats['stopped']}")
    if result.stats.get("window_optimal"):
        lines.append("  note: shortest among solutions inside the window; not proven globally optimal")
    for t, (s, p) in enumerate(obj["moves"], start=1):
        lines.append(f"  {t:3d}. {s} -> {p}")
    return "\n".join(lines)
