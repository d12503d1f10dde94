"""Holm and Bonferroni adjustments against statsmodels' multipletests."""

import numpy as np
import pytest

from cvinference.model_selection._multiple_testing import adjust_pvalues

multitest = pytest.importorskip("statsmodels.stats.multitest")


@pytest.mark.parametrize("correction, name", [("holm", "holm"), ("bonferroni", "bonferroni")])
@pytest.mark.parametrize("seed", range(5))
def test_adjusted_pvalues_equal_statsmodels(correction, name, seed):
    rng = np.random.default_rng(seed)
    pvalues = rng.uniform(0, 0.2, size=rng.integers(1, 12))
    pvalues[rng.integers(pvalues.size)] = pvalues[0]  # a tie
    expected = multitest.multipletests(pvalues, method=name)[1]
    np.testing.assert_allclose(adjust_pvalues(pvalues, correction), expected, rtol=1e-12)


def test_nan_entries_are_left_out_of_the_family():
    pvalues = [0.01, np.nan, 0.04]
    expected = multitest.multipletests([0.01, 0.04], method="holm")[1]
    adjusted = adjust_pvalues(pvalues, "holm")
    np.testing.assert_allclose(adjusted[[0, 2]], expected)
    assert np.isnan(adjusted[1])


def test_none_keeps_the_pvalues_and_an_empty_family_is_all_nan():
    np.testing.assert_array_equal(adjust_pvalues([0.2, 0.5], "none"), [0.2, 0.5])
    assert np.isnan(adjust_pvalues([np.nan], "holm")).all()
