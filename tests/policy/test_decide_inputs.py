"""What decide is given besides the records is checked against what it claims to be (issue 46, items 1 and 2):
tests as (name, TestResult) pairs, nested as nested cross-validation's difference interval on the pair's instances,
a warning where a metric does not read them, and a callable metric's NaN refused as metric_interval refuses it."""

import math
import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference._utils._warnings import InferenceWarning

X, Y = load_breast_cancer(return_X_y=True)
X, Y = X[:150, :5], Y[:150]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    PAIR = cvi.CVEvaluator(5, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(max_depth=2,
                                                                                            random_state=0), X, Y)


@pytest.mark.parametrize("tests, message", [
    ([("x", 5)], r"tests\[0\] must be a \(name, TestResult\) pair"),
    (5, r"tests must be a list of \(name, TestResult\) pairs"),
    ([5], r"tests\[0\] must be a \(name, TestResult\) pair"),
    ("McNemar", r"tests must be a list of \(name, TestResult\) pairs"),
])
def test_tests_that_are_not_name_and_test_pairs_are_refused(tests, message):
    with pytest.raises(TypeError, match=message):
        cvi.decide(PAIR, tests=tests)


@pytest.mark.parametrize("nested", [5, "x", cvi.mcnemar_test(PAIR)], ids=["int", "str", "a test"])
def test_a_nested_of_another_type_is_refused_before_anything_is_drawn(nested):
    with pytest.raises(TypeError, match="nested must be nested cross-validation's difference interval"):
        cvi.decide(PAIR, nested=nested)
    with pytest.raises(TypeError, match="nested must be nested cross-validation's difference interval"):
        PAIR.plot(nested=nested)


def test_one_learners_interval_is_not_a_difference():
    with pytest.raises(ValueError, match="which is not a difference of A and B"):
        cvi.decide(PAIR, nested=cvi.accuracy_interval(PAIR.a))
    with pytest.raises(ValueError, match="which is not a difference of A and B"):
        PAIR.plot(nested=cvi.accuracy_interval(PAIR.a))


def test_a_nested_interval_of_other_data_is_refused():
    X2, y2 = make_classification(300, 5, random_state=0)
    other = cvi.nested_cv_interval(LogisticRegression(), X2, y2, estimator_b=DecisionTreeClassifier(max_depth=1),
                                   n_splits=3, n_repeats=1, random_state=0)
    with pytest.raises(ValueError, match="nested was computed on 300 instances and the pair's records hold 150"):
        cvi.decide(PAIR, nested=other)


NB, STUMP = GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0)
LEARNERS = "the learners (others, or A and B the other way round) differ from the pair's"


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _nested(estimator_a, estimator_b, X=X, y=Y):
    return _quiet(cvi.nested_cv_interval, estimator_a, X, y, estimator_b=estimator_b, n_splits=3, n_repeats=1,
                  random_state=0)


def test_nested_cv_of_the_pairs_learners_in_its_order_is_taken_and_swapped_is_refused():
    """Issue 46: with the learners swapped, decide said "B better" where it had said "A better"."""
    taken = cvi.decide(PAIR, nested=_nested(NB, STUMP))
    assert any(test.name == "nested-cv difference" for test in (taken.rests_on, *taken.context) if test)
    swapped = _nested(STUMP, NB)
    with pytest.raises(ValueError, match=f"^nested was not computed on this pair: {re.escape(LEARNERS)}"):
        cvi.decide(PAIR, nested=swapped)
    with pytest.raises(ValueError, match=f"^nested was not computed on this pair: {re.escape(LEARNERS)}"):
        PAIR.plot(nested=swapped)
    with pytest.raises(ValueError, match=re.escape(LEARNERS)):
        cvi.decide(PAIR, nested=_nested(NB, DecisionTreeClassifier(max_depth=3, random_state=0)))


def test_nested_cv_of_other_rows_of_the_same_size_is_refused():
    with pytest.raises(ValueError, match=r"^nested was not computed on this pair: the rows \(another data set, or its "
                                         r"rows in another order\) differ"):
        cvi.decide(PAIR, nested=_nested(NB, STUMP, X[::-1], Y[::-1]))


def test_two_regressors_nested_swapped_is_refused():
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import Ridge
    from sklearn.tree import DecisionTreeRegressor

    Xr, yr = load_diabetes(return_X_y=True)
    Xr, yr = Xr[:150], yr[:150]
    ridge, tree = Ridge(), DecisionTreeRegressor(max_depth=2, random_state=0)
    pair = cvi.CVEvaluator(5, loss="squared_error", random_state=0).compare(ridge, tree, Xr, yr)
    nested = _quiet(cvi.nested_cv_interval, tree, Xr, yr, estimator_b=ridge, loss="squared_error", n_splits=3,
                    n_repeats=1, random_state=0)
    with pytest.raises(ValueError, match=re.escape(LEARNERS)):
        cvi.decide(pair, nested=nested)


def test_tests_of_other_folds_or_swapped_learners_are_refused():
    """Issue 46: a test of other folds, with A and B swapped, was accepted."""
    other_folds = _quiet(cvi.CVEvaluator(5, random_state=1).compare, NB, STUMP, X, Y)
    with pytest.raises(ValueError, match=r"^tests\[0\] \('McNemar'\) was not computed on this pair: the folds "
                                         r"differ from the pair's\. Pass tests computed from this pair"):
        cvi.decide(PAIR, tests=[("McNemar", cvi.mcnemar_test(other_folds))])
    with pytest.raises(ValueError, match=r"^tests\[1\] \('t'\) was not computed on this pair: " + re.escape(LEARNERS)):
        cvi.decide(PAIR, tests=[("McNemar", cvi.mcnemar_test(PAIR)),
                                ("t", _quiet(cvi.corrected_resampled_ttest, PAIR.b, PAIR.a))])


def test_a_hand_made_pair_swapped_is_refused_by_its_predictions():
    """Records without learners' descriptions: the predictions, in order, still tell A from B."""
    a = cvi.CVResult(y_true=PAIR.a.y_true, y_pred=PAIR.a.y_pred, fold=PAIR.a.fold)
    b = cvi.CVResult(y_true=PAIR.b.y_true, y_pred=PAIR.b.y_pred, fold=PAIR.b.fold)
    pair = cvi.PairedCVResult(a, b)
    with pytest.raises(ValueError, match=r"the predictions \(other learners or folds, or A and B the other way "
                                         r"round\) differ"):
        cvi.decide(pair, tests=[("McNemar", cvi.mcnemar_test(b, a))])
    assert cvi.decide(pair, tests=[("McNemar", cvi.mcnemar_test(a, b))]).metric == "accuracy"


def test_5x2cv_of_the_pairs_learners_on_its_rows_is_taken_whatever_its_folds():
    """5x2cv draws its own folds: its rows and learners are checked, not its folds."""
    five_by_two = cvi.paired_ttest_5x2cv(NB, STUMP, X, Y, random_state=0)
    assert cvi.decide(PAIR, tests=[("5x2cv t", five_by_two)]).metric == "accuracy"
    with pytest.raises(ValueError, match=re.escape(LEARNERS)):
        cvi.decide(PAIR, tests=[("5x2cv t", cvi.paired_ttest_5x2cv(STUMP, NB, X, Y, random_state=0))])


def test_a_test_read_back_from_json_cannot_be_checked_and_says_so():
    test = cvi.mcnemar_test(PAIR)
    read_back = type(test).from_json(test.to_json())
    assert read_back == test
    with pytest.warns(InferenceWarning, match=r"tests\[0\] \('McNemar'\) carries no record of the data, learners and "
                                              r"folds it was computed on \(made by hand, or read back from JSON\)"):
        cvi.decide(PAIR, tests=[("McNemar", read_back)])


def test_a_metric_that_does_not_read_tests_or_nested_says_so():
    with pytest.warns(InferenceWarning, match="tests is about accuracy .* the decision on metric='f1' does not read"):
        decision = cvi.decide(PAIR, metric="f1", tests=[("McNemar", cvi.mcnemar_test(PAIR))])
    assert all(not test.name.startswith("McNemar") for test in (decision.rests_on, *decision.context) if test)


def test_a_callable_metric_giving_nan_is_refused_as_metric_interval_refuses_it():
    def nan_metric(y_true, y_pred):
        return float("nan")

    with pytest.raises(ValueError, match="gave NaN or infinity on fold 0 of repeat 0"):
        cvi.metric_interval(PAIR.a, nan_metric)
    with pytest.raises(ValueError, match="gave NaN or infinity on fold 0 of repeat 0"):
        cvi.decide(PAIR, metric=nan_metric)


def test_the_accepted_inputs_decide_as_before():
    tests = cvi.policy.pair_tests(PAIR)
    assert cvi.decide(PAIR, tests=tests) == cvi.decide(PAIR, tests=tuple(tests))
    assert np.isfinite(cvi.decide(PAIR, metric="f1").difference)


def test_5x2cv_on_too_few_groups_is_refused_or_warned():
    # 2 groups give one halving only (the message used to speak of an n_repeats the function does not have);
    # 3 groups give halves of 1 and 2 groups, whose p-value (0.79 here before) came without a word.
    with pytest.raises(ValueError, match="groups holds 2 groups: 5x2cv halves the data into whole groups"):
        cvi.paired_ttest_5x2cv(GaussianNB(), DecisionTreeClassifier(max_depth=2), X, Y, groups=np.repeat([0, 1], 75))
    with pytest.warns(InferenceWarning, match="groups holds 3 groups, so each half of 5x2cv holds 1 or 2 of them"):
        cvi.paired_ttest_5x2cv(GaussianNB(), DecisionTreeClassifier(max_depth=2), X, Y,
                               groups=np.repeat([0, 1, 2], 50))


def _made(**change):
    """A DecisionTest made by hand: a consistent one, changed by ``change``."""
    fields = dict(name="corrected t (10x10-fold)", estimate=0.037, low=0.01, high=0.064, pvalue=0.01,
                  target="unconditional", measured_type_i=0.05, measured_power=0.6, regime="two trees at N = 300",
                  role="rests on", why_not="")
    return cvi.results.DecisionTest(**(fields | change))


@pytest.mark.parametrize("change, message", [
    ({"low": 0.1}, "low"), ({"pvalue": -1.0}, "DecisionTest.pvalue must be a number between 0 and 1"),
])
def test_a_decision_test_is_checked_when_made_as_when_read(change, message):
    with pytest.raises(ValueError, match=message):
        _made(**change)


def test_a_decision_is_checked_when_made_and_read():
    decision = cvi.decide(PAIR)
    data = decision.to_dict()
    shown = cvi.results.Decision(answer="A better", names=("A", "B"), metric="accuracy", target="unconditional",
                                 confidence_level=0.95, difference=0.037, rests_on=_made(), context=(),
                                 reason="r", route="", caveats=())
    with pytest.raises(ValueError, match=r"answer='B better' disagrees with the test it rests on \(estimate "
                                         r"\+0.037"):
        cvi.results.Decision.from_dict(shown.to_dict() | {"answer": "B better"})
    with pytest.raises(ValueError, match="must have the role 'rests on'"):
        cvi.results.Decision.from_dict(shown.to_dict() | {"rests_on": shown.to_dict()["rests_on"] | {
            "role": "context"}})
    assert cvi.results.Decision.from_dict(data) == decision


def test_a_nested_interval_says_how_many_learners_it_is_of():
    """decide knows a difference by details["n_learners"], not by the estimand's words; the key survives JSON."""
    paired, single = _nested(NB, STUMP), _quiet(cvi.nested_cv_interval, NB, X, Y, n_splits=3, n_repeats=1,
                                                 random_state=0)
    assert (paired.details["n_learners"], single.details["n_learners"]) == (2, 1)
    for interval, learners in ((paired, 2), (single, 1)):
        assert type(interval).from_json(interval.to_json()).details["n_learners"] == learners


def test_a_nested_interval_of_another_loss_is_refused_naming_both():
    """Issue 58: an absolute-error nested interval decided a squared-error pair (and a log-loss one a decision on
    accuracy); the loss each is about is the one its estimand names, as nested_cv_interval writes it."""
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import Ridge
    from sklearn.tree import DecisionTreeRegressor

    Xr, yr = load_diabetes(return_X_y=True)
    Xr, yr = Xr[:150], yr[:150]
    ridge, tree = Ridge(), DecisionTreeRegressor(max_depth=2, random_state=0)
    pair = cvi.CVEvaluator(5, loss="squared_error", random_state=0).compare(ridge, tree, Xr, yr)
    absolute, squared = (_quiet(cvi.nested_cv_interval, ridge, Xr, yr, estimator_b=tree, loss=loss, n_splits=3,
                                n_repeats=1, random_state=0) for loss in ("absolute_error", "squared_error"))
    with pytest.raises(ValueError, match=r"^nested is an interval of the difference in mean absolute_error loss, and "
                                         r"the pair's decision is about its mean squared_error loss \(loss_name="
                                         r"'squared_error'\).*loss='squared_error'"):
        cvi.decide(pair, nested=absolute)
    assert _quiet(cvi.decide, pair, nested=squared).rests_on is not None  # the same loss is taken
    log_loss = _quiet(cvi.nested_cv_interval, NB, X, Y, estimator_b=STUMP, loss="log_loss", n_splits=3, n_repeats=1,
                      random_state=0)
    with pytest.raises(ValueError, match=r"mean log_loss, and the pair's decision is about its mean error rate "
                                         r"\(zero-one loss\)"):
        cvi.decide(PAIR, nested=log_loss)


@pytest.mark.parametrize("estimate, low, high", [(0.5, -0.1, 0.2), (-0.3, -0.1, 0.2), (0.5, 0.6, math.inf)])
def test_a_decision_test_with_its_estimate_outside_its_interval_is_refused(estimate, low, high):
    with pytest.raises(ValueError, match=re.escape(f"got estimate={estimate!r} outside low={low!r}, high={high!r}")):
        _made(estimate=estimate, low=low, high=high)


@pytest.mark.parametrize("estimate, low, high", [
    (math.nan, -0.1, 0.2),  # nothing estimated
    (0.5, -math.inf, math.inf), (0.5, 0.1, math.inf), (-3.0, -math.inf, 0.2),  # one-sided or unbounded intervals
    (0.2 + 1e-12, -0.1, 0.2),  # round-off at a bound
    (0.99, 0.9575, 0.9837),  # McNemar's Agresti-Min interval at 50%, b = 99, c = 0, n = 100: centred at 99 / 102
    (0.5, math.nan, math.nan),
])
def test_a_decision_test_keeps_nan_one_sided_intervals_and_round_off(estimate, low, high):
    made = _made(estimate=estimate, low=low, high=high)
    assert cvi.results.DecisionTest.from_dict(made.to_dict()) == made
