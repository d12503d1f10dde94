"""The decision about a metric whose differences are not bounded by 1 (issue 58's fault campaign).

A decision about a negated error (``neg_mean_absolute_error``, ``neg_max_error``) or the Matthews correlation rests on
the corrected t of its fold differences; its interval was clipped to [-1, 1] as if the metric were an accuracy (the
upper bound of a mean-absolute-error difference of 1.19 read 1.0, then the decision crashed on its own test). Oracle:
the corrected repeated k-fold t written here by hand (Nadeau & Bengio 2003, with Bouckaert & Frank's k r fold
differences: variance factor 1/(k r) + 1/(k - 1)) with scipy's t quantile.
"""

import math
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import get_scorer

import cvinference as cvi


def _pair():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((150, 3))
    y = X @ [1.0, 2.0, 0.0] + rng.standard_normal(150)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cvi.CVEvaluator(5, random_state=0, loss="squared_error").compare(Ridge(), DummyRegressor(), X, y)


def _by_hand(pair, metric):
    score = get_scorer(metric)._score_func
    sign = get_scorer(metric)._sign
    d = np.array([sign * (score(pair.a.y_true[pair.a.fold[0] == j], pair.a.y_pred[0][pair.a.fold[0] == j])
                          - score(pair.b.y_true[pair.b.fold[0] == j], pair.b.y_pred[0][pair.b.fold[0] == j]))
                  for j in range(5)])
    standard_error = math.sqrt((1 / 5 + 1 / 4) * d.var(ddof=1))
    half = stats.t.ppf(0.975, 4) * standard_error
    return d.mean(), d.mean() - half, d.mean() + half


@pytest.mark.parametrize("metric", ["neg_mean_absolute_error", "neg_median_absolute_error", "neg_max_error"])
def test_a_negated_errors_difference_is_not_clipped_to_one(metric):
    pair = _pair()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        test = cvi.decide(pair, metric=metric).rests_on
    estimate, low, high = _by_hand(pair, metric)
    assert high > 1  # the case of the campaign: clipped to 1.0 before
    assert (test.estimate, test.low, test.high) == pytest.approx((estimate, low, high), rel=1e-9)


def test_a_log_loss_difference_of_fold_values_is_not_clipped_to_one():
    """The review's case: corrected_fold_test of log losses differing by 2.2 crashed on its own clipped interval."""
    from cvinference.inference._score_metrics import corrected_fold_test

    a, b = np.array([[3.0, 3.5, 2.8, 3.2, 3.1]]), np.array([[0.9, 1.0, 0.8, 0.7, 1.1]])
    d = (a - b).ravel()
    half = stats.t.ppf(0.975, 4) * math.sqrt((1 / 5 + 1 / 4) * d.var(ddof=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        interval = corrected_fold_test(a, b, metric="log_loss").confidence_interval()
    assert (interval.low, interval.high) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)
