"""Do two checkouts of coinsat give the same answers?  A check for refactors.

Solves every instance under ``instances/`` (or the files given) with ``coinsat solve --json``
twice — once with the installed package, once with the package of ``--before DIR`` (a checkout,
put first on ``PYTHONPATH``) — and compares the JSON objects with every timing field removed
(``seconds``, and any key ending in ``seconds``).  Prints one line per instance and exits 1 on
any difference.

    python3 scripts/same_answers.py --before /tmp/old-checkout --time-limit 20

``--record FILE`` writes the answers of the package on ``PYTHONPATH`` (or the installed one) to
FILE instead of comparing; ``--before FILE`` (a file written so) then stands for that checkout,
so a refactor's baseline is solved once.  ``--answers-only`` compares what an answer claims
(exit code, status, length, lower bound, the certificate's kind and scope) and not which engine
gave it, its statistics or which of several shortest solutions it found: the check when the
default engine changes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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


def claim(obj: dict) -> dict:
    """What an answer claims, without the engine, statistics or the moves chosen."""
    cert = obj.get("certificate") or {}
    keys = ("exit", "status", "length", "lower_bound", "stderr")
    return {**{k: obj.get(k) for k in keys}, "certificate": [cert.get("kind"), cert.get("scope")]}


def _name(f: Path) -> str:
    return str(f.relative_to(ROOT) if f.is_relative_to(ROOT) else f)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--before", help="the other checkout (its coinsat/ is imported), or a file made by --record")
    ap.add_argument("--record", type=Path, help="write this package's answers to FILE instead of comparing")
    ap.add_argument("--answers-only", action="store_true", help="compare the claims only (module docstring)")
    ap.add_argument("--time-limit", type=float, default=20.0)
    args = ap.parse_args(argv)
    files = args.files or sorted((ROOT / "instances").rglob("*.toml"))
    if args.record is not None:
        answers = {}
        for f in files:
            answers[_name(f)] = answer(f, args.time_limit, None)
            print(f"{answers[_name(f)].get('status')!s:>12}  {_name(f)}", flush=True)
        args.record.write_text(json.dumps(answers, indent=1) + "\n")
        return 0
    if args.before is None:
        ap.error("give --before (a checkout or a recorded file) or --record")
    recorded = json.loads(Path(args.before).read_text()) if Path(args.before).is_file() else None
    differ = 0
    for f in files:
        if recorded is not None:
            old = recorded.get(_name(f), {"missing": True})
        else:
            old = answer(f, args.time_limit, args.before)
        new = answer(f, args.time_limit, None)
        if args.answers_only:
            old, new = claim(old), claim(new)
        unknown = "unknown" in (old.get("status"), new.get("status"))  # a limit: timing decides
        same = old == new
        differ += not same and not unknown
        verdict = "same" if same else "differ (a limit was hit)" if unknown else "DIFFER"
        print(f"{verdict:>24}  {_name(f)}  {new.get('status')}", flush=True)
        if not same and not unknown:
            print(f"    before: {json.dumps(old)[:400]}\n    after:  {json.dumps(new)[:400]}")
    print(f"{len(files)} instances, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
