"""The studies and benchmarks: one module per script of ``scripts/`` (its arguments, its runs, its
table), each with a ``main``; ``scripts/<name>.py`` is a launcher that calls it."""
