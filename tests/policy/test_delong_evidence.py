"""DeLong where it holds (issue 45, item 6): on a cross-validated record DeLong's interval warns with the coverage
the calibration benchmark measured, "auto" never gives it, and the decision never rests on DeLong's paired z where
its measured type-I error is above the limit (cvinference/policy/_score_evidence.py, _decision.py).

Oracles: the expected figures are read from the shipped evidence file (cvinference/policy/data/calibration.json,
the rows benchmarks/calibration.py --metrics wrote), never typed in: the worst DeLong coverage of the record's
learner at its (measured) size over every population, and the worst DeLong type-I error of the pair's learners
at that size; sklearn's roc_auc_score for the one-model (holdout) AUC, and the DeLong interval of its scores
(delong_interval, oracle-tested against pROC in tests/inference/test_delong.py).
"""

import json
import warnings
from importlib import resources

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from cvinference import CVEvaluator, CVResult, decide, metric_interval
from cvinference._utils._warnings import InferenceWarning
from cvinference.inference._delong import delong_interval
from cvinference.policy._evidence import learner_of, test_evidence, type_i_limit

N = 300  # a size the benchmark measured, so the record's regime is the cells at N = 300 themselves
LEARNERS = {"logistic": LogisticRegression(max_iter=5000), "tree": DecisionTreeClassifier(random_state=0)}
DELONG_TEST = "delong-paired"


def shipped_rows(**match):
    path = resources.files("cvinference.policy") / "data" / "calibration.json"
    rows = json.loads(path.read_text())["rows"]
    return [row for row in rows if row.get("task") == "roc_auc" and all(row[k] == v for k, v in match.items())]


@pytest.fixture(scope="module")
def data():
    X, y = load_breast_cancer(return_X_y=True)
    return X[:N, :4], y[:N]


@pytest.fixture(scope="module")
def records(data):
    evaluator = CVEvaluator(cv=5, random_state=0, response_method="auto")
    return {kind: evaluator.evaluate(learner, *data) for kind, learner in LEARNERS.items()}


def delong_warnings(caught):
    return [str(w.message) for w in caught if "DeLong's interval of the pooled" in str(w.message)]


@pytest.mark.parametrize("kind", sorted(LEARNERS))
def test_delong_on_a_cross_validated_record_warns_with_the_measured_coverage(records, kind):
    kfold = min(r["measured"] for r in shipped_rows(method="delong", target="kfold", learner=kind, n=N))
    learner = min(r["measured"] for r in shipped_rows(method="delong", target="unconditional", learner=kind, n=N))
    assert kfold < 0.93  # the evidence this test stands on: DeLong fell below the floor here
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        interval = metric_interval(records[kind], "roc_auc", method="delong")
    (text,) = delong_warnings(caught)
    assert f"only {kfold:.3f} of the time at 95%" in text
    assert f"(unconditional) {learner:.3f}" in text
    assert f"at N = {N}" in text and "the 5 fold models' scores as one model's" in text
    assert interval.warnings[-1] == text and interval.method == "delong"


def test_the_warning_follows_the_evidence(records, evidence):
    # DeLong measured at the floor for logistic regression at N = 300: no warning (the rule, not the method, warns).
    row = {"method": "delong", "quantity": "coverage", "target": "kfold", "learner": "logistic", "n": N,
           "population": "test", "nominal": 0.95, "measured": 0.95, "wilson_low": 0.92, "wilson_high": 0.97,
           "replications": 200, "mean_width": 0.1, "task": "roc_auc"}
    evidence(row)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        metric_interval(records["logistic"], "roc_auc", method="delong")
    assert not delong_warnings(caught)
    evidence(row | {"measured": 0.91})
    with pytest.warns(InferenceWarning, match=r"only 0\.910 of the time at 95% for logistic regression at N = 300"):
        metric_interval(records["logistic"], "roc_auc", method="delong")


def test_one_model_on_one_test_set_does_not_warn(data):
    # A holdout: one model scored every test instance, DeLong's own setting (a record with one fold).
    X, y = data
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0, stratify=y)
    model = LogisticRegression(max_iter=5000).fit(X_train, y_train)
    score = model.predict_proba(X_test)[:, 1]
    holdout = CVResult(y_test, model.predict(X_test), np.zeros(y_test.size, dtype=int), y_score=score,
                       response_method="predict_proba", n_train=y_train.size,
                       estimator_type="sklearn.linear_model._logistic.LogisticRegression")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        interval = metric_interval(holdout, "roc_auc", method="delong")
    assert not [w for w in caught if issubclass(w.category, InferenceWarning)]
    oracle = delong_interval(y_test, score)
    assert interval.estimate == pytest.approx(roc_auc_score(y_test, score), rel=1e-6)
    assert (interval.low, interval.high) == pytest.approx((oracle.low, oracle.high), rel=1e-6)
    assert not interval.warnings and "DeLong's own setting" in interval.notes[-1]


def test_auto_never_gives_delong(records):
    for record in records.values():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            interval = metric_interval(record, "roc_auc")
        assert interval.method == "corrected-t" and interval.target == "unconditional"
        assert not delong_warnings(caught)


def test_delong_paired_z_is_above_the_limit_in_every_measured_cell():
    # The decision's rule 1 leaves DeLong's paired z out wherever the evidence stands for the pair: every measured
    # learner pair at every measured size (and so, by the worse-neighbour rule, between and beyond them).
    classes = {"logistic": "sklearn.linear_model._logistic.LogisticRegression",
               "tree": "sklearn.tree._classes.DecisionTreeClassifier"}
    # the metrics run's learners, measured at the same sizes (the --decision run's forest and boosting, at other
    # sizes and with few replications, stand for themselves: tests/policy/test_evidence.py)
    rows = [r for r in shipped_rows(method=DELONG_TEST, quantity="type_i") if r["learner"] in classes]
    kinds, sizes = sorted({r["learner"] for r in rows}), sorted({r["n"] for r in rows})
    for a in kinds:
        for b in kinds:
            for n in sizes:
                found = test_evidence(DELONG_TEST, [learner_of(classes[a]), learner_of(classes[b])], n, "roc_auc")
                expected = max(r["measured"] for r in rows if r["n"] == n and r["learner"] in (a, b))
                assert found.type_i == expected > type_i_limit()


def test_the_decision_does_not_rest_on_delong_and_says_why(data):
    pair = CVEvaluator(cv=5, random_state=0, response_method="auto").compare(LEARNERS["logistic"], LEARNERS["tree"],
                                                                            *data)
    decision = decide(pair, metric="roc_auc")
    expected = max(r["measured"] for r in shipped_rows(method=DELONG_TEST, quantity="type_i", n=N)
                   if r["learner"] in ("logistic", "tree"))  # the pair's own cells
    (delong,) = [t for t in (decision.rests_on, *decision.context) if t is not None and t.name.startswith("DeLong")]
    assert delong.role == "context" and delong.measured_type_i == expected
    assert f"its type-I error was {expected:.3f}" in delong.why_not and f"above {type_i_limit():g}" in delong.why_not


def test_the_docs_say_the_auc_scale_and_the_measured_figures():
    import pathlib
    page = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "resampling.md").read_text()
    start = page.index('- **`method="delong"`** (ROC AUC only)')
    text = " ".join(page[start:page.index("\n\n", start)].split())
    assert "logit" not in text and "on the AUC scale, clipped to [0, 1], as R's pROC computes it" in text
    kfold = min(r["measured"] for r in shipped_rows(method="delong", target="kfold"))
    learner = min(r["measured"] for r in shipped_rows(method="delong", target="unconditional"))
    assert f"as low as {kfold:.2f} of the fold models' AUC, {learner:.2f} of the learner's" in text
    # "below 0.93 for every learner and size it measured": the worst cell of each learner and size
    for kind, n in {(r["learner"], r["n"]) for r in shipped_rows(method="delong", target="kfold")}:
        assert min(r["measured"] for r in shipped_rows(method="delong", target="kfold", learner=kind, n=n)) < 0.93
