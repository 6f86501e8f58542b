"""The quotient search of ``rankbfs`` (one configuration per orbit of the window's symmetries that
fix the start and the goal) and its certificates: docs/symmetry.md, Lemma QS.

The search with its symmetry on must give the plain search's answer (the optimum, or no
solution) on puzzles whose start and goal are symmetric; its solutions replay (rules.py); its
certificates are accepted by the checker, which verifies the group with code of its own, and a
tampered group or a dropped orbit representative is rejected.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from coinsat.certificates.check import check_certificate
from coinsat.certificates.prove.make import certify
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.search.options import RankbfsOptions
from coinsat.search.rank.search import group, solve_rankbfs
from coinsat.search.rank.space import Space
from coinsat.solution import verify
from coinsat.solve import solve

ROOT = Path(__file__).resolve().parent.parent
DIAG = read_instance(ROOT / "instances" / "paper" / "diagonal.toml")
U64 = np.uint64


def _rank(inst, sym: bool, **options):
    return solve_rankbfs(inst, options=RankbfsOptions(symmetry=sym, workers=1, **options))


def _same_answer(inst, **options) -> tuple:
    plain, quotient = _rank(inst, False, **options), _rank(inst, True, **options)
    assert quotient.status is plain.status
    assert quotient.length == plain.length
    if quotient.solution is not None:
        assert verify(inst, quotient.solution).ok
    return plain, quotient


SIDE = 4
#: cell maps of the 4 x 4 box: the reflection in x = y, the half turn, the mirror in x = 1.5
MAPS = (lambda x, y: (y, x), lambda x, y: (SIDE - 1 - x, SIDE - 1 - y), lambda x, y: (SIDE - 1 - x, y))


def _symmetric_set(rng: random.Random, n: int, m) -> set | None:
    """n cells of the box, a union of orbits of the map m (None if the draw overshoots)."""
    cells = [(x, y) for x in range(SIDE) for y in range(SIDE)]
    rng.shuffle(cells)
    out: set = set()
    for c in cells:
        orbit = {c, m(*c)}
        if len(out | orbit) <= n:
            out |= orbit
    return out if len(out) == n else None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(0, 10**6), which=st.integers(0, len(MAPS) - 1), n=st.integers(4, 7))
def test_lemma_qs_the_quotient_search_finds_the_plain_optimum_on_symmetric_puzzles(seed, which, n):
    rng = random.Random(seed)
    a, b = _symmetric_set(rng, n, MAPS[which]), _symmetric_set(rng, n, MAPS[which])
    assume(a is not None and b is not None and a != b)
    inst = make_instance("square", {c: "o" for c in a}, {c: "o" for c in b}, adjacency=2)
    assume(inst.board.exact and group(inst) is not None)
    plain, quotient = _same_answer(inst)
    assert quotient.stats["symmetry"] >= 2
    assert quotient.statistics.states <= plain.statistics.states


@pytest.mark.parametrize(
    "path",
    [
        "instances/paper/diagonal.toml",
        "instances/paper/h-to-o.toml",
        "instances/paper/o-to-h.toml",
        "instances/paper/zero-extra.toml",
        "instances/census/diagonal-4/diagonal-4-hardest-2.toml",
        "instances/census/v-3/v-3-hardest-1.toml",
    ],
)
def test_the_quotient_search_answers_as_the_plain_one_on_symmetric_puzzles(path):
    inst = read_instance(ROOT / path)
    assert group(inst) is not None  # these puzzles have a symmetry fixing start and goal
    _same_answer(inst)


@pytest.mark.parametrize("options", [{"heuristic": "lmcut"}, {"heuristic": "forced"}, {"perimeter": 2}, {}])
def test_the_quotient_search_keeps_the_optimum_under_every_h(options):
    """Lemma QA: h evaluated on the canonical form is admissible for its whole orbit."""
    plain, quotient = _same_answer(DIAG, upper_bound=18, **options)
    assert quotient.length == 18 and quotient.statistics.states < plain.statistics.states


def test_the_quotient_search_keeps_about_one_state_per_orbit():
    """A state fixed by no symmetry has |G| images; so the quotient keeps at least |layer| / |G|."""
    plain, quotient = _same_answer(DIAG)
    order = quotient.stats["symmetry"]
    assert order == 4
    assert plain.statistics.states / order <= quotient.statistics.states < plain.statistics.states


def test_workers_keep_the_same_quotient_states_as_one_process():
    one = _rank(DIAG, True)
    two = solve_rankbfs(DIAG, options=RankbfsOptions(symmetry=True, workers=2))
    assert two.stats["layers"] == one.stats["layers"] and two.length == one.length
    assert verify(DIAG, two.solution).ok


def test_the_compiled_canonical_form_is_the_numpy_one():
    """``jit.canonical_into`` (bitboards compared, one rank) against ``Space.canonical``'s numpy form
    (each image's cells sorted and ranked) and a plain Python minimum over the images."""
    from coinsat.search.rank.visited import compiled

    inst = read_instance(ROOT / "instances/families/diagonal-6.toml")
    perms = group(inst)
    rng = np.random.default_rng(3)
    space = Space(inst)
    space.symmetry = perms
    ranks = np.unique(rng.integers(0, space.colex.size, 3000, dtype=np.uint64))
    by_numpy = space.canonical(ranks[:200])  # small and numba not loaded by this space: numpy
    by_hand = []
    for r in ranks[:200].tolist():
        cells = space.cells_of_rank(r)
        by_hand.append(min([r] + [space.rank_of_cells(int(g[c]) for c in cells) for g in perms]))
    assert by_numpy.tolist() == sorted(set(by_hand))
    if compiled() is None:
        pytest.skip("numba is not installed")
    got = ranks.copy()
    space.fast.canonical(got)  # in place, in order
    pos = space.colex.unrank(ranks)
    expect = ranks.copy()
    for g in perms:
        expect = np.minimum(expect, space.colex.rank(np.sort(g[pos], axis=1)))
    assert np.array_equal(got, expect) and got[:200].tolist() == by_hand


def test_no_symmetry_flag_turns_the_quotient_off(capsys):
    from coinsat.cli import main

    path = str(ROOT / "instances/paper/diagonal.toml")
    assert main(["solve", path, "--method", "rankbfs", "--workers", "1", "--json"]) == 0
    on = json.loads(capsys.readouterr().out)
    assert main(["solve", path, "--method", "rankbfs", "--workers", "1", "--no-symmetry", "--json"]) == 0
    off = json.loads(capsys.readouterr().out)
    assert on["length"] == off["length"] == 18
    assert on["statistics"]["states"] < off["statistics"]["states"]


# --- certificates ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A genuine quotient certificate of the paper's diagonal (optimal: 18), and its layers."""
    folder = tmp_path_factory.mktemp("sym")
    done = certify(DIAG, solve(DIAG, "rankbfs", workers=1), folder)
    assert done.check.ok, done.check.reason
    cert = json.loads(done.path.read_text())
    with np.load(folder / cert["layers"]) as z:
        layers = {k: np.cumsum(z[k], dtype=U64) for k in z.files}
    return folder, cert, layers


def _store(folder: Path, cert: dict, layers: dict) -> dict:
    buf = io.BytesIO()
    np.savez_compressed(buf, **{k: np.diff(v, prepend=U64(0)) if v.size else v for k, v in layers.items()})
    (folder / cert["layers"]).write_bytes(buf.getvalue())
    return dict(cert, layers_sha256=hashlib.sha256(buf.getvalue()).hexdigest())


def _verdict(made, **changes):
    folder, cert, layers = made
    return check_certificate(DIAG, _store(folder, dict(cert, **changes), layers), folder)


def test_a_quotient_certificate_lists_its_group_and_is_accepted(made):
    folder, cert, layers = made
    assert len(cert["symmetries"]) == 4 and list(range(DIAG.board.size)) in cert["symmetries"]
    verdict = _verdict(made)
    assert verdict.ok and "symmetry group of order 4" in verdict.reason, verdict.reason
    assert verdict.claim == "optimal: 18 moves (no solution with <= 17 moves)"


def test_quotient_layers_without_their_group_are_rejected(made):
    folder, cert, layers = made
    verdict = check_certificate(
        DIAG, _store(folder, {k: v for k, v in cert.items() if k != "symmetries"}, layers), folder
    )
    assert not verdict.ok and "in no layer" in verdict.reason


def _cells(perm):
    return [list(p) for p in perm]


def test_a_permutation_that_is_not_an_automorphism_is_rejected(made):
    n = DIAG.board.size
    index = {c: i for i, c in enumerate(DIAG.board.coords)}
    occupied = set(DIAG.start.cells) | {c for g in DIAG.goal_configurations for c in g.cells}
    # two empty cells (in neither start nor goal) with different neighbourhoods: swapped, the
    # start and the goal stay, {id, swap} is a group, but neighbours are not kept
    free = [c for c in range(n) if c not in occupied]
    a, b = next((p, q) for p in free for q in free if p < q and DIAG.board.neighbours[p] != DIAG.board.neighbours[q])
    swap = list(range(n))
    swap[a], swap[b] = b, a
    verdict = _verdict(made, symmetries=[list(range(n)), swap])
    assert not verdict.ok and "not an automorphism" in verdict.reason, verdict.reason
    assert index  # the window's positions are the board's cells


def test_a_permutation_that_moves_the_goal_is_rejected(made):
    n = DIAG.board.size
    x = {c: DIAG.board.coords[c] for c in range(n)}
    where = {xy: c for c, xy in x.items()}
    side = max(xy[0] for xy in x.values())
    quarter = [where[(side - x[c][1], x[c][0])] for c in range(n)]  # a quarter turn of the box
    turns = [list(range(n))]
    for _ in range(3):
        turns.append([quarter[q] for q in turns[-1]])
    verdict = _verdict(made, symmetries=turns)  # a group of automorphisms; it moves the diagonals
    assert not verdict.ok and ("moves the goal" in verdict.reason or "moves the start" in verdict.reason)
    # the goal alone: a start fixed by the half turn and a goal that is not
    inst = make_instance(
        "square",
        {(0, 0): "o", (1, 0): "o", (2, 2): "o", (3, 2): "o"},
        {(0, 0): "o", (1, 0): "o", (0, 1): "o", (1, 1): "o"},
        adjacency=2,
    )
    from coinsat.certificates.check.orbits import verified_group
    from coinsat.certificates.check.ranked import Kernel

    cells = [(x, y) for y in range(3) for x in range(4)]  # the box, as the checker's window
    ker = Kernel(inst, cells)
    half = [cells.index((3 - x, 2 - y)) for x, y in cells]  # the half turn of the box
    b = inst.board
    start = sorted(cells.index(b.coords[c]) for c in inst.start.cells)
    goals = np.array([sorted(cells.index(b.coords[c]) for c in g.cells) for g in inst.goal_configurations])
    group_, why = verified_group([list(range(len(cells))), half], ker, start, goals)
    assert group_ is None and "moves the goal" in why


def test_a_set_of_permutations_that_is_not_a_group_is_rejected(made):
    folder, cert, layers = made
    for bad, words in (
        (cert["symmetries"][1:], "identity"),
        (cert["symmetries"][:2] + [cert["symmetries"][1]], "twice"),
        ([cert["symmetries"][0], [0] * DIAG.board.size], "not a permutation"),
    ):
        verdict = _verdict(made, symmetries=bad)
        assert not verdict.ok and words in verdict.reason, verdict.reason
    # two reflections without their product (the half turn) are not closed under composition
    if len(cert["symmetries"]) == 4:
        verdict = _verdict(made, symmetries=cert["symmetries"][:3])
        assert not verdict.ok


def test_a_dropped_orbit_representative_is_rejected(made):
    folder, cert, layers = made
    for t in (5, 11, 16):
        key = f"L{t}"
        for j in (0, layers[key].size // 2, layers[key].size - 1):
            dropped = dict(layers, **{key: np.delete(layers[key], j)})
            verdict = check_certificate(DIAG, _store(folder, cert, dropped), folder)
            assert not verdict.ok and "in no layer" in verdict.reason, (key, j, verdict.reason)
    _store(folder, cert, layers)  # the fixture's file back as it was


def test_symmetries_on_word_layers_are_rejected(tmp_path):
    done = certify(DIAG, solve(DIAG, "spanbfs"), tmp_path)
    cert = json.loads(done.path.read_text())
    cert["symmetries"] = [list(range(DIAG.board.size))]
    verdict = check_certificate(DIAG, cert, tmp_path)
    assert not verdict.ok and "ranked layers" in verdict.reason


def test_resume_refuses_layers_of_the_other_kind(tmp_path):
    """Quotient layers are not continued by a plain search, nor plain ones by a quotient search."""
    from coinsat.errors import UsageError

    saved, other = tmp_path / "quotient", tmp_path / "plain"
    done = solve_rankbfs(DIAG, max_moves=5, options=RankbfsOptions(symmetry=True, resume=str(saved)))
    assert done.status is not None
    with pytest.raises(UsageError, match="symmetry"):
        solve_rankbfs(DIAG, options=RankbfsOptions(symmetry=False, resume=str(saved)))
    solve_rankbfs(DIAG, max_moves=5, options=RankbfsOptions(symmetry=False, resume=str(other)))
    with pytest.raises(UsageError, match="symmetry"):
        solve_rankbfs(DIAG, options=RankbfsOptions(symmetry=True, resume=str(other)))
    again = solve_rankbfs(DIAG, options=RankbfsOptions(symmetry=True, resume=str(saved)))
    assert again.length == 18 and verify(DIAG, again.solution).ok
