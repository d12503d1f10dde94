"""compare_on_datasets: every statistic against an independent oracle, named in each test.

Oracles: scipy (friedmanchisquare, wilcoxon, rankdata on a hand-built table), statsmodels
(multipletests), hand computations from the formulas of Demšar (2006), "Statistical comparisons of
classifiers over multiple data sets", JMLR 7:1-30, and the numbers printed in that paper (Table 2 and
its Wilcoxon T, Table 5(a), Table 6 and its Friedman, Iman-Davenport and Nemenyi figures).
"""

import dataclasses
import io
import json
import math
import pickle
import types
import warnings

import numpy as np
import pytest
from scipy import stats

import cvinference as cvi
from cvinference.model_selection._datasets import (
    critical_difference,
    iman_davenport,
    nemenyi_groups,
    nemenyi_pvalues,
    nemenyi_q,
)

pytestmark = pytest.mark.filterwarnings("ignore:Only N = :cvinference.InferenceWarning")
"""Most tests here use a few datasets; the warning about so few is tested on its own (pytest.warns sees it)."""

LEARNERS = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")

# Demšar (2006), Table 6: AUC of C4.5 with and without m-tuning and cf-tuning on 14 datasets, as printed
# (three decimals), in ten-thousandths so that the ties of the printed values are exact. One printed tie is
# broken: on voting, C4.5+cf and C4.5+m+cf both print 0.975, but the ranks of the table (2 and 3) and its
# average ranks (2.893 and 1.964) put C4.5+cf first, so it is written 9751 against 9750. The first two
# columns are Table 2.
DEMSAR_TABLE_6 = np.array([
    [7630, 7680, 7710, 7980],  # adult (sample)
    [5990, 5910, 5900, 5690],  # breast cancer
    [9540, 9710, 9680, 9670],  # breast cancer wisconsin
    [6280, 6610, 6540, 6570],  # cmc
    [8820, 8880, 8860, 8980],  # ionosphere
    [9360, 9310, 9160, 9310],  # iris
    [6610, 6680, 6090, 6850],  # liver disorders
    [5830, 5830, 5630, 6250],  # lung cancer
    [7750, 8380, 8660, 8750],  # lymphography
    [10000, 10000, 10000, 10000],  # mushroom
    [9400, 9620, 9650, 9620],  # primary tumor
    [6190, 6660, 6140, 6690],  # rheum
    [9720, 9810, 9751, 9750],  # voting
    [9570, 9780, 9460, 9700],  # wine
])


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return function(*args, **kwargs)


def _random_scores(seed, n=15, k=5, ties=True):
    """Scores rounded to two decimals (ties) or not. With ties or zero differences and N <= 13 scipy's
    Wilcoxon test runs a permutation test over all 2^N sign changes, which takes a second; N = 15 avoids it."""
    rng = np.random.default_rng(seed)
    scores = np.round(rng.uniform(0.6, 0.95, size=(n, k)) + np.linspace(0, 0.05, k), 2 if ties else 12)
    return scores


@pytest.fixture(scope="module")
def demsar():
    return cvi.compare_on_datasets(DEMSAR_TABLE_6, learners=LEARNERS)


# --------------------------------------------------------------------------- Demšar's worked examples


def test_demsar_table_6_average_ranks_friedman_and_critical_difference(demsar):
    """Demšar (2006), section 3.2.2 on Table 6: average ranks 3.143, 2.000, 2.893, 1.964; chi2_F = 9.28;
    F_F = 3.69; CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25."""
    np.testing.assert_allclose(demsar.table["average_rank"], [3.143, 2.000, 2.893, 1.964], atol=5e-4)
    # Demšar's chi2_F has no correction for ties; scipy's divides it by C = 1 - sum(t^3 - t) / (N k (k^2 - 1)).
    # The ties, counted by hand: mushroom (4 tied: 60), lung cancer, iris and primary tumor (2 tied: 6 each).
    tie_correction = 1 - (60 + 3 * 6) / (14 * 4 * 15)
    assert demsar.friedman.statistic * tie_correction == pytest.approx(9.28, abs=0.005)
    assert demsar.friedman.df == 3
    assert round(iman_davenport(9.28, 14, 4)[0], 2) == 3.69
    assert demsar.friedman.iman_davenport_df == (3, 39)
    assert demsar.critical_difference == pytest.approx(1.25, abs=0.005)


def test_demsar_table_6_nemenyi_groups(demsar):
    """Demšar (2006), section 3.2.2: C4.5 and C4.5+m+cf differ by 3.143 - 1.964 = 1.179 < CD = 1.25, so
    Nemenyi separates no two learners: one group of all four. At alpha = 0.10, q = 2.291 (Table 5(a)) and CD
    = 1.12 < 1.179: C4.5+m+cf and C4.5 differ; by hand the groups are then {C4.5+m+cf, C4.5+m, C4.5+cf}
    (1.964 .. 2.893) and {C4.5+cf, C4.5} (2.893 .. 3.143), C4.5+m .. C4.5 spanning 1.143 >= 1.12."""
    assert demsar.groups == (("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"),)
    at_10 = cvi.compare_on_datasets(DEMSAR_TABLE_6, learners=LEARNERS, alpha=0.10)
    assert at_10.critical_difference == pytest.approx(1.12, abs=0.005)
    assert at_10.groups == (("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5"))
    frame = at_10.to_frame().set_index("learner")
    assert frame["nemenyi_different_from_control"].to_dict() == {
        "C4.5+m+cf": False, "C4.5+m": False, "C4.5+cf": False, "C4.5": True}


def test_demsar_table_2_wilcoxon_with_two_learners():
    """Demšar (2006), section 3.1.3 on Table 2 (C4.5 against C4.5+m): with the zero differences split,
    R+ = 93 and R- = 12, T = min(R+, R-) = 12, below the critical value 21 for N = 14 at alpha = 0.05.
    With two learners Friedman's test is not defined: nan and a warning."""
    with pytest.warns(cvi.InferenceWarning, match="two learners, the Wilcoxon signed-rank test"):
        result = cvi.compare_on_datasets(DEMSAR_TABLE_6[:, :2], learners=LEARNERS[:2], control="C4.5")
    assert result.table["statistic"][1] == 12
    assert result.table["pvalue"][1] < 0.05
    assert result.table["pvalue_adjusted"][1] == result.table["pvalue"][1]  # a family of one
    assert math.isnan(result.friedman.statistic) and math.isnan(result.friedman.pvalue)
    assert math.isnan(result.friedman.iman_davenport_statistic)
    assert any("two learners" in warning for warning in result.warnings)


# --------------------------------------------------------------------------- Friedman and Iman-Davenport


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", [True, False])
def test_friedman_is_scipys(seed, ties):
    scores = _random_scores(seed, ties=ties)
    expected = stats.friedmanchisquare(*scores.T)
    result = cvi.compare_on_datasets(scores)
    assert result.friedman.statistic == expected.statistic
    assert result.friedman.pvalue == expected.pvalue
    assert result.friedman.df == scores.shape[1] - 1


def test_friedman_without_ties_is_demsars_formula():
    """Demšar (2006), section 3.2.2: chi2_F = 12 N / (k (k + 1)) [sum R_j^2 - k (k + 1)^2 / 4], by hand."""
    scores = _random_scores(7, ties=False)
    n, k = scores.shape
    ranks = stats.rankdata(-scores, axis=1)
    average = ranks.mean(axis=0)
    by_hand = 12 * n / (k * (k + 1)) * (np.sum(average**2) - k * (k + 1) ** 2 / 4)
    assert cvi.compare_on_datasets(scores).friedman.statistic == pytest.approx(by_hand, rel=1e-12)


@pytest.mark.parametrize("scores", [DEMSAR_TABLE_6, _random_scores(3), _random_scores(4, ties=False)])
def test_iman_davenport_is_the_formula_and_the_anova_f_of_the_ranks(scores):
    """Iman & Davenport (1980), as Demšar (2006, section 3.2.2) gives it: F = (N - 1) chi2 / (N (k - 1) - chi2)
    with (k - 1, (k - 1)(N - 1)) df. From the tie-corrected chi2 it equals the two-way ANOVA F of the ranks
    (treatments = learners, blocks = datasets), computed here from sums of squares."""
    result = cvi.compare_on_datasets(scores)
    n, k = scores.shape
    chi2 = result.friedman.statistic
    by_formula = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert result.friedman.iman_davenport_statistic == pytest.approx(by_formula, rel=1e-12)
    ranks = stats.rankdata(-scores, axis=1)
    treatments = n * np.sum((ranks.mean(axis=0) - ranks.mean()) ** 2)
    residual = np.sum((ranks - ranks.mean(axis=0) - ranks.mean(axis=1, keepdims=True) + ranks.mean()) ** 2)
    anova_f = (treatments / (k - 1)) / (residual / ((k - 1) * (n - 1)))
    assert result.friedman.iman_davenport_statistic == pytest.approx(anova_f, rel=1e-10)
    assert result.friedman.iman_davenport_pvalue == pytest.approx(stats.f.sf(anova_f, k - 1, (k - 1) * (n - 1)))
    assert result.friedman.iman_davenport_df == (k - 1, (k - 1) * (n - 1))


def test_perfect_agreement_leaves_iman_davenport_nan_with_a_note():
    """Every dataset ranks the learners alike: chi2 = N (k - 1) and F's denominator is 0."""
    scores = np.array([[0.9, 0.8, 0.7], [0.6, 0.5, 0.4], [0.95, 0.9, 0.85], [0.8, 0.7, 0.6]])
    result = cvi.compare_on_datasets(scores)
    assert result.friedman.statistic == pytest.approx(4 * 2)
    assert math.isnan(result.friedman.iman_davenport_statistic)
    assert math.isnan(result.friedman.iman_davenport_pvalue)
    assert any("Iman-Davenport F is infinite" in note for note in result.notes)


def test_scores_all_equal_give_nan_friedman_and_warnings():
    with pytest.warns(cvi.InferenceWarning) as caught:
        result = cvi.compare_on_datasets(np.full((4, 3), 0.8))
    assert math.isnan(result.friedman.statistic)
    assert result.table["pvalue"][1:].tolist() == [1.0, 1.0]
    assert any("same score on every dataset" in str(w.message) for w in caught)


# --------------------------------------------------------------------------- ranks


def test_average_ranks_with_ties_by_hand():
    """Rank 1 is the best; tied learners share the mean of their ranks."""
    scores = np.array([[0.9, 0.8, 0.8], [0.7, 0.7, 0.7], [0.5, 0.6, 0.7]])
    higher = _quiet(cvi.compare_on_datasets, scores)
    np.testing.assert_array_equal(higher.ranks, [[1, 2.5, 2.5], [2, 2, 2], [3, 2, 1]])
    np.testing.assert_allclose(higher.table["average_rank"], [6 / 3, 6.5 / 3, 5.5 / 3])
    lower = _quiet(cvi.compare_on_datasets, scores, greater_is_better=False)
    np.testing.assert_array_equal(lower.ranks, [[3, 1.5, 1.5], [2, 2, 2], [1, 2, 3]])
    assert higher.control == "learner 2" and lower.control == "learner 1"  # the best average rank


# --------------------------------------------------------------------------- Nemenyi


# Demšar (2006), Table 5(a): critical values q_alpha of the two-tailed Nemenyi test, k = 2 .. 10.
TABLE_5A = {0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
            0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]}


@pytest.mark.parametrize("alpha", sorted(TABLE_5A))
def test_nemenyi_q_is_demsars_table_5a(alpha):
    for k, printed in zip(range(2, 11), TABLE_5A[alpha], strict=True):
        assert nemenyi_q(k, alpha) == pytest.approx(printed, abs=1e-3), k


def test_critical_difference_by_hand():
    """k = 3, N = 6, alpha = 0.05: CD = 2.343 sqrt(3 * 4 / (6 * 6)) = 1.3527 (q from Table 5(a))."""
    assert critical_difference(3, 6, 0.05) == pytest.approx(2.343 * math.sqrt(12 / 36), abs=1e-3)
    result = cvi.compare_on_datasets(_random_scores(0, n=6, k=3))
    assert result.critical_difference == critical_difference(3, 6, 0.05)


def test_nemenyi_pvalues_with_two_learners_are_the_normal_test():
    """With k = 2 the range of two standard normals is sqrt(2) |Z|, so p = 2 (1 - Phi(z))."""
    p = nemenyi_pvalues([1.3, 1.7], n_datasets=10)
    z = 0.4 / math.sqrt(2 * 3 / 60)
    assert p[0, 1] == pytest.approx(2 * stats.norm.sf(z), rel=1e-6)
    assert p[1, 0] == p[0, 1] and p[0, 0] == p[1, 1] == 1.0


def test_a_rank_difference_of_cd_has_nemenyi_p_alpha():
    """The pairwise p-values and the critical difference are the same test: p(|R_i - R_j| = CD) = alpha."""
    k, n = 5, 20
    cd = critical_difference(k, n, 0.05)
    p = nemenyi_pvalues([1.0, 1.0 + cd, 3.0, 4.0, 5.0], n)
    assert p[0, 1] == pytest.approx(0.05, rel=1e-6)
    assert np.allclose(np.diag(p), 1.0) and np.array_equal(p, p.T)


def test_groups_on_hand_built_ranks():
    """Sorted ranks 1.0, 1.5, 2.4, 3.1, 4.5 and CD = 1.0: the runs with span < 1.0 are {a, b} (0.5),
    {b, c} (0.9), {c, d} (0.7); e is 1.4 from d, alone, so in no group."""
    assert nemenyi_groups(("a", "b", "c", "d", "e"), [1.0, 1.5, 2.4, 3.1, 4.5], 1.0) == (
        ("a", "b"), ("b", "c"), ("c", "d"))
    # a run contained in another is dropped; the learners come in order of rank, not of input
    assert nemenyi_groups(("x", "y", "z"), [2.0, 1.0, 1.5], 1.5) == (("y", "z", "x"),)
    assert nemenyi_groups(("x", "y"), [1.0, 2.0], 1.0) == ()  # a difference of exactly CD is significant


# --------------------------------------------------------------------------- Wilcoxon and Holm


@pytest.mark.parametrize("n", [10, 15])  # scipy's permutation test, and its normal approximation
def test_wilcoxon_is_scipys_on_the_same_differences(n):
    scores = _random_scores(5, n=n, k=4)
    scores[2, 3] = scores[2, 1]  # a zero difference, split by zsplit
    result = cvi.compare_on_datasets(scores, control="learner 1")
    for j in (0, 2, 3):
        expected = stats.wilcoxon(scores[:, j] - scores[:, 1], zero_method="zsplit")
        assert result.table["statistic"][j] == expected.statistic
        assert result.table["pvalue"][j] == expected.pvalue
    assert np.isnan([result.table["statistic"][1], result.table["pvalue"][1], result.table["pvalue_adjusted"][1]]).all()


@pytest.mark.parametrize("correction", ["holm", "bonferroni"])
def test_adjusted_wilcoxon_pvalues_equal_statsmodels(correction):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    scores = _random_scores(6, n=15, k=6)
    result = cvi.compare_on_datasets(scores, control="learner 5", correction=correction)
    expected = multitest.multipletests(result.table["pvalue"][:5], method=correction)[1]
    np.testing.assert_allclose(result.table["pvalue_adjusted"][:5], expected, rtol=1e-12)
    frame = result.to_frame().set_index("learner")
    decided = frame["different_from_control"].drop("learner 5")
    assert decided.tolist() == (frame["pvalue_adjusted"].drop("learner 5") <= 0.05).tolist()
    assert not frame.loc["learner 5", "different_from_control"]


def test_no_correction_keeps_the_pvalues():
    result = cvi.compare_on_datasets(_random_scores(1), correction="none")
    np.testing.assert_array_equal(result.table["pvalue_adjusted"], result.table["pvalue"])


def test_all_zero_differences_give_p_one_with_a_warning():
    scores = _random_scores(2, k=3)
    scores[:, 2] = scores[:, 0]
    with pytest.warns(cvi.InferenceWarning, match="learner 2 and the control learner 0 have the same score"):
        result = cvi.compare_on_datasets(scores, control="learner 0")
    assert result.table["pvalue"][2] == 1.0
    assert result.table["statistic"][2] == 15 * 16 / 4  # R+ = R- when every difference is split
    assert any("same score on every dataset" in warning for warning in result.warnings)


def test_few_datasets_get_a_note_that_wilcoxon_cannot_reject():
    """The smallest exact two-sided p-value on n datasets is 2 / 2**n (every difference of one sign); Holm
    multiplies the smallest of k - 1 p-values by k - 1: 4 datasets, 3 learners: 2 / 16 * 2 = 0.25; with 6
    datasets the raw 2 / 64 = 0.031 could reach 0.05, but not after the adjustment (0.0625)."""
    with pytest.warns(cvi.InferenceWarning, match="Only N = 4 datasets"):
        result = cvi.compare_on_datasets(_random_scores(0, n=4, k=3))
    assert any("no adjusted Wilcoxon p-value can fall below 0.25" in note for note in result.notes)
    six = cvi.compare_on_datasets(_random_scores(0, n=6, k=3))
    assert any("no adjusted Wilcoxon p-value can fall below 0.0625" in note for note in six.notes)
    unadjusted = cvi.compare_on_datasets(_random_scores(0, n=6, k=3), correction="none")
    assert not any("can fall below" in note for note in unadjusted.notes)


@pytest.mark.parametrize("n", [2, 5])
def test_five_datasets_or_fewer_warn_with_demsars_rule_and_what_the_result_means(n):
    # issue 28: 2 datasets gave tests and no warning. Oracle for the threshold: scipy's exact Wilcoxon test on
    # N differences of one sign gives its smallest two-sided p-value, 2 / 2**N: 0.0625 for N = 5 (above 0.05),
    # 0.03125 for N = 6 (Demšar 2006, section 3.1.3, uses this exact test for few datasets).
    assert stats.wilcoxon(np.arange(1.0, 6.0)).pvalue == pytest.approx(0.0625)
    assert stats.wilcoxon(np.arange(1.0, 7.0)).pvalue == pytest.approx(0.03125)
    with pytest.warns(cvi.InferenceWarning, match=rf"Only N = {n} datasets: Demšar \(2006\) asks for N > 10 .* "
                                                  rf"below 2 / 2\*\*N = {2 / 2**n:.3g}.*still describe these {n} "
                                                  "datasets"):
        result = cvi.compare_on_datasets(_random_scores(0, n=n, k=3))
    assert result.table["average_rank"].shape == (3,)
    assert sum("Only N =" in warning for warning in result.warnings) == 1
    assert not any("is an approximation" in note for note in result.notes)  # the warning says it


def test_six_datasets_get_the_approximation_note_and_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", cvi.InferenceWarning)
        result = cvi.compare_on_datasets(_random_scores(0, n=6, k=3))
    assert any("With N = 6 datasets and k = 3 learners the chi-square" in note for note in result.notes)


@pytest.mark.parametrize("name", ["datasets", "learners"])
def test_names_that_are_not_a_sequence_are_a_type_error_naming_the_parameter(name):
    # issue 28: datasets=5 gave "object of type 'int' has no len()".
    with pytest.raises(TypeError, match=rf"^{name} must be a sequence of \d names, one for each of the \w+ of "
                                        rf"scores, or None; got {name}=5\.$"):
        cvi.compare_on_datasets(_random_scores(0, n=6, k=3), **{name: 5})


# --------------------------------------------------------------------------- cross-validation results


@pytest.fixture(scope="module")
def cv_results():
    """Three learners on three small datasets, each dataset's learners on identical folds (same int seed)."""
    from sklearn.datasets import load_breast_cancer, load_iris, load_wine
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.tree import DecisionTreeClassifier

    learners = {"bayes": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0),
                "knn": KNeighborsClassifier()}
    evaluator = cvi.CVEvaluator(cv=5, n_repeats=2, random_state=0)
    results = {}
    for name, load in (("iris", load_iris), ("wine", load_wine), ("breast cancer", load_breast_cancer)):
        X, y = load(return_X_y=True)
        paired = evaluator.compare(learners["bayes"], learners["tree"], X, y)
        results[name] = {"bayes": paired.a, "tree": paired.b, "knn": evaluator.evaluate(learners["knn"], X, y)}
    return results


def test_cv_results_give_accuracies_and_the_corrected_resampled_t_per_dataset(cv_results):
    result = cvi.compare_on_datasets(cv_results, control="tree", confidence_level=0.9)
    assert result.datasets == ("iris", "wine", "breast cancer") and result.learners == ("bayes", "tree", "knn")
    for i, dataset in enumerate(result.datasets):
        for j, learner in enumerate(result.learners):
            assert result.scores[i, j] == cv_results[dataset][learner].accuracy
            if learner == "tree":
                assert np.isnan([result.dataset_table["estimate"][i, j], result.dataset_table["low"][i, j],
                                 result.dataset_table["high"][i, j], result.dataset_table["pvalue"][i, j]]).all()
                continue
            test = cvi.corrected_resampled_ttest(cv_results[dataset][learner], cv_results[dataset]["tree"])
            interval = test.confidence_interval(0.9)
            assert result.dataset_table["estimate"][i, j] == test.estimate
            figures = result.dataset_table
            assert (figures["low"][i, j], figures["high"][i, j]) == (interval.low, interval.high)
            assert result.dataset_table["pvalue"][i, j] == test.pvalue
    frame = result.dataset_frame()
    assert list(frame.columns) == ["dataset", "learner", "score", "rank", "estimate", "low", "high", "pvalue"]
    row = frame[(frame.dataset == "wine") & (frame.learner == "knn")].iloc[0]
    assert (row.low, row.high) == (result.dataset_table["low"][1, 2], result.dataset_table["high"][1, 2])


def test_the_summary_counts_the_wins_inside_the_noise(cv_results):
    result = cvi.compare_on_datasets(cv_results, control="bayes")
    text = result.summary()
    inside = (result.dataset_table["low"] <= 0) & (result.dataset_table["high"] >= 0)
    difference = result.scores - result.scores[:, [0]]
    for j, learner in ((1, "tree"), (2, "knn")):
        wins, losses = difference[:, j] > 0, difference[:, j] < 0
        assert (f"{learner} against bayes: wins {wins.sum()}, losses {losses.sum()}, ties "
                f"{(~wins & ~losses).sum()}; inside the noise (95% corrected resampled t interval containing 0): "
                f"{(wins & inside[:, j]).sum()} of the wins and {(losses & inside[:, j]).sum()} of the losses."
                ) in " ".join(text.split())


def test_cv_results_on_different_folds_are_refused_naming_the_dataset(cv_results):
    from sklearn.datasets import load_iris
    from sklearn.dummy import DummyClassifier

    X, y = load_iris(return_X_y=True)
    other_folds = cvi.CVEvaluator(cv=5, n_repeats=2, random_state=1).evaluate(DummyClassifier(), X, y)
    mixed = dict(cv_results, iris={**cv_results["iris"], "knn": other_folds})
    with pytest.raises(ValueError, match=r"scores\['iris'\]: knn against the control .*identical folds"):
        cvi.compare_on_datasets(mixed)


def test_cv_results_are_compared_by_accuracy_only(cv_results):
    with pytest.raises(ValueError, match="greater_is_better must be True with CVResults"):
        cvi.compare_on_datasets(cv_results, greater_is_better=False)


def test_cv_results_round_trip_through_json(cv_results):
    result = cvi.compare_on_datasets(cv_results)
    _assert_round_trip(result)


# --------------------------------------------------------------------------- the result object


def _assert_same(original, again, where="result"):
    """Equal in every field, with the same types; nan equals nan."""
    assert type(again) is type(original), where
    if dataclasses.is_dataclass(original):
        for field in dataclasses.fields(original):
            _assert_same(getattr(original, field.name), getattr(again, field.name), f"{where}.{field.name}")
    elif isinstance(original, np.ndarray):
        assert (again.dtype, again.shape, again.flags.writeable) == (original.dtype, original.shape, False), where
        np.testing.assert_array_equal(again, original, err_msg=where)
    elif isinstance(original, types.MappingProxyType):
        assert list(again) == list(original), where
        for key, value in original.items():
            _assert_same(value, again[key], f"{where}[{key!r}]")
    elif isinstance(original, tuple):
        assert len(again) == len(original), where
        for i, (x, y) in enumerate(zip(original, again, strict=True)):
            _assert_same(x, y, f"{where}[{i}]")
    elif isinstance(original, float) and math.isnan(original):
        assert math.isnan(again), where
    else:
        assert again == original, where


def _assert_round_trip(result):
    again = cvi.results.DatasetComparison.from_dict(json.loads(json.dumps(result.to_dict(), allow_nan=False)))
    _assert_same(result, again)
    assert again.summary() == result.summary() and repr(again) == repr(result)
    _assert_same(result, pickle.loads(pickle.dumps(result)))


def test_round_trip_with_nan_friedman():
    _assert_round_trip(_quiet(cvi.compare_on_datasets, DEMSAR_TABLE_6[:, :2]))


def test_a_dataframe_and_an_array_give_the_same_result():
    pandas = pytest.importorskip("pandas")
    scores = _random_scores(8)
    names = [f"data {i}" for i in range(scores.shape[0])]
    frame = pandas.DataFrame(scores, index=names, columns=list("abcde"))
    from_frame = cvi.compare_on_datasets(frame, control="c", alpha=0.1)
    from_array = cvi.compare_on_datasets(scores, datasets=names, learners=list("abcde"), control="c", alpha=0.1)
    _assert_same(from_frame, from_array)
    from_lists = cvi.compare_on_datasets(scores.tolist(), datasets=names, learners=list("abcde"), control="c",
                                         alpha=0.1)
    _assert_same(from_frame, from_lists)


def test_array_names_default_to_numbered_ones():
    result = cvi.compare_on_datasets(_random_scores(0, n=3, k=3))
    assert result.datasets == ("dataset 0", "dataset 1", "dataset 2")
    assert result.learners == ("learner 0", "learner 1", "learner 2")


def test_to_frame_is_sorted_by_average_rank(demsar):
    frame = demsar.to_frame()
    assert list(frame.columns) == ["learner", "average_rank", "mean_score", "statistic", "pvalue",
                                   "pvalue_adjusted", "different_from_control", "nemenyi_different_from_control"]
    assert frame["learner"].tolist() == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert frame["average_rank"].is_monotonic_increasing
    np.testing.assert_allclose(frame["mean_score"], DEMSAR_TABLE_6.mean(axis=0)[[3, 1, 2, 0]])
    assert demsar.dataset_frame().shape == (14 * 4, 4)


def test_summary_mentions_the_key_numbers(demsar):
    text = demsar.summary()
    assert str(demsar) == text
    for piece in (f"chi2 = {demsar.friedman.statistic:.4g}", "df = 3", "df = (3, 39)",
                  f"CD = {demsar.critical_difference:.4g}", "control: C4.5+m+cf", "'holm'",
                  "Different from the control (Wilcoxon, holm, alpha = 0.05): C4.5.",
                  "{C4.5+m+cf, C4.5+m, C4.5+cf, C4.5}", "corrected for tied ranks"):
        assert piece in " ".join(text.split()), piece
    assert demsar.table["pvalue_adjusted"][0] <= 0.05  # C4.5, as the summary says
    assert "<pre" in demsar._repr_html_() and "C4.5+m+cf" in demsar._repr_html_()
    assert repr(demsar).startswith("DatasetComparison(learners=4, datasets=14, control='C4.5+m+cf'")


def test_plot_draws_the_critical_difference_diagram(demsar, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "cd.png"
    demsar.plot(path=path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    drawn = demsar.plot()
    axis = drawn.ax_
    assert drawn.axes_ == (axis,) and drawn.figure_.axes == [axis]  # one panel, on a figure of its own
    texts = [text.get_text() for text in axis.texts]
    assert any(text.startswith("CD = 1.25") for text in texts)
    for learner, rank in zip(demsar.learners, demsar.table["average_rank"], strict=True):
        assert f"{learner} ({rank:.2f})" in texts
    assert [str(tick) for tick in range(1, 5)] == [text for text in texts if text.isdigit()]
    import matplotlib.pyplot as plt

    plt.close(axis.figure)


def test_plot_draws_on_the_axes_given_and_keeps_a_former_path_for_one_release(demsar, tmp_path, caplog):
    plt = pytest.importorskip("matplotlib.pyplot")
    figure, (left, right) = plt.subplots(1, 2, figsize=(14, 3))
    with caplog.at_level("WARNING", logger="matplotlib"):
        assert demsar.plot(ax=right).ax_ is right
        figure.canvas.draw()
    assert not caplog.records  # its limits and equal aspect agree: matplotlib ignores neither
    assert not left.texts and any(text.get_text().startswith("CD = 1.25") for text in right.texts)
    assert not right.axison and right.get_aspect() == 1.0
    plt.close("all")
    for former in (str(tmp_path / "former.png"), io.BytesIO()):  # a path first, as before the release
        with pytest.raises(ValueError, match=r"ax must be a matplotlib Axes.*a file name as path="):
            demsar.plot(former)
    assert not (tmp_path / "former.png").exists()
    assert not plt.get_fignums()  # the figures the library made are closed once saved
    figure, axis = plt.subplots(figsize=(8, 3))
    demsar.plot(ax=axis, path=tmp_path / "on_mine.png")
    assert plt.fignum_exists(figure.number) and (tmp_path / "on_mine.png").stat().st_size > 0  # the user's stays
    plt.close(figure)


# --------------------------------------------------------------------------- refused input


@pytest.mark.parametrize("kwargs, error, match", [
    ({"alpha": 0}, ValueError, r"^alpha must be a significance level strictly between 0 and 1, such as 0.05; got"),
    ({"alpha": 1.5}, ValueError, "alpha must be a significance level"),
    ({"alpha": "0.05"}, TypeError, "alpha must be a significance level"),
    ({"confidence_level": 95}, ValueError, "confidence_level must be a number strictly between 0 and 1"),
    ({"correction": "BH"}, ValueError, r"correction must be one of 'holm', 'bonferroni', 'none'; got correction='BH'"),
    ({"greater_is_better": "yes"}, TypeError, "greater_is_better must be True or False"),
    ({"control": "nobody"}, ValueError, r"names \['learner 0', .*\], or None for the best average rank; got control="),
    ({"control": 2}, TypeError, "control must be one of the learners' names"),
    ({"learners": ["a", "b"]}, ValueError, r"learners must hold one name for each of the 3 columns of scores"),
    ({"learners": "abc"}, ValueError, "learners must hold one name for each"),
    ({"datasets": ["x"] * 4}, ValueError, r"datasets must name each dataset once; 'x' appears 4 times"),
    ({"learners": ["a", "b", "a"]}, ValueError, "learners must name each learner once; 'a' appears 2 times"),
])
def test_bad_parameters_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        cvi.compare_on_datasets(_random_scores(0, n=4, k=3), **kwargs)


@pytest.mark.parametrize("scores, error, match", [
    ([[0.9, 0.8, 0.7]], ValueError, r"at least 2 datasets \(rows\) and 2 learners \(columns\); got 1 dataset"),
    ([[0.9], [0.8]], ValueError, r"got 1 learner\(s\)"),
    ([0.9, 0.8], ValueError, r"scores must be 2-D .* got a list of shape \(2,\)"),
    ([[0.9, 0.8], [0.7]], ValueError, "rows of different lengths"),
    ([["a", "b"], ["c", "d"]], TypeError, "got a list of dtype <U1. Pass numbers"),
    ([[0.9, np.nan], [0.7, 0.8]], ValueError, r"^scores must be finite numbers; 1 of 4 are nan or infinite, the first"),
    ([[0.9, np.nan], [0.7, 0.8]], ValueError, r"the first for dataset 'dataset 0' and learner 'learner 1' \(nan\)"),
    ([[0.9, 0.8], [np.inf, 0.8]], ValueError, "the first for dataset 'dataset 1' and learner 'learner 0' \\(inf\\)"),
])
def test_bad_scores_are_refused(scores, error, match):
    with pytest.raises(error, match=match):
        cvi.compare_on_datasets(scores)


def test_bad_dataframes_are_refused():
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"a": [0.9, 0.8, 0.7], "b": [0.8, 0.85, 0.6]}, index=["x", "y", "x"])
    with pytest.raises(ValueError, match=r"scores' index \(the datasets\) must name each dataset once; 'x'"):
        cvi.compare_on_datasets(frame)
    with pytest.raises(ValueError, match="learners names the rows or columns of an array of scores; with a "
                                         "DataFrame the names are its own"):
        cvi.compare_on_datasets(frame.reset_index(drop=True), learners=["a", "b"])
    with pytest.raises(TypeError, match="the DataFrame's column 'b' does not"):
        cvi.compare_on_datasets(pandas.DataFrame({"a": [0.9, 0.8], "b": ["p", "q"]}))


def test_bad_mappings_are_refused(cv_results):
    iris = cv_results["iris"]
    with pytest.raises(ValueError, match=r"every dataset must have the same learners; scores\['wine'\] lacks "
                                         r"\['knn'\] and has \[\]"):
        cvi.compare_on_datasets({"iris": iris, "wine": {"bayes": iris["bayes"], "tree": iris["tree"]}})
    with pytest.raises(TypeError, match=r"scores\['wine'\]\['tree'\] is a float"):
        cvi.compare_on_datasets({"iris": iris, "wine": {**iris, "tree": 0.9}})
    with pytest.raises(TypeError, match=r"scores\['wine'\] is a list"):
        cvi.compare_on_datasets({"iris": iris, "wine": [0.9, 0.8, 0.7]})
    with pytest.raises(ValueError, match=r"at least 2 datasets \(rows\) and 2 learners \(columns\); got 1 dataset"):
        cvi.compare_on_datasets({"iris": iris})
    with pytest.raises(ValueError, match="datasets names the rows or columns of an array of scores; with a mapping"):
        cvi.compare_on_datasets(cv_results, datasets=["a", "b", "c"])
    regression = cvi.CVResult(y_true=np.linspace(0, 1, 10), y_pred=np.linspace(0, 1, 10), fold=np.arange(10) % 2,
                              loss=np.zeros(10), loss_name="squared_error")
    with pytest.raises(ValueError, match=r"scores\['wine'\]\['knn'\] holds a regression loss"):
        cvi.compare_on_datasets({"iris": iris, "wine": {**iris, "knn": regression}})


def test_results_are_read_only(demsar):
    with pytest.raises(dataclasses.FrozenInstanceError):
        demsar.control = "C4.5"
    with pytest.raises(ValueError):
        demsar.scores[0, 0] = 1.0
    assert isinstance(demsar.friedman, cvi.results.FriedmanResult)
    assert isinstance(demsar.groups, tuple) and isinstance(demsar.learners, tuple)
    assert not isinstance(demsar.notes, (list, types.MappingProxyType))
