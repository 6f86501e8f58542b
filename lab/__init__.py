"""The laboratory: studies and harnesses built on coinsat's public names, the logic that scripts
under ``scripts/`` wrap in argparse and a table (tests import it from here, never from a script).
It is not part of the wheel (``pip install coinsat`` is the library alone); run from the
repository root, where ``lab`` is importable.

* ``agreement``: what an engine's answer claims, and the rules that answers of different engines
  obey; ``crosscheck`` runs them on random instances in worker processes.
* ``fuzz``: the command line's fuzz harness; ``checker_fuzz``: the certificate checker's
  differential fuzz.
* ``proofs``: the proof ledger's rule (a checked bound plus a stored verified solution is optimal).
* ``vfamily``: the V-to-diagonal study and its verdict; ``forced_supports``: the bitmask searches of
  the forced-supports studies; ``sat_limits``: SAT within a CPU budget; ``competition``: the
  competition files' grades; ``analysis``: a power-law fit and a proven optimum.
* ``gallery``: refreshing the gallery's stored answers (the pages are ``coinsat.gallery``).
* ``commandline``: the command a table names, without the paths of the machine that ran it.
* ``studies``: one module per script; ``kernels``: the engine's own benchmark harness (below).

It sits above the library: it imports only coinsat's public surface (``coinsat.__all__`` and the
public modules that CONTRIBUTING.md lists, ``tests/test_api.py:PUBLIC_MODULES``), and nothing
in ``coinsat`` imports it.  The one exception is ``kernels``: white-box benchmarks of the engine's
kernels, each named with its reason in ``tests/test_layering.py:LAB_KERNELS`` and imported by its
launcher alone.
"""
