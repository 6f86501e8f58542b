"""Family generators: shapes as defined, spans as the Lower Bound proof needs."""

import json
from pathlib import Path

import pytest

from coinsat import geometry
from coinsat.board import span_coords
from coinsat.families import diagonal_flip, diagonal_target, v_shape, vdiag
from coinsat.io.instance_format import read_instance


@pytest.mark.parametrize("a,b", [(1, 0), (1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (5, 4)])
def test_v_shape_fills_its_box_by_span(a, b):
    cells = v_shape(a, b)
    s = a + b + 2
    assert len(cells) == a + b + 4 == len(set(cells))
    box = geometry.hull("square", [(0, 0), (s - 1, s - 1)])
    assert set(cells) <= box
    assert span_coords("square", cells, 2, box) == set(box)


@pytest.mark.parametrize("s", [3, 4, 5, 6, 8])
def test_diagonal_targets_are_mirror_images(s):
    sw, nw = diagonal_target(s, "swne"), diagonal_target(s, "nwse")
    assert len(sw) == s + 2 == len(set(sw))
    assert sorted((x, s - 1 - y) for x, y in sw) == nw


def test_vdiag_instance_matches_the_members_of_the_reference():
    # the 'diagonal' puzzle and V(2,2) are the committed paper instances
    from coinsat.io.instance_format import read_instance

    for made, path in ((diagonal_flip(4), "diagonal"), (vdiag(2, 2), "vee-2-2")):
        ref = read_instance(f"instances/paper/{path}.toml")
        assert (made.start, made.goal, made.board) == (ref.start, ref.goal, ref.board)


SOLUTIONS = sorted((Path(__file__).resolve().parent.parent / "instances/families/solutions").glob("*.json"))


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_kept_family_solutions_verify(path):
    """Every solution the V-family study keeps replays through rules.py to its goal."""
    from coinsat.io.solution_format import read_solution
    from coinsat.solution import verify

    inst = read_instance(path.parent.parent / f"{path.stem}.toml")
    _, sol = read_solution(inst, path)
    assert len(sol) == json.loads(path.read_text())["length"] and verify(inst, sol).ok


def test_the_studies_random_generators_give_their_theorems_instances():
    import random

    from coinsat.families import random_theorem1, random_theorem2
    from coinsat.theory.square import hypothesis

    rng = random.Random(3)
    tri = [i for i in (random_theorem1(rng, 6) for _ in range(20)) if i is not None]
    sq = [i for i in (random_theorem2(rng, 7) for _ in range(40)) if i is not None]
    assert tri and sq
    assert all(i.board.kind == "triangular" and 3 <= i.n_coins <= 6 for i in tri)
    assert all(i.board.kind == "square" and hypothesis(i) is not None for i in sq)
    again = random.Random(3)
    assert [i.start for i in tri[:3]] == [
        i.start for i in [j for j in (random_theorem1(again, 6) for _ in range(20)) if j is not None][:3]
    ]


def test_power_law_fit_recovers_an_exact_law():
    from lab.analysis import fit_power_law

    k, c = fit_power_law([(n, 3 * n**2.5) for n in (2, 4, 8, 16)])
    assert abs(k - 2.5) < 1e-9 and abs(c - 3) < 1e-9
    assert fit_power_law([(5, 1)]) is None and fit_power_law([(5, 1), (5, 2)]) is None
