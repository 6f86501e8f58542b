"""One progress display on every path (``coinsat/io/terminal.py:Display``): before the search a
header naming the engine, the h and the bound (for ``auto``: its plan's choice), a live line on a
terminal, a final line; nothing on stderr off a terminal unless ``--progress`` asks for it, nothing
with ``--json``.  The command line runs as a subprocess on small puzzles; the terminal is a pty."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coinsat.cli import main
from coinsat.io.terminal import Display, header_text, report_text, short
from coinsat.search.driver import HorizonReport
from coinsat.search.ilp import IlpReport
from coinsat.search.layered import LayerReport
from coinsat.search.rank.space import RankReport

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
ABC = shutil.which("berkeley-abc") or shutil.which("abc")


def _has(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def coinsat(*argv: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "coinsat", *argv], capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=ENV
    )


# (arguments of `coinsat solve`, the header the display prints before the search)
SOLVE_PATHS = [
    (["paper/diagonal"], "engine spanbfs, h none, bound none; auto: exact window the goal spans"),
    (["paper/diagonal", "--method", "bfs"], "engine bfs, h none, bound none"),
    (["paper/diagonal", "--method", "bfs", "--max-moves", "20"], "engine bfs, h none, bound 20 (from --max-moves)"),
    (["paper/diagonal", "--method", "spanbfs"], "engine spanbfs, h none, bound none"),
    (["paper/diagonal", "--method", "rankbfs", "--workers", "1"], "engine rankbfs, h none, bound none"),
    (
        ["paper/diagonal", "--method", "rankbfs", "--workers", "2", "--upper-bound", "construct"],
        "engine rankbfs, h fill, bound 27 (from --upper-bound construct)",
    ),
    (
        ["paper/diagonal", "--method", "rankbfs", "--workers", "1", "--max-moves", "20", "--heuristic", "forced"],
        "engine rankbfs, h forced, bound 20 (from --max-moves)",
    ),
    (
        ["paper/diagonal", "--method", "rankbfs", "--workers", "1", "--max-moves", "20", "--perimeter", "1"],
        "engine rankbfs, h fill + perimeter 1, bound 20 (from --max-moves)",
    ),
    (["paper/h-to-o", "--method", "sat"], "engine sat, h none, bound none"),
    (["paper/h-to-o", "--method", "sat", "--horizon-hint", "5"], "engine sat, h none, bound 5 (from --horizon-hint)"),
    pytest.param(
        ["paper/h-to-o", "--method", "ilp"],
        "engine ilp, h none, bound none",
        marks=pytest.mark.skipif(not _has("pulp"), reason="the ilp extra"),
    ),
    (["instances/open-problems/rhomboid-slides.toml", "--method", "slidesat"], "engine slidesat, h none, bound none"),
    pytest.param(
        ["paper/h-to-o", "--method", "pdr"],
        "engine pdr, h none, bound none",
        marks=pytest.mark.skipif(ABC is None, reason="ABC (berkeley-abc)"),
    ),
    pytest.param(
        ["paper/h-to-o", "--method", "kind"],
        "engine kind, h none, bound none",
        marks=pytest.mark.skipif(ABC is None, reason="ABC (berkeley-abc)"),
    ),
]


@pytest.mark.parametrize("argv, header", SOLVE_PATHS)
def test_solve_names_engine_h_and_bound_first_and_is_quiet_on_a_pipe(argv, header):
    asked = coinsat("solve", *argv, "--progress")
    assert asked.returncode == 0, asked.stderr
    lines = asked.stderr.splitlines()
    assert lines[0].startswith(f"coinsat: {header}"), lines
    engine = header.split(",")[0].split()[1]
    assert lines[-1].startswith(f"coinsat: {engine} done after "), lines  # the final line
    quiet = coinsat("solve", *argv)
    assert quiet.returncode == 0 and quiet.stderr == ""  # a pipe, nothing asked: stderr stays empty
    assert quiet.stdout.splitlines()[0] == asked.stdout.splitlines()[0]  # the answer is the same


def test_the_default_names_the_plan_bound_and_h_when_it_bounds(monkeypatch, capsys):
    """Where auto's plan is a bounded ranked search, its header says the h, U and where U came from."""
    from coinsat.search import plan as policy

    monkeypatch.setattr(policy, "AUTO_RANK_CONFIGURATIONS", 0)
    assert main(["solve", "paper/diagonal", "--progress"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("coinsat: engine rankbfs, h fill, bound ") and " (from construct " in err[0]
    assert err[-1].startswith("coinsat: rankbfs done after ")


def test_the_final_line_says_what_stopped_the_search():
    v32 = "instances/families/vdiag-3-2-nwse.toml"  # optimum 53: minutes, so the limit stops it
    got = coinsat("solve", v32, "--method", "rankbfs", "--workers", "1", "--time-limit", "3", "--progress")
    assert got.returncode == 3, got.stderr
    lines = got.stderr.splitlines()
    assert lines[0] == "coinsat: engine rankbfs, h none, bound none"
    assert any(line.startswith("coinsat: rankbfs stopped (time limit) after ") for line in lines), lines


def test_a_screen_answer_says_no_search_ran(capsys):
    assert main(["solve", "paper/zero-extra", "--progress"]) == 0  # auto: the screen answers, no plan is made
    err = capsys.readouterr().err.splitlines()
    assert err == [err[0]] and err[0].startswith("coinsat: auto done after ")
    assert err[0].endswith(": answered by screen:frozen-goal, before any search")


def test_json_keeps_stderr_empty_and_the_plan_in_the_object():
    got = coinsat("solve", "paper/diagonal", "--json")
    assert got.returncode == 0 and got.stderr == ""
    assert json.loads(got.stdout)["plan"]["engine"] == "spanbfs"
    asked = coinsat("solve", "paper/diagonal", "--json", "--progress")  # asked: stderr has it, stdout is JSON
    assert asked.stderr.startswith("coinsat: engine spanbfs, h none, bound none")
    assert json.loads(asked.stdout)["status"] == "optimal"


def test_the_other_commands_use_the_same_display(tmp_path):
    cert = tmp_path / "cert"
    paths = [
        (["certify", "paper/diagonal", "-o", str(cert)], "coinsat: engine spanbfs, h none, bound none; auto: "),
        (
            ["certify", "paper/h-to-o", "-o", str(tmp_path / "one"), "--horizon-hint", "4"],
            "coinsat: engine sat, h none, bound 4 (from --horizon-hint); one-shot",
        ),
        (["check-certificate", "paper/diagonal", str(cert / "diagonal.certificate.json")], "coinsat: check: "),
        (["count", "paper/h-to-o"], "coinsat: engine count, h none, bound none"),
        (["census", "paper/h-to-o"], "coinsat: engine census, h none, bound none"),
        (["gallery", str(tmp_path / "g"), "--only", "h-to-o", "--no-solve"], "coinsat: gallery: 1 puzzles"),
    ]
    for argv, header in paths:
        asked = coinsat(*argv, "--progress")
        assert asked.returncode == 0, (argv, asked.stderr)
        lines = asked.stderr.splitlines()
        assert lines[0].startswith(header), (argv, lines)
        assert " done after " in lines[-1], (argv, lines)
        quiet = coinsat(*argv)
        assert quiet.returncode == 0 and quiet.stderr == "", (argv, quiet.stderr)
    solution = tmp_path / "sol.json"
    built = coinsat("construct", "paper/h-to-o", "--json").stdout
    solution.write_text(built)
    asked = coinsat("improve", "paper/h-to-o", str(solution), "--progress", "--time-limit", "20")
    n = json.loads(built)["length"]  # the bound U of improve: the solution's length
    assert asked.stderr.startswith(f"coinsat: engine improve, h none, bound {n} (from {solution})"), asked.stderr
    assert coinsat("improve", "paper/h-to-o", str(solution), "--time-limit", "20").stderr == ""


def _on_a_terminal(*argv: str) -> str:
    """What ``coinsat ARGV`` writes to stderr when stderr is a terminal (a pty)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "coinsat", *argv], stdout=subprocess.DEVNULL, stderr=slave, cwd=ROOT, env=ENV
    )
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            break
        try:
            data = os.read(master, 4096)
        except OSError:  # the other end closed
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


def test_a_terminal_gets_the_header_the_live_line_and_the_final_line():
    err = _on_a_terminal("solve", "paper/diagonal", "--method", "rankbfs", "--workers", "1")
    assert err.startswith("coinsat: engine rankbfs, h none, bound none")
    assert "rankbfs: depth " in err and "expanded/s" in err  # the live line, redrawn in place
    assert "coinsat: rankbfs done after " in err
    assert _on_a_terminal("solve", "paper/diagonal", "--json") == ""  # --json: one object, nothing else


# --- the display's parts ---------------------------------------------------------------------------------


def test_plain_lines_are_throttled_the_first_at_once():
    out = io.StringIO()
    clock = iter([0.0, 0.0, 1.0, 9.9, 10.0, 15.0, 20.0])  # the time of each report
    display = Display("rankbfs", asked=True, stream=out, every=10)
    display._clock = lambda: next(clock)
    display.t0 = 0.0
    for depth in range(1, 8):
        display(RankReport(depth, 10 * depth, 100 * depth, 0.0, 50 * depth, 25.0, 40 << 20, 0))
    lines = out.getvalue().splitlines()
    assert [ln.split()[3] for ln in lines] == ["1", "5", "7"]  # the depths printed: at 0, 10 and 20 s
    assert lines[0] == "coinsat: rankbfs: depth 1  layer 10  states 100  25 expanded/s  memory 40.0 MB  (0 s)"


def test_off_a_terminal_nothing_unless_asked():
    out = io.StringIO()
    with Display("bfs", stream=out) as display:
        display.header("bfs")
        display(LayerReport(3, 10, 20, 1.0))
    assert out.getvalue() == "" and display.headers == ["engine bfs, h none, bound none"]
    with Display("bfs", stream=out, quiet=True, asked=True) as display:  # --json --progress
        display.header("bfs")
    assert out.getvalue().splitlines()[0] == "coinsat: engine bfs, h none, bound none"


def test_the_header_and_the_reports_read_the_same_for_every_engine():
    assert header_text("rankbfs", "lmcut", 71, "construct 206, improve: 71 moves") == (
        "engine rankbfs, h lmcut, bound 71 (from construct 206, improve: 71 moves)"
    )
    assert header_text("rankbfs", None, None, "no bound (construct gave no solution)") == (
        "engine rankbfs, h none, bound none (no bound (construct gave no solution))"
    )
    assert report_text(LayerReport(18, 115, 1602, 0.5)) == "depth 18  layer 115  states 1,602  3,204 states/s"
    sat = HorizonReport(17, "UNSAT", 0.64, 5858, 20_700, 4927)
    assert report_text(sat) == "horizon 17: UNSAT in 0.64 s  vars 5,858  clauses 20.7 k  conflicts 4,927"
    assert report_text(IlpReport(4, "solving", 0.0, 160, 203)) == "horizon 4: solving  vars 160  constraints 203"
    assert report_text(IlpReport(4, "SAT", 0.12, 160, 203)) == "horizon 4: feasible in 0.12 s"
    big = RankReport(73, 55_012_345, 1_078_205_698, 3485.0, 600_000_000, 1_234_567.0, 9 << 30, 2 << 30)
    assert report_text(big) == "depth 73  layer 55 M  states 1.08 G  1.23 M expanded/s  memory 9.0 GB  disk 2.0 GB"


def test_large_counts_are_short():
    assert [short(n) for n in (0, 9_999, 10_000, 12_345, 999_499, 1_234_567, 36_092_420, 4.2e9, 2e12)] == [
        "0",
        "9,999",
        "10 k",
        "12.3 k",
        "999 k",
        "1.23 M",
        "36.1 M",
        "4.2 G",
        "2,000 G",
    ]


def test_names_from_files_are_escaped():
    out = io.StringIO()
    with Display("bfs", stream=out, asked=True) as display:
        display.header("bfs", None, 3, "evil\x1b[31m.json")
    assert "\x1b" not in out.getvalue() and "\\x1b[31m" in out.getvalue()
