"""LRAT bounded certificates: what the DRAT-to-LRAT conversion and the LRAT checks cost.

    python3 scripts/lrat_bench.py [--puzzles paper/h-to-o:3 ...] [--out benchmarks/lrat.md]

For each puzzle and horizon T (one below its optimum): the core-only formula F_T, CaDiCaL 1.9.5's
DRAT refutation (PySAT), its conversion to LRAT (``certificates/prove/lrat.py``), coinsat's
LRAT check (``check/lrat.py``), dratify's DRAT check of the same proof (cdclkit's native engine
when installed, as ``check-certificate`` runs it), and the referee script on the whole
certificate (a process: start-up, reading the instance, writing F_T, the LRAT check).  CPU
seconds of this process (``time.process_time``), of the script's process (``RUSAGE_CHILDREN``).
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

from coinsat import load
from coinsat.backends.sat_backend import prove
from coinsat.certificates.check.core_cnf import core_clauses, core_cnf_text
from coinsat.certificates.check.lrat import check_lrat
from coinsat.certificates.prove.bounded import build_bounded
from coinsat.certificates.prove.lrat import drat_to_lrat
from coinsat.io.instance_format import write_instance
from lab.commandline import shown

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ["paper/h-to-o:3", "paper/swap5-b:10", "paper/pyramid-to-line:6", "paper/tri2oline:6", "paper/diagonal:17"]


def cpu(f, *args):
    t = time.process_time()
    out = f(*args)
    return out, time.process_time() - t


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def row(spec: str) -> str:
    import cdclkit  # noqa: F401  (registers the native DRAT engine with dratify)
    import dratify

    name, horizon = spec.rsplit(":", 1)
    instance, T = load(name), int(horizon)
    cnf = core_clauses(instance, T)
    refutation, solve_s = cpu(prove, cnf.clauses, "cadical195")
    drat = refutation.proof
    lines, convert_s = cpu(drat_to_lrat, cnf.clauses, drat)
    data = ("\n".join(lines) + "\n").encode()
    (ok, _, lemmas), check_s = cpu(check_lrat, cnf.clauses, data)
    text = core_cnf_text(instance, T, cnf)
    drat_ok, drat_s = cpu(lambda: dratify.check_proof(dratify.parse_dimacs(text), "\n".join(drat) + "\n").ok)
    with tempfile.TemporaryDirectory() as tmp:
        cert = build_bounded(instance, T, tmp, "x", core=True, lrat=True)
        assert cert is not None
        (Path(tmp) / "x.certificate.json").write_text(json.dumps(cert))
        write_instance(instance, Path(tmp) / "puzzle.toml")
        before = children_cpu()
        p = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "referee_check.py"), str(Path(tmp) / "puzzle.toml"), tmp],
            capture_output=True,
            text=True,
        )
        referee_s = children_cpu() - before
    verdicts = f"{'yes' if ok else 'NO'} / {'yes' if drat_ok else 'NO'} / {'yes' if p.returncode == 0 else 'NO'}"
    mb = 1 << 20
    return (
        f"| {name} | {T} | {len(cnf.clauses)} | {len(drat)} ({sum(len(x) + 1 for x in drat) / mb:.1f} MB) "
        f"| {lemmas} ({len(data) / mb:.1f} MB) | {solve_s:.2f} | {convert_s:.2f} | {check_s:.2f} | {drat_s:.2f} "
        f"| {referee_s:.2f} | {verdicts} |"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", nargs="+", default=PUZZLES, metavar="NAME:T")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "lrat.md"))
    args = ap.parse_args(argv)
    command = shown("scripts/lrat_bench.py", argv if argv is not None else sys.argv[1:], ROOT)
    rows = []
    for spec in args.puzzles:
        rows.append(row(spec))
        print(rows[-1], file=sys.stderr)
    head = [
        "# LRAT bounded certificates: conversion and checks",
        "",
        f"Command: `{command}` (run under `nice -n 10` on the shared 2-core machine).",
        "CPU seconds; F_T the core-only formula, T one below the optimum; the DRAT proof is CaDiCaL 1.9.5's",
        "(PySAT), the LRAT its conversion (lemmas the empty clause needs, with their hints); accepted: coinsat's",
        "LRAT check / dratify on the DRAT proof / `scripts/referee_check.py` on the certificate.",
        "",
        "| puzzle | T | clauses | DRAT lines | LRAT lemmas | solve s | DRAT→LRAT s | LRAT check s "
        "| DRAT check s | referee s | accepted |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    Path(args.out).write_text("\n".join(head + rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
