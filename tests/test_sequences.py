"""The b-files in sequences/ (issue 40, item 7): every term is a proven optimum of the records,
the terms run without a gap from the first index, the first open term is not among them and its
bounds are proven bounds that enclose it, and the files are what scripts/sequences.py makes from
the records today (lab.sequences)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab import sequences, vfamily

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sequences.Records.read(ROOT)
BUILT = {name: build(RECORDS) for name, build in sequences.BUILDERS.items()}


def _read_b_file(path: Path) -> dict[int, int]:
    terms = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("#") or not line.strip():
            continue
        n, value = line.split()  # "n a(n)": two integers, nothing else
        assert int(n) not in terms, f"{path.name}:{number}: index {n} twice"
        terms[int(n)] = int(value)
    return terms


@pytest.mark.parametrize("name", sorted(sequences.BUILDERS))
def test_every_term_of_the_b_file_is_a_proven_optimum_of_the_records(name):
    terms = _read_b_file(ROOT / "sequences" / f"{name}.txt")
    assert terms, name
    for n, value in terms.items():
        assert sequences.proven_term(RECORDS, name, n) == value, (name, n)
    assert sorted(terms) == list(range(min(terms), max(terms) + 1))  # no gap


@pytest.mark.parametrize("name", sorted(sequences.BUILDERS))
def test_the_terms_have_stored_optimal_solutions(name):
    if name == "census-diagonal":  # a hardest start of each box, with its optimal solution
        for n, value in _read_b_file(ROOT / "sequences" / f"{name}.txt").items():
            path = ROOT / f"instances/census/diagonal-{n}/solutions/diagonal-{n}-hardest-1.json"
            record = json.loads(path.read_text())
            assert record["status"] == "optimal" and record["length"] == len(record["moves"]) == value
        return
    if name == "diagonal-flip":
        stem = "diagonal-{n}"
    elif name.startswith("v-"):
        stem = "vdiag-{a}-{b}-" + name[2:]
    else:
        stem = "pinwheel-{n}-" + name.split("-")[1]
    for n, value in _read_b_file(ROOT / "sequences" / f"{name}.txt").items():
        a, b = sequences.v_member(n)
        record = json.loads((ROOT / "instances/families/solutions" / f"{stem.format(n=n, a=a, b=b)}.json").read_text())
        assert record["status"] == "optimal" and record["length"] == len(record["moves"]) == value


@pytest.mark.parametrize("name", sorted(sequences.BUILDERS))
def test_the_first_open_term_is_open_and_its_bounds_enclose_it(name):
    seq = BUILT[name]
    assert seq.open_term is not None
    n, low, high = seq.open_term
    assert n == max(seq.terms) + 1 and sequences.proven_term(RECORDS, name, n) is None
    assert low.value is not None and 0 < low.value
    assert high.value is None or low.value < high.value  # None: no upper bound known (D(k) beyond the census)
    if name.startswith("v-"):  # the theorems bound it too, and no record beats the bounds named
        from coinsat.constructive.vschedule import schedule_length
        from coinsat.theory.vbound import best_bound

        a, b = sequences.v_member(n)
        target = name[2:]
        assert best_bound(a, b, target) <= low.value and high.value <= schedule_length(a, b, target)  # type: ignore[operator]
        entry = RECORDS.vfamily.get(f"vdiag-{a}-{b}-{target}")
        if entry:
            _, ub, lb, _ = vfamily.summarise(entry)
            assert (lb or 0) <= low.value and high.value <= (ub or high.value)


def test_the_files_are_what_the_script_makes_from_the_records(tmp_path):
    from lab.commandline import shown

    command = shown("scripts/sequences.py", [], ROOT)
    for name, seq in BUILT.items():
        assert (ROOT / "sequences" / seq.file).read_text() == sequences.b_file(seq, command), name
    assert (ROOT / "sequences" / "README.md").read_text() == sequences.readme(list(BUILT.values()), command)


def test_a_term_the_records_do_not_prove_is_not_written():
    """Drop the proof of the V's a(6) (V(3,3) -> SW-NE): the sequence stops at a(5) and a(6) is
    its open term, bounded by what is left."""
    vf = json.loads(json.dumps(RECORDS.vfamily))
    for run in vf["vdiag-3-3-swne"]["runs"].values():
        if run.get("lower_bound") == 73:
            run["lower_bound"] = 60
    weaker = sequences.Records(flips=RECORDS.flips, vfamily=vf, vgrowth=RECORDS.vgrowth, pinwheel=RECORDS.pinwheel)
    seq = sequences.v_sequence(weaker, "swne")
    assert max(seq.terms) == 5 and seq.open_term is not None
    assert seq.open_term[0] == 6 and seq.open_term[1].value == 60 and seq.open_term[2].value == 73
    assert sequences.proven_term(weaker, "v-swne", 6) is None
