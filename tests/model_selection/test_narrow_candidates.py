"""Issue 44, item 5: a CandidateComparison stores its per-candidate figures as one table; the old attributes warn
until 0.2."""

import json
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.results import CandidateComparison

COLUMNS = ("mean_score", "estimate", "low", "high", "statistic", "pvalue", "pvalue_adjusted", "prob_best_better",
           "prob_equivalent", "prob_candidate_better", "indistinguishable", "baseline_pvalue", "beats_baseline")
SETTINGS = ("scoring", "n_splits", "n_repeats", "method", "correction", "alpha", "confidence_level", "rope", "df",
            "no_information_rate", "majority_class")
"""The settings that were fields until 0.1."""
STORED = (*SETTINGS[:8], "rope_rule", *SETTINGS[8:])
"""The settings as format version 3 stores them: ``rope_rule`` says where the margin came from (issue 45 item 8)."""


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
    assert "beats_baseline" not in plain.table and "beats_baseline" in checked.table
    data = checked.to_dict()
    assert data["version"] == 3 and list(data["columns"]["mapping"]) == list(COLUMNS)


@pytest.mark.parametrize("name", COLUMNS)
def test_an_old_attribute_warns_naming_the_table_and_reads_the_same(comparisons, name):
    plain, checked = comparisons
    for comparison in (plain, checked):
        with pytest.warns(FutureWarning, match=rf"CandidateComparison.{name} moved to "
                                               rf"CandidateComparison.table\['{name}'\] .* version 0.2"):
            old = comparison.__getattribute__(name)
        if name in comparison.table:
            np.testing.assert_array_equal(old, comparison.table[name])
        else:
            assert old is None


def test_a_dict_of_version_1_reads_as_today(comparisons):
    for comparison in comparisons:
        data = json.loads(comparison.to_json())
        columns = data.pop("columns")["mapping"]
        settings = data.pop("settings")["mapping"]
        old = {key: value for key, value in data.items()} | {"version": 1}
        old |= {name: columns.get(name) for name in COLUMNS} | {name: settings.get(name) for name in SETTINGS}
        assert ("no_information_rate" in settings) == (comparison.table.get("beats_baseline") is not None)
        again = CandidateComparison.from_dict(old)
        assert again == comparison and again.to_dict() == comparison.to_dict()


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


@pytest.mark.parametrize("name", SETTINGS)
def test_an_old_setting_warns_naming_the_settings_and_reads_the_same(comparisons, name):
    plain, checked = comparisons
    for comparison in (plain, checked):
        with pytest.warns(FutureWarning, match=rf"CandidateComparison.{name} moved to "
                                               rf"CandidateComparison.settings\['{name}'\] .* version 0.2"):
            old = comparison.__getattribute__(name)
        if name in comparison.settings:
            assert old == comparison.settings[name] and type(old) is type(comparison.settings[name])
        else:
            assert old is None


def test_the_settings_round_trip(comparisons):
    for comparison in comparisons:
        again = CandidateComparison.from_dict(json.loads(comparison.to_json()))
        assert again == comparison and dict(again.settings) == dict(comparison.settings)
        assert again.summary() == comparison.summary()
