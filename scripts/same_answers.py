"""Do two checkouts of coinsat give the same answers?  A check for refactors.

Solves every instance under ``instances/`` (or the files given) with ``coinsat solve --json``
twice — once with the installed package, once with the package of ``--before DIR`` (a checkout,
put first on ``PYTHONPATH``) — and compares the JSON objects with every timing field removed
(``seconds``, and any key ending in ``seconds``).  Prints one line per instance and exits 1 on
any difference.

    python3 scripts/same_answers.py --before /tmp/old-checkout --time-limit 20
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _untimed(value):
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if not k.endswith("seconds")}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def answer(path: Path, time_limit: float, pythonpath: str | None) -> dict:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    cmd = [sys.executable, "-m", "coinsat", "solve", str(path), "--json", "--time-limit", str(time_limit)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/")
    try:
        return {"exit": p.returncode, **_untimed(json.loads(p.stdout))}
    except json.JSONDecodeError:
        return {"exit": p.returncode, "stderr": p.stderr.strip()[-300:]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--before", required=True, help="the other checkout (its coinsat/ is imported)")
    ap.add_argument("--time-limit", type=float, default=20.0)
    args = ap.parse_args(argv)
    files = args.files or sorted((ROOT / "instances").rglob("*.toml"))
    differ = 0
    for f in files:
        old, new = answer(f, args.time_limit, args.before), answer(f, args.time_limit, None)
        unknown = "unknown" in (old.get("status"), new.get("status"))  # a limit: timing decides
        same = old == new
        differ += not same and not unknown
        verdict = "same" if same else "differ (a limit was hit)" if unknown else "DIFFER"
        print(f"{verdict:>24}  {f.relative_to(ROOT) if f.is_relative_to(ROOT) else f}  {new.get('status')}")
        if not same and not unknown:
            print(f"    before: {json.dumps(old)[:400]}\n    after:  {json.dumps(new)[:400]}")
    print(f"{len(files)} instances, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
