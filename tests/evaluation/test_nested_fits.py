"""Nested cross-validation's fits (evaluation/_nested_fits.py: nested_cross_validation) against plain scikit-learn fits.

The oracle of every loss is a fresh ``clone(...).fit`` on the documented
training rows: for outer fold k, every fold but k; for outer fold k and inner
fold k', every fold but k and k' (Bates, Hastie & Tibshirani 2023,
Algorithm 1). The folds are those of ``cross_val_correctness(cv=K,
n_repeats=R, random_state=...)``.
"""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris, make_regression
from sklearn.linear_model import Ridge
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference.evaluation._nested_fits import _NestedTasks
from cvinference.evaluation._partitions import draw_partitions

X, Y = load_iris(return_X_y=True)


def test_outer_losses_and_folds_are_those_of_cross_val_correctness():
    losses = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=4, n_repeats=2, random_state=3,
                                                    n_jobs=1)
    result = cvi.cross_val_correctness(GaussianNB(), X, Y, cv=4, n_repeats=2, random_state=3)
    np.testing.assert_array_equal(losses.fold, result.fold)
    np.testing.assert_array_equal(losses.outer[0], result.loss)


def test_inner_losses_equal_plain_fits_without_both_folds():
    features, target = make_regression(40, 3, noise=5.0, random_state=0)
    losses = cvi.evaluation.nested_cross_validation(Ridge(alpha=1.0), features, target, n_splits=4, n_repeats=1,
                                                    loss="squared_error", random_state=0, n_jobs=1)
    fold = losses.fold[0]
    for k in range(4):
        for inner_fold in set(range(4)) - {k}:
            train, test = ~np.isin(fold, [k, inner_fold]), fold == inner_fold
            model = clone(Ridge(alpha=1.0)).fit(features[train], target[train])
            expected = (model.predict(features[test]) - target[test]) ** 2
            np.testing.assert_allclose(losses.inner[0, 0, k, test], expected, rtol=1e-12)
        assert np.isnan(losses.inner[0, 0, k, fold == k]).all()


def test_one_fit_per_pair_of_folds_serves_both_inner_cross_validations():
    losses = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=5, n_repeats=3,
                                                    estimator_b=GaussianNB(),
                                                    random_state=0, n_jobs=1)
    # K outer fits and one per pair of the K folds: 5 + 10 = 15 per learner and repeat
    assert losses.n_fits == 2 * 3 * (5 + 10)
    partitions = draw_partitions(5, X, Y, None, n_repeats=3, random_state=0, classifier=True)
    assert len(_NestedTasks(partitions, 2)) == losses.n_fits


def test_a_fold_of_one_instance_is_refused():
    with pytest.raises(ValueError, match=r"at least 2 instances in every fold .* n_samples=9 with n_splits=5 "
                                         r"gives folds of 1\. Pass n_splits <= 4\."):
        cvi.evaluation.nested_cross_validation(GaussianNB(), X[::17], Y[::17], n_splits=5, n_repeats=1, random_state=0,
                                               n_jobs=1)


def test_nan_losses_are_refused():
    def loss_with_a_hole(y_true, y_pred):
        losses = (y_true != y_pred).astype(float)
        losses[0] = np.nan
        return losses

    with pytest.raises(ValueError, match=r"loss gave NaN or infinity .* of the outer fits"):
        cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=3, n_repeats=1, loss=loss_with_a_hole,
                                               random_state=0,
                                               n_jobs=1)
