"""How a decision weighs a test: its figures as a candidate, its calibration evidence, whether it may be the
one, and the choice among those that may.
"""

from typing import NamedTuple

import numpy as np
from scipy import stats

from .._utils._warnings import quietly
from ..inference._methods import METHODS, MethodRow, display_label, method_row, row_of
from ..inference._metric_interval import _check_finite, _fold_values, _resolve_metric, differences_within_one
from ..inference._regression import loss_words
from ..inference._resampled_tests import corrected_ttest_of, score_differences
from ._decision_types import Decision, DecisionTest, answer_of
from ._evidence import (
    TestEvidence,
    coverage_floor,
    evidence_source,
    measured_scheme,
    pair_learners,
    sized_by_groups,
    test_evidence,
)
from ._regression_evidence import cv_clt_shortfall


def fold_test_label(what, result):
    """The corrected t's name on fold-level ``what``: "corrected t on fold f1 (2x10-fold)", say."""
    return display_label("corrected-t", f" on fold {what} ({result.n_repeats}x{result.n_splits}-fold)")


def cluster_paired_name(result):
    """The cluster-robust paired t's name in reports: "cluster paired t on per-instance correctness", say."""
    words = "correctness" if result.loss_name == "zero_one" else result.loss_name.replace("_", " ")
    return display_label("cluster-paired-t", f" on per-instance {words}")


class Candidate(NamedTuple):
    """A test's figures, as a decision weighs them: A - B, its interval, two-sided p-value and target; and the row
    of the method table its result comes from (None for a result no row computes), which alone says what the
    evidence measured: the name is the caller's label, shown and never read; ``df``, its interval's t degrees of freedom
    (None: normal), is what its minimum detectable difference needs."""

    name: str
    estimate: float
    low: float
    high: float
    pvalue: float
    target: str
    row: MethodRow | None
    given: bool = False  # a refitting interval the caller passed (nested=): it comes first when calibrated
    df: float | None = None

    def figures(self):
        """The fields a :class:`DecisionTest` shows, and its method's id (None: no row computes it)."""
        figures = {key: value for key, value in self._asdict().items() if key not in ("row", "given")}
        return {**figures, "method": None if self.row is None else self.row.id}



def _interval_df(interval):
    """The degrees of freedom of an interval's t quantile, as a float; None for the normal one."""
    df = interval.details.get("df")
    return None if df is None else float(df)


def candidate_of_test(name, test, confidence_level):
    interval = test.confidence_interval(confidence_level)
    return Candidate(name, float(test.estimate), float(interval.low), float(interval.high), float(test.pvalue),
                     test.target, row_of(test), df=_interval_df(interval))


def candidate_of_nested(interval):
    """A nested CV difference interval as a test: its two-sided normal p-value (0 outside the interval)."""
    se = interval.details["standard_error"]
    pvalue = 1.0 if not se else float(2 * stats.norm.sf(abs(interval.estimate) / se))
    return Candidate("nested-cv difference", float(interval.estimate), float(interval.low), float(interval.high),
                     pvalue, interval.target, row_of(interval), given=True)


def metric_test(pair, metric, pos_label):
    """The corrected t on fold-level differences of ``metric`` (every repeat), and the metric's name."""
    a, b = pair.a, pair.b
    score, name, limits, _ = _resolve_metric(metric, a, pos_label)
    rows = list(range(a.n_repeats))
    values_a, _ = _fold_values(score, a, rows)
    values_b, _ = _fold_values(score, b, rows)
    _check_finite(values_a, name, rows)
    _check_finite(values_b, name, rows)
    differences = score_differences(values_a - values_b, n_splits=a.n_splits, n_repeats=a.n_repeats,
                                    quantity=name, contrast="A minus B) of the two learners",
                                    bounded=differences_within_one(limits))
    test = quietly(corrected_ttest_of, differences)
    return fold_test_label(name, a), test, name, float(
        np.mean(values_a) - np.mean(values_b))


def _preference(candidate):
    """A candidate's rank among eligible tests of equal (or unmeasured) power: its row's, steadiest first; a test
    no row ranks comes last."""
    row = candidate.row
    return len(METHODS) if row is None or row.preference is None else row.preference


def evidence_of(method_id, learners, n_samples, limit, task="classification", repeats=None):
    """A test's evidence (found by its method's id; None: not measured) for ``learners`` at ``n_samples``: the figures,
    its regime in words, and why it cannot be the one ("" when it can)."""
    found = (test_evidence(method_id, learners, n_samples, task, repeats) if method_id is not None
             else TestEvidence(None, None, None))
    regime = "" if found.regime is None else found.regime.describe()
    if found.type_i is None:
        why = "its type-I error was not measured by the calibration benchmark"
    elif found.type_i > limit:
        why = f"its type-I error was {found.type_i:.3f} for {found.worst_cell}, above {limit:g}"
    else:
        why = ""
    return {"evidence": found, "regime": regime, "why": why}


def judge(candidate, learners, n_samples, limit, task="classification", repeats=None):
    """A candidate with its evidence: for ``learners`` at ``n_samples`` in the rows of ``task``, at the record's
    number of ``repeats`` where the rows measured it (:func:`test_evidence`)."""
    return {"candidate": candidate,
            **evidence_of(None if candidate.row is None else candidate.row.id, learners, n_samples, limit, task,
                          repeats)}


def choose(judged):
    """The judged test the decision rests on (None when none is eligible): among the eligible tests, a refitting
    interval the caller passed first, then the most measured power, then the row's preference."""
    eligible = [j for j in judged if not j["why"]]
    return min(eligible, default=None, key=lambda j: (not j["candidate"].given, -(j["evidence"].power or 0.0),
                                                      _preference(j["candidate"])))


def reason_not_chosen(judged, chosen):
    """Why a judged test is not the one ``chosen`` (its own reason, or the rule that put ``chosen`` first)."""
    if judged["why"]:
        return judged["why"]
    name = chosen["candidate"].name
    if chosen["candidate"].given:
        return f"{name} was passed to decide and is calibrated for these learners: it comes first"
    return f"less measured power than {name}"


def as_decision_test(judged, role, why_not):
    return DecisionTest(**judged["candidate"].figures(), measured_type_i=judged["evidence"].type_i,
                        measured_power=judged["evidence"].power, regime=judged["regime"], role=role, why_not=why_not)


def is_loss_metric(metric, result):
    """Whether ``metric`` asks about a regression record's own loss ("accuracy", the default, does)."""
    negated = {"squared_error": "neg_mean_squared_error", "absolute_error": "neg_mean_absolute_error"}
    return metric in ("accuracy", result.loss_name, negated.get(result.loss_name))


UNMEASURED_ORDER = ("nested-cv", "corrected-t", "cv-clt-difference")
"""The order among a regression pair's tests while the benchmark has measured none of them (see decide's Notes), by
their ids."""

UNMEASURED_WHY = {
    "nested-cv": "its target is the models fitted to all the data, and its type-I error stayed the nearest to "
                 "nominal of the tests in the measured cells of classifiers (Bates, Hastie & Tibshirani 2023)",
    "corrected-t": "its standard error allows for the variation of training sets (Nadeau & Bengio 2003), which "
                   "the CV-CLT's does not",
    "cv-clt-difference": "its target is the models fitted in these folds; it does not allow for the variation of "
                         "training sets",
}
"""Why each test comes where it does in ``UNMEASURED_ORDER``; tests outside it (DeLong's paired z) come last."""


def unmeasured_choice(judged, order=UNMEASURED_ORDER):
    """When the benchmark measured none of the tests: the first of ``order`` that was computed."""
    def rank(j):
        method = None if j["candidate"].row is None else j["candidate"].row.id
        return order.index(method) if method in order else len(order)
    return min(judged, key=rank)


_SHARES_INTERVAL = {"cv-clt-difference": {"squared_error": "mean_squared_error",
                                          "absolute_error": "mean_absolute_error"}}
"""Tests whose variance is that of a one-learner interval the benchmark measures (the CV-CLT's), by the records'
loss: where that interval falls short for either learner, the test is not eligible, since the report beside the
decision warns that the same variance under-covers."""


def shortfall_why(candidate, learners, n_samples, loss_name, variance, n_repeats, names):
    """Why ``candidate`` cannot be the one because its one-learner interval falls short for one of ``learners``
    at ``n_samples`` ("" when it does not)."""
    metric = _SHARES_INTERVAL.get(getattr(candidate.row, "id", None), {}).get(loss_name)
    if metric is None:
        return ""
    for name, learner in zip(names, learners, strict=True):
        found = cv_clt_shortfall(learner, n_samples, metric, variance, n_repeats)
        if found is not None:
            worst, regime = found
            return (f"its variance is that of the CV-CLT interval of one learner's {loss_words(loss_name)}, "
                    f"which covered its kfold target only {worst.worst:.3f} of the time in {worst.worst_cell} "
                    f"(below {coverage_floor():g}), among the cells that stand for {name} ({regime.describe()})")
    return ""


def short_interval_why(candidate, pair, names):
    """:func:`shortfall_why` for a pair's records ("" for a scheme the benchmark does not measure)."""
    if not measured_scheme(pair.a):
        return ""
    variance = "all-pairs" if int(pair.a.fold_sizes.min()) < 2 else "within-fold"
    return shortfall_why(candidate, pair_learners(pair), pair.a.n_samples,
                         pair.a.loss_name, variance, pair.a.n_repeats, names)


def unmeasured_or_calibrated(pair, candidates, common, caveats, limit, *, task, subject, measures, route=None,
                             order=UNMEASURED_ORDER, order_why=UNMEASURED_WHY):
    """The decision among ``candidates`` on the evidence's ``task`` rows; when none is measured, the stated order."""
    a = pair.a
    learners = pair_learners(pair)
    metric_name, confidence_level = common["metric"], common["confidence_level"]
    size = a.n_groups if sized_by_groups(task) else a.n_samples
    judged = [judge(candidate, learners, size, limit, task=task, repeats=a.n_repeats) for candidate in candidates]
    measured = any(j["evidence"].type_i is not None for j in judged)
    regime = next((j["evidence"].regime for j in judged if j["evidence"].regime is not None), None)
    if regime is not None:
        caveats = [*regime.caveats(), *caveats]
    if measured:
        judged = [dict(j, why=j["why"] or short_interval_why(j["candidate"], pair, common["names"]))
                  for j in judged]
        chosen = choose(judged)
        if chosen is None:
            reasons = "; ".join(f"{j['candidate'][0]}: {j['why']}" for j in judged)
            return Decision(answer="cannot tell", target=None, rests_on=None,
                            context=tuple(as_decision_test(j, "context", j["why"]) for j in judged),
                            reason=f"No test of these {subject} kept its type-I error at or below {limit:g} in "
                                   f"{evidence_source()} ({reasons}).",
                            route="" if route is None else route(pair, metric_name), caveats=tuple(caveats), **common)
        reason = (f"It rests on {chosen['candidate'].name}, whose type-I error the calibration benchmark measured at "
                  f"{chosen['evidence'].type_i:.3f} (at most {limit:g}) for {chosen['regime']}.")
    else:
        chosen = unmeasured_choice(judged, order)
        method = chosen["candidate"].row.id
        reason = (f"It rests on {chosen['candidate'].name}: the calibration benchmark has not yet measured any "
                  f"comparison of {subject}, so no test's type-I error is known here, and the order for unmeasured "
                  f"tests ({', '.join(map(display_label, order))}) puts it first: {order_why[method]}.")
        caveats.insert(0, f"Not calibrated: the type-I error of the {display_label(method)} on {metric_name} was "
                          f"not measured by the calibration benchmark (docs/calibration.md measures {measures}); read "
                          "the p-value as its method's own, not as a checked one.")
        if chosen["candidate"].row is method_row("corrected-t") and a.n_repeats < 10:
            caveats.append(f"The corrected t here has {a.n_repeats * a.n_splits} fold differences; Bouckaert & Frank "
                           "(2004) found it most replicable with 10 x 10-fold cross-validation (--repeats 10).")
    rests_on = as_decision_test(chosen, "rests on", "")
    unmeasured = f"not measured for {subject} either; {rests_on.name} comes first in the order for unmeasured tests"
    context = tuple(as_decision_test(j, "context", reason_not_chosen(j, chosen) if measured else unmeasured)
                    for j in judged if j is not chosen)
    return Decision(answer=answer_of(rests_on, 1 - confidence_level), target=rests_on.target, rests_on=rests_on,
                    context=context, reason=reason, route="", caveats=tuple(caveats), **common)
