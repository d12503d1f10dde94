"""Regime: a score metric (the ROC AUC, ...): the corrected t on its fold values, DeLong's paired z for context."""

from ..._utils._warnings import quietly
from ...inference._delong import delong_paired_test
from ...inference._methods import display_label
from ...inference._metric_interval import SCORE_METRICS, _resolve_metric, score_fold_values
from ...inference._score_metrics import corrected_fold_test
from .._baselines import baseline_caveats
from .._decision_routes import metric_route
from .._evidence import type_i_limit
from .._judging import UNMEASURED_WHY, candidate_of_test, fold_test_label, unmeasured_or_calibrated
from ._regime import Regime, warn_unused

_SCORE_WHY = UNMEASURED_WHY | {
    "corrected-t": "it compares each fold's models on that fold alone, and its standard error allows for the "
                   "variation of training sets (Nadeau & Bengio 2003); DeLong's paired z pools scores of different "
                   "fold models and leaves that variation out"}


def _score_decision(pair, metric, names, confidence_level, limit, pos_label):
    """decide() on a score metric ("roc_auc"): the corrected t on fold differences, DeLong's paired z as context."""
    a, b = pair.a, pair.b
    for result in (a, b):
        _resolve_metric(metric, result, pos_label)
    rows = range(a.n_repeats)
    values_a, values_b = score_fold_values(a, metric, rows), score_fold_values(b, metric, rows)
    candidates = [candidate_of_test(fold_test_label(metric, a),
                                    quietly(corrected_fold_test, values_a, values_b, metric=metric), confidence_level)]
    if SCORE_METRICS[metric] == "roc_auc" and a.groups is None:  # DeLong's z counts instances
        binary = len(a.classes) == 2
        delong = quietly(delong_paired_test, a.y_true, a.y_score[0], b.y_score[0],
                         pos_label=a.classes[1] if binary else None, classes=None if binary else a.classes)
        candidates.append(candidate_of_test(display_label("delong-paired", " (pooled scores, repeat 0)"), delong,
                                            confidence_level))
    common = {"names": names, "metric": metric, "confidence_level": confidence_level,
              "difference": float(values_a.mean() - values_b.mean())}
    caveats = [*baseline_caveats(pair, names, 1 - confidence_level)]
    return unmeasured_or_calibrated(pair, candidates, common, caveats, limit, task=metric, route=metric_route,
                                    subject=f"learners on {metric}", measures="accuracy and regression losses",
                                    order_why=_SCORE_WHY)


def _decide(request, again):
    """The decision on a score metric (it reads neither ``tests`` nor ``nested``)."""
    warn_unused(request)
    return _score_decision(request.pair, request.metric, request.names, request.confidence_level, type_i_limit(),
                           request.pos_label)


REGIME = Regime("scores", "a metric of scores (the ROC AUC, ...): the corrected t on its fold values, DeLong's "
                "paired z for context", lambda request: isinstance(request.metric, str) and request.metric in
                SCORE_METRICS, _decide)
