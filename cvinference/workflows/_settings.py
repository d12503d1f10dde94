"""What ``evaluate`` and ``compare`` share: the task, the loss, the folds, the evaluator and the progress lines."""

import sys

from sklearn.base import is_regressor

from ..evaluation import CVEvaluator
from ..evaluation._seeding import seed_learners, seeding_note
from ..inference._metric_interval import _POSITIVE_CLASS, score_methods, takes_pos_label
from ..inference._metric_names import (  # noqa: F401 - shared with the command line and plan
    check_metric_names,
    metric_names,
    score_metric_names,
    uncomputed_score_metric,
)
from ..policy._design import (  # noqa: F401 - the planner's
    REGRESSION_LOSSES,
    FrontDoorCV,
    check_folds,
    default_loss,
    fold_count,
    resolved_cv,
)


def check_pos_label(pos_label, metrics, regression):
    """Refuse, before any fit, a ``pos_label`` that no metric reads, as :func:`~cvinference.metric_interval` and
    the command line's ``--pos-label`` do: a regressor's target has no positive class, and of a classifier's metrics
    only those about one class (f1, precision, recall, jaccard) take one."""
    if pos_label is None:
        return
    if regression:
        raise ValueError(f"pos_label={pos_label!r} names a positive class, and a regressor's target is a quantity, "
                         "with none; drop pos_label.")
    if not any(takes_pos_label(metric) for metric in metrics):
        raise ValueError(f"pos_label={pos_label!r} is the positive class of a metric about one class "
                         f"({', '.join(map(repr, _POSITIVE_CLASS))}), and metric={metric_words(metrics)} asks for "
                         "none; add such a metric (metric='f1'), or drop pos_label.")


def metric_words(metrics):
    """``metrics`` as the caller passed them, for a message: None, one metric's repr, or the list."""
    return None if not metrics else repr(metrics[0]) if len(metrics) == 1 else repr(metrics)


def is_regression(estimator):
    """Whether ``estimator`` predicts a quantity (scikit-learn's :func:`~sklearn.base.is_regressor`)."""
    return bool(is_regressor(estimator))


def metric_list(metric):
    """``metric`` as a list: None is none, a str or callable is one, a list or tuple is itself."""
    if metric is None:
        return []
    if isinstance(metric, (list, tuple)):
        return list(metric)
    return [metric]


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


def evaluator(cv, *, n_repeats, loss, metrics, n_jobs, random_state, verbose):
    """The :class:`CVEvaluator` of a front-door call: the scores kept that its metrics need."""
    return CVEvaluator(cv=cv, n_repeats=n_repeats, loss=loss, n_jobs=n_jobs, random_state=random_state,
                       response_method=response_method(metrics), verbose=int(verbose))


def seeded(estimators, random_state, labels):
    """The learners to fit, each unset ``random_state`` parameter seeded from ``random_state`` on a clone
    (:mod:`cvinference.evaluation._seeding`), and the report's note naming what was seeded (None: nothing was)."""
    learners, seeds = seed_learners(estimators, random_state)
    return learners, seeding_note(labels, estimators, seeds, random_state)


def say(verbose, message):
    """A progress line on standard error when ``verbose``, as the command line prints it."""
    if verbose:
        print(f"cvinference: {message}", file=sys.stderr, flush=True)
