"""The route of a set-level metric (issue 45, item 1): where the decision on balanced accuracy (or F1, ROC AUC)
cannot tell and the calibration measured the corrected t holding at more repeats for these learners, the front
door runs those repeats within its budget; where no number of repeats held, the decision says so."""

from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

X, Y = make_classification(n_samples=300, n_features=6, random_state=0)
TREE, STUMP = DecisionTreeClassifier(random_state=0), DecisionTreeClassifier(max_depth=1, random_state=0)


def _rows(rates):
    """Null cells of two trees at N = 300 for the corrected t on balanced accuracy, one per number of repeats."""
    return [{"method": "corrected-t", "repeats": repeats, "folds": 10, "quantity": "type_i", "target": "unconditional",
             "learner": "tree", "n": 300, "population": "test", "nominal": 0.05, "measured": rate,
             "wilson_low": rate - 0.02, "wilson_high": rate + 0.03, "replications": 200, "mean_width": 0.1,
             "task": "balanced_accuracy"} for repeats, rate in rates.items()]


def test_the_front_door_runs_the_repeats_the_evidence_holds_for(evidence):
    evidence(*_rows({1: 0.09, 3: 0.03}))
    comparison = cvi.compare(TREE, STUMP, X, Y, metric="balanced_accuracy", n_repeats=1, random_state=0)
    assert comparison.pair.a.n_repeats == 3
    assert comparison.decision.rests_on.name == "corrected t on fold balanced_accuracy (3x10-fold)"
    assert comparison.decision.rests_on.measured_type_i == 0.03
    assert comparison.fits == 20 + 20 + 60  # 1 x 10-fold, 5x2cv, then 3 x 10-fold of both learners


def test_a_budget_below_the_route_leaves_it_out_and_says_what_would_run_it(evidence):
    evidence(*_rows({1: 0.09, 3: 0.03}))
    comparison = cvi.compare(TREE, STUMP, X, Y, metric="balanced_accuracy", n_repeats=1, random_state=0, budget=50)
    assert comparison.pair.a.n_repeats == 1 and comparison.decision.answer == "cannot tell"
    assert "The corrected t on 3 x 10-fold cross-validation kept its type-I error at or below 0.06 (its worst: " \
           "0.030)" in comparison.decision.route
    assert any("left out the 3 x 10-fold cross-validation (60 fits)" in note and "a budget of 100 runs it" in note
               for note in comparison.to_dict()["notes"])


def test_without_a_measured_number_of_repeats_the_decision_says_no_route_settles_it(evidence):
    evidence(*_rows({1: 0.09, 10: 0.08}))
    pair = cvi.CVEvaluator(cv=10, random_state=0).compare(TREE, STUMP, X, Y)
    decision = cvi.decide(pair, metric="balanced_accuracy")
    assert decision.answer == "cannot tell"
    assert decision.route.startswith("No route settles balanced_accuracy here: the benchmark measured no number of "
                                     "repeats of the corrected t on fold balanced_accuracy within 0.06")
    assert "10 x 10-fold" not in decision.route  # never a route to a number of repeats that did not hold
