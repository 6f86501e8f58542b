"""One engine contract: ``solve_<name>(instance, *, limits, max_moves, options)``, one registry
record per engine, answers labelled by the engine that searched, statistics on every answer."""

from __future__ import annotations

import inspect
import json
from dataclasses import fields

import pytest

from coinsat import solve
from coinsat.cli import main
from coinsat.errors import UsageError
from coinsat.io.instance_format import read_instance
from coinsat.limits import Limits
from coinsat.result import Engine, Evidence, Result, Status
from coinsat.search.methods import ENGINES, spec

UPSIDE_DOWN = "instances/paper/upside-down.toml"  # triangular: the window grows
DIAGONAL = "instances/paper/diagonal.toml"  # square, exact


@pytest.mark.parametrize("name", [n for n in ENGINES])
def test_every_engine_takes_limits_max_moves_and_options_by_keyword(name):
    record = spec(name)
    try:
        target = record.function()
    except UsageError:  # an optional dependency that is not installed
        pytest.skip(f"{name} is not available")
    params = inspect.signature(target).parameters
    assert list(params) == ["instance", "limits", "max_moves", "options"]
    assert all(params[p].kind is inspect.Parameter.KEYWORD_ONLY for p in ("limits", "max_moves", "options"))
    assert record.options.__dataclass_params__.frozen  # type: ignore[attr-defined]


@pytest.mark.parametrize("instance", [UPSIDE_DOWN, DIAGONAL])
@pytest.mark.parametrize("name", ["rankbfs", "spanbfs", "bfs"])
def test_an_answer_is_labelled_by_the_engine_that_searched(name, instance):
    """rankbfs on a growing (triangular) window was labelled spanbfs: the growth loop it borrowed
    hard-coded the label."""
    r = solve(read_instance(instance), name)
    assert r.status is Status.OPTIMAL
    assert r.engine is Engine(name) and r.method == name


def test_rankbfs_json_reports_its_engine_and_statistics(capsys):
    assert main(["solve", UPSIDE_DOWN, "--method", "rankbfs", "--workers", "1", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["engine"] == "rankbfs" and obj["method"] == "rankbfs"
    st = obj["statistics"]
    assert set(st) == {"states", "expanded", "pruned", "layers", "peak_memory", "cpu_seconds"}
    assert st["states"] > st["expanded"] > 0 and st["layers"] >= obj["length"]
    assert st["peak_memory"] > 0 and st["cpu_seconds"] > 0


@pytest.mark.parametrize("name", ["bfs", "spanbfs", "rankbfs", "sat"])
def test_every_answer_carries_statistics(name):
    r = solve(read_instance(DIAGONAL), name, limits=Limits(60.0))
    assert r.length == 18 and r.statistics.layers is not None and r.statistics.layers >= 1
    assert r.statistics.cpu_seconds is not None and r.statistics.peak_memory is not None
    if name != "sat":
        assert r.statistics.states is not None and r.statistics.expanded is not None


def test_screened_and_stopped_answers_carry_statistics_too():
    o_to_h = read_instance("instances/paper/o-to-h.toml")  # unsolvable by a screen
    r = solve(o_to_h)
    assert r.engine is Engine.SCREEN and r.statistics.cpu_seconds is not None


def test_result_is_built_by_keyword_and_its_certificate_is_typed():
    with pytest.raises(TypeError):
        Result(Status.UNKNOWN, "x")  # type: ignore[misc]
    r = Result(status=Status.BOUNDED, method="x", lower_bound=4, certificate={"kind": "k", "scope": "horizon"})
    assert isinstance(r.certificate, Evidence) and r.certificate.scope.value == "horizon"
    assert r.certificate["kind"] == "k" and r.certificate.to_json() == {"kind": "k", "scope": "horizon"}


def test_options_are_the_engines_own():
    with pytest.raises(UsageError, match="unknown option"):
        solve(read_instance(DIAGONAL), "spanbfs", workers=2)
    assert {f.name for f in fields(spec("rankbfs").options)} >= {"upper_bound", "workers", "resume"}


def test_a_flag_of_another_engine_is_a_usage_error(capsys):
    assert main(["solve", DIAGONAL, "--workers", "2"]) == 2
    assert "--workers is an option of --method rankbfs" in capsys.readouterr().err
    assert main(["solve", DIAGONAL, "--method", "spanbfs", "--upper-bound", "construct"]) == 2


def test_the_cli_flags_come_from_the_options():
    """Every flag that an engine's options declare is accepted, with that engine only."""
    from coinsat.commands.solve import engine_flags

    flags = engine_flags()
    assert set(flags) >= {"--upper-bound", "--workers", "--cluster", "--resume", "--solver", "--strategy"}
    assert flags["--workers"][1] == ["rankbfs"]
    assert set(flags["--solver"][1]) >= {"auto", "sat"}


@pytest.mark.parametrize(
    "path, engine",
    [
        ("instances/families/vdiag-3-2-nwse.toml", "rankbfs"),  # C(49, 9) = 2.0e9 configurations
        ("instances/families/vdiag-4-3-swne.toml", "rankbfs"),  # 81 cells: past spanbfs's words
        ("instances/paper/vee-2-2.toml", "spanbfs"),  # C(36, 8) = 3.0e7
        ("instances/paper/swap5-a.toml", "bfs"),  # labeled
        ("instances/paper/pyramid-to-line.toml", "sat"),  # triangular: an inexact window
    ],
)
def test_auto_picks_the_engine_measured_fastest(path, engine):
    """The rule of solve_auto (benchmarks/engine-choice.md), seen on a short horizon."""
    r = solve(read_instance(path), max_moves=2)
    assert r.method == f"auto:{engine}" and r.engine is Engine(engine)


def test_idle_cores_is_at_least_one_and_at_most_the_cores():
    import os

    from coinsat.solve import idle_cores

    assert 1 <= idle_cores() <= (os.cpu_count() or 1)
