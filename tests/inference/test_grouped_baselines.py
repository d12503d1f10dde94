"""The trivial baselines on grouped records (issue 30): no_information_test and mean_baseline_test with
method="cluster" (which method="auto" chooses for a record made with groups), and the labels of the intervals
that TestResult.confidence_interval() returns.

Oracles:
- statsmodels' cluster-robust OLS of the per-instance values on a constant,
  ``OLS(y, 1).fit(cov_type="cluster", cov_kwds={"groups": ...}, use_t=True)``. Its defaults ``use_correction=True``
  (the CR1 factor G / (G - 1) * (N - 1) / (N - K), which is G / (G - 1) for K = 1) and ``df_correction=True``
  (t with G - 1 degrees of freedom) are Cameron & Miller's (2015, "A practitioner's guide to cluster-robust
  inference", J. Human Resources 50(2), sections II.C and VI) CR1 variance and reference t. The one-sided p of
  accuracy > NIR is scipy's upper t tail of (intercept - NIR) / its standard error;
- the CR1 variance written out by a loop over the groups (Cameron & Miller, eq. (11) with X a column of ones), for
  pooled repeats the mean of the per-repeat variances (Wong 2015, section 4.3.4);
- the trivial regressor's out-of-fold predictions computed here fold by fold (the mean, or the median, of y outside
  the fold: what ``DummyRegressor`` fitted there predicts);
- caret's exact binomial test (``scipy.stats.binomtest``), which an ungrouped record keeps.
"""

import math
import warnings

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats

import cvinference as cvi
from cvinference import InferenceWarning
from cvinference.inference._clustered import cluster_paired_difference_of

N_GROUPS = 24
GROUPED = "The result was made with groups ("


# --------------------------------------------------------------------------- data and oracles


def design(seed=0, n_groups=N_GROUPS):
    """Groups of 3 to 9 instances (labels in shuffled order), their 5 whole-group folds, and a group effect."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_groups), rng.integers(3, 10, n_groups))
    groups = groups[rng.permutation(groups.size)]
    fold = rng.permutation(n_groups)[groups] % 5
    return groups, fold, rng.normal(0, 1, n_groups)[groups]


def classifier(seed=1, grouped=True, n_repeats=1, skill=1.2):
    """A classifier's record on 3:1 labels: right where a group effect plus noise is high."""
    groups, fold, effect = design()
    rng = np.random.default_rng(seed)
    y = (np.arange(groups.size) % 4 != 0).astype(int)  # NIR = 3/4, up to rounding
    right = effect + rng.normal(0, 0.5, (n_repeats, groups.size)) + skill > 0
    return cvi.CVResult(y_true=y, y_pred=np.where(right, y, 1 - y), fold=np.tile(fold, (n_repeats, 1)),
                        groups=groups if grouped else None)


def regressor(seed=2, grouped=True, loss="squared_error", n_repeats=1, signal=1.0):
    """A regressor's record whose errors share a group effect; y depends on a feature the predictions see."""
    groups, fold, effect = design()
    data = np.random.default_rng(100)  # the same data for every seed: seeds make other learners' predictions
    x = data.normal(0, 1, groups.size)
    y = 3 * x + effect + data.normal(0, 1, groups.size)
    y_pred = signal * 3 * x + np.random.default_rng(seed).normal(0, 1, (n_repeats, groups.size))
    errors = y_pred - y
    losses = errors ** 2 if loss == "squared_error" else np.abs(errors)
    return cvi.CVResult(y_true=y, y_pred=y_pred, fold=np.tile(fold, (n_repeats, 1)), loss=losses, loss_name=loss,
                        groups=groups if grouped else None)


def cluster_ols(values, groups):
    _, codes = np.unique(groups, return_inverse=True)
    return sm.OLS(values, np.ones(values.size)).fit(cov_type="cluster", cov_kwds={"groups": codes}, use_t=True)


def cr1_by_hand(values, groups):
    """Mean and CR1 variance of ``values``: G / (G - 1) sum_g (sum_{i in g} (y_i - mean))^2 / N^2."""
    labels = np.unique(groups)
    mean = values.mean()
    scores = [np.sum(values[groups == g] - mean) for g in labels]
    return mean, labels.size / (labels.size - 1) * sum(s * s for s in scores) / values.size ** 2


def trivial_losses(result, center, repeat=0):
    """The trivial regressor's out-of-fold losses: each fold predicted by ``center`` of y outside it."""
    y, fold = np.asarray(result.y_true, dtype=float), result.fold[repeat]
    prediction = np.empty(y.size)
    for j in np.unique(fold):
        prediction[fold == j] = center(y[fold != j])
    errors = prediction - y
    return errors ** 2 if result.loss_name == "squared_error" else np.abs(errors)


def caught(function, *args, **kwargs):
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        outcome = function(*args, **kwargs)
    return outcome, [str(w.message) for w in found if issubclass(w.category, InferenceWarning)]


# --------------------------------------------------------------------------- no_information_test


def test_the_cluster_nir_test_is_statsmodels_cluster_robust_t_of_the_correctness_against_the_nir():
    result = classifier()
    test, texts = caught(cvi.no_information_test, result)
    assert texts == []  # 24 groups, whole in their folds: nothing to warn about
    fit = cluster_ols(result.correct[0].astype(float), result.groups)
    rate = result.no_information_rate
    t = (fit.params[0] - rate) / fit.bse[0]
    assert test.method == "cluster-robust t test of accuracy > no-information rate"
    assert test.df == N_GROUPS - 1 and test.alternative == "greater"
    assert test.estimate == pytest.approx(fit.params[0] - rate, abs=1e-14)
    assert test.standard_error == pytest.approx(fit.bse[0], rel=1e-10)
    assert test.statistic == pytest.approx(t, rel=1e-10)
    assert test.pvalue == pytest.approx(stats.t.sf(t, N_GROUPS - 1), rel=1e-10)
    assert 0.001 < test.pvalue < 0.999  # a test that can fail either way
    assert test.details["n_groups"] == N_GROUPS and test.details["groups_within_folds"] is True
    assert test.details["accuracy"] == pytest.approx(result.accuracy)
    assert test.details["n_correct"] == int(result.correct.sum()) and test.details["n_tested"] == result.n_samples


def test_the_cluster_nir_test_is_more_cautious_than_the_binomial_on_grouped_data():
    result = classifier()
    cluster = cvi.no_information_test(result)
    exact = caught(cvi.no_information_test, result, method="exact")[0]
    assert exact.pvalue == pytest.approx(stats.binomtest(int(result.correct.sum()), result.n_samples,
                                                         result.no_information_rate, "greater").pvalue, rel=1e-12)
    assert cluster.details["design_effect"] > 1 and cluster.pvalue > exact.pvalue


def test_auto_keeps_the_exact_test_on_an_ungrouped_record_and_cluster_needs_groups():
    plain = classifier(grouped=False)
    auto, texts = caught(cvi.no_information_test, plain)
    assert texts == [] and auto == cvi.no_information_test(plain, method="exact")
    assert auto.method.startswith("exact binomial") and auto.df is None
    with pytest.raises(ValueError, match=r"made without groups\. Pass groups="):
        cvi.no_information_test(plain, method="cluster")
    with pytest.raises(ValueError, match="method"):
        cvi.no_information_test(plain, method="binomial")


def test_the_exact_test_on_a_grouped_record_warns_and_names_the_cluster_test():
    test, texts = caught(cvi.no_information_test, classifier(), method="exact")
    [text] = [t for t in texts if t.startswith(GROUPED)]
    assert "the exact binomial test of accuracy > NIR counts every instance" in text
    assert "method='cluster'" in text and text in test.warnings


def test_pooled_repeats_average_the_accuracies_and_the_cr1_variances():
    result = classifier(n_repeats=3)
    test = cvi.no_information_test(result)
    figures = [cr1_by_hand(result.correct[r].astype(float), result.groups) for r in range(3)]
    assert test.estimate == pytest.approx(np.mean([m for m, _ in figures]) - result.no_information_rate, abs=1e-14)
    assert test.standard_error == pytest.approx(math.sqrt(np.mean([v for _, v in figures])), rel=1e-10)
    assert any("3 repeats pooled" in note for note in test.notes)
    one = cvi.no_information_test(result, repeat=1)
    assert one.standard_error == pytest.approx(math.sqrt(figures[1][1]), rel=1e-10)


@pytest.mark.parametrize("confidence_level", [0.9, 0.95])
def test_the_cluster_interval_is_the_one_sided_t_bound_and_agrees_with_the_test(confidence_level):
    for skill in (0.2, 0.8, 1.2):
        test = cvi.no_information_test(classifier(skill=skill))
        interval = test.confidence_interval(confidence_level)
        rate = test.details["no_information_rate"]
        critical = stats.t.ppf(confidence_level, N_GROUPS - 1)
        assert interval.low == pytest.approx(max(-rate, test.estimate - critical * test.standard_error), rel=1e-12)
        assert interval.high == pytest.approx(1 - rate)
        assert (interval.method, interval.details["averaging"]) == ("cluster", "dataset")
        assert interval.details["df"] == N_GROUPS - 1
        assert (interval.low > 0) == (test.pvalue < 1 - confidence_level)
        assert f"the {N_GROUPS} groups as the independent units" in interval.notes[0]


def test_every_group_alike_gives_no_spread_and_a_warning():
    groups, fold, _ = design()
    y = (np.arange(groups.size) % 4 != 0).astype(int)
    perfect = cvi.CVResult(y_true=y, y_pred=y, fold=fold, groups=groups)
    test, texts = caught(cvi.no_information_test, perfect)
    assert test.standard_error == 0 and test.statistic == math.inf and math.isnan(test.pvalue)
    assert any("cluster-robust standard error is 0" in t and "method='exact'" in t for t in texts)
    hopeless = cvi.CVResult(y_true=y, y_pred=1 - y, fold=fold, groups=groups)
    test, texts = caught(cvi.no_information_test, hopeless)
    assert test.pvalue == 1.0 and test.statistic == -math.inf
    assert any("not above the no-information rate (p = 1)" in t for t in texts)


def test_the_cluster_nir_result_round_trips_and_its_details_are_checked():
    test = cvi.no_information_test(classifier(n_repeats=2))
    again = cvi.results.NoInformationTestResult.from_json(test.to_json())
    assert again == test and again.confidence_interval() == test.confidence_interval()
    data = test.to_dict()
    del data["details"]["mapping"]["design_effect"]
    with pytest.raises(ValueError, match="has no key 'design_effect'"):
        cvi.results.NoInformationTestResult.from_dict(data)


def test_the_cluster_nir_summary_names_the_t_and_the_groups():
    result = classifier()
    test = cvi.no_information_test(result)
    summary = test.summary()
    assert summary.startswith("cluster-robust t test of accuracy > no-information rate: t = ")
    assert f"df = {N_GROUPS - 1} ({result.n_samples} instances in {N_GROUPS} groups)" in summary
    assert "95% one-sided cluster-robust t interval" in summary


# --------------------------------------------------------------------------- mean_baseline_test


@pytest.mark.parametrize("loss, center", [("squared_error", np.mean), ("absolute_error", np.median)])
def test_the_cluster_mean_baseline_is_statsmodels_cluster_robust_t_of_the_loss_differences(loss, center):
    result = regressor(loss=loss)
    test, texts = caught(cvi.inference.mean_baseline_test, result)
    assert texts == []
    baseline = trivial_losses(result, center)
    differences = baseline - result.loss[0]
    fit = cluster_ols(differences, result.groups)
    assert isinstance(test, cvi.results.LossDifferenceTestResult) and test.df == N_GROUPS - 1
    assert test.estimate == pytest.approx(fit.params[0], rel=1e-10)
    assert test.standard_error == pytest.approx(fit.bse[0], rel=1e-10)
    assert test.statistic == pytest.approx(fit.tvalues[0], rel=1e-10)
    assert test.pvalue == pytest.approx(stats.t.sf(fit.tvalues[0], N_GROUPS - 1), rel=1e-10)
    words = "mean squared error" if loss == "squared_error" else "mean absolute error"
    kind = "mean" if loss == "squared_error" else "median"
    assert test.method == f"cluster-robust t test of {words} < the training {kind}'s"
    assert test.details["baseline"] == kind
    assert test.details["baseline_loss"] == pytest.approx(baseline.mean())
    assert test.details["mean_loss"] == pytest.approx(result.loss.mean())
    assert test.details["relative"] == pytest.approx(1 - result.loss.mean() / baseline.mean())
    assert test.details["n_groups"] == N_GROUPS and "sigma_hat" not in test.details
    array = cluster_paired_difference_of(result.loss[0], baseline, result.groups, alternative="greater",
                                         fold=result.fold[0])
    assert (test.statistic, test.pvalue) == pytest.approx((array.statistic, array.pvalue), rel=1e-12)


def test_the_cluster_mean_baseline_answers_both_ways():
    assert cvi.inference.mean_baseline_test(regressor()).pvalue < 0.01  # the predictions see the feature
    assert cvi.inference.mean_baseline_test(regressor(signal=-0.5)).pvalue > 0.99  # predictions against the signal


def test_the_mean_baseline_auto_keeps_the_cv_clt_without_groups_and_cluster_needs_groups():
    plain = regressor(grouped=False)
    auto, texts = caught(cvi.inference.mean_baseline_test, plain)
    assert texts == [] and auto == cvi.inference.mean_baseline_test(plain, method="cv-clt")
    assert auto.method.startswith("CV-CLT") and auto.df is None and "sigma_hat" in auto.details
    with pytest.raises(ValueError, match=r"made without groups\. Pass groups="):
        cvi.inference.mean_baseline_test(plain, method="cluster")
    grouped = regressor()
    auto, explicit = cvi.inference.mean_baseline_test(grouped), cvi.inference.mean_baseline_test(grouped,
                                                                                                 method="cluster")
    assert (auto.statistic, auto.pvalue, auto.method) == (explicit.statistic, explicit.pvalue, explicit.method)
    assert [n for n in auto.notes if n not in explicit.notes] == [
        f"method='auto' chose method='cluster': the record was made with groups ({N_GROUPS} of them), and the "
        "groups, not the instances, are the independent units"]


def test_the_cluster_mean_baseline_pools_repeats_and_ignores_the_cv_clt_variance():
    result = regressor(n_repeats=2)
    test, texts = caught(cvi.inference.mean_baseline_test, result, variance="all-pairs")
    assert any("repeats" in t for t in texts)
    differences = [trivial_losses(result, np.mean, r) - result.loss[r] for r in range(2)]
    figures = [cr1_by_hand(d, result.groups) for d in differences]
    assert test.estimate == pytest.approx(np.mean([m for m, _ in figures]), rel=1e-12)
    assert test.standard_error == pytest.approx(math.sqrt(np.mean([v for _, v in figures])), rel=1e-10)
    assert test == caught(cvi.inference.mean_baseline_test, result)[0]


def test_zero_one_errors_still_give_a_loss_difference_result():
    """Absolute errors of 0/1 labels against the median (1) are 0/1, yet they are losses, not correctness."""
    groups, fold, _ = design()
    y = (np.arange(groups.size) % 5 != 0).astype(float)
    y_pred = np.where(np.arange(groups.size) % 7 == 0, 1 - y, y)
    result = cvi.CVResult(y_true=y, y_pred=y_pred, fold=fold, loss=np.abs(y_pred - y), loss_name="absolute_error",
                          groups=groups)
    test = cvi.inference.mean_baseline_test(result)
    assert type(test) is cvi.results.LossDifferenceTestResult
    assert test.confidence_interval().high == math.inf  # alternative="greater": unbounded above, not clipped at 1


# --------------------------------------------------------------------------- what confidence_interval() averages


def pair_of(make, **options):
    return cvi.PairedCVResult(make(seed=3, **options), make(seed=4, **options))


def test_the_cluster_paired_interval_is_labelled_as_the_cluster_interval_over_the_dataset():
    for pair in (pair_of(classifier), pair_of(regressor)):
        test = cvi.matched_sample_test(pair, method="cluster-paired-t")
        interval = test.confidence_interval()
        assert (interval.method, interval.details["averaging"]) == ("cluster", "dataset")
        assert interval.details["df"] == N_GROUPS - 1
        assert f"the {N_GROUPS} groups as the independent units" in interval.notes[0]
        critical = stats.t.ppf(0.975, N_GROUPS - 1)
        assert interval.low == pytest.approx(test.estimate - critical * test.standard_error, rel=1e-12)
        again = type(test).from_json(test.to_json())
        assert again.confidence_interval() == interval
        assert "(cluster)" in test.summary()


def test_the_cluster_mean_baseline_interval_is_labelled_the_same_way():
    interval = cvi.inference.mean_baseline_test(regressor()).confidence_interval()
    assert (interval.method, interval.details["averaging"]) == ("cluster", "dataset")
    assert interval.details["df"] == N_GROUPS - 1


def test_fold_level_t_intervals_keep_the_fold_label_and_the_instance_t_is_at_the_dataset_level():
    pair = pair_of(classifier, n_repeats=2)
    for test in (cvi.corrected_resampled_ttest(pair), caught(cvi.matched_sample_test, pair, repeat=0)[0]):
        assert (test.confidence_interval().details["averaging"], test.confidence_interval().method) == ("fold", "t")
    groups = design()[0]
    loo = [cvi.CVResult(y_true=r.y_true, y_pred=r.y_pred[0], fold=np.arange(groups.size)) for r in (pair.a, pair.b)]
    test = caught(cvi.matched_sample_test, *loo)[0]
    assert test.df == groups.size - 1  # Wong's Theorem 4: a t over the n instances' differences
    assert (test.confidence_interval().details["averaging"], test.confidence_interval().method) == ("dataset", "t")
    mcnemar = caught(cvi.mcnemar_test, pair_of(classifier), method="mcnemar-obuchowski")[0]
    # the groups' CR1 standard error with a normal quantile: labelled by what it counts
    interval = mcnemar.confidence_interval()
    assert (interval.details["averaging"], interval.method) == ("dataset", "cluster")
