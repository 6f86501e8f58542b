"""The checker derives the claim: a certificate is accepted only when its evidence implies its claim.

For every kind: the true claim is accepted (and the verdict reports what the checker proved),
weaker true claims are accepted, and stronger false ones — optimal with a smaller T, unsolvable, a
wider scope — are rejected.  Also the forgeries of the adversarial report (D1: a bounded
certificate built without no-ops and an empty proof; D2: invariant and closed-set claims never
checked), certificates that mix kinds, an empty proof, and a certificate against another instance.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinsat.certificates.check import check_certificate
from coinsat.certificates.check.bounded import gbd_hash_file
from coinsat.certificates.check.claims import Claim, parse_claim
from coinsat.certificates.check.format import instance_digest
from coinsat.certificates.prove import closed_set, invariant
from coinsat.certificates.prove.bounded import build_bounded
from coinsat.certificates.prove.make import certify
from coinsat.cli import main
from coinsat.encode.options import DEFAULT_OPTIONS
from coinsat.errors import LimitReached
from coinsat.instance import make_instance
from coinsat.io.instance_format import read_instance
from coinsat.solve import solve

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "instances" / "paper"

# The report's l3: optimum 1 move.
L3 = make_instance("square", [(0, 0), (0, 1), (1, 0)], [(0, 1), (1, 1), (1, 0)], name="l3")
# 3x3 diagonal plus the two other centre-column coins: optimum 6.
DIAG3 = make_instance(
    "square", [(0, 0), (1, 1), (2, 2), (1, 2), (2, 1)], [(0, 2), (1, 1), (2, 0), (1, 2), (2, 1)], name="diag3"
)
# The claw on a triangular window of margin 1: unsolvable, shown by a closed set only inside the window.
CLAW1 = make_instance("triangular", [(0, 0), (1, 0), (2, 0), (3, 0)], [(1, 1), (1, 0), (2, 1), (0, 2)], margin=1)


def _check(inst, cert, base=None, **changes):
    return check_certificate(inst, dict(copy.deepcopy(cert), **changes), base)


# --- the claim algebra ------------------------------------------------------------------------


claims = st.builds(
    lambda kind, a, b, window: {
        "unsolvable": Claim(unsolvable=True, window=window),
        "bound": Claim(bound=a, window=window),
        "solution": Claim(solution=a),
        "both": Claim(solution=a + b + 1, bound=a, window=window),
    }[kind],
    st.sampled_from(["unsolvable", "bound", "solution", "both"]),
    st.integers(0, 30),
    st.integers(0, 3),
    st.booleans(),
)


@given(claims)
def test_every_claim_reads_back_as_itself(claim):
    assert parse_claim(claim.text()) == claim


@given(claims, claims)
def test_implication_is_a_preorder_that_respects_scope(a, b):
    assert a.implies(a)
    if a.implies(b) and b.implies(a):
        assert a.text() == b.text() or a.unsolvable == b.unsolvable
    if a.implies(b) and (b.unsolvable or b.bound is not None) and not b.window:
        assert not a.window  # a global negative claim needs a global proof


def test_implication_table():
    optimal5 = Claim(solution=5, bound=4)
    assert optimal5.optimal and optimal5.text() == "optimal: 5 moves (no solution with <= 4 moves)"
    assert optimal5.implies(Claim(bound=3)) and optimal5.implies(Claim(solution=5))
    assert optimal5.implies(Claim(bound=4, window=True))
    assert not optimal5.implies(Claim(bound=5))
    assert not optimal5.implies(Claim(solution=4, bound=3))
    assert not optimal5.implies(Claim(unsolvable=True))
    assert Claim(unsolvable=True).implies(Claim(bound=1000))
    assert not Claim(unsolvable=True, window=True).implies(Claim(unsolvable=True))
    assert not Claim(bound=4, window=True).implies(Claim(bound=4))


@pytest.mark.parametrize(
    "text",
    [
        "optimal: 3 moves",
        "optimal: 3 moves (no solution with <= 1 moves)",
        "a solution of 3 moves (no solution with <= 2 moves)",
        "unsolvable globally",
        "no solution with <= -1 moves",
        "",
        "OPTIMAL: 3 moves (no solution with <= 2 moves)",
    ],
)
def test_malformed_claims_are_refused(text):
    with pytest.raises(ValueError):
        parse_claim(text)


# --- D1: the forged bounded certificate -------------------------------------------------------


def _forge_noop_free(tmp_path: Path) -> dict:
    """The report's reproducer, made through the CLI: noop = 0 CNF, empty proof, its GBD hash."""
    inst_file = tmp_path / "l3.toml"
    inst_file.write_text('name = "l3"\nboard = "square"\nstart = """\no .\no o\n"""\ngoal = """\no o\n. o\n"""\n')
    assert (
        main(
            [
                "export",
                str(inst_file),
                "--horizon",
                "2",
                "--format",
                "cnf",
                "--option",
                "noop=0",
                "-o",
                str(tmp_path / "f.cnf"),
            ]
        )
        == 0
    )
    (tmp_path / "f.drat").write_text("")
    return {
        "coinsat_certificate": 1,
        "kind": "bounded",
        "scope": "horizon",
        "claim": "optimal: 3 moves (no solution with <= 2 moves)",
        "instance": {"name": "l3", "digest": instance_digest(read_instance(inst_file))},
        "horizon": 2,
        "margin": None,
        "encoding": {"noop": False},
        "cnf": "f.cnf",
        "cnf_gbd_hash": gbd_hash_file(tmp_path / "f.cnf"),
        "proof": "f.drat",
        "proof_format": "drat",
        "solver": "cadical195",
        "window_exact": True,
        "solution": [[[0, 0], [1, 1]], [[1, 1], [0, 0]], [[0, 0], [1, 1]]],
    }


def test_d1_noop_free_forgery_is_rejected(tmp_path, capsys):
    forged = _forge_noop_free(tmp_path)
    inst = read_instance(tmp_path / "l3.toml")
    verdict = check_certificate(inst, forged, tmp_path)
    assert not verdict.ok and "noop" in verdict.reason
    claim_only = dict(forged, claim="no solution with <= 2 moves")
    claim_only.pop("solution")
    assert not check_certificate(inst, claim_only, tmp_path).ok
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    assert main(["check-certificate", str(tmp_path / "l3.toml"), str(tmp_path / "forged.json")]) == 1
    assert "rejected" in capsys.readouterr().out


def test_d1_through_the_library_is_refused_and_rejected(tmp_path):
    with pytest.raises(ValueError, match="noop"):
        build_bounded(L3, 2, tmp_path, "l3", options=DEFAULT_OPTIONS.with_(noop=False))
    cert = build_bounded(L3, 0, tmp_path, "l3")  # a true certificate, then its options changed
    assert check_certificate(L3, cert, tmp_path).ok
    verdict = _check(L3, cert, tmp_path, encoding=dict(cert["encoding"], noop=False))
    assert not verdict.ok and "noop" in verdict.reason


@pytest.mark.parametrize(
    "encoding, why",
    [
        ({"noop": "false"}, "true or false"),
        ({"noop": 0}, "true or false"),
        ({"nopp": True}, "unknown"),
        ([], "object"),
        ({"noop": True, "windows": 1}, "true or false"),
    ],
)
def test_bounded_encoding_must_keep_the_meaning(tmp_path, encoding, why):
    cert = build_bounded(DIAG3, 3, tmp_path, "diag3")
    verdict = _check(DIAG3, cert, tmp_path, encoding=encoding)
    assert not verdict.ok and why in verdict.reason


# --- D2: invariant and closed-set claims ------------------------------------------------------


def test_d2_invariant_claims_are_derived():
    o_to_h = read_instance(PAPER / "o-to-h.toml")
    cert = invariant.span_cells(o_to_h)
    ok = check_certificate(o_to_h, cert)
    assert ok.ok and ok.claim == "unsolvable" and ok.scope == "global"
    for claim, scope in [
        ("optimal: 3 moves (no solution with <= 2 moves)", "horizon"),
        ("a solution of 3 moves", "horizon"),
        ("optimal: 0 moves", "horizon"),
        ("optimal: 3 moves", "global"),
    ]:
        verdict = _check(o_to_h, cert, claim=claim, scope=scope)
        assert not verdict.ok, claim
    weaker = _check(o_to_h, cert, claim="no solution with <= 40 moves", scope="horizon")
    assert weaker.ok and weaker.claim == "unsolvable"  # the verdict says what was proven
    assert _check(o_to_h, cert, claim="unsolvable inside the window", scope="window").ok
    assert not _check(o_to_h, cert, claim="unsolvable", scope="window").ok  # scope must match the claim


def test_d2_closed_set_claims_are_derived(tmp_path):
    cert = closed_set.forward_closure(CLAW1)
    assert cert["scope"] == "window" and cert["claim"] == "unsolvable inside the window"
    verdict = check_certificate(CLAW1, cert)
    assert verdict.ok and verdict.claim == "unsolvable inside the window" and verdict.scope == "window"
    assert not _check(CLAW1, cert, claim="unsolvable", scope="global").ok  # wider scope
    assert not _check(CLAW1, cert, claim="optimal: 2 moves (no solution with <= 1 moves)", scope="horizon").ok
    assert not _check(CLAW1, cert, claim="no solution with <= 5 moves", scope="horizon").ok  # global bound
    assert _check(CLAW1, cert, claim="no solution with <= 5 moves inside the window", scope="horizon").ok


def test_d2_cli_prints_what_the_checker_proved(tmp_path, capsys):
    out = tmp_path / "c"
    assert main(["certify", str(PAPER / "o-to-h.toml"), "-o", str(out)]) == 0
    path = out / "o-to-h.certificate.json"
    cert = json.loads(path.read_text())
    path.write_text(json.dumps(dict(cert, claim="optimal: 3 moves (no solution with <= 2 moves)", scope="horizon")))
    capsys.readouterr()
    assert main(["check-certificate", str(PAPER / "o-to-h.toml"), str(path), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["accepted"] is False and verdict["proven"] == ""
    path.write_text(json.dumps(dict(cert, claim="no solution with <= 9 moves", scope="horizon")))
    assert main(["check-certificate", str(PAPER / "o-to-h.toml"), str(path), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["proven"] == "unsolvable" and verdict["claim"] == "no solution with <= 9 moves"


# --- bounded and layers: stronger claims ------------------------------------------------------


@pytest.fixture(scope="module")
def diag3_optimal(tmp_path_factory):
    d = tmp_path_factory.mktemp("diag3")
    done = certify(DIAG3, solve(DIAG3, "sat"), d)
    assert done.check.ok and done.certificate.kind == "bounded"
    assert done.check.claim == "optimal: 6 moves (no solution with <= 5 moves)"
    return d, json.loads(done.path.read_text())


STRONGER_THAN_OPTIMAL_6 = [
    ("optimal: 5 moves (no solution with <= 4 moves)", "horizon"),
    ("no solution with <= 6 moves", "horizon"),
    ("optimal: 7 moves (no solution with <= 6 moves)", "horizon"),
    ("unsolvable", "global"),
    ("optimal: 6 moves (no solution with <= 5 moves)", "global"),
]


@pytest.mark.parametrize("claim, scope", STRONGER_THAN_OPTIMAL_6)
def test_bounded_stronger_claims_are_rejected(diag3_optimal, claim, scope):
    d, cert = diag3_optimal
    assert not _check(DIAG3, cert, d, claim=claim, scope=scope).ok


def test_bounded_weaker_claims_are_accepted(diag3_optimal):
    d, cert = diag3_optimal
    for claim in (
        "no solution with <= 5 moves",
        "no solution with <= 2 moves inside the window",
        "a solution of 6 moves",
    ):
        verdict = _check(DIAG3, cert, d, claim=claim)
        assert verdict.ok and verdict.claim == "optimal: 6 moves (no solution with <= 5 moves)", claim


def test_bounded_empty_proof_is_rejected(diag3_optimal, tmp_path):
    d, cert = diag3_optimal
    (tmp_path / cert["cnf"]).write_bytes((d / cert["cnf"]).read_bytes())
    (tmp_path / cert["proof"]).write_text("")
    verdict = check_certificate(DIAG3, cert, tmp_path)
    assert not verdict.ok and "DRAT" in verdict.reason


def test_solution_only_certificate_cannot_claim_optimality(tmp_path):
    r = solve(DIAG3, "sat")
    cert = {
        "coinsat_certificate": 1,
        "kind": "bounded",
        "scope": "horizon",
        "claim": "a solution of 6 moves",
        "instance": {"name": "diag3", "digest": instance_digest(DIAG3)},
        "horizon": -1,
        "solution": [[list(DIAG3.board.coords[s]), list(DIAG3.board.coords[p])] for s, p in r.solution.moves],
    }
    assert check_certificate(DIAG3, cert).ok
    assert not _check(DIAG3, cert, claim="optimal: 6 moves (no solution with <= 5 moves)").ok
    assert not _check(DIAG3, cert, claim="optimal: 0 moves").ok


def test_window_bounded_claim_cannot_go_global(tmp_path):
    tri = make_instance("triangular", [(0, 0), (1, 0), (0, 1)], [(3, 0), (4, 0), (3, 1)], margin=0, name="tri")
    from coinsat.certificates.prove.bounded import exact_margin

    assert exact_margin(tri, 3) is not None  # the window is not exact for 3: the builder widens it
    cert = build_bounded(tri, 3, tmp_path, "tri")
    assert check_certificate(tri, cert, tmp_path).ok and cert["window_exact"]
    narrow = dict(cert, margin=None)  # the same proof claimed in the original, inexact window
    assert not check_certificate(tri, narrow, tmp_path).ok


@pytest.fixture(scope="module")
def diagonal_layers(tmp_path_factory):
    d = tmp_path_factory.mktemp("layers")
    inst = read_instance(PAPER / "diagonal.toml")
    done = certify(inst, solve(inst, "spanbfs"), d)
    assert done.check.ok and done.certificate.kind == "layers"
    return inst, d, json.loads(done.path.read_text())


@pytest.mark.parametrize(
    "claim, scope",
    [
        ("optimal: 17 moves (no solution with <= 16 moves)", "horizon"),
        ("no solution with <= 18 moves", "horizon"),
        ("unsolvable", "global"),
        ("unsolvable inside the window", "window"),
        ("optimal: 18 moves (no solution with <= 17 moves)", "global"),
    ],
)
def test_layers_stronger_claims_are_rejected(diagonal_layers, claim, scope):
    inst, d, cert = diagonal_layers
    assert not _check(inst, cert, d, claim=claim, scope=scope).ok


def test_layers_weaker_claim_is_accepted_and_permuted_cells_rejected(diagonal_layers):
    inst, d, cert = diagonal_layers
    verdict = _check(inst, cert, d, claim="no solution with <= 17 moves")
    assert verdict.ok and verdict.claim == "optimal: 18 moves (no solution with <= 17 moves)"
    permuted = _check(inst, cert, d, cells=cert["cells"][1:] + cert["cells"][:1])
    assert not permuted.ok and "L0" in permuted.reason
    assert not _check(inst, cert, d, horizon=18).ok
    assert not _check(inst, cert, d, horizon=True).ok


# --- mixed kinds, empty evidence, other instances ---------------------------------------------


def test_certificates_that_mix_kinds_are_rejected(diag3_optimal, diagonal_layers):
    d, bounded = diag3_optimal
    inst, ld, layers = diagonal_layers
    assert not _check(DIAG3, bounded, d, kind="layers").ok
    assert not _check(DIAG3, bounded, d, kind="invariant").ok
    assert not _check(DIAG3, bounded, d, kind="closed-set").ok
    assert not _check(inst, layers, ld, kind="bounded").ok
    o_to_h = read_instance(PAPER / "o-to-h.toml")
    span = invariant.span_cells(o_to_h)
    assert not _check(o_to_h, span, kind="closed-set").ok
    # an invariant carrying a bounded certificate's fields still proves only what its reason proves
    mixed = dict(span, horizon=3, solution=[[[0, 0], [1, 1]]], claim="a solution of 1 moves", scope="horizon")
    assert not check_certificate(o_to_h, mixed).ok


def test_empty_evidence_is_rejected():
    o_to_h = read_instance(PAPER / "o-to-h.toml")
    span = invariant.span_cells(o_to_h)
    assert not _check(o_to_h, span, cells=[]).ok
    cert = closed_set.forward_closure(CLAW1)
    assert not _check(CLAW1, cert, members=[]).ok
    assert not check_certificate(CLAW1, {}).ok
    assert not check_certificate(CLAW1, {"coinsat_certificate": 1, "kind": "invariant"}).ok


def test_a_certificate_against_another_instance_is_rejected(diag3_optimal):
    o_to_h, h_to_o = read_instance(PAPER / "o-to-h.toml"), read_instance(PAPER / "h-to-o.toml")
    span = invariant.span_cells(o_to_h)
    assert not check_certificate(h_to_o, span).ok
    # with the digest rewritten to the other instance, the evidence itself must fail there
    assert not _check(h_to_o, span, instance={"name": "h-to-o", "digest": instance_digest(h_to_o)}).ok
    d, bounded = diag3_optimal
    other = make_instance("square", [(0, 0), (1, 1), (2, 2), (1, 2), (2, 1)], [(0, 2), (1, 1), (2, 0), (1, 0), (2, 1)])
    forged = _check(other, bounded, d, instance={"name": "x", "digest": instance_digest(other)})
    assert not forged.ok


# --- limits: a check or a build that cannot finish is neither accepted nor rejected ------------


def test_certify_past_its_deadline_leaves_nothing(tmp_path):
    r = solve(DIAG3, "sat")
    with pytest.raises(LimitReached):
        certify(DIAG3, r, tmp_path, deadline=time.perf_counter() - 1)
    assert list(tmp_path.iterdir()) == []


def test_check_past_its_deadline_is_unknown(diag3_optimal, diagonal_layers, tmp_path, capsys):
    d, bounded = diag3_optimal
    with pytest.raises(LimitReached):
        check_certificate(DIAG3, bounded, d, deadline=time.perf_counter() - 1)
    inst, ld, layers = diagonal_layers
    with pytest.raises(LimitReached):
        check_certificate(inst, layers, ld, deadline=time.perf_counter() - 1)
    assert check_certificate(inst, layers, ld, deadline=time.perf_counter() + 600).ok
    assert check_certificate(DIAG3, bounded, d, deadline=time.perf_counter() + 600).ok  # the checking child
    assert (
        main(
            [
                "check-certificate",
                str(PAPER / "diagonal.toml"),
                str(ld / "diagonal.certificate.json"),
                "--time-limit",
                "1e-9",
            ]
        )
        == 3
    )
    assert capsys.readouterr().out.startswith("unknown:")


def test_a_huge_horizon_is_rejected_before_any_work(diag3_optimal):
    """Found by the fuzz harness: horizon 2**63 made the checker grow windows and encode forever."""
    d, cert = diag3_optimal
    t0 = time.perf_counter()
    verdict = _check(
        DIAG3,
        {k: v for k, v in cert.items() if k != "solution"},
        d,
        horizon=2**63,
        claim=f"no solution with <= {2**63} moves",
    )
    assert not verdict.ok and "number of configurations" in verdict.reason and time.perf_counter() - t0 < 5


def test_an_infinite_deadline_is_no_deadline(diag3_optimal):
    d, cert = diag3_optimal
    assert check_certificate(DIAG3, cert, d, deadline=float("inf")).ok


def test_a_jump_certificate_does_not_prove_a_slide_optimum(tmp_path):
    """The digest does not name the move model, and need not: every "no solution" claim about
    jumps holds for slides (a slide is a jump), and every solution in a certificate is replayed
    with the instance's own model.  So the rhomboid's jump certificate (optimal 2) is rejected
    for its slide version (optimal 3), because its solution's second move is not a slide."""
    slides = ROOT / "instances" / "open-problems" / "rhomboid-slides.toml"
    inst = read_instance(slides)
    jumps = make_instance(
        inst.board.kind,
        inst.start.placement(inst.board.coords),
        inst.goal.placement(inst.board.coords),
        goal_placement=inst.goal_placement,
        name="rhomboid-jumps",
        margin=inst.margin,
    )
    done = certify(jumps, solve(jumps, "sat"), tmp_path)
    assert done.check.ok and done.certificate.claim.startswith("optimal: 2 moves")
    obj = json.loads(done.path.read_text())
    verdict = check_certificate(inst, obj, tmp_path)
    assert not verdict.ok and "slide" in verdict.reason
