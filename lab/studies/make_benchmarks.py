#!/usr/bin/env python3
"""Build the coin-moving competition family: CNFs at the optimum threshold, with a manifest.

    python3 scripts/make_benchmarks.py [--out build/competition] [--members paper,diagonal,vdiag]
        [--formats cnf] [--encodings pruned,core] [--methods bfs,sat] [--solve-time-limit 300]
        [--optima benchmarks/vfamily_results.json] [--optimum NAME=L:SOURCE ...]
        [--times benchmarks/competition-times.csv] [--check-time-limit 0] [--no-xz]
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

Frontier members.  ``--encodings pruned,core`` writes each CNF twice: the
encoder's (default options, ``coins-<puzzle>-T<T>.cnf``) and the core-only CNF of
``coinsat/certificates/check/core_cnf.py`` (definition families C1–C8 and N1 only,
``coins-<puzzle>-T<T>-core.cnf``).  Optima come, in this order, from the instance's
``known_optimal``, from ``--optimum NAME=L:SOURCE``, from ``--optima`` (the V-family study's
results: an ``optimal`` run, with the certificates accepted for it), or are proven here by
``--methods``.  Every file gets where its expected answer comes from and whether that is
*certified* independently of the solvers timed: the T = L file by a verified solution (a
solution file of L moves replayed by rules.py here), the T = L − 1 file by an accepted
certificate of "no solution with <= L − 1 moves" (layers or DRAT).  ``--times`` reads the
rows of ``scripts/competition_times.py`` (two solvers, a CPU-second cap) into the manifest
and grades each file by CaDiCaL's CPU seconds: easy (< 10 s), medium (< 1000 s), hard
(stopped at a cap of >= 1000 s with the answer known), or "not graded (cap N s)" when a
smaller cap stopped it (at least that slow, but never called hard); when CaDiCaL 1.9.5 left
a file ungraded, the ``cadical`` program's run grades it, and the grade says so.
``--scale-proofs`` reads the large members proved optimal with a checked layers certificate
(``benchmarks/scale_proofs.json``, ``scripts/scale_bench.py --sections proofs``), so their
T = L − 1 files are certified without solving anything again.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import json
import lzma
import sys
import time
from pathlib import Path

from coinsat import export, families, read_instance
from coinsat.io.atomic import write_atomic
from coinsat.io.dimacs import expected_answer, gbd_hash
from lab.analysis import proven_optimum
from lab.commandline import shown
from lab.competition import (
    check,
    cpu_of,
    file_grade,
    read_times,
    scale_optima,
    short_source,
    study_optimum,
    timing,
)

ROOT = Path(__file__).resolve().parents[2]

MEMBERS = {
    "paper": None,  # instances/paper/*.toml with a known optimum
    "diagonal": [("diagonal_flip", {"k": k}) for k in (4, 5, 6, 7, 8)],  # k = 4 is the paper's 'diagonal'
    "vdiag": [
        ("vdiag", {"a": a, "b": b, "target": t})
        for a, b in ((1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (4, 3))
        for t in ("nwse", "swne")
    ],
}
#: where solution files are looked for, by instance name (<name>.json)
SOLUTIONS = (ROOT / "instances/families/solutions", ROOT / "benchmarks/competition-solutions")
SOLVERS = ("cadical-pysat", "cadical-bin")
FIELDS = [
    "file",
    "gbd_hash",
    "format",
    "encoding",
    "expected",
    "variables",
    "clauses",
    "family",
    "parameters",
    "instance",
    "horizon",
    "optimum",
    "optimum_source",
    "answer_source",
    "certified",
    "checked",
    "check_seconds",
    "cadical_pysat",
    "cadical_bin",
    "grade",
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


def replayed_solution(inst, L: int) -> str | None:
    """The solution file of ``inst`` when it has L moves and rules.py accepts it here."""
    from coinsat.io.solution_format import read_solution
    from coinsat.solution import verify

    found = [d / f"{inst.name}.json" for d in SOLUTIONS if (d / f"{inst.name}.json").is_file()]
    if not found:
        return None
    path = found[0]
    inst2, sol = read_solution(inst, path)
    if len(sol) != L or not verify(inst2, sol, keep_trace=False).ok:
        return None
    return f"verified solution {path.relative_to(ROOT)} ({L} moves, replayed by rules.py here)"


def write_xz(path: Path, text: str | bytes) -> None:
    """Write ``text`` all at once, xz-compressed (the same bytes each time) when the name ends in .xz."""
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    if path.suffix == ".xz":
        data = lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=6)
    write_atomic(path, data)


def formula(inst, fmt: str, T: int, expected: str, encoding: str) -> str:
    if encoding == "pruned":
        return export(inst, fmt, T, expected=expected).data
    from coinsat.certificates.check.bounded import widened
    from coinsat.certificates.check.core_cnf import core_cnf_text
    from coinsat.certificates.prove.bounded import exact_margin

    m = exact_margin(inst, T)
    return core_cnf_text(inst if m is None else widened(inst, m), T)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--out", default=str(ROOT / "build/competition"), help="the folder to write (default: build/competition)"
    )
    ap.add_argument(
        "--members", default="paper,diagonal,vdiag", help="comma list of paper, diagonal, vdiag (default: all three)"
    )
    ap.add_argument("--formats", default="cnf", help="comma list of cnf, wcnf, opb")
    ap.add_argument("--encodings", default="pruned", help="comma list of pruned, core (CNF only)")
    ap.add_argument("--methods", default="bfs,sat", help="engines tried in turn to prove unknown optima")
    ap.add_argument(
        "--solve-time-limit", type=float, default=300.0, help="seconds to prove an unknown optimum (default: 300)"
    )
    ap.add_argument("--optima", default=None, help="the V-family study's results JSON")
    ap.add_argument(
        "--optimum",
        action="append",
        default=[],
        metavar="NAME=L:SOURCE",
        help="a member's optimum L proven elsewhere, and where (repeatable)",
    )
    ap.add_argument("--scale-proofs", default=None, help="benchmarks/scale_proofs.json: checked layers certificates")
    ap.add_argument("--times", default=None, help="comma list of CSV files of scripts/competition_times.py")
    ap.add_argument("--check-time-limit", type=float, default=0.0, help="solve each CNF to check it (0: no)")
    ap.add_argument("--no-xz", action="store_true", help="write plain files (default: xz-compressed)")
    ap.add_argument("--doc", default=None, help="rewrite the generated table of this document")
    ap.add_argument("--manifest-copy", default=None, help="also write the manifest here (e.g. to commit it)")
    args = ap.parse_args(argv)
    from coinsat import METHODS

    methods = [m for m in args.methods.split(",") if m in METHODS]
    out = Path(args.out)
    formats = args.formats.split(",")
    encodings = args.encodings.split(",")
    results = json.loads(Path(args.optima).read_text()) if args.optima else {}
    given = {}
    for item in args.optimum:
        name, rest = item.split("=", 1)
        value, source = rest.split(":", 1)
        given[name] = (int(value), source)
    times = read_times(args.times.split(",")) if args.times else {}
    for name, known in scale_optima(args.scale_proofs).items():
        given.setdefault(name, known)
    rows, skipped = [], []
    seen: dict[str, str] = {}  # hash -> file
    for family, params, inst in members(args.members.split(",")):
        unsat_cert = None
        if inst.known_optimal is not None:
            L, source = inst.known_optimal, "known_optimal (instance file; checked by the test suite)"
        elif inst.name in given:
            L, source = given[inst.name]
            unsat_cert = source
        else:
            L, source, unsat_cert = study_optimum(results, inst.name)
            if L is None:
                L, source = proven_optimum(inst, methods, args.solve_time_limit, trust_known=True)
        if L is None or L < 1:
            skipped.append((inst.name, source if L is None else "optimum 0: no UNSAT side"))
            print(f"skip {inst.name}: {skipped[-1][1]}", file=sys.stderr)
            continue
        # T = L - 1 is UNSAT in any window; T = L is SAT in the window when the window is
        # exact for L (expected_answer), otherwise only a solver run can say so.
        sure = expected_answer(dataclasses.replace(inst, known_optimal=L), L) == "SAT"
        if not sure and "SAT" != check(export(inst, "cnf", L).data, args.solve_time_limit):
            skipped.append((inst.name, f"window {inst.board.window} not exact for T = {L} and no model found"))
            continue
        sat_source = replayed_solution(inst, L)
        jobs = []
        for fmt in formats:
            if fmt == "wcnf":
                jobs.append((fmt, "pruned", L + 2, f"optimum cost {L}"))
            else:
                for enc in encodings if fmt == "cnf" else ["pruned"]:
                    jobs += [(fmt, enc, L - 1, "UNSAT"), (fmt, enc, L, "SAT")]
        for fmt, enc, T, expected in jobs:
            t0 = time.perf_counter()
            text = formula(inst, fmt, T, expected, enc)
            suffix = "-core" if enc == "core" else ""
            base = f"coins-{inst.name}-T{T}{suffix}.{fmt}"
            name = base + ("" if args.no_xz else ".xz")
            path = out / name
            write_xz(path, text)
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
            if expected == "SAT":
                answer_source, certified = sat_source or source, sat_source is not None
            elif expected == "UNSAT":
                answer_source, certified = unsat_cert or source, unsat_cert is not None
            else:
                answer_source, certified = source, False
            timed = {s: times.get((base, s)) for s in SOLVERS}
            rows.append(
                {
                    "file": name,
                    "gbd_hash": h or "",
                    "format": fmt,
                    "encoding": enc,
                    "expected": expected,
                    "variables": nv,
                    "clauses": nc,
                    "family": family,
                    "parameters": ";".join(f"{k}={v}" for k, v in params.items()),
                    "instance": inst.name,
                    "horizon": T,
                    "optimum": L,
                    "optimum_source": source,
                    "answer_source": answer_source,
                    "certified": "yes" if certified else "no",
                    "checked": checked,
                    "check_seconds": check_s,
                    "cadical_pysat": timing(timed["cadical-pysat"]),
                    "cadical_bin": timing(timed["cadical-bin"]),
                    "grade": file_grade(timed, expected),
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
    command = shown("scripts/make_benchmarks.py", argv or sys.argv[1:], ROOT)
    if args.doc:
        update_doc(Path(args.doc), rows, skipped, command)
    print(f"wrote {len(rows)} files and {out / 'manifest.csv'}", file=sys.stderr)
    return 1 if any(r["checked"].startswith("MISMATCH") or r["grade"] == "MISMATCH" for r in rows) else 0


def hardness_summary(rows) -> list[str]:
    """The hardness table: how many timed files per grade, and every file CaDiCaL took over 100 CPU s on."""
    timed = [r for r in rows if r["grade"]]
    grades: dict[str, int] = {}
    for r in timed:
        key = "not graded (capped below 1000 s)" if r["grade"].startswith("not graded") else r["grade"]
        grades[key] = grades.get(key, 0) + 1
    slow = [r for r in timed if (cpu_of(r["cadical_pysat"]) or 0) > 100]
    lines = [
        "",
        f"Hardness ({len(timed)} of {len(rows)} files timed; grades by CaDiCaL 1.9.5's CPU seconds): "
        + ", ".join(f"{k}: {v}" for k, v in sorted(grades.items()))
        + ".",
        "",
        f"Files CaDiCaL 1.9.5 (PySAT) took over 100 CPU s on: **{len(slow)}**, "
        f"{sum(r['certified'] == 'yes' for r in slow)} of them with the answer certified independently.",
        "",
        "| file | expected | certified by | CaDiCaL 1.9.5 (PySAT) | cadical sc2021 | grade |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['file']} | {r['expected']} | "
        + (short_source(r["answer_source"]) if r["certified"] == "yes" else "not certified")
        + f" | {r['cadical_pysat']} | {r['cadical_bin'] or '—'} | {r['grade']} |"
        for r in slow
    ]
    return lines


def update_doc(doc: Path, rows, skipped, command: str) -> None:
    lines = [
        BEGIN,
        "",
        f"Generated by `{command}`.",
        "",
        "| file | encoding | expected | certified by | variables | clauses | GBD hash "
        "| CaDiCaL 1.9.5 (PySAT), CPU s | cadical sc2021, CPU s | grade |",
        "|---|---|---|---|---:|---:|---|---|---|---|",
    ]
    lines += [
        f"| {r['file']} | {r['encoding']} | {r['expected']} | "
        + (
            short_source(r["answer_source"])
            if r["certified"] == "yes"
            else "— (" + short_source(r["answer_source"]) + ")"
        )
        + f" | {r['variables']} | {r['clauses']} | `{r['gbd_hash']}` | {r['cadical_pysat'] or '—'} "
        f"| {r['cadical_bin'] or '—'} | {r['grade'] or '—'} |"
        for r in rows
    ]
    lines += hardness_summary(rows)
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
