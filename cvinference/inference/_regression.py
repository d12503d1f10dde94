"""Regression from cross-validation: intervals for MSE, MAE and R², loss-difference tests, the mean baseline.

Everything here rests on Bayle, Bayle, Janson & Mackey's (2020) central limit
theorem for k-fold cross-validation ("Cross-validation confidence intervals
for test error", NeurIPS, section 3): the mean of the n out-of-fold
per-instance losses is asymptotically normal around the mean population loss
of the k models fitted in the folds, with a variance that the spread of the
losses within the folds estimates (:func:`cv_clt_variance`). The theorem is
about any per-instance loss, so it covers a regressor's squared and absolute
errors, the per-instance difference of two learners' losses (their section
3.2, tests of which algorithm has the smaller test error) and, by the delta
method, R² = 1 - MSE / Var(y).

On a record made with groups the instances are not independent, and
``method="auto"`` takes the groups as the units instead: the cluster-robust
(CR1) variance of Cameron & Miller (2015) with a t on G - 1 degrees of
freedom, for the errors, R²'s influence values and the differences from the
trivial regressor.
"""

import dataclasses
import math
import types

import numpy as np

from .._utils._docstring import fill_doc
from .._utils._params import PROBABILITY, Options, validate_params
from .._utils._text import METRIC_WORDS, loss_words
from .._utils._upward import upward
from .._utils._warnings import Messages
from ..records._losses import LOSS_METRICS
from ..records._same_folds import same_folds
from ._accuracy_interval import (
    CLUSTER_METHODS,
    CLUSTER_VARIANCE_FACTOR,
    PointEstimate,
    cluster_point,
    estimate_interval,
    normal_bounds,
)
from ._clustered import paired_difference_result
from ._clusters import CLUSTER_INSTEAD, ROBUST_ASSUMPTIONS, grouped_record_warning, require_clusters
from ._distributions import statistic_and_pvalue
from ._estimands import training_size_phrase
from ._grouped_tests import CLUSTER_PAIRED_CALL
from ._inputs import about_one_record, about_two_learners, check_cv_result, two_results
from ._loss_interval import VARIANCES, check_within_fold, cv_clt_variance
from ._methods import options
from ._parameters import ALTERNATIVE, REPEAT
from ._repeats import pooled_repeats_warning, select_repeats
from ._results import LossDifferenceTestResult

REGRESSION_METRICS = ("r2", "mean_squared_error", "mean_absolute_error")
"""The metrics :func:`regression_interval` gives an interval for."""

METHODS = ("auto", "cv-clt", "cluster")
"""The ``method`` of :func:`mean_baseline_test`."""

INTERVAL_METHODS = ("auto", *options("regression_interval"))
"""The ``method`` of :func:`regression_interval`."""


_LOSS_OF_METRIC = {metric: loss for loss, metric in LOSS_METRICS.items()}

_CLT_ASSUMPTIONS = ("instances drawn independently from the population; a learner stable enough for Bayle et al.'s "
                    "central limit theorem (2020); many instances (an asymptotic normal interval)")

_KFOLD_WORDS = {
    "mean_squared_error": "the mean population squared error of the models fitted in the folds, each to part of this "
                          "dataset (Bayle et al. 2020's target)",
    "mean_absolute_error": "the mean population absolute error of the models fitted in the folds, each to part of "
                           "this dataset (Bayle et al. 2020's target)",
    "r2": "1 - the mean population squared error of the models fitted in the folds over the variance of y",
}
"""What ``regression_interval``'s kfold target is, for each metric, in its warnings."""

CLT_TEST = "cv-clt-difference"
"""The ``method`` of :func:`loss_difference_test`."""


def instance_losses(y_true, y_pred, loss_name):
    """Per-instance squared or absolute errors of predictions ``y_pred`` (any shape ending in n) of ``y_true``."""
    error = np.subtract(y_pred, y_true, dtype=np.float64)
    return np.square(error) if loss_name == "squared_error" else np.abs(error)


def _check_regression(result, name, function):
    check_cv_result(result, name)
    if result.classes is not None:
        raise ValueError(
            f"{function} is about a regressor's errors, and {name} is a classification record (loss_name="
            f"{result.loss_name!r}, classes {np.asarray(result.classes).tolist()}). For a classifier use "
            "accuracy_interval, metric_interval or loss_interval."
        )
    return result


def clt_figures(values, fold, rows, variance):
    """The mean of per-instance ``values`` (n_repeats, n) over ``rows`` and Bayle et al.'s sigma_hat.

    sigma_hat^2 is the mean over the repeats of :func:`cv_clt_variance`, as
    :func:`loss_interval` pools repeats.
    """
    estimate = float(np.mean([values[r].mean() for r in rows]))
    spread = math.sqrt(np.mean([cv_clt_variance(values[r], fold[r], variance) for r in rows]))
    return estimate, spread


def _repeats_and_messages(result, repeat, variance, instead, method="cv-clt", chosen_by_auto=False):
    """The repeats to use (warning when several are pooled, or when the CV-CLT is asked of a grouped record:
    ``instead`` is the cluster-aware method to name), after checking the CV-CLT's variance estimator applies."""
    rows = list(select_repeats(result, repeat))
    messages = Messages()
    if len(rows) > 1:
        messages.warn(pooled_repeats_warning(len(rows)))
    if method in CLUSTER_METHODS:
        if chosen_by_auto:
            messages.note(f"method='auto' chose method='cluster': the record was made with groups ({result.n_groups} "
                          "of them), and the groups, not the instances, are the independent units")
        return rows, messages
    grouped = grouped_record_warning(result, rows, "the CV-CLT (Bayle et al. 2020)", instead)
    if grouped:
        messages.warn(grouped)
    if variance == "within-fold":
        check_within_fold(result, rows)
    return rows, messages


def _chosen_method(result, method):
    """``method``, or for ``"auto"`` the cluster-robust one on a record made with groups and the CV-CLT otherwise."""
    if method in CLUSTER_METHODS:
        require_clusters(result, f"method={method!r}")
    if method != "auto":
        return method
    return "cv-clt" if result.groups is None else "cluster"


def _r2_influence(losses, y_true):
    """R² = 1 - M / V of each repeat and its per-instance influence values, by the delta method.

    M is the mean squared error of a repeat, V = mean (y - mean y)^2; the
    influence of instance i is -(e_i - M) / V + M (q_i - V) / V^2, with
    q_i = (y_i - mean y)^2: the linear term of R² in the two means.
    """
    centred = y_true - y_true.mean()
    scale = float(np.max(np.abs(centred)))
    if not 1e-50 < scale < 1e50:  # R² is free of y's scale: rescaled where V**2 would underflow or overflow
        centred, losses = centred / (scale or 1.0), losses / (scale or 1.0) ** 2
    spread = np.square(centred)
    total = spread.mean()
    mean_loss = losses.mean(axis=1, keepdims=True)
    influence = -(losses - mean_loss) / total + mean_loss * (spread - total) / total**2
    return 1 - mean_loss[:, 0] / total, influence


def _regression_estimand(result, metric):
    trained = f"the models the learner fits to {training_size_phrase(result)}"
    if metric == "r2":
        return (f"R² on the population of {trained} (1 - their mean population squared error over the variance "
                "of y in the population); given this dataset (Vanwinckelen & Blockeel 2015)")
    return (f"{METRIC_WORDS[metric]} on the population of {trained}; given this dataset (Vanwinckelen & "
            "Blockeel 2015)")


@validate_params(metric=Options(*REGRESSION_METRICS), confidence_level=PROBABILITY, variance=Options(*VARIANCES),
                 repeat=REPEAT, method=Options(*INTERVAL_METHODS))
@fill_doc
@about_one_record
def regression_interval(result, metric="r2", *, confidence_level=0.95, variance="within-fold", repeat=None,
                        method="auto"):
    """Confidence interval for a regressor's cross-validated MSE, MAE or R².

    Parameters
    ----------
    result : CVResult
        A regressor's cross-validation record (any ``loss``: the errors are
        computed from ``y_true`` and ``y_pred``).
    metric : {"r2", "mean_squared_error", "mean_absolute_error"}, default="r2"
        What the interval is for.
    %(confidence_level)s
    variance : {"within-fold", "all-pairs"}, default="within-fold"
        Bayle et al.'s estimate of the variance, as in :func:`loss_interval`
        (leave-one-out allows only ``"all-pairs"``); ``method="cluster"``
        does not use it.
    repeat : int or None, default=None
        %(repeat)s N still counts each instance once.
    method : {"auto", "cv-clt", "cluster", "cluster-half-sample"}, default="auto"
        ``"cv-clt"``: Bayle et al.'s (2020) interval, which counts every
        instance as independent (it warns on a record made with groups).
        ``"cluster"``: the cluster-robust interval of a record made with
        ``groups``, the groups as the independent units (see Notes).
        ``"cluster-half-sample"``: the same with twice the variance.
        ``"auto"``: on a record made with groups, ``"cluster"`` where the
        calibration benchmark measured it covering at least 0.93 for the
        metric in the result's regime, else ``"cluster-half-sample"`` (see
        Notes); ``"cv-clt"`` otherwise.

    Returns
    -------
    Interval
        ``method`` the one used, ``target="kfold"``. The MSE
        and MAE intervals are clipped at 0, R²'s at 1 (its highest possible
        value); ``estimate`` is the mean over the repeats of
        ``sklearn.metrics`` ``r2_score``, ``mean_squared_error`` or
        ``mean_absolute_error`` on each repeat's out-of-fold predictions.
        The cluster intervals: ``df`` = G - 1, and ``details`` the figures of the
        cluster-robust variance (``n_groups``, ``design_effect``, ...; see
        :func:`accuracy_interval`), of the errors or, for R², of the delta
        method's influence values.

    Raises
    ------
    ValueError
        For a classification record, and for ``method="cluster"`` on a
        record made without groups.

    Notes
    -----
    ``"cv-clt"``: MSE and MAE are means of per-instance losses L_i (squared
    or absolute errors of the out-of-fold predictions), and the interval is
    that of ``loss_interval(method="cv-clt")`` (Bayle, Bayle, Janson &
    Mackey 2020, section 3): mean L +- z sigma_hat / sqrt(N), with
    sigma_hat^2 the mean over the folds of their losses' sample variances
    (``"within-fold"``) or the variance of all N losses (``"all-pairs"``).
    Its target is the mean population loss of the k models fitted in the
    folds (``"kfold"``).

    R² is not a mean of per-instance losses but a smooth function of two
    means, R² = 1 - M / V with M the mean squared error and V = (1/N) sum_i
    (y_i - mean y)^2, as ``sklearn.metrics.r2_score`` computes it on the N
    out-of-fold predictions. The delta method (e.g. van der Vaart 1998,
    Asymptotic Statistics, chapter 3) linearises it: R²_hat - R² is
    asymptotically the mean of the influence values

        phi_i = -(L_i - M) / V + M (q_i - V) / V^2,   q_i = (y_i - mean y)^2,

    a per-instance "loss" to which Bayle et al.'s theorem applies as to any
    other (q_i does not depend on the fitted models), so the interval is
    R²_hat +- z sigma_hat(phi) / sqrt(N), sigma_hat from ``variance``. Its
    target is 1 - (the folds' models' mean population squared error) /
    Var(y). This is chosen over R² computed per fold with a t interval
    (``metric_interval(result, "r2")``): a fold's R² measures its errors
    against the fold's own mean of y, which is biased low on small folds,
    and its k values give a t with k - 1 degrees of freedom only.

    Bayle et al.'s interval is asymptotic, and the calibration benchmark
    (docs/calibration.md, "Regression") measured it short of nominal in
    several cells: small samples, a regression tree, a heavy-tailed target.
    Where the cells that stand for the result (its learner, or its family's,
    at the measured sizes on either side of N) hold one whose 95% Wilson
    interval of the coverage of the kfold target stays below 0.93, an
    ``InferenceWarning`` gives the worst measured coverage and its cell, and
    names a measured method that did not fall short there (ten pooled
    repeats, or ``nested_cv_interval``), or says that none did.

    ``"cluster"``: MSE and MAE are ratio estimators sum_g L_g / N of the
    groups' error totals L_g, with the cluster-robust (CR1) variance G / (G
    - 1) sum_g (L_g - Lbar m_g)^2 / N^2 and a t with G - 1 degrees of
    freedom (Cameron & Miller 2015, "A practitioner's guide to
    cluster-robust inference", J. Human Resources 50(2), sections II.C and
    VI): ``loss_interval(method="cluster")`` of the squared or absolute
    errors. For R², M and V are both ratio estimators over the groups, and
    the delta method above applies to them with their joint cluster-robust
    covariance Sigma = G / (G - 1) sum_g u_g u_g' / N^2, u_g = (sum_{i in g}
    (L_i - M), sum_{i in g} (q_i - V)) (Cameron & Miller, section II.C, for
    two means at once): the variance of R²_hat is grad' Sigma grad with
    grad = (-1 / V, M / V^2), which is the CR1 variance G / (G - 1) sum_g
    Phi_g^2 / N^2 of the groups' totals Phi_g of the influence values phi_i
    (mean y enters V with derivative 0, so its estimation does not change
    the first-order variance). The interval is R²_hat +- t_{G-1}
    sqrt(that). The delta method is chosen over a cluster bootstrap of the
    groups because it is the same CR1 construction as the MSE's, with the
    same t reference, and needs no resampling. With repeats, the
    estimate averages them and the variance is the mean of their variances,
    as for the other intervals (Wong 2015, section 4.3.4).

    ``"cluster-half-sample"`` doubles that variance: Nedel'ko (2021, section
    3) found the cross-validated error varying about as much as an error
    measured on half the sample, and ``accuracy_interval``'s half-sample
    cluster interval carries that factor to the groups; this is the same
    construction for the errors and R² (the carrying over to groups is the
    toolkit's own). ``method="auto"`` reads the benchmark's grouped
    regression cells of the metric (docs/calibration.md, "Grouped
    regression"), matched by the learner and sized by the number of groups
    G, and keeps ``"cluster"`` where its measured coverage of the kfold
    target is at least 0.93 in every such cell; otherwise it takes the
    half-sample form if that reached 0.93, or else the better of the two
    with a warning. An explicit cluster method warns where it was measured
    below 0.93.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from cvinference import cross_val_correctness
    >>> from cvinference.inference import regression_interval
    >>> X, y = load_diabetes(return_X_y=True)
    >>> result = cross_val_correctness(Ridge(alpha=0.1), X, y, cv=10, loss="squared_error", random_state=0)
    >>> r2 = regression_interval(result, "r2")
    >>> r2.method, r2.target, round(r2.estimate, 3), r2.high <= 1
    ('cv-clt', 'kfold', 0.492, True)
    >>> any("in the benchmark" in warning for warning in r2.warnings)  # measured short of nominal at this N
    True
    >>> round(regression_interval(result, "mean_squared_error").estimate)
    3012

    With groups (here 34 groups of 13 consecutive rows, as if they were
    repeated measures), ``method="auto"`` counts the groups; the benchmark
    measured ridge regression's cluster-robust R² interval short of 0.93 at
    about this many groups, so it takes the half-sample form, sqrt(2) as
    wide:

    >>> import numpy as np
    >>> from sklearn.model_selection import GroupKFold
    >>> groups = np.arange(y.size) // 13
    >>> grouped = cross_val_correctness(Ridge(alpha=0.1), X, y, cv=GroupKFold(10), groups=groups,
    ...                                 loss="squared_error")
    >>> r2 = regression_interval(grouped, "r2")
    >>> r2.method, r2.details["df"], round(r2.estimate, 3), round(r2.low, 3), round(r2.high, 3)
    ('cluster-half-sample', 33, 0.491, 0.388, 0.594)
    >>> cluster = regression_interval(grouped, "r2", method="cluster")
    >>> round((r2.high - r2.low) / (cluster.high - cluster.low), 3)
    1.414
    """
    _check_regression(result, "result", "regression_interval")
    chosen = _chosen_method(result, method)
    rows, messages = _repeats_and_messages(result, repeat, variance, CLUSTER_INSTEAD, chosen)
    if method == "auto" and chosen in CLUSTER_METHODS:  # the policy chooses on the evidence; the notes say why
        chosen = upward("policy", "choose_method")("regression_interval", result, messages, metric=metric)
    else:
        upward("policy", "evidence_warnings")("regression_interval", result, chosen, messages, metric=metric,
                                              variance=variance, n_pooled=len(rows))
    y_true = np.asarray(result.y_true, dtype=np.float64)
    if chosen in CLUSTER_METHODS:
        point = _cluster_regression_point(result, metric, rows, y_true, confidence_level, messages, chosen)
        return estimate_interval(point, confidence_level=confidence_level, method=chosen, averaging="dataset",
                                 estimand=_regression_estimand(result, metric), assumptions=ROBUST_ASSUMPTIONS,
                                 target="kfold", messages=messages)
    if metric == "r2" and np.ptp(y_true) == 0:
        return _constant_target_r2(result, rows, y_true, confidence_level, messages)
    if metric == "r2":
        losses = instance_losses(y_true, result.y_pred, "squared_error")
        values, influence = _r2_influence(losses, y_true)
        estimate = float(values[rows].mean())
        spread = clt_figures(influence, result.fold, rows, variance)[1]
        limits = (None, 1.0)
    else:
        losses = instance_losses(y_true, result.y_pred, _LOSS_OF_METRIC[metric])
        estimate, spread = clt_figures(losses, result.fold, rows, variance)
        limits = (0.0, None)
    messages.note(f"sigma_hat = {spread:.4g}, the {variance} estimate of Bayle et al. (2020, section 3)"
                  + (" of the delta method's influence values" if metric == "r2" else ""))
    bounds = normal_bounds(estimate, spread / math.sqrt(result.n_samples), confidence_level, None, messages,
                           limits=limits, what=METRIC_WORDS[metric], exact_advice="")
    point = PointEstimate(estimate=estimate, n=result.n_samples, bounds=bounds)
    return estimate_interval(point, confidence_level=confidence_level, method="cv-clt", averaging="dataset",
                             estimand=_regression_estimand(result, metric), assumptions=_CLT_ASSUMPTIONS,
                             target="kfold", details={"variance": variance, "sigma_hat": spread}, messages=messages)


def _constant_target_r2(result, rows, y_true, confidence_level, messages):
    """R² of a constant target, where var(y) = 0 leaves 1 - MSE / var(y) undefined: sklearn's ``r2_score``
    convention (1 for perfect predictions, else 0), as :func:`metric_interval` gives it, with a warning."""
    perfect = not np.any(result.y_pred[rows] != y_true)
    estimate = 1.0 if perfect else 0.0
    messages.warn(f"y is constant ({y_true[0]:g}), so R² = 1 - MSE / var(y) is undefined (var(y) = 0); as "
                  f"sklearn's r2_score does, it is {estimate:g} ({'perfect' if perfect else 'imperfect'} "
                  "predictions), and the interval is that value alone. The mean squared error "
                  "(metric='mean_squared_error') is defined.")
    bounds = normal_bounds(estimate, 0.0, confidence_level, None, messages, limits=(None, 1.0), what="R²",
                           exact_advice="")
    point = PointEstimate(estimate=estimate, n=result.n_samples, bounds=bounds)
    return estimate_interval(point, confidence_level=confidence_level, method="cv-clt", averaging="dataset",
                             estimand=_regression_estimand(result, "r2"), assumptions=_CLT_ASSUMPTIONS,
                             target="kfold", details={"variance": "within-fold", "sigma_hat": 0.0}, messages=messages)


def _cluster_regression_point(result, metric, rows, y_true, confidence_level, messages, method):
    """The cluster-robust (CR1, t with G - 1 df) interval of MSE or MAE, or of R² by the delta method, of the
    cluster ``method``."""
    clusters = require_clusters(result, f"method={method!r}")
    variance_factor = CLUSTER_VARIANCE_FACTOR[method]
    folds = result.fold[rows]
    if metric != "r2":
        losses = instance_losses(y_true, result.y_pred[rows], _LOSS_OF_METRIC[metric])
        return cluster_point(losses, clusters, folds, confidence_level, messages, limits=(0.0, None),
                             what=METRIC_WORDS[metric], exact_advice="", variance_factor=variance_factor)
    values, influence = _r2_influence(instance_losses(y_true, result.y_pred[rows], "squared_error"), y_true)
    point = cluster_point(influence, clusters, folds, confidence_level, messages, center=float(values.mean()),
                          limits=(None, 1.0), what="R²", exact_advice="", variance_factor=variance_factor)
    messages.note("R² by the delta method: the cluster-robust variance of the groups' totals of its influence "
                  "values (the mean squared error and the variance of y as two ratio estimators over the groups)")
    return point


def _loss_pair(a, b, function):
    """Check two records for a per-instance comparison of their losses (same instances, losses and folds)."""
    a, b = two_results(a, b, function)
    for name, result in (("a", a), ("b", b)):
        check_cv_result(result, name)
    if a.loss_name != b.loss_name:
        raise ValueError(f"{function} compares the same loss of two learners; a has loss_name={a.loss_name!r} and "
                         f"b has loss_name={b.loss_name!r}. Evaluate both with the same loss= (CVEvaluator.compare).")
    if a.n_samples != b.n_samples or not np.array_equal(a.y_true, b.y_true) or not same_folds(a, b):
        raise ValueError(f"{function} pairs the losses of A and B instance by instance within each fold, but a and b "
                         "were not cross-validated on the same instances and identical folds. Use "
                         "CVEvaluator(...).compare(estimator_a, estimator_b, X, y).")
    return a, b


def _test_result(estimate, spread, n, alternative, method, estimand, details, messages):
    standard_error = spread / math.sqrt(n)
    statistic, pvalue = statistic_and_pvalue(estimate, standard_error, None, alternative, messages)
    return LossDifferenceTestResult(
        statistic=statistic, pvalue=pvalue, df=None, alternative=alternative, estimate=estimate,
        standard_error=standard_error, method=method, estimand=estimand, assumptions=_CLT_ASSUMPTIONS,
        target="kfold", _interval_standard_error=standard_error, details=types.MappingProxyType(details),
        notes=tuple(messages.notes), warnings=tuple(messages.warnings))


@validate_params(alternative=ALTERNATIVE, variance=Options(*VARIANCES), repeat=REPEAT)
@fill_doc
@about_two_learners
def loss_difference_test(a, b=None, *, alternative="two-sided", variance="within-fold", repeat=None):
    """Bayle et al.'s (2020) test of two learners' cross-validated mean losses, instance by instance.

    Parameters
    ----------
    a : CVResult or PairedCVResult
        The result of learner A, or a pair holding both (as
        :meth:`CVEvaluator.compare` makes it) with ``b`` left out.
    b : CVResult, optional
        The result of learner B on the same instances and identical folds,
        with the same loss.
    %(alternative)s
    variance : {"within-fold", "all-pairs"}, default="within-fold"
        Bayle et al.'s estimate of the variance of the per-instance
        differences (see :func:`loss_interval`).
    repeat : int or None, default=None
        %(repeat)s N still counts each instance once.

    Returns
    -------
    LossDifferenceTestResult
        ``estimate`` is mean loss(B) - mean loss(A) (positive when A is
        better), ``statistic`` the z, ``target="kfold"``; ``details`` hold
        ``mean_loss_a``, ``mean_loss_b``, ``sigma_hat`` and ``variance``.

    See Also
    --------
    corrected_resampled_ttest : the corrected t on the fold mean losses.
    nested_cv_interval : the difference for the models fitted to all the data.

    Notes
    -----
    Bayle, Bayle, Janson & Mackey (2020), "Cross-validation confidence
    intervals for test error", NeurIPS, section 3. Their central limit
    theorem holds for any per-instance loss of a stable learner; applied to
    D_i = L_i(B) - L_i(A), the difference of the two learners' out-of-fold
    losses of instance i, it gives their asymptotically exact test of which
    algorithm has the smaller k-fold test error (section 3.2):

        z = mean(D) / (sigma_hat / sqrt(N)),

    with sigma_hat^2 = (1/k) sum_j 1/(m_j - 1) sum_{i in B_j} (D_i -
    mean_{B_j} D)^2 (within-fold) or (1/N) sum_i (D_i - mean D)^2
    (all-pairs). The target is the difference of the mean population losses
    of the models fitted in the folds (``"kfold"``): it does not include the
    variation over training sets, which the corrected t
    (:func:`corrected_resampled_ttest`) allows for. With pooled repeats the
    estimate averages them and sigma_hat^2 is the mean of the per-repeat
    estimates, so repeating does not narrow the interval.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.tree import DecisionTreeRegressor
    >>> from cvinference import CVEvaluator
    >>> from cvinference.inference import loss_difference_test
    >>> X, y = load_diabetes(return_X_y=True)
    >>> pair = CVEvaluator(cv=10, loss="squared_error", random_state=0).compare(
    ...     Ridge(alpha=0.1), DecisionTreeRegressor(max_depth=3, random_state=0), X, y)
    >>> test = loss_difference_test(pair)
    >>> test.method, test.target, test.estimate > 0
    ('cv-clt-difference', 'kfold', True)
    """
    a, b = _loss_pair(a, b, "loss_difference_test")
    rows, messages = _repeats_and_messages(a, repeat, variance, CLUSTER_PAIRED_CALL)
    estimate, spread = clt_figures(b.loss - a.loss, a.fold, rows, variance)
    loss = loss_words(a.loss_name)
    messages.note(f"sigma_hat = {spread:.4g}, the {variance} estimate of Bayle et al. (2020, section 3) from the "
                  "per-instance loss differences")
    estimand = (f"difference in {loss} on the population (B minus A, positive when A is better) of the models the "
                f"two learners fit to {training_size_phrase(a)}; given this dataset (Vanwinckelen & Blockeel 2015)")
    details = {"mean_loss_a": float(a.loss[rows].mean()), "mean_loss_b": float(b.loss[rows].mean()),
               "sigma_hat": spread, "variance": variance}
    return _test_result(estimate, spread, a.n_samples, alternative, CLT_TEST, estimand, details, messages)


BASELINES = {"squared_error": "mean", "absolute_error": "median"}
"""The trivial regressor of each loss: the constant that minimises it on the training part."""


def baseline_losses(result, rows):
    """Per-instance losses (len(rows), n) of the trivial regressor: the training part's mean (or median) of y.

    In every fold of every repeat the constant is computed from the
    instances outside the fold, as ``DummyRegressor(strategy="mean")`` (or
    ``"median"``) fitted there would predict it.
    """
    center = np.mean if BASELINES[result.loss_name] == "mean" else np.median
    y_true = np.asarray(result.y_true, dtype=np.float64)
    predictions = np.empty((len(rows), result.n_samples))
    for i, r in enumerate(rows):
        for j in np.unique(result.fold[r]):
            in_fold = result.fold[r] == j
            predictions[i, in_fold] = center(y_true[~in_fold])
    return instance_losses(y_true, predictions, result.loss_name)


@validate_params(alternative=ALTERNATIVE, variance=Options(*VARIANCES), repeat=REPEAT, method=Options(*METHODS))
@fill_doc
@about_one_record
def mean_baseline_test(result, *, alternative="greater", variance="within-fold", repeat=None, method="auto"):
    """Does a regressor beat the trivial one that predicts the training mean?

    The regression analogue of the no-information rate
    (:func:`no_information_test`): a regressor that ignores the features
    and predicts, in every fold, the mean of y over the training part (the
    median for the absolute error, the constant that minimises it) has a
    mean squared error about Var(y). A regressor whose errors are not below
    it has learnt nothing usable from the features.

    Parameters
    ----------
    result : CVResult
        A regressor's k-fold record with ``loss="squared_error"`` or
        ``"absolute_error"``.
    alternative : {"greater", "two-sided", "less"}, default="greater"
        ``"greater"``: the regressor's mean loss is below the baseline's.
    variance : {"within-fold", "all-pairs"}, default="within-fold"
        As in :func:`loss_difference_test`; ``method="cluster"`` does not
        use it.
    repeat : int or None, default=None
        %(repeat)s
    method : {"auto", "cv-clt", "cluster"}, default="auto"
        ``"cv-clt"``: Bayle et al.'s test, which counts every instance as
        independent (it warns on a record made with groups).
        ``"cluster"``: the cluster-robust paired t, the groups as the
        independent units (a record made with ``groups`` only).
        ``"auto"``: ``"cluster"`` on a record made with groups,
        ``"cv-clt"`` otherwise.

    Returns
    -------
    LossDifferenceTestResult
        A is the regressor, B the baseline: ``estimate`` is the baseline's
        mean loss minus the regressor's. ``details`` hold ``baseline``
        ("mean" or "median"), ``baseline_loss``, ``mean_loss`` and
        ``relative`` = 1 - mean_loss / baseline_loss (for the squared error,
        R² relative to the cross-validated mean predictor); for
        ``"cv-clt"`` also ``sigma_hat`` and ``variance``, for ``"cluster"``
        the figures of the cluster-robust variance of the differences
        (``n_groups``, ``design_effect``, ...; see :func:`matched_sample_test`'s ``method="cluster-paired-t"``),
        with ``df`` = G - 1.

    Raises
    ------
    ValueError
        For a classification record, another loss, a record that is not
        k-fold, and ``method="cluster"`` on a record made without groups.

    Notes
    -----
    The baseline's out-of-fold losses are computed from ``y_true`` and the
    folds, without fitting. ``"cv-clt"``: the test is
    :func:`loss_difference_test` on the per-instance differences (Bayle et
    al. 2020, section 3). ``"cluster"``: it is ``matched_sample_test(a, b, method="cluster-paired-t")``
    on them, D_i = L_i(baseline) - L_i(regressor) with the cluster-robust
    (CR1) variance G / (G - 1) sum_g (D_g - Dbar m_g)^2 / N^2 of the groups'
    totals D_g and t with G - 1 degrees of freedom (Cameron & Miller 2015,
    "A practitioner's guide to cluster-robust inference", J. Human
    Resources 50(2), sections II.C and VI). Either is one-sided by default,
    as caret's test of accuracy > NIR is.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from cvinference import cross_val_correctness
    >>> from cvinference.inference import mean_baseline_test
    >>> X, y = load_diabetes(return_X_y=True)
    >>> result = cross_val_correctness(Ridge(alpha=0.1), X, y, cv=10, loss="squared_error", random_state=0)
    >>> test = mean_baseline_test(result)
    >>> round(test.details["baseline_loss"]), test.pvalue < 0.05
    (5948, True)

    With groups, ``method="auto"`` counts them (34 groups of 13 rows):

    >>> import numpy as np
    >>> from sklearn.model_selection import GroupKFold
    >>> grouped = cross_val_correctness(Ridge(alpha=0.1), X, y, cv=GroupKFold(10), groups=np.arange(442) // 13,
    ...                                 loss="squared_error")
    >>> test = mean_baseline_test(grouped)
    >>> test.method, test.df, test.pvalue < 0.05
    ("cluster-robust t test of mean squared error < the training mean's", 33, True)
    """
    _check_regression(result, "result", "mean_baseline_test")
    if result.loss_name not in BASELINES:
        raise ValueError(f"mean_baseline_test knows the trivial regressor of loss_name='squared_error' (the mean) and "
                         f"'absolute_error' (the median); result has loss_name={result.loss_name!r}. Evaluate with "
                         "loss='squared_error'.")
    if result.n_train is not None or result.n_splits < 2:
        raise ValueError("mean_baseline_test computes the baseline of each fold from the instances outside it, which "
                         f"needs a k-fold record; result has n_splits={result.n_splits} and n_train="
                         f"{result.n_train}. Use a k-fold or leave-one-out record.")
    chosen = _chosen_method(result, method)
    rows, messages = _repeats_and_messages(result, repeat, variance, CLUSTER_INSTEAD, chosen,
                                           chosen_by_auto=method == "auto")
    baseline = baseline_losses(result, rows)
    losses = result.loss[rows]
    mean_loss, baseline_loss = float(losses.mean()), float(baseline.mean())
    center = BASELINES[result.loss_name]
    words = loss_words(result.loss_name)
    messages.note(f"the trivial regressor predicts the {center} of y over each fold's training part: its "
                  f"{words} is {baseline_loss:.4g}")
    estimand = (f"difference in {words} on the population between the trivial regressor "
                f"(the training {center}) and the models the learner fits to {training_size_phrase(result)}; given "
                "this dataset (Vanwinckelen & Blockeel 2015)")
    details = {"baseline": center, "baseline_loss": baseline_loss, "mean_loss": mean_loss,
               "relative": 1 - mean_loss / baseline_loss if baseline_loss > 0 else math.nan}
    if chosen == "cluster":
        test = paired_difference_result(losses, baseline, require_clusters(result, "method='cluster'"),
                                        result.fold[rows], alternative, messages, estimand=estimand + "; groups, not "
                                        "instances, independent", zero_one=False)
        clustered = {key: value for key, value in test.details.items()
                     if key not in ("mean_loss_a", "mean_loss_b", "difference")}
        return dataclasses.replace(test, method=f"cluster-robust t test of {words} < the training {center}'s",
                                   details=types.MappingProxyType(details | clustered))
    estimate, spread = clt_figures(baseline - losses, result.fold[rows], range(len(rows)), variance)
    details.update({"sigma_hat": spread, "variance": variance})
    return _test_result(estimate, spread, result.n_samples, alternative,
                        f"CV-CLT test of {words} < the training {center}'s", estimand, details, messages)
