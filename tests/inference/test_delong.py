"""DeLong's AUC variance, interval and paired test (cvinference/inference/_delong.py) against independent oracles.

Oracles: sklearn's ``roc_auc_score`` for the AUCs; DeLong et al.'s (1988, section 2) O(mn) definitions
written afresh here (placements from the pairwise psi, S10 and S01 as sample variances and covariances);
pROC's published values on its ``aSAH`` data (its tests/testthat files, commit ee2877e); the delta method
for the logit interval; and, as loose smoke checks labelled as such, a seeded bootstrap over instances and a
simulation with known truth for the multi-class variance.
"""

import csv
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import special, stats
from sklearn.metrics import roc_auc_score

from cvinference import InferenceWarning
from cvinference.inference._delong import delong_auc, delong_interval, delong_paired_test, placements

DATA = Path(__file__).resolve().parents[1] / "data" / "asah.csv"


# --------------------------------------------------------------------------- the O(mn) oracle


def psi_matrix(x, y):
    """psi(X_i, Y_j): 1 if X > Y, 1/2 if equal, 0 otherwise (DeLong et al. 1988, section 2)."""
    x, y = np.asarray(x, float)[:, None], np.asarray(y, float)[None, :]
    return (x > y) + 0.5 * (x == y)


def slow_components(y_true, y_score, positive_label=1):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score, float)
    psi = psi_matrix(y_score[y_true == positive_label], y_score[y_true != positive_label])
    return psi.mean(), psi.mean(axis=1), psi.mean(axis=0)  # theta, V10 (per positive), V01 (per negative)


def slow_covariance(y_true, score_a, score_b):
    """DeLong's S_AB = S10_AB / m + S01_AB / n, from the O(mn) placements."""
    _, v10_a, v01_a = slow_components(y_true, score_a)
    _, v10_b, v01_b = slow_components(y_true, score_b)
    s10 = np.cov(v10_a, v10_b, ddof=1)[0, 1]
    s01 = np.cov(v01_a, v01_b, ddof=1)[0, 1]
    return s10 / v10_a.size + s01 / v01_a.size


def slow_variance(y_true, y_score):
    return slow_covariance(y_true, y_score, y_score)


def tied_scores(rng, n, n_levels=7, shift=0.8):
    """Binary labels and scores rounded to few levels, so that ties across and within classes abound."""
    y = rng.integers(0, 2, n)
    y[:2], y[2:4] = 0, 1
    score = np.round(rng.normal(shift * y, 1.0) * n_levels / 4) / n_levels
    return y, score


# --------------------------------------------------------------------------- binary AUC and variance


@pytest.mark.parametrize("seed", range(6))
def test_auc_and_variance_equal_the_quadratic_definitions_with_ties(seed):
    rng = np.random.default_rng(seed)
    y, score = tied_scores(rng, int(rng.integers(10, 200)))
    assert len(np.unique(score)) < y.size  # ties are present
    result = delong_auc(y, score)
    theta, v10, v01 = slow_components(y, score)
    assert result.auc == pytest.approx(roc_auc_score(y, score), abs=1e-12)
    assert result.auc == pytest.approx(theta, abs=1e-12)
    assert result.variance == pytest.approx(slow_variance(y, score), abs=1e-12)
    assert result.class_counts == (int((y == 0).sum()), int((y == 1).sum()))
    auc, fast_v10, fast_v01 = placements(y == 1, score)
    assert auc == pytest.approx(theta, abs=1e-12)
    np.testing.assert_allclose(fast_v10, v10, atol=1e-12)
    np.testing.assert_allclose(fast_v01, v01, atol=1e-12)


def test_auc_with_string_labels_and_pos_label_as_sklearn():
    rng = np.random.default_rng(1)
    y, score = tied_scores(rng, 80)
    labels = np.where(y == 1, "sick", "healthy")
    # the larger label ("sick") is positive by default, as in roc_auc_score
    assert delong_auc(labels, score).auc == pytest.approx(roc_auc_score(labels, score), abs=1e-12)
    # scores of "healthy": the AUC of -score for "sick"
    flipped = delong_auc(labels, -score, pos_label="healthy")
    assert flipped.auc == pytest.approx(roc_auc_score(labels == "healthy", -score), abs=1e-12)
    assert flipped.variance == pytest.approx(slow_variance(labels == "healthy", -score), abs=1e-12)


def test_float32_scores_as_records_before_issue_45_kept_them():
    # records keep float64 scores now; a caller may still hold float32 ones (an old record, a model of float32)
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 300)
    score = rng.random(300).astype(np.float32)
    assert delong_auc(y, score).auc == pytest.approx(roc_auc_score(y, score), abs=1e-12)


# --------------------------------------------------------------------------- pROC's published values


def asah():
    with DATA.open() as handle:
        rows = list(csv.DictReader(handle))
    y = np.array([row["outcome"] == "Poor" for row in rows], dtype=int)
    return y, {name: np.array([float(row[name]) for row in rows]) for name in ("wfns", "s100b", "ndka")}


# pROC's values from its tests/testthat (commit ee2877e): pROC's expect_equal compares to about 1.5e-8.
PROC_TOLERANCE = dict(rel=1e-9, abs=1e-12)


def test_asah_data_are_pROCs():
    y, markers = asah()
    assert y.size == 113 and y.sum() == 41  # 72 Good, 41 Poor (man/aSAH.Rd; pROC's ROC print-outs)
    # theta of ndka in helper-deLongPlacementsCpp-expected.R
    assert roc_auc_score(y, markers["ndka"]) == pytest.approx(0.611957994579946, **PROC_TOLERANCE)


@pytest.mark.parametrize(("marker", "expected"), [
    ("wfns", 0.00146991470882363), ("ndka", 0.0031908105493913), ("s100b", 0.00266868245717244),
])
def test_variance_equals_pROCs_var(marker, expected):  # test-var.R
    y, markers = asah()
    assert delong_auc(y, markers[marker]).variance == pytest.approx(expected, **PROC_TOLERANCE)


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("wfns", "ndka", -0.000532967856762438), ("ndka", "s100b", -0.000756164938056579),
    ("s100b", "wfns", 0.00119615567376754),
])
def test_covariance_equals_pROCs_cov(a, b, expected):  # test-cov.R
    y, markers = asah()
    test = delong_paired_test(y, markers[a], markers[b])
    assert test.details["covariance"] == pytest.approx(expected, **PROC_TOLERANCE)
    assert test.details["covariance"] == pytest.approx(slow_covariance(y, markers[a], markers[b]), abs=1e-15)


def test_interval_equals_pROCs_ci_auc():  # test-ci.auc.R: ci.auc(r.ndka)
    y, markers = asah()
    interval = delong_interval(y, markers["ndka"])
    expected = (0.501244999271703, 0.611957994579946, 0.722670989888189)
    assert (interval.low, interval.estimate, interval.high) == pytest.approx(expected, **PROC_TOLERANCE)
    assert interval.method == "delong" and interval.target == "kfold" and not interval.warnings


@pytest.mark.parametrize(("a", "b", "z", "p", "low", "high"), [
    ("wfns", "s100b", 2.20898359144091, 0.0271757822291882, 0.0104061769564846, 0.174214419249478),
    ("wfns", "ndka", 2.79777591868904, 0.00514557970691098, 0.0634011709339876, 0.3600405634833566),
    ("ndka", "s100b", -1.39077002573558, 0.164295175223054, -0.2876917446341914, 0.0488706064228094),
])
def test_paired_test_equals_pROCs_roc_test(a, b, z, p, low, high):  # test-roc.test.R
    y, markers = asah()
    test = delong_paired_test(y, markers[a], markers[b])
    assert test.statistic == pytest.approx(z, **PROC_TOLERANCE)
    assert test.pvalue == pytest.approx(p, **PROC_TOLERANCE)
    interval = test.confidence_interval(0.95)
    assert (interval.low, interval.high) == pytest.approx((low, high), **PROC_TOLERANCE)
    reverse = delong_paired_test(y, markers[b], markers[a])
    assert reverse.statistic == pytest.approx(-z, **PROC_TOLERANCE)
    assert reverse.pvalue == pytest.approx(p, **PROC_TOLERANCE)


def test_one_sided_paired_tests_equal_pROCs():  # test-roc.test.R, t1gt and t1lt
    y, markers = asah()
    greater = delong_paired_test(y, markers["wfns"], markers["s100b"], alternative="greater")
    less = delong_paired_test(y, markers["wfns"], markers["s100b"], alternative="less")
    assert greater.pvalue == pytest.approx(0.0135878911145941, **PROC_TOLERANCE)
    assert less.pvalue == pytest.approx(0.986412108885406, **PROC_TOLERANCE)


def test_a_curve_against_itself_gives_z_0_and_p_1_as_pROC():  # test-roc.test.R, t4
    y, markers = asah()
    with pytest.warns(InferenceWarning, match="do not differ"):
        test = delong_paired_test(y, markers["wfns"], markers["wfns"])
    assert (test.statistic, test.pvalue, test.estimate) == (0.0, 1.0, 0.0)


# --------------------------------------------------------------------------- paired test on random data


@pytest.mark.parametrize("seed", range(4))
def test_paired_variance_is_var_a_plus_var_b_minus_twice_the_covariance(seed):
    rng = np.random.default_rng(seed)
    y, score_a = tied_scores(rng, 150)
    score_b = np.round(score_a + rng.normal(0, 0.5, y.size), 1)
    test = delong_paired_test(y, score_a, score_b)
    variance = slow_variance(y, score_a) + slow_variance(y, score_b) - 2 * slow_covariance(y, score_a, score_b)
    assert test.standard_error == pytest.approx(math.sqrt(variance), abs=1e-12)
    estimate = roc_auc_score(y, score_a) - roc_auc_score(y, score_b)
    assert test.estimate == pytest.approx(estimate, abs=1e-12)
    z = estimate / math.sqrt(variance)
    assert test.statistic == pytest.approx(z, abs=1e-9)
    assert test.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), abs=1e-12)
    assert test.df is None and test.target == "kfold"


# --------------------------------------------------------------------------- interval scales and edges


def test_logit_interval_is_the_delta_method_on_the_logit_scale():
    rng = np.random.default_rng(5)
    y = np.repeat([0, 1], 60)
    score = rng.normal(1.6 * y, 1.0)
    interval = delong_interval(y, score, transform="logit", confidence_level=0.9)
    auc, variance = roc_auc_score(y, score), slow_variance(y, score)
    half = stats.norm.ppf(0.95) * math.sqrt(variance) / (auc * (1 - auc))  # d logit(t) / dt = 1 / (t (1 - t))
    assert (interval.low, interval.high) == pytest.approx(
        (special.expit(special.logit(auc) - half), special.expit(special.logit(auc) + half)), abs=1e-12)
    assert interval.method == "delong" and interval.details["transform"] == "logit"
    assert 0 < interval.low < auc < interval.high < 1


def test_plain_interval_is_the_normal_one_and_clipped_with_a_warning():
    y = np.repeat([0, 1], 8)
    score = np.r_[np.arange(8), np.arange(8) + 6.5]  # AUC near 1: the normal interval passes 1
    variance = slow_variance(y, score)
    with pytest.warns(InferenceWarning, match="clipped"):
        interval = delong_interval(y, score)
    assert interval.low == pytest.approx(roc_auc_score(y, score) - stats.norm.ppf(0.975) * math.sqrt(variance))
    assert interval.high == 1.0 and interval.details["clipped"] == ("high",)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert delong_interval(y, score, transform="logit").high < 1.0


@pytest.mark.parametrize("transform", ["none", "logit"])
@pytest.mark.parametrize(("score", "auc"), [([1, 2, 3, 4, 5, 6], 1.0), ([6, 5, 4, 3, 2, 1], 0.0),
                                            ([1, 1, 1, 1, 1, 1], 0.5)])
def test_zero_variance_gives_the_point_with_a_degenerate_warning(transform, score, auc):
    y = [0, 0, 0, 1, 1, 1]
    with pytest.warns(InferenceWarning, match="degenerate"):
        interval = delong_interval(y, score, transform=transform)
    assert (interval.estimate, interval.low, interval.high, interval.details["standard_error"]) == (auc, auc, auc, 0.0)
    assert interval.warnings


@pytest.mark.parametrize(("y", "match"), [
    ([1, 1, 1, 1], "two classes"),
    ([0, 1, 1, 1], "at least two positive and two negative"),
])
def test_binary_refusals_name_y_true(y, match):
    with pytest.raises(ValueError, match=match) as error:
        delong_auc(y, [0.1, 0.2, 0.3, 0.4])
    assert "y_true" in str(error.value)


@pytest.mark.parametrize(("score", "match"), [
    ([0.1, 0.2, 0.3], r"shape \(4,\)"), ([0.1, np.nan, 0.3, 0.4], "NaN"),
    ([[0.9, 0.1], [0.8, 0.2], [0.3, 0.7], [0.2, 0.8]], r"positive class's column"),
])
def test_bad_scores_are_refused_with_the_fix(score, match):
    with pytest.raises(ValueError, match=match):
        delong_auc([0, 0, 1, 1], score)


def test_unknown_pos_label_is_refused():
    with pytest.raises(ValueError, match="pos_label=2"):
        delong_auc([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4], pos_label=2)


# --------------------------------------------------------------------------- smoke: bootstrap over instances


@pytest.mark.slow
def test_smoke_bootstrap_variance_agrees_with_delong_within_monte_carlo_error():
    """A smoke check with a loose tolerance; the exact checks are the formula ones above.

    The bootstrap (resampling instances with replacement, seeded) estimates the same sampling variance
    of the AUC to first order; with 300 instances and 2,000 resamples its Monte-Carlo relative error is
    about sqrt(2 / 2000) = 3%, and the two estimators differ by O(1/n): 15% allows for both.
    """
    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 300)
    score = np.round(rng.normal(y, 1.0), 1)
    index = rng.integers(0, y.size, (2000, y.size))
    aucs = [roc_auc_score(y[rows], score[rows]) for rows in index]
    assert np.var(aucs, ddof=1) == pytest.approx(delong_auc(y, score).variance, rel=0.15)


# --------------------------------------------------------------------------- one-vs-rest macro AUC


def three_classes(rng, counts=(40, 30, 50), separation=1.0):
    y = np.repeat(np.arange(3), counts)
    logits = rng.normal(0, 1, (y.size, 3)) + separation * np.eye(3)[y]
    return y, special.softmax(np.round(logits, 1), axis=1)


def slow_ovr_phi(y, score):
    """phi_i = (1/K) sum_c (V10_c(i) / n_c if y_i = c else V01_c(i) / (N - n_c)), from the O(mn) placements.

    The first-order terms of the one-vs-rest macro AUC (see delong_auc's Notes).
    """
    classes = np.unique(y)
    phi = np.zeros(y.size)
    for c, label in enumerate(classes):
        psi = psi_matrix(score[y == label, c], score[y != label, c])
        phi[y == label] += psi.mean(axis=1) / psi.shape[0]
        phi[y != label] += psi.mean(axis=0) / psi.shape[1]
    return phi / classes.size


def stratified_variance(phi, y):
    """sum_g n_g s_g^2(phi), s_g^2 the sample variance within class g."""
    return sum((y == g).sum() * phi[y == g].var(ddof=1) for g in np.unique(y))


def slow_ovr_variance(y, score):
    return stratified_variance(slow_ovr_phi(y, score), y)


@pytest.mark.parametrize("seed", range(4))
def test_macro_auc_equals_sklearns_ovr_macro_and_the_quadratic_variance(seed):
    rng = np.random.default_rng(seed)
    y, proba = three_classes(rng)
    result = delong_auc(y, proba)
    assert result.auc == pytest.approx(roc_auc_score(y, proba, multi_class="ovr", average="macro"), abs=1e-12)
    assert result.variance == pytest.approx(slow_ovr_variance(y, proba), abs=1e-12)
    assert result.class_counts == (40, 30, 50)
    for c in range(3):
        assert result.class_aucs[c] == pytest.approx(roc_auc_score(y == c, proba[:, c]), abs=1e-12)


def test_macro_auc_with_string_classes_in_column_order():
    rng = np.random.default_rng(4)
    y, proba = three_classes(rng)
    names = np.array(["cat", "dog", "emu"])[y]
    assert delong_auc(names, proba).auc == pytest.approx(delong_auc(y, proba).auc, abs=1e-15)
    reordered = delong_auc(names, proba[:, [2, 0, 1]], classes=["emu", "cat", "dog"])
    assert reordered.auc == pytest.approx(delong_auc(y, proba).auc, abs=1e-15)


def test_macro_refusals():
    y = np.array([0, 0, 1, 1, 2])
    with pytest.raises(ValueError, match="at least two instances of every class"):
        delong_auc(y, np.full((5, 3), 1 / 3))
    with pytest.raises(ValueError, match="classes must list every class"):
        delong_auc(np.array([0, 0, 1, 1, 2, 2]), np.full((6, 3), 1 / 3), classes=[0, 1, 3])
    with pytest.raises(ValueError, match=r"shape \(6, 3\)"):
        delong_auc(np.array([0, 0, 1, 1, 2, 2]), np.full((6, 2), 0.5))


def test_smoke_macro_variance_matches_the_sampling_variance_covariances_included():
    """A smoke check by simulation (loose tolerance): the estimated variance of the macro AUC, averaged over
    400 datasets drawn with fixed class counts, is close to the AUC's variance across those datasets; the
    sum of the per-class DeLong variances over K^2, which ignores the covariances between classes, is not.
    """
    rng = np.random.default_rng(7)
    aucs, estimated, naive = [], [], []
    for _ in range(400):
        y, proba = three_classes(rng, counts=(60, 60, 60), separation=1.2)
        result = delong_auc(y, proba)
        aucs.append(result.auc)
        estimated.append(result.variance)
        naive.append(sum(delong_auc(y == c, proba[:, c]).variance for c in range(3)) / 9)
    truth = np.var(aucs, ddof=1)  # relative Monte-Carlo error about sqrt(2 / 400) = 7%
    assert np.mean(estimated) == pytest.approx(truth, rel=0.2)
    assert abs(np.mean(naive) / truth - 1) > 0.3


def test_paired_macro_test_is_the_contrast_of_the_per_instance_terms():
    rng = np.random.default_rng(8)
    y, proba_a = three_classes(rng)
    proba_b = special.softmax(np.log(proba_a) + rng.normal(0, 1, proba_a.shape), axis=1)
    test = delong_paired_test(y, proba_a, proba_b)
    difference = (roc_auc_score(y, proba_a, multi_class="ovr") - roc_auc_score(y, proba_b, multi_class="ovr"))
    assert test.estimate == pytest.approx(difference, abs=1e-12)
    variance = stratified_variance(slow_ovr_phi(y, proba_a) - slow_ovr_phi(y, proba_b), y)
    assert test.standard_error == pytest.approx(math.sqrt(variance), abs=1e-12)
    assert test.statistic == pytest.approx(difference / math.sqrt(variance), abs=1e-9)
    var_a, var_b = slow_ovr_variance(y, proba_a), slow_ovr_variance(y, proba_b)
    assert test.details["variance_a"] == pytest.approx(var_a, abs=1e-12)
    assert test.details["variance_b"] == pytest.approx(var_b, abs=1e-12)
    assert (test.method, test.details["variant"]) == ("delong-paired", "one-vs-rest macro")


def test_perfect_multiclass_separation_is_degenerate_not_a_rounding_residue():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 30)
    proba = rng.dirichlet([1, 1, 1], 90) + np.eye(3)[y]  # every class's column separates it perfectly
    with pytest.warns(InferenceWarning, match="degenerate") as caught:
        interval = delong_interval(y, proba)
    assert len(caught) == 1  # no clipping warning from a variance of 1e-33
    assert (interval.estimate, interval.low, interval.high, interval.details["variance"]) == (1.0, 1.0, 1.0, 0.0)


def test_results_round_trip_through_json():
    from cvinference.results import Interval, TestResult

    y, markers = asah()
    interval = delong_interval(y, markers["ndka"], transform="logit")
    assert Interval.from_json(interval.to_json()) == interval
    test = delong_paired_test(y, markers["wfns"], markers["s100b"])
    assert TestResult.from_json(test.to_json()) == test
