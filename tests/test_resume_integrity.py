"""``solve --resume DIR`` trusts no saved layer it did not check.

Every layer file carries its sha256 in the manifest, is read back before any is used, and
must decode to a strictly increasing run of its own partition; the frontier must be what
the layer before it gives.  A damaged or edited directory is a one-line error naming the
file (exit 2), never a traceback, and never an answer (the reproducers of the review:
an emptied frontier answered ``unsolvable`` with a global certificate, a cut frontier a
70-move "optimal" for a 53-move puzzle, a truncated layer a traceback).  An answer of a
resumed search says that it was resumed (its statistics; ``solve``'s JSON and human output)."""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path

import numpy as np
import pytest

from coinsat.cli import main
from coinsat.errors import UsageError
from coinsat.families import vdiag
from coinsat.result import Status
from coinsat.search.rank import search as rankbfs
from coinsat.search.rank import space
from coinsat.search.rank.colex import U64
from coinsat.search.rank.visited import MANIFEST, decode, encode

ROOT = Path(__file__).resolve().parent.parent
FILE = str(ROOT / "instances/families/vdiag-2-1-nwse.toml")  # the same puzzle as vdiag(2, 1, "nwse")


def solve_rankbfs(instance, time_limit=None, **kw):
    """``rankbfs.solve_rankbfs`` with its options as keywords (either form of its contract)."""
    if "options" not in inspect.signature(rankbfs.solve_rankbfs).parameters:
        return rankbfs.solve_rankbfs(instance, time_limit=time_limit, **kw)
    from coinsat.limits import Limits
    from coinsat.search.options import RankbfsOptions

    return rankbfs.solve_rankbfs(instance, limits=Limits(time_limit), options=RankbfsOptions(**kw))


def _saved(tmp_path: Path, max_states: int = 3000, **options) -> Path:
    """A search of V(2,1) -> NW-SE stopped after a few layers, saved in tmp_path/R."""
    d = tmp_path / "R"
    stopped = solve_rankbfs(vdiag(2, 1, "nwse"), max_states=max_states, resume=str(d), **options)
    assert stopped.status is Status.UNKNOWN
    assert len(_manifest(d)["layers"]) >= 5
    return d


def _manifest(d: Path) -> dict:
    return json.loads((d / MANIFEST).read_text())


def _replace_layer(d: Path, i: int, run: np.ndarray, rehash: bool) -> None:
    """Layer i becomes ``run`` (one file), its size edited in the manifest, its sha256 too if ``rehash``."""
    m = _manifest(d)
    assert m["parts"][i] == 1
    data = encode(np.asarray(run, dtype=U64))
    (d / f"L{i:05d}" / "p000.bin").write_bytes(data)
    m["layers"][i] = int(run.size)
    if rehash:
        m["sha256"][i] = [hashlib.sha256(data).hexdigest()]
    (d / MANIFEST).write_text(json.dumps(m))


def _cli(d: Path, capsys, *extra: str) -> tuple[int, str, str]:
    code = main(["solve", FILE, "--method", "rankbfs", "--resume", str(d), "--json", *extra])
    out, err = capsys.readouterr()
    return code, out, err


def _refused(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2, (code, out, err)
    assert out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    for w in words:
        assert w in err, err


def test_the_manifest_holds_a_sha256_per_layer_file(tmp_path):
    d = _saved(tmp_path)
    m = _manifest(d)
    assert len(m["sha256"]) == len(m["layers"]) == len(m["parts"])
    for i, (digests, parts) in enumerate(zip(m["sha256"], m["parts"])):
        assert len(digests) == parts
        for p, h in enumerate(digests):
            assert hashlib.sha256((d / f"L{i:05d}" / f"p{p:03d}.bin").read_bytes()).hexdigest() == h


@pytest.mark.parametrize("rehash", [False, True], ids=["hash-kept", "hash-forged"])
def test_an_emptied_frontier_never_answers_unsolvable(tmp_path, capsys, rehash):
    """The review's reproducer (there on V(3,2)): frontier emptied, its size set to 0 in the
    manifest -> 'unsolvable', scope global, exit 0.  Now exit 2, with or without a new hash."""
    d = _saved(tmp_path)
    last = len(_manifest(d)["layers"]) - 1
    _replace_layer(d, last, np.zeros(0, dtype=U64), rehash)
    code, out, err = _cli(d, capsys)
    _refused(code, out, err, MANIFEST if rehash else f"L{last:05d}")
    assert "unsolvable" not in out


def test_a_cut_frontier_with_a_forged_hash_is_refused(tmp_path, capsys):
    """The frontier cut to 10 states and the manifest made consistent (size and sha256): the
    review got a too-long 'optimal' answer; the frontier is re-derived from the layer before."""
    d = _saved(tmp_path)
    last = len(_manifest(d)["layers"]) - 1
    front = decode((d / f"L{last:05d}" / "p000.bin").read_bytes())
    assert front.size > 10
    _replace_layer(d, last, front[:10], rehash=True)
    code, out, err = _cli(d, capsys)
    _refused(code, out, err, f"saved layer {last} is not the layer that layer {last - 1} gives")


def test_a_forged_extra_state_in_the_frontier_is_refused(tmp_path):
    d = _saved(tmp_path)
    last = len(_manifest(d)["layers"]) - 1
    front = decode((d / f"L{last:05d}" / "p000.bin").read_bytes())
    extra = np.union1d(front, np.array([int(front[-1]) + 1], dtype=U64))
    _replace_layer(d, last, extra, rehash=True)
    with pytest.raises(UsageError, match="is not the layer"):
        solve_rankbfs(vdiag(2, 1, "nwse"), resume=str(d))


def test_a_truncated_frontier_file_is_exit_2_naming_it(tmp_path, capsys):
    d = _saved(tmp_path)
    last = len(_manifest(d)["layers"]) - 1
    f = d / f"L{last:05d}" / "p000.bin"
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2 - 3])
    code, out, err = _cli(d, capsys)
    _refused(code, out, err, str(f), "sha256")


@pytest.mark.parametrize("rehash", [False, True], ids=["hash-kept", "hash-forged"])
def test_flipped_or_truncated_bytes_in_a_middle_layer_are_exit_2(tmp_path, capsys, rehash):
    """Flipped bytes in a middle layer (the review: IndexError/ValueError traceback, exit 4); with
    a forged hash the decoder itself refuses bytes it cannot have written."""
    d = _saved(tmp_path)
    m = _manifest(d)
    i = len(m["layers"]) // 2
    f = d / f"L{i:05d}" / "p000.bin"
    data = f.read_bytes()
    bad = data[:-1] if rehash else data[:9] + bytes([data[9] ^ 0xFF]) + data[10:]
    f.write_bytes(bad)
    if rehash:
        m["sha256"][i] = [hashlib.sha256(bad).hexdigest()]
        (d / MANIFEST).write_text(json.dumps(m))
    code, out, err = _cli(d, capsys)
    _refused(code, out, err, str(f))


def test_decode_refuses_bytes_encode_cannot_write():
    from coinsat.search.rank.visited import Damaged

    good = encode(np.array([5, 9, 300, 70_000, 2**40], dtype=U64))
    for bad in (b"\x03", bytes([3]) + good[1:], good[:-1], good[:10], b"\x00" * 20):
        with pytest.raises(Damaged):
            decode(bad)
    assert decode(good).tolist() == [5, 9, 300, 70_000, 2**40]


@pytest.mark.parametrize(
    "edit",
    [
        lambda m: m.pop("sha256"),
        lambda m: m.__setitem__("parts", ["x"] * len(m["parts"])),
        lambda m: m.__setitem__("layers", m["layers"][:-1]),
        lambda m: m["sha256"][1].__setitem__(0, "zz"),
        lambda m: m.__setitem__("layers", [-1] + m["layers"][1:]),
    ],
    ids=["no-hashes", "bad-parts", "short-sizes", "bad-hash", "negative-size"],
)
def test_a_malformed_manifest_is_exit_2(tmp_path, capsys, edit):
    d = _saved(tmp_path)
    m = _manifest(d)
    edit(m)
    (d / MANIFEST).write_text(json.dumps(m))
    code, out, err = _cli(d, capsys)
    _refused(code, out, err, MANIFEST)


def test_a_manifest_that_is_not_an_object_is_exit_2(tmp_path, capsys):
    d = _saved(tmp_path)
    (d / MANIFEST).write_text("[1, 2]")
    _refused(*_cli(d, capsys), MANIFEST)


def test_a_replaced_start_layer_is_refused(tmp_path):
    d = _saved(tmp_path)
    start = decode((d / "L00000" / "p000.bin").read_bytes())
    _replace_layer(d, 0, start + U64(1), rehash=True)
    with pytest.raises(UsageError, match="layer 0 is not the start"):
        solve_rankbfs(vdiag(2, 1, "nwse"), resume=str(d))


def test_a_resumed_answer_says_it_was_resumed(tmp_path, capsys):
    fresh = solve_rankbfs(vdiag(2, 1, "nwse"))
    d = _saved(tmp_path)
    depth = len(_manifest(d)["layers"]) - 1
    again = solve_rankbfs(vdiag(2, 1, "nwse"), resume=str(d))
    assert (again.status, again.length, again.lower_bound) == (fresh.status, fresh.length, fresh.lower_bound)
    assert again.stats["resumed"]["depth"] == depth
    assert "re-derived" in again.stats["resumed"]["checked"]
    assert "resumed" not in fresh.stats
    # the JSON and the human view say so too
    code, out, _ = _cli(d, capsys)
    assert code == 0 and json.loads(out)["resumed"]["directory"] == str(d)
    code = main(["solve", FILE, "--method", "rankbfs", "--resume", str(d)])
    assert code == 0 and f"resumed: from the layers saved in {d}" in capsys.readouterr().out


def test_a_resumed_proof_of_a_bound_says_it_was_resumed(tmp_path):
    """Bound-and-prune that runs out of states ('bounded', with a certificate), resumed: the same
    proof, and its statistics name the directory it continued."""
    U = solve_rankbfs(vdiag(2, 1, "nwse")).length - 1
    fresh = solve_rankbfs(vdiag(2, 1, "nwse"), upper_bound=U)
    assert fresh.status is Status.BOUNDED and "resumed" not in fresh.stats
    d = _saved(tmp_path, max_states=2000, upper_bound=U)
    again = solve_rankbfs(vdiag(2, 1, "nwse"), resume=str(d), upper_bound=U)
    assert (again.status, again.lower_bound, again.certificate) == (fresh.status, fresh.lower_bound, fresh.certificate)
    assert again.stats["resumed"]["directory"] == str(d)
    assert again.stats["layers"] == fresh.stats["layers"]


def test_a_limit_before_the_frontier_is_checked_claims_nothing_of_the_frontier(tmp_path):
    """Stopped while re-deriving the frontier (layer D), a resumed search knows the paths of
    fewer than D moves only: lower bound D, not D + 1 (the frontier may hide the goal)."""
    d = _saved(tmp_path)
    depth = len(_manifest(d)["layers"]) - 1
    stopped = solve_rankbfs(vdiag(2, 1, "nwse"), resume=str(d), time_limit=1e-9)
    assert stopped.status is Status.UNKNOWN
    assert stopped.lower_bound == depth
    assert stopped.stats["resumed"]["checked"] == "sha256 and order of every saved layer file"


def test_layers_that_do_not_chain_are_an_error_not_an_assertion():
    """path() meets a state with no predecessor in the layer before (only edited saved layers
    can do that): an InternalError in one line; a resumed search names its directory."""
    from coinsat.errors import InternalError

    inst = vdiag(2, 1, "nwse")
    ranked = space.Space(inst, True, None)
    goal = int(ranked.goal_ranks[0])
    with pytest.raises(InternalError, match="do not chain"):
        space.path(ranked, lambda rank, t: False, 3, goal)
