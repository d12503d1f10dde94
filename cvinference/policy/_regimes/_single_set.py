"""Regime: one evaluation set (one fold: a holdout, a benchmark), where a test's assumptions hold by design."""

import warnings

from ..._utils._warnings import InferenceWarning, first_caller_outside_package, quietly
from ...inference._delong import delong_paired_test
from ...inference._estimands import for_the_model
from ...inference._methods import display_label
from ...inference._metric_interval import SCORE_METRICS
from ...inference._paired_tests import mcnemar_test
from ...inference._regression import loss_difference_test, loss_words
from .._baselines import baseline_caveats, mean_baseline_caveats
from .._decision_types import Decision, DecisionTest, answer_of
from .._judging import candidate_of_test, is_loss_metric
from ._regime import Regime

SINGLE_SET_REGIME = "one evaluation set: the models fixed, the rows independent"
"""The regime of a decision on one evaluation set, where a test's own assumptions hold by design."""


def _check_single_set_metric(pair, metric):
    """Refuse, on one evaluation set, a metric no test of it computes there: one averaged over folds (F1, ...)."""
    a = pair.a
    auc = isinstance(metric, str) and SCORE_METRICS.get(metric) == "roc_auc"
    if auc:
        unscored = [label for label, record in (("A", a), ("B", pair.b)) if record.y_score is None]
        if unscored:
            which = " and ".join(unscored)
            raise ValueError(f"decide on metric={metric!r} compares the two models' scores, and {which}'s record "
                             "kept none; make both records with y_score (CVResult.from_predictions(..., y_score=...)).")
    if metric == "accuracy" or (a.classes is None and is_loss_metric(metric, a)) or (auc and a.groups is None):
        if a.classes is None and a.groups is not None:
            raise ValueError("decide on one evaluation set of regressors with groups has no test yet (the paired t of "
                             "losses counts rows); drop groups to take the rows as independent, or compare their "
                             "losses with matched_sample_test(pair, method='cluster-paired-t') on cross-validated "
                             "records.")
        return
    shown = metric if isinstance(metric, str) else "a callable"
    if a.classes is None:
        fix = (f"decide on the records' own loss ({a.loss_name!r}: the paired t of per-row losses), or make the "
               "records with the loss wanted (CVResult.from_predictions(..., loss='absolute_error'))")
    else:
        fix = ("decide on 'accuracy' (McNemar's test" + (", Obuchowski's with groups" if a.groups is not None else "")
               + "), or 'roc_auc' (DeLong's paired test) with scores and without groups")
    raise ValueError(f"decide on metric={shown!r} compares the metric's fold values, and these records are one "
                     f"evaluation set (one fold), so they hold one value of it each: no test of it applies; {fix}.")


def _single_set_decision(pair, names, confidence_level, metric="accuracy"):
    """decide() on one evaluation set (one fold: a holdout, a benchmark): McNemar's test (Obuchowski's with groups),
    DeLong's paired test for the ROC AUC or, for regressors, the paired t on per-row losses, whose assumptions hold
    by design."""
    a, b = pair.a, pair.b
    classification = a.classes is not None
    grouped = a.groups is not None
    if metric != "accuracy" and classification:
        binary = len(a.classes) == 2
        test = quietly(delong_paired_test, a.y_true, a.y_score[0], b.y_score[0],
                       pos_label=a.classes[1] if binary else None, classes=None if binary else a.classes)
        name = display_label("delong-paired")
        difference = test.estimate
    elif classification:
        method = "mcnemar-obuchowski" if grouped else "mcnemar"
        test = quietly(mcnemar_test, pair, method=method)
        name = display_label(method)
        difference = a.accuracy - b.accuracy
    else:
        test = quietly(loss_difference_test, pair)
        name = display_label("cv-clt-difference")
        difference = b.mean_loss - a.mean_loss
    test = for_the_model(test, a, b)
    units = f"the {a.n_groups} groups" if grouped else f"the {a.n_samples} rows"
    regime = SINGLE_SET_REGIME.replace("the rows", units)
    candidate = candidate_of_test(name, test, confidence_level)
    rests_on = DecisionTest(**candidate.figures(), measured_type_i=None, measured_power=None, regime=regime,
                            role="rests on", why_not="")
    caveats = [f"One evaluation set: the figures are about these two models as they are (their error on the "
               f"population {units} are drawn from), not about the learners that made them, whose training "
               "data did not vary here."]
    caveats += (baseline_caveats(pair, names, 1 - confidence_level) if classification
                else mean_baseline_caveats(pair, names, 1 - confidence_level))
    source = ("DeLong et al. 1988" if metric != "accuracy" and classification else "McNemar 1947; Kohavi 1995, "
              "\"Holdout\"" + ("; Obuchowski 1998 for groups" if grouped else ""))
    reason = (f"It rests on {name}: on one evaluation set the models are fixed and {units} are independent draws, "
              f"which is all the test assumes ({source}), so its type-I error holds by design; the calibration "
              "benchmark, which measures the variation of training sets, has nothing to add.")
    named = metric if classification and metric != "accuracy" else (
        "accuracy" if classification else loss_words(a.loss_name))
    return Decision(answer=answer_of(rests_on, 1 - confidence_level), names=names,
                    metric=named, target=rests_on.target,
                    confidence_level=confidence_level, difference=float(difference), rests_on=rests_on, context=(),
                    reason=reason, route="", caveats=tuple(caveats), lower_is_better=not classification)


def _decide(request, again):
    """The decision on one evaluation set, refusing a metric no test of it computes there."""
    _check_single_set_metric(request.pair, request.metric)
    if request.tests is not None or request.nested is not None:
        warnings.warn("tests and nested are not read on one evaluation set: the decision rests on the test whose "
                      "assumptions hold there by design (McNemar's, Obuchowski's with groups, the paired t of "
                      "losses for regressors). Drop them.", InferenceWarning, stacklevel=first_caller_outside_package())
    return _single_set_decision(request.pair, request.names, request.confidence_level, request.metric)


REGIME = Regime("one evaluation set", "one fold (n_splits == 1): McNemar's test (Obuchowski's with groups), DeLong's "
                "for the ROC AUC, the paired t of losses for regressors",
                lambda request: request.pair.a.n_splits == 1, _decide)
