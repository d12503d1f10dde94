"""benchmarks/calibration.py --decision (calibration_decision.py): one replication's record and its rows.

One replication of a tiny cell (logistic regression, N = 100, 10 x 10 folds) on a small stand-in for the
symmetric population: every prefix's candidates are what ``decide`` weighs, the last prefix's equal ``decide``
on the whole pair, the tests are named by family and repeats, and the rows carry their metric's task.
"""

import sys
import warnings

import numpy as np
import pytest
from test_calibration_report import _benchmark

import cvinference as cvi


@pytest.fixture(scope="module")
def calibration():
    return _benchmark("calibration", "calibration.py")


@pytest.fixture(scope="module")
def decision_module(calibration):
    return sys.modules["calibration_decision"]  # imported by calibration.py, as when it is run as a script


@pytest.fixture(scope="module")
def replicated(calibration):
    """One replication of the logistic null at N = 100 on a population of 3,000 rows (1,000 held back)."""
    X, y = calibration.nonlinear_population(n_rows=3000)
    population = calibration.Population(X, y, held_back=1000)
    cell = calibration.Cell("null-decision", "nonlinear", "logistic", 100, 1)
    seed = calibration.seeds(0, cell, 1)[0]
    return population, cell, seed, calibration.replication(population, cell, 0, seed)


def test_record_holds_every_prefix_and_metric(replicated, decision_module):
    _, _, _, record = replicated
    assert record["cell"] == "null-decision/nonlinear/logistic/100" and record["replication"] == 0
    assert record["n_repeats"] == 10 and record["truth"] == {"conditional": 0.0}
    assert set(record["candidates"]) == {"accuracy", "balanced_accuracy", "roc_auc"}
    for by_prefix in record["candidates"].values():
        assert list(by_prefix) == ["1", "3", "10"]
        for candidates in by_prefix.values():
            assert candidates and all(set(c) == {"name", "estimate", "low", "high", "pvalue", "target"}
                                      for c in candidates)
    names = {c["name"] for c in record["candidates"]["accuracy"]["10"]}
    assert {"corrected t (10x10-fold)", "5x2cv t", "McNemar (repeat 0)"} <= names
    tests = record["tests"]
    for metric in ("accuracy", "balanced_accuracy", "roc_auc"):
        for r in (1, 3, 10):
            assert f"{metric}: corrected t ({r}x10-fold)" in tests
        for r in (1, 10):
            entry = tests[f"{metric}: decision (decide, as shipped, without nested CV, {r}x10-fold)"]
            assert isinstance(entry["reject"], bool) and "rests_on" in entry
    for method in ("matched-sample t", "independent-sample z", "McNemar", "5x2cv t"):
        assert f"accuracy: {method}" in tests
    assert "roc_auc: DeLong paired z (pooled scores, repeat 0)" in tests
    assert all(isinstance(entry["reject"], bool) for entry in tests.values())


def test_last_prefix_is_decide_on_the_whole_pair(replicated, calibration, decision_module):
    """The first R repeats' record is the evaluator's record: decide weighs the same tests, to the same figures."""
    population, cell, seed, record = replicated
    rng = np.random.default_rng(seed)
    sample, _ = population.draw(cell.n, rng)
    X, y = population.X[sample], population.y[sample]
    estimators = (calibration.learner("logistic", (0, 5)), calibration.learner("logistic", (5, 10)))
    seed_cv, seed_5x2 = (int(s) for s in rng.integers(2**31, size=2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair = cvi.CVEvaluator(cv=10, n_repeats=10, random_state=seed_cv,
                               response_method="predict_proba").compare(*estimators, X, y)
        five_by_two = cvi.paired_ttest_5x2cv(*estimators, X, y, random_state=seed_5x2)
        sliced = decision_module.first_repeats(pair.a, 10)
        assert np.array_equal(sliced.fold_correct, pair.a.fold_correct)
        assert np.array_equal(sliced.y_score, pair.a.y_score) and sliced.estimator_type == pair.a.estimator_type
        for metric in ("accuracy", "balanced_accuracy", "roc_auc"):
            tests = [*cvi.policy.pair_tests(pair), ("5x2cv t", five_by_two)] if metric == "accuracy" else None
            decision = cvi.decide(pair, metric=metric, tests=tests, confidence_level=0.95)
            expected = [decision_module._candidate(t) for t in (decision.rests_on, *decision.context) if t is not None]
            assert record["candidates"][metric]["10"] == expected


def test_rows_carry_the_metric_task(replicated, calibration):
    _, cell, _, record = replicated
    rows = calibration.rows_of(cell, [record])
    assert {row["task"] for row in rows} == {"classification", "balanced_accuracy", "roc_auc"}
    assert all(row["quantity"] == "type_i" and row["learner"] == "logistic" and row["replications"] == 1
               for row in rows)
    methods = {(row["task"], row["method"]) for row in rows}
    assert ("roc_auc", "corrected t (10x10-fold)") in methods and ("classification", "McNemar") in methods
    decisions = [row for row in rows if row["method"].startswith("decision")]
    assert decisions and all("rests_on" in row for row in decisions)


def test_forest_cells_share_seeds(calibration, decision_module):
    """The forest's size check: 25 and 100 trees at N = 300 on the same seeds, so their replications pair up."""
    forest, forest100 = (calibration.Cell("null-decision", "nonlinear", name, 300, 3)
                         for name in ("forest", "forest100"))
    assert calibration.seeds(0, forest, 3) == calibration.seeds(0, forest100, 3)
    hgb = calibration.Cell("null-decision", "nonlinear", "hgb", 300, 3)
    assert calibration.seeds(0, forest, 3) != calibration.seeds(0, hgb, 3)
    assert decision_module.decision_learner("forest", (0, 5), calibration.learner)[-1].n_estimators == 25
    assert decision_module.decision_learner("forest100", (0, 5), calibration.learner)[-1].n_estimators == 100
    assert decision_module.method_of("corrected t on fold roc_auc (3x10-fold)") == "corrected t (3x10-fold)"
    assert decision_module.method_of("McNemar (repeat 0)") == "McNemar"
