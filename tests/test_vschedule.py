"""The explicit V-to-diagonal schedule (coinsat/constructive/vschedule.py) against rules.py and
its closed form; the lemmas of docs/v-to-diagonal.md that each test checks are named."""

import pytest

from coinsat.constructive import construct
from coinsat.constructive.vschedule import (
    Schedule,
    ends,
    flip_length,
    schedule,
    schedule_length,
    solvable,
    step_costs,
)
from coinsat.errors import ConstructionError
from coinsat.families import diagonal_target, v_shape, vdiag
from coinsat.solution import Solution, verify
from coinsat.theory import vbound
from coinsat.theory.span import lattice_span

ALL = [(a, b, t) for a in range(1, 13) for b in range(0, a + 1) for t in ("nwse", "swne")]


def gamma(s):
    """The Γ chain of [0,s-1]^2 (local): every other cell of the left side then the top row."""
    path = [(0, y) for y in range(s)] + [(x, s - 1) for x in range(1, s)]
    return set(path[::2])


@pytest.mark.parametrize("a,b,target", ALL)
def test_theorem_l_schedule_replays_and_has_the_closed_form_length(a, b, target):
    """Theorem L (legality by Lemmas A, B, D; length): every V(a, b) with a, b <= 12."""
    inst = vdiag(a, b, target)
    if not solvable(a, b):
        with pytest.raises(ConstructionError, match="Lemma U"):
            schedule(a, b, target)
        assert schedule_length(a, b, target) is None
        return
    moves = schedule(a, b, target)
    board = inst.board
    sol = Solution.of((board.cell(s), board.cell(d)) for s, d in moves)
    assert verify(inst, sol, keep_trace=False).ok  # rules.py, move by move
    assert len(moves) == schedule_length(a, b, target)


@pytest.mark.parametrize("a,b", [(a, b) for a in range(1, 16) for b in range(0, a + 1)])
def test_lemma_u_unsolvable_exactly_when_the_goal_leaves_the_span(a, b):
    span = lattice_span("square", v_shape(a, b), 2)
    for target in ("nwse", "swne"):
        inside = set(diagonal_target(a + b + 2, target)) <= span
        assert inside == solvable(a, b) == (b >= a - 1)


def test_lemma_v_isolated_coins_sit_diagonally_off_alternate_top_corners():
    """Lemma V: coin j+1 of the order r1, l1, r2, l2, ... touches corner TR, TL, TR, ... of the
    bounding square of the block and the coins before it, diagonally."""
    for a in range(1, 30):
        for b in (a - 1, a):
            cells = v_shape(a, b)
            right = sorted((p for p in cells if p[1] >= 2 and p[0] > b + 1), key=lambda p: p[1])
            left = sorted((p for p in cells if p[1] >= 2 and p[0] < b), key=lambda p: p[1])
            order = [c for pair in zip(right, left + [None]) for c in pair if c is not None]
            assert len(order) == a + b
            box = [b, 0, b + 1, 1]
            for j, p in enumerate(order):
                x0, y0, x1, y1 = box
                assert p == ((x1 + 1, y1 + 1) if j % 2 == 0 else (x0 - 1, y1 + 1))
                box = [min(x0, p[0]), y0, max(x1, p[0]), p[1]]
                assert box[2] - box[0] == box[3] - box[1]  # a square, side j + 3


class Checked(Schedule):
    """A schedule that checks the invariant of Lemmas A and B after every absorbing step: the
    active coins are the Γ chain of the current square plus two helpers off the chain, and the
    coins not reached yet have not moved."""

    def _run(self, name, side, fn):
        super()._run(name, side, fn)
        if name not in ("A", "B"):
            return
        s = side + 1
        chain = {self.real(*c) for c in gamma(s)}
        helpers = set(self.helpers)
        assert len(helpers) == 2 and not helpers & chain
        inside = {p for p in self.occ if 0 <= self.local(p)[0] < s and 0 <= p[1] < s}
        assert inside == chain | helpers, (name, side)
        assert self.occ - inside <= set(v_shape(self.a, self.b))  # untouched isolated coins


@pytest.mark.parametrize("target", ["nwse", "swne"])
@pytest.mark.parametrize("b", [14, 15])
def test_lemmas_a_and_b_keep_the_gamma_chain_at_every_side_up_to_31(target, b):
    sched = Checked(15, b, target).run()
    seen = {(name, side % 2) for name, side, _ in sched.costs}
    # gadget A of both parities, gadget B of the parity of this target
    assert {("A", 0), ("A", 1)} & seen and ("B", 0 if target == "nwse" else 1) in seen


@pytest.mark.parametrize("target", ["nwse", "swne"])
def test_gadget_costs_are_those_of_lemmas_a_and_b(target):
    """Lemma A: 3 floor(s/2) moves, one fewer when a helper already stands on A2's cell (s = 2
    from the block; every A of NW-SE, after a B of even side); Lemma B: 3s for odd s; 3s + 1 for
    even s >= 4, 5 for s = 2 (from the block)."""
    for name, s, cost in step_costs(20, 20, target):
        if name == "A":
            assert cost == 3 * (s // 2) - (1 if s == 2 or target == "nwse" else 0)
        elif name == "B":
            assert cost == (3 * s if s % 2 else 5 if s == 2 else 3 * s + 1)


@pytest.mark.parametrize("k", range(2, 26))
def test_lemma_d_unzipping_a_gamma_chain_into_the_diagonal(k):
    """Lemma D alone: the Γ chain of [0,k]^2 plus the diagonal coins (i, i), k < i < m, with its
    helpers at E(k), unzips into the diagonal by gadget A's core moves reversed and the helper
    moves between them; rules.py replays it."""
    from coinsat.instance import make_instance

    m = k + 3
    sched = Schedule.__new__(Schedule)
    sched.mirror, sched.ox, sched.moves = False, 0, []
    helpers = list(ends(k))
    chain = gamma(k + 1) | {(i, i) for i in range(k + 1, m)}
    sched.occ = chain | set(helpers)
    sched.helpers = helpers
    start = sorted(sched.occ)
    sched.unzip(k)
    assert {(i, i) for i in range(m)} <= sched.occ
    inst = make_instance("square", start, sorted(sched.occ), margin=0)
    sol = Solution.of((inst.board.cell(s), inst.board.cell(d)) for s, d in sched.moves)
    assert verify(inst, sol, keep_trace=False).ok
    core = sum(3 * (s // 2) - 2 for s in range(2, k + 1))
    between = sum(1 if s in (2, 3) else 2 for s in range(2, k))
    assert len(sched.moves) == core + between


def test_closed_form_to_a_100_and_leading_term():
    for a in range(1, 101):
        for b in (a - 1, a):
            s = a + b + 2
            for t in ("nwse", "swne"):
                L = len(schedule(a, b, t)) if a in (1, 2, 37, 100) else None
                f = schedule_length(a, b, t)
                if L is not None:
                    assert L == f
                # Theorem L in the box side s = n - 2: 8 L = 15 s^2 + c1 s + c0
                c1, c0 = {("nwse", 0): (-54, 40), ("nwse", 1): (-24, 1), ("swne", 0): (-18, -32)}.get(
                    (t, a - b), (-48, 1)
                )
                assert 8 * f == 15 * s * s + c1 * s + c0 or (a, b, t) == (1, 0, "swne")


def test_construct_algorithm_vschedule_is_the_schedule():
    inst = vdiag(4, 3, "nwse")
    built, result = construct(inst, "vschedule")
    assert result.status.value == "feasible"
    assert result.length == schedule_length(4, 3, "nwse") == (15 * 16 + 3 * 4 - 2) // 2
    from coinsat.families import diagonal_flip, pinwheel

    assert construct(diagonal_flip(6), "vschedule")[1].length == flip_length(6)  # Theorem F's flip
    with pytest.raises(ConstructionError, match="not a V-to-diagonal puzzle nor a diagonal flip"):
        construct(pinwheel(3, "nwse"), "vschedule")
    assert result.lower_bound == vbound.best_bound(4, 3, "nwse") == 40  # Theorem RF beats LB's 36
    with pytest.raises(ConstructionError, match="Lemma U"):
        construct(vdiag(3, 1, "nwse"), "vschedule")


# --- the lower bound (coinsat/theory/vbound.py) -------------------------------------------------


@pytest.mark.parametrize("a,b", [(a, b) for a in range(1, 16) for b in (a - 1, a)])
def test_lemma_s_corner_layers(a, b):
    """Lemma S proves lower bounds on the span layers of the box's corners; they are the layers
    reach.layer_steps computes (equality is measured here, the lemma needs only >=)."""
    from coinsat.theory.reach import SpanLayers
    from coinsat.theory.vbound import corner_layers

    inst = vdiag(a, b, "nwse")
    layers = SpanLayers(inst).layer
    s = a + b + 2
    where = {"BL": (0, 0), "BR": (s - 1, 0), "TL": (0, s - 1), "TR": (s - 1, s - 1)}
    got = {k: layers[inst.board.cell(p)] for k, p in where.items()}
    assert got == corner_layers(a, b)


def stored_optima():
    """Proven optima of the V family and the flips, from the stored runs: the largest lower
    bound any run proved equals the shortest verified solution."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    data = json.loads((root / "benchmarks/vfamily_results.json").read_text())
    out = {}
    for entry in data.values():
        runs = entry["runs"].values()
        lengths = [r["length"] for r in runs if r.get("length")]
        lows = [r.get("lower_bound") or 0 for r in runs]
        if lengths and max(lows) == min(lengths):
            out[(entry["a"], entry["b"], entry["target"])] = min(lengths)
    return out


def test_theorem_lb_is_below_every_proven_optimum_and_l_above():
    from coinsat.theory.reach import lower_bound as static
    from coinsat.theory.vbound import lower_bound

    optima = stored_optima()
    assert len(optima) >= 12  # V(1,1) ... V(4,3), both targets
    for (a, b, target), opt in optima.items():
        assert lower_bound(a, b, target) <= opt <= schedule_length(a, b, target)
        assert lower_bound(a, b, target) <= static(vdiag(a, b, target))


def test_theorem_lb_grows_like_half_s_squared():
    from coinsat.theory.vbound import lower_bound

    for a in range(1, 101):
        for b in (a - 1, a):
            s = a + b + 2
            for t in ("nwse", "swne"):
                lb = lower_bound(a, b, t)
                assert (s - 2) * (s - 3) // 2 <= lb <= s * s // 2
    assert schedule_length(100, 100, "nwse") / lower_bound(100, 100, "nwse") < 3.75


# --- Theorem RF, the row-filling bound (coinsat/theory/vbound.py) --------------------------------


def test_theorem_rf_closed_form_is_the_sum_and_grows_like_three_quarters_s_squared():
    for a in range(1, 201):
        for b in (a - 1, a):
            s = a + b + 2
            for t in ("nwse", "swne"):
                rf = vbound.row_filling_bound(a, b, t)
                assert rf == vbound.row_filling_closed(a, b, t)
                if a + b >= 2:  # RF >= LB, strictly from J = 5 on (docs/v-to-diagonal.md §3)
                    lb = vbound.lower_bound(a, b, t)
                    assert rf > lb if a + b >= 5 else rf >= lb
                if a + b >= 6:
                    assert 3 * s * s / 4 - 5 * s <= rf <= 3 * s * s / 4
    assert (vbound.row_filling_bound(18, 18, "swne"), vbound.row_filling_bound(18, 18, "nwse")) == (975, 922)


@pytest.mark.parametrize("a,b", [(a, b) for a in range(1, 13) for b in (a - 1, a) if a + b >= 2])
@pytest.mark.parametrize("target", ["nwse", "swne"])
def test_theorem_rf_lemmas_hold_on_the_schedule(a, b, target):
    """Lemmas P, T, R and Q, move by move, on the schedule (a legal solution, Theorem L), and the
    moves Theorem RF counts are distinct and at least its bound."""
    moves = schedule(a, b, target)
    got = vbound.check_row_filling(a, b, target, moves)
    assert got["bound"] <= got["counted"] <= len(moves)


def test_the_lemma_checker_builds_the_v_and_its_targets_as_families_does():
    for a in range(1, 9):
        for b in (a - 1, a):
            assert sorted(vbound.v_cells(a, b)) == sorted(v_shape(a, b))
            for t in ("nwse", "swne"):
                assert sorted(vbound.target_cells(a + b + 2, t)) == sorted(diagonal_target(a + b + 2, t))


def test_theorem_rf_lemmas_hold_on_every_stored_v_solution():
    """The same on every stored solution of the V family (the proven optima among them): replayed
    by rules.py first, then checked lemma by lemma."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "instances/families/solutions"
    checked = 0
    for f in sorted(root.glob("vdiag-*.json")):
        _, a, b, target = f.stem.split("-")
        inst = vdiag(int(a), int(b), target)
        moves = [(tuple(u), tuple(v)) for u, v in json.loads(f.read_text())["moves"]]
        cells = [(inst.board.cell(u), inst.board.cell(v)) for u, v in moves]
        assert verify(inst, Solution.of(cells)).ok
        if int(a) + int(b) >= 2:
            got = vbound.check_row_filling(int(a), int(b), target, moves)
            assert got["bound"] <= got["counted"] <= len(moves)
            checked += 1
    assert checked >= 14


def test_the_lemma_checker_rejects_a_solution_that_breaks_a_lemma():
    """Lemma P's budget: a replay that leaves five adjacent pairs is refused (the checker is not
    vacuous); so is one that does not end on the target."""
    moves = schedule(2, 2, "swne")
    with pytest.raises(ValueError, match="do not end on the target"):
        vbound.check_row_filling(2, 2, "swne", moves[:-1])
    with pytest.raises(ValueError, match="Lemma P"):  # V(2,2)'s block plus a fifth adjacent coin
        vbound.check_row_filling(2, 2, "swne", [((4, 2), (4, 0))] + moves)


def test_theorem_rf_is_below_every_proven_optimum():
    optima = stored_optima()
    for (a, b, target), opt in optima.items():
        assert vbound.best_bound(a, b, target) <= opt


# --- where the paper's proof breaks ----------------------------------------------------------------


@pytest.mark.parametrize("member", ["vdiag-3-3-nwse", "vdiag-4-3-nwse", "vdiag-3-3-swne", "vdiag-4-3-swne"])
def test_exhibit_optimal_solutions_absorb_without_a_chain_to_the_opposite_corner(member):
    """The paper's step 'the active component must be a chain from the near corner to the
    opposite corner' fails in the proven-optimal solutions: at every absorption after the first
    the opposite corner of the active square is empty."""
    import json
    from pathlib import Path

    from coinsat.constructive.vschedule import absorptions
    from coinsat.io.instance_format import read_instance
    from coinsat.io.solution_format import read_solution

    root = Path(__file__).resolve().parent.parent / "instances/families"
    inst = read_instance(root / f"{member}.toml")
    inst, sol = read_solution(inst, root / "solutions" / f"{member}.json")
    assert verify(inst, sol, keep_trace=False).ok
    a, b, target = (int(member.split("-")[1]), int(member.split("-")[2]), member.split("-")[3])
    assert (a, b, target) in stored_optima()
    moves = json.loads((root / "solutions" / f"{member}.json").read_text())["moves"]
    records = absorptions(a, b, moves)
    assert len(records) >= a + b - 1  # the last coin may end the diagonal untouched
    assert all(r.near for r in records)  # the coin is absorbed at an occupied corner
    assert not any(r.opposite or r.chain for r in records[1:])


def test_the_schedule_never_flips():
    """The Γ chain joins the same two corners of its square all along (BL-TR for SW-NE, read
    mirrored for NW-SE): at the absorptions off one top corner it is the paper's chain from the
    near corner to the opposite one, at those off the other top corner the opposite corner is
    empty.  The corners the paper says must alternate never do."""
    from coinsat.constructive.vschedule import absorptions

    for t in ("nwse", "swne"):
        records = absorptions(6, 6, schedule(6, 6, t))
        assert [r.corner for r in records] == (["TR", "TL"] * 6)[: len(records)]
        assert len(records) >= 11  # the last coin may end the diagonal untouched (Lemma D)
        chained = {r.corner for r in records[1:] if r.chain}
        assert chained == {"TL" if t == "nwse" else "TR"}
        assert not any(r.opposite for r in records[1:] if r.corner not in chained)


# --- the flip lemma and the pinwheel -----------------------------------------------------------------


@pytest.mark.parametrize("k", range(3, 26))
def test_theorem_f_flip_schedule_replays_with_its_closed_form(k):
    from coinsat.constructive.vschedule import flip_length, flip_schedule
    from coinsat.families import diagonal_flip

    inst = diagonal_flip(k)
    moves = flip_schedule(k)
    sol = Solution.of((inst.board.cell(s), inst.board.cell(d)) for s, d in moves)
    assert verify(inst, sol, keep_trace=False).ok
    assert len(moves) == flip_length(k)
    assert abs(4 * flip_length(k) - 9 * k * k) <= 10 * k + 16 or k == 3  # (9/4) k^2 + O(k)


@pytest.mark.parametrize("a", range(1, 8))
def test_pinwheel_order_tr_tl_is_the_v(a):
    from coinsat.families import pinwheel

    for target in ("nwse", "swne"):
        for b in (a - 1, a):
            pw, v = pinwheel(a + b, target, order=("TR", "TL")), vdiag(a, b, target)
            assert (pw.start, pw.goal, pw.board) == (v.start, v.goal, v.board)


def test_pinwheel_cycles_the_four_corners_and_the_files_are_the_generator():
    from pathlib import Path

    from coinsat.families import pinwheel, pinwheel_shape
    from coinsat.io.instance_format import read_instance

    cells = pinwheel_shape(8)
    assert len(cells) == 12 and max(x for x, _ in cells) == max(y for _, y in cells) == 9
    root = Path(__file__).resolve().parent.parent / "instances/families"
    files = sorted(root.glob("pinwheel-*.toml"))
    assert files
    for path in files:
        _, m, target = path.stem.split("-")
        made, stored = pinwheel(int(m), target), read_instance(path)
        assert (made.start, made.goal, made.board) == (stored.start, stored.goal, stored.board)


def test_cli_family_pinwheel(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "p.toml"
    r = subprocess.run(
        [sys.executable, "-m", "coinsat", "family", "pinwheel", "--m", "5", "--target", "swne", "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert "pinwheel-5-swne" in r.stdout and out.exists()


@pytest.mark.parametrize("member", ["vdiag-3-3-nwse", "vdiag-4-3-nwse", "vdiag-4-3-swne"])
def test_lemma_w_on_every_move_of_the_optima_and_the_schedule(member):
    """Lemma W (the lower bound's base): after move t every coin lies in the span layer R_t, and
    the cell filled by move t has two neighbours in R_{t-1}."""
    import json
    from pathlib import Path

    from coinsat.theory.reach import SpanLayers

    a, b, target = int(member.split("-")[1]), int(member.split("-")[2]), member.split("-")[3]
    root = Path(__file__).resolve().parent.parent / "instances/families/solutions"
    inst = vdiag(a, b, target)
    board, layer = inst.board, SpanLayers(inst).layer
    for moves in (json.loads((root / f"{member}.json").read_text())["moves"], schedule(a, b, target)):
        occ = set(v_shape(a, b))
        for t, (src, dst) in enumerate(moves, 1):
            src, dst = tuple(src), tuple(dst)
            held = [q for q in geometry_neighbours(dst) if q in occ and q != src]
            assert sum(layer[board.cell(q)] <= t - 1 for q in held) >= 2
            occ.remove(src)
            occ.add(dst)
            assert all(layer[board.cell(q)] <= t for q in occ)


def geometry_neighbours(p):
    x, y = p
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def test_flip_bfile_terms_are_below_theorem_f_and_match_the_stored_optima():
    """benchmarks/flip-optima.txt (the b-file): each term is at most Theorem F's length and equals
    the optimum the exact engines stored in benchmarks/diagonal_flips.json."""
    import json
    from pathlib import Path

    from coinsat.constructive.vschedule import flip_length

    root = Path(__file__).resolve().parent.parent
    lines = (root / "benchmarks/flip-optima.txt").read_text().splitlines()
    terms = {int(k): int(v) for k, v in (line.split() for line in lines if line and not line.startswith("#"))}
    assert sorted(terms) == list(range(3, 3 + len(terms))) and len(terms) >= 6
    stored = json.loads((root / "benchmarks/diagonal_flips.json").read_text())
    for k, value in terms.items():
        assert value <= flip_length(k)
        lengths = [r["length"] for r in stored[str(k)]["runs"].values() if r.get("status") == "optimal"]
        assert lengths and all(x == value for x in lengths)
