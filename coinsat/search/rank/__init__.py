"""The ranked search (method ``rankbfs``): one layered search over colex ranks.

``search.py`` the engine (``solve_rankbfs``) and its one-process layer loop; ``space.py``
the ranked state space (kernel, expansion, heuristic, paths); ``colex.py`` the ranks;
``visited.py`` the visited set and its spill to disk; ``processes.py`` and ``mpi.py``
the same search on worker processes and on MPI ranks; ``jit.py`` the compiled kernels
(numba); ``heap.py`` the C heap settings.  No module here imports ``search.py``
except through the registry, so the folder has no import circle.
"""
