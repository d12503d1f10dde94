"""The front door seeds unset learners from ``random_state`` (issue 58, item 4).

The reproduction: ``cvi.compare(GaussianNB(), DecisionTreeClassifier(max_depth=2), X, y, random_state=0)`` on the
first 150 rows and 5 columns of breast cancer gave a 5x2cv t of 0.216 in one run and 0.402 in the next (and once a
different prediction), because the tree's ``random_state=None`` drew from numpy's global generator. The front door
now sets every unset ``random_state`` parameter, on a clone, from ``random_state``.
"""

import json

import joblib
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import BaggingClassifier, RandomForestClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import cvinference as cvi
from cvinference.evaluation._seeding import learner_seeds, seed_learners, unset_random_states
from cvinference.splitters import ForwardSplit

X_ALL, Y_ALL = load_breast_cancer(return_X_y=True)
X, Y = X_ALL[:150, :5], Y_ALL[:150]


def _records(comparison):
    """What the fits made: both records' predictions and losses, the tests' statistics, nested CV's interval."""
    pair = comparison.pair
    tests = {name: (test.statistic, test.pvalue) for name, test in comparison.test_rows}
    nested = None if comparison.nested is None else (comparison.nested.estimate, comparison.nested.low,
                                                     comparison.nested.high)
    return pair.a.y_pred, pair.b.y_pred, pair.a.fold, tests, nested


def _assert_same(first, second):
    for one, other in zip(first[:3], second[:3], strict=True):
        np.testing.assert_array_equal(one, other)
    assert first[3].keys() == second[3].keys()
    for name in first[3]:
        np.testing.assert_allclose(first[3][name], second[3][name], rtol=1e-12, err_msg=name)
    if first[4] is None:
        assert second[4] is None
    else:
        np.testing.assert_allclose(first[4], second[4], rtol=1e-12)


def test_the_reproduction_gives_the_same_answer_on_every_run_and_for_any_n_jobs():
    """Two runs (and a third on two cores) of the issue's call, nested CV forced: the same records, the same 5x2cv
    t and the same nested interval; the user's tree keeps random_state=None."""
    tree = DecisionTreeClassifier(max_depth=2)
    runs = [cvi.compare(GaussianNB(), tree, X, Y, random_state=0, nested="always", n_jobs=n_jobs)
            for n_jobs in (1, 1, 2)]
    assert "5x2cv t" in dict(runs[0].test_rows) and runs[0].nested is not None
    _assert_same(_records(runs[0]), _records(runs[1]))
    _assert_same(_records(runs[0]), _records(runs[2]))
    assert tree.get_params()["random_state"] is None
    assert tree.get_params() == DecisionTreeClassifier(max_depth=2).get_params()


def test_the_note_names_the_learner_seeded_and_its_seed_in_the_summary_and_the_json():
    comparison = cvi.compare(GaussianNB(), DecisionTreeClassifier(max_depth=2), X, Y, random_state=0, nested="never")
    seed = learner_seeds(["random_state"], 0, 1)["random_state"]  # B is learner 1
    note = (f"random_state=0 seeded the unset random_state of B = DecisionTreeClassifier (random_state={seed})")
    assert any(line.startswith(note) for line in comparison.to_dict()["notes"])
    assert note.split(" (")[0] in " ".join(comparison.summary().split())
    assert note in comparison.to_json()  # the JSON holds the report, notes included
    assert any(line.startswith(note) for line in json.loads(comparison.to_json())["notes"])
    assert not any("A = GaussianNB" in line for line in comparison.to_dict()["notes"])  # nothing to seed in A


def test_a_and_b_of_the_same_class_get_different_seeds_and_the_same_records_as_hand_seeded_learners():
    """The front door's fits are those of CVEvaluator on clones seeded by hand with the seeds the note names."""
    comparison = cvi.compare(DecisionTreeClassifier(), DecisionTreeClassifier(max_depth=2), X, Y, cv=5, n_repeats=1,
                             random_state=3, nested="never")
    seeds = [learner_seeds(["random_state"], 3, index)["random_state"] for index in (0, 1)]
    assert seeds[0] != seeds[1]
    by_hand = cvi.CVEvaluator(5, random_state=3).compare(DecisionTreeClassifier(random_state=seeds[0]),
                                                         DecisionTreeClassifier(max_depth=2, random_state=seeds[1]),
                                                         X, Y)
    np.testing.assert_array_equal(comparison.pair.a.y_pred, by_hand.a.y_pred)
    np.testing.assert_array_equal(comparison.pair.b.y_pred, by_hand.b.y_pred)


def test_a_seeded_learner_is_fitted_as_given_and_gets_no_note():
    tree = DecisionTreeClassifier(max_depth=3, random_state=5)
    evaluation = cvi.evaluate(tree, X, Y, cv=5, random_state=0)
    plain = cvi.CVEvaluator(5, random_state=0).evaluate(DecisionTreeClassifier(max_depth=3, random_state=5), X, Y)
    np.testing.assert_array_equal(evaluation.result.y_pred, plain.y_pred)
    assert not any("seeded" in line for line in evaluation.to_dict().get("notes", []))
    learners, seeds = seed_learners([tree], 0)
    assert learners[0] is tree and seeds == ({},)


def test_without_random_state_nothing_is_seeded():
    forest = RandomForestClassifier(n_estimators=3)
    learners, seeds = seed_learners([forest, GaussianNB()], None)
    assert learners[0] is forest and seeds == ({}, {})
    evaluation = cvi.evaluate(forest, X, Y, cv=3)
    assert not any("seeded" in line for line in evaluation.to_dict().get("notes", []))
    assert forest.random_state is None


def test_an_unseeded_forest_in_a_pipeline_evaluates_the_same_twice_and_for_any_n_jobs_and_backend():
    pipeline = make_pipeline(StandardScaler(), RandomForestClassifier(n_estimators=5))
    runs = [cvi.evaluate(pipeline, X, Y, cv=5, random_state=1, n_jobs=n_jobs) for n_jobs in (1, 1, 2)]
    with joblib.parallel_config(backend="threading"):
        runs.append(cvi.evaluate(pipeline, X, Y, cv=5, random_state=1, n_jobs=2))
    for run in runs[1:]:
        np.testing.assert_array_equal(run.result.y_pred, runs[0].result.y_pred)
    seed = learner_seeds(["randomforestclassifier__random_state"], 1, 0)["randomforestclassifier__random_state"]
    assert any(f"Pipeline (randomforestclassifier__random_state={seed})" in line for line in runs[0].to_dict()["notes"])
    assert pipeline.get_params()["randomforestclassifier__random_state"] is None


@pytest.mark.parametrize(("estimator", "names"), [
    (GaussianNB(), []),
    (DecisionTreeClassifier(random_state=0), []),
    (make_pipeline(StandardScaler(), DecisionTreeClassifier()), ["decisiontreeclassifier__random_state"]),
    (BaggingClassifier(DecisionTreeClassifier()), ["estimator__random_state", "random_state"]),
    (BaggingClassifier(DecisionTreeClassifier(random_state=2), random_state=np.random.RandomState(0)), []),
])
def test_the_unset_random_states_of_pipelines_and_meta_estimators(estimator, names):
    assert unset_random_states(estimator) == names
    learners, seeds = seed_learners([estimator], 7)
    assert sorted(seeds[0]) == names
    if names:
        assert learners[0] is not estimator and unset_random_states(learners[0]) == []
        assert unset_random_states(estimator) == names  # the caller's estimator unchanged
        assert all(learners[0].get_params()[name] == seed for name, seed in seeds[0].items())


def test_the_seeds_are_ints_a_random_state_takes_and_a_generator_is_not_advanced():
    generator = np.random.RandomState(4)
    state = generator.get_state()[1].copy()
    first = seed_learners([DecisionTreeClassifier()], generator)[1]
    np.testing.assert_array_equal(generator.get_state()[1], state)
    assert seed_learners([DecisionTreeClassifier()], np.random.RandomState(4))[1] == first
    seed = first[0]["random_state"]
    assert isinstance(seed, int) and 0 <= seed < 2**31 - 1
    clone(DecisionTreeClassifier(random_state=seed)).fit(X, Y)  # scikit-learn takes it


def test_forward_validation_seeds_the_regressor_too():
    rows = np.arange(60, dtype=float)
    series = np.sin(rows / 5) + 0.01 * rows
    features = np.column_stack([np.roll(series, 1), np.roll(series, 2)])[2:]
    target = series[2:]
    cv = ForwardSplit(5, horizon=2)
    runs = [cvi.evaluate(DecisionTreeRegressor(max_features=1), features, target, cv=cv, random_state=0)
            for _ in range(2)]
    np.testing.assert_array_equal(runs[0].result.y_pred, runs[1].result.y_pred)
    assert any("seeded the unset random_state of DecisionTreeRegressor" in line for line in runs[0].to_dict()["notes"])
