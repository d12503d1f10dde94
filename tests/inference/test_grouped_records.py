"""Cluster-aware inference on grouped records (issue 30, item 2): accuracy_interval / loss_interval with
method="cluster", mcnemar_test(method="mcnemar-obuchowski"), matched_sample_test(method="cluster-paired-t"),
the instance-level methods' warnings, decide() on a grouped pair and the report's merged caution.

Oracles:
- statsmodels' cluster-robust OLS of the per-instance values on a constant,
  ``OLS(y, 1).fit(cov_type="cluster", cov_kwds={"groups": ...}, use_t=True)``: its defaults ``use_correction=True``
  (the CR1 factor G / (G - 1) * (N - 1) / (N - K), K = 1) and ``df_correction=True`` (t with G - 1 degrees of
  freedom);
- the CR1 variance written out here by a loop over the groups (Cameron & Miller 2015, "A practitioner's guide to
  cluster-robust inference", J. Human Resources 50(2), section II.C, eq. (11) with X a column of ones), for the
  pooled repeats, whose variance is the mean of the per-repeat variances (the rule the brief states, after Wong 2015,
  section 4.3.4);
- Obuchowski's and Durkalski's statistics computed here from each group's discordant counts b_k, c_k (Obuchowski
  1998, Stat. Med. 17, in the form of Yang, Sun & Hardin 2010, Biometrical J. 52(5); Durkalski, Palesch, Lipsitz &
  Rust 2003, Stat. Med. 22), and the array functions of ``_clustered`` that tests/inference/test_clustered.py checks
  against the published thyroid and psychiatry statistics;
- scipy's t and chi-square distributions for the bounds and p-values.
"""

import math
import re
import warnings

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference import InferenceWarning
from cvinference.inference._clustered import clustered_mcnemar_of
from cvinference.policy import pair_tests

N_GROUPS = 30
GROUPED = "The result was made with groups ("
ACCURACY_INSTEAD = "method='auto' (the cluster-robust interval, or its half-sample form where"
SPLIT = "The folds split some of the result's groups"


# --------------------------------------------------------------------------- data and oracles


def grouped_design(seed=0, n_groups=N_GROUPS, sizes=(2, 8)):
    """Group labels (strings, in shuffled order), 0/1 labels, and each group's own accuracy (a Beta draw)."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_groups), rng.integers(sizes[0], sizes[1] + 1, n_groups))
    order = rng.permutation(groups.size)
    groups = np.array([f"patient {g:02d}" for g in groups[order]])
    y = rng.integers(0, 2, groups.size)
    skill = dict(zip(np.unique(groups), rng.beta(3, 1, n_groups), strict=True))
    return groups, y, np.array([skill[g] for g in groups])


def whole_group_folds(groups, n_repeats, seed, n_splits=5):
    """Each repeat's test folds, keeping every group in one fold (a different assignment per repeat)."""
    _, codes = np.unique(groups, return_inverse=True)
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(codes.max() + 1)[codes] % n_splits for _ in range(n_repeats)])


def classifier(design, seed, n_repeats=1, fold=None, grouped=True):
    """A classifier's record: right on each instance with its group's accuracy."""
    groups, y, skill = design
    rng = np.random.default_rng(seed)
    right = rng.random((n_repeats, y.size)) < skill
    fold = whole_group_folds(groups, n_repeats, 99) if fold is None else np.broadcast_to(fold, right.shape)
    return cvi.CVResult(y_true=y, y_pred=np.where(right, y, 1 - y), fold=fold, groups=groups if grouped else None)


def regressor(design, seed, n_repeats=1, fold=None, grouped=True):
    """A regressor's squared-error record whose errors share a group effect."""
    groups, _, skill = design
    y = 10 * skill + np.random.default_rng(0).normal(0, 1, skill.size)
    rng = np.random.default_rng(seed)
    effect = {g: rng.normal(0, 1.5) for g in np.unique(groups)}
    y_pred = y + np.array([effect[g] for g in groups]) + rng.normal(0, 1, (n_repeats, y.size))
    fold = whole_group_folds(groups, n_repeats, 99) if fold is None else np.broadcast_to(fold, y_pred.shape)
    return cvi.CVResult(y_true=y, y_pred=y_pred, fold=fold, loss=(y_pred - y) ** 2, loss_name="squared_error",
                        groups=groups if grouped else None)


def cluster_ols(values, groups):
    """statsmodels' OLS of ``values`` on a constant with its cluster-robust covariance and default corrections."""
    _, codes = np.unique(groups, return_inverse=True)
    return sm.OLS(values, np.ones(values.size)).fit(cov_type="cluster", cov_kwds={"groups": codes}, use_t=True)


def cr1_by_hand(values, groups):
    """Mean and CR1 variance of ``values``: Cameron & Miller (2015), section II.C, eq. (11), X a column of ones.

    beta = sum_i y_i / N; V = c (X'X)^-1 [sum_g (sum_{i in g} u_i)^2] (X'X)^-1 with u_i = y_i - beta, X'X = N and
    c = G / (G - 1) * (N - 1) / (N - K), K = 1.
    """
    labels = np.unique(groups)
    n, n_groups = values.size, labels.size
    mean = sum(values) / n
    scores = [sum(values[groups == g] - mean) for g in labels]
    factor = n_groups / (n_groups - 1) * (n - 1) / (n - 1)
    return mean, factor * sum(s * s for s in scores) / n ** 2


def mcnemar_by_hand(correct_a, correct_b, groups, method):
    """Obuchowski's X^2 = (K - 1) / K (sum_k d_k)^2 / sum_k d_k^2 (Yang, Sun & Hardin 2010, section 2) or
    Durkalski's X^2 = (sum_k d_k / n_k)^2 / sum_k (d_k / n_k)^2 (Durkalski et al. 2003, eq. 3), d_k = b_k - c_k."""
    labels = np.unique(groups)
    d, n = [], []
    for g in labels:
        a, b = correct_a[groups == g], correct_b[groups == g]
        d.append(int(np.sum((a == 1) & (b == 0))) - int(np.sum((a == 0) & (b == 1))))
        n.append(a.size)
    if method == "mcnemar-obuchowski":
        k = labels.size
        return (k - 1) / k * sum(d) ** 2 / sum(x * x for x in d)
    weights = [x / m for x, m in zip(d, n, strict=True)]
    return sum(weights) ** 2 / sum(w * w for w in weights)


def warning_texts(function, *args, **kwargs):
    """What ``function`` returns and the InferenceWarnings it issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outcome = function(*args, **kwargs)
    return outcome, [str(w.message) for w in caught if issubclass(w.category, InferenceWarning)]


def quiet(function, *args, **kwargs):
    return warning_texts(function, *args, **kwargs)[0]


@pytest.fixture(scope="module")
def design():
    return grouped_design()


# --------------------------------------------------------------------------- accuracy_interval(method="cluster")


@pytest.mark.parametrize("confidence_level", [0.9, 0.95])
def test_the_cluster_interval_is_statsmodels_cluster_robust_ols_of_the_correctness(design, confidence_level,
                                                                                    evidence):
    evidence()  # nothing measured: no warning from the calibration (test_cluster_half_sample.py: with)
    result = classifier(design, 1)
    interval, texts = warning_texts(cvi.accuracy_interval, result, confidence_level, method="cluster")
    fit = cluster_ols(result.correct[0].astype(float), result.groups)
    assert fit.df_resid_inference == N_GROUPS - 1
    assert interval.estimate == pytest.approx(fit.params[0], rel=1e-12) == result.accuracy
    assert interval.details["standard_error"] == pytest.approx(fit.bse[0], rel=1e-10)
    assert interval.details["df"] == N_GROUPS - 1 and interval.method == "cluster"
    assert interval.details["averaging"] == "dataset"
    assert (interval.low, interval.high) == pytest.approx(tuple(fit.conf_int(alpha=1 - confidence_level)[0]),
                                                          rel=1e-10)
    assert interval.details["n_groups"] == N_GROUPS and interval.details["groups_within_folds"] is True
    assert texts == [] and interval.warnings == ()


def test_auto_picks_the_cluster_interval_on_a_grouped_record_and_not_without_groups(design, evidence):
    evidence()  # nothing measured: the cluster-robust interval (tests/inference/test_cluster_half_sample.py: with)
    grouped, plain = classifier(design, 1), classifier(design, 1, grouped=False)
    auto = cvi.accuracy_interval(grouped)
    explicit = cvi.accuracy_interval(grouped, method="cluster")
    assert auto.method == "cluster"
    assert (auto.estimate, auto.low, auto.high, auto.details["standard_error"], auto.details["df"]) == (
        explicit.estimate, explicit.low, explicit.high, explicit.details["standard_error"], explicit.details["df"])
    assert any("made with groups" in note for note in auto.notes)
    assert cvi.accuracy_interval(plain).method != "cluster"
    assert quiet(cvi.accuracy_interval, grouped, averaging="fold").method == "t"  # the fold level keeps Wong's t


def test_cluster_with_fold_averaging_is_refused(design):
    with pytest.raises(ValueError, match=r"method='cluster'.*averaging='dataset'"):
        cvi.accuracy_interval(classifier(design, 1), averaging="fold", method="cluster")


def test_cluster_on_an_ungrouped_record_is_refused_naming_groups(design):
    with pytest.raises(ValueError, match=r"made without groups\. Pass groups="):
        cvi.accuracy_interval(classifier(design, 1, grouped=False), method="cluster")
    with pytest.raises(ValueError, match=r"made without groups\. Pass groups="):
        cvi.loss_interval(regressor(design, 1, grouped=False), method="cluster")


def test_cluster_with_drop_failing_folds_is_refused(design):
    with pytest.raises(ValueError, match=r"drop_failing_folds=True .* method='cluster'"):
        cvi.accuracy_interval(classifier(design, 1), method="cluster", drop_failing_folds=True)


def test_auto_with_drop_failing_folds_drops_no_fold_of_a_grouped_record(evidence):
    """Fold 0 holds no wrong prediction, so it fails Wong's conditions; the cluster interval uses every instance."""
    evidence()
    groups = np.repeat(np.arange(30), 6)
    fold = groups % 5
    rng = np.random.default_rng(0)
    right = (rng.random(groups.size) < 0.7) | (fold == 0)
    y = rng.integers(0, 2, groups.size)
    grouped, plain = (cvi.CVResult(y_true=y, y_pred=np.where(right, y, 1 - y), fold=fold, groups=labels)
                      for labels in (groups, None))
    interval, texts = warning_texts(cvi.accuracy_interval, grouped, drop_failing_folds=True)
    explicit = cvi.accuracy_interval(grouped, method="cluster")
    assert interval.method == "cluster" and interval.details["dropped_folds"] == () and texts == []
    assert (interval.estimate, interval.low, interval.high) == (explicit.estimate, explicit.low, explicit.high)
    assert interval.estimate == grouped.accuracy
    assert any(note.startswith("drop_failing_folds=True drops no fold") for note in interval.notes)
    dropped = quiet(cvi.accuracy_interval, plain, drop_failing_folds=True).details["dropped_folds"]
    assert dropped == (0,)  # as before, no groups
    fold = quiet(cvi.accuracy_interval, grouped, averaging="fold", drop_failing_folds=True)
    assert fold.details["dropped_folds"] == (0,)


def test_three_repeats_average_the_estimates_and_the_cr1_variances(design):
    result = classifier(design, 2, n_repeats=3)
    interval, texts = warning_texts(cvi.accuracy_interval, result, method="cluster")
    by_repeat = [cr1_by_hand(result.correct[r].astype(float), result.groups) for r in range(3)]
    for r, (mean, variance) in enumerate(by_repeat):  # the hand formula is statsmodels' on each repeat
        fit = cluster_ols(result.correct[r].astype(float), result.groups)
        assert (mean, variance) == pytest.approx((fit.params[0], fit.bse[0] ** 2), rel=1e-10)
    estimate = np.mean([mean for mean, _ in by_repeat])
    standard_error = math.sqrt(np.mean([variance for _, variance in by_repeat]))
    half_width = stats.t.ppf(0.975, N_GROUPS - 1) * standard_error
    assert interval.estimate == pytest.approx(estimate, rel=1e-12)
    assert interval.estimate == pytest.approx(np.mean([result.correct[r].mean() for r in range(3)]), rel=1e-12)
    assert interval.details["standard_error"] == pytest.approx(standard_error, rel=1e-10)
    assert (interval.low, interval.high) == pytest.approx((estimate - half_width, estimate + half_width), rel=1e-10)
    widths = [quiet(cvi.accuracy_interval, result, method="cluster", repeat=r) for r in range(3)]
    assert interval.high - interval.low <= max(w.high - w.low for w in widths) + 1e-12
    standard_errors = {round(w.details["standard_error"], 12) for w in widths}
    assert len(standard_errors) == 3  # the repeats differ: the check can fail
    assert any("3 repeats of cross-validation are pooled" in text for text in texts)


# --------------------------------------------------------------------------- loss_interval(method="cluster")


def test_the_cluster_loss_interval_is_statsmodels_cluster_robust_ols_of_the_losses(design):
    result = regressor(design, 3)
    interval = quiet(cvi.loss_interval, result, 0.9, method="cluster")
    fit = cluster_ols(result.loss[0], result.groups)
    assert interval.estimate == pytest.approx(fit.params[0], rel=1e-12) == pytest.approx(result.mean_loss)
    assert interval.details["standard_error"] == pytest.approx(fit.bse[0], rel=1e-10)
    assert (interval.low, interval.high) == pytest.approx(tuple(fit.conf_int(alpha=0.1)[0]), rel=1e-10)
    assert interval.details["df"] == N_GROUPS - 1 and interval.method == "cluster" and interval.target == "kfold"
    assert interval.details["clipped"] == ()


def test_the_cluster_loss_interval_is_clipped_at_zero():
    """One group of 20 carries every loss: t_19 * se exceeds the mean, so the interval would go below 0."""
    groups = np.repeat(np.arange(20), 3)
    loss = np.zeros(60)
    loss[:3] = [30.0, 40.0, 50.0]
    y = np.zeros(60)
    result = cvi.CVResult(y_true=y, y_pred=y + np.sqrt(loss), fold=np.arange(20)[groups] % 4, loss=loss,
                          loss_name="squared_error", groups=groups)
    mean, variance = cr1_by_hand(loss, groups)
    assert mean - stats.t.ppf(0.975, 19) * math.sqrt(variance) < 0  # the unclipped bound is negative
    interval = quiet(cvi.loss_interval, result, method="cluster")  # clipped as the other loss intervals: in .clipped
    assert interval.low == 0.0 and interval.details["clipped"] == ("low",)
    assert interval.high == pytest.approx(mean + stats.t.ppf(0.975, 19) * math.sqrt(variance), rel=1e-10)


# --------------------------------------------------------------------------- mcnemar_test(method="mcnemar-obuchowski")


@pytest.mark.parametrize("method", ["mcnemar-obuchowski", "mcnemar-durkalski"])
def test_the_record_test_is_the_array_test_and_the_hand_computed_statistic(design, method):
    a, b = classifier(design, 4), classifier(design, 5)
    test = cvi.mcnemar_test(a, b, method=method)
    array = clustered_mcnemar_of(a.correct[0], b.correct[0], a.groups, method=method, fold=a.fold[0])
    assert (test.statistic, test.pvalue, test.estimate, test.standard_error) == (
        array.statistic, array.pvalue, array.estimate, array.standard_error)
    assert dict(test.details) == dict(array.details)
    assert test.statistic == pytest.approx(mcnemar_by_hand(a.correct[0], b.correct[0], a.groups, method), rel=1e-12)
    assert test.pvalue == pytest.approx(stats.chi2.sf(test.statistic, 1), rel=1e-12)
    if method == "mcnemar-obuchowski":
        assert test.estimate == pytest.approx(a.accuracy - b.accuracy)
    else:  # Durkalski's weighs the groups equally: the mean of the groups' differences in accuracy
        labels = np.unique(a.groups)
        assert test.estimate == pytest.approx(np.mean([a.correct[0][a.groups == g].mean()
                                                       - b.correct[0][a.groups == g].mean() for g in labels]))
    assert test.df == 1 and "groups, not instances, independent" in test.estimand


def test_the_mcnemar_test_accepts_a_pair_and_a_chosen_repeat(design):
    a, b = classifier(design, 4, n_repeats=2), classifier(design, 5, n_repeats=2)
    test = cvi.mcnemar_test(cvi.PairedCVResult(a, b), repeat=1, method="mcnemar-obuchowski")
    assert test == cvi.mcnemar_test(a, b, repeat=1, method="mcnemar-obuchowski")
    assert test.statistic == pytest.approx(mcnemar_by_hand(a.correct[1], b.correct[1], a.groups, "mcnemar-obuchowski"))
    assert test.statistic != pytest.approx(mcnemar_by_hand(a.correct[0], b.correct[0], a.groups, "mcnemar-obuchowski"))


def test_the_mcnemar_test_refuses_what_it_cannot_pair(design):
    a, b = classifier(design, 4), classifier(design, 5)
    other = cvi.CVResult(y_true=b.y_true, y_pred=b.y_pred[0], fold=b.fold[0], groups=np.roll(b.groups, 1))
    with pytest.raises(ValueError, match="same groups; b has other groups"):
        cvi.mcnemar_test(a, other, method="mcnemar-obuchowski")
    with pytest.raises(ValueError, match="same groups; b has none"):
        cvi.mcnemar_test(a, classifier(design, 5, grouped=False), method="mcnemar-obuchowski")
    with pytest.raises(ValueError, match=r"made without groups\. Pass groups="):
        cvi.mcnemar_test(classifier(design, 4, grouped=False), classifier(design, 5, grouped=False),
                         method="mcnemar-obuchowski")
    repeated = classifier(design, 4, n_repeats=2), classifier(design, 5, n_repeats=2)
    with pytest.raises(ValueError, match=r"n_repeats=2.*Pass repeat=0"):
        cvi.mcnemar_test(*repeated, method="mcnemar-obuchowski")
    with pytest.raises(ValueError, match="method must be one of 'mcnemar', 'mcnemar-obuchowski', 'mcnemar-durkalski'"):
        cvi.mcnemar_test(a, b, method="clustered")
    with pytest.raises(ValueError, match=r"exact=True applies to method='mcnemar' only.*leave it out"):
        cvi.mcnemar_test(a, b, method="mcnemar-obuchowski", exact=True)
    with pytest.raises(ValueError, match=r"correction=False applies to method='mcnemar' only"):
        cvi.mcnemar_test(a, b, method="mcnemar-durkalski", correction=False)


# ----------------------------------------------------------------------- matched_sample_test(method="cluster-paired-t")


def test_the_paired_test_of_classifiers_is_statsmodels_ols_of_the_correctness_differences(design):
    a, b = classifier(design, 6), classifier(design, 7)
    test = cvi.matched_sample_test(a, b, method="cluster-paired-t")
    fit = cluster_ols(a.correct[0].astype(float) - b.correct[0], a.groups)
    assert type(test) is cvi.results.TestResult
    assert test.estimate == pytest.approx(fit.params[0], rel=1e-12) == pytest.approx(a.accuracy - b.accuracy)
    assert test.standard_error == pytest.approx(fit.bse[0], rel=1e-10)
    assert test.statistic == pytest.approx(fit.tvalues[0], rel=1e-10)
    assert test.pvalue == pytest.approx(fit.pvalues[0], rel=1e-10) and test.df == N_GROUPS - 1
    greater = cvi.matched_sample_test(a, b, alternative="greater", method="cluster-paired-t")
    assert greater.pvalue == pytest.approx(stats.t.sf(fit.tvalues[0], N_GROUPS - 1), rel=1e-10)
    assert cvi.matched_sample_test(cvi.PairedCVResult(a, b), method="cluster-paired-t") == test


def test_the_paired_test_of_regressors_is_a_loss_difference_result(design):
    a, b = regressor(design, 8), regressor(design, 9)
    test = cvi.matched_sample_test(a, b, method="cluster-paired-t")
    fit = cluster_ols(b.loss[0] - a.loss[0], a.groups)
    assert type(test) is cvi.results.LossDifferenceTestResult
    assert test.estimate == pytest.approx(b.mean_loss - a.mean_loss) == pytest.approx(fit.params[0], rel=1e-12)
    assert (test.standard_error, test.pvalue) == pytest.approx((fit.bse[0], fit.pvalues[0]), rel=1e-10)


def test_a_regressors_absolute_errors_of_whole_units_stay_a_loss_difference(design):
    # Integer predictions of an integer target: every absolute error is 0 or 1, yet the loss is not the zero-one
    # loss, so the test is of mean losses (B minus A), not of accuracies.
    groups, _, skill = design
    y = np.round(10 * skill)
    rng = np.random.default_rng(3)
    predictions = [y + rng.integers(0, 2, y.size) for _ in range(2)]
    a, b = (cvi.CVResult(y_true=y, y_pred=y_pred, fold=whole_group_folds(groups, 1, 99)[0],
                         loss=np.abs(y_pred - y), loss_name="absolute_error", groups=groups) for y_pred in predictions)
    test = cvi.matched_sample_test(a, b, method="cluster-paired-t")
    assert type(test) is cvi.results.LossDifferenceTestResult
    assert test.details["difference"] == "mean loss B - mean loss A"
    fit = cluster_ols(b.loss[0] - a.loss[0], groups)
    assert test.estimate == pytest.approx(fit.params[0], rel=1e-12)


def test_repeats_are_pooled_as_the_mean_of_the_cr1_variances_with_a_warning(design):
    a, b = classifier(design, 6, n_repeats=3), classifier(design, 7, n_repeats=3)
    with pytest.warns(InferenceWarning, match="3 repeats of cross-validation are pooled"):
        test = cvi.matched_sample_test(a, b, method="cluster-paired-t")
    by_repeat = [cr1_by_hand(a.correct[r].astype(float) - b.correct[r], a.groups) for r in range(3)]
    estimate = np.mean([mean for mean, _ in by_repeat])
    standard_error = math.sqrt(np.mean([variance for _, variance in by_repeat]))
    assert test.estimate == pytest.approx(estimate, rel=1e-12) == pytest.approx(a.accuracy - b.accuracy)
    assert test.standard_error == pytest.approx(standard_error, rel=1e-10)
    assert test.pvalue == pytest.approx(2 * stats.t.sf(abs(estimate / standard_error), N_GROUPS - 1), rel=1e-10)
    assert any("pooled" in text for text in test.warnings)
    one = cvi.matched_sample_test(a, b, repeat=2, method="cluster-paired-t")
    assert one.standard_error == pytest.approx(math.sqrt(by_repeat[2][1]), rel=1e-10)


def test_the_paired_test_refuses_other_losses_and_other_repeats(design):
    squared = regressor(design, 7)
    absolute = cvi.CVResult(y_true=squared.y_true, y_pred=squared.y_pred, fold=squared.fold, groups=squared.groups,
                            loss=np.abs(squared.y_pred - squared.y_true), loss_name="absolute_error")
    with pytest.raises(ValueError, match="compares one loss; a has loss 'squared_error' and b 'absolute_error'"):
        cvi.matched_sample_test(squared, absolute, method="cluster-paired-t")
    with pytest.raises(ValueError, match="n_repeats=2 and b has n_repeats=1; pass repeat="):
        cvi.matched_sample_test(classifier(design, 6, n_repeats=2), classifier(design, 7), method="cluster-paired-t")


# --------------------------------------------------------------------------- warnings of the other methods


def scored(result, seed):
    """``result`` with scores: the label's probability, noisy."""
    rng = np.random.default_rng(seed)
    score = np.clip(np.where(result.y_true == 1, 0.65, 0.35) + rng.normal(0, 0.25, result.n_samples), 0, 1)
    return cvi.CVResult(y_true=result.y_true, y_pred=result.y_pred, fold=result.fold, groups=result.groups,
                        y_score=np.broadcast_to(score, result.fold.shape), response_method="predict_proba")


def loo_pair(design, grouped=True):
    groups = design[0]
    fold = np.arange(groups.size)
    return classifier(design, 10, fold=fold, grouped=grouped), classifier(design, 11, fold=fold, grouped=grouped)


INSTANCE_LEVEL = {
    "accuracy normal": (lambda d, g: cvi.accuracy_interval(classifier(d, 1, grouped=g), method="normal"),
                        ACCURACY_INSTEAD),
    "accuracy wilson": (lambda d, g: cvi.accuracy_interval(classifier(d, 1, grouped=g), method="wilson"),
                        ACCURACY_INSTEAD),
    "accuracy clopper-pearson": (
        lambda d, g: cvi.accuracy_interval(classifier(d, 1, grouped=g), method="clopper-pearson"), ACCURACY_INSTEAD),
    "loss half-sample": (lambda d, g: cvi.loss_interval(regressor(d, 3, grouped=g), method="half-sample"),
                         "method='cluster'"),
    "loss normal": (lambda d, g: cvi.loss_interval(regressor(d, 3, grouped=g), method="normal"), "method='cluster'"),
    "loss cv-clt": (lambda d, g: cvi.loss_interval(regressor(d, 3, grouped=g), method="cv-clt"), "method='cluster'"),
    "mcnemar": (lambda d, g: cvi.mcnemar_test(classifier(d, 4, grouped=g), classifier(d, 5, grouped=g)),
                "mcnemar_test(a, b, method='mcnemar-obuchowski')"),
    "independent z": (lambda d, g: cvi.independent_sample_test(classifier(d, 4, grouped=g),
                                                               classifier(d, 5, grouped=g), method="independent-z"),
                      "matched_sample_test(a, b, method='cluster-paired-t')"),
    "matched leave-one-out": (lambda d, g: cvi.matched_sample_test(*loo_pair(d, g)),
                              "matched_sample_test(a, b, method='cluster-paired-t')"),
    "loss difference": (lambda d, g: cvi.inference.loss_difference_test(regressor(d, 8, grouped=g),
                                                                        regressor(d, 9, grouped=g)),
                        "matched_sample_test(a, b, method='cluster-paired-t')"),
    "regression interval": (lambda d, g: cvi.inference.regression_interval(regressor(d, 3, grouped=g), method="cv-clt"),
                            "method='cluster'"),
    "mean baseline": (lambda d, g: cvi.inference.mean_baseline_test(regressor(d, 3, grouped=g), method="cv-clt"),
                      "method='cluster'"),
    "no-information exact": (lambda d, g: cvi.no_information_test(classifier(d, 1, grouped=g), method="exact"),
                             "method='cluster'"),
    "delong": (lambda d, g: cvi.metric_interval(scored(classifier(d, 1, grouped=g), 0), "roc_auc", method="delong"),
               "method='corrected-t'"),
}


@pytest.mark.parametrize("name", list(INSTANCE_LEVEL))
def test_instance_level_methods_warn_on_a_grouped_record_and_name_the_alternative(design, name):
    call, instead = INSTANCE_LEVEL[name]
    outcome, texts = warning_texts(call, design, True)
    [text] = [t for t in texts if t.startswith(GROUPED)]
    assert instead in text and text.endswith("takes the group as the independent unit.")
    assert f"{design[0].size} instances in {N_GROUPS} groups" in text
    assert text in outcome.warnings
    outcome, texts = warning_texts(call, design, False)
    assert not [t for t in [*texts, *outcome.warnings] if "made with groups" in t]


def fold_level_calls(design, fold, grouped=True):
    """The fold-level methods on records whose (two-repeat) folds are ``fold``."""
    pair = (classifier(design, 4, n_repeats=2, fold=fold, grouped=grouped),
            classifier(design, 5, n_repeats=2, fold=fold, grouped=grouped))
    losses = regressor(design, 3, n_repeats=2, fold=fold, grouped=grouped)
    return {
        "accuracy fold t": lambda: cvi.accuracy_interval(pair[0], averaging="fold", method="t"),
        "loss fold t": lambda: cvi.loss_interval(losses, method="t"),
        "matched k-fold": lambda: cvi.matched_sample_test(*pair, repeat=0),
        "independent t": lambda: cvi.independent_sample_test(*pair, method="independent-t", repeat=0),
        "corrected t": lambda: cvi.corrected_resampled_ttest(*pair),
        "metric t": lambda: cvi.metric_interval(pair[0], "f1", method="t"),
        "metric corrected-t": lambda: cvi.metric_interval(scored(pair[0], 0), "roc_auc", method="corrected-t"),
    }


FOLD_LEVEL = list(fold_level_calls(grouped_design(), whole_group_folds(grouped_design()[0], 2, 0)))


@pytest.mark.parametrize("name", FOLD_LEVEL)
def test_fold_level_methods_warn_only_when_the_folds_split_groups(design, name):
    groups = design[0]
    whole = whole_group_folds(groups, 2, 0)
    split = whole.copy()
    moved = np.flatnonzero(groups == "patient 00")[0]  # one instance of one group, in repeat 0, to the next fold
    split[0, moved] = (split[0, moved] + 1) % 5
    assert [len({(g, f) for g, f in zip(groups, folds, strict=True)}) for folds in split] == [N_GROUPS + 1, N_GROUPS]
    outcome, texts = warning_texts(fold_level_calls(design, whole)[name])
    assert not [t for t in [*texts, *outcome.warnings] if SPLIT in t or "made with groups" in t]
    outcome, texts = warning_texts(fold_level_calls(design, split)[name])
    [text] = [t for t in texts if t.startswith(SPLIT)]
    assert "StratifiedEqualSizeGroupKFold" in text and text in outcome.warnings
    outcome, texts = warning_texts(fold_level_calls(design, split, grouped=False)[name])
    assert not [t for t in [*texts, *outcome.warnings] if SPLIT in t]


# --------------------------------------------------------------------------- decide() and pair_tests()

ALLOWED = ("corrected t", "clustered McNemar", "cluster paired t", "nested")


def only_group_aware(decision):
    names = [test.name for test in (decision.rests_on, *decision.context) if test is not None]
    for name in names:
        assert name.startswith(ALLOWED), name
        assert not re.match(r"^(McNemar|independent-sample|matched-sample|CV-CLT)", name), name
    return names


def test_a_grouped_pair_is_decided_by_tests_that_count_groups(design, evidence):
    evidence()  # nothing measured: the stated order for grouped pairs puts the corrected t first
    pair = cvi.PairedCVResult(classifier(design, 4, n_repeats=2), classifier(design, 5, n_repeats=2))
    decision = cvi.decide(pair)
    names = only_group_aware(decision)
    assert decision.rests_on.name == "corrected t on fold accuracy (2x5-fold)"
    assert decision.rests_on.pvalue == pytest.approx(quiet(cvi.corrected_resampled_ttest, pair).pvalue)
    assert {"clustered McNemar (Obuchowski) (repeat 0)", "cluster paired t on per-instance correctness"} <= set(names)
    assert any(c.startswith(f"The instances come in {N_GROUPS} groups") for c in decision.caveats)
    assert not any(SPLIT in c for c in decision.caveats)
    assert decision.difference == pytest.approx(pair.a.accuracy - pair.b.accuracy)
    assert cvi.results.Decision.from_dict(decision.to_dict()) == decision


def test_a_grouped_pair_with_the_shipped_evidence_and_split_folds(design):
    fold = np.arange(design[0].size) % 5
    pair = cvi.PairedCVResult(classifier(design, 4, fold=fold), classifier(design, 5, fold=fold))
    decision = cvi.decide(pair)
    only_group_aware(decision)
    assert decision.rests_on is None or decision.rests_on.name.startswith(ALLOWED)
    assert any(c.startswith(f"The instances come in {N_GROUPS} groups") for c in decision.caveats)
    assert any(c.startswith(SPLIT) for c in decision.caveats)


def test_a_grouped_regressor_pair_is_decided_without_the_cv_clt(design, evidence):
    evidence()
    pair = cvi.PairedCVResult(regressor(design, 8, n_repeats=2), regressor(design, 9, n_repeats=2))
    decision = cvi.decide(pair)
    names = only_group_aware(decision)
    assert decision.lower_is_better and decision.metric == "mean squared error"
    assert decision.rests_on.name == "corrected t on fold mean squared error (2x5-fold)"
    assert "cluster paired t on per-instance squared error" in names
    assert not any("McNemar" in name for name in names)
    assert any(c.startswith(f"The instances come in {N_GROUPS} groups") for c in decision.caveats)
    assert decision.difference == pytest.approx(pair.b.mean_loss - pair.a.mean_loss)


def test_a_grouped_regressor_pair_is_judged_by_the_grouped_regression_cells(design, evidence, null_row):
    """The "grouped-regression" rows judge a regressor pair; the grouped accuracy rows ("grouped") do not."""
    def row(method, measured, task):  # the benchmark's designs: corrected t 10 x 10-fold, cluster paired t 10 repeats
        design = {"repeats": 10, "folds": 10} if method == "corrected-t" else {"repeats": 10}
        return null_row(method, measured, learner="ridge", n=N_GROUPS, task=task, **design)

    evidence(row("corrected-t", 0.09, "grouped-regression"), row("cluster-paired-t", 0.05, "grouped-regression"),
             row("corrected-t", 0.04, "grouped"), row("cluster-paired-t", 0.2, "grouped"))
    pair = cvi.PairedCVResult(regressor(design, 8, n_repeats=2), regressor(design, 9, n_repeats=2))
    decision = cvi.decide(pair)
    assert decision.rests_on.name == "cluster paired t on per-instance squared error"
    assert decision.rests_on.measured_type_i == 0.05
    [corrected] = [test for test in decision.context if test.name.startswith("corrected t")]
    assert corrected.measured_type_i == 0.09 and "above 0.06" in corrected.why_not


def test_pair_tests_add_the_clustered_tests_only_for_grouped_pairs(design):
    grouped = cvi.PairedCVResult(classifier(design, 4), classifier(design, 5))
    plain = cvi.PairedCVResult(classifier(design, 4, grouped=False), classifier(design, 5, grouped=False))
    tests = dict(pair_tests(grouped))
    assert tests["clustered McNemar (Obuchowski)"] == quiet(cvi.mcnemar_test, grouped, method="mcnemar-obuchowski")
    assert tests["cluster paired t on per-instance correctness"] == quiet(cvi.matched_sample_test, grouped,
                                                                          method="cluster-paired-t")
    assert not [name for name, _ in pair_tests(plain) if name.startswith("cluster")]


# --------------------------------------------------------------------------- real fits, end to end


def test_real_fits_on_grouped_data_report_one_grouped_caution():
    rng = np.random.default_rng(0)
    groups = np.repeat(np.arange(40), rng.integers(3, 9, 40))
    effect = rng.normal(0, 1.5, 40)[groups]
    X = np.column_stack([rng.normal(size=groups.size), rng.normal(size=groups.size),
                         effect + rng.normal(0, 0.3, groups.size)])
    y = (X[:, 0] + effect + rng.normal(0, 1, groups.size) > 0).astype(int)
    evaluator = cvi.CVEvaluator(cv=cvi.StratifiedEqualSizeGroupKFold(5, shuffle=True, random_state=0), n_repeats=2,
                                random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", InferenceWarning)  # compare and summary() keep their warnings to themselves
        pair = evaluator.compare(LogisticRegression(), DecisionTreeClassifier(random_state=0), X, y, groups=groups)
        summary = pair.summary()
    assert pair.a.n_groups == 40 and np.array_equal(pair.a.groups, groups)
    text = re.sub(r"\n +", " ", summary)  # unwrap the report's lines
    assert text.count(GROUPED) == 1
    [caution] = [line for line in text.splitlines() if GROUPED in line]
    assert caution.startswith(f"- {GROUPED}{groups.size} instances in 40 groups): ")
    for method in ("the normal interval", "the wilson interval", "the clopper-pearson interval",
                   "independent-sample z", "McNemar's test"):
        assert method in caution
    assert "count every instance as independent" in caution
    for test in ("clustered McNemar (Obuchowski) (repeat 0)", "cluster paired t on per-instance correctness"):
        assert test in text
    interval = quiet(cvi.accuracy_interval, pair.a)  # the shipped evidence chooses between the two
    assert interval.method in ("cluster", "cluster-half-sample") and interval.details["groups_within_folds"] is True
    factor = 2 if interval.method == "cluster-half-sample" else 1
    assert interval.details["standard_error"] == pytest.approx(math.sqrt(
        factor * np.mean([cr1_by_hand(pair.a.correct[r].astype(float), groups)[1] for r in range(2)])), rel=1e-10)
    decision = cvi.decide(pair)
    only_group_aware(decision)


def test_a_grouped_regressor_report_names_its_one_instance_level_method_in_the_singular(design):
    pair = cvi.PairedCVResult(regressor(design, 8, n_repeats=2), regressor(design, 9, n_repeats=2))
    text = re.sub(r"\n +", " ", pair.summary())
    [caution] = [line for line in text.splitlines() if GROUPED in line]
    assert (f"- {GROUPED}{design[0].size} instances in {N_GROUPS} groups): the CV-CLT (Bayle et al. 2020) counts "
            "every instance as independent, but instances of one group are alike, so it is too narrow (or its "
            "p-value too small) when they are") in caution
    assert "cluster paired t on per-instance squared error" in text


@pytest.mark.parametrize("confidence_level", [0.9, 0.95])
def test_the_decision_shows_the_clustered_mcnemar_p_and_interval_as_a_consistent_pair(design, evidence,
                                                                                        confidence_level):
    """Issue 45 item 7: the decision's estimate, interval and p-value of Obuchowski's test point the same way."""
    evidence()
    rejected = 0
    for seed in range(8):
        a = classifier(design, 10 + seed)
        wrong = np.random.default_rng(seed).random(a.y_true.size) < 0.03 * seed  # B: more errors, by seed
        y_pred = np.where(wrong, 1 - a.y_true, classifier(design, 30 + seed).y_pred[0])
        b = cvi.CVResult(y_true=a.y_true, y_pred=y_pred, fold=a.fold[0], groups=a.groups)
        pair = cvi.PairedCVResult(a, b)
        decision = cvi.decide(pair, confidence_level=confidence_level)
        [shown] = [test for test in (decision.rests_on, *decision.context)
                   if test is not None and test.name.startswith("clustered McNemar (Obuchowski)")]
        test = quiet(cvi.mcnemar_test, pair, method="mcnemar-obuchowski")
        interval = test.confidence_interval(confidence_level)
        assert (shown.estimate, shown.low, shown.high, shown.pvalue) == pytest.approx(
            (test.estimate, interval.low, interval.high, test.pvalue))
        assert (shown.pvalue < 1 - confidence_level) == (not shown.low <= 0 <= shown.high)
        rejected += shown.pvalue < 1 - confidence_level
    assert 0 < rejected < 8
