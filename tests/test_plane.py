"""The free plane (the paper's open problem 4): exact numbers, tangent points, the move rule, the search."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from coinsat.cli import main
from coinsat.errors import InstanceError
from coinsat.geometry import FieldError, Surd, dist2, lattice_point, plane_point, tangent_points
from coinsat.io.instance_format import read_plane
from coinsat.rules import OVERLAP, check_plane_move
from coinsat.theory.plane import PlanePuzzle, placements, search, verify

ONE = Surd(Fraction(1))


def _surd(rng: random.Random, r: int) -> Surd:
    return Surd(Fraction(rng.randint(-50, 50), rng.randint(1, 9)), Fraction(rng.randint(-50, 50), rng.randint(1, 9)), r)


@pytest.mark.parametrize("r", [2, 3, 5])
def test_surd_sign_and_square_root_are_exact(r):
    rng = random.Random(r)
    for _ in range(300):
        x = _surd(rng, r)
        value = float(x.a) + float(x.b) * r**0.5
        if abs(value) > 1e-9:
            assert x.sign() == (1 if value > 0 else -1)
        sq = x * x
        root = sq.sqrt()
        assert root * root == sq and root.sign() >= 0 and (root == x or root == -x)
    # a + b√r is zero only when a = b = 0; a square of the field times √r is not a square
    assert Surd(Fraction(0), Fraction(0), r).sign() == 0
    with pytest.raises(FieldError):
        Surd(Fraction(0), Fraction(1), r).sqrt()


def test_two_radicals_in_one_number_raise():
    with pytest.raises(FieldError):
        Surd(Fraction(0), Fraction(1), 2) + Surd(Fraction(0), Fraction(1), 3)


@pytest.mark.parametrize("lattice", ["square", "triangular"])
def test_tangent_points_touch_both_coins_exactly(lattice):
    rng = random.Random(len(lattice))
    pts = [lattice_point(lattice, (x, y)) for x in range(-2, 3) for y in range(-2, 3)]
    checked = 0
    for _ in range(200):
        p, q = rng.sample(pts, 2)
        for x in tangent_points(p, q):
            assert dist2(x, p) == ONE == dist2(x, q)
            checked += 1
    assert checked > 50


def test_the_move_rule_touch_and_overlap():
    coins = frozenset(plane_point(x, 0) for x in range(3))
    apex = (Surd(Fraction(1, 2)), Surd(Fraction(0), Fraction(1, 2), 3))
    assert check_plane_move(coins, plane_point(2, 0), apex) is None  # touches (0,0) and (1,0)
    assert check_plane_move(coins, plane_point(0, 0), apex) is not None  # touches only (1,0) then
    near = (Surd(Fraction(1, 2)), Surd(Fraction(1, 2)))
    assert check_plane_move(coins, plane_point(2, 0), near) == OVERLAP


def _puzzle(start, goal, placement="congruent"):
    P = lambda cs: frozenset(plane_point(x, y) for x, y in cs)  # noqa: E731
    return PlanePuzzle("t", P(start), P(goal), goal_placement=placement)


def test_a_line_of_three_becomes_a_triangle_in_one_move():
    pz = _puzzle([(0, 0), (1, 0), (2, 0)], [(0, 0), (1, 0), (2, 0)], "fixed")
    tri = frozenset(
        {plane_point(0, 0), plane_point(1, 0), (Surd(Fraction(1, 2)), Surd(Fraction(0), Fraction(1, 2), 3))}
    )
    pz = PlanePuzzle("line-to-triangle", pz.start, tri, goal_placement="congruent")
    report = search(pz, 1)
    assert report.length == 1 and verify(pz, report.moves).ok
    assert report.proven_none == 0


def test_verify_rejects_a_move_that_overlaps():
    pz = _puzzle([(0, 0), (1, 0), (2, 0)], [(0, 0), (1, 0), (2, 0)], "fixed")
    bad = [(plane_point(2, 0), (Surd(Fraction(1, 2)), Surd(Fraction(1, 2))))]
    verdict = verify(pz, bad)
    assert not verdict.ok and verdict.step == 1 and verdict.reason == OVERLAP


def test_placements_are_rigid_images_sharing_points_with_the_start():
    # an L tromino onto an L tetromino: every image of the tromino sharing >= 2 points
    pz = _puzzle([(0, 0), (1, 0), (2, 0), (0, 1)], [(0, 0), (1, 0), (0, 1), (5, 5)])
    found = placements(pz, 3)
    assert frozenset(plane_point(x, y) for x, y in [(0, 0), (1, 0), (0, 1), (5, 5)]) in found
    for g in placements(pz, 2):
        assert len(g & pz.start) >= 2
        pts = sorted(g)
        assert sorted(dist2(a, b) for a in pts for b in pts) == sorted(
            dist2(a, b) for a in sorted(pz.goal) for b in sorted(pz.goal)
        )
    assert len(placements(pz, 2)) > len(found)


@pytest.mark.slow
def test_o_to_h_takes_six_moves_in_the_plane_and_h_to_o_four():
    H = [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1), (3, 0), (3, 1), (3, 2)]
    O = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]
    oh = search(_puzzle(O, H), 6)
    assert oh.length == 6 and oh.proven_none == 5 and verify(_puzzle(O, H), oh.moves).ok
    ho = search(_puzzle(H, O), 4)
    assert ho.length == 4 and ho.proven_none == 3
    assert placements(_puzzle(H, O), 5) == []  # no O shares 5 points with the H: >= 4 moves at once


# --- the file format -------------------------------------------------------------------------------

BAD_PLANE = {
    "overlapping coins": ('board = "plane"\nstart = [[0, 0], [0.5, 0]]\ngoal = [[0, 0], [1, 0]]\n', 2),
    "odd triangular coordinates": (
        'board = "plane"\ngrid = "triangular"\nstart = """\no o\n o\n"""\ngoal = [[0, 0], [1, 0], [2, 0]]\n',
        4,
    ),
    "not a number": ('board = "plane"\nstart = [[0, 0], ["x", 0]]\ngoal = [[0, 0], [1, 0]]\n', 2),
    "two coins on one point": ('board = "plane"\nstart = [[0, 0], [1, 0]]\ngoal = [[0, 0], ["0/1", 0]]\n', 3),
    "coin counts differ": ('board = "plane"\nstart = [[0, 0], [1, 0]]\ngoal = [[0, 0]]\n', 3),
    "unknown key": ('board = "plane"\nmoves = "slide"\nstart = [[0, 0]]\ngoal = [[0, 0]]\n', 2),
}


@pytest.mark.parametrize("case", sorted(BAD_PLANE))
def test_bad_plane_files_name_file_and_line(case, tmp_path):
    text, line = BAD_PLANE[case]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InstanceError) as e:
        read_plane(path)
    assert str(e.value).startswith(f"{path}:{line}: "), str(e.value)


def test_plane_numbers_are_read_exactly(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(
        'board = "plane"\nstart = [[0, 0], [1, 0], ["1/2", "1/2*sqrt(3)"]]\n'
        'goal = [[0, 0], [1, 0], [0.5, "-1/2 sqrt(3)"]]\n'
    )
    pz = read_plane(path)
    apex = (Surd(Fraction(1, 2)), Surd(Fraction(0), Fraction(1, 2), 3))
    assert apex in pz.start and (Surd(Fraction(1, 2)), Surd(Fraction(0), Fraction(-1, 2), 3)) in pz.goal
    assert read_plane("instances/open-problems/rhomboid-plane.toml").n == 6


def test_count_refuses_a_plane_file_with_exit_2(capsys):
    """solve, verify and show take plane files (tests/test_boards_plane_cubic.py); commands on boards refuse."""
    assert main(["count", "instances/open-problems/o-to-h-plane.toml"]) == 2
    assert "o-to-h-plane.toml:2: " in capsys.readouterr().err


def test_translated_goals_need_one_common_point_and_the_turned_triangle_takes_three_moves():
    pz = read_plane("instances/open-problems/upside-down-plane.toml")
    assert pz.goal_placement == "translate"
    report = search(pz, 3)
    assert report.length == 3 and report.proven_none == 2 and verify(pz, report.moves).ok


@pytest.mark.slow
def test_turned_over_the_triangle_is_congruent_to_itself():
    pz = read_plane("instances/open-problems/upside-down-plane.toml")
    congruent = PlanePuzzle(pz.name, pz.start, pz.goal, goal_placement="congruent")
    assert search(congruent, 1).length == 0


def test_the_plane_script_exits_2_on_a_bad_file(tmp_path):
    import subprocess
    import sys

    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_PLANE["overlapping coins"][0])
    p = subprocess.run(
        [sys.executable, "scripts/plane_study.py", str(bad), "--out", str(tmp_path / "x.md")],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2 and f"{bad}:2: " in p.stderr and "Traceback" not in p.stderr
