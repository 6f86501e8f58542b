#!/usr/bin/env python3
"""Certify every paper and counterexample instance; table of times and sizes.

For each instance: solve (``coinsat.solve.solve``, screens first),
write the certificate of the answer (``coinsat.certify`` with the answer, ``result=``),
check it with the independent checker, and record the status, certificate
kind and scope, solve / certify / check seconds, and for bounded certificates
the DRAT proof size.  Writes benchmarks/certificates.md.

    python3 scripts/certificate_bench.py [--out benchmarks/certificates.md] [--time-limit 120]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from coinsat import certify, read_instance, solve
from coinsat.result import Status

ROOT = Path(__file__).resolve().parents[2]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "certificates.md"))
    ap.add_argument("--time-limit", type=float, default=120.0)
    args = ap.parse_args(argv)
    files = sorted((ROOT / "instances" / "paper").glob("*.toml")) + sorted(
        (ROOT / "instances" / "counterexamples").glob("*.toml")
    )
    lines = [
        "# Certificates of the paper and counterexample instances\n",
        "Made by `python3 scripts/certificate_bench.py` on a shared 2-core machine (timings are noisy). "
        "Solve: `coinsat.solve.solve(method='auto')` (screens first); certify: write the certificate "
        "(bounded: encode, solve with CaDiCaL 1.9.5 through PySAT with a DRAT proof); check: the independent "
        "checker (bounded: gbdc hash of the CNF and of the re-encoding, then dratify with cdclkit's native "
        "engine).\n",
        "| instance | status | length | certificate | scope | claim | solve s | certify s | check s | proof |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            inst = read_instance(f)
            t0 = time.perf_counter()
            r = solve(inst, "auto", time_limit=args.time_limit)
            t1 = time.perf_counter()
            if r.status is Status.UNKNOWN:
                lines.append(f"| {inst.name} | unknown | | | | | {t1 - t0:.2f} | | | |")
                continue
            done = certify(inst, tmp, result=r)  # the answer found above: build, write, check
            t2 = time.perf_counter()
            c, cert = done.check, done.certificate.to_json()
            proof = ""
            if cert.get("proof_lines"):
                proof = f"{cert['proof_lines']} lines, {cert['proof_bytes'] / 1e6:.2f} MB"
            kind = cert["kind"] + (f" ({cert['reason']})" if "reason" in cert else "")
            lines.append(
                f"| {inst.name} | {r.status.value} | {r.length if r.length is not None else ''} | {kind} | {c.scope} | "
                f"{c.claim} | {t1 - t0:.3f} | {t2 - t1 - c.seconds:.3f} | {c.seconds:.3f} | {proof} |"
                + ("" if c.ok else " REJECTED: " + c.reason)
            )
            print(lines[-1], flush=True)
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
