"""The census as ZDD layers (oxidd) against the explicit census kernel.

The study is lab/studies/zdd_census.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.zdd_census import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
