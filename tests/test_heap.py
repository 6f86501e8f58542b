"""search/rank/heap.py: the malloc settings of a large search change its page faults, never its answer
(``Kernels.keep_heap``, here from ``COINSAT_MALLOC`` through ``Kernels.from_environment``)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

SOLVE = """
import json, resource
from coinsat.families import vdiag
from coinsat.search.rank import heap as heap
from coinsat.search.options import RankbfsOptions
from coinsat.search.rank.search import solve_rankbfs
r = solve_rankbfs(vdiag(2, 2, "nwse"), options=RankbfsOptions(workers=2, spill_budget=4096))
print(json.dumps({"kept": heap.in_force(), "status": r.status.value, "length": r.length,
                  "layers": r.stats["layers"], "moves": [str(m) for m in r.solution.moves]}))
"""


def _solve(setting: str) -> dict:
    env = {**os.environ, "COINSAT_MALLOC": setting}
    out = subprocess.run([sys.executable, "-c", SOLVE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's mallopt")
def test_the_heap_settings_change_nothing_but_the_allocator():
    kept, default = _solve("keep"), _solve("default")
    assert kept.pop("kept") is True and default.pop("kept") is False
    assert kept == default and kept["status"] == "optimal"
