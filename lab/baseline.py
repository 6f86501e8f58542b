"""A module of coinsat as it was at a past commit, for a study that times a kernel the tree no longer has.

A kernel kept only to be compared against lives in the commit before it was replaced, not in
the live code (CONTRIBUTING.md, "A faster kernel"); a study reads that file with ``git show``
and loads it under a name inside the same package, so that its relative imports find today's
modules.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType


def module_at(root: Path, commit: str, path: str, name: str) -> ModuleType:
    """The file ``path`` of the repository ``root`` as it was at ``commit``, loaded as the module
    ``name`` (e.g. ``coinsat.search.rank._baseline_jit``) and registered in ``sys.modules``."""
    text = subprocess.run(
        ["git", "-C", str(root), "show", f"{commit}:{path}"], capture_output=True, text=True, check=True
    ).stdout
    tmp = Path(tempfile.mkdtemp()) / f"{name.rsplit('.', 1)[-1]}.py"
    tmp.write_text(text)
    spec = importlib.util.spec_from_file_location(name, tmp)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
