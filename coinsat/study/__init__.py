"""Studies and harnesses built on the public engines: the logic that scripts under ``scripts/``
wrap in argparse and a table (so tests import it from the package, never from a script).

It sits above the front doors (``solve``, ``export``, ``count``) and below ``commands``.
"""
