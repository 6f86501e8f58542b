"""States kept and CPU of a bound-and-prune rankbfs with the fill, forced-supports and LM-cut h.

The study is lab/studies/lm_cut_search.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.lm_cut_search import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
