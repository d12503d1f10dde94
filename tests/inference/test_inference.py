"""The inference layer: intervals, large-sample conditions, comparison tests.

Every formula is checked against an independent oracle (scipy.stats,
statsmodels, scikit-learn or a hand computation with its source named) and
against the worked examples of the papers in ``shared/papers``:

* Wong (2015), *Performance evaluation of classification algorithms by k-fold
  and leave-one-out cross validation* (``wong2015.txt``), sections 2-5;
* Kohavi (1995), *Cross-Validation and Bootstrap for Accuracy Estimation and
  Model Selection* (``kohavi1995.txt``), "Failure of cross-validation/leave-one-out";
* van der Aalst, *Process Mining*, section 3.6 (``aalst_3_6.txt``).

An unexpected :class:`cvinference.InferenceWarning` fails a test (see
``pytestmark``); expected ones are caught with ``pytest.warns`` and incidental
ones (an oracle test that happens to use counts failing the conditions) with
:func:`quiet`.

``method="auto"`` here follows Wong's rules alone: the calibration
benchmark's evidence, which may move it (and changes with every run of the
benchmark), is emptied by :func:`without_evidence`; its own rules are tested
in ``test_evidence.py`` on hand-made tables.
"""

import dataclasses
import math
import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import matthews_corrcoef
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

try:  # statsmodels is an oracle of the test extra, not a dependency of the package
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
    from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint, proportions_ztest
except ImportError:
    sm_mcnemar = None

import cvinference as cvi
from cvinference.policy import _evidence

pytestmark = pytest.mark.filterwarnings("error::cvinference.InferenceWarning")


@pytest.fixture(autouse=True)
def without_evidence(monkeypatch):
    empty = {"rows": [], "floor": 0.93, "type_i_limit": 0.06, "mode": None}
    monkeypatch.setattr(_evidence, "calibration_evidence", lambda: empty)
needs_statsmodels = pytest.mark.skipif(sm_mcnemar is None, reason="statsmodels (the test extra) is not installed")

ALTERNATIVES = ("two-sided", "less", "greater")
# statsmodels' names for cvinference's alternatives ("greater" = A more accurate).
STATSMODELS_ALTERNATIVE = {"two-sided": "two-sided", "less": "smaller", "greater": "larger"}
LEVELS = (0.8, 0.9, 0.95, 0.99)


# --------------------------------------------------------------------------- helpers


def from_correctness(correct, fold=None):
    """A CVResult whose correctness is ``correct`` (1-d, or 2-d for repeats).

    ``fold=None`` means leave-one-out (``fold = arange(n)``). All true labels
    are 1; a wrong prediction is 0.
    """
    correct = np.asarray(correct, dtype=bool)
    n = correct.shape[-1]
    fold = np.arange(n) if fold is None else np.asarray(fold)
    fold = np.broadcast_to(fold, correct.shape).copy()
    return cvi.CVResult(y_true=np.ones(n, dtype=int), y_pred=correct.astype(int), fold=fold)


def fold_layout(correct, sizes=40, seed=None):
    """Correctness and fold arrays with ``correct[j]`` right out of ``sizes[j]`` in fold j.

    With a ``seed`` the instances are shuffled (fold numbers travel with them),
    so the fold numbering no longer follows the position in the arrays.
    """
    correct = np.asarray(correct)
    sizes = np.broadcast_to(sizes, correct.shape)
    fold = np.repeat(np.arange(correct.size), sizes)
    right = np.concatenate([np.arange(m) < r for r, m in zip(correct, sizes, strict=True)])
    if seed is not None:
        order = np.random.default_rng(seed).permutation(fold.size)
        fold, right = fold[order], right[order]
    return right, fold


def from_fold_counts(correct, sizes=40, seed=None):
    """A one-repeat k-fold CVResult with ``correct[j]`` right out of ``sizes[j]`` in fold j."""
    right, fold = fold_layout(correct, sizes, seed)
    return from_correctness(right, fold)


def from_repeats(*rows, sizes=40):
    """A repeated k-fold CVResult; each row is one repeat's per-fold correct counts."""
    layouts = [fold_layout(row, sizes) for row in rows]
    return from_correctness(np.array([r for r, _ in layouts]), np.array([f for _, f in layouts]))


def from_total(k, n, n_folds=5):
    """A k-fold CVResult with k of n correct (folds interleaved: instance i in fold i % n_folds)."""
    return from_correctness(np.arange(n) < k, np.arange(n) % n_folds)


def table_vectors(both, a_only, b_only, neither, seed=0):
    """Two shuffled correctness vectors with the given 2x2 table of right/wrong."""
    a = np.repeat([True, True, False, False], [both, a_only, b_only, neither])
    b = np.repeat([True, False, True, False], [both, a_only, b_only, neither])
    order = np.random.default_rng(seed).permutation(a.size)
    return a[order], b[order]


def pair_from_table(both, a_only, b_only, neither, fold=None, seed=0):
    """Results A and B on the same instances (LOO by default) with the given 2x2 table."""
    a, b = table_vectors(both, a_only, b_only, neither, seed)
    if fold == "5-fold":
        fold = np.arange(a.size) % 5
    return from_correctness(a, fold), from_correctness(b, fold)


def quiet(function, *args, **kwargs):
    """Call ``function`` ignoring InferenceWarning (for oracle tests where it is incidental)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return function(*args, **kwargs)


def regression_result():
    return cvi.CVResult(y_true=[0.5, 1.5, 2.0, 3.0], y_pred=[0.4, 1.0, 2.5, 3.0], fold=[0, 1, 0, 1],
                        loss=[0.01, 0.25, 0.25, 0.0], loss_name="squared_error")


# Fold counts (of 40) meeting Wong's large-sample conditions, for oracle tests.
FOLD_COUNTS = [
    [32, 28, 30, 30, 32],
    [20, 25, 18, 30, 22, 27, 24, 19, 26, 21],
    [35, 35, 34, 33, 35],
    [10, 12, 8, 15],
]
# Pairs of fold counts (of 40, same folds) for the matched-sample oracles.
FOLD_PAIRS = [
    ([32, 28, 30, 30, 32], [30, 27, 30, 26, 30]),
    ([20, 25, 18, 30, 22, 27, 24, 19, 26, 21], [22, 21, 19, 25, 20, 28, 20, 21, 23, 18]),
    ([10, 12, 8, 15], [15, 14, 16, 13]),
    ([25, 26, 24], [25, 20, 30]),
]


# --------------------------------------------------------------------------- 1. oracles


@pytest.mark.parametrize("confidence_level", LEVELS)
@pytest.mark.parametrize(("k", "n"), [(0, 20), (3, 20), (17, 40), (40, 40), (150, 200), (1, 1000), (733, 1000)])
@pytest.mark.parametrize(("method", "scipy_method"), [("wilson", "wilson"), ("clopper-pearson", "exact")])
def test_binomial_intervals_equal_scipy_binomtest(method, scipy_method, k, n, confidence_level):
    # Oracle: scipy.stats.binomtest(k, n).proportion_ci (Wilson 1927; Clopper & Pearson 1934).
    interval = cvi.accuracy_interval(from_total(k, n), confidence_level, method=method)
    expected = stats.binomtest(k, n).proportion_ci(confidence_level, method=scipy_method)
    assert interval.method == method and interval.details["averaging"] == "dataset"
    assert interval.estimate == pytest.approx(k / n)
    assert interval.low == pytest.approx(expected.low, abs=1e-12)
    assert interval.high == pytest.approx(expected.high, abs=1e-12)
    assert interval.details["n"] == n and interval.confidence_level == confidence_level


@pytest.mark.parametrize("confidence_level", LEVELS)
@pytest.mark.parametrize("counts", FOLD_COUNTS)
@needs_statsmodels
def test_dataset_normal_interval_equals_statsmodels(counts, confidence_level):
    # Oracle: statsmodels proportion_confint(method="normal"), the Wald interval of
    # Wong (2015) Theorem 1 / section 4.3.3; both clip to [0, 1].
    result = from_fold_counts(counts)
    k, n = sum(counts), 40 * len(counts)
    interval = cvi.accuracy_interval(result, confidence_level, method="normal")
    low, high = proportion_confint(k, n, alpha=1 - confidence_level, method="normal")
    assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-12)
    assert interval.details["standard_error"] == pytest.approx(math.sqrt(k / n * (1 - k / n) / n))
    assert interval.details["critical_value"] == pytest.approx(stats.norm.ppf((1 + confidence_level) / 2))
    assert interval.details["df"] is None and interval.details["n"] == n


@pytest.mark.parametrize(("k", "n"), [(1, 10), (9, 10), (2, 40)])
@needs_statsmodels
def test_dataset_normal_interval_clips_like_statsmodels(k, n):
    # Oracle: statsmodels proportion_confint(method="normal") clips to [0, 1]; so does cvinference.
    with pytest.warns(cvi.InferenceWarning, match="large-sample conditions fail"):
        interval = cvi.accuracy_interval(from_total(k, n), method="normal")
    assert tuple(interval) == pytest.approx(proportion_confint(k, n, alpha=0.05, method="normal"), abs=1e-12)
    assert 0.0 <= interval.low <= interval.high <= 1.0


@pytest.mark.parametrize("confidence_level", LEVELS)
@pytest.mark.parametrize("sizes", [40, [41, 41, 40, 40, 40]])
@pytest.mark.parametrize("counts", [[32, 28, 30, 30, 32], [20, 25, 18, 30, 22], [35, 35, 34, 33, 35]])
def test_fold_t_interval_equals_scipy_t_interval(counts, sizes, confidence_level):
    # Oracle: Wong (2015) section 4.3.3, mean of p_j +- t_{k-1} s / sqrt(k), computed with
    # scipy.stats.t.interval and scipy.stats.sem (clipped to [0, 1], as cvinference documents).
    result = from_fold_counts(counts, sizes)
    p_j = np.asarray(counts) / np.broadcast_to(sizes, (5,))
    low, high = stats.t.interval(confidence_level, len(counts) - 1, loc=p_j.mean(), scale=stats.sem(p_j))
    interval = cvi.accuracy_interval(result, confidence_level, averaging="fold")
    assert interval.method == "t" and interval.details["averaging"] == "fold"
    assert interval.estimate == pytest.approx(p_j.mean())
    assert interval.low == pytest.approx(max(low, 0.0), abs=1e-12)
    assert interval.high == pytest.approx(min(high, 1.0), abs=1e-12)
    assert interval.details["standard_error"] == pytest.approx(stats.sem(p_j))
    assert interval.details["df"] == len(counts) - 1 and interval.details["n"] == len(counts)
    assert interval.details["critical_value"] == pytest.approx(stats.t.ppf((1 + confidence_level) / 2, len(counts) - 1))


def test_fold_normal_interval_uses_the_z_quantile():
    # Hand computation: the fold-level interval with method="normal" is mean +- z * sem (docstring).
    counts = [20, 25, 18, 30, 22, 27, 24, 19, 26, 21]
    p_j = np.asarray(counts) / 40
    interval = cvi.accuracy_interval(from_fold_counts(counts), 0.9, averaging="fold", method="normal")
    z = stats.norm.ppf(0.95)
    assert interval.details["df"] is None and interval.details["critical_value"] == pytest.approx(z)
    assert tuple(interval) == pytest.approx((p_j.mean() - z * stats.sem(p_j), p_j.mean() + z * stats.sem(p_j)))


@pytest.mark.parametrize("confidence_level", LEVELS)
def test_loo_fold_t_interval_is_the_t_interval_of_the_correctness_vector(confidence_level):
    # Docstring (Notes): under leave-one-out the fold-level t interval is a t interval on the
    # 0/1 correctness vector; oracle scipy.stats.t.interval with n - 1 df and scipy.stats.sem.
    correct = np.random.default_rng(7).random(60) < 0.7
    interval = cvi.accuracy_interval(from_correctness(correct), confidence_level, averaging="fold")
    x = correct.astype(float)
    low, high = stats.t.interval(confidence_level, x.size - 1, loc=x.mean(), scale=stats.sem(x))
    assert interval.method == "t" and interval.details["df"] == 59 and interval.details["n"] == 60
    assert tuple(interval) == pytest.approx((low, high), abs=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(("counts_a", "counts_b"), FOLD_PAIRS)
def test_matched_t_kfold_equals_scipy_ttest_rel(counts_a, counts_b, alternative):
    # Oracle: Wong (2015) Theorem 2 is scipy.stats.ttest_rel on the fold accuracies.
    a, b = from_fold_counts(counts_a), from_fold_counts(counts_b)
    test = cvi.matched_sample_test(a, b, alternative=alternative)
    expected = stats.ttest_rel(a.fold_accuracy[0], b.fold_accuracy[0], alternative=alternative)
    assert test.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert test.pvalue == pytest.approx(expected.pvalue, rel=1e-10, abs=1e-15)
    assert test.df == expected.df == len(counts_a) - 1
    assert test.estimate == pytest.approx((sum(counts_a) - sum(counts_b)) / (40 * len(counts_a)))
    assert test.details["d_j"] == pytest.approx(list(a.fold_accuracy[0] - b.fold_accuracy[0]))


@pytest.mark.parametrize("confidence_level", LEVELS)
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(("counts_a", "counts_b"), FOLD_PAIRS[:2])
def test_matched_t_confidence_interval_equals_scipy(counts_a, counts_b, alternative, confidence_level):
    # Oracle: scipy's TtestResult.confidence_interval. For a one-sided alternative scipy gives
    # -inf / +inf on the open side; cvinference bounds it by the range of a difference of
    # accuracies (-1 or 1), so only the finite bound is compared.
    a, b = from_fold_counts(counts_a), from_fold_counts(counts_b)
    interval = cvi.matched_sample_test(a, b, alternative=alternative).confidence_interval(confidence_level)
    expected = stats.ttest_rel(a.fold_accuracy[0], b.fold_accuracy[0], alternative=alternative)
    expected = expected.confidence_interval(confidence_level)
    if alternative == "less":
        assert interval.low == -1.0 and expected.low == -np.inf
    else:
        assert interval.low == pytest.approx(expected.low, abs=1e-12)
    if alternative == "greater":
        assert interval.high == 1.0 and expected.high == np.inf
    else:
        assert interval.high == pytest.approx(expected.high, abs=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(("table", "seed"), [((40, 8, 12, 20), 0), ((25, 15, 6, 14), 1), ((50, 6, 6, 8), 2)])
def test_matched_t_loo_equals_ttest_rel_on_correctness(table, seed, alternative):
    # Oracle: Wong (2015) Theorem 4, t = mean(y) / sqrt(s_y^2 / n) on y_j = x_Aj - x_Bj with
    # n - 1 df, is scipy.stats.ttest_rel on the two 0/1 correctness vectors.
    correct_a, correct_b = table_vectors(*table, seed=seed)
    a, b = from_correctness(correct_a), from_correctness(correct_b)
    test = cvi.matched_sample_test(a, b, alternative=alternative)
    expected = stats.ttest_rel(correct_a.astype(float), correct_b.astype(float), alternative=alternative)
    assert (test.method, test.details["variant"]) == ("matched-t", "leave-one-out")
    assert test.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert test.pvalue == pytest.approx(expected.pvalue, rel=1e-10)
    assert test.df == expected.df == correct_a.size - 1
    both, a_only, b_only, neither = table
    assert dict(test.details) == {"n_-1": b_only, "n_0": both + neither, "n_+1": a_only, "variant": "leave-one-out"}
    if alternative == "two-sided":
        expected_ci = expected.confidence_interval(0.9)
        assert tuple(test.confidence_interval(0.9)) == pytest.approx((expected_ci.low, expected_ci.high))


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(
    ("counts_a", "sizes_a", "counts_b", "sizes_b"),
    [
        ([32, 28, 30, 30, 32], 40, [30, 27, 30, 26, 30], 40),  # same n, same k
        ([32, 28, 30, 30, 32], 40, [15, 14, 12, 13, 12, 11, 15, 14, 10, 13], 20),  # same n, different k
        ([32, 28, 30, 30, 32], 40, [20, 24, 22, 23, 21, 25, 19, 24, 22, 18], 30),  # different n and k
        ([10, 12, 8, 15], 20, [40, 38, 41], [50, 50, 49]),  # different n and k, unequal fold sizes
    ],
)
@needs_statsmodels
def test_pooled_z_equals_statsmodels_proportions_ztest(counts_a, sizes_a, counts_b, sizes_b, alternative):
    # Oracle: Wong (2015) Theorem 3 with the pooled p is statsmodels' proportions_ztest;
    # its interval (unpooled variance) is confint_proportions_2indep(method="wald").
    a, b = from_fold_counts(counts_a, sizes_a), from_fold_counts(counts_b, sizes_b)
    r_a, r_b, n_a, n_b = sum(counts_a), sum(counts_b), a.n_samples, b.n_samples
    test = cvi.independent_sample_test(a, b, alternative=alternative)
    z, p = proportions_ztest([r_a, r_b], [n_a, n_b], alternative=STATSMODELS_ALTERNATIVE[alternative])
    assert test.method == "independent-z" and test.df is None
    assert test.statistic == pytest.approx(z, rel=1e-12)
    assert test.pvalue == pytest.approx(p, rel=1e-10)
    assert test.estimate == pytest.approx(r_a / n_a - r_b / n_b)
    assert test.details["pooled_accuracy"] == pytest.approx((r_a + r_b) / (n_a + n_b))
    if alternative == "two-sided":
        low, high = confint_proportions_2indep(r_a, n_a, r_b, n_b, method="wald", compare="diff", alpha=0.1)
        assert tuple(test.confidence_interval(0.9)) == pytest.approx((low, high), abs=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(
    ("counts_a", "sizes_a", "counts_b", "sizes_b"),
    [
        ([32, 28, 30, 30, 32], 40, [30, 27, 30, 26, 30], 40),
        ([32, 28, 30, 30, 32], 40, [15, 14, 12, 13, 12, 11, 15, 14, 10, 13], 20),
        ([10, 12, 8, 15], 20, [40, 38, 41], [50, 50, 49]),
    ],
)
def test_independent_t_equals_scipy_welch(counts_a, sizes_a, counts_b, sizes_b, alternative):
    # Oracle: scipy.stats.ttest_ind(equal_var=False), Welch's t with Welch-Satterthwaite df.
    a, b = from_fold_counts(counts_a, sizes_a), from_fold_counts(counts_b, sizes_b)
    test = cvi.independent_sample_test(a, b, method="independent-t", alternative=alternative)
    expected = stats.ttest_ind(a.fold_accuracy[0], b.fold_accuracy[0], equal_var=False, alternative=alternative)
    assert test.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert test.pvalue == pytest.approx(expected.pvalue, rel=1e-10)
    assert test.df == pytest.approx(expected.df, rel=1e-12)
    if alternative == "two-sided":
        ci = expected.confidence_interval(0.95)
        assert tuple(test.confidence_interval()) == pytest.approx((ci.low, ci.high), abs=1e-12)


MCNEMAR_TABLES = [(30, 12, 4, 14), (20, 3, 9, 8), (50, 20, 13, 17), (10, 1, 0, 5), (40, 0, 7, 3),
                  (5, 30, 2, 3), (60, 18, 19, 3)]


@pytest.mark.parametrize("table", MCNEMAR_TABLES)
@needs_statsmodels
def test_mcnemar_equals_statsmodels(table):
    # Oracle: statsmodels.stats.contingency_tables.mcnemar on [[both, a_only], [b_only, neither]]
    # (McNemar 1947; Edwards 1948). statsmodels' exact statistic is min(b, c), cvinference's is b.
    both, b, c, neither = table
    assert b != c
    a_result, b_result = pair_from_table(*table)
    sm_table = [[both, b], [c, neither]]
    exact = quiet(cvi.mcnemar_test, a_result, b_result, exact=True)
    assert (exact.method, exact.details["variant"]) == ("mcnemar", "exact")
    assert exact.statistic == b and exact.df is None
    assert exact.pvalue == pytest.approx(sm_mcnemar(sm_table, exact=True).pvalue, rel=1e-12)
    assert exact.pvalue == pytest.approx(stats.binomtest(b, b + c, 0.5).pvalue, rel=1e-12)
    for correction in (True, False):
        chi2 = quiet(cvi.mcnemar_test, a_result, b_result, exact=False, correction=correction)
        expected = sm_mcnemar(sm_table, exact=False, correction=correction)
        assert (chi2.method, chi2.details["variant"]) == ("mcnemar", "chi-square") and chi2.df == 1
        assert chi2.statistic == pytest.approx(expected.statistic, rel=1e-12)
        assert chi2.pvalue == pytest.approx(expected.pvalue, rel=1e-12)
    assert exact.details["a_correct_b_wrong"] == b and exact.details["a_wrong_b_correct"] == c
    assert exact.estimate == pytest.approx((b - c) / sum(table))


@pytest.mark.parametrize("alternative", ["less", "greater"])
@pytest.mark.parametrize("table", MCNEMAR_TABLES)
def test_mcnemar_one_sided(table, alternative):
    # Oracle: the exact one-sided test is scipy.stats.binomtest(b, b + c, 0.5, alternative)
    # ("greater" = A better = b large). The chi-square one-sided p is the normal tail of the
    # signed square root of the statistic (hand computation, as the docstring states).
    a_result, b_result = pair_from_table(*table)
    _, b, c, _ = table
    exact = cvi.mcnemar_test(a_result, b_result, exact=True, alternative=alternative)
    assert exact.pvalue == pytest.approx(stats.binomtest(b, b + c, 0.5, alternative=alternative).pvalue, rel=1e-12)
    chi2 = quiet(cvi.mcnemar_test, a_result, b_result, exact=False, alternative=alternative)
    z = math.copysign(max(abs(b - c) - 1, 0) / math.sqrt(b + c), b - c)
    expected = stats.norm.sf(z) if alternative == "greater" else stats.norm.cdf(z)
    assert chi2.pvalue == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("discordant", [2, 8, 30])
@needs_statsmodels
def test_mcnemar_tied_discordant_counts_clamp_the_corrected_statistic(discordant):
    # Hand computation (docstring; Edwards 1948): with b = c the corrected statistic is
    # max(|b - c| - 1, 0)^2 / (b + c) = 0 and p = 1. statsmodels (and R) omit the max(., 0) and
    # give (0 - 1)^2 / (b + c) = 1 / (b + c) with p < 1: the correction then moves the count
    # past its expected value, which is why cvinference deliberately differs here.
    half = discordant // 2
    a_result, b_result = pair_from_table(20, half, half, 10)
    expected_warning = pytest.warns(cvi.InferenceWarning) if discordant < 25 else warnings.catch_warnings()
    with expected_warning:
        corrected = cvi.mcnemar_test(a_result, b_result, exact=False, correction=True)
        uncorrected = cvi.mcnemar_test(a_result, b_result, exact=False, correction=False)
    assert corrected.statistic == 0 and corrected.pvalue == 1.0
    assert sm_mcnemar([[20, half], [half, 10]], exact=False).statistic == pytest.approx(1 / discordant)
    assert uncorrected.statistic == 0 and uncorrected.pvalue == 1.0
    exact = cvi.mcnemar_test(a_result, b_result, exact=True)
    assert exact.pvalue == 1.0 == stats.binomtest(half, discordant, 0.5).pvalue


@pytest.mark.parametrize("confidence_level", LEVELS)
@pytest.mark.parametrize("table", MCNEMAR_TABLES)
def test_mcnemar_standard_error_is_the_paired_wald_standard_error(table, confidence_level):
    # Hand computation, Agresti (2002, section 10.1.1) as the docstring cites:
    # sqrt(b + c - (b - c)^2 / n) / n for the difference of paired proportions.
    _both, b, c, _neither = table
    n = sum(table)
    test = cvi.mcnemar_test(*pair_from_table(*table), exact=True)
    assert test.standard_error == pytest.approx(math.sqrt(b + c - (b - c) ** 2 / n) / n, abs=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("table", [(30, 12, 4, 14), (20, 3, 9, 8), (5, 30, 25, 3), (40, 19, 0, 2), (50, 0, 0, 50)])
def test_mcnemar_interval_is_agresti_and_mins(table, alternative):
    # Hand computation after Agresti & Min (2005, Statistics in Medicine 24, 729-740): add 1/2 to
    # each cell, then the Wald interval of the paired difference p12 - p21 with n + 2 instances.
    _both, b, c, _neither = table
    n = sum(table) + 2
    p12, p21 = (b + 0.5) / n, (c + 0.5) / n
    center, se = p12 - p21, math.sqrt((p12 + p21 - (p12 - p21) ** 2) / n)
    z = stats.norm.ppf(0.9 if alternative != "two-sided" else 0.95)
    expected = (max(-1.0, center - z * se), min(1.0, center + z * se))
    expected = (-1.0 if alternative == "less" else expected[0], 1.0 if alternative == "greater" else expected[1])
    test = quiet(cvi.mcnemar_test, *pair_from_table(*table), alternative=alternative)
    interval = test.confidence_interval(0.9)
    assert tuple(interval) == pytest.approx(expected, abs=1e-12) and interval.method == "agresti-min"
    assert test.estimate == (b - c) / sum(table)


@pytest.mark.parametrize(("discordant", "method"),
                         [(3, "exact"), (24, "exact"), (25, "chi-square"), (40, "chi-square")])
def test_mcnemar_exact_none_switches_at_25_discordant_pairs(discordant, method):
    # Docstring rule: exact=None uses the exact binomial test below 25 discordant pairs.
    b = discordant // 2 + 1
    a_result, b_result = pair_from_table(30, b, discordant - b, 10)
    test = cvi.mcnemar_test(a_result, b_result)
    assert (test.method, test.details["variant"]) == ("mcnemar", method)
    assert any(f"{discordant} discordant pairs" in note for note in test.notes)
    if method == "exact":
        assert test.conditions == ()  # the exact test needs no large-sample condition
    else:
        assert test.conditions[0].counts["b + c"].tolist() == [[discordant]]


def test_mcnemar_chi_square_with_few_discordant_pairs_warns():
    a_result, b_result = pair_from_table(30, 6, 2, 10)
    with pytest.warns(cvi.InferenceWarning, match="chi-square approximation may be poor"):
        cvi.mcnemar_test(a_result, b_result, exact=False)


@pytest.mark.parametrize("fold", [None, "5-fold"])
@pytest.mark.parametrize("table", [(30, 12, 4, 14), (20, 3, 9, 8), (5, 30, 25, 3), (40, 2, 2, 40)])
def test_scheme_diagnostic_phi_equals_pearson_and_matthews(table, fold):
    # Oracle: phi of a 2x2 table is Pearson's correlation of the two 0/1 vectors
    # (numpy.corrcoef) and Matthews' correlation coefficient (sklearn).
    a_result, b_result = pair_from_table(*table, fold=fold)
    correct_a, correct_b = a_result.correct[0], b_result.correct[0]
    diagnostic = cvi.scheme_diagnostic(a_result, b_result)
    assert diagnostic.phi == pytest.approx(np.corrcoef(correct_a, correct_b)[0, 1], abs=1e-12)
    assert diagnostic.phi == pytest.approx(matthews_corrcoef(correct_a, correct_b), abs=1e-12)
    assert (diagnostic.both_correct, diagnostic.a_only, diagnostic.b_only, diagnostic.both_wrong) == table
    assert diagnostic.high == (abs(diagnostic.phi) >= 0.5)


def test_scheme_diagnostic_phi_is_nan_for_a_constant_vector():
    a_result, b_result = pair_from_table(20, 0, 0, 0)
    assert math.isnan(cvi.scheme_diagnostic(a_result, b_result).phi)


def test_the_table_kept_for_a_pair_belongs_to_that_pair_and_its_repeats():
    # One result compared with two others, pooled and per repeat: each call's
    # table must be that pair's own (counted directly here), however often asked.
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    fold = np.stack([rng.permutation(np.arange(60) % 5) for _ in range(3)])

    def result(accuracy):
        return cvi.CVResult(y, np.where(rng.random((3, 60)) < accuracy, y, 1 - y), fold)

    a, others = result(0.8), [result(0.7), result(0.9)]
    for _ in range(2):
        for b in others:
            for repeat in (None, 0, 2):
                rows = slice(None) if repeat is None else slice(repeat, repeat + 1)
                correct_a, correct_b = a.correct[rows], b.correct[rows]
                expected = tuple(int(np.count_nonzero(x & z)) for x, z in
                                 ((correct_a, correct_b), (correct_a, ~correct_b), (~correct_a, correct_b),
                                  (~correct_a, ~correct_b)))
                diagnostic = quiet(cvi.scheme_diagnostic, a, b, repeat=repeat)
                assert (diagnostic.both_correct, diagnostic.a_only, diagnostic.b_only,
                        diagnostic.both_wrong) == expected
    assert pickle.loads(pickle.dumps(a)).fold_correct.tolist() == a.fold_correct.tolist()


def _one_sided_tests(a, b):
    """The t and z tests under each alternative, keyed by name."""
    return {
        "matched": {alt: cvi.matched_sample_test(a, b, alternative=alt) for alt in ALTERNATIVES},
        "z": {alt: cvi.independent_sample_test(a, b, alternative=alt) for alt in ALTERNATIVES},
        "welch": {alt: cvi.independent_sample_test(a, b, method="independent-t", alternative=alt)
                  for alt in ALTERNATIVES},
    }


@pytest.mark.parametrize(("counts_a", "counts_b"), FOLD_PAIRS)
def test_one_sided_pvalues_add_up_and_two_sided_is_twice_the_smaller(counts_a, counts_b):
    # Hand computation: for a symmetric reference distribution, p_less + p_greater = 1 and
    # p_two_sided = 2 min(p_less, p_greater).
    tests = quiet(_one_sided_tests, from_fold_counts(counts_a), from_fold_counts(counts_b))
    for by_alternative in tests.values():
        p_less, p_greater = by_alternative["less"].pvalue, by_alternative["greater"].pvalue
        assert p_less + p_greater == pytest.approx(1.0, abs=1e-12)
        assert by_alternative["two-sided"].pvalue == pytest.approx(2 * min(p_less, p_greater), rel=1e-12)


# --------------------------------------------------------------------------- 2. the papers' examples

# Wong (2015), Example 1, section 4.3.3. The text lists the fold counts as "32, 28, 30, 32, and
# 28", but then computes p = (32 + 28 + 30 + 30 + 32)/5 -> 0.76 from the fold accuracies 0.80,
# 0.70, 0.75, 0.75, 0.80, i.e. counts 32, 28, 30, 30, 32 of 40. The listed counts sum to 150,
# which would give 150/200 = 0.75; the computation (and its deviations 0.04, -0.06, -0.01,
# -0.01, 0.04) uses 32, 28, 30, 30, 32, so that is what we use.
WONG_EXAMPLE_1 = [32, 28, 30, 30, 32]


def test_wong_example_1_listed_counts_are_inconsistent_with_its_mean():
    assert sum([32, 28, 30, 32, 28]) / 200 == 0.75  # the counts as printed
    assert sum(WONG_EXAMPLE_1) / 200 == 0.76  # the counts the computation uses
    np.testing.assert_allclose(np.array(WONG_EXAMPLE_1) / 40, [0.80, 0.70, 0.75, 0.75, 0.80])


def test_wong_example_1_dataset_level():
    # Wong (2015) Example 1: p = 0.76, Var = 0.76 (1 - 0.76) / 200 = 0.000912, interval
    # 0.76 +- 0.030 z_{alpha/2}.
    interval = cvi.accuracy_interval(from_fold_counts(WONG_EXAMPLE_1))
    assert interval.method == "normal" and interval.details["averaging"] == "dataset" and interval.details["n"] == 200
    assert interval.estimate == pytest.approx(0.76)
    assert interval.details["standard_error"]**2 == pytest.approx(0.000912)
    assert round((interval.high - interval.low) / 2 / interval.details["critical_value"], 3) == 0.030
    assert interval.details["critical_value"] == pytest.approx(stats.norm.ppf(0.975))


def test_wong_example_1_fold_level_with_the_arithmetic_slip_corrected():
    # Wong (2015) Example 1 prints the fold-level Var = 0.0007, an arithmetic slip: the squared
    # deviations 0.04^2 + 0.06^2 + 0.01^2 + 0.01^2 + 0.04^2 sum to 0.007, and divided by
    # k - 1 = 4 that is 0.00175 (the variance of one p_j). The half-width is then
    # t sqrt(0.00175 / 5) = 0.0187 t, not the printed 0.012 t (which follows from 0.0007).
    result = from_fold_counts(WONG_EXAMPLE_1)
    interval = cvi.accuracy_interval(result, averaging="fold")
    assert interval.method == "t" and interval.details["df"] == 4 and interval.details["n"] == 5
    assert interval.estimate == pytest.approx(0.76)
    np.testing.assert_allclose(result.fold_accuracy[0] - 0.76, [0.04, -0.06, -0.01, -0.01, 0.04], atol=1e-12)
    assert sum(d**2 for d in (0.04, 0.06, 0.01, 0.01, 0.04)) == pytest.approx(0.007)
    assert interval.details["standard_error"]**2 * 5 == pytest.approx(0.00175)
    assert round((interval.high - interval.low) / 2 / interval.details["critical_value"], 4) == 0.0187
    assert interval.details["critical_value"] == pytest.approx(stats.t.ppf(0.975, 4))


def wong_example_2():
    """Wong (2015) Example 2 (section 5.2): LOO, n = 100, A 80 correct, B 84 correct.

    The paper's matched-sample frequencies (n_-1, n_0, n_+1) = (30, 44, 26) cannot occur with
    80 and 84 correct: A right means "both right" or y = +1, so 80 - 26 = 54 instances are
    right by both, yet n_0 = 44 < 54; they also give s_y^2 = (56 - 100 * 0.04^2) / 99 = 0.564,
    not the paper's 0.16. With n_+1 - n_-1 = 80 - 84 = -4, s_y^2 = 0.16 forces n_-1 = 10,
    so n_-1 = 10, n_0 = 84 (74 both right, 10 both wrong), n_+1 = 6: these give the paper's
    s_y^2 = 0.16 and t = -1.0.
    """
    return pair_from_table(both=74, a_only=6, b_only=10, neither=10)


def test_wong_example_2_independent_z():
    # Wong (2015) Example 2: z = (0.80 - 0.84) / sqrt(2 * 0.82 * 0.18 / 100) = -0.7362.
    a, b = wong_example_2()
    assert (a.accuracy, b.accuracy) == (0.80, 0.84)
    test = cvi.independent_sample_test(a, b)
    assert round(test.statistic, 4) == -0.7362
    assert test.details["pooled_accuracy"] == pytest.approx(0.82)
    assert test.estimate == pytest.approx(-0.04)


def test_wong_example_2_matched_t_with_consistent_frequencies():
    # Wong (2015) Example 2, Theorem 4: t = -0.04 / sqrt(0.16 / 100) = -1.0 with 99 df, using the
    # frequencies n_-1 = 10, n_0 = 84, n_+1 = 6 (see wong_example_2 for why not 30, 44, 26).
    a, b = wong_example_2()
    test = cvi.matched_sample_test(a, b)  # all three counts >= 5: no InferenceWarning
    assert dict(test.details) == {"n_-1": 10, "n_0": 84, "n_+1": 6, "variant": "leave-one-out"}
    assert test.conditions[0].satisfied
    assert test.statistic == pytest.approx(-1.0)
    assert test.standard_error**2 * 100 == pytest.approx(0.16)
    assert test.df == 99 and test.estimate == pytest.approx(-0.04)
    # The printed frequencies would give s_y^2 = 0.564, not 0.16.
    y = np.repeat([-1, 0, 1], [30, 44, 26])
    assert y.var(ddof=1) == pytest.approx(0.564, abs=1e-3)


@pytest.fixture(scope="module")
def kohavi_majority_on_iris():
    # Kohavi (1995), "Failure of cross-validation/leave-one-out": the majority inducer under
    # leave-one-out on iris always errs, because the left-out instance's class is the training
    # minority (49 against 50 and 50).
    X, y = load_iris(return_X_y=True)
    return cvi.cross_val_correctness(DummyClassifier(strategy="most_frequent"), X, y, cv="loo")


def test_kohavi_majority_inducer_scores_zero(kohavi_majority_on_iris):
    result = kohavi_majority_on_iris
    assert result.is_loo and result.n_samples == 150 and result.accuracy == 0.0


def test_kohavi_majority_inducer_gets_an_exact_interval(kohavi_majority_on_iris):
    # Kohavi reports "0% +- 0%"; the normal interval has zero width. method="auto" must instead
    # give Clopper-Pearson [0, 1 - 0.025^(1/150)] (for k = 0 the exact upper bound solves
    # (1 - p)^n = alpha/2) and say why in its notes.
    interval = cvi.accuracy_interval(kohavi_majority_on_iris)
    assert interval.method == "clopper-pearson" and interval.details["averaging"] == "dataset"
    assert interval.estimate == 0.0 and interval.low == 0.0
    assert interval.high == pytest.approx(1 - 0.025 ** (1 / 150), rel=1e-9)
    assert interval.high == pytest.approx(0.0243, abs=1e-4)
    assert interval.warnings == ()
    note = " ".join(interval.notes)
    assert "Clopper-Pearson" in note and "large-sample conditions fail" in note
    (conditions,) = interval.conditions
    assert conditions.satisfied is False and conditions.failing_folds == ()
    assert conditions.counts["r"].tolist() == [[0]] and conditions.counts["n - r"].tolist() == [[150]]


def test_kohavi_majority_inducer_explicit_normal_interval_has_zero_width(kohavi_majority_on_iris):
    with pytest.warns(cvi.InferenceWarning) as record:
        interval = cvi.accuracy_interval(kohavi_majority_on_iris, method="normal")
    assert (interval.low, interval.high) == (0.0, 0.0) and interval.details["standard_error"] == 0.0
    messages = " ".join(str(w.message) for w in record)
    assert "zero width" in messages and "large-sample conditions fail" in messages
    assert len(interval.warnings) == 2


@pytest.mark.parametrize(("confidence_level", "z"), [(0.90, 1.64), (0.95, 1.96), (0.99, 2.58)])
def test_van_der_aalst_normal_interval_quantiles(confidence_level, z):
    # van der Aalst, Process Mining, section 3.6: [p - a sqrt(p (1 - p) / N), p + a sqrt(...)]
    # with a = 1.64, 1.96, 2.58 for 90%, 95%, 99% (stated there for the error rate; the
    # accuracy 1 - p has the same half-width).
    interval = cvi.accuracy_interval(from_fold_counts(WONG_EXAMPLE_1), confidence_level, method="normal")
    assert round(interval.details["critical_value"], 2) == z
    p, n = 0.76, 200
    half_width = interval.details["critical_value"] * math.sqrt(p * (1 - p) / n)
    assert (interval.high - interval.low) / 2 == pytest.approx(half_width)
    assert interval.estimate - interval.low == pytest.approx(half_width)
    error_rate_half_width = interval.details["critical_value"] * math.sqrt((1 - p) * p / n)
    assert half_width == pytest.approx(error_rate_half_width)


# --------------------------------------------------------------------------- 3. behaviour


def test_large_sample_conditions_per_fold_counts():
    # Wong (2015) Theorem 1: r_j >= 5 and m_j - r_j >= 5 in every fold.
    result = from_fold_counts([20, 6, 3, 15], sizes=20)
    conditions = cvi.large_sample_conditions(result)
    assert conditions.counts["r_j"].tolist() == [[20, 6, 3, 15]]
    assert conditions.counts["m_j - r_j"].tolist() == [[0, 14, 17, 5]]
    assert conditions.holds.tolist() == [[False, True, False, True]]
    assert conditions.satisfied is False and conditions.failing_folds == (0, 2)
    assert conditions.failing_by_repeat == ((0, 2),) and conditions.repeats == (0,)
    assert "fails (folds [0, 2])" in conditions.summary()
    assert "Wong 2015" in conditions.rule


def test_large_sample_conditions_use_the_fold_numbers_of_the_result():
    # The instances are shuffled, so fold j is not the j-th block of the arrays.
    result = from_fold_counts([20, 10, 3, 10], sizes=20, seed=3)
    assert result.fold_correct.tolist() == [[20, 10, 3, 10]]
    assert cvi.large_sample_conditions(result).failing_folds == (0, 2)


@pytest.mark.parametrize(("min_count", "failing"), [(1, (0,)), (5, (0, 2)), (6, (0, 2, 3)), (15, (0, 1, 2, 3))])
def test_large_sample_conditions_min_count_changes_the_verdict(min_count, failing):
    result = from_fold_counts([20, 6, 3, 15], sizes=20)
    conditions = cvi.large_sample_conditions(result, min_count)
    assert conditions.failing_folds == failing and conditions.min_count == min_count
    assert cvi.large_sample_conditions(from_fold_counts([10, 10], sizes=20), min_count).satisfied is (min_count <= 10)


@pytest.mark.parametrize(("n_correct", "satisfied"), [(4, False), (5, True), (25, True), (26, False)])
def test_large_sample_conditions_under_loo_use_the_whole_vector(n_correct, satisfied):
    # Wong (2015) section 5.1: under LOO every fold holds one instance, so r >= 5 and n - r >= 5
    # apply to all n predictions together; failing_folds stays empty.
    result = from_correctness(np.arange(30) < n_correct)
    conditions = cvi.large_sample_conditions(result)
    assert conditions.counts["r"].tolist() == [[n_correct]]
    assert conditions.counts["n - r"].tolist() == [[30 - n_correct]]
    assert conditions.satisfied is satisfied and conditions.failing_folds == ()


def test_large_sample_conditions_by_repeat():
    result = from_repeats([30, 30, 30], [30, 37, 30], [2, 30, 38])
    conditions = cvi.large_sample_conditions(result)
    assert conditions.repeats == (0, 1, 2)
    assert conditions.failing_by_repeat == ((), (1,), (0, 2))
    assert conditions.failing_folds == (0, 1, 2) and conditions.satisfied is False
    assert conditions.counts["r_j"].shape == (3, 3)
    assert cvi.large_sample_conditions(result, repeat=0).satisfied is True
    only_one = cvi.large_sample_conditions(result, repeat=1)
    assert only_one.repeats == (1,) and only_one.failing_by_repeat == ((1,),) and only_one.failing_folds == (1,)


@pytest.mark.parametrize(("averaging", "method"), [("dataset", "normal"), ("fold", "t")])
def test_auto_uses_wongs_method_when_all_folds_hold(averaging, method):
    interval = cvi.accuracy_interval(from_fold_counts(WONG_EXAMPLE_1), averaging=averaging)
    assert interval.method == method and interval.details["averaging"] == averaging
    assert interval.conditions[0].satisfied and interval.warnings == ()
    assert interval.notes == () if averaging == "dataset" else "the only interval at the averaging" in interval.notes[0]


def test_auto_at_the_fold_level_keeps_the_averaging_asked_for_and_warns_when_a_fold_fails():
    counts = [38, 30, 28, 31, 33]  # fold 0 has only 2 wrong
    with pytest.warns(cvi.InferenceWarning,
                      match=r"folds \[0\].*averaging='dataset' \(method='auto'\) gives the exact"):
        interval = cvi.accuracy_interval(from_fold_counts(counts), averaging="fold")
    assert (interval.method, interval.details["averaging"]) == ("t", "fold")
    with pytest.warns(cvi.InferenceWarning, match="approximation may be poor"):
        explicit = cvi.accuracy_interval(from_fold_counts(counts), averaging="fold", method="t")
    assert (interval.low, interval.high) == (explicit.low, explicit.high)


@pytest.mark.parametrize("averaging", ["dataset"])
def test_auto_falls_back_to_clopper_pearson_when_a_fold_fails(averaging):
    counts = [38, 30, 28, 31, 33]  # fold 0 has only 2 wrong
    interval = cvi.accuracy_interval(from_fold_counts(counts), averaging=averaging)
    assert interval.method == "clopper-pearson" and interval.details["averaging"] == "dataset"
    expected = stats.binomtest(sum(counts), 200).proportion_ci(0.95, method="exact")
    assert tuple(interval) == pytest.approx((expected.low, expected.high))
    assert interval.conditions[0].failing_folds == (0,) and interval.warnings == ()
    assert any("Clopper-Pearson" in note and "folds [0]" in note for note in interval.notes)


@pytest.mark.parametrize("averaging", ["dataset", "fold"])
def test_drop_failing_folds_leaves_them_out_with_a_warning(averaging):
    # Wong (2015) section 4.1: folds failing the conditions are left out of the estimate and n.
    counts = [38, 30, 28, 31, 2, 33]
    with pytest.warns(cvi.InferenceWarning, match="biases the estimate"):
        interval = cvi.accuracy_interval(from_fold_counts(counts), averaging=averaging, drop_failing_folds=True)
    kept = [30, 28, 31, 33]
    assert interval.details["dropped_folds"] == (0, 4)
    assert interval.method == ("normal" if averaging == "dataset" else "t")
    if averaging == "dataset":
        assert interval.details["n"] == 160 and interval.estimate == pytest.approx(sum(kept) / 160)
        p = sum(kept) / 160
        assert interval.details["standard_error"] == pytest.approx(math.sqrt(p * (1 - p) / 160))
    else:
        p_j = np.array(kept) / 40
        assert interval.details["n"] == 4 and interval.details["df"] == 3
        assert interval.estimate == pytest.approx(p_j.mean())
        assert interval.details["standard_error"] == pytest.approx(stats.sem(p_j))
    assert len(interval.warnings) == 1 and "[0, 4]" in interval.warnings[0]


@pytest.mark.parametrize(("counts", "averaging"), [([38, 2, 40], "dataset"), ([38, 30, 2], "fold")])
def test_drop_failing_folds_drops_nothing_when_too_few_folds_would_remain(counts, averaging):
    # Every fold fails (dataset level), or one fold would remain where the fold level needs two:
    # nothing is dropped and the notes say why; method="auto" then takes the exact interval at the dataset
    # level, and keeps the fold-level t asked for with a warning.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        interval = cvi.accuracy_interval(from_fold_counts(counts), averaging=averaging, drop_failing_folds=True)
    assert interval.details["dropped_folds"] == () and any("no fold is dropped" in note for note in interval.notes)
    if averaging == "dataset":
        assert interval.method == "clopper-pearson" and not caught
    else:
        assert interval.method == "t" and any("gives the exact" in str(w.message) for w in caught)


def test_drop_failing_folds_is_refused_for_the_binomial_methods():
    with pytest.raises(ValueError, match="needs no large-sample conditions"):
        cvi.accuracy_interval(from_fold_counts([38, 30, 28]), method="clopper-pearson", drop_failing_folds=True)


def test_drop_failing_folds_has_nothing_to_drop_under_leave_one_out():
    interval = cvi.accuracy_interval(from_correctness([True] * 148 + [False] * 2), drop_failing_folds=True)
    assert interval.details["dropped_folds"] == () and interval.method == "clopper-pearson"
    assert any("leave-one-out" in note for note in interval.notes)


def test_drop_failing_folds_is_a_no_op_when_all_hold():
    result = from_fold_counts(WONG_EXAMPLE_1)
    dropped = cvi.accuracy_interval(result, drop_failing_folds=True)
    assert _numbers(dropped) == _numbers(cvi.accuracy_interval(result)) and dropped.details["dropped_folds"] == ()


@pytest.mark.parametrize(("averaging", "method"), [("dataset", "normal"), ("fold", "t"), ("fold", "normal")])
def test_explicit_normal_or_t_with_failing_conditions_warns(averaging, method):
    with pytest.warns(cvi.InferenceWarning, match="large-sample conditions fail") as record:
        interval = cvi.accuracy_interval(from_fold_counts([38, 30, 28, 31, 33]), averaging=averaging, method=method)
    assert interval.method == method and len(interval.warnings) == len(record) == 1
    assert interval.warnings[0] == str(record[0].message)


def test_inference_warnings_point_at_the_callers_line():
    with pytest.warns(cvi.InferenceWarning) as record:
        cvi.accuracy_interval(from_fold_counts([38, 30, 28, 31, 33]), method="normal")
        cvi.matched_sample_test(*pair_from_table(30, 0, 0, 10))
    assert {w.filename for w in record} == {__file__}


def test_explicit_exact_methods_with_failing_conditions_do_not_warn():
    result = from_fold_counts([38, 30, 28, 31, 33])
    for method in ("wilson", "clopper-pearson"):
        assert cvi.accuracy_interval(result, method=method).warnings == ()


def _numbers(interval):
    details = interval.details
    return (interval.estimate, interval.low, interval.high, details["standard_error"], details["critical_value"],
            details["df"], details["n"], interval.method, details["averaging"])


@pytest.mark.parametrize(("averaging", "method"),
                         [("dataset", "normal"), ("dataset", "wilson"), ("dataset", "clopper-pearson"),
                          ("fold", "t"), ("fold", "normal"), ("dataset", "auto")])
@pytest.mark.parametrize("repeat", [0, 1, 2])
def test_repeat_equals_a_single_repeat_result(repeat, averaging, method):
    rows = ([32, 28, 30, 30, 32], [30, 27, 30, 26, 30], [33, 31, 29, 35, 30])
    pooled = from_repeats(*rows)
    single = from_correctness(pooled.correct[repeat], pooled.fold[repeat])
    got = cvi.accuracy_interval(pooled, averaging=averaging, method=method, repeat=repeat)
    expected = cvi.accuracy_interval(single, averaging=averaging, method=method)
    assert _numbers(got) == pytest.approx(_numbers(expected))
    assert got.warnings == ()


def test_pooled_repeats_warn_and_average_the_repeats():
    pooled = from_repeats([32, 28, 30, 30, 32], [30, 27, 30, 26, 30])
    with pytest.warns(cvi.InferenceWarning, match="repeats of cross-validation are pooled") as record:
        interval = cvi.accuracy_interval(pooled)
    assert len(record) == 1 and interval.warnings == (str(record[0].message),)
    p = (152 + 143) / 400
    assert interval.estimate == pytest.approx(p) and interval.details["n"] == 200
    assert interval.details["standard_error"] == pytest.approx(math.sqrt(p * (1 - p) / 200))  # n, not n * n_repeats


@pytest.mark.parametrize("n_repeats", [2, 5])
def test_pooling_identical_repeats_does_not_narrow_the_dataset_interval(n_repeats):
    # The repeats reuse the same instances (Wong 2015, section 4.3.4): the dataset-level standard
    # error counts the n instances once, so r identical repeats give the interval of one.
    pooled = from_repeats(*[WONG_EXAMPLE_1] * n_repeats)
    with pytest.warns(cvi.InferenceWarning, match="pooled"):
        interval = cvi.accuracy_interval(pooled, method="normal")
    single = cvi.accuracy_interval(from_fold_counts(WONG_EXAMPLE_1), method="normal")
    assert _numbers(interval) == pytest.approx(_numbers(single))


FOLD_LEVEL_CALLS = {
    "fold interval": lambda a, b: cvi.accuracy_interval(a, averaging="fold"),
    "matched t": lambda a, b: cvi.matched_sample_test(a, b),
    "independent t": lambda a, b: cvi.independent_sample_test(a, b, method="independent-t"),
}


def _fold_level_numbers(obj):
    if isinstance(obj, cvi.results.Interval):
        return _numbers(obj)
    return obj.estimate, obj.statistic, obj.pvalue, obj.df, obj.standard_error


@pytest.mark.parametrize("kind", list(FOLD_LEVEL_CALLS))
@pytest.mark.parametrize("n_repeats", [2, 5])
def test_pooling_identical_repeats_does_not_narrow_the_fold_level_results(n_repeats, kind):
    # The pooled-repeats warning says "the interval is one repeat's at that average: it counts the n
    # instances and the k folds once, so repeating does not narrow it", and the Notes give the pooled fold level
    # as s / sqrt(k) with k - 1 df (Wong 2015, section 4.3.4: repeats are not independent).
    # r copies of one repeat therefore must give that repeat's fold-level interval and tests.
    call = FOLD_LEVEL_CALLS[kind]
    a_rows, b_rows = WONG_EXAMPLE_1, [30, 27, 30, 26, 30]
    with pytest.warns(cvi.InferenceWarning, match="pooled"):
        pooled = call(from_repeats(*[a_rows] * n_repeats), from_repeats(*[b_rows] * n_repeats))
    single = call(from_fold_counts(a_rows), from_fold_counts(b_rows))
    assert _fold_level_numbers(pooled) == pytest.approx(_fold_level_numbers(single))


STATSMODELS_METHOD = {"normal": "normal", "wilson": "wilson", "clopper-pearson": "beta"}
SCIPY_METHOD = {"wilson": "wilson", "clopper-pearson": "exact"}


@pytest.mark.parametrize("confidence_level", LEVELS)
@pytest.mark.parametrize("method", list(STATSMODELS_METHOD))
@needs_statsmodels
def test_pooled_interval_is_one_repeat_at_the_average_count(method, confidence_level):
    # Docstring (Notes, "Pooled repeats"): the interval of one repeat of n at the average count
    # x = p n, here 295 / 2 = 147.5 of 200. Oracle: statsmodels proportion_confint, which takes a
    # non-integer count ("beta" is Clopper-Pearson's beta-quantile form).
    pooled = from_repeats([32, 28, 30, 30, 32], [30, 27, 30, 26, 30])
    with pytest.warns(cvi.InferenceWarning, match="pooled"):
        interval = cvi.accuracy_interval(pooled, confidence_level, method=method)
    expected = proportion_confint(147.5, 200, alpha=1 - confidence_level, method=STATSMODELS_METHOD[method])
    assert tuple(interval) == pytest.approx(expected, abs=1e-12)
    assert interval.estimate == pytest.approx(pooled.accuracy) == 147.5 / 200 and interval.details["n"] == 200


@pytest.mark.parametrize("confidence_level", LEVELS)
@pytest.mark.parametrize("method", list(SCIPY_METHOD))
def test_pooled_binomial_interval_at_a_whole_average_count_equals_scipy(method, confidence_level):
    # 152, 143 and 158 correct of 200: the average count is 151, a whole number, so the pooled
    # interval is the exact (or Wilson) interval of 151 of 200 (oracle: scipy binomtest).
    pooled = from_repeats([32, 28, 30, 30, 32], [30, 27, 30, 26, 30], [33, 31, 29, 35, 30])
    with pytest.warns(cvi.InferenceWarning, match="pooled"):
        interval = cvi.accuracy_interval(pooled, confidence_level, method=method)
    expected = stats.binomtest(151, 200).proportion_ci(confidence_level, method=SCIPY_METHOD[method])
    assert tuple(interval) == pytest.approx((expected.low, expected.high), abs=1e-12)
    assert any("average count, 151 correct" in note for note in interval.notes)


@pytest.mark.parametrize("method", list(SCIPY_METHOD))
def test_one_repeat_binomial_interval_is_scipys(method):
    # One repeat: the pooled rule is the usual interval, scipy's to the last bit.
    result = from_fold_counts([32, 28, 30, 30, 32])
    interval = cvi.accuracy_interval(result, method=method)
    expected = stats.binomtest(152, 200).proportion_ci(0.95, method=SCIPY_METHOD[method])
    assert (interval.low, interval.high) == (expected.low, expected.high) and interval.notes == ()


def test_more_repeats_do_not_widen_the_binomial_interval():
    # The old rule spanned the per-repeat intervals and widened with every repeat that moved a
    # bound; the average's interval is as wide as one repeat's (all accuracies here are above 1/2).
    rows = ([32, 28, 30, 30, 32], [30, 27, 30, 26, 30], [33, 31, 29, 35, 30])
    for method in SCIPY_METHOD:
        per_repeat = [stats.binomtest(k, 200).proportion_ci(0.95, method=SCIPY_METHOD[method]) for k in (152, 143, 158)]
        with pytest.warns(cvi.InferenceWarning, match="pooled"):
            pooled = cvi.accuracy_interval(from_repeats(*rows), method=method)
        assert pooled.high - pooled.low <= max(ci.high - ci.low for ci in per_repeat)
        assert pooled.low > min(ci.low for ci in per_repeat) and pooled.high < max(ci.high for ci in per_repeat)


def test_pooled_repeats_with_failing_conditions_take_the_exact_interval_at_the_average_count():
    failing = from_repeats([38, 28, 30, 30, 32], [30, 27, 30, 26, 30])
    with pytest.warns(cvi.InferenceWarning, match="pooled"):
        interval = cvi.accuracy_interval(failing)
    assert interval.method == "clopper-pearson" and interval.conditions[0].failing_by_repeat == ((0,), ())
    # (158 + 143) / 2 = 150.5 of 200; Clopper & Pearson's beta quantiles (Brown, Cai & DasGupta 2001).
    expected = (stats.beta.ppf(0.025, 150.5, 200 - 150.5 + 1), stats.beta.ppf(0.975, 151.5, 200 - 150.5))
    assert tuple(interval) == pytest.approx(expected, abs=1e-12)


def test_matched_test_pooled_repeats_warn():
    a = from_repeats([32, 28, 30, 30, 32], [30, 27, 30, 26, 30])
    b = from_repeats([30, 27, 30, 26, 30], [29, 26, 28, 27, 31])
    with pytest.warns(cvi.InferenceWarning, match="pooled"):
        test = cvi.matched_sample_test(a, b)
    assert test.df == 4  # repeats add no independent folds
    single = cvi.matched_sample_test(a, b, repeat=1)
    expected = stats.ttest_rel(a.fold_accuracy[1], b.fold_accuracy[1])
    assert single.statistic == pytest.approx(expected.statistic) and single.warnings == ()


def test_matched_test_refuses_different_folds_and_sizes():
    a = from_fold_counts(WONG_EXAMPLE_1)
    other_folds = from_fold_counts([32, 28, 30, 30, 32], seed=1)
    with pytest.raises(ValueError, match=r"identical folds.*independent_sample_test"):
        cvi.matched_sample_test(a, other_folds)
    with pytest.raises(ValueError, match=r"n_samples=200.*n_samples=160.*independent_sample_test"):
        cvi.matched_sample_test(a, from_fold_counts([32, 28, 30, 30]))
    different_labels = cvi.CVResult(y_true=np.r_[np.zeros(100, int), np.ones(100, int)],
                                    y_pred=np.zeros(200, int), fold=a.fold[0])
    with pytest.raises(ValueError, match=r"y_true.*CVEvaluator\.compare"):
        cvi.matched_sample_test(a, different_labels)


def test_independent_test_accepts_different_k_and_n():
    a = from_fold_counts(WONG_EXAMPLE_1)
    b = from_fold_counts([15, 14, 12, 13, 12, 11, 15, 14], sizes=20)
    for method in ("independent-z", "independent-t"):
        test = cvi.independent_sample_test(a, b, method=method)
        assert math.isfinite(test.statistic) and 0 <= test.pvalue <= 1
        assert test.diagnostic is None and any("not tested on the same instances" in n for n in test.notes)
    assert "A's fitted to" in test.estimand


def test_independent_test_on_identical_folds_points_to_the_matched_test():
    a, b = from_fold_counts(WONG_EXAMPLE_1), from_fold_counts([30, 27, 30, 26, 30])
    test = cvi.independent_sample_test(a, b)
    assert test.diagnostic is not None and any("matched_sample_test" in note for note in test.notes)


def test_mcnemar_refuses_pooled_repeats_without_repeat():
    a = from_repeats([32, 28, 30, 30, 32], [30, 27, 30, 26, 30])
    b = from_repeats([30, 27, 30, 26, 30], [29, 26, 28, 27, 31])
    with pytest.raises(ValueError, match="repeat=0"):
        cvi.mcnemar_test(a, b)
    test = cvi.mcnemar_test(a, b, repeat=1)
    correct_a, correct_b = a.correct[1], b.correct[1]
    assert test.details["a_correct_b_wrong"] == np.count_nonzero(correct_a & ~correct_b)
    assert test.details["a_wrong_b_correct"] == np.count_nonzero(~correct_a & correct_b)


def test_mcnemar_allows_different_folds_on_the_same_instances():
    correct_a, correct_b = table_vectors(30, 12, 4, 14)
    a = from_correctness(correct_a, np.arange(60) % 5)
    b = from_correctness(correct_b, np.arange(60) % 3)
    assert cvi.mcnemar_test(a, b).details["a_correct_b_wrong"] == 12


@pytest.mark.parametrize("exact", [None, True, False])
def test_mcnemar_without_discordant_pairs(exact):
    # Degenerate but computable (DESIGN): p = 1.0, a finite statistic, a warning; never nan or inf.
    a_result, b_result = pair_from_table(30, 0, 0, 10)
    with pytest.warns(cvi.InferenceWarning) as record:
        test = cvi.mcnemar_test(a_result, b_result, exact=exact)
    assert any("no discordant pairs" in str(w.message) for w in record)
    assert test.pvalue == 1.0 and test.statistic == 0 and math.isfinite(test.statistic)
    assert test.estimate == 0.0 and math.isfinite(test.standard_error)
    interval = test.confidence_interval()
    assert math.isfinite(interval.low) and math.isfinite(interval.high)


@pytest.mark.parametrize("loo", [False, True])
def test_matched_t_without_any_difference(loo):
    if loo:
        a, b = pair_from_table(30, 0, 0, 10)
    else:
        a, b = from_fold_counts(WONG_EXAMPLE_1), from_fold_counts(WONG_EXAMPLE_1)
    with pytest.warns(cvi.InferenceWarning) as record:
        test = cvi.matched_sample_test(a, b)
    assert any("do not differ" in str(w.message) for w in record)
    assert test.pvalue == 1.0 and test.statistic == 0.0 and test.estimate == 0.0
    for alternative in ("less", "greater"):  # no evidence either way: p = 1 for every alternative
        with pytest.warns(cvi.InferenceWarning):
            assert cvi.matched_sample_test(a, b, alternative=alternative).pvalue == 1.0


def test_matched_t_with_a_constant_difference_warns():
    # Every fold: A gets 4 more of 40 right than B, so d_j = 0.1 in every fold and s_d = 0.
    # The docstring promises an InferenceWarning "when the differences have no spread"; the
    # test statistic is then infinite and the t test cannot judge it (mcnemar_test can).
    # In floating point 32/40 - 28/40 and 30/40 - 26/40 differ in the last bit, so an exact
    # s_d == 0 check misses this case.
    a, b = from_fold_counts([32, 30, 28, 31, 33]), from_fold_counts([28, 26, 24, 27, 29])
    with pytest.warns(cvi.InferenceWarning, match="no spread"):
        test = cvi.matched_sample_test(a, b)
    assert test.estimate == pytest.approx(0.1)
    assert test.statistic == math.inf and math.isnan(test.pvalue)


def test_matched_t_with_a_constant_difference_exactly_representable_warns():
    # d_j = 0.25 exactly in every fold (10/40 more right): s_d = 0, infinite statistic, warning.
    a, b = from_fold_counts([30, 25, 35, 20]), from_fold_counts([20, 15, 25, 10])
    with pytest.warns(cvi.InferenceWarning, match="no spread"):
        test = cvi.matched_sample_test(a, b)
    assert test.statistic == math.inf and math.isnan(test.pvalue)  # undefined, not "significant"


def test_results_are_immutable():
    a, b = wong_example_2()
    objects = [
        cvi.accuracy_interval(a),
        cvi.large_sample_conditions(a),
        cvi.matched_sample_test(a, b),
        cvi.scheme_diagnostic(a, b),
    ]
    for obj in objects:
        field = dataclasses.fields(obj)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, field, 0)
    test = objects[2]
    with pytest.raises(TypeError):
        test.details["n_0"] = 1
    with pytest.raises(ValueError):
        objects[1].holds[0, 0] = False


def test_reprs_are_one_line():
    a, b = wong_example_2()
    interval = cvi.accuracy_interval(a)
    test = cvi.matched_sample_test(a, b)
    for text, words in [(repr(interval), ("estimate=", "low=", "high=")),
                        (repr(test), ("statistic=", "pvalue=", "estimate=")),
                        (repr(cvi.large_sample_conditions(a)), ("satisfied=",)),
                        (repr(cvi.scheme_diagnostic(a, b)), ("phi=",))]:
        assert "\n" not in text and all(word in text for word in words)
    assert repr(interval).startswith("Interval(") and repr(test).startswith("TestResult(")


def test_interval_unpacks_as_low_high():
    interval = cvi.accuracy_interval(from_fold_counts(WONG_EXAMPLE_1))
    low, high = interval
    assert (low, high) == (interval.low, interval.high) and low < interval.estimate < high


@pytest.mark.parametrize("make_test", [
    lambda a, b, alt: cvi.matched_sample_test(a, b, alternative=alt),
    lambda a, b, alt: cvi.independent_sample_test(a, b, alternative=alt),
    lambda a, b, alt: cvi.independent_sample_test(a, b, method="independent-t", alternative=alt),
    lambda a, b, alt: cvi.mcnemar_test(a, b, alternative=alt),
])
def test_one_sided_confidence_intervals_are_bounded_by_one(make_test):
    # A difference of accuracies lies in [-1, 1]; the open side of a one-sided interval is that bound.
    a, b = from_fold_counts([30, 25, 35, 20, 28]), from_fold_counts([22, 21, 30, 19, 27])
    two_sided = make_test(a, b, "two-sided").confidence_interval(0.9)
    greater = make_test(a, b, "greater").confidence_interval(0.9)
    less = make_test(a, b, "less").confidence_interval(0.9)
    assert greater.high == 1.0 and less.low == -1.0
    # One-sided at 90% uses the 90% quantile, i.e. the bound of the two-sided 80% interval.
    eighty = make_test(a, b, "two-sided").confidence_interval(0.8)
    assert greater.low == pytest.approx(eighty.low) and less.high == pytest.approx(eighty.high)
    # <= because an exact bound may reach the estimate (McNemar with c = 0: theta's upper bound is 1).
    assert two_sided.low < greater.low <= greater.estimate <= less.high <= two_sided.high


def test_two_sided_confidence_interval_is_clipped_to_the_range_of_a_difference():
    # A right on 9 of 10, B wrong on all 10 but one; the Wald interval would pass 1.
    a, b = pair_from_table(1, 8, 0, 1)
    test = quiet(cvi.matched_sample_test, a, b)
    interval = test.confidence_interval(0.999)
    assert -1.0 <= interval.low <= interval.high <= 1.0


def test_sign_convention_positive_when_a_is_more_accurate():
    a, b = from_fold_counts([32, 28, 30, 30, 32]), from_fold_counts([30, 27, 30, 26, 30])
    tests = [cvi.matched_sample_test(a, b), cvi.independent_sample_test(a, b),
             cvi.independent_sample_test(a, b, method="independent-t"), quiet(cvi.mcnemar_test, a, b, exact=False)]
    for test in tests:
        assert test.estimate == pytest.approx(a.accuracy - b.accuracy) and test.estimate > 0
        assert test.statistic > 0
    assert cvi.mcnemar_test(a, b, alternative="greater").pvalue < cvi.mcnemar_test(a, b, alternative="less").pvalue
    for test in [cvi.matched_sample_test(b, a), cvi.independent_sample_test(b, a),
                 cvi.independent_sample_test(b, a, method="independent-t")]:
        assert test.estimate < 0 and test.statistic < 0
    loo_a, loo_b = wong_example_2()  # B more accurate
    assert cvi.matched_sample_test(loo_a, loo_b).statistic < 0


# ---- bad input

BAD_LEVELS = [(0, ValueError), (1, ValueError), (1.5, ValueError), (-0.1, ValueError),
              (float("nan"), ValueError), ("0.95", TypeError), (True, TypeError), (None, TypeError)]


@pytest.mark.parametrize(("level", "error"), BAD_LEVELS)
def test_bad_confidence_level(level, error):
    result = from_fold_counts(WONG_EXAMPLE_1)
    with pytest.raises(error, match="confidence_level"):
        cvi.accuracy_interval(result, level)
    test = cvi.matched_sample_test(result, from_fold_counts([30, 27, 30, 26, 30]))
    with pytest.raises(error, match="confidence_level"):
        test.confidence_interval(level)


def _call_with(name, value):
    a, b = from_fold_counts(WONG_EXAMPLE_1), from_fold_counts([30, 27, 30, 26, 30])
    calls = {
        "interval method": lambda: cvi.accuracy_interval(a, method=value),
        "interval averaging": lambda: cvi.accuracy_interval(a, averaging=value),
        "matched alternative": lambda: cvi.matched_sample_test(a, b, alternative=value),
        "independent alternative": lambda: cvi.independent_sample_test(a, b, alternative=value),
        "independent method": lambda: cvi.independent_sample_test(a, b, method=value),
        "mcnemar alternative": lambda: cvi.mcnemar_test(a, b, alternative=value),
    }
    return calls[name]


CHOICES = {
    "interval method": ("method", ["'auto'", "'normal'", "'t'", "'wilson'", "'clopper-pearson'"],
                        ["norm", "exact", "T"]),
    "interval averaging": ("averaging", ["'dataset'", "'fold'"], ["folds", "data", None]),
    "matched alternative": ("alternative", ["'two-sided'", "'less'", "'greater'"], ["two", "two_sided", "GREATER"]),
    "independent alternative": ("alternative", ["'two-sided'", "'less'", "'greater'"], ["two", "larger"]),
    "independent method": ("method", ["'independent-z'", "'independent-t'"], ["welch", "Z"]),
    "mcnemar alternative": ("alternative", ["'two-sided'", "'less'", "'greater'"], ["two", "smaller"]),
}


@pytest.mark.parametrize(("name", "value"), [(name, value) for name, (_, _, values) in CHOICES.items()
                                             for value in values])
def test_unknown_choice_lists_the_valid_values(name, value):
    parameter, valid, _ = CHOICES[name]
    with pytest.raises(ValueError, match=parameter) as error:
        _call_with(name, value)()
    assert all(choice in str(error.value) for choice in valid)


@pytest.mark.parametrize("min_count", [0, -1])
def test_bad_min_count(min_count):
    a, b = from_fold_counts(WONG_EXAMPLE_1), from_fold_counts([30, 27, 30, 26, 30])
    for call in (lambda: cvi.accuracy_interval(a, min_count=min_count),
                 lambda: cvi.large_sample_conditions(a, min_count),
                 lambda: cvi.matched_sample_test(a, b, min_count=min_count),
                 lambda: cvi.independent_sample_test(a, b, min_count=min_count)):
        with pytest.raises(ValueError, match="min_count"):
            call()
    with pytest.raises(TypeError, match="min_count"):
        cvi.large_sample_conditions(a, 2.5)


def test_method_and_averaging_that_do_not_fit():
    result = from_fold_counts(WONG_EXAMPLE_1)
    with pytest.raises(ValueError, match="averaging='fold'"):
        cvi.accuracy_interval(result, method="t", averaging="dataset")
    for method in ("wilson", "clopper-pearson"):
        with pytest.raises(ValueError, match="averaging='dataset'"):
            cvi.accuracy_interval(result, method=method, averaging="fold")


def test_fold_level_needs_two_folds():
    result = from_correctness(np.arange(40) < 20, np.zeros(40, dtype=int))
    with pytest.raises(ValueError, match="at least two folds"):
        cvi.accuracy_interval(result, averaging="fold")


def test_regression_result_is_refused():
    result, classifier = regression_result(), from_fold_counts(WONG_EXAMPLE_1)
    calls = [lambda: cvi.accuracy_interval(result), lambda: cvi.large_sample_conditions(result),
             lambda: cvi.matched_sample_test(result, result), lambda: cvi.independent_sample_test(classifier, result),
             lambda: cvi.mcnemar_test(result, result), lambda: cvi.scheme_diagnostic(result, result)]
    for call in calls:
        with pytest.raises(ValueError, match=r"regression loss.*'squared_error'"):
            call()


@pytest.mark.parametrize("not_a_result", [np.ones(10), [1, 0, 1], None, "result"])
def test_not_a_cvresult_is_refused(not_a_result):
    result = from_fold_counts(WONG_EXAMPLE_1)
    with pytest.raises(TypeError, match="result must be a CVResult"):
        cvi.accuracy_interval(not_a_result)
    with pytest.raises(TypeError, match="CVResult"):
        cvi.large_sample_conditions(not_a_result)
    # b=None is b left out, which asks for a PairedCVResult as a (tests/inference/test_pair_input.py).
    b_refused = "compares two results" if not_a_result is None else "b must be a CVResult"
    for call in (cvi.matched_sample_test, cvi.independent_sample_test, cvi.mcnemar_test, cvi.scheme_diagnostic):
        with pytest.raises(TypeError, match=b_refused):
            call(result, not_a_result)
        with pytest.raises(TypeError, match="a must be a CVResult"):
            call(not_a_result, result)


def test_a_paired_result_is_not_a_cvresult():
    a, b = from_fold_counts(WONG_EXAMPLE_1), from_fold_counts([30, 27, 30, 26, 30])
    with pytest.raises(TypeError, match="PairedCVResult"):
        cvi.accuracy_interval(cvi.PairedCVResult(a, b))


@pytest.mark.parametrize("repeat", [2, 5, -1])
def test_repeat_out_of_range(repeat):
    pooled = from_repeats([32, 28, 30, 30, 32], [30, 27, 30, 26, 30])
    calls = [lambda: cvi.accuracy_interval(pooled, repeat=repeat),
             lambda: cvi.large_sample_conditions(pooled, repeat=repeat),
             lambda: cvi.matched_sample_test(pooled, pooled, repeat=repeat),
             lambda: cvi.independent_sample_test(pooled, pooled, repeat=repeat),
             lambda: cvi.mcnemar_test(pooled, pooled, repeat=repeat),
             lambda: cvi.scheme_diagnostic(pooled, pooled, repeat=repeat)]
    for call in calls:
        with pytest.raises(ValueError, match="repeat"):
            call()
    with pytest.raises(ValueError, match="repeat"):
        cvi.accuracy_interval(from_fold_counts(WONG_EXAMPLE_1), repeat=1)


def test_non_bool_flags_are_refused():
    a, b = pair_from_table(30, 12, 4, 14)
    with pytest.raises(TypeError, match="exact"):
        cvi.mcnemar_test(a, b, exact="yes")
    with pytest.raises(TypeError, match="correction"):
        cvi.mcnemar_test(a, b, correction=1)
    with pytest.raises(TypeError, match="drop_failing_folds"):
        cvi.accuracy_interval(a, drop_failing_folds=None)


# ---- properties

@st.composite
def fold_counts(draw, n_results=1):
    """Fold sizes m_j (2 to 8 folds of 1 to 30) and, per result, counts r_j in 0 .. m_j."""
    sizes = draw(st.lists(st.integers(1, 30), min_size=2, max_size=8))
    counts = [[draw(st.integers(0, m)) for m in sizes] for _ in range(n_results)]
    return sizes, *counts


@settings(max_examples=60, deadline=None)
@given(fold_counts(), st.sampled_from(LEVELS))
def test_property_intervals_contain_the_estimate(sizes_and_counts, confidence_level):
    sizes, counts = sizes_and_counts
    result = from_fold_counts(counts, sizes)
    for averaging, method in [("dataset", "auto"), ("dataset", "normal"), ("dataset", "wilson"),
                              ("dataset", "clopper-pearson"), ("fold", "t"), ("fold", "normal"), ("fold", "auto")]:
        interval = quiet(cvi.accuracy_interval, result, confidence_level, averaging=averaging, method=method)
        assert 0.0 <= interval.low <= interval.estimate <= interval.high <= 1.0


@st.composite
def repeated_fold_counts(draw):
    """Fold sizes m_j (2 to 6 folds of 1 to 30) and 2 to 5 repeats of counts r_j in 0 .. m_j."""
    sizes = draw(st.lists(st.integers(1, 30), min_size=2, max_size=6))
    n_repeats = draw(st.integers(2, 5))
    return sizes, [[draw(st.integers(0, m)) for m in sizes] for _ in range(n_repeats)]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(repeated_fold_counts(), st.sampled_from(LEVELS))
@needs_statsmodels
def test_property_pooled_interval_is_no_wider_than_one_repeat(sizes_and_rows, confidence_level):
    # Docstring (Notes, "Pooled repeats"): the pooled interval contains the pooled accuracy and is
    # as wide as one repeat's at that accuracy, so it is no wider than the widest per-repeat
    # interval when the per-repeat accuracies lie on one side of 1/2, and never wider than one
    # repeat's at 1/2, the widest any interval of n instances gets (oracle for that: statsmodels).
    sizes, rows = sizes_and_rows
    result = from_repeats(*rows, sizes=sizes)
    n = sum(sizes)
    accuracies = [sum(row) / n for row in rows]
    for method in ("normal", "wilson", "clopper-pearson", "auto"):
        pooled = quiet(cvi.accuracy_interval, result, confidence_level, method=method)
        assert 0.0 <= pooled.low <= pooled.estimate <= pooled.high <= 1.0
        assert pooled.estimate == pytest.approx(np.mean(accuracies)) and pooled.details["n"] == n
        one = [quiet(cvi.accuracy_interval, result, confidence_level, method=pooled.method, repeat=r)
               for r in range(len(rows))]
        width = pooled.high - pooled.low
        if max(accuracies) <= 0.5 or min(accuracies) >= 0.5:
            assert width <= max(i.high - i.low for i in one) + 1e-12
        low, high = proportion_confint(n / 2, n, alpha=1 - confidence_level,
                                       method=STATSMODELS_METHOD[pooled.method])
        assert width <= high - low + 1e-12


@settings(max_examples=60, deadline=None)
@given(fold_counts(n_results=2))
def test_property_pvalues(sizes_and_counts):
    sizes, counts_a, counts_b = sizes_and_counts
    a, b = from_fold_counts(counts_a, sizes), from_fold_counts(counts_b, sizes)
    tests = quiet(_one_sided_tests, a, b)
    for by_alternative in tests.values():
        if by_alternative["two-sided"].standard_error == 0:
            continue  # degenerate: p = 1 (no difference) or nan (no spread), each with a warning
        p = {alt: test.pvalue for alt, test in by_alternative.items()}
        assert all(0.0 <= value <= 1.0 for value in p.values())
        assert p["less"] + p["greater"] == pytest.approx(1.0, abs=1e-9)
        assert p["two-sided"] == pytest.approx(min(1.0, 2 * min(p["less"], p["greater"])), abs=1e-12)
        interval = by_alternative["two-sided"].confidence_interval()
        assert -1.0 <= interval.low <= interval.high <= 1.0
    for exact in (None, True, False):
        test = quiet(cvi.mcnemar_test, a, b, exact=exact)
        assert 0.0 <= test.pvalue <= 1.0 and math.isfinite(test.statistic)


# ---- end to end


@pytest.fixture(scope="module")
def breast_cancer_pair():
    X, y = load_breast_cancer(return_X_y=True)
    logistic = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    return cvi.CVEvaluator(cv=10, random_state=0).compare(logistic, DecisionTreeClassifier(random_state=0), X, y)


@pytest.mark.slow
def test_end_to_end_smoke(breast_cancer_pair):
    a, b = breast_cancer_pair.a, breast_cancer_pair.b
    assert a.n_samples == 569 and a.n_splits == 10
    results = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)  # a fold may fail the conditions
        for result in (a, b):
            results.append(cvi.large_sample_conditions(result))
            for averaging, method in [("dataset", "auto"), ("fold", "auto"), ("dataset", "normal"),
                                      ("dataset", "wilson"), ("dataset", "clopper-pearson"), ("fold", "t")]:
                results.append(cvi.accuracy_interval(result, averaging=averaging, method=method))
            results.append(cvi.accuracy_interval(result, drop_failing_folds=True))
        results += [cvi.matched_sample_test(a, b), cvi.independent_sample_test(a, b),
                    cvi.independent_sample_test(a, b, method="independent-t"), cvi.mcnemar_test(a, b),
                    cvi.mcnemar_test(a, b, exact=True), cvi.mcnemar_test(a, b, exact=False)]
        diagnostic = cvi.scheme_diagnostic(a, b)
    assert math.isfinite(diagnostic.phi) and -1 <= diagnostic.phi <= 1
    for obj in results:
        if isinstance(obj, cvi.results.LargeSampleConditions):
            assert obj.summary()
            continue
        assert obj.estimand and obj.assumptions
        assert obj.summary()
        if isinstance(obj, cvi.results.Interval):
            assert all(math.isfinite(v) for v in (obj.estimate, obj.low, obj.high))
            assert obj.low <= obj.estimate <= obj.high
        else:
            assert all(math.isfinite(v) for v in (obj.statistic, obj.pvalue, obj.estimate, obj.standard_error))
            assert 0 <= obj.pvalue <= 1
            low, high = obj.confidence_interval()
            assert math.isfinite(low) and math.isfinite(high) and low <= obj.estimate <= high
    assert results[-5].estimate == pytest.approx(a.accuracy - b.accuracy)  # independent z: dataset level
    assert results[-6].estimate == pytest.approx(np.mean(a.fold_accuracy - b.fold_accuracy))  # matched: folds


# --------------------------------------------------------------------------- review regressions


def test_leave_one_out_matched_test_with_repeats_has_per_repeat_conditions():
    # LOO repeats are only possible by hand; each repeat's n_-1, n_0, n_+1 form one row of counts.
    correct_a = np.array([[True] * 30 + [False] * 10] * 2)
    correct_b = np.array([[True] * 20 + [False] * 10 + [True] * 10] * 2)
    with pytest.warns(cvi.InferenceWarning, match="pooled"):
        test = cvi.matched_sample_test(from_correctness(correct_a), from_correctness(correct_b))
    (conditions,) = test.conditions
    assert conditions.holds.shape == (2, 1) and conditions.summary()
    assert dict(test.details) == {"n_-1": 10, "n_0": 20, "n_+1": 10, "variant": "leave-one-out"}


def test_fold_tests_need_two_folds_and_say_so():
    one_fold = from_correctness([True] * 20 + [False] * 10, fold=np.zeros(30, dtype=int))
    for call in (lambda: cvi.matched_sample_test(one_fold, one_fold),
                 lambda: cvi.independent_sample_test(one_fold, one_fold, method="independent-t"),
                 lambda: cvi.accuracy_interval(one_fold, averaging="fold", method="t")):
        with pytest.raises(ValueError, match="n_splits=1"):
            call()
    assert "(one fold)" in one_fold.summary()
    assert "McNemar" in cvi.PairedCVResult(one_fold, one_fold).summary()


def test_results_compare_by_content_and_do_not_hash():
    interval = cvi.accuracy_interval(from_fold_counts(WONG_EXAMPLE_1))
    assert interval == cvi.accuracy_interval(from_fold_counts(WONG_EXAMPLE_1))
    assert interval != cvi.accuracy_interval(from_fold_counts(WONG_EXAMPLE_1), 0.9)
    with pytest.raises(TypeError):
        hash(interval)


def test_numpy_scalars_are_accepted_for_flags_and_levels():
    result = from_fold_counts([38, 30, 28, 31, 2, 33])
    a, b = pair_from_table(30, 12, 4, 14)
    interval = quiet(cvi.accuracy_interval, result, np.array(0.9), drop_failing_folds=np.True_)
    assert interval.details["dropped_folds"] == (0, 4)
    assert quiet(cvi.mcnemar_test, a, b, exact=np.False_, correction=np.True_).details["variant"] == "chi-square"


def test_summaries_print_confidence_levels_without_rounding_them_away():
    interval = cvi.accuracy_interval(from_fold_counts(WONG_EXAMPLE_1), 0.975)
    assert interval.summary().startswith("97.5% normal interval")


def test_phi_note_states_the_variance_factor_of_the_independence_assumption():
    # Var(d) = V_A + V_B - 2 cov; with equal variances, assuming independence overstates it 1 / (1 - phi) times.
    diagnostic = cvi.scheme_diagnostic(*pair_from_table(30, 12, 4, 14))
    assert f"{1 / (1 - diagnostic.phi):.2g} times" in diagnostic.note
