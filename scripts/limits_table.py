"""Do the limits hold?  Run the reliability report's overrun cases and tabulate them.

Every case of the round-2 reliability review (its cases D3 to D14) where a limit was overrun
(D3 far triangular goals, the 20-diagonal, a 1-move puzzle on a 122k-cell
window, D10 graph loading, D12 a huge d, D13 a 50 MB picture, D14 certify) is
run as a subprocess, exactly as a user would run it, with the report's limit.
The table gives the wall time (process start to exit), the peak resident
memory of the process (``wait4``), the exit code, the answer, the ratio of the
wall time to the limit, and whether the run stayed within the promise of the
issue: 1.2 x the limit + 1 s.

    python3 scripts/limits_table.py                 # all cases -> benchmarks/limits.md
    python3 scripts/limits_table.py --only tri_far  # the cases whose name contains a word

The instance files are generated in a temporary folder (their text is in the
report); a run that does not end by ``KILL_AFTER`` x the limit (at least 60 s)
is killed and counted as over.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "limits.md"
KILL_AFTER = 12


@dataclass(frozen=True)
class Case:
    name: str
    defect: str
    argv: tuple[str, ...]  # after `coinsat`; {dir} is the scratch folder
    limit: float


def cases() -> list[Case]:
    out = [
        Case(f"tri_far_{dx}", "D3/D6", ("solve", f"{{dir}}/tri_far_{dx}.toml", "--time-limit", "5"), 5.0)
        for dx in (20, 35, 45, 50, 60, 1000)
    ]
    out += [
        Case("diagonal-20 sat", "D3", ("solve", "{dir}/d20.toml", "--method", "sat", "--time-limit", "1"), 1.0),
        Case("diagonal-20 auto", "D3", ("solve", "{dir}/d20.toml", "--time-limit", "3"), 3.0),
        Case("diagonal-20 ilp", "D3", ("solve", "{dir}/d20.toml", "--method", "ilp", "--time-limit", "1"), 1.0),
        Case("bigdiag1mv350", "D3", ("solve", "{dir}/bigdiag1mv350.toml", "--time-limit", "5"), 5.0),
        Case("graph_40000", "D10", ("solve", "{dir}/graph_40000.toml", "--time-limit", "5"), 5.0),
        Case("d1e8", "D12", ("solve", "{dir}/d1e8.toml", "--time-limit", "2"), 2.0),
        Case("big_dots (50 MB)", "D13", ("solve", "{dir}/big_dots.toml", "--time-limit", "10"), 10.0),
        Case(
            "certify vdiag-2-2-swne",
            "D14",
            ("certify", str(ROOT / "instances/families/vdiag-2-2-swne.toml"), "--time-limit", "5", "-o", "{dir}/C"),
            5.0,
        ),
    ]
    return out


def write_instances(d: Path) -> None:
    """The report's generated instances (section "Instances that expose the defects")."""
    for dx in (20, 35, 45, 50, 60, 1000):
        (d / f"tri_far_{dx}.toml").write_text(
            'board = "triangular"\nstart = [[0,0],[1,0],[0,1],[1,1]]\n'
            f"goal = [[{dx},0],[{dx + 1},0],[{dx},1],[{dx + 1},1]]\n"
        )
    subprocess.run(
        [sys.executable, "-m", "coinsat", "family", "diagonal", "--k", "20", "-o", str(d / "d20.toml")],
        check=True,
        capture_output=True,
    )
    k = 350
    s = [[i, i] for i in range(k)]
    g = [[i, i] for i in range(k - 1)] + [[1, 0]]
    (d / "bigdiag1mv350.toml").write_text(f'board = "square"\nstart = {s}\ngoal = {g}\n')
    n = 40000
    e = ", ".join(f"[{i}, {i + 1}]" for i in range(n))
    (d / "graph_40000.toml").write_text(
        f'board = "graph"\nstart = [0, 1, 2]\ngoal = [0, 1, 3]\n[graph]\nedges = [{e}, [0, 2], [1, 3], [0, 3]]\n'
    )
    (d / "d1e8.toml").write_text(
        'board = "square"\nadjacency = 100000000\nstart = [[0,0],[1,0],[0,1]]\ngoal = [[0,0],[1,0],[0,1]]\n'
    )
    (d / "big_dots.toml").write_text(
        'board = "square"\nstart = """\no o\no .' + "." * 50_000_000 + '\n"""\ngoal = """\no o\n. o\n"""\n'
    )


@dataclass(frozen=True)
class Row:
    case: Case
    wall: float
    rss: int  # bytes
    code: int | None  # None: killed
    status: str

    @property
    def within(self) -> bool:
        return self.code is not None and self.wall <= 1.2 * self.case.limit + 1


def run_case(case: Case, d: Path) -> Row:
    argv = [sys.executable, "-m", "coinsat", *(a.replace("{dir}", str(d)) for a in case.argv), "--json"]
    with open(d / "stdout", "w") as out, open(d / "stderr", "w") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdout=out, stderr=err, cwd=ROOT)
        killed = False
        deadline = t0 + max(60.0, KILL_AFTER * case.limit)
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline and not killed:
                p.send_signal(signal.SIGKILL)
                killed = True
            time.sleep(0.02)
        wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    code = None if killed else p.returncode
    return Row(case, wall, usage.ru_maxrss * 1024, code, "killed" if killed else answer(d))


def answer(d: Path) -> str:
    text = (d / "stdout").read_text().strip()
    try:
        obj = json.loads(text.splitlines()[-1]) if text else None
    except json.JSONDecodeError:
        obj = None
    if isinstance(obj, dict):
        status = obj.get("status", "?")
        if obj.get("lower_bound") is not None and status.startswith("unknown"):
            status += f" (lb {obj['lower_bound']})"
        if "accepted" in obj and status != "unknown" and not status.startswith("unknown ("):  # certify
            status += ", certificate " + (
                "accepted" if obj["accepted"] else "rejected" if obj["accepted"] is False else "not built"
            )
        return status
    err = (d / "stderr").read_text().strip().splitlines() or text.splitlines()
    return (err[-1] if err else "no output")[:90].replace("|", "/").replace(str(d) + "/", "")


def table(rows: list[Row]) -> str:
    lines = [
        "| case | defect | command | limit (s) | wall (s) | max RSS (MB) | exit | answer | wall / limit "
        "| within 1.2 x limit + 1 s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        cmd = "coinsat " + " ".join(a.replace("{dir}/", "").replace(str(ROOT) + "/", "") for a in r.case.argv)
        lines.append(
            f"| {r.case.name} | {r.case.defect} | `{cmd}` | {r.case.limit:g} | {r.wall:.2f} | "
            f"{r.rss / 2**20:.0f} | {'killed' if r.code is None else r.code} | {r.status} | "
            f"{r.wall / r.case.limit:.2f} | {'yes' if r.within else '**no**'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=None, help="run only the cases whose name contains this word")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--make", type=Path, default=None, help=argparse.SUPPRESS)  # internal: write the instances
    args = ap.parse_args(argv)
    if args.make is not None:
        write_instances(args.make)
        return 0
    chosen = [c for c in cases() if args.only is None or args.only in c.name]
    rows = []
    with tempfile.TemporaryDirectory(prefix="coinsat-limits-") as tmp:
        d = Path(tmp)
        # in a child: Linux starts a child's peak RSS at its parent's, and the 50 MB picture is big
        subprocess.run([sys.executable, __file__, "--make", str(d)], check=True)
        for case in chosen:
            row = run_case(case, d)
            print(
                f"{case.name:28s} {row.wall:7.2f} s  {row.rss / 2**20:7.0f} MB  exit {row.code}  {row.status}",
                flush=True,
            )
            rows.append(row)
    within = sum(r.within for r in rows)
    text = (
        f"# Limits: wall time and memory of the reliability report's overrun cases\n\n"
        f"Made by `python3 scripts/limits_table.py{'' if args.only is None else ' --only ' + args.only}` on "
        f"{datetime.date.today()} ({os.cpu_count()} cores, {platform.python_version()}; the machine was shared "
        f"with other jobs).  Wall time is from process start to exit (Python start-up included); max RSS is "
        f"the process's peak resident memory (`wait4`).  The promise: `--time-limit` bounds the whole "
        f"command within 1.2 x the limit + 1 s.\n\n"
        f"{table(rows)}\n\n**{within} of {len(rows)} runs within 1.2 x limit + 1 s.**\n"
    )
    args.out.write_text(text)
    print(f"wrote {args.out}: {within}/{len(rows)} within")
    return 0


if __name__ == "__main__":
    sys.exit(main())
