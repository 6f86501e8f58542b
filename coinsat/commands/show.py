"""``coinsat show FILE [SOLUTION.json]``: pictures of start and goal, or of every step of a solution.

``--format text`` (the default) prints the ASCII pictures of ``io/render.py``; ``svg``, ``png``,
``gif`` and ``html`` draw with ``coinsat/draw`` (a filmstrip, an animation, a page with step
controls).  The output file is checked before any work and written at once at the end; a
solution with an illegal move is reported (exit 1) and no picture is written.

Size and limits: a PNG past ``MAX_PNG_PIXELS`` or a GIF past ``MAX_GIF_PIXELS`` (summed over its
frames) is refused before drawing (exit 2, with the way out: svg or html, or a smaller
``--scale``); ``--time-limit`` and ``--memory-limit`` bound the rest (exit 3, nothing written).
Pillow draws in long C calls that the watchdog cannot cut, so PNG and GIF are drawn in a child
process that the budget stops (``limits.in_child``).
"""

from __future__ import annotations

import os
import sys

from ..io.terminal import escaped
from .common import EXIT_ILLEGAL, EXIT_OK, add_limit_arguments, check_output_file, limits_of

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
        "html: a page with step controls (default: %(default)s)",
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
    add_limit_arguments(sh, "exit 3, nothing written")
    sh.set_defaults(run=run)


#: the largest raster pictures ``show`` draws, in pixels of the picture at its scale (a GIF: summed
#: over its frames); past them it refuses (exit 2) before drawing.  Measured on 2 cores at scale 2:
#: the PNG of V(4,3) -> SW-NE's 73 moves, 53.5 M pixels, took 20.6 s and 2.8 GB; V(4,4) -> SW-NE's
#: 789 moves, 655 M pixels, passed 23 GB and was killed; its GIF, 602 M pixels, took 238 s and 1.3 GB
#: (without the cap, a 600-move solution asked for a PNG of 6,391 M pixels: MemoryError, exit 4)
MAX_PNG_PIXELS = 64_000_000
MAX_GIF_PIXELS = 1_000_000_000


def run(args) -> int:
    """The command under its budget (``--time-limit``, ``--memory-limit``: exit 3 when one stops it)."""
    from ..errors import LimitReached
    from ..limits import enforced

    with enforced(limits_of(args)):
        try:
            return _run(args)
        except MemoryError:  # an allocation past what the process may have, inside Pillow say
            raise LimitReached("memory limit (the picture does not fit in memory)") from None


def _check_size(instance, solution, format: str, scale: float | None, where: str) -> None:
    """UsageError when a PNG or GIF of ``solution`` would be past ``MAX_PNG_PIXELS`` or
    ``MAX_GIF_PIXELS`` (the figure is laid out, not drawn, to know)."""
    from ..draw import MAX_SCALE, RASTER_SCALE, STYLE, grid, layout, replay, steps
    from ..errors import UsageError

    if format not in ("png", "gif") or solution is None or not solution.moves:
        return  # start and goal alone: two panels of a window the loader already bounds
    scale = RASTER_SCALE if scale is None else scale
    if not 0 < scale <= MAX_SCALE:
        return  # draw refuses it
    style = STYLE.scaled(scale)
    trace, moves = replay(instance, solution)
    panels = steps(instance, trace, moves, layout(instance, trace), style)
    if format == "png":
        fig = grid(panels, style.columns, style)
        pixels, cap = fig.width * fig.height, MAX_PNG_PIXELS
    else:
        one = grid(panels[:1], 1, style)
        pixels, cap = len(panels) * one.width * one.height, MAX_GIF_PIXELS
    if pixels > cap:
        raise UsageError(
            f"{where}: a {format.upper()} of its {len(moves)} steps at scale {scale:g} would have "
            f"{pixels / 1e6:,.0f} M pixels, past the {cap / 1e6:,.0f} M that show draws: "
            "use --format svg or html, or a smaller --scale"
        )


def _run(args) -> int:
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
            print(escaped(f"illegal at {where}: {verdict.reason} (no picture written)"), file=sys.stderr)
            return EXIT_ILLEGAL
    _check_size(instance, solution, args.format, args.scale, args.solution)
    how = dict(format=args.format, animate=args.animate, scale=args.scale)
    if args.format in ("png", "gif"):  # Pillow's long C calls: drawn in a child that the budget can stop
        from ..limits import in_child

        drawing = in_child(draw, (instance, solution), how, what="the picture")
    else:
        drawing = draw(instance, solution, **how)
    if args.output:
        from ..io.atomic import write_atomic

        write_atomic(args.output, drawing.data)
        size = os.path.getsize(args.output)  # bytes on disk (an SVG's text is UTF-8: "→" is 3 bytes)
        print(f"wrote {args.output} ({args.format}, {size} bytes)")
    else:
        sys.stdout.write(str(drawing.data))
    return EXIT_OK


def _text(instance, solution) -> int:
    from ..io.render import picture, render_solution
    from ..solution import verify

    b = instance.board
    print(
        f"{instance.name}: {b.name} board, {instance.n_coins} coins, d = {instance.d}, "
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
