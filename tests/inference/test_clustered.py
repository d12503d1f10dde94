"""Intervals and tests for clustered per-instance values (cvinference/inference/_clustered.py; issue 30, item 2).

Oracles:
- statsmodels' cluster-robust OLS of the values on a constant, ``OLS(y, 1).fit(cov_type="cluster")``: its default
  ``use_correction=True`` multiplies the sandwich by G / (G - 1) * (N - 1) / (N - K), which with K = 1 regressor is
  the G / (G - 1) of cluster_mean_interval, and its default ``df_correction=True`` takes t quantiles with G - 1
  degrees of freedom (``df_resid_inference``);
- hand computations on a six-instance dataset, written out below (Cochran 1977, chapter 6's ratio estimate with the
  n - 1 divisor; the ANOVA estimator of the intra-cluster correlation, Donner 1986);
- scipy: ``f_oneway`` (MSB / MSW behind the ANOVA estimator), ``ttest_1samp`` and ``ttest_rel`` (groups of one
  instance reduce the cluster-robust t to the ordinary one-sample and paired t), ``bootstrap`` with ``paired=True``
  on the groups' (Y_g, m_g) (the same resamples for the same RandomState seed);
- a cluster bootstrap written here from the instances;
- the published statistics of the thyroid (Obuchowski 1998) and psychiatry (Donner & Petryshen 1989) data as
  Durkalski et al. (2003) report them, and as the R package clust.bin.pair asserts them;
- statsmodels' ``mcnemar(exact=False, correction=False)`` and the package's ``mcnemar_test`` with one instance per
  group;
- the clustered McNemar interval as the set of differences d0 the test does not reject: ``scipy.optimize.brentq`` on
  the statistic of difference = d0 computed here from the instances (``statistic_at``), and, over 150 random clustered
  designs (one big group among small ones included), p < alpha exactly when the interval excludes 0 (issue 45).
"""

import math
import warnings

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import optimize, stats
from statsmodels.stats.contingency_tables import mcnemar as statsmodels_mcnemar

from cvinference import CVResult, InferenceWarning, mcnemar_test
from cvinference.inference._clustered import (
    cluster_bootstrap_interval,
    cluster_mean_interval,
    cluster_paired_difference_of,
    clustered_mcnemar_of,
)
from cvinference.inference._clusters import FEW_CLUSTERS
from cvinference.results import Interval, LossDifferenceTestResult, TestResult


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InferenceWarning)
        return function(*args, **kwargs)


def clustered_data(seed, n_groups=30, accuracy=0.8, icc=0.3, sizes=(2, 12)):
    """0/1 correctness whose groups have their own accuracy p_g ~ Beta(mean ``accuracy``, ICC ``icc``)."""
    rng = np.random.default_rng(seed)
    size = rng.integers(sizes[0], sizes[1] + 1, n_groups)
    strength = (1 - icc) / icc
    p = rng.beta(accuracy * strength, (1 - accuracy) * strength, n_groups)
    groups = np.repeat(np.arange(n_groups), size)
    return (rng.random(groups.size) < p[groups]).astype(float), groups


def statsmodels_cluster_fit(values, groups):
    """OLS of ``values`` on a constant with statsmodels' cluster-robust covariance and its default corrections."""
    _, codes = np.unique(groups, return_inverse=True)
    return sm.OLS(values, np.ones(values.size)).fit(cov_type="cluster", cov_kwds={"groups": codes}, use_t=True)


# --------------------------------------------------------------------------- cluster_mean_interval


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_interval_is_statsmodels_cluster_robust_ols_on_a_constant(seed):
    values, groups = clustered_data(seed)
    interval = quiet(cluster_mean_interval, values, groups, confidence_level=0.9)
    fit = statsmodels_cluster_fit(values, groups)
    n_groups = np.unique(groups).size
    assert fit.cov_kwds["use_correction"] and fit.df_resid_inference == n_groups - 1
    assert interval.estimate == pytest.approx(fit.params[0], rel=1e-12)
    assert interval.details["standard_error"] == pytest.approx(fit.bse[0], rel=1e-10)
    assert interval.details["df"] == n_groups - 1
    assert (interval.low, interval.high) == pytest.approx(tuple(fit.conf_int(alpha=0.1)[0]), rel=1e-10)


def test_the_small_sample_factor_is_g_over_g_minus_1_of_the_uncorrected_sandwich():
    values, groups = clustered_data(3, n_groups=12)
    _, codes = np.unique(groups, return_inverse=True)
    plain = sm.OLS(values, np.ones(values.size)).fit(cov_type="cluster",
                                                     cov_kwds={"groups": codes, "use_correction": False})
    interval = quiet(cluster_mean_interval, values, groups)
    assert interval.details["standard_error"] ** 2 == pytest.approx(plain.bse[0] ** 2 * 12 / 11, rel=1e-10)
    assert interval.details["small_sample_factor"] == pytest.approx(12 / 11)


def test_a_six_instance_dataset_by_hand():
    """Groups a: (1, 1), b: (0, 1, 0), c: (1); totals Y = (2, 1, 1), sizes m = (2, 3, 1), N = 6.

    ybar = 4/6 = 2/3. Residuals Y_g - ybar m_g = 2 - 4/3 = 2/3, 1 - 2 = -1, 1 - 2/3 = 1/3; their squares sum to
    4/9 + 1 + 1/9 = 14/9, so V = G/(G-1) * (14/9) / N^2 = 3/2 * 14/9 / 36 = 7/108. The binomial variance is
    p (1 - p) / N = (2/3)(1/3)/6 = 1/27, so the design effect is (7/108) / (1/27) = 7/4.
    ANOVA (Donner 1986): group means 1, 1/3, 1; MSB = [2 (1/3)^2 + 3 (1/3)^2 + 1 (1/3)^2] / 2 = (6/9) / 2 = 1/3;
    MSW = [0 + (3 * (1/3)(2/3)) + 0] / (6 - 3) = (2/3) / 3 = 2/9; m0 = (6 - (4 + 9 + 1)/6) / 2 = (6 - 7/3) / 2 = 11/6;
    rho = (1/3 - 2/9) / (1/3 + (5/6)(2/9)) = (1/9) / (14/27) = 3/14.
    """
    values = np.array([1.0, 1.0, 0.0, 1.0, 0.0, 1.0])
    groups = np.array(["a", "a", "b", "b", "b", "c"])
    interval = quiet(cluster_mean_interval, values, groups, confidence_level=0.95)
    half_width = stats.t.ppf(0.975, 2) * math.sqrt(7 / 108)
    assert interval.estimate == pytest.approx(2 / 3)
    assert interval.details["standard_error"] == pytest.approx(math.sqrt(7 / 108))
    assert (interval.low, interval.high) == pytest.approx((2 / 3 - half_width, 2 / 3 + half_width))
    assert interval.details["design_effect"] == pytest.approx(7 / 4)
    assert interval.details["intraclass_correlation"] == pytest.approx(3 / 14)
    assert interval.details["iid_standard_error"] == pytest.approx(math.sqrt(1 / 27))
    assert (interval.details["n_groups"], interval.details["min_group_size"], interval.details["max_group_size"]) == (
        3, 1, 3)
    assert interval.details["n"] == 6 and interval.method == "cluster-robust t"
    assert interval.details["averaging"] == "dataset"


@pytest.mark.parametrize("seed", [4, 5])
def test_the_intraclass_correlation_is_the_anova_estimator_from_scipys_f(seed):
    values, groups = clustered_data(seed, n_groups=15)
    members = [values[groups == g] for g in np.unique(groups)]
    f = stats.f_oneway(*members).statistic
    sizes = np.array([len(m) for m in members])
    n = sizes.sum()
    m0 = (n - (sizes ** 2).sum() / n) / (len(sizes) - 1)
    interval = quiet(cluster_mean_interval, values, groups)
    assert interval.details["intraclass_correlation"] == pytest.approx((f - 1) / (f + m0 - 1), rel=1e-10)


def test_the_design_effect_divides_by_the_binomial_variance():
    values, groups = clustered_data(6)
    interval = quiet(cluster_mean_interval, values, groups)
    p, n = values.mean(), values.size
    details = interval.details
    assert details["design_effect"] == pytest.approx(details["standard_error"] ** 2 / (p * (1 - p) / n))
    assert interval.details["effective_n"] == pytest.approx(n / interval.details["design_effect"])


def test_groups_of_one_instance_give_the_one_sample_t_interval():
    values = np.random.default_rng(7).normal(3, 2, 25)
    interval = cluster_mean_interval(values, np.arange(25))
    oracle = stats.ttest_1samp(values, 0).confidence_interval(0.95)
    assert (interval.low, interval.high) == pytest.approx((oracle.low, oracle.high), rel=1e-12)
    assert math.isnan(interval.details["intraclass_correlation"])


def test_labels_and_their_order_do_not_matter():
    values, groups = clustered_data(8, n_groups=20)
    renamed = np.array([f"patient {g * 7 % 20}" for g in groups])
    order = np.random.default_rng(8).permutation(values.size)
    first = cluster_mean_interval(values, groups)
    second = cluster_mean_interval(values[order], renamed[order])
    assert (second.estimate, second.low, second.high) == pytest.approx((first.estimate, first.low, first.high))


def test_few_groups_warn_naming_the_rule_and_enough_groups_do_not():
    values, groups = clustered_data(9, n_groups=FEW_CLUSTERS - 1)
    with pytest.warns(InferenceWarning, match=r"Only 19 groups.*Cameron & Miller 2015, section VI"):
        interval = cluster_mean_interval(values, groups)
    assert any("Only 19 groups" in text for text in interval.warnings)
    values, groups = clustered_data(9, n_groups=FEW_CLUSTERS)
    with warnings.catch_warnings():
        warnings.simplefilter("error", InferenceWarning)
        assert cluster_mean_interval(values, groups).warnings == ()


def test_one_group_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="groups holds 1 group; a cluster-robust variance needs at least 2"):
        cluster_mean_interval([1, 0, 1], ["a", "a", "a"])


@pytest.mark.parametrize(("values", "groups", "error", "match"), [
    ([1, 0, 1], [0, 1], ValueError, r"groups must hold one group label per instance, shape \(3,\)"),
    ([1, np.nan, 1], [0, 1, 1], ValueError, "values holds NaN or infinite values"),
    ([1, 0, 1], [0, None, 1], ValueError, "groups holds missing labels"),
    ([1, 0, 1], [0, "a", 1], ValueError, "groups mixes label types"),
    ([[1, 0], [1, 1]], [0, 1], ValueError, "values must be a non-empty 1-d array"),
    (["x", "y"], [0, 1], TypeError, "values must hold numbers"),
])
def test_bad_arrays_are_refused_naming_the_parameter(values, groups, error, match):
    with pytest.raises(error, match=match):
        cluster_mean_interval(values, np.array(groups, dtype=object))


@pytest.mark.parametrize("bounds", [(0,), "0, 1", (1, 0), (0, math.nan), (True, 1)])
def test_bad_bounds_are_refused(bounds):
    with pytest.raises((TypeError, ValueError), match="bounds must"):
        cluster_mean_interval([1, 0, 1, 1], [0, 0, 1, 1], bounds=bounds)


def test_an_interval_past_the_bounds_is_clipped_with_a_warning():
    groups = np.repeat(np.arange(20), 5)
    values = np.ones(100)
    values[:3] = 0
    with pytest.warns(InferenceWarning, match=r"leaves the possible range \[0, 1\] of the mean"):
        interval = cluster_mean_interval(values, groups, bounds=(0, 1))
    assert interval.high == 1.0 and interval.details["clipped"] == ("high",)
    assert cluster_mean_interval(values, groups).high > 1


def test_no_spread_warns_of_a_zero_width_interval():
    with pytest.warns(InferenceWarning, match="standard error is 0"):
        interval = cluster_mean_interval(np.ones(40), np.repeat(np.arange(20), 2))
    assert interval.low == interval.high == 1.0


def test_folds_that_split_a_group_warn_and_say_so_in_the_details():
    values, groups = clustered_data(10, n_groups=20)
    whole = groups % 5
    interval = cluster_mean_interval(values, groups, fold=whole)
    assert interval.details["groups_within_folds"] is True
    split = np.arange(values.size) % 5
    with pytest.warns(InferenceWarning, match="The folds split some groups.*GroupKFold"):
        interval = cluster_mean_interval(values, groups, fold=split)
    assert interval.details["groups_within_folds"] is False
    with pytest.raises(ValueError, match="fold must hold each instance's test fold"):
        cluster_mean_interval(values, groups, fold=split[:-1])


def test_the_interval_round_trips_through_its_dict():
    interval = quiet(cluster_mean_interval, *clustered_data(11, n_groups=8), bounds=(0, 1))
    assert Interval.from_dict(interval.to_dict()) == interval


def test_smoke_coverage_the_clustered_interval_covers_where_the_binomial_one_does_not():
    """A seeded smoke version of benchmarks/clustered_coverage.py: 30 groups of 2-12, ICC 0.3, true accuracy 0.8."""
    covered = {"cluster": 0, "binomial": 0}
    for seed in range(200):
        values, groups = clustered_data(1000 + seed)
        interval = cluster_mean_interval(values, groups)
        covered["cluster"] += interval.low <= 0.8 <= interval.high
        p, n = values.mean(), values.size
        half = 1.959964 * math.sqrt(p * (1 - p) / n)
        covered["binomial"] += p - half <= 0.8 <= p + half
    assert covered["cluster"] / 200 >= 0.88
    assert covered["binomial"] < covered["cluster"] - 20


# --------------------------------------------------------------------------- cluster_bootstrap_interval


def cluster_totals(values, groups):
    _, codes = np.unique(groups, return_inverse=True)
    return np.bincount(codes, weights=values), np.bincount(codes).astype(float)


def ratio_statistic(totals, sizes, axis=-1):
    return totals.sum(axis=axis) / sizes.sum(axis=axis)


@pytest.mark.parametrize(("method", "scipy_method"), [("percentile", "percentile"), ("bca", "BCa")])
def test_the_bootstrap_is_scipys_paired_bootstrap_of_the_group_totals(method, scipy_method):
    values, groups = clustered_data(12, n_groups=25)
    interval = cluster_bootstrap_interval(values, groups, n_resamples=1500, method=method, random_state=3,
                                          confidence_level=0.9)
    oracle = stats.bootstrap(cluster_totals(values, groups), ratio_statistic, paired=True, vectorized=True,
                             n_resamples=1500, method=scipy_method, confidence_level=0.9,
                             random_state=np.random.RandomState(3))
    assert (interval.low, interval.high) == pytest.approx(tuple(oracle.confidence_interval), rel=1e-12)
    assert interval.details["standard_error"] == pytest.approx(oracle.standard_error, rel=1e-12)


def test_the_percentile_bootstrap_is_a_resampling_of_whole_groups_written_here():
    values, groups = clustered_data(13, n_groups=22)
    labels = np.unique(groups)
    picks = np.random.RandomState(21).randint(0, labels.size, size=(800, labels.size))
    means = [np.concatenate([values[groups == labels[g]] for g in row]).mean() for row in picks]
    interval = cluster_bootstrap_interval(values, groups, n_resamples=800, method="percentile", random_state=21)
    assert (interval.low, interval.high) == pytest.approx(tuple(np.quantile(means, [0.025, 0.975])), rel=1e-12)
    assert interval.details["bootstrap_bias"] == pytest.approx(np.mean(means) - values.mean())


def test_the_bootstrap_standard_error_is_close_to_the_uncorrected_sandwich_with_many_groups():
    values, groups = clustered_data(14, n_groups=200)
    bootstrap = cluster_bootstrap_interval(values, groups, n_resamples=4000, random_state=0)
    robust = cluster_mean_interval(values, groups)
    n_groups = 200
    expected = robust.details["standard_error"] * math.sqrt((n_groups - 1) / n_groups)
    assert bootstrap.details["standard_error"] == pytest.approx(expected, rel=0.05)


def test_the_seed_makes_the_bootstrap_reproducible():
    values, groups = clustered_data(15)
    first = cluster_bootstrap_interval(values, groups, n_resamples=300, random_state=5)
    assert first == cluster_bootstrap_interval(values, groups, n_resamples=300, random_state=np.random.RandomState(5))
    assert first != cluster_bootstrap_interval(values, groups, n_resamples=300, random_state=6)


def test_bca_falls_back_to_the_percentile_interval_when_every_resample_lies_on_one_side():
    values, groups = clustered_data(22, n_groups=20)
    bca = quiet(cluster_bootstrap_interval, values, groups, n_resamples=1, random_state=0)
    percentile = quiet(cluster_bootstrap_interval, values, groups, n_resamples=1, method="percentile", random_state=0)
    assert (bca.low, bca.high) == (percentile.low, percentile.high)
    assert any("bias correction is infinite; the percentile interval" in text for text in bca.warnings)
    assert any("use more than n_resamples=1" in text for text in percentile.warnings)


@pytest.mark.parametrize("method", ["bca", "percentile"])
def test_identical_groups_give_a_zero_width_bootstrap_interval_with_a_warning(method):
    with pytest.warns(InferenceWarning, match="gives the same mean .* the groups do not differ in these data"):
        interval = cluster_bootstrap_interval(np.ones(60), np.repeat(np.arange(20), 3), n_resamples=50,
                                              method=method, random_state=0)
    assert interval.low == interval.high == 1.0


@pytest.mark.parametrize(("name", "value", "error"), [("n_resamples", 0, ValueError), ("method", "basic", ValueError),
                                                     ("random_state", -1, ValueError),
                                                     ("confidence_level", 1.5, ValueError)])
def test_the_bootstrap_refuses_bad_parameters(name, value, error):
    with pytest.raises(error, match=name):
        cluster_bootstrap_interval([1, 0, 1, 1], [0, 0, 1, 1], **{name: value})


# --------------------------------------------------------------------------- clustered McNemar

# Obuchowski's (1998) thyroid data, as the R package clust.bin.pair ships it (data/thyroids.rda): per patient, the
# per-gland correctness of PET and of SPECT.
THYROID_PET = [[0, 0, 0], [1, 1, 0], [1, 1, 1], [1], [1, 1, 0], [1, 1, 1, 1], [1, 1, 1], [1, 1], [1, 1], [1],
               [1, 1, 0], [1, 1], [1, 1, 1], [1, 1], [0, 0], [1, 1, 0], [1, 1, 0], [1, 1, 0], [1, 1], [1], [1, 1]]
THYROID_SPECT = [[0, 1, 1], [1, 1, 1], [1, 1, 1], [1], [1, 1, 1], [1, 1, 1, 1], [1, 1, 1], [1, 1], [1, 0], [1],
                 [1, 1, 0], [1, 1], [1, 1, 1], [1, 1], [1, 1], [1, 1, 0], [1, 1, 0], [1, 1, 1], [1, 1], [1], [1, 1]]

# Donner & Petryshen's (1989) psychiatry data, as clust.bin.pair ships it (data/psychiatry.rda): per psychiatrist, the
# counts ah (both 1), bh (patient 1, psychiatrist 0), ch (patient 0, psychiatrist 1) and dh (both 0).
PSYCHIATRY = np.array([
    [1, 1, 3, 2, 2, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 1, 2, 1, 0, 2, 1, 0, 1, 0, 0, 0, 0, 1, 0],
    [0, 1, 1, 1, 0, 3, 3, 3, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0],
    [4, 2, 3, 2, 1, 3, 0, 2, 2, 4, 2, 4, 3, 2, 1, 3, 1, 2, 0, 0, 0, 2, 1, 2, 2, 0, 0, 1, 1],
    [2, 2, 0, 1, 1, 0, 2, 3, 1, 3, 0, 0, 3, 2, 2, 0, 3, 2, 1, 0, 3, 0, 2, 0, 1, 2, 2, 1, 0],
])


def thyroid_instances():
    groups = np.concatenate([[k] * len(row) for k, row in enumerate(THYROID_PET)])
    return np.concatenate(THYROID_PET).astype(float), np.concatenate(THYROID_SPECT).astype(float), groups


def psychiatry_instances():
    rows = [(k, x, y) for k in range(PSYCHIATRY.shape[1])
            for (x, y), count in zip(((1, 1), (1, 0), (0, 1), (0, 0)), PSYCHIATRY[:, k], strict=True)
            for _ in range(count)]
    groups, first, second = map(np.array, zip(*rows, strict=True))
    return first.astype(float), second.astype(float), groups


def plain_mcnemar(correct_a, correct_b):
    """The package's McNemar chi-square without continuity correction, on CVResults built from the correctness."""
    n = correct_a.size
    a = CVResult(y_true=np.ones(n, dtype=int), y_pred=correct_a.astype(int), fold=np.arange(n) % 2)
    b = CVResult(y_true=np.ones(n, dtype=int), y_pred=correct_b.astype(int), fold=np.arange(n) % 2)
    return quiet(mcnemar_test, a, b, exact=False, correction=False)


@pytest.mark.parametrize(("data", "obuchowski", "durkalski", "mcnemar"), [
    # Durkalski et al. (2003) report 2.86, 2.32 and 4.5 for the thyroid data (Obuchowski 1998 printed 2.88 for her
    # own statistic; clust.bin.pair's tests/testthat/test_clust_bin_pair.R asserts 2.86 and notes the difference).
    (thyroid_instances, 2.86, 2.32, 4.5),
    # Durkalski et al. (2003) report 7.19, 7.542 and 11.8451 for the psychiatry data (asserted by clust.bin.pair).
    (psychiatry_instances, 7.19, 7.542, 11.8451),
])
def test_the_published_statistics_of_the_thyroid_and_psychiatry_data(data, obuchowski, durkalski, mcnemar):
    correct_a, correct_b, groups = data()
    tests = {method: quiet(clustered_mcnemar_of, correct_a, correct_b, groups, method=method)
             for method in ("mcnemar-obuchowski", "mcnemar-durkalski")}
    assert round(tests["mcnemar-obuchowski"].statistic, 2) == obuchowski
    assert round(tests["mcnemar-durkalski"].statistic, 3 if durkalski == 7.542 else 2) == durkalski
    assert round(plain_mcnemar(correct_a, correct_b).statistic, 4) == mcnemar
    for test in tests.values():
        assert test.pvalue == pytest.approx(stats.chi2.sf(test.statistic, 1))
        assert test.df == 1


def test_with_one_instance_per_group_durkalski_is_mcnemar_and_obuchowski_is_k_minus_1_over_k_of_it():
    rng = np.random.default_rng(16)
    correct_a = (rng.random(80) < 0.75).astype(float)
    correct_b = np.where(rng.random(80) < 0.7, correct_a, 1 - correct_a)
    groups = np.arange(80)
    table = [[np.sum((correct_a == 1) & (correct_b == 1)), np.sum((correct_a == 1) & (correct_b == 0))],
             [np.sum((correct_a == 0) & (correct_b == 1)), np.sum((correct_a == 0) & (correct_b == 0))]]
    oracle = statsmodels_mcnemar(table, exact=False, correction=False)
    durkalski = clustered_mcnemar_of(correct_a, correct_b, groups, method="mcnemar-durkalski")
    obuchowski = clustered_mcnemar_of(correct_a, correct_b, groups, method="mcnemar-obuchowski")
    assert durkalski.statistic == pytest.approx(oracle.statistic, rel=1e-12)
    assert durkalski.pvalue == pytest.approx(oracle.pvalue, rel=1e-10)
    assert durkalski.statistic == pytest.approx(plain_mcnemar(correct_a, correct_b).statistic, rel=1e-12)
    assert obuchowski.statistic == pytest.approx(oracle.statistic * 79 / 80, rel=1e-12)


def test_the_estimate_is_positive_when_a_is_better_and_one_sided_pvalues_follow_z():
    correct_a, correct_b, groups = psychiatry_instances()
    test = quiet(clustered_mcnemar_of, correct_b, correct_a, groups)  # B (psychiatrist 1) says yes more often
    assert test.estimate == pytest.approx(correct_b.mean() - correct_a.mean())
    assert test.estimate > 0 and test.details["z"] > 0
    assert test.details["z"] ** 2 == pytest.approx(test.statistic)
    greater = quiet(clustered_mcnemar_of, correct_b, correct_a, groups, alternative="greater")
    less = quiet(clustered_mcnemar_of, correct_b, correct_a, groups, alternative="less")
    assert greater.pvalue == pytest.approx(stats.norm.sf(test.details["z"]))
    assert greater.pvalue + less.pvalue == pytest.approx(1)
    assert test.pvalue == pytest.approx(2 * greater.pvalue)
    counts = (test.details["a_correct_b_wrong"], test.details["a_wrong_b_correct"], test.details["n"])
    assert counts == (PSYCHIATRY[2].sum(), PSYCHIATRY[1].sum(), PSYCHIATRY.sum())
    assert test.details["accuracy_a"] - test.details["accuracy_b"] == pytest.approx(test.estimate)


def test_the_standard_error_is_the_cluster_robust_one_at_the_estimate():
    correct_a, correct_b, groups = thyroid_instances()
    test = quiet(clustered_mcnemar_of, correct_a, correct_b, groups)
    fit = statsmodels_cluster_fit(correct_a - correct_b, groups)
    assert test.standard_error == pytest.approx(fit.bse[0], rel=1e-10)
    assert test.estimate == pytest.approx(fit.params[0], rel=1e-12)
    durkalski = quiet(clustered_mcnemar_of, correct_a, correct_b, groups, method="mcnemar-durkalski")
    w = np.bincount(groups, weights=correct_a - correct_b) / np.bincount(groups)
    assert durkalski.estimate == pytest.approx(w.mean(), rel=1e-12)
    assert durkalski.standard_error == pytest.approx(np.sqrt(np.sum((w - w.mean()) ** 2)) / w.size, rel=1e-12)


def statistic_at(d0, correct_a, correct_b, groups, method):
    """The signed root of the statistic of difference = d0, from the instances: Obuchowski's (1998) ratio-estimator
    variance with the two proportions' deviations taken from values d0 apart, whose residual in group k is
    d_k - n_k d0 (Yang, Sun & Hardin 2010 write it at d0 = 0), or Durkalski et al.'s (2003) with the per-group
    differences d_k / n_k less d0."""
    labels = np.unique(groups)
    d = np.array([np.sum(correct_a[groups == g]) - np.sum(correct_b[groups == g]) for g in labels])
    n = np.array([np.sum(groups == g) for g in labels], dtype=float)
    k = labels.size
    if method == "mcnemar-obuchowski":
        residual = d - n * d0
        return residual.sum() / math.sqrt(k / (k - 1) * np.sum(residual**2))
    residual = d / n - d0
    return residual.sum() / math.sqrt(np.sum(residual**2))


@pytest.mark.parametrize("method", ["mcnemar-obuchowski", "mcnemar-durkalski"])
@pytest.mark.parametrize("data", [thyroid_instances, psychiatry_instances])
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_the_interval_is_the_differences_the_test_does_not_reject(data, method, level):
    correct_a, correct_b, groups = data()
    test = quiet(clustered_mcnemar_of, correct_a, correct_b, groups, method=method)
    assert statistic_at(0.0, correct_a, correct_b, groups, method) ** 2 == pytest.approx(test.statistic, rel=1e-12)
    interval = test.confidence_interval(level)
    critical = stats.norm.ppf((1 + level) / 2)
    for bound, side in ((interval.low, -1), (interval.high, 1)):  # the statistic crosses the critical value there
        oracle = optimize.brentq(lambda d0: abs(statistic_at(d0, correct_a, correct_b, groups, method)) - critical,
                                 test.estimate, test.estimate + side * 0.5)
        assert bound == pytest.approx(oracle, abs=1e-9)
    assert interval.low < test.estimate < interval.high and interval.method == "cluster"
    assert any("does not reject" in note for note in interval.notes)
    one_sided = quiet(clustered_mcnemar_of, correct_a, correct_b, groups, method=method, alternative="less")
    upper = one_sided.confidence_interval(level)
    oracle = optimize.brentq(lambda d0: -statistic_at(d0, correct_a, correct_b, groups, method)
                             - stats.norm.ppf(level), test.estimate, test.estimate + 0.5)
    assert (upper.low, upper.high) == pytest.approx((-1.0, oracle), abs=1e-9)


def random_clustered_pair(rng):
    """0/1 correctness of A and B on groups of one of four designs, A's edge and the agreement random."""
    design = rng.integers(4)
    if design == 0:  # one big group and many small ones
        sizes = np.r_[rng.integers(50, 200), np.full(rng.integers(5, 30), rng.integers(2, 8))]
    elif design == 1:  # equal groups
        sizes = np.full(rng.integers(5, 60), rng.integers(1, 10))
    elif design == 2:  # unequal groups
        sizes = rng.integers(1, 30, rng.integers(4, 50))
    else:  # a few big groups among small ones
        sizes = np.r_[rng.integers(20, 80, rng.integers(1, 4)), rng.integers(1, 6, rng.integers(3, 40))]
    groups = np.repeat(np.arange(sizes.size), sizes)
    hard = rng.beta(2, 2, sizes.size)[groups]
    correct_a = (rng.random(groups.size) < 1 - hard * rng.uniform(0.2, 0.8)).astype(float)
    edge = rng.uniform(-0.3, 0.3, sizes.size)[groups]
    flip = rng.random(groups.size) < rng.uniform(0.05, 0.4)
    correct_b = np.where(flip, (rng.random(groups.size) < np.clip(correct_a.mean() - edge, 0, 1)), correct_a)
    return correct_a, correct_b.astype(float), groups


def test_the_pvalue_is_below_alpha_exactly_when_the_interval_excludes_zero():
    """Issue 45 item 7: over many clustered designs, both statistics, every alternative and three levels."""
    rng = np.random.default_rng(45)
    cases = disagreements = 0
    for _ in range(150):
        correct_a, correct_b, groups = random_clustered_pair(rng)
        for method in ("mcnemar-obuchowski", "mcnemar-durkalski"):
            for alternative in ("two-sided", "greater", "less"):
                test = quiet(clustered_mcnemar_of, correct_a, correct_b, groups, method=method,
                             alternative=alternative)
                for level in (0.9, 0.95, 0.99):
                    interval = test.confidence_interval(level)
                    rejects, excludes = test.pvalue < 1 - level, not interval.low <= 0 <= interval.high
                    disagreements += rejects != excludes
                    assert interval.low <= test.estimate <= interval.high
                    cases += 1
    assert cases == 150 * 2 * 3 * 3 and disagreements == 0


def test_one_big_group_and_twenty_small_ones_the_example_of_issue_45():
    """One group of 100 rows, twenty of 5: the CR1 interval excluded 0 where the test's p was 0.06."""
    groups = np.repeat(np.arange(21), [100] + [5] * 20)
    correct_a, correct_b = np.ones(groups.size), np.ones(groups.size)
    correct_b[:12] = 0  # A right and B wrong on 12 of the big group's instances
    correct_b[100:160:5] = 0  # and on one instance of each of twelve small groups
    with pytest.warns(InferenceWarning, match="groups count as .* in effect"):
        test = clustered_mcnemar_of(correct_a, correct_b, groups)
    assert test.pvalue == pytest.approx(0.0608, abs=1e-4) and test.estimate == pytest.approx(0.12)
    assert test.estimate - stats.norm.ppf(0.975) * test.standard_error > 0  # the CR1 interval that disagreed
    interval = test.confidence_interval()
    assert interval.low <= 0 <= interval.high
    n = np.r_[100, [5] * 20]
    effective = 20 / 21 * n.sum() ** 2 / np.sum(n**2)  # 1 / c2: the limit of z(d0)^2 far from the estimate
    assert effective < stats.chi2.ppf(0.95, 1)  # so the kept set reaches the range's bounds
    assert (interval.low, interval.high) == (-1.0, 1.0)
    assert statistic_at(-1.0, correct_a, correct_b, groups, "mcnemar-obuchowski") ** 2 < stats.chi2.ppf(0.95, 1)
    assert any("groups count as" in text for text in interval.warnings)


def test_the_null_standard_errors_are_those_inside_the_statistics():
    correct_a, correct_b, groups = thyroid_instances()
    d = np.bincount(groups, weights=correct_a - correct_b)
    n = np.bincount(groups)
    k, total = d.size, n.sum()
    obuchowski = quiet(clustered_mcnemar_of, correct_a, correct_b, groups)
    assert obuchowski.details["null_standard_error"] == pytest.approx(math.sqrt(k / (k - 1) * (d @ d)) / total)
    durkalski = quiet(clustered_mcnemar_of, correct_a, correct_b, groups, method="mcnemar-durkalski")
    w = d / n
    assert durkalski.details["null_standard_error"] == pytest.approx(math.sqrt(w @ w) / k)
    assert durkalski.details["group_mean_difference"] == pytest.approx(w.mean())
    assert durkalski.details["discordant_groups"] == np.count_nonzero(d)


def test_no_discordant_group_gives_p_1_with_a_warning():
    correct = np.tile([1.0, 0.0], 20)
    groups = np.repeat(np.arange(20), 2)
    swapped = np.tile([0.0, 1.0], 20)  # each group: one right by A only, one by B only
    with pytest.warns(InferenceWarning, match="p = 1"):
        test = clustered_mcnemar_of(correct, swapped, groups)
    assert (test.statistic, test.pvalue, test.estimate) == (0.0, 1.0, 0.0)
    with pytest.warns(InferenceWarning, match="p = 1"):
        assert clustered_mcnemar_of(correct, correct, groups, method="mcnemar-durkalski").pvalue == 1.0


def test_mcnemar_refuses_what_is_not_correctness():
    with pytest.raises(ValueError, match="correct_b must hold 0/1"):
        clustered_mcnemar_of([1, 0, 1, 1], [0.5, 1, 0, 1], [0, 0, 1, 1])
    with pytest.raises(ValueError, match="correct_b has 3 entries but the other arrays have 4"):
        clustered_mcnemar_of([1, 0, 1, 1], [1, 0, 1], [0, 0, 1, 1])
    with pytest.raises(ValueError, match="method"):
        clustered_mcnemar_of([1, 0, 1, 1], [1, 0, 1, 1], [0, 0, 1, 1], method="eliasziw")


def test_the_mcnemar_result_round_trips_through_its_dict():
    test = quiet(clustered_mcnemar_of, *thyroid_instances(), method="mcnemar-durkalski")
    assert TestResult.from_dict(test.to_dict()) == test


# --------------------------------------------------------------------------- cluster_paired_difference_of


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_the_paired_test_is_statsmodels_cluster_robust_ols_of_the_differences(alternative):
    rng = np.random.default_rng(17)
    groups = np.repeat(np.arange(24), rng.integers(3, 9, 24))
    level = rng.gamma(2, 1, 24)[groups]
    loss_a, loss_b = rng.gamma(2, level), rng.gamma(2, 1.2 * level)
    test = cluster_paired_difference_of(loss_a, loss_b, groups, alternative=alternative)
    fit = statsmodels_cluster_fit(loss_b - loss_a, groups)
    assert isinstance(test, LossDifferenceTestResult)
    assert (test.estimate, test.standard_error, test.statistic) == pytest.approx(
        (fit.params[0], fit.bse[0], fit.tvalues[0]), rel=1e-10)
    assert test.df == fit.df_resid_inference == 23
    expected = {"two-sided": fit.pvalues[0], "greater": stats.t.sf(fit.tvalues[0], 23),
                "less": stats.t.cdf(fit.tvalues[0], 23)}[alternative]
    assert test.pvalue == pytest.approx(expected, rel=1e-10)
    if alternative == "two-sided":
        assert tuple(test.confidence_interval(0.9)) == pytest.approx(tuple(fit.conf_int(alpha=0.1)[0]), rel=1e-10)


def test_zero_one_losses_give_a_bounded_accuracy_difference():
    correct_a, correct_b, groups = thyroid_instances()
    test = quiet(cluster_paired_difference_of, 1 - correct_a, 1 - correct_b, groups)
    assert type(test) is TestResult
    assert test.estimate == pytest.approx(correct_a.mean() - correct_b.mean())
    assert test.details["difference"] == "accuracy A - accuracy B"
    low, high = test.confidence_interval(0.999)
    assert -1 <= low <= high <= 1


def test_groups_of_one_instance_give_scipys_paired_t():
    rng = np.random.default_rng(18)
    loss_a, loss_b = rng.normal(1, 1, 30), rng.normal(1.3, 1, 30)
    test = cluster_paired_difference_of(loss_a, loss_b, np.arange(30))
    oracle = stats.ttest_rel(loss_b, loss_a)
    assert (test.statistic, test.pvalue) == pytest.approx((oracle.statistic, oracle.pvalue), rel=1e-10)


def test_identical_losses_give_p_1_with_a_warning():
    losses = np.random.default_rng(19).random(40)
    with pytest.warns(InferenceWarning, match="do not differ at all"):
        test = cluster_paired_difference_of(losses, losses, np.repeat(np.arange(20), 2))
    assert (test.statistic, test.pvalue) == (0.0, 1.0)


def test_the_paired_result_round_trips_through_its_dict():
    rng = np.random.default_rng(20)
    groups = np.repeat(np.arange(10), 3)
    test = quiet(cluster_paired_difference_of, rng.random(30), rng.random(30), groups)
    assert LossDifferenceTestResult.from_dict(test.to_dict()) == test
