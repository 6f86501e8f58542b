#!/usr/bin/env python3
"""The pinwheel family (coinsat family pinwheel): exact optima with checked certificates, and
upper bounds from construct + improve.

    python3 scripts/pinwheel_study.py exact --m 1,2,3,4,5,6 [--targets nwse,swne]
                                      [--certs /tmp/pinwheel-certs] [--time-limit 5400]
    python3 scripts/pinwheel_study.py exact --m 7 --targets swne --heuristic lmcut --max-moves 94
    python3 scripts/pinwheel_study.py adopt --answer ANSWER.json [--solution SOLUTION.json]
    python3 scripts/pinwheel_study.py growth --m 2,4,...,76 [--improve-time 10]
    python3 scripts/pinwheel_study.py table --out benchmarks/pinwheel.md

``exact``: for each member, one subprocess runs ``coinsat certify FILE --method rankbfs -o
DIR --json`` (the optimum, its solution and the certificate of 'no solution with one move
fewer'); with ``--heuristic H --max-moves K`` it runs ``coinsat solve FILE --method rankbfs
--heuristic H --max-moves K --certify DIR --json`` instead (bound-and-prune with U = K: the optimum
when it is <= K, else 'no solution with <= K moves', a lower bound).  Then another subprocess
runs ``coinsat check-certificate FILE CERT --json`` in a fresh process;
CPU seconds are each subprocess's own (getrusage of the children).  An optimum's solution is
replayed by ``coinsat verify`` and, once the certificate is accepted, written to
instances/families/solutions/pinwheel-M-TARGET.json with what it proves.
``growth``: ``coinsat construct --algorithm ALG --json -o`` for every constructive algorithm ALG
(``constructive.ALGORITHMS``; a refusal is recorded with its reason), then ``coinsat improve`` with
--improve-time seconds on the shortest construction, per member (a verified upper bound each; the
member's bound is the best of all of them, ``lab.pinwheel.best_upper_bound``);
``--missing`` only runs the algorithms an entry has no construction of yet (improve is not
re-run).  Results are merged into benchmarks/pinwheel_results.json as they come (a member
already there is skipped unless --redo), so a stopped run resumes.  ``table`` writes the Markdown table from that file.
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
from coinsat.constructive import ALGORITHMS
from coinsat.families import pinwheel
from coinsat.io.atomic import write_atomic
from coinsat.search.heuristics import CHOICES
from coinsat.theory.reach import lower_bound as static_bound
from lab.analysis import fit_power_law
from lab.pinwheel import best_upper_bound, migrate_growth

ROOT = Path(__file__).resolve().parents[2]
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
            rc, out, wall, cpu = cli(certify_command(path, certs, args), args.time_limit)
            entry = member_entry(m, target)
            entry["search"] = search_label(args)
            entry["certify"] = {"rc": rc, "wall": round(wall, 1), "cpu": round(cpu, 1)}
            if out:
                made = out.get("certificate_check") or out  # solve --certify nests the check's verdict
                entry["certify"]["status"] = out.get("status")
                entry["certify"].update({k: made.get(k) for k in ("claim", "accepted", "reason", "kind")})
            cert = certs / f"{key}.certificate.json"
            if rc == 0 and cert.exists():
                data = json.loads(cert.read_text())
                bounded = bool(out) and out.get("status") == "bounded"
                if bounded:  # no solution with <= K moves: a lower bound
                    entry["lower_bound"] = out.get("lower_bound")
                check_and_keep(entry, path, cert, data, None if bounded else data["solution"], entry["search"], args)
            results.setdefault("exact", {})[key] = entry
            save(results)
            print(key, entry.get("optimum"), entry["certify"], entry.get("check"), flush=True)


def adopt(args) -> None:
    """Merge a proof run made outside the study as its member's exact entry: ``--answer`` the JSON
    of ``coinsat solve FILE --method rankbfs --heuristic H --max-moves K --certify DIR -o ANSWER``
    (a long run, resumable), whose certificate is checked here again in a fresh process.  Its
    optimum, or with ``--solution`` a solution whose length is the run's lower bound ('no solution
    with <= K moves' and K + 1 moves: optimal), is replayed by ``coinsat verify`` and stored once
    the fresh check accepts."""
    answer = json.loads(Path(args.answer).read_text())
    made = answer.get("certificate_check") or {}
    key = answer["name"]
    path = FAMILY / f"{key}.toml"
    if not (made.get("accepted") and path.exists()):
        raise SystemExit(f"{args.answer}: no accepted certificate of {path}")
    cert = Path(made["file"])
    data = json.loads(cert.read_text())
    m, target = int(key.split("-")[1]), key.split("-")[2]
    entry = member_entry(m, target)
    search = f"rankbfs, {data['h']} h, U = {data['upper_bound']}"
    entry["search"] = f"{search} (adopted: certify CPU s = the search's)"
    stats = answer.get("statistics") or {}
    entry["certify"] = {"rc": 0, "wall": round(answer["seconds"], 1), "cpu": round(stats.get("cpu_seconds", 0), 1)}
    entry["certify"].update({"status": answer["status"]} | {k: made.get(k) for k in ("claim", "accepted", "kind")})
    entry["lower_bound"] = answer.get("lower_bound")
    moves = answer.get("moves") if answer["status"] == "optimal" else None
    if answer["status"] == "bounded" and args.solution:
        moves = json.loads(Path(args.solution).read_text())["moves"]
        if len(moves) != answer["lower_bound"]:
            moves = None  # a longer solution: the bound stands, no optimum
    check_and_keep(entry, path, cert, data, moves, search, args)
    results = load()
    results.setdefault("exact", {})[key] = entry
    save(results)
    print(key, entry.get("optimum"), entry.get("lower_bound"), entry["check"], flush=True)


def member_entry(m: int, target: str) -> dict:
    return {"m": m, "target": target, "n": m + 4, "cells": (m + 2) ** 2, "commit": commit()}


def check_and_keep(entry: dict, path: Path, cert: Path, data: dict, moves: list | None, search: str, args) -> None:
    """Into ``entry``: the certificate's size, its check by ``coinsat check-certificate`` in a fresh
    process, and ``optimum``; ``moves`` (an optimum's solution, or None) is replayed by ``coinsat
    verify`` and stored with what it proves once that check accepts."""
    entry["states"] = data.get("states")
    entry["certificate_bytes"] = sum(f.stat().st_size for f in cert.parent.iterdir())
    crc, cout, cwall, ccpu = cli(["check-certificate", str(path), str(cert), "--json"], args.time_limit)
    entry["check"] = {"rc": crc, "wall": round(cwall, 1), "cpu": round(ccpu, 1)}
    if cout:
        entry["check"].update({k: cout.get(k) for k in ("accepted", "claim", "reason")})
    entry["optimum"] = None
    if crc != 0 or moves is None:
        return
    sol_path = FAMILY / "solutions" / f"{path.stem}.json"
    with tempfile.TemporaryDirectory() as tmp:
        trial = Path(tmp) / sol_path.name
        trial.write_text(json.dumps(solution_record(path.stem, moves, search)) + "\n")
        vrc, _, _, _ = cli(["verify", str(path), str(trial)], 600)
        entry["verify_rc"] = vrc
        if vrc == 0:
            write_atomic(sol_path, trial.read_text())
            entry["optimum"] = len(moves)


def certify_command(path: Path, certs: Path, args) -> list[str]:
    """``coinsat certify`` (the plain ranked search), or with ``--heuristic`` a bound-and-prune
    search with that h and U = ``--max-moves`` that writes and checks its certificate itself
    (``coinsat solve --certify``): optimal when it meets the goal, else 'bounded'."""
    if not args.heuristic:
        return ["certify", str(path), "--method", "rankbfs", "-o", str(certs), "--json"]
    return [
        "solve", str(path), "--method", "rankbfs", "--heuristic", args.heuristic, "--max-moves",
        str(args.max_moves), "--workers", str(args.workers), "--certify", str(certs), "--json",
    ] + (["--resume", args.resume] if args.resume else [])  # fmt: skip


def solution_record(key: str, moves: list, search: str) -> dict:
    """The stored solution of an optimum, saying what is proven (as the V family's records do)."""
    n = len(moves)
    proven = (
        "optimal: the start is the goal (0 moves)"
        if n == 0
        else (
            f"optimal: these {n} moves are replayed by rules.py, and no solution has <= {n - 1} moves: the ranked "
            f"layers certificate of {search} on span(start) (an exact window: global), accepted by coinsat "
            "check-certificate in a fresh process (benchmarks/pinwheel.md)"
        )
    )
    return {
        "name": key, "status": "optimal", "length": n, "lower_bound": n, "method": "rankbfs", "proven": proven,
        "moves": moves,
    }  # fmt: skip


def search_label(args) -> str:
    if not args.heuristic:
        return "rankbfs"
    return f"rankbfs, {args.heuristic} h, U = {args.max_moves}" + (" (resumed)" if args.resume else "")


def construct_all(path: Path, entry: dict, tmp: Path) -> Path | None:
    """Every constructive algorithm entry["constructs"] has no answer of yet, on ``path``; the
    file of the shortest construction made now (None: none made)."""
    made = entry.setdefault("constructs", {})
    best: tuple[int, Path] | None = None
    for alg in sorted(ALGORITHMS):
        if alg in made:
            continue
        built = tmp / f"{path.stem}.{alg}.json"
        rc, out, wall, cpu = cli(["construct", str(path), "--algorithm", alg, "--json", "-o", str(built)], 3600)
        made[alg] = {"rc": rc, "length": out and out.get("length"), "cpu": round(cpu, 1)}
        if rc == 2:
            made[alg]["note"] = "refused: the puzzle is outside the algorithm's hypothesis"
        if rc == 0 and made[alg]["length"] is not None and (best is None or made[alg]["length"] < best[0]):
            best = (made[alg]["length"], built)
    return best[1] if best else None


def growth(args) -> None:
    results = load()
    for entry in results.get("growth", {}).values():
        migrate_growth(entry)
    with tempfile.TemporaryDirectory() as tmp:
        for m in args.m:
            for target in args.targets:
                key = f"pinwheel-{m}-{target}"
                old = results.get("growth", {}).get(key)
                if old and args.missing:
                    path = Path(tmp) / f"{key}.toml"
                    write_instance(pinwheel(m, target), path)
                    construct_all(path, old, Path(tmp))
                    save(results)
                    print(key, old["constructs"], flush=True)
                    continue
                if old and not args.redo:
                    continue
                path = Path(tmp) / f"{key}.toml"
                inst = pinwheel(m, target)
                write_instance(inst, path)
                entry: dict = {"m": m, "target": target, "n": m + 4, "commit": commit()}
                built = construct_all(path, entry, Path(tmp))
                if built is not None:
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
                    entry["improve"]["time_limit"] = args.improve_time
                    if iout and isinstance(iout.get("lower_bound"), int):  # improve's exact pass: proven
                        entry["improve"]["lower_bound"] = iout["lower_bound"]
                entry["static"] = static_bound(inst)
                results.setdefault("growth", {})[key] = entry
                save(results)
                print(key, entry, flush=True)


def table(args) -> None:
    results = load()
    for entry in results.get("growth", {}).values():
        migrate_growth(entry)
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
        "| member | n | cells | optimum | search | states | certify CPU s | check CPU s | certificate | commit |",
        "|---|---:|---:|---:|---|---:|---:|---:|---|---|",
    ]
    for key, e in sorted(results.get("exact", {}).items(), key=lambda kv: (kv[1]["target"], kv[1]["m"])):
        chk = e.get("check", {})
        verdict = "accepted" if chk.get("accepted") else f"not accepted (rc {chk.get('rc')})" if chk else "—"
        if e.get("optimum") is not None:
            opt = f"**{e['optimum']}**"
        elif e.get("lower_bound") is not None and chk.get("accepted"):
            opt = f">= {e['lower_bound']}"
        else:
            opt = f"— ({e['certify'].get('status')})"
        lines.append(
            f"| {key} | {e['n']} | {e['cells']} | {opt} | {e.get('search', 'rankbfs')} | {e.get('states') or '—'} |"
            f" {e['certify']['cpu']} | {chk.get('cpu', '—')} | {verdict}: {chk.get('claim', '')} | {e['commit']} |"
        )
    lines += [
        "",
        "Check any row: `coinsat certify instances/families/pinwheel-M-T.toml --method rankbfs -o DIR` (search"
        " `rankbfs`), or `coinsat solve instances/families/pinwheel-M-T.toml --method rankbfs --heuristic H"
        " --max-moves U --certify DIR` (search `rankbfs, H h, U = U`), then `coinsat check-certificate"
        " instances/families/pinwheel-M-T.toml DIR/pinwheel-M-T.certificate.json`.",
        "",
    ]
    grow = results.get("growth", {})
    if grow:
        lines += [
            "## Upper bounds: construct, then improve (verified solutions, never optima)",
            "",
            "Made by `python3 scripts/pinwheel_study.py growth --m 8,16,24,32,40,48,56,64,72,76 --improve-time 5`"
            " (improve: 5 s each, on a loaded 2-core machine; at m = 72 NW-SE it stopped at its limit without a"
            " shorter solution, exit 3), then `growth --missing` for the constructive algorithms added since;"
            " rows whose improve CPU s names a limit were run again with that limit (`growth --m M --redo"
            " --improve-time S`)."
            f" Every algorithm of `coinsat construct --algorithm` ({', '.join(sorted(ALGORITHMS))}) is tried on"
            " every member; `best` is the shortest of all constructions and improve. `static`:"
            " theory/reach.lower_bound (span layers, Lemma W); `improve's bound`: what improve's exact pass proved"
            " (rankbfs layers on span(start) exhausted without the goal; recorded from the rows run with a limit"
            " on).",
            "",
            "| member | n | s | construct (each algorithm) | construct + improve | best | improve CPU s"
            " | static lower bound | improve's bound |",
            "|---|---:|---:|---|---:|---:|---:|---:|---:|",
        ]
        fits = {}
        for key, e in sorted(grow.items(), key=lambda kv: (kv[1]["target"], kv[1]["m"])):
            each = "; ".join(
                f"{alg}: {c['length'] if c.get('length') is not None else 'refused'}"
                for alg, c in sorted(e["constructs"].items())
            )
            i = (e.get("improve") or {}).get("length")
            best = best_upper_bound(e)
            lines.append(
                f"| {key} | {e['n']} | {e['m'] + 2} | {each} | {i or '—'} | {best or '—'} |"
                f" {_improve_cpu(e.get('improve') or {})} | {e.get('static')} |"
                f" {(e.get('improve') or {}).get('lower_bound', '—')} |"
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


def _improve_cpu(run: dict) -> str:
    """The improve run's CPU seconds, with its time limit when it was not the table's 5 s."""
    cpu = run.get("cpu", "—")
    return f"{cpu} (limit {run['time_limit']:g} s)" if run.get("time_limit") not in (None, 5) else str(cpu)


def ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("exact", "adopt", "growth", "table"))
    ap.add_argument("--answer", metavar="JSON", help="adopt: the answer of a solve run with --certify")
    ap.add_argument("--solution", metavar="JSON", help="adopt: a solution of the answer's lower bound's length")
    ap.add_argument("--m", type=ints, default=[1, 2, 3, 4, 5, 6])
    ap.add_argument("--targets", type=lambda t: t.split(","), default=["nwse", "swne"])
    ap.add_argument("--certs", default="/tmp/pinwheel-certs")
    ap.add_argument("--time-limit", type=float, default=5400)
    ap.add_argument("--improve-time", type=float, default=10)
    ap.add_argument("--heuristic", choices=CHOICES, help="exact: bound-and-prune with this h")
    ap.add_argument("--max-moves", type=int, help="exact with --heuristic: the bound U (none found: '>= U + 1')")
    ap.add_argument("--workers", type=int, default=1, help="exact with --heuristic: rankbfs processes")
    ap.add_argument(
        "--resume",
        metavar="DIR",
        help="exact with --heuristic (one member): rankbfs --resume DIR, e.g. the saved layers of an earlier run"
        " of the same search (its certify CPU s is then the resumed part's)",
    )
    ap.add_argument("--redo", action="store_true")
    ap.add_argument(
        "--missing", action="store_true", help="growth: only the constructive algorithms an entry has not run yet"
    )
    ap.add_argument("--out")
    args = ap.parse_args()
    {"exact": exact, "adopt": adopt, "growth": growth, "table": table}[args.what](args)


if __name__ == "__main__":
    main()
