"""``board = "plane"`` files through the commands: ``solve``, ``verify`` and ``show`` take them.

The free plane has no board of cells: its engine is ``search/plane.py`` (exact iterative deepening,
``theory/plane.py``), its solutions are moves between exact points (JSON: integers or strings
``"p/q"``, ``"a + b*sqrt(r)"``, the syntax of the instance files), replayed by
``rules.check_plane_move``.  What works on boards only (other engines, certificates, counting,
pictures) is refused with the reason (exit 2).
"""

from __future__ import annotations

import json
import sys

from ..errors import InstanceError, UsageError
from ..io.instance_format import file_boards
from ..io.terminal import escaped
from ..result import Status
from .common import EXIT_ILLEGAL, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE

WHAT = 'a board = "plane" puzzle (coins anywhere in the plane)'


def refuse(what: str) -> UsageError:
    return UsageError(f"{what} works on boards ({', '.join(file_boards())}), not on {WHAT}")


def point_json(p) -> list:
    from ..io.instance_format import plane_number_json

    return [plane_number_json(v) for v in p]


def point_text(p) -> str:
    from ..io.instance_format import plane_number_json

    return "(" + ", ".join(str(plane_number_json(v)) for v in p) + ")"


def describe(puzzle) -> str:
    placed = {"fixed": "where drawn", "translate": "anywhere, translated", "congruent": "anywhere, turned too"}
    return (
        f"{puzzle.name}: the free plane (exact coordinates), {puzzle.n} coins, d = {puzzle.adjacency}, "
        f"goal {puzzle.goal_placement} ({placed.get(puzzle.goal_placement, '')})"
    )


def solve(args, puzzle) -> int:
    """``coinsat solve PLANE.toml``: the shortest solution proven by exact search, or what is proven.
    Runs under the command's budget (``limits.enforced``, entered by the caller)."""
    from ..io.atomic import write_atomic
    from ..io.solution_format import JSON_KEYS
    from ..io.terminal import Display
    from ..search.plane import solve_plane

    if args.method not in ("auto", "plane"):
        raise refuse(f"--method {args.method}")
    for option, given in (
        ("--certify", args.certify),
        ("--upper-bound", getattr(args, "upper_bound", None)),
        ("--resume", getattr(args, "resume", None)),
        ("--cluster", getattr(args, "cluster", False)),
    ):
        if given:
            raise refuse(option)
    display = Display("plane", quiet=args.json, asked=getattr(args, "progress", False))
    display.header("plane", None, args.max_moves, "--max-moves" if args.max_moves is not None else None)
    with display:
        answer = solve_plane(puzzle, max_moves=args.max_moves)
    moves = [[point_json(s), point_json(d)] for s, d in answer.moves or ()]
    values = {
        "name": puzzle.name,
        "status": answer.status.value,
        "length": answer.length,
        "lower_bound": answer.lower_bound,
        "moves": moves,
        "certificate": None,
        "method": answer.method,
        "engine": "plane",
        "seconds": round(answer.seconds, 6),
        "statistics": answer.stats,
        "stopped": answer.stats.get("stopped") or None,
    }
    obj = {key: values.get(key) for key in JSON_KEYS}
    interrupted = answer.stats.get("stopped") == "interrupted"
    error = None
    if args.output and not interrupted:
        try:
            write_atomic(args.output, json.dumps(obj, indent=1) + "\n")
        except Exception as e:  # noqa: BLE001 — OutputError and the like: the answer is printed all the same
            error = e
    if args.json:
        print(json.dumps(obj))
    else:
        lines = [f"{puzzle.name}: {answer.status.value}"]
        if answer.moves is not None:
            lines[0] += f" — {answer.length} moves"
        lines.append(f"  lower bound: {answer.lower_bound}   method: plane   time: {answer.seconds:.3f} s")
        lines.append(f"  {describe(puzzle).split(': ', 1)[1]}; {answer.stats['nodes']} nodes searched")
        if answer.status is Status.BOUNDED:
            lines.append(f"  proven: no solution with <= {answer.lower_bound - 1} moves")
            if "beyond" in answer.stats:
                lines.append(f"  note: {answer.stats['beyond']}")
        if answer.stats.get("stopped"):
            lines.append(f"  stopped: {answer.stats['stopped']}")
        lines += [f"  {t:3d}. {point_text(s)} -> {point_text(d)}" for t, (s, d) in enumerate(answer.moves or (), 1)]
        print("\n".join(lines))
    if error is not None:
        print(escaped(f"coinsat: error: {error} (the answer is printed above)"), file=sys.stderr)
        return EXIT_USAGE
    return EXIT_UNKNOWN if answer.status is Status.UNKNOWN else EXIT_OK


def read_moves(path: str) -> list:
    """The ``moves`` of a plane solution file: ``[[[x, y], [x, y]], ...]`` with exact numbers."""
    from ..io.files import read_regular
    from ..io.instance_format import plane_number

    try:
        obj = json.loads(read_regular(path, "the solution file").decode("utf-8"))
    except FileNotFoundError:
        raise InstanceError("no such file", path) from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise InstanceError(f"cannot read a solution: {str(e).splitlines()[0][:200]}", path) from None
    moves = obj.get("moves") if isinstance(obj, dict) else None
    if not isinstance(moves, list):
        raise InstanceError("a solution is a JSON object with 'moves' (as solve --json writes it)", path)
    out = []
    for t, move in enumerate(moves, start=1):
        if not (isinstance(move, list) and len(move) == 2 and all(isinstance(p, list) and len(p) == 2 for p in move)):
            raise InstanceError(f"move {t} is not [[x, y], [x, y]]", path)
        out.append(tuple(tuple(plane_number(v, f"move {t}", path) for v in p) for p in move))
    return out


def verify(args, puzzle) -> int:
    """``coinsat verify PLANE.toml SOLUTION.json``: replay the moves with rules.check_plane_move."""
    from ..theory.plane import verify as replay

    moves = read_moves(args.solution)
    verdict = replay(puzzle, moves)
    if args.json:
        print(json.dumps({"ok": verdict.ok, "step": verdict.step, "reason": verdict.reason, "length": len(moves)}))
    elif verdict.ok:
        print(f"ok: {len(moves)} legal moves reach the goal")
    elif verdict.step is not None:
        s, d = moves[verdict.step - 1]
        print(f"illegal: step {verdict.step} ({point_text(s)} -> {point_text(d)}): {verdict.reason}")
    else:
        print(f"illegal: {verdict.reason}")
    return EXIT_OK if verdict.ok else EXIT_ILLEGAL


def show(args, puzzle) -> int:
    """``coinsat show PLANE.toml [SOLUTION.json]``: the coins (and each step) as exact coordinates."""
    from ..theory.plane import verify as replay

    if args.format != "text":
        raise UsageError(
            f"--format {args.format}: pictures are drawn on boards (coinsat/draw), not for {WHAT}; "
            "--format text lists the coins"
        )
    print(describe(puzzle))
    print("start: " + "  ".join(point_text(p) for p in sorted(puzzle.start)))
    print("goal:  " + "  ".join(point_text(p) for p in sorted(puzzle.goal)))
    if args.solution is None:
        return EXIT_OK
    moves = read_moves(args.solution)
    verdict = replay(puzzle, moves)
    coins = puzzle.start
    for t, (s, d) in enumerate(moves, start=1):
        if verdict.step is not None and t >= verdict.step:
            print(escaped(f"illegal at step {t}: {verdict.reason}"), file=sys.stderr)
            return EXIT_ILLEGAL
        coins = (coins - {s}) | {d}
        print(f"{t:3d}. {point_text(s)} -> {point_text(d)}")
    if not verdict.ok:
        print(escaped(f"illegal at the end: {verdict.reason}"), file=sys.stderr)
        return EXIT_ILLEGAL
    print("final: " + "  ".join(point_text(p) for p in sorted(coins)))
    return EXIT_OK
