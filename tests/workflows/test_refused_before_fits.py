"""Mistakes the fits would meet are refused by the front door before any fit (issue 46, item 1).

A score metric whose intervals are not computed (roc_auc_ovo), a ranking metric on folds that would lack a
class, and a regression target whose squared errors float64 cannot hold each exited the command line with an
internal error after every fit; from Python they raised only after the fits.
"""

import re

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_iris
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
import cvinference.evaluation._evaluator as evaluator_module
from cvinference.workflows._class_folds import FoldWithoutClass


@pytest.fixture
def no_fits(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("refused only after fitting")

    monkeypatch.setattr(evaluator_module, "run_fits", refuse)


def _few_positives():
    y = np.zeros(60, dtype=int)
    y[[5, 20, 40]] = 1
    return np.random.default_rng(0).normal(size=(60, 3)), y


def test_a_score_metric_without_intervals_is_refused_naming_those_computed(no_fits):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=r"^metric='roc_auc_ovo': roc_auc_ovo is a scikit-learn scorer of "
                                         r"predict_proba or decision_function scores whose intervals cvinference does "
                                         r"not compute; it computes those of roc_auc, roc_auc_ovr, "):
        cvi.evaluate(GaussianNB(), X, y, metric="roc_auc_ovo")
    with pytest.raises(ValueError, match="roc_auc_ovo"):
        cvi.compare(GaussianNB(), LogisticRegression(), X, y, metric=["accuracy", "roc_auc_ovo"])


@pytest.mark.parametrize("metric", ["roc_auc", "average_precision"])
def test_folds_without_a_class_are_refused_with_the_folds_that_would_do(metric, no_fits):
    X, y = _few_positives()
    message = (rf"^metric='{metric}' is computed on every test fold, and test fold \d of the 5 in repeat 0 would hold "
               r"no instance of class\(es\) \[1\] \(the 60 instances hold 3 of class 1\); use cv=3 or fewer folds, "
               r"or a metric of predicted labels such as 'balanced_accuracy'\.$")
    with pytest.raises(FoldWithoutClass, match=message) as raised:
        cvi.evaluate(GaussianNB(), X, y, cv=5, metric=metric, random_state=0)
    assert raised.value.most_folds == 3 and isinstance(raised.value, ValueError)
    with pytest.raises(FoldWithoutClass, match=message):
        cvi.compare(GaussianNB(), LogisticRegression(), X, y, cv=5, metric=metric, random_state=0)


def test_grouped_folds_without_a_class_name_no_number_of_folds():
    X, y = _few_positives()
    groups = np.arange(60) // 3  # the positives in groups 1, 6 and 13
    with pytest.raises(FoldWithoutClass, match=r"use fewer folds, or a metric of predicted labels") as raised:
        cvi.evaluate(GaussianNB(), X, y, cv=5, groups=groups, metric="roc_auc", random_state=0)
    assert raised.value.most_folds is None


@pytest.mark.parametrize("metric", ["neg_log_loss", "accuracy"])
def test_a_metric_of_labels_or_of_probabilities_needs_no_class_in_every_fold(metric):
    X, y = _few_positives()
    evaluation = cvi.evaluate(GaussianNB(), X, y, cv=5, metric=metric, random_state=0)
    assert evaluation.result.fold.shape == (1, 60)


@pytest.mark.parametrize("seed", [None, "RandomState"])
def test_the_folds_checked_are_the_folds_fitted(seed):
    """The check draws the partitions first; the fits must draw the same ones, and a seed of None stays
    reproducible from numpy's global generator, as scikit-learn's None is."""
    X, y = load_iris(return_X_y=True)
    y = (y == 2).astype(int)

    def fitted(metric):
        if seed is None:
            np.random.seed(7)
            random_state = None
        else:
            random_state = np.random.RandomState(7)
        return cvi.evaluate(GaussianNB(), X, y, cv=5, metric=metric, random_state=random_state).result

    checked, again = fitted("roc_auc"), fitted("roc_auc")
    np.testing.assert_array_equal(checked.fold, again.fold)
    if seed == "RandomState":  # the check does not draw from the user's RandomState
        np.testing.assert_array_equal(checked.fold, fitted(None).fold)


@pytest.mark.parametrize("scale, words", [(1e100, "beyond the 1e+60"), (1e-100, "below the 1e-60")])
def test_a_target_spread_float64_cannot_square_twice_is_refused(scale, words, no_fits):
    X, y = load_diabetes(return_X_y=True)
    y = y * scale
    spread = np.ptp(y)  # 321 x scale
    message = re.escape(
        f"y spreads over {spread:.3g} (its largest minus its smallest value), {words} within which the intervals of "
        "squared errors compute in float64 (they take fourth powers of it); rescale it, for example y / "
        f"{10.0 ** round(np.log10(spread)):.0e}: every interval then comes in the new units, and R² is unchanged.")
    with pytest.raises(ValueError, match=f"^{message}$"):
        cvi.evaluate(LinearRegression(), X, y)
    with pytest.raises(ValueError, match=f"^{message}$"):
        cvi.cross_val_correctness(LinearRegression(), X, y, loss="absolute_error")


def test_a_target_within_the_spread_gives_finite_intervals_at_its_edges():
    """At 1e59 x the diabetes target (spread 3.2e61 is refused, so 1e57: spread 3.2e59) every interval is finite,
    and the mean absolute error's interval scales with y (equivariance: a hand computation from the unscaled one)."""
    X, y = load_diabetes(return_X_y=True)
    X, y = X[:150], y[:150]
    plain = cvi.evaluate(LinearRegression(), X, y, cv=5, random_state=0)
    scaled = cvi.evaluate(LinearRegression(), X, y * 1e57, cv=5, random_state=0)
    for row in scaled.rows[0]:
        interval = row.interval
        assert np.isfinite([interval.estimate, interval.low, interval.high]).all(), row.name
    (found,), (unscaled,) = (answer.intervals["mean_absolute_error"].values() for answer in (scaled, plain))
    np.testing.assert_allclose([found.low, found.high], [unscaled.low * 1e57, unscaled.high * 1e57], rtol=1e-9)


def test_a_splitters_own_seed_is_kept_when_a_ranking_metric_is_checked():
    """Review find: with random_state=None the check drew a seed that reseeded a splitter of a fixed seed, so
    metric='roc_auc' gave other folds than metric='accuracy' (and others at every call)."""
    from sklearn.model_selection import StratifiedKFold

    X, y = load_iris(return_X_y=True)
    y = (y == 2).astype(int)
    splitter = StratifiedKFold(5, shuffle=True, random_state=0)
    expected = np.empty(y.size, dtype=int)
    for j, (_, test) in enumerate(splitter.split(X, y)):
        expected[test] = j
    for metric in ("accuracy", "roc_auc", "roc_auc"):
        folds = cvi.evaluate(GaussianNB(), X, y, cv=splitter, metric=metric).result.fold[0]
        np.testing.assert_array_equal(folds, expected)
