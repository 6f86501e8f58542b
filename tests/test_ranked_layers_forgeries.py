"""Forged ranked and word layers certificates against the checker.

Each forgery is built the way an adversary would: with the checker's own decoder and kernel
(coinsat.certificates.check.ranked, whose code a forger can read), the layers file re-hashed and
the instance digest recomputed, so only the checker's reasoning stands between the file and an
accepted false claim.  Most forgeries are rejected and stay here as regression tests; the ones
the checker accepted are the bugs fixed with them (the rank overflow).  A few changes that keep
the claim true (an unreachable state added to the last layer, a bound U lowered to the horizon,
a window that is not closed) must be accepted: the checker may not reject a true claim either.

The perimeter "edge cap" (ranked.edge_cap) is checked here as the checker uses it: exhaustively
on every subset of small windows, closed or not, with the closure taken inside the window, and
through ``Kernel.successors`` (the cap may skip a closure, never change the successors).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.format import cell_json, header, instance_digest
from coinsat.certificates.check.ranked import Decoder, Kernel, edge_cap
from coinsat.certificates.prove.make import certify
from coinsat.cli import main
from coinsat.instance import Instance, make_instance
from coinsat.rules import apply_move, legal_moves
from coinsat.solve import solve

U64 = np.uint64

# 3 x 3 diagonal plus the two other centre-column coins: optimum 6 (as in test_certificate_claims).
DIAG3 = make_instance(
    "square", [(0, 0), (1, 1), (2, 2), (1, 2), (2, 1)], [(0, 2), (1, 1), (2, 0), (1, 2), (2, 1)], name="diag3"
)


# --- the forger's tools ---------------------------------------------------------------------------


def _forge(tmp: Path, inst: Instance, cells: list, layers: list[np.ndarray], claim: str, **fields) -> dict:
    """A ranked layers certificate for ``inst`` over ``cells`` with these layers (sorted ranks),
    hashed and bound to the instance's digest, as any builder would write it."""
    buf = io.BytesIO()
    np.savez_compressed(buf, **{f"L{i}": np.diff(layer, prepend=U64(0)) for i, layer in enumerate(layers)})
    name = f"forged-{len(list(tmp.iterdir()))}.npz"
    (tmp / name).write_bytes(buf.getvalue())
    cert = header(inst, "layers", "horizon", claim)
    cert.update(
        cells=[cell_json(c) for c in cells],
        horizon=len(layers) - 1,
        layers=name,
        layers_sha256=hashlib.sha256(buf.getvalue()).hexdigest(),
        encoding="rank",
    )
    cert.update(fields)
    return cert


def _cells(cert: dict) -> list:
    return [tuple(c) for c in cert["cells"]]


def _positions(inst: Instance, cells: list, placement) -> list[int]:
    index = {c: i for i, c in enumerate(cells)}
    return sorted(index[inst.board.coords[c]] for c in placement.cells)


def _need(inst: Instance, cells: list, ker: Kernel) -> list[np.ndarray]:
    goals = [_positions(inst, cells, g) for g in inst.goal_configurations]
    spans = ker.span(ker.words(np.array(goals, dtype=np.int64)))
    return [spans[:, i : i + 1] for i in range(spans.shape[1])]


def _asked(inst: Instance, cells: list, layer: np.ndarray) -> np.ndarray:
    """The successors of ``layer`` the checker asks for (those that span a goal span), as ranks."""
    dec, ker = Decoder(len(cells), len(inst.start)), Kernel(inst, cells)
    pos = dec.positions(layer)
    words = ker.words(pos)
    need = _need(inst, cells, ker)
    whole = ker.reaches(words, need)[0]
    tables = dec.tables(pos)
    parts = [dec.moved(tables, rows, j, p, m) for j, rows, p, m in ker.successors(pos, words, need, whole)]
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=U64)


def _goal_rank(inst: Instance, cells: list) -> int:
    return int(Decoder(len(cells), len(inst.start)).ranks(np.array([_positions(inst, cells, inst.goal)]))[0])


@pytest.fixture(scope="module")
def ranked(tmp_path_factory):
    """DIAG3's true ranked certificate (optimal 6: L0..L5) and its layers, decoded."""
    d = tmp_path_factory.mktemp("ranked")
    done = certify(DIAG3, solve(DIAG3, "rankbfs", symmetry=False), d)
    assert done.check.ok and done.check.claim == "optimal: 6 moves (no solution with <= 5 moves)"
    cert = json.loads(done.path.read_text())
    assert cert["encoding"] == "rank" and cert["horizon"] == 5
    with np.load(d / cert["layers"]) as z:
        layers = [np.cumsum(z[f"L{i}"], dtype=U64) for i in range(6)]
    return cert, layers


def _verdict(tmp: Path, inst: Instance, cells: list, layers: list[np.ndarray], claim: str, **fields):
    return check_certificate(inst, _forge(tmp, inst, cells, layers, claim, **fields), tmp)


# --- forgeries of the layers ------------------------------------------------------------------------


def test_the_forger_reproduces_the_true_certificate(ranked, tmp_path):
    """The forging tools are right: the true layers, rewritten by them, are accepted."""
    cert, layers = ranked
    v = _verdict(tmp_path, DIAG3, _cells(cert), layers, "no solution with <= 5 moves")
    assert v.ok and v.claim == "no solution with <= 5 moves", v.reason


def test_a_bound_one_higher_is_rejected(ranked, tmp_path):
    """Claim 'no solution with <= 6 moves' (the optimum is 6): L6 holds every successor of L5
    the checker asks for except the goal."""
    cert, layers = ranked
    cells = _cells(cert)
    asked = _asked(DIAG3, cells, layers[5])
    goal = _goal_rank(DIAG3, cells)
    assert goal in asked.tolist()  # the goal is a successor of L5: the forgery has to leave it out
    v = _verdict(tmp_path, DIAG3, cells, layers + [asked[asked != goal]], "no solution with <= 6 moves")
    assert not v.ok and "in no layer up to L6" in v.reason
    # with the goal in L6 it is rejected for the goal
    v = _verdict(tmp_path, DIAG3, cells, layers + [asked], "no solution with <= 6 moves")
    assert not v.ok and "goal" in v.reason


@pytest.mark.parametrize("i", [1, 3, 5])
def test_a_layer_with_a_state_missing_or_emptied_is_rejected(ranked, tmp_path, i):
    cert, layers = ranked
    cells = _cells(cert)
    missing = [layer if j != i else layer[:-1] for j, layer in enumerate(layers)]
    v = _verdict(tmp_path, DIAG3, cells, missing, "no solution with <= 5 moves")
    assert not v.ok and f"in no layer up to L{i}" in v.reason
    emptied = [layer if j < i else np.zeros(0, dtype=U64) for j, layer in enumerate(layers)]
    v = _verdict(tmp_path, DIAG3, cells, emptied, "no solution with <= 5 moves")
    assert not v.ok and f"in no layer up to L{i}" in v.reason


def test_extra_states_are_harmless_at_the_end_and_checked_inside(ranked, tmp_path):
    """An unreachable state adds nothing to the claim: accepted in the last layer (nothing is
    asked of it there), rejected inside when its own successors are missing."""
    cert, layers = ranked
    cells = _cells(cert)
    seen = set(np.concatenate(layers).tolist()) | {_goal_rank(DIAG3, cells)}
    dec = Decoder(len(cells), len(DIAG3.start))
    extra = next(r for r in range(dec.size) if r not in seen and _asked(DIAG3, cells, np.array([r], U64)).size)
    last = layers[:5] + [np.union1d(layers[5], np.array([extra], U64))]
    assert _verdict(tmp_path, DIAG3, cells, last, "no solution with <= 5 moves").ok
    inside = [np.union1d(layers[0], np.array([extra], U64))] + layers[1:]
    v = _verdict(tmp_path, DIAG3, cells, inside, "no solution with <= 5 moves")
    assert not v.ok and ("L0 is not" in v.reason or "in no layer" in v.reason)
    inside = layers[:2] + [np.union1d(layers[2], np.array([extra], U64))] + layers[3:]
    if not set(_asked(DIAG3, cells, np.array([extra], U64)).tolist()) <= set(np.concatenate(layers[:4]).tolist()):
        assert not _verdict(tmp_path, DIAG3, cells, inside, "no solution with <= 5 moves").ok


@pytest.mark.parametrize(
    "change, why",
    [
        (lambda ls: [ls[0]] + [ls[1][::-1]] + ls[2:], "not a sorted set"),  # unsorted
        (lambda ls: [ls[0]] + [np.repeat(ls[1], 2)] + ls[2:], "not a sorted set"),  # duplicates
        (lambda ls: ls[:5] + [np.append(ls[5], U64(math.comb(9, 5)))], "below C(9, 5)"),  # rank past the end
        (lambda ls: [ls[1][:1]] + ls[1:], "L0 is not {start}"),  # another start
        (lambda ls: ls[:3], "horizon"),  # fewer layers than the horizon: see the test body
    ],
)
def test_malformed_rank_layers_are_rejected(ranked, tmp_path, change, why):
    cert, layers = ranked
    cells = _cells(cert)
    forged = _forge(tmp_path, DIAG3, cells, change(layers), "no solution with <= 5 moves")
    if why == "horizon":
        forged["horizon"] = 5  # the file holds L0..L2 only
        why = "malformed"
    v = check_certificate(DIAG3, forged, tmp_path)
    assert not v.ok and why in v.reason


def test_the_digest_the_instance_and_the_file_are_bound(ranked, tmp_path):
    cert, layers = ranked
    cells = _cells(cert)
    forged = _forge(tmp_path, DIAG3, cells, layers, "no solution with <= 5 moves")
    assert not check_certificate(DIAG3, dict(forged, instance={"name": "x", "digest": "0" * 64}), tmp_path).ok
    # the same layers for another instance (same start, a goal one move away), digest recomputed
    move = next(iter(legal_moves(DIAG3.board, DIAG3.start, 2)))
    near = apply_move(DIAG3.board, DIAG3.start, move, 2)
    other = make_instance(
        "square", [DIAG3.board.coords[c] for c in DIAG3.start.cells], [DIAG3.board.coords[c] for c in near.cells]
    )
    v = check_certificate(other, dict(forged, instance={"name": "other", "digest": instance_digest(other)}), tmp_path)
    assert not v.ok and "goal" in v.reason
    # a truncated zip, re-hashed: rejected as malformed (and by the command line: exit 1, one line)
    path = tmp_path / forged["layers"]
    data = path.read_bytes()[: len(path.read_bytes()) // 2]
    path.write_bytes(data)
    cut = dict(forged, layers_sha256=hashlib.sha256(data).hexdigest())
    v = check_certificate(DIAG3, cut, tmp_path)
    assert not v.ok and "malformed" in v.reason


def test_a_truncated_layers_file_on_the_command_line(ranked, tmp_path, capsys):
    cert, layers = ranked
    forged = _forge(tmp_path, DIAG3, _cells(cert), layers, "no solution with <= 5 moves")
    path = tmp_path / forged["layers"]
    data = path.read_bytes()[:-40]
    path.write_bytes(data)
    forged["layers_sha256"] = hashlib.sha256(data).hexdigest()
    (tmp_path / "diag3.toml").write_text(
        'name = "diag3"\nboard = "square"\n'
        'start = """\n. o o\n. o o\no . .\n"""\ngoal = """\no o .\n. o o\n. . o\n"""\n'
    )
    (tmp_path / "c.json").write_text(json.dumps(forged))
    assert main(["check-certificate", str(tmp_path / "diag3.toml"), str(tmp_path / "c.json")]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err and "malformed" in out.out + out.err


# --- forgeries of the claim ---------------------------------------------------------------------


def _detour(inst: Instance, moves: list) -> list:
    """The solution with a move and its reverse put in front (two moves longer, still legal)."""
    b = inst.board
    for s, p in legal_moves(b, inst.start, inst.d):
        after = apply_move(b, inst.start, (s, p), inst.d)
        if (p, s) in set(legal_moves(b, after, inst.d)):
            c = b.coords
            return [[cell_json(c[s]), cell_json(c[p])], [cell_json(c[p]), cell_json(c[s])]] + moves
    raise AssertionError("no reversible first move")


def test_an_optimal_claim_needs_the_solution_one_past_the_bound(ranked, tmp_path):
    cert, layers = ranked
    cells = _cells(cert)
    solution = cert["solution"]
    assert len(solution) == 6
    v = _verdict(tmp_path, DIAG3, cells, layers, "optimal: 6 moves (no solution with <= 5 moves)", solution=solution)
    assert v.ok
    longer = _detour(DIAG3, solution)
    v = _verdict(tmp_path, DIAG3, cells, layers, "optimal: 8 moves (no solution with <= 7 moves)", solution=longer)
    assert not v.ok and "does not imply" in v.reason
    v = _verdict(tmp_path, DIAG3, cells, layers, "a solution of 8 moves (no solution with <= 5 moves)", solution=longer)
    assert v.ok  # true, and weaker than what is proven
    v = _verdict(
        tmp_path, DIAG3, cells, layers[:5], "optimal: 6 moves (no solution with <= 5 moves)", solution=solution
    )
    assert not v.ok  # a bound of 4 does not make 6 optimal
    v = _verdict(
        tmp_path, DIAG3, cells, layers, "optimal: 5 moves (no solution with <= 4 moves)", solution=solution[:5]
    )
    assert not v.ok and "not one" in v.reason
    v = _verdict(
        tmp_path, DIAG3, cells, layers, "optimal: 6 moves (no solution with <= 5 moves)", solution=solution[::-1]
    )
    assert not v.ok and "not one" in v.reason
    v = _verdict(tmp_path, DIAG3, cells, layers, "no solution with <= 5 moves", scope="global")
    assert not v.ok and "scope" in v.reason


def test_a_pruned_certificate_is_held_to_its_bound(tmp_path):
    """Layers pruned with U = 7 prove the bound 5 with any U >= 5 (the argument holds for every
    U >= T: a lower U only asks for fewer successors, all on paths no longer than U); a bound
    of 6 with U = 6 still asks for the goal."""
    done = certify(DIAG3, solve(DIAG3, "rankbfs", upper_bound=7, symmetry=False), tmp_path / "u7")
    assert done.check.ok, done.check.reason
    cert = json.loads(done.path.read_text())
    with np.load(tmp_path / "u7" / cert["layers"]) as z:
        layers = [np.cumsum(z[f"L{i}"], dtype=U64) for i in range(6)]
    cells = _cells(cert)
    claim = "no solution with <= 5 moves"
    assert _verdict(tmp_path / "u7", DIAG3, cells, layers, claim, upper_bound=5).ok
    v = _verdict(tmp_path / "u7", DIAG3, cells, layers, claim, upper_bound=4)
    assert not v.ok and "upper bound" in v.reason
    asked = _asked(DIAG3, cells, layers[5])
    goal = _goal_rank(DIAG3, cells)
    v = _verdict(
        tmp_path / "u7", DIAG3, cells, layers + [asked[asked != goal]], "no solution with <= 6 moves", upper_bound=6
    )
    assert not v.ok and "in no layer up to L6" in v.reason


def test_a_window_that_is_not_closed_changes_nothing(ranked, tmp_path):
    """The window may be any superset of span(start) (here with two cells that are not closed
    under the rule and one far away): the true layers, ranked over it, are accepted."""
    cert, layers = ranked
    cells = _cells(cert)
    wide = [(3, 0), (4, 1), (9, 9)] + cells  # every old position moves up by 3
    k = len(DIAG3.start)
    old, new = Decoder(len(cells), k), Decoder(len(wide), k)
    moved = [np.sort(new.ranks(old.positions(layer) + 3)) for layer in layers]
    assert moved[0].tolist() != layers[0].tolist()
    v = _verdict(tmp_path, DIAG3, wide, moved, "no solution with <= 5 moves")
    assert v.ok, v.reason


# --- ranks past 64 bits -------------------------------------------------------------------------


def test_ranks_that_do_not_fit_64_bits_are_refused(tmp_path):
    """A window of 256 cells with 16 coins has C(256, 16) > 2^64 subsets: colex ranks wrap (and
    the binomial table saturates), so a rank names no single configuration.  Before the fix the
    checker decoded such ranks anyway (the start's rank decodes to another set of cells) and
    accepted 'no solution with <= 1 moves' for a puzzle solved by one move, (4, 4) -> (1, 0)."""
    k = 16
    diagonal = [(i, i) for i in range(k)]
    goal = [c for c in diagonal if c != (4, 4)] + [(1, 0)]
    inst = make_instance("square", diagonal, goal)
    b = inst.board
    assert apply_move(b, inst.start, (b.cell((4, 4)), b.cell((1, 0))), 2) == inst.goal  # one legal move
    cells = sorted(b.coords, key=lambda c: (-c[0] - c[1], c))
    assert len(cells) == 256 and math.comb(len(cells), k) >= 1 << 64
    start = Decoder(len(cells), k).ranks(np.array([_positions(inst, cells, inst.start)]))
    asked = _asked(inst, cells, start)  # the successors of what the start's rank decodes to
    assert _goal_rank(inst, cells) not in asked.tolist() + start.tolist()
    v = _verdict(tmp_path, inst, cells, [start, asked], "no solution with <= 1 moves")
    assert not v.ok and "64 bits" in v.reason


# --- the perimeter edge cap, as the checker uses it -------------------------------------------------


def _windows() -> dict[str, list]:
    square = [(x, y) for x in range(4) for y in range(4)]
    return {
        "4x4": square,
        "L": [c for c in square if not (c[0] >= 2 and c[1] >= 2)],  # closed sets inside it need not be rectangles
        "U": [(x, y) for x in range(5) for y in range(3) if not (x == 2 and y >= 1)],
    }


@pytest.mark.parametrize("name", sorted(_windows()))
def test_edge_cap_holds_for_every_subset_of_a_window(name):
    """For every set A of a window X (closure taken inside X, as the checker's kernel does):
    E(A) <= the cap for |A| + 1 coins and the need cl_X(A) (the hardest need A can meet: every
    goal span inside cl_X(A) has smaller component boxes).  Tight for some A, so not vacuous."""
    cells = _windows()[name]
    inst = make_instance("square", [(0, 0), (1, 1)], [(0, 0), (1, 1)])
    ker = Kernel(inst, cells)
    n = len(cells)
    sets = np.arange(1 << n, dtype=U64)
    spans = ker.span(sets[None, :])[0]
    edges = np.zeros(sets.size, dtype=np.int64)
    for i in range(n):
        for j in range(i + 1, n):
            if abs(cells[i][0] - cells[j][0]) + abs(cells[i][1] - cells[j][1]) == 1:
                edges += ((sets >> U64(i)) & (sets >> U64(j)) & U64(1)).astype(np.int64)
    size = np.bitwise_count(sets).astype(np.int64)
    distinct, which = np.unique(spans, return_inverse=True)
    caps = np.array([edge_cap(cells, [np.array([[s]], dtype=U64)], 1) for s in distinct], dtype=np.int64)
    cap = 2 * size + caps[which]  # edge_cap(need, |A| + 1) = (4 |A| - perimeter) / 2 = 2 |A| + edge_cap(need, 1)
    assert (edges <= cap).all()
    assert (edges == cap).sum() > 100


@pytest.mark.parametrize("seed", range(3))
def test_edge_cap_never_changes_the_successors(seed):
    """Kernel.successors with the cap yields exactly what it yields without it, on windows that
    are and are not closed, with needs from random goals (one or two placements)."""
    rnd = random.Random(seed)
    windows = [[(x, y) for x in range(6) for y in range(5)], _windows()["L"] + [(5, 0), (5, 1), (6, 1)]]
    skipped = 0
    for cells in windows:
        inst = make_instance("square", [(0, 0), (1, 1)], [(0, 0), (1, 1)])
        ker = Kernel(inst, cells)
        for _ in range(20):
            k = rnd.randint(3, 8)
            pos = np.array(sorted(sorted(rnd.sample(range(len(cells)), k)) for _ in range(60)), dtype=np.int64)
            words = ker.words(pos)
            goals = [sorted(rnd.sample(range(len(cells)), rnd.randint(2, k))) for _ in range(rnd.randint(1, 2))]
            need = [ker.span(ker.words(np.array([g], dtype=np.int64))) for g in goals]
            whole = ker.reaches(words, need)[0]
            cap = edge_cap(cells, need, k)

            def moves(c):
                return {
                    (j, r, q)
                    for j, rows, p, _ in ker.successors(pos, words, need, whole, c)
                    for r, q in zip(rows.tolist(), p.tolist())
                }

            assert moves(cap) == moves(None)
            degree = [ker.count(ker.nbr[:, pos[:, j]] & words) for j in range(k)]
            edges = sum(degree) // 2
            skipped += sum(int(((degree[j] < 2) & (edges - degree[j] > cap)).sum()) for j in range(k))
    assert skipped > 50  # the cap did skip closures: the comparison is not vacuous


@pytest.mark.parametrize("size, d, coins", [(9, 2, (9, 18)), (6, 2, (6, 12)), (6, 3, (20, 28))])
def test_kept_successors_are_those_of_rules_that_span_a_goal(size, d, coins):
    """The whole keep logic of Kernel.successors (held coins, one closure per removed coin that
    stops at s, the edge cap) against rules.successors and a span computed here bit by bit, on
    windows of up to 81 cells (two words): every successor whose span contains a needed span,
    and no other."""
    from coinsat.rules import successors

    rnd = random.Random(size * 10 + d)
    board = [(x, y) for x in range(size) for y in range(size) if (x + y) % 2 == 0]  # spans (almost) the square
    inst = make_instance("square", board, board, adjacency=d)
    b = inst.board
    cells = list(b.coords)
    ker = Kernel(inst, cells)
    nbr = b.neighbour_masks

    def span(mask: int) -> int:
        while True:
            grown = mask
            for c in range(b.size):
                if not mask >> c & 1 and (nbr[c] & mask).bit_count() >= d:
                    grown |= 1 << c
            if grown == mask:
                return mask
            mask = grown

    kept = dropped = 0
    for _ in range(4):
        k = rnd.randint(*coins)
        goals = [sum(1 << c for c in rnd.sample(range(b.size), rnd.randint(2, k))) for _ in range(2)]
        needs = [span(g) for g in goals]
        need = [ker.split(n) for n in needs]
        pos = np.array([sorted(rnd.sample(range(b.size), k)) for _ in range(12)], dtype=np.int64)
        words = ker.words(pos)
        whole = ker.reaches(words, need)[0]
        got = {
            (r, int(sum(1 << int(c) for c in pos[r]) ^ (1 << int(pos[r, j])) | (1 << q)))
            for j, rows, p, _ in ker.successors(pos, words, need, whole, edge_cap(cells, need, k) if d == 2 else None)
            for r, q in zip(rows.tolist(), p.tolist())
        }
        want = set()
        for r in range(len(pos)):
            mask = sum(1 << int(c) for c in pos[r])
            for _, (y,) in successors(b, d, (mask,)):
                if any(span(y) & n == n for n in needs):
                    want.add((r, y))
                else:
                    dropped += 1
        assert got == want
        kept += len(want)
    assert kept > 20 and dropped > 20  # both answers occur: the comparison is not vacuous


# --- mutated certificates against an oracle ---------------------------------------------------------


def _small_instance(rnd: random.Random) -> tuple[Instance, int] | None:
    """A random square puzzle on a 4 x 4 start box with its bfs optimum (>= 2), or None."""
    from coinsat.result import Status

    cells = [(x, y) for x in range(4) for y in range(4)]
    start = rnd.sample(cells, rnd.randint(4, 7))
    placement = rnd.choice(["fixed", "fixed", "translate"])
    box = make_instance("square", start, start, goal_placement=placement)
    config = box.start
    for _ in range(rnd.randint(2, 9)):  # a goal some random moves away
        moves = legal_moves(box.board, config, 2)
        if not moves:
            return None
        config = apply_move(box.board, config, rnd.choice(moves), 2)
    inst = make_instance("square", start, [box.board.coords[c] for c in config.cells], goal_placement=placement)
    truth = solve(inst, "bfs")
    if truth.status is not Status.OPTIMAL or truth.solution is None or len(truth.solution) < 2:
        return None
    return inst, len(truth.solution)


def _words(cells: list, k: int, layers: list[np.ndarray]) -> list[np.ndarray]:
    """Ranked layers as spanbfs words over the same cells (bit i: a coin on cells[i])."""
    dec = Decoder(len(cells), k)
    return [np.unique(np.array([sum(1 << int(p) for p in row) for row in dec.positions(x)], U64)) for x in layers]


def _mutate(rnd, kind, inst, cells, layers, goals, opt):
    """One forgery of the layers (a list) or None when this kind does not apply here."""
    ls = [x.copy() for x in layers]
    if kind == "drop":  # a state missing
        i = rnd.randrange(1, len(ls))
        return None if ls[i].size == 0 else ls[:i] + [np.delete(ls[i], rnd.randrange(ls[i].size))] + ls[i + 1 :]
    if kind == "late":  # a successor of L_i moved to L_{i+2}
        i = rnd.randrange(len(ls))
        asked = np.setdiff1d(_asked(inst, cells, ls[i]), goals) if i + 2 < len(ls) else np.zeros(0, U64)
        if asked.size == 0:
            return None
        x = asked[rnd.randrange(asked.size)]
        ls = [np.setdiff1d(layer, [x]) for layer in ls]
        ls[i + 2] = np.union1d(ls[i + 2], [x])
        return ls
    if kind == "higher":  # one more layer: what is asked of the last one, goals left out
        return ls + [np.setdiff1d(_asked(inst, cells, ls[-1]), goals)]
    if kind == "empty":  # the layers past L_i claimed empty
        i = rnd.randrange(1, len(ls))
        return ls[:i] + [np.zeros(0, U64)] * (len(ls) - i)
    # "search": a search of its own that never lets a goal in, to the horizon opt (a false bound)
    ls, seen = [ls[0]], set(ls[0].tolist())
    for _ in range(opt):
        step = np.array(sorted(set(_asked(inst, cells, ls[-1]).tolist()) - seen - set(goals.tolist())), U64)
        seen |= set(step.tolist())
        ls.append(step)
    return ls


def _mutation_round(tmp_path: Path, seed: int, n: int) -> tuple[int, int]:
    """``n`` random puzzles, their true ranked certificates mutated five ways, written as ranks, as
    words and as ranks pruned with U = the horizon: every accepted forgery must state a true bound
    (below the bfs optimum)."""
    rnd = random.Random(seed)
    tried = accepted = 0
    while n > 0:
        found = _small_instance(rnd)
        if found is None:
            continue
        inst, opt = found
        n -= 1
        d = tmp_path / f"i{n}"
        done = certify(inst, solve(inst, "rankbfs", symmetry=False), d)
        assert done.check.ok and done.certificate.kind == "layers", done.check.reason
        cert = json.loads(done.path.read_text())
        cells, k = _cells(cert), len(inst.start)
        with np.load(d / cert["layers"]) as z:
            layers = [np.cumsum(z[f"L{i}"], dtype=U64) for i in range(cert["horizon"] + 1)]
        inside = [g for g in inst.goal_configurations if all(inst.board.coords[c] in cells for c in g.cells)]
        goals = np.unique(Decoder(len(cells), k).ranks(np.array([_positions(inst, cells, g) for g in inside])))
        for kind in ("drop", "late", "higher", "empty", "search"):
            forged = _mutate(rnd, kind, inst, cells, layers, goals, opt)
            if forged is None:
                continue
            claim = f"no solution with <= {len(forged) - 1} moves"
            for as_words, bound in ((False, None), (True, None), (False, len(forged) - 1)):
                cert = _forge(d, inst, cells, _words(cells, k, forged) if as_words else forged, claim)
                if as_words:
                    cert.pop("encoding")
                if bound is not None:  # pruned by h with U = the horizon: the fewest successors asked
                    cert["upper_bound"] = bound
                v = check_certificate(inst, cert, d)
                tried += 1
                accepted += v.ok
                assert not v.ok or len(forged) - 1 < opt, (kind, as_words, bound, inst, opt, claim)
    return tried, accepted


def test_mutated_certificates_never_prove_a_false_bound(tmp_path):
    tried, _ = _mutation_round(tmp_path, 22, 6)
    assert tried >= 60


@pytest.mark.slow
def test_mutated_certificates_never_prove_a_false_bound_long(tmp_path):
    tried, _ = _mutation_round(tmp_path, 2200, 300)
    assert tried >= 3000
