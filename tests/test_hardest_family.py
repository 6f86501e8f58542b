"""The hardest family (coinsat.families.hardest, docs/worst-case.md).

* its members at k = 5, 6 are hardest starts of the census of the diagonal goal (the last layer);
* Lemma C (span-critical): span(start) is the whole box, and removing any two coins leaves a span
  that is not (so Theorem 2's hypothesis fails and ``construct`` cannot apply);
* the goal is the flip's goal; bad k is a usage error; the command line writes the file.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from coinsat.errors import UsageError
from coinsat.families import diagonal_flip, hardest, hardest_shape
from coinsat.io.instance_format import read_instance
from coinsat.theory.span import lattice_span
from coinsat.theory.square import hypothesis


@pytest.mark.parametrize("k", [5, 6])
def test_member_is_in_the_census_last_layer(k):
    pytest.importorskip("numba")
    from coinsat.census import census
    from coinsat.search.rank.colex import Colex

    inst = hardest(k)
    c = census(inst, workers=1)
    assert c.closed and c.cells == k * k
    colex = Colex(c.cells, c.coins)
    rank = colex.rank(np.array([sorted(inst.start.cells)], dtype=np.int64))[0]
    last = c.layers[-1]
    assert rank in set(last.tolist()), f"hardest({k}) is not at the census's largest distance {c.max_distance}"
    assert c.max_distance == {5: 37, 6: 66}[k]
    assert c.distances()[rank] == c.max_distance


def test_goal_is_the_flips_goal_and_n_is_k_plus_2():
    for k in range(5, 39):
        inst, flip = hardest(k), diagonal_flip(k)
        coords = [inst.board.coords[q] for q in inst.goal.cells]
        assert sorted(coords) == sorted(flip.board.coords[q] for q in flip.goal.cells)
        assert inst.n_coins == k + 2
        assert all(0 <= x < k and 0 <= y < k for x, y in hardest_shape(k))


@pytest.mark.parametrize("k", [5, 6, 7, 8, 9, 12, 17, 24, 38])
def test_lemma_c_span_critical(k):
    """span(A) is the k x k box; span(A - {e1, e2}) is not, for every pair of coins."""
    cells = hardest_shape(k)
    box = {(x, y) for x in range(k) for y in range(k)}
    assert set(lattice_span("square", cells, 2)) == box
    for i in range(len(cells)):
        for j in range(i + 1, len(cells)):
            rest = [c for t, c in enumerate(cells) if t not in (i, j)]
            assert set(lattice_span("square", rest, 2)) != box


@pytest.mark.parametrize("k", [6, 9, 14])
def test_theorem_2_hypothesis_fails(k):
    assert hypothesis(hardest(k)) is None


def test_bad_k():
    with pytest.raises(UsageError):
        hardest_shape(4)


def test_cli_family_hardest(tmp_path):
    out = tmp_path / "h.toml"
    r = subprocess.run(
        [sys.executable, "-m", "coinsat", "family", "hardest", "--k", "8", "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert "hardest-8" in r.stdout
    made, stored = hardest(8), read_instance(out)
    assert (made.start, made.goal, made.board) == (stored.start, stored.goal, stored.board)
    r = subprocess.run(
        [sys.executable, "-m", "coinsat", "family", "hardest", "--k", "3", "-o", str(tmp_path / "x.toml")],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "k >= 5" in r.stderr


def test_lemma_g_goal_extras_span_the_box():
    """Lemma G: the diagonal goal B has exactly two pairs E_B whose coins each keep two neighbours in
    B - E_B, and span(B - E_B) is the whole box for both; with Lemma C, Theorem 2's hypothesis fails."""
    from itertools import combinations

    from coinsat.families import diagonal_target

    for k in range(5, 39):
        goal = diagonal_target(k, "nwse")
        cells = set(goal)

        def held(e, rest):
            return sum(n in rest for n in ((e[0] + 1, e[1]), (e[0] - 1, e[1]), (e[0], e[1] + 1), (e[0], e[1] - 1)))

        pairs = [p for p in combinations(goal, 2) if all(held(e, cells - set(p)) >= 2 for e in p)]
        assert len(pairs) == 2
        for p in pairs:
            assert len(lattice_span("square", [c for c in goal if c not in p], 2)) == k * k


def test_insert_row_column_and_the_even_step():
    """insert_row_column moves the cells at y >= row up and x >= column right; for even k >= 8 the
    member is the odd member before it with row 1 and column 2 inserted plus the coin (1, 2) (the map
    scripts/hardest_graft.py grafts solutions by)."""
    from coinsat.families import insert_row_column

    assert insert_row_column([(0, 0), (2, 3), (1, 1)], 1, 2) == [(0, 0), (1, 2), (3, 4)]
    for k in range(8, 39, 2):
        assert hardest_shape(k) == sorted(insert_row_column(hardest_shape(k - 1), 1, 2) + [(1, 2)])
