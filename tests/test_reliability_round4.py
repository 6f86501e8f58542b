"""The round-4 red team's defects R4-1 to R4-8, each pinned by a test made from its reproducer
(the inputs are copied here, tiny), and the published-optimum check (``known_optimal``).

R4-1 special files as inputs · R4-2 SIGTERM · R4-3 the ILP engine and a signal · R4-4 terminal
escapes in names · R4-5 the BTOR2 reader's bounds · R4-6 certificate versions and number
spellings · R4-7 resume folders · R4-8 line separators and NUL in pictures and names.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coinsat.cli import main
from coinsat.errors import InstanceError

from .strategies import default_sigint

ROOT = Path(__file__).resolve().parent.parent
H_TO_O = ROOT / "instances" / "paper" / "h-to-o.toml"
VDIAG_3_2 = ROOT / "instances" / "families" / "vdiag-3-2-nwse.toml"

# the smallest puzzle of the reproducers (in/esc.toml without its name): one move
TINY = 'board = "square"\nstart = [[0,0],[1,0],[0,1]]\ngoal = [[1,1],[1,0],[0,1]]\n'


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# R4-1: an input path that names a device, a FIFO or a folder is refused before it is read


@pytest.fixture
def specials(tmp_path):
    """A link to /dev/zero and a FIFO (never read without the check: /dev/zero is endless)."""
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    return {"zero": zero, "fifo": fifo, "folder": tmp_path}


@pytest.mark.parametrize("which", ["zero", "fifo", "folder"])
@pytest.mark.parametrize(
    "argv",
    [
        ("solve", "{p}", "--time-limit", "2"),
        ("show", "{p}"),
        ("verify", str(H_TO_O), "{p}"),
        ("check-certificate", str(H_TO_O), "{p}", "--time-limit", "2"),
        ("decode", str(H_TO_O), "{p}", "{p}"),
    ],
    ids=["solve-instance", "show-instance", "verify-solution", "check-certificate", "decode-formula"],
)
def test_r4_1_a_special_file_is_refused_before_it_is_read(specials, which, argv, capsys):
    path = specials[which]
    code, _, err = run(capsys, *(a.format(p=path) for a in argv))
    assert code == 2
    line = err.strip()
    assert "\n" not in line and str(path) in line and "not a regular file" in line
    kind = {"zero": "character device", "fifo": "FIFO", "folder": "folder"}[which]
    assert kind in line


def test_r4_1_a_file_over_the_cap_is_refused_by_its_size(tmp_path):
    from coinsat.io.files import read_regular

    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 101)
    with pytest.raises(InstanceError, match="too large"):
        read_regular(big, "the instance file", limit=100)
    assert read_regular(big, "the instance file", limit=101) == b"#" * 101


def test_r4_1_a_link_to_a_regular_file_is_still_read(tmp_path, capsys):
    real = tmp_path / "real.toml"
    real.write_text(TINY)
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    code, out, _ = run(capsys, "solve", link, "--json")
    assert code == 0 and json.loads(out)["length"] == 1


# R4-2: SIGTERM ends a command like Ctrl-C: exit 3, one line, scratch folders removed


@pytest.mark.skipif(
    not Path("/proc").is_dir() or not any(Path(d, "berkeley-abc").exists() for d in ("/usr/bin", "/usr/local/bin")),
    reason="needs ABC (berkeley-abc) and Linux's /proc",
)
def test_r4_2_sigterm_exits_3_and_removes_the_abc_scratch_folder(tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = dict(os.environ, TMPDIR=str(scratch))
    p = subprocess.Popen(
        [sys.executable, "-m", "coinsat", "solve", str(VDIAG_3_2), "--method", "pdr"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        for _ in range(600):  # until ABC works in its scratch folder
            if list(scratch.glob("coinsat-abc-*")):
                break
            time.sleep(0.1)
        assert list(scratch.glob("coinsat-abc-*")), "ABC did not start"
        time.sleep(0.5)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    assert p.returncode == 3, err
    assert "interrupted" in err and "Traceback" not in err
    assert not list(scratch.glob("coinsat-abc-*"))


def test_r4_2_sigterm_while_loading_exits_3_with_one_line():
    code = (
        "import os, signal, sys\n"
        "sys.argv[0] = '/usr/local/bin/coinsat'\n"
        "import coinsat._startup\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "print('survived')\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 3 and p.stderr == "coinsat: interrupted\n" and p.stdout == ""


def test_r4_2_a_forked_child_gets_the_default_sigterm_back(monkeypatch):
    from coinsat import _startup

    before = signal.getsignal(signal.SIGTERM)
    try:
        monkeypatch.setattr(sys, "argv", ["coinsat", "solve"])
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _startup.guard_loading()
        assert signal.getsignal(signal.SIGTERM) is _startup._stop
        _startup.restore()
        assert signal.getsignal(signal.SIGTERM) is _startup._terminate
        pid = os.fork()
        if pid == 0:  # the child: its SIGTERM is the default one again
            os._exit(0 if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL else 1)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        with pytest.raises(KeyboardInterrupt):
            _startup._terminate(signal.SIGTERM, None)
    finally:
        signal.signal(signal.SIGTERM, before)


# R4-3: the ILP engine stops within 2 s of a signal (HiGHS runs in a thread that can be stopped)


def test_r4_3_a_signal_stops_a_highs_solve_within_two_seconds():
    pytest.importorskip("highspy")
    import threading

    from coinsat.backends.ilp_backend import run_ilp
    from coinsat.encode.ilp import build_ilp
    from coinsat.io.instance_format import read_instance

    # V(3,2) -> NW-SE needs 53 moves; at horizon 40 HiGHS works for far longer than a second
    model = build_ilp(read_instance(VDIAG_3_2), 40)
    sent: list[float] = []

    def interrupt() -> None:
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(1.0, interrupt)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_ilp(model.problem, "highs", time_limit=120)
        stopped = time.perf_counter()
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert sent and stopped - sent[0] < 2.0


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_r4_3_solve_method_ilp_exits_3_soon_after_a_signal(sig):
    pytest.importorskip("highspy")
    p = subprocess.Popen(
        [sys.executable, "-m", "coinsat", "solve", str(VDIAG_3_2), "--method", "ilp"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=default_sigint,
    )
    try:
        time.sleep(5.0)  # past the imports, inside a HiGHS solve (T = 20 and up each take seconds)
        t0 = time.perf_counter()
        p.send_signal(sig)
        out, err = p.communicate(timeout=60)
        waited = time.perf_counter() - t0
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    assert p.returncode == 3, err
    assert "interrupted" in err and "Traceback" not in err
    assert waited < 2.0 + 1.0  # the engine's 2 s, and a loaded machine's process exit


# R4-4: control characters and bidi overrides in names are escaped on every human output

ESC_NAME = "\x1b[31mRED\x1b[0m\x1b]0;pwned\x07\u202e"  # in/esc.toml's name, with U+202E


@pytest.mark.parametrize(
    "argv",
    [("solve", "{p}"), ("show", "{p}"), ("count", "{p}"), ("construct", "{p}")],
    ids=["solve", "show", "count", "construct"],
)
def test_r4_4_a_name_with_terminal_escapes_prints_as_visible_text(tmp_path, argv, capsys):
    path = tmp_path / "esc.toml"
    path.write_text(f"name = {json.dumps(ESC_NAME)}\n{TINY}")
    code, out, err = run(capsys, *(a.format(p=path) for a in argv))
    shown = out + err
    assert code in (0, 2, 3)
    assert not any(ch in shown for ch in "\x1b\x07\u202e")
    if code == 0:
        assert "\\x1b[31mRED" in out and "\\u202e" in out


def test_r4_4_escaped_keeps_text_and_escapes_controls_bidi_and_separators():
    from coinsat.io.terminal import escaped

    assert escaped("h-to-o: optimal — 4 moves\n\tok é") == "h-to-o: optimal — 4 moves\n\tok é"
    assert escaped("a\x1b]0;x\x07b") == "a\\x1b]0;x\\x07b"
    assert escaped("\x85\x9b\x7f\u2028\u2066\u200f") == "\\x85\\x9b\\x7f\\u2028\\u2066\\u200f"


def test_r4_4_an_error_line_naming_a_file_is_escaped(tmp_path, capsys):
    path = tmp_path / "x\x1b[2Jy.toml"  # a file name that would clear the screen
    code, _, err = run(capsys, "solve", path)
    assert code == 2 and "\x1b" not in err and "\\x1b[2J" in err


# R4-5: the BTOR2 reader is bounded and refuses width 0 and a node defined twice


@pytest.mark.parametrize(
    "text, why",
    [
        ("1 sort bitvec 100000000\n2 input 1\n", "width 100000000"),  # btorbig.py: 24 s and 3 GB before
        ("1 sort bitvec 99999999999\n", "width 99999999999"),
        ("1 sort bitvec 0\n", "width 0"),
        ("1 sort bitvec 1\n2 input 1\n2 input 1\n", "node 2 is defined twice"),
        ("1 sort bitvec 1\n2 state 1\n3 init 1 2 2\n3 init 1 2 2\n", "node 3 is defined twice"),
        ("1 sort bitvec 1\n2 input\n", "takes 1 arguments"),
    ],
)
def test_r4_5_the_btor2_reader_refuses_huge_widths_width_0_and_redefinitions(text, why):
    from coinsat.io.btor2 import read_btor2

    t0 = time.perf_counter()
    with pytest.raises(InstanceError, match=why):
        read_btor2(text, "case.btor2")
    assert time.perf_counter() - t0 < 1.0


def test_r4_5_the_btor2_reader_caps_nodes_and_bits(monkeypatch):
    from coinsat.io import btor2

    many = "1 sort bitvec 1\n" + "".join(f"{i} input 1\n" for i in range(2, 60))
    monkeypatch.setattr(btor2, "MAX_NODES", 50)
    with pytest.raises(InstanceError, match="more than 50 nodes"):
        btor2.read_btor2(many, "many.btor2")
    monkeypatch.setattr(btor2, "MAX_NODES", 1000)
    monkeypatch.setattr(btor2, "MAX_BITS", 40)
    with pytest.raises(InstanceError, match="more than 40 bits"):
        btor2.read_btor2(many, "many.btor2")


def test_r4_5_the_writers_btor2_still_reads():
    from coinsat.io.btor2 import btor2_format, read_btor2
    from coinsat.io.instance_format import read_instance

    circuit = read_btor2(btor2_format(read_instance(H_TO_O), 4), "h-to-o.btor2")
    assert circuit.bad and circuit.latches


# R4-6: a certificate's version is the integer 1, and a claim spells its numbers canonically


@pytest.fixture(scope="module")
def bounded_hto(tmp_path_factory):
    """A genuine bounded certificate for h-to-o at horizon 3 (the optimum is 4)."""
    pytest.importorskip("dratify")
    from coinsat.certificates.prove.bounded import build_bounded
    from coinsat.io.instance_format import read_instance

    folder = tmp_path_factory.mktemp("bounded")
    cert = build_bounded(read_instance(H_TO_O), 3, folder, "hto")
    assert cert is not None
    return folder, json.loads(json.dumps(cert))


@pytest.mark.parametrize(
    "field, value, why",
    [
        ("coinsat_certificate", True, "not a coinsat certificate"),
        ("coinsat_certificate", 1.0, "not a coinsat certificate"),
        ("claim", "no solution with <= 03 moves", "unreadable claim"),
        ("claim", "no solution with <= 3 moves", None),  # the genuine file: accepted
    ],
)
def test_r4_6_a_version_of_true_or_1_0_and_a_leading_zero_are_rejected(bounded_hto, field, value, why):
    from coinsat.certificates.check import check_certificate
    from coinsat.io.instance_format import read_instance

    folder, cert = bounded_hto
    forged = dict(cert, **{field: value})
    verdict = check_certificate(read_instance(H_TO_O), forged, folder)
    if why is None:
        assert verdict.ok, verdict.reason
    else:
        assert not verdict.ok and why in verdict.reason


def test_r4_6_a_census_of_version_true_is_rejected(tmp_path):
    from coinsat.certificates.check.census import Rejected, census_from

    with pytest.raises(Rejected, match="of version 1"):
        census_from({"format": "coinsat-census", "version": True}, tmp_path, "census.json")


# R4-8: U+2028 (and the other line separators) and NUL are refused in pictures and names


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\u3000", "\u00a0"])
def test_r4_8_a_line_separator_inside_a_picture_row_is_refused(tmp_path, separator, capsys):
    # in/picu2028.toml: the row "o<U+2028>o" was read as "o o"
    path = tmp_path / "pic.toml"
    path.write_text(f'board = "square"\nstart = """\no{separator}o\no .\n"""\ngoal = """\n. o\no o\n"""\n')
    code, _, err = run(capsys, "solve", path)
    assert code == 2 and f"{path}:3:" in err and "unexpected character" in err


@pytest.mark.parametrize("name", ["\u202e\u0000evil", "two\u2028lines", "a\nb", "x\x85y"])
def test_r4_8_nul_and_line_breaks_in_a_name_are_refused(tmp_path, name, capsys):
    # in/uni.toml: name = "\u202e\u0000evil" was accepted
    path = tmp_path / "uni.toml"
    path.write_text(f"name = {json.dumps(name)}\n{TINY}")
    code, _, err = run(capsys, "solve", path)
    assert code == 2 and f"{path}:1:" in err and "line break or NUL" in err


def test_r4_8_a_graph_cell_name_with_a_line_separator_is_refused(tmp_path, capsys):
    path = tmp_path / "graph.toml"
    path.write_text(
        'board = "graph"\nadjacency = 1\nstart = ["a"]\ngoal = ["b\\u2028c"]\n[graph]\nedges = [["a", "b\\u2028c"]]\n'
    )
    code, _, err = run(capsys, "solve", path)
    assert code == 2 and "line break or NUL" in err


# known_optimal: an answer that contradicts the puzzle file's published optimum says so loudly


@pytest.mark.parametrize("known, contradicted", [(1, False), (2, True), (0, True)])
def test_an_optimum_other_than_the_published_one_is_flagged(tmp_path, known, contradicted, capsys):
    path = tmp_path / "tiny.toml"
    path.write_text(f"known_optimal = {known}\n{TINY}")  # the optimum is 1 move
    code, out, err = run(capsys, "solve", path, "--json")
    obj = json.loads(out)
    assert code == 0 and obj["length"] == 1 and obj["known_optimal"] == known
    if contradicted:
        assert "optimum is 1 moves" in obj["against_known_optimal"] and "WARNING" in err
    else:
        assert obj["against_known_optimal"] is None and "WARNING" not in err
    code, out, _ = run(capsys, "solve", path)
    assert code == 0 and ("WARNING" in out) == contradicted


def test_against_published_names_every_kind_of_contradiction():
    from coinsat.result import Result, Scope, Status, against_published
    from coinsat.solution import Solution

    three = Solution.of([(0, 1), (1, 2), (2, 3)])
    optimal = Result(status=Status.OPTIMAL, method="x", solution=three, lower_bound=3)
    feasible = Result(status=Status.FEASIBLE, method="x", solution=three, lower_bound=2)
    bounded = Result(status=Status.BOUNDED, method="x", lower_bound=6)
    unsolvable = Result(
        status=Status.UNSOLVABLE, method="x", lower_bound=None, certificate={"kind": "k", "scope": Scope.GLOBAL}
    )
    assert against_published(optimal, None) is None and against_published(optimal, 3) is None
    assert "optimum is 3 moves" in against_published(optimal, 4)
    assert "shorter than" in against_published(feasible, 4) and against_published(feasible, 3) is None
    assert "at least 6 moves" in against_published(bounded, 5) and against_published(bounded, 6) is None
    assert "unsolvable" in against_published(unsolvable, 7)


# R4-7: a resume directory is locked, and every saved layer's hash is checked on resume


def test_r4_7_a_resume_directory_held_by_another_run_is_exit_2(tmp_path, capsys):
    from coinsat.search.rank.visited import resume_lock

    folder = tmp_path / "R"
    argv = ("solve", H_TO_O, "--method", "rankbfs", "--resume", folder, "--json")
    with resume_lock(folder):
        code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert "locked" in err and str(folder) in err and "\n" not in err.strip()
    code, out, _ = run(capsys, *argv)  # released: the same command runs
    assert code == 0 and json.loads(out)["length"] == 4


def test_r4_7_two_concurrent_resumes_of_one_directory_the_second_is_refused(tmp_path, capsys):
    # resume.sh, part 2: two `solve --resume` runs on one V(3,2) directory both wrote it
    folder = tmp_path / "B"
    first = subprocess.Popen(
        [sys.executable, "-m", "coinsat", "solve", str(VDIAG_3_2), "--method", "rankbfs", "--resume", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        for _ in range(600):  # until the first run has saved a layer (it holds the lock from its start)
            if (folder / "manifest.json").exists():
                break
            time.sleep(0.1)
        assert (folder / "manifest.json").exists(), "the first run saved nothing"
        code, _, err = run(capsys, "solve", VDIAG_3_2, "--method", "rankbfs", "--resume", folder)
        assert first.poll() is None, "the first run ended before the second started"
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.communicate()
    assert code == 2 and "locked" in err


def test_r4_7_an_edited_layer_before_the_frontier_is_caught_by_its_hash(tmp_path, capsys):
    folder = tmp_path / "R"
    argv = ("solve", H_TO_O, "--method", "rankbfs", "--resume", folder, "--json")
    code, _, _ = run(capsys, *argv)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert code == 0 and len(manifest["layers"]) >= 3
    for depth in range(len(manifest["layers"]) - 1):  # every layer but the frontier (re-derived anyway)
        file = folder / f"L{depth:05d}" / "p000.bin"
        saved = file.read_bytes()
        file.write_bytes(saved[:-1] + bytes([saved[-1] ^ 1]))
        code, _, err = run(capsys, *argv)
        assert code == 2 and str(file) in err and "sha256" in err, depth
        file.write_bytes(saved)
    code, out, _ = run(capsys, *argv)
    assert code == 0 and json.loads(out)["length"] == 4
