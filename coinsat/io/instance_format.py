"""The instance file format (TOML), read and write.  See README "File format".

Every error is an :class:`InstanceError` naming the file and the line of the
offending key or picture row.  ``read_instance(write_instance(x)) == x``.

Pictures: ``.`` empty, ``o`` unlabeled coin, any other letter or digit a coin
with that label.  Start and goal pictures share one frame: same number of
lines, the last line is row y = 0.  Square grid: blanks are ignored and the
k-th remaining character of a row is x = k.  Triangular grid: the character
at column c of row y is the cell x = (c - y) / 2; a coin at odd c - y is an
error.
"""

from __future__ import annotations

import re
try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]
from pathlib import Path
from typing import Any, Hashable

from ..board import BOARD_KINDS, DEFAULT_MARGIN
from ..configuration import UNLABELED
from ..errors import InstanceError
from ..instance import GOAL_PLACEMENTS, Instance, make_instance
from .atomic import write_atomic

KNOWN_KEYS = {
    "name", "board", "adjacency", "source", "known_optimal", "goal_placement",
    "margin", "start", "goal", "graph", "metadata",
}


class _Ctx:
    """The file being read: its path, text and where each key sits."""

    def __init__(self, path: str, text: str):
        self.path, self.text = path, text
        self.lines = text.splitlines()

    def line_of(self, key: str, table: str | None = None) -> int | None:
        in_table = table is None
        pat = re.compile(rf"^\s*(\"?){re.escape(key)}\1\s*=")
        for i, line in enumerate(self.lines, start=1):
            stripped = line.strip()
            if stripped.startswith("["):
                in_table = table is not None and stripped.strip("[] ") == table
                continue
            if in_table and pat.match(line):
                return i
        return None

    def error(self, message: str, key: str | None = None, line: int | None = None,
              table: str | None = None) -> InstanceError:
        if line is None and key is not None:
            line = self.line_of(key, table)
        return InstanceError(message, self.path, line if line is not None else 1)


def read_instance(path: str | Path) -> Instance:
    path = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InstanceError("no such file", path, None) from None
    except (OSError, UnicodeDecodeError) as e:
        raise InstanceError(f"cannot read file: {e}", path, None) from None
    return parse_instance(text, path)


def parse_instance(text: str, path: str = "<string>") -> Instance:
    ctx = _Ctx(path, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"at line (\d+)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        raise InstanceError(f"malformed TOML: {msg}", path, int(m.group(1)) if m else 1) from None

    for key in data:
        if key not in KNOWN_KEYS:
            raise ctx.error(f"unknown key {key!r} (known: {', '.join(sorted(KNOWN_KEYS))})", key)
    for key in ("board", "start", "goal"):
        if key not in data:
            raise ctx.error(f"missing key {key!r}", line=1)

    kind = data["board"]
    if kind not in BOARD_KINDS:
        raise ctx.error(f"unknown board kind {kind!r} (expected {', '.join(BOARD_KINDS)})", "board")
    adjacency = _int(ctx, data, "adjacency", 2, minimum=1)
    margin = _int(ctx, data, "margin", DEFAULT_MARGIN, minimum=1)
    known = data.get("known_optimal")
    if known is not None:
        known = _int(ctx, data, "known_optimal", None, minimum=0)
    placement = data.get("goal_placement", "fixed")
    if placement not in GOAL_PLACEMENTS:
        raise ctx.error(f"goal_placement must be one of {', '.join(GOAL_PLACEMENTS)}", "goal_placement")
    for key in ("name", "source"):
        if key in data and not isinstance(data[key], str):
            raise ctx.error(f"{key} must be a string", key)
    metadata = data.get("metadata", {})
    if not isinstance(metadata, dict):
        raise ctx.error("metadata must be a table", "metadata")

    edges = cells = None
    if kind == "graph":
        graph = data.get("graph")
        if not isinstance(graph, dict) or "edges" not in graph:
            raise ctx.error("a graph board needs a [graph] table with edges", "board")
        edges = graph["edges"]
        if not isinstance(edges, list) or not all(
            isinstance(e, list) and len(e) == 2 and all(_is_name(v) for v in e) for e in edges
        ):
            raise ctx.error("edges must be a list of [u, v] pairs of cell names", "edges", table="graph")
        cells = graph.get("cells")
        if cells is not None and not (isinstance(cells, list) and all(_is_name(c) for c in cells)):
            raise ctx.error("cells must be a list of cell names", "cells", table="graph")
    elif "graph" in data:
        raise ctx.error("a [graph] table needs board = \"graph\"", "board")

    start = _coins(ctx, data, "start", kind)
    goal = _coins(ctx, data, "goal", kind)
    if all(isinstance(data[k], str) for k in ("start", "goal")):
        hs, hg = (len(_picture_rows(data[k])) for k in ("start", "goal"))
        if hs != hg:
            raise ctx.error(f"the start picture has {hs} lines and the goal picture {hg}; "
                            "they must share one frame", "goal")
    try:
        return make_instance(
            kind, start, goal, adjacency=adjacency, goal_placement=placement,
            name=data.get("name", Path(path).stem), source=data.get("source", ""),
            known_optimal=known, edges=[tuple(e) for e in edges] if edges else edges,
            cells=cells, margin=margin, metadata=metadata,
        )
    except InstanceError as e:
        if "self-loop" in e.message:
            raise ctx.error(e.message, "edges", table="graph") from None
        if "graph cells" in e.message:
            raise ctx.error(e.message, "cells", table="graph") from None
        if "window" in e.message:
            raise ctx.error(e.message, "margin" if "margin" in data else "goal") from None
        key = "goal" if "goal" in e.message else "start" if "start" in e.message else "board"
        raise ctx.error(e.message, key) from None


def _is_name(v: Any) -> bool:
    return isinstance(v, (int, str)) and not isinstance(v, bool)


def _int(ctx: _Ctx, data: dict, key: str, default, minimum: int):
    v = data.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
        raise ctx.error(f"{key} must be an integer >= {minimum}, not {v!r}", key)
    return v


def _picture_rows(picture: str) -> list[str]:
    rows = picture.split("\n")
    if rows and rows[-1].strip() == "":
        rows.pop()
    return rows


def _coins(ctx: _Ctx, data: dict, key: str, kind: str) -> dict[Hashable, str]:
    value = data[key]
    if isinstance(value, str):
        if kind == "graph":
            raise ctx.error(f"{key}: pictures need a lattice board; give a list of cell names", key)
        return _parse_picture(ctx, key, value, kind)
    if isinstance(value, list):
        return _coin_list(ctx, key, value, UNLABELED, kind, {})
    if isinstance(value, dict):
        out: dict[Hashable, str] = {}
        for label, cells in value.items():
            if not re.fullmatch(r"[A-Za-z0-9]+", label):
                raise ctx.error(f"{key}: label {label!r} must be letters or digits", key)
            if not isinstance(cells, list):
                raise ctx.error(f"{key}: label {label!r} needs a list of cells", key)
            _coin_list(ctx, key, cells, label, kind, out)
        return out
    raise ctx.error(f"{key} must be a picture, a list of cells or a table label -> cells", key)


def _coin_list(ctx, key, cells, label, kind, out):
    for c in cells:
        if kind == "graph":
            if not _is_name(c):
                raise ctx.error(f"{key}: {c!r} is not a cell name", key)
            cell = c
        else:
            if not (isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in c)):
                raise ctx.error(f"{key}: {c!r} is not an [x, y] pair of integers", key)
            cell = (c[0], c[1])
        if cell in out:
            raise ctx.error(f"{key}: two coins on cell {list(cell) if isinstance(cell, tuple) else cell!r}", key)
        out[cell] = label
    return out


def _parse_picture(ctx: _Ctx, key: str, picture: str, kind: str) -> dict[Hashable, str]:
    key_line = ctx.line_of(key) or 1
    first = ctx.lines[key_line - 1] if key_line <= len(ctx.lines) else ""
    opens_alone = first.rstrip().endswith('"""') or first.rstrip().endswith("'''")
    first_row_line = key_line + 1 if opens_alone else key_line
    rows = _picture_rows(picture)
    out: dict[Hashable, str] = {}
    for i, row in enumerate(rows):
        y = len(rows) - 1 - i
        line = first_row_line + i
        if kind == "square":
            chars = [(x, ch) for x, ch in enumerate(ch for ch in row if not ch.isspace())]
        else:
            chars = []
            for col, ch in enumerate(row):
                if ch.isspace():
                    continue
                if (col - y) % 2:
                    if ch != ".":
                        raise ctx.error(f"{key}: coin {ch!r} at column {col + 1} of row y={y} is between "
                                        "triangular cells (c - y must be even)", line=line)
                    continue
                chars.append(((col - y) // 2, ch))
        for x, ch in chars:
            if ch == ".":
                continue
            if not ch.isalnum():
                raise ctx.error(f"{key}: unexpected character {ch!r} in a picture", line=line)
            out[(x, y)] = ch
    return out


# --- writing ------------------------------------------------------------------------

def format_instance(instance: Instance) -> str:
    b = instance.board
    lines = [f"name = {_toml(instance.name)}", f"board = {_toml(b.kind)}",
             f"adjacency = {instance.adjacency}"]
    if instance.source:
        lines.append(f"source = {_toml(instance.source)}")
    if instance.known_optimal is not None:
        lines.append(f"known_optimal = {instance.known_optimal}")
    if instance.goal_placement != "fixed":
        lines.append(f"goal_placement = {_toml(instance.goal_placement)}")
    if instance.margin != DEFAULT_MARGIN:
        lines.append(f"margin = {instance.margin}")
    start = {b.coords[c]: lab for c, lab in instance.start.coins}
    goal = {b.coords[c]: lab for c, lab in instance.goal.coins}
    pictures = _pictures(b.kind, start, goal)
    for key, placement, pic in (("start", start, pictures and pictures[0]),
                                ("goal", goal, pictures and pictures[1])):
        if pic:
            lines.append(f'{key} = """\n{pic}"""')
        else:
            lines.append(f"{key} = {_placement_toml(placement)}")
    if b.kind == "graph":
        edges = sorted({tuple(sorted((i, j))) for i, nb in enumerate(b.neighbours) for j in nb})
        lines += ["", "[graph]", f"cells = {_toml(list(b.coords))}",
                  "edges = [" + ", ".join(_toml([b.coords[i], b.coords[j]]) for i, j in edges) + "]"]
    if instance.metadata:
        lines += ["", "[metadata]"] + [f"{k} = {_toml(v)}" for k, v in instance.metadata]
    return "\n".join(lines) + "\n"


def write_instance(instance: Instance, path: str | Path) -> None:
    write_atomic(path, format_instance(instance))


def _placement_toml(placement: dict) -> str:
    def cell(c):
        return _toml(list(c) if isinstance(c, tuple) else c)
    labels = sorted(set(placement.values()))
    if labels == [UNLABELED]:
        return "[" + ", ".join(cell(c) for c in placement) + "]"
    parts = [f"{lab} = [" + ", ".join(cell(c) for c, l2 in placement.items() if l2 == lab) + "]" for lab in labels]
    return "{ " + ", ".join(parts) + " }"


def _pictures(kind: str, start: dict, goal: dict) -> tuple[str, str] | None:
    """Both pictures in one frame, or None when some coin cannot be drawn."""
    if kind == "graph":
        return None
    if any(len(lab) != 1 for lab in list(start.values()) + list(goal.values())):
        return None
    cells = list(start) + list(goal)
    if any(y < 0 or (x < 0 if kind == "square" else 2 * x + y < 0) for x, y in cells):
        return None
    height = max(y for _, y in cells) + 1
    width = max((x if kind == "square" else 2 * x + y) for x, y in cells) + 1
    def draw(placement):
        rows = []
        for y in range(height - 1, -1, -1):
            if kind == "square":
                rows.append(" ".join(placement.get((x, y), ".") for x in range(width)))
            else:
                row = [" "] * (width + 1)
                for col in range(y, width + 1, 2):
                    row[col] = placement.get(((col - y) // 2, y), ".")
                rows.append("".join(row).rstrip())
        return "\n".join(rows) + "\n"
    return draw(start), draw(goal)


def _toml(v: Any) -> str:
    import json
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml(str(k))} = {_toml(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")
