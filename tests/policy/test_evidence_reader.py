"""One reader of the calibration evidence (issue 59, items 2 and 3): the plan and the decision say one thing about a
test's evidence, every member of a family borrows by one rule, a stand-in is named as one, the evidence is indexed
once, and ``method="auto"`` never returns an interval its own evidence calls short.

Oracles: the shipped evidence's rows read here with plain filters (``cvinference/policy/data/*.json``), or rows
written here whose consequence is known.
"""

import json
import pathlib

import pytest
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.ensemble import GradientBoostingClassifier, HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.policy import _evidence, _margin_evidence

DATA = pathlib.Path(cvi.__file__).parent / "policy" / "data"
SHIPPED = json.loads((DATA / "calibration.json").read_text())
BOOSTING = ("sklearn.ensemble.GradientBoostingClassifier", "sklearn.ensemble.HistGradientBoostingClassifier")


def _type_i_row(method, measured, learner, n=300, **design):
    return {"method": method, **design, "quantity": "type_i", "target": "kfold", "learner": learner, "n": n,
            "population": "test", "nominal": 0.05, "measured": measured, "wilson_low": 0.0,
            "wilson_high": measured + 0.02, "replications": 500, "mean_width": 0.1}


@pytest.fixture(scope="module")
def tree_and_logistic():
    X, y = make_classification(300, 6, random_state=0)
    return cvi.CVEvaluator(cv=10, random_state=0).compare(DecisionTreeClassifier(max_depth=3, random_state=0),
                                                          LogisticRegression(), X, y)


def test_the_plan_and_the_decision_read_one_figure_and_say_one_sentence(evidence, tree_and_logistic):
    # Issue 59's reproduction: R = 1 measured for the tree only, R = 10 for both, every cell within 0.06. The decision
    # reads the worst over every R (0.050) and rests on the corrected t; the plan used to say it "was not measured
    # within 0.06". Now both give the reader's figure and regime, and the plan says which repeats were read.
    evidence(_type_i_row("corrected-t", 0.03, "tree", repeats=1, folds=10),
             *[_type_i_row("corrected-t", 0.05, learner, repeats=10, folds=10) for learner in ("tree", "logistic")])
    decision = cvi.decide(tree_and_logistic)
    planned = cvi.plan(pilot=tree_and_logistic, n_repeats=1)
    reading = _evidence.read_evidence("corrected-t", tuple(_evidence.pair_learners(tree_and_logistic)), 300,
                                      repeats=1)
    assert decision.rests_on.name == "corrected t (1x10-fold)" and decision.rests_on.measured_type_i == 0.05
    assert f"measured at 0.050 (at most 0.06) for {decision.rests_on.regime}." in decision.reason
    assert reading.holds and not reading.design_measured and reading.repeats_read == (1, 10)
    assert reading.words == ("the calibration benchmark measured the type-I error of corrected t at 0.050 (at most "
                             f"0.06) for {decision.rests_on.regime}, over the cells of R = 1 and 10 (those of R = 1 "
                             "alone do not hold every learner and size read)")
    assert f"on 1 x 10-fold cross-validation, {reading.words}" in planned.notes
    assert not any("not measured within" in note for note in planned.notes)


def test_the_plan_and_the_decision_agree_where_the_test_is_not_calibrated(evidence, tree_and_logistic):
    evidence(*[_type_i_row("corrected-t", rate, learner, repeats=1, folds=10)
               for learner, rate in (("tree", 0.09), ("logistic", 0.02))])
    decision = cvi.decide(tree_and_logistic)
    judged = next(test for test in decision.context if test.name == "corrected t (1x10-fold)")
    note = next(note for note in cvi.plan(pilot=tree_and_logistic, n_repeats=1).notes if "corrected t" in note)
    assert judged.measured_type_i == 0.09 and "0.090 for a decision tree at N = 300, above 0.06" in judged.why_not
    assert note.startswith("on 1 x 10-fold cross-validation, the calibration benchmark measured the type-I error of "
                           "corrected t at 0.090 for a decision tree at N = 300, above 0.06, among "
                           f"{judged.regime}")


def _shipped_cells(learner, n, method="corrected-t"):
    """The shipped type-I rows of a test for one measured learner at one size, by their repeats (oracle: a plain
    filter)."""
    return sorted((row.get("repeats"), row["population"], row["measured"]) for row in SHIPPED["rows"]
                  if row.get("task", "classification") == "classification" and row["quantity"] == "type_i"
                  and row["method"] == method and row["learner"] == learner and row["n"] == n)


@pytest.mark.parametrize("n_samples", [300, 1000, 3000])
def test_every_member_of_the_boosting_family_reads_the_same_cells_at_the_same_size(n_samples):
    # Issue 59: GradientBoostingClassifier borrowed its family's figures at N = 100 only (its cells of 100 or more
    # replications), while HistGradientBoostingClassifier itself was read at its own size.
    readings = [_evidence.read_evidence("corrected-t", (_evidence.learner_of(name),), n_samples, repeats=1)
                for name in BOOSTING]
    cells = [sorted((row["repeats"], row["population"], row["measured"]) for row in r.cells) for r in readings]
    wanted = [cell for cell in _shipped_cells("hgb", n_samples) if cell[0] == 1]
    assert wanted and cells[0] == cells[1] == wanted
    assert readings[0].regime.sizes == readings[1].regime.sizes == (n_samples,)
    assert readings[0].regime.stand_in_words() == ("stand-ins: histogram gradient boosting for "
                                                   "GradientBoostingClassifier")
    assert readings[1].regime.stand_in_words() == ""


def test_swapping_one_boosting_class_for_the_other_plans_the_same_repeats():
    plans = {name: cvi.plan(LogisticRegression(), cls(), n_samples=1000, cv=10)
             for name, cls in (("gb", GradientBoostingClassifier), ("hgb", HistGradientBoostingClassifier))}
    assert plans["gb"].n_repeats == plans["hgb"].n_repeats
    assert plans["gb"].detectable == plans["hgb"].detectable


def test_the_margin_sentence_names_a_stand_in_as_one(monkeypatch):
    rows = [{"method": "corrected-t", "repeats": 1, "folds": 10, "alternative": "non-inferior", "margin": 0.02,
             "learner": learner,
             "n": 1000, "population": "test", "nominal": 0.05, "task": "classification", "quantity": "type_i",
             "measured": 0.03, "wilson_low": 0.0, "wilson_high": 0.05, "replications": 400}
            for learner in ("logistic", "hgb")]
    monkeypatch.setattr(_margin_evidence, "margin_evidence", lambda: {"setting": {}, "rows": rows})
    learners = [_evidence.learner_of(name) for name in ("sklearn.linear_model.LogisticRegression", BOOSTING[0])]
    found = _margin_evidence.margin_type_i("corrected-t", learners, 1000, "non-inferior", repeats=1)
    assert found.regime == ("logistic regression and histogram gradient boosting at N = 1000 (stand-ins: histogram "
                            "gradient boosting for GradientBoostingClassifier)")


def test_the_evidence_is_indexed_once_and_each_question_answered_once():
    learners = tuple(_evidence.learner_of(name) for name in BOOSTING)
    first = _evidence.read_evidence("mcnemar", learners, 1000)
    assert _evidence.read_evidence("mcnemar", learners, 1000) is first
    rows = _evidence.calibration_evidence()["rows"]
    assert _evidence._index_of(rows) is _evidence._index_of(rows)
    # the index's selection is the plain filter's (oracle), in the table's order; a test's rows are keyed by its id
    plain = [row for row in SHIPPED["rows"] if row.get("task", "classification") == "roc_auc"
             and row["quantity"] == "type_i" and row["method"] == "corrected-t"]
    assert _evidence._index_of(rows).select("roc_auc", "type_i", "corrected-t") == plain
    by_name, by_id = (_evidence.read_evidence(name, learners, 1000)
                      for name in ("corrected t (10x10-fold)", "corrected-t"))
    assert by_id.cells and not by_name.cells  # a test's rows are found by its id alone, never by a label


@pytest.fixture(scope="module")
def readme_record():
    """The README's record: GaussianNB's out-of-fold predictions on breast cancer, no learner known."""
    X, y = load_breast_cancer(return_X_y=True)
    folds = cvi.StratifiedEqualSizeKFold(10, random_state=0)
    return cvi.CVResult.from_predictions(y, cross_val_predict(GaussianNB(), X, y, cv=folds), fold=folds)


def _worst_shipped_coverage(method, sizes, learner=None):
    """The lowest measured kfold coverage of ``method`` on classification rows at ``sizes`` (of one learner, or of
    every learner's cells of 100 or more replications: those that stand for a learner not known)."""
    return min(row["measured"] for row in SHIPPED["rows"]
               if row.get("task", "classification") == "classification" and row["quantity"] == "coverage"
               and row["target"] == "kfold" and row["method"] == method and row["n"] in sizes
               and (row["learner"] == learner if learner else row["replications"] >= 100))


def test_auto_on_the_readmes_record_returns_an_interval_its_evidence_does_not_call_short(readme_record):
    # Issue 59, item 3: it returned Clopper-Pearson while warning that Clopper-Pearson covered only 0.843 there.
    # N = 569 lies between the measured 300 and 1,000: both sizes' cells stand, for every measured learner.
    interval = cvi.accuracy_interval(readme_record)
    assert not interval.warnings and interval.method == "half-sample"
    assert _worst_shipped_coverage("clopper-pearson", (300, 1000)) == pytest.approx(0.843, abs=5e-4)
    assert _worst_shipped_coverage("clopper-pearson", (300, 1000)) < SHIPPED["floor"]
    assert _worst_shipped_coverage("half-sample", (300, 1000)) >= SHIPPED["floor"]
    for learner in {row["learner"] for row in SHIPPED["rows"] if row["quantity"] == "coverage"
                    and row.get("task", "classification") == "classification" and row["method"] == "half-sample"}:
        assert _worst_shipped_coverage("half-sample", (300, 1000), learner) >= SHIPPED["floor"], learner
    exact = cvi.accuracy_interval(readme_record, method="clopper-pearson")
    assert interval.high - interval.low >= exact.high - exact.low  # never narrower than the exact interval


def test_the_evaluation_summary_names_the_recommended_interval_and_why(readme_record):
    summary = readme_record.summary()
    assert ("  recommended: half-sample, because clopper-pearson covered the kfold error only 0.843 in its worst\n"
            "    measured cell (floor 0.93), half-sample 0.953\n") in summary
    assert "is the one to quote" not in summary  # the Clopper-Pearson caveat no longer contradicts the choice
