"""The HWMCC pack (coinsat/hwmcc.py, io/aiger19.py, backends/aigcheck.py; encodings/hwmcc-pack.md):
AIGER 1.9 files read back, witness traces that reach bad, Certifaiger witness circuits that pass
base and step, and tampered witnesses rejected."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from coinsat.backends.abc import abc_binary
from coinsat.backends.aigcheck import simulate, trace_problem, witness_checks
from coinsat.configuration import Configuration
from coinsat.encode.aiger import build_aig
from coinsat.errors import InstanceError
from coinsat.hwmcc import read_manifest, write_hwmcc_pack
from coinsat.io.aiger import read_aiger
from coinsat.io.aiger19 import aag_19, aig_19, circuit_of, read_btor2_trace, read_trace, with_invariant
from coinsat.io.btor2 import read_btor2
from coinsat.io.instance_format import read_instance
from coinsat.rules import check_move

ROOT = Path(__file__).resolve().parent.parent
ANSWERS = ROOT / "benchmarks" / "gallery_answers.json"
needs_abc = pytest.mark.skipif(abc_binary() is None, reason="berkeley-abc is not installed")


def test_an_aiger_19_file_has_its_property_in_the_bad_section_and_reads_back():
    inst = read_instance(ROOT / "instances" / "paper" / "h-to-o.toml")
    c = circuit_of(build_aig(inst, 4))
    text = aag_19(c)
    head = text.split("\n", 1)[0].split()
    assert head[0] == "aag" and len(head) == 10  # aag M I L O A B C J F
    M, I, L, O, A, B, C, J, F = map(int, head[1:])
    assert (O, B, C, J, F) == (0, 1, 0, 0, 0) and M == I + L + A
    for data in (text.encode(), aig_19(c)):
        back = read_aiger(data, "h.aig")
        assert back.outputs == () and back.bad == c.bad
        assert back.latches == c.latches and back.ands == c.ands and back.inputs == c.inputs
        assert back.symbols["b0"] == "goal_within_4" and back.symbols["i0"] == "src0"


@pytest.fixture(scope="module")
def h_to_o_pack(tmp_path_factory):
    out = tmp_path_factory.mktemp("pack")
    return write_hwmcc_pack(out, [ROOT / "instances" / "paper" / "h-to-o.toml"], ANSWERS)


def test_the_witness_trace_of_an_unsafe_file_reaches_bad_at_its_last_step(h_to_o_pack):
    out = h_to_o_pack.directory
    rows = {r.file: r for r in h_to_o_pack.rows}
    assert set(rows) == {f"coins-h-to-o{w}.{f}" for w in ("", "-within4", "-within3") for f in ("aig", "btor2")}
    assert {rows[f"coins-h-to-o{w}.aig"].expected for w in ("", "-within4")} == {"unsafe"}
    for name in ("coins-h-to-o", "coins-h-to-o-within4"):
        model = read_aiger((out / f"{name}.aig").read_bytes(), name)
        prop, init, frames = read_trace((out / f"{name}.cex").read_text(), len(model.inputs), len(model.latches))
        assert len(frames) == rows[f"{name}.aig"].depth + 1 == 5
        assert trace_problem(model, prop, init, frames) is None
        bads = [v[0] for v in simulate(model, init, frames)]
        assert bads == [0, 0, 0, 0, 1]  # a 4-move optimum: bad first at step 4
    # the BTOR2 twin and btorsim's witness, read back by coinsat's BTOR2 reader
    model = read_btor2((out / "coins-h-to-o.btor2").read_text(), "h.btor2")
    width = len(model.inputs) // 2
    frames = read_btor2_trace((out / "coins-h-to-o.btor2.cex").read_text(), [width, width], "h.btor2.cex")
    init = [reset for _, _, reset in model.latches]
    assert len(frames) == 5 and trace_problem(model, 0, init, frames) is None
    frames[1][0] ^= 1
    assert trace_problem(model, 0, init, frames) is not None
    manifest = read_manifest(out / "manifest.csv")
    assert [m["file"] for m in manifest] == [r.file for r in h_to_o_pack.rows]


def test_a_witness_trace_with_a_flipped_input_bit_is_rejected(h_to_o_pack):
    out = h_to_o_pack.directory
    model = read_aiger((out / "coins-h-to-o.aig").read_bytes(), "h")
    prop, init, frames = read_trace((out / "coins-h-to-o.cex").read_text(), len(model.inputs), len(model.latches))
    for bit in range(len(model.inputs)):
        tampered = [list(f) for f in frames]
        tampered[0][bit] ^= 1
        assert trace_problem(model, prop, init, tampered) is not None
    assert trace_problem(model, prop, [1] + init[1:], frames) is not None  # a latch off its reset


def test_a_malformed_witness_trace_names_its_line():
    with pytest.raises(InstanceError, match=r"w\.cex:4"):
        read_trace("1\nb0\n000\n01x\n.\n", 3, 3, "w.cex")
    with pytest.raises(InstanceError, match=r"w\.cex:1"):
        read_trace("0\nb0\n000\n010\n.\n", 3, 3, "w.cex")


# --- witness circuits, without ABC: the strongest invariant (the reachable set) -------------------


def _window_states(inst):
    """Every occupancy of the window (unlabeled), as frozensets of cells."""
    n = inst.board.size
    return [frozenset(c for c in range(n) if m >> c & 1) for m in range(1 << n)]


def _successors(inst, cells: frozenset) -> set[frozenset]:
    conf = Configuration.unlabeled(cells)
    out = {cells}  # the circuit's stutter
    for s, p in itertools.permutations(range(inst.board.size), 2):
        if check_move(inst.board, conf, (s, p), inst.d, inst.moves) is None:
            out.add(frozenset(cells - {s} | {p}))
    return out


def _brute_inductive(inst, inv: set[frozenset]) -> bool:
    """Is Inv and P inductive (one step of rules.py keeps it), judged state by state?"""
    goals = {g.cell_set for g in inst.goal_configurations}
    good = {s for s in inv if s not in goals}
    return inst.start.cell_set in good and all(_successors(inst, s) <= good for s in good)


def _witness_for(inst, states: list[frozenset], blocked: list[frozenset], tmp: Path):
    aig = build_aig(inst)
    model = read_aiger(aig_19(circuit_of(aig)), "m.aig")
    occ = {cell: model.latches[k][0] ^ int(flip) for k, (cell, _, flip) in enumerate(aig.meaning)}
    clauses = [[occ[c] ^ int(c in s) for c in range(inst.board.size)] for s in blocked]  # "the state is not s"
    (tmp / "w.aig").write_bytes(aig_19(with_invariant(model, clauses, "m.aig")))
    return model, read_aiger((tmp / "w.aig").read_bytes(), "w.aig")


def test_a_witness_circuit_of_the_reachable_set_passes_the_five_checks_and_a_broken_one_fails(tmp_path):
    inst = read_instance(ROOT / "instances" / "paper" / "one-extra.toml")  # unsolvable, 9 cells
    states = _window_states(inst)
    reach, todo = {inst.start.cell_set}, [inst.start.cell_set]
    while todo:
        for t in _successors(inst, todo.pop()):
            if t not in reach:
                reach.add(t)
                todo.append(t)
    unreachable = [s for s in states if s not in reach]
    model, witness = _witness_for(inst, states, unreachable, tmp_path)
    assert [c.ok for c in witness_checks(model, witness)] == [True] * 5
    # a clause removed: the state it blocked joins Inv.  The empty board moves nowhere (still
    # inductive); a state with a move out of Inv is not.  The SAT checks agree with rules.py.
    empty = frozenset()
    leaky = next(s for s in unreachable if not _successors(inst, s) <= reach | {s})
    for joined in (empty, leaky):
        expected = _brute_inductive(inst, reach | {joined})
        model, witness = _witness_for(inst, states, [s for s in unreachable if s != joined], tmp_path)
        verdict = {c.name: c.ok for c in witness_checks(model, witness)}
        assert verdict["step"] == expected
        assert verdict["reset"] and verdict["transition"] and verdict["property"] and verdict["base"]
    assert _brute_inductive(inst, reach | {empty}) and not _brute_inductive(inst, reach | {leaky})


def test_a_witness_that_drops_a_model_latch_or_maps_a_wrong_literal_is_refused(tmp_path):
    inst = read_instance(ROOT / "instances" / "paper" / "zero-extra.toml")
    model = circuit_of(build_aig(inst))
    witness = with_invariant(model, [], "m.aig")
    symbols = dict(witness.symbols, l0="= 9999")
    from dataclasses import replace

    with pytest.raises(ValueError, match="no input or latch of the model"):
        witness_checks(model, replace(witness, symbols=symbols))
    # a witness whose bad literal is not the model's: the property check fails
    assert not {c.name: c.ok for c in witness_checks(model, replace(witness, bad=(0,)))}["property"]


def test_the_bounded_witness_passes_base_and_step_and_fails_without_a_reachable_configuration(h_to_o_pack, tmp_path):
    from coinsat.hwmcc.bounded import bounded_witness, layers

    out = h_to_o_pack.directory
    (row,) = [r for r in h_to_o_pack.rows if r.file == "coins-h-to-o-within3.aig"]
    assert row.expected == "safe" and row.witness == "coins-h-to-o-within3.witness.aig"
    model = read_aiger((out / row.file).read_bytes(), row.file)
    witness = read_aiger((out / row.witness).read_bytes(), row.witness)
    assert [c.ok for c in witness_checks(model, witness)] == [True] * 5
    # one configuration reached by the first move left out of R_1: no longer inductive
    inst = read_instance(ROOT / "instances" / "paper" / "h-to-o.toml")
    aig = build_aig(inst, 3)
    layer_list = layers(inst, 3, 5000)
    assert layer_list is not None and len(layer_list[1]) > 1
    layer_list[1] = layer_list[1][1:]
    (tmp_path / "w.aig").write_bytes(aig_19(bounded_witness(model, inst, aig, 3, layer_list, row.file)))
    verdict = {c.name: c.ok for c in witness_checks(model, read_aiger((tmp_path / "w.aig").read_bytes(), "w"))}
    assert verdict == {"reset": True, "transition": True, "property": True, "base": True, "step": False}
    # the horizon one too far (R_4 holds the goal): the witness fails
    assert bounded_is_refused_at_the_optimum(inst)


def bounded_is_refused_at_the_optimum(inst) -> bool:
    from coinsat.hwmcc.bounded import bounded_witness, has_goal, layers

    aig = build_aig(inst, 4)
    model = read_aiger(aig_19(circuit_of(aig)), "m")
    layer_list = layers(inst, 4, 5000)
    assert layer_list is not None and has_goal(inst, layer_list)
    witness = read_aiger(aig_19(bounded_witness(model, inst, aig, 4, layer_list, "m")), "w")
    return not all(c.ok for c in witness_checks(model, witness))


# --- the pack's own invariants (PDR through ABC) --------------------------------------------------


@needs_abc
def test_the_pack_writes_a_checked_certificate_and_a_witness_circuit_for_an_unsolvable_puzzle(tmp_path):
    pack = write_hwmcc_pack(tmp_path, [ROOT / "instances" / "paper" / "o-to-h.toml"], ANSWERS)
    (row,) = [r for r in pack.rows if r.format == "aig"]
    assert row.expected == "safe" and row.witness == "coins-o-to-h.witness.aig"
    model = read_aiger((tmp_path / row.file).read_bytes(), row.file)
    witness = read_aiger((tmp_path / row.witness).read_bytes(), row.witness)
    assert all(c.ok for c in witness_checks(model, witness))
    assert witness.comments[0] == "WITNESS b0 coins-o-to-h.aig"
    assert (tmp_path / "certificates" / "coins-o-to-h.certificate.json").is_file()


def test_a_stale_stored_answer_is_not_evidence(tmp_path):
    import json

    record = json.loads(ANSWERS.read_text())["paper/h-to-o.toml"]
    (tmp_path / "answers.json").write_text(json.dumps({"paper/h-to-o.toml": dict(record, sha256="0" * 64)}))
    h_to_o = ROOT / "instances" / "paper" / "h-to-o.toml"
    pack = write_hwmcc_pack(tmp_path / "pack", [h_to_o], tmp_path / "answers.json")
    assert pack.rows == () and pack.left_out == (("h-to-o", "no stored answer for this version of paper/h-to-o.toml"),)


def test_the_pack_command_writes_the_hwmcc_pack(tmp_path, capsys):
    """``coinsat pack hwmcc DIR --instances FOLDER``: the same front door, through the command line."""
    import shutil

    from coinsat.cli import main

    folder = tmp_path / "paper"  # the stored answers are keyed paper/<file>
    folder.mkdir()
    shutil.copy(ROOT / "instances" / "paper" / "h-to-o.toml", folder)
    assert main(["pack", "hwmcc", str(tmp_path / "pack"), "--instances", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "wrote 6 files" in out and "1 aig safe, 2 aig unsafe" in out, out
    rows = (tmp_path / "pack" / "manifest.csv").read_text().splitlines()
    assert len(rows) == 7 and all("h-to-o" in r for r in rows[1:])
