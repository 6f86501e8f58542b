"""The census certificate checker (coinsat/certificates/check/census.py) against certificates built here.

The certificates are made by this file's own brute force: every configuration of a tiny window,
its forward moves (a coin lifted from s and dropped on an empty p with >= d coins of X - s beside
it), and one BFS over the reversed move graph from the goal; the symmetry group is found by
trying every point-group matrix (listed by hand) with every translation of a range, and the
orbits of the hardest layer by applying the group.  Nothing of the checker is reused.  Then
every forgery of the spec's list must be rejected, each for the condition it breaks.
"""

from __future__ import annotations

import json
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.certificates.check.census import check_census, verified_census

SQ = [(1, 0), (-1, 0), (0, 1), (0, -1)]
TRI = SQ + [(1, -1), (-1, 1)]
#: the point groups as (x, y) -> (a x + b y, c x + d y), written out rather than generated
SQ_GROUP = [
    (1, 0, 0, 1),
    (0, -1, 1, 0),
    (-1, 0, 0, -1),
    (0, 1, -1, 0),
    (1, 0, 0, -1),
    (-1, 0, 0, 1),
    (0, 1, 1, 0),
    (0, -1, -1, 0),
]
TRI_GROUP = [
    (1, 0, 0, 1), (0, -1, 1, 1), (-1, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, -1), (1, 1, -1, 0),
    (0, 1, 1, 0), (-1, 0, 1, 1), (-1, -1, 0, 1), (0, -1, -1, 0), (1, 0, -1, -1), (1, 1, 0, -1),
]  # fmt: skip


def colex(positions) -> int:
    return sum(comb(c, i + 1) for i, c in enumerate(sorted(positions)))


def adjacency(board, cells, edges=()):
    if board == "graph":
        adj = {q: set() for q in range(len(cells))}
        for i, j in edges:
            adj[i].add(j)
            adj[j].add(i)
        return adj
    index = {tuple(c): q for q, c in enumerate(cells)}
    vectors = SQ if board == "square" else TRI
    return {q: {index[(x + a, y + b)] for a, b in vectors if (x + a, y + b) in index} for q, (x, y) in enumerate(cells)}


def brute_distances(adj, N, n, d, goal):
    """{configuration: fewest forward moves to the goal} by BFS on the reversed forward move graph."""
    back: dict[frozenset, list] = {}
    for X in map(frozenset, combinations(range(N), n)):
        for s in X:
            rest = X - {s}
            for p in range(N):
                if p not in X and len(adj[p] & rest) >= d:
                    back.setdefault(rest | {p}, []).append(X)
    dist = {frozenset(goal): 0}
    frontier = [frozenset(goal)]
    while frontier:
        nxt = []
        for Y in frontier:
            for X in back.get(Y, ()):
                if X not in dist:
                    dist[X] = dist[Y] + 1
                    nxt.append(X)
        frontier = nxt
    return dist


def brute_group(board, cells, goal, adj):
    N = len(cells)
    if board == "graph":
        return [list(range(N))]
    index = {tuple(c): q for q, c in enumerate(cells)}
    found = set()
    for a, b, c, d in SQ_GROUP if board == "square" else TRI_GROUP:
        for tx in range(-12, 13):
            for ty in range(-12, 13):
                perm = [index.get((a * x + b * y + tx, c * x + d * y + ty)) for x, y in cells]
                if None not in perm and {perm[q] for q in goal} == set(goal):
                    found.add(tuple(perm))
    return [list(g) for g in sorted(found)]


def brute_closed(board, cells, d):
    if board == "graph":
        return True
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    window = {tuple(c) for c in cells}
    vectors = SQ if board == "square" else TRI
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            if (x, y) not in window and sum((x + a, y + b) in window for a, b in vectors) >= d:
                return False
    return True


def build(folder: Path, board, cells, d, goal, edges=()):
    """Write the census of (board, cells, d, goal) in the spec's format; return (obj, layers)."""
    N, n = len(cells), len(goal)
    adj = adjacency(board, cells, edges)
    dist = brute_distances(adj, N, n, d, goal)
    D = max(dist.values())
    layers = [sorted(colex(X) for X, t in dist.items() if t == k) for k in range(D + 1)]
    group = brute_group(board, cells, goal, adj)
    seen, hardest = set(), []
    for r in layers[D]:
        X = next(X for X, t in dist.items() if t == D and colex(X) == r)
        if X in seen:
            continue
        hardest.append(sorted(X))
        seen |= {frozenset(g[q] for q in X) for g in group}
    obj = {
        "format": "coinsat-census",
        "version": 1,
        "board": board,
        "adjacency": d,
        "cells": [list(c) for c in cells] if board != "graph" else list(cells),
        "goal": sorted(goal),
        "closed": brute_closed(board, cells, d),
        "layer_sizes": [len(a) for a in layers],
        "max_distance": D,
        "reachable": len(dist),
        "configurations": comb(N, n),
        "unsolvable": comb(N, n) - len(dist),
        "hardest": hardest,
        "symmetries": group,
        "layers": "layers.npz",
    }
    if board == "graph":
        obj["edges"] = [list(e) for e in edges]
    write(folder, obj, layers)
    return obj, layers


def write(folder: Path, obj, layers, recount=False):
    folder.mkdir(parents=True, exist_ok=True)
    if recount:  # keep the counts consistent with the (tampered) layers
        obj = dict(obj, layer_sizes=[len(a) for a in layers], max_distance=len(layers) - 1)
        obj["reachable"] = sum(obj["layer_sizes"])
        obj["unsolvable"] = obj["configurations"] - obj["reachable"]
    (folder / "census.json").write_text(json.dumps(obj))
    np.savez(folder / "layers.npz", **{f"layer_{t}": np.array(a, dtype=np.uint64) for t, a in enumerate(layers)})
    return folder


def box(k):
    return [(x, y) for y in range(k) for x in range(k)]


def tri_triangle(k):
    return [(x, y) for y in range(k) for x in range(k - y)]


def tri_hexagon(r):
    return [(x, y) for x in range(-r, r + 1) for y in range(-r, r + 1) if abs(x + y) <= r]


RING6 = ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 3))
TRIANGLES = ((0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2), (4, 5), (5, 6), (6, 4), (1, 5))
CASES = {
    "box3-d2": ("square", box(3), 2, [0, 1, 3, 4], ()),
    "box3-d2-diagonal": ("square", box(3), 2, [0, 4, 8], ()),
    "box4-d2": ("square", box(4), 2, [0, 5, 6, 9, 10], ()),
    "box4-d2-block": ("square", box(4), 2, [5, 6, 9, 10], ()),
    "box3-d1": ("square", box(3), 1, [0, 1, 2], ()),
    "tri-triangle-d2": ("triangular", tri_triangle(4), 2, [0, 1, 4], ()),
    "tri-hexagon-d3": ("triangular", tri_hexagon(1), 3, [0, 1, 2, 3], ()),
    "tri-hexagon-d2": ("triangular", tri_hexagon(1), 2, [0, 1, 3], ()),
    "graph-d1": ("graph", ["a", "b", "c", "d", "e", "f"], 1, [0, 1, 2], RING6),
    "graph-d2": ("graph", list(range(7)), 2, [0, 1, 2], TRIANGLES),
}  # fmt: skip


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    root = tmp_path_factory.mktemp("census")
    return {name: (root / name, *build(root / name, *case)) for name, case in CASES.items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_true_censuses_are_accepted_with_the_brute_force_counts(certs, name):
    folder, obj, layers = certs[name]
    c = check_census(folder)
    assert c.ok, c.reason
    census = verified_census(folder / "census.json")
    assert list(census.claim.layer_sizes) == obj["layer_sizes"]
    assert census.claim.hardest == len(obj["hardest"]) and census.claim.closed == obj["closed"]
    assert c.scope == ("global" if obj["closed"] else "window")
    board, cells, d, goal, edges = CASES[name]
    dist = brute_distances(adjacency(board, cells, edges), len(cells), len(goal), d, goal)
    for X in combinations(range(len(cells)), len(goal)):  # the queried distances are the brute force's
        assert census.distance(X) == dist.get(frozenset(X))


def test_the_cases_cover_closed_and_open_windows_and_several_layers(certs):
    assert {certs[n][1]["closed"] for n in certs} == {True, False}
    assert all(certs[n][1]["max_distance"] >= 2 for n in ("box3-d2", "box4-d2", "tri-triangle-d2", "graph-d2"))
    assert certs["box3-d2-diagonal"][1]["max_distance"] == 0  # no coin of a diagonal can move: a census of one
    assert len(certs["box4-d2-block"][1]["symmetries"]) == 8  # the central block: the whole dihedral group


def forged(tmp_path, certs, name, *, recount=True, arrays=None, **fields):
    """Check ``name``'s census with its JSON ``fields`` replaced and its layers replaced by ``arrays``."""
    folder, obj0, layers0 = certs[name]
    obj = dict(obj0, **fields)
    layers = [list(a) for a in (layers0 if arrays is None else arrays)]
    return check_census(write(tmp_path / "forged", obj, layers, recount=recount))


def reject(check, *words):
    assert not check.ok
    assert all(w in check.reason for w in words), check.reason


@pytest.mark.parametrize("src, dst", [(1, 2), (2, 1), (5, 7), (-1, -2)])
def test_a_state_moved_between_layers_is_rejected(tmp_path, certs, src, dst):
    _, obj, layers = certs["box4-d2"]
    layers = [list(a) for a in layers]
    layers[dst].append(layers[src].pop(0))
    layers[dst].sort()
    reject(forged(tmp_path, certs, "box4-d2", arrays=layers), "condition")


@pytest.mark.parametrize("t", [1, 2, -1])
def test_a_dropped_state_is_rejected(tmp_path, certs, t):
    _, obj, layers = certs["box4-d2"]
    layers = [list(a) for a in layers]
    layers[t].pop(len(layers[t]) // 2)
    if not layers[-1]:
        pytest.skip("the last layer had one state")
    reject(forged(tmp_path, certs, "box4-d2", arrays=layers), "condition (2)")


def test_an_added_unsolvable_state_is_rejected(tmp_path, certs):
    _, obj, layers = certs["box4-d2"]
    present = {r for a in layers for r in a}
    outside = next(r for r in range(obj["configurations"]) if r not in present)
    assert obj["unsolvable"] > 0
    layers = [list(a) for a in layers]
    layers[-1] = sorted(layers[-1] + [outside])
    reject(forged(tmp_path, certs, "box4-d2", arrays=layers), "condition (3)")


def test_a_truncated_census_is_rejected(tmp_path, certs):
    _, obj, layers = certs["box4-d2"]
    layers = [list(a) for a in layers[:-1]]
    D = len(layers) - 1
    hardest = [[q for q in range(16) if False]]  # replaced below: one start of the new last layer
    from coinsat.certificates.check.census import _unrank

    hardest = [_unrank(r, 5, 16) for r in layers[D]]  # every member listed: orbits may repeat
    check = forged(tmp_path, certs, "box4-d2", arrays=layers, hardest=hardest)
    reject(check)
    assert "condition (2)" in check.reason or "orbit" in check.reason


def test_truncation_is_caught_by_closure_even_with_a_correct_hardest_list(tmp_path, certs):
    board, cells, d, goal, edges = CASES["box4-d2"]
    _, obj, layers = certs["box4-d2"]
    group = obj["symmetries"]
    layers = [list(a) for a in layers[:-1]]
    from coinsat.certificates.check.census import _unrank

    seen, hardest = set(), []
    for r in layers[-1]:
        X = frozenset(_unrank(r, 5, 16))
        if X not in seen:
            hardest.append(sorted(X))
            seen |= {frozenset(g[q] for q in X) for g in group}
    reject(forged(tmp_path, certs, "box4-d2", arrays=layers, hardest=hardest), "condition (2)", "in no layer")


@pytest.mark.parametrize(
    "field, delta, words",
    [
        ("reachable", 1, "reachable"),
        ("unsolvable", -1, "unsolvable"),
        ("configurations", 1, "configurations"),
        ("max_distance", 1, "max_distance"),
        ("max_distance", -1, "max_distance"),
    ],
)
def test_wrong_counts_are_rejected(tmp_path, certs, field, delta, words):
    _, obj, _ = certs["box3-d2"]
    reject(forged(tmp_path, certs, "box3-d2", recount=False, **{field: obj[field] + delta}), words)


def test_layer_sizes_that_disagree_with_the_arrays_are_rejected(tmp_path, certs):
    _, obj, _ = certs["box3-d2"]
    sizes = list(obj["layer_sizes"])
    sizes[1] += 1
    sizes[2] -= 1
    reject(forged(tmp_path, certs, "box3-d2", recount=False, layer_sizes=sizes), "layer_1")


def test_a_hardest_list_missing_an_orbit_is_rejected(tmp_path, certs):
    name = next(n for n in ("box4-d2", "tri-triangle-d2", "graph-d2") if len(certs[n][1]["hardest"]) >= 2)
    _, obj, _ = certs[name]
    reject(forged(tmp_path, certs, name, hardest=obj["hardest"][1:]), "has no hardest start")


def test_a_hardest_start_outside_the_last_layer_is_rejected(tmp_path, certs):
    _, obj, layers = certs["box4-d2"]
    from coinsat.certificates.check.census import _unrank

    extra = _unrank(layers[-2][0], 5, 16)
    reject(forged(tmp_path, certs, "box4-d2", hardest=obj["hardest"] + [extra]), "is not in layer")


def test_two_hardest_starts_in_one_orbit_are_rejected(tmp_path, certs):
    name = next(
        n
        for n in certs
        if len(certs[n][1]["symmetries"]) > 1 and certs[n][1]["layer_sizes"][-1] > len(certs[n][1]["hardest"])
    )
    _, obj, layers = certs[name]
    N, n = len(obj["cells"]), len(obj["goal"])
    from coinsat.certificates.check.census import _unrank

    listed = {colex(h) for h in obj["hardest"]}
    other = next(_unrank(r, n, N) for r in layers[-1] if r not in listed)
    reject(forged(tmp_path, certs, name, hardest=obj["hardest"] + [other]), "one orbit")


def test_unsorted_and_duplicate_ranks_are_rejected(tmp_path, certs):
    _, obj, layers = certs["box4-d2"]
    swapped = [list(a) for a in layers]
    swapped[1][0], swapped[1][1] = swapped[1][1], swapped[1][0]
    reject(forged(tmp_path, certs, "box4-d2", arrays=swapped), "not above the one before")
    doubled = [list(a) for a in layers]
    doubled[1] = sorted(doubled[1] + [doubled[1][0]])
    reject(forged(tmp_path, certs, "box4-d2", arrays=doubled), "not above the one before")
    twice = [list(a) for a in layers]
    twice[2] = sorted(twice[2] + [twice[1][0]])
    reject(forged(tmp_path, certs, "box4-d2", arrays=twice), "in two layers")
    big = [list(a) for a in layers]
    big[-1] = big[-1] + [obj["configurations"]]
    reject(forged(tmp_path, certs, "box4-d2", arrays=big), "not below C(N, n)")


def test_a_wrong_goal_is_rejected(tmp_path, certs):
    _, obj, _ = certs["box4-d2"]
    other = [0, 5, 6, 9, 15]
    check = forged(tmp_path, certs, "box4-d2", goal=other, symmetries=brute_group("square", box(4), other, None))
    reject(check, "layer 0")


def test_a_lie_about_closure_is_rejected(tmp_path, certs):
    for name in ("box3-d2", "box3-d1", "tri-triangle-d2", "tri-hexagon-d3"):
        _, obj, _ = certs[name]
        reject(forged(tmp_path, certs, name, closed=not obj["closed"]), "closed")


def test_wrong_symmetry_groups_are_rejected(tmp_path, certs):
    _, obj, _ = certs["box4-d2-block"]
    reject(forged(tmp_path, certs, "box4-d2-block", symmetries=obj["symmetries"][:4]), "symmetries")
    reject(forged(tmp_path, certs, "box4-d2-block", symmetries=obj["symmetries"][:1]), "symmetries")
    _, gobj, _ = certs["graph-d1"]
    swap = [1, 0, 2, 3, 4, 5]  # not an automorphism of the graph
    reject(forged(tmp_path, certs, "graph-d1", symmetries=[list(range(6)), swap]), "automorphism")


def test_malformed_files_are_rejected_with_a_reason(tmp_path, certs):
    _, obj, layers = certs["box3-d2"]
    reject(forged(tmp_path, certs, "box3-d2", format="other"), "not a coinsat-census")
    reject(forged(tmp_path, certs, "box3-d2", adjacency=True), "adjacency")
    reject(forged(tmp_path, certs, "box3-d2", layers="../layers.npz"), "plain file names")
    reject(forged(tmp_path, certs, "box3-d2", cells=[[0, 0]] * 9), "twice")
    folder = write(tmp_path / "f2", obj, layers)
    np.savez(folder / "layers.npz", **{f"layer_{t}": np.array(a, dtype=np.int64) for t, a in enumerate(layers)})
    reject(check_census(folder), "uint64")
    big = dict(obj, cells=[[x, 0] for x in range(65)])
    reject(check_census(write(tmp_path / "f3", big, layers)), "at most 64 cells")


# --- what a census proves about one puzzle (check-certificate FILE DIR/census.json) ---------------


def puzzle(board, cells, d, start, goal, edges=()):
    from coinsat.io.instance_format import parse_instance

    if board == "graph":
        pairs = ", ".join(f"[{json.dumps(cells[i])}, {json.dumps(cells[j])}]" for i, j in edges)
        names = lambda qs: json.dumps([cells[q] for q in qs])  # noqa: E731
        head = f'board = "graph"\nadjacency = {d}\nstart = {names(start)}\ngoal = {names(goal)}\n'
        text = head + f"[graph]\nedges = [{pairs}]\n"
    else:
        coords = lambda qs: json.dumps([list(cells[q]) for q in qs])  # noqa: E731
        text = f'board = "{board}"\nadjacency = {d}\nstart = {coords(start)}\ngoal = {coords(goal)}\n'
    return parse_instance(text)


@pytest.mark.parametrize("name", ["box4-d2", "graph-d2", "tri-hexagon-d3"])
def test_a_census_proves_each_start_s_distance(certs, name):
    from coinsat.certificates.check import check_certificate

    folder, obj, layers = certs[name]
    board, cells, d, goal, edges = CASES[name]
    dist = brute_distances(adjacency(board, cells, edges), len(cells), len(goal), d, goal)
    cert = json.loads((folder / "census.json").read_text())
    far = next(X for X, t in dist.items() if t == obj["max_distance"])
    c = check_certificate(puzzle(board, cells, d, sorted(far), goal, edges), cert, folder)
    assert c.ok, c.reason
    D = obj["max_distance"]
    assert c.claim == f"optimal: {D} moves (no solution with <= {D - 1} moves)" and c.scope == "horizon"
    lost = next((X for X in map(frozenset, combinations(range(len(cells)), len(goal))) if X not in dist), None)
    if lost is not None:
        c = check_certificate(puzzle(board, cells, d, sorted(lost), goal, edges), cert, folder)
        assert c.ok and c.claim == "unsolvable" and c.scope == "global", c
    wrong = puzzle(board, cells, d, sorted(far), sorted(far), edges)  # the goal is another
    assert not check_certificate(wrong, cert, folder).ok


def test_an_open_census_proves_only_the_solution_for_another_window(certs):
    from coinsat.certificates.check import check_certificate

    folder, obj, _ = certs["tri-triangle-d2"]
    assert not obj["closed"]
    board, cells, d, goal, _ = CASES["tri-triangle-d2"]
    dist = brute_distances(adjacency(board, cells, ()), len(cells), len(goal), d, goal)
    far = next(X for X, t in dist.items() if t == obj["max_distance"])
    c = check_certificate(
        puzzle(board, cells, d, sorted(far), goal), json.loads((folder / "census.json").read_text()), folder
    )
    assert c.ok and c.claim == f"a solution of {obj['max_distance']} moves", c


def test_check_certificate_reads_a_census_from_the_command_line(tmp_path, certs):
    import subprocess
    import sys

    folder, obj, layers = certs["box3-d2"]
    board, cells, d, goal, _ = CASES["box3-d2"]
    from coinsat.certificates.check.census import _unrank

    start = _unrank(layers[-1][0], len(goal), len(cells))
    toml = tmp_path / "p.toml"
    coords = lambda qs: json.dumps([list(cells[q]) for q in qs])  # noqa: E731
    toml.write_text(f'board = "square"\nadjacency = {d}\nstart = {coords(start)}\ngoal = {coords(goal)}\n')
    cmd = [sys.executable, "-m", "coinsat", "check-certificate", str(toml), str(folder / "census.json"), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    verdict = json.loads(out.stdout)
    assert verdict["accepted"] and verdict["proven"].startswith(f"optimal: {obj['max_distance']} moves")
    out = subprocess.run(cmd[:5] + [str(folder)], capture_output=True, text=True)  # the folder will do
    assert out.returncode == 0 and "accepted" in out.stdout, out.stderr
    forged_folder = write(tmp_path / "bad", dict(obj, reachable=obj["reachable"] + 1), layers)
    cmd[5] = str(forged_folder / "census.json")
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 1 and "reachable" in json.loads(out.stdout)["reason"]


# --- the lemmas of docs/census.md, checked exhaustively on small cases -------------------------------


def test_lemma_r_colex_ranks_are_a_bijection():
    from coinsat.certificates.check.census import _rank, _unrank

    for N in range(1, 9):
        for n in range(1, N + 1):
            ranks = sorted(_rank(X) for X in combinations(range(N), n))
            assert ranks == list(range(comb(N, n)))
            assert all(_unrank(_rank(X), n, N) == list(X) for X in combinations(range(N), n))


@pytest.mark.parametrize("name", ["box3-d2", "tri-triangle-d2", "graph-d2", "box3-d1"])
def test_lemma_u_the_predecessors_of_y_are_its_lifts_plus_a_cell(name):
    board, cells, d, goal, edges = CASES[name]
    adj, N, n = adjacency(board, cells, edges), len(cells), len(goal)
    every = list(map(frozenset, combinations(range(N), n)))
    for Y in every:
        forward = {X for X in every for s in X for p in Y - X if X - {s} == Y - {p} and len(adj[p] & (X - {s})) >= d}
        lifts = [Y - {p} for p in Y if len(adj[p] & (Y - {p})) >= d]
        assert forward == {Z | {s} for Z in lifts for s in range(N) if s not in Y}


def test_lemma_w_rectangles_are_closed_for_d_2_and_no_window_for_d_1():
    from coinsat.certificates.check.census_window import closed_window as _closed

    for w in range(1, 5):
        for h in range(1, 5):
            rect = [[x, y] for x in range(w) for y in range(h)]
            assert _closed("square", rect, 2) and not _closed("square", rect, 1)
            assert brute_closed("square", rect, 2)
    ell = [[0, 0], [1, 0], [0, 1]]  # not a rectangle: (1, 1) sees two of its cells
    assert not _closed("square", ell, 2) and _closed("square", ell, 3)


def test_lemma_w_triangular_hull_windows_are_closed_for_d_3_not_for_d_2():
    from coinsat.certificates.check.census_window import closed_window as _closed

    for k in range(2, 5):
        for window in (tri_triangle(k), tri_hexagon(k - 1), [(x, y) for x in range(k) for y in range(k + 1)]):
            cells = [list(c) for c in window]
            assert _closed("triangular", cells, 3) and not _closed("triangular", cells, 2)
            assert brute_closed("triangular", cells, 3) and not brute_closed("triangular", cells, 2)


def test_lemma_w_a_closed_window_s_distances_are_those_of_a_larger_board():
    """The 3x3 census equals plain BFS on the 5x5 board around it, for every configuration inside."""
    board, cells, d, goal, _ = CASES["box3-d2"]
    small = brute_distances(adjacency(board, cells), 9, len(goal), d, goal)
    big_cells = [(x - 1, y - 1) for y in range(5) for x in range(5)]
    at = {c: q for q, c in enumerate(big_cells)}
    big = brute_distances(adjacency("square", big_cells), 25, len(goal), d, [at[cells[q]] for q in goal])
    for X in map(frozenset, combinations(range(9), len(goal))):
        assert small.get(X) == big.get(frozenset(at[cells[q]] for q in X))


def test_workers_and_chunks_do_not_change_the_verdict(tmp_path, certs, monkeypatch):
    import coinsat.certificates.check.census as census

    _, obj, layers = certs["box4-d2"]
    bad = [list(a) for a in layers]
    bad[3].pop(5)
    verdicts = []
    for chunk, split, workers in ((1 << 22, 1 << 16, 1), (97, 5, 3), (1000, 7, 2)):
        monkeypatch.setattr(census, "CHUNK", chunk)
        monkeypatch.setattr(census, "SPLIT", split)
        good = check_census(certs["box4-d2"][0], workers=workers)
        assert good.ok and good.claim
        verdicts.append(forged(tmp_path, certs, "box4-d2", arrays=bad).reason)
        folder = write(tmp_path / f"w{workers}", dict(obj, layer_sizes=[len(a) for a in bad]), bad, recount=True)
        assert check_census(folder, workers=workers).reason == verdicts[0]
    assert len(set(verdicts)) == 1 and "condition (2)" in verdicts[0]


def test_a_census_too_large_to_hold_is_a_limit_not_a_verdict(tmp_path, certs):
    from coinsat.errors import LimitReached

    _, obj, layers = certs["box3-d2"]
    cells = [[x, y] for x in range(8) for y in range(8)]
    group = brute_group("square", [tuple(c) for c in cells], list(range(32)), None)
    huge = dict(obj, cells=cells, goal=list(range(32)), symmetries=group, hardest=[list(range(32))])
    huge["configurations"] = comb(64, 32)
    huge["unsolvable"] = comb(64, 32) - obj["reachable"]
    with pytest.raises(LimitReached):
        check_census(write(tmp_path / "huge", huge, layers))


# --- certificates written by the engine (`coinsat census`) ------------------------------------------

ENGINE_PUZZLES = {
    "square-box": 'board = "square"\nadjacency = 2\nstart = [[0, 0], [1, 1], [2, 1], [2, 2]]\n'
    "goal = [[0, 2], [1, 1], [2, 1], [2, 0]]\n",
    "triangular": 'board = "triangular"\nadjacency = 2\nstart = [[0, 0], [1, 0], [2, 0]]\n'
    "goal = [[0, 0], [1, 0], [0, 1]]\n",
    "graph": 'board = "graph"\nadjacency = 2\nstart = ["a", "b", "c"]\ngoal = ["e", "f", "g"]\n[graph]\nedges = '
    '[["a","b"],["b","c"],["c","a"],["c","d"],["d","e"],["e","c"],["e","f"],["f","g"],["g","e"],["b","f"]]\n',
}


@pytest.mark.parametrize("name", sorted(ENGINE_PUZZLES))
def test_certificates_of_the_census_engine_are_accepted_and_agree_with_brute_force(tmp_path, name):
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("coinsat.commands.census") is None:
        pytest.skip("the census engine (coinsat census) is not on this branch")
    from coinsat.io.instance_format import parse_instance

    toml = tmp_path / f"{name}.toml"
    toml.write_text(ENGINE_PUZZLES[name])
    folder = tmp_path / "cert"
    cmd = [sys.executable, "-m", "coinsat", "census", str(toml), "--certificate", str(folder), "--workers", "1"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    c = check_census(folder)
    assert c.ok, c.reason
    obj = json.loads((folder / "census.json").read_text())
    cells = [tuple(x) if isinstance(x, list) else x for x in obj["cells"]]
    edges = [tuple(e) for e in obj.get("edges", ())]
    dist = brute_distances(
        adjacency(obj["board"], cells, edges), len(cells), len(obj["goal"]), obj["adjacency"], obj["goal"]
    )
    assert obj["layer_sizes"] == [sum(1 for t in dist.values() if t == k) for k in range(max(dist.values()) + 1)]
    assert obj["closed"] == brute_closed(obj["board"], cells, obj["adjacency"])
    from coinsat.certificates.check import check_certificate

    proven = check_certificate(parse_instance(ENGINE_PUZZLES[name]), obj, folder)
    assert proven.ok, proven.reason
    layers = dict(np.load(folder / "layers.npz"))
    last = layers[f"layer_{obj['max_distance']}"]
    layers[f"layer_{obj['max_distance']}"] = last[1:]  # one hardest state dropped
    np.savez(folder / "layers.npz", **layers)
    (folder / "census.json").write_text(json.dumps(dict(obj, layer_sizes=obj["layer_sizes"][:-1] + [last.size - 1])))
    assert not check_census(folder).ok


# --- Theorem C, on random windows: the true layers are accepted, and no other layers are -------------


@st.composite
def random_census(draw):
    board = draw(st.sampled_from(["square", "triangular", "graph"]))
    if board == "graph":
        N = draw(st.integers(4, 8))
        pairs = [(i, j) for i in range(N) for j in range(i + 1, N)]
        edges = draw(st.lists(st.sampled_from(pairs), min_size=N - 1, max_size=2 * N, unique=True))
        cells: list = list(range(N))
    else:
        box_cells = [(x, y) for y in range(3) for x in range(4)]
        cells = sorted(draw(st.sets(st.sampled_from(box_cells), min_size=4, max_size=9)), key=lambda c: (c[1], c[0]))
        edges = []
        N = len(cells)
    n = draw(st.integers(2, min(4, N - 1)))
    goal = sorted(draw(st.sets(st.integers(0, N - 1), min_size=n, max_size=n)))
    d = draw(st.integers(1, 3))
    return board, cells, d, goal, tuple(edges)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=random_census(), data=st.data())
def test_theorem_c_only_the_true_layers_are_accepted(tmp_path_factory, case, data):
    folder = tmp_path_factory.mktemp("random")
    obj, layers = build(folder, *case)
    c = check_census(folder)
    assert c.ok, c.reason
    N, n = len(obj["cells"]), len(obj["goal"])
    # any other assignment of layers (counts kept consistent) is rejected: the true one is the only one
    layer_of = {r: t for t, a in enumerate(layers) for r in a}
    r = data.draw(st.integers(0, comb(N, n) - 1), label="rank")
    if layer_of.get(r) == 0:
        return
    D = len(layers) - 1
    choices = [t for t in range(1, D + 2) if t != layer_of.get(r)] + ([None] if r in layer_of else [])
    t = data.draw(st.sampled_from(choices), label="new layer")
    forged_layers = [[x for x in a if x != r] for a in layers] + [[]]
    if t is not None:
        forged_layers[t] = sorted(forged_layers[t] + [r])
    while forged_layers and not forged_layers[-1]:
        forged_layers.pop()
    if any(not a for a in forged_layers):
        return  # an empty middle layer: rejected by the counts alone, not the interesting case
    from coinsat.certificates.check.census import _unrank

    seen, hardest = set(), []  # the forged last layer's true orbits: only the layers lie
    for x in forged_layers[-1]:
        X = frozenset(_unrank(x, n, N))
        if X not in seen:
            hardest.append(sorted(X))
            seen |= {frozenset(g[q] for q in X) for g in obj["symmetries"]}
    bad = check_census(write(folder / "forged", dict(obj, hardest=hardest), forged_layers, recount=True))
    assert not bad.ok and "condition" in bad.reason, bad.reason


def test_a_key_written_twice_is_rejected(tmp_path):
    """Parsers disagree on a JSON object with a key twice (first or last value): the file would
    claim two things, so the checker refuses it, as scripts/referee_check.py does."""
    from coinsat.census import census, write_certificate
    from coinsat.certificates.check.census import check_census
    from coinsat.io.instance_format import read_instance

    write_certificate(census(read_instance("instances/families/diagonal-3.toml")), tmp_path)
    text = (tmp_path / "census.json").read_text()
    assert check_census(tmp_path).ok
    (tmp_path / "census.json").write_text(text.replace('"max_distance": 7,', '"max_distance": 3, "max_distance": 7,'))
    verdict = check_census(tmp_path)
    assert not verdict.ok and "twice" in verdict.reason


def test_check_certificate_rejects_a_key_twice_in_any_kind(tmp_path):
    """The shared reader (coinsat.certify) refuses duplicate keys for every certificate kind."""
    from coinsat.certify import check_certificate
    from coinsat.io.instance_format import read_instance

    inst = read_instance("paper/diagonal")
    forged = tmp_path / "x.certificate.json"
    forged.write_text('{"kind": "layers", "kind": "inductive", "scope": "global", "claim": "unsolvable"}')
    verdict = check_certificate(inst, forged)
    assert not verdict.ok and "twice" in verdict.reason
