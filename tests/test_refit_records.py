"""The refitting methods' ``estimator, X, y`` forms print what they printed before their records existed.

Issue 27 gave every refitting scheme a public record made by the evaluation
layer and every interval and test a pure function of records in the inference
layer; the ``estimator, X, y`` forms became conveniences that fit the record
and call the pure function. Nothing they return may change.

``tests/refit_outputs.json`` holds the outputs of the calls in ``CALLS``
produced by the code at commit cfc92f7 (``main`` before issue 27), with
exactly these arguments: every number of the result (floats written by
``json``, which round-trips a float), its details, notes and warnings. They
are compared with ``==``: not one bit may change.
"""

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

X, Y = load_breast_cancer(return_X_y=True)
RECORDED = json.loads((Path(__file__).parent / "refit_outputs.json").read_text())


def nb():
    return GaussianNB()


def tree():
    return DecisionTreeClassifier(max_depth=3, random_state=0)


CALLS = {
    "nested": lambda: cvi.nested_cv_interval(nb(), X, Y, n_splits=5, n_repeats=3, random_state=0),
    "nested_pair": lambda: cvi.nested_cv_interval(nb(), X, Y, n_splits=4, n_repeats=2, estimator_b=tree(),
                                                  random_state=1),
    "nested_log": lambda: cvi.nested_cv_interval(nb(), X, Y, n_splits=3, n_repeats=2, loss="log_loss",
                                                 confidence_level=0.9, random_state=2),
    "conservative": lambda: cvi.conservative_z_interval(nb(), X, Y, n_pairs=3, n_splits=5, random_state=0),
    "conservative_pair": lambda: cvi.conservative_z_interval(nb(), X, Y, n_pairs=2, n_splits=4, estimator_b=tree(),
                                                             test_size=0.3, confidence_level=0.9, random_state=1),
    "bootstrap_632": lambda: cvi.bootstrap_accuracy(tree(), X, Y, n_bootstraps=40, random_state=0),
    "bootstrap_632plus": lambda: cvi.bootstrap_accuracy(tree(), X, Y, method=".632+", n_bootstraps=40,
                                                        stratify=True, random_state=0),
    "bootstrap_oob": lambda: cvi.bootstrap_accuracy(tree(), X, Y, method="oob", n_bootstraps=40,
                                                    confidence_level=0.8, random_state=0),
    "ttest_5x2cv": lambda: cvi.paired_ttest_5x2cv(nb(), tree(), X, Y, random_state=0),
    "ttest_5x2cv_greater": lambda: cvi.paired_ttest_5x2cv(nb(), tree(), X, Y, alternative="greater", random_state=3),
    "ftest_5x2cv": lambda: cvi.combined_ftest_5x2cv(nb(), tree(), X, Y, random_state=0),
}

_FIELDS = ("estimate", "low", "high", "standard_error", "critical_value", "statistic", "pvalue", "df",
           "df_denominator", "n", "n_samples")


def _plain(value):
    """Arrays and numpy scalars as the lists and Python numbers JSON holds."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def observed(result):
    """Every number, note and warning of ``result``, as JSON holds them."""
    found = {field: _plain(getattr(result, field)) for field in _FIELDS if hasattr(result, field)}
    if hasattr(result, "confidence_interval"):
        found["confidence_interval"] = list(result.confidence_interval())
    if hasattr(result, "values"):
        found["values"] = _plain(result.values)
    found["details"] = {key: _plain(value) for key, value in result.details.items()}
    found["notes"], found["warnings"] = list(result.notes), list(result.warnings)
    return found


def _same(found, expected):
    """``==`` all the way down, with nan equal to nan."""
    if isinstance(expected, float) and math.isnan(expected):
        return isinstance(found, float) and math.isnan(found)
    if isinstance(expected, list):
        return isinstance(found, list) and len(found) == len(expected) and all(map(_same, found, expected))
    if isinstance(expected, dict):
        return isinstance(found, dict) and found.keys() == expected.keys() and all(
            _same(found[key], expected[key]) for key in expected)
    return type(found) is type(expected) and found == expected


def run(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return CALLS[name]()


def test_every_call_has_its_recorded_output():
    assert sorted(RECORDED) == sorted(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_the_convenience_returns_what_it_returned_before(name):
    found, expected = observed(run(name)), RECORDED[name]
    for key in expected:
        assert _same(found[key], expected[key]), (name, key, found[key], expected[key])
    assert found.keys() == expected.keys()


def test_the_comparison_catches_one_changed_bit():
    expected = RECORDED["nested"]
    changed = dict(expected, estimate=math.nextafter(expected["estimate"], 1.0))
    assert _same(expected, expected) and not _same(changed, expected)
    assert not _same({"n": 569.0}, {"n": 569}) and _same([math.nan], [math.nan])
