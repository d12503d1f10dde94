"""Planning an evaluation of one learner before its fits: its folds, repeats and fits, and the half-width its
recommended interval is expected to have (:func:`cvinference.plan` with one learner, ``Evaluation.plan``).

The half-width is read from the calibration benchmark's cells for the learner (the widths of ``method="auto"``'s
interval there, the one an evaluation recommends) or from a pilot record's recommended interval, and carried to the
planned N as N^(-1/2) and to the planned level by the normal quantiles.
"""

import math

from sklearn.base import is_regressor

from .._utils._describe import estimator_description, estimator_type
from .._utils._validation import check_estimator_methods
from ..inference._distributions import reference_quantile
from ..inference._metric_names import check_metric_names
from ..inference._regression import loss_words
from ..records import CVResult
from ._budget import budget_fits, check_budget, cv_fits
from ._design import planned_folds
from ._evidence import learner_of, read_evidence
from ._routes import CROSS_VALIDATION

PILOT_UNITS = "the pilot's recommended interval"
"""What a pilot-based half-width rests on."""


def evaluates(estimator_a, estimator_b, pilot):
    """Whether a call of :func:`~cvinference.plan` plans an evaluation: one learner, or a pilot of one."""
    return estimator_b is None and (estimator_a is not None or isinstance(pilot, CVResult))


def _refuse_comparison_settings(settings):
    """Refuse, naming the fix, what only a comparison of two learners takes."""
    for name, value in settings.items():
        if value is not None:
            raise ValueError(f"{name}={value!r} plans a comparison of two learners, and the plan has one (an "
                             f"evaluation, whose figure is its interval's half-width); pass estimator_b, or drop "
                             f"{name}.")


def pilot_groups(record, n_samples, groups):
    """The groups planned: ``groups``, or a grouped pilot ``record``'s own when neither they nor N are given; a pilot
    and a plan of which one counts groups and the other instances are refused."""
    grouped_pilot = record is not None and record.groups is not None
    if grouped_pilot and groups is None and n_samples is None:
        return record.groups
    if grouped_pilot and groups is None:
        raise ValueError(f"pilot: its records were made with {record.n_groups} groups, whose variance counts groups, "
                         f"and the plan at n_samples={n_samples} has none; pass groups= of the comparison planned, or "
                         "leave n_samples out to plan the pilot's own groups.")
    if record is not None and not grouped_pilot and groups is not None:
        raise ValueError("groups: the pilot was made without groups, and its variance counts instances, not groups; "
                         "pass a pilot made with groups (CVEvaluator(cv=K).compare(a, b, X, y, groups)), or no pilot.")
    return groups


def _check_evaluation(estimator, pilot, n_samples, cv):
    """The N, ``cv`` and task of an evaluation's plan, refusing what it cannot read before anything is computed."""
    if pilot is not None and estimator is not None:
        raise TypeError("plan takes the learner or a pilot= record of it, not both: the pilot's record names its "
                        "learner. Drop estimator_a, or the pilot.")
    if estimator is not None:
        check_estimator_methods(estimator, "estimator_a")
    if n_samples is None and pilot is None:
        raise TypeError("n_samples is needed without a pilot: the N of the evaluation planned.")
    n_samples = pilot.n_samples if n_samples is None else n_samples
    cv = cv if cv is not None else pilot.n_splits if pilot is not None else 10
    regression = is_regressor(estimator) if pilot is None else pilot.classes is None
    return int(n_samples), cv, regression


def _level_scale(confidence_level, nominal):
    """The ratio of the normal quantiles of two two-sided levels: how an interval's width scales between them."""
    return reference_quantile(0.5 + confidence_level / 2, None) / reference_quantile(0.5 + nominal / 2, None)


def _calibration_half_width(learner_type, units, confidence_level):
    """The half-widths of ``method="auto"``'s interval in the calibration's cells for the learner at about ``units``
    instances, carried to them, and the cells in words (no widths: an empty list and why)."""
    reading = read_evidence("auto", (learner_of(learner_type),), units, quantity="coverage", target="kfold")
    cells = [row for row in reading.cells if row.get("mean_width") is not None]
    if not cells:
        return [], f"the calibration benchmark measured no interval's width for {reading.where}"
    halves = [row["mean_width"] / 2 * math.sqrt(row["n"] / units) * _level_scale(confidence_level, row["nominal"])
              for row in cells]
    populations = sorted({row["population"] for row in cells})
    return halves, (f"the calibration benchmark's cells for {reading.where} ({', '.join(populations)}): the widths of "
                    f"method='auto''s interval there, carried to N = {units} as N^(-1/2); their population's "
                    "accuracy, not your data's (a pilot record gives your data's)")


def _pilot_half_width(pilot, units, confidence_level):
    """The pilot's recommended interval's half-width carried to ``units`` (in the pilot's units: groups or
    instances), its quantity, and the words."""
    from ._assess import record_intervals  # the assembler's recommended interval, which an evaluation shows first

    first = record_intervals(pilot, confidence_level)[0]
    own = pilot.n_samples if pilot.groups is None else pilot.n_groups
    half = (first.interval.high - first.interval.low) / 2 * math.sqrt(own / units)
    return half, first.quantity, (f"{PILOT_UNITS} ({first.interval.method}, {first.quantity}, at "
                                  f"{'N' if pilot.groups is None else 'G'} = {own}), carried to "
                                  f"{'N' if pilot.groups is None else 'G'} = {units} as its inverse square root")


def _figure(estimator, pilot, folds, n_samples, regression, loss, confidence_level):
    """The half-width, its range, its quantity, where it comes from and the words."""
    units = n_samples if folds.n_groups is None else folds.n_groups
    if pilot is not None:
        half, quantity, words = _pilot_half_width(pilot, units, confidence_level)
        return half, half, half, quantity, "pilot", words
    quantity = loss_words(loss or "squared_error") if regression else "accuracy"
    if regression:
        return None, None, None, quantity, "none", (
            "a regressor's loss is on your data's scale, which no calibration cell carries: cvi.plan(pilot=...) "
            "reads it from a record of the learner on some of the data")
    if folds.n_groups is not None:
        return None, None, None, quantity, "none", (
            "the calibration measured method='auto''s widths on ungrouped records only, and a grouped evaluation "
            "recommends an interval whose units are the groups: a pilot record made with groups gives its width")
    halves, words = _calibration_half_width(estimator_type(estimator), n_samples, confidence_level)
    if not halves:
        return None, None, None, quantity, "none", words
    return max(halves), min(halves), max(halves), quantity, "calibration", words


def evaluation_fields(estimator, n_samples, folds, *, n_repeats=1, regression=False, loss=None, budget=None,
                      confidence_level=0.95, name=None, pilot=None):
    """The fields of the :class:`~cvinference.policy._plan.Plan` of an evaluation of ``estimator`` (or of the
    learner of the ``pilot`` record) at ``n_samples`` on ``folds`` (:func:`~cvinference.policy._design.planned_folds`)
    repeated ``n_repeats`` times ("auto": 1, since one learner's intervals count the N instances once however many
    repeats pool); refuses a budget below its fits before any fit."""
    n_repeats = 1 if n_repeats == "auto" else n_repeats
    fits = cv_fits(1, folds.n_splits, n_repeats)
    check_budget(budget, budget_fits(budget, 1), fits, "the cross-validation")
    half, low, high, quantity, source, words = _figure(estimator, pilot, folds, n_samples, regression, loss,
                                                        confidence_level)
    if name is None:
        name = estimator_description(estimator) if pilot is None else (
            getattr(pilot, "name", None) or pilot.estimator_repr or "the learner")
    return dict(names=(name,), metric=quantity, question=None, n_samples=int(n_samples), n_splits=folds.n_splits,
                n_repeats=n_repeats, fits=fits, stages=((f"{CROSS_VALIDATION} ({n_repeats} x {folds.n_splits}-fold)",
                                                          fits),), most_fits=fits, test=None,
                confidence_level=confidence_level, power=None, standard_error=None, df=None, detectable=None,
                half_width=half, low=low, high=high, wanted=None, n_samples_needed=None, n_repeats_needed=None,
                source=source, rests_on=words, notes=())


def plan_evaluation(estimator, *, n_samples, pilot, cv, n_repeats, groups, loss, budget, confidence_level, name,
                    comparison_settings, metric=None):
    """:func:`~cvinference.plan` with one learner: its inputs checked, its folds resolved, its plan's fields
    (``metric``, as :func:`~cvinference.evaluate` takes it, adds fold-level intervals and leaves the recommended one
    as it is)."""
    _refuse_comparison_settings(comparison_settings)
    if pilot is not None and not isinstance(pilot, CVResult):
        raise TypeError(f"pilot must be a CVResult for one learner's plan, as CVEvaluator(cv=K).evaluate(estimator, X, "
                        f"y) makes; got {type(pilot).__name__}.")
    groups = pilot_groups(pilot, n_samples, groups)
    if groups is not None and n_samples is None:
        n_samples = len(groups)
    n_samples, cv, regression = _check_evaluation(estimator, pilot, n_samples, cv)
    metrics = [] if metric is None else list(metric) if isinstance(metric, (list, tuple)) else [metric]
    check_metric_names(metrics, regression, "the learner")
    folds = planned_folds(cv, n_samples, groups=groups, n_repeats=n_repeats, regression=regression)
    return evaluation_fields(estimator, n_samples, folds, n_repeats=n_repeats, regression=regression, loss=loss,
                           budget=budget, confidence_level=confidence_level, name=name, pilot=pilot)
