"""Hypothesis profiles.

``ci`` (the default) derives each test's examples from its name: every run of the suite, and
so every landing, is judged on the same examples, and a failure is reproduced by rerunning.
``explore`` (``HYPOTHESIS_PROFILE=explore python3 -m pytest -q``) draws new examples on
every run, for hunting; ``scripts/crosscheck.py`` does that at scale.  Neither has a
per-example deadline: the suite runs on shared 2-core machines, where wall time says nothing
about a test's correctness.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
