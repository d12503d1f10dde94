"""What ``evaluate`` and ``compare`` share: the task, the loss, the folds, the evaluator and the progress lines."""

import sys
from types import MappingProxyType

from sklearn.base import is_regressor

from ..evaluation import CVEvaluator
from ..evaluation._partitions import check_cv_argument
from ..inference._metric_interval import SCORE_METRICS, _names_computable_from_predictions, score_methods
from ..splitters._group_kfold import group_kfold

REGRESSION_LOSSES = ("squared_error", "absolute_error")
"""The per-instance losses of a regression task; the first is its default."""


def is_regression(estimator):
    """Whether ``estimator`` predicts a quantity (scikit-learn's :func:`~sklearn.base.is_regressor`)."""
    return bool(is_regressor(estimator))


def default_loss(loss, regression):
    """``loss``, or the task's default when None: squared error for a regressor, zero-one otherwise."""
    if loss is not None:
        return loss
    return REGRESSION_LOSSES[0] if regression else "zero_one"


def metric_list(metric):
    """``metric`` as a list: None is none, a str or callable is one, a list or tuple is itself."""
    if metric is None:
        return []
    if isinstance(metric, (list, tuple)):
        return list(metric)
    return [metric]


def score_metric_names():
    """The scorer names computed from scores (predict_proba or decision_function) that :func:`metric_interval`
    computes, such as roc_auc; a scorer it does not (roc_auc_ovo) is refused before any fit."""
    return sorted(SCORE_METRICS)


def metric_names(regression):
    """The scorer names a record of this task can be measured by: from predictions, and for a classifier from
    scores too; "accuracy" is always one."""
    names = _names_computable_from_predictions(classification=not regression)
    return names if regression else names + score_metric_names()


def uncomputed_score_metric(name):
    """What to say of a scikit-learn scorer of scores whose intervals are not computed here (roc_auc_ovo), else None."""
    from sklearn.metrics import get_scorer_names

    if name in SCORE_METRICS or name not in get_scorer_names() or score_methods(name) is None:
        return None
    return (f"{name} is a scikit-learn scorer of predict_proba or decision_function scores whose intervals cvinference "
            f"does not compute; it computes those of {', '.join(SCORE_METRICS)} (roc_auc_ovr is the one-vs-rest AUC "
            "of more than two classes), and of any metric of predicted labels such as balanced_accuracy")


def check_metric_names(metrics, regression):
    """Refuse, before any fit, a metric name that no record of this task can be measured by."""
    unknown = [m for m in metrics if isinstance(m, str) and m != "accuracy" and m not in metric_names(regression)]
    if unknown and not regression and uncomputed_score_metric(unknown[0]):
        raise ValueError(f"metric={unknown[0]!r}: {uncomputed_score_metric(unknown[0])}.")
    if unknown:
        what = "a regressor's predictions" if regression else "a classifier's predicted labels or scores"
        raise ValueError(f"metric={unknown[0]!r} is not a scikit-learn scorer name computable from {what}; use one "
                         f"of {', '.join(sorted(metric_names(regression)))}, a make_metric metric or a callable "
                         "(y_true, y_pred) -> float")


def decision_metric(metrics):
    """What the decision is about: the first metric, "accuracy" without one."""
    return metrics[0] if metrics else "accuracy"


def response_method(metrics):
    """What the evaluator keeps for ``metrics``: None without a metric of scores, "predict_proba" when one needs
    probabilities (neg_log_loss), else "auto" (predict_proba, or decision_function where there is none).

    Examples
    --------
    >>> response_method(["f1"]), response_method(["roc_auc"]), response_method(["neg_log_loss"])
    (None, 'auto', 'predict_proba')
    """
    needed = [score_methods(metric) for metric in metrics if isinstance(metric, str)
              and score_methods(metric) is not None]
    if not needed:
        return None
    return "predict_proba" if ("predict_proba",) in needed else "auto"


def resolved_cv(cv, n_samples, groups, regression, random_state):
    """The folds to run: an int k equal to the instances is leave-one-out; with groups, an int k is the toolkit's
    shuffling group k-fold (seeded by ``random_state``), as the command line's ``--groups`` draws it."""
    if isinstance(cv, int) and groups is None and cv == n_samples:
        return "loo"
    if isinstance(cv, int) and groups is not None:
        return group_kfold(not regression, cv, random_state=random_state)
    return cv


def check_folds(cv, n_repeats, n_samples):
    """Refuse more folds than instances and repeats of leave-one-out, naming the fix."""
    if isinstance(cv, int) and not isinstance(cv, bool) and cv > n_samples:
        raise ValueError(f"cv={cv} is more folds than the {n_samples} instances; use cv=2 to {n_samples}, "
                         "or cv='loo'")
    if cv == "loo" and n_repeats > 1:
        raise ValueError(f"n_repeats={n_repeats} needs k-fold cross-validation: leave-one-out gives the same "
                         "partition every time (Wong 2015, section 5.1); use n_repeats=1 or cv=K")


def evaluator(cv, *, n_repeats, loss, metrics, n_jobs, random_state, verbose):
    """The :class:`CVEvaluator` of a front-door call: the scores kept that its metrics need."""
    return CVEvaluator(cv=cv, n_repeats=n_repeats, loss=loss, n_jobs=n_jobs, random_state=random_state,
                       response_method=response_method(metrics), verbose=int(verbose))


def fold_count(cv, X, y, groups):
    """The folds of one partition: one per instance under leave-one-out, k for an int, the splitter's otherwise."""
    if isinstance(cv, str):
        return len(y)
    if isinstance(cv, int):
        return cv
    if hasattr(cv, "get_n_splits"):
        return cv.get_n_splits(X, y, groups)
    return len(list(cv))


def by_name(intervals):
    """A report's :class:`~cvinference.report.NamedInterval` s as the front door's read-only mapping, name to
    Interval, in the report's order."""
    return MappingProxyType({found.name: found.interval for found in intervals})


def say(verbose, message):
    """A progress line on standard error when ``verbose``, as the command line prints it."""
    if verbose:
        print(f"cvinference: {message}", file=sys.stderr, flush=True)


def can_repeat(cv):
    """Whether ``cv`` draws a new partition per repeat (a shuffling splitter or a number of folds), so that a route
    to more repeats can run."""
    try:
        check_cv_argument(cv, 2)
    except ValueError:
        return False
    return True
