"""Time the files of a SAT Competition pack with MiniSat and CaDiCaL: benchmarks/sat-pack.csv.
(the study: ``lab.studies.sat_pack_times``, whose docstring says what it does).

The study is lab/studies/sat_pack_times.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.sat_pack_times import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
