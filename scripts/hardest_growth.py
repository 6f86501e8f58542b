"""The hardest family to n = 40: what construct gives, what is proven, against the flip.

The study is lab/studies/hardest_growth.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.hardest_growth import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
