"""``coinsat census FILE``: the distance to FILE's goal of every configuration of its window.

Prints the layer sizes, the solvable and unsolvable counts, the largest distance D and the
hardest starts up to the goal's symmetries; ``--certificate DIR`` writes the census certificate
(``coinsat check-certificate FILE DIR/census.json`` checks it), ``--hardest DIR`` one instance file
per hardest start with an optimal solution beside it, replayed by rules.py (``coinsat/census.py``).
"""

from __future__ import annotations

import json

from .common import (
    EXIT_OK,
    FILE_HELP,
    add_limit_arguments,
    add_progress_argument,
    check_output_dir,
    limits_of,
    pos_int,
)


def add_parser(sub) -> None:
    c = sub.add_parser(
        "census",
        help="the exact distance to the goal of every configuration of the window (backward search)",
        description="One breadth-first search backwards from FILE's goal over every configuration of its "
        "window (on the square grid, span(start) plus the goal: the k x k box of the diagonal family) "
        "with as many coins: the layer sizes, how many configurations cannot reach the goal, the largest "
        "distance D and the hardest starts up to symmetry.",
    )
    c.add_argument("file", help=FILE_HELP)
    c.add_argument(
        "--certificate",
        metavar="DIR",
        help="write the census certificate (census.json, layers.npz) to DIR; check it with "
        "`coinsat check-certificate FILE DIR/census.json`",
    )
    c.add_argument(
        "--hardest",
        metavar="DIR",
        help="write each hardest start (one per symmetry class) as an instance file in DIR, its optimal "
        "solution beside it in DIR/solutions/",
    )
    c.add_argument(
        "--resume",
        metavar="DIR",
        help="save every finished layer in DIR and continue from the layers already there",
    )
    c.add_argument("--workers", type=pos_int, default=None, metavar="N", help="threads (default: one per core)")
    add_limit_arguments(c, "'unknown' and exit 3; nothing written but the layers --resume saved")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    add_progress_argument(c)
    c.set_defaults(run=run)


def run(args) -> int:
    from ..census import census, write_certificate, write_hardest
    from ..io.instance_format import read_instance
    from ..io.terminal import Display, short
    from ..limits import enforced

    for folder in (args.certificate, args.hardest):
        if folder:
            check_output_dir(folder)
    limits = limits_of(args)
    instance = read_instance(args.file)
    display = Display("census", quiet=args.json, asked=args.progress)
    display.header("census", note="a breadth-first search backwards from the goal over every configuration")
    with enforced(limits), display:

        def show(p) -> None:
            display.update(
                f"layer {p.depth}  {short(p.done)}/{short(p.layer)} expanded  states {short(p.states)}  "
                f"{display.rate(p.states)}"
            )

        result = census(instance, limits=limits, workers=args.workers, resume=args.resume, progress=show)
        written = write_hardest(result, args.hardest) if args.hardest else []
        if args.certificate:
            write_certificate(result, args.certificate)
    if args.json:
        out = result.as_json()
        out["hardest_files"] = [str(p) for p in written]
        print(json.dumps(out))
        return EXIT_OK
    scope = "the unbounded board (the window is closed)" if result.closed else "moves inside the window only"
    print(
        f"{instance.name}: {result.coins} coins on {result.cells} cells, {result.configurations:,} configurations; "
        f"answers hold for {scope}"
    )
    print(f"layer sizes (distance 0..{result.max_distance}): {' '.join(map(str, result.layer_sizes))}")
    print(f"solvable: {result.reachable:,}; cannot reach the goal: {result.unsolvable:,}")
    members = result.layer_sizes[-1]
    print(
        f"hardest: D = {result.max_distance} moves, {members} configurations in "
        f"{len(result.hardest)} classes under the goal's {len(result.symmetries)} symmetries"
    )
    print(
        f"{result.expanded:,} states expanded in {result.cpu_seconds:.1f} CPU s "
        f"({result.rate / 1e6:.2f} M states per CPU second)"
    )
    for p in written:
        print(f"wrote {p}")
    if args.certificate:
        print(f"certificate: {args.certificate}/census.json")
    return EXIT_OK
