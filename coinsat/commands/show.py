"""``coinsat show FILE [SOLUTION.json]``: ASCII pictures of start, goal and every step."""

from __future__ import annotations

from .common import EXIT_ILLEGAL, EXIT_OK


def add_parser(sub) -> None:
    sh = sub.add_parser("show", help="pictures of start and goal (and of a solution's steps)")
    sh.add_argument("file")
    sh.add_argument("solution", nargs="?", help="also draw every step of this solution")
    sh.set_defaults(run=run)


def run(args) -> int:
    from ..io.instance_format import read_instance
    from ..io.render import picture, render_solution
    from ..io.solution_format import read_solution
    from ..solution import verify

    instance = read_instance(args.file)
    b = instance.board
    print(
        f"{instance.name}: {b.kind} board, {instance.n_coins} coins, d = {instance.d}, "
        f"goal {instance.goal_placement}, window {b.window} ({b.size} cells"
        f"{', exact' if b.exact else ''})"
    )
    if args.solution is None:
        print("\nstart\n" + picture(instance, instance.start))
        print("\ngoal\n" + picture(instance, instance.goal))
        return EXIT_OK
    instance, solution = read_solution(instance, args.solution)
    verdict = verify(instance, solution)
    print()
    print(render_solution(instance, verdict.trace, solution.moves))
    if not verdict.ok:
        where = f"step {verdict.step}" if verdict.step else "the end"
        print(f"\nillegal at {where}: {verdict.reason}")
        return EXIT_ILLEGAL
    return EXIT_OK
