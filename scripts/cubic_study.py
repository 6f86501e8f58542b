"""Open problem 3, by computation: does Theorem 2 (square grid) extend to boxes of the cubic lattice?

The study is lab/studies/cubic_study.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.cubic_study import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
