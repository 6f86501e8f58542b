"""``coinsat pack sat-competition DIR`` (coinsat/pack.py): a small pack, checked file by file.

The pack is built once from two small census families (4 x 4 boxes) into a temporary folder;
each file's answer is checked against a SAT solver run (PySAT's CaDiCaL), its header against the
sanitised-DIMACS rules, and the canonical hashes against each other.  An isomorphic copy (the
variables renamed, the clauses and their literals shuffled) is refused.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from coinsat.cli import main
from coinsat.errors import InstanceError
from coinsat.pack import (
    MAX_PER_FAMILY,
    DuplicateInstance,
    PackBuilder,
    canonical_hash,
    is_sanitised,
    plan,
    read_manifest,
    sat_competition,
)

pytest.importorskip("gbdc")

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
FAMILIES = ("census-diagonal-4", "census-canonical-4")
PER_FAMILY = 4


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    out = tmp_path_factory.mktemp("pack")
    result = sat_competition(out / "pack", list(FAMILIES), instances=INSTANCES, per_family=PER_FAMILY)
    return result


def renamed_copy(text: str, seed: int = 1) -> str:
    """``text`` with its variables renamed and its clauses (and their literals) shuffled."""
    rng = random.Random(seed)
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
    nvars = int(lines[k].split()[2])
    perm = list(range(1, nvars + 1))
    rng.shuffle(perm)
    clauses = []
    for line in lines[k + 1 :]:
        lits = [int(t) for t in line.split()[:-1]]
        lits = [perm[abs(x) - 1] * (1 if x > 0 else -1) for x in lits]
        rng.shuffle(lits)
        clauses.append(" ".join(map(str, lits)) + " 0")
    rng.shuffle(clauses)
    return "\n".join(["c a renamed copy", lines[k], *clauses]) + "\n"


def test_at_most_the_cap_per_family_with_known_answers(pack):
    counts = pack.counts()
    assert set(counts) == set(FAMILIES)
    for fam in FAMILIES:
        assert sum(counts[fam].values()) == PER_FAMILY
        assert counts[fam]["sat"] >= 1 and counts[fam]["unsat"] >= 1
    rows = read_manifest(pack.manifest)
    assert [r["file"] for r in rows] == [e.file for e in pack.entries]


def test_every_answer_agrees_with_a_sat_solver(pack):
    for e in pack.entries:
        with Solver(name="cadical153", bootstrap_with=CNF(from_file=str(pack.directory / e.file)).clauses) as s:
            assert ("sat" if s.solve() else "unsat") == e.answer, e.file


def test_files_are_sanitised_dimacs(pack):
    for e in pack.entries:
        text = (pack.directory / e.file).read_text(encoding="ascii")
        assert is_sanitised(text), e.file
        assert text.startswith("c ") and "\np cnf " in text
        assert text.isascii()


def test_the_sanitised_check_can_fail():
    good = "c ok\np cnf 2 2\n1 -2 0\n2 0\n"
    assert is_sanitised(good)
    assert not is_sanitised("c ok\np cnf 2 2\n1 -1 0\n2 0\n")  # tautology
    assert not is_sanitised("c ok\np cnf 2 2\n1 1 0\n2 0\n")  # repeated literal
    assert not is_sanitised("p cnf 2 2\n1 -2 0\nc late\n2 0\n")  # comment after the header
    assert not is_sanitised("c \u00a7 5\np cnf 2 2\n1 -2 0\n2 0\n")  # a character outside printable ASCII
    assert not is_sanitised("c ok\np cnf 2 3\n1 -2 0\n2 0\n")  # wrong clause count
    assert not is_sanitised("c ok\np cnf 1 2\n1 -2 0\n2 0\n")  # a variable above the header's count


def test_no_two_files_share_a_canonical_hash(pack):
    hashes = [e.hash for e in pack.entries]
    assert len(set(hashes)) == len(hashes)
    for e in pack.entries[:3]:
        assert canonical_hash(pack.directory / e.file) == e.hash


def test_a_renamed_shuffled_copy_is_refused(pack, tmp_path):
    first = pack.entries[0]
    text = (pack.directory / first.file).read_text()
    copy = renamed_copy(text)
    assert copy.splitlines()[2:] != text.splitlines()[-len(copy.splitlines()) + 2 :]
    builder = PackBuilder(tmp_path / "p")
    builder.add(first.family, "a.cnf", text, first.answer, first.horizon, first.instance, "")
    with pytest.raises(DuplicateInstance, match="isomorphic to"):
        builder.add(first.family, "b.cnf", copy, first.answer, first.horizon, first.instance, "")
    assert not (tmp_path / "p" / first.family / "b.cnf").exists()
    # a file that differs (another horizon) is admitted
    other = next(e for e in pack.entries if e.instance == first.instance and e.horizon != first.horizon)
    builder.add(other.family, "c.cnf", (pack.directory / other.file).read_text(), other.answer, 0, "", "")
    assert len(builder.entries) == 2


def test_an_open_member_is_labelled_unknown():
    """diagonal-9's record is feasible (129 moves, a proven lower bound L < 129): T = L is open, and
    the optimal members give their threshold pairs."""
    record = json.loads((INSTANCES / "families" / "solutions" / "diagonal-9.json").read_text())
    assert record["status"] == "feasible" and record["lower_bound"] < record["length"]
    rows = plan(["flip"], INSTANCES, MAX_PER_FAMILY)
    by = {(m.path.stem, t): a for _, m, t, a in rows}
    assert by[("diagonal-9", record["lower_bound"])] == "unknown"
    assert by[("diagonal-5", 30)] == "sat" and by[("diagonal-5", 29)] == "unsat"


def test_the_open_family_holds_only_open_horizons_each_at_its_proven_lower_bound():
    """The default pack's third family: each member's optimum unproven, its file at T = the lower
    bound its record proves (an answer nobody knows, labelled so)."""
    rows = plan(["open"], INSTANCES, MAX_PER_FAMILY)
    assert rows and all(a == "unknown" for *_, a in rows)
    for _, m, t, _ in rows:
        assert not m.optimal and t == m.lower_bound < m.length


def test_a_full_census_family_is_6_sat_and_10_unsat():
    """16 files from the 10 classes of diagonal-5 (D = 37): T = 36 for each class, T = 37 for six."""
    rows = plan(["census-diagonal-5"], INSTANCES, MAX_PER_FAMILY)
    assert len(rows) == MAX_PER_FAMILY
    assert sorted(t for *_, t, a in rows if a == "unsat") == [36] * 10
    assert sorted(t for *_, t, a in rows if a == "sat") == [37] * 6
    assert len({m.path for _, m, _, _ in rows}) == 10


def test_a_record_that_does_not_replay_is_refused(tmp_path):
    folder = tmp_path / "census" / "diagonal-4"
    shutil.copytree(INSTANCES / "census" / "diagonal-4", folder)
    sol = folder / "solutions" / "diagonal-4-hardest-1.json"
    text = sol.read_text()
    sol.write_text(text.replace('"moves": [[', '"moves": [[[0, 0], [0, 0]], [', 1))
    with pytest.raises(InstanceError, match="diagonal-4-hardest-1"):
        plan(["census-diagonal-4"], tmp_path, 4)


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--per-family", "17"], "1..16"),
        (["--per-family", "0"], "1..16"),
        (["--per-family", "many"], "integer"),
        (["--family", "census-nothing-4"], "no census folder"),
        (["--family", "flop"], "unknown family"),
        (["--family", "flip", "--family", "flip"], "named twice"),
        (["--instances", "no-such-folder"], "does not exist"),
    ],
)
def test_bad_parameters_exit_2_with_one_line(capsys, tmp_path, argv, words):
    code, out, err = run(capsys, "pack", "sat-competition", str(tmp_path / "p"), *argv)
    assert code == 2
    assert words in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "p").exists()


def test_the_command_writes_the_pack(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run(
        capsys, "pack", "sat-competition", str(tmp_path / "p"), "--family", "census-diagonal-4", "--per-family", "2"
    )
    assert code == 0, err
    assert "census-diagonal-4: 1 sat, 1 unsat, 0 unknown" in out
    rows = read_manifest(tmp_path / "p" / "pack.csv")
    assert [r["answer"] for r in rows] == ["sat", "unsat"]
    assert all((tmp_path / "p" / r["file"]).is_file() for r in rows)
