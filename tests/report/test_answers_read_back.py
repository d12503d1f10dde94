"""Reading answers back: the records are the store, the answer's JSON is a report (issue 59, item 5).

``Evaluation.to_json()`` and ``Comparison.to_json()`` write what the command line's ``--json`` writes: a report, with
no ``from_json``. To keep an answer, keep its record (``evaluation.result.to_json()``, ``comparison.pair.to_json()``)
and answer it again: ``cvi.evaluate(CVResult.from_json(s))``, ``cvi.compare(PairedCVResult.from_json(s))``. The
evaluation's report is the same but for its plan (made before the fits, from the learner; a record has none). The
comparison's is the same but for what ``compare`` made beyond the pair, which the pair does not hold: the plan (made
before the fits, from the learners and the call), its notes, the tests and intervals of its own fits (5x2cv, nested
cross-validation) and the decision where it rested on them.
"""

import warnings

import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.records import CVResult, PairedCVResult

X, Y = load_breast_cancer(return_X_y=True)


@pytest.fixture(scope="module")
def comparison():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cvi.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, Y, random_state=0)


def test_an_evaluation_answered_again_from_its_stored_record_has_the_same_report_but_its_plan():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluation = cvi.evaluate(GaussianNB(), X, Y, random_state=0)
        again = cvi.evaluate(CVResult.from_json(evaluation.result.to_json()))
    original, read = evaluation.to_dict(), again.to_dict()
    assert original.pop("plan")["fits"] == evaluation.fits and again.plan is None
    assert read.pop("plan", None) is None
    assert read == original


def test_a_comparison_answered_again_from_its_stored_pair_differs_only_by_what_its_own_fits_made(comparison):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = cvi.compare(PairedCVResult.from_json(comparison.pair.to_json()))
    original, read = comparison.to_dict(), again.to_dict()
    assert again.pair.to_dict() == comparison.pair.to_dict()  # the store keeps every number of the pair
    made_by_fits = ("plan", "tests", "notes", "decision", "warnings")
    assert {key: value for key, value in original.items() if key not in made_by_fits} == {
        key: value for key, value in read.items() if key not in made_by_fits}
    # the plan is made before the fits, from the learners and the call's n_repeats="auto"; a pair has none
    assert "plan" in original and "plan" not in read and again.plan is None
    assert read["notes"] == [note for note in original["notes"] if note not in comparison.words.notes]
    # 5x2cv's test refits the learners on five new partitions: not in the pair
    assert read["tests"] == [test for test in original["tests"] if test["method"] != "5x2cv-t"]
    assert len(read["tests"]) == len(original["tests"]) - 1
    assert set(read["warnings"]) <= set(original["warnings"])
    # the decision rested on nested cross-validation, which refits the learners; the pair's answer has no such route
    assert comparison.decision.rests_on.method == "nested-cv" and comparison.nested is not None
    assert again.nested is None and "nested-cv" not in [t.method for t in (again.decision.rests_on,
                                                                             *again.decision.context) if t]
    assert again.decision.difference == comparison.decision.difference


def test_the_answers_json_is_a_report_without_a_reader(comparison):
    """The answers have no from_json: their JSON is the command line's report, and their docstrings say to keep the
    records."""
    for answer in (type(comparison), cvi.workflows.Evaluation):
        assert not hasattr(answer, "from_json")
    assert "PairedCVResult.from_json" in type(comparison).to_json.__doc__
