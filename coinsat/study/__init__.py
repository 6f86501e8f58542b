"""Studies and harnesses built on the public engines: the logic that scripts under ``scripts/``
wrap in argparse and a table (so tests import it from the package, never from a script).

It sits above ``cli`` (a harness may drive the command line in-process, as a user does) and
below the package root; nothing in the package but the root imports it.
"""
