"""nested_cv_interval_of on a record made with groups (issue 30, item 2): cluster-robust b_k and se_naive.

Bates, Hastie & Tibshirani's (2023) Algorithm 1 treats the instances as
independent in two places: b_k = var(e_out) / |I_k|, the holdout variance of
fold k's mean loss, and the lower bound se_naive = sd(e_in) / sqrt(n). On a
grouped record the package replaces both by cluster-robust (CR1) variances
(Cameron & Miller 2015, section II.C). The oracle of every CR1 variance is
statsmodels' cluster-robust OLS of the losses on a constant,
``OLS(losses, 1).fit(cov_type="cluster")``, whose default correction
G / (G - 1) (N - 1) / (N - 1) is CR1's G / (G - 1); the rest of Algorithm 1 is
written out below with plain numpy, as in tests/inference/test_nested_cv.py.
"""

import math
import warnings

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return function(*args, **kwargs)


def statsmodels_cr1_variance(values, groups):
    """The CR1 variance of the mean of ``values``, clustered by ``groups``: statsmodels' squared standard error."""
    _, codes = np.unique(groups, return_inverse=True)
    fit = sm.OLS(values, np.ones(values.size)).fit(cov_type="cluster", cov_kwds={"groups": codes})
    return float(fit.bse[0]) ** 2


def oracle(fold, outer, inner, groups, confidence_level=0.95, limits=(-math.inf, math.inf)):
    """Algorithm 1 with statsmodels' CR1 variances for b_k and se_naive (see the module docstring)."""
    n_repeats, n = fold.shape
    k = inner.shape[1]
    a, b, naive = [], [], []
    for r in range(n_repeats):
        for j in range(k):
            in_j, out_j = fold[r] == j, fold[r] != j
            e_out, e_in = outer[r, in_j], inner[r, j, out_j]
            a.append((e_in.mean() - e_out.mean()) ** 2)
            b.append(statsmodels_cr1_variance(e_out, groups[in_j]))
            naive.append(statsmodels_cr1_variance(e_in, groups[out_j]) * e_in.size)
    mse_hat = np.mean(a) - np.mean(b)
    all_in = np.concatenate([inner[r, j, fold[r] != j] for r in range(n_repeats) for j in range(k)])
    err_ncv, err_cv = all_in.mean(), outer.mean()
    se_naive = math.sqrt(np.mean(naive) / n)
    se = min(max(math.sqrt((k - 1) / k * max(mse_hat, 0)), se_naive), math.sqrt(k) * se_naive)
    estimate = err_ncv - (1 + (k - 2) / k) * (err_ncv - err_cv)
    z = stats.norm.ppf((1 + confidence_level) / 2)
    return {"mse_hat": mse_hat, "se_naive": se_naive, "standard_error": se, "estimate": estimate,
            "low": max(limits[0], estimate - z * se), "high": min(limits[1], estimate + z * se),
            "se_naive_independent": all_in.std(ddof=1) / math.sqrt(n)}


def assert_matches(interval, expected):
    for name in ("mse_hat", "se_naive", "se_naive_independent"):
        assert interval.details[name] == pytest.approx(expected[name], rel=1e-10, abs=1e-14), name
    assert interval.details["standard_error"] == pytest.approx(expected["standard_error"], rel=1e-10, abs=1e-14)
    for name in ("estimate", "low", "high"):
        assert getattr(interval, name) == pytest.approx(expected[name], rel=1e-10, abs=1e-14), name


def typed_groups_record(with_groups=True):
    """12 groups of 5 in 3 folds, 2 repeats; every fold holds one group of each of four types of loss count.

    A group of type t has t_count = (5, 0, 2, 3)[t] losses of 1 among its 5
    instances, in every outer and inner fit (inner[r, k, i] = outer[r, i]),
    so every fold's mean loss is 10 / 20 = 0.5: each inner cross-validation's
    mean equals its outer fold's, every a_k is 0, MSE_hat = -mean(b_k) < 0
    and the standard error is its lower bound, se_naive.
    """
    counts = (5, 0, 2, 3)
    groups = np.repeat(np.arange(12), 5)
    kind = groups % 4  # group g is of type g % 4; groups 0..3, 4..7, 8..11 are the three copies of the four types
    losses = np.concatenate([[1.0] * counts[t] + [0.0] * (5 - counts[t]) for t in range(4)] * 3)
    copy = groups // 4
    fold = np.stack([copy, (copy + kind) % 3])  # repeat 1: fold j gets copy (j - t) mod 3 of type t
    outer = np.stack([losses, losses])
    inner = np.where(fold[:, None, :] == np.arange(3)[None, :, None], np.nan, outer[:, None, :])
    return cvi.records.NestedCVResult(fold=fold, outer=outer[None], inner=inner[None],
                                      groups=groups if with_groups else None), fold, outer, inner, groups


def test_b_k_and_se_naive_are_statsmodels_cluster_robust_variances():
    record, fold, outer, inner, groups = typed_groups_record()
    interval = quiet(cvi.inference.nested_cv_interval_of, record)
    assert_matches(interval, oracle(fold, outer, inner, groups, limits=(0.0, 1.0)))


def test_the_interval_widens_from_the_independent_to_the_cluster_robust_naive_standard_error():
    record, fold, outer, inner, groups = typed_groups_record()
    without, _, _, _, _ = typed_groups_record(with_groups=False)
    grouped, independent = quiet(cvi.inference.nested_cv_interval_of,
                                 record), quiet(cvi.inference.nested_cv_interval_of, without)
    expected = oracle(fold, outer, inner, groups)
    # Every a_k is 0 by construction, so both intervals stand on their lower bound: the naive standard error.
    assert grouped.details["mse_hat"] < 0 and independent.details["mse_hat"] < 0
    assert grouped.details["standard_error"] == pytest.approx(expected["se_naive"], rel=1e-12)
    assert independent.details["standard_error"] == pytest.approx(expected["se_naive_independent"], rel=1e-12)
    assert grouped.details["se_naive_independent"] == pytest.approx(independent.details["se_naive"], rel=1e-12)
    # Whole groups of all-1 and all-0 losses: the groups, not the 60 instances, carry the information.
    assert grouped.details["standard_error"] > 1.5 * independent.details["standard_error"]
    z = stats.norm.ppf(0.975)
    assert grouped.high - grouped.low == pytest.approx(2 * z * expected["se_naive"], rel=1e-12)
    assert independent.high - independent.low == pytest.approx(2 * z * expected["se_naive_independent"], rel=1e-12)
    assert grouped.estimate == independent.estimate


def test_groups_of_one_instance_give_the_independent_holdout_variance_exactly():
    # CR1 with every instance its own group is G / (G - 1) sum (e_i - e_bar)^2 / G^2 = var(e, ddof=1) / G, the
    # paper's b_k; se_naive becomes the mean over inner cross-validations of var(e_in, ddof=1), over n.
    rng = np.random.default_rng(3)
    n, k = 24, 3
    fold = np.stack([rng.permutation(np.arange(n) % k) for _ in range(2)])
    outer = rng.random((2, n))
    inner = np.where(fold[:, None, :] == np.arange(k)[None, :, None], np.nan, rng.random((2, k, n)))
    singletons = quiet(cvi.inference.nested_cv_interval_of,
                       cvi.records.NestedCVResult(fold=fold, outer=outer[None], inner=inner[None], groups=np.arange(n)))
    independent = quiet(cvi.inference.nested_cv_interval_of, cvi.records.NestedCVResult(fold=fold, outer=outer[None],
                                                                                        inner=inner[None]))
    assert singletons.details["mse_hat"] == pytest.approx(independent.details["mse_hat"], rel=1e-12)
    per_inner = [inner[r, j, fold[r] != j].var(ddof=1) for r in range(2) for j in range(k)]
    assert singletons.details["se_naive"] == pytest.approx(math.sqrt(np.mean(per_inner) / n), rel=1e-12)


def clustered_data(seed=0, n_groups=24, size=6):
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_groups), size)
    X = rng.normal(size=(groups.size, 3)) + rng.normal(size=(n_groups, 3))[groups]
    y = (X[:, 0] + rng.normal(0, 1.5, n_groups)[groups] + rng.normal(0, 0.5, groups.size) > 0).astype(int)
    return X, y, groups


@pytest.mark.parametrize("two_learners", [False, True])
def test_fitted_records_one_learner_and_the_difference_match_the_oracle(two_learners):
    X, y, groups = clustered_data()
    record = cvi.evaluation.nested_cross_validation(GaussianNB(), X, y, n_splits=4, n_repeats=2, groups=groups,
                                                    random_state=0, n_jobs=1,
                                                    estimator_b=LogisticRegression() if two_learners else None)
    interval = quiet(cvi.inference.nested_cv_interval_of, record)
    if two_learners:  # the algorithm on per-instance differences, loss of B minus loss of A
        outer, inner, limits = record.outer[1] - record.outer[0], record.inner[1] - record.inner[0], (-1.0, 1.0)
    else:
        outer, inner, limits = record.outer[0], record.inner[0], (0.0, 1.0)
    assert_matches(interval, oracle(record.fold, outer, inner, groups, limits=limits))
    assert interval.details["n_groups"] == 24 and interval.details["groups_within_folds"] is True
    assert "groups independent of one another" in interval.assumptions
    assert any("cluster-robust (CR1)" in note for note in interval.notes)


def test_the_convenience_passes_the_groups_through():
    X, y, groups = clustered_data(1)
    arguments = {"n_splits": 3, "n_repeats": 2, "groups": groups, "random_state": 2, "n_jobs": 1}
    direct = quiet(cvi.nested_cv_interval, GaussianNB(), X, y, confidence_level=0.9, **arguments)
    record = cvi.evaluation.nested_cross_validation(GaussianNB(), X, y, **arguments)
    assert direct == quiet(cvi.inference.nested_cv_interval_of, record, confidence_level=0.9)
    assert direct.details["n_groups"] == 24


def test_few_groups_and_folds_that_split_groups_warn():
    record, *_ = typed_groups_record()  # 12 groups
    few = quiet(cvi.inference.nested_cv_interval_of, record)
    assert any(text.startswith("Only 12 groups: the nested cross-validation interval") for text in few.warnings)
    fold = np.array([[0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 1, 2]])
    inner = np.where(fold[:, None, :] == np.arange(3)[None, :, None], np.nan, 0.5)[None]
    split = cvi.records.NestedCVResult(fold=fold, outer=np.full((1, 1, 12), 0.5), inner=inner,
                                       groups=list("aabbccddeeaf"))  # group "a" in folds 0 and 1
    interval = quiet(cvi.inference.nested_cv_interval_of, split)
    assert interval.details["groups_within_folds"] is False
    assert any("The folds split some groups" in text for text in interval.warnings)


def test_the_bound_warnings_name_the_cluster_robust_standard_error():
    record, *_ = typed_groups_record()
    interval = quiet(cvi.inference.nested_cv_interval_of, record)
    assert any("falls back to its lower bound, the naive" in text and "12 independent groups (cluster-robust)" in text
               for text in interval.warnings)


@pytest.mark.parametrize("nested_type_i", [0.04, 0.143])
def test_the_grouped_decision_judges_the_grouped_nested_interval_by_its_own_cells(evidence, null_row, nested_type_i):
    """Nested CV's grouped null cells decide whether the grouped decision may rest on it: where the fold tests
    were measured above the limit and nested CV within it, it rests on nested CV; else it shows it for context."""
    def _type_i_row(method, measured, **design):  # the learners below, at G = 24 groups (see clustered_data)
        return null_row(method, measured, learner="logistic", n=24, **design)

    evidence(_type_i_row("corrected-t", 0.08, repeats=10, folds=10), _type_i_row("cluster-paired-t", 0.09, repeats=10),
             _type_i_row("mcnemar-obuchowski", 0.1, repeat=0), _type_i_row("nested-cv", nested_type_i))
    X, y, groups = clustered_data(2)
    assert np.unique(groups).size == 24
    pair = cvi.CVEvaluator(cvi.StratifiedEqualSizeGroupKFold(4, shuffle=True), n_repeats=2, random_state=0).compare(
        GaussianNB(), LogisticRegression(), X, y, groups=groups)
    nested = quiet(cvi.nested_cv_interval, GaussianNB(), X, y, estimator_b=LogisticRegression(), groups=groups,
                   n_splits=4, n_repeats=2, random_state=0, n_jobs=1)
    decision = cvi.decide(pair, nested=nested)
    tests = (decision.context if decision.rests_on is None else (decision.rests_on, *decision.context))
    (shown,) = [test for test in tests if test.name.startswith("nested-cv")]
    assert (shown.estimate, shown.low, shown.high) == (nested.estimate, nested.low, nested.high)
    assert shown.measured_type_i == nested_type_i
    if nested_type_i <= 0.06:
        assert shown is decision.rests_on and shown.role == "rests on"
    else:
        assert decision.answer == "cannot tell" and shown.role == "context"
        assert shown.why_not.startswith("its type-I error was 0.143")
