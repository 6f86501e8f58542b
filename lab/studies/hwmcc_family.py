#!/usr/bin/env python3
"""A model-checking benchmark family for the HWMCC: coin-moving puzzles as AIGER safety properties.

    python3 scripts/hwmcc_family.py --out build/hwmcc [--cap 20] [--manifest-copy benchmarks/hwmcc-manifest.csv]

Members: the paper's puzzles (instances/paper) and the counterexamples to its theorems
(instances/counterexamples), jump moves.  Files (binary AIGER, ``coinsat export --format aig``,
spec encodings/aiger.md; the output is the bad signal):

* ``coins-<puzzle>.aig``: "never the goal".  Expected: FAILS at depth L (the optimum inside the
  window) for a solvable puzzle, HOLDS for an unsolvable one.
* ``coins-<puzzle>-within<T>.aig`` for T = L - 1 (HOLDS) and T = L (FAILS at depth L): the
  step-counter variant, "never the goal within T moves".

Where each expected answer comes from (column ``certified``): a FAILS file by a verified
solution of L moves inside the window, from the SAT engine (replayed by rules.py; its optimum
is the known one); a HOLDS file by a checked certificate: for "within L - 1" the optimum of the
SAT engine (a refutation at L - 1), for "never the goal" an inductive-invariant certificate
(PDR's invariant with three DRAT proofs, checked by coinsat's own checker) or the screens'
invariant certificate, checked.  ABC is then timed on every file: ``pdr`` (and ``bmc3`` on FAILS
files), capped at ``--cap`` CPU-ish seconds (wall clock of the ABC process); grades as in
encodings/competition.md: easy < 10 s, medium < 1000 s, hard = stopped at a cap of >= 1000 s
with the answer known, else "not graded (cap N s)".  Files are not committed; the manifest is.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
import sys
import tempfile
import time
from pathlib import Path

from coinsat import export, read_instance
from coinsat.backends.abc import run_abc
from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.format import Certificate
from coinsat.certificates.prove.inductive import build_inductive
from coinsat.certificates.prove.screens import find_screen_certificate
from coinsat.limits import Limits
from coinsat.search import methods

ROOT = Path(__file__).resolve().parents[2]
FIELDS = ["file", "sha256", "property", "expected", "depth", "instance", "cells", "latches", "certified",
          "abc_pdr", "abc_pdr_s", "abc_bmc_s", "grade"]  # fmt: skip


def grade(seconds: float | None, cap: float) -> str:
    if seconds is None:
        return "hard" if cap >= 1000 else f"not graded (cap {cap:g} s)"
    return "easy" if seconds < 10 else "medium" if seconds < 1000 else "hard"


def abc_pdr(data: bytes, cap: float) -> tuple[str, float | None]:
    run = run_abc(data, [f"pdr -T {max(1, int(cap))}"], time_limit=cap + 5)
    if re.search(r"asserted in frame", run.output):
        return "FAILS", run.seconds
    if "Property proved" in run.output:
        return "HOLDS", run.seconds
    return "undecided", None


def abc_bmc(data: bytes, depth: int, cap: float) -> float | None:
    run = run_abc(data, [f"bmc3 -F {depth + 1}"], time_limit=cap)
    m = re.search(r"asserted in frame (\d+)", run.output)
    return run.seconds if m and int(m.group(1)) == depth else None


def unsolvable_certificate(inst) -> str:
    if find_screen_certificate(inst) is not None:
        return "screen invariant certificate (checked)"
    r = methods.run("pdr", inst, limits=Limits(60.0))
    if r.status.value != "unsolvable" or r.witness is None:
        return ""
    with tempfile.TemporaryDirectory() as tmp:
        text = Certificate.from_json(build_inductive(inst, r.witness, tmp, "x")).text()
        verdict = check_certificate(inst, json.loads(text), tmp)
    return f"inductive invariant, {len(r.witness.clauses)} clauses, 3 DRAT proofs (checked)" if verdict.ok else ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="directory for the .aig files and manifest.csv")
    ap.add_argument("--cap", type=float, default=20.0, help="seconds ABC gets per file and engine")
    ap.add_argument("--manifest-copy", default=None, help="also write the manifest here")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    files = sorted((ROOT / "instances" / "paper").glob("*.toml")) + sorted(
        (ROOT / "instances" / "counterexamples").glob("*.toml")
    )
    for f in files:
        inst = read_instance(f)
        plans: list[tuple[int | None, str, int | None, str]] = []
        proof = unsolvable_certificate(inst)  # a screen, or PDR's checked invariant
        sat = methods.run("sat", inst, limits=Limits(60.0)) if not proof else None
        if proof:
            plans.append((None, "HOLDS", None, proof))
        elif sat is not None and sat.status.value == "optimal":
            L = sat.length
            assert L is not None
            why = f"SAT optimum {L}: a verified {L}-move solution inside the window"
            plans += [(None, "FAILS", L, why), (L, "FAILS", L, why)]
            if L >= 1:
                plans.append((L - 1, "HOLDS", None, f"SAT optimum {L}: no solution with <= {L - 1} moves"))
        else:
            print(f"{inst.name}: no known answer, skipped", file=sys.stderr)
            continue
        for horizon, expected, depth, certified in plans:
            name = f"coins-{inst.name}" + ("" if horizon is None else f"-within{horizon}") + ".aig"
            data = export(inst, "aig", horizon).data
            (out / name).write_bytes(data)
            verdict, secs = abc_pdr(data, args.cap)
            bmc = abc_bmc(data, depth, args.cap) if expected == "FAILS" and depth is not None else None
            if verdict not in ("undecided", expected):
                raise SystemExit(f"{name}: ABC says {verdict}, expected {expected}")
            best = min((s for s in (secs, bmc) if s is not None), default=None)
            latches = int(data.split(b"\n", 1)[0].split()[3])
            rows.append(
                {
                    "file": name,
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "property": "never the goal" if horizon is None else f"never the goal within {horizon}",
                    "expected": expected,
                    "depth": "" if depth is None else depth,
                    "instance": inst.name,
                    "cells": inst.board.size,
                    "latches": latches,
                    "certified": certified or "no",
                    "abc_pdr": verdict,
                    "abc_pdr_s": "" if secs is None else f"{secs:.2f}",
                    "abc_bmc_s": "" if bmc is None else f"{bmc:.2f}",
                    "grade": grade(best, args.cap),
                }
            )
            print(rows[-1], flush=True)
    for path in [out / "manifest.csv"] + ([Path(args.manifest_copy)] if args.manifest_copy else []):
        with open(path, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=FIELDS)
            w.writeheader()
            w.writerows(rows)
    print(f"{len(rows)} files in {out}; {time.process_time():.0f} CPU s in this process", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
