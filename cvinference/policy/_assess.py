"""The assembler: what an evaluation or a comparison computes from its records, and what its decision reads.

Given a record (:class:`~cvinference.records.CVResult`,
:class:`~cvinference.records.ForwardResult`) or a pair of them and the
settings of the call (the level, the metrics, their positive class, the
large-sample conditions' ``min_count``, nested cross-validation's interval,
the tests that needed fits of their own, the names, the margin and the
question), it computes the intervals, the tests, the decision and the checks
beside them (each learner's baseline test, large-sample conditions, metrics'
fold values and forward results per horizon; a pair's scheme diagnostic) as
result objects, once: :func:`assess_record` for an evaluation,
:func:`assess_pair` for a comparison. The answers
(:class:`~cvinference.workflows.Evaluation`,
:class:`~cvinference.workflows.Comparison`) hold them and the report
(:mod:`cvinference.report`) only renders them. This is the policy's: which
intervals a learner's answer shows, which tests a comparison runs and which
of them the decision (:func:`~cvinference.decide`) may read are choices, not
formatting.
"""

from types import MappingProxyType
from typing import NamedTuple

from .._utils._text import METRIC_WORDS, loss_words
from .._utils._warnings import quietly
from ..inference import (
    accuracy_interval,
    corrected_resampled_ttest,
    large_sample_conditions,
    loss_difference_test,
    loss_interval,
    matched_sample_test,
    mean_baseline_test,
    metric_interval,
    no_information_test,
    regression_interval,
    scheme_diagnostic,
)
from ..inference._forecast import SMALL_SAMPLE_FORECASTS, forecast_interval, forecast_test
from ..inference._methods import display_label, method_row
from ..inference._metric_interval import SCORE_METRICS, metric_fold_values, takes_pos_label
from ..inference._regression import BASELINES
from ..records import ForwardResult, PairedForwardResult
from ..records._losses import LOSS_METRICS
from ._decision import cluster_paired_name, decide, pair_tests
from ._forward_decision import TEST as DECISION_TEST


def _is_classifier(result):
    return result.classes is not None


class NamedInterval(NamedTuple):
    """One interval of a learner's report: its row name, the quantity it is about and the :class:`Interval`.

    Attributes
    ----------
    name : str
        The row's name in the report.
    quantity : str
        What the interval is about: ``"accuracy"``, a loss's or a metric's name.
    interval : Interval
        The interval.
    """

    name: str
    quantity: str
    interval: object


def _accuracy_intervals(result, confidence_level, min_count):
    def interval(name, **options):
        found = quietly(accuracy_interval, result, confidence_level, min_count=min_count, **options)
        return NamedInterval(name, "accuracy", found)

    intervals = [interval("recommended (method='auto')"),
                 interval("dataset level, normal (Wong Theorem 1)", method="normal"),
                 interval("Wilson", method="wilson"),
                 interval("Clopper-Pearson (exact)", method="clopper-pearson")]
    if result.n_splits >= 2 and not result.is_loo:
        intervals.insert(2, interval("fold level, t (Wong 4.3.3)", averaging="fold", method="t"))
    return intervals


def _cluster_loss_intervals(result, confidence_level):
    """On a grouped record, the cluster-robust interval of its mean loss (the groups as the units); else none."""
    if result.groups is None:
        return []
    found = quietly(loss_interval, result, confidence_level, method="cluster")
    label = display_label(found.method, function="loss_interval")
    return [NamedInterval(f"{loss_words(result.loss_name)}, {label} (groups as units)", result.loss_name, found)]


def _cluster_regression_intervals(result, confidence_level):
    """On a grouped record, the intervals ``method="auto"`` gives (the groups as the units: the cluster-robust one
    or its half-sample form, as the calibration evidence says): of its loss's mean first, then of the other mean
    error and R²."""
    if result.groups is None:
        return []
    own = LOSS_METRICS[result.loss_name]
    other = "mean_absolute_error" if own == "mean_squared_error" else "mean_squared_error"
    records = []
    for metric in (own, other, "r2"):
        found = quietly(regression_interval, result, metric, confidence_level=confidence_level)
        label = display_label(found.method, function="regression_interval")
        records.append(NamedInterval(f"{METRIC_WORDS[metric]}, {label} (groups as units)",
                                     result.loss_name if metric == own else metric, found))
    return records


def _regression_intervals(result, confidence_level):
    """MSE, MAE and R² by Bayle et al.'s CV-CLT (leave-one-out: the all-pairs variance), after the cluster-robust
    intervals when the record is grouped."""
    variance = "all-pairs" if int(result.fold_sizes.min()) < 2 else "within-fold"
    return _cluster_regression_intervals(result, confidence_level) + [
        NamedInterval(f"{METRIC_WORDS[metric]}, CV-CLT (Bayle et al.)", metric,
                      quietly(regression_interval, result, metric, confidence_level=confidence_level,
                              variance=variance, method="cv-clt"))
        for metric in ("mean_squared_error", "mean_absolute_error", "r2")]


def _positive(metric, pos_label):
    """``pos_label`` for a metric about one positive class (``"f1"``), None for any other."""
    return pos_label if takes_pos_label(metric) else None


def _metric_intervals(result, confidence_level, metrics, pos_label):
    """Each metric's fold-level interval (t, or the corrected t of a score metric); the AUC's DeLong one too."""
    records = []
    for metric in metrics:
        found = quietly(metric_interval, result, metric, confidence_level=confidence_level,
                        pos_label=_positive(metric, pos_label))
        label = display_label(found.method, function="metric_interval")
        records.append(NamedInterval(f"{metric}, fold level {label}", metric, found))
        if isinstance(metric, str) and SCORE_METRICS.get(metric) == "roc_auc":
            records.append(NamedInterval(f"{metric}, DeLong pooled (repeat 0)", metric,
                                         quietly(metric_interval, result, metric, confidence_level=confidence_level,
                                                 method="delong")))
    return records


def estimator_intervals(result, confidence_level=0.95, *, metrics=(), min_count=5, pos_label=None):
    """Every interval the report shows for one learner's record, as :class:`NamedInterval` s, in its order.

    Parameters
    ----------
    result : CVResult
        The learner's record.
    confidence_level : float, default=0.95
        The level of every interval.
    metrics : sequence of str, default=()
        Metrics beyond accuracy and the loss, each with its interval.
    min_count : int, default=5
        The smallest count the large-sample conditions accept.
    pos_label : int, str or None, default=None
        The positive class of the metrics about one class, as
        :func:`~cvinference.metric_interval` takes it.
    """
    metric_intervals = _metric_intervals(result, confidence_level, metrics, pos_label)
    if not _is_classifier(result) and result.loss_name in BASELINES:
        return _regression_intervals(result, confidence_level) + metric_intervals
    intervals = _accuracy_intervals(result, confidence_level, min_count) if _is_classifier(result) else []
    if result.loss_name != "zero_one":
        intervals.append(NamedInterval(f"mean {result.loss_name}, half-sample (Nedel'ko)", result.loss_name,
                                       quietly(loss_interval, result, confidence_level, method="half-sample")))
        intervals += _cluster_loss_intervals(result, confidence_level)
    return intervals + metric_intervals


def comparison_tests(pair, *, extra_tests=(), min_count=5):
    """The (name, TestResult) pairs a comparison's report shows: :func:`pair_tests` and ``extra_tests`` (5x2cv) for
    classifiers, the loss tests for regressors.

    Parameters
    ----------
    pair : PairedCVResult
        Both learners' records.
    extra_tests : sequence of (str, TestResult), default=()
        Tests that needed fits of their own (5x2cv), shown after the others.
    min_count : int, default=5
        The smallest count the large-sample conditions accept.
    """
    if _is_classifier(pair.a):
        return [*pair_tests(pair, min_count=min_count), *extra_tests]
    return _loss_tests(pair)


def comparison_decision(pair, tests, *, confidence_level=0.95, metrics=(), nested=None, names=None, pos_label=None,
                        margin=None, question=None):
    """:func:`~cvinference.decide` on the first of ``metrics`` (or accuracy), as the comparison's report makes it.

    Parameters
    ----------
    pair : PairedCVResult
        Both learners' records.
    tests : list of (str, TestResult)
        :func:`comparison_tests` of ``pair``; the decision reads them for
        accuracy.
    confidence_level, metrics
        As in :func:`estimator_intervals`; the decision is about the first
        of ``metrics``, or accuracy.
    nested : Interval or None, default=None
        Nested cross-validation's interval of the difference, when run.
    names : tuple of str or None, default=None
        The learners' names.
    pos_label
        As in :func:`estimator_intervals`.
    margin, question
        As in :func:`~cvinference.decide` (the decision is about ``margin``
        when one is given).
    """
    metric = metrics[0] if metrics else "accuracy"
    # the tests of accuracy, which another metric and one evaluation set (its own test) do not read
    read = (metric == "accuracy" or pair.a.classes is None) and pair.a.n_splits > 1
    return decide(pair, metric=metric, confidence_level=confidence_level, tests=tests if read else None,
                  nested=nested, names=names, pos_label=_positive(metric, pos_label), margin=margin,
                  question=question)


def _loss_tests(pair):
    """The tests of two regressors' mean losses: the corrected t (k-fold) and the CV-CLT on instance differences."""
    a = pair.a
    tests = []
    if a.n_splits >= 2 and not a.is_loo:
        tests.append((f"corrected t ({a.n_repeats}x{a.n_splits}-fold)", quietly(corrected_resampled_ttest, pair)))
    variance = "all-pairs" if int(a.fold_sizes.min()) < 2 else "within-fold"
    tests.append(("CV-CLT (instance differences)", quietly(loss_difference_test, pair, variance=variance)))
    if a.groups is not None:
        tests.append((cluster_paired_name(a), quietly(matched_sample_test, pair, method="cluster-paired-t")))
    return tests


FORECAST_INTERVALS = (
    ("prewhitened-hac", "prewhitened-hac", " (recommended)"),
    ("hac", "hac", ""),
    ("block-bootstrap", "block-bootstrap", ""),
    ("stationary-bootstrap", "stationary-bootstrap", ""),
    ("iid", "iid", " (ignores time order; for contrast)"),
)
"""The rows of a forecaster's intervals of its mean loss: (the method table's row, ``forecast_interval``'s method,
what the report adds to the row's label), the one to quote first."""

RECOMMENDED = FORECAST_INTERVALS[0][1]
"""The interval the verdict quotes and the per-horizon rows show: the one the forward calibration measured holding."""

def forecast_intervals(result, confidence_level=0.95, *, random_state=None):
    """Every interval of a forward record's mean loss the report shows, as :class:`NamedInterval` s, the recommended
    one first.

    Parameters
    ----------
    result : ForwardResult
        The learner's forward record.
    confidence_level : float, default=0.95
        The level of every interval.
    random_state : int, RandomState or None, default=None
        Seeds the block bootstrap.
    """
    return [NamedInterval(method_row(row).label + words, result.loss_name,
                          quietly(forecast_interval, result, confidence_level=confidence_level, method=method,
                                  random_state=random_state))
            for row, method, words in FORECAST_INTERVALS]


def forecast_tests(pair):
    """The tests of two learners' forecasts and what was left out: ``(tests, notes)``.

    ``tests`` are the (name, LossDifferenceTestResult) pairs of Diebold &
    Mariano over every forecast, pre-whitened (what the decision rests on,
    under the same name) and with Bartlett's window at a fixed lag, and
    Giacomini & White's conditional test at the shortest horizon, left out
    with a note where that horizon has too few forecasts for it.

    Parameters
    ----------
    pair : PairedForwardResult
        Both learners' forward records.
    """
    shortest = int(pair.a.horizons[0])
    chosen = method_row(DECISION_TEST)
    tests = [(chosen.label, quietly(forecast_test, pair, method=chosen.id)),
             (method_row("diebold-mariano").label, quietly(forecast_test, pair))]
    try:
        tests.append((f"{method_row('giacomini-white').label} (horizon {shortest})",
                      quietly(forecast_test, pair, method="giacomini-white", horizon=shortest)))
    except ValueError as exc:  # too few forecasts at that horizon, as the test says
        return tests, [f"Giacomini & White's test was not run: {exc}"]
    return tests, []


def record_intervals(result, confidence_level=0.95, *, metrics=(), min_count=5, pos_label=None, random_state=None):
    """Every interval one learner's answer shows, as :class:`NamedInterval` s in the report's order: the
    recommended one first (:func:`forecast_intervals` of a forward record, else :func:`estimator_intervals`).

    Parameters
    ----------
    result : CVResult or ForwardResult
        The learner's record.
    confidence_level, metrics, min_count, pos_label
        As in :func:`estimator_intervals` (a forward record reads only the level).
    random_state : int, RandomState or None, default=None
        Seeds a forward record's block bootstrap.
    """
    if isinstance(result, ForwardResult):
        return forecast_intervals(result, confidence_level, random_state=random_state)
    return estimator_intervals(result, confidence_level, metrics=metrics, min_count=min_count, pos_label=pos_label)


class RecordChecks(NamedTuple):
    """What a learner's answer shows beside its intervals, computed once by the assembler (the report reads them).

    Attributes
    ----------
    baseline : TestResult or None
        The test that the learner beats its trivial baseline
        (:func:`baseline_test`; a forward record's :func:`forecast_baseline_test`);
        None where it has none.
    conditions : LargeSampleConditions or None
        A classifier's large-sample conditions (Wong 2015) per repeat and
        fold, else None.
    fold_metrics : mapping of str to ndarray
        Each metric asked for, by its name: its value on every fold of every
        repeat, (n_repeats, n_splits).
    horizons : mapping of int to Interval or None, or None
        A forward record's :func:`horizon_results`; None for
        cross-validation.
    """

    baseline: object
    conditions: object
    fold_metrics: object
    horizons: object


def record_checks(result, confidence_level=0.95, *, metrics=(), min_count=5, pos_label=None, season=None):
    """The baseline test, the large-sample conditions, the metrics' fold values and (forward validation) the results
    per horizon of one learner's record: its :class:`RecordChecks`.

    Parameters
    ----------
    result : CVResult or ForwardResult
        The learner's record.
    confidence_level, metrics, min_count, pos_label
        As in :func:`estimator_intervals`.
    season : int or None, default=None
        A forward record's seasonal naive baseline, None for the naive one.

    Returns
    -------
    RecordChecks
    """
    if isinstance(result, ForwardResult):
        return RecordChecks(forecast_baseline_test(result, season), None, MappingProxyType({}),
                            MappingProxyType(horizon_results(result, confidence_level)))
    classifier = _is_classifier(result)
    values = dict(quietly(metric_fold_values, result, metric, _positive(metric, pos_label)) for metric in metrics)
    return RecordChecks(baseline_test(result), large_sample_conditions(result, min_count) if classifier else None,
                        MappingProxyType(values), None)


class RecordAssessment(NamedTuple):
    """What an evaluation computes from its record: the intervals and the checks beside them.

    Attributes
    ----------
    intervals : list of NamedInterval
        :func:`record_intervals` of the record.
    checks : RecordChecks
        :func:`record_checks` of the record.
    """

    intervals: list
    checks: RecordChecks


def assess_record(result, confidence_level=0.95, *, metrics=(), min_count=5, pos_label=None, season=None,
                  random_state=None):
    """The one assembler of an evaluation: what it computes from a learner's record once the fits are done.

    Parameters
    ----------
    result : CVResult or ForwardResult
        The learner's record.
    confidence_level, metrics, min_count, pos_label
        As in :func:`estimator_intervals`.
    season
        As in :func:`record_checks`.
    random_state : int, RandomState or None, default=None
        Seeds a forward record's block bootstrap.

    Returns
    -------
    RecordAssessment
    """
    intervals = record_intervals(result, confidence_level, metrics=metrics, min_count=min_count, pos_label=pos_label,
                                 random_state=random_state)
    return RecordAssessment(intervals, record_checks(result, confidence_level, metrics=metrics, min_count=min_count,
                                                     pos_label=pos_label, season=season))


class PairAssessment(NamedTuple):
    """What a comparison computes from its pair: each learner's intervals, the tests, the decision, the notes and
    the checks.

    Attributes
    ----------
    intervals : tuple of list of NamedInterval
        A's and B's :func:`record_intervals`.
    tests : list of (str, TestResult)
        Every test of the difference, by its row's name.
    decision : Decision
        :func:`~cvinference.decide`'s answer on the first metric.
    notes : list of str
        What was left out, and why (a forward pair's Giacomini & White
        test with too few forecasts).
    checks : tuple of RecordChecks
        A's and B's :func:`record_checks`.
    diagnostic : SchemeDiagnostic or None
        Two classifiers' scheme independence (the phi correlation of their
        correctness, repeat 0), else None.
    horizons : mapping of int to LossDifferenceTestResult or None, or None
        A forward pair's :func:`horizon_results` (the difference's test per
        horizon); None for cross-validation.
    """

    intervals: tuple
    tests: list
    decision: object
    notes: list
    checks: tuple
    diagnostic: object
    horizons: object


def assess_pair(pair, confidence_level=0.95, *, metrics=(), min_count=5, pos_label=None, extra_tests=(), tests=None,
                nested=None, names=None, margin=None, question=None, random_state=None, season=None):
    """The one assembler of a comparison: what it computes from a pair once the fits are done.

    Parameters
    ----------
    pair : PairedCVResult or PairedForwardResult
        Both learners' records.
    confidence_level, metrics, min_count, pos_label
        As in :func:`estimator_intervals`; the decision is about the first
        of ``metrics``, or accuracy (a regressor's loss).
    extra_tests : sequence of (str, TestResult), default=()
        Tests that needed fits of their own (5x2cv), after the others.
    tests : list of (str, TestResult) or None, default=None
        :func:`comparison_tests` of ``pair`` when already computed.
    nested : Interval or None, default=None
        Nested cross-validation's interval of the difference, when run.
    names, margin, question
        As in :func:`~cvinference.decide`.
    random_state : int, RandomState or None, default=None
        Seeds a forward pair's block bootstrap.
    season
        As in :func:`record_checks`.

    Returns
    -------
    PairAssessment
    """
    learners = [assess_record(result, confidence_level, metrics=metrics, min_count=min_count, pos_label=pos_label,
                              season=season, random_state=random_state) for result in (pair.a, pair.b)]
    intervals, checks = tuple(found.intervals for found in learners), tuple(found.checks for found in learners)
    if isinstance(pair, PairedForwardResult):
        found, notes = forecast_tests(pair)
        decision = decide(pair, metric=metrics[0] if metrics else "accuracy", confidence_level=confidence_level,
                          names=names, margin=margin, question=question)
        return PairAssessment(intervals, found, decision, notes, checks, None,
                              MappingProxyType(horizon_results(pair, confidence_level)))
    if tests is None:
        tests = comparison_tests(pair, extra_tests=extra_tests, min_count=min_count)
    decision = comparison_decision(pair, tests, confidence_level=confidence_level, metrics=metrics, nested=nested,
                                   names=names, pos_label=pos_label, margin=margin, question=question)
    diagnostic = None
    if _is_classifier(pair.a):
        diagnostic = quietly(scheme_diagnostic, pair.a, pair.b, repeat=0 if pair.a.n_repeats > 1 else None)
    return PairAssessment(intervals, tests, decision, [], checks, diagnostic, None)


HORIZON_TEST = f"p: the decision's test, pre-whitened Diebold-Mariano (at least HLN's below {SMALL_SAMPLE_FORECASTS})"
"""What :func:`horizon_results` of a pair gives, as the report's per-horizon table titles its p-values: the test the
decision rests on, at one horizon, whose standard error on fewer than 50 forecasts is at least Harvey, Leybourne &
Newbold's (``forecast_test``'s small-sample rule; each test's ``method`` names the one taken)."""

MIN_HORIZON_FORECASTS = 3
"""The fewest forecasts of one horizon whose interval and test the per-horizon results give (as ``forecast_interval``
needs)."""


def horizon_results(subject, confidence_level=0.95):
    """Per horizon of a forward record or pair: the recommended interval of a learner's mean loss
    (:data:`RECOMMENDED`), or the test the decision rests on (pre-whitened Diebold & Mariano, two-sided) of a
    pair's difference, on that horizon's forecasts.

    Parameters
    ----------
    subject : ForwardResult or PairedForwardResult
        One learner's forward record, or both learners'.
    confidence_level : float, default=0.95
        The level of the intervals.

    Returns
    -------
    dict of int to Interval, LossDifferenceTestResult or None
        By horizon, in order; None where the horizon has fewer than
        :data:`MIN_HORIZON_FORECASTS` forecasts.
    """
    record = subject.a if isinstance(subject, PairedForwardResult) else subject
    found = {}
    for h in record.horizons.tolist():
        if int((record.horizon == h).sum()) < MIN_HORIZON_FORECASTS:
            found[h] = None
        elif record is subject:
            found[h] = quietly(forecast_interval, subject, confidence_level=confidence_level, method=RECOMMENDED,
                               horizon=h)
        else:
            found[h] = quietly(forecast_test, subject, method=DECISION_TEST, horizon=h)
    return found


def baseline_test(result):
    """The test that a learner's record beats its trivial baseline: the no-information rate for a classifier (the
    exact binomial, or on a grouped record the cluster-robust t), the training mean's (median's) loss for a
    regressor (the CV-CLT, or the cluster-robust t); None where a regressor's has none (a loss without a trivial
    regressor, a holdout or one evaluation set).

    Parameters
    ----------
    result : CVResult
        The learner's record.

    Returns
    -------
    NoInformationTestResult, TestResult or None
    """
    if _is_classifier(result):
        return quietly(no_information_test, result)
    if result.loss_name not in BASELINES or result.n_train is not None or result.n_splits < 2:
        return None
    variance = "all-pairs" if int(result.fold_sizes.min()) < 2 else "within-fold"
    return quietly(mean_baseline_test, result, variance=variance)


def forecast_baseline_test(result, season=None):
    """The one-sided test (the decision's, pre-whitened Diebold & Mariano, over every horizon) that a forward
    record's forecasts beat the naive forecast (``season``: the seasonal naive one) from the same origins.

    Parameters
    ----------
    result : ForwardResult
        The learner's forward record.
    season : int or None, default=None
        The seasonal naive forecast's period; None is the naive forecast.

    Returns
    -------
    LossDifferenceTestResult
    """
    return quietly(forecast_test, result, result.baseline(season), method=DECISION_TEST,
                   alternative="greater")
