"""rankbfs's engine, a baseline revision against the working tree, in the same run; writes a table.

The benchmark is lab/kernels/rank_engine_bench.py (the engine's own harness, allowed its internals:
CONTRIBUTING.md); this file starts it, with the repository root appended to sys.path (the
laboratory is not installed; appended, so that
coinsat stays the one PYTHONPATH or the install gives, a baseline's included).
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))

from lab.kernels.rank_engine_bench import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
