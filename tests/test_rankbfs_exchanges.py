"""rankbfs's one layer loop on its exchanges (search/rank/loop.py): one process and worker
processes keep the same states, state for state, with either h, and return the same moves;
the forced-supports h runs on workers; limits stay honest on each (the MPI ranks:
tests/test_rankbfs_cluster.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinsat.certificates.check import check_certificate
from coinsat.certificates.prove.make import certify
from coinsat.environment import Kernels
from coinsat.families import vdiag
from coinsat.io.instance_format import read_instance
from coinsat.result import Status
from coinsat.search.bfs import solve_bfs
from coinsat.search.options import RankbfsOptions
from coinsat.search.rank import processes as workers_module
from coinsat.search.rank.search import solve_rankbfs
from coinsat.search.rank.visited import Parts

from .test_sat import walked

ROOT = Path(__file__).resolve().parent.parent
DIAG = read_instance(ROOT / "instances" / "paper" / "diagonal.toml")


def _both(inst, **kw):
    one = solve_rankbfs(inst, options=RankbfsOptions(workers=1, **kw))
    two = solve_rankbfs(inst, options=RankbfsOptions(workers=2, **kw))
    return one, two


def _same_search(one, two) -> None:
    assert (one.status, one.length, one.lower_bound) == (two.status, two.length, two.lower_bound)
    assert one.stats["layers"] == two.stats["layers"]
    assert one.stats["bound_pruned"] == two.stats["bound_pruned"]
    assert one.stats["expanded"] == two.stats["expanded"]
    assert np.array_equal(one.witness.layers.keys, two.witness.layers.keys)
    assert np.array_equal(one.witness.layers.depth, two.witness.layers.depth)
    assert one.witness.layers.heuristic == two.witness.layers.heuristic
    assert (one.solution and one.solution.moves) == (two.solution and two.solution.moves)


@settings(max_examples=12, deadline=None)
@given(walked(max_coins=5, kinds=("square", "graph")))
def test_forced_h_on_two_workers_equals_one_process_state_for_state(inst):
    if len(inst.labels) > 1 or not inst.board.exact:
        return
    want = solve_bfs(inst)
    if want.status is not Status.OPTIMAL:
        return
    L = want.length
    for U in {L, max(0, L - 1)}:
        one, two = _both(inst, upper_bound=U, forced_supports=True)
        _same_search(one, two)
        assert one.status is (Status.OPTIMAL if U == L else Status.BOUNDED)
        assert two.stats["h"] == "forced" and two.stats["workers"] == 2


@pytest.mark.parametrize("U", [18, 17])
def test_forced_h_on_workers_keeps_fewer_states_and_certifies(U, tmp_path):
    """The diagonal (optimum 18): at U = 18 optimal, at U = 17 bounded, with fewer states than
    the fill h on the same workers; the layers gathered from the workers make a certificate
    naming h = forced that the checker accepts."""
    fill = solve_rankbfs(DIAG, options=RankbfsOptions(workers=2, upper_bound=U))
    one, two = _both(DIAG, upper_bound=U, forced_supports=True)
    _same_search(one, two)
    assert two.status is (Status.OPTIMAL if U == 18 else Status.BOUNDED) and fill.status is two.status
    assert two.stats["states"] < fill.stats["states"]
    done = certify(DIAG, two, tmp_path)
    assert done.check.ok, done.check.reason
    cert = json.loads(done.path.read_text())
    assert cert["h"] == "forced"
    verdict = check_certificate(DIAG, cert, tmp_path)
    assert verdict.ok, verdict.reason


@pytest.mark.parametrize("route", ["memfd", "pipes"])
def test_every_exchange_returns_the_same_moves_on_v21(route):
    """Both exchanges walk back from the smallest goal rank of the goal's layer; the workers'
    successors travel through memory files or through the parent's pipes (``Kernels.memfd``),
    with the same layers."""
    from coinsat.search.rank import processes

    want = route if route == "pipes" or processes.route() == "memfd" else "pipes"  # memfd: Linux only
    inst = vdiag(2, 1, "nwse")
    kernels = Kernels(memfd=route == "memfd")
    for kw in ({}, {"upper_bound": 24}):
        one, two = _both(inst, kernels=kernels, **kw)
        _same_search(one, two)
        assert one.status is Status.OPTIMAL and one.length == 24
        assert two.stats["route"] == want


@pytest.mark.parametrize("workers", [1, 2])
def test_a_state_budget_stops_either_exchange_with_forced_h_honestly(workers):
    inst = vdiag(2, 1, "nwse")
    opts = RankbfsOptions(workers=workers, upper_bound=24, forced_supports=True, max_states=300)
    r = solve_rankbfs(inst, options=opts)
    assert r.status is Status.UNKNOWN and r.solution is None
    assert r.stats["stopped"] == "state limit" and 1 <= r.lower_bound <= 24
    assert sum(r.stats["layers"]) > 300


def test_forced_h_saved_by_one_process_resumes_on_workers(tmp_path):
    """The saved layers name their h (tests/test_resume_pruning.py) and workers resume them
    (more, and the MPI ranks, in tests/test_resume_workers.py)."""
    opts = RankbfsOptions(workers=1, upper_bound=24, forced_supports=True, resume=str(tmp_path))
    assert solve_rankbfs(vdiag(2, 1, "nwse"), options=opts).length == 24
    opts = RankbfsOptions(workers=2, upper_bound=24, forced_supports=True, resume=str(tmp_path))
    again = solve_rankbfs(vdiag(2, 1, "nwse"), options=opts)
    assert again.length == 24 and again.stats["workers"] == 2 and "resumed" in again.stats


def test_the_command_runs_forced_h_on_two_workers():
    file = str(ROOT / "instances/families/vdiag-2-1-nwse.toml")
    cmd = [sys.executable, "-m", "coinsat", "solve", file, "--method", "rankbfs", "--workers", "2"]
    cmd += ["--upper-bound", "construct", "--forced-supports", "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert (got["status"], got["length"]) == ("optimal", 24)
    assert "one process" not in out.stderr


def test_a_worker_search_says_where_its_cpu_went():
    """stats round_cpu: the rounds' CPU summed over the workers, the critical path (per round the
    busiest worker's) between a half of it and all of it, the parent's own; one process: its rounds."""
    one, two = _both(vdiag(2, 2, "nwse"), upper_bound=24)
    rounds = two.stats["round_cpu"]
    total = rounds["expand"] + rounds["absorb"]
    assert 0 < total / 2 - 0.01 <= rounds["critical"] <= total + 0.01
    assert rounds["parent"] >= 0
    assert set(one.stats["round_cpu"]) == {"expand", "absorb"}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=300, unique=True), st.integers(1, 9))
def test_split_cuts_sorted_ranks_by_owner(values, parts):
    from coinsat.search.rank.loop import owner, split

    ranks = np.array(sorted(values), dtype=np.uint64)
    pieces = split(ranks, parts)
    assert len(pieces) == parts
    assert np.array_equal(np.sort(np.concatenate(pieces)), ranks)
    for p, piece in enumerate(pieces):
        assert np.all(owner(piece, parts) == p)
        assert np.all(piece[1:] > piece[:-1])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=300, unique=True), st.integers(1, 9))
def test_the_compiled_split_cuts_as_numpy_does(values, parts):
    """jit.split_owned (two parts: two cursors, no count array; more: count, then scatter) gives
    loop.split's numpy pieces, each a sorted slice of one array."""
    from coinsat.search.rank import jit
    from coinsat.search.rank.loop import split

    if not jit.available():
        pytest.skip("numba is not installed")
    ranks = np.array(sorted(values), dtype=np.uint64)
    out, ends = jit.split_owned(ranks, parts)
    assert ends[0] == 0 and ends[-1] == ranks.size and len(ends) == parts + 1
    for p, piece in enumerate(split(ranks, parts)):  # small: the numpy passes
        assert np.array_equal(out[ends[p] : ends[p + 1]], piece)


@pytest.mark.parametrize("parts", [2, 3])
def test_split_is_the_same_compiled_or_not_on_a_large_array(parts):
    from coinsat.search.rank import loop
    from coinsat.search.rank.visited import chosen

    ranks = np.unique(np.random.default_rng(parts).integers(0, 2**64 - 1, 50_000, dtype=np.uint64))
    fast = loop.split(ranks, parts)
    with chosen(Kernels(compiled=False)):
        slow = loop.split(ranks, parts)
    assert len(fast) == len(slow) == parts
    assert all(np.array_equal(a, b) for a, b in zip(fast, slow))


def test_a_forked_worker_inherits_the_loaded_kernels():
    """processes.preload loads the kernels before the fork: a forked child then calls every one
    without numba compiling or loading anything (its compile entry point is made to fail there)."""
    import multiprocessing as mp

    from coinsat.search.rank import jit
    from coinsat.search.rank.visited import compiled

    if not jit.available() or "fork" not in mp.get_all_start_methods():
        pytest.skip("numba or fork missing")
    compiled()

    def child(q) -> None:
        from numba.core.dispatcher import Dispatcher

        def refuse(*a, **k):
            raise AssertionError("compiled in the worker")

        Dispatcher._compile_for_args = refuse  # what a call with no loaded overload goes through
        try:
            assert compiled() is jit
            u = np.arange(40_000, dtype=np.uint64)
            jit.split_owned(u, 2)
            jit.merge_unique(u, u[::2].copy())
            jit.dedup_sorted(u.copy())
            jit.member_sorted(u, u, np.zeros(u.size, dtype=np.bool_))
            q.put("ok")
        except BaseException as e:  # noqa: BLE001 - reported to the test
            q.put(repr(e))

    ctx = mp.get_context("fork")
    q = ctx.Queue()
    proc = ctx.Process(target=child, args=(q,))
    proc.start()
    got = q.get(timeout=60)
    proc.join(timeout=60)
    assert got == "ok"


@pytest.mark.parametrize("U", [None, 36])
def test_workers_keep_the_same_layers_compiled_or_not(U):
    """Two workers with the compiled kernels (loaded before the fork, the compiled owner split) and
    with the numpy ones (``Kernels(compiled=False)``: the workers inherit the choice): the same
    search state for state, on an instance whose layers are large enough for the compiled split
    (V(3,2)->SW-NE, optimum 36: layers of up to 234,317 states)."""
    inst = vdiag(3, 2, "swne")
    kw = {} if U is None else {"upper_bound": U}
    new = solve_rankbfs(inst, options=RankbfsOptions(workers=2, kernels=Kernels(compiled=True), **kw))
    old = solve_rankbfs(inst, options=RankbfsOptions(workers=2, kernels=Kernels(compiled=False), **kw))
    _same_search(new, old)
    assert new.status is Status.OPTIMAL and new.length == 36


@pytest.mark.parametrize("workers", [2, 3])
def test_the_gathered_layers_hold_every_state_once_on_any_number_of_workers(workers):
    """The witness of a worker search, gathered as the workers' parts (``visited.Parts``, route
    "memfd": each layer merged when read) or merged by the parent (a spill budget: ``collect``),
    holds layer for layer the states one process keeps: a part lost or written twice changes a
    layer.  V(3,2)->SW-NE: layers of up to 234,317 states, so the compiled merge runs."""
    inst = vdiag(3, 2, "swne")
    one = solve_rankbfs(inst, options=RankbfsOptions(workers=1))
    parts = solve_rankbfs(inst, options=RankbfsOptions(workers=workers))
    merged = solve_rankbfs(inst, options=RankbfsOptions(workers=workers, spill_budget=1 << 40))
    want = one.witness.layers
    assert one.status is Status.OPTIMAL and one.length == 36
    for got in (parts, merged):
        _same_search(one, got)
        v = got.witness.layers
        assert v.depths == want.depths == len(one.stats["layers"])
        for i in range(want.depths):
            layer = want.layer(i)
            assert np.array_equal(v.layer(i), layer) and v.layer_size(i) == layer.size
            assert bool(v.contains(layer).all())
            assert v.in_layer(int(layer[0]), i) and v.in_layer(int(layer[-1]), i)
            assert not v.in_layer(int(layer[-1]), i + 1) and not (i and v.in_layer(int(layer[0]), i - 1))
    if workers_module.route() == "memfd":
        assert isinstance(parts.witness.layers, Parts) and parts.stats["round_cpu"]["gather"] >= 0
    assert not isinstance(merged.witness.layers, Parts) and "gather" not in merged.stats["round_cpu"]


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(0, 40_000), st.integers(0, 2**32))
def test_parts_read_as_the_union_of_disjoint_sorted_runs(p, n, seed):
    """``visited.Parts``: each layer is the sorted union of its parts (compiled merge from
    ``COMPILED_MIN`` states on), membership asks every part, and nothing can be added."""
    rng = np.random.default_rng(seed)
    layers = [np.unique(rng.integers(0, 1 << 38, size, dtype=np.uint64)) for size in (1, n, n // 3)]
    pieces = [[layer[np.arange(layer.size) % p == q] for q in range(p)] for layer in layers]
    v = Parts(pieces, upper_bound=7)
    assert v.depths == 3 and v.upper_bound == 7 and v.size == sum(a.size for a in layers)
    for i, layer in enumerate(layers):
        assert np.array_equal(v.layer(i), layer) and v.layer(i) is not layer
        if layer.size:
            assert v.in_layer(int(layer[0]), i)
    assert bool(v.contains(np.unique(np.concatenate(layers))).all())
    assert v.depth_of(int(layers[0][0])) == 0
    with pytest.raises(TypeError):
        v.add(layers[0], 3)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(0, 2**64 - 1), max_size=60), min_size=1, max_size=4), st.integers(0, 2))
def test_the_owned_successors_merge_as_their_sorted_union(parts, scale):
    """``loop.merge_owned`` (``jit.merge_unique_select`` past FAST_MIN) is the sorted union of the
    runs an owner receives, equal values from two runs kept once, whichever run is longer."""
    from coinsat.search.rank import jit
    from coinsat.search.rank.loop import merge_owned
    from coinsat.search.rank.space import FAST_MIN

    arrays = [np.unique(np.array(p, dtype=np.uint64)) for p in parts]
    if scale:  # interleaved and sharing values: as two workers' successors of one owner
        arrays = [
            np.unique(np.concatenate([a, np.arange(scale * FAST_MIN, dtype=np.uint64) * np.uint64(i % 2 + 2)]))
            for i, a in enumerate(arrays)
        ]
    want = np.unique(np.concatenate(arrays))
    assert np.array_equal(merge_owned(list(arrays)), want)
    if jit.available():
        a, b = arrays[0], arrays[-1]
        assert np.array_equal(jit.merge_unique_select(a, b), np.union1d(a, b))
        assert np.array_equal(jit.merge_unique_select(b, a), np.union1d(a, b))
