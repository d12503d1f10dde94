"""The margin's calibration read by the decision (issue 49, item 2): a test whose one-sided answer was measured wrong
above the limit at the margin's boundary cannot answer a margin; one measured within answers with the figure in
its reason; one not measured answers with a caveat. Oracle: evidence rows written here, read back through the
decision's own rules (the learner by type, the neighbouring sizes, the record's repeats)."""

import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.policy import _margin_evidence


@pytest.fixture(scope="module")
def pair():
    X, y = make_classification(1000, 8, random_state=0)
    return cvi.CVEvaluator(cv=10, random_state=0).compare(
        LogisticRegression(), DecisionTreeClassifier(max_depth=3, random_state=0), X, y)


def _rows(measured, method="corrected-t", alternative="non-inferior"):
    design = {"folds": 10} if method == "corrected-t" else {}  # the corrected t's 1 x 10-fold cells
    return {"setting": {}, "rows": [
        {"method": method, **design, "alternative": alternative, "margin": margin, "repeats": 1, "learner": learner,
         "n": n,
         "population": "nonlinear", "nominal": 0.05, "task": "classification", "quantity": "type_i",
         "measured": measured if (learner, margin) == ("tree", 0.02) else 0.01, "wilson_low": 0.0,
         "wilson_high": 0.1, "replications": 400}
        for learner in ("logistic", "tree") for n in (300, 1000) for margin in (0.01, 0.02)]}


def _with_rows(monkeypatch, rows):
    monkeypatch.setattr(_margin_evidence, "margin_evidence", lambda: rows)


def test_a_test_measured_wrong_too_often_at_the_boundary_cannot_answer(pair, monkeypatch):
    assert cvi.decide(pair).rests_on.name == "corrected t (1x10-fold)"
    _with_rows(monkeypatch, _rows(0.09))
    decision = cvi.decide(pair, margin=0.05)
    assert decision.answer == "cannot tell" and decision.rests_on is None
    assert "wrong 0.090 of the time for a decision tree at N = 1000, margin 0.02, above 0.06" in decision.reason
    assert decision.context[0].name == "corrected t (1x10-fold)"
    assert cvi.results.Decision.from_json(decision.to_json()) == decision


def test_a_test_measured_within_the_limit_answers_with_its_figure(pair, monkeypatch):
    _with_rows(monkeypatch, _rows(0.05))
    decision = cvi.decide(pair, margin=0.05)
    assert decision.answer == cvi.decide(pair, margin=0.05, question="non-inferior").answer == "A non-inferior"
    assert ("its non-inferior answer was wrong at most 0.050 of the time (at most 0.06) for logistic regression and "
            "a decision tree at N = 1000, margins 0.01 to 0.02") in decision.reason
    assert not any("did not measure" in caveat for caveat in decision.caveats)


def test_the_other_question_or_another_test_is_not_measured(pair, monkeypatch):
    _with_rows(monkeypatch, _rows(0.09, alternative="equivalent"))
    decision = cvi.decide(pair, margin=0.05)  # non-inferiority: no rows of its question
    assert decision.answer != "cannot tell"
    assert "did not measure corrected t (1x10-fold)'s non-inferior answer" in decision.caveats[-1]
    _with_rows(monkeypatch, _rows(0.09, method="matched-t"))
    decision = cvi.decide(pair, margin=0.05)  # the question measured, for a test it does not rest on
    assert decision.answer != "cannot tell" and "did not measure" in decision.caveats[-1]


def test_another_metric_is_not_read_against_accuracys_rows(pair, monkeypatch):
    _with_rows(monkeypatch, _rows(0.09))
    decision = cvi.decide(pair, metric="balanced_accuracy", margin=0.05)
    assert decision.answer != "cannot tell"
    assert "did not measure" in decision.caveats[-1]
