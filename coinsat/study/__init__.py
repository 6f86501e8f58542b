"""Studies and harnesses built on the public engines: the logic that scripts under ``scripts/``
wrap in argparse and a table (so tests import it from the package, never from a script).

* ``agreement``: what an engine's answer claims, and the rules that answers of different engines
  obey; ``crosscheck`` runs them on random instances in worker processes.
* ``fuzz``: the command line's fuzz harness; ``checker_fuzz``: the certificate checker's
  differential fuzz.
* ``proofs``: the proof ledger's rule (a checked bound plus a stored verified solution is optimal).
* ``vfamily``: the V-to-diagonal study and its verdict; ``forced_supports``: the bitmask searches of
  the forced-supports studies; ``sat_limits``: SAT within a CPU budget; ``competition``: the
  competition files' grades; ``analysis``: a power-law fit and a proven optimum.
* ``gallery``: refreshing the gallery's stored answers (the pages are ``coinsat.gallery``);
  ``docs_site``: the documentation site's generated pages.
* ``commandline``: the command a table names, without the paths of the machine that ran it.

It sits above ``cli`` (a harness may drive the command line in-process, as a user does) and
below the package root; nothing in the package but the root imports it.
"""
