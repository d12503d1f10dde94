"""no_information_test: accuracy against always predicting the majority class (R caret's "P-Value [Acc > NIR]").

Oracles: ``scipy.stats.binomtest`` (the p-value and the exact interval) and
binomial tails computed by hand, P(X >= k) = sum_{i >= k} C(n, i) p^i (1 - p)^(n - i)
(the binomial distribution's definition), for caret's test: ``binom.test(k, n,
p = NIR, alternative = "greater")`` in caret's ``confusionMatrix`` (Kuhn 2008).
"""

import json
import math
import pickle

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

pytestmark = pytest.mark.filterwarnings("error::cvinference.InferenceWarning")


def result_with(y_true, correct_rows, n_splits=2):
    """A CVResult whose repeat r predicts y_true where correct_rows[r] is True and another class elsewhere."""
    y_true = np.asarray(y_true)
    correct_rows = np.atleast_2d(correct_rows)
    wrong = np.where(y_true == y_true.max(), y_true.min(), y_true.max())
    y_pred = np.where(correct_rows, y_true, wrong)
    fold = np.tile(np.arange(y_true.size) % n_splits, (correct_rows.shape[0], 1))
    return cvi.CVResult(y_true, y_pred, fold)


@pytest.mark.parametrize("k, expected", [
    (5, 0.6**5),  # P(X = 5) = 0.6^5 = 0.07776
    (4, 5 * 0.6**4 * 0.4 + 0.6**5),  # 0.2592 + 0.07776 = 0.33696
    (0, 1.0),  # P(X >= 0) = 1
])
def test_pvalue_is_the_binomial_upper_tail_by_hand(k, expected):
    # 3 of 5 instances are class 1: NIR = 3 / 5 = 0.6.
    result = result_with([1, 1, 1, 0, 0], [True] * k + [False] * (5 - k))
    test = cvi.no_information_test(result)
    assert test.pvalue == pytest.approx(expected, rel=1e-12)
    assert test.details["no_information_rate"] == 0.6 and test.details["majority_class"] == 1
    assert test.details["n_correct"] == k and test.details["n_tested"] == 5 and test.statistic == k
    assert test.estimate == pytest.approx(k / 5 - 0.6, abs=1e-15)
    assert test.alternative == "greater" and test.df is None and test.target == "kfold"
    assert test.details["imbalance_ratio"] == 1.5  # 3 / 2


def test_matches_scipy_binomtest_on_a_real_cross_validation():
    X, y = load_breast_cancer(return_X_y=True)
    result = cvi.cross_val_correctness(DecisionTreeClassifier(max_depth=2, random_state=0), X, y, cv=10,
                                       random_state=0)
    test = cvi.no_information_test(result)
    k, counts = int(result.correct.sum()), np.bincount(y)
    nir = counts.max() / y.size  # 357 benign of 569
    oracle = stats.binomtest(k, y.size, nir, alternative="greater")
    assert test.pvalue == pytest.approx(oracle.pvalue, rel=1e-12)
    assert test.details["no_information_rate"] == pytest.approx(357 / 569, abs=1e-15)
    assert test.details["imbalance_ratio"] == pytest.approx(357 / 212, abs=1e-15)
    assert test.details["accuracy"] == result.accuracy
    assert test.estimate == pytest.approx(result.accuracy - nir, abs=1e-15)
    assert test.notes == () and test.warnings == ()


@pytest.mark.parametrize("k", range(0, 21))
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_interval_is_scipys_exact_bound_less_the_rate_and_agrees_with_the_test(k, level):
    result = result_with([1] * 14 + [0] * 6, [True] * k + [False] * (20 - k))
    test = cvi.no_information_test(result)
    interval = test.confidence_interval(level)
    oracle = stats.binomtest(k, 20, 0.7, alternative="greater").proportion_ci(level, method="exact")
    assert interval.low == pytest.approx(oracle.low - 0.7, abs=1e-12)
    assert interval.high == pytest.approx(0.3, abs=1e-15) and interval.method == "clopper-pearson"
    assert (interval.low > 0) == (test.pvalue < 1 - level)


def test_pooled_repeats_use_one_repeats_n_and_the_mean_count_rounded_down():
    # 20 instances, 15 of class 1 (NIR 0.75); the three repeats get 16, 17 and 19 right: mean 52 / 3 = 17.33 -> 17.
    y_true = [1] * 15 + [0] * 5
    rows = [[True] * k + [False] * (20 - k) for k in (16, 17, 19)]
    result = result_with(y_true, rows)
    test = cvi.no_information_test(result)
    assert test.details["n_correct"] == 17 and test.details["n_tested"] == 20
    assert test.pvalue == pytest.approx(stats.binomtest(17, 20, 0.75, alternative="greater").pvalue, rel=1e-12)
    assert test.details["accuracy"] == pytest.approx(52 / 60) and test.estimate == pytest.approx(52 / 60 - 0.75)
    assert len(test.notes) == 1 and "3 repeats pooled" in test.notes[0] and "rounded down" in test.notes[0]
    assert "Wong 2015, section 4.3.4" in test.notes[0]
    one = cvi.no_information_test(result, repeat=2)
    assert one.details["n_correct"] == 19 and one.notes == ()
    assert one.pvalue == pytest.approx(stats.binomtest(19, 20, 0.75, alternative="greater").pvalue, rel=1e-12)


def test_leave_one_out_counts_every_instance_once():
    y_true = np.array([0] * 12 + [1] * 4)
    correct = np.arange(16) % 4 != 0  # 12 of 16 right
    result = result_with(y_true, correct, n_splits=16)
    assert result.is_loo
    test = cvi.no_information_test(result)
    assert test.details["n_correct"] == 12 and test.details["n_tested"] == 16
    assert test.pvalue == pytest.approx(stats.binomtest(12, 16, 0.75, alternative="greater").pvalue, rel=1e-12)


def test_a_label_only_predicted_does_not_count():
    y_true = np.array(["a"] * 6 + ["b"] * 4)
    result = cvi.CVResult(y_true, np.array(["c"] * 8 + ["b"] * 2), [0, 1] * 5)
    test = cvi.no_information_test(result)
    assert test.details["no_information_rate"] == 0.6 and test.details["majority_class"] == "a"
    assert test.details["imbalance_ratio"] == 1.5 and test.details["n_correct"] == 2


def test_one_class_has_rate_one_and_p_one_with_a_warning():
    result = cvi.CVResult([1, 1, 1, 1], [1, 1, 1, 0], [0, 1, 0, 1])
    with pytest.warns(cvi.InferenceWarning, match=r"y_true holds a single class \(1\): the no-information rate is 1"):
        test = cvi.no_information_test(result)
    assert test.details["no_information_rate"] == 1.0 and test.pvalue == 1.0
    assert test.details["imbalance_ratio"] == 1.0 and test.estimate == pytest.approx(-0.25)
    assert len(test.warnings) == 1


def test_result_round_trips_through_json_and_pickle_and_prints():
    result = result_with([1, 1, 1, 0, 0], [True, True, True, True, False])
    test = cvi.no_information_test(result)
    again = cvi.results.NoInformationTestResult.from_dict(json.loads(json.dumps(test.to_dict(), allow_nan=False)))
    assert again == test and isinstance(again, cvi.results.TestResult)
    assert pickle.loads(pickle.dumps(test)) == test
    summary = test.summary()
    assert "4 of 5 correct, p = 0.337 (greater)" in summary
    assert "no-information rate 0.6 (always predicting 1; class imbalance 1.5:1)" in summary


def test_a_regression_result_is_refused():
    result = cvi.CVResult([0.5, 1.5], [0.5, 1.0], [0, 1], loss=[0.0, 0.25], loss_name="squared_error")
    with pytest.raises(ValueError, match="regression loss"):
        cvi.no_information_test(result)


def test_bad_inputs_are_refused_by_name():
    result = result_with([1, 1, 0], [True, True, False])
    with pytest.raises(TypeError, match="result must be a CVResult"):
        cvi.no_information_test([1, 0, 1])
    with pytest.raises(ValueError, match=r"repeat must be one of 0 .. 0"):
        cvi.no_information_test(result, repeat=1)
    with pytest.raises(TypeError, match="repeat"):
        cvi.no_information_test(result, repeat=0.5)
    # NIR 2/3, 2 of 3 right: P(X >= 2) = 3 (2/3)^2 (1/3) + (2/3)^3 = 12/27 + 8/27 = 20/27.
    assert math.isclose(cvi.no_information_test(result, repeat=0).pvalue, 20 / 27, rel_tol=1e-12)
