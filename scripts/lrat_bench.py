"""DRAT to LRAT: the conversion, the LRAT check, the DRAT check and the referee script, timed
(the study: ``lab.kernels.lrat_bench``, whose docstring says what is measured).

The study is lab/studies/lrat_bench.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.kernels.lrat_bench import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
