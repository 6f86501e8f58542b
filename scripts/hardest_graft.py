"""A first solution of hardest(k) where construct refuses: graft a smaller member's solution, then construct.

The study is lab/studies/hardest_graft.py; this file starts it, with the repository
root on sys.path (the laboratory is not installed).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lab.studies.hardest_graft import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
