"""The JSON contract of ``solve --json`` and the solution files ``verify`` reads.

One object: ``{"name", "status", "length", "lower_bound", "moves",
"certificate", "method", "engine", "seconds", "statistics", "stopped"}`` (``engine``: the engine
that answered; ``statistics``: states kept, expanded and pruned, layers, peak memory
and CPU seconds, ``result.Statistics``; ``stopped``: the limit or interrupt that ended the
command before its answer was complete, null when none did).  ``moves`` lists ``[source, destination]``
in the instance's coordinates (``[x, y]`` pairs on lattices, cell names on
graph boards).  ``verify`` needs only ``moves``; any object that has it is a
solution file.

Reading is linear in the file: a lattice move list may leave the window, so
the window grows by the cells the moves use, but only by those of the moves
up to the first one that cannot be legal whatever the rules' details (its
source is empty or its destination occupied or touching no coin).  ``verify``
stops at the first illegal move anyway, so thousands of far cells after it
never reach a Board (D8 of reliability-2).  Legality itself is still decided
by rules.py alone.  Hostile JSON (numbers of > 4300 digits, nesting deeper
than the parser's recursion) is an InstanceError with a line, never a crash.
"""

from __future__ import annotations

import json
import re
import reprlib
from pathlib import Path
from typing import Any

from .. import geometry
from ..board import cell_json
from ..errors import InstanceError
from ..instance import Instance, with_cells
from ..result import Result, against_published
from ..solution import Solution
from .files import read_regular

JSON_KEYS = (
    "name",
    "status",
    "length",
    "lower_bound",
    "moves",
    "certificate",
    "method",
    "engine",
    "seconds",
    "statistics",
    "stopped",
    "known_optimal",
    "against_known_optimal",
)


def moves_to_json(instance: Instance, solution: Solution | None) -> list | None:
    """The moves of ``solution`` as ``[[source cell], [destination cell]]`` pairs in the instance's
    coordinates (cell names on a graph board); None for no solution.
    """
    if solution is None:
        return None
    c = instance.board.coords
    return [[cell_json(c[s]), cell_json(c[p])] for s, p in solution.moves]


def result_to_json(instance: Instance, result: Result) -> dict[str, Any]:
    """The ``solve --json`` object of ``result`` (name, status, length, lower_bound, moves,
    certificate, method, engine, seconds, ...): what :func:`read_solution` reads back as a solution.
    """
    return {
        "name": instance.name,
        "status": result.status.value,
        "length": result.length,
        "lower_bound": result.lower_bound,
        "moves": moves_to_json(instance, result.solution) or [],
        "certificate": None if result.certificate is None else result.certificate.to_json(),
        "method": result.method,
        "engine": None if result.engine is None else result.engine.value,
        "seconds": round(result.seconds, 6),
        "statistics": result.statistics.to_json(),
        # why the command ended before its answer was complete ("time limit", "memory limit",
        # "interrupted", ...); null when it was not stopped
        "stopped": result.stats.get("stopped") or None,
        # the puzzle file's published optimum, and how the answer contradicts it (a finding, or
        # a bug: result.against_published); null when it does not
        "known_optimal": instance.known_optimal,
        "against_known_optimal": against_published(result, instance.known_optimal),
    }


def parse_solution(instance: Instance, text: str, path: str = "<solution>") -> tuple[Instance, Solution]:
    """Read the ``moves`` of a solution object; errors name the file (and line when known).

    Returns the instance to check them on: on a lattice, a move list may use cells
    outside the instance's window (the lattice is infinite), so the window grows to
    hold them (``instance.with_cells``); ``verify`` then judges every move by the rules.
    """
    data = load_json(text, path)
    moves = data.get("moves") if isinstance(data, dict) else data
    if not isinstance(moves, list):
        raise InstanceError("a solution needs a list 'moves' of [source, destination] pairs", path, 1)
    lattice = instance.board.is_lattice
    space = instance.board.lattice if not lattice else None  # a board in space (cubic): points, no window
    # a cell of a lattice is an [x, y] pair, of a board in space a point of its dimension (else a name)
    if lattice:
        arity, coordinates = 2, "an [x, y] pair"
    elif space is not None:
        arity, coordinates = space.dimension, f"an {space.point_words('[]')}"
    # Converted in place, so that each JSON list is freed as its tuple replaces it:
    # memory stays a small multiple of the file (benchmarks/fuzz.md).
    for k, mv in enumerate(moves, start=1):
        if not (isinstance(mv, list) and len(mv) == 2):
            raise InstanceError(f"move {k}: {_short(mv)} is not a [source, destination] pair", path, _line(text, k))
        for coord in mv:
            if lattice or space is not None:
                if not (
                    isinstance(coord, list)
                    and len(coord) == arity
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in coord)
                ):
                    raise InstanceError(
                        f"move {k}: {_short(coord)} is not {coordinates} of integers", path, _line(text, k)
                    )
            elif not (isinstance(coord, (int, str)) and not isinstance(coord, bool)):
                raise InstanceError(f"move {k}: {_short(coord)} is not a cell name", path, _line(text, k))
        moves[k - 1] = (tuple(mv[0]), tuple(mv[1])) if lattice or space else (mv[0], mv[1])
    if lattice:
        reach = _possible_prefix(instance, moves)
        instance = with_cells(instance, [c for pair in moves[:reach] for c in pair])
    board = instance.board
    # A cell not on the board (a graph name, or a lattice cell after the first impossible
    # move) maps to -1: verify reports "off the board" if it ever gets there.
    index = board.cell
    for k, (src, dst) in enumerate(moves):
        moves[k] = (index(src) if board.has(src) else -1, index(dst) if board.has(dst) else -1)
    return instance, Solution.of(moves)


def _short(v: Any, limit: int = 60) -> str:
    text = reprlib.repr(v)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def load_json(text: str, path: str) -> Any:
    """``json.loads`` with every failure an InstanceError naming the file and a line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InstanceError(f"malformed JSON: {e.msg}", path, e.lineno) from None
    except RecursionError:
        raise InstanceError("malformed JSON: arrays or objects nested too deeply", path, _deepest_line(text)) from None
    except ValueError as e:  # int("9" * 5000): Python refuses more than 4300 digits
        if "digits" not in str(e):
            raise
        m = re.search(r"\d{4301}", text)
        raise InstanceError(
            "malformed JSON: a number has too many digits", path, text.count("\n", 0, m.start()) + 1 if m else 1
        ) from None


def _deepest_line(text: str, depth: int = 100) -> int:
    """The line where bracket nesting first exceeds ``depth`` (a hint: strings are not skipped)."""
    level = 0
    for m in re.finditer(r"[\[\]{}]", text):
        level += 1 if m.group() in "[{" else -1
        if level > depth:
            return text.count("\n", 0, m.start()) + 1
    return 1


def _possible_prefix(instance: Instance, pairs: list[tuple]) -> int:
    """How many moves, from the first, to put on the board: up to and including the
    first move that no d >= 1 could make legal (module docstring).  Not a legality
    test: rules.py judges every move of this prefix."""
    b = instance.board
    occupied = {b.coords[c] for c in instance.start.cells}
    for k, (src, dst) in enumerate(pairs, start=1):
        if src not in occupied or dst in occupied or not any(n in occupied for n in geometry.neighbours(b.kind, dst)):
            return k
        occupied.remove(src)
        occupied.add(dst)
    return len(pairs)


def _line(text: str, k: int) -> int | None:
    """Best-effort line of the k-th move (one move per line when pretty-printed)."""
    lines = text.splitlines()
    if len(lines) <= 1:
        return 1
    start = next((i for i, l in enumerate(lines, 1) if '"moves"' in l), 1)
    return min(start + k, len(lines))


def read_solution(instance: Instance, path: str | Path) -> tuple[Instance, Solution]:
    """Read a solution file (a JSON object with ``moves``, as ``solve --json`` prints) for ``instance``.

    Returns the instance to check the moves on (its window grown to hold them on a lattice, as
    :func:`parse_solution` says) and the :class:`~coinsat.solution.Solution`; raises
    InstanceError naming the file on a missing or malformed file.  The moves are not replayed
    here: :func:`coinsat.verify` does that.
    """
    if not str(path):  # Path("") is the current directory: say what is wrong instead
        raise InstanceError("the solution file name is empty", "''", None)
    try:
        text = read_regular(path, "the solution file").decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InstanceError(f"cannot read solution: {e}", str(path), None) from None
    return parse_solution(instance, text, str(path))
