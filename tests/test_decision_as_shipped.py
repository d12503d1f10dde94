"""benchmarks/decision_as_shipped.py: the decision's false alarms and power, as decide() chooses now (issue 45, item 3).

The choice of the test a decision rests on depends on the learners' types, the size, the metric, the repeats
and the evidence, never on the data; in a measured cell the decision's rate is its test's on the same
replications. These tests hold the shipped rows to the library of this commit, and hold decide() to the same
choice on real records.
"""

import glob
import json

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier
from test_calibration_report import ROOT, _benchmark

import cvinference as cvi
from cvinference.policy import _decision, _evidence

LIMIT = 0.06


@pytest.fixture(scope="module")
def shipped():
    return _benchmark("decision_as_shipped", "decision_as_shipped.py")


def test_the_shipped_decision_rows_are_what_the_library_chooses_now(shipped):
    # Fails whenever the evidence or the rule changes and `python benchmarks/decision_as_shipped.py` was not run.
    stored = json.loads((ROOT / "benchmarks" / "results" / "decision_as_shipped.json").read_text())
    assert stored == json.loads(json.dumps(shipped.as_shipped()))


def test_every_decision_type_i_row_holds_the_limit_and_the_pooled_rate_is_at_most_0_05(shipped):
    rows = [row for path in glob.glob(str(ROOT / "benchmarks" / "results" / "*.json"))
            for row in json.loads(open(path).read()).get("rows", [])
            if str(row.get("method", "")).startswith("decision") and row["quantity"] == "type_i"]
    assert rows and all(row["wilson_low"] <= LIMIT for row in rows), [r for r in rows if r["wilson_low"] > LIMIT]
    pooled = shipped.as_shipped()["pooled_type_i"]
    assert pooled["measured"] <= 0.05


def test_a_cannot_tell_cell_declares_nothing_and_a_chosen_cell_copies_its_tests_row(shipped, evidence):
    evidence({"method": "mcnemar", "quantity": "type_i", "target": "kfold", "learner": "tree", "n": 300,
              "population": "p", "nominal": 0.05, "measured": 0.04, "wilson_low": 0.02, "wilson_high": 0.07,
              "replications": 100, "mean_width": 0.1})
    rows = [{"method": method, "quantity": "type_i", "target": "kfold", "learner": learner, "n": 300,
             "population": "p", "nominal": 0.05, "measured": rate, "mc_se": 0.01, "wilson_low": rate - 0.02,
             "wilson_high": rate + 0.03, "replications": 100, "mean_width": 0.1}
            for learner in ("tree", "knn") for method, rate in (("McNemar", 0.04), ("corrected t (10x10-fold)", 0.09))]
    found = {row["learner"]: row for row in shipped.decision_rows(rows, "test")}
    assert found["tree"]["rests_on"] == "McNemar" and found["tree"]["measured"] == 0.04
    # k-NN borrows the worst of every measured learner: the tree's McNemar, within the limit
    assert found["knn"]["rests_on"] == "McNemar"
    evidence()  # nothing measured: it cannot tell, and declares nothing in 100 replications
    found = shipped.decision_rows(rows, "test")
    assert {row["rests_on"] for row in found} == {"cannot tell"}
    assert found[0]["measured"] == 0 and found[0]["replications"] == 100


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=300, n_features=6, random_state=0)


@pytest.mark.parametrize(("metric", "task"), [("accuracy", "classification"), ("roc_auc", "roc_auc"),
                                              ("balanced_accuracy", "balanced_accuracy")])
def test_decide_rests_on_the_test_the_cell_choice_names(data, metric, task):
    # Two decision trees at N = 300 (a measured size), 10 x 10-fold: the shipped evidence's choice.
    X, y = data
    tree = DecisionTreeClassifier(random_state=0)
    pair = cvi.CVEvaluator(cv=10, n_repeats=10, random_state=0, response_method="predict_proba").compare(
        tree, DecisionTreeClassifier(max_depth=3, random_state=0), X, y)
    five = cvi.paired_ttest_5x2cv(tree, DecisionTreeClassifier(max_depth=3, random_state=0), X, y, random_state=0)
    tests = [*cvi.policy.pair_tests(pair), ("5x2cv t", five)] if metric == "accuracy" else None
    decision = cvi.decide(pair, metric=metric, tests=tests)
    kind = "classification" if metric == "accuracy" else "roc_auc" if metric == "roc_auc" else "label metric"
    judged_by = _decision.label_task(metric) if kind == "label metric" else task
    chosen = _decision.cell_choice(_decision.DECISION_TESTS[kind], _evidence.learner_of_result(pair.a), 300,
                                   task=judged_by, repeats=10)
    assert (None if decision.rests_on is None else decision.rests_on.method) == chosen


def test_two_logistic_regressions_at_a_measured_size_rest_on_the_chosen_test():
    X, y = make_classification(n_samples=1000, n_features=6, random_state=1)
    model = LogisticRegression(max_iter=1000)
    pair = cvi.CVEvaluator(cv=10, n_repeats=10, random_state=0).compare(model, LogisticRegression(C=0.01), X, y)
    five = cvi.paired_ttest_5x2cv(model, LogisticRegression(C=0.01), X, y, random_state=0)
    decision = cvi.decide(pair, tests=[*cvi.policy.pair_tests(pair), ("5x2cv t", five)])
    chosen = _decision.cell_choice(_decision.DECISION_TESTS["classification"], _evidence.learner_of_result(pair.a),
                                   1000, repeats=10)
    assert chosen is not None and decision.rests_on.method == chosen
    assert np.isfinite(decision.rests_on.pvalue)
