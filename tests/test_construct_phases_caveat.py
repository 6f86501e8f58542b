"""The caveat under benchmarks/construct_phases.md's fits (review lowerbound-3, sections 1 and 6):
a fit in n = 2a + 4 of a count that is exactly c·a² gives an exponent above 2."""

from __future__ import annotations

from lab.analysis import fit_power_law
from lab.studies.construct_phases import shift_caveat


def test_an_exact_quadratic_in_a_fits_above_two_in_n_and_the_caveat_says_its_ratio():
    made = {a: 27 * a * a for a in range(5, 19)}
    k, _ = fit_power_law([(2 * a + 4, m) for a, m in made.items()])
    assert 2.2 < k < 2.8  # the shift alone, in the range the caveat names
    text = shift_caveat(made)
    assert "27.0–27.0 over a = 5..18" in text and "2.22 at n = 40" in text and "2.80 at n = 14" in text
