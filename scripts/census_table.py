"""The census table: D(k) and the layers of every start of the k x k box, for three goals.

The study is lab/studies/census_table.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.census_table import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
