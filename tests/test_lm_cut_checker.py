"""The layers checker recomputes the LM-cut h itself (certificate field ``h`` = "lmcut").

Its kernel (``coinsat.certificates.check.lmcut``, compiled, imported by nothing of the search)
is compared with the reference ``coinsat.theory.relaxed.h_lm`` (docs/lm-cut.md §3) on random
states of random small puzzles and on reachable states of V(2,2) -> SW-NE.  Certificates of the
new kind are made here by a pruned breadth-first search of this file's own (``rules.successors``,
the reference h_lm as the pruning h), written in the format the checker reads, and then tampered
with: relabelled to another h, a state removed, the bound U changed.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.lmcut import BIG, LMCut
from coinsat.certificates.check.ranked import Decoder, Kernel
from coinsat.certificates.prove.make import certify
from coinsat.cli import main
from coinsat.instance import Instance, make_instance
from coinsat.io.instance_format import read_instance
from coinsat.rules import predecessors, successors
from coinsat.solve import solve
from coinsat.theory.relaxed import h_lm
from coinsat.theory.supports import h_fill, span_of

from .strategies import configurations, instances

ROOT = Path(__file__).resolve().parent.parent
DIAG = read_instance(ROOT / "instances" / "paper" / "diagonal.toml")
SWNE = read_instance(ROOT / "instances" / "families" / "vdiag-2-2-swne.toml")
U64 = np.uint64


def _kernel(inst: Instance) -> tuple[Decoder, LMCut]:
    """The checker's decoder and LM-cut kernel on the window = the board, in the board's order
    (the order of the rankbfs certificates and of the reference's bitmasks)."""
    cells = list(inst.board.coords)
    dec, ker = Decoder(len(cells), inst.n_coins), Kernel(inst, cells)
    goal_pos = np.array([sorted(g.cells) for g in inst.goal_configurations], dtype=np.int64)
    words = ker.words(goal_pos.reshape(-1, inst.n_coins))
    return dec, LMCut(dec, ker, [words[:, i : i + 1] for i in range(words.shape[1])])


def _ranks(dec: Decoder, masks, n: int, k: int) -> np.ndarray:
    pos = np.array([[c for c in range(n) if x >> c & 1] for x in masks], dtype=np.int64).reshape(-1, k)
    return dec.ranks(pos)


def _reference(inst: Instance, masks) -> list[int]:
    goals = [g.mask for g in inst.goal_configurations]
    return [h_lm(inst.board, inst.d, x, goals) for x in masks]


# --- the kernel is the reference ------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(configurations(instances(labeled=False, max_coins=5)), st.integers(0, 12))
def test_kernel_is_the_reference_on_random_puzzles(case, budget):
    """Every board kind, d = 1 .. 3, every goal placement rule: the kernel's h_lm is the
    reference's, and with a budget b it decides "h_lm <= b" as the reference does, never above h_lm
    (min(h_lm, b + 1), or h_fill where a plan of <= b actions decides it: docs/lm-cut.md, Lemma UP)."""
    inst, config = case
    (mask,) = config.masks(inst.labels)
    masks = [mask, inst.start.mask]
    dec, lm = _kernel(inst)
    ranks = _ranks(dec, masks, inst.board.size, inst.n_coins)
    want = _reference(inst, masks)
    assert lm.h(ranks).tolist() == want
    assert_decides(lm.h(ranks, budget).tolist(), want, budget)


def assert_decides(got: list[int], want: list[int], budget: int) -> None:
    """The budgeted kernel: every value <= h_lm, and <= budget exactly when h_lm is."""
    assert all(g <= w for g, w in zip(got, want)), (got, want)
    assert [g <= budget for g in got] == [w <= budget for w in want], (got, want, budget)


def _reachable(inst: Instance, depth: int) -> list[int]:
    """The configurations within ``depth`` moves of the start (rules.successors)."""
    seen, front = {inst.start.mask}, [inst.start.mask]
    for _ in range(depth):
        nxt = []
        for x in front:
            for _, (y,) in successors(inst.board, inst.d, (x,)):
                if y not in seen:
                    seen.add(y)
                    nxt.append(y)
        front = nxt
    return sorted(seen)


def test_kernel_is_the_reference_on_reachable_states_of_vdiag_2_2_swne():
    """Within 6 moves of the start: 6,831 configurations, most with a goal cell outside their span
    (h infinite): every one with a finite h_fill and 40 of the others."""
    masks = _reachable(SWNE, 6)
    goals = [g.mask for g in SWNE.goal_configurations]
    finite = [x for x in masks if h_fill(SWNE.board, SWNE.d, x, goals) < BIG]
    seen = set(finite)
    others = [x for x in masks if x not in seen]
    sample = finite + random.Random(32).sample(others, 40) + [SWNE.start.mask]
    dec, lm = _kernel(SWNE)
    ranks = _ranks(dec, sample, SWNE.board.size, SWNE.n_coins)
    want = _reference(SWNE, sample)
    assert lm.h(ranks).tolist() == want
    assert want[-1] == 22  # docs/lm-cut.md: h+ = 22 at the start, LM-cut reaches it here
    for budget in (15, 20, 25):
        assert_decides(lm.h(ranks, budget).tolist(), want, budget)
    assert len(finite) > 100 and len({w for w in want if w < BIG}) >= 5  # not one value for all


def test_kernel_is_the_reference_along_a_solution_of_vdiag_2_2_swne():
    """The 37 configurations of the stored optimal solution (h from 22 down to 0) and, from each,
    two random walks of 1 to 4 moves keeping every goal cell in the span (h_fill finite)."""
    moves = json.loads((ROOT / "instances" / "families" / "solutions" / "vdiag-2-2-swne.json").read_text())["moves"]
    goals = [g.mask for g in SWNE.goal_configurations]
    path = [SWNE.start.mask]
    for src, dst in moves:
        path.append(path[-1] ^ 1 << SWNE.board.cell(tuple(src)) ^ 1 << SWNE.board.cell(tuple(dst)))
    assert path[-1] in goals
    rnd = random.Random(3236)
    sample = list(path)
    for x0 in path:
        for _ in range(2):
            x = x0
            for _ in range(rnd.randint(1, 4)):
                nxt = [y for _, (y,) in successors(SWNE.board, SWNE.d, (x,))]
                nxt = [y for y in nxt if h_fill(SWNE.board, SWNE.d, y, goals) < BIG]
                if not nxt:
                    break
                x = rnd.choice(nxt)
            sample.append(x)
    dec, lm = _kernel(SWNE)
    want = _reference(SWNE, sample)
    assert lm.h(_ranks(dec, sample, SWNE.board.size, SWNE.n_coins)).tolist() == want
    assert want[0] == 22 and want[len(path) - 1] == 0 and len(set(want)) >= 20


def test_kernel_is_the_reference_on_two_words():
    """V(4,3) -> NW-SE: 81 cells, two words a configuration; the start and 20 states within 3
    moves of it that keep every goal cell in the span."""
    inst = read_instance(ROOT / "instances" / "families" / "vdiag-4-3-nwse.toml")
    goals = [g.mask for g in inst.goal_configurations]
    masks = [x for x in _reachable(inst, 3) if h_fill(inst.board, inst.d, x, goals) < BIG]
    sample = [inst.start.mask] + random.Random(81).sample(masks, 20)
    dec, lm = _kernel(inst)
    assert lm.W == 2
    want = _reference(inst, sample)
    assert lm.h(_ranks(dec, sample, inst.board.size, inst.n_coins)).tolist() == want
    assert want[0] == 55


def test_kernel_free_cycle_regression():
    """tests/test_lm_cut_lemmas.py's square-grid case (a review's): after a few rounds the free
    actions form a cycle, which a least fixpoint of step 1 would value 0.  As an instance: its 9
    coins, one of them moved to (0, 2).  The sweep gives LM = 7 (a least fixpoint: 5), h_fill 6."""
    coins = [(1, 0), (1, 1), (2, 1), (5, 1), (4, 2), (3, 3), (1, 4), (0, 5), (1, 5)]
    inst = make_instance("square", coins, coins[1:] + [(0, 2)], name="free-cycle")
    dec, lm = _kernel(inst)
    ranks = _ranks(dec, [inst.start.mask], inst.board.size, inst.n_coins)
    assert lm.h(ranks).tolist() == _reference(inst, [inst.start.mask]) == [7]
    assert lm.h(ranks, 6).tolist() == [7]  # "more than 6": a least fixpoint (5) would keep it
    assert lm.h(ranks, 7).tolist()[0] <= 7  # kept (a plan of 7 actions may decide it: Lemma UP)


def test_kernel_needs_adjacency_at_least_one():
    inst = read_instance(ROOT / "instances" / "paper" / "diagonal.toml")
    dec = Decoder(inst.board.size, inst.n_coins)
    ker = Kernel(inst, list(inst.board.coords))
    ker.d = 0
    with pytest.raises(ValueError, match="d >= 1"):
        LMCut(dec, ker, [])


# --- certificates of the kind, made here ----------------------------------------------------------


def pruned_layers(inst: Instance, U: int, h) -> list[list[int]]:
    """The layers of a breadth-first search pruned as the ranked search prunes: a configuration
    first met at depth t is kept iff t + h(it) <= U; stops at a layer that holds a goal placement
    or is empty, or at depth U.  Bitmasks over the board, in the board's cell order."""
    b, d = inst.board, inst.d
    goals = {g.mask for g in inst.goal_configurations}
    memo: dict[int, int] = {}

    def hv(x: int) -> int:
        if x not in memo:
            memo[x] = h(b, d, x, goals)
        return memo[x]

    layers, seen = [[inst.start.mask]], {inst.start.mask}
    for t in range(U):
        nxt = {y for x in layers[-1] for _, (y,) in successors(b, d, (x,)) if y not in seen and t + 1 + hv(y) <= U}
        seen |= nxt
        layers.append(sorted(nxt))
        if not nxt or nxt & goals:
            break
    return layers


def _store(tmp: Path, cert: dict, layers: list[np.ndarray]) -> dict:
    """The layers (sorted ranks) written as the checker reads them, the certificate re-hashed."""
    buf = io.BytesIO()
    np.savez_compressed(buf, **{f"L{i}": np.diff(x, prepend=U64(0)) for i, x in enumerate(layers)})
    name = f"lm-{len(list(tmp.iterdir()))}.npz"
    (tmp / name).write_bytes(buf.getvalue())
    return dict(cert, layers=name, layers_sha256=hashlib.sha256(buf.getvalue()).hexdigest())


@pytest.fixture(scope="module")
def lm_certificate(tmp_path_factory):
    """DIAG (optimum 18) with U = 18: a genuine rankbfs certificate (the header, the window in the
    board's order, the solution), its layers 0 .. 17 replaced by those of the search above pruned
    by the reference h_lm, and h = "lmcut"."""
    tmp = tmp_path_factory.mktemp("lm")
    done = certify(DIAG, solve(DIAG, "rankbfs", upper_bound=18, symmetry=False), tmp)  # plain layers
    assert done.check.ok, done.check.reason
    cert = json.loads(done.path.read_text())
    assert cert["horizon"] == 17 and cert["upper_bound"] == 18
    assert [tuple(c) for c in cert["cells"]] == list(DIAG.board.coords)
    masks = pruned_layers(DIAG, 18, h_lm)
    assert len(masks) == 19 and DIAG.goal.mask in masks[18]  # the goal at depth 18, as expected
    dec = Decoder(DIAG.board.size, DIAG.n_coins)
    layers = [np.sort(_ranks(dec, x, DIAG.board.size, DIAG.n_coins)) for x in masks[:18]]
    return tmp, dict(cert, h="lmcut"), layers


def _check(tmp, cert, layers=None):
    return check_certificate(DIAG, cert if layers is None else _store(tmp, cert, layers), tmp)


def test_lmcut_certificate_accepted(lm_certificate):
    tmp, cert, layers = lm_certificate
    verdict = _check(tmp, cert, layers)
    assert verdict.ok, verdict.reason
    assert verdict.claim == "optimal: 18 moves (no solution with <= 17 moves)"
    assert "pruned by h (lmcut)" in verdict.reason
    threaded = check_certificate(DIAG, _store(tmp, cert, layers), tmp, workers=2)
    assert threaded.ok and threaded.claim == verdict.claim


def test_lmcut_keeps_fewer_states_than_fill():
    """Not vacuous: the LM-cut search keeps fewer states than the fill search with the same U."""
    lm, fill = pruned_layers(DIAG, 18, h_lm), pruned_layers(DIAG, 18, h_fill)
    assert sum(map(len, lm)) < sum(map(len, fill))


def test_relabelled_to_another_h_is_rejected(lm_certificate):
    """(a) The same layers under the fill or the forced h, or under no h: the checker asks for
    successors that the LM-cut pruned."""
    tmp, cert, layers = lm_certificate
    stored = _store(tmp, cert, layers)
    for other in (dict(stored, h="fill"), dict(stored, h="forced"), {k: v for k, v in stored.items() if k != "h"}):
        verdict = _check(tmp, other)
        assert not verdict.ok and "in no layer" in verdict.reason, verdict.reason


@pytest.mark.parametrize("i", [1, 6, 12, 17])
def test_a_layer_with_a_state_removed_is_rejected(lm_certificate, i):
    """(b) Every kept state was asked for by its parent (t + h <= U), so each one missing is found."""
    tmp, cert, layers = lm_certificate
    for j in (0, len(layers[i]) // 2, len(layers[i]) - 1):
        dropped = [x if t != i else np.delete(x, j) for t, x in enumerate(layers)]
        verdict = _check(tmp, cert, dropped)
        assert not verdict.ok and f"in no layer up to L{i}" in verdict.reason, verdict.reason


def test_the_bound_changed(lm_certificate):
    """(c) U below the horizon is refused; U raised asks for successors the search pruned.  U
    lowered to the horizon is accepted: it asks for fewer successors, and the claim, about
    solutions of at most horizon moves, stays true (as for the fill h, test_ranked_layers_forgeries)."""
    tmp, cert, layers = lm_certificate
    stored = _store(tmp, cert, layers)
    for low in (16, 0):
        verdict = _check(tmp, dict(stored, upper_bound=low))
        assert not verdict.ok and "upper bound must be an integer >= the horizon" in verdict.reason
    for high in (19, 20):
        verdict = _check(tmp, dict(stored, upper_bound=high))
        assert not verdict.ok and "in no layer" in verdict.reason, verdict.reason
    verdict = _check(tmp, dict(stored, upper_bound=17))
    assert verdict.ok and verdict.claim == "optimal: 18 moves (no solution with <= 17 moves)"


def test_a_goal_one_move_further_is_rejected(lm_certificate):
    """Claim 'no solution with <= 18 moves' (false): L18 of the search holds the goal; with the goal
    left out, the checker, which asks for it (18 + h_lm(goal) = 18 <= U), rejects."""
    tmp, cert, layers = lm_certificate
    masks = pruned_layers(DIAG, 18, h_lm)
    dec = Decoder(DIAG.board.size, DIAG.n_coins)
    last = np.sort(_ranks(dec, [x for x in masks[18] if x != DIAG.goal.mask], DIAG.board.size, DIAG.n_coins))
    forged = {k: v for k, v in cert.items() if k != "solution"}
    forged.update(horizon=18, claim="no solution with <= 18 moves")
    verdict = _check(tmp, forged, layers + [last])
    assert not verdict.ok and "in no layer up to L18" in verdict.reason, verdict.reason


def test_unknown_h_names_are_refused(lm_certificate):
    tmp, cert, layers = lm_certificate
    stored = _store(tmp, cert, layers)
    for bad in ("lm-cut", "LMCUT", "lm", 3):
        verdict = _check(tmp, dict(stored, h=bad))
        assert not verdict.ok and "unknown h" in verdict.reason and "lmcut" in verdict.reason, verdict.reason
    verdict = _check(tmp, dict(stored, h={"kind": "perimeter", "r": 2, "inner": "lm"}))
    assert not verdict.ok and "unknown inner h 'lm'" in verdict.reason
    verdict = _check(tmp, {k: v for k, v in stored.items() if k not in ("upper_bound", "solution")})
    assert not verdict.ok and "unknown h 'lmcut'" in verdict.reason  # lmcut prunes: it needs U


def _ball(inst: Instance, r: int) -> dict[int, int]:
    """The exact distance to the goal of every configuration inside span(start) within r moves of
    it (a backward search with rules.predecessors): the perimeter h's ball."""
    region = span_of(inst.board.neighbour_masks, inst.d, inst.start.mask)
    front = [g.mask for g in inst.goal_configurations if g.mask & ~region == 0]
    dist = dict.fromkeys(front, 0)
    for i in range(1, r + 1):
        nxt = []
        for x in front:
            for _, (y,) in predecessors(inst.board, inst.d, (x,)):
                if y & ~region == 0 and y not in dist:
                    dist[y] = i
                    nxt.append(y)
        front = nxt
    return dist


def test_perimeter_over_lmcut(lm_certificate):
    """``{"kind": "perimeter", "r": 3, "inner": "lmcut"}``: h = the distance inside the ball of radius
    3, max(h_lm, 4) outside (docs/perimeter-search.md, Theorem P); the layers of the search pruned by
    it are accepted, and rejected under the perimeter over fill (it asks for more)."""
    tmp, cert, _ = lm_certificate
    dist = _ball(DIAG, 3)

    def h_perim(board, d, x, goals):
        return dist[x] if x in dist else max(h_lm(board, d, x, goals), 4)

    masks = pruned_layers(DIAG, 18, h_perim)
    dec = Decoder(DIAG.board.size, DIAG.n_coins)
    layers = [np.sort(_ranks(dec, x, DIAG.board.size, DIAG.n_coins)) for x in masks[:18]]
    perim = dict(cert, h={"kind": "perimeter", "r": 3, "inner": "lmcut"})
    verdict = _check(tmp, perim, layers)
    assert verdict.ok and verdict.claim == "optimal: 18 moves (no solution with <= 17 moves)", verdict.reason
    assert "perimeter r = 3 over lmcut" in verdict.reason
    verdict = _check(tmp, dict(perim, h={"kind": "perimeter", "r": 3, "inner": "fill"}), layers)
    assert not verdict.ok and "in no layer" in verdict.reason, verdict.reason


@pytest.mark.parametrize(
    "extra, h",
    [([], "lmcut"), (["--perimeter", "3"], {"kind": "perimeter", "r": 3, "inner": "lmcut"})],
)
def test_end_to_end_rankbfs_lmcut(tmp_path, capsys, extra, h):
    """``coinsat solve ... --heuristic lmcut [--perimeter 3] --certify DIR`` then ``coinsat
    check-certificate``: the search's certificate names its h, the checker's own kernel accepts
    it, optimal: 36; the same file relabelled to the fill h is rejected (the search pruned what
    fill would keep)."""
    toml = ROOT / "instances" / "families" / "vdiag-2-2-swne.toml"
    solution = ROOT / "instances" / "families" / "solutions" / "vdiag-2-2-swne.json"
    args = ["--method", "rankbfs", "--upper-bound", str(solution), "--heuristic", "lmcut", "--workers", "1", *extra]
    assert main(["solve", str(toml), *args, "--certify", str(tmp_path), "--json"]) == 0
    capsys.readouterr()
    path = tmp_path / "vdiag-2-2-swne.certificate.json"
    cert = json.loads(path.read_text())
    assert cert["h"] == h and cert["upper_bound"] == 36
    assert main(["check-certificate", str(toml), str(path), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["accepted"] and verdict["proven"] == "optimal: 36 moves (no solution with <= 35 moves)"
    assert "lmcut" in verdict["reason"]
    path.write_text(json.dumps(dict(cert, h="fill" if h == "lmcut" else dict(h, inner="fill"))))
    main(["check-certificate", str(toml), str(path), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert not verdict["accepted"] and "in no layer" in verdict["reason"]


@pytest.mark.slow
def test_lmcut_certificate_of_vdiag_2_2_nwse(tmp_path):
    """V(2,2) -> NW-SE (optimum 24), bounded: 'no solution with <= 23 moves' from the layers of the
    search pruned by the reference h_lm with U = 23 (about 20 s of Python); relabelled fill: rejected."""
    inst = read_instance(ROOT / "instances" / "families" / "vdiag-2-2-nwse.toml")
    done = certify(inst, solve(inst, "rankbfs", upper_bound=23), tmp_path)
    cert = json.loads(done.path.read_text())
    assert done.check.ok and cert["horizon"] == 23, done.check.reason
    masks = pruned_layers(inst, 23, h_lm)
    dec = Decoder(inst.board.size, inst.n_coins)
    layers = [np.sort(_ranks(dec, x, inst.board.size, inst.n_coins)) for x in masks]
    layers += [np.zeros(0, dtype=U64)] * (24 - len(layers))
    stored = _store(tmp_path, dict(cert, h="lmcut"), layers)
    verdict = check_certificate(inst, stored, tmp_path)
    assert verdict.ok and verdict.claim == "no solution with <= 23 moves", verdict.reason
    verdict = check_certificate(inst, dict(stored, h="fill"), tmp_path)
    assert not verdict.ok and "in no layer" in verdict.reason


def test_kernel_plan_shortcut_decides_as_the_reference():
    """Budgets around the length of the layer plan (docs/lm-cut.md, Lemma UP) on states of the
    6x6 flip, where the plan decides most of them: the same decisions as the reference."""
    from coinsat.theory.relaxed import relaxed_plan

    inst = read_instance(ROOT / "instances" / "families" / "diagonal-6.toml")
    nbr, goal = inst.board.neighbour_masks, inst.goal_configurations[0].mask
    alive = [x for x in _reachable(inst, 4) if relaxed_plan(nbr, inst.d, x, goal) is not None]
    sample = random.Random(6).sample(alive, min(120, len(alive)))
    assert len(sample) >= 40
    dec, lm = _kernel(inst)
    ranks = _ranks(dec, sample, inst.board.size, inst.n_coins)
    want = _reference(inst, sample)
    plans = [len(relaxed_plan(nbr, inst.d, x, goal) or ()) for x in sample]
    for shift in (-2, 0, 2):
        for i, budget in enumerate(p + shift for p in plans):
            assert_decides(lm.h(ranks[i : i + 1], budget).tolist(), want[i : i + 1], budget)
