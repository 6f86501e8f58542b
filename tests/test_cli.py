"""The command-line contract: JSON keys, statuses, exit codes, file:line errors."""

import json
import subprocess
import sys

import pytest

from coinsat.cli import main
from coinsat.io.solution_format import JSON_KEYS

from .test_instance_format import BAD


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_solve_json_and_verify_round_trip(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "instances/paper/h-to-o.toml", "--method", "bfs", "--json")
    assert code == 0
    obj = json.loads(out)
    assert tuple(obj) == JSON_KEYS
    assert obj["status"] == "optimal" and obj["length"] == 4 == obj["lower_bound"] == len(obj["moves"])
    assert obj["stopped"] is None  # nothing ended the command early
    sol = tmp_path / "sol.json"
    sol.write_text(out)
    assert run(capsys, "verify", "instances/paper/h-to-o.toml", str(sol))[0] == 0
    # tamper: replay the moves in reverse order
    obj["moves"] = obj["moves"][::-1]
    sol.write_text(json.dumps(obj))
    code, out, _ = run(capsys, "verify", "instances/paper/h-to-o.toml", str(sol))
    assert code == 1 and "illegal" in out


def test_unsolvable_exit_zero_with_global_certificate(capsys):
    code, out, _ = run(capsys, "solve", "instances/paper/o-to-h.toml", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["status"] == "unsolvable" and obj["lower_bound"] is None
    assert obj["certificate"]["scope"] == "global"


def test_bounded_and_unknown(capsys):
    code, out, _ = run(
        capsys, "solve", "instances/paper/diagonal.toml", "--method", "bfs", "--max-moves", "10", "--json"
    )
    obj = json.loads(out)
    assert code == 0 and obj["status"] == "bounded" and obj["length"] is None
    assert 1 <= obj["lower_bound"] <= 11


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_instance_exits_2_naming_file_and_line(case, capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(BAD[case][0])
    out_file = tmp_path / "out.json"
    code, out, err = run(capsys, "solve", str(path), "--json", "-o", str(out_file))
    assert code == 2
    assert f"{path}:" in err and "Traceback" not in err
    assert not out_file.exists() and out == ""


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["solve", "instances/paper/diagonal.toml", "--max-moves", "-1"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["solve", "instances/paper/diagonal.toml", "--method", "nope"])
    assert e.value.code == 2


def test_show_draws_every_step(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "instances/paper/h-to-o.toml", "--json")
    sol = tmp_path / "sol.json"
    sol.write_text(out)
    code, out, _ = run(capsys, "show", "instances/paper/h-to-o.toml", str(sol))
    assert code == 0 and out.count("step ") == 5


def test_console_entry_point_runs():
    p = subprocess.run(
        [sys.executable, "-m", "coinsat", "show", "instances/paper/rhomboid.toml"], capture_output=True, text=True
    )
    assert p.returncode == 0 and "start" in p.stdout


def test_verify_accepts_legal_moves_outside_a_triangular_window(capsys, tmp_path):
    """The triangular lattice is infinite: a move list may leave the instance's window."""
    tri = [(0, 0), (1, 0), (0, 1)]
    moves = []
    for _ in range(8):  # roll the triangle upwards: the lowest coin jumps over the other two
        a = min(tri, key=lambda c: (c[1], c[0]))
        b, c = (x for x in tri if x != a)
        dest = (b[0] + c[0] - a[0], b[1] + c[1] - a[1])
        moves.append([list(a), list(dest)])
        tri = [dest if x == a else x for x in tri]
    inst = tmp_path / "tri.toml"
    inst.write_text(
        'board = "triangular"\nmargin = 1\nstart = [[0, 0], [1, 0], [0, 1]]\n'
        f"goal = {json.dumps([list(c) for c in tri])}\n"
    )
    sol = tmp_path / "sol.json"
    sol.write_text(json.dumps({"moves": moves}))
    code, out, _ = run(capsys, "verify", str(inst), str(sol))
    assert code == 0, out
    moves[3][1] = [moves[3][1][0] + 5, moves[3][1][1]]  # a jump to a cell with no support
    sol.write_text(json.dumps({"moves": moves}))
    code, out, _ = run(capsys, "verify", str(inst), str(sol))
    assert code == 1 and "step 4" in out and "fewer than 2" in out
