"""Intervals and tests for per-instance values that come in clusters (patients, subjects, sites).

Pure functions of plain arrays: ``values`` (one repeat's per-instance losses,
or 0/1 correctness), ``groups`` (each instance's cluster label) and,
optionally, ``fold`` (each instance's test fold, to check that the folds kept
the groups whole). The cluster, not the instance, is the independent unit:
instances of one patient share what makes the patient easy or hard, so the
binomial variance p (1 - p) / n, which counts every instance as independent,
is too small (Cameron & Miller 2015, section I; Kish's design effect).
"""

import math
import types

import numpy as np
from scipy import special, stats
from sklearn.utils import check_random_state

from .._utils._blockwise import row_blocks
from .._utils._docstring import fill_doc
from .._utils._params import PROBABILITY, Integer, Options, Seed, validate_params
from .._utils._warnings import Messages
from ._accuracy_interval import Bounds, PointEstimate, estimate_interval, warned_bounds
from ._clusters import (
    ROBUST_ASSUMPTIONS,
    check_bounds,
    check_clusters,
    check_values,
    cluster_checks,
    pooled_ratio,
)
from ._distributions import pvalue_of, statistic_and_pvalue
from ._methods import display_label, options
from ._parameters import ALTERNATIVE
from ._results import LossDifferenceTestResult, TestResult
from ._test_inversion import INVERTED, far_differences_warning

MCNEMAR_METHODS = options("mcnemar_test")[1:]  # the clustered forms, after plain McNemar
BOOTSTRAP_METHODS = ("percentile", "bca")

_BOOTSTRAP_ASSUMPTIONS = ("clusters independent and identically distributed, instances within a cluster arbitrarily "
                          "correlated; many clusters (the bootstrap distribution of the ratio stands for its "
                          "sampling distribution)")


# --------------------------------------------------------------------------- 1. the cluster-robust t interval


@validate_params(confidence_level=PROBABILITY)
@fill_doc
def cluster_mean_interval(values, groups, *, confidence_level=0.95, bounds=None, fold=None):
    """Confidence interval for the mean of per-instance values that come in clusters.

    Parameters
    ----------
    values : array-like of shape (n_samples,)
        One repeat's per-instance values: a loss, or 0/1 correctness for
        an accuracy.
    groups : array-like of shape (n_samples,)
        Each instance's group (patient, subject, site): the independent unit.
    %(confidence_level)s
    bounds : (float or None, float or None) or None, default=None
        The possible range of the mean, e.g. ``(0, 1)`` for an accuracy or
        ``(0, None)`` for a non-negative loss. An interval that leaves it is
        clipped to it with an :class:`InferenceWarning`. None: no clipping.
    fold : array-like of int, shape (n_samples,), optional
        Each instance's test fold in the same repeat. When given, a fold
        assignment that splits a group warns (see Warns).

    Returns
    -------
    Interval
        ``method`` ``"cluster-robust t"``, ``averaging`` ``"dataset"``,
        ``n`` the instances, ``df`` = G - 1, ``standard_error`` the
        cluster-robust one. ``details``: ``n_groups`` (G),
        ``min_group_size``, ``max_group_size``, ``design_effect`` (the
        clustered variance over the independent-instance variance),
        ``effective_n`` (n / design effect), ``intraclass_correlation``
        (ANOVA estimator, nan when every group holds one instance),
        ``iid_standard_error`` (what the instance-level interval uses),
        ``small_sample_factor`` (G / (G - 1)) and, when ``fold`` is given,
        ``groups_within_folds``.

    Raises
    ------
    ValueError
        When ``groups`` holds fewer than 2 groups, or the arrays' lengths differ.

    Warns
    -----
    InferenceWarning
        With fewer than 20 groups (see Notes), when the interval is clipped
        to ``bounds``, when its standard error is 0, and when ``fold``
        splits a group between folds (the cross-validated values are then
        optimistic for new groups, which no interval repairs).

    Notes
    -----
    With G groups, m_g instances and total Y_g = sum_{i in g} y_i in group
    g, and N = sum_g m_g, the mean is the ratio estimator

        ybar = sum_g Y_g / sum_g m_g

    (Cochran 1977, Sampling Techniques, 3rd ed., chapter 6 on ratio
    estimators and chapter 9 on clusters of unequal size, with the clusters
    as the sampled units, y = Y_g and x = m_g), and its variance is the
    cluster-robust (sandwich) one of a regression of y on a constant
    (Cameron & Miller 2015, "A practitioner's guide to cluster-robust
    inference", J. Human Resources 50(2), section II.C, with X a column of
    ones):

        V = G / (G - 1) * sum_g (Y_g - ybar m_g)^2 / N^2.

    The factor G / (G - 1) is Cameron & Miller's CR1 correction c = G / (G
    - 1) * (N - 1) / (N - K) with K = 1 regressor, where (N - 1) / (N - K) =
    1; it is the divisor G - 1 of Cochran's sample estimate of the ratio's
    variance (chapter 6, with the finite-population correction 1), and it is what
    Stata's ``vce(cluster)`` and statsmodels' ``cov_type="cluster"`` (its
    default ``use_correction=True``) use. The interval is ybar +-
    t_{G-1} sqrt(V), the t with G - 1 degrees of freedom that Cameron &
    Miller (section VI) recommend over the normal with few clusters
    (statsmodels' default ``df_correction=True``). Without the factor and
    with the normal quantile the interval is too narrow with few groups.

    It counts groups, not instances: ten patients of a hundred rows each
    give about the precision of ten to a thousand independent rows,
    depending on how alike a patient's rows are. The design effect V /
    V_iid, with V_iid = (1/N) sum_i (y_i - ybar)^2 / N the variance if the
    instances were independent (the binomial p (1 - p) / N for 0/1 values),
    says how much wider the interval is; for equal groups of m it is about
    1 + (m - 1) rho (Kish 1965, Survey Sampling, chapter 5), with rho
    the intra-cluster correlation, reported here by the one-way ANOVA
    estimator rho = (MSB - MSW) / (MSB + (m0 - 1) MSW), m0 = (N - sum_g
    m_g^2 / N) / (G - 1) (Donner 1986, "A review of inference procedures
    for the intraclass correlation coefficient in the one-way random
    effects model", Int. Stat. Rev. 54(1); for 0/1 data Ridout, Demétrio &
    Firth 1999, Biometrics 55). It can be negative.

    With fewer than 20 groups the interval warns: Cameron & Miller (2015,
    section VI) call fewer than 20 to 50 clusters "few", where even the CR1
    variance with t_{G-1} quantiles tends to be too small.

    Examples
    --------
    Ten patients, four predictions each; the patients differ in how often
    the classifier is right:

    >>> import numpy as np
    >>> correct = np.array([1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1,
    ...                     1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1])
    >>> patient = np.repeat(np.arange(10), 4)
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # fewer than 20 groups
    ...     interval = cluster_mean_interval(correct, patient, bounds=(0, 1))
    >>> interval
    Interval(estimate=0.75, low=0.5269, high=0.9731, confidence_level=0.95, method='cluster-robust t')
    >>> details = interval.details
    >>> details["df"], round(details["design_effect"], 3), round(details["intraclass_correlation"], 3)
    (9, 2.074, 0.324)
    """
    values = check_values(values, "values")
    clusters = check_clusters(groups, values.size)
    limits = check_bounds(bounds)
    messages = Messages()
    pooled = pooled_ratio(values[np.newaxis], clusters, None if fold is None else np.asarray(fold)[np.newaxis],
                          messages, "cluster-robust interval")
    interval_bounds = warned_bounds(pooled.estimate, math.sqrt(pooled.variance), confidence_level,
                                    clusters.n_groups - 1, messages, limits=limits, what="mean",
                                    advice="The cluster bootstrap (cluster_bootstrap_interval) stays within it.")
    return estimate_interval(
        PointEstimate(pooled.estimate, values.size, interval_bounds), confidence_level=confidence_level,
        method="cluster-robust t", averaging="dataset",
        estimand=("mean per-instance value over the population of groups (total over instances, the ratio "
                  "sum_g Y_g / sum_g m_g); given this dataset"),
        assumptions=ROBUST_ASSUMPTIONS, messages=messages, details=pooled.details)


# --------------------------------------------------------------------------- 2. the cluster bootstrap


def _resampled_ratios(totals, sizes, n_resamples, rng):
    """The ratio on each of ``n_resamples`` resamples of whole clusters: ``rng.randint(0, G, (B, G))`` row by row."""
    n_groups = sizes.size
    ratios = np.empty(n_resamples)
    for block in row_blocks(n_resamples, n_groups):
        picks = rng.randint(0, n_groups, size=(len(range(n_resamples)[block]), n_groups))
        ratios[block] = totals[picks].sum(axis=1) / sizes[picks].sum(axis=1)
    return ratios


def _bca_levels(ratios, estimate, totals, sizes, alpha, messages):
    """Efron's BCa levels (Davison & Hinkley 1997, section 5.3.2), the acceleration jackknifed over clusters.

    Falls back to the percentile levels, with a warning, when every resampled
    ratio lies on one side of the estimate (z0 infinite).
    """
    share = (np.count_nonzero(ratios < estimate) + np.count_nonzero(ratios <= estimate)) / (2 * ratios.size)
    bias = special.ndtri(share)
    if not math.isfinite(bias):
        messages.warn(f"Every one of the {ratios.size} resampled means lies on one side of the estimate, so the BCa "
                      "bias correction is infinite; the percentile interval is given instead. Use more resamples.")
        return np.array([alpha / 2, 1 - alpha / 2]), {"bias_correction": float(bias)}
    leave_one_out = (totals.sum() - totals) / (sizes.sum() - sizes)
    spread = leave_one_out.mean() - leave_one_out
    squares = float(spread @ spread)
    acceleration = float(np.sum(spread**3)) / (6 * squares**1.5) if squares > 0 else 0.0
    z = special.ndtri(np.array([alpha / 2, 1 - alpha / 2]))
    levels = special.ndtr(bias + (bias + z) / (1 - acceleration * (bias + z)))
    return levels, {"bias_correction": float(bias), "acceleration": acceleration}


@validate_params(confidence_level=PROBABILITY, n_resamples=Integer(minimum=1), method=Options(*BOOTSTRAP_METHODS),
                 random_state=Seed())
@fill_doc
def cluster_bootstrap_interval(values, groups, *, confidence_level=0.95, n_resamples=2000, method="bca",
                               random_state=None, fold=None):
    """Cluster bootstrap interval for the mean of per-instance values that come in clusters.

    Parameters
    ----------
    values : array-like of shape (n_samples,)
        One repeat's per-instance values: a loss, or 0/1 correctness.
    groups : array-like of shape (n_samples,)
        Each instance's group: the unit that is resampled.
    %(confidence_level)s
    n_resamples : int, default=2000
        Bootstrap resamples of the G groups.
    method : {"bca", "percentile"}, default="bca"
        Efron's bias-corrected and accelerated interval, with the
        acceleration from the delete-one-group jackknife, or the percentile
        interval.
    random_state : None, int or numpy.random.RandomState, default=None
        Seeds the resampling as ``sklearn.utils.check_random_state`` does,
        as everywhere in the package.
    fold : array-like of int, shape (n_samples,), optional
        Each instance's test fold; when given, a fold that splits a group warns.

    Returns
    -------
    Interval
        ``method`` ``"cluster bootstrap percentile"`` or ``"cluster
        bootstrap BCa"``, ``averaging`` ``"dataset"``, ``standard_error``
        the standard deviation of the resampled ratios. ``details``:
        ``n_groups``, ``min_group_size``, ``max_group_size``,
        ``n_resamples``, ``bootstrap_bias`` (mean of the resampled ratios
        less the estimate) and, for BCa, ``bias_correction`` (z0) and
        ``acceleration`` (a).

    Warns
    -----
    InferenceWarning
        With fewer than 20 groups, when every resample gives the same ratio
        (a zero-width interval), when every resampled ratio lies on one side
        of the estimate (BCa then gives the percentile interval), and when
        ``fold`` splits a group.

    Notes
    -----
    The bootstrap draws G groups with replacement from the G groups and
    recomputes the ratio estimator sum Y_g / sum m_g of the drawn groups
    (Davison & Hinkley 1997, Bootstrap Methods and their Application,
    section 3.8, "Hierarchical data": resample the clusters, keep each
    whole; Field & Welsh 2007, "Bootstrapping clustered data", JRSS-B
    69(3), the "cluster bootstrap", whose variance estimate they show to be
    consistent as the number of clusters grows, whatever the correlation
    within a cluster). Resample b uses the row b of
    ``check_random_state(random_state).randint(0, G, size=(n_resamples,
    G))``, as ``scipy.stats.bootstrap`` draws its indices, so both give the
    same resamples for the same seed.

    ``"percentile"``: the (1 - confidence_level) / 2 and (1 +
    confidence_level) / 2 quantiles of the B ratios (``numpy.quantile``,
    linear interpolation; Davison & Hinkley, section 5.3.1). It stays in
    the values' range (a ratio of sums of values in [0, 1] is in [0, 1]).
    ``"bca"``: the quantiles at Phi(z0 + (z0 + z_a) / (1 - a (z0 + z_a)))
    (Efron 1987, JASA 82; Davison & Hinkley, section 5.3.2), with z0
    = Phi^-1 of the share of ratios below the estimate (ties counted half)
    and a = sum_g u_g^3 / (6 (sum_g u_g^2)^(3/2)), u_g the mean of the
    delete-one-group jackknife ratios less the ratio without group g; this
    is ``scipy.stats.bootstrap(..., paired=True, method="BCa")`` on the
    groups' (Y_g, m_g). BCa is the default: it corrects the skew of an
    accuracy near 1, and ``benchmarks/clustered_coverage.py`` (18 cells of
    20 or 50 groups of 5-50 instances, ICC 0.05-0.5, 2000 replicates)
    measured it covering 0.918-0.955 where the percentile interval covered
    0.897-0.948, closer to 0.95 in almost every cell.

    Neither interval has the t's small-sample factor: with few groups the
    resampled ratios spread less than the ratio does across datasets
    (their variance is about (G - 1) / G times the CR1 one), and Cameron,
    Gelbach & Miller (2008, Rev. Econ. Stat. 90(3)) find the percentile
    cluster bootstrap undercovers with few clusters; with 20 groups of
    unequal size and ICC 0.5 the benchmark measured 0.918 (BCa).

    Examples
    --------
    25 patients of 6 predictions, each patient with an accuracy of its own:

    >>> import numpy as np
    >>> rng = np.random.RandomState(0)
    >>> patient = np.repeat(np.arange(25), 6)
    >>> skill = rng.beta(4, 1, 25)
    >>> correct = rng.rand(150) < skill[patient]
    >>> interval = cluster_bootstrap_interval(correct, patient, random_state=0)
    >>> interval
    Interval(estimate=0.7933, low=0.7133, high=0.86, confidence_level=0.95, method='cluster bootstrap BCa')
    >>> cluster_bootstrap_interval(correct, patient, method="percentile", random_state=0)
    Interval(estimate=0.7933, low=0.7198, high=0.86, confidence_level=0.95, method='cluster bootstrap percentile')
    """
    values = check_values(values, "values")
    clusters = check_clusters(groups, values.size)
    messages = Messages()
    details = cluster_checks(clusters, fold, messages, "cluster bootstrap")
    totals = np.bincount(clusters.codes, weights=values, minlength=clusters.n_groups)
    sizes = clusters.sizes.astype(np.float64)
    estimate = float(totals.sum() / sizes.sum())
    ratios = _resampled_ratios(totals, sizes, n_resamples, check_random_state(random_state))
    alpha = 1 - confidence_level
    levels = np.array([alpha / 2, 1 - alpha / 2])
    if method == "bca":
        levels, bca_details = _bca_levels(ratios, estimate, totals, sizes, alpha, messages)
        details.update(bca_details)
    low, high = (float(q) for q in np.quantile(ratios, levels))
    standard_error = float(ratios.std(ddof=1)) if n_resamples > 1 else 0.0
    if high - low == 0:
        why = ("the groups do not differ in these data" if np.ptp(totals / sizes) == 0 else
               f"use more than n_resamples={n_resamples}")
        messages.warn(f"Every resample of the groups gives the same mean ({estimate:.4g}), so the interval has zero "
                      f"width; it does not mean the mean is known exactly: {why}.")
    details.update({"n_resamples": n_resamples, "bootstrap_bias": float(ratios.mean() - estimate)})
    messages.note(f"{n_resamples} resamples of the {clusters.n_groups} groups (Davison & Hinkley 1997, section 3.8; "
                  "Field & Welsh 2007)")
    name = "percentile" if method == "percentile" else "BCa"
    return estimate_interval(
        PointEstimate(estimate, values.size, Bounds(low, high, standard_error=standard_error)),
        confidence_level=confidence_level, method=f"cluster bootstrap {name}", averaging="dataset",
        estimand=("mean per-instance value over the population of groups (the ratio sum_g Y_g / sum_g m_g); "
                  "given this dataset"),
        assumptions=_BOOTSTRAP_ASSUMPTIONS, messages=messages, details=details)


# --------------------------------------------------------------------------- 3. clustered McNemar


def _paired_inputs(values_a, values_b, groups, names):
    values_a = check_values(values_a, names[0])
    values_b = check_values(values_b, names[1], values_a.size)
    return values_a, values_b, check_clusters(groups, values_a.size)


def _check_binary(values, name):
    if not np.isin(values, (0.0, 1.0)).all():
        raise ValueError(f"{name} must hold 0/1 (or bool) correctness, one per instance; it holds other values "
                         f"(e.g. {values[~np.isin(values, (0.0, 1.0))][0]:g}). For losses use "
                         "cluster_paired_difference_of.")


_POOLING = {"mcnemar-obuchowski": "pooled over their instances",
            "mcnemar-durkalski": "the mean over the groups of each one's difference (b_k - c_k) / n_k"}


def _mcnemar_statistic(discordance, sizes, method):
    """The estimate, its variance at the estimate, and the coefficients (c0, c1, c2) of its variance under the
    hypothesis difference = d0, V(d0) = c0 + c1 d0 + c2 d0^2, by ``method``: z = estimate / sqrt(c0)."""
    n_groups = sizes.size
    if method == "mcnemar-obuchowski":  # residuals d_k - n_k d0 of the pooled difference sum_k d_k / N
        n_samples = float(sizes.sum())
        factor = n_groups / (n_groups - 1) / n_samples**2
        estimate = float(discordance.sum()) / n_samples
        residuals = discordance - sizes * estimate
        coefficients = (factor * float(discordance @ discordance), -2 * factor * float(sizes @ discordance),
                        factor * float(sizes @ sizes))
        return estimate, factor * float(residuals @ residuals), coefficients
    weights = discordance / sizes  # residuals d_k / n_k - d0 of the mean over groups
    estimate = float(weights.mean())
    residuals = weights - estimate
    coefficients = (float(weights @ weights) / n_groups**2, -2 * float(weights.sum()) / n_groups**2, 1 / n_groups)
    return estimate, float(residuals @ residuals) / n_groups**2, coefficients


@validate_params(method=Options(*MCNEMAR_METHODS), alternative=ALTERNATIVE)
def clustered_mcnemar_of(correct_a, correct_b, groups, *, method="mcnemar-obuchowski", alternative="two-sided",
                           fold=None):
    """McNemar-type test of equal accuracies of A and B when the instances come in clusters.

    Parameters
    ----------
    correct_a, correct_b : array-like of bool or 0/1, shape (n_samples,)
        Whether A and B are right on each instance (one repeat each, on the
        same instances in the same order).
    groups : array-like of shape (n_samples,)
        Each instance's group.
    method : {"mcnemar-obuchowski", "mcnemar-durkalski"}, default="mcnemar-obuchowski"
        Obuchowski's (1998) statistic, which weighs the instances equally
        (its estimate is the pooled difference in accuracy), or Durkalski et
        al.'s (2003), which weighs the groups equally.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative to accuracy(A) = accuracy(B); ``"greater"`` is "A is
        more accurate".
    fold : array-like of int, shape (n_samples,), optional
        Each instance's test fold; when given, a fold that splits a group warns.

    Returns
    -------
    TestResult
        ``statistic`` the chi-square with df = 1 (as the published
        statistics and :func:`mcnemar_test`), ``estimate`` what the
        statistic's numerator estimates: accuracy(A) - accuracy(B) pooled
        over the instances (Obuchowski's) or the mean over the groups of
        their differences in accuracy (Durkalski's), ``standard_error`` its
        standard error at the estimate (the cluster-robust CR1 one for
        Obuchowski's). ``confidence_interval()`` inverts the test (see
        Notes): it excludes 0 exactly when the p-value is below 1 -
        ``confidence_level``. ``details``: ``z`` (the signed root of the
        statistic, positive when A is better), ``null_standard_error``
        (the statistic's, sqrt(V(0))), ``null_variance_coefficients``
        ((c0, c1, c2) of V(d0), see Notes), ``a_correct_b_wrong`` and
        ``a_wrong_b_correct`` (b and c), ``n``, ``accuracy_a``,
        ``accuracy_b``, ``n_groups``, ``discordant_groups`` (groups with
        b_k != c_k), ``min_group_size``, ``max_group_size`` and, for
        ``"mcnemar-durkalski"``, ``group_mean_difference`` (the mean over groups of
        (b_k - c_k) / n_k, the estimate).

    Warns
    -----
    InferenceWarning
        With fewer than 20 groups, when no group has b_k != c_k (p = 1),
        when the groups are too few in effect for the test to reject a
        difference far from its estimate (its 95% interval then reaches -1
        or 1; see Notes), and when ``fold`` splits a group.

    Notes
    -----
    In group k with n_k instances, b_k instances are right by A only and
    c_k by B only; K is the number of groups, N = sum_k n_k and d_k = b_k -
    c_k. McNemar's chi-square (b - c)^2 / (b + c) treats the N pairs as
    independent; the clustered statistics take the groups as the units.

    ``"mcnemar-obuchowski"``: Obuchowski (1998), "On the comparison of correlated
    proportions for clustered data", Statistics in Medicine 17:1495-1507,
    in the simplified form of Yang, Sun & Hardin (2010, "A note on the tests
    for clustered matched-pair binary data", Biometrical Journal 52(5)):

        X^2 = (K - 1) / K * (sum_k d_k)^2 / sum_k d_k^2,

    the square of (p_A - p_B) / se_0 with p_A - p_B = sum_k d_k / N and
    se_0^2 = K / (K - 1) * sum_k d_k^2 / N^2, Obuchowski's ratio-estimator
    variance (after Rao & Scott 1992) of the difference computed under the null
    hypothesis (the two proportions' deviations taken from a common value).

    ``"mcnemar-durkalski"``: Durkalski, Palesch, Lipsitz & Rust (2003), "Analysis of
    clustered matched-pair data", Statistics in Medicine 22:2417-2428:

        X^2 = (sum_k d_k / n_k)^2 / sum_k (d_k / n_k)^2,

    which weighs every group equally. With one instance per group it is
    McNemar's chi-square without continuity correction, since then d_k^2 =
    |d_k|. Both reproduce the statistics published for Obuchowski's
    thyroid data and Donner & Petryshen's psychiatry data (Durkalski et al.
    2003, as the R package clust.bin.pair tests them). Yang et al. (2010)
    find Obuchowski's test conservative, and Durkalski's closer to the level
    when the groups are few (K < 50) and of unequal size.

    Both are referred to chi-square with 1 degree of freedom (two-sided);
    a one-sided p-value uses the signed root z.

    ``confidence_interval()`` is the interval of the test: the differences
    d0 in [-1, 1] that the same test of difference = d0 does not reject
    (Casella & Berger 2002, Statistical Inference, section 9.2.1,
    "Inverting a test statistic"; Wilson's 1927 interval inverts the score
    test of a proportion the same way). Each variance
    is taken under its hypothesis, as the statistic's is under d0 = 0: the
    two proportions' deviations taken from values d0 apart, so that group
    k's residual is d_k - n_k d0 (Obuchowski's) or d_k / n_k - d0
    (Durkalski's), and

        z(d0) = (est - d0) / sqrt(V(d0)),
        V(d0) = K / (K - 1) * sum_k (d_k - n_k d0)^2 / N^2 (Obuchowski),
        V(d0) = sum_k (d_k / n_k - d0)^2 / K^2 (Durkalski),

    a quadratic c0 + c1 d0 + c2 d0^2 in d0, so the bounds are the roots of
    (est - d0)^2 = z_crit^2 V(d0). At d0 = est, V is the variance at the
    estimate: for Obuchowski's, the cluster-robust (CR1) variance of
    :func:`cluster_mean_interval` applied to the per-instance differences
    (Obuchowski's own ratio-estimator variance with the proportions' own
    deviations). A Wald interval with that variance and the test with the
    variance under the null disagreed near the threshold (issue 45); the
    inverted interval excludes 0 exactly when p < 1 - confidence_level.

    Far from the estimate z(d0)^2 tends to 1 / c2, for Obuchowski's (K -
    1) / K * N^2 / sum_k n_k^2, the number of groups in effect: when one
    group holds much of the instances it is below z_crit^2 (3.84 at 95%)
    and the test rejects no difference far enough from its estimate, so
    the interval reaches -1 or 1 (a warning says so). The set kept may
    then be two pieces, [-1, r1] and [r2, 1]; the interval is their hull
    when 0 is kept and the piece holding the estimate when 0 is rejected,
    with a warning, and ``details["not_rejected"]`` of the interval holds
    the pieces. Durkalski's set is bounded once K >= 4.

    Examples
    --------
    The psychiatry data (Donner & Petryshen 1989; Durkalski et al. 2003):
    29 psychiatrists, b_k and c_k discordant answers of each, one row per
    answer pair.

    >>> import numpy as np
    >>> b = [0, 1, 1, 1, 0, 3, 3, 3, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0]
    >>> c = [4, 2, 3, 2, 1, 3, 0, 2, 2, 4, 2, 4, 3, 2, 1, 3, 1, 2, 0, 0, 0, 2, 1, 2, 2, 0, 0, 1, 1]
    >>> concordant = [3, 3, 3, 3, 3, 0, 2, 3, 1, 3, 1, 1, 4, 4, 4, 1, 5, 3, 1, 2, 4, 0, 3, 0, 1, 2, 2, 2, 0]
    >>> rows = [(k, x, y) for k in range(29) for x, y, count in ((1, 0, b[k]), (0, 1, c[k]), (1, 1, concordant[k]))
    ...         for _ in range(count)]
    >>> group, correct_a, correct_b = map(np.array, zip(*rows))
    >>> test = clustered_mcnemar_of(correct_a, correct_b, group, method="mcnemar-durkalski")
    >>> round(test.statistic, 3), round(test.pvalue, 4)
    (7.542, 0.006)
    """
    correct_a, correct_b, clusters = _paired_inputs(correct_a, correct_b, groups, ("correct_a", "correct_b"))
    _check_binary(correct_a, "correct_a")
    _check_binary(correct_b, "correct_b")
    messages = Messages()
    details = cluster_checks(clusters, fold, messages, f"{display_label(method)} test")
    differences = correct_a - correct_b
    discordance = np.bincount(clusters.codes, weights=differences, minlength=clusters.n_groups)
    sizes = clusters.sizes.astype(np.float64)
    estimate, variance, coefficients = _mcnemar_statistic(discordance, sizes, method)
    n_samples = differences.size
    if coefficients[0] == 0:
        messages.warn("No group has more instances right by A only than by B only or the reverse (b_k = c_k in "
                      "every group): there is no evidence of a difference, p = 1.")
        z, statistic, pvalue = 0.0, 0.0, 1.0
    else:
        z = estimate / math.sqrt(coefficients[0])
        statistic = z * z
        pvalue = float(stats.chi2.sf(statistic, 1)) if alternative == "two-sided" else pvalue_of(z, None, alternative)
    details.update({
        "z": z, "null_standard_error": math.sqrt(coefficients[0]),
        "a_correct_b_wrong": int(np.count_nonzero(differences > 0)),
        "a_wrong_b_correct": int(np.count_nonzero(differences < 0)), "n": n_samples,
        "accuracy_a": float(correct_a.mean()), "accuracy_b": float(correct_b.mean()),
        "discordant_groups": int(np.count_nonzero(discordance)), INVERTED: coefficients,
    })
    if method == "mcnemar-durkalski":
        details["group_mean_difference"] = estimate
    far = far_differences_warning(coefficients, stats.norm.ppf(0.975 if alternative == "two-sided" else 0.95))
    if far:
        messages.warn(far)
    return TestResult(
        statistic=statistic, pvalue=pvalue, df=1, alternative=alternative, estimate=estimate,
        standard_error=math.sqrt(variance), method=method,
        estimand=(f"difference in accuracy (A minus B) over the population of groups, {_POOLING[method]}; given "
                  "this dataset"),
        assumptions=("groups independent of one another, instances within a group arbitrarily correlated; paired "
                     "outcomes on the same instances; many groups (chi-square approximation)"),
        target="kfold", _interval_standard_error=math.sqrt(variance), _interval_df=None,
        details=types.MappingProxyType(details), notes=tuple(messages.notes), warnings=tuple(messages.warnings))


# --------------------------------------------------------------------------- 4. the clustered paired t


@validate_params(alternative=ALTERNATIVE)
def cluster_paired_difference_of(values_a, values_b, groups, *, alternative="two-sided", fold=None):
    """Test of two learners' mean per-instance losses on the same clustered instances.

    Parameters
    ----------
    values_a, values_b : array-like of shape (n_samples,)
        A's and B's per-instance losses on the same instances in the same
        order (one repeat each); 0/1 losses (1 - correctness) for accuracy.
    groups : array-like of shape (n_samples,)
        Each instance's group.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative to equal mean losses; ``"greater"`` is "A's mean
        loss is smaller" (A is better).
    fold : array-like of int, shape (n_samples,), optional
        Each instance's test fold; when given, a fold that splits a group warns.

    Returns
    -------
    TestResult or LossDifferenceTestResult
        ``estimate`` = mean loss(B) - mean loss(A), positive when A is
        better; ``statistic`` the t with ``df`` = G - 1. For 0/1 losses the
        estimate is accuracy(A) - accuracy(B) and the result a
        :class:`TestResult`, whose interval is clipped to [-1, 1]; for other
        losses a :class:`LossDifferenceTestResult`, unclipped. ``details``:
        ``mean_loss_a``, ``mean_loss_b``, ``n_groups``, ``min_group_size``,
        ``max_group_size``, ``design_effect``, ``effective_n``,
        ``intraclass_correlation``, ``iid_standard_error`` and
        ``small_sample_factor`` of the differences, and ``difference``.

    Warns
    -----
    InferenceWarning
        With fewer than 20 groups, when the differences have no spread, and
        when ``fold`` splits a group.

    Notes
    -----
    The interval of :func:`cluster_mean_interval` applied to the per-instance
    differences D_i = L_i(B) - L_i(A): with group totals D_g and sizes
    m_g, the estimate is Dbar = sum_g D_g / N, its variance V = G / (G -
    1) sum_g (D_g - Dbar m_g)^2 / N^2 (Cameron & Miller 2015, section II.C,
    the CR1 factor with K = 1), and t = Dbar / sqrt(V) is referred to t
    with G - 1 degrees of freedom (section VI). It is statsmodels'
    ``OLS(D, 1).fit(cov_type="cluster")`` with its default corrections.
    Pairing on the instances removes what A and B share; clustering lets
    the differences of one group be correlated.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.RandomState(0)
    >>> group = np.repeat(np.arange(30), 5)
    >>> hard = rng.rand(30)[group]
    >>> loss_a = (rng.rand(150) < 0.6 * hard).astype(float)
    >>> loss_b = (rng.rand(150) < 0.8 * hard).astype(float)
    >>> test = cluster_paired_difference_of(loss_a, loss_b, group)
    >>> test
    TestResult(statistic=2.843, pvalue=0.008095, df=29, alternative='two-sided', estimate=0.1467,
               method='cluster-paired-t')
    """
    values_a, values_b, clusters = _paired_inputs(values_a, values_b, groups, ("values_a", "values_b"))
    return paired_difference_result(values_a[np.newaxis], values_b[np.newaxis], clusters,
                                    None if fold is None else np.asarray(fold)[np.newaxis], alternative, Messages())


def paired_difference_result(values_a, values_b, clusters, folds, alternative, messages, estimand=None,
                             zero_one=None):
    """The cluster-robust paired t of (n_repeats, n_samples) losses, repeats pooled as :func:`pooled_ratio` does.

    ``zero_one``: whether the losses are the zero-one loss, so the difference is one of accuracy; None (for
    bare arrays, which have no loss name) reads it from the values. A :class:`TestResult` for the zero-one
    loss, else a :class:`LossDifferenceTestResult`.
    """
    differences = values_b - values_a
    pooled = pooled_ratio(differences, clusters, folds, messages, "cluster-robust paired t")
    standard_error = math.sqrt(pooled.variance)
    df = clusters.n_groups - 1
    statistic, pvalue = statistic_and_pvalue(pooled.estimate, standard_error, df, alternative, messages)
    if zero_one is None:
        zero_one = bool(np.isin(values_a, (0.0, 1.0)).all() and np.isin(values_b, (0.0, 1.0)).all())
    details = {"mean_loss_a": float(values_a.mean()), "mean_loss_b": float(values_b.mean()), **pooled.details,
               "difference": "accuracy A - accuracy B" if zero_one else "mean loss B - mean loss A"}
    quantity = "accuracy (A minus B)" if zero_one else "mean loss (B minus A, positive when A is better)"
    result_class = TestResult if zero_one else LossDifferenceTestResult
    return result_class(
        statistic=statistic, pvalue=pvalue, df=df, alternative=alternative, estimate=pooled.estimate,
        standard_error=standard_error, method="cluster-paired-t",
        estimand=estimand or (f"difference in {quantity} over the population of groups, pooled over their "
                              "instances; given this dataset"),
        assumptions=ROBUST_ASSUMPTIONS + "; paired losses on the same instances",
        target="kfold", _interval_standard_error=standard_error, _interval_df=df,
        details=types.MappingProxyType(details), notes=tuple(messages.notes), warnings=tuple(messages.warnings))

