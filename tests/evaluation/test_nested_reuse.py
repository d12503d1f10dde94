"""Nested cross-validation on a cross-validation already run (``cv_result``): no outer model is fitted twice.

The oracle is the nested run without ``cv_result`` on the same seed: its
partitions are those of ``cross_val_correctness(cv=K, n_repeats=R,
random_state=seed)`` (tests/evaluation/test_nested_fits.py), so the record
made from that cross-validation must be identical, with only the inner fits
run: K (K - 1) / 2 per learner and repeat (Bates, Hastie & Tibshirani 2023,
Algorithm 1, with one fit per pair of folds).
"""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris, make_regression
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

X, Y = load_iris(return_X_y=True)
GROUPS = np.arange(Y.size) // 5


class CountingNB(ClassifierMixin, BaseEstimator):
    """Gaussian naive Bayes that counts its fits in a class attribute (one process: n_jobs=1)."""

    fits = 0

    def fit(self, X, y):
        type(self).fits += 1
        self.model_ = GaussianNB().fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def test_the_record_is_the_one_a_full_nested_run_makes():
    plain = cvi.cross_val_correctness(GaussianNB(), X, Y, cv=4, n_repeats=3, random_state=7)
    reused = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=4, n_repeats=3, cv_result=plain,
                                                    n_jobs=1)
    full = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=4, n_repeats=3, random_state=7, n_jobs=1)
    assert reused.to_dict() == full.to_dict()


def test_two_learners_reuse_a_comparison_and_its_first_repeats_only():
    pair = cvi.CVEvaluator(cv=5, n_repeats=3, random_state=2).compare(GaussianNB(), DecisionTreeClassifier(
        random_state=0), X, Y)
    reused = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y,
                                                    estimator_b=DecisionTreeClassifier(random_state=0),
                                                    n_splits=5, n_repeats=2, cv_result=pair, n_jobs=1)
    full = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y,
                                                  estimator_b=DecisionTreeClassifier(random_state=0),
                                                  n_splits=5, n_repeats=2, random_state=2, n_jobs=1)
    assert reused.to_dict() == full.to_dict()


def test_the_groups_come_from_the_record_and_the_folds_keep_them_whole():
    plain = cvi.cross_val_correctness(GaussianNB(), X, Y, cv=3, n_repeats=2, groups=GROUPS, random_state=1)
    reused = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=3, n_repeats=2, cv_result=plain,
                                                    n_jobs=1)
    full = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=3, n_repeats=2, groups=GROUPS,
                                                  random_state=1,
                                                  n_jobs=1)
    assert reused.to_dict() == full.to_dict()
    np.testing.assert_array_equal(reused.groups, GROUPS)


def test_a_regression_loss_is_reused_too():
    features, target = make_regression(60, 3, noise=5.0, random_state=0)
    plain = cvi.cross_val_correctness(Ridge(), features, target, cv=4, n_repeats=2, loss="squared_error",
                                      random_state=5)
    reused = cvi.evaluation.nested_cross_validation(Ridge(), features, target, n_splits=4, n_repeats=2,
                                                    loss="squared_error",
                                                    cv_result=plain, n_jobs=1)
    full = cvi.evaluation.nested_cross_validation(Ridge(), features, target, n_splits=4, n_repeats=2,
                                                  loss="squared_error",
                                                  random_state=5, n_jobs=1)
    np.testing.assert_allclose(reused.inner, full.inner, rtol=1e-12)
    np.testing.assert_allclose(reused.outer, full.outer, rtol=1e-12)


@pytest.mark.parametrize("loss", ["log_loss", "brier"])
def test_a_probability_loss_is_reused_as_the_full_run_computes_it(loss):
    plain = cvi.cross_val_correctness(GaussianNB(), X, Y, cv=3, n_repeats=2, loss=loss, random_state=4)
    reused = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=3, n_repeats=2, loss=loss,
                                                    cv_result=plain,
                                                    n_jobs=1)
    full = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=3, n_repeats=2, loss=loss,
                                                  random_state=4,
                                                  n_jobs=1)
    assert reused.to_dict() == full.to_dict()


def test_only_the_inner_models_are_fitted():
    plain = cvi.cross_val_correctness(CountingNB(), X, Y, cv=5, n_repeats=3, random_state=0)
    CountingNB.fits = 0
    cvi.evaluation.nested_cross_validation(CountingNB(), X, Y, n_splits=5, n_repeats=3, cv_result=plain, n_jobs=1)
    assert CountingNB.fits == 3 * 5 * 4 // 2   # R K (K - 1) / 2: the pairs of folds
    CountingNB.fits = 0
    cvi.evaluation.nested_cross_validation(CountingNB(), X, Y, n_splits=5, n_repeats=3, random_state=0, n_jobs=1)
    assert CountingNB.fits == 3 * 5 * 6 // 2   # R K (K + 1) / 2 without it


def test_the_interval_convenience_passes_the_record_on():
    plain = cvi.cross_val_correctness(GaussianNB(), X, Y, cv=4, n_repeats=3, random_state=7)
    reused = cvi.nested_cv_interval(GaussianNB(), X, Y, n_splits=4, n_repeats=3, cv_result=plain)
    full = cvi.nested_cv_interval(GaussianNB(), X, Y, n_splits=4, n_repeats=3, random_state=7)
    assert (reused.low, reused.high, reused.estimate) == (full.low, full.high, full.estimate)


PLAIN = cvi.cross_val_correctness(GaussianNB(), X, Y, cv=4, n_repeats=2, random_state=0)
GROUPED = cvi.cross_val_correctness(GaussianNB(), X, Y, cv=4, n_repeats=2, groups=GROUPS, random_state=0)
with warnings.catch_warnings():  # scikit-learn warns that KFold ignores the groups: the case refused below
    warnings.simplefilter("ignore")
    SPLIT_GROUPS = cvi.cross_val_correctness(GaussianNB(), X, Y, cv=KFold(4, shuffle=True, random_state=0),
                                             groups=GROUPS)
PAIR = cvi.CVEvaluator(cv=4, n_repeats=2, random_state=0).compare(GaussianNB(), GaussianNB(), X, Y)


@pytest.mark.parametrize("change, error, message", [
    ({"cv_result": PAIR}, TypeError, r"cv_result must be a CVResult \(one learner, without estimator_b\).* got "
                                     r"PairedCVResult"),
    ({"cv_result": PLAIN, "estimator_b": GaussianNB()}, TypeError, r"cv_result must be a PairedCVResult"),
    ({"cv_result": "folds"}, TypeError, r"cv_result must be a CVResult .* got str"),
    ({"n_splits": 5}, ValueError, r"cv_result has 4 folds and n_splits=5: pass n_splits=4"),
    ({"n_repeats": 3}, ValueError, r"cv_result holds 2 repeats and n_repeats=3: pass n_repeats <= 2"),
    ({"loss": "brier"}, ValueError, r"cv_result holds the loss 'zero_one' and loss='brier': pass loss='zero_one'"),
    ({"estimator": DecisionTreeClassifier()}, ValueError, r"cv_result was made by GaussianNB\(\), not by "
                                                          r"estimator=DecisionTreeClassifier\(\)"),
    ({"y": Y[::-1]}, ValueError, r"cv_result was made on other data: its target of instance 0 is 0 and y's is 2"),
    ({"groups": GROUPS}, ValueError, r"groups are given but cv_result was made without groups"),
    ({"cv_result": GROUPED, "groups": GROUPS[::-1]}, ValueError, r"groups differ from the groups cv_result was made "
                                                                 r"with"),
    ({"cv_result": SPLIT_GROUPS, "n_repeats": 1}, ValueError,
     r"repeat 0 of cv_result splits a group across folds, .* Pass a cv_result made with a group splitter"),
])
def test_a_record_that_does_not_fit_the_call_is_refused_naming_the_fix(change, error, message):
    call = {"estimator": GaussianNB(), "y": Y, "n_splits": 4, "n_repeats": 2, "cv_result": PLAIN, **change}
    estimator, y = call.pop("estimator"), call.pop("y")
    with pytest.raises(error, match=message):
        cvi.evaluation.nested_cross_validation(estimator, X, y, **call)


def test_leave_one_out_and_holdout_records_are_refused():
    loo = cvi.cross_val_correctness(GaussianNB(), X[::5], Y[::5], cv="loo")
    with pytest.raises(ValueError, match=r"cv_result is leave-one-out; nested cross-validation reuses a K-fold"):
        cvi.evaluation.nested_cross_validation(GaussianNB(), X[::5], Y[::5], n_splits=30, n_repeats=1, cv_result=loo)
    holdout = cvi.evaluation.holdout(GaussianNB(), X, Y, random_state=0)
    with pytest.raises(ValueError, match=r"cv_result is a holdout or subsampling record"):
        cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=3, n_repeats=1, cv_result=holdout)
