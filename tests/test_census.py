"""The census (coinsat/census.py, search/rank/census.py) against plain forward search.

The oracle here builds the whole move graph of the window with ``rules.successors`` (forward
moves, the one move validator) and runs a breadth-first search on its reversed edges: no Lemma Z,
no ranks, no dense arrays.  The census must give every configuration the same distance.
"""

from __future__ import annotations

import collections
import itertools
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.census import census, is_closed, solve_from, span_counts, symmetries, write_certificate, write_hardest
from coinsat.errors import UsageError
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.rules import successors
from coinsat.search.rank.colex import Colex
from coinsat.solution import verify

pytest.importorskip("numba")


def forward_distances(inst) -> dict[tuple[int, ...], int]:
    """Distance to the goal of every configuration of the window that reaches it (the oracle)."""
    b, n = inst.board, inst.n_coins
    rev: dict[int, list[int]] = collections.defaultdict(list)
    for cs in itertools.combinations(range(b.size), n):
        m = sum(1 << c for c in cs)
        for _, (y,) in successors(b, inst.d, (m,)):
            rev[y].append(m)
    g = sum(1 << c for c in inst.goal.cells)
    dist, frontier = {g: 0}, [g]
    while frontier:
        nxt = []
        for y in frontier:
            for x in rev[y]:
                if x not in dist:
                    dist[x] = dist[y] + 1
                    nxt.append(x)
        frontier = nxt
    return {tuple(c for c in range(b.size) if m >> c & 1): t for m, t in dist.items()}


def census_distances(c) -> dict[tuple[int, ...], int]:
    colex = Colex(c.cells, c.coins)
    out = {}
    for t, layer in enumerate(c.layers):
        for row in colex.unrank(layer):
            out[tuple(int(x) for x in row)] = t
    return out


def _graph_instance(data, cells: int, coins: int, d: int):
    edges = [(i, j) for i in range(cells) for j in range(i + 1, cells) if data.draw(st.booleans())]
    goal = data.draw(st.lists(st.integers(0, cells - 1), min_size=coins, max_size=coins, unique=True))
    return make_instance("graph", goal, goal, adjacency=d, edges=edges, cells=list(range(cells)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_census_equals_forward_bfs_on_random_graphs(data):
    cells = data.draw(st.integers(3, 8))
    coins = data.draw(st.integers(2, cells - 1))
    inst = _graph_instance(data, cells, coins, data.draw(st.integers(1, 3)))
    c = census(inst, workers=1)
    assert census_distances(c) == forward_distances(inst)
    assert c.closed  # a graph board is its own window
    assert c.reachable + c.unsolvable == c.configurations


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_census_equals_forward_bfs_on_random_square_windows(data):
    """Square grid, d = 2: the window is span(start) plus the goal (a union of rectangles)."""
    w, h = data.draw(st.integers(2, 4)), data.draw(st.integers(2, 4))
    box = [(x, y) for x in range(w) for y in range(h)]
    coins = data.draw(st.integers(2, min(6, len(box) - 1)))
    start = data.draw(st.lists(st.sampled_from(box), min_size=coins, max_size=coins, unique=True))
    goal = data.draw(st.lists(st.sampled_from(box), min_size=coins, max_size=coins, unique=True))
    inst = make_instance("square", start, goal, adjacency=2)
    if inst.board.size > 16:
        return
    c = census(inst, workers=1)
    assert census_distances(c) == forward_distances(inst)


def test_census_on_a_triangular_window_is_the_windows_puzzle():
    """Triangular grid, d = 2: the window is not closed, and the census answers for moves inside it."""
    start = [(0, 0), (1, 0), (0, 1), (2, 0)]
    inst = make_instance("triangular", start, [(0, 0), (1, 0), (2, 0), (3, 0)], adjacency=2, margin=1)
    if inst.board.size > 12:
        inst = make_instance("triangular", start, start, adjacency=2, margin=1)
    c = census(inst, workers=1)
    assert census_distances(c) == forward_distances(inst)
    assert not c.closed and c.as_json()["scope"] == "window"


@pytest.mark.parametrize("k", [3, 4])
def test_diagonal_census_matches_the_oracle_and_the_flip(k):
    inst = read_instance(f"instances/families/diagonal-{k}.toml")
    c = census(inst, workers=1)
    dist = census_distances(c)
    assert dist == forward_distances(inst)
    assert c.closed
    # the flip's start is one of the census's configurations, at its known optimum
    assert dist[tuple(sorted(inst.start.cells))] == {3: 5, 4: 18}[k]


def test_distance_of_reads_the_oracles_distances_and_unseen_elsewhere():
    inst = read_instance("instances/families/diagonal-4.toml")
    c = census(inst, workers=1)
    oracle = forward_distances(inst)
    every = list(itertools.combinations(range(c.cells), c.coins))
    got = c.distance_of([tuple(reversed(x)) for x in every])  # any order inside a row
    assert {x: int(d) for x, d in zip(every, got) if d != 255} == oracle
    assert (got == 255).sum() == c.unsolvable
    assert c.distance_of([inst.start.cells]).tolist() == [18]


def test_one_thread_and_two_give_the_same_layers():
    inst = read_instance("instances/families/diagonal-5.toml")
    one, two = census(inst, workers=1), census(inst, workers=2)
    assert one.layer_sizes == two.layer_sizes
    assert all(np.array_equal(a, b) for a, b in zip(one.layers, two.layers))


def test_resume_continues_from_saved_layers(tmp_path):
    inst = read_instance("instances/families/diagonal-4.toml")
    whole = census(inst, workers=1)
    census(inst, workers=1, resume=tmp_path)
    for t in range(6, len(whole.layers)):  # as if stopped after layer 5
        (tmp_path / f"layer_{t}.npy").unlink()
    again = census(inst, workers=1, resume=tmp_path)
    assert again.layer_sizes == whole.layer_sizes
    other = read_instance("instances/families/diagonal-3.toml")
    with pytest.raises(UsageError, match="another census"):
        census(other, resume=tmp_path)


def test_hardest_starts_are_every_orbit_of_the_last_layer_and_replay(tmp_path):
    inst = read_instance("instances/families/diagonal-5.toml")
    c = census(inst)
    syms = symmetries(inst)
    assert syms[0] == list(range(inst.board.size))
    goal = set(inst.goal.cells)
    assert all({p[q] for q in goal} == goal for p in syms)
    colex = Colex(c.cells, c.coins)
    last = {tuple(int(x) for x in r) for r in colex.unrank(c.layers[-1])}
    covered = {tuple(sorted(p[q] for q in h)) for h in c.hardest for p in syms}
    assert covered == last
    for path in write_hardest(c, tmp_path):
        hard = read_instance(path)
        record = json.loads((tmp_path / "solutions" / f"{hard.name}.json").read_text())
        assert record["length"] == c.max_distance
        moves = [(hard.board.cell(tuple(s)), hard.board.cell(tuple(p))) for s, p in record["moves"]]
        from coinsat.solution import Solution

        assert verify(hard, Solution.of(moves)).ok
    # a start one layer nearer gets a solution one move shorter
    assert len(solve_from(c, tuple(int(x) for x in colex.unrank(c.layers[3])[0]))) == 3


def test_certificate_files(tmp_path):
    inst = read_instance("instances/families/diagonal-4.toml")
    c = census(inst)
    write_certificate(c, tmp_path)
    meta = json.loads((tmp_path / "census.json").read_text())
    assert meta["format"] == "coinsat-census" and meta["version"] == 1
    assert meta["layer_sizes"] == c.layer_sizes and meta["unsolvable"] == c.unsolvable
    with np.load(tmp_path / "layers.npz") as z:
        assert sorted(z.files, key=lambda s: int(s.split("_")[1])) == [f"layer_{t}" for t in range(len(c.layers))]
        assert all(np.all(np.diff(z[f]) > 0) for f in z.files if z[f].size > 1)


def test_closed_windows():
    assert is_closed(read_instance("instances/families/diagonal-4.toml"))


def test_cli_census_and_bad_input(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "coinsat", "census", "instances/families/diagonal-4.toml", "--json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    o = json.loads(out.stdout)
    assert o["max_distance"] == 18 and o["reachable"] + o["unsolvable"] == o["configurations"]
    assert o["states"] == o["reachable"] and o["states_per_cpu_second"] > 0
    labelled = tmp_path / "labelled.toml"
    labelled.write_text('board = "square"\nstart = """\nR B\n. .\n"""\ngoal = """\n. .\nR B\n"""\n')
    bad = subprocess.run([sys.executable, "-m", "coinsat", "census", str(labelled)], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "label" in bad.stderr


def test_the_referee_script_agrees_on_engine_certificates(tmp_path):
    """scripts/referee_check.py (no coinsat import) accepts the engine's census and rejects a forgery."""
    inst = read_instance("instances/families/diagonal-4.toml")
    write_certificate(census(inst), tmp_path / "ok")
    run = [sys.executable, "scripts/referee_check.py", "instances/families/diagonal-4.toml"]
    assert subprocess.run([*run, str(tmp_path / "ok")], capture_output=True).returncode == 0
    forged = census(inst)
    forged.layers[-1] = forged.layers[-1][:-1]  # a hardest start dropped
    forged.layer_sizes[-1] -= 1
    write_certificate(forged, tmp_path / "forged")
    assert subprocess.run([*run, str(tmp_path / "forged")], capture_output=True).returncode == 1


@pytest.mark.parametrize("k", [4, 5])
def test_solvable_lies_between_the_two_span_counts(k):
    """Span never grows along a move; the paper's Theorem 2 joins every start with two removable
    coins to the diagonal goal: two_extra <= solvable <= spanning, counted by other code."""
    inst = read_instance(f"instances/families/diagonal-{k}.toml")
    spanning, two = span_counts(inst, parts=8)
    assert two is not None and span_counts(inst, pairs=False) == (spanning, None)
    solvable = census(inst).reachable
    assert two <= solvable <= spanning
    assert two < spanning  # the bounds are not the same number (k = 4: 3984 < 4568)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 255), max_size=200), st.integers(0, 254))
def test_a_layer_is_every_byte_of_its_value(values, value):
    """layer_of (eight bytes at a time, each hit found by its bit) is numpy's flatnonzero, with
    the padding and with too short an output refused."""
    from coinsat.search.rank import census as kernel

    dist = kernel.distance_array(len(values))
    dist[: len(values)] = values
    want = np.flatnonzero(dist == value)
    assert np.array_equal(kernel.layer_of(dist, value, want.size), want)
    if want.size:
        with pytest.raises(RuntimeError):
            kernel.layer_of(dist, value, want.size - 1)
