"""``coinsat gallery DIR``: a static gallery of puzzles, one page each and an index (``coinsat/gallery.py``).

By default the puzzles shipped with coinsat, with the answers stored for them; ``--instances
FOLDER`` takes any folder of instance files (or of subfolders of them, as a checkout's
``instances/``).  Works from any folder, after a plain ``pip install``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from .common import EXIT_OK, add_progress_argument, check_output_dir, pos_float

#: seconds spent solving each puzzle that has no stored answer, unless told otherwise
SOLVE_SECONDS = 10.0


def add_parser(sub) -> None:
    g = sub.add_parser("gallery", help="write a static gallery of puzzles (HTML pages and pictures) into DIR")
    g.add_argument("dir", metavar="DIR", help="the folder to write (created if missing; its index: DIR/index.html)")
    g.add_argument(
        "--instances",
        metavar="FOLDER",
        default=None,
        help="the puzzles: the *.toml files of FOLDER and of its subfolders, one heading per folder "
        "(default: the puzzles shipped with coinsat, paper/...)",
    )
    g.add_argument(
        "--answers",
        metavar="FILE",
        default=None,
        help="the stored answers to show (default: benchmarks/gallery_answers.json beside FOLDER, "
        "else the answers shipped with coinsat)",
    )
    g.add_argument(
        "--solve-missing",
        type=pos_float,
        default=SOLVE_SECONDS,
        metavar="S",
        help=f"solve each puzzle that has no stored answer, for at most S seconds (default: {SOLVE_SECONDS:g})",
    )
    g.add_argument(
        "--no-solve", action="store_true", help="solve nothing: a puzzle with no stored answer is shown as such"
    )
    g.add_argument("--only", nargs="+", metavar="NAME", help="only these puzzles (file names without .toml)")
    add_progress_argument(g)
    g.set_defaults(run=run)


def run(args) -> int:
    from ..gallery import build, source, status_text
    from ..io.terminal import Display

    check_output_dir(args.dir)
    puzzles = source(args.instances, args.answers, args.only)
    solve_missing = None if args.no_solve else args.solve_missing
    display = Display("gallery", asked=args.progress, total=len(puzzles.files))
    solving = "none" if solve_missing is None else f"auto, at most {solve_missing:g} s a puzzle without an answer"
    display.title(f"{len(puzzles.files)} puzzles; solving: {solving}")
    with display:
        entries = build(
            Path(args.dir), puzzles, solve_missing, progress=lambda done, total, name: display.update(name, done)
        )
    counts = Counter(status_text(e.answer).split(" (")[0] for e in entries)
    summary = ", ".join(f"{n} {status}" for status, n in counts.most_common())
    print(f"wrote {len(entries)} puzzle pages to {Path(args.dir) / 'index.html'} ({summary})")
    return EXIT_OK
