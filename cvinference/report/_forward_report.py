"""The report of forward validation, built once as the other reports are: one learner's forecasts (``evaluate``) or
two learners' (``compare``), with the intervals, the naive forecast beside each and the results per horizon.

The report has the other reports' keys (``"estimators"``, ``"tests"``, ``"warnings"``, the ``"verdict"`` or the
``"decision"``) and one of its own, ``"forecasts"``: the origins, the window, the horizons and, per horizon, each
learner's mean loss with its interval, the naive forecast's and (two learners) the test of their difference.
:func:`~cvinference.report.render_text`, HTML and :func:`~cvinference.report.plot_report` draw it.
"""

import numpy as np

from .._utils._text import format_figure, format_level, format_pvalue, loss_words
from ..policy import HORIZON_TEST, assess_pair, assess_record
from ._report import (
    REPORT_FORMAT,
    REPORT_VERSION,
    _cautions,
    _number,
    decision_record,
    interval_record,
    test_record,
)

FORWARD_SCOPE = (
    "These numbers describe the learner refitted at each origin of this series (its forecasting method, with this "
    "window and these horizons): the expected loss of forecasts made the same way, if the series goes on behaving as "
    "it did over the evaluated stretch (stationary losses); a level shift or a trend breaks that "
    "(docs/forward-validation.md)."
)



def _scheme(result):
    """The forward scheme in words: the origins, the window and the horizons."""
    sizes = np.unique(result.train_size)
    size = f"{sizes[0]} rows" if sizes.size == 1 else f"{sizes[0]} to {sizes[-1]} rows"
    horizons = result.horizons
    steps = f"horizon {horizons[0]}" if horizons.size == 1 else f"horizons {horizons[0]} to {horizons[-1]}"
    window = {"expanding": "expanding", "sliding": "sliding", "other": "varying"}[result.window]
    return f"forward validation, {result.n_splits} origins, {window} window of {size}, {steps}"


def _baseline_name(season):
    return "naive" if season is None else f"seasonal naive (season {season})"


def _baseline_record(result, season, test, confidence_level):
    """The naive (or seasonal naive) forecast of the same rows from the same origins, its mean loss, the skill
    1 - loss / naive's and the one-sided Diebold-Mariano p-value of beating it (``test``, the assembler's)."""
    naive = result.baseline(season)
    return {"baseline": _baseline_name(season), "season": season, "baseline_loss": naive.mean_loss,
            "relative": _number(1 - result.mean_loss / naive.mean_loss) if naive.mean_loss > 0 else None,
            "pvalue": _number(test.pvalue), "beats": bool(test.pvalue < 1 - confidence_level),
            "test": f"one-sided {test.label}, every horizon"}


def _horizon_rows(result, season, horizons):
    """Per horizon: the forecasts, the mean loss with its recommended interval (``horizons``, the assembler's; None
    with too few forecasts) and the naive forecast's mean loss."""
    naive = result.baseline(season)
    rows = []
    for h, interval in horizons.items():
        at = result.horizon == h
        rows.append({"horizon": h, "n_forecasts": int(at.sum()), "mean_loss": float(result.loss[at].mean()),
                     "low": None if interval is None else interval.low,
                     "high": None if interval is None else interval.high,
                     "baseline_loss": float(naive.loss[at].mean())})
    return rows


def _estimator_record(result, description, season, confidence_level, assessment):
    intervals, checks = assessment
    return {
        "description": description, "accuracy": None, "n_correct": None, "n_tested": result.n_forecasts,
        "mean_loss": result.mean_loss, "loss": result.loss_name, "n_samples": result.n_samples,
        "n_splits": result.n_splits, "n_repeats": 1,
        "intervals": [interval_record(found.interval, found.name, found.quantity) for found in intervals],
        "conditions": None, "baseline": _baseline_record(result, season, checks.baseline, confidence_level),
        "horizons": _horizon_rows(result, season, checks.horizons),
    }


def _forecasts_record(result, season):
    """The report's ``"forecasts"``: the origins, the window, the training sizes, the horizons and the season."""
    return {"n_origins": result.n_splits, "first_origin": int(result.origin.min()),
            "last_origin": int(result.origin.max()), "window": result.window,
            "train_size": [int(result.train_size.min()), int(result.train_size.max())],
            "horizons": result.horizons.tolist(), "n_forecasts": result.n_forecasts, "season": season}


def _header(result, data, confidence_level, command, season):
    return {"format": REPORT_FORMAT, "version": REPORT_VERSION, "command": command,
            "data": {"name": None, "n_samples": result.n_samples} if data is None else data,
            "scheme": _scheme(result), "splitter": result.cv_repr, "confidence_level": confidence_level,
            "min_count": None, "forecasts": _forecasts_record(result, season)}


def _verdict(record, confidence_level):
    """The one-paragraph answer for one forecaster: its mean loss, the recommended interval, the naive forecast."""
    chosen = record["intervals"][0]
    words = loss_words(record["loss"])
    text = (f"{words.capitalize()} {format_figure(record['mean_loss'])} over {record['n_tested']} forecasts; with "
            f"{format_level(confidence_level)} confidence between {format_figure(chosen['low'])} and "
            f"{format_figure(chosen['high'])} ({chosen['method']} interval, which allows for the dependence of "
            "forecast errors over time).")
    baseline = record["baseline"]
    against = (f"the {baseline['baseline']} forecast: {words} {format_figure(baseline['baseline_loss'])}, "
               f"{format_pvalue(baseline['pvalue'])} ({baseline['test']})")
    text = (f"{text} Beats {against}." if baseline["beats"] else f"Does not beat {against}. {text}")
    return {"text": text, "caveats": [FORWARD_SCOPE]}


def forward_evaluation_report(result, *, description, data, confidence_level=0.95, season=None, assessment=None,
                              random_state=None):
    """The report of one learner's forward validation (``cvinference.evaluate`` and ``cvinference evaluate`` with
    a forward splitter).

    Parameters
    ----------
    result : ForwardResult
        The learner's forward record.
    description : str
        The learner as the report names it.
    data : dict or None
        ``{"name", "n_samples"}``, or None.
    confidence_level : float, default=0.95
        The level of every interval.
    season : int or None, default=None
        Makes the baseline the seasonal naive forecast of that period.
    assessment : RecordAssessment or None, default=None
        What the assembler computed from the record
        (:func:`~cvinference.policy.assess_record`: the intervals, the naive
        forecast's test, the results per horizon); None asks it now.
    random_state : int, RandomState or None, default=None
        Seeds the intervals' bootstrap then.
    """
    if assessment is None:
        assessment = assess_record(result, confidence_level, season=season, random_state=random_state)
    record = _estimator_record(result, description, season, confidence_level, assessment)
    return {**_header(result, data, confidence_level, "evaluate", season), "estimators": {"A": record},
            "tests": [], "diagnostic": None, "warnings": _cautions(record["intervals"], False),
            "verdict": _verdict(record, confidence_level)}


def _horizon_tests(pair, horizons):
    """Per horizon, the test the decision rests on (Diebold & Mariano's, pre-whitened; two-sided) on that horizon's
    forecasts (``horizons``, the assembler's; None with too few): with one horizon, the decision's own p-value."""
    rows = []
    for h, test in horizons.items():
        rows.append({"horizon": h, "n_forecasts": int((pair.a.horizon == h).sum()),
                     "estimate": float((pair.b.loss - pair.a.loss)[pair.a.horizon == h].mean()),
                     "pvalue": None if test is None else _number(test.pvalue),
                     "method": None if test is None else test.method,
                     "alternative": None if test is None else test.alternative})
    return rows


def forward_comparison_report(pair, *, descriptions, data, confidence_level=0.95, season=None, names=None,
                              assessment=None, random_state=None):
    """The report of two learners' forward validation (``cvinference.compare`` and ``cvinference compare`` with a
    forward splitter): each learner beside the naive forecast, the tests of their difference (over every forecast
    and per horizon) and the decision (:func:`~cvinference.decide`, which rests on Diebold & Mariano over every
    forecast).

    Parameters
    ----------
    pair : PairedForwardResult
        Both learners' forward records.
    descriptions : tuple of str
        The learners as the report names them, A's first.
    data, confidence_level, season
        As in :func:`forward_evaluation_report`.
    names : tuple of str or None, default=None
        The learners' names.
    assessment : PairAssessment or None, default=None
        What the assembler computed from ``pair``
        (:func:`~cvinference.policy.assess_pair`: the intervals, the tests
        and what was left out, the decision, the naive forecast's tests and
        the results per horizon); None asks it now.
    random_state
        As in :func:`forward_evaluation_report`.
    """
    if assessment is None:
        assessment = assess_pair(pair, confidence_level, names=names, season=season, random_state=random_state)
    estimators = {label: _estimator_record(result, description, season, confidence_level, learner)
                  for label, result, description, learner in zip(
                      "AB", (pair.a, pair.b), descriptions, zip(assessment.intervals, assessment.checks, strict=True),
                      strict=True)}
    records = [test_record(test, name, confidence_level) for name, test in assessment.tests]
    header = _header(pair.a, data, confidence_level, "compare", season)
    header["forecasts"].update(horizon_tests=_horizon_tests(pair, assessment.horizons), horizon_test=HORIZON_TEST)
    shown = [i for record in estimators.values() for i in record["intervals"]]
    return {**header, "estimators": estimators, "tests": records, "diagnostic": None,
            "warnings": _cautions(shown + records, False), "notes": [*assessment.notes, FORWARD_SCOPE],
            "decision": decision_record(assessment.decision)}
