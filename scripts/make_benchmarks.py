#!/usr/bin/env python3
"""Build the coin-moving competition family: CNFs at the optimum threshold, with a manifest.

    python3 scripts/make_benchmarks.py [--out build/competition] [--members paper,diagonal,vdiag]
        [--formats cnf] [--methods bfs,sat] [--solve-time-limit 300] [--check-time-limit 0] [--no-xz]
        [--doc encodings/competition.md] [--manifest-copy benchmarks/competition-manifest.csv]

For every member whose optimum L is known (the instance's ``known_optimal``,
else proven here by the first of ``--methods`` that proves it within the time limit) it
writes the formula at horizon T = L (expected SAT) and T = L - 1 (expected
UNSAT) with ``coinsat export`` (same code, same bytes), xz-compressed unless
``--no-xz``; ``--formats wcnf`` adds the MaxSAT file at T = L + 2 (expected
optimum cost L).  ``manifest.csv`` in the output directory lists every file:
name, GBD hash (computed by ``gbdc`` on the written file; for CNF also by
coinsat's own ``gbd_hash`` — the script stops if the two differ), expected
result, variables, clauses, family and parameters, and where the optimum comes
from.  With ``--check-time-limit S`` each CNF is also solved by CaDiCaL
(PySAT) and the answer compared with the expected one.  ``--doc`` rewrites the
generated table of ``encodings/competition.md`` (between its markers).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import shlex
import sys
import time
from pathlib import Path

from coinsat import families
from coinsat.analysis import proven_optimum
from coinsat.export import export, write_output
from coinsat.io.atomic import write_atomic
from coinsat.io.dimacs import expected_answer, gbd_hash
from coinsat.io.instance_format import read_instance

ROOT = Path(__file__).resolve().parent.parent

MEMBERS = {
    "paper": None,  # instances/paper/*.toml with a known optimum
    "diagonal": [("diagonal_flip", {"k": k}) for k in (4, 5, 6, 7)],  # k = 4 is the paper's 'diagonal'
    "vdiag": [("vdiag", {"a": a, "b": b}) for a, b in ((1, 1), (2, 1), (2, 2), (3, 2), (3, 3))],
}
FIELDS = [
    "file",
    "gbd_hash",
    "format",
    "expected",
    "variables",
    "clauses",
    "family",
    "parameters",
    "instance",
    "horizon",
    "optimum",
    "optimum_source",
    "checked",
    "check_seconds",
]
BEGIN, END = "<!-- generated:begin -->", "<!-- generated:end -->"


def members(groups: list[str]):
    """(family, parameters, instance) in a fixed order."""
    for g in groups:
        if g == "paper":
            for path in sorted((ROOT / "instances/paper").glob("*.toml")):
                inst = read_instance(path)
                yield "paper", {"puzzle": inst.name}, inst
        else:
            for func, params in MEMBERS[g]:
                yield g, params, getattr(families, func)(**params)


def header_value(text: str, key: str) -> str:
    for line in text.splitlines():
        if line.startswith(key):
            return line
    raise ValueError(key)


def sizes(text: str, fmt: str) -> tuple[int, int]:
    if fmt == "cnf":
        _, _, v, c = header_value(text, "p cnf").split()
        return int(v), int(c)
    if fmt == "opb":
        parts = header_value(text, "* #variable=").split()
        return int(parts[2]), int(parts[4])
    body = [l for l in text.splitlines() if l and not l.startswith("c")]
    nv = max((abs(int(x)) for l in body for x in l.split()[1:]), default=0)
    return nv, len(body)


def gbdc_hash(path: Path, fmt: str) -> str | None:
    try:
        import gbdc
    except ImportError:
        return None
    return {"cnf": gbdc.gbdhash, "wcnf": gbdc.wcnfhash, "opb": gbdc.opbhash}[fmt](str(path))


_CHECK = """
import sys
from pysat.formula import CNF
from pysat.solvers import Solver
with Solver(name="cadical195", bootstrap_with=CNF(from_string=sys.stdin.read()).clauses) as s:
    print("SAT" if s.solve() else "UNSAT")
"""


def check(text: str, seconds: float) -> str:
    """Solve a CNF with CaDiCaL 1.9.5 (PySAT) in a subprocess killed after ``seconds``
    (PySAT cannot interrupt CaDiCaL): SAT, UNSAT or timeout."""
    import subprocess

    try:
        p = subprocess.run([sys.executable, "-c", _CHECK], input=text, capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return "timeout"
    return p.stdout.strip() if p.returncode == 0 else f"error {p.stderr.strip()[-200:]}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "build/competition"))
    ap.add_argument("--members", default="paper,diagonal,vdiag")
    ap.add_argument("--formats", default="cnf", help="comma list of cnf, wcnf, opb")
    ap.add_argument("--methods", default="bfs,sat", help="engines tried in turn to prove unknown optima")
    ap.add_argument("--solve-time-limit", type=float, default=300.0)
    ap.add_argument("--check-time-limit", type=float, default=0.0, help="solve each CNF to check it (0: no)")
    ap.add_argument("--no-xz", action="store_true")
    ap.add_argument("--doc", default=None, help="rewrite the generated table of this document")
    ap.add_argument("--manifest-copy", default=None, help="also write the manifest here (e.g. to commit it)")
    args = ap.parse_args(argv)
    from coinsat.search.methods import METHODS

    methods = [m for m in args.methods.split(",") if m in METHODS]
    out = Path(args.out)
    formats = args.formats.split(",")
    rows, skipped = [], []
    seen: dict[str, str] = {}  # hash -> file
    for family, params, inst in members(args.members.split(",")):
        L, source = proven_optimum(inst, methods, args.solve_time_limit, trust_known=True)
        if L is None or L < 1:
            skipped.append((inst.name, source if L is None else "optimum 0: no UNSAT side"))
            print(f"skip {inst.name}: {skipped[-1][1]}", file=sys.stderr)
            continue
        # T = L - 1 is UNSAT in any window; T = L is SAT in the window when the window is
        # exact for L (expected_answer), otherwise only a solver run can say so.
        sure = expected_answer(dataclasses.replace(inst, known_optimal=L), L) == "SAT"
        if not sure and "SAT" != check(export(inst, "cnf", L), args.solve_time_limit):
            skipped.append((inst.name, f"window {inst.board.window} not exact for T = {L} and no model found"))
            continue
        jobs = []
        for fmt in formats:
            if fmt == "wcnf":
                jobs.append((fmt, L + 2, f"optimum cost {L}"))
            else:
                jobs += [(fmt, L - 1, "UNSAT"), (fmt, L, "SAT")]
        for fmt, T, expected in jobs:
            t0 = time.perf_counter()
            text = export(inst, fmt, T, expected=expected)
            name = f"coins-{inst.name}-T{T}.{fmt}" + ("" if args.no_xz else ".xz")
            path = out / name
            write_output(path, text)
            h = gbdc_hash(path, fmt)
            if fmt == "cnf":
                own = gbd_hash(text)
                if h is not None and h != own:
                    raise SystemExit(f"{name}: gbdc hash {h} != coinsat gbd_hash {own}")
                h = h or own
            if h and h in seen:
                path.unlink()
                skipped.append((name, f"same formula (GBD hash) as {seen[h]}"))
                continue
            seen[h or name] = name
            nv, nc = sizes(text, fmt)
            checked = ""
            check_s = ""
            if args.check_time_limit > 0 and fmt == "cnf":
                t1 = time.perf_counter()
                got = check(text, args.check_time_limit)
                check_s = f"{time.perf_counter() - t1:.1f}"
                checked = got if got == "timeout" else ("ok" if got == expected else f"MISMATCH {got}")
                if checked.startswith("MISMATCH"):
                    print(f"{name}: expected {expected}, solver says {got}", file=sys.stderr)
            rows.append(
                {
                    "file": name,
                    "gbd_hash": h or "",
                    "format": fmt,
                    "expected": expected,
                    "variables": nv,
                    "clauses": nc,
                    "family": family,
                    "parameters": ";".join(f"{k}={v}" for k, v in params.items()),
                    "instance": inst.name,
                    "horizon": T,
                    "optimum": L,
                    "optimum_source": source,
                    "checked": checked,
                    "check_seconds": check_s,
                }
            )
            print(
                f"{name}: {nv} vars, {nc} clauses, {expected} {checked} ({time.perf_counter() - t0:.1f} s)",
                file=sys.stderr,
                flush=True,
            )
    buf = io.StringIO()
    w = csv.DictWriter(buf, FIELDS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    write_atomic(out / "manifest.csv", buf.getvalue())
    if args.manifest_copy:
        write_atomic(args.manifest_copy, buf.getvalue())
    command = "python3 scripts/make_benchmarks.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    if args.doc:
        update_doc(Path(args.doc), rows, skipped, command)
    print(f"wrote {len(rows)} files and {out / 'manifest.csv'}", file=sys.stderr)
    return 1 if any(r["checked"].startswith("MISMATCH") for r in rows) else 0


def update_doc(doc: Path, rows, skipped, command: str) -> None:
    lines = [
        BEGIN,
        "",
        f"Generated by `{command}`.",
        "",
        "| file | expected | variables | clauses | family | parameters | GBD hash | checked (CaDiCaL s) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['file']} | {r['expected']} | {r['variables']} | {r['clauses']} | {r['family']} "
        f"| {r['parameters']} | `{r['gbd_hash']}` | "
        + (f"{r['checked']} ({r['check_seconds']} s)" if r["checked"] else "—")
        + " |"
        for r in rows
    ]
    if skipped:
        lines += [
            "",
            "Left out: members without a proven optimum within the time limit (unsolvable ones have no "
            "threshold), and formulas identical to one listed:",
            "",
        ]
        lines += [f"* {name}: {why}" for name, why in skipped]
    lines += ["", END]
    text = doc.read_text()
    a, b = text.index(BEGIN), text.index(END) + len(END)
    write_atomic(doc, text[:a] + "\n".join(lines) + text[b:])


if __name__ == "__main__":
    sys.exit(main())
