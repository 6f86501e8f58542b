"""``rankbfs --resume DIR --workers N``: a run on worker processes survives a stop.

The parent saves every layer the workers complete in DIR, in the same files and manifest as
the one-process search (the two directories are byte for byte the same), and a resumed
search hands each worker its own part of every saved layer, cut for this run's number of
workers.  So a search saved on two workers resumes on one or two, and one saved on one
process resumes on two, with the answer, the moves (replayed by ``solution.verify``, i.e.
``rules.py``) and the layers of a run without a stop, state for state.  What one process
refuses, workers refuse: a damaged layer file, a frontier forged with a new sha256, the
layers of another search.  A resumed worker run's certificate is accepted.  The ranks of an
MPI job (``--cluster``) save through rank 0 and resume the same way (tests/cluster_resume_job.py)."""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from coinsat.cli import main
from coinsat.errors import UsageError
from coinsat.families import vdiag
from coinsat.result import Status
from coinsat.search.options import RankbfsOptions
from coinsat.search.rank import visited as visited_module
from coinsat.search.rank.colex import U64
from coinsat.search.rank.search import solve_rankbfs
from coinsat.search.rank.visited import MANIFEST, decode, encode
from coinsat.solution import verify

from .test_resume_integrity import _refused as refused_in_one_process

ROOT = Path(__file__).resolve().parent.parent
FILE = str(ROOT / "instances/families/vdiag-2-1-nwse.toml")  # vdiag(2, 1, "nwse"): 24 moves
SOLUTION = str(ROOT / "instances/families/solutions/vdiag-2-1-nwse.json")  # 24 moves
INSTANCES = {"V(2,1)": (vdiag(2, 1, "nwse"), 24), "V(2,2)": (vdiag(2, 2, "nwse"), 24)}


def run(inst, **kw):
    return solve_rankbfs(inst, options=RankbfsOptions(**kw))


def manifest(d: Path) -> dict:
    return json.loads((d / MANIFEST).read_text())


def layers_of(result) -> list[np.ndarray]:
    return [result.witness.layers.layer(i) for i in range(result.witness.layers.depths)]


def stop_after(inst, d: Path, depth: int, fresh, workers: int, **kw):
    """The search of ``fresh`` again on ``workers``, saved in d, stopped by the state limit once
    layer ``depth`` is complete."""
    cut = sum(fresh.stats["layers"][: depth + 1]) - 1
    stopped = run(inst, max_states=cut, resume=str(d), workers=workers, **kw)
    assert stopped.status is Status.UNKNOWN and stopped.stats["stopped"] == "state limit"
    assert manifest(d)["layers"] == fresh.stats["layers"][: depth + 1]
    return stopped


def same_as(again, fresh, inst) -> None:
    assert (again.status, again.length, again.lower_bound) == (fresh.status, fresh.length, fresh.lower_bound)
    assert again.solution == fresh.solution
    if fresh.solution is not None:
        assert verify(inst, again.solution).ok
    assert again.stats["layers"] == fresh.stats["layers"] and again.stats["states"] == fresh.stats["states"]
    assert all(np.array_equal(a, b) for a, b in zip(layers_of(again), layers_of(fresh), strict=True))


@pytest.mark.parametrize(("saved_on", "resumed_on"), [(2, 2), (2, 1), (1, 2)])
@pytest.mark.parametrize("name", INSTANCES)
def test_a_stopped_worker_search_resumes_on_any_number_of_workers(tmp_path, name, saved_on, resumed_on):
    inst, U = INSTANCES[name]
    fresh = run(inst, workers=1, upper_bound=U)
    assert fresh.status is Status.OPTIMAL and fresh.length == U
    depth = len(fresh.stats["layers"]) // 2
    stop_after(inst, tmp_path, depth, fresh, saved_on, upper_bound=U)
    again = run(inst, workers=resumed_on, upper_bound=U, resume=str(tmp_path))
    assert again.stats["resumed_at"] == depth and "re-derived" in again.stats["resumed"]["checked"]
    assert again.stats.get("workers", 1) == resumed_on
    same_as(again, fresh, inst)
    # the resumed run saved the rest: the whole search is in the directory, as one process saves it
    assert manifest(tmp_path)["layers"] == fresh.stats["layers"]
    assert not mp.active_children()


def test_workers_save_the_same_files_and_manifest_as_one_process(tmp_path, monkeypatch):
    """Layer files split in partitions too (SPLIT_AT lowered; the workers fork after it)."""
    monkeypatch.setattr(visited_module, "SPLIT_AT", 64)
    inst, U = INSTANCES["V(2,2)"]
    one, two = tmp_path / "one", tmp_path / "two"
    a = run(inst, workers=1, upper_bound=U, resume=str(one))
    b = run(inst, workers=2, upper_bound=U, resume=str(two))
    assert (a.status, a.length, a.solution) == (b.status, b.length, b.solution)
    assert manifest(one) == manifest(two)
    assert max(manifest(two)["parts"]) == visited_module.PARTS
    files = sorted(p.relative_to(one) for p in one.rglob("*.bin"))
    assert files == sorted(p.relative_to(two) for p in two.rglob("*.bin"))
    assert all((one / f).read_bytes() == (two / f).read_bytes() for f in files)


@pytest.mark.parametrize("bound", [24, 23], ids=["optimal", "bounded"])
def test_forced_supports_resume_on_workers(tmp_path, bound):
    """--forced-supports (its h named in the manifest), stopped on two workers, resumed on two:
    the same answer ("no solution with <= 23 moves" too) and layers as one run on one process."""
    inst, _ = INSTANCES["V(2,2)"]
    kw = {"upper_bound": bound, "forced_supports": True}
    fresh = run(inst, workers=1, **kw)
    fill = run(inst, workers=1, upper_bound=bound)
    assert fresh.stats["layers"] != fill.stats["layers"]  # else this test could not tell the two h apart
    stop_after(inst, tmp_path, len(fresh.stats["layers"]) - 4, fresh, 2, **kw)
    assert manifest(tmp_path)["h"] == "forced"
    again = run(inst, workers=2, resume=str(tmp_path), **kw)
    assert again.status is (Status.OPTIMAL if bound == 24 else Status.BOUNDED)
    same_as(again, fresh, inst)
    with pytest.raises(UsageError, match='h: saved "forced", this run "fill"'):
        run(inst, workers=2, upper_bound=bound, resume=str(tmp_path))


def test_a_finished_worker_search_answers_from_its_saved_layers(tmp_path):
    inst, U = INSTANCES["V(2,1)"]
    first = run(inst, workers=2, upper_bound=U, resume=str(tmp_path))
    again = run(inst, workers=2, upper_bound=U, resume=str(tmp_path))
    assert again.stats["resumed_at"] == len(first.stats["layers"]) - 1
    same_as(again, first, inst)


# --- what one process refuses, workers refuse -------------------------------------------------------------


def _cli(d: Path, capsys, *extra: str) -> tuple[int, str, str]:
    code = main(["solve", FILE, "--method", "rankbfs", "--workers", "2", "--resume", str(d), "--json", *extra])
    out, err = capsys.readouterr()
    return code, out, err


def _refused(code: int, out: str, err: str, *words: str) -> None:
    """A one-process refusal (tests/test_resume_integrity.py), and no worker left behind."""
    refused_in_one_process(code, out, err, *words)
    assert not mp.active_children()


def _saved_on_workers(tmp_path: Path) -> Path:
    d = tmp_path / "R"
    stopped = run(vdiag(2, 1, "nwse"), workers=2, max_states=3000, resume=str(d))
    assert stopped.status is Status.UNKNOWN and len(manifest(d)["layers"]) >= 5
    return d


def test_a_damaged_layer_file_is_refused_under_workers(tmp_path, capsys):
    d = _saved_on_workers(tmp_path)
    file = d / "L00003" / "p000.bin"
    data = bytearray(file.read_bytes())
    data[-1] ^= 1
    file.write_bytes(bytes(data))
    _refused(*_cli(d, capsys), str(file), "sha256")


def test_a_frontier_forged_with_a_new_hash_is_refused_under_workers(tmp_path, capsys):
    """The frontier cut to 10 states, its size and sha256 made consistent: the parent re-derives
    it from the layer before, as the one-process search does."""
    d = _saved_on_workers(tmp_path)
    m = manifest(d)
    last = len(m["layers"]) - 1
    front = decode((d / f"L{last:05d}" / "p000.bin").read_bytes())
    assert front.size > 10
    data = encode(np.asarray(front[:10], dtype=U64))
    (d / f"L{last:05d}" / "p000.bin").write_bytes(data)
    m["layers"][last] = 10
    m["sha256"][last] = [hashlib.sha256(data).hexdigest()]
    (d / MANIFEST).write_text(json.dumps(m))
    _refused(*_cli(d, capsys), f"saved layer {last} is not the layer that layer {last - 1} gives")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--upper-bound", SOLUTION], ["upper_bound: saved null, this run 24"]),
        (["--max-moves", "30"], []),  # the same search: accepted (the control)
    ],
    ids=["another-bound", "same-search"],
)
def test_the_manifest_of_another_search_is_refused_under_workers(tmp_path, capsys, extra, words):
    d = _saved_on_workers(tmp_path)
    before = manifest(d)
    code, out, err = _cli(d, capsys, *extra)
    if not words:
        assert code == 0, err
        assert json.loads(out)["length"] == 24
        return
    _refused(code, out, err, str(d), "another search", *words)
    assert manifest(d) == before  # nothing written


def test_the_layers_of_another_instance_are_refused_under_workers(tmp_path, capsys):
    d = _saved_on_workers(tmp_path)
    other = str(ROOT / "instances/families/vdiag-2-1-swne.toml")
    code = main(["solve", other, "--method", "rankbfs", "--workers", "2", "--resume", str(d), "--json"])
    out, err = capsys.readouterr()
    _refused(code, out, err, str(d), "another search", "instance: saved")


@pytest.mark.slow
@pytest.mark.parametrize("resumed_on", ["2", "1"])
def test_a_killed_worker_run_resumes_to_the_same_answer(tmp_path, resumed_on):
    """SIGKILL to the parent mid-search (after some layers are saved): its two workers end too;
    then the command again on ``resumed_on`` workers (V(3,2) -> NW-SE, 53 moves, some seconds: slow)."""
    file = str(ROOT / "instances/families/vdiag-3-2-nwse.toml")
    bound = str(ROOT / "instances/families/solutions/vdiag-3-2-nwse.json")
    base = [sys.executable, "-m", "coinsat", "solve", file, "--method", "rankbfs", "--resume", str(tmp_path)]
    base += ["--upper-bound", bound, "--json"]
    proc = subprocess.Popen([*base, "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    saved, t0 = tmp_path / MANIFEST, time.monotonic()
    while time.monotonic() - t0 < 300 and proc.poll() is None:
        if saved.exists() and len(json.loads(saved.read_text())["layers"]) >= 30:
            break
        time.sleep(0.005)
    workers = _children(proc.pid)
    assert len(workers) == 2
    proc.send_signal(signal.SIGKILL)  # the parent only: its workers end with it (processes._die_with_parent)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the search ended before it could be killed"
    t0 = time.monotonic()
    while time.monotonic() - t0 < 10 and any(_running(pid) for pid in workers):
        time.sleep(0.05)
    left = [pid for pid in workers if _running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "workers outlived their killed parent"
    done = manifest(tmp_path)
    out = subprocess.run([*base, "--workers", resumed_on], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert (got["status"], got["length"]) == ("optimal", 53)
    assert got["resumed"]["depth"] == len(done["layers"]) - 1
    inst = vdiag(3, 2, "nwse")
    fresh = run(inst, workers=1, upper_bound=53)
    assert manifest(tmp_path)["layers"] == fresh.stats["layers"]
    at = inst.board.coords
    assert got["moves"] == [[list(at[m.src]), list(at[m.dst])] for m in fresh.solution.moves]


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def _running(pid: int) -> bool:
    """Is ``pid`` alive and not a zombie (a worker whose parent died waits for init to reap it)?"""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


# --- the ranks of an MPI job (--cluster) ------------------------------------------------------------------


def test_a_stopped_cluster_search_resumes_on_the_ranks_and_across_exchanges(tmp_path):
    """Two real MPI ranks (tests/cluster_resume_job.py): rank 0 saves, a resumed job scatters
    the saved layers; fill and forced h; a directory saved by one process resumes on the ranks
    and the other way round; a forged frontier is refused on every rank with the same line."""
    from .test_rankbfs_cluster import _run

    out = _run([sys.executable, "-m", "mpi4py", "tests/cluster_resume_job.py", str(tmp_path)])
    assert out.returncode == 0, out.stderr[-2000:]
    lines = {line["case"]: line for line in map(json.loads, out.stdout.splitlines()) if "case" in line}
    assert set(lines) == {"fill", "forced", "across", "forged"}, out.stdout
    for name in ("fill", "forced"):
        got = lines[name]
        assert got["fresh"] == ["optimal", 24] and got["stopped"] == "unknown", got
        assert got["resumed_at"] == 12 and got["same"] and got["replays"] and got["ranks"] == 2, got
    assert lines["across"] == {"case": "across", "ranks_from_one": True, "one_from_ranks": True}
    said = lines["forged"]["refused"]
    assert len(said) == 2 and said[0] == said[1] and "is not the layer that layer" in said[0], said


def test_the_cluster_command_saves_and_answers_from_its_saved_layers(tmp_path):
    from .test_rankbfs_cluster import _run

    cmd = [sys.executable, "-m", "coinsat", "solve", FILE, "--method", "rankbfs", "--cluster", "--json"]
    cmd += ["--upper-bound", SOLUTION, "--resume", str(tmp_path)]
    first = _run(cmd)
    assert first.returncode == 0, first.stderr[-2000:]
    again = _run(cmd)
    assert again.returncode == 0, again.stderr[-2000:]
    printed = [json.loads(line) for line in again.stdout.splitlines() if line.startswith("{")]
    assert len(printed) == 1  # rank 0 alone reports
    assert (printed[0]["status"], printed[0]["length"]) == ("optimal", 24)
    assert printed[0]["resumed"]["depth"] == 24 == len(manifest(tmp_path)["layers"]) - 1


def test_a_resumed_worker_run_writes_an_accepted_certificate(tmp_path, capsys):
    """--certify after a resume on workers reads the saved layers (the witness) and the checker
    accepts them; the certificate's layers are those of a run without a stop."""
    d, cert = tmp_path / "R", tmp_path / "C"
    inst, U = INSTANCES["V(2,1)"]
    fresh = run(inst, workers=1, upper_bound=U)
    stop_after(inst, d, 10, fresh, 2, upper_bound=U)
    base = ["solve", FILE, "--method", "rankbfs", "--workers", "2", "--upper-bound", SOLUTION]
    assert main([*base, "--resume", str(d), "--certify", str(cert), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["status"], got["length"], got["resumed"]["depth"]) == ("optimal", 24, 10)
    assert got["certificate_check"]["accepted"] is True, got["certificate_check"]
