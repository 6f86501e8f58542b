"""rankbfs's visited set on disk: a tiny memory budget spills every layer and changes nothing;
a run killed mid-search and resumed from its saved layers gives the same answer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsat.cli import main
from coinsat.errors import UsageError
from coinsat.families import vdiag
from coinsat.result import Status
from coinsat.search.options import RankbfsOptions
from coinsat.search.rank import visited as spill
from coinsat.search.rank.colex import U64
from coinsat.search.rank.search import solve_rankbfs
from coinsat.search.rank.visited import MANIFEST, decode, encode

from .test_sat import walked

ROOT = Path(__file__).resolve().parent.parent


def _same_search(a, b) -> None:
    assert (a.status, a.length, a.lower_bound) == (b.status, b.length, b.lower_bound)
    assert a.stats["layers"] == b.stats["layers"]
    assert np.array_equal(a.witness.layers.keys, b.witness.layers.keys)
    assert np.array_equal(a.witness.layers.depth, b.witness.layers.depth)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.one_of(st.integers(0, 2**64 - 1), st.integers(2**40, 2**40 + 5_000), st.integers(0, 70_000)),
        max_size=300,
    )
)
def test_delta_coding_round_trips(values):
    """Any sorted distinct ranks: clustered ones (narrow gaps) mixed with far ones (exceptions)."""
    run = np.unique(np.array(values, dtype=U64))
    assert np.array_equal(decode(encode(run)), run)


def test_large_ranks_close_together_take_the_bytes_of_their_gaps():
    """Past 2**32 ranks (V(4,3): 81 cells, 11 coins) a layer's ranks are large and a few of its
    gaps huge: neither the first rank nor the rare huge gaps may set the width of every
    difference (they did, giving 8 bytes a state)."""
    run = U64(2**43) + np.arange(0, 3 * 100_000, 3, dtype=U64)
    run[50_000:] += U64(2**40)  # one huge gap
    run[70_000:] += U64(2**20)  # one gap past two bytes
    data = encode(run)
    assert np.array_equal(decode(data), run)
    assert len(data) == 1 + 16 + 2 * 16 + (run.size - 1)  # one byte a state after the first


@pytest.mark.parametrize("split_at", [1 << 20, 500])
def test_a_tiny_budget_spills_every_old_layer_and_changes_nothing(split_at, monkeypatch):
    """A layer of >= split_at states is spilled into hash partitions (500: most layers here)."""
    monkeypatch.setattr(spill, "SPLIT_AT", split_at)
    inst = vdiag(2, 1, "nwse")
    plain = solve_rankbfs(inst)
    spilled = solve_rankbfs(inst, options=RankbfsOptions(spill_budget=64))
    _same_search(plain, spilled)
    assert plain.stats["layers_spilled"] == 0 and plain.stats["disk_bytes"] == 0
    assert spilled.stats["layers_spilled"] >= len(spilled.stats["layers"]) - 2
    assert 0 < spilled.stats["disk_bytes"] < 8 * spilled.stats["states"]  # compressed below 8 bytes a state
    assert spilled.witness.layers.nbytes < plain.witness.layers.nbytes
    # worker processes and bound-and-prune spill too
    _same_search(
        solve_rankbfs(inst, options=RankbfsOptions(workers=2, upper_bound=24)),
        solve_rankbfs(inst, options=RankbfsOptions(workers=2, upper_bound=24, spill_budget=64)),
    )


@settings(max_examples=25, deadline=None)
@given(walked(max_coins=5, kinds=("square", "graph")))
def test_spilled_and_in_memory_searches_agree_state_for_state(inst):
    if len(inst.labels) > 1 or not inst.board.exact:
        return
    spill.SPLIT_AT, old = 2, spill.SPLIT_AT  # every layer of two or more states in partitions
    try:
        _same_search(solve_rankbfs(inst), solve_rankbfs(inst, options=RankbfsOptions(spill_budget=1)))
    finally:
        spill.SPLIT_AT = old


def test_a_stopped_search_resumes_from_its_saved_layers(tmp_path):
    inst = vdiag(2, 1, "nwse")
    fresh = solve_rankbfs(inst)
    stopped = solve_rankbfs(inst, options=RankbfsOptions(max_states=3000, resume=str(tmp_path)))
    assert stopped.status is Status.UNKNOWN
    saved = json.loads((tmp_path / MANIFEST).read_text())["layers"]
    assert 2 <= len(saved) < len(fresh.stats["layers"])
    # a layer written after the manifest (a kill in the middle of saving) is dropped
    (tmp_path / f"L{len(saved):05d}").mkdir()
    again = solve_rankbfs(inst, options=RankbfsOptions(resume=str(tmp_path), spill_budget=64))
    assert again.stats["resumed_at"] == len(saved) - 1
    _same_search(fresh, again)
    # the saved layers of a finished search answer at once, again the same
    _same_search(fresh, solve_rankbfs(inst, options=RankbfsOptions(resume=str(tmp_path))))


def test_layers_of_another_search_are_refused(tmp_path):
    solve_rankbfs(vdiag(2, 1, "nwse"), max_moves=3, options=RankbfsOptions(resume=str(tmp_path)))
    with pytest.raises(UsageError, match="another search"):
        solve_rankbfs(vdiag(2, 1, "swne"), options=RankbfsOptions(resume=str(tmp_path)))
    with pytest.raises(UsageError, match="another search"):
        solve_rankbfs(vdiag(2, 1, "nwse"), options=RankbfsOptions(resume=str(tmp_path), upper_bound=30))
    with pytest.raises(UsageError, match="another search"):  # on workers too (tests/test_resume_workers.py)
        solve_rankbfs(vdiag(2, 1, "swne"), options=RankbfsOptions(resume=str(tmp_path), workers=2))


def test_a_killed_run_resumes_to_the_same_answer(tmp_path):
    """SIGKILL mid-search (after some layers are saved), then the same command again."""
    file = str(ROOT / "instances/families/vdiag-2-2-nwse.toml")
    cmd = [sys.executable, "-m", "coinsat", "solve", file, "--method", "rankbfs", "--resume", str(tmp_path), "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    manifest, t0 = tmp_path / MANIFEST, time.monotonic()
    while time.monotonic() - t0 < 60 and proc.poll() is None:
        if manifest.exists() and len(json.loads(manifest.read_text())["layers"]) >= 10:
            break
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the search ended before it could be killed"
    done = len(json.loads(manifest.read_text())["layers"])
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    fresh = solve_rankbfs(vdiag(2, 2, "nwse"))
    assert (got["status"], got["length"]) == (fresh.status.value, fresh.length) == ("optimal", 24)
    assert len(json.loads(manifest.read_text())["layers"]) > done


def test_resume_into_a_file_is_a_usage_error(tmp_path, capsys):
    f = tmp_path / "plain"
    f.write_text("x")
    code = main(["solve", str(ROOT / "instances/paper/diagonal.toml"), "--method", "rankbfs", "--resume", str(f)])
    assert code == 2 and "not a directory" in capsys.readouterr().err
    assert os.path.isfile(f)


@pytest.mark.parametrize("max_states", [None, 20_000])
def test_workers_leave_no_spilled_layers_and_are_reaped(max_states, tmp_path, monkeypatch):
    """Each worker removes its private spill directory before it exits, also when a limit stops the
    search and the workers are terminated (they were killed mid-cleanup, leaving files in /tmp)."""
    import gc
    import multiprocessing
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the workers fork with it
    limit = {} if max_states is None else {"max_states": max_states}
    r = solve_rankbfs(vdiag(2, 1, "nwse"), options=RankbfsOptions(workers=2, spill_budget=64, **limit))
    assert r.status is (Status.UNKNOWN if max_states else Status.OPTIMAL)
    assert len(r.stats["layers"]) > 3 and r.stats["disk_bytes"] > 0  # the workers had spilled
    assert not multiprocessing.active_children()
    del r  # the gathered witness spills in this process, its directory goes with it
    gc.collect()
    assert not list(tmp_path.glob("coinsat-layers-*"))
