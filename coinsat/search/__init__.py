"""The engines: each ``solve_<name>(instance, *, limits, max_moves, options) -> Result``.

``methods.py`` registers them (one ``EngineSpec`` each) and ``options.py`` holds their
options.  Explicit state: ``bfs.py`` (bidirectional), ``spanbfs.py`` (span-pruned layers
of 64-bit words) and ``rank/`` (``rankbfs``: the same layers over colex ranks, past 64
cells, on worker processes or MPI ranks), sharing ``layered.py`` (how a layered search
ends and the answer it gives) and ``windows.py`` (windows grown until exact).  Solvers:
``driver.py`` (SAT), ``ilp.py``, ``slidesat.py``, ``pdr.py`` (ABC).  ``improve.py``
shortens a given solution with the exact engines; ``plane.py`` answers the free plane.
The front door that screens and picks an engine is ``coinsat.solve``.
"""
