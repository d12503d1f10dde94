"""Score metrics fold by fold (ROC AUC, average precision, log loss, Brier), their per-instance losses, and the
corrected resampled t on them.

Pure functions of arrays laid out as a record keeps them: ``y_true``
(n_samples,), ``y_score`` per repeat (n_repeats, n_samples) for two classes
(the scores of ``classes[1]``) or (n_repeats, n_samples, n_classes) with one
column per class in the order of ``classes``, and ``fold`` (n_repeats,
n_samples), each fold numbered 0 .. k - 1 in every repeat.
"""

import dataclasses
import types

import numpy as np
from sklearn.metrics import average_precision_score

from .._utils._params import PROBABILITY, validate_params
from .._utils._warnings import Messages, quietly
from ..records._losses import Loss, get_loss
from ._accuracy_interval import PointEstimate, estimate_interval, warned_bounds
from ._delong import _labels, placements
from ._parameters import ALTERNATIVE
from ._resampled_tests import corrected_ttest_of, score_differences

SCORE_METRICS = ("roc_auc", "average_precision", "log_loss", "brier")
"""The score metrics :func:`fold_metric_table` computes by name."""

_RANKING = ("roc_auc", "average_precision")
_RANGES = {"roc_auc": (0.0, 1.0), "average_precision": (0.0, 1.0), "brier": (0.0, 2.0), "log_loss": (0.0, None)}


# --------------------------------------------------------------------------- inputs


def _classes(y_true, classes):
    y_true, present = _labels(y_true)
    classes = present if classes is None else np.asarray(classes)
    if len(classes) < 2 or not np.isin(present, classes).all():
        raise ValueError(f"classes must hold every class of y_true ({present.tolist()[:10]}), two or more; "
                         f"got classes={classes.tolist()}.")
    return y_true, classes


def _score_layout(y_score, n_samples, n_classes):
    """``y_score`` as float64 (n_repeats, n_samples) for two classes, (n_repeats, n_samples, K) for more."""
    y_score = np.asarray(y_score, dtype=np.float64)
    if y_score.ndim == (1 if n_classes == 2 else 2):
        y_score = y_score[np.newaxis]
    expected = "(n_repeats, n_samples)" if n_classes == 2 else "(n_repeats, n_samples, n_classes)"
    if y_score.ndim != (2 if n_classes == 2 else 3) or y_score.shape[1] != n_samples or (
            n_classes > 2 and y_score.shape[2] != n_classes):
        raise ValueError(
            f"y_score must have shape {expected} for {n_classes} classes and {n_samples} instances (for two "
            f"classes, the scores of the second class only); got shape {y_score.shape}."
        )
    if not np.isfinite(y_score).all():
        raise ValueError("y_score holds NaN or infinite scores; every instance needs a finite score in every repeat.")
    return y_score


def _fold_layout(fold, shape):
    fold = np.asarray(fold)
    if fold.ndim == 1:
        fold = fold[np.newaxis]
    if fold.shape != shape or not np.issubdtype(fold.dtype, np.integer) or fold.min() < 0:
        raise ValueError(f"fold must hold a fold number 0 .. k - 1 for every instance of every repeat, shape "
                         f"{shape}; got shape {fold.shape} and dtype {fold.dtype}.")
    return fold


def probabilities(y_score, n_classes):
    """One repeat's scores as (n_samples, n_classes) probabilities; two classes: [1 - p, p].

    Refuses scores outside [0, 1] (decision values), which the losses cannot use.
    """
    if y_score.min() < 0 or y_score.max() > 1:
        raise ValueError(
            f"y_score holds values outside [0, 1] (from {y_score.min():.4g} to {y_score.max():.4g}): decision "
            "values, not probabilities. The log loss and the Brier score need predicted probabilities "
            "(response_method='predict_proba'); the ROC AUC accepts either."
        )
    if n_classes == 2:
        return np.column_stack([1.0 - y_score, y_score])
    return y_score


# --------------------------------------------------------------------------- per-instance losses


def score_losses(y_true, y_score, *, loss="log_loss", classes=None):
    """Per-instance losses of out-of-fold probabilities, as the record's losses compute them.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_repeats, n_samples) or (n_repeats, n_samples, n_classes)
        Out-of-fold probabilities: of ``classes[1]`` for two classes, one
        column per class otherwise (one repeat may drop the first axis).
    loss : {"log_loss", "brier"} or Loss, default="log_loss"
        A name of the package's losses, or a :class:`Loss` that needs
        probabilities, such as ``make_log_loss(clip=...)``.
    classes : array-like, default=None
        The classes in column order; the sorted labels of ``y_true`` by
        default.

    Returns
    -------
    ndarray of shape (n_repeats, n_samples)
        For :func:`loss_interval`'s Bayle et al. (2020) CV-CLT interval (and
        the half-sample one) on the record's per-instance losses.

    Notes
    -----
    The losses are the package's own (``cvinference/records/_losses.py``),
    so that a record that kept its scores gives the same numbers as one
    evaluated with ``loss="log_loss"``: -ln p(true class) with p clipped to
    Nedel'ko's (2021, section 5) [0.001, 0.999] (``make_log_loss`` for
    another clip; with ``eps = numpy.finfo(float).eps``,
    ``make_log_loss((eps, 1 - eps))`` is ``sklearn.metrics.log_loss``),
    and the Brier score sum_k (p_k - [y = k])^2, halved for two classes (Brier 1950, as ``brier_score_loss``).
    Their means are averages of per-instance losses, so Bayle, Bayle,
    Janson & Mackey's (2020, section 3) CV-CLT applies to them as to any
    loss; the fold-level t applies too (:func:`fold_metric_table`).

    Examples
    --------
    >>> import numpy as np
    >>> score_losses([0, 1, 1], [0.2, 0.9, 0.4], loss="brier").round(4).tolist()
    [[0.04, 0.01, 0.36]]
    """
    y_true, classes = _classes(y_true, classes)
    loss = get_loss(loss)
    if not (isinstance(loss, Loss) and loss.needs_proba):
        raise ValueError(f"loss={loss.name!r} does not use probabilities; score_losses computes 'log_loss', "
                         "'brier' or a make_loss(..., needs_proba=True) from the kept scores.")
    scores = _score_layout(y_score, y_true.size, len(classes))
    return np.array([loss(y_true, probabilities(row, len(classes)), classes) for row in scores])


# --------------------------------------------------------------------------- fold table


def _refuse_missing_class(metric, y_fold, classes, repeat, fold):
    present = np.isin(classes, y_fold)
    if not present.all():
        raise ValueError(
            f"{metric} is undefined on fold {fold} of repeat {repeat}: it holds no instance of class(es) "
            f"{classes[~present].tolist()} (its classes: {np.unique(y_fold).tolist()}). A ranking metric needs "
            "every class in every test fold: use a stratified splitter or fewer folds, or the pooled DeLong "
            f"interval (metric_interval(result, {metric!r}, method='delong')), which needs no class in every fold."
        )


def _average_precision(y_fold, scores, classes):
    """sklearn's average precision: of ``classes[1]`` for two classes, the one-vs-rest macro mean otherwise."""
    if len(classes) == 2:
        return float(average_precision_score(y_fold == classes[1], scores))
    return float(np.mean([average_precision_score(y_fold == c, scores[:, k]) for k, c in enumerate(classes)]))


def _fold_value(metric, y_fold, scores, classes, losses):
    if metric == "roc_auc":
        if len(classes) == 2:
            return placements(y_fold == classes[1], scores)[0]
        return float(np.mean([placements(y_fold == c, scores[:, k])[0] for k, c in enumerate(classes)]))
    if metric == "average_precision":
        return _average_precision(y_fold, scores, classes)
    return float(losses.mean())


def fold_metric_table(y_true, y_score, fold, *, metric="roc_auc", classes=None):
    """A score metric on every test fold of every repeat: the (n_repeats, n_splits) table.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_repeats, n_samples) or (n_repeats, n_samples, n_classes)
        Out-of-fold scores: of ``classes[1]`` for two classes, one column
        per class otherwise (one repeat may drop the first axis).
    fold : array-like of int, shape (n_repeats, n_samples)
        Each instance's test fold in each repeat, 0 .. k - 1.
    metric : {"roc_auc", "average_precision", "log_loss", "brier"} or Loss, default="roc_auc"
        ``"roc_auc"``: sklearn's ``roc_auc_score`` (one-vs-rest macro for
        three classes or more); ``"average_precision"``: sklearn's
        ``average_precision_score`` (macro mean of the one-vs-rest APs for
        three or more); ``"log_loss"``, ``"brier"`` or a :class:`Loss` that
        needs probabilities: the fold's mean per-instance loss
        (:func:`score_losses`).
    classes : array-like, default=None
        The classes in column order; the sorted labels of ``y_true``.

    Returns
    -------
    ndarray of shape (n_repeats, n_splits)
        For :func:`corrected_fold_interval` and :func:`corrected_fold_test`.

    Raises
    ------
    ValueError
        When a fold lacks a class for ``"roc_auc"`` or
        ``"average_precision"`` (naming the fold, the repeat and the fix),
        or probabilities are needed and ``y_score`` holds decision values.

    Notes
    -----
    A fold without a class has no AUC (and no average precision). Such a
    fold is refused rather than dropped: the corrected t's correction
    n_test / n_train and its k r values assume every fold, a dropped fold
    would be one whose class is rare, so dropping biases the mean, and with
    a stratified splitter (the package's default for classifiers) it occurs
    only when a class has fewer members than folds. The pooled DeLong
    interval (``metric_interval(result, "roc_auc", method="delong")``)
    needs no class in every fold.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 1, 0, 1, 0, 1, 1, 0])
    >>> score = np.array([[0.2, 0.7, 0.4, 0.3, 0.1, 0.9, 0.6, 0.5]])
    >>> fold = np.array([[0, 0, 0, 0, 1, 1, 1, 1]])
    >>> fold_metric_table(y, score, fold).tolist()
    [[0.75, 1.0]]
    """
    y_true, classes = _classes(y_true, classes)
    scores = _score_layout(y_score, y_true.size, len(classes))
    fold = _fold_layout(fold, scores.shape[:2])
    name = metric if isinstance(metric, str) else None
    if name in _RANKING:
        losses = np.zeros(scores.shape[:2])
    elif name is None or name in SCORE_METRICS:
        losses = score_losses(y_true, scores, loss=metric, classes=classes)
    else:
        raise ValueError(f"metric must be one of {list(SCORE_METRICS)} or a Loss that needs probabilities "
                         f"(make_log_loss(...)); got metric={metric!r}.")
    n_splits = int(fold.max()) + 1
    table = np.empty((scores.shape[0], n_splits))
    for r in range(scores.shape[0]):
        for j in range(n_splits):
            in_fold = fold[r] == j
            if not in_fold.any():
                raise ValueError(f"fold {j} of repeat {r} holds no instance; fold must number the folds 0 .. k - 1 "
                                 "in every repeat.")
            if name in _RANKING:
                _refuse_missing_class(name, y_true[in_fold], classes, r, j)
            table[r, j] = _fold_value(name, y_true[in_fold], scores[r][in_fold], classes, losses[r][in_fold])
    return table


# --------------------------------------------------------------------------- corrected t on fold values


def _check_table(values, name):
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 2 or values.shape[1] < 2 or not np.isfinite(values).all():
        raise ValueError(f"{name} must be a finite (n_repeats, n_splits) table of fold values with n_splits >= 2, "
                         f"as fold_metric_table makes it; got shape {values.shape}.")
    return values


def _metric_name(metric):
    return metric if isinstance(metric, str) else metric.name


@validate_params(confidence_level=PROBABILITY)
def corrected_fold_interval(values, *, confidence_level=0.95, metric="roc_auc"):
    """Corrected resampled t interval for the mean of a fold-level metric over (repeated) k-fold.

    Parameters
    ----------
    values : array-like of shape (n_repeats, n_splits)
        The metric on each test fold (:func:`fold_metric_table`), equal-size
        k-fold repeated ``n_repeats`` times.
    confidence_level : float, default=0.95
    metric : str or Loss, default="roc_auc"
        The metric's name, for the estimand and the range the interval is
        clipped to (AUC and average precision [0, 1], Brier [0, 2], log
        loss [0, inf)).

    Returns
    -------
    Interval
        ``method`` ``"corrected-t"``, ``averaging`` ``"fold"``, ``target``
        ``"unconditional"``, ``df`` = k r - 1; ``details`` hold the
        ``variance_factor`` 1 / (k r) + 1 / (k - 1).

    Notes
    -----
    The mean of the k r fold values +- t_{kr-1} sqrt((1 / (k r) + n_test /
    n_train) s^2), s^2 their sample variance and n_test / n_train = 1 / (k
    - 1): Nadeau & Bengio's (2003, "Inference for the generalization error",
    Machine Learning 52:239-281) corrected resampled t, in Bouckaert &
    Frank's (2004) repeated k-fold form, computed by the package's
    :func:`corrected_resampled_ttest` machinery (``corrected_ttest_of``) on
    the fold values; the correction is a heuristic for k-fold (see there).

    What it covers: the expected metric of a model the learner fits to n (k
    - 1) / k instances, over training sets of that size (Nadeau & Bengio's
    generalization error; target ``"unconditional"``), each fold's value
    computed with that fold's model alone, so unlike the pooled DeLong
    interval it never compares scores of different models. It assumes the
    k r values share one mean and variance with correlation about n_test /
    n; with k = 10 and r = 1 it rests on 9 degrees of freedom.

    Examples
    --------
    >>> table = [[0.81, 0.77, 0.85, 0.79, 0.83], [0.80, 0.84, 0.78, 0.82, 0.80]]
    >>> corrected_fold_interval(table)
    Interval(estimate=0.809, low=0.7742, high=0.8438, confidence_level=0.95, method='corrected-t')
    """
    values = _check_table(values, "values")
    name = _metric_name(metric)
    k, r = values.shape[1], values.shape[0]
    test = quietly(corrected_ttest_of, score_differences(values, n_splits=k, n_repeats=r, quantity=name,
                                                         contrast="of the learner"))
    messages = Messages()
    messages.note(f"{name} per fold: " + ", ".join(f"{value:.4g}" for value in values.ravel()))
    messages.note(f"{r} x {k}-fold: variance factor 1/{values.size} + 1/{k - 1} = "
                  f"{test.details['variance_factor']:.4g} (Nadeau & Bengio 2003; Bouckaert & Frank 2004)")
    bounds = warned_bounds(test.estimate, test.standard_error, confidence_level, test.df, messages,
                           limits=_RANGES.get(name, (None, None)), what=name)
    estimand = (f"expected {name} of the models the learner fits to (k - 1)/k = {k - 1}/{k} of the instances, "
                "averaged over training sets of that size from the population (Nadeau & Bengio 2003's "
                "generalization error), each fold's value from that fold's model alone")
    return estimate_interval(
        PointEstimate(test.estimate, values.size, bounds),
        confidence_level=confidence_level, method="corrected-t", averaging="fold", estimand=estimand,
        assumptions=(f"{r} x {k}-fold values share one mean and variance, any two correlated by about "
                     "n_test / n (Nadeau & Bengio's approximation, a heuristic for k-fold); normal fold values"),
        target="unconditional", messages=messages,
        details={"variance_factor": test.details["variance_factor"], "k": k, "r": r},
    )


UNBOUNDED_DIFFERENCES = ("neg_log_loss", "neg_brier_score", "log_loss", "brier")
"""The losses and sklearn's negated losses: A - B of them is a LossDifferenceTestResult's estimate, unclipped (a
log-loss difference has no bound, a multi-class Brier difference lies in [-2, 2]); for a negated loss it is mean
loss(B) - mean loss(A)."""


@validate_params(alternative=ALTERNATIVE)
def corrected_fold_test(values_a, values_b, *, metric="roc_auc", alternative="two-sided"):
    """Corrected resampled t on two learners' fold-level metric on identical folds.

    Parameters
    ----------
    values_a, values_b : array-like of shape (n_repeats, n_splits)
        Learner A's and B's :func:`fold_metric_table` on the same folds.
    metric : str or Loss, default="roc_auc"
        The metric's name, for the estimand.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative to "equal means"; ``"greater"`` is "A's metric is
        larger" (for a loss, larger is worse).

    Returns
    -------
    TestResult or LossDifferenceTestResult
        ``estimate`` is metric(A) - metric(B) in the metric's own direction
        (for ``"log_loss"`` and ``"brier"`` a negative estimate favours A);
        as :func:`corrected_resampled_ttest` otherwise. For sklearn's
        negated losses (``"neg_log_loss"``, ``"neg_brier_score"``) the
        estimate is mean loss(B) - mean loss(A), positive when A is better,
        and the result a :class:`LossDifferenceTestResult`, whose interval
        is not clipped to [-1, 1].

    Notes
    -----
    The t of :func:`corrected_resampled_ttest` (Nadeau & Bengio 2003;
    Bouckaert & Frank 2004) on the k r paired fold differences, from the
    package's ``corrected_ttest_of``. It covers the difference in expected
    metric of the two learners trained on n (k - 1) / k instances (target
    ``"unconditional"``); the DeLong test (:func:`delong_paired_test`) is
    about the fitted models' pooled scores instead.

    Examples
    --------
    >>> a = [[0.81, 0.77, 0.85, 0.79, 0.83], [0.80, 0.84, 0.78, 0.82, 0.80]]
    >>> b = [[0.78, 0.75, 0.80, 0.79, 0.80], [0.77, 0.80, 0.78, 0.80, 0.77]]
    >>> corrected_fold_test(a, b)
    TestResult(statistic=2.673, pvalue=0.02551, df=9, alternative='two-sided', estimate=0.025,
               method='corrected-t')
    """
    values_a, values_b = _check_table(values_a, "values_a"), _check_table(values_b, "values_b")
    if values_a.shape != values_b.shape:
        raise ValueError(f"values_a and values_b must come from the same folds, the same shape; got "
                         f"{values_a.shape} and {values_b.shape}.")
    name = _metric_name(metric)
    differences = score_differences(values_a - values_b, n_splits=values_a.shape[1], n_repeats=values_a.shape[0],
                                    quantity=name, contrast="A minus B) of the two learners",
                                    bounded=not isinstance(metric, Loss) and name not in UNBOUNDED_DIFFERENCES)
    test = corrected_ttest_of(differences, alternative)
    return dataclasses.replace(test, details=types.MappingProxyType(
        {**test.details, "difference": f"{name} A - {name} B"}))
