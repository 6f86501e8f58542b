"""A quick slice of the checker's differential fuzz (lab/checker_fuzz.py): genuine
certificates mutated structurally and byte by byte are never accepted with a claim stronger
than the truth, and the checker never crashes.  The one-hour campaign is
``scripts/checker_fuzz.py --minutes 60`` (its table: benchmarks/fuzz.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from coinsat.certificates.check.claims import Claim
from lab import checker_fuzz

ROOT = Path(__file__).resolve().parent.parent
PLAN = [p for p in checker_fuzz.SEED_PLAN if p[2] in ("bounded", "core", "cubes", "layers-word", "unsolvable-b")]


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    return checker_fuzz.make_seeds(ROOT, tmp_path_factory.mktemp("seeds"), PLAN)


def test_the_oracle_knows_a_false_claim():
    assert checker_fuzz.judge_truth(Claim(bound=4), 4, True) == "false"
    assert checker_fuzz.judge_truth(Claim(bound=3), 4, True) == "true"
    assert checker_fuzz.judge_truth(Claim(solution=3), 4, True) == "false"
    assert checker_fuzz.judge_truth(Claim(unsolvable=True), 4, True) == "false"
    assert checker_fuzz.judge_truth(Claim(unsolvable=True), None, True) == "true"
    assert checker_fuzz.judge_truth(Claim(bound=9, window=True), 4, False) == "unjudged"


def test_a_slice_of_the_campaign_has_no_false_accept(seeds):
    result = checker_fuzz.campaign(seeds, cases=120, seed=20261127)
    assert result.cases == 120
    assert not result.failures, [(r["seed"], r["outcome"], r["applied"], r.get("detail")) for r in result.failures]
    accepted = sum(v for (_, k), v in result.outcomes.items() if k.startswith("accepted"))
    rejected = sum(v for (_, k), v in result.outcomes.items() if k == "rejected")
    assert accepted and rejected  # the slice reaches both verdicts


def test_the_r3_1_recipe_is_in_the_campaign_and_rejected(seeds):
    """Only the re-encoding forger (the parser-differential recipe with every separator), on every bounded seed."""
    saved = dict(checker_fuzz.MUTATIONS)
    try:
        checker_fuzz.MUTATIONS.clear()
        checker_fuzz.MUTATIONS.update({k: saved[k] for k in ("reencode", "claim")})
        bounded = [s for s in seeds if s.cert["kind"] == "bounded"]
        result = checker_fuzz.campaign(bounded, cases=40, seed=7)
    finally:
        checker_fuzz.MUTATIONS.clear()
        checker_fuzz.MUTATIONS.update(saved)
    assert result.mutations["reencode"] > 10
    assert not result.failures
