"""Refreshing the gallery's stored answers (``benchmarks/gallery_answers.json``) from a checkout.

For each puzzle of ``instances/``, in fresh processes: ``coinsat solve --json``, ``coinsat
certify --json`` (a layers certificate first, else certify's choice) and ``coinsat
check-certificate``, and, when the solve found no solution, ``coinsat construct``; each answer is
kept with the sha256 of its instance file.  ``scripts/gallery.py --refresh`` runs it; the pages
themselves are ``coinsat.gallery`` (``coinsat gallery DIR``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from coinsat import read_instance
from coinsat.errors import CoinsatError
from coinsat.gallery import family_answer, is_plane, load_json, sha256, source
from coinsat.io.atomic import write_atomic


def _coinsat(args: list[str], timeout: float, root: Path) -> dict | None:
    """One coinsat command in a fresh process, its JSON output (None if it printed none)."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "coinsat", *args], capture_output=True, text=True, timeout=timeout, cwd=root
        )
    except subprocess.TimeoutExpired:
        return None
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    said = done.stderr.strip().splitlines()
    return {"reason": said[-1].removeprefix("coinsat: ") if said else f"exit {done.returncode}, no answer"}


def refresh_one(path: Path, time_limit: float, root: Path, certify: bool = True) -> dict:
    """solve, certify and check one file in fresh processes (construct when solve found nothing)."""
    import datetime

    rel = str(path.relative_to(root))
    limit = ["--time-limit", f"{time_limit:g}"]
    wall = 3 * time_limit + 60
    solved = _coinsat(["solve", rel, "--json", *limit], wall, root) or {"status": "unknown"}
    solved.setdefault("status", "unknown")
    record = {
        "sha256": sha256(path),
        "status": solved.get("status", "unknown"),
        "length": solved.get("length"),
        "lower_bound": solved.get("lower_bound"),
        "method": solved.get("method", "?"),
        "seconds": round(float(solved.get("seconds") or 0.0), 3),
        "time_limit": time_limit,
        "command": f"coinsat solve {rel} --time-limit {time_limit:g}",
        "moves": solved.get("moves"),
        "moves_from": "coinsat solve",
        "made": datetime.date.today().isoformat(),
    }
    if certify and record["status"] not in ("optimal", "feasible", "unsolvable"):
        built = _coinsat(["construct", rel, "--json"], wall, root)
        if built and built.get("moves"):
            record.update(status="feasible", length=built.get("length"), moves=built["moves"])
            record["moves_from"] = "coinsat construct"
            record["lower_bound"] = max(
                x for x in (solved.get("lower_bound"), built.get("lower_bound"), 0) if x is not None
            )
    if certify and record["status"] in ("optimal", "unsolvable"):
        # a layers certificate first (exhaustive layers, checked without a SAT solver), else certify's choice
        why = []
        cert = None
        for how in (["--method", "spanbfs"], []):
            with tempfile.TemporaryDirectory() as tmp:
                made = _coinsat(["certify", rel, "-o", tmp, "--json", *how, *limit], wall, root)
                if not (made and made.get("accepted") and made.get("file")):
                    why.append(f"certify {' '.join(how) or '(default)'}: {(made or {}).get('reason', 'no answer')}")
                    continue
                checked = _coinsat(["check-certificate", rel, made["file"], "--json"], wall, root)
                if checked is None or not checked.get("accepted"):
                    why.append(f"check-certificate: {(checked or {}).get('reason', 'no answer')}")
                    continue
                cert = {
                    "kind": made.get("kind"),
                    "scope": checked.get("scope"),
                    "claim": checked.get("proven") or checked.get("claim"),
                    "accepted": True,
                    "reason": checked.get("reason"),
                    "check_seconds": round(float(checked.get("seconds") or 0.0), 3),
                    "command": f"coinsat certify {rel} -o DIR {' '.join(how)}".rstrip()
                    + f" && coinsat check-certificate {rel} DIR/{Path(made['file']).name}",
                }
                break
        record["certificate"] = cert or {"kind": None, "accepted": False, "why": "; ".join(why)}
    return record


def refresh(out: Path, time_limit: float, only: list[str] | None, instances: Path) -> None:
    """Solve, certify and check every puzzle of a checkout's ``instances`` folder (resuming from
    the answers already in ``out``, kept while their file's sha256 holds); write ``out`` after each."""
    root = instances.resolve().parent  # the commands run from the checkout, with its relative names
    answers = load_json(out) if out.exists() else {}
    todo = source(instances, only=only).files
    bench = root / "benchmarks"
    for group, path in todo:
        key = f"{group}/{path.name}"
        if answers.get(key, {}).get("sha256") == sha256(path):
            print(f"{key}: stored answer is current; skipped (resumed)", file=sys.stderr)
            continue
        try:
            instance = read_instance(path)
        except CoinsatError:
            if is_plane(path):  # the plane engine answers through coinsat solve; no certificate kind exists
                record = refresh_one(path, time_limit, root, certify=False)
                answers[key] = record
                print(f"{key}: {record['status']} {record.get('length')} (plane)", file=sys.stderr)
                write_atomic(out, json.dumps(answers, indent=1, sort_keys=True) + "\n")
            else:
                print(f"{key}: not read by the instance reader; skipped", file=sys.stderr)
            continue
        family = family_answer(path, instance, {}, bench)
        if family is not None and family[1].certificate not in ("—", "exhaustive search"):
            print(f"{key}: family record with a stored certificate; skipped", file=sys.stderr)
            continue
        record = refresh_one(path, time_limit, root)
        if family is not None:  # keep only the certificate: the moves and bounds come from the family's record
            record = {k: record[k] for k in ("sha256", "certificate", "made") if k in record}
        answers[key] = record
        cert = (record.get("certificate") or {}).get("accepted")
        print(f"{key}: {record.get('status', 'family')} {record.get('length')} certificate={cert}", file=sys.stderr)
        write_atomic(out, json.dumps(answers, indent=1, sort_keys=True) + "\n")
