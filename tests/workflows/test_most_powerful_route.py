"""The front door takes the most powerful calibrated route its budget allows (issue 45, item 11): where the
decision on accuracy from one 10-fold cross-validation cannot tell, nested cross-validation and more repeats of the
cross-validation are weighed by their measured power on the power cells they share, and the budget decides which
can run."""

import pytest
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

X, Y = make_classification(n_samples=300, n_features=6, random_state=0)
TREE, STUMP = DecisionTreeClassifier(random_state=0), DecisionTreeClassifier(max_depth=1, random_state=0)


def _row(method, quantity, rate, **design):
    return {"method": method, **design, "quantity": quantity, "target": "unconditional", "learner": "tree", "n": 300,
            "population": "test-power" if quantity == "power" else "test", "nominal": 0.05, "measured": rate,
            "wilson_low": max(rate - 0.03, 0.0), "wilson_high": rate + 0.03, "replications": 200, "mean_width": 0.1}


def _evidence(nested_power, repeats_power):
    """Trees at N = 300: the 1 x 10-fold corrected t above the limit (so the folds cannot tell), the 10 x 10-fold
    one and nested CV within it, with the given power on one shared power cell."""
    return [_row("corrected-t", "type_i", 0.09, repeats=1, folds=10),
            _row("corrected-t", "type_i", 0.03, repeats=10, folds=10),
            _row("nested-cv", "type_i", 0.04), _row("corrected-t", "power", repeats_power, repeats=10, folds=10),
            _row("nested-cv", "power", nested_power)]


def test_more_repeats_run_where_they_were_measured_more_powerful(evidence):
    evidence(*_evidence(nested_power=0.5, repeats_power=0.7))
    comparison = cvi.compare(TREE, STUMP, X, Y, n_repeats=1, random_state=0)
    assert comparison.nested is None and comparison.pair.a.n_repeats == 10
    assert comparison.decision.rests_on.name.endswith("(10x10-fold)")
    assert comparison.fits == 20 + 20 + 200  # 1 x 10-fold, 5x2cv, then 10 x 10-fold of both learners


def test_nested_cv_runs_where_it_was_measured_more_powerful(evidence):
    evidence(*_evidence(nested_power=0.8, repeats_power=0.6))
    comparison = cvi.compare(TREE, STUMP, X, Y, n_repeats=1, random_state=0)
    assert comparison.nested is not None and comparison.pair.a.n_repeats == 1
    assert comparison.decision.rests_on.name == "nested-cv difference"
    assert comparison.fits == 20 + 20 + 150


def test_a_budget_runs_the_most_powerful_route_it_can_pay_for_and_says_what_more_buys(evidence):
    evidence(*_evidence(nested_power=0.5, repeats_power=0.7))
    comparison = cvi.compare(TREE, STUMP, X, Y, n_repeats=1, random_state=0, budget=200)
    assert comparison.nested is not None and comparison.fits == 190
    assert ("budget=200 (200 fits) ran nested cross-validation's difference interval (150 fits) instead of the "
            "10 x 10-fold cross-validation (200 fits), the calibrated route with more measured power: a budget of "
            "240 runs it.") in comparison.to_dict()["notes"]


@pytest.mark.parametrize("nested_power, repeats_power, starts", [
    (0.5, 0.7, "The corrected t on 10 x 10-fold cross-validation kept its type-I error at or below 0.06"),
    (0.8, 0.6, "Nested cross-validation's difference interval kept its type-I error at or below 0.06"),
])
def test_the_decisions_route_is_the_most_powerful_and_names_the_others_power(evidence, nested_power, repeats_power,
                                                                              starts):
    evidence(*_evidence(nested_power, repeats_power))
    decision = cvi.decide(cvi.CVEvaluator(cv=10, random_state=0).compare(TREE, STUMP, X, Y))
    assert decision.answer == "cannot tell" and decision.route.startswith(starts)
    assert decision.route.endswith(
        f"Measured power of the calibrated routes on the 1 power cell they share: nested cross-validation's difference "
        f"interval, {nested_power:.2f} (150 fits); the corrected t on 10 x 10-fold cross-validation, "
        f"{repeats_power:.2f} (200 fits).")


def _repeats_evidence(rates):
    """Trees at N = 300: the corrected t at each R of ``rates`` ({R: (type-I, power)}), power on one shared cell."""
    return [_row("corrected-t", quantity, rate, repeats=repeats, folds=10) for repeats, pair in rates.items()
            for quantity, rate in zip(("type_i", "power"), pair, strict=True)]


def test_auto_repeats_plan_the_most_powerful_calibrated_number_before_any_fit(evidence):
    evidence(*_repeats_evidence({1: (0.04, 0.5), 3: (0.03, 0.8), 10: (0.03, 0.8)}))
    comparison = cvi.compare(TREE, STUMP, X, Y, n_repeats="auto", random_state=0)
    assert comparison.pair.a.n_repeats == 3  # as powerful as 10 repeats in the shared cell, for 60 fits, not 200
    assert comparison.decision.rests_on.name.endswith("(3x10-fold)")
    plan = next(note for note in comparison.to_dict()["notes"] if note.startswith("n_repeats='auto'"))
    assert plan.startswith("n_repeats='auto' planned 3 x 10-fold cross-validation (60 fits) before any fit: the "
                           "corrected t on 3 repeats kept its type-I error at or below 0.06 (its worst: 0.030)")
    assert "the corrected t on 10 x 10-fold cross-validation, 0.80 (200 fits)" in plan


def test_auto_repeats_spend_no_more_than_the_budget(evidence):
    evidence(*_repeats_evidence({1: (0.04, 0.5), 3: (0.03, 0.8), 10: (0.03, 0.8)}))
    comparison = cvi.compare(TREE, STUMP, X, Y, n_repeats="auto", budget=50, random_state=0)
    assert comparison.pair.a.n_repeats == 1 and comparison.fits <= 50
    assert any(note.startswith("n_repeats='auto' planned 1 x 10-fold cross-validation (20 fits) before any fit")
               and "within the budget" in note for note in comparison.to_dict()["notes"])


def test_auto_repeats_fall_back_to_one_and_say_so_where_none_held(evidence):
    evidence(*_repeats_evidence({1: (0.09, 0.5), 10: (0.08, 0.9)}))
    comparison = cvi.compare(TREE, STUMP, X, Y, n_repeats="auto", nested="never", random_state=0)
    assert comparison.pair.a.n_repeats == 1
    assert ("n_repeats='auto': the benchmark measured no number of repeats of the corrected t within 0.06 for these "
            "learners at about this size; 1 repeat was run.") in comparison.to_dict()["notes"]


def test_auto_repeats_are_the_same_plan_whatever_the_labels(evidence):
    # The plan reads the learners, the size, the metric, the budget and the evidence, never the data.
    evidence(*_repeats_evidence({1: (0.04, 0.5), 3: (0.03, 0.8), 10: (0.03, 0.8)}))
    shuffled = cvi.compare(TREE, STUMP, X, Y[::-1].copy(), n_repeats="auto", random_state=1)
    assert shuffled.pair.a.n_repeats == 3


def test_an_unknown_n_repeats_word_is_refused_naming_auto():
    with pytest.raises(ValueError, match="n_repeats must be an integer >= 1 or 'auto'"):
        cvi.compare(TREE, STUMP, X, Y, n_repeats="many")


@pytest.mark.parametrize("budget, bound", [
    (None, "at most 240 fits (12 times one 10-fold cross-validation; no budget set): 20 for the cross-validation, "
           "20 for 5x2cv, 200 for the 10 x 10-fold cross-validation if the decision needs it"),
    (200, "at most 190 fits (9.5 times one 10-fold cross-validation; budget 200 fits): 20 for the cross-validation, "
          "20 for 5x2cv, 150 for nested cross-validation if the decision needs it"),
])
def test_the_plan_bounds_the_costliest_route_the_budget_allows(evidence, capsys, budget, bound):
    evidence(*_evidence(nested_power=0.5, repeats_power=0.7))
    cvi.compare(TREE, STUMP, X, Y, n_repeats=1, random_state=0, budget=budget, verbose=1)
    plan = capsys.readouterr().err.split("\n")[0]
    assert plan == f"cvinference: plan: {bound}"


def test_a_splitter_that_cannot_repeat_takes_no_route_to_more_repeats(evidence):
    # KFold without shuffling gives one partition: the route to 10 repeats cannot run, so nested CV does, and
    # n_repeats="auto" plans the one repeat it can.
    from sklearn.model_selection import KFold

    evidence(*_evidence(nested_power=0.5, repeats_power=0.7))
    comparison = cvi.compare(TREE, STUMP, X, Y, cv=KFold(10), random_state=0)
    assert comparison.nested is not None and comparison.pair.a.n_repeats == 1
    evidence(*_repeats_evidence({1: (0.04, 0.5), 3: (0.03, 0.8)}))
    planned = cvi.compare(TREE, STUMP, X, Y, cv=KFold(10), n_repeats="auto", nested="never", random_state=0)
    assert planned.pair.a.n_repeats == 1
    assert any(note.startswith("n_repeats='auto': cv=KFold(") and note.endswith("1 repeat was run.")
               for note in planned.to_dict()["notes"])
