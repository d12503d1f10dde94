"""Fold-level intervals for set-level metrics such as F1."""

import dataclasses
import numbers
import warnings
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import f1_score, get_scorer, get_scorer_names, jaccard_score, precision_score, recall_score

from .._utils._docstring import fill_doc
from .._utils._params import PROBABILITY, ClassLabel, Nullable, Options, validate_params
from .._utils._upward import upward
from .._utils._warnings import Messages
from ..records._losses import SKLEARN_CLIP, make_log_loss
from ._accuracy_interval import estimate_interval, fold_mean_estimate
from ._clusters import with_grouped_warning
from ._delong import delong_interval
from ._estimands import training_size_phrase
from ._inputs import about_one_record, check_cv_result
from ._make_metric import UNNAMED, Metric, function_name
from ._methods import display_label, options
from ._parameters import REPEAT
from ._repeats import pooled_repeats_warning, rows_of, select_repeats
from ._score_metrics import corrected_fold_interval, fold_metric_table


class _ClassifierPredictions(ClassifierMixin, BaseEstimator):
    """Stands in for a fitted classifier whose predictions are already known.

    sklearn's scorers ask an estimator for ``predict(X)``; this one answers
    with the stored out-of-fold predictions of one fold, so any scorer that
    needs only predicted labels works on a CVResult.
    """

    def __init__(self, y_pred=None, classes=None):
        self.y_pred = y_pred
        self.classes = classes

    @property
    def classes_(self):
        return self.classes

    def predict(self, X):
        return self.y_pred


class _RegressorPredictions(RegressorMixin, BaseEstimator):
    """The regression counterpart of :class:`_ClassifierPredictions`."""

    def __init__(self, y_pred=None):
        self.y_pred = y_pred

    def predict(self, X):
        return self.y_pred


_RANGES = {name: (0.0, 1.0) for name in (
    "accuracy", "balanced_accuracy", "top_k_accuracy", "f1", "precision", "recall", "jaccard", "roc_auc",
    "average_precision", "rand_score", "fowlkes_mallows_score", "homogeneity_score", "completeness_score",
    "v_measure_score", "normalized_mutual_info_score")}
_RANGES.update(matthews_corrcoef=(-1.0, 1.0), adjusted_rand_score=(-0.5, 1.0), adjusted_mutual_info_score=(None, 1.0),
               mutual_info_score=(0.0, None), positive_likelihood_ratio=(0.0, None))
_RANGES.update(dict.fromkeys(
    ("r2", "explained_variance", "d2_absolute_error_score", "d2_brier_score", "d2_log_loss_score"), (None, 1.0)))
"""The possible (lowest, highest) value of bounded scorers, None for no bound, as sklearn's documentation of each
metric gives it (adjusted_rand_score: "bounded below by -0.5"); their averaged forms (_macro, _ovr, ...) share it.
An interval is clipped to it, with a warning."""

_AVERAGES = ("_macro", "_micro", "_weighted", "_samples", "_ovr", "_ovo")

_POSITIVE_CLASS = {"f1": f1_score, "precision": precision_score, "recall": recall_score, "jaccard": jaccard_score}
"""sklearn's binary scorers about one positive class (``average="binary"``), which take ``pos_label``."""


def takes_pos_label(metric):
    """Whether ``metric`` is a scorer name about one positive class, which takes ``pos_label``."""
    return isinstance(metric, str) and metric in _POSITIVE_CLASS


def _range_of(name):
    """The possible (lowest, highest) value of scorer ``name``; None where it is unknown.

    Examples
    --------
    >>> _range_of("f1_macro"), _range_of("roc_auc_ovr_weighted"), _range_of("r2"), _range_of("neg_log_loss")
    ((0.0, 1.0), (0.0, 1.0), (None, 1.0), (None, 0.0))
    """
    if is_negated(name):
        return (None, 0.0)  # a negated error or loss is never above 0
    while name not in _RANGES and name.endswith(_AVERAGES):
        name = name.rsplit("_", 1)[0]
    return _RANGES.get(name)


def is_negated(name):
    """Whether scorer ``name`` is scikit-learn's negation of an error or a loss (its ``neg_`` names)."""
    return name.startswith("neg_")


def _scorer_works(name, predictions, y_true):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            get_scorer(name)(predictions, None, y_true)
        except Exception:  # noqa: BLE001 - any failure means "not on these predictions"
            return False
    return True


def _names_computable_from_predictions(classification):
    """The scorer names that work on predictions alone, tried on tiny examples.

    For classification: those that work on 0/1 labels but not on a
    continuous target (which leaves out r2, neg_mean_squared_error, ...).
    """
    labels, predicted = np.array([0, 1, 0, 1, 1]), np.array([0, 1, 1, 1, 0])
    continuous, estimate = labels + np.array([0.5, 1.7, 0.2, 1.1, 2.3]), predicted + 0.25
    names = sorted(get_scorer_names())
    on_continuous = {name for name in names if _scorer_works(name, _RegressorPredictions(estimate), continuous)}
    if not classification:  # a clustering score also runs on numbers, which it would take for cluster labels
        return sorted(name for name in on_continuous if _is_regression_scorer(get_scorer(name)))
    on_labels = _ClassifierPredictions(predicted, np.array([0, 1]))
    return [name for name in names if name not in on_continuous and _scorer_works(name, on_labels, labels)]


def _is_regression_scorer(scorer):
    """Whether a scorer computes one of sklearn's regression metrics (r2, mean squared error, ...)."""
    score_function = getattr(scorer, "_score_func", None)
    return getattr(score_function, "__module__", "").startswith("sklearn.metrics._regression")


def _check_suits_task(metric, scorer, result):
    """Refuse a regression scorer on a record of class labels, whose codes it would score as numbers, and any
    other scorer on a regression record (a clustering score would take the predicted quantities for labels)."""
    if result.classes is None and not _is_regression_scorer(scorer):
        raise ValueError(
            f"metric={metric!r} is not a regression metric, and result is a regression record (loss_name="
            f"{result.loss_name!r}): it would take the predicted quantities for labels. Use one of "
            f"{', '.join(_names_computable_from_predictions(False))}, or a callable (y_true, y_pred) -> float."
        )
    if result.classes is not None and _is_regression_scorer(scorer):
        raise ValueError(
            f"metric={metric!r} is a regression metric, and result is a classification record (loss_name="
            f"{result.loss_name!r}, classes {np.asarray(result.classes).tolist()}): it would score the class "
            "labels' codes as numbers. Use a classification metric such as 'accuracy', 'balanced_accuracy' or "
            "'f1_macro', or a callable (y_true, y_pred) -> float."
        )


def _averaging_needed(metric, result):
    """The error for a binary-only scorer (``"f1"``) on more than two classes, where sklearn names ``average``."""
    return ValueError(
        f"metric={metric!r} is defined for two classes, and result has {len(result.classes)} classes "
        f"({np.asarray(result.classes).tolist()}); pass an averaged scorer's name, such as "
        f"metric='{metric}_macro' or metric='{metric}_weighted', or a callable (y_true, y_pred) -> float."
    )


def score_methods(name):
    """What sklearn's scorer ``name`` scores, as a ``response_method``: None for labels, else a tuple of methods.

    ``("predict_proba",)`` for a metric of probabilities (``"neg_log_loss"``),
    ``("predict_proba", "decision_function")`` for one of any scores that
    rank (``"roc_auc"``), in the order ``response_method="auto"`` tries them.

    Examples
    --------
    >>> score_methods("roc_auc"), score_methods("neg_log_loss"), score_methods("f1")
    (('predict_proba', 'decision_function'), ('predict_proba',), None)
    """
    scorer = get_scorer(name)
    response = getattr(scorer, "_response_method", None)
    if response is None:  # scikit-learn 1.3: the scorer's class says it
        response = {"_ProbaScorer": "predict_proba",
                    "_ThresholdScorer": ("decision_function", "predict_proba")}.get(type(scorer).__name__, "predict")
    response = (response,) if isinstance(response, str) else tuple(response)
    methods = tuple(method for method in ("predict_proba", "decision_function") if method in response)
    return methods or None


def needs_scores(name):
    """Whether sklearn's scorer ``name`` scores probabilities or decision values (``"roc_auc"``), not labels."""
    return score_methods(name) is not None


SCORE_METRICS = {"roc_auc": "roc_auc", "roc_auc_ovr": "roc_auc", "average_precision": "average_precision",
                 "neg_log_loss": "log_loss", "neg_brier_score": "brier"}
"""sklearn's scorer names :func:`metric_interval` computes from kept scores, and the name of each in
``fold_metric_table`` (``"neg_"`` ones negated: sklearn's sign, higher is better)."""

METHODS = ("auto", *options("metric_interval"))
"""``method`` of :func:`metric_interval`: "auto" is "t" for label metrics and "corrected-t" for score metrics."""

SKLEARN_LOG_LOSS = make_log_loss(SKLEARN_CLIP)
"""The log loss as ``sklearn.metrics.log_loss`` computes it (probabilities clipped to float64's machine epsilon,
2.2e-16, as scikit-learn >= 1.3 clips them), for neg_log_loss."""


def _refuse_score_metric(metric, result):
    """A score metric (``"roc_auc"``) on a record: where its scores come from, or that none is computed here."""
    if result.y_score is None:
        raise ValueError(
            f"metric={metric!r} is computed from each instance's out-of-fold scores (predict_proba or "
            "decision_function), and this CVResult kept none (result.y_score is None). Make the record with "
            "cross_val_correctness(..., response_method='auto') or CVEvaluator(..., response_method='auto'), "
            "which keep them; or use a metric computed from predicted labels, such as 'f1', 'accuracy' or "
            "'balanced_accuracy'."
        )
    if metric not in SCORE_METRICS:
        raise ValueError(
            f"metric={metric!r} is computed from scores, and metric_interval computes these score metrics: "
            f"{', '.join(map(repr, SCORE_METRICS))}; or use a metric computed from predicted labels, such as "
            "'f1', 'accuracy' or 'balanced_accuracy'."
        )
    binary = len(result.classes) == 2
    if (metric == "roc_auc") != binary and SCORE_METRICS[metric] == "roc_auc":
        fix = "metric='roc_auc'" if binary else "metric='roc_auc_ovr' (the one-vs-rest macro AUC)"
        raise ValueError(f"metric={metric!r} does not suit {len(result.classes)} classes; pass {fix}.")
    if result.response_method != "predict_proba" and SCORE_METRICS[metric] in ("log_loss", "brier"):
        raise ValueError(
            f"metric={metric!r} needs predicted probabilities, and result kept {result.response_method} scores; "
            "make the record with response_method='predict_proba' (a learner that has it), or use "
            "metric='roc_auc', which ranks any scores."
        )


class _Resolved(NamedTuple):
    """A metric ready for the folds: ``score(y_true, y_pred)``, its name, its possible range and positive class."""

    score: Callable
    name: str
    limits: tuple | None
    positive: object = None  # the positive class of a binary scorer ("f1"), whose empty folds are counted


def _positive_class(metric, result, pos_label):
    """The class a binary scorer is about: ``pos_label``, or sklearn's default 1, when it is one of the classes."""
    classes = np.asarray(result.classes).tolist()
    positive = 1 if pos_label is None else pos_label
    if positive in classes:
        return classes[classes.index(positive)]
    if pos_label is None:
        raise ValueError(
            f"metric={metric!r} needs to know the positive class, and the classes are {classes}; pass "
            f"pos_label, one of them (such as pos_label={classes[-1]!r}), or an averaged metric such as "
            f"'{metric}_macro'."
        )
    raise ValueError(f"pos_label={pos_label!r} is not one of result's classes {classes}; pass one of them.")


def _callable_metric(metric, pos_label):
    """The :class:`_Resolved` of a callable: a :class:`Metric` keeps its name and bounds; a bare one has neither."""
    if pos_label is not None:
        raise ValueError(
            f"pos_label={pos_label!r} is for sklearn's binary scorers ({', '.join(map(repr, _POSITIVE_CLASS))}); "
            "a callable metric takes its positive class itself: pass it through make_metric, such as "
            "make_metric(f1_score, pos_label=...)."
        )
    if isinstance(metric, Metric):
        unnamed = UNNAMED if metric.greater_is_better else f"{UNNAMED}, negated"
        return _Resolved(metric, metric.name or unnamed, metric.bounds)
    return _Resolved(metric, function_name(metric) or UNNAMED, None)


def metric_type_error(metric):
    """The TypeError of a ``metric`` that is neither a scorer name nor a callable (None, a number, ...).

    Examples
    --------
    >>> metric_type_error(5)
    TypeError("metric must be one of sklearn's scorer names ...; got metric=5 (int).")
    """
    return TypeError(
        f"metric must be one of sklearn's scorer names (a str, such as 'accuracy' or 'f1'), a callable "
        f"(y_true, y_pred) -> float or a make_metric(...); got metric={metric!r} ({type(metric).__name__})."
    )


def _resolve_metric(metric, result, pos_label=None):
    """The :class:`_Resolved` of a scorer name or a callable, or the error that says why it does not apply."""
    if callable(metric) and not isinstance(metric, str):
        return _callable_metric(metric, pos_label)
    if not isinstance(metric, str):
        raise metric_type_error(metric)
    if metric not in get_scorer_names():
        raise ValueError(
            f"metric must be a callable (y_true, y_pred) -> float, a make_metric(...) or one of sklearn's scorer "
            f"names computable from predictions; got metric={metric!r}. Valid names: "
            f"{', '.join(_names_computable_from_predictions(result.classes is not None))}"
            + (f"; from the record's kept scores: {', '.join(SCORE_METRICS)}" if result.classes is not None
               and getattr(result, "y_score", None) is not None else "")
            + (f" (did you mean {'neg_' + metric!r}? sklearn's scorer of a loss is its negation, higher being "
               "better)" if "neg_" + metric in get_scorer_names() else "") + "."
        )
    scorer = get_scorer(metric)
    _check_suits_task(metric, scorer, result)
    if result.classes is not None and needs_scores(metric):
        _refuse_score_metric(metric, result)
        if pos_label is not None:
            raise ValueError(f"pos_label={pos_label!r} is for sklearn's binary scorers about one class; "
                             f"metric={metric!r} scores result.y_score, the scores of the class {result.classes[-1]!r}"
                             ", as sklearn's scorer does. Drop pos_label.")
        return _Resolved(None, metric, _range_of(metric))
    if metric in _POSITIVE_CLASS and result.classes is not None:
        if len(result.classes) > 2:
            raise _averaging_needed(metric, result)
        positive, function = _positive_class(metric, result, pos_label), _POSITIVE_CLASS[metric]
        return _Resolved(lambda y_true, y_pred: function(y_true, y_pred, pos_label=positive), metric,
                         _range_of(metric), positive)
    if pos_label is not None:
        raise ValueError(
            f"pos_label={pos_label!r} is for sklearn's binary scorers about one class "
            f"({', '.join(map(repr, _POSITIVE_CLASS))}); metric={metric!r} does not take it. Drop pos_label."
        )

    def score(y_true, y_pred):
        if result.classes is None:
            predictions = _RegressorPredictions(y_pred)
        else:
            predictions = _ClassifierPredictions(y_pred, result.classes)
        try:
            return scorer(predictions, None, y_true)
        except ValueError as exc:
            if result.classes is None:
                raise ValueError(
                    f"metric={metric!r} does not apply to a regression result (loss_name="
                    f"{result.loss_name!r}): sklearn says {exc}. Use a regression metric, such as 'r2' or "
                    "'neg_mean_absolute_error'."
                ) from exc
            if "average='binary'" in str(exc):
                raise _averaging_needed(metric, result) from exc
            raise
        except AttributeError as exc:
            raise ValueError(
                f"metric={metric!r} needs predicted probabilities or decision scores, which a CVResult "
                "does not hold; use a metric computed from predicted labels, such as 'f1', 'accuracy' "
                "or 'balanced_accuracy'."
            ) from exc

    return _Resolved(score, metric, _range_of(metric))


def differences_within_one(limits):
    """Whether two values of a metric with possible range ``limits`` differ by at most 1, so that a test of their
    difference may clip its interval to [-1, 1] (accuracy, F1, ROC AUC); not for a range of unknown or infinite
    width (a negated error, R²) nor one wider than 1 (the Matthews correlation's [-1, 1]).

    Examples
    --------
    >>> differences_within_one((0.0, 1.0)), differences_within_one((None, 0.0)), differences_within_one((-1.0, 1.0))
    (True, False, False)
    """
    return limits is not None and None not in limits and limits[1] - limits[0] <= 1


def _fold_value(value, repeat, fold):
    """A metric's value on one fold as a float; a TypeError naming ``metric`` when it is not a real number (a
    callable that returns a string, None or an array)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, numbers.Real):
        return float(value)
    raise TypeError(f"metric must return a number, (y_true, y_pred) -> float; it returned {value!r:.60} "
                    f"({type(value).__name__}) on fold {fold} of repeat {repeat}. Return the metric's value as a "
                    "float.")


def _fold_values(score, result, rows):
    """The metric on every fold of the repeats ``rows``, and where sklearn found it undefined (both (rows, folds)).

    sklearn's UndefinedMetricWarning (its ``zero_division`` case) is caught
    here, fold by fold, and reported once by the caller; other warnings pass.
    """
    values, undefined = np.empty((len(rows), result.n_splits)), np.zeros((len(rows), result.n_splits), dtype=bool)
    for i, r in enumerate(rows):
        for j in range(result.n_splits):
            in_fold = result.fold[r] == j
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", UndefinedMetricWarning)
                values[i, j] = _fold_value(score(result.y_true[in_fold], result.y_pred[r][in_fold]), r, j)
            undefined[i, j] = any(issubclass(warning.category, UndefinedMetricWarning) for warning in caught)
            for warning in caught:
                if not issubclass(warning.category, UndefinedMetricWarning):
                    warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return values, undefined


def _empty_of_positive(result, rows, positive):
    """Folds (rows, folds) without a true instance of ``positive``, and without a prediction of it."""
    shape = (len(rows), result.n_splits)
    no_true, no_predicted = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
    if positive is None:
        return no_true, no_predicted
    for i, r in enumerate(rows):
        for j in range(result.n_splits):
            in_fold = result.fold[r] == j
            no_true[i, j] = not np.any(result.y_true[in_fold] == positive)
            no_predicted[i, j] = not np.any(result.y_pred[r][in_fold] == positive)
    return no_true, no_predicted


def _check_finite(values, name, rows):
    """Refuse fold values with a NaN or an infinity, naming the first fold."""
    if np.isfinite(values).all():
        return
    repeat, fold = (int(i) for i in np.argwhere(~np.isfinite(values))[0])
    who = "the callable metric" if name in (UNNAMED, f"{UNNAMED}, negated") else f"metric {name!r}"
    raise ValueError(
        f"{who} gave NaN or infinity on fold {fold} of repeat {rows[repeat]}; an interval of the fold values "
        "would be NaN. Check the metric on that fold's labels and predictions."
    )


def _listed(where, most=6):
    return ", ".join(where[:most]) + (f", ... ({len(where) - most} more)" if len(where) > most else "")


def _degenerate_warning(name, rows, undefined, no_true, no_predicted, positive):
    """The warning for folds whose value an empty count decides, or None when there are none."""
    degenerate = undefined | no_true | no_predicted
    if not degenerate.any():
        return None
    causes = []
    if no_true.any():
        causes.append(f"{no_true.sum()} hold no instance of the positive class {positive!r}")
    if no_predicted.any():
        causes.append(f"{no_predicted.sum()} " + ("no prediction of it" if no_true.any()
                                                   else f"hold no prediction of the positive class {positive!r}"))
    if undefined.any():
        causes.append(f"on {undefined.sum()} sklearn found {name} undefined and gave it its zero_division value "
                      "(0 by default)")
    where = [f"fold {j} of repeat {rows[i]}" for i, j in np.argwhere(degenerate)]
    return (
        f"{name} is degenerate on {degenerate.sum()} of {degenerate.size} folds ({_listed(where)}): "
        f"{'; '.join(causes)}. Such a fold's value rests on an empty count (F1 and precision are 0 on a fold "
        "without a predicted positive, whatever else the model gets right), and the fold-level t treats it as an "
        "ordinary measurement: the interval is dominated by these folds and is not trustworthy. Fewer, larger "
        "folds (a stratified splitter puts positives in every fold) or a metric defined on every fold, such as "
        "balanced_accuracy, avoid it."
    )


def _clipping_warning(name, point, limits):
    """The warning for an interval whose t bounds left the metric's possible range."""
    bounds = point.bounds
    half_width = bounds.critical_value * bounds.standard_error
    passed = {"low": (point.estimate - half_width, limits[0], "lowest"),
              "high": (point.estimate + half_width, limits[1], "highest")}
    sides = "; ".join(f"its {side} bound {passed[side][0]:.4g} was set to {passed[side][1]:g}, the "
                      f"{passed[side][2]} value {name} can take" for side in bounds.clipped)
    other = ("accuracy_interval's exact Clopper-Pearson interval stays in [0, 1] by construction"
             if name == "accuracy" else "report the fold values (in the notes) with the clipped interval")
    return (
        f"The t interval of {name} left the metric's range: {sides}. The t approximation puts part of its "
        "probability beyond the range, and fold values that pile up at its end are far from normal, so the "
        "coverage of the clipped interval there is unreliable. More instances per fold (fewer folds, more data) "
        f"move the fold values off the end; meanwhile {other}."
    )


def score_fold_values(result, metric, rows):
    """Score metric ``metric`` (a key of ``SCORE_METRICS``) on every fold of the repeats ``rows``, in sklearn's sign."""
    name = SCORE_METRICS[metric]
    table = fold_metric_table(result.y_true, rows_of(result.y_score, rows), rows_of(result.fold, rows),
                              metric=SKLEARN_LOG_LOSS if name == "log_loss" else name, classes=result.classes)
    return -table if is_negated(metric) else table


def metric_fold_values(result, metric, pos_label=None):
    """The name of ``metric`` and its value on every fold of every repeat, (n_repeats, n_splits), as
    :func:`metric_interval` computes them (a score metric in sklearn's sign)."""
    resolved = _resolve_metric(metric, result, pos_label)
    rows = list(range(result.n_repeats))
    if resolved.score is None:
        return resolved.name, score_fold_values(result, metric, rows)
    return resolved.name, _fold_values(resolved.score, result, rows)[0]


def _negated(interval, metric):
    """The interval of a loss as the interval of sklearn's negated score ``metric`` ("neg_log_loss")."""
    swap = {"low": "high", "high": "low"}
    return dataclasses.replace(
        interval, estimate=-interval.estimate, low=-interval.high, high=-interval.low,
        details=interval.details | {"clipped": tuple(swap[side] for side in interval.details["clipped"])},
        estimand=f"{metric}, minus the {interval.estimand}",
        notes=(*interval.notes, f"{metric} is minus the {SCORE_METRICS[metric].replace('_', ' ')} (sklearn's sign: "
                                "higher is better); the interval is that of the loss, negated"),
    )


def _check_method(method, metric, score):
    """Refuse a ``method`` that does not suit ``metric``; the method to use."""
    if not score and method in ("corrected-t", "delong"):
        raise ValueError(f"method={method!r} is for score metrics ({', '.join(map(repr, SCORE_METRICS))}) on a "
                         f"record that kept scores; metric={metric!r} uses method='t' (or 'auto').")
    if score and method == "t":
        raise ValueError(f"method='t' is the fold-level t of label metrics; score metric {metric!r} uses "
                         "method='corrected-t' (the default, 'auto') or, for 'roc_auc', method='delong'.")
    if method == "delong" and SCORE_METRICS.get(metric) != "roc_auc":
        raise ValueError(f"method='delong' gives intervals for the ROC AUC ('roc_auc', 'roc_auc_ovr'); "
                         f"metric={metric!r} uses method='corrected-t' (or 'auto').")
    return ("corrected-t" if score else "t") if method == "auto" else method


def _delong_of_record(result, metric, confidence_level, repeat):
    """DeLong's interval of the pooled out-of-fold AUC of one repeat (``repeat``, or 0), with the warning the
    calibration evidence owes it on a cross-validated record (the policy's, looked up upward)."""
    row = 0 if repeat is None else select_repeats(result, repeat)[0]
    binary = len(result.classes) == 2
    interval = delong_interval(result.y_true, result.y_score[row], confidence_level=confidence_level,
                               pos_label=result.classes[1] if binary else None,
                               classes=None if binary else result.classes)
    note = (f"pooled out-of-fold scores of repeat {row} of {result.n_repeats}; their {result.n_splits} fold models "
            "differ in calibration, so the pooled AUC compares scores of different models (delong_interval's Notes)")
    if result.n_splits < 2:
        note = "the scores of one model on one test set (a holdout): DeLong's own setting"
    messages = Messages()
    upward("policy", "evidence_warnings")("metric_interval", result, "delong", messages, metric=metric)
    return dataclasses.replace(interval, notes=(*interval.notes, note),
                               warnings=(*interval.warnings, *messages.warnings))


def _score_interval(result, metric, method, confidence_level, repeat):
    """:func:`metric_interval` of a score metric: the corrected t on fold values, or DeLong's pooled interval."""
    if method == "delong":
        return _delong_of_record(result, metric, confidence_level, repeat)
    table = score_fold_values(result, metric, select_repeats(result, repeat))
    negated = is_negated(metric)
    interval = corrected_fold_interval(-table if negated else table, confidence_level=confidence_level,
                                       metric=SCORE_METRICS[metric])
    return _negated(interval, metric) if negated else interval


@validate_params(confidence_level=PROBABILITY, repeat=REPEAT, pos_label=Nullable(ClassLabel()),
                 method=Options(*METHODS))
@fill_doc
@about_one_record
def metric_interval(result, metric="f1", *, confidence_level=0.95, repeat=None, pos_label=None, method="auto"):
    """Fold-level t interval for a metric computed fold by fold, such as F1.

    Parameters
    ----------
    result : CVResult
        A cross-validation result.
    metric : str, Metric or callable, default="f1"
        A name from ``sklearn.metrics.get_scorer_names()`` that needs only
        the predictions (``"f1"``, ``"f1_macro"``, ``"precision"``,
        ``"balanced_accuracy"``, ``"matthews_corrcoef"``, ``"r2"``, ...), a
        metric made by :func:`make_metric` (which names it and may give
        its range), or a callable ``(y_true, y_pred) -> float``. Scorer
        names follow sklearn's sign convention: ``"neg_..."`` scores are
        negated errors. A regression metric (``"r2"``,
        ``"neg_mean_squared_error"``, ...) on a classification record is
        refused, as is a binary-only name such as ``"f1"`` on more than two
        classes (pass ``"f1_macro"`` or ``"f1_weighted"``).
    %(confidence_level)s
    repeat : int or None, default=None
        %(repeat)s The t keeps k - 1 degrees of freedom.
    pos_label : str, int, float or None, default=None
        The positive class of a binary metric about one class (``"f1"``,
        ``"precision"``, ``"recall"``, ``"jaccard"``), one of the result's
        classes; None is sklearn's default, 1, which string labels do not
        have (pass one of them). Other metrics refuse it; a callable takes
        its own (``make_metric(f1_score, pos_label=...)``).
    method : {"auto", "t", "corrected-t", "delong"}, default="auto"
        ``"t"``: the fold-level t of a metric of predicted labels (what
        ``"auto"`` means for them). For a score metric (``"roc_auc"``,
        ``"roc_auc_ovr"`` for three classes or more, ``"average_precision"``,
        ``"neg_log_loss"``, ``"neg_brier_score"``) on a record that kept its
        scores (``response_method="auto"``): ``"corrected-t"`` (what
        ``"auto"`` means for them), the corrected resampled t on the fold
        values of every repeat (:func:`corrected_fold_interval`, target
        ``"unconditional"``), or, for the ROC AUC only, ``"delong"``,
        DeLong's interval of the pooled out-of-fold AUC of one repeat
        (``repeat``, or 0; :func:`delong_interval`, on the AUC scale as
        pROC's ``ci.auc``, target ``"kfold"``). On a cross-validated record
        ``"delong"`` warns with the coverage the calibration benchmark
        measured for the record's learner and size where it was below the
        floor (0.93), as it was for every learner and size measured; on a
        record of one fold (one model's scores) it does not.

    Returns
    -------
    Interval
        ``estimate`` is the mean of the fold values; ``notes`` list them.
        Clipped, with a warning, to the range the metric can take:
        [0, 1] for accuracy, balanced accuracy, F1, precision, recall and
        Jaccard (and their averages); [-1, 1] for the Matthews correlation;
        [-0.5, 1] for the adjusted Rand index; at most 1 for R^2 and
        explained variance; at most 0 for sklearn's negated errors
        (``"neg_..."``); the ``bounds`` of a :func:`make_metric` metric.
        A bare callable's range is unknown, and its interval is not
        clipped. ``clipped`` names the bounds that were clipped.

    Notes
    -----
    van der Aalst (Process Mining, section 3.6): a metric defined on a set of
    instances, such as F1, "cannot be defined for one instance in isolation",
    so it is computed on each of the k folds and the k values are averaged.
    The interval is mean +- t_{k-1} s / sqrt(k), with s the sample standard
    deviation of the fold values, as Wong's fold-level interval (2015,
    section 4.3.3). It assumes the fold values are independent and
    approximately normal; with k = 10 it rests on 9 degrees of freedom.

    Two cases break that assumption, and each warns with an
    :class:`InferenceWarning` kept in the result's ``warnings`` (and so in
    its ``summary()``). A *degenerate fold* is one whose value an empty count
    decides: for F1, precision, recall and Jaccard, a fold without a true or
    without a predicted instance of the positive class (F1 is then 0 however
    the model ranks the instances), and for any metric a fold where sklearn
    found it undefined and gave it its ``zero_division`` value (sklearn's
    UndefinedMetricWarning, caught per fold and reported once). Such folds
    pile up at the end of the range, and the t interval is dominated by them.
    When mean +- t s / sqrt(k) leaves the metric's range, the bound is set to
    the range's end: the normal approximation behind the t is then visibly
    wrong near that end, and the interval's coverage there is unreliable.

    **Score metrics** are computed on each fold from that fold's model's
    scores (sklearn's ``roc_auc_score`` and ``average_precision_score``, the
    mean log loss with sklearn's clip (2.2e-16), the Brier score) and their
    mean gets Nadeau & Bengio's (2003) corrected resampled t in Bouckaert &
    Frank's (2004) repeated form, which respects the folds and allows for
    the variation of training sets. ``method="delong"`` pools the k fold
    models' out-of-fold scores into one AUC with DeLong, DeLong &
    Clarke-Pearson's (1988) variance: the fold models differ in
    calibration, so the pooled AUC compares scores of different models and
    its variance leaves out the training sets' variation (the k-fold
    target, given the fitted models); the calibration benchmark measured its
    coverage below the floor (docs/calibration.md, ROC AUC). sklearn's ``"neg_"`` scores are
    negated losses: their interval is the loss's, negated, within (-inf, 0].

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference import cross_val_correctness, metric_interval
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> result = cross_val_correctness(GaussianNB(), X, y, cv=10, random_state=0)
    >>> interval = metric_interval(result, "f1")
    >>> interval.method, interval.details["n"], round(interval.estimate, 3)
    ('t', 10, 0.952)

    The malignant tumours are class 0 here; ``pos_label`` asks about them:

    >>> round(metric_interval(result, "recall", pos_label=0).estimate, 3)
    0.892

    The ROC AUC needs the scores, which ``response_method`` keeps:

    >>> scored = cross_val_correctness(GaussianNB(), X, y, cv=10, random_state=0, response_method="auto")
    >>> auc = metric_interval(scored, "roc_auc")
    >>> auc.method, auc.target, round(auc.estimate, 3)
    ('corrected-t', 'unconditional', 0.99)
    """
    check_cv_result(result)
    interval = _metric_interval_of(result, metric, confidence_level, repeat, pos_label, method)
    delong = interval.method == "delong"
    label = display_label(interval.method, function="metric_interval")
    return with_grouped_warning(interval, result, select_repeats(result, repeat),
                                "DeLong's interval" if delong else f"the fold-level {label}",
                                "method='corrected-t' (over group-respecting folds)" if delong else None)


def _metric_interval_of(result, metric, confidence_level, repeat, pos_label, method):
    """:func:`metric_interval` of a checked record."""
    resolved = _resolve_metric(metric, result, pos_label)
    name = resolved.name
    score_metric = resolved.score is None
    auto = method == "auto"
    method = _check_method(method, name, score_metric)
    if result.n_splits == 1 and method != "delong":
        if auto and SCORE_METRICS.get(metric) == "roc_auc":
            method = "delong"  # one model's scores on one test set: DeLong's own setting
        else:
            auc = " For the ROC AUC, method='delong' (what 'auto' takes here) gives DeLong's interval."
            raise ValueError(f"metric_interval's method={method!r} averages {name} over folds, and this record is one "
                             "evaluation set (one fold), so it has one value of it and no fold-level interval."
                             f"{auc if score_metric else ''} For accuracy, accuracy_interval gives the binomial "
                             "intervals of the one set.")
    if method == "delong":
        return _score_interval(result, metric, method, confidence_level, repeat)
    if result.is_loo:
        raise ValueError(
            "metric_interval computes a set-level metric on each fold, but under leave-one-out every "
            f"fold holds one instance, so {name} would be computed on one instance at a time. Use "
            "k-fold cross-validation, or accuracy_interval for leave-one-out."
        )
    if score_metric:
        return _score_interval(result, metric, method, confidence_level, repeat)
    rows = list(select_repeats(result, repeat))
    messages = Messages()
    if len(rows) > 1:
        messages.warn(pooled_repeats_warning(len(rows)))
    values, undefined = _fold_values(resolved.score, result, rows)
    degenerate = _degenerate_warning(name, rows, undefined, *_empty_of_positive(result, rows, resolved.positive),
                                     resolved.positive)
    if degenerate:
        messages.warn(degenerate)
    _check_finite(values, name, rows)
    messages.note(f"{name} per fold: " + ", ".join(f"{value:.4g}" for value in values.ravel()))
    point = fold_mean_estimate(values, np.ones(values.shape, dtype=bool), confidence_level, "t", messages,
                               n_splits=result.n_splits, what_needs_folds="metric_interval",
                               fix="A single test set (a holdout) gives one value and no interval.",
                               limits=resolved.limits, what=name, exact_advice="")
    if point.bounds.clipped:
        messages.warn(_clipping_warning(name, point, resolved.limits))
    positive = "" if resolved.positive is None else f" (positive class {resolved.positive!r})"
    return estimate_interval(
        point, confidence_level=confidence_level, method="t", averaging="fold",
        estimand=(f"{name}{positive} on the population of the models the learner fits to "
                  f"{training_size_phrase(result)}, computed per fold and averaged; given this dataset "
                  "(Vanwinckelen & Blockeel 2015)"),
        assumptions="instance independence; fold values independent and approximately normal",
        messages=messages,
    )
