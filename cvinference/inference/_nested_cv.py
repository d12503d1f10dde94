"""Bates, Hastie & Tibshirani's (2023) nested cross-validation interval, for one learner or a difference."""

import math
from typing import NamedTuple

import numpy as np

from .._utils._docstring import fill_doc
from .._utils._params import PROBABILITY, validate_params
from .._utils._text import loss_noun
from .._utils._warnings import Messages
from ..records import NestedCVResult
from ._accuracy_interval import normal_bounds
from ._clusters import cluster_checks, cluster_variance, record_clusters, telling_fold
from ._estimands import PAIRED_ESTIMAND
from ._inputs import check_record
from ._results import Interval

METHOD = "nested-cv"


class NestedFigures(NamedTuple):
    """What Algorithm 1 of Bates, Hastie & Tibshirani (2023) computes from one set of losses.

    ``estimate`` is ``err_ncv - bias``; ``standard_error`` is
    ``standard_error_unbounded`` kept between ``se_naive`` and
    sqrt(K) ``se_naive``. ``se_naive_independent`` is sd(e_in) / sqrt(n),
    which is ``se_naive`` unless the instances are grouped.
    """

    err_ncv: float
    err_cv: float
    mse_hat: float
    bias: float
    estimate: float
    se_naive: float
    standard_error_unbounded: float
    standard_error: float
    se_naive_independent: float


def nested_cv_figures(fold, outer, inner, n_splits, groups=None):
    """Algorithm 1 on one learner's losses (or on per-instance differences of two learners' losses).

    Parameters
    ----------
    fold : ndarray of int, shape (R, n)
        The fold of every instance in every repeat.
    outer : ndarray of float, shape (R, n)
        e_out: each instance's loss by the model fitted to the other folds.
    inner : ndarray of float, shape (R, K, n)
        e_in: ``inner[r, k, i]`` for i outside fold k, the loss by the model
        fitted to the folds other than k and i's own (other entries unused).
    n_splits : int
        K.
    groups : ndarray of int, shape (n,), or None
        Each instance's group as an integer code, for grouped instances:
        b_k and se_naive are then cluster-robust (see
        :func:`nested_cv_interval_of`, Notes); None for independent ones.

    Returns
    -------
    NestedFigures

    Examples
    --------
    Two repeats of three folds of two instances; every inner loss is 1 and
    every outer loss is 0 except one:

    >>> import numpy as np
    >>> from cvinference.inference._nested_cv import nested_cv_figures
    >>> fold = np.array([[0, 0, 1, 1, 2, 2], [0, 1, 2, 0, 1, 2]])
    >>> outer = np.zeros((2, 6)); outer[0, 0] = 1.0
    >>> figures = nested_cv_figures(fold, outer, np.ones((2, 3, 6)), 3)
    >>> figures.err_ncv, round(figures.err_cv, 4), round(figures.mse_hat, 4)
    (1.0, 0.0833, 0.8333)
    """
    k = n_splits
    outside = fold[:, np.newaxis, :] != np.arange(k)[np.newaxis, :, np.newaxis]  # (R, K, n)
    a_terms, b_terms, naive_terms = [], [], []
    for r in range(fold.shape[0]):
        for j in range(k):
            in_fold = fold[r] == j
            e_out = outer[r, in_fold]
            e_in = inner[r, j, outside[r, j]]
            a_terms.append((e_in.mean() - e_out.mean()) ** 2)
            if groups is None:
                b_terms.append(e_out.var(ddof=1) / e_out.size)
            else:
                b_terms.append(cluster_variance(e_out, groups[in_fold]))
                naive_terms.append(cluster_variance(e_in, groups[outside[r, j]]) * e_in.size)
    mse_hat = float(np.mean(a_terms) - np.mean(b_terms))
    inner_losses = inner[outside]
    err_ncv, err_cv = float(inner_losses.mean()), float(outer.mean())
    bias = (1 + (k - 2) / k) * (err_ncv - err_cv)
    se_independent = float(inner_losses.std(ddof=1)) / math.sqrt(fold.shape[1])
    se_naive = se_independent if groups is None else math.sqrt(float(np.mean(naive_terms)) / fold.shape[1])
    unbounded = math.sqrt((k - 1) / k * max(mse_hat, 0.0))
    standard_error = min(max(unbounded, se_naive), math.sqrt(k) * se_naive)
    return NestedFigures(err_ncv=err_ncv, err_cv=err_cv, mse_hat=mse_hat, bias=bias, estimate=err_ncv - bias,
                         se_naive=se_naive, standard_error_unbounded=unbounded, standard_error=standard_error,
                         se_naive_independent=se_independent)


class _NaiveWords(NamedTuple):
    """How the warnings name the bounds on the standard error; ``{se}`` stands for se_naive's value."""

    lower: str
    short: str
    upper: str


_INDEPENDENT_NAIVE = _NaiveWords("the naive {se} of n independent losses", "the naive {se}",
                                 "the width of n/K independent losses")


def _grouped_naive(n_groups):
    """The wording of the bounds for grouped instances: both refer to the cluster-robust standard error."""
    return _NaiveWords(f"the naive {{se}} of n losses in {n_groups} independent groups (cluster-robust)",
                       "the naive {se} (cluster-robust)", f"the width of n/K losses in {n_groups}/K groups")


def _warn_if_bounded(figures, n_splits, messages, naive=_INDEPENDENT_NAIVE):
    """Warn when MSE_hat is negative or a bound on the standard error applies.

    ``naive`` words the bounds: independent losses, or :func:`_grouped_naive`.
    """
    sqrt_k = math.sqrt(n_splits)
    lower, short = (text.format(se=f"{figures.se_naive:.4g}") for text in (naive.lower, naive.short))
    if figures.mse_hat < 0:
        messages.warn(
            f"The nested cross-validation estimate of the mean squared error is negative (MSE_hat = "
            f"{figures.mse_hat:.4g}): its noise exceeds its signal. The standard error falls back to its lower "
            f"bound, {lower} (Bates, Hastie & Tibshirani 2023); "
            "more repeats (n_repeats) make the estimate steadier."
        )
    elif figures.standard_error_unbounded < figures.se_naive:
        messages.warn(
            f"The nested estimate of the standard error, {figures.standard_error_unbounded:.4g}, is below "
            f"{lower}, which cross-validation cannot beat; the "
            "interval uses the naive one (Bates, Hastie & Tibshirani 2023). More repeats (n_repeats) make the "
            "estimate steadier."
        )
    elif figures.standard_error_unbounded > sqrt_k * figures.se_naive:
        messages.warn(
            f"The nested estimate of the standard error, {figures.standard_error_unbounded:.4g}, is above "
            f"sqrt(K) = {sqrt_k:.4g} times {short}, {naive.upper} "
            "(every fold's estimate entirely dependent); the interval uses that upper bound (Bates, Hastie & "
            "Tibshirani 2023). More repeats (n_repeats) make the estimate steadier."
        )


def _inflation(standard_error, se_naive):
    return standard_error / se_naive if se_naive > 0 else math.nan


def _loss_phrase(loss_name):
    if loss_name == "zero_one":
        return "error rate (zero-one loss)"
    return loss_noun(loss_name)


def is_difference_interval(interval):
    """Whether a nested-CV interval is two learners' difference rather than one learner's error: its
    ``details["n_learners"]``."""
    return interval.details.get("n_learners") == 2


def _estimand(loss_name, n_samples, paired):
    trained = f"fits to all n = {n_samples} instances of this dataset"
    if paired:
        return (f"{PAIRED_ESTIMAND}{_loss_phrase(loss_name)} on the population, B minus A (positive when "
                f"A is better), of the models the two learners {trained}: the difference of their conditional "
                "errors Err_XY (Bates, Hastie & Tibshirani 2023)")
    return (f"expected {_loss_phrase(loss_name)} on the population of the model the learner {trained}: its "
            "conditional error Err_XY (Bates, Hastie & Tibshirani 2023)")


_BIAS_AND_NORMAL = (
    "the bias correction (1 + (K - 2)/K)(Err_NCV - Err_CV), which extrapolates the change in error "
    "from training on (K - 2)/K to (K - 1)/K of the data; normal approximation"
)

_ASSUMPTIONS = (
    "instance independence; the nested cross-validation estimate of the mean squared error of the "
    "cross-validation estimate about Err_XY (Bates, Hastie & Tibshirani 2023, Algorithm 1), rescaled from "
    "(K - 1)/K of the data to all of it and kept between the standard error of n and of n/K independent "
    f"losses; {_BIAS_AND_NORMAL}"
)

_GROUPED_ASSUMPTIONS = (
    "groups independent of one another, instances within a group arbitrarily correlated, every group whole in "
    "one fold (so in the inner cross-validations too); the nested cross-validation estimate of the mean squared "
    "error of the cross-validation estimate about Err_XY (Bates, Hastie & Tibshirani 2023, Algorithm 1) with "
    "each fold's holdout variance cluster-robust (CR1; Cameron & Miller 2015), rescaled from (K - 1)/K of the "
    "data to all of it and kept between the cluster-robust standard error of the mean of n losses and sqrt(K) "
    f"times it (this package's adaptation to groups, not the paper's); {_BIAS_AND_NORMAL}; many groups"
)


def _limits(loss_name, paired, losses):
    """The possible range of the estimate, for clipping: known for the zero-one loss and nonnegative losses."""
    if loss_name == "zero_one":
        return (-1.0, 1.0) if paired else (0.0, 1.0)
    if not paired and np.nanmin(losses) >= 0:
        return (0.0, None)
    return None


@validate_params(confidence_level=PROBABILITY)
@fill_doc
def nested_cv_interval_of(result, *, confidence_level=0.95):
    """Nested cross-validation interval for the error of the model fitted to the whole dataset, from its record.

    Bates, Hastie & Tibshirani (2023): naive intervals from cross-validation
    are too narrow, because the folds' estimates are correlated; nested
    cross-validation estimates the mean squared error of the
    cross-validation estimate directly and widens the interval accordingly.
    For a record of two learners, the interval is for the difference of
    their errors, by the same algorithm on per-instance loss differences.

    Parameters
    ----------
    result : NestedCVResult
        The outer and inner losses of one or two learners, as made by
        :func:`nested_cross_validation`.
    %(confidence_level)s

    Returns
    -------
    Interval
        ``method="nested-cv"``, ``target="conditional"``: the interval is for
        the population error (mean loss) of the model that the learner fits
        to this whole dataset (for a record of two learners, the difference
        of the two such models' errors: the mean loss of B minus the mean
        loss of A, positive when A is better; for the zero-one loss,
        accuracy(A) - accuracy(B)). ``estimate`` is the bias-corrected
        Err_NCV - bias; ``standard_error`` the bounded nested estimate;
        ``details`` holds ``err_ncv``, ``err_cv``, ``mse_hat``, ``bias``,
        ``se_naive``, ``inflation_unbounded`` and ``inflation`` (the
        standard error over ``se_naive`` before and after the bounds; nan
        when ``se_naive`` is 0), ``n_splits``, ``n_repeats``, ``n_fits`` and
        ``n_learners`` (2 for a difference);
        for a record made with groups also ``n_groups``,
        ``min_group_size``, ``max_group_size``, ``groups_within_folds``
        and ``se_naive_independent`` (sd(e_in) / sqrt(n), what ``se_naive``
        would be for independent instances).

    See Also
    --------
    nested_cv_interval : :func:`nested_cross_validation` and this function in one call.
    loss_interval : Nedel'ko's interval from one cross-validation.
    accuracy_interval : Wong's intervals for the models fitted in the folds.

    Notes
    -----
    Algorithm 1 of Bates, Hastie & Tibshirani (2023, "Cross-validation: what
    does it estimate and how well does it do it?", JASA; arXiv 2104.00673).
    For each of R random partitions into K folds and each outer fold k:
    e_out are the losses on fold k of the model fitted to the other K - 1
    folds; e_in are the losses of the inner cross-validation on those K - 1
    folds (fold k' tested by the model fitted to the K - 2 folds other than
    k and k'). Then

    * a_k = (mean(e_in) - mean(e_out))^2 and b_k = var(e_out) / ``|I_k|``
      (sample variance; ``|I_k|`` the size of fold k);
    * MSE_hat = mean of the a_k - mean of the b_k, over all R K outer folds:
      by the paper's holdout identity, the b_k remove the noise of fold k's
      own test losses from a_k, leaving the mean squared error of the
      inner cross-validation estimate about the conditional error of the
      model fitted to the K - 1 folds;
    * Err_NCV = the mean of all e_in, Err_CV = the mean of all e_out (the
      ordinary repeated cross-validation estimate);
    * bias = (1 + (K - 2)/K)(Err_NCV - Err_CV). Err_NCV - Err_CV is the
      change in error from training on (K - 2)/K to (K - 1)/K of the data;
      if the error falls as 1/(training size), the change from (K - 1)/K
      to all of it is (K - 2)/K times that one (our reading of the factor,
      which is the paper's);
    * SE = sqrt((K - 1)/K MSE_hat) (the mean squared error rescaled from
      (K - 1)/K of the data to n), kept between se_naive = sd(e_in)/sqrt(n)
      (n independent losses) and sqrt(K) se_naive (every fold's estimate
      entirely dependent: as good as n/K independent losses); a negative
      MSE_hat gives se_naive;
    * the interval is Err_NCV - bias +- z_{1 - alpha/2} SE, clipped to the
      loss's possible range (the zero-one loss's [0, 1], or [-1, 1] for a
      difference; [0, inf) for another nonnegative loss of one learner).

    **Target.** The paper's mean squared error is measured about Err_XY,
    the error of the model fitted to the data at hand, and its intervals are
    built (and their coverage reported) for Err_XY; hence
    ``target="conditional"``. The paper also shows that cross-validation
    tracks the unconditional error Err better than Err_XY, so the interval
    covers Err about as well.

    **Two implementations.** The authors' R package (``nestedcv``) and
    mlr3inferr's ``ci.ncv`` agree on the MSE estimate and its rescaling but
    differ elsewhere: the R code estimates the bias from separate ordinary
    cross-validations (R/5 of them) with the factor 1 + ((K - 2)/K)^1.5,
    leaves out the n mod K instances that do not fill a fold, and bounds
    the inflation relative to floor(n (K - 1)/K); mlr3inferr uses the
    factor 1 + (K - 2)/K with Err_CV from the outer fits of the same
    partitions and bounds SE by sd(e_in)/sqrt(n) and sqrt(K) times it. This
    function follows mlr3inferr, which follows the paper's Algorithm 1: no
    extra fits, every instance used (folds of equal size up to one), and a
    bias factor that one stated assumption explains.

    **Two learners.** Both learners are fitted on identical folds, and the
    algorithm runs unchanged on the per-instance differences (loss of B
    minus loss of A) of e_in and e_out: the difference is itself a mean of
    per-instance values, so the holdout identity applies to it as to one
    learner's losses. No package offers this.

    **Grouped instances** (a record made with ``groups``; this package's
    adaptation, not the paper's). Every group lies in one fold, so the
    inner cross-validations, made of the outer folds, keep groups whole
    too, and a fold's test losses are independent of the models tested on
    it. Two of Algorithm 1's figures treat the instances as independent and
    change; the rest (a_k, Err_NCV, Err_CV, the bias, the rescaling by
    (K - 1)/K and the factor sqrt(K) of the upper bound) does not:

    * b_k, the variance of fold k's mean outer loss that the holdout
      identity removes from a_k, is its cluster-robust (CR1) variance over
      the groups in fold k: G_k / (G_k - 1) sum_g (Y_g - e_bar m_g)^2 /
      ``|I_k|``^2, with Y_g the total loss of group g's m_g instances
      (Cameron & Miller 2015, "A practitioner's guide to cluster-robust
      inference", J. Human Resources 50(2), section II.C); without groups
      (each instance its own group) this is var(e_out) / ``|I_k|`` exactly;
    * se_naive, the standard error of a mean of n independent losses, is
      the cluster-robust standard error of a mean of the n instances'
      losses: in each inner cross-validation (repeat r, outer fold k) the
      CR1 variance V_rk of the mean of its N_rk inner losses, by group,
      is brought to n instances as V_rk N_rk / n, and se_naive is the
      square root of the mean of these over the R K inner
      cross-validations (the mean of variances, as the repeats of
      ``accuracy_interval(method="cluster")`` are pooled).

    The groups must number at least 2 per fold. The interval still uses
    the normal quantile, as the paper's does; with fewer than 20 groups it
    warns (Cameron & Miller, section VI).

    **Cost.** A repeat fits K outer models and one model per pair of folds
    (the model without folds k and k' serves both inner
    cross-validations, for outer folds k and k'): R K (K + 1)/2 fits in all
    per learner, 75 with the defaults (K = 5, R = 5, the cheapest
    configuration of the calibration's (K, R) grid whose one-learner
    interval held its coverage); the authors' Algorithm 1 as written fits
    R K^2. They run in one pool.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation import nested_cross_validation
    >>> from cvinference.inference import nested_cv_interval_of
    >>> X, y = load_iris(return_X_y=True)
    >>> losses = nested_cross_validation(GaussianNB(), X, y, n_splits=5, n_repeats=4, random_state=0)
    >>> interval = nested_cv_interval_of(losses, confidence_level=0.9)
    >>> interval.method, interval.target, interval.details["n_fits"]
    ('nested-cv', 'conditional', 60)
    >>> bool(interval.low <= interval.estimate <= interval.high)
    True
    """
    losses = check_record(result, NestedCVResult, "nested_cross_validation", "nested_cv_interval")
    n_splits, n_repeats, paired = losses.n_splits, losses.n_repeats, losses.paired
    outer, inner = (losses.outer[1] - losses.outer[0], losses.inner[1] - losses.inner[0]) if paired else (
        losses.outer[0], losses.inner[0])
    clusters = record_clusters(losses)
    figures = nested_cv_figures(losses.fold, outer, inner, n_splits, None if clusters is None else clusters.codes)
    messages = Messages()
    grouped = {}
    if clusters is not None:
        grouped = cluster_checks(clusters, telling_fold(clusters, losses.fold), messages,
                                 "nested cross-validation interval")
        grouped["se_naive_independent"] = figures.se_naive_independent
    _warn_if_bounded(figures, n_splits, messages,
                     _INDEPENDENT_NAIVE if clusters is None else _grouped_naive(clusters.n_groups))
    what = f"{'difference in ' if paired else ''}mean {_loss_phrase(losses.loss_name)}"
    bounds = normal_bounds(figures.estimate, figures.standard_error, confidence_level, None, messages,
                           limits=_limits(losses.loss_name, paired, outer), what=what, exact_advice="")
    messages.note(
        f"Err_NCV = {figures.err_ncv:.4g} (inner cross-validations), Err_CV = {figures.err_cv:.4g} (outer "
        f"folds), bias = {figures.bias:.4g}; {n_repeats} partitions into {n_splits} folds, {losses.n_fits} fits"
    )
    details = {
        "err_ncv": figures.err_ncv, "err_cv": figures.err_cv, "mse_hat": figures.mse_hat, "bias": figures.bias,
        "se_naive": figures.se_naive,
        "inflation_unbounded": _inflation(figures.standard_error_unbounded, figures.se_naive),
        "inflation": _inflation(figures.standard_error, figures.se_naive),
        "n_splits": n_splits, "n_repeats": n_repeats, "n_fits": losses.n_fits, "n_learners": 2 if paired else 1,
        "loss_name": losses.loss_name, **grouped,
    }
    if clusters is not None:
        messages.note(f"{clusters.n_groups} groups: b_k and se_naive are cluster-robust (CR1), se_naive "
                      f"{figures.se_naive:.4g} against {figures.se_naive_independent:.4g} for independent instances")
    return Interval(
        estimate=figures.estimate, low=bounds.low, high=bounds.high, confidence_level=confidence_level,
        method=METHOD, estimand=_estimand(losses.loss_name, losses.n_samples, paired),
        assumptions=_ASSUMPTIONS if clusters is None else _GROUPED_ASSUMPTIONS,
        notes=tuple(messages.notes), warnings=tuple(messages.warnings), target="conditional",
        details={"averaging": "dataset", "standard_error": bounds.standard_error,
                 "critical_value": bounds.critical_value, "n": losses.n_samples, "clipped": bounds.clipped,
                 **details},
    )
