"""Regime: a regression metric that orders two learners as their records' loss does (R², the root mean squared
error), decided on that loss and restated.
"""

import dataclasses

import numpy as np

from ._regime import Regime

_LOSS_EQUIVALENTS = {"squared_error": ("r2", "neg_root_mean_squared_error")}
"""Regression metrics that order two learners as the records' own loss does on identical folds: R² = 1 - MSE /
var(y), with the same var(y) for both, and RMSE = sqrt(MSE)."""


def _loss_equivalent(metric, result):
    """Whether ``metric`` is one of :data:`_LOSS_EQUIVALENTS` of a regression record's loss."""
    return result.classes is None and isinstance(metric, str) and metric in _LOSS_EQUIVALENTS.get(result.loss_name, ())


def _rescaled(test, spread):
    return dataclasses.replace(test, estimate=test.estimate / spread, low=test.low / spread, high=test.high / spread)


def _restated(decision, metric, y_true):
    """The decision on the mean squared error, restated for ``metric``, one of its equivalents: the same answer,
    resting on the same test; for R² its figures divided by var(y)."""
    spread = float(np.var(y_true))
    if metric == "r2" and spread > 0:
        caveat = (f"R² = 1 - mean squared error / var(y), with the same var(y) = {spread:.4g} (every instance's "
                  "target) for both learners, orders them as the mean squared error does: the decision on R² is "
                  "the mean squared error's, resting on the same test, with its figures divided by var(y) (R² of A "
                  "minus R² of B, positive when A is better).")
        return dataclasses.replace(
            decision, metric="r2", lower_is_better=False, difference=decision.difference / spread,
            rests_on=None if decision.rests_on is None else _rescaled(decision.rests_on, spread),
            context=tuple(_rescaled(test, spread) for test in decision.context), caveats=(*decision.caveats, caveat))
    if metric == "r2":
        caveat = ("R² was asked, and y is constant (var(y) = 0): R² is undefined; the decision is the mean squared "
                  "error's, in its units.")
    else:
        caveat = (f"{metric} was asked: the root mean squared error is the square root of the mean squared error "
                  "on the same folds, so the two order the learners alike; the decision is the mean squared "
                  "error's, in its units.")
    return dataclasses.replace(decision, caveats=(*decision.caveats, caveat))


def _decide(request, again):
    """The decision on the records' mean squared error, restated for the metric asked."""
    return _restated(again(request._replace(metric="accuracy")), request.metric, request.pair.a.y_true)


REGIME = Regime("loss equivalent", "R² or the root mean squared error of squared-error records: the mean squared "
                "error's decision, restated", lambda request: _loss_equivalent(request.metric, request.pair.a), _decide)
