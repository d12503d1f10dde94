"""R² at the edges of its target (issue 46): a constant target gives sklearn's r2_score convention with a warning,
as metric_interval does, and R² is free of the target's scale (1e-150 and 1e150 included)."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_diabetes
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.metrics import r2_score

import cvinference as cvi
from cvinference._utils._warnings import InferenceWarning

X, Y = load_diabetes(return_X_y=True)
X, Y = X[:200], Y[:200]


def _record(y, estimator=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cvi.CVEvaluator(5, random_state=0, loss="squared_error").evaluate(estimator or Ridge(), X, y)


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def test_a_constant_target_gives_r2_scores_convention_with_a_warning():
    record = _record(np.full(200, 3.0), LinearRegression())
    with pytest.warns(InferenceWarning, match=r"y is constant \(3\), so R² = 1 - MSE / var\(y\) is undefined"):
        interval = cvi.inference.regression_interval(record, "r2")
    # oracle: sklearn's r2_score on the same out-of-fold predictions (1.0 for perfect predictions)
    expected = r2_score(record.y_true, record.y_pred[0])
    assert (interval.estimate, interval.low, interval.high) == (expected, expected, expected) == (1.0, 1.0, 1.0)
    assert _quiet(cvi.metric_interval, record, "r2").estimate == interval.estimate


@pytest.mark.parametrize("scale", [1e-150, 1e150])
def test_r2_is_free_of_the_targets_scale(scale):
    """On a record of scaled predictions: the evaluator refuses such a target before fitting (its squared errors'
    variance leaves float64), but a record made by hand from predictions the user has is read as given."""
    record = _record(Y)
    plain = _quiet(cvi.inference.regression_interval, record, "r2")
    y_pred = record.y_pred * scale
    scaled_record = cvi.CVResult(y_true=Y * scale, y_pred=y_pred, fold=record.fold, loss=(Y * scale - y_pred) ** 2,
                                 loss_name="squared_error", classification=False)
    scaled = _quiet(cvi.inference.regression_interval, scaled_record, "r2")
    assert np.isfinite([scaled.estimate, scaled.low, scaled.high]).all()
    assert scaled.estimate == pytest.approx(plain.estimate, rel=1e-6)
    assert (scaled.low, scaled.high) == pytest.approx((plain.low, plain.high), rel=1e-6)
