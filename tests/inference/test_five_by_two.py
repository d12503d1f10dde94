"""Dietterich's 5x2cv paired t-test and Alpaydin's combined 5x2cv F test.

Sources of the formulas checked here:

* T. G. Dietterich (1998). Approximate statistical tests for comparing
  supervised classification learning algorithms. Neural Computation 10(7),
  section 3.5: t = p_1^(1) / sqrt((1/5) sum_i s_i^2) with 5 degrees of freedom,
  s_i^2 = (p_i^(1) - p̄_i)^2 + (p_i^(2) - p̄_i)^2;
* E. Alpaydin (1999). Combined 5 x 2 cv F test for comparing supervised
  classification learning algorithms. Neural Computation 11(8):
  F = sum_i sum_j (p_i^(j))^2 / (2 sum_i s_i^2) with (10, 5) degrees of freedom.

Both papers use error-rate differences; cvinference uses accuracy(A) -
accuracy(B), which flips the sign of t and leaves F and the two-sided p alone.

The oracle refits the learners on the same splits (same seeding rule) with
scikit-learn's ``cross_val_predict`` and recomputes everything with plain
Python loops. An unexpected :class:`cvinference.InferenceWarning` fails a test.
"""

import math
import types

import joblib
import numpy as np
import pytest
from scipy import stats
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression
from sklearn.metrics import accuracy_score
from sklearn.model_selection import cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

import cvinference as cvi
from cvinference.inference import _five_by_two
from cvinference.inference._five_by_two import _five_by_two_formulas

pytestmark = pytest.mark.filterwarnings("error::cvinference.InferenceWarning")

TESTS = (cvi.paired_ttest_5x2cv, cvi.combined_ftest_5x2cv)
TESTS_OF = (cvi.inference.paired_ttest_5x2cv_of, cvi.inference.combined_ftest_5x2cv_of)


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=120, n_features=6, n_informative=3, flip_y=0.1, random_state=0)
    return X, y


def tree():
    return DecisionTreeClassifier(max_depth=3, random_state=0)


# --------------------------------------------------------------------------- oracle


def oracle_splits(X, y, random_state):
    """The documented seeding rule, rebuilt here: five int32 seeds, one splitter each."""
    seeds = check_random_state(random_state).randint(np.iinfo(np.int32).max, size=5)
    return [list(cvi.StratifiedEqualSizeKFold(2, shuffle=True, random_state=int(s)).split(X, y)) for s in seeds]


def oracle_accuracies(estimator, X, y, splits):
    """accuracy[i][j]: fold j of replication i, from cross_val_predict on the same halves."""
    accuracies = []
    for replication in splits:
        predicted = cross_val_predict(estimator, X, y, cv=replication)
        accuracies.append([accuracy_score(y[test], predicted[test]) for _, test in replication])
    return np.array(accuracies)


def dietterich_t(p):
    """Dietterich (1998), section 3.5, with loops."""
    s_squared = []
    for first, second in p:
        mean = (first + second) / 2
        s_squared.append((first - mean) ** 2 + (second - mean) ** 2)
    return p[0][0] / math.sqrt(sum(s_squared) / 5), s_squared


def alpaydin_f(p):
    """Alpaydin (1999), with loops."""
    _, s_squared = dietterich_t(p)
    return sum(value**2 for row in p for value in row) / (2 * sum(s_squared))


# --------------------------------------------------------------------------- must match


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_t_matches_dietterich_on_the_same_splits(data, alternative):
    X, y = data
    test = cvi.paired_ttest_5x2cv(tree(), GaussianNB(), X, y, alternative=alternative, random_state=3)
    splits = oracle_splits(X, y, 3)
    accuracy_a = oracle_accuracies(tree(), X, y, splits)
    accuracy_b = oracle_accuracies(GaussianNB(), X, y, splits)
    np.testing.assert_allclose(test.details["accuracy_a"], accuracy_a, rtol=0, atol=1e-15)
    np.testing.assert_allclose(test.details["accuracy_b"], accuracy_b, rtol=0, atol=1e-15)
    p = (accuracy_a - accuracy_b).tolist()
    t, s_squared = dietterich_t(p)
    assert test.statistic == pytest.approx(t, rel=1e-12)
    assert test.df == 5
    expected_p = {
        "two-sided": 2 * stats.t.sf(abs(t), 5),
        "greater": stats.t.sf(t, 5),
        "less": stats.t.cdf(t, 5),
    }[alternative]
    assert test.pvalue == pytest.approx(expected_p, rel=1e-10)
    np.testing.assert_allclose(test.details["differences"], p, atol=1e-15)
    np.testing.assert_allclose(test.details["s_squared"], s_squared, rtol=1e-12)
    assert test.details["mean_s_squared"] == pytest.approx(sum(s_squared) / 5, rel=1e-12)
    assert test.details["mean_difference"] == pytest.approx(np.mean(p), abs=1e-15)
    assert test.estimate == p[0][0]
    assert test.standard_error == pytest.approx(math.sqrt(sum(s_squared) / 5), rel=1e-12)
    np.testing.assert_array_equal(test.details["test_sizes"], [[60, 60]] * 5)


def test_f_matches_alpaydin_on_the_same_splits(data):
    X, y = data
    test = cvi.combined_ftest_5x2cv(tree(), GaussianNB(), X, y, random_state=3)
    splits = oracle_splits(X, y, 3)
    p = (oracle_accuracies(tree(), X, y, splits) - oracle_accuracies(GaussianNB(), X, y, splits)).tolist()
    f = alpaydin_f(p)
    assert test.statistic == pytest.approx(f, rel=1e-12)
    assert test.pvalue == pytest.approx(stats.f.sf(f, 10, 5), rel=1e-10)
    assert (test.df, test.df_denominator) == (10, 5)
    assert test.alternative == "two-sided"
    assert test.estimate == pytest.approx(np.mean(p), abs=1e-15)
    assert test.details["f_numerator"] == pytest.approx(sum(v**2 for row in p for v in row), rel=1e-12)


@pytest.mark.parametrize("random_state", [0, 5])
def test_fits_are_bit_for_bit_plain_sklearn_fits_on_the_documented_splits(data, random_state):
    """The 20 fits (run by CVEvaluator.compare) against clone(...).fit(...).predict(...) on oracle_splits.

    Accuracy is r / m, the count of correct predictions over the fold size,
    so the comparison is exact.
    """
    X, y = data
    pair = cvi.evaluation.five_by_two_cv(tree(), GaussianNB(), X, y, random_state=random_state, n_jobs=1)
    fits = _five_by_two._five_by_two_differences(pair, None, "paired_ttest_5x2cv_of")
    splits = oracle_splits(X, y, random_state)

    def accuracies(estimator):
        return np.array([[np.count_nonzero(clone(estimator).fit(X[train], y[train]).predict(X[test]) == y[test])
                          / len(test) for train, test in replication] for replication in splits])

    np.testing.assert_array_equal(fits.accuracy_a, accuracies(tree()))
    np.testing.assert_array_equal(fits.accuracy_b, accuracies(GaussianNB()))
    np.testing.assert_array_equal(fits.differences, accuracies(tree()) - accuracies(GaussianNB()))
    np.testing.assert_array_equal(fits.test_sizes, [[len(test) for _, test in replication] for replication in splits])


def test_both_tests_use_the_same_differences_for_the_same_random_state(data):
    X, y = data
    t = cvi.paired_ttest_5x2cv(tree(), GaussianNB(), X, y, random_state=7)
    f = cvi.combined_ftest_5x2cv(tree(), GaussianNB(), X, y, random_state=7)
    np.testing.assert_array_equal(t.details["differences"], f.details["differences"])


# --------------------------------------------------------------------------- hand example


# Differences p_i^(j) (replication i in row i). By hand:
#   p̄_i   = 0.04, 0.03, 0.01, 0.02, 0.04
#   s_i^2 = 0.0002, 0.0002, 0.0008, 0.0008, 0.0002   (sum 0.0022, mean 0.00044)
#   t = p_1^(1) / sqrt(mean s_i^2) = 0.05 / sqrt(0.00044) = 2.38366...    (Dietterich 1998, 3.5)
#   sum of squares = 0.0025 + 0.0009 + 0.0004 + 0.0016 + 0.0001 + 0.0009 + 0.0016 + 0 + 0.0009
#                    + 0.0025 = 0.0114
#   F = 0.0114 / (2 * 0.0022) = 57 / 22 = 2.59090...                       (Alpaydin 1999)
HAND = [[0.05, 0.03], [0.02, 0.04], [-0.01, 0.03], [0.04, 0.00], [0.03, 0.05]]


def test_hand_example():
    formulas = _five_by_two_formulas(HAND)
    np.testing.assert_allclose(formulas.s_squared, [0.0002, 0.0002, 0.0008, 0.0008, 0.0002], rtol=1e-10)
    assert formulas.mean_s_squared == pytest.approx(0.00044, rel=1e-12)
    assert formulas.t == pytest.approx(0.05 / math.sqrt(0.00044), rel=1e-12)
    assert formulas.t == pytest.approx(2.3836564, rel=1e-7)
    assert formulas.f_numerator == pytest.approx(0.0114, rel=1e-12)
    assert formulas.f == pytest.approx(57 / 22, rel=1e-12)
    assert formulas.mean_difference == pytest.approx(0.028, rel=1e-12)


def test_hand_example_on_error_differences_flips_t_only():
    accuracy = _five_by_two_formulas(HAND)
    error = _five_by_two_formulas(-np.asarray(HAND))  # Dietterich's and Alpaydin's sign
    assert error.t == pytest.approx(-accuracy.t, rel=1e-15)
    assert error.f == pytest.approx(accuracy.f, rel=1e-15)
    np.testing.assert_allclose(error.s_squared, accuracy.s_squared, rtol=1e-15)


def test_formulas_refuse_a_wrong_shape():
    with pytest.raises(ValueError, match=r"shape \(5, 2\)"):
        _five_by_two_formulas(np.zeros((2, 5)))


def test_formulas_degenerate_ratios():
    zero = _five_by_two_formulas(np.zeros((5, 2)))
    assert (zero.t, zero.f) == (0.0, 0.0)
    constant = _five_by_two_formulas(np.full((5, 2), -0.02))
    assert constant.t == -math.inf and constant.f == math.inf


# --------------------------------------------------------------------------- result


def test_t_interval_and_fields(data):
    X, y = data
    test = cvi.paired_ttest_5x2cv(tree(), DummyClassifier(), X, y, random_state=0)
    assert test.method == "5x2cv-t"
    assert test.confidence_interval().details["df"] == 5
    interval = test.confidence_interval(0.9)
    half_width = stats.t.ppf(0.95, 5) * test.standard_error
    assert interval.low == pytest.approx(test.estimate - half_width, rel=1e-12)
    assert interval.high == pytest.approx(test.estimate + half_width, rel=1e-12)
    assert isinstance(test.details, types.MappingProxyType)
    assert not test.details["differences"].flags.writeable
    with pytest.raises(TypeError):
        test.details["differences"] = None
    assert "half this dataset's size" in test.estimand and test.target == "unconditional"
    assert "chi-square" in test.assumptions and "normal" in test.assumptions
    assert test.warnings == ()


def test_f_interval_repr_and_summary(data):
    X, y = data
    test = cvi.combined_ftest_5x2cv(tree(), DummyClassifier(), X, y, random_state=0)
    assert isinstance(test, cvi.results.TestResult)
    interval = test.confidence_interval()
    half_width = stats.t.ppf(0.975, 5) * math.sqrt(test.details["mean_s_squared"])
    assert interval.low == pytest.approx(test.estimate - half_width, rel=1e-12)
    assert interval.high == pytest.approx(test.estimate + half_width, rel=1e-12)
    assert test.details["standard_error_if_independent"] == pytest.approx(
        math.sqrt(test.details["mean_s_squared"] / 10), rel=1e-12)
    assert "df=10, df_denominator=5" in repr(test)
    assert "df = (10, 5)" in test.summary()


# --------------------------------------------------------------------------- behaviour


def test_sign_convention_a_better_is_positive(data):
    X, y = data
    better_first = cvi.paired_ttest_5x2cv(tree(), DummyClassifier(), X, y, random_state=0)
    assert better_first.statistic > 0 and better_first.estimate > 0
    swapped = cvi.paired_ttest_5x2cv(DummyClassifier(), tree(), X, y, random_state=0)
    assert swapped.statistic == -better_first.statistic
    assert swapped.pvalue == better_first.pvalue
    greater = cvi.paired_ttest_5x2cv(tree(), DummyClassifier(), X, y, alternative="greater", random_state=0)
    less = cvi.paired_ttest_5x2cv(tree(), DummyClassifier(), X, y, alternative="less", random_state=0)
    # Oracle: the one-sided tails of Student's t with 5 degrees of freedom (Dietterich 1998), from scipy.
    assert greater.pvalue == pytest.approx(stats.t.sf(greater.statistic, 5), rel=1e-12)
    assert less.pvalue == pytest.approx(stats.t.cdf(less.statistic, 5), rel=1e-12)
    assert greater.pvalue < 0.5 < less.pvalue
    f = cvi.combined_ftest_5x2cv(tree(), DummyClassifier(), X, y, random_state=0)
    f_swapped = cvi.combined_ftest_5x2cv(DummyClassifier(), tree(), X, y, random_state=0)
    assert f.estimate > 0 and f_swapped.estimate == pytest.approx(-f.estimate, abs=1e-15)
    assert f.statistic == pytest.approx(f_swapped.statistic, rel=1e-12)


@pytest.mark.parametrize("function", TESTS)
def test_same_learner_twice_gives_p_one_with_a_warning(data, function):
    X, y = data
    with pytest.warns(cvi.InferenceWarning, match="all ten differences are 0"):
        test = function(tree(), tree(), X, y, random_state=0)
    assert test.pvalue == 1.0
    assert test.statistic == 0.0
    assert len(test.warnings) == 1 and "p = 1" in test.warnings[0]


def test_same_learner_twice_one_sided_is_p_one_too(data):
    X, y = data
    with pytest.warns(cvi.InferenceWarning):
        test = cvi.paired_ttest_5x2cv(tree(), tree(), X, y, alternative="greater", random_state=0)
    assert test.pvalue == 1.0


def pair_with(differences):
    """A 5x2cv record of folds of 10 instances where A is right on 5 + 10 d and B on 5 of each fold."""
    y_true = np.zeros(20, dtype=int)
    fold = np.tile(np.repeat([0, 1], 10), (5, 1))
    right_a = np.rint(5 + 10 * np.asarray(differences, dtype=float)).astype(int)
    y_pred_a = np.ones((5, 20), dtype=int)
    y_pred_b = np.ones((5, 20), dtype=int)
    for i in range(5):
        for j in range(2):
            y_pred_a[i, 10 * j:10 * j + right_a[i, j]] = 0
            y_pred_b[i, 10 * j:10 * j + 5] = 0
    return cvi.PairedCVResult(cvi.CVResult(y_true, y_pred_a, fold), cvi.CVResult(y_true, y_pred_b, fold))


def test_the_records_of_the_degenerate_cases_hold_the_differences():
    fits = _five_by_two._five_by_two_differences(pair_with(np.full((5, 2), 0.1)), None, "paired_ttest_5x2cv_of")
    np.testing.assert_allclose(fits.differences, np.full((5, 2), 0.1), atol=1e-15)


def test_no_spread_but_a_difference_is_infinite_with_a_warning():
    pair = pair_with(np.full((5, 2), 0.1))
    with pytest.warns(cvi.InferenceWarning, match="undefined"):
        t = cvi.inference.paired_ttest_5x2cv_of(pair)
    assert t.statistic == math.inf and math.isnan(t.pvalue)  # not p = 0, which would read as significant
    with pytest.warns(cvi.InferenceWarning, match="undefined"):
        f = cvi.inference.combined_ftest_5x2cv_of(pair)
    assert f.statistic == math.inf and math.isnan(f.pvalue)


def test_no_spread_and_zero_numerator_gives_t_zero():
    pair = pair_with(np.array([[0.0, 0.0]] + [[0.1, 0.1]] * 4))
    with pytest.warns(cvi.InferenceWarning, match="0 / 0"):
        t = cvi.inference.paired_ttest_5x2cv_of(pair)
    assert (t.statistic, t.pvalue) == (0.0, 1.0)
    with pytest.warns(cvi.InferenceWarning, match="undefined"):
        f = cvi.inference.combined_ftest_5x2cv_of(pair)
    assert f.statistic == math.inf and math.isnan(f.pvalue)


def test_a_record_made_by_hand_is_named_in_the_note():
    t = cvi.inference.paired_ttest_5x2cv_of(pair_with([[0.1, -0.1], [0.2, 0.0], [0.0, 0.1], [0.1, 0.1], [0.3, 0.0]]))
    assert t.notes[0] == ("5 replications of 2-fold cross-validation (splitter not recorded), both learners on the "
                          "same halves: 20 fits of clones")


@pytest.mark.parametrize("function", [cvi.inference.paired_ttest_5x2cv_of, cvi.inference.combined_ftest_5x2cv_of])
def test_a_pair_or_its_two_results_give_the_same_test(data, function):
    X, y = data
    pair = cvi.evaluation.five_by_two_cv(tree(), GaussianNB(), X, y, random_state=0)
    assert function(pair) == function(pair.a, pair.b) == TESTS[TESTS_OF.index(function)](tree(), GaussianNB(), X, y,
                                                                                          random_state=0)


@pytest.mark.parametrize("function", [cvi.inference.paired_ttest_5x2cv_of, cvi.inference.combined_ftest_5x2cv_of])
def test_a_record_that_is_not_five_times_two_folds_is_refused(data, function):
    X, y = data
    three_folds = cvi.CVEvaluator(3, n_repeats=5, random_state=0).compare(tree(), GaussianNB(), X, y)
    with pytest.raises(ValueError, match=r"five repeats of 2-fold .* hold 5 repeat\(s\) of 3-fold .* five_by_two_cv"):
        function(three_folds)
    with pytest.raises(TypeError, match=r"compares two results: pass a PairedCVResult.* got a of type CVResult"):
        function(three_folds.a)
    other_folds = cvi.evaluation.five_by_two_cv(tree(), GaussianNB(), X, y, random_state=1)
    with pytest.raises(ValueError, match="not cross-validated on identical folds"):
        function(three_folds.a, other_folds.b)
    regression = cvi.CVEvaluator(2, n_repeats=5, loss="squared_error", random_state=0).compare(
        LinearRegression(), LinearRegression(), X, y.astype(float))
    with pytest.raises(ValueError, match="a holds a regression loss"):
        function(regression)


@pytest.mark.parametrize("function", TESTS)
def test_callers_estimators_are_not_fitted(data, function):
    X, y = data
    a, b = tree(), GaussianNB()
    function(a, b, X, y, random_state=0)
    for estimator in (a, b):
        with pytest.raises(NotFittedError):
            check_is_fitted(estimator)


@pytest.mark.parametrize("function", TESTS)
def test_same_results_for_any_n_jobs(data, function):
    # The threading backend keeps the file fast (starting loky workers takes seconds); what is
    # checked is that the seeds are drawn before the pool, so the order of the fits cannot matter.
    # tests/evaluation/test_evaluator.py runs the same kind of pool under loky and multiprocessing.
    X, y = data
    one = function(tree(), GaussianNB(), X, y, random_state=11, n_jobs=1)
    with joblib.parallel_config(backend="threading"):
        two = function(tree(), GaussianNB(), X, y, random_state=11, n_jobs=2)
    assert (one.statistic, one.pvalue, one.estimate) == (two.statistic, two.pvalue, two.estimate)
    np.testing.assert_array_equal(one.details["differences"], two.details["differences"])


def test_random_state_instance_and_int(data):
    X, y = data
    by_int = cvi.paired_ttest_5x2cv(tree(), GaussianNB(), X, y, random_state=5)
    by_instance = cvi.paired_ttest_5x2cv(tree(), GaussianNB(), X, y, random_state=np.random.RandomState(5))
    assert by_int.statistic == by_instance.statistic


@pytest.mark.parametrize("function", TESTS)
def test_dataframe_and_string_labels(data, function):
    pd = pytest.importorskip("pandas")
    X, y = data
    labels = np.array(["no", "yes"])[y]
    index = np.arange(len(y))[::-1] + 1000  # an index that is not 0..n-1
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])], index=index)
    series = pd.Series(labels, index=index)
    from_pandas = function(tree(), GaussianNB(), frame, series, random_state=2)
    from_numpy = function(tree(), GaussianNB(), X, y, random_state=2)
    np.testing.assert_array_equal(from_pandas.details["differences"], from_numpy.details["differences"])
    assert from_pandas.statistic == from_numpy.statistic


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("function", TESTS)
@pytest.mark.parametrize(
    ("a", "b", "name"),
    [
        ("tree", GaussianNB(), "estimator_a"),
        (GaussianNB(), GaussianNB, "estimator_b"),
        (GaussianNB(), LinearRegression(), "estimator_b"),
    ],
)
def test_refuses_non_classifiers(data, function, a, b, name):
    X, y = data
    with pytest.raises(TypeError, match=name):
        function(a, b, X, y)


@pytest.mark.parametrize("function", TESTS)
def test_refuses_mismatched_lengths(data, function):
    X, y = data
    with pytest.raises(ValueError, match="X has 120 rows and y has 119 labels"):
        function(tree(), GaussianNB(), X, y[:-1])


@pytest.mark.parametrize("function", TESTS)
def test_refuses_a_continuous_target(data, function):
    X, _ = data
    with pytest.raises(ValueError, match="continuous"):
        function(tree(), GaussianNB(), X, np.linspace(0, 1, len(X)))


@pytest.mark.parametrize("alternative", ["two_sided", "GREATER", None])
def test_refuses_an_unknown_alternative(data, alternative):
    X, y = data
    with pytest.raises(ValueError, match="alternative"):
        cvi.paired_ttest_5x2cv(tree(), GaussianNB(), X, y, alternative=alternative)


def test_a_failing_fit_names_the_fold(data):
    X, y = data
    bad = DecisionTreeClassifier(max_depth=-1)
    with pytest.raises(ValueError, match="max_depth") as info:
        cvi.paired_ttest_5x2cv(bad, GaussianNB(), X, y, random_state=0)
    assert "5x2cv replication" in "".join(getattr(info.value, "__notes__", [])) + str(info.value)
