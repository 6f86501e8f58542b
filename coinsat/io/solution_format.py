"""The JSON contract of ``solve --json`` and the solution files ``verify`` reads.

One object: ``{"name", "status", "length", "lower_bound", "moves",
"certificate", "method", "seconds"}``.  ``moves`` lists ``[source, destination]``
in the instance's coordinates (``[x, y]`` pairs on lattices, cell names on
graph boards).  ``verify`` needs only ``moves``; any object that has it is a
solution file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import InstanceError
from ..instance import Instance, with_cells
from ..result import Result
from ..solution import Solution

JSON_KEYS = ("name", "status", "length", "lower_bound", "moves", "certificate", "method", "seconds")


def _coord_json(coord):
    return list(coord) if isinstance(coord, tuple) else coord


def moves_to_json(instance: Instance, solution: Solution | None) -> list | None:
    if solution is None:
        return None
    c = instance.board.coords
    return [[_coord_json(c[s]), _coord_json(c[p])] for s, p in solution.moves]


def result_to_json(instance: Instance, result: Result) -> dict[str, Any]:
    return {
        "name": instance.name,
        "status": result.status.value,
        "length": result.length,
        "lower_bound": result.lower_bound,
        "moves": moves_to_json(instance, result.solution) or [],
        "certificate": result.certificate,
        "method": result.method,
        "seconds": round(result.seconds, 6),
    }


def parse_solution(instance: Instance, text: str, path: str = "<solution>") -> tuple[Instance, Solution]:
    """Read the ``moves`` of a solution object; errors name the file (and line when known).

    Returns the instance to check them on: on a lattice, a move list may use cells
    outside the instance's window (the lattice is infinite), so the window grows to
    hold them (``instance.with_cells``); ``verify`` then judges every move by the rules.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InstanceError(f"malformed JSON: {e.msg}", path, e.lineno) from None
    moves = data.get("moves") if isinstance(data, dict) else data
    if not isinstance(moves, list):
        raise InstanceError("a solution needs a list 'moves' of [source, destination] pairs", path, 1)
    lattice = instance.board.is_lattice
    pairs = []
    for k, mv in enumerate(moves, start=1):
        if not (isinstance(mv, list) and len(mv) == 2):
            raise InstanceError(f"move {k}: {mv!r} is not a [source, destination] pair", path, _line(text, k))
        pair = []
        for coord in mv:
            if lattice:
                if not (isinstance(coord, list) and len(coord) == 2
                        and all(isinstance(v, int) and not isinstance(v, bool) for v in coord)):
                    raise InstanceError(f"move {k}: {coord!r} is not an [x, y] pair of integers",
                                        path, _line(text, k))
                coord = tuple(coord)
            elif not (isinstance(coord, (int, str)) and not isinstance(coord, bool)):
                raise InstanceError(f"move {k}: {coord!r} is not a cell name", path, _line(text, k))
            pair.append(coord)
        pairs.append(pair)
    if lattice:
        instance = with_cells(instance, [c for pair in pairs for c in pair])
    board = instance.board
    # A graph cell name that is not on the board maps to -1: verify reports "off the board".
    cells = [tuple(board.cell(c) if board.has(c) else -1 for c in pair) for pair in pairs]
    return instance, Solution.of(cells)


def _line(text: str, k: int) -> int | None:
    """Best-effort line of the k-th move (one move per line when pretty-printed)."""
    lines = text.splitlines()
    if len(lines) <= 1:
        return 1
    start = next((i for i, l in enumerate(lines, 1) if '"moves"' in l), 1)
    return min(start + k, len(lines))


def read_solution(instance: Instance, path: str | Path) -> tuple[Instance, Solution]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InstanceError(f"cannot read solution: {e}", str(path), None) from None
    return parse_solution(instance, text, str(path))
