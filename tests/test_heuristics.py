"""The registry of the h (``coinsat/search/heuristics.py``): every h the command line takes has one
record, the record is what the engine, the help and the certificate builder read, each record's
proof exists, and every h it registers is admissible against exact BFS distances (so an h added
to the registry is checked here without a test of its own)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinsat import Status, cli, read_instance
from coinsat.certificates.check import perimeter as checker_h
from coinsat.configuration import bits
from coinsat.errors import UsageError
from coinsat.search import heuristics
from coinsat.search.heuristics import CHOICES, DEFAULT, HEURISTICS, PERIMETER, Heuristic, certificate_field
from coinsat.search.options import RankbfsOptions, flags_of
from coinsat.search.rank.space import Space
from coinsat.solve import solve

from .strategies import exact_distances, lattice_puzzles

ROOT = Path(__file__).resolve().parent.parent
DIAGONAL = ROOT / "instances" / "families" / "diagonal-4.toml"


def _flag(name: str) -> dict:
    return next(meta for _, meta in flags_of(RankbfsOptions) if meta["flag"] == name)


def test_every_h_the_command_line_takes_has_one_record():
    assert tuple(_flag("--heuristic")["choices"]) == CHOICES
    assert set(CHOICES) | {PERIMETER.name} == set(HEURISTICS)
    assert all(HEURISTICS[n].name == n and not HEURISTICS[n].wraps for n in CHOICES)
    assert PERIMETER.wraps and _flag(PERIMETER.flag)["flag"] == "--perimeter"
    assert DEFAULT in CHOICES and not HEURISTICS[DEFAULT].needs_bound
    assert heuristics.FORCED_SUPPORTS in CHOICES


def test_the_help_is_made_from_the_records():
    text = _flag("--heuristic")["help"]
    for name in CHOICES:
        assert HEURISTICS[name].help() in text
    assert PERIMETER.summary in _flag("--perimeter")["help"]


@pytest.mark.parametrize("name", sorted(HEURISTICS))
def test_every_record_names_its_proof_its_measurement_and_a_kernel_that_loads(name):
    record = HEURISTICS[name]
    doc, _, theorem = record.admissible.partition(", ")
    text = (ROOT / doc).read_text()
    label = theorem.split(":")[0]
    assert re.search(rf"\*\*{re.escape(label)}\b", text), f"{doc} proves no {label}"
    assert record.consistent is None or (ROOT / record.consistent.split(",")[0]).exists()
    assert (ROOT / record.measured).exists()
    assert callable(record.function())
    assert record.cost in heuristics.Cost


def test_an_unknown_h_is_a_usage_error_naming_the_closest(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["solve", str(DIAGONAL), "--method", "rankbfs", "--max-moves", "3", "--heuristic", "lmcat"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "did you mean 'lmcut'?" in err and len(err.strip().splitlines()) == 1
    inst = read_instance(DIAGONAL)
    said = r"unknown h 'lmcat' \(did you mean 'lmcut'\? choose from fill, forced, lmcut\)"
    with pytest.raises(UsageError, match=said):
        solve(inst, "rankbfs", max_moves=3, heuristic="lmcat", workers=1)
    with pytest.raises(UsageError, match="unknown h 'perimeter'"):  # a wrapper has its own flag
        solve(inst, "rankbfs", max_moves=3, heuristic="perimeter", workers=1)


@pytest.mark.parametrize("name", CHOICES)
def test_what_asking_for_an_h_needs_comes_from_its_record(name):
    inst = read_instance(DIAGONAL)
    record = HEURISTICS[name]
    if record.needs_bound:
        with pytest.raises(UsageError, match=f"{record.asked} prunes with a bound"):
            solve(inst, "rankbfs", heuristic=name, workers=1)
    else:
        assert solve(inst, "rankbfs", heuristic=name, workers=1).status is Status.OPTIMAL


def test_the_checker_table_names_the_same_h_and_reads_what_the_builder_writes():
    """The checker's own table (a deliberate re-implementation) and the registry agree: the h a
    certificate may name, the field written for each (the default's left out), the perimeter's."""
    assert set(checker_h.INNER) == set(CHOICES)
    for name in CHOICES:
        written = certificate_field(name)
        assert (written is None) == (name == DEFAULT)
        assert checker_h.parse(name if written is None else written, "rank", 10) == (name, None, "")
        wrapped = certificate_field(heuristics.pruned_by(name, 3))
        assert wrapped == {"kind": PERIMETER.certificate, "r": 3, "inner": name}
        assert checker_h.parse(wrapped, "rank", 10) == (name, 3, "")
    assert checker_h.parse("fill", "word", None) == ("fill", None, "")  # the default: no field at all
    assert certificate_field(None) is None


def test_a_record_is_frozen():
    with pytest.raises(AttributeError):
        HEURISTICS[DEFAULT].name = "other"  # type: ignore[misc]
    assert isinstance(PERIMETER, Heuristic)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    lattice_puzzles(lattices=("square", "triangular"), max_side=4, max_coins=5, adjacency=(2, 2, 1)),
    st.randoms(use_true_random=False),
)
def test_every_registered_h_is_admissible_against_exact_distances(instance, rnd):
    """Each record's kernel, through ``Space`` (the search's dispatch): h <= the exact distance to
    the goal on configurations reachable from the start (all, or 60 drawn), and >= the default h
    (every h of the registry bounds the fill h from above: Theorems H and LM)."""
    dist, _ = exact_distances(instance)
    states = sorted(dist)
    if len(states) > 60:
        states = rnd.sample(states, 59) + [instance.start.mask]
    for name in CHOICES:
        if instance.d < HEURISTICS[name].min_d:
            continue
        space = Space(instance, True, 0, name)
        ranks = np.array([space.rank_of_cells(list(bits(x))) for x in states], dtype=np.uint64)
        got = space.inner_heuristic(ranks).tolist()
        assert got == HEURISTICS[name].function()(space, ranks, None).tolist()
        fill = Space(instance, True, 0, DEFAULT).inner_heuristic(ranks).tolist()
        for x, h, f in zip(states, got, fill):
            assert f <= h, (name, x, f, h)
            assert h <= dist[x], (name, x, h, dist[x])
