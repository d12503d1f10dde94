"""Fold-level intervals for set-level metrics such as F1."""

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import get_scorer, get_scorer_names

from .._utils._deprecation import positional_deprecated
from .._utils._docstring import fill_doc
from .._utils._params import PROBABILITY, validate_params
from .._utils._warnings import Messages
from ._accuracy_interval import estimate_interval, fold_mean_estimate
from ._estimands import training_size_phrase
from ._inputs import check_cv_result
from ._parameters import REPEAT
from ._repeats import pooled_repeats_warning, select_repeats


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


_RANGES = {name: (0.0, 1.0) for name in ("accuracy", "balanced_accuracy", "f1", "precision", "recall", "jaccard")}
_RANGES["matthews_corrcoef"] = (-1.0, 1.0)
_RANGES["r2"] = _RANGES["explained_variance"] = (None, 1.0)
"""The possible range of bounded scorers (and their _macro/_micro/_weighted forms): the interval is clipped to it."""


def _range_of(name):
    """The possible (lowest, highest) value of scorer ``name``; None where it is unbounded."""
    if name.startswith("neg_"):
        return (None, 0.0)  # a negated error or loss is never above 0
    return _RANGES.get(name if name in _RANGES else name.rsplit("_", 1)[0])


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
    if not classification:
        return sorted(on_continuous)
    on_labels = _ClassifierPredictions(predicted, np.array([0, 1]))
    return [name for name in names if name not in on_continuous and _scorer_works(name, on_labels, labels)]


def _is_regression_scorer(scorer):
    """Whether a scorer computes one of sklearn's regression metrics (r2, mean squared error, ...)."""
    score_function = getattr(scorer, "_score_func", None)
    return getattr(score_function, "__module__", "").startswith("sklearn.metrics._regression")


def _check_suits_classification(metric, scorer, result):
    """Refuse a regression scorer on a record of class labels, whose codes it would score as numbers."""
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
    raise NotImplementedError(
        f"metric={metric!r} is computed from the scores in result.y_score ({result.response_method}), and "
        "metric_interval does not yet give intervals for score metrics; use a metric computed from predicted "
        "labels, such as 'f1', 'accuracy' or 'balanced_accuracy'."
    )


def _metric_function(metric, result):
    """``(y_true, y_pred) -> float`` for a scorer name or a callable, and its name."""
    if callable(metric) and not isinstance(metric, str):
        return metric, getattr(metric, "__name__", type(metric).__name__)
    if not isinstance(metric, str) or metric not in get_scorer_names():
        raise ValueError(
            f"metric must be a callable (y_true, y_pred) -> float or one of sklearn's scorer names "
            f"computable from predictions; got metric={metric!r}. Valid names: "
            f"{', '.join(_names_computable_from_predictions(result.classes is not None))}."
        )
    scorer = get_scorer(metric)
    _check_suits_classification(metric, scorer, result)
    if result.classes is not None and needs_scores(metric):
        _refuse_score_metric(metric, result)

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
            if "pos_label" not in str(exc):
                raise
            raise ValueError(
                f"metric={metric!r} needs to know the positive class, and the classes are "
                f"{np.asarray(result.classes).tolist()}; pass a callable such as "
                f"metric=lambda y_true, y_pred: sklearn.metrics.{metric}_score(y_true, y_pred, pos_label=...)."
            ) from exc
        except AttributeError as exc:
            raise ValueError(
                f"metric={metric!r} needs predicted probabilities or decision scores, which a CVResult "
                "does not hold; use a metric computed from predicted labels, such as 'f1', 'accuracy' "
                "or 'balanced_accuracy'."
            ) from exc

    return score, metric


def _fold_values(score, result, rows):
    """The metric on every fold of the repeats ``rows``, and the folds where sklearn found it undefined."""
    values, undefined = np.empty((len(rows), result.n_splits)), []
    for i, r in enumerate(rows):
        for j in range(result.n_splits):
            in_fold = result.fold[r] == j
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", UndefinedMetricWarning)
                values[i, j] = score(result.y_true[in_fold], result.y_pred[r][in_fold])
            if any(issubclass(warning.category, UndefinedMetricWarning) for warning in caught):
                undefined.append(f"fold {j} of repeat {r}")
            for warning in caught:
                if not issubclass(warning.category, UndefinedMetricWarning):
                    warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return values, undefined


@positional_deprecated("confidence_level", since="0.1")
@validate_params(confidence_level=PROBABILITY, repeat=REPEAT)
@fill_doc
def metric_interval(result, metric="f1", *, confidence_level=0.95, repeat=None):
    """Fold-level t interval for a metric computed fold by fold, such as F1.

    Parameters
    ----------
    result : CVResult
        A cross-validation result.
    metric : str or callable, default="f1"
        A name from ``sklearn.metrics.get_scorer_names()`` that needs only
        the predictions (``"f1"``, ``"f1_macro"``, ``"precision"``,
        ``"balanced_accuracy"``, ``"matthews_corrcoef"``, ``"r2"``, ...), or a
        callable ``(y_true, y_pred) -> float``. Scorer names follow sklearn's
        sign convention: ``"neg_..."`` scores are negated errors. A
        regression metric (``"r2"``, ``"neg_mean_squared_error"``, ...) on a
        classification record is refused, as is a binary-only name such as
        ``"f1"`` on more than two classes (pass ``"f1_macro"`` or
        ``"f1_weighted"``).
    %(confidence_level)s
        Keyword-only: passing it by position (third, after ``metric``) is
        deprecated since version 0.1 and warns with a FutureWarning.
    repeat : int or None, default=None
        %(repeat)s The t keeps k - 1 degrees of freedom.

    Returns
    -------
    Interval
        ``estimate`` is the mean of the fold values; ``notes`` list them.
        Clipped to the range of accuracy, F1, precision, recall, Jaccard
        (0 to 1) and the Matthews correlation (-1 to 1).

    Notes
    -----
    van der Aalst (Process Mining, section 3.6): a metric defined on a set of
    instances, such as F1, "cannot be defined for one instance in isolation",
    so it is computed on each of the k folds and the k values are averaged.
    The interval is mean +- t_{k-1} s / sqrt(k), with s the sample standard
    deviation of the fold values, as Wong's fold-level interval (2015,
    section 4.3.3). It assumes the fold values are independent and
    approximately normal; with k = 10 it rests on 9 degrees of freedom, and
    a metric that is undefined in a fold (F1 of a fold without positive
    labels or predictions) is given sklearn's ``zero_division`` value (0 by
    default), and the result warns with an :class:`InferenceWarning` naming
    the folds.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference import cross_val_correctness, metric_interval
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> result = cross_val_correctness(GaussianNB(), X, y, cv=10, random_state=0)
    >>> interval = metric_interval(result, "f1")
    >>> interval.method, interval.n, round(interval.estimate, 3)
    ('t', 10, 0.952)
    """
    check_cv_result(result)
    score, name = _metric_function(metric, result)
    if result.is_loo:
        raise ValueError(
            "metric_interval computes a set-level metric on each fold, but under leave-one-out every "
            f"fold holds one instance, so {name} would be computed on one instance at a time. Use "
            "k-fold cross-validation, or accuracy_interval for leave-one-out."
        )
    rows = list(select_repeats(result, repeat))
    messages = Messages()
    if len(rows) > 1:
        messages.warn(pooled_repeats_warning(len(rows)))
    values, undefined = _fold_values(score, result, rows)
    if undefined:
        messages.warn(
            f"{name} is undefined on {len(undefined)} fold(s) ({', '.join(undefined)}): sklearn set it to its "
            "zero_division value (no true or predicted instances of a class it needs). Fewer folds, a "
            "stratified splitter, or a callable with zero_division=... make this explicit."
        )
    if not np.isfinite(values).all():
        repeat, fold = (int(i) for i in np.argwhere(~np.isfinite(values))[0])
        raise ValueError(
            f"metric {name!r} gave NaN or infinity on fold {fold} of repeat {rows[repeat]}; an interval of the "
            "fold values would be NaN. Check the metric on that fold's labels and predictions."
        )
    messages.note(f"{name} per fold: " + ", ".join(f"{value:.4g}" for value in values.ravel()))
    point = fold_mean_estimate(values, np.ones(values.shape, dtype=bool), confidence_level, "t", messages,
                              n_splits=result.n_splits, what_needs_folds="metric_interval",
                              fix="A single test set (a holdout) gives one value and no interval.",
                              limits=_range_of(name),
                              what=name, exact_advice="")
    return estimate_interval(
        point, confidence_level=confidence_level, method="t", averaging="fold",
        estimand=(f"{name} on the population of the models the learner fits to {training_size_phrase(result)}, "
                  "computed per fold and averaged; given this dataset (Vanwinckelen & Blockeel 2015)"),
        assumptions="instance independence; fold values independent and approximately normal",
        messages=messages,
    )
