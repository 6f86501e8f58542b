"""``coinsat verify FILE SOLUTION.json``: replay a move list with rules.py."""

from __future__ import annotations

import json

from .common import EXIT_ILLEGAL, EXIT_OK, FILE_HELP


def add_parser(sub) -> None:
    v = sub.add_parser("verify", help="check a move list against the rules")
    v.add_argument("file", help=FILE_HELP)
    v.add_argument("solution", help="JSON object with 'moves' (e.g. the output of solve --json)")
    v.add_argument("--json", action="store_true", help="print one JSON object: ok, step, reason, length")
    v.set_defaults(run=run)


def run(args) -> int:
    from ..io.instance_format import read_puzzle
    from ..io.render import cell_text
    from ..io.solution_format import read_solution
    from ..solution import verify
    from ..theory.plane import PlanePuzzle

    instance = read_puzzle(args.file)
    if isinstance(instance, PlanePuzzle):  # board = "plane": moves between exact points
        from .plane import verify as verify_plane

        return verify_plane(args, instance)
    instance, solution = read_solution(instance, args.solution)
    verdict = verify(instance, solution, keep_trace=False)
    if args.json:
        print(json.dumps({"ok": verdict.ok, "step": verdict.step, "reason": verdict.reason, "length": len(solution)}))
    elif verdict.ok:
        print(f"ok: {len(solution)} legal moves reach the goal")
    elif verdict.step is not None:
        s, p = solution.moves[verdict.step - 1]
        b = instance.board
        show = lambda c: cell_text(b.coords[c]) if 0 <= c < b.size else "off-board cell"  # noqa: E731
        print(f"illegal: step {verdict.step} ({show(s)} -> {show(p)}): {verdict.reason}")
    else:
        print(f"illegal: {verdict.reason}")
    return EXIT_OK if verdict.ok else EXIT_ILLEGAL
