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
    ],
    ids=["solve-instance", "show-instance", "verify-solution", "check-certificate"],
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
