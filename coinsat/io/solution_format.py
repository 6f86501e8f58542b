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
from ..instance import Instance
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


def parse_solution(instance: Instance, text: str, path: str = "<solution>") -> Solution:
    """Read the ``moves`` of a solution object; errors name the file (and line when known)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InstanceError(f"malformed JSON: {e.msg}", path, e.lineno) from None
    moves = data.get("moves") if isinstance(data, dict) else data
    if not isinstance(moves, list):
        raise InstanceError("a solution needs a list 'moves' of [source, destination] pairs", path, 1)
    board = instance.board
    cells = []
    for k, mv in enumerate(moves, start=1):
        if not (isinstance(mv, list) and len(mv) == 2):
            raise InstanceError(f"move {k}: {mv!r} is not a [source, destination] pair", path, _line(text, k))
        pair = []
        for coord in mv:
            key = tuple(coord) if isinstance(coord, list) else coord
            try:
                pair.append(board.cell(key))
            except (KeyError, TypeError):
                # Off the window: a cell no legal move can touch; verify reports it.
                pair.append(-1)
        cells.append(tuple(pair))
    return Solution.of(cells)


def _line(text: str, k: int) -> int | None:
    """Best-effort line of the k-th move (one move per line when pretty-printed)."""
    lines = text.splitlines()
    if len(lines) <= 1:
        return 1
    start = next((i for i, l in enumerate(lines, 1) if '"moves"' in l), 1)
    return min(start + k, len(lines))


def read_solution(instance: Instance, path: str | Path) -> Solution:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InstanceError(f"cannot read solution: {e}", str(path), None) from None
    return parse_solution(instance, text, str(path))
