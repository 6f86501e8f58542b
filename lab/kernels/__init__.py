"""The engine's own benchmark harness: white-box benchmarks of rankbfs's kernels and heuristics.

Everything else in ``lab/`` imports only coinsat's public surface.  These modules time what has no
public door by design -- the compiled kernels of the ranked search, the heuristics' cost per state,
the certificate writer without its check, a baseline commit's engine module -- so they may import
coinsat's internal modules.  Each is named, with the reason it needs them, in
``tests/test_layering.py:LAB_KERNELS``; nothing in ``lab/`` imports this package (only the launchers
``scripts/<name>.py`` do), so the internals they reach stay here.  Where a kernel benchmark can
measure through ``coinsat.solve`` and still show what it claims, it belongs in ``lab/studies``.
"""
