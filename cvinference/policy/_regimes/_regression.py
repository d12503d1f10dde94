"""Regime: two regressors on their loss, or on another regression metric's fold values."""

from ..._utils._warnings import quietly
from ...inference._methods import display_label
from ...inference._regression import loss_difference_test, loss_words
from ...inference._resampled_tests import corrected_resampled_ttest
from .._baselines import mean_baseline_caveats
from .._evidence import type_i_limit
from .._judging import (
    candidate_of_nested,
    candidate_of_test,
    fold_test_label,
    is_loss_metric,
    metric_test,
    unmeasured_or_calibrated,
)
from ._regime import Regime


def _loss_candidates(pair, nested, confidence_level):
    """The tests of a difference of mean losses: corrected t, CV-CLT and (when given) nested CV."""
    a = pair.a
    words = loss_words(a.loss_name)
    found = []
    if a.n_splits >= 2 and not a.is_loo:
        found.append(candidate_of_test(fold_test_label(words, a),
                                       quietly(corrected_resampled_ttest, pair), confidence_level))
    variance = "all-pairs" if int(a.fold_sizes.min()) < 2 else "within-fold"
    differences = f" on per-instance {a.loss_name.replace('_', ' ')} differences"
    found.append(candidate_of_test(display_label("cv-clt-difference", differences),
                                   quietly(loss_difference_test, pair, variance=variance), confidence_level))
    if nested is not None:
        found.append(candidate_of_nested(nested))
    return found


def _regression_decision(pair, metric, names, confidence_level, nested, limit):
    """decide() for two regressors: the calibrated test when the benchmark measured one, else the stated order."""
    a, b = pair.a, pair.b
    if is_loss_metric(metric, a):
        candidates, metric_name, difference = (_loss_candidates(pair, nested, confidence_level),
                                               loss_words(a.loss_name), b.mean_loss - a.mean_loss)
        lower_is_better = True
    else:
        name, test, metric_name, difference = metric_test(pair, metric, None)
        candidates, lower_is_better = [candidate_of_test(name, test, confidence_level)], False
    caveats = mean_baseline_caveats(pair, names, 1 - confidence_level)
    common = {"names": names, "metric": metric_name, "confidence_level": confidence_level,
              "difference": float(difference), "lower_is_better": lower_is_better}
    return unmeasured_or_calibrated(pair, candidates, common, caveats, limit, task="regression",
                                    subject="regressors", measures="classifiers")


REGIME = Regime("regression", "two regressors: their loss (the corrected t, the CV-CLT, nested CV), or the corrected "
                "t on another metric's fold values", lambda request: request.pair.a.classes is None,
                lambda request, again: _regression_decision(request.pair, request.metric, request.names,
                                                            request.confidence_level, request.nested, type_i_limit()))
