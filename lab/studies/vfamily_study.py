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
least-squares exponent of moves ~ n^k over the proven optima.  The table's verdict keeps
what docs/v-to-diagonal.md proves (Θ(n²)) apart from what was measured.  The study's logic
is ``lab.vfamily``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lab import vfamily

ROOT = Path(__file__).resolve().parents[2]
STUDY = vfamily.Study(
    families=ROOT / "instances/families",
    results=ROOT / "benchmarks/vfamily_results.json",
    flips=ROOT / "benchmarks/diagonal_flips.json",
    growth=ROOT / "benchmarks/vfamily_growth.json",  # scripts/vfamily_growth.py: construct + improve
    plot=ROOT / "benchmarks/vfamily.png",
)


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
    ap.add_argument("--certificates", default=",".join(vfamily.CERTIFICATES), help="which certificates --certify makes")
    ap.add_argument("--flips", default="", help="k values of the diagonal flip to solve exactly (e.g. 3,4,5,6,7)")
    ap.add_argument("--flip-method", default="spanbfs")
    ap.add_argument("--table-only", action="store_true", help="only rewrite the table and plot from the results")
    ap.add_argument(
        "--scale-proofs",
        metavar="JSON",
        help="first merge rankbfs proofs and their checked ranked-layers certificates kept by "
        "scripts/scale_bench.py (benchmarks/scale_proofs.json) into the results",
    )
    ap.add_argument(
        "--adopt-run",
        action="append",
        default=[],
        metavar="JSON",
        help="first merge a finished `coinsat solve|improve ... --json -o JSON` answer as its method's run "
        "(of a V member, or of the diagonal flip diagonal-K; its solution kept when shorter); JSON:CHECK "
        "also merges the certificate the solve wrote with "
        "--certify, given CHECK, a fresh `coinsat check-certificate --json` answer on it; repeatable",
    )
    ap.add_argument("--redo", action="store_true")
    args = ap.parse_args(argv)
    study = STUDY
    if args.scale_proofs:
        study.adopt_scale_proofs(Path(args.scale_proofs))
    for file in args.adopt_run:
        answer, _, check = file.partition(":")
        try:
            study.adopt_run(Path(answer), Path(check) if check else None)
        except ValueError as e:
            raise SystemExit(str(e)) from None
    if not args.table_only:
        study.run(
            args.max_a,
            args.methods.split(","),
            args.time_limit,
            only=set(args.members.split(",")) if args.members else None,
            bfs_max_cells=args.bfs_max_cells,
            certify=args.certify,
            certificates=args.certificates.split(","),
            redo=args.redo,
        )
        for k in [int(x) for x in args.flips.split(",")] if args.flips else []:
            study.solve_flip(k, args.flip_method, args.time_limit, args.redo)
    study.write_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
