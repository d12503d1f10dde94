"""Fit parameters (issue 47, item 4): ``params=`` reaches every fit as scikit-learn's ``cross_validate(params=...)``
passes it, one value per row cut to the fit's training rows; ``sample_weight`` is refused, since the intervals here
are unweighted. Oracle: scikit-learn's ``cross_val_predict(..., params=...)`` on the same folds."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import LeaveOneOut, StratifiedKFold, cross_val_predict

import cvinference as cvi
import cvinference.evaluation._evaluator as evaluator_module

X, Y = load_breast_cancer(return_X_y=True)
X = X[:, :5]
FOLDS = StratifiedKFold(5, shuffle=True, random_state=0)


class ShiftedLogistic(ClassifierMixin, BaseEstimator):
    """Logistic regression on X with ``shift`` (one value per row) added to its first column, and a scalar
    ``scale`` that multiplies every feature: a fit parameter of each kind."""

    def fit(self, X, y, shift=None, scale=1.0):
        assert shift is not None and len(shift) == len(y)
        self.model_ = LogisticRegression(max_iter=5000).fit(self._features(X, shift, scale), y)
        self.classes_ = self.model_.classes_
        self.scale_ = scale
        return self

    @staticmethod
    def _features(X, shift, scale):
        X = np.array(X, dtype=float) * scale
        X[:, 0] += shift
        return X

    def predict(self, X):
        return self.model_.predict(np.asarray(X, dtype=float) * self.scale_)


def test_params_reach_every_fit_as_cross_val_predict_passes_them():
    params = {"shift": np.linspace(0, 50, Y.size), "scale": 0.5}
    expected = cross_val_predict(ShiftedLogistic(), X, Y, cv=FOLDS, params=params)
    record = cvi.cross_val_correctness(ShiftedLogistic(), X, Y, cv=FOLDS, params=params)
    np.testing.assert_array_equal(record.y_pred[0], expected)
    pair = cvi.CVEvaluator(FOLDS).compare(ShiftedLogistic(), ShiftedLogistic(), X, Y, params=params)
    np.testing.assert_array_equal(pair.b.y_pred[0], expected)


def test_leave_one_out_with_params_fits_every_fold():
    """The fast leave-one-out shortcut does not take fit parameters: with params every fold is fitted."""
    rows = slice(0, 40)
    params = {"shift": np.arange(40.0), "scale": 1.0}
    expected = cross_val_predict(ShiftedLogistic(), X[rows], Y[rows], cv=LeaveOneOut(), params=params)
    record = cvi.cross_val_correctness(ShiftedLogistic(), X[rows], Y[rows], cv="loo", params=params)
    np.testing.assert_array_equal(record.y_pred[0], expected)


@pytest.mark.parametrize("params, error, message", [
    ({"sample_weight": np.ones(Y.size)}, ValueError,
     r"^params\['sample_weight'\] would weigh the fits, and every interval here counts each test instance once"),
    ({"groups": np.zeros(Y.size)}, ValueError, r"^params\['groups'\]: groups are the splitter's"),
    ([("shift", 1)], TypeError, r"^params must be None or a dict of fit parameters by name"),
])
def test_params_that_would_mislead_are_refused_before_any_fit(params, error, message, monkeypatch):
    def no_fits(*args, **kwargs):
        raise AssertionError("refused only after fitting")

    monkeypatch.setattr(evaluator_module, "run_fits", no_fits)
    for call in (lambda: cvi.cross_val_correctness(ShiftedLogistic(), X, Y, params=params),
                 lambda: cvi.evaluate(ShiftedLogistic(), X, Y, params=params),
                 lambda: cvi.compare(ShiftedLogistic(), ShiftedLogistic(), X, Y, params=params)):
        with pytest.raises(error, match=message):
            call()


def test_the_front_doors_evaluate_passes_params():
    params = {"shift": np.linspace(0, 5, Y.size)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluation = cvi.evaluate(ShiftedLogistic(), X, Y, cv=FOLDS, params=params)
    expected = cross_val_predict(ShiftedLogistic(), X, Y, cv=FOLDS, params=params)
    np.testing.assert_array_equal(evaluation.result.y_pred[0], expected)


def test_compare_with_params_leaves_out_5x2cv_and_nested_cv_and_says_so():
    params = {"shift": np.zeros(Y.size)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comparison = cvi.compare(ShiftedLogistic(), ShiftedLogistic(), X, Y, cv=5, random_state=0, params=params)
    assert "5x2cv t" not in dict(comparison.test_rows) and comparison.nested is None
    assert any("5x2cv and nested cross-validation, which do not take them, were left out" in note
               for note in comparison.to_dict()["notes"])
    with pytest.raises(ValueError, match=r"^nested='always' runs nested cross-validation, which does not take fit"):
        cvi.compare(ShiftedLogistic(), ShiftedLogistic(), X, Y, nested="always", params=params)


def test_with_metadata_routing_the_estimator_gets_what_it_requests():
    """As cross_validate routes params when scikit-learn's metadata routing is on: requested ones reach fit, and an
    unrequested one is refused by scikit-learn's UnsetMetadataPassedError (a ValueError) before any fit."""
    import sklearn

    params = {"shift": np.linspace(0, 50, Y.size), "scale": 0.5}
    with sklearn.config_context(enable_metadata_routing=True):
        requesting = ShiftedLogistic().set_fit_request(shift=True, scale=True)
        expected = cross_val_predict(requesting, X, Y, cv=FOLDS, params=params)
        record = cvi.cross_val_correctness(requesting, X, Y, cv=FOLDS, params=params)
        np.testing.assert_array_equal(record.y_pred[0], expected)
        with pytest.raises(ValueError, match=r"are passed but are not explicitly set as requested or not requested "
                                             r"for ShiftedLogistic\.fit, which is used within cvinference's params"):
            cvi.cross_val_correctness(ShiftedLogistic(), X, Y, cv=FOLDS, params=params)
        with pytest.raises(ValueError, match=r"^params: with metadata routing the two estimators request different"):
            cvi.CVEvaluator(FOLDS).compare(requesting, ShiftedLogistic().set_fit_request(shift=True, scale=False), X,
                                           Y, params=params)
