"""The HWMCC pack: AIGER 1.9 and BTOR2 safety benchmarks with checked witnesses
(the study: ``lab.studies.hwmcc_pack``, whose docstring says what is measured).

The study is lab/studies/hwmcc_pack.py; this file starts it, with the repository
root appended to sys.path (the laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.studies.hwmcc_pack import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
