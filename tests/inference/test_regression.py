"""Regression: MSE, MAE and R² intervals, loss-difference tests, the mean baseline, each against an oracle.

Oracles: scikit-learn's metrics (``r2_score``, ``mean_squared_error``,
``mean_absolute_error``) and ``DummyRegressor`` cross-validated on the same
folds; Bayle, Bayle, Janson & Mackey (2020, section 3)'s within-fold
variance estimator and Nadeau & Bengio (2003)'s corrected t written out
below with scipy's normal and t distributions; a jackknife for the delta
method's standard error of R².
"""

import json
import math

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_diabetes
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score
from sklearn.model_selection import PredefinedSplit, cross_val_predict
from sklearn.tree import DecisionTreeRegressor

import cvinference as cvi


@pytest.fixture(scope="module")
def diabetes():
    return load_diabetes(return_X_y=True)


@pytest.fixture(scope="module")
def pair(diabetes):
    X, y = diabetes
    return cvi.CVEvaluator(cv=5, n_repeats=2, loss="squared_error", random_state=0).compare(
        Ridge(alpha=0.1), DecisionTreeRegressor(max_depth=3, random_state=0), X, y)


def _bayle_within_fold(values, fold):
    """Bayle et al. (2020), section 3: (1/k) sum_j 1/(m_j - 1) sum_{i in B_j} (v_i - mean_{B_j} v)^2."""
    terms = []
    for j in np.unique(fold):
        in_fold = values[fold == j]
        terms.append(((in_fold - in_fold.mean()) ** 2).sum() / (in_fold.size - 1))
    return sum(terms) / len(terms)


@pytest.mark.parametrize(("metric", "score"), [("r2", r2_score), ("mean_squared_error", mean_squared_error),
                                               ("mean_absolute_error", mean_absolute_error)])
def test_point_estimates_are_sklearns_metrics_averaged_over_repeats(pair, metric, score):
    result = pair.a
    expected = np.mean([score(result.y_true, result.y_pred[r]) for r in range(result.n_repeats)])
    with pytest.warns(cvi.InferenceWarning, match="repeats of cross-validation are pooled"):
        interval = cvi.inference.regression_interval(result, metric)
    assert interval.estimate == pytest.approx(expected, rel=1e-12)
    one = cvi.inference.regression_interval(result, metric, repeat=1)
    assert one.estimate == pytest.approx(score(result.y_true, result.y_pred[1]), rel=1e-12)


@pytest.mark.parametrize(("metric", "error"), [("mean_squared_error", lambda e: e**2),
                                               ("mean_absolute_error", np.abs)])
def test_mse_and_mae_intervals_by_hand(pair, metric, error):
    result = pair.b
    losses = error(result.y_pred[0] - result.y_true)
    sigma = math.sqrt(_bayle_within_fold(losses, result.fold[0]))
    z = stats.norm.ppf(0.95)
    interval = cvi.inference.regression_interval(result, metric, confidence_level=0.9, repeat=0)
    assert (interval.low, interval.high) == pytest.approx(
        (losses.mean() - z * sigma / math.sqrt(losses.size), losses.mean() + z * sigma / math.sqrt(losses.size)))
    assert interval.target == "kfold" and interval.method == "cv-clt"


def test_mse_interval_is_loss_interval_cv_clt_on_a_squared_error_record(pair):
    mine = cvi.inference.regression_interval(pair.a, "mean_squared_error", repeat=0)
    theirs = cvi.loss_interval(pair.a, method="cv-clt", repeat=0)
    assert (mine.low, mine.high) == pytest.approx((theirs.low, theirs.high), rel=1e-12)


def test_r2_delta_method_standard_error_agrees_with_the_jackknife(pair):
    """All-pairs delta-method SE against the leave-one-instance-out jackknife of 1 - SSE/SST (same to O(1/n))."""
    result = pair.a
    y, y_pred = np.asarray(result.y_true, float), result.y_pred[0]
    n = y.size
    jackknife = np.array([r2_score(np.delete(y, i), np.delete(y_pred, i)) for i in range(n)])
    se_jackknife = math.sqrt((n - 1) / n * ((jackknife - jackknife.mean()) ** 2).sum())
    interval = cvi.inference.regression_interval(result, "r2", repeat=0, variance="all-pairs")
    assert interval.details["standard_error"] == pytest.approx(se_jackknife, rel=0.02)


def test_r2_is_clipped_at_one_with_its_range():
    y = np.arange(20.0)
    result = cvi.CVResult(y_true=y, y_pred=y + np.tile([0.01, -0.01], 10), fold=np.repeat(np.arange(4), 5),
                          loss=np.full(20, 1e-4), loss_name="squared_error")
    interval = cvi.inference.regression_interval(result, "r2", confidence_level=0.999999)
    assert interval.high <= 1.0 and interval.estimate == pytest.approx(r2_score(y, result.y_pred[0]))


def test_loss_difference_test_by_hand(pair):
    a, b = pair.a, pair.b
    d = b.loss[0] - a.loss[0]
    se = math.sqrt(_bayle_within_fold(d, a.fold[0]) / d.size)
    test = cvi.inference.loss_difference_test(pair, repeat=0)
    assert test.estimate == pytest.approx(d.mean()) and test.estimate == pytest.approx(b.mean_loss - a.mean_loss,
                                                                                       rel=0.2)
    assert test.statistic == pytest.approx(d.mean() / se)
    assert test.pvalue == pytest.approx(2 * stats.norm.sf(abs(d.mean() / se)))
    low, high = test.confidence_interval(0.95)
    assert (low, high) == pytest.approx((d.mean() - 1.959963984540054 * se, d.mean() + 1.959963984540054 * se))
    assert isinstance(test, cvi.results.LossDifferenceTestResult) and test.target == "kfold"
    assert cvi.results.LossDifferenceTestResult.from_dict(json.loads(json.dumps(test.to_dict()))) == test


def test_loss_difference_test_pools_repeats_as_loss_interval_does(pair):
    a, b = pair.a, pair.b
    variances = [_bayle_within_fold(b.loss[r] - a.loss[r], a.fold[r]) for r in range(2)]
    with pytest.warns(cvi.InferenceWarning, match="pooled"):
        test = cvi.inference.loss_difference_test(a, b)
    assert test.standard_error == pytest.approx(math.sqrt(np.mean(variances) / a.n_samples))
    assert test.estimate == pytest.approx(b.mean_loss - a.mean_loss)


def test_corrected_t_on_regressors_fold_mean_losses_by_hand(pair):
    """Nadeau & Bengio (2003) / Bouckaert & Frank (2004): t = mean d / sqrt((1/(kr) + n_test/n_train) s^2)."""
    a, b = pair.a, pair.b
    sizes = a.fold_sizes
    d = np.array([[b.loss[r][a.fold[r] == j].mean() - a.loss[r][a.fold[r] == j].mean() for j in range(5)]
                  for r in range(2)]).ravel()
    ratio = np.mean(sizes / (a.n_samples - sizes))
    t = d.mean() / math.sqrt((1 / d.size + ratio) * d.var(ddof=1))
    test = cvi.corrected_resampled_ttest(pair)
    assert test.statistic == pytest.approx(t) and test.df == d.size - 1
    assert test.pvalue == pytest.approx(2 * stats.t.sf(abs(t), d.size - 1))
    assert isinstance(test, cvi.results.LossDifferenceTestResult)
    low, high = test.confidence_interval()
    assert high - low > 2  # a difference of mean squared errors (thousands here) is not clipped to [-1, 1]
    assert "mean squared error" in test.estimand and "B minus A" in test.estimand


def test_mean_baseline_is_dummy_regressor_on_the_same_folds(pair, diabetes):
    X, y = diabetes
    result = pair.a
    dummy = cross_val_predict(DummyRegressor(strategy="mean"), X, y, cv=PredefinedSplit(result.fold[0]))
    test = cvi.inference.mean_baseline_test(result, repeat=0)
    assert test.details["baseline_loss"] == pytest.approx(mean_squared_error(y, dummy))
    d = (dummy - y) ** 2 - result.loss[0]
    se = math.sqrt(_bayle_within_fold(d, result.fold[0]) / d.size)
    assert test.statistic == pytest.approx(d.mean() / se)
    assert test.pvalue == pytest.approx(stats.norm.sf(d.mean() / se))
    assert test.details["relative"] == pytest.approx(1 - result.loss[0].mean() / mean_squared_error(y, dummy))


def test_mean_baseline_of_the_absolute_error_is_the_median(diabetes):
    X, y = diabetes
    result = cvi.cross_val_correctness(Ridge(), X, y, cv=4, loss="absolute_error", random_state=1)
    dummy = cross_val_predict(DummyRegressor(strategy="median"), X, y, cv=PredefinedSplit(result.fold[0]))
    test = cvi.inference.mean_baseline_test(result)
    assert test.details["baseline"] == "median"
    assert test.details["baseline_loss"] == pytest.approx(mean_absolute_error(y, dummy))


def test_a_regressor_that_ignores_the_features_does_not_beat_the_mean(diabetes):
    X, y = diabetes
    result = cvi.cross_val_correctness(DummyRegressor(), X, y, cv=5, loss="squared_error", random_state=0)
    with pytest.warns(cvi.InferenceWarning, match="do not differ at all"):
        test = cvi.inference.mean_baseline_test(result)
    assert test.pvalue == 1.0 and test.estimate == 0.0


@pytest.mark.parametrize("function", [cvi.matched_sample_test, cvi.mcnemar_test, cvi.independent_sample_test])
def test_accuracy_tests_refuse_regressors_and_point_to_the_loss_tests(pair, function):
    pointer = r"regression loss .*corrected_resampled_ttest\(pair\).*loss_difference_test\(pair\)"
    with pytest.raises(ValueError, match=pointer):
        function(pair)


def test_bayesian_correlated_ttest_still_refuses_regressors(pair):
    with pytest.raises(ValueError, match="regression loss"):
        cvi.bayesian_correlated_ttest(pair)


def test_regression_functions_refuse_a_classifier_record():
    result = cvi.CVResult(y_true=[0, 1, 0, 1], y_pred=[0, 1, 1, 1], fold=[0, 0, 1, 1])
    for function in (cvi.inference.regression_interval, cvi.inference.mean_baseline_test):
        with pytest.raises(ValueError, match="classification record"):
            function(result)


def test_loss_difference_test_refuses_different_losses(diabetes):
    X, y = diabetes
    a = cvi.cross_val_correctness(Ridge(), X, y, cv=4, loss="squared_error", random_state=1)
    b = cvi.cross_val_correctness(Ridge(), X, y, cv=4, loss="absolute_error", random_state=1)
    with pytest.raises(ValueError, match="loss_name='squared_error' and b has loss_name='absolute_error'"):
        cvi.inference.loss_difference_test(a, b)
