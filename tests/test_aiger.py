"""The AIGER export (encodings/aiger.md): the circuit's semantics against rules.py, the files
against ABC's reader, and BMC on the exported file against the SAT engine's optimum.

The semantic tests simulate the circuit in Python (no tool needed); the ABC tests skip
without ``berkeley-abc`` on a developer's machine and fail under CI (``.ci/run`` installs it).
"""

from __future__ import annotations

import itertools
import os
import random
import re
from pathlib import Path

import pytest

from coinsat.backends.abc import abc_binary, run_abc
from coinsat.configuration import Configuration
from coinsat.encode.aiger import Aig, build_aig, index_bits
from coinsat.export import export
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.rules import Move, check_move

PAPER = Path(__file__).resolve().parent.parent / "instances" / "paper"


def need_abc() -> None:
    if abc_binary() is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the ABC tests: .ci/run installs berkeley-abc")
        pytest.skip("ABC (berkeley-abc) is not installed")


# --- a simulator of the circuit ------------------------------------------------------------------


def simulate(aig: Aig, latches: list[int], inputs: list[int]) -> tuple[list[int], list[int]]:
    """(next latch values, output values) of one step."""
    ni = len(aig.inputs)
    val = {0: 0}
    for k, b in enumerate(inputs):
        val[k + 1] = b
    for k, b in enumerate(latches):
        val[ni + k + 1] = b

    def lit(x: int) -> int:
        return val[x >> 1] ^ (x & 1)

    for k, (r0, r1) in enumerate(aig.ands):
        val[ni + len(aig.latches) + k + 1] = lit(r0) & lit(r1)
    return [lit(nxt) for _, nxt in aig.latches], [lit(o) for _, o in aig.outputs]


def state_of(aig: Aig, instance, config: Configuration) -> list[int]:
    coins = dict(config.coins)
    out = []
    for cell, lab, flip in aig.meaning:
        value = coins.get(cell) == lab if lab is not None else cell in coins
        out.append(int(value) ^ int(flip))
    return out


def config_of(aig: Aig, instance, latches: list[int]) -> Configuration:
    labelled = any(lab is not None for _, lab, _ in aig.meaning)
    coins = {}
    for (cell, lab, flip), v in zip(aig.meaning, latches):
        if v ^ int(flip):
            coins[cell] = lab if labelled else "o"
    return Configuration(tuple(sorted(coins.items())))


def input_bits(instance, s: int, p: int) -> list[int]:
    k = index_bits(instance.board.size)
    return [s >> i & 1 for i in range(k)] + [p >> i & 1 for i in range(k)]


def random_instance(rng: random.Random):
    kind = rng.choice(["square", "triangular", "graph"])
    d = rng.choice([1, 2, 2, 3])
    if kind == "graph":
        n = rng.randint(4, 8)
        edges = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.45]
        edges += [(i, i + 1) for i in range(n - 1)]
        k = rng.randint(2, n - 1)
        start, goal = rng.sample(range(n), k), rng.sample(range(n), k)
        labels = rng.random() < 0.3
        if labels:
            labs = [rng.choice("AB") for _ in range(k)]
            return make_instance(
                "graph", dict(zip(start, labs)), dict(zip(goal, rng.sample(labs, k))), adjacency=d, edges=edges
            )
        return make_instance("graph", start, goal, adjacency=d, edges=edges)
    cells = [(x, y) for x in range(3) for y in range(3)]
    k = rng.randint(3, 5)
    start, goal = rng.sample(cells, k), rng.sample(cells, k)
    placement = rng.choice(["fixed", "fixed", "translate"])
    return make_instance(kind, start, goal, adjacency=d, goal_placement=placement, margin=1)


@pytest.mark.parametrize("seed", range(12))
def test_one_step_is_exactly_one_legal_move_or_a_stutter(seed):
    """Every input on a sample of states: the next state is the move's result when rules.py
    accepts it, the same state otherwise; the output is 1 exactly in a goal placement."""
    rng = random.Random(seed)
    inst = random_instance(rng)
    aig = build_aig(inst)
    N = inst.board.size
    k = index_bits(N)
    coins = inst.start.coins
    labs = [lab for _, lab in coins]
    for _ in range(6):
        cells = rng.sample(range(N), len(coins))
        config = Configuration(tuple(sorted(zip(cells, labs))))
        if rng.random() < 0.2:
            config = rng.choice(inst.goal_configurations)
        state = state_of(aig, inst, config)
        for s, p in itertools.product(range(1 << k), repeat=2):
            nxt, (out,) = simulate(aig, state, input_bits(inst, s, p))
            legal = s < N and p < N and check_move(inst.board, config, Move(s, p), inst.d) is None
            want = config.moved(s, p) if legal else config
            assert config_of(aig, inst, nxt) == want, (s, p)
            assert out == int(inst.is_goal(config))


def test_the_start_is_all_zero_and_the_counter_bounds_the_goal():
    inst = read_instance(PAPER / "h-to-o.toml")  # optimum 4
    for T in (3, 4):
        aig = build_aig(inst, T)
        state = [0] * len(aig.latches)
        assert config_of(aig, inst, state[: len(aig.meaning)]) == inst.start
        from coinsat.search.driver import solve_sat

        sol = solve_sat(inst).solution
        assert sol is not None and len(sol) == 4
        outs = []
        for s, p in list(sol.moves) + [(0, 0)] * 3:
            state, (out,) = simulate(aig, state, input_bits(inst, s, p))
            outs.append(out)
        # outs[i] is the output in the state after i steps: the goal holds from step 4 on, and
        # the output says so only while at most T steps were taken
        assert outs[:4] == [0, 0, 0, 0]
        assert outs[4] == int(T >= 4)
        assert outs[5:] == [0, 0]


def test_export_texts_agree_and_name_the_semantics():
    inst = read_instance(PAPER / "h-to-o.toml")
    text = export(inst, "aiger", None)
    binary = export(inst, "aig", None)
    assert text.startswith("aag ") and binary.startswith(b"aig ")
    assert text.split("\n", 1)[0][3:] == binary.split(b"\n", 1)[0][3:].decode()
    assert "never the goal" in text and "l0 occ(0,0)" in text
    assert text.split("\nc\n", 1)[1] == binary.split(b"\nc\n", 1)[1].decode()
    assert export(inst, "aiger", None) == text  # deterministic
    assert "within 7 steps" in export(inst, "aiger", 7)
    # the output is the bad signal (ABC asserts it when the goal is reached), not the property
    assert "output 0 (bad): 1 when the coins reach a goal placement within 7 steps;" in export(inst, "aiger", 7)


def test_labels_are_encoded():
    inst = make_instance("square", {(0, 0): "A", (1, 0): "B", (0, 1): "A"}, {(0, 0): "B", (1, 0): "A", (0, 1): "A"})
    aig = build_aig(inst)
    assert {lab for _, lab, _ in aig.meaning} == {"A", "B"}


def test_slides_are_refused():
    from coinsat.errors import UsageError

    inst = make_instance("triangular", [(0, 0), (1, 0), (0, 1)], [(0, 0), (1, 0), (1, 1)], moves="slide")
    with pytest.raises(UsageError):
        export(inst, "aiger", None)


# --- ABC ------------------------------------------------------------------------------------------


def bmc_frame(aig_bytes: bytes, frames: int) -> int | None:
    run = run_abc(aig_bytes, [f"bmc3 -F {frames}"], time_limit=120)
    m = re.search(r"asserted in frame (\d+)", run.output)
    if m:
        return int(m.group(1))
    assert re.search(r"No output asserted in \d+ frames", run.output), run.output
    return None


def test_abc_reads_the_exported_file(tmp_path):
    need_abc()
    inst = read_instance(PAPER / "h-to-o.toml")
    data = export(inst, "aig", None)
    run = run_abc(data, ["print_stats"], time_limit=60)
    m = re.search(r"i/o =\s*(\d+)/\s*(\d+)\s+lat =\s*(\d+)", run.output)
    assert m, run.output
    aig = build_aig(inst)
    assert (int(m.group(1)), int(m.group(2)), int(m.group(3))) == (len(aig.inputs), 1, len(aig.latches))


SMALL = ["h-to-o", "swap5-a", "swap5-b", "rhomboid", "upside-down"]


@pytest.mark.parametrize("name", SMALL)
def test_bmc_on_the_export_finds_the_optimum(name):
    """BMC's first failing frame is the number of moves of a shortest solution inside the window:
    the SAT engine's optimum (instances/paper, small puzzles; all of them:
    scripts/model_checking_bench.py --sections bmc)."""
    need_abc()
    inst = read_instance(PAPER / f"{name}.toml")
    from coinsat.search.driver import solve_sat

    opt = solve_sat(inst).length
    assert opt is not None
    assert bmc_frame(export(inst, "aig", None), opt + 2) == opt
    assert bmc_frame(export(inst, "aig", opt - 1), opt + 2) is None  # the bounded variant
    assert bmc_frame(export(inst, "aig", opt), opt + 2) == opt


# --- the readers and the project's own BMC (no ABC needed) ------------------------------------------


def test_the_reader_gives_back_the_circuit_from_both_forms():
    """io/aiger.py's reader, written from the format (not the encoder), reads what was written."""
    from coinsat.io.aiger import read_aiger

    for name in ("h-to-o", "rhomboid"):
        inst = read_instance(PAPER / f"{name}.toml")
        for horizon in (None, 5):
            aig = build_aig(inst, horizon)
            text = read_aiger(export(inst, "aiger", horizon).encode(), "x.aag")
            binary = read_aiger(export(inst, "aig", horizon), "x.aig")
            assert text == binary
            ni, nl = len(aig.inputs), len(aig.latches)
            assert text.inputs == tuple(2 * (k + 1) for k in range(ni))
            assert [n for _, n, _ in text.latches] == [n for _, n in aig.latches]
            assert all(reset == 0 for _, _, reset in text.latches)
            assert [(a, b) for _, a, b in text.ands] == aig.ands and text.outputs == (aig.outputs[0][1],)
            assert text.input_names()[0] == "src0" and text.symbols["l0"].startswith("occ(")
            assert text.max_var == ni + nl + len(aig.ands)


@pytest.mark.parametrize(
    "data, where",
    [
        (b"aag 1 1 0 0 0\n", "x.aag:2"),  # the input line is missing
        (b"agg 1 1 0 0 0\n2\n", "x.aag:1"),
        (b"aag 1 1 0 1 0\n2\n9\n", "x.aag:3"),  # literal past 2M + 1
        (b"aag 2 1 0 1 0\n2\n4\n", "x.aag"),  # variable 2 is never defined
        (b"aag 3 1 0 1 2\n2\n6\n4 6 2\n6 4 2\n", "x.aag"),  # a loop of gates
        (b"aig 2 1 0 1 1\n4\n", "x.aag"),  # the binary gate section is cut
        (b"aag 1 0 1 0 0\n2 2 5\n", "x.aag:2"),  # a reset that is not 0, 1 or the latch
        (b"aag 1 1 0 0 0 0 0 1\n2\n", "x.aag:1"),  # justice properties
    ],
)
def test_a_malformed_file_names_the_file_and_line(data, where):
    from coinsat.errors import InstanceError
    from coinsat.io.aiger import read_aiger

    with pytest.raises(InstanceError) as e:
        read_aiger(data, "x.aag")
    assert str(e.value).startswith(where + ": "), str(e.value)


def test_the_reader_orders_gates_listed_out_of_order():
    from coinsat.backends.aigbmc import bmc
    from coinsat.io.aiger import read_aiger

    # latch 4 toggles: next = NOT(latch); output = latch AND input, its gate listed after the one it needs
    text = b"aag 4 1 1 1 2\n2\n4 5\n8\n8 6 2\n6 4 4\n"
    c = read_aiger(text, "x.aag")
    assert [lhs for lhs, _, _ in c.ands] == [6, 8]
    assert bmc(c, 5).failing_frame == 1  # the latch is 1 from frame 1 on


def test_bmc_sees_uninitialised_latches_and_constraints():
    from coinsat.backends.aigbmc import bmc
    from coinsat.io.aiger import read_aiger

    free = read_aiger(b"aag 1 0 1 1 0\n2 2 2\n2\n", "x.aag")  # a latch with a free start value
    assert bmc(free, 3).failing_frame == 0
    held = read_aiger(b"aag 2 1 1 0 0 1 1\n2\n4 4 4\n4\n3\n", "x.aag")  # bad = latch, constraint: input 0
    assert bmc(held, 3).failing_frame == 0
    never = read_aiger(b"aag 1 1 0 0 0 1 1\n2\n2\n3\n", "x.aag")  # bad = input, constraint: input is 0
    assert bmc(never, 3).failing_frame is None
    assert bmc(read_aiger(b"aag 0 0 0 1 0\n1\n", "x.aag"), 3).failing_frame == 0  # constant true
    assert bmc(read_aiger(b"aag 0 0 0 1 0\n0\n", "x.aag"), 3).failing_frame is None  # constant false


BMC_FAST = SMALL + ["o-to-h", "zero-extra", "one-extra"]
BMC_SLOW = ["diagonal", "pyramid-to-line", "tri2oline", "vee-2-2"]  # 2-60 CPU s each (model_checking.md)


def test_the_bmc_tests_cover_every_paper_puzzle():
    assert sorted(BMC_FAST + BMC_SLOW) == sorted(f.stem for f in PAPER.glob("*.toml"))


@pytest.mark.parametrize("fmt", ["aig", "aiger", "btor2"])
@pytest.mark.parametrize("name", BMC_FAST)
def test_our_bmc_on_the_exported_file_agrees_with_sat(name, fmt):
    """coinsat's BMC (the file read back, CaDiCaL): frames 0..L-1 clear, frame L fails, and the
    counterexample replays with rules.py in L moves; unsolvable puzzles: 0..30 clear."""
    from coinsat.search.driver import solve_sat
    from lab.bmc import check_export

    inst = read_instance(PAPER / f"{name}.toml")
    r = solve_sat(inst)
    opt = r.length if r.solution is not None else None
    assert opt is not None or r.status.value == "unsolvable"
    c = check_export(inst, opt, 30, fmt)
    assert c.problem is None and not c.answer.stopped
    assert c.answer.failing_frame == opt and c.replayed == opt


def test_check_export_reports_a_wrong_optimum():
    from lab.bmc import check_export

    inst = read_instance(PAPER / "h-to-o.toml")  # optimum 4
    assert "first failing frame 4" in (check_export(inst, 5, 30).problem or "")
    assert "no failing frame" in (check_export(inst, 3, 30).problem or "")
    assert "fails on an unsolvable" in (check_export(inst, None, 30).problem or "")


def test_btor2_is_the_same_transition_system():
    """The BTOR2 file read back (io/btor2.py) against the circuit: one step from sampled states and
    every input gives the same next occupancy and the same bad signal."""
    from coinsat.io.btor2 import read_btor2

    rng = random.Random(7)
    for _ in range(4):
        inst = random_instance(rng)
        if len(inst.labels) > 1:
            continue
        aig = build_aig(inst)
        c = read_btor2(export(inst, "btor2", None), "x.btor2")
        assert len(c.latches) == len(aig.latches) and len(c.inputs) == len(aig.inputs)
        assert [reset for _, _, reset in c.latches] == [int(flip) for _, _, flip in aig.meaning]
        for _ in range(5):
            cells = rng.sample(range(inst.board.size), inst.n_coins)
            config = Configuration(tuple(sorted((cell, "o") for cell in cells)))
            state = state_of(aig, inst, config)
            occ = [int(cell in config.cell_set) for cell, _, _ in aig.meaning]
            for s, p in itertools.product(range(1 << index_bits(inst.board.size)), repeat=2):
                bits = input_bits(inst, s, p)
                nxt, out = simulate(aig, state, bits)
                nxt2, out2 = simulate_circuit(c, occ, bits)
                assert nxt2 == [v ^ int(flip) for v, (_, _, flip) in zip(nxt, aig.meaning)] and out2 == out


def simulate_circuit(c, latches: list[int], inputs: list[int]) -> tuple[list[int], list[int]]:
    val = {0: 0}
    for lit, b in zip(c.inputs, inputs):
        val[lit >> 1] = b
    for (lit, _, _), b in zip(c.latches, latches):
        val[lit >> 1] = b

    def lit(x: int) -> int:
        return val[x >> 1] ^ (x & 1)

    for lhs, r0, r1 in c.ands:
        val[lhs >> 1] = lit(r0) & lit(r1)
    return [lit(n) for _, n, _ in c.latches], [lit(o) for o in c.properties]


def test_btor2_on_the_command_line(tmp_path, capsys):
    from coinsat.cli import main

    out = tmp_path / "h.btor2"
    assert main(["export", str(PAPER / "h-to-o.toml"), "--format", "btor2", "--horizon", "4", "-o", str(out)]) == 0
    text = out.read_text()
    assert "input 2 src" in text and "bad" in text and "goal_within_4" in text
    with pytest.raises(SystemExit) as e:
        main(["export", str(PAPER / "h-to-o.toml"), "--format", "btor2", "--horizon", "-1"])
    assert e.value.code == 2


def test_a_malformed_btor2_file_names_the_line():
    from coinsat.errors import InstanceError
    from coinsat.io.btor2 import read_btor2

    with pytest.raises(InstanceError, match=r"x.btor2:3: .*not in the subset"):
        read_btor2("1 sort bitvec 1\n2 input 1 a\n3 add 1 2 2\n", "x.btor2")
    with pytest.raises(InstanceError, match=r"x.btor2:2: node 5 is used before"):
        read_btor2("1 sort bitvec 1\n2 bad 5\n", "x.btor2")


@pytest.mark.slow
@pytest.mark.parametrize("name", BMC_SLOW)
def test_our_bmc_agrees_on_the_larger_paper_puzzles(name):
    """vee-2-2 is the puzzle ABC's bmc3 does not finish in 600 s (benchmarks/model_checking.md)."""
    from coinsat.search.driver import solve_sat
    from lab.bmc import check_export

    inst = read_instance(PAPER / f"{name}.toml")
    opt = solve_sat(inst).length
    assert opt is not None
    c = check_export(inst, opt, 30)
    assert c.problem is None and c.answer.failing_frame == opt and c.replayed == opt
