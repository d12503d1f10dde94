"""Issue 44, item 5: a CandidateComparison stores its per-candidate figures as one table and its settings as one
mapping; neither is an attribute of its own."""

import json
import warnings

import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.results import CandidateComparison

COLUMNS = ("mean_score", "estimate", "low", "high", "statistic", "pvalue", "pvalue_adjusted", "prob_best_better",
           "prob_equivalent", "prob_candidate_better", "indistinguishable", "baseline_pvalue", "beats_baseline")
SETTINGS = ("scoring", "n_splits", "n_repeats", "method", "correction", "alpha", "confidence_level", "margin", "df",
            "no_information_rate", "majority_class")
"""The settings, none of them a field."""
STORED = (*SETTINGS[:8], "margin_rule", *SETTINGS[8:])
"""The settings as the format stores them: ``margin_rule`` says where the margin came from (issue 45 item 8)."""


@pytest.fixture(scope="module")
def comparisons():
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[:200], y[:200]
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 4]}, cv=cv).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return cvi.compare_candidates(search), cvi.compare_candidates(search, y=y)


def test_the_per_candidate_figures_are_one_field(comparisons):
    plain, checked = comparisons
    fields = [name for name in CandidateComparison.__dataclass_fields__ if not name.startswith("_")]
    assert not set(fields) & set(COLUMNS)
    assert not any(hasattr(plain, name) for name in (*COLUMNS, *SETTINGS))
    assert "beats_baseline" not in plain.table and "beats_baseline" in checked.table
    data = checked.to_dict()
    assert data["version"] == 1 and list(data["columns"]["mapping"]) == list(COLUMNS)


def test_a_column_of_the_wrong_length_is_refused(comparisons):
    data = json.loads(comparisons[0].to_json())
    data["columns"]["mapping"]["pvalue"]["array"].pop()
    data["columns"]["mapping"]["pvalue"]["shape"] = [2]
    with pytest.raises(ValueError, match=r"CandidateComparison.columns must each hold one entry per candidate"):
        CandidateComparison.from_dict(data)


def test_the_settings_are_one_field_and_about_ten_fields_remain(comparisons):
    plain, checked = comparisons
    fields = [name for name in CandidateComparison.__dataclass_fields__ if not name.startswith("_")]
    assert not set(fields) & set(SETTINGS) and len(fields) == 10
    assert list(plain.settings) == [*STORED[:-2], "target"]
    assert list(checked.settings) == [*STORED, "target"] and checked.settings["majority_class"] == 0
    assert checked.settings["df"] == 9 and (checked.settings["n_splits"], checked.settings["n_repeats"]) == (5, 2)
    data = checked.to_dict()
    assert list(data["settings"]["mapping"]) == list(STORED) and "alpha" not in data
    assert "no_information_rate" not in plain.to_dict()["settings"]["mapping"]
    with pytest.raises(TypeError):
        checked.settings["alpha"] = 0.1


def test_the_settings_round_trip(comparisons):
    for comparison in comparisons:
        again = CandidateComparison.from_dict(json.loads(comparison.to_json()))
        assert again == comparison and dict(again.settings) == dict(comparison.settings)
        assert again.summary() == comparison.summary()
