"""``coinsat show FILE [SOLUTION.json]``: pictures of start and goal, or of every step of a solution.

``--format text`` (the default) prints the ASCII pictures of ``io/render.py``; ``svg``, ``png``,
``gif`` and ``html`` draw with ``coinsat/draw`` (a filmstrip, an animation, a page with step
controls).  The output file is checked before any work and written at once at the end; a
solution with an illegal move is reported (exit 1) and no picture is written.
"""

from __future__ import annotations

import sys

from .common import EXIT_ILLEGAL, EXIT_OK, check_output_file

FORMATS = ("text", "svg", "png", "gif", "html")


def add_parser(sub) -> None:
    from .common import FILE_HELP

    sh = sub.add_parser("show", help="pictures of start and goal (and of a solution's steps)")
    sh.add_argument("file", help=FILE_HELP)
    sh.add_argument("solution", nargs="?", help="also draw every step of this solution")
    sh.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: ASCII; svg/png: start and goal, or a filmstrip of the steps; gif: an animation; "
        "html: a page with step controls",
    )
    sh.add_argument(
        "--animate",
        action="store_true",
        help="svg: one animated panel (SMIL; plays inside <img>); gif is always animated; refused for text, png, html",
    )
    sh.add_argument(
        "--scale",
        type=float,
        default=None,
        metavar="F",
        help="multiply every size of the picture by F (default: 2 for png and gif, 1 for svg and html)",
    )
    sh.add_argument("-o", "--output", metavar="PATH", help="write the picture here (required for png and gif)")
    sh.set_defaults(run=run)


def run(args) -> int:
    from ..errors import UsageError
    from ..io.instance_format import read_puzzle
    from ..io.solution_format import read_solution
    from ..theory.plane import PlanePuzzle

    if args.animate and args.format not in ("svg", "gif"):  # refused, never silently ignored
        raise UsageError(
            f"--animate makes an animated SVG (--format svg; a GIF is always animated), not {args.format}: "
            "for a still picture of every step drop --animate, for an animation use --format svg or gif"
        )
    if args.format in ("png", "gif") and not args.output:
        raise UsageError(f"--format {args.format} writes a binary file: give -o PATH")
    if args.output:
        check_output_file(args.output, args.file, args.solution)
    instance = read_puzzle(args.file)
    if isinstance(instance, PlanePuzzle):  # board = "plane": coordinates, no pictures (commands/plane.py)
        from .plane import show as show_plane

        return show_plane(args, instance)
    solution = None
    if args.solution is not None:
        instance, solution = read_solution(instance, args.solution)
    if args.format == "text":
        return _text(instance, solution)
    from ..draw import draw
    from ..solution import verify

    if solution is not None:
        verdict = verify(instance, solution)
        if not verdict.ok:
            where = f"step {verdict.step}" if verdict.step else "the end"
            print(f"illegal at {where}: {verdict.reason} (no picture written)", file=sys.stderr)
            return EXIT_ILLEGAL
    drawing = draw(instance, solution, format=args.format, animate=args.animate, scale=args.scale)
    if args.output:
        from ..io.atomic import write_atomic

        write_atomic(args.output, drawing.data)
        print(f"wrote {args.output} ({args.format}, {len(drawing.data)} bytes)")
    else:
        sys.stdout.write(str(drawing.data))
    return EXIT_OK


def _text(instance, solution) -> int:
    from ..instance import is_cubic
    from ..io.render import picture, render_solution
    from ..solution import verify

    b = instance.board
    print(
        f"{instance.name}: {'cubic' if is_cubic(b) else b.kind} board, {instance.n_coins} coins, d = {instance.d}, "
        f"goal {instance.goal_placement}, window {b.window} ({b.size} cells"
        f"{', exact' if b.exact else ''})"
    )
    if solution is None:
        print("\nstart\n" + picture(instance, instance.start))
        print("\ngoal\n" + picture(instance, instance.goal))
        return EXIT_OK
    verdict = verify(instance, solution)
    print()
    print(render_solution(instance, verdict.trace, solution.moves))
    if not verdict.ok:
        where = f"step {verdict.step}" if verdict.step else "the end"
        print(f"\nillegal at {where}: {verdict.reason}")
        return EXIT_ILLEGAL
    return EXIT_OK
