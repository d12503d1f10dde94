"""Holdout, random subsampling, the corrected resampled t and the Bayesian correlated t.

Oracles:

* the corrected t is recomputed here from its formula,
  t = mean(d) / sqrt((1/N + n_test/n_train) s^2) with N - 1 degrees of freedom:
  Nadeau & Bengio (2003), "Inference for the generalization error", Machine
  Learning 52 (random subsampling, N = J rounds), and Bouckaert & Frank (2004),
  "Evaluating the replicability of significance tests for comparing learning
  algorithms", PAKDD (repeated k-fold, N = k r fold differences);
* the Bayesian correlated t-test's posterior is Student t with n - 1 degrees of
  freedom, location mean(d) and scale s sqrt(1/n + rho/(1 - rho)): Corani &
  Benavoli (2015); Benavoli, Corani, Demsar & Zaffalon (2017), JMLR 18(77),
  section 3; the probabilities are recomputed with ``scipy.stats.t.cdf``;
* the holdout's exact interval is ``scipy.stats.binomtest(...).proportion_ci``
  (Kohavi 1995, "Confidence Bounds": the correct count is binomial);
* random subsampling's refusal follows Kohavi (1995), "Random Subsampling".
"""

import dataclasses
import math

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

pytestmark = pytest.mark.filterwarnings("error::cvinference.InferenceWarning")

X_IRIS, Y_IRIS = load_iris(return_X_y=True)


# --------------------------------------------------------------------------- helpers


def kfold_results(counts_a, counts_b, sizes=40, seed=0):
    """Two CVResults on identical folds with counts[r][j] correct in fold j of repeat r.

    Each repeat assigns the folds to the instances in its own random order,
    as repeated cross-validation does; all true labels are 1.
    """
    counts_a, counts_b = np.atleast_2d(counts_a), np.atleast_2d(counts_b)
    n_repeats, k = counts_a.shape
    sizes = np.broadcast_to(sizes, (k,))
    rng = np.random.default_rng(seed)
    folds, preds_a, preds_b = [], [], []
    for r in range(n_repeats):
        fold = rng.permutation(np.repeat(np.arange(k), sizes))
        rank = np.empty(fold.size, dtype=int)  # position of each instance within its fold
        for j in range(k):
            rank[fold == j] = np.arange(sizes[j])
        folds.append(fold)
        preds_a.append((rank < counts_a[r][fold]).astype(int))
        preds_b.append((rank < counts_b[r][fold]).astype(int))
    y_true = np.ones(folds[0].size, dtype=int)
    return (cvi.CVResult(y_true=y_true, y_pred=preds_a, fold=folds),
            cvi.CVResult(y_true=y_true, y_pred=preds_b, fold=folds))


def subsampling_results(n=90, n_rounds=12, test_size=1 / 3, p_a=0.8, p_b=0.7, seed=0):
    """Two SubsamplingResults on the same ShuffleSplit test sets with random correctness."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    splits = list(StratifiedShuffleSplit(n_rounds, test_size=test_size, random_state=seed).split(y, y))
    test_indices = np.stack([test for _, test in splits])
    n_train = len(splits[0][0])
    make = lambda p: cvi.records.SubsamplingResult(  # noqa: E731
        test_indices=test_indices, correct=rng.random(test_indices.shape) < p, y_true=y, n_train=n_train)
    return make(p_a), make(p_b)


def corrected_t_oracle(d, n_test_over_n_train, alternative="two-sided"):
    """Nadeau & Bengio (2003) / Bouckaert & Frank (2004), computed with numpy and scipy."""
    d = np.ravel(d)
    n = d.size
    se = math.sqrt((1 / n + n_test_over_n_train) * np.var(d, ddof=1))
    t = d.mean() / se
    p = {"two-sided": 2 * stats.t.sf(abs(t), n - 1), "greater": stats.t.sf(t, n - 1),
         "less": stats.t.cdf(t, n - 1)}[alternative]
    return t, p, se


def bayes_oracle(d, rho, margin):
    """Posterior probabilities of Corani & Benavoli (2015) with scipy.stats.t.cdf."""
    d = np.ravel(d)
    n = d.size
    loc, scale = d.mean(), np.std(d, ddof=1) * math.sqrt(1 / n + rho / (1 - rho))
    below, above = stats.t.cdf(-margin, n - 1, loc, scale), stats.t.cdf(margin, n - 1, loc, scale)
    return {"prob_b_better": below, "prob_equivalent": above - below, "prob_a_better": 1 - above,
            "posterior_mean": loc, "posterior_scale": scale}


REPEATED_A = [[32, 28, 30, 30, 32], [31, 30, 29, 33, 29], [30, 31, 28, 32, 30]]
REPEATED_B = [[30, 27, 30, 26, 30], [30, 29, 30, 28, 30], [31, 28, 29, 27, 30]]


@pytest.fixture(scope="module")
def iris_pair():
    """CVEvaluator(cv=5, n_repeats=3, random_state=0).compare on iris."""
    evaluator = cvi.CVEvaluator(cv=5, n_repeats=3, random_state=0)
    return evaluator.compare(GaussianNB(), DecisionTreeClassifier(max_depth=1, random_state=0), X_IRIS, Y_IRIS)


# --------------------------------------------------------------------------- corrected resampled t


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_corrected_t_repeated_kfold_by_hand(alternative):
    a, b = kfold_results(REPEATED_A, REPEATED_B)
    d = (np.array(REPEATED_A) - np.array(REPEATED_B)) / 40
    t, p, se = corrected_t_oracle(d, 40 / 160, alternative)  # m_j / (n - m_j) = 40 / 160
    test = cvi.corrected_resampled_ttest(a, b, alternative=alternative)
    assert test.statistic == pytest.approx(t, rel=1e-12)
    assert test.pvalue == pytest.approx(p, rel=1e-12)
    assert test.standard_error == pytest.approx(se, rel=1e-12)
    assert test.df == 14
    assert test.estimate == pytest.approx(d.mean(), rel=1e-12)
    assert test.details["k"] == 5 and test.details["r"] == 3
    assert test.details["variance_factor"] == pytest.approx(1 / 15 + 1 / 4)
    assert sorted(test.details["d"]) == pytest.approx(sorted(d.ravel()))


def test_corrected_t_unequal_folds_uses_mean_of_m_over_n_minus_m():
    sizes = [21, 21, 21, 20, 20]  # n = 103, k = 5: sizes differ by one
    counts_a, counts_b = [[17, 15, 16, 14, 17], [16, 18, 15, 15, 16]], [[15, 15, 14, 15, 14], [16, 15, 16, 13, 15]]
    a, b = kfold_results(counts_a, counts_b, sizes=sizes)
    m = np.array([sizes, sizes])
    d = (np.array(counts_a) - np.array(counts_b)) / m
    ratio = np.mean(m / (103 - m))
    t, p, _ = corrected_t_oracle(d, ratio)
    test = cvi.corrected_resampled_ttest(a, b)
    assert test.details["n_test_over_n_train"] == pytest.approx(ratio, rel=1e-12)
    assert test.statistic == pytest.approx(t, rel=1e-12)
    assert test.pvalue == pytest.approx(p, rel=1e-12)


def test_corrected_t_on_cvevaluator_compare(iris_pair):
    a, b = iris_pair.a, iris_pair.b
    d = a.fold_accuracy - b.fold_accuracy
    ratio = np.mean(a.fold_sizes / (a.n_samples - a.fold_sizes))
    t, p, se = corrected_t_oracle(d, ratio)
    test = cvi.corrected_resampled_ttest(a, b)
    assert (test.statistic, test.pvalue, test.df) == (pytest.approx(t), pytest.approx(p), 14)
    assert test.statistic > 0  # GaussianNB beats a stump on iris: accuracy(A) - accuracy(B) > 0
    assert (test.method, test.details["variant"]) == ("corrected-t", "repeated k-fold")
    assert "Bouckaert & Frank" in test.assumptions and "heuristic" in test.assumptions
    low, high = test.confidence_interval(0.9)
    half = stats.t.ppf(0.95, 14) * se
    assert (low, high) == (pytest.approx(d.mean() - half), pytest.approx(d.mean() + half))


def test_corrected_t_single_kfold_differs_from_matched_t_by_the_factor():
    k = 5
    a, b = kfold_results(REPEATED_A[0], REPEATED_B[0])
    plain = cvi.matched_sample_test(a, b)
    corrected = cvi.corrected_resampled_ttest(a, b)
    factor = math.sqrt((1 / k + 1 / (k - 1)) / (1 / k))
    assert plain.statistic / corrected.statistic == pytest.approx(factor, rel=1e-12)
    assert corrected.standard_error / plain.standard_error == pytest.approx(factor, rel=1e-12)
    assert corrected.estimate == pytest.approx(plain.estimate) and corrected.df == plain.df == k - 1
    assert corrected.pvalue > plain.pvalue


def test_corrected_t_on_subsampling_by_hand():
    a, b = subsampling_results()
    d = a.round_accuracy - b.round_accuracy
    t, p, _se = corrected_t_oracle(d, a.n_test / a.n_train)  # 1/J + n_test/n_train, df = J - 1
    test = cvi.corrected_resampled_ttest(a, b)
    assert test.statistic == pytest.approx(t, rel=1e-12)
    assert test.pvalue == pytest.approx(p, rel=1e-12)
    assert test.df == 11 and test.details["n_rounds"] == 12
    assert (test.method, test.details["variant"]) == ("corrected-t", "resampled")
    assert "derived for independent random" in test.assumptions
    assert "averaged over training sets" in test.estimand and f"{a.n_train} instances" in test.estimand


def test_corrected_t_on_random_subsampling_with_same_random_state():
    a = cvi.evaluation.random_subsampling(GaussianNB(), X_IRIS, Y_IRIS, n_rounds=8, random_state=1)
    b = cvi.evaluation.random_subsampling(DecisionTreeClassifier(max_depth=1, random_state=0), X_IRIS, Y_IRIS,
                                          n_rounds=8, random_state=1)
    assert np.array_equal(a.test_indices, b.test_indices)
    t, p, _ = corrected_t_oracle(a.round_accuracy - b.round_accuracy, 50 / 100)
    test = cvi.corrected_resampled_ttest(a, b)
    assert (test.statistic, test.pvalue) == (pytest.approx(t), pytest.approx(p))


def test_corrected_t_identical_results_warn_and_give_p_one():
    a, _ = kfold_results(REPEATED_A, REPEATED_B)
    with pytest.warns(cvi.InferenceWarning, match="do not differ"):
        test = cvi.corrected_resampled_ttest(a, a)
    assert (test.statistic, test.pvalue, test.estimate) == (0.0, 1.0, 0.0)
    assert test.warnings


def test_corrected_t_constant_nonzero_differences_warn_and_give_an_undefined_pvalue():
    a, b = kfold_results([[30] * 5, [30] * 5], [[28] * 5, [28] * 5])
    with pytest.warns(cvi.InferenceWarning, match="no spread"):
        test = cvi.corrected_resampled_ttest(a, b)
    assert test.statistic == math.inf and math.isnan(test.pvalue)


def test_corrected_t_summary_says_what_it_estimates():
    a, b = kfold_results(REPEATED_A, REPEATED_B)
    text = cvi.corrected_resampled_ttest(a, b).summary()
    assert "corrected t (repeated k-fold)" in text and "estimand:" in text
    assert "variance factor 1/15 + n_test/n_train" in text


# --------------------------------------------------------------------------- Bayesian correlated t


@pytest.mark.parametrize("margin", [0.0, 0.01, 0.05])
def test_bayesian_repeated_kfold_against_scipy(margin):
    a, b = kfold_results(REPEATED_A, REPEATED_B)
    d = (np.array(REPEATED_A) - np.array(REPEATED_B)) / 40
    expected = bayes_oracle(d, rho=1 / 5, margin=margin)
    result = cvi.bayesian_correlated_ttest(a, b, margin=margin)
    for name, value in expected.items():
        assert getattr(result, name) == pytest.approx(value, rel=1e-10, abs=1e-15), name
    assert (result.df, result.rho, result.margin) == (14, pytest.approx(0.2), margin)
    total = result.prob_a_better + result.prob_equivalent + result.prob_b_better
    assert total == pytest.approx(1.0, abs=1e-12)


def test_bayesian_margin_zero_gives_no_equivalence():
    a, b = kfold_results(REPEATED_A, REPEATED_B)
    result = cvi.bayesian_correlated_ttest(a, b, margin=0)
    assert result.prob_equivalent == 0.0
    assert result.prob_a_better + result.prob_b_better == pytest.approx(1.0)


@pytest.mark.parametrize("margin", [1, 2.5])
def test_a_margin_of_one_or_more_is_refused_as_wider_than_any_accuracy_difference(margin):
    a, b = kfold_results(REPEATED_A, REPEATED_B)
    with pytest.raises(ValueError, match=rf"margin must be a difference of accuracies.*such as 0\.01.*holds every "
                                         rf"difference.*got margin={margin}\."):
        cvi.bayesian_correlated_ttest(a, b, margin=margin)


def test_bayesian_on_subsampling_uses_n_test_over_n():
    a, b = subsampling_results(p_a=0.75, p_b=0.75, seed=3)
    rho = a.n_test / a.n_samples
    result = cvi.bayesian_correlated_ttest(a, b)
    expected = bayes_oracle(a.round_accuracy - b.round_accuracy, rho=rho, margin=0.01)
    assert result.rho == pytest.approx(rho)
    for name, value in expected.items():
        assert getattr(result, name) == pytest.approx(value, rel=1e-10), name


def test_bayesian_sign_convention(iris_pair):
    forward = cvi.bayesian_correlated_ttest(iris_pair.a, iris_pair.b)
    backward = cvi.bayesian_correlated_ttest(iris_pair.b, iris_pair.a)
    assert forward.posterior_mean > 0  # A (GaussianNB) is more accurate than B (a stump)
    assert forward.prob_a_better > forward.prob_b_better
    assert backward.posterior_mean == pytest.approx(-forward.posterior_mean)
    assert backward.prob_a_better == pytest.approx(forward.prob_b_better)
    assert backward.prob_b_better == pytest.approx(forward.prob_a_better)


def test_bayesian_degenerate_is_a_point_mass_without_nan():
    a, b = kfold_results([[30] * 5, [30] * 5], [[28] * 5, [28] * 5])  # every difference is 0.05
    with pytest.warns(cvi.InferenceWarning, match="point mass"):
        result = cvi.bayesian_correlated_ttest(a, b, margin=0.01)
    assert (result.prob_a_better, result.prob_equivalent, result.prob_b_better) == (1.0, 0.0, 0.0)
    assert result.posterior_scale == 0.0 and result.warnings
    with pytest.warns(cvi.InferenceWarning, match="point mass"):
        same = cvi.bayesian_correlated_ttest(a, a, margin=0.0)
    assert (same.prob_a_better, same.prob_equivalent, same.prob_b_better) == (0.0, 1.0, 0.0)


def test_bayesian_result_repr_summary_and_frozen():
    a, b = kfold_results(REPEATED_A, REPEATED_B)
    result = cvi.bayesian_correlated_ttest(a, b)
    assert repr(result).startswith("BayesianResult(prob_a_better=") and "\n" not in repr(result)
    text = result.summary()
    assert "P(A better)" in text and "Student t, df = 14" in text and "estimand:" in text
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.margin = 0.5


# --------------------------------------------------------------------------- holdout


def test_holdout_clopper_pearson_is_the_binomial_interval():
    result = cvi.evaluation.holdout(GaussianNB(), X_IRIS, Y_IRIS, test_size=0.3, random_state=0)
    correct = int(np.count_nonzero(result.correct))
    interval = cvi.accuracy_interval(result, method="clopper-pearson")
    expected = stats.binomtest(correct, result.n_samples).proportion_ci(0.95, method="exact")
    assert (interval.low, interval.high) == (pytest.approx(expected.low), pytest.approx(expected.high))
    assert "105 instances" in interval.estimand  # the training size


def test_holdout_sizes_and_result_layout():
    estimator = GaussianNB()
    result = cvi.evaluation.holdout(estimator, X_IRIS, Y_IRIS, random_state=0)
    assert result.n_train + result.n_samples == 150
    assert result.n_samples == math.ceil(150 / 3)
    assert result.n_splits == 1 and not result.fold.any()
    assert result.estimator_repr == "GaussianNB()" and "holdout(test_size=0.3333" in result.cv_repr
    assert not hasattr(estimator, "classes_")  # cloned, never fitted


def test_holdout_equals_train_test_split_and_is_stratified():
    result = cvi.evaluation.holdout(GaussianNB(), X_IRIS, Y_IRIS, random_state=3)
    X_train, X_test, y_train, y_test = train_test_split(X_IRIS, Y_IRIS, test_size=1 / 3, stratify=Y_IRIS,
                                                        random_state=3)
    assert np.array_equal(result.y_true, y_test)
    assert np.array_equal(result.y_pred[0], GaussianNB().fit(X_train, y_train).predict(X_test))
    assert np.abs(np.bincount(result.y_true) - 50 / 3).max() < 1  # 16 or 17 of each class


def test_holdout_accepts_pandas():
    pd = pytest.importorskip("pandas")
    X = pd.DataFrame(X_IRIS, index=np.arange(150) * 3)
    y = pd.Series(Y_IRIS, index=X.index)
    plain = cvi.evaluation.holdout(GaussianNB(), X_IRIS, Y_IRIS, random_state=0)
    framed = cvi.evaluation.holdout(GaussianNB(), X, y, random_state=0)
    assert np.array_equal(plain.y_pred, framed.y_pred)


# --------------------------------------------------------------------------- random subsampling


@pytest.fixture(scope="module")
def subsampled():
    return cvi.evaluation.random_subsampling(GaussianNB(), X_IRIS, Y_IRIS, n_rounds=10, random_state=0, n_jobs=1)


def test_random_subsampling_test_sets_overlap(subsampled):
    counts = np.bincount(subsampled.test_indices.ravel(), minlength=150)
    assert counts.max() >= 2  # some instance is tested in two rounds: rounds are not independent
    assert all(len(set(row)) == subsampled.n_test for row in subsampled.test_indices.tolist())


def test_random_subsampling_accuracy_is_mean_of_rounds(subsampled):
    assert np.array_equal(subsampled.round_accuracy, subsampled.correct.mean(axis=1))
    assert subsampled.accuracy == pytest.approx(subsampled.round_accuracy.mean())
    assert (subsampled.n_rounds, subsampled.n_train, subsampled.n_test, subsampled.n_samples) == (10, 100, 50, 150)


def test_random_subsampling_rounds_are_stratified_shuffle_splits(subsampled):
    splitter = StratifiedShuffleSplit(10, test_size=1 / 3, random_state=0)
    for (train, test), indices, correct in zip(splitter.split(X_IRIS, Y_IRIS), subsampled.test_indices,
                                               subsampled.correct, strict=True):
        assert np.array_equal(indices, test)
        assert np.array_equal(correct, GaussianNB().fit(X_IRIS[train], Y_IRIS[train]).predict(X_IRIS[test])
                              == Y_IRIS[test])


def test_random_subsampling_without_stratify_is_shuffle_split():
    result = cvi.evaluation.random_subsampling(GaussianNB(), X_IRIS, Y_IRIS, n_rounds=4, stratify=False, random_state=2)
    splitter = ShuffleSplit(4, test_size=1 / 3, random_state=2)
    for (train, test), indices, correct in zip(splitter.split(X_IRIS), result.test_indices, result.correct,
                                               strict=True):
        assert np.array_equal(indices, test)
        assert np.array_equal(correct, GaussianNB().fit(X_IRIS[train], Y_IRIS[train]).predict(X_IRIS[test])
                              == Y_IRIS[test])


def test_random_subsampling_same_for_n_jobs_1_and_2(subsampled):
    parallel = cvi.evaluation.random_subsampling(GaussianNB(), X_IRIS, Y_IRIS, n_rounds=10, random_state=0, n_jobs=2)
    assert np.array_equal(parallel.test_indices, subsampled.test_indices)
    assert np.array_equal(parallel.correct, subsampled.correct)


@pytest.mark.parametrize("test", [
    lambda a, b: cvi.matched_sample_test(a, b),
    lambda a, b: cvi.independent_sample_test(a, b),
    lambda a, b: cvi.mcnemar_test(a, b),
    lambda a, b: cvi.accuracy_interval(a),
], ids=["matched", "independent", "mcnemar", "interval"])
def test_random_subsampling_naive_inference_is_refused_with_kohavis_reason(subsampled, test):
    with pytest.raises(TypeError) as info:
        test(subsampled, subsampled)
    message = str(info.value)
    assert "Kohavi" in message and "overlap" in message and "not independent" in message
    assert "corrected_resampled_ttest" in message


def test_subsampling_result_repr_summary_and_read_only(subsampled):
    assert repr(subsampled) == (f"SubsamplingResult(n_samples=150, n_rounds=10, n_train=100, n_test=50, "
                                f"accuracy={subsampled.accuracy:.4g})")
    text = subsampled.summary()
    assert "Kohavi" in text and "corrected_resampled_ttest" in text and "StratifiedShuffleSplit" in text
    for array in (subsampled.test_indices, subsampled.correct, subsampled.y_true, subsampled.round_accuracy):
        assert not array.flags.writeable
    with pytest.raises(dataclasses.FrozenInstanceError):
        subsampled.n_train = 3


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("test_size", [0, 1, 1.5, -0.1, 0.0, 1.0, float("nan")])
@pytest.mark.parametrize("function", [cvi.evaluation.holdout, cvi.evaluation.random_subsampling])
def test_test_size_outside_zero_one(function, test_size):
    with pytest.raises(ValueError, match="test_size"):
        function(GaussianNB(), X_IRIS, Y_IRIS, test_size=test_size)


@pytest.mark.parametrize("test_size", ["0.3", True, None])
def test_test_size_not_a_number(test_size):
    with pytest.raises(TypeError, match="test_size"):
        cvi.evaluation.holdout(GaussianNB(), X_IRIS, Y_IRIS, test_size=test_size)


def test_stratify_must_be_bool():
    with pytest.raises(TypeError, match="stratify"):
        cvi.evaluation.random_subsampling(GaussianNB(), X_IRIS, Y_IRIS, stratify="yes")


@pytest.mark.parametrize("n_rounds, error", [(1, ValueError), (0, ValueError), (-3, ValueError), (2.5, TypeError)])
def test_n_rounds_below_two(n_rounds, error):
    with pytest.raises(error, match="n_rounds"):
        cvi.evaluation.random_subsampling(GaussianNB(), X_IRIS, Y_IRIS, n_rounds=n_rounds)


@pytest.mark.parametrize("margin, error", [(-0.01, ValueError), (float("nan"), ValueError), (math.inf, ValueError),
                                         ("0.01", TypeError), (None, TypeError)])
def test_margin_must_be_a_number_at_least_zero(margin, error):
    a, b = kfold_results(REPEATED_A, REPEATED_B)
    with pytest.raises(error, match="margin"):
        cvi.bayesian_correlated_ttest(a, b, margin=margin)


TESTS = [cvi.corrected_resampled_ttest, cvi.bayesian_correlated_ttest]


@pytest.mark.parametrize("test", TESTS)
def test_mismatched_folds_are_refused(test):
    a, _ = kfold_results(REPEATED_A, REPEATED_B, seed=0)
    _, b = kfold_results(REPEATED_A, REPEATED_B, seed=1)
    with pytest.raises(ValueError, match="identical folds"):
        test(a, b)
    fewer, _ = kfold_results(REPEATED_A[:2], REPEATED_B[:2], seed=0)
    with pytest.raises(ValueError, match="identical folds"):
        test(fewer, b)


@pytest.mark.parametrize("test", TESTS)
def test_leave_one_out_is_refused(test):
    n = 30
    a = cvi.CVResult(y_true=np.ones(n, dtype=int), y_pred=np.r_[np.ones(20, int), np.zeros(10, int)],
                     fold=np.arange(n))
    b = cvi.CVResult(y_true=np.ones(n, dtype=int), y_pred=np.r_[np.ones(15, int), np.zeros(15, int)],
                     fold=np.arange(n))
    with pytest.raises(ValueError, match="leave-one-out"):
        test(a, b)


@pytest.mark.parametrize("test", TESTS)
def test_holdouts_with_one_fold_are_refused(test):
    a = cvi.evaluation.holdout(GaussianNB(), X_IRIS, Y_IRIS, random_state=0)
    b = cvi.evaluation.holdout(DecisionTreeClassifier(max_depth=1), X_IRIS, Y_IRIS, random_state=0)
    with pytest.raises(ValueError, match="two folds"):
        test(a, b)


@pytest.mark.parametrize("test", TESTS)
def test_mismatched_subsampling_rounds_are_refused(test):
    a, _ = subsampling_results(seed=0)
    _, b = subsampling_results(seed=1)
    with pytest.raises(ValueError, match="test indices differ"):
        test(a, b)
    other = cvi.records.SubsamplingResult(test_indices=a.test_indices, correct=a.correct,
                                          y_true=np.roll(a.y_true, 1), n_train=a.n_train)
    with pytest.raises(ValueError, match="y_true"):
        test(a, other)


@pytest.mark.parametrize("test", TESTS)
def test_mixed_or_foreign_results_are_refused(test):
    cv_a, _ = kfold_results(REPEATED_A, REPEATED_B)
    sub_a, _ = subsampling_results()
    with pytest.raises(TypeError, match="same scheme"):
        test(cv_a, sub_a)
    with pytest.raises(TypeError, match="got b of type list"):
        test(cv_a, [0.8, 0.7])


def test_alternative_is_checked():
    a, b = kfold_results(REPEATED_A, REPEATED_B)
    with pytest.raises(ValueError, match="alternative"):
        cvi.corrected_resampled_ttest(a, b, alternative="bigger")


@pytest.mark.parametrize("kwargs, match", [
    ({"test_indices": [[0, 1]], "correct": [[True]]}, "correct"),
    ({"test_indices": [[0, 9]], "correct": [[True, True]]}, "test_indices"),
    ({"test_indices": [[0, 1]], "correct": [[True, True]], "n_train": 3}, "n_train"),
    ({"test_indices": np.zeros((0, 2), dtype=int), "correct": np.zeros((0, 2), dtype=bool)}, "n_rounds >= 1"),
])
def test_subsampling_result_checks_its_arrays(kwargs, match):
    kwargs = {"y_true": [0, 1, 0, 1], "n_train": 2} | kwargs
    with pytest.raises(ValueError, match=match):
        cvi.records.SubsamplingResult(**kwargs)
