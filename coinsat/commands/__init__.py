"""Subcommands of the CLI, one module each.

A command module defines ``add_parser(sub)`` (register its argparse
sub-parser and ``set_defaults(run=run)``) and ``run(args) -> int`` (the exit
code).  :data:`COMMANDS` lists them in help order; cli.py imports them.
Commands are thin: parse, call the library, print.
"""

COMMANDS = (
    "solve",
    "verify",
    "show",
    "family",
    "export",
    "decode",
    "construct",
    "certify",
    "check_certificate",
    "count",
    "census",
    "improve",
    "gallery",
    "pack",
)
