"""Every board through one door: ``board = "cubic"`` and ``board = "plane"`` files read by the instance
reader (file:line errors) and answered by ``solve``, ``verify``, ``show`` and ``count``, or refused
with the reason (exit 2) where an engine or a command works on boards only."""

from __future__ import annotations

import json

import pytest

from coinsat.cli import main
from coinsat.errors import InstanceError
from coinsat.io.instance_format import (
    format_instance,
    parse_instance,
    parse_puzzle,
    plane_number,
    plane_number_json,
    read_instance,
    read_puzzle,
)
from coinsat.theory.plane import PlanePuzzle

FLIP = "instances/open-problems/cubic-floor-flip.toml"
TWO_EXTRA = "instances/open-problems/cubic-2x2x2-d2-n5-two-extra.toml"
HYPOTHESIS = "instances/open-problems/cubic-2x2x2-d3-n6-hypothesis.toml"
RHOMBOID = "instances/open-problems/rhomboid-plane.toml"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line(err: str) -> bool:
    return len(err.strip().splitlines()) == 1 and "Traceback" not in err


# --- the cubic lattice ----------------------------------------------------------------------------


def test_cubic_layers_and_coordinates_are_one_puzzle():
    layers = read_instance(FLIP)
    floor = [[x, y, 0] for y in range(2) for x in range(3)]
    text = (
        'name = "cubic-floor-flip"\nboard = "cubic"\nadjacency = 2\n'
        'source = "coinsat: a 3x2 floor with a post on one corner, turned upside down in the cubic lattice '
        '(open problem 3)"\n'
        f"start = {floor + [[0, 0, 1]]}\n"
        f"goal = {[[2, 1, 0]] + [[x, y, 1] for y in range(2) for x in range(3)]}\n"
    )
    assert parse_instance(text, "x.toml") == layers
    assert layers.board.size == 12 and layers.board.exact  # span of the start: the 3x2x2 box
    assert parse_instance(format_instance(layers)) == layers


@pytest.mark.parametrize("method", ["auto", "bfs", "sat", "spanbfs", "rankbfs"])
def test_cubic_solvable_puzzle_every_engine(capsys, tmp_path, method):
    out = tmp_path / "flip.json"
    code, stdout, err = run(capsys, "solve", FLIP, "--method", method, "--json", "-o", str(out))
    obj = json.loads(stdout)
    assert code == 0, err
    assert (obj["status"], obj["length"], obj["lower_bound"]) == ("optimal", 5, 5)
    assert all(len(p) == 3 for move in obj["moves"] for p in move)  # [x, y, z] cells
    assert run(capsys, "verify", FLIP, str(out))[0] == 0


def test_cubic_ilp_agrees(capsys):
    pytest.importorskip("pulp")
    code, stdout, _ = run(capsys, "solve", FLIP, "--method", "ilp", "--json")
    assert code == 0 and json.loads(stdout)["length"] == 5


@pytest.mark.parametrize("path", [TWO_EXTRA, HYPOTHESIS])
def test_cubic_unsolvable_puzzles(capsys, path):
    code, stdout, _ = run(capsys, "solve", path, "--json")
    obj = json.loads(stdout)
    assert code == 0 and obj["status"] == "unsolvable" and obj["certificate"]["scope"] == "global"
    assert obj["lower_bound"] is None


def test_cubic_verify_rejects_a_tampered_solution(capsys, tmp_path):
    out = tmp_path / "flip.json"
    run(capsys, "solve", FLIP, "--json", "-o", str(out))
    obj = json.loads(out.read_text())
    obj["moves"] = obj["moves"][::-1]
    out.write_text(json.dumps(obj))
    code, stdout, _ = run(capsys, "verify", FLIP, str(out))
    assert code == 1 and stdout.startswith("illegal")


def test_cubic_show_and_count(capsys, tmp_path):
    code, stdout, _ = run(capsys, "show", FLIP)
    assert code == 0 and "cubic board" in stdout
    # drawn layer by layer, as the file draws it
    assert "start\nz = 0\no o o\no o o\nz = 1\n. . .\no . .\n" in stdout
    code, stdout, _ = run(capsys, "count", FLIP, "--json")
    obj = json.loads(stdout)
    assert code == 0 and obj["length"] == 5 and obj["sequences"] >= 1


CUBIC_BAD = {
    "triple": ('board = "cubic"\nstart = [[0, 0, 0], [1, 0]]\ngoal = [[0, 0, 0], [1, 0, 0]]\n', 2, "[x, y, z]"),
    "d1": ('board = "cubic"\nadjacency = 1\nstart = [[0, 0, 0]]\ngoal = [[0, 0, 0]]\n', 2, "d >= 2"),
    "placement": (
        'board = "cubic"\ngoal_placement = "translate"\nstart = [[0, 0, 0]]\ngoal = [[0, 0, 0]]\n',
        2,
        "goals on cubic boards are fixed",
    ),
    "slide": ('board = "cubic"\nmoves = "slide"\nstart = [[0, 0, 0]]\ngoal = [[0, 0, 0]]\n', 2, "not cubic"),
    "one picture": ('board = "cubic"\nstart = """\no o\n"""\ngoal = [[0, 0, 0]]\n', 2, "layer pictures"),
    "layer char": ('board = "cubic"\nstart = ["""\no o\n""", """\no #\n"""]\ngoal = [[0, 0, 0]]\n', 5, "'#'"),
    "frames": (
        'board = "cubic"\nstart = ["""\no o\n"""]\ngoal = ["""\n. .\no o\n"""]\n',
        5,
        "share one frame",
    ),
}


@pytest.mark.parametrize("case", sorted(CUBIC_BAD))
def test_cubic_errors_name_file_and_line(case, capsys, tmp_path):
    text, line, words = CUBIC_BAD[case]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InstanceError) as e:
        read_instance(path)
    assert (e.value.line, e.value.path) == (line, str(path)) and words in e.value.message, str(e.value)
    code, _, err = run(capsys, "solve", str(path))
    assert code == 2 and one_line(err) and f"{path}:{line}:" in err


# --- the free plane -------------------------------------------------------------------------------


def test_plane_files_through_the_reader():
    puzzle = read_puzzle(RHOMBOID)
    assert isinstance(puzzle, PlanePuzzle) and puzzle.n == 6
    with pytest.raises(InstanceError, match="solve, verify and show take it") as e:
        read_instance(RHOMBOID)
    assert e.value.line == 2
    with pytest.raises(InstanceError) as e:
        parse_puzzle('board = "plane"\nstart = [[0, 0], [0.5, 0]]\ngoal = [[0, 0], [1, 0]]\n', "p.toml")
    assert e.value.line == 2 and "overlap" in e.value.message


@pytest.mark.parametrize(
    "text", ["0", "-3", "1/2", "-5/2", "sqrt(3)", "-sqrt(3)", "1/2*sqrt(3)", "2 + 1/2*sqrt(3)", "-1/3 - 2*sqrt(5)"]
)
def test_plane_numbers_round_trip(text):
    value = plane_number(text, "x", "s.json")
    assert plane_number(plane_number_json(value), "x", "s.json") == value


def test_plane_solve_verify_show(capsys, tmp_path):
    out = tmp_path / "r.json"
    code, stdout, err = run(capsys, "solve", RHOMBOID, "--json", "-o", str(out))
    obj = json.loads(stdout)
    assert code == 0, err
    assert (obj["status"], obj["length"], obj["lower_bound"], obj["method"]) == ("optimal", 2, 2, "plane")
    assert run(capsys, "verify", RHOMBOID, str(out))[:2] == (0, "ok: 2 legal moves reach the goal\n")
    code, stdout, _ = run(capsys, "show", RHOMBOID, str(out))
    assert code == 0 and "sqrt(3)" in stdout and stdout.count("->") == 2
    moves = obj["moves"]
    obj["moves"] = moves[::-1]  # the second move first: illegal
    out.write_text(json.dumps(obj))
    code, stdout, _ = run(capsys, "verify", RHOMBOID, str(out))
    assert code == 1 and stdout.startswith("illegal: step 1")
    obj["moves"] = moves[:1]  # legal, but not at the goal
    out.write_text(json.dumps(obj))
    code, stdout, _ = run(capsys, "verify", RHOMBOID, str(out))
    assert code == 1 and "not a placement of the goal" in stdout


def test_plane_h_to_o_is_optimal_4(capsys):
    code, stdout, _ = run(capsys, "solve", "instances/open-problems/h-to-o-plane.toml", "--json")
    obj = json.loads(stdout)
    assert code == 0 and (obj["status"], obj["length"], obj["lower_bound"]) == ("optimal", 4, 4)


@pytest.mark.slow
def test_plane_o_to_h_is_optimal_6(capsys):
    """O -> H has no square-grid solution, 6 moves in the plane (about a CPU minute)."""
    code, stdout, _ = run(capsys, "solve", "instances/open-problems/o-to-h-plane.toml", "--json")
    obj = json.loads(stdout)
    assert code == 0 and (obj["status"], obj["length"], obj["lower_bound"]) == ("optimal", 6, 6)


def test_plane_bounded_where_the_placement_argument_ends(capsys):
    code, stdout, _ = run(capsys, "solve", "instances/open-problems/pyramid-to-line-plane.toml")
    assert code == 0 and "bounded" in stdout and "no solution with <= 4 moves" in stdout
    assert "cannot be proven empty" in stdout


def test_plane_time_limit_is_unknown_with_the_bound(capsys):
    code, stdout, _ = run(capsys, "solve", "instances/open-problems/o-to-h-plane.toml", "--time-limit", "1")
    assert code == 3 and stdout.startswith("o-to-h-plane: unknown") and "stopped: time limit" in stdout
    assert "lower bound: " in stdout and "->" not in stdout


@pytest.mark.parametrize(
    "argv, words",
    [
        (["solve", RHOMBOID, "--method", "sat"], "--method sat works on boards"),
        (["solve", RHOMBOID, "--certify", "DIR"], "--certify works on boards"),
        (["show", RHOMBOID, "--format", "svg"], "pictures are drawn on boards"),
        (["count", RHOMBOID], f'{RHOMBOID}:2: board = "plane"'),
        (["construct", RHOMBOID], f'{RHOMBOID}:2: board = "plane"'),
        (["export", RHOMBOID, "--horizon", "2", "--format", "cnf"], f'{RHOMBOID}:2: board = "plane"'),
    ],
)
def test_plane_refusals_are_one_line(capsys, tmp_path, argv, words):
    argv = [str(tmp_path / "d") if a == "DIR" else a for a in argv]
    code, _, err = run(capsys, *argv)
    assert code == 2 and one_line(err) and words in err, err


def test_plane_malformed_solution_names_the_file(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"moves": [[[0, 0], ["x", 1]]]}')
    code, _, err = run(capsys, "verify", RHOMBOID, str(bad))
    assert code == 2 and one_line(err) and str(bad) in err
