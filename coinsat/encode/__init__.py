"""Formula builders (no solving): the SAT encoding (``sat.py``, spec ``encodings/sat.md``)
and the ILP model (``ilp.py``, spec ``encodings/ilp.md``)."""
