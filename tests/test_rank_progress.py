"""The progress display of ``solve --method rankbfs`` (commands/rank_progress.py): the live line on
a terminal, plain throttled lines on stderr otherwise, nothing with --json; the engine only reports."""

from __future__ import annotations

import io
import json

from coinsat.cli import main
from coinsat.commands import rank_progress
from coinsat.commands.rank_progress import RankLine, short, text
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
    assert lines[0] == "rankbfs: depth 3  layer 30  states 300  25 expanded/s  memory 40.0 MB  (10 s)"


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
    big = RankReport(73, 55_012_345, 1_078_205_698, 3485.0, 600_000_000, 1_234_567.0, 9 << 30, 2 << 30)
    assert text(big) == "depth 73  layer 55 M  states 1.08 G  1.23 M expanded/s  memory 9.0 GB  disk 2.0 GB"


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
