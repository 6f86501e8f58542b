"""``coinsat family vdiag|pinwheel|diagonal|hardest ... -o FILE``: write a family member as an instance file."""

from __future__ import annotations

from .common import EXIT_OK, check_output_file, nonneg_int


def add_parser(sub) -> None:
    from ..families import TARGETS

    f = sub.add_parser("family", help="write an instance of a generated family")
    fam = f.add_subparsers(dest="family", required=True, parser_class=sub._parser_class)
    v = fam.add_parser("vdiag", help="V(a, b) -> diagonal (the paper's lower-bound family)")
    v.add_argument("--a", type=nonneg_int, required=True, help="coins on the right arm of the V (slope 2)")
    v.add_argument("--b", type=nonneg_int, required=True, help="coins on the left arm (a - 1 or a in the paper)")
    v.add_argument("--target", choices=TARGETS, default="nwse", help="the goal diagonal: NW-SE (default) or SW-NE")
    v.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the instance file (TOML)")
    v.set_defaults(run=run)
    w = fam.add_parser("pinwheel", help="block + m coins off the four corners in turn -> diagonal")
    w.add_argument("--m", type=nonneg_int, required=True, help="coins placed off the corners in turn")
    w.add_argument("--target", choices=TARGETS, default="nwse", help="the goal diagonal: NW-SE (default) or SW-NE")
    w.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the instance file (TOML)")
    w.set_defaults(run=run)
    d = fam.add_parser("diagonal", help="k x k diagonal flip (k = 4 is the paper's 'diagonal')")
    d.add_argument("--k", type=nonneg_int, required=True, help="the side of the box (k = 4: the paper's 18 moves)")
    d.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the instance file (TOML)")
    d.set_defaults(run=run)
    h = fam.add_parser("hardest", help="the census's hardest starts generalised: a span-critical chain -> diagonal")
    h.add_argument("--k", type=nonneg_int, required=True, help="the side of the box (k >= 5; n = k + 2 coins)")
    h.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the instance file (TOML)")
    h.set_defaults(run=run)


def run(args) -> int:
    from ..families import diagonal_flip, hardest, pinwheel, vdiag
    from ..io.instance_format import write_instance

    check_output_file(args.output)
    if args.family == "vdiag":
        inst = vdiag(args.a, args.b, args.target)
    elif args.family == "pinwheel":
        inst = pinwheel(args.m, args.target)
    elif args.family == "hardest":
        inst = hardest(args.k)
    else:
        inst = diagonal_flip(args.k)
    write_instance(inst, args.output)
    print(f"wrote {args.output}: {inst.name}, {inst.n_coins} coins, {inst.board.size} cells")
    return EXIT_OK
