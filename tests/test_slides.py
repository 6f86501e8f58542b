"""Slides: the exact geometry against brute-force continuous checks, the kernels and
verify against check_move, the engines against each other, the file key and the refusals."""

from __future__ import annotations

import itertools
import json
import math
import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from scipy import ndimage

from coinsat import geometry
from coinsat.cli import main
from coinsat.configuration import Configuration
from coinsat.errors import InstanceError, UsageError
from coinsat.instance import make_instance
from coinsat.io.instance_format import format_instance, parse_instance, read_instance
from coinsat.rules import BLOCKED, Move, apply_move, check_move, legal_moves, predecessors, successors
from coinsat.solution import verify
from coinsat.solve import solve
from coinsat.theory import triangular
from coinsat.theory.slides import (
    common_neighbours,
    compare,
    decide_slides,
    frozen_for_slides,
    models_agree,
    step_components,
    step_connected,
)

from .strategies import configurations, instances

# --- the geometry against a brute-force picture of the plane ------------------------------------


def _cartesian(kind: str, c: tuple[int, int]) -> tuple[float, float]:
    x, y = c
    return (x + y / 2, y * math.sqrt(3) / 2) if kind == "triangular" else (float(x), float(y))


def _free_components(kind, coins, radius, h=0.02):
    """Pixels (step h) at distance >= radius from every centre, labelled by 4-connected component."""
    pts = np.array([_cartesian(kind, c) for c in coins])
    lo, hi = pts.min(axis=0) - 3, pts.max(axis=0) + 3
    xs, ys = np.arange(lo[0], hi[0], h), np.arange(lo[1], hi[1], h)
    X, Y = np.meshgrid(xs, ys, indexing="ij")
    free = np.ones(X.shape, dtype=bool)
    for px, py in pts:
        free &= (X - px) ** 2 + (Y - py) ** 2 >= radius * radius
    labels, _ = ndimage.label(free)
    return labels, lo, h


def _exactly_free(kind, coins, p, q) -> bool:
    """The segment p q (Cartesian) keeps distance >= 1 from every centre (sampled finely)."""
    pts = [_cartesian(kind, c) for c in coins]
    for t in np.linspace(0, 1, 41):
        x, y = p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
        if any((x - cx) ** 2 + (y - cy) ** 2 < 1 - 1e-9 for cx, cy in pts):
            return False
    return True


def _seeds(kind, coins, labels, lo, h, point):
    """Component labels of the pixels near ``point`` reached from it by an exactly free segment."""
    px, py = _cartesian(kind, point)
    i0, j0 = int(round((px - lo[0]) / h)), int(round((py - lo[1]) / h))
    out = set()
    r = int(0.4 / h)
    for i in range(i0 - r, i0 + r + 1, 2):
        for j in range(j0 - r, j0 + r + 1, 2):
            lab = labels[i, j]
            if lab and lab not in out and _exactly_free(kind, coins, (px, py), (lo[0] + i * h, lo[1] + j * h)):
                out.add(lab)
    return out


def _scene(rng: random.Random, kind: str):
    """Random coins in a 5x5 box; every other scene a ring round the origin with one cell
    missing (a missing corner of the square ring still traps the origin, a missing side does not)."""
    cells = [(x, y) for x in range(-2, 3) for y in range(-2, 3)]
    if rng.random() < 0.5:
        coins = rng.sample(cells, rng.randint(4, 16))
        free = [c for c in cells if c not in coins]
        a, b = rng.sample(free, 2)
        return coins, a, b
    ring = list(geometry.neighbours(kind, (0, 0)))
    if kind == "square":
        ring += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    ring.remove(rng.choice(ring))
    outside = [c for c in cells if c not in ring and c != (0, 0)]
    coins = ring + rng.sample(outside, rng.randint(0, 3))
    return coins, (0, 0), rng.choice([c for c in outside if c not in coins])


@pytest.mark.parametrize("kind", ["triangular", "square"])
def test_exact_slide_test_agrees_with_a_pixel_picture_of_the_plane(kind):
    """Coins grown to radius 1.05: a pixel path between the two ends proves a slide exists (every
    segment between 4-neighbour pixels stays >= 1 from the centres).  Coins shrunk to 0.95: every
    lattice passage is then >= 0.1 wide (5 pixels), so an exact slide shows as a pixel path."""
    rng = random.Random(18 + len(kind))
    decided = 0
    for _ in range(25):
        coins, a, b = _scene(rng, kind)
        exact = geometry.slide_connected(kind, coins, a, b)
        grown, lo, h = _free_components(kind, coins, 1.05)
        grown_way = bool(_seeds(kind, coins, grown, lo, h, a) & _seeds(kind, coins, grown, lo, h, b))
        shrunk, lo, h = _free_components(kind, coins, 0.95)
        ends = [_cartesian(kind, p) for p in (a, b)]
        la, lb = (shrunk[int(round((x - lo[0]) / h)), int(round((y - lo[1]) / h))] for x, y in ends)
        shrunk_way = la == lb != 0
        assert not grown_way or exact, (coins, a, b)
        assert not exact or shrunk_way, (coins, a, b)
        decided += grown_way == shrunk_way
    assert decided >= 15  # most scenes are decided by the pictures, not only bounded


def test_tangent_coins_leave_a_way_through():
    # square grid: four coins 2 apart around (1, 1) touch pairwise; the coin squeezes out
    assert geometry.slide_connected("square", [(0, 0), (2, 0), (0, 2), (2, 2)], (1, 1), (5, 5))
    # a coin 1 unit off closes the gap on one side only
    assert geometry.slide_connected("square", [(0, 0), (2, 0), (0, 2), (2, 2), (1, 3)], (1, 1), (5, 5))
    # the closed 3x3 ring traps its centre
    ring = [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]
    assert not geometry.slide_connected("square", ring, (1, 1), (5, 5))


def test_the_triangular_ring_traps_its_centre_and_a_gap_of_one_cell_still_does():
    ring = [(1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2)]
    assert not geometry.slide_connected("triangular", ring, (1, 1), (4, 4))
    # with (1, 2) missing its two ring neighbours are sqrt(3) < 2 apart: still closed
    assert not geometry.slide_connected("triangular", ring[:-1], (1, 1), (4, 4))
    # three coins on alternate ring cells are pairwise sqrt(3) apart: the centre is still trapped
    assert not geometry.slide_connected("triangular", [(2, 0), (0, 1), (1, 2)], (1, 1), (4, 4))
    # two adjacent ring cells empty: the coins beside them are 2 apart and the coin squeezes out
    assert geometry.slide_connected("triangular", [(1, 0), (2, 0), (0, 1), (2, 1)], (1, 1), (4, 4))


def test_exact_and_lattice_step_models_agree_on_random_triangular_scenes():
    rng = random.Random(7)
    cells = sorted(geometry.ball("triangular", [(0, 0)], 3))
    for _ in range(400):
        coins = rng.sample(cells, rng.randint(2, 14))
        a, b = rng.sample([c for c in cells if c not in coins], 2)
        assert compare(coins, a, b) is None


def test_lattice_step_model_blocks_a_step_between_two_occupied_common_neighbours():
    assert set(common_neighbours((0, 0), (1, 0))) == {(0, 1), (1, -1)}
    # the step itself is blocked, but the coin walks round: two coins enclose nothing
    assert step_connected([(0, 1), (1, -1), (0, -1), (1, 1)], (0, 0), (1, 0))
    assert step_connected([(0, 1), (1, -1)], (0, 0), (1, 0))
    assert geometry.slide_connected("triangular", [(0, 1), (1, -1)], (0, 0), (1, 0))


# --- rules: check_move, the kernels and verify ---------------------------------------------------

PLANE = instances(kinds=("square", "triangular"), max_coins=5)


@settings(max_examples=80, deadline=None)
@given(configurations(PLANE))
def test_slide_kernels_enumerate_exactly_what_check_move_accepts(case):
    inst, config = case
    b, d = inst.board, inst.d
    labels = inst.labels
    state = config.masks(labels)
    got = {(m, Configuration.from_masks(labels, s)) for m, s in successors(b, d, state, "slide")}
    want = {(m, apply_move(b, config, m, d, model="slide")) for m in legal_moves(b, config, d, "slide")}
    assert got == want
    assert want <= {(m, apply_move(b, config, m, d)) for m in legal_moves(b, config, d)}  # slides are jumps
    for move, prev in predecessors(b, d, state, "slide"):
        prev_config = Configuration.from_masks(labels, prev)
        assert check_move(b, prev_config, move, d, "slide") is None
        assert prev_config.moved(*move) == config


def _rhombus(moves: str):
    text = read_instance_text("instances/open-problems/rhomboid-slides.toml")
    return replace(parse_instance(text), moves=moves)


def read_instance_text(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def test_verify_rejects_a_jump_that_is_not_a_slide():
    jump = _rhombus("jump")
    found = solve(jump, "bfs")
    assert found.status == "optimal" and len(found.solution) == 2
    assert verify(jump, found.solution).ok
    verdict = verify(_rhombus("slide"), found.solution)
    assert not verdict.ok and verdict.reason == BLOCKED


def test_cli_verify_exits_1_on_a_jump_plan_under_slides(tmp_path, capsys):
    inst = read_instance("instances/open-problems/rhomboid-slides.toml")
    jump = solve(replace(inst, moves="jump"), "bfs")
    b = inst.board
    obj = {"moves": [[list(b.coords[s]), list(b.coords[p])] for s, p in jump.solution.moves]}
    sol = tmp_path / "jump.json"
    sol.write_text(json.dumps(obj))
    assert main(["verify", "instances/open-problems/rhomboid-slides.toml", str(sol)]) == 1
    assert "slide" in capsys.readouterr().out


# --- engines ------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(instances(kinds=("square", "triangular"), max_coins=4, labeled=False, d=2, goal_placement="fixed"))
def test_bfs_and_cegar_sat_agree_on_slide_optima(jump):
    slide = replace(jump, moves="slide")
    a = solve(slide, "bfs", max_moves=5, time_limit=60)
    b = solve(slide, "slidesat", max_moves=5, time_limit=60)
    if "unknown" in (a.status, b.status):
        return
    if a.status == "optimal" or b.status == "optimal":
        assert a.status == b.status == "optimal" and len(a.solution) == len(b.solution)
    j = solve(jump, "bfs", max_moves=5, time_limit=60)
    if a.status == "optimal" and j.status == "optimal":
        assert len(a.solution) >= len(j.solution)  # slides are jumps


TARGETS = [("rhomboid", 3, 2), ("upside-down", 3, 3), ("pyramid-to-line", 7, 7)]


@pytest.mark.parametrize("name,slides,jumps", TARGETS[:2])
def test_paper_slide_targets_are_optimal_by_bfs_and_by_cegar_sat(name, slides, jumps):
    inst = read_instance(f"instances/open-problems/{name}-slides.toml")
    for method in ("bfs", "slidesat"):
        r = solve(inst, method)
        assert r.status == "optimal" and len(r.solution) == slides == r.lower_bound, method
        assert verify(inst, r.solution).ok
    assert len(solve(replace(inst, moves="jump"), "bfs").solution) == jumps


def test_pyramid_to_line_takes_seven_slides_by_cegar_sat():
    inst = read_instance("instances/open-problems/pyramid-to-line-slides.toml")
    r = solve(inst, "slidesat")
    assert r.status == "optimal" and len(r.solution) == 7 == r.lower_bound


@pytest.mark.slow
def test_pyramid_to_line_takes_seven_slides_by_bfs():
    inst = read_instance("instances/open-problems/pyramid-to-line-slides.toml")
    r = solve(inst, "bfs")
    assert r.status == "optimal" and len(r.solution) == 7 == r.lower_bound


@pytest.mark.parametrize("method", ["sat", "ilp", "spanbfs"])
def test_jump_only_methods_refuse_slides(method, capsys):
    inst = read_instance("instances/open-problems/rhomboid-slides.toml")
    with pytest.raises(UsageError, match="does not decide moves = 'slide'"):
        solve(inst, method)
    assert main(["solve", "instances/open-problems/rhomboid-slides.toml", "--method", method]) == 2


# --- the file format ----------------------------------------------------------------------------


def test_moves_key_round_trips():
    inst = read_instance("instances/open-problems/upside-down-slides.toml")
    assert inst.moves == "slide"
    assert 'moves = "slide"' in format_instance(inst)
    assert parse_instance(format_instance(inst)) == inst
    assert parse_instance(format_instance(replace(inst, moves="jump"))).moves == "jump"


@pytest.mark.parametrize(
    "text,line",
    [
        ('board = "square"\nmoves = "roll"\nstart = [[0, 0]]\ngoal = [[0, 0]]\n', 2),
        ('board = "graph"\nstart = [1]\nmoves = "slide"\ngoal = [1]\n[graph]\nedges = [[1, 2]]\n', 3),
        ('board = "triangular"\nmoves = 3\nstart = [[0, 0]]\ngoal = [[0, 0]]\n', 2),
    ],
)
def test_bad_moves_key_names_file_and_line(text, line, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InstanceError) as e:
        read_instance(path)
    assert str(e.value).startswith(f"{path}:{line}: ")
    assert main(["solve", str(path)]) == 2


def test_slide_instances_need_a_plane_board():
    with pytest.raises(InstanceError):
        make_instance("graph", [1], [1], edges=[(1, 2)], moves="slide")
    assert check_move(_rhombus("slide").board, _rhombus("slide").start, Move(0, 0), 2, "slide") is not None


def test_the_two_models_split_the_hexagon_alike_for_every_set_of_three_coins():
    cells = sorted(geometry.ball("triangular", [(0, 0)], 2))
    sets = list(itertools.combinations(cells, 3))
    assert len(sets) == 969 and all(models_agree(c, cells) for c in sets)
    # the ring around the origin makes two components, in both models
    ring = geometry.neighbours("triangular", (0, 0))
    assert len(set(step_components(ring, cells).values())) == 2 and models_agree(ring, cells)


# --- the slide conjecture: Theorem 1 read with slides ----------------------------------------------

CLAW_ONE_JUMP = ([(0, 0), (0, 1), (1, -2), (2, -1)], [(0, 0), (1, -2), (1, -1), (2, -1)])


def test_a_claw_goal_is_one_jump_away_but_no_slide_ends_in_a_claw():
    start, goal = CLAW_ONE_JUMP
    inst = make_instance("triangular", start, goal)
    assert triangular.decide(inst).solvable  # condition 4: one jump
    assert not decide_slides(inst).solvable  # not one slide, and a claw meets no condition
    assert frozen_for_slides(goal)
    r = solve(replace(inst, moves="slide"), "bfs", max_moves=6)
    assert r.status == "bounded" and r.solution is None
    assert not frozen_for_slides([(0, 0), (1, 0), (0, 1), (1, 1)])  # a rhombus: its ends are open


@settings(max_examples=30, deadline=None)
@given(instances(kinds=("triangular",), max_coins=5, labeled=False, d=2, goal_placement="fixed"))
def test_slide_read_decider_agrees_with_slide_search(jump):
    """Where the search decides (a solution found, or the screens prove none), the decider agrees."""
    slide = replace(jump, moves="slide")
    r = solve(slide, "bfs", max_moves=6, time_limit=30)
    verdict = decide_slides(jump).solvable
    if r.solution is not None:
        assert verdict
    elif r.status == "unsolvable":
        assert not verdict


def test_export_and_certify_refuse_slide_bounds(tmp_path):
    """The formula formats and the bound certificates speak of jumps: a slide file is refused (exit 2)."""
    path = "instances/open-problems/rhomboid-slides.toml"
    assert main(["export", path, "--horizon", "2", "--format", "cnf", "-o", str(tmp_path / "x.cnf")]) == 2
    assert main(["certify", path, "-o", str(tmp_path / "cert")]) == 2
    assert not (tmp_path / "x.cnf").exists()
