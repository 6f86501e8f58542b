"""``coinsat pack sat-competition DIR`` and ``coinsat pack hwmcc DIR``: benchmark packs.

``sat-competition`` (``coinsat/pack.py``) writes ``DIR/<family>/<file>.cnf`` (sanitised DIMACS at
each member's optimum T* (sat) and T* - 1 (unsat), and open horizons labelled unknown) and
``DIR/pack.csv`` (family, file, answer, horizon, instance, answer source, canonical hash).  The
answers are read from the stored optima of the instance folder (``--instances``, a checkout's
``instances/``); an isomorphic copy of a file already in the pack is refused.

``hwmcc`` (``coinsat/hwmcc``) writes AIGER 1.9 and BTOR2 safety benchmarks with their witnesses
(traces for the unsafe files, Certifaiger-style witness circuits for the safe ones), each checked
by coinsat's own code, and ``DIR/manifest.csv``; the puzzles are the packaged paper puzzles (or the
``.toml`` files under ``--instances`` when given) and the answers the packaged stored ones.
"""

from __future__ import annotations

from .common import EXIT_OK, check_output_dir


def _per_family(text: str) -> int:
    """``--per-family``, checked here (a UsageError: one line, exit 2) rather than by argparse."""
    from ..errors import UsageError
    from ..pack import MAX_PER_FAMILY

    try:
        v = int(text)
    except ValueError:
        raise UsageError(f"--per-family must be an integer in 1..{MAX_PER_FAMILY}, not {text!r}") from None
    if not 1 <= v <= MAX_PER_FAMILY:
        raise UsageError(f"--per-family must be in 1..{MAX_PER_FAMILY} (the selection rules' cap), not {v}")
    return v


def add_parser(sub) -> None:
    from ..pack import DEFAULT_FAMILIES, MAX_PER_FAMILY

    p = sub.add_parser("pack", help="write a benchmark pack for a solver competition (sat-competition, hwmcc)")
    p.add_argument(
        "kind",
        choices=("sat-competition", "hwmcc"),
        help="the competition: sat-competition (DIMACS CNF) or hwmcc (AIGER 1.9 and BTOR2, with witnesses)",
    )
    p.add_argument("dir", metavar="DIR", help="the folder to write (created if missing; its manifest: DIR/pack.csv)")
    p.add_argument(
        "--instances",
        metavar="FOLDER",
        default=None,
        help="sat-competition: the instance root holding census/ and families/ with their solutions/ (default: "
        "instances); hwmcc: a folder of puzzles with stored answers (default: the packaged paper puzzles)",
    )
    p.add_argument(
        "--family",
        action="append",
        default=None,
        metavar="NAME",
        help="a family: census-<goal>-<k> (e.g. census-canonical-5), flip, vdiag or open; repeatable "
        f"(default: {', '.join(DEFAULT_FAMILIES)})",
    )
    p.add_argument(
        "--per-family",
        default=str(MAX_PER_FAMILY),
        metavar="N",
        help=f"at most N files per family, 1..{MAX_PER_FAMILY} (default: {MAX_PER_FAMILY})",
    )
    p.set_defaults(run=run)


def run(args) -> int:
    from ..io.terminal import Display
    from ..pack import DEFAULT_FAMILIES, sat_competition

    per_family = _per_family(args.per_family)
    check_output_dir(args.dir)
    if args.kind == "hwmcc":
        return _hwmcc(args)
    families = args.family or list(DEFAULT_FAMILIES)
    with Display("pack") as live:
        pack = sat_competition(
            args.dir,
            families,
            instances=args.instances or "instances",
            per_family=per_family,
            progress=lambda done, total, name: live.update(f"{name} ({done + 1}/{total})", done=done),
        )
    for fam, file, first in pack.refused:
        print(f"refused {file}: isomorphic to {first}")
    for fam, counts in pack.counts().items():
        print(f"{fam}: " + ", ".join(f"{n} {a}" for a, n in counts.items()))
    print(f"wrote {len(pack.entries)} files and {pack.manifest}")
    return EXIT_OK


def _hwmcc(args) -> int:
    from pathlib import Path

    from ..errors import UsageError
    from ..hwmcc import write_hwmcc_pack

    instances = None
    if args.instances is not None:
        instances = sorted(Path(args.instances).glob("*.toml"))
        if not instances:
            raise UsageError(f"{args.instances}: no .toml puzzle files there")
    pack = write_hwmcc_pack(args.dir, instances)
    for stem, why in pack.left_out:
        print(f"left out {stem}: {why}")
    print(", ".join(f"{n} {what}" for what, n in sorted(pack.counts.items())))
    print(f"wrote {len(pack.rows)} files and {pack.directory / 'manifest.csv'}")
    return EXIT_OK
