"""How far SAT proves "no solution with <= T moves": the climb, one call, and cubes on 2 workers.

The study is lab/studies/sat_limits.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.sat_limits import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
