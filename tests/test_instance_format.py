"""Instance files: round trips and every kind of bad input."""

import pytest
from hypothesis import given, settings

from coinsat.errors import InstanceError
from coinsat.io.instance_format import format_instance, parse_instance, read_instance

from .strategies import instances


@settings(max_examples=100, deadline=None)
@given(instances())
def test_read_write_round_trip(inst):
    text = format_instance(inst)
    assert parse_instance(text) == inst


def test_round_trip_through_file(tmp_path):
    inst = read_instance("instances/paper/swap5-a.toml")
    from coinsat.io.instance_format import write_instance

    write_instance(inst, tmp_path / "x.toml")
    assert read_instance(tmp_path / "x.toml") == inst


BAD = {
    "malformed TOML": ('board = "square"\nstart = [[0, 0]\ngoal = [[0, 0]]\n', None),
    "different coin counts": ('board = "square"\nstart = [[0, 0], [1, 0]]\ngoal = [[0, 0]]\n', 3),
    "different labels": ('board = "square"\nstart = { A = [[0, 0]] }\ngoal = { B = [[0, 0]] }\n', 3),
    "duplicate coins": ('board = "square"\nstart = [[0, 0], [0, 0]]\ngoal = [[0, 0], [1, 0]]\n', 2),
    "odd triangular parity": ('board = "triangular"\nstart = """\no o\n o\n"""\ngoal = """\n o\no o\n"""\n', 3),
    "pictures of different heights": ('board = "square"\nstart = """\no o\n"""\ngoal = """\no\no\n"""\n', 5),
    "unknown board kind": ('name = "x"\nboard = "hexagonal"\nstart = [[0, 0]]\ngoal = [[0, 0]]\n', 2),
    "missing key": ('board = "square"\nstart = [[0, 0]]\n', 1),
    "d < 1": ('board = "square"\nadjacency = 0\nstart = [[0, 0]]\ngoal = [[0, 0]]\n', 2),
    "bad picture character": ('board = "square"\nstart = """\no #\n"""\ngoal = """\no o\n"""\n', 3),
    "graph without edges": ('board = "graph"\nstart = [1]\ngoal = [1]\n', 1),
    "coordinate not a pair": ('board = "square"\nstart = [[0, 0, 1]]\ngoal = [[0, 0]]\n', 2),
    "unknown key": ('board = "square"\nstart = [[0, 0]]\ngoal = [[0, 0]]\nhorizon = 3\n', 4),
    "graph cell not on the graph": ('board = "graph"\nstart = [9]\ngoal = [1]\n[graph]\nedges = [[1, 2]]\n', 2),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_names_file_and_line(case, tmp_path):
    text, line = BAD[case]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InstanceError) as e:
        read_instance(path)
    assert e.value.path == str(path)
    assert e.value.line is not None
    if line is not None:
        assert e.value.line == line, str(e.value)
    assert str(e.value).startswith(f"{path}:{e.value.line}: ")
