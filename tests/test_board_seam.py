"""The board seam: a lattice is one ``geometry.Lattice`` record, registered once, and every module
asks it.  The king lattice (8 neighbours) is defined here, in the test alone, and goes the whole way
through coinsat without a line changed anywhere else: an instance file naming it, its windows and
goal placements, ``bfs`` and ``verify``, the file written back, ``coinsat show`` and the drawing."""

from __future__ import annotations

import ast
import json
from collections import deque
from pathlib import Path

import pytest

import coinsat
from coinsat import geometry
from coinsat.board import BoardKind
from coinsat.cli import main
from coinsat.draw import start_goal
from coinsat.draw.layout import layout
from coinsat.draw.svg import figure_svg
from coinsat.errors import InstanceError
from coinsat.io.instance_format import format_instance, parse_instance
from coinsat.io.render import picture
from coinsat.limits import Limits
from coinsat.search.bfs import solve_bfs
from coinsat.search.options import BfsOptions
from coinsat.solution import verify


def chebyshev(v: geometry.Point) -> int:
    """The king's distance: the largest coordinate difference."""
    return max(abs(t) for t in v)


KING = geometry.Lattice(
    "king",
    tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)),
    geometry.SQUARE.generators,  # the square's point group: a quarter turn and a reflection
    geometry.SQUARE.forms,  # hull: the bounding box
    metric=chebyshev,
    plane=geometry.SQUARE.plane,
    picture=geometry.Picture(),  # the square grid's picture rows
)

# an L of three coins turned over (d = 2): on the square grid it never moves, on the king's it does
PUZZLE = """\
name = "king-l"
board = "king"
adjacency = 2
start = \"\"\"
. .
o .
o o
\"\"\"
goal = \"\"\"
o o
o .
. .
\"\"\"
"""


@pytest.fixture
def king():
    geometry.register(KING)
    try:
        yield KING
    finally:
        geometry.unregister("king")


def _reference_bfs(board, start: frozenset, goal: frozenset, d: int) -> int | None:
    """Moves on the board's cells by the king's own rule (8 neighbours, >= d of them occupied
    after the move), written here from the rules, not from coinsat's boards."""
    cells = set(board.coords)

    def around(c):
        return [(c[0] + dx, c[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]

    seen, todo = {start: 0}, deque([start])
    while todo:
        s = todo.popleft()
        if s == goal:
            return seen[s]
        for a in s:
            rest = s - {a}
            for b in cells - s:
                if b != a and sum(n in rest for n in around(b)) >= d:
                    t = rest | {b}
                    if t not in seen:
                        seen[t] = seen[s] + 1
                        todo.append(t)
    return None


def test_a_registered_lattice_is_a_board_end_to_end(king, capsys, tmp_path):
    inst = parse_instance(PUZZLE, "king.toml")
    b = inst.board
    assert b.kind is BoardKind("king") and b.lattice is king and b.name == "king"
    # neighbours come from the lattice: the centre of a 3x3 box has all 8 around it
    assert len(b.neighbours[b.cell((1, 1))]) == 8
    coords = [b.coords[c] for c in inst.start.cells]
    assert sorted(coords) == [(0, 0), (0, 1), (1, 0)]

    result = solve_bfs(inst, limits=Limits(), max_moves=None, options=BfsOptions())
    assert result.status == "optimal" and result.solution is not None
    assert verify(inst, result.solution).ok  # the one move validator, on the king's board
    start = frozenset(b.coords[c] for c in inst.start.cells)
    goal = frozenset(b.coords[c] for c in inst.goal.cells)
    assert len(result.solution) == _reference_bfs(b, start, goal, inst.d)

    # the file written back is the file read, pictures byte for byte
    text = format_instance(inst)
    assert 'board = "king"' in text and 'start = """\n. .\no .\no o\n"""' in text
    assert parse_instance(text) == inst
    assert picture(inst, inst.start) == ". .\no .\no o"

    # the drawing: cells where the plane projection puts them (the square's, here)
    lay = layout(inst, [inst.start, inst.goal])
    assert lay.position[b.cell((1, 0))][0] - lay.position[b.cell((0, 0))][0] == pytest.approx(1.0)
    assert lay.position[b.cell((0, 0))][1] - lay.position[b.cell((0, 1))][1] == pytest.approx(1.0)  # y grows down
    assert figure_svg(start_goal(inst)).startswith("<svg")

    # the command line: show and solve read it like any board
    path = tmp_path / "king.toml"
    path.write_text(PUZZLE)
    assert main(["show", str(path)]) == 0
    assert "king board" in capsys.readouterr().out
    assert main(["solve", str(path), "--method", "bfs", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "optimal" and len(answer["moves"]) == len(result.solution)


@pytest.mark.parametrize("method", ["auto", "bfs", "spanbfs", "rankbfs", "sat"])
def test_every_engine_runs_on_a_registered_lattice(king, method):
    """No engine names a lattice: each answers the king's puzzle as bfs does (optimal, 3 moves)."""
    inst = parse_instance(PUZZLE, "king.toml")
    result = coinsat.solve(inst, method=method)
    assert result.status == "optimal" and result.solution is not None and len(result.solution) == 3
    assert verify(inst, result.solution).ok


def test_the_answer_is_the_lattices_own(king):
    """The same pictures on the square grid are another puzzle: with 4 neighbours every cell
    outside the L's box touches at most one of its coins, so nothing moves."""
    on_king = parse_instance(PUZZLE, "king.toml")
    on_square = parse_instance(PUZZLE.replace('board = "king"', 'board = "square"'), "square.toml")
    king_moves = solve_bfs(on_king, limits=Limits(), max_moves=None, options=BfsOptions()).solution
    square = solve_bfs(on_square, limits=Limits(), max_moves=None, options=BfsOptions())
    assert king_moves is not None
    assert square.status == "unsolvable" and len(king_moves) == 3


def test_goal_placements_use_the_lattices_symmetries(king):
    inst = parse_instance(PUZZLE.replace("adjacency = 2", 'adjacency = 2\ngoal_placement = "congruent"'), "k.toml")
    shapes = {frozenset(inst.board.coords[c] for c in g.cells) for g in inst.goal_configurations}
    # every placement is an image of the goal under one of the 8 symmetries, then a translation
    assert len(geometry.symmetries("king")) == 8
    goal = [(0, 1), (0, 2), (1, 2)]
    for shape in shapes:
        assert any(
            {(p[0] + dx, p[1] + dy) for p in (geometry.apply(m, q) for q in goal)} == shape
            for m in geometry.symmetries("king")
            for dx in range(-4, 5)
            for dy in range(-4, 5)
        )

    def translate_of_goal(shape):
        (x0, y0), (x1, y1) = min(goal), min(shape)
        return {(x + x1 - x0, y + y1 - y0) for x, y in goal} == shape

    assert any(not translate_of_goal(shape) for shape in shapes)  # turned or reflected ones too


def test_an_unregistered_lattice_is_no_board():
    with pytest.raises(InstanceError, match="unknown board kind 'king'"):
        parse_instance(PUZZLE, "king.toml")
    with pytest.raises(ValueError):
        BoardKind("king")


def test_a_board_lattice_needs_its_picture_and_projection():
    with pytest.raises(ValueError, match="picture syntax"):
        geometry.register(geometry.Lattice("bare", KING.directions, KING.generators, KING.forms))
    with pytest.raises(ValueError, match="taken"):
        geometry.register(geometry.SQUARE)
    assert "bare" not in geometry.TABLE


#: the modules every board goes through: none of them may name a lattice (the record answers)
SEAM = [
    "coinsat/board.py",
    "coinsat/instance.py",
    "coinsat/io/instance_format.py",
    "coinsat/io/render.py",
    "coinsat/io/solution_format.py",
    "coinsat/draw/layout.py",
    "coinsat/search/methods.py",
    "coinsat/commands/show.py",
    "coinsat/commands/plane.py",
]
#: where a name stands on purpose: the kinds' constants (theorems of one lattice test ``is``
#: against them) and the free plane's default grid (a default of the file format)
NAMED = {("coinsat/board.py", ""), ("coinsat/io/instance_format.py", "_parse_plane")}


def _named_lattices(path: Path) -> list[tuple[str, int, str]]:
    """(the outermost def or class, line, name) of every lattice name in code, docstrings apart."""
    tree = ast.parse(path.read_text())
    names = set(geometry.TABLE) | {"SQUARE", "TRIANGULAR", "CUBIC"}
    found = []
    for top in tree.body:
        owner = getattr(top, "name", "")
        docs = {
            id(node.body[0].value)
            for node in ast.walk(top)
            if isinstance(node, (ast.FunctionDef, ast.ClassDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        if isinstance(top, ast.Expr) and isinstance(top.value, ast.Constant):
            continue  # the module's docstring
        for leaf in ast.walk(top):
            if isinstance(leaf, ast.Constant) and isinstance(leaf.value, str) and id(leaf) not in docs:
                text = leaf.value
            elif isinstance(leaf, ast.Attribute):
                text = leaf.attr
            else:
                continue
            if text in names:
                found.append((owner, leaf.lineno, text))
    return found


@pytest.mark.parametrize("module", SEAM)
def test_the_modules_of_the_seam_name_no_lattice(module):
    path = Path(__file__).resolve().parent.parent / module
    stray = [(owner, line, name) for owner, line, name in _named_lattices(path) if (module, owner) not in NAMED]
    assert not stray, f"{module} names a lattice where it should ask the record: {sorted(set(stray))}"
