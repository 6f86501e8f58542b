"""Where the V's schedule breaks on the pinwheel (docs/v-to-diagonal.md §5), measured.

The study is lab/studies/pinwheel_gap.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.pinwheel_gap import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
