"""Which metric a record of a task can be measured by, checked before any fit, and the range of a metric's values.

One check for every caller that takes a metric before fitting (``evaluate``, ``compare``, ``plan``): what it
refuses, all of them refuse (issue 58: ``plan`` planned ``roc_auc_ovo``, which ``compare`` refuses, on accuracy's
figures).
"""

from sklearn.metrics import get_scorer_names

from ._metric_interval import (
    SCORE_METRICS,
    _names_computable_from_predictions,
    _range_of,
    metric_type_error,
    score_methods,
)


def score_metric_names():
    """The scorer names computed from scores (predict_proba or decision_function) that :func:`metric_interval`
    computes, such as roc_auc; a scorer it does not (roc_auc_ovo) is refused before any fit."""
    return sorted(SCORE_METRICS)


def metric_names(regression):
    """The scorer names a record of this task can be measured by: from predictions, and for a classifier from
    scores too; "accuracy" is one for a classifier (a regressor's records are measured by their loss)."""
    names = _names_computable_from_predictions(classification=not regression)
    return names if regression else names + score_metric_names()


def uncomputed_score_metric(name):
    """What to say of a scikit-learn scorer of scores whose intervals are not computed here (roc_auc_ovo), else None."""
    if name in SCORE_METRICS or name not in get_scorer_names() or score_methods(name) is None:
        return None
    return (f"{name} is a scikit-learn scorer of predict_proba or decision_function scores whose intervals cvinference "
            f"does not compute; it computes those of {', '.join(SCORE_METRICS)} (roc_auc_ovr is the one-vs-rest AUC "
            "of more than two classes), and of any metric of predicted labels such as balanced_accuracy")


def check_metric_names(metrics, regression, learners="the learners"):
    """Refuse, before any fit, a metric that is neither a scorer name nor a callable (TypeError) and a name that no
    record of this task can be measured by (ValueError, naming the metric, the task of ``learners`` and the names
    that apply).

    Examples
    --------
    >>> check_metric_names(["accuracy", "f1"], regression=False)
    >>> check_metric_names(["accuracy"], regression=True, learners="the pilot's learners")
    Traceback (most recent call last):
    ...
    ValueError: metric='accuracy' is not a scikit-learn scorer name computable from a regressor's predictions \
(the pilot's learners are regressors); ...
    """
    for metric in metrics:
        if not isinstance(metric, str) and not callable(metric):
            raise metric_type_error(metric)
    unknown = [m for m in metrics if isinstance(m, str) and m not in metric_names(regression)
               and (regression or m != "accuracy")]
    if unknown and not regression and uncomputed_score_metric(unknown[0]):
        raise ValueError(f"metric={unknown[0]!r}: {uncomputed_score_metric(unknown[0])}.")
    if unknown:
        what = (f"a regressor's predictions ({learners} are regressors)" if regression
                else "a classifier's predicted labels or scores")
        default = " (or metric=None: their loss)" if regression else ""
        raise ValueError(f"metric={unknown[0]!r} is not a scikit-learn scorer name computable from {what}; use one "
                         f"of {', '.join(sorted(metric_names(regression)))}{default}, a make_metric metric or a "
                         "callable (y_true, y_pred) -> float")


def value_range(metric, regression):
    """The (lowest, highest) value of ``metric`` on records of this task, None on a side without a bound or where
    it is not known: accuracy's [0, 1] for classifiers, sklearn's documented range of a scorer name, a
    :func:`make_metric` metric's ``bounds``; a regressor's loss (``"accuracy"``, the default) has none.

    Examples
    --------
    >>> value_range("accuracy", False), value_range("matthews_corrcoef", False), value_range("accuracy", True)
    ((0.0, 1.0), (-1.0, 1.0), None)
    """
    if isinstance(metric, str):
        if metric == "accuracy":
            return None if regression else (0.0, 1.0)
        return _range_of(metric)
    bounds = getattr(metric, "bounds", None)
    return tuple(bounds) if bounds is not None else None
