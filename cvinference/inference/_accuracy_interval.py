"""Confidence intervals for one classifier's cross-validated accuracy."""

import math
from typing import NamedTuple

import numpy as np
from scipy import stats

from .._utils._docstring import fill_doc
from .._utils._params import PROBABILITY, Boolean, Nullable, Options, validate_params
from .._utils._upward import upward
from .._utils._warnings import Messages, quietly
from ._clusters import ROBUST_ASSUMPTIONS, grouped_record_warning, pooled_ratio, require_clusters
from ._conditions import fold_conditions
from ._distributions import reference_quantile
from ._estimands import LEARNER_TARGETS, accuracy_estimand, conditions_warning
from ._inputs import about_one_record, check_accuracy_result
from ._methods import options, row
from ._parameters import MIN_COUNT, REPEAT
from ._repeats import pooled_repeats_warning, select_repeats, within_repeat_variance
from ._results import Interval

METHODS = ("auto", *options("accuracy_interval"))
CLUSTER_METHODS = ("cluster", "cluster-half-sample")

CLUSTER_VARIANCE_FACTOR = {"cluster": 1.0, "cluster-half-sample": 2.0}
"""What each cluster method multiplies the cluster-robust variance by (the half-sample form: Nedel'ko's n/2)."""
AVERAGING = ("dataset", "fold")

_ASSUMPTIONS = {
    ("dataset", "normal"): "instance independence; normal approximation to the binomial count of correct predictions",
    ("dataset", "wilson"): "instance independence; binomial count of correct predictions (score interval)",
    ("dataset", "clopper-pearson"): "instance independence; binomial count of correct predictions (exact)",
    ("fold", "t"): "instance independence; fold accuracies independent and normally distributed",
    ("fold", "normal"): "instance independence; fold accuracies independent and normally distributed; many folds",
    ("dataset", "half-sample"): ("instance independence; Nedel'ko's empirical finding that the cross-validated "
                                 "accuracy varies about as much as one measured on half the instances"),
    ("dataset", "cluster"): ROBUST_ASSUMPTIONS,
    ("dataset", "cluster-half-sample"): (f"{ROBUST_ASSUMPTIONS}; Nedel'ko's finding carried to groups: the "
                                         "cross-validated accuracy varies about as much as one measured on half "
                                         "the groups"),
}
_BINOMIAL = {"wilson": "wilson", "clopper-pearson": "exact"}
_CLUSTER_INSTEAD = ("method='auto' (the cluster-robust interval, or its half-sample form where the calibration "
                    "benchmark measured the cluster-robust one short)")
"""The cluster-aware alternative an instance-level interval names when it warns on a grouped record."""


class Bounds(NamedTuple):
    """An interval's bounds and, for a normal or t interval, what they were computed from."""

    low: float
    high: float
    standard_error: float | None = None
    critical_value: float | None = None
    df: float | None = None
    clipped: tuple = ()


class PointEstimate(NamedTuple):
    """An estimate, the instances or folds it averages (``n``), its bounds and what else its interval reports."""

    estimate: float
    n: int
    bounds: Bounds
    details: dict | None = None


def estimate_interval(point, *, confidence_level, method, averaging, estimand, assumptions, messages,
                      target="kfold", conditions=(), dropped_folds=(), details=None):
    """The :class:`Interval` of a :class:`PointEstimate`, with the notes and warnings in ``messages``."""
    bounds = point.bounds
    return Interval(
        estimate=point.estimate, low=bounds.low, high=bounds.high, confidence_level=confidence_level,
        method=method, estimand=estimand, assumptions=assumptions, target=target, conditions=conditions,
        details={"averaging": averaging, "standard_error": bounds.standard_error,
                 "critical_value": bounds.critical_value, "df": bounds.df, "n": point.n, "dropped_folds": dropped_folds,
                 "clipped": bounds.clipped, **(details or point.details or {})},
        notes=tuple(messages.notes), warnings=tuple(messages.warnings),
    )


def _check_combination(averaging, method):
    if averaging == "dataset" and method == "t":
        raise ValueError(
            "method='t' is the fold-level interval of Wong (2015, section 4.3.3); pass "
            "averaging='fold' with it, or use method='normal' at the dataset level."
        )
    if averaging == "fold" and method in CLUSTER_METHODS:
        raise ValueError(
            f"method={method!r} is a cluster-robust interval of the accuracy over all instances; pass "
            "averaging='dataset' with it, or use method='t' at the fold level (Wong's t over group-respecting folds)."
        )
    if averaging == "fold" and method == "half-sample":
        raise ValueError(
            "method='half-sample' is Nedel'ko's interval of the accuracy over all instances; pass "
            "averaging='dataset' with it, or use method='t' at the fold level."
        )
    if averaging == "fold" and method in _BINOMIAL:
        raise ValueError(
            f"method={method!r} is a binomial interval for the dataset-level accuracy; pass "
            "averaging='dataset' with it, or use method='t' at the fold level."
        )


@validate_params(confidence_level=PROBABILITY, averaging=Options(*AVERAGING), method=Options(*METHODS),
                 drop_failing_folds=Boolean(), repeat=REPEAT, min_count=MIN_COUNT,
                 target=Nullable(Options(*LEARNER_TARGETS)))
@fill_doc
@about_one_record
def accuracy_interval(result, confidence_level=0.95, *, averaging="dataset", method="auto",
                      drop_failing_folds=False, repeat=None, min_count=5, target=None):
    """Confidence interval for a classifier's cross-validated accuracy.

    Parameters
    ----------
    result : CVResult
        A classifier's cross-validation result.
    %(confidence_level)s
    averaging : {"dataset", "fold"}, default="dataset"
        ``"dataset"``: the total correct over the total tested, with the
        binomial variance p(1 - p)/n. ``"fold"``: the mean of the fold
        accuracies p_j, with the variance estimated from their spread.
    method : {"auto", "normal", "t", "wilson", "clopper-pearson", "half-sample", "cluster", \
"cluster-half-sample"}, default="auto"
        ``"normal"`` is Wong's dataset-level interval (or the fold-level one
        with a z quantile), ``"t"`` his fold-level interval, ``"wilson"`` and
        ``"clopper-pearson"`` the binomial score and exact intervals (dataset
        level only), ``"half-sample"`` Nedel'ko's interval (the normal one
        with n/2 for n; dataset level), ``"cluster"`` the cluster-robust interval of a record
        made with ``groups`` and ``"cluster-half-sample"`` the same with
        twice its variance (dataset level; see Notes). ``"auto"`` chooses
        the method and never the ``averaging`` asked for: on a record made
        with groups, at the dataset level ``"cluster"``, or
        ``"cluster-half-sample"`` where the benchmark measured the
        cluster-robust interval covering ``target`` less than 0.93 of the
        time for this learner at this number of groups and the half-sample
        one at least 0.93 (where neither reached it, the better of the two,
        with a warning); otherwise
        at the fold level Wong's t (warning when the
        conditions fail or the calibration benchmark measured it falling
        short); at the dataset level Wong's normal interval when every fold
        meets the large-sample conditions and the benchmark did not measure
        it falling short of ``target`` in this result's regime (else the
        measured interval closest to nominal that held there, the
        half-sample one included), and the
        Clopper-Pearson interval when the conditions fail; the result's
        ``notes`` say which and why (see Notes).
    drop_failing_folds : bool, default=False
        Apply Wong's literal rule to the normal approximations: leave the
        folds that fail the large-sample conditions out of the estimate and
        of n, and list them in ``dropped_folds``. Those folds fail because
        they hold few wrong (or few right) predictions, so dropping them
        biases the estimate; an :class:`InferenceWarning` says so. Nothing is
        dropped under leave-one-out, when fewer than the folds the
        averaging needs would remain, or when ``method="auto"`` chooses the
        cluster-robust interval of a grouped record, which uses every
        instance (the result's notes say why).
    repeat : int or None, default=None
        %(repeat)s Repeats are not independent, so the
        estimate averages them but the interval is one repeat's, of n
        instances and k folds, at the repeats' average (see Notes).
    %(min_count)s
    target : {"kfold", "conditional", "unconditional"} or None, default=None
        The error the interval is meant to cover: that of the models fitted
        in the folds (what Wong's intervals estimate), of the model fitted to
        all the data, or of the learner over datasets of this size. It is the
        result's ``target``; ``method="auto"`` chooses for it, and an explicit
        method asked for another target than its own warns when the
        calibration benchmark measured it falling short of that target.
        None: ``"kfold"`` for ``method="auto"``, else the target the method
        is built for (its row of docs/methods.md): ``"kfold"`` for Wong's
        intervals, Wilson, Clopper-Pearson and the cluster-robust ones,
        ``"conditional"`` for Nedel'ko's ``"half-sample"`` interval, whose
        err_CV is measured against the model fitted to all N instances
        (Nedel'ko 2021, section 3), as :func:`loss_interval`'s is.

    Returns
    -------
    Interval
        ``estimate``, ``low``, ``high``, ``method``, ``averaging``, the
        ``conditions`` checked, and ``notes``/``warnings``.

    Warns
    -----
    InferenceWarning
        When a normal approximation is used although the conditions fail, when
        the interval has zero width, when repeats are pooled, when an
        interval that counts instances is asked of a record made with groups
        (or the fold t of one whose folds split a group), or when the
        calibration benchmark measured the method covering ``target`` less
        often than 0.93 (its 95% Wilson interval below it) in this result's
        regime.

    See Also
    --------
    large_sample_conditions : the per-fold check behind ``method="auto"``.

    Notes
    -----
    Dataset level, ``"normal"``: p +- z sqrt(p (1 - p) / n), with p the total
    correct over n (Wong 2015, Theorem 1 and section 4.3.3; Kohavi 1995,
    "Confidence Bounds"; van der Aalst, section 3.6). Clipped to [0, 1].
    It needs the large-sample conditions and has poor coverage near 0 and 1.

    Fold level, ``"t"``: the mean of p_j +- t_{k-1} s / sqrt(k), with s the
    sample standard deviation of the k fold accuracies (Wong 2015, section
    4.3.3, Example 1). Unlike the dataset level it reflects how much the
    accuracy varies between folds, but with k = 10 it rests on 9 degrees of
    freedom. Under leave-one-out the folds are single instances and this is a
    t interval on the 0/1 correctness vector.

    ``"wilson"`` inverts the score test and ``"clopper-pearson"`` inverts the
    two one-sided exact binomial tests; both come from
    ``scipy.stats.binomtest(...).proportion_ci``. Clopper-Pearson has coverage
    at least the confidence level, but is in general conservative; Wilson's
    coverage is close to nominal on average, also for small counts (Brown,
    Cai & DasGupta 2001).

    ``"half-sample"``: p +- z sqrt(p (1 - p) / (n / 2)), Nedel'ko's interval
    of the mean loss, mean +- z S~ / sqrt(N / 2) with S~ the population
    standard deviation of the per-instance losses, on the zero-one loss
    (Nedel'ko 2021, section 3; :func:`loss_interval` gives it on the error
    rate). Nedel'ko found cross-validation about as variable as a hold-out
    estimate on half the instances; the calibration benchmark found it the
    one record-based interval that covered every target for a random
    forest, histogram gradient boosting and an RBF SVM (docs/calibration.md,
    "The learners people use"), about 1.41 times as wide as Wong's.

    ``method="auto"`` follows the evidence of ``benchmarks/calibration.py``
    (docs/calibration.md): real fits on populations whose truth is known,
    for a decision tree, logistic regression, k-NN, naive Bayes, a random
    forest, histogram gradient boosting and an RBF SVM at N = 100, 300 and
    1,000. The result's regime is the cells of its learner (recognised by
    its class and family from ``estimator_type``; every measured learner
    otherwise) at the two measured sizes around ``n_samples``. When Wong's
    conditions hold but his interval fell short there, ``"auto"`` takes the
    interval (binomial or half-sample) closest to nominal that did not; when
    all fell short, the best of them, with a warning that names the regime.

    ``method="auto"`` checks the conditions fold by fold under k-fold, as
    Wong's Theorem 1 and section 4.3.3 do, and on the whole vector under
    leave-one-out (section 5.1). The same predictions can therefore get the
    exact interval under 10-fold (a fold with fewer than 5 errors) and the
    normal one under leave-one-out.

    Pooled repeats (Wong 2015, section 4.3.4): the R repeats test the same
    n instances, and the predictions of one instance in different repeats
    are positively correlated, so the R n predictions are not R n
    independent instances. The estimate is the pooled accuracy p, the mean
    of the per-repeat accuracies p_r, and the interval is the one-repeat
    interval of n instances at the repeats' average count x = p n (not
    always a whole number): p +- z sqrt(p (1 - p) / n); Wilson's interval
    of x and n; Clopper-Pearson's in its beta-quantile form,
    Beta(alpha/2; x, n - x + 1) and Beta(1 - alpha/2; x + 1, n - x), which
    is the exact interval at whole x; at the fold level, the mean of all R k
    fold accuracies +- t_{k-1} s / sqrt(k), with s^2 the variance of the
    fold accuracies within a repeat, averaged over the repeats. This claims
    no independence: Var(p) = (1/R^2) sum_r sum_s Cov(p_r, p_s) <= max_r
    Var(p_r), because ``|Cov(p_r, p_s)|`` <= sqrt(Var(p_r) Var(p_s))
    (Cauchy-Schwarz), so one repeat's variance, p (1 - p) / n by Wong's
    Theorem 1, bounds that of the average whatever the repeats'
    correlation. What averaging does remove is part of the noise of the
    random partition, the internal variance of Vanwinckelen & Blockeel
    (2015, Definition 13 and section 4.1). The interval is therefore as
    wide as one repeat's at p, however many repeats there are: no wider
    than the widest per-repeat interval when the per-repeat accuracies lie
    on one side of 1/2, and at most one repeat's interval at 1/2 when they
    straddle it.

    ``"cluster"``, for a record made with ``groups``: the accuracy as the
    ratio estimator p = sum_g Y_g / N of the G groups' correct counts Y_g
    (Cochran 1977, Sampling Techniques, chapters 6 and 9), with the
    cluster-robust variance V = G / (G - 1) sum_g (Y_g - p m_g)^2 / N^2
    (Cameron & Miller 2015, "A practitioner's guide to cluster-robust
    inference", J. Human Resources 50(2), section II.C, the CR1 factor) and
    the interval p +- t_{G-1} sqrt(V) (section VI), as statsmodels'
    ``cov_type="cluster"``. Pooled repeats average the per-repeat estimates
    and variances, as above. It warns with fewer than 20 groups and when
    the folds split a group (docs/dependent-data.md).

    ``"cluster-half-sample"``: p +- t_{G-1} sqrt(2 V), the cluster-robust
    interval with twice its variance. Nedel'ko (2021, section 3) found the
    cross-validated error varying about as much as an error measured on
    half the sample, which is the ``"half-sample"`` interval's n/2; counting
    groups instead of instances, half the groups double V. That carrying
    over is the project's; the calibration benchmark measured it
    (docs/calibration.md, Grouped data). ``method="auto"`` chooses it where
    the cluster-robust interval's measured coverage fell below 0.93: with
    few groups the fold models' own variability, which V leaves out, is
    the larger part. There the floor applies to the measured coverage, not
    to its Wilson interval: the stricter rule, which takes the wider
    interval where a shortfall may be Monte-Carlo noise.

    All the others treat the n cross-validated predictions as independent
    Bernoulli trials (Wong's instance independence). They speak about this
    dataset's cross-validated accuracy: a single dataset cannot show how the
    accuracy varies from one training sample to another (Vanwinckelen &
    Blockeel 2015), so the interval is narrower than the learner's
    variability over datasets.

    Examples
    --------
    Wong (2015), Example 1: five folds of 40 with fold accuracies 0.80, 0.70,
    0.75, 0.75 and 0.80, that is 32, 28, 30, 30 and 32 correct (the count the
    paper's p = 0.76 and its fold accuracies imply).

    >>> from cvinference import CVResult, accuracy_interval
    >>> import numpy as np
    >>> correct = [32, 28, 30, 30, 32]
    >>> fold = np.repeat(np.arange(5), 40)
    >>> y_pred = np.concatenate([[1] * r + [0] * (40 - r) for r in correct])
    >>> result = CVResult(y_true=np.ones(200, dtype=int), y_pred=y_pred, fold=fold)
    >>> interval = accuracy_interval(result, method="normal")
    >>> interval
    Interval(estimate=0.76, low=0.7008, high=0.8192, confidence_level=0.95, method='normal')
    >>> round(interval.details["standard_error"] ** 2, 6)
    0.000912
    >>> accuracy_interval(result, averaging="fold", method="t")
    Interval(estimate=0.76, low=0.7081, high=0.8119, confidence_level=0.95, method='t')

    ``method="auto"`` never changes the ``averaging`` asked for: at the fold
    level the t is the only interval, and it warns where the calibration
    benchmark measured it falling short (here, for an unnamed learner at
    this size):

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     auto = accuracy_interval(result, averaging="fold")
    >>> auto.method, auto.details["averaging"]
    ('t', 'fold')
    >>> any("calibration benchmark" in str(w.message) for w in caught)
    True

    A second partition of the same 200 instances with 30, 27, 30, 26 and 30
    correct (143 in all, 0.715). Pooled, the estimate is their mean, 0.7375,
    and the interval is one repeat's at the average count 147.5 of 200,
    between the two per-repeat intervals rather than spanning them:

    >>> import warnings
    >>> second = np.concatenate([[1] * r + [0] * (40 - r) for r in [30, 27, 30, 26, 30]])
    >>> repeated = CVResult(y_true=np.ones(200, dtype=int), y_pred=[y_pred, second], fold=[fold, fold])
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # the warning that the repeats are pooled
    ...     accuracy_interval(repeated, method="clopper-pearson")
    Interval(estimate=0.7375, low=0.6708, high=0.797, confidence_level=0.95, method='clopper-pearson')
    >>> accuracy_interval(repeated, method="clopper-pearson", repeat=1)
    Interval(estimate=0.715, low=0.6471, high=0.7764, confidence_level=0.95, method='clopper-pearson')

    A record made with ``groups`` counts groups, not instances. Here the
    same predictions come from 40 patients of 5 instances each, whole
    within the folds, and each patient's instances are all right or all
    wrong: the cluster-robust interval is twice as wide as Wong's, and the
    half-sample one sqrt(2) times wider again:

    >>> patients = CVResult(y_true=np.ones(200, dtype=int), y_pred=y_pred, fold=fold,
    ...                     groups=np.arange(200) // 5)
    >>> accuracy_interval(patients, method="cluster")
    Interval(estimate=0.76, low=0.6287, high=0.8913, confidence_level=0.95, method='cluster')
    >>> accuracy_interval(patients, method="cluster-half-sample")
    Interval(estimate=0.76, low=0.5743, high=0.9457, confidence_level=0.95, method='cluster-half-sample')
    """
    check_accuracy_result(result)
    rows = select_repeats(result, repeat)
    if method != "auto":
        _check_combination(averaging, method)
        if method in CLUSTER_METHODS:
            require_clusters(result, f"method={method!r}")
        if drop_failing_folds and method in (*_BINOMIAL, *CLUSTER_METHODS):
            raise ValueError(
                f"drop_failing_folds=True applies to the normal approximations, but method={method!r} "
                "needs no large-sample conditions. Use drop_failing_folds=False with it."
            )
    messages = Messages()
    if len(rows) > 1:
        messages.warn(pooled_repeats_warning(len(rows)))

    conditions = fold_conditions(result, rows, min_count)
    keep = np.ones((len(rows), result.n_splits), dtype=bool)
    if drop_failing_folds:
        keep = _drop_failing_folds(conditions, averaging, messages,
                                   clustered=method == "auto" and result.groups is not None and averaging == "dataset")
    dropped = conditions.failing_folds if not keep.all() else ()
    conditions_hold = conditions.satisfied or bool(dropped)

    if target is None:
        target = "kfold" if method == "auto" else row("accuracy_interval", method).target
    chosen_because = ""
    if method == "auto":  # the policy chooses on the calibration evidence, and the notes say why
        method, averaging, chosen_because = upward("policy", "choose_method")(
            "accuracy_interval", result, messages, averaging=averaging, conditions=conditions,
            conditions_hold=conditions_hold, target=target,
            width_of=lambda choice: _width(result, rows, keep, confidence_level, *choice))
    else:
        if method in ("normal", "t") and not conditions_hold:
            messages.warn(conditions_warning(
                f"({conditions.describe()}), so the {method} "
                "approximation may be poor; method='clopper-pearson' (or 'auto') gives an exact interval."
            ))
        upward("policy", "evidence_warnings")("accuracy_interval", result, method, messages, averaging=averaging,
                                              target=target)
    _grouped_warnings(result, rows, method, messages)

    compute = (_cluster_level if method in CLUSTER_METHODS
               else {"fold": _fold_level, "dataset": _dataset_level}[averaging])
    point = compute(result, rows, keep, confidence_level, method, messages)
    return estimate_interval(
        point, confidence_level=confidence_level, method=method, averaging=averaging,
        estimand=accuracy_estimand(result) + ("; fold accuracies averaged" if averaging == "fold" else ""),
        assumptions=_ASSUMPTIONS[averaging, method], messages=messages, conditions=(conditions,),
        dropped_folds=dropped, target=target,
        details={**(point.details or {}), "chosen_because": chosen_because} if chosen_because else None,
    )


def _width(result, rows, keep, confidence_level, method, averaging):
    """The width of the ``method`` interval at ``averaging`` on these repeats, computed silently (for the choice)."""
    compute = (_cluster_level if method in CLUSTER_METHODS
               else {"fold": _fold_level, "dataset": _dataset_level}[averaging])
    bounds = quietly(compute, result, rows, keep, confidence_level, method, Messages()).bounds
    return bounds.high - bounds.low


def _grouped_warnings(result, rows, method, messages):
    """On a grouped record: an instance-level interval warns; the fold t warns when the folds split groups."""
    if method not in CLUSTER_METHODS:
        warning = grouped_record_warning(result, rows, f"the {method} interval",
                                         None if method == "t" else _CLUSTER_INSTEAD)
        if warning:
            messages.warn(warning)


def _drop_failing_folds(conditions, averaging, messages, clustered=False):
    """The folds Wong's literal rule keeps, with the note and warning it needs; all of them when ``clustered``."""
    keep = conditions.holds.copy()
    if conditions.satisfied:
        return keep
    if clustered:
        messages.note("drop_failing_folds=True drops no fold: method='auto' chooses the cluster-robust interval for "
                      "a record made with groups, which uses every instance and needs no large-sample conditions")
        return np.ones(keep.shape, dtype=bool)
    if not conditions.units_are_folds:
        messages.note("drop_failing_folds=True has no folds to drop under leave-one-out, where the "
                      "conditions apply to the whole vector")
        return np.ones(keep.shape, dtype=bool)
    needed = 2 if averaging == "fold" else 1
    if keep.sum(axis=1).min() < needed:
        messages.note(
            f"drop_failing_folds=True would leave fewer than {needed} fold(s) in a repeat "
            f"({conditions.describe()}); no fold is dropped"
        )
        return np.ones(keep.shape, dtype=bool)
    where = " in some repeat" if len(conditions.repeats) > 1 else ""
    messages.warn(
        f"drop_failing_folds=True leaves folds {list(conditions.failing_folds)} out of the estimate "
        f"and of n{where} (Wong 2015, section 4.1, after Theorem 1). They fail the large-sample "
        "conditions because they hold few correct or few wrong predictions, so dropping them biases "
        "the estimate; method='auto' without dropping keeps every fold (its notes say which interval and why)."
    )
    return keep


def normal_bounds(estimate, standard_error, confidence_level, df, messages, *, limits=(0.0, 1.0),
                  what="accuracy", exact_advice="Use method='clopper-pearson' or 'wilson'."):
    """estimate +- z (or t with ``df``) standard_error, clipped to ``limits``.

    ``limits`` is (lowest, highest) possible value, either of them None for
    no bound, or None for no clipping at all. ``Bounds.clipped`` names the
    bounds (``"low"``, ``"high"``) that passed a limit and were set to it.

    Returns
    -------
    Bounds
    """
    critical = reference_quantile((1 + confidence_level) / 2, df)
    if standard_error == 0:
        messages.warn(
            f"The estimated standard error is 0 (estimate {estimate:.4g}), so the interval has zero "
            f"width; it does not mean the {what} is known exactly. {exact_advice}".rstrip()
        )
    half_width = critical * standard_error
    low, high = estimate - half_width, estimate + half_width
    lowest, highest = (None, None) if limits is None else limits
    clipped = tuple(side for side, passed in (("low", lowest is not None and low < lowest),
                                              ("high", highest is not None and high > highest)) if passed)
    low = low if lowest is None else max(lowest, low)
    high = high if highest is None else min(highest, high)
    return Bounds(low=low, high=high, standard_error=standard_error, critical_value=critical, df=df, clipped=clipped)


def warned_bounds(estimate, standard_error, confidence_level, df, messages, *, limits, what, advice=""):
    """:func:`normal_bounds` clipped to ``limits``, with a warning that names the interval before clipping.

    For intervals whose range is a metric's (an AUC's [0, 1], a log loss's
    [0, inf)), where leaving it says the normal approximation is poor.
    """
    bounds = normal_bounds(estimate, standard_error, confidence_level, df, messages, limits=limits, what=what,
                           exact_advice="")
    if bounds.clipped:
        half_width = bounds.critical_value * standard_error
        lowest = -math.inf if limits[0] is None else limits[0]
        highest = math.inf if limits[1] is None else limits[1]
        messages.warn(f"The interval [{estimate - half_width:.4g}, {estimate + half_width:.4g}] leaves the possible "
                      f"range [{lowest:g}, {highest:g}] of the {what} and is clipped to it. {advice}".rstrip())
    return bounds


def fold_mean_estimate(values, keep, confidence_level, method, messages, *, n_splits,
                     what_needs_folds="averaging='fold'", fix="Use averaging='dataset'.", **bound_options):
    """The mean of per-fold ``values`` (n_repeats, n_splits) +- t_{k-1} s / sqrt(k) (z for "normal").

    Returns
    -------
    PointEstimate
    """
    n_folds = int(keep.sum(axis=1).min())
    if n_folds < 2:
        raise ValueError(
            f"{what_needs_folds} needs at least two folds to estimate their spread; the result has "
            f"n_splits={n_splits}. {fix}"
        )
    estimate = float(values[keep].mean())
    standard_error = math.sqrt(within_repeat_variance(values, keep) / n_folds)
    df = None if method == "normal" else n_folds - 1
    bounds = normal_bounds(estimate, standard_error, confidence_level, df, messages, **bound_options)
    return PointEstimate(estimate=estimate, n=n_folds, bounds=bounds)


def _dataset_level(result, rows, keep, confidence_level, method, messages):
    correct_by_repeat = (result.fold_correct[list(rows)] * keep).sum(axis=1)
    tested_by_repeat = (result.fold_sizes[list(rows)] * keep).sum(axis=1)
    estimate = int(correct_by_repeat.sum()) / int(tested_by_repeat.sum())
    n = _integer_if_whole(int(tested_by_repeat.sum()) / len(rows))
    if method in _BINOMIAL:
        count = _integer_if_whole(int(correct_by_repeat.sum()) / len(rows))
        if len(rows) > 1:
            messages.note(
                f"the {len(rows)} repeats are pooled: this is the {method} interval of one repeat of n = {n:.6g} "
                f"instances at the repeats' average count, {count:.6g} correct; the repeats are not independent, "
                "so they are not counted as more instances (Wong 2015, section 4.3.4)"
            )
        bounds = binomial_bounds(count, n, confidence_level, method)
    else:
        counted = n / 2 if method == "half-sample" else n
        bounds = normal_bounds(estimate, math.sqrt(estimate * (1 - estimate) / counted), confidence_level, None,
                               messages)
    return PointEstimate(estimate=estimate, n=n, bounds=bounds)


def _integer_if_whole(value):
    return int(value) if float(value).is_integer() else value


def binomial_bounds(count, n, confidence_level, method):
    """The Wilson or Clopper-Pearson interval of ``count`` correct of ``n``, either of them possibly non-integer.

    Whole numbers go to ``scipy.stats.binomtest``. Otherwise Clopper-Pearson
    is its beta-quantile form, Beta(alpha/2; x, n - x + 1) and
    Beta(1 - alpha/2; x + 1, n - x), which is defined for any real x in
    [0, n] and equals the exact interval at whole x (Clopper & Pearson 1934;
    Brown, Cai & DasGupta 2001), and Wilson its closed form
    (p + z^2/2n -+ z sqrt(p (1 - p)/n + z^2/4n^2)) / (1 + z^2/n) with
    p = x/n (Wilson 1927; Brown, Cai & DasGupta 2001). As in scipy, the
    bound at x = 0 is 0 and at x = n is 1.

    Returns
    -------
    Bounds
    """
    if isinstance(count, int) and isinstance(n, int):
        interval = stats.binomtest(count, n).proportion_ci(confidence_level, method=_BINOMIAL[method])
        return Bounds(low=float(interval.low), high=float(interval.high))
    tail = (1 - confidence_level) / 2
    if method == "clopper-pearson":
        low = stats.beta.ppf(tail, count, n - count + 1) if count > 0 else 0.0
        high = stats.beta.isf(tail, count + 1, n - count) if count < n else 1.0
        return Bounds(low=float(low), high=float(high))
    z = reference_quantile(1 - tail, None)
    p = count / n
    center = (p + z ** 2 / (2 * n)) / (1 + z ** 2 / n)
    half_width = z * math.sqrt(p * (1 - p) / n + z ** 2 / (4 * n ** 2)) / (1 + z ** 2 / n)
    return Bounds(low=center - half_width if count > 0 else 0.0, high=center + half_width if count < n else 1.0)


def _cluster_level(result, rows, keep, confidence_level, method, messages):
    return cluster_point(result.correct[list(rows)].astype(np.float64), require_clusters(result, f"method={method!r}"),
                         result.fold[list(rows)], confidence_level, messages,
                         variance_factor=CLUSTER_VARIANCE_FACTOR[method])


def cluster_point(values, clusters, folds, confidence_level, messages, center=None, variance_factor=1.0,
                  **bound_options):
    """The cluster-robust (CR1) t interval, G - 1 degrees of freedom, of (n_repeats, n_samples) ``values``.

    ``center``: the estimate the interval is centred on when ``values`` are influence values (whose mean is 0),
    not the quantity itself; None for the values' pooled mean. ``variance_factor`` multiplies the variance (2 for
    the half-sample interval).
    """
    pooled = pooled_ratio(values, clusters, folds, messages, "cluster-robust interval")
    estimate = pooled.estimate if center is None else center
    bounds = normal_bounds(estimate, math.sqrt(variance_factor * pooled.variance), confidence_level,
                           clusters.n_groups - 1, messages, **bound_options)
    return PointEstimate(estimate=estimate, n=values.shape[1], bounds=bounds, details=pooled.details)


def _fold_level(result, rows, keep, confidence_level, method, messages):
    return fold_mean_estimate(result.fold_accuracy[list(rows)], keep, confidence_level, method, messages,
                            n_splits=result.n_splits)
