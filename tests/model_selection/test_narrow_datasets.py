"""Issue 44, item 5: a DatasetComparison stores its per-learner figures as one table and its per-dataset figures as
another; neither figure is an attribute of its own."""

import json
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.model_selection._datasets import nemenyi_groups, nemenyi_pvalues, rank_within_datasets
from cvinference.results import DatasetComparison

TO_TABLE = {"average_ranks": "average_rank", "wilcoxon_statistic": "statistic", "wilcoxon_pvalue": "pvalue",
            "wilcoxon_pvalue_adjusted": "pvalue_adjusted"}
TO_DATASET_TABLE = {"dataset_estimate": "estimate", "dataset_low": "low", "dataset_high": "high",
                    "dataset_pvalue": "pvalue"}


@pytest.fixture(scope="module")
def comparisons():
    scores = np.array([[0.81, 0.80, 0.75], [0.62, 0.66, 0.60], [0.90, 0.90, 0.88], [0.70, 0.71, 0.74]])
    evaluator = cvi.CVEvaluator(cv=5, n_repeats=2, random_state=0)
    by_dataset = {}
    for seed in (0, 1, 2):
        X, y = make_classification(n_samples=50, n_features=4, random_state=seed)
        pair = evaluator.compare(DecisionTreeClassifier(max_depth=2, random_state=0), GaussianNB(), X, y)
        by_dataset[f"data {seed}"] = {"tree": pair.a, "bayes": pair.b}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return (cvi.compare_on_datasets(scores, learners=("tree", "bayes", "knn"), greater_is_better=False),
                cvi.compare_on_datasets(by_dataset))


def test_the_figures_are_two_fields_and_ranks_follow_from_the_scores(comparisons):
    plain = comparisons[0]
    fields = [name for name in DatasetComparison.__dataclass_fields__ if not name.startswith("_")]
    assert not set(fields) & {*TO_TABLE, *TO_DATASET_TABLE, "ranks", "nemenyi_pvalues", "groups"}
    assert len(fields) == 12
    for comparison in comparisons:
        data = comparison.to_dict()
        assert data["version"] == 1 and not {"ranks", "nemenyi_pvalues", "groups"} & set(data)
        average = comparison.table["average_rank"]
        np.testing.assert_array_equal(comparison.nemenyi_pvalues, nemenyi_pvalues(average, len(comparison.datasets)))
        assert comparison.groups == nemenyi_groups(comparison.learners, average, comparison.critical_difference)
        assert list(data["learner_columns"]["mapping"]) == list(TO_TABLE.values())
        ranks = rank_within_datasets(comparison.scores, comparison.greater_is_better)
        np.testing.assert_array_equal(comparison.ranks, ranks)
        assert not comparison.ranks.flags.writeable
        np.testing.assert_array_equal(comparison.dataset_table["rank"], comparison.ranks)
        np.testing.assert_array_equal(comparison.dataset_table["score"], comparison.scores)
        assert list(comparison.table["learner"]) == list(comparison.learners)
    assert data["dataset_columns"]["mapping"].keys() == set(TO_DATASET_TABLE.values())
    assert plain.to_dict()["dataset_columns"] == {"mapping": {}} and "estimate" not in plain.dataset_table


def test_to_frame_is_the_table_best_rank_first(comparisons):
    for comparison in comparisons:
        frame, table = comparison.to_frame(), comparison.table
        order = np.argsort(table["average_rank"], kind="stable")
        assert list(frame.columns) == list(table)
        assert frame["learner"].tolist() == [comparison.learners[j] for j in order]
        for name in list(table)[1:]:
            np.testing.assert_array_equal(frame[name].to_numpy(), np.asarray(table[name])[order])


@pytest.mark.parametrize("name", [*TO_TABLE, *TO_DATASET_TABLE])
def test_the_figures_that_were_fields_before_the_release_are_only_columns(comparisons, name):
    """The names of the figures that were fields before 0.1.0, each now a column of a table (docs/whats_new.md)."""
    table, column = ("table", TO_TABLE[name]) if name in TO_TABLE else ("dataset_table", TO_DATASET_TABLE[name])
    for comparison in comparisons:
        assert not hasattr(comparison, name)
        assert column in getattr(comparison, table) or comparison is comparisons[0]


def test_a_column_of_the_wrong_length_is_refused(comparisons):
    data = json.loads(comparisons[0].to_json())
    data["learner_columns"]["mapping"]["pvalue"]["array"].pop()
    data["learner_columns"]["mapping"]["pvalue"]["shape"] = [len(comparisons[0].learners) - 1]
    with pytest.raises(ValueError, match=r"DatasetComparison.learner_columns\['pvalue'\] must have the shape"):
        DatasetComparison.from_dict(data)
