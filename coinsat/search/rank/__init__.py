"""The ranked search (method ``rankbfs``): one layered search over colex ranks.

``search.py`` the engine (``solve_rankbfs``: options, resume, the choice of exchange);
``loop.py`` the one layer loop and its exchange protocol, with the one-process exchange;
``processes.py`` and ``mpi.py`` the exchanges on worker processes and on MPI ranks;
``space.py`` the ranked state space (kernel, expansion, heuristic, paths); ``colex.py``
the ranks; ``visited.py`` the visited set and its spill to disk; ``jit.py`` the compiled
kernels (numba); ``heap.py`` the C heap settings.  No module here imports ``search.py``
except through the registry, and ``loop.py`` imports neither exchange, so the folder has
no import circle.
"""
