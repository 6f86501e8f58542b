"""The instance file format (TOML), read and write.  See README "File format".

Every error is an :class:`InstanceError` naming the file and the line of the
offending key or picture row.  ``read_instance(write_instance(x)) == x``.

Pictures: ``.`` empty, ``o`` unlabeled coin, any other letter or digit a coin
with that label.  Start and goal pictures share one frame: same number of
lines, the last line is row y = 0.  Where a character's cell is, the board's
lattice says (``geometry.Picture``): square grid: blanks are ignored and the
k-th remaining character of a row is x = k; triangular grid: the character
at column c of row y is the cell x = (c - y) / 2, and a coin at odd c - y is an
error; cubic: a list of square-grid pictures, the k-th the layer z = k.

Hostile input gets the same one-line error, never a traceback and never work
or memory far beyond the file's size: integers too long to convert (Python
refuses > 4300 digits) and nesting too deep to parse are located by line;
labels are ASCII letters and digits in pictures and tables alike; picture rows
are scanned for their coins with a regular expression (a 50 MB row of dots
costs a few copies of the row, not a tuple per character); and every integer
is bounded (MAX_INTEGER) so that whatever is read can also be printed.
"""

from __future__ import annotations

import re
import reprlib

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib
from pathlib import Path
from typing import Any, Hashable, cast

from .. import geometry
from ..board import DEFAULT_MARGIN
from ..configuration import UNLABELED
from ..errors import InstanceError
from ..instance import GOAL_PLACEMENTS, MOVE_MODELS, Instance, make_instance
from ..registry import closest
from .atomic import write_atomic
from .files import read_regular

MAX_INTEGER = 10**100  # beyond any window; keeps every number printable (str(int) <= 4300 digits)
MAX_ADJACENCY = 64  # a larger d only makes every move impossible; refused as a likely typo
LABEL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

KNOWN_KEYS = {
    "name",
    "board",
    "adjacency",
    "source",
    "known_optimal",
    "goal_placement",
    "margin",
    "start",
    "goal",
    "graph",
    "metadata",
    "moves",
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

    def error(
        self, message: str, key: str | None = None, line: int | None = None, table: str | None = None
    ) -> InstanceError:
        if line is None and key is not None:
            line = self.line_of(key, table)
        return InstanceError(message, self.path, line if line is not None else 1)


#: the puzzles shipped inside the package (``coinsat/data/<collection>/<name>.toml``)
DATA = Path(__file__).resolve().parent.parent / "data"


def shipped() -> list[str]:
    """The names of the shipped puzzles, ``"paper/diagonal"`` and so on."""
    return sorted(f"{f.parent.name}/{f.stem}" for f in DATA.glob("*/*.toml"))


def resolve(path: str | Path) -> str:
    """The file to read for ``path``: the file itself when it exists, else the shipped puzzle of
    that name (``paper/diagonal`` or ``paper/diagonal.toml``), else ``path`` unchanged."""
    text = str(path)
    if not text or Path(text).exists():
        return text
    name = text[:-5] if text.endswith(".toml") else text
    parts = name.split("/")
    if len(parts) == 2 and all(parts) and ".." not in parts:
        candidate = DATA / parts[0] / f"{parts[1]}.toml"
        if candidate.is_file():
            return str(candidate)
    return text


def read_instance(path: str | Path) -> Instance:
    """The instance in the file ``path``, or the shipped puzzle of that name (:func:`resolve`).

    Parameters
    ----------
    path : str or Path
        A TOML instance file, or a shipped puzzle's name (``paper/diagonal``).

    Returns
    -------
    Instance
        The puzzle the file describes, validated by ``coinsat.instance``; a shipped puzzle is
        read from the package's data.

    Raises
    ------
    InstanceError
        Naming the file and, where it can, the line, when the file is missing, unreadable or
        not a valid instance.
    """
    path = resolve(path)
    return parse_instance(_read_text(path), path)


def _read_text(path: str) -> str:
    """The file's text, or an InstanceError naming it."""
    if not path:  # Path("") is the current directory: say what is wrong instead
        raise InstanceError("the file name is empty", "''", None)
    try:
        return read_regular(path, "the instance file").decode("utf-8")
    except FileNotFoundError:
        hint = ""
        if path.startswith("paper/"):
            hint = f" (shipped puzzles: {', '.join(shipped())})"
        raise InstanceError(f"no such file{hint}", path, None) from None
    except (OSError, UnicodeDecodeError) as e:
        raise InstanceError(f"cannot read file: {e}", path, None) from None


def read_puzzle(path: str | Path):
    """The one door of the commands: the file (or shipped puzzle) ``path`` as an :class:`Instance`,
    or as a ``theory.plane.PlanePuzzle`` when it says ``board = "plane"``.  InstanceError (file:line)
    on anything malformed."""
    path = resolve(path)
    return parse_puzzle(_read_text(path), path)


def parse_puzzle(text: str, path: str = "<string>"):
    """:func:`read_puzzle` on a text."""
    data = _load_toml(text, path)
    if data.get("board") == "plane":
        return _parse_plane(_Ctx(path, text), data)
    return _parse_instance(_Ctx(path, text), data)


def parse_instance(text: str, path: str = "<string>") -> Instance:
    """The instance written in ``text`` (the TOML of the README's "File format").

    Parameters
    ----------
    text : str
        The instance file's text.
    path : str
        What error messages call it.

    Returns
    -------
    Instance
        The puzzle ``text`` describes.

    Raises
    ------
    InstanceError
        With the line of the first problem (malformed TOML, an unknown key, a bad picture,
        start and goal with different coins, ...); a ``board = "plane"`` text is refused here
        (``read_puzzle`` reads it).
    """
    return _parse_instance(_Ctx(path, text), _load_toml(text, path))


def _parse_instance(ctx: _Ctx, data: dict) -> Instance:
    path = ctx.path

    if data.get("board") == "plane":
        raise ctx.error(
            'board = "plane" is the free plane (coins anywhere): solve, verify and show take it; this command '
            f"works on boards ({', '.join(file_boards())})",
            "board",
        )
    _check_keys(ctx, data, KNOWN_KEYS, "")

    kind = data["board"]
    if kind not in file_boards():
        kinds = (*file_boards(), "plane")  # "plane" is read before this (parse_puzzle)
        guess = closest(kind, kinds) if isinstance(kind, str) and len(kind) <= 60 else None
        hint = f"did you mean {guess!r}? " if guess is not None else ""
        raise ctx.error(f"unknown board kind {_short(kind)} ({hint}expected {', '.join(kinds)})", "board")
    adjacency = _int(ctx, data, "adjacency", 2, minimum=1, maximum=MAX_ADJACENCY)
    margin = _int(ctx, data, "margin", DEFAULT_MARGIN, minimum=1)
    known = data.get("known_optimal")
    if known is not None:
        known = _int(ctx, data, "known_optimal", None, minimum=0)
    placement = data.get("goal_placement", "fixed")
    if placement not in GOAL_PLACEMENTS:
        raise ctx.error(f"goal_placement must be one of {', '.join(GOAL_PLACEMENTS)}", "goal_placement")
    if placement != "fixed" and kind not in geometry.LATTICES:
        raise ctx.error(
            f"goal_placement = {placement!r} needs a lattice board in the plane ({' or '.join(geometry.LATTICES)}; "
            f"goals on {kind} boards are fixed)",
            "goal_placement",
        )
    moves = data.get("moves", "jump")
    if moves not in MOVE_MODELS:
        raise ctx.error(f"moves must be one of {', '.join(MOVE_MODELS)}, not {_short(moves)}", "moves")
    if moves == "slide" and kind not in geometry.LATTICES:
        raise ctx.error(
            f'moves = "slide" needs a board in the plane ({" or ".join(geometry.LATTICES)}), not {kind}', "moves"
        )
    _texts(ctx, data)
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
            raise ctx.error(
                "edges must be a list of [u, v] pairs of cell names (strings, or integers at most 10^100)",
                "edges",
                table="graph",
            )
        cells = graph.get("cells")
        if cells is not None and not (isinstance(cells, list) and all(_is_name(c) for c in cells)):
            raise ctx.error("cells must be a list of cell names", "cells", table="graph")
        for key, names in (("edges", [v for e in edges for v in e]), ("cells", cells or [])):
            bad = next((v for v in names if isinstance(v, str) and _LINE_BREAKS.search(v)), None)
            if bad is not None:
                raise ctx.error(f"the cell name {bad!r} holds a line break or NUL", key, table="graph")
    elif "graph" in data:
        raise ctx.error('a [graph] table needs board = "graph"', "board")

    lattice = geometry.TABLE.get(kind)
    start = _coins(ctx, data, "start", kind, lattice)
    goal = _coins(ctx, data, "goal", kind, lattice)
    if all(isinstance(data[k], str) for k in ("start", "goal")):
        hs, hg = (len(_picture_rows(data[k])) for k in ("start", "goal"))
        if hs != hg:
            raise ctx.error(
                f"the start picture has {hs} lines and the goal picture {hg}; they must share one frame", "goal"
            )
    if lattice is not None and _syntax(lattice).layers:
        heights = {len(_picture_rows(layer)) for k in ("start", "goal") if _is_layers(data[k]) for layer in data[k]}
        if len(heights) > 1:
            raise ctx.error(
                f"the layer pictures have {' and '.join(map(str, sorted(heights)))} lines; they must share one frame",
                "goal",
            )
    try:
        return make_instance(
            kind,
            start,
            goal,
            adjacency=adjacency,
            goal_placement=placement,
            name=data.get("name", Path(path).stem),
            source=data.get("source", ""),
            known_optimal=known,
            edges=[tuple(e) for e in edges] if edges else edges,
            cells=cells,
            margin=margin,
            metadata=metadata,
            moves=moves,
        )
    except InstanceError as e:  # the line of the key the error names (a window too large without margin: goal)
        key = "goal" if e.key == "margin" and "margin" not in data else e.key or "board"
        table, _, name = key.rpartition(".")
        raise ctx.error(e.message, name, table=table or None) from None


MAX_PICTURE_ROW = 250_000  # characters; as many as the largest window has cells (board.py)
_LONG_ROW = re.compile(r"^[.A-Za-z0-9 \t]{%d,}\r?$" % (MAX_PICTURE_ROW + 1), re.M)


def _load_toml(text: str, path: str) -> dict:
    """``tomllib.loads`` with every failure turned into an InstanceError that names a line.

    A line made only of picture characters and longer than MAX_PICTURE_ROW can only
    be a row of a multi-line string (a key line has "=", an array brackets): it is
    refused before tomllib spends seconds per 10 MB on it (D13 of reliability-2).
    """
    m = _LONG_ROW.search(text)
    if m is not None:
        raise InstanceError(
            f"a picture row of {m.end() - m.start()} characters (at most {MAX_PICTURE_ROW}; "
            "give far coins as coordinates)",
            path,
            _line_at(text, m.start()),
        )
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"at line (\d+)", str(e))
        msg = re.sub(r"\s*\((at line \d+, column \d+|at end of document)\)", "", str(e))
        if m:
            line = int(m.group(1))
        else:  # "at end of document": the string still open there, else the last line
            line = _unclosed_string_line(text) or max(1, text.count("\n") + (not text.endswith("\n")))
        raise InstanceError(f"malformed TOML: {msg}", path, line) from None
    except RecursionError:
        raise InstanceError("malformed TOML: arrays or tables nested too deeply", path, _deepest_line(text)) from None
    except ValueError as e:  # int("9" * 5000): Python refuses more than 4300 digits
        if "digits" not in str(e):
            raise
        raise InstanceError(
            "an integer has too many digits (integers are limited to 10^100)", path, _long_number_line(text)
        ) from None


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _long_number_line(text: str) -> int:
    m = re.search(r"\d[\d_]{4300}", text)
    return _line_at(text, m.start()) if m else 1


def _deepest_line(text: str, depth: int = 100) -> int:
    """The line where bracket nesting first exceeds ``depth`` (strings are not skipped: a hint)."""
    level = 0
    for m in re.finditer(r"[\[\]{}]", text):
        level += 1 if m.group() in "[{" else -1
        if level > depth:
            return _line_at(text, m.start())
    return 1


_QUOTE_OR_COMMENT = re.compile(r"[#\"']")
_STRING = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'  # multi-line basic
    r"|'''.*?'''"  # multi-line literal
    r'|"(?:[^"\\\n]|\\.)*"'  # basic
    r"|'[^'\n]*'",  # literal
    re.S,
)


def _unclosed_string_line(text: str) -> int | None:
    """The line of the first quote that opens a string never closed (tomllib says only "at end")."""
    i = 0
    while (m := _QUOTE_OR_COMMENT.search(text, i)) is not None:
        if m.group() == "#":
            i = text.find("\n", m.start()) + 1
            if i == 0:
                return None
            continue
        closed = _STRING.match(text, m.start())
        if closed is None:
            return _line_at(text, m.start())
        i = closed.end()
    return None


#: what a name may not hold: NUL, and every character ``str.splitlines`` ends a line at
#: (U+2028 among them: a name that prints on two lines, round-4 defect R4-8)
_LINE_BREAKS = re.compile("[\x00\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def _texts(ctx: _Ctx, data: dict) -> None:
    """``name`` and ``source`` are strings on one line, without NUL."""
    for key in ("name", "source"):
        if key in data and not isinstance(data[key], str):
            raise ctx.error(f"{key} must be a string", key)
    if "name" in data and _LINE_BREAKS.search(data["name"]):
        raise ctx.error(f"name {_short(data['name'])} holds a line break or NUL", "name")


def _is_name(v: Any) -> bool:
    return isinstance(v, str) or _small_int(v)


def _int(ctx: _Ctx, data: dict, key: str, default, minimum: int, maximum: int = MAX_INTEGER):
    v = data.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not minimum <= v <= maximum:
        bound = f"between {minimum} and {maximum}" if maximum < MAX_INTEGER else f">= {minimum}"
        raise ctx.error(f"{key} must be an integer {bound}, not {_short(v)}", key)
    return v


def _small_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_INTEGER


def _short(v: Any, limit: int = 60) -> str:
    """``repr(v)`` in at most ``limit`` characters: a huge value stays one short line."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_INTEGER:
        return "an integer beyond 10^100"
    try:
        text = reprlib.repr(v)
    except ValueError:  # an integer too long for str() somewhere inside
        return f"a {type(v).__name__} holding an integer beyond 10^100"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _picture_rows(picture: str) -> list[str]:
    rows = picture.split("\n")
    if rows and rows[-1].strip() == "":
        rows.pop()
    return rows


def file_boards() -> tuple[str, ...]:
    """The boards an instance file can name: the registered lattices and ``graph``
    (``board = "plane"`` is read by :func:`read_plane`)."""
    return (*geometry.TABLE, "graph")


def _syntax(lattice: geometry.Lattice) -> geometry.Picture:
    """The picture syntax of a registered lattice (``geometry.register`` requires one)."""
    return cast(geometry.Picture, lattice.picture)


def _is_layers(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _coins(ctx: _Ctx, data: dict, key: str, kind: str, lattice: geometry.Lattice | None) -> dict[Hashable, str]:
    value = data[key]
    layers = lattice is not None and _syntax(lattice).layers
    if layers and isinstance(value, str):
        raise ctx.error(
            f"{key}: a {kind} board takes a list of layer pictures (the k-th is z = k) or "
            f"{cast(geometry.Lattice, lattice).axes('[]')} coordinates",
            key,
        )
    if layers and _is_layers(value):
        return _parse_layers(ctx, key, value, cast(geometry.Lattice, lattice))
    if isinstance(value, str):
        if lattice is None:
            raise ctx.error(f"{key}: pictures need a lattice board; give a list of cell names", key)
        return _parse_picture(ctx, key, value, lattice)
    if isinstance(value, list):
        return _coin_list(ctx, key, value, UNLABELED, lattice, {})
    if isinstance(value, dict):
        out: dict[Hashable, str] = {}
        for label, cells in value.items():
            if not (label and set(label) <= LABEL_CHARS):
                raise ctx.error(f"{key}: label {_short(label)} must be ASCII letters or digits", key)
            if not isinstance(cells, list):
                raise ctx.error(f"{key}: label {_short(label)} needs a list of cells", key)
            _coin_list(ctx, key, cells, label, lattice, out)
        return out
    raise ctx.error(f"{key} must be a picture, a list of cells or a table label -> cells", key)


def _coin_list(ctx, key, cells, label, lattice: geometry.Lattice | None, out):
    for c in cells:
        if lattice is None:
            if not _is_name(c):
                raise ctx.error(f"{key}: {_short(c)} is not a cell name", key)
            cell = c
        else:
            if not (isinstance(c, list) and len(c) == lattice.dimension and all(_small_int(v) for v in c)):
                raise ctx.error(
                    f"{key}: {_short(c)} is not an {lattice.point_words('[]')} of integers "
                    "(each at most 10^100 in absolute value)",
                    key,
                )
            cell = tuple(c)
        if cell in out:
            raise ctx.error(f"{key}: two coins on cell {_short(list(cell) if isinstance(cell, tuple) else cell)}", key)
        out[cell] = label
    return out


def _parse_layers(ctx: _Ctx, key: str, layers: list[str], lattice: geometry.Lattice) -> dict[Hashable, str]:
    """Pictures of a lattice in space (``board = "cubic"``): the k-th picture of the list is the
    layer z = k, read by the lattice's row syntax (the cubic: a square-grid picture, x along a
    row, the last row y = 0); an error names the row's line."""
    out: dict[Hashable, str] = {}
    for z, (layer, first_row_line) in enumerate(zip(layers, _layer_lines(ctx, key, len(layers)))):
        for cell, label in _parse_picture(ctx, key, layer, lattice, first_row_line).items():
            x, y = cast("tuple[int, int]", cell)
            out[(x, y, z)] = label
    return out


def _layer_lines(ctx: _Ctx, key: str, count: int) -> list[int]:
    """The line of each layer's first row: after each triple quote that opens a string, from the key on."""
    lines: list[int] = []
    i = (ctx.line_of(key) or 1) - 1
    inside = False
    while i < len(ctx.lines) and len(lines) < count:
        line = ctx.lines[i]
        for m in re.finditer(r'"""|\'\'\'', line):
            inside = not inside
            if inside:
                rest = line[m.end() :]
                lines.append(i + 2 if rest.strip() == "" else i + 1)  # TOML drops a newline right after the quotes
        i += 1
    return lines + [ctx.line_of(key) or 1] * (count - len(lines))


def _parse_picture(
    ctx: _Ctx, key: str, picture: str, lattice: geometry.Lattice, first_row_line: int | None = None
) -> dict[Hashable, str]:
    """The coins of a picture (of one layer, for a lattice in space), read by the lattice's row syntax."""
    syntax = _syntax(lattice)
    if first_row_line is None:
        key_line = ctx.line_of(key) or 1
        first = ctx.lines[key_line - 1] if key_line <= len(ctx.lines) else ""
        opens_alone = first.rstrip().endswith('"""') or first.rstrip().endswith("'''")
        first_row_line = key_line + 1 if opens_alone else key_line
    rows = _picture_rows(picture)
    out: dict[Hashable, str] = {}
    for i, row in enumerate(rows):
        y = len(rows) - 1 - i
        line = first_row_line + i
        if syntax.packed:  # blanks are ignored: the column counts the other characters
            row = _BLANKS.sub("", row)
        for m in _NOT_EMPTY.finditer(row):
            col, ch = m.start(), m.group()
            if ch not in LABEL_CHARS:
                raise ctx.error(
                    f"{key}: unexpected character {ch!r} in a picture (coins are ASCII letters or digits)", line=line
                )
            cell = syntax.cell_at(col, y)
            if cell is None:
                raise ctx.error(
                    f"{key}: coin {ch!r} at column {col + 1} of row y={y} is between "
                    f"{lattice.name} cells ({syntax.rule})",
                    line=line,
                )
            out[cell] = ch
    return out


# blanks are ASCII: a Unicode space or line separator (U+2028) is a stray character, refused
_BLANKS = re.compile(r"[ \t\r]+")
_NOT_EMPTY = re.compile(r"[^. \t\r]")  # coins (and stray characters): everything but dots and blanks


# --- writing ------------------------------------------------------------------------


def format_instance(instance: Instance) -> str:
    """The TOML text of an instance file for ``instance`` (what :func:`write_instance` writes;
    :func:`parse_instance` reads it back to an equal instance).
    """
    b = instance.board
    lines = [f"name = {_toml(instance.name)}", f"board = {_toml(b.name)}", f"adjacency = {instance.adjacency}"]
    if instance.source:
        lines.append(f"source = {_toml(instance.source)}")
    if instance.known_optimal is not None:
        lines.append(f"known_optimal = {instance.known_optimal}")
    if instance.goal_placement != "fixed":
        lines.append(f"goal_placement = {_toml(instance.goal_placement)}")
    if instance.moves != "jump":
        lines.append(f"moves = {_toml(instance.moves)}")
    if instance.margin != DEFAULT_MARGIN:
        lines.append(f"margin = {instance.margin}")
    start = {b.coords[c]: lab for c, lab in instance.start.coins}
    goal = {b.coords[c]: lab for c, lab in instance.goal.coins}
    pictures = None if b.lattice is None else _pictures(b.lattice, start, goal)
    for key, placement, pic in (("start", start, pictures and pictures[0]), ("goal", goal, pictures and pictures[1])):
        if pic:
            lines.append(f'{key} = """\n{pic}"""')
        else:
            lines.append(f"{key} = {_placement_toml(placement)}")
    if b.lattice is None:
        edges = sorted({tuple(sorted((i, j))) for i, nb in enumerate(b.neighbours) for j in nb})
        lines += [
            "",
            "[graph]",
            f"cells = {_toml(list(b.coords))}",
            "edges = [" + ", ".join(_toml([b.coords[i], b.coords[j]]) for i, j in edges) + "]",
        ]
    if instance.metadata:
        lines += ["", "[metadata]"] + [f"{k} = {_toml(v)}" for k, v in instance.metadata]
    return "\n".join(lines) + "\n"


def write_instance(instance: Instance, path: str | Path) -> None:
    """Write ``instance`` to ``path`` as an instance file (``format_instance``), atomically: the
    file is whole or not there.

    Parameters
    ----------
    instance : Instance
        The puzzle.
    path : str or Path
        The file (its folders are created).

    Returns
    -------
    None

    Raises
    ------
    OutputError
        When the file cannot be written.
    """
    write_atomic(path, format_instance(instance))


def _placement_toml(placement: dict) -> str:
    def cell(c):
        return _toml(list(c) if isinstance(c, tuple) else c)

    labels = sorted(set(placement.values()))
    if labels == [UNLABELED]:
        return "[" + ", ".join(cell(c) for c in placement) + "]"
    parts = [f"{lab} = [" + ", ".join(cell(c) for c, l2 in placement.items() if l2 == lab) + "]" for lab in labels]
    return "{ " + ", ".join(parts) + " }"


def _pictures(lattice: geometry.Lattice, start: dict, goal: dict) -> tuple[str, str] | None:
    """Both pictures in one frame (the lattice's row syntax), or None when some coin cannot be
    drawn (a label longer than one character, a cell left of column 0 or below row 0, a
    lattice drawn in layers: its files list coordinates)."""
    syntax = _syntax(lattice)
    if syntax.layers:
        return None
    if any(len(lab) != 1 for lab in list(start.values()) + list(goal.values())):
        return None
    cells = list(start) + list(goal)
    if any(c[1] < 0 or syntax.column_of(c) < 0 for c in cells):
        return None
    height = max(c[1] for c in cells) + 1
    width = max(syntax.column_of(c) for c in cells) + 1

    def draw(placement):
        rows = [
            syntax.row(y, 0, width - 1 + syntax.beyond, lambda c: placement.get(c, "."))
            for y in range(height - 1, -1, -1)
        ]
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


# --- the free plane -------------------------------------------------------------------------------
# board = "plane": coins anywhere (theory/plane.py).  Pictures are read on the lattice named by
# `grid` ("square", the default, or "triangular", rows at height √3/2: a 2-D lattice, whose
# plane projection places the picture's coins); coordinates are exact:
# integers, TOML decimals read as written (0.5 is 1/2), or strings "p/q" or "a + b*sqrt(r)".

PLANE_KEYS = {"name", "board", "adjacency", "source", "goal_placement", "grid", "start", "goal", "metadata"}
_RATIONAL = r"\d+(?:/\d+)?"
_SURD = re.compile(
    rf"\s*(?:(?P<a>[+-]?{_RATIONAL})\s*(?P<sign>[+-])|(?P<lone>[+-])?)\s*(?:(?P<b>{_RATIONAL})\s*\*?)?\s*"
    rf"sqrt\s*\(\s*(?P<r>\d+)\s*\)\s*"
)
_PLAIN = re.compile(rf"\s*(?P<a>[+-]?{_RATIONAL})\s*")


def read_plane(path: str | Path):
    """A free-plane puzzle file (board = "plane") as a ``theory.plane.PlanePuzzle``."""
    path = str(path)
    return parse_plane(_read_text(path), path)


def parse_plane(text: str, path: str = "<string>"):
    """A free-plane puzzle (``board = "plane"``) from TOML text; ``path`` names it in errors
    (InstanceError with the file and line).
    """
    return _parse_plane(_Ctx(path, text), _load_toml(text, path))


def _check_keys(ctx: _Ctx, data: dict, known, what: str) -> None:
    """Every key of ``data`` is one of ``known`` (an error names the file's line of the first
    that is not, and ``what`` says of which puzzle), and board, start and goal are there."""
    for key in data:
        if key not in known:
            raise ctx.error(f"unknown key {key!r}{what} (known: {', '.join(sorted(known))})", key)
    for key in ("board", "start", "goal"):
        if key not in data:
            raise ctx.error(f"missing key {key!r}", line=1)


def _parse_plane(ctx: _Ctx, data: dict):
    from ..theory.plane import PlanePuzzle

    path = ctx.path
    _check_keys(ctx, data, PLANE_KEYS, " for a plane puzzle")
    if data["board"] != "plane":
        raise ctx.error(f'read_plane reads board = "plane" files, not {_short(data["board"])}', "board")
    grid = data.get("grid", "square")
    if grid not in geometry.LATTICES:
        grids = " or ".join(f'"{name}"' for name in geometry.LATTICES)
        raise ctx.error(f"grid must be {grids} (how pictures are read)", "grid")
    adjacency = _int(ctx, data, "adjacency", 2, minimum=2, maximum=MAX_ADJACENCY)
    placement = data.get("goal_placement", "congruent")
    if placement not in GOAL_PLACEMENTS:
        raise ctx.error(f"goal_placement must be one of {', '.join(GOAL_PLACEMENTS)}", "goal_placement")
    _texts(ctx, data)
    coins = {key: _plane_coins(ctx, data, key, grid) for key in ("start", "goal")}
    if len(coins["start"]) != len(coins["goal"]):
        raise ctx.error(
            f"start has {len(coins['start'])} coins and goal {len(coins['goal'])}; they must be equal", "goal"
        )
    return PlanePuzzle(
        name=data.get("name", Path(path).stem),
        start=coins["start"],
        goal=coins["goal"],
        adjacency=adjacency,
        goal_placement=placement,
        source=data.get("source", ""),
    )


def _plane_coins(ctx: _Ctx, data: dict, key: str, grid: str):
    value = data[key]
    if isinstance(value, str):
        lattice = geometry.TABLE[grid]
        cells = cast("dict[tuple[int, int], str]", _parse_picture(ctx, key, value, lattice))
        points = [lattice.point(xy) for xy in cells]
    elif isinstance(value, list):
        points = []
        for c in value:
            if not (isinstance(c, list) and len(c) == 2):
                raise ctx.error(f"{key}: {_short(c)} is not an [x, y] pair", key)
            points.append((_plane_number(ctx, key, c[0]), _plane_number(ctx, key, c[1])))
    else:
        raise ctx.error(f"{key} must be a picture or a list of [x, y] points", key)
    if not points:
        raise ctx.error(f"{key} has no coins", key)
    for i, p in enumerate(points):
        for q in points[:i]:
            try:
                close = (geometry.dist2(p, q) - geometry.ONE).sign() < 0
            except geometry.FieldError as e:
                raise ctx.error(f"{key}: the coordinates use more than one square root ({e})", key) from None
            if close:
                same = "two coins on one point" if p == q else "two coins overlap (centres closer than 1)"
                raise ctx.error(f"{key}: {same}: {_point_text(q)} and {_point_text(p)}", key)
    return frozenset(points)


def _plane_number(ctx: _Ctx, key: str, v: Any):
    from fractions import Fraction

    from ..geometry import Surd

    if isinstance(v, bool):
        raise ctx.error(f"{key}: {v!r} is not a number", key)
    if isinstance(v, int) and _small_int(v):
        return Surd(Fraction(v))
    if isinstance(v, float) and abs(v) < 1e12:
        return Surd(Fraction(repr(v)))  # the decimal as written, not the binary double
    if isinstance(v, str) and len(v) <= 100:
        plain = _PLAIN.fullmatch(v)
        if plain:
            return Surd(Fraction(plain.group("a")))
        m = _SURD.fullmatch(v)
        if m:
            a = Fraction(m.group("a")) if m.group("a") else Fraction(0)
            b = Fraction(m.group("b")) if m.group("b") else Fraction(1)
            if "-" in (m.group("sign"), m.group("lone")):
                b = -b
            root, free = _radicand(ctx, key, int(m.group("r")))
            return Surd(a, b * root, free)
    raise ctx.error(f'{key}: {_short(v)} is not a number (an integer, a decimal, "p/q" or "a + b*sqrt(r)")', key)


def _radicand(ctx: _Ctx, key: str, r: int) -> tuple[int, int]:
    """sqrt(r) = s·sqrt(free) with free squarefree: (s, free)."""
    from ..geometry import squarefree

    if r > 10**6 or r < 1:
        raise ctx.error(f"{key}: sqrt({r}) is out of range (1 to 10^6)", key)
    return squarefree(r)


def _point_text(p) -> str:
    return f"({p[0]}, {p[1]})"


def plane_number_json(v) -> int | str:
    """An exact coordinate (``geometry.Surd``) as the file syntax reads it back: an integer, or a
    string ``"p/q"`` or ``"a + b*sqrt(r)"`` (:func:`plane_number` is the inverse)."""
    a, b, r = v.a, v.b, v.r
    if b == 0:
        return int(a) if a.denominator == 1 else str(a)
    coefficient = "" if abs(b) == 1 else f"{abs(b)}*"
    root = f"{coefficient}sqrt({r})"
    if a == 0:
        return root if b > 0 else f"-{root}"
    return f"{a} {'+' if b > 0 else '-'} {root}"


def plane_number(value: Any, where: str, path: str, line: int | None = None):
    """A coordinate of a plane file or solution (an integer, a decimal, ``"p/q"``, ``"a + b*sqrt(r)"``)
    as an exact ``geometry.Surd``; InstanceError naming ``path`` otherwise."""
    ctx = _Ctx(path, "")
    try:
        return _plane_number(ctx, where, value)
    except InstanceError as e:
        raise InstanceError(e.message, path, line) from None
