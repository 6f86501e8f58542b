"""Upper bounds on the V-to-diagonal family up to n = 40: `construct`, then `improve` on its output.

The study is lab/studies/vfamily_growth.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.vfamily_growth import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
