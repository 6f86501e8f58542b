"""rankbfs under limits and Ctrl-C: an honest ``unknown`` with the proven lower bound, never a
traceback; and the live line's text."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coinsat.io.terminal import Display, report_text
from coinsat.search.rank.space import RankReport

from .strategies import default_sigint

ROOT = Path(__file__).resolve().parent.parent
V32 = str(ROOT / "instances/families/vdiag-3-2-nwse.toml")  # optimum 53: minutes, so every limit stops it


def _solve(*extra: str) -> list[str]:
    return [sys.executable, "-m", "coinsat", "solve", V32, "--method", "rankbfs", "--json", *extra]


@pytest.mark.parametrize(
    "extra", [("--workers", "1", "--time-limit", "1.5"), ("--workers", "2", "--memory-limit", "40M")]
)
def test_a_limit_gives_unknown_with_a_lower_bound(extra):
    out = subprocess.run(_solve(*extra), capture_output=True, text=True, timeout=120)
    assert out.returncode == 3, out.stderr
    got = json.loads(out.stdout)
    assert got["status"] == "unknown" and got["length"] is None
    assert 1 <= got["lower_bound"] <= 53
    assert "Traceback" not in out.stderr


def test_ctrl_c_gives_unknown_with_a_lower_bound():
    # the numpy kernel, so that the signal lands in the search whatever the machine's load: the
    # compiled kernels load inside limits.signals_deferred (spill.compiled), where a Ctrl-C waits
    # until the load ends (seven tries by hand in the search, 0.25 s apart, six of them inside the
    # load: all exit 3 with "unknown")
    env = dict(os.environ, COINSAT_KERNEL="numpy")
    proc = subprocess.Popen(
        _solve("--workers", "1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=default_sigint,
    )
    time.sleep(3.0)  # past the imports, inside the search
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 3, err
    got = json.loads(out)
    assert got["status"] == "unknown" and got["lower_bound"] >= 1
    assert "interrupted" in err and "Traceback" not in err


def test_the_live_line_shows_depth_layer_rate_memory_and_disk():
    line = report_text(RankReport(7, 1234, 5678, 2.0, 4000, 2000.0, 50 << 20, 3 << 10))
    assert line == "depth 7  layer 1,234  states 5,678  2,000 expanded/s  memory 50.0 MB  disk 3.0 KB"
    display = Display("rankbfs")  # stderr is not a terminal here, and nothing asked: nothing shown
    display(RankReport(1, 2, 3, 1.0))
    assert display.mode == "off" and display.last is not None and display.last.startswith("depth 1  layer 2  states 3")
