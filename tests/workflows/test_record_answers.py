"""``cvi.evaluate(record)`` and ``cvi.compare(pair)``: the answer of records a user already holds, with no fit.

The oracles are independent of the front door: the record's own report (``cvinference.report._report.summary_text``,
which builds it from the record alone), the inference functions called on the record, and ``cvi.decide`` on
the pair.
"""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference._utils import PooledRepeatsWarning
from cvinference.report._report import summary_text
from cvinference.splitters import ForwardSplit

X, Y = load_breast_cancer(return_X_y=True)
X_REG, Y_REG = load_diabetes(return_X_y=True)


@pytest.fixture(scope="module")
def record():
    return cvi.cross_val_correctness(GaussianNB(), X, Y, cv=5, n_repeats=2, random_state=0)


@pytest.fixture(scope="module")
def pair():
    return cvi.CVEvaluator(cv=5, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(max_depth=2,
                                                                                            random_state=0), X, Y)


def test_a_record_is_answered_without_a_fit_as_its_summary_says(record):
    evaluation = cvi.evaluate(record)
    assert evaluation.fits == 0 and evaluation.budget is None and evaluation.result is record
    assert evaluation.summary() == summary_text(record) == record.summary()
    with pytest.warns(PooledRepeatsWarning):  # the oracle warns as the report's rows were made quietly
        wilson = cvi.accuracy_interval(record, method="wilson")
    found = evaluation.intervals["accuracy"]["wilson"]
    assert (found.estimate, found.low, found.high) == (wilson.estimate, wilson.low, wilson.high)
    quantity, method = evaluation.recommended
    assert evaluation.intervals[quantity][method] is evaluation.rows[0][0].interval  # the report's first row
    assert evaluation.to_dict()["estimators"]["A"]["accuracy"] == record.accuracy


def test_a_regressor_s_record_is_answered_as_well():
    found = cvi.CVEvaluator(cv=5, loss="squared_error", random_state=0).evaluate(Ridge(), X_REG, Y_REG)
    evaluation = cvi.evaluate(found, confidence_level=0.9)
    assert evaluation.fits == 0 and evaluation.to_dict()["confidence_level"] == 0.9
    assert cvi.evaluate(found).summary() == found.summary()
    r2 = next(i for i in evaluation.to_dict()["estimators"]["A"]["intervals"] if i["quantity"] == "r2")
    assert r2["low"] == pytest.approx(cvi.inference.regression_interval(found, "r2", confidence_level=0.9).low)


def test_a_pair_is_answered_without_a_fit_with_the_decision_decide_makes(pair):
    comparison = cvi.compare(pair)
    assert comparison.fits == 0 and comparison.plan is None and comparison.nested is None
    assert comparison.summary() == summary_text(pair) == pair.summary()
    expected = cvi.decide(pair)
    assert (comparison.decision.answer, comparison.decision.rests_on) == (expected.answer, expected.rests_on)
    assert set(comparison.intervals) == {"A", "B"}
    wilson = cvi.accuracy_interval(pair.b, method="wilson")
    found = comparison.intervals["B"]["accuracy"]["wilson"]
    assert (found.estimate, found.low, found.high) == (wilson.estimate, wilson.low, wilson.high)
    assert set(comparison.recommended) == {"A", "B"} and comparison.recommended["A"][0] == "accuracy"
    assert "plan" not in comparison.to_dict()


def test_a_margin_and_a_metric_are_read_from_the_call(pair):
    comparison = cvi.compare(pair, margin=0.05)
    expected = cvi.decide(pair, margin=0.05)
    assert comparison.decision.answer == expected.answer and comparison.decision.margin == 0.05


def test_a_forward_pair_is_answered_as_its_decision():
    t = np.arange(120.0)
    series = np.sin(t / 5) + 0.01 * t
    features = np.c_[np.cos(t / 5), t]
    evaluator = cvi.CVEvaluator(cv=ForwardSplit(n_splits=15, horizon=2), loss="squared_error")
    pair = evaluator.compare(Ridge(), LinearRegression(), features, series)
    comparison = cvi.compare(pair)
    assert comparison.fits == 0 and comparison.decision.answer == cvi.decide(pair).answer
    assert "per horizon" in comparison.summary()
    assert cvi.evaluate(pair.a).fits == 0


def test_other_objects_and_settings_of_the_fits_are_refused_by_name(record, pair):
    with pytest.raises(TypeError, match=r"evaluate\(\) was given a PairedCVResult.*cvi.compare\(pair\)"):
        cvi.evaluate(pair)
    with pytest.raises(TypeError, match=r"compare\(\) was given a CVResult.*cvi.evaluate\(record\)"):
        cvi.compare(record)
    with pytest.raises(TypeError, match=r"evaluate\(\) needs X and y, and was given a GaussianNB"):
        cvi.evaluate(GaussianNB())
    with pytest.raises(TypeError, match=r"compare\(\) needs estimator_b, X and y, and was given a str"):
        cvi.compare("tree")
    with pytest.raises(ValueError, match=r"was given a CVResult, whose fits are made, and cv=5.*drop cv"):
        cvi.evaluate(record, cv=5)
    with pytest.raises(ValueError, match=r"budget=40, which only says how to fit; drop budget"):
        cvi.compare(pair, budget=40)
