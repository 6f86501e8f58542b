#!/usr/bin/env python3
"""The pinwheel family (coinsat family pinwheel): exact optima with checked certificates, and
upper bounds from construct + improve.

    python3 scripts/pinwheel_study.py exact --m 1,2,3,4,5,6 [--targets nwse,swne]
                                      [--certs /tmp/pinwheel-certs] [--time-limit 5400]
    python3 scripts/pinwheel_study.py growth --m 2,4,...,76 [--improve-time 10]
    python3 scripts/pinwheel_study.py table --out benchmarks/pinwheel.md

``exact``: for each member, one subprocess runs ``coinsat certify FILE --method rankbfs -o
DIR --json`` (the optimum, its solution and the certificate of 'no solution with one move
fewer'), then another runs ``coinsat check-certificate FILE CERT --json`` in a fresh process;
CPU seconds are each subprocess's own (getrusage of the children).  The solution is written to
instances/families/solutions/pinwheel-M-TARGET.json and replayed by ``coinsat verify``.
``growth``: ``coinsat construct --json -o`` then ``coinsat improve`` with --improve-time
seconds on its output, per member (a verified upper bound each).  Results are merged into
benchmarks/pinwheel_results.json as they come (a member already there is skipped unless
--redo), so a stopped run resumes.  ``table`` writes the Markdown table from that file.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coinsat import write_instance
from coinsat.families import pinwheel
from coinsat.io.atomic import write_atomic
from coinsat.study.analysis import fit_power_law
from coinsat.theory.reach import lower_bound as static_bound

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks/pinwheel_results.json"
FAMILY = ROOT / "instances/families"


def children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def cli(args: list[str], timeout: float) -> tuple[int, dict | None, float, float]:
    t0, c0 = time.perf_counter(), children_cpu()
    try:
        p = subprocess.run([sys.executable, "-m", "coinsat", *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, None, time.perf_counter() - t0, children_cpu() - c0
    try:
        data = json.loads(p.stdout)
    except ValueError:
        data = None
    return p.returncode, data, time.perf_counter() - t0, children_cpu() - c0


def load() -> dict:
    return json.loads(RESULTS.read_text()) if RESULTS.exists() else {}


def save(results: dict) -> None:
    write_atomic(RESULTS, json.dumps(results, indent=1, sort_keys=True) + "\n")


def commit() -> str:
    p = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    return p.stdout.strip()


def exact(args) -> None:
    results = load()
    for m in args.m:
        for target in args.targets:
            key = f"pinwheel-{m}-{target}"
            if key in results.get("exact", {}) and not args.redo:
                continue
            path = FAMILY / f"{key}.toml"
            if not path.exists():
                write_instance(pinwheel(m, target), path)
            certs = Path(args.certs) / key
            rc, out, wall, cpu = cli(
                ["certify", str(path), "--method", "rankbfs", "-o", str(certs), "--json"], args.time_limit
            )
            entry: dict = {"m": m, "target": target, "n": m + 4, "cells": (m + 2) ** 2, "commit": commit()}
            entry["certify"] = {"rc": rc, "wall": round(wall, 1), "cpu": round(cpu, 1)}
            if out:
                entry["certify"].update({k: out.get(k) for k in ("status", "claim", "accepted", "reason", "kind")})
            cert = certs / f"{key}.certificate.json"
            if rc == 0 and cert.exists():
                data = json.loads(cert.read_text())
                entry["states"] = data.get("states")
                entry["certificate_bytes"] = sum(f.stat().st_size for f in certs.iterdir())
                sol = {"name": key, "status": "optimal", "length": len(data["solution"]), "moves": data["solution"]}
                sol_path = FAMILY / "solutions" / f"{key}.json"
                write_atomic(sol_path, json.dumps(sol) + "\n")
                vrc, _, _, _ = cli(["verify", str(path), str(sol_path)], 600)
                entry["verify_rc"] = vrc
                crc, cout, cwall, ccpu = cli(["check-certificate", str(path), str(cert), "--json"], args.time_limit)
                entry["check"] = {"rc": crc, "wall": round(cwall, 1), "cpu": round(ccpu, 1)}
                if cout:
                    entry["check"].update({k: cout.get(k) for k in ("accepted", "claim", "reason")})
                entry["optimum"] = len(data["solution"]) if crc == 0 and vrc == 0 else None
            results.setdefault("exact", {})[key] = entry
            save(results)
            print(key, entry.get("optimum"), entry["certify"], entry.get("check"), flush=True)


def growth(args) -> None:
    results = load()
    with tempfile.TemporaryDirectory() as tmp:
        for m in args.m:
            for target in args.targets:
                key = f"pinwheel-{m}-{target}"
                if key in results.get("growth", {}) and not args.redo:
                    continue
                path = Path(tmp) / f"{key}.toml"
                inst = pinwheel(m, target)
                write_instance(inst, path)
                built = Path(tmp) / f"{key}.construct.json"
                rc, out, wall, cpu = cli(["construct", str(path), "--json", "-o", str(built)], 3600)
                entry: dict = {"m": m, "target": target, "n": m + 4, "commit": commit()}
                entry["construct"] = {"rc": rc, "length": out and out.get("length"), "cpu": round(cpu, 1)}
                if rc == 0:
                    imp = Path(tmp) / f"{key}.improve.json"
                    irc, iout, iwall, icpu = cli(
                        [
                            "improve",
                            str(path),
                            str(built),
                            "--time-limit",
                            str(args.improve_time),
                            "--json",
                            "-o",
                            str(imp),
                        ],
                        args.improve_time * 4 + 600,
                    )
                    entry["improve"] = {"rc": irc, "length": iout and iout.get("length"), "cpu": round(icpu, 1)}
                entry["static"] = static_bound(inst)
                results.setdefault("growth", {})[key] = entry
                save(results)
                print(key, entry, flush=True)


def table(args) -> None:
    results = load()
    lines = [
        "# The pinwheel family: exact optima and upper bounds",
        "",
        "`coinsat family pinwheel --m M --target T`: the 2x2 block plus m coins, each diagonally off a corner"
        " of the current bounding box, the corners cycling TR, TL, BL, BR; goal: the diagonal of the (m+2)²"
        " box with the extras at the centre (as `vdiag`).  n = m + 4 coins, box side s = m + 2 = n − 2.",
        "Made by `python3 scripts/pinwheel_study.py` (exact, growth, table; each row records the commit it ran"
        " on); data in benchmarks/pinwheel_results.json.",
        "",
        "## Exact optima (rankbfs; certificate checked in a fresh process)",
        "",
        "**Optimal** = a verified solution of that length (instances/families/solutions/) and a ranked-layers"
        " certificate that one move fewer does not suffice, accepted by `coinsat check-certificate`.",
        "",
        "| member | n | cells | optimum | states | certify CPU s | check CPU s | certificate | commit |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for key, e in sorted(results.get("exact", {}).items(), key=lambda kv: (kv[1]["target"], kv[1]["m"])):
        chk = e.get("check", {})
        verdict = "accepted" if chk.get("accepted") else f"not accepted (rc {chk.get('rc')})" if chk else "—"
        opt = f"**{e['optimum']}**" if e.get("optimum") is not None else f"— ({e['certify'].get('status')})"
        lines.append(
            f"| {key} | {e['n']} | {e['cells']} | {opt} | {e.get('states') or '—'} | {e['certify']['cpu']} |"
            f" {chk.get('cpu', '—')} | {verdict}: {chk.get('claim', '')} | {e['commit']} |"
        )
    lines += [
        "",
        "Check any row: `coinsat certify instances/families/pinwheel-M-T.toml --method rankbfs -o DIR`"
        " then `coinsat check-certificate instances/families/pinwheel-M-T.toml DIR/pinwheel-M-T.certificate.json`.",
        "",
    ]
    grow = results.get("growth", {})
    if grow:
        lines += [
            "## Upper bounds: construct, then improve (verified solutions, never optima)",
            "",
            "Made by `python3 scripts/pinwheel_study.py growth --m 8,16,24,32,40,48,56,64,72,76 --improve-time 5`"
            " (improve: 5 s each, on a loaded 2-core machine; at m = 72 NW-SE it stopped at its limit without a"
            " shorter solution, exit 3). `static`: theory/reach.lower_bound (span layers, Lemma W).",
            "",
            "| member | n | s | construct | construct + improve | improve CPU s | static lower bound |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        fits = {}
        for key, e in sorted(grow.items(), key=lambda kv: (kv[1]["target"], kv[1]["m"])):
            c = e["construct"].get("length")
            i = (e.get("improve") or {}).get("length")
            best = min(x for x in (c, i) if x) if (c or i) else None
            lines.append(
                f"| {key} | {e['n']} | {e['m'] + 2} | {c or '—'} | {best or '—'} |"
                f" {(e.get('improve') or {}).get('cpu', '—')} | {e.get('static')} |"
            )
            if best and e["m"] + 2 >= 12:
                fits.setdefault(e["target"], []).append((e["m"] + 2, best))
        lines.append("")
        for target, pts in fits.items():
            fit = fit_power_law(pts)
            if fit:
                lines.append(
                    f"* {target}: best upper bound ≈ {fit[1]:.3f}·s^{fit[0]:.2f} over s = {pts[0][0]}..{pts[-1][0]}"
                    f" ({len(pts)} members; a least-squares fit of measured upper bounds, not a rate)"
                )
        lines.append("")
    text = "\n".join(lines)
    if args.out:
        write_atomic(args.out, text)
    else:
        print(text)


def ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("exact", "growth", "table"))
    ap.add_argument("--m", type=ints, default=[1, 2, 3, 4, 5, 6])
    ap.add_argument("--targets", type=lambda t: t.split(","), default=["nwse", "swne"])
    ap.add_argument("--certs", default="/tmp/pinwheel-certs")
    ap.add_argument("--time-limit", type=float, default=5400)
    ap.add_argument("--improve-time", type=float, default=10)
    ap.add_argument("--redo", action="store_true")
    ap.add_argument("--out")
    args = ap.parse_args()
    {"exact": exact, "growth": growth, "table": table}[args.what](args)


if __name__ == "__main__":
    main()
