"""Count the optimal solutions of every instance of instances/paper; write the "Counts" section
of instances/paper/README.md (everything before that heading is kept as it is).

The study is lab/studies/count_table.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.count_table import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
