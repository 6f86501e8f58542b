"""The engines: each ``solve_<name>(instance, *, limits, max_moves, options) -> Result``.

``methods.py`` registers them (one ``EngineSpec`` each) and ``options.py`` holds their
options.  Explicit state: ``bfs.py`` (bidirectional), ``spanbfs.py`` (span-pruned layers
of 64-bit words) and ``rank/`` (``rankbfs``: the same layers over colex ranks, past 64
cells, on worker processes or MPI ranks), sharing ``layered.py`` (how a layered search
ends and the answer it gives), ``windows.py`` (the geometry of windows: which cells are
exact for a horizon) and ``grown.py`` (an engine run on windows grown until exact, through
a ``Search`` object, and what its answer means on the lattice).  Solvers:
``driver.py`` (SAT), ``ilp.py``, ``slidesat.py``, ``pdr.py`` (ABC).  ``improve.py``
shortens a given solution with the exact engines; ``plane.py`` answers the free plane.
The front door that screens and picks an engine is ``coinsat.solve``.
"""
