"""The progress display of ``solve --method rankbfs`` (commands/rank_progress.py): the live line on
a terminal, plain throttled lines on stderr otherwise, nothing with --json; the engine only reports."""

from __future__ import annotations

import io
import json

from coinsat.cli import main
from coinsat.commands import rank_progress
from coinsat.commands.rank_progress import RankLine
from coinsat.search.rank.space import RankReport


def _report(depth: int, seconds: float) -> RankReport:
    return RankReport(depth, 10 * depth, 100 * depth, seconds, 50 * depth, 25.0, 40 << 20, 0)


def test_plain_lines_are_throttled_and_start_only_in_a_long_run():
    out = io.StringIO()
    line = RankLine(every=10)
    line.plain = out
    for depth, seconds in ((1, 1.0), (2, 9.9), (3, 10.0), (4, 15.0), (5, 19.9), (6, 20.0), (7, 45.0)):
        line(_report(depth, seconds))
    lines = out.getvalue().splitlines()
    assert [ln.split()[2] for ln in lines] == ["3", "6", "7"]  # the depths printed
    assert lines[0] == "rankbfs: depth 3  layer 30  states 300  25 expanded/s  memory 40.0 MB  disk 0 B  (10 s)"


def test_the_live_line_wins_over_plain_lines():
    class Sink:
        def __init__(self) -> None:
            self.seen: list[str] = []

        def update(self, t: str) -> None:
            self.seen.append(t)

    out = io.StringIO()
    line = RankLine(every=0)
    line.plain, line.live = out, Sink()
    line(_report(2, 30.0))
    assert out.getvalue() == "" and line.live.seen[0].startswith("depth 2  layer 20  states 200")


def test_solve_writes_plain_lines_to_a_non_terminal_stderr(capsys, monkeypatch):
    monkeypatch.setattr(rank_progress, "PLAIN_EVERY", 0.0)  # every layer, however short the run
    code = main(["solve", "instances/families/vdiag-1-1-nwse.toml", "--method", "rankbfs", "--workers", "1"])
    captured = capsys.readouterr()
    assert code == 0
    lines = [ln for ln in captured.err.splitlines() if ln.startswith("rankbfs: depth ")]
    assert len(lines) >= 5 and "expanded/s" in lines[-1] and "memory" in lines[-1]
    assert "rankbfs: depth" not in captured.out  # the answer on stdout stays as it was


def test_json_gets_no_progress_lines(capsys, monkeypatch):
    monkeypatch.setattr(rank_progress, "PLAIN_EVERY", 0.0)
    args = ["solve", "instances/families/vdiag-1-1-nwse.toml", "--method", "rankbfs", "--workers", "1", "--json"]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert "rankbfs: depth" not in captured.err
    assert json.loads(captured.out)["status"] == "optimal"


def test_a_short_run_prints_no_progress_lines(capsys):
    assert main(["solve", "instances/families/vdiag-1-1-nwse.toml", "--method", "rankbfs", "--workers", "1"]) == 0
    assert "rankbfs: depth" not in capsys.readouterr().err
