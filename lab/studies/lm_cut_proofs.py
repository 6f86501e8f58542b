"""Proof runs of the ranked search with a chosen h, each certificate checked in a fresh process.

    nice -n 10 python3 scripts/lm_cut_proofs.py RUN [RUN ...] [--workers N] [--memory-limit 8G]
        [--time-limit S] [--store FILE] [--out FILE]

A RUN is ``SPEC:U:H``: the family member ``instances/families/SPEC.toml`` (or an instance file's
path ending in ``.toml``), the bound U (a number of
moves, or ``stored`` for the length of ``instances/families/solutions/SPEC.json``, replayed by
rules.py) and the h (``fill``, ``forced``, ``lmcut``).  Each run is two commands, both printed
into the table's notes: ``coinsat solve SPEC --method rankbfs --max-moves U --heuristic H --certify
DIR`` (with ``stored``: ``--upper-bound`` the solution file instead of ``--max-moves``), whose JSON
gives the answer, the states kept and the search's own CPU seconds (``statistics.cpu_seconds``,
its workers included); then ``coinsat check-certificate`` on the certificate it wrote, in a fresh
process, whose CPU seconds are measured here (``RUSAGE_CHILDREN``).  A pruned search is sound for
every U: a goal met at depth L <= U is optimal; a search that runs out of states answers
``bounded`` ("no solution with <= U moves").  Every result is appended to ``--store`` (JSON lines);
the table is made from all of them, so runs of earlier invocations stay beside the new ones.
An optimal solution found with an accepted certificate is kept in ``instances/families/solutions/``
by the proof ledger's rule (``lab.proofs``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coinsat import read_instance
from lab import proofs

ROOT = Path(__file__).resolve().parents[2]
FAM = ROOT / "instances" / "families"
STORE = ROOT / "benchmarks" / "lm_cut_proofs.jsonl"
OUT = ROOT / "benchmarks" / "lm-cut-proofs.md"


def shown(path: str) -> str:
    """A path as the table shows it: relative to the repository when inside it."""
    p = Path(path).resolve()
    return str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else p.name


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def one_run(spec: str, bound: str, h: str, args, folder: Path) -> dict:
    """Solve with a certificate, then check it in a fresh process; the row's fields."""
    inst_file = Path(spec) if spec.endswith(".toml") else FAM / f"{spec}.toml"
    spec = inst_file.stem
    solution = FAM / "solutions" / f"{spec}.json"
    known = proofs.known_length(read_instance(inst_file), solution)
    cmd = ["coinsat", "solve", str(inst_file), "--method", "rankbfs", "--heuristic", h, "--json"]
    if bound == "stored":
        if known is None:
            raise SystemExit(f"{spec}: no stored solution to take U from ({solution})")
        cmd += ["--upper-bound", str(solution)]
        U = known
    else:
        U = int(bound)
        cmd += ["--max-moves", str(U)]
    cmd += ["--workers", str(args.workers), "--certify", str(folder), "-o", str(folder / "answer.json")]
    if args.memory_limit:
        cmd += ["--memory-limit", args.memory_limit]
    if args.time_limit:
        cmd += ["--time-limit", str(args.time_limit)]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()[0]
    c0, t0 = child_cpu(), time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    row: dict = {
        "spec": spec,
        "U": U,
        "bound": bound,
        "h": h,
        "workers": args.workers,
        "started": started,
        "load": round(load, 1),
        "solve_command": " ".join(cmd[:2] + [str(Path(cmd[2]).relative_to(ROOT))] + cmd[3:]),
        "solve_wall": round(time.perf_counter() - t0, 1),
        "solve_process_cpu": round(child_cpu() - c0, 1),
        "exit": done.returncode,
        "known": known,
    }
    try:
        answer = json.loads(done.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        row["error"] = (done.stderr or done.stdout).strip()[-400:]
        return row
    st = answer.get("statistics", {})
    row.update(
        status=answer["status"],
        length=answer.get("length"),
        lower_bound=answer.get("lower_bound"),
        states=st.get("states"),
        layers=st.get("layers"),
        search_cpu=st.get("cpu_seconds"),
        peak_memory=st.get("peak_memory"),
    )
    check = answer.get("certificate_check") or {}
    cert = check.get("file")
    if not cert:
        row["check"] = "no certificate written"
        return row
    cert_path = Path(cert)
    row["certificate_bytes"] = sum(p.stat().st_size for p in cert_path.parent.glob(f"{spec}*"))
    if args.check == "in-process":  # the solve's own check (--certify): its CPU is the process's rest
        row["check_cpu"] = round(row["solve_process_cpu"] - (row["search_cpu"] or 0), 1)
        row["check_where"] = "in the solve process (write + check CPU s)"
        row["accepted"] = bool(check.get("accepted"))
        row["claim"] = check.get("claim") if row["accepted"] else check.get("reason")
        return keep(row, spec, inst_file, solution, known, folder)
    row["check_where"] = "fresh process"
    c0 = child_cpu()
    ch = subprocess.run(
        ["coinsat", "check-certificate", str(inst_file), str(cert_path), "--json"], capture_output=True, text=True
    )
    row["check_cpu"] = round(child_cpu() - c0, 1)
    try:
        verdict = json.loads(ch.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        verdict = {"accepted": False, "reason": (ch.stderr or ch.stdout).strip()[-300:]}
    row["accepted"] = bool(verdict.get("accepted"))
    row["claim"] = verdict.get("claim") if row["accepted"] else verdict.get("reason")
    return keep(row, spec, inst_file, solution, known, folder)


def keep(row: dict, spec: str, inst_file: Path, solution: Path, known: int | None, folder: Path) -> dict:
    """The proof ledger's rule for a run found optimal with an accepted certificate."""
    if row["status"] == "optimal" and row["accepted"]:
        solved = {
            "status": "optimal",
            "length": row["length"],
            "lower_bound": row["lower_bound"],
            "solution_out": str(folder / "answer.json"),
        }
        row["ledger"] = proofs.keep_solution(
            inst_file, solution, known, solved, {"check_ok": True}, f"instances/families/solutions/{spec}.json"
        )
    return row


def table(rows: list[dict]) -> list[str]:
    lines = [
        "# Proofs with the LM-cut h (docs/lm-cut.md), against the fill and forced h\n",
        "Made by `scripts/lm_cut_proofs.py` (its docstring says what is measured). Each row: one "
        "`coinsat solve --method rankbfs` with the h of the row and a bound U (`--max-moves U`, or "
        "`--upper-bound` the stored solution when the U column says 'stored'), writing its layers "
        "certificate and checking it (`--certify`); then, unless the row says 'in-process', "
        "`coinsat check-certificate` on it in a fresh process. 'search CPU s' is the engine's own count "
        "(workers included); 'check CPU s' the fresh checker process's, or for 'in-process' rows the solve "
        "process's CPU minus the search's (writing and checking the certificate). CPU seconds are "
        "the comparable unit on this shared 2-core machine (load average at the start in the last "
        "column). 'vs fill' = states kept / the states of the fill row of the same instance and U.\n",
        "| instance | U | h | workers | answer | check | states kept | vs fill | largest layer | search CPU s "
        "| check CPU s | check / search | certificate MB | started (load) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    fill = {(r["spec"], r["U"]): r.get("states") for r in rows if r["h"] == "fill" and r.get("states")}
    for r in rows:
        if "error" in r:
            lines.append(
                f"| {r['spec']} | {r['U']} | {r['h']} | {r['workers']} | error: {r['error'][:80]} "
                f"| | | | | | | | | {r['started']} ({r['load']}) |"
            )
            continue
        answer = r.get("status")
        if answer == "optimal":
            answer = f"optimal {r['length']}"
        elif answer == "bounded":
            answer = f"none <= {r['lower_bound'] - 1}"
        base = fill.get((r["spec"], r["U"]))
        vs = f"{r['states'] / base:.3f}" if base and r.get("states") is not None else "—"
        layers = r.get("layers") or []
        big = max(layers) if isinstance(layers, list) and layers else "—"
        ratio = f"{r['check_cpu'] / r['search_cpu']:.2f}" if r.get("check_cpu") and r.get("search_cpu") else "—"
        verdict = ("✓ " + str(r.get("claim"))) if r.get("accepted") else ("✗ " + str(r.get("claim") or r.get("check")))
        if r.get("check_where", "").startswith("in the solve"):
            verdict += " (in-process)"
        mb = f"{r['certificate_bytes'] / 1e6:.1f}" if r.get("certificate_bytes") else "—"
        lines.append(
            f"| {r['spec']} | {r['U']} | {r['h']} | {r['workers']} | {answer} | {verdict} | {r.get('states')} | {vs} "
            f"| {big} | {r.get('search_cpu')} | {r.get('check_cpu', '—')} | {ratio} | {mb} "
            f"| {r['started']} ({r['load']}) |"
        )
    lines.append("")
    lines.append("Commands, in the order run:\n")
    lines += [f"    {r['solve_command']}" for r in rows]
    lines.append("")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="SPEC:U:H (U a number of moves or 'stored'; H fill, forced or lmcut)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--memory-limit", default="8G")
    ap.add_argument("--time-limit", type=float)
    ap.add_argument("--store", default=str(STORE))
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--scratch", help="where certificates go (default: a temporary folder, removed)")
    ap.add_argument(
        "--check",
        choices=("fresh", "in-process"),
        default="fresh",
        help="check the certificate again in a fresh process (default), or take the solve's own check "
        "(--certify) and count its CPU as the solve process's CPU minus the search's",
    )
    args = ap.parse_args(argv)
    store = Path(args.store)
    for run in args.runs:
        try:
            spec, bound, h = run.split(":")
        except ValueError:
            print(f"lm_cut_proofs: a run is SPEC:U:H, not {run!r}", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory(dir=args.scratch) as tmp:
            print(f"{spec} U={bound} h={h}: solving and checking ...", flush=True)
            row = one_run(spec, bound, h, args, Path(tmp))
        print(json.dumps(row), flush=True)
        with store.open("a") as f:
            f.write(json.dumps(row) + "\n")
    rows = [json.loads(line) for line in store.read_text().splitlines() if line.strip()]
    Path(args.out).write_text("\n".join(table(rows)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
