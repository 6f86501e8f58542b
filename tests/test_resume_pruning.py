"""``rankbfs --resume DIR`` with bound-and-prune: the manifest names the pruning that made the layers.

A saved search records its bound U and its h (``"fill"``, ``"forced"`` or the perimeter's
record ``{"kind": "perimeter", "r": R, "inner": ...}``).  A search stopped mid-way and resumed
gives the same answer and the same layers, state for state, as one run without a stop, for
every h (the backward ball of ``--perimeter`` is rebuilt on resume); a resume with another h or
U is refused (one line naming the directory and both values, exit 2), and so is a manifest
whose h was edited: to another value than the run's by the comparison, to the run's own by
the re-derivation of the frontier (the sha256 of the manifest cover the layer files, not the
manifest's own fields)."""

from __future__ import annotations

import json
import shutil
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
from coinsat.search.rank.search import solve_rankbfs
from coinsat.search.rank.visited import MANIFEST

ROOT = Path(__file__).resolve().parent.parent
FILE = str(ROOT / "instances/families/vdiag-2-1-nwse.toml")  # vdiag(2, 1, "nwse"): 24 moves

#: the prunings (on V(2,1) -> NW-SE with U = 24, forced keeps fewer states than fill from
#: depth 12 on, and the ball of radius 3 fewer than fill at depths 21 and 22)
PRUNINGS = {
    "fill": {},
    "forced": {"forced_supports": True},
    "perimeter": {"perimeter": 3},
    "perimeter-forced": {"perimeter": 3, "forced_supports": True},
}


def run(**kw):
    return solve_rankbfs(vdiag(2, 1, "nwse"), options=RankbfsOptions(**kw))


def manifest(d: Path) -> dict:
    return json.loads((d / MANIFEST).read_text())


def layers_of(result) -> list[np.ndarray]:
    return [result.witness.layers.layer(i) for i in range(result.witness.layers.depths)]


def stopped_after(d: Path, depth: int, fresh, **kw) -> None:
    """Run the search of ``fresh`` again, saved in d, stopped by the state limit once layer
    ``depth`` is complete."""
    cut = sum(fresh.stats["layers"][: depth + 1]) - 1
    stopped = run(max_states=cut, resume=str(d), **kw)
    assert stopped.status is Status.UNKNOWN and stopped.stats["stopped"] == "state limit"
    assert manifest(d)["layers"] == fresh.stats["layers"][: depth + 1]


@pytest.mark.parametrize("bound", [24, 23], ids=["optimal", "bounded"])
@pytest.mark.parametrize("name", PRUNINGS)
def test_a_stopped_pruned_search_resumes_to_the_same_answer_and_layers(tmp_path, name, bound):
    kw = dict(PRUNINGS[name], upper_bound=bound)
    fresh = run(**kw)
    assert fresh.status is (Status.OPTIMAL if bound == 24 else Status.BOUNDED)
    depth = len(fresh.stats["layers"]) - 3
    stopped_after(tmp_path, depth, fresh, **kw)
    saved = manifest(tmp_path)
    assert saved["upper_bound"] == bound and saved["h"] == fresh.stats["h"]
    again = run(resume=str(tmp_path), **kw)
    assert again.stats["resumed_at"] == depth and "checked" in again.stats["resumed"]
    assert (again.status, again.length, again.lower_bound) == (fresh.status, fresh.length, fresh.lower_bound)
    assert again.solution == fresh.solution
    assert again.stats["layers"] == fresh.stats["layers"] and again.stats["h"] == fresh.stats["h"]
    assert all(np.array_equal(a, b) for a, b in zip(layers_of(again), layers_of(fresh), strict=True))


def test_the_prunings_tested_keep_different_layers():
    """Else the resume tests could not tell one h from another."""
    sizes = {name: run(upper_bound=24, **kw).stats["layers"] for name, kw in PRUNINGS.items()}
    assert len({tuple(s) for s in sizes.values()}) == len(PRUNINGS)


@pytest.mark.parametrize(
    ("saved", "asked", "words"),
    [
        ({}, {"forced_supports": True}, ['h: saved "fill", this run "forced"']),
        ({"forced_supports": True}, {}, ['h: saved "forced", this run "fill"']),
        ({"perimeter": 3}, {"perimeter": 2}, ['"r": 3', '"r": 2']),
        ({"perimeter": 3}, {}, ['"kind": "perimeter"', 'this run "fill"']),
        ({}, {"upper_bound": 23}, ["upper_bound: saved 24, this run 23"]),
        ({}, {"upper_bound": None}, ["upper_bound: saved 24, this run null", 'h: saved "fill", this run null']),
    ],
)
def test_a_resume_with_another_h_or_bound_is_refused(tmp_path, saved, asked, words):
    run(upper_bound=24, max_states=2000, resume=str(tmp_path), **saved)
    before = manifest(tmp_path)
    with pytest.raises(UsageError, match="another search") as e:
        run(**{"upper_bound": 24, **asked}, resume=str(tmp_path))
    for w in [str(tmp_path), *words]:
        assert w in str(e.value), str(e.value)
    assert manifest(tmp_path) == before  # nothing written


def test_the_command_refuses_another_h_in_one_line(tmp_path, capsys):
    d = str(tmp_path / "R")
    base = ["solve", FILE, "--method", "rankbfs", "--upper-bound", "construct", "--resume", d, "--json"]
    assert main([*base, "--forced-supports"]) == 0
    capsys.readouterr()
    assert main(base) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert d in err and 'h: saved "forced", this run "fill"' in err
    # the same h again: the saved layers answer at once, resumed
    assert main([*base, "--forced-supports"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["status"], got["length"]) == ("optimal", 24)


@pytest.mark.parametrize(("saved", "edited"), [({"forced_supports": True}, "fill"), ({}, "forced")])
def test_a_manifest_whose_h_was_edited_is_refused(tmp_path, saved, edited):
    """The sha256 in the manifest cover the layer files, not the manifest's own h: an h edited
    to another value than the run's is refused by the comparison; edited to the run's own, by
    the frontier, which the run re-derives from the layer before it with its h."""
    fresh = run(upper_bound=24, **saved)
    stopped_after(tmp_path, 14, fresh, upper_bound=24, **saved)  # fill and forced differ at 12 to 23
    m = manifest(tmp_path)
    m["h"] = edited
    (tmp_path / MANIFEST).write_text(json.dumps(m))
    with pytest.raises(UsageError, match="another search"):
        run(upper_bound=24, resume=str(tmp_path), **saved)
    as_edited = {"forced_supports": True} if edited == "forced" else {}
    with pytest.raises(UsageError, match="is not the layer that layer 13 gives"):
        run(upper_bound=24, resume=str(tmp_path), **as_edited)


def test_a_manifest_saved_before_it_named_its_h_reads_as_fill(tmp_path):
    """Directories saved before this field existed could only be pruned by the fill h."""
    fresh = run(upper_bound=24)
    stopped_after(tmp_path, 15, fresh, upper_bound=24)
    m = manifest(tmp_path)
    del m["h"]
    (tmp_path / MANIFEST).write_text(json.dumps(m))
    with pytest.raises(UsageError, match='h: saved "fill", this run "forced"'):
        run(upper_bound=24, forced_supports=True, resume=str(tmp_path))
    again = run(upper_bound=24, resume=str(tmp_path))
    assert again.stats["resumed_at"] == 15 and again.stats["layers"] == fresh.stats["layers"]


@pytest.mark.slow
def test_a_killed_forced_perimeter_run_resumes_to_the_same_answer(tmp_path):
    """SIGKILL mid-search (after some layers are saved), then the same command again (3.4 s to
    23 s measured here, depending on load and numba's cache: slow; the state-limit tests above
    stop and resume in process)."""
    file = str(ROOT / "instances/families/vdiag-2-2-nwse.toml")
    cmd = [sys.executable, "-m", "coinsat", "solve", file, "--method", "rankbfs", "--resume", str(tmp_path)]
    cmd += ["--upper-bound", "construct", "--forced-supports", "--perimeter", "2", "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    saved, t0 = tmp_path / MANIFEST, time.monotonic()
    while time.monotonic() - t0 < 120 and proc.poll() is None:
        if saved.exists() and len(json.loads(saved.read_text())["layers"]) >= 12:
            break
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the search ended before it could be killed"
    done = manifest(tmp_path)
    assert done["h"] == {"kind": "perimeter", "r": 2, "inner": "forced"}
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert (got["status"], got["length"]) == ("optimal", 24)
    assert got["resumed"]["depth"] == len(done["layers"]) - 1
    # the layers saved before and after the kill are those of a run without one
    bound = manifest(tmp_path)["upper_bound"]
    opts = RankbfsOptions(upper_bound=bound, forced_supports=True, perimeter=2)
    fresh = solve_rankbfs(vdiag(2, 2, "nwse"), options=opts)
    assert manifest(tmp_path)["layers"] == fresh.stats["layers"]


def test_a_resumed_perimeter_run_writes_an_accepted_certificate_of_its_h(tmp_path, capsys):
    """--certify after a resume checks every layer from the start, with the h the manifest names."""
    d, cert = tmp_path / "R", tmp_path / "C"
    base = ["solve", FILE, "--method", "rankbfs", "--upper-bound", "construct", "--forced-supports"]
    base += ["--perimeter", "3", "--resume", str(d), "--json"]
    assert main(base) == 0
    u = manifest(d)["upper_bound"]
    capsys.readouterr()
    fresh = run(upper_bound=u, forced_supports=True, perimeter=3)
    for layer in range(8, len(fresh.stats["layers"])):  # back to a stop after layer 7, as if killed there
        shutil.rmtree(d / f"L{layer:05d}")
    m = manifest(d)
    m.update(layers=m["layers"][:8], parts=m["parts"][:8], sha256=m["sha256"][:8])
    (d / MANIFEST).write_text(json.dumps(m))
    assert main([*base, "--certify", str(cert)]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["status"], got["length"], got["resumed"]["depth"]) == ("optimal", 24, 7)
    check = got["certificate_check"]
    assert check["accepted"] is True and "perimeter r = 3 over forced" in check["reason"], check
