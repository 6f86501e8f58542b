#!/usr/bin/env python3
"""The V-to-diagonal family: exact optima, bounds beyond, and the growth exponent.

    python3 scripts/vfamily_study.py [--max-a 4] [--time-limit 1800] [--methods spanbfs,sat,bfs]
                                     [--members vdiag-3-3-nwse,...] [--certify 600]

For each member V(a, b), b in {a-1, a}, and each target diagonal (nwse, swne)
it writes the instance to instances/families/, runs every engine asked for
through the CLI (`coinsat solve --json`, or `coinsat construct --json` for the
method ``construct``, whose solution is an upper bound; one subprocess each, so a time or
memory blow-up cannot take the study down), and records the answers in
benchmarks/vfamily_results.json — a later run resumes from there and skips
what is already decided (``--redo`` forces).  Runs with disjoint ``--members``
may go side by side (one per core): each result is merged into the file as it
comes.  ``--certify S`` gives every proven optimum two certificates of
"optimum - 1 moves do not suffice", each made and checked by `coinsat certify`
within S seconds: ``drat`` (with ``--method sat``: the DIMACS formula and
CaDiCaL's DRAT proof, checked by dratify) and ``layers`` (with ``--method
spanbfs``: the search layers, checked by their own closure checker).  The check
is recorded; the files go to a temporary directory, not to git.  The shortest verified
solution of every member is kept in instances/families/solutions/NAME.json (`coinsat
verify` reads it).  It then writes the table
instances/families/README.md (proven optima apart from bounds) and the plot
benchmarks/vfamily.png: moves against n with a fitted c·n^3 curve and the
least-squares exponent of moves ~ n^k over the proven optima.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from coinsat.analysis import fit_power_law
from coinsat.families import vdiag
from coinsat.io.atomic import write_atomic
from coinsat.io.instance_format import write_instance

ROOT = Path(__file__).resolve().parent.parent

FAMILIES = ROOT / "instances/families"
RESULTS = ROOT / "benchmarks/vfamily_results.json"
PLOT = ROOT / "benchmarks/vfamily.png"
DECIDED = {"optimal", "unsolvable"}


def members(max_a: int):
    for a in range(1, max_a + 1):
        for b in sorted({max(a - 1, 1), a}):  # V(1, 0) is already a diagonal
            for target in ("nwse", "swne"):
                yield a, b, target


SOLUTIONS = FAMILIES / "solutions"


def run_engine(path: Path, method: str, time_limit: float) -> dict:
    if method == "construct":  # the paper's constructive algorithm: an upper bound
        cmd = [sys.executable, "-m", "coinsat", "construct", str(path), "--json"]
    else:
        cmd = [
            sys.executable,
            "-m",
            "coinsat",
            "solve",
            str(path),
            "--method",
            method,
            "--json",
            "--time-limit",
            str(time_limit),
        ]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=time_limit * 1.2 + 30)
    except subprocess.TimeoutExpired:
        return {
            "status": "unknown",
            "length": None,
            "lower_bound": None,
            "method": method,
            "seconds": time.perf_counter() - t0,
            "note": "killed by the study's timeout",
        }
    if p.returncode not in (0, 3):
        return {
            "status": "error",
            "method": method,
            "seconds": time.perf_counter() - t0,
            "note": (p.stderr or p.stdout).strip().splitlines()[-1:],
        }
    obj = json.loads(p.stdout)
    moves = obj.pop("moves", None)
    if obj.get("length") is not None:  # a solution (unknown answers print an empty move list)
        keep_solution(path.stem, obj, moves)
    return obj


def keep_solution(name: str, obj: dict, moves: list) -> None:
    """Keep the shortest verified solution of ``name`` (every engine's output was replayed
    by rules.py before it was printed; `coinsat verify` can replay the file again)."""
    out = SOLUTIONS / f"{name}.json"
    if out.exists() and len(json.loads(out.read_text())["moves"]) <= len(moves):
        return
    SOLUTIONS.mkdir(parents=True, exist_ok=True)
    keep = {k: obj[k] for k in ("name", "status", "length", "lower_bound", "method") if k in obj}
    write_atomic(out, json.dumps({**keep, "moves": moves}) + "\n")


CERTIFICATES = {"drat": ("sat", "bounded"), "layers": ("spanbfs", "layers")}  # name: (method, kind)


def certify(path: Path, optimum: int, time_limit: float, name: str) -> dict:
    """Certificate ``name`` of "no solution with <= optimum - 1 moves", made and checked."""
    method, kind = CERTIFICATES[name]
    import tempfile

    with tempfile.TemporaryDirectory(prefix="coinsat-vcert-") as tmp:
        cmd = [
            sys.executable,
            "-m",
            "coinsat",
            "certify",
            str(path),
            "-o",
            tmp,
            "--json",
            "--time-limit",
            str(time_limit),
            "--method",
            method,
        ]
        t0 = time.perf_counter()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=time_limit * 1.5 + 60)
        except subprocess.TimeoutExpired:
            return {"accepted": False, "note": "timeout", "time_limit": time_limit}
        seconds = time.perf_counter() - t0
        try:
            obj = json.loads(p.stdout)
        except json.JSONDecodeError:
            return {"accepted": False, "note": (p.stderr or p.stdout).strip()[-200:], "time_limit": time_limit}
        sizes = {
            f.suffix.lstrip("."): f.stat().st_size for f in Path(tmp).iterdir() if f.suffix in (".cnf", ".drat", ".npz")
        }
    return {
        "accepted": bool(obj.get("accepted"))
        and obj.get("kind") == kind
        and f"{optimum} moves" in obj.get("claim", ""),
        "claim": obj.get("claim"),
        "reason": obj.get("reason"),
        "check_seconds": obj.get("check_seconds"),
        "seconds": round(seconds, 1),
        "bytes": sizes,
        "time_limit": time_limit,
    }


def record(name: str, entry: dict, method: str, run: dict, field: str = "runs") -> dict:
    """Merge one run (or, with ``field="certificates"``, one certificate) into the results
    file as it is now (another study may have written it)."""
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    mine = results.setdefault(name, {k: v for k, v in entry.items() if k != "runs"} | {"runs": {}})
    mine.setdefault(field, {})[method] = run
    write_atomic(RESULTS, json.dumps(results, indent=1, sort_keys=True) + "\n")
    return results


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-a", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=1800.0)
    ap.add_argument("--methods", default="sat,bfs")
    ap.add_argument("--bfs-max-cells", type=int, default=36, help="skip BFS on bigger boxes")
    ap.add_argument("--members", default=None, help="comma-separated instance names (default: all)")
    ap.add_argument(
        "--certify",
        type=float,
        default=None,
        metavar="S",
        help="certify every proven optimum minus one (DRAT and layers), S seconds each",
    )
    ap.add_argument("--certificates", default=",".join(CERTIFICATES), help="which certificates --certify makes")
    ap.add_argument("--table-only", action="store_true", help="only rewrite the table and plot from the results")
    ap.add_argument("--redo", action="store_true")
    args = ap.parse_args(argv)
    only = set(args.members.split(",")) if args.members else None
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    for a, b, target in () if args.table_only else members(args.max_a):
        inst = vdiag(a, b, target)
        if only is not None and inst.name not in only:
            continue
        path = FAMILIES / f"{inst.name}.toml"
        if not path.exists():
            write_instance(inst, path)
        entry = results.setdefault(
            inst.name, {"a": a, "b": b, "target": target, "n": inst.n_coins, "cells": inst.board.size, "runs": {}}
        )
        for method in args.methods.split(","):
            if method == "bfs" and inst.board.size > args.bfs_max_cells:
                continue
            if method == "spanbfs" and inst.board.size > 64:
                continue
            old = entry["runs"].get(method)
            if old and not args.redo and (old["status"] in DECIDED or old.get("time_limit", 0) >= args.time_limit):
                continue
            print(f"{inst.name}: {method} (limit {args.time_limit:g} s) ...", end=" ", flush=True)
            r = run_engine(path, method, args.time_limit)
            r["time_limit"] = args.time_limit
            entry["runs"][method] = r
            print(r["status"], r.get("length"), f"lb={r.get('lower_bound')}", f"{r['seconds']:.1f} s", flush=True)
            results = record(inst.name, entry, method, r)
            entry = results[inst.name]
        _, ub, lb, proven = summarise(entry)
        for cname in args.certificates.split(",") if args.certify and proven and ub > 0 else ():
            old = entry.get("certificates", {}).get(cname)
            if old and (old["accepted"] or old["time_limit"] >= args.certify):
                continue
            print(f"{inst.name}: {cname} certificate of {ub - 1} moves ...", end=" ", flush=True)
            c = certify(path, ub, args.certify, cname)
            print("accepted" if c["accepted"] else f"not made ({c.get('note') or c.get('reason')})", flush=True)
            entry = record(inst.name, entry, cname, c, "certificates")[inst.name]
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else results
    write_table(results, args)
    return 0


def summarise(entry: dict) -> tuple[str, int | None, int | None, bool]:
    """(answer, best length, best lower bound, proven optimal) over all runs."""
    lengths = [r["length"] for r in entry["runs"].values() if r.get("length") is not None]
    lbs = [r["lower_bound"] for r in entry["runs"].values() if isinstance(r.get("lower_bound"), int)]
    ub, lb = (min(lengths) if lengths else None), (max(lbs) if lbs else None)
    proven = ub is not None and lb is not None and lb >= ub
    answer = f"**{ub}** (optimal)" if proven else f"{lb if lb is not None else '?'}–{ub if ub is not None else '?'}"
    return answer, ub, lb, proven


def write_table(results: dict, args) -> None:
    lines = [
        "# The V-to-diagonal family",
        "",
        "V(a, b) (the paper's Lower Bound construction as reconstructed in",
        "`shared/reference/paper-instances.md` §7/10; generator `coinsat.families.vdiag`) re-arranged",
        "into a diagonal of its (a+b+2)² box with the two extra coins at the centre.",
        "**Bold** counts are proven optima (a verified solution and a proof that one move fewer is",
        "impossible); `lb–ub` ranges are bounds: the best lower bound proven and the best solution found.",
        "",
        "Generated by `python3 scripts/vfamily_study.py` from the runs recorded in",
        "`benchmarks/vfamily_results.json` (each with its engine and time limit). Linked move counts",
        "open the shortest verified solution (`coinsat verify FILE.toml solutions/FILE.json`).",
        "",
        "| member | target | n | cells | moves | certificates of optimum − 1 | engines (status, seconds) |",
        "|---|---|---|---|---|---|---|",
    ]
    pts = {"nwse": [], "swne": []}
    for name, e in sorted(results.items(), key=lambda kv: (kv[1]["n"], kv[1]["target"])):
        answer, ub, lb, proven = summarise(e)
        if proven and ub > 0:
            pts[e["target"]].append((e["n"], ub))
        runs = "; ".join(f"{m}: {run_text(r)}" for m, r in sorted(e["runs"].items()))
        if (SOLUTIONS / f"{name}.json").exists():
            answer = f"[{answer}](solutions/{name}.json)"
        lines.append(
            f"| [V({e['a']},{e['b']})]({name}.toml) | {e['target']} | {e['n']} | {e['cells']} | {answer} "
            f"| {cert_cells(e.get('certificates', {}))} | {runs} |"
        )
    lines.append("")
    for target, p in pts.items():
        fit = fit_power_law(p)
        if fit:
            lines.append(
                f"Fitted exponent ({target}, proven optima {p}): moves ≈ {fit[1]:.3g}·n^{fit[0]:.2f} "
                f"— a least-squares fit over {len(p)} points, not evidence of an asymptotic rate."
            )
    write_atomic(FAMILIES / "README.md", "\n".join(lines) + "\n")
    plot(pts)


def run_text(r: dict) -> str:
    """ "optimal 53 62.9 s", "feasible 803 3.4 s", "unknown (>= 67) 481.8 s"."""
    what = r["status"]
    if r.get("length") is not None:
        what += f" {r['length']}"
    if r["status"] not in ("optimal", "unsolvable") and isinstance(r.get("lower_bound"), int) and r["lower_bound"] > 1:
        what += f" (>= {r['lower_bound']})"
    return f"{what} {r['seconds']:.1f} s"


def cert_cells(certs: dict) -> str:
    out = []
    for name, c in sorted(certs.items()):
        if c["accepted"]:
            size = sum(c.get("bytes", {}).values()) / 1e6
            out.append(f"{name} ✓ ({size:.1f} MB, checked in {c['check_seconds']:.1f} s)")
        else:
            out.append(f"{name}: none within {c['time_limit']:g} s")
    return "; ".join(out) or "—"


def plot(pts: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for target, p in pts.items():
        if not p:
            continue
        ns, ms = zip(*p)
        ax.plot(ns, ms, "o", label=f"proven optima ({target})")
        c = sum(m * n**3 for n, m in p) / sum(n**6 for n, _ in p)  # least squares for m = c n^3
        grid = [min(ns) + i * (max(ns) - min(ns)) / 50 for i in range(51)]
        ax.plot(grid, [c * n**3 for n in grid], "--", label=f"{c:.3f}·n³ ({target})")
    ax.set_xlabel("coins n")
    ax.set_ylabel("optimal moves")
    ax.set_title("V-to-diagonal family")
    ax.legend()
    fig.tight_layout()
    fig.savefig(PLOT, dpi=120)


if __name__ == "__main__":
    sys.exit(main())
