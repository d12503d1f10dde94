"""Issue 44, item 5: an Interval keeps its core fields; the other figures are in ``details``, and only there."""

import json
import warnings

import pytest

import cvinference as cvi
from cvinference.results import Interval

from result_cases import INTERVAL_FIGURES

MOVED = INTERVAL_FIGURES
"""The figures an Interval held as fields before the release, each now a key of ``details`` only."""


def _record():
    return cvi.CVResult(y_true=[0, 1] * 50, y_pred=[0, 1] * 45 + [1, 0] * 5, fold=[0, 1, 2, 3, 4] * 20)


def _intervals():
    result = _record()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return [cvi.accuracy_interval(result, method="wilson"),
                cvi.accuracy_interval(result, averaging="fold", method="t"),
                cvi.accuracy_interval(result, method="normal")]


def test_the_fields_are_the_core_ones():
    names = [name for name in Interval.__dataclass_fields__ if not name.startswith("_")]
    assert names == ["estimate", "low", "high", "confidence_level", "method", "estimand", "assumptions", "target",
                     "conditions", "details", "notes", "warnings"]


def test_details_begin_with_the_moved_figures():
    wilson, fold_t, normal = _intervals()
    for interval in (wilson, fold_t, normal):
        assert tuple(interval.details)[:len(MOVED)] == MOVED
    assert fold_t.details["averaging"] == "fold" and fold_t.details["df"] == 4 and fold_t.details["n"] == 5
    assert wilson.details["standard_error"] is None and wilson.details["df"] is None
    assert normal.details["critical_value"] == pytest.approx(1.959964, abs=1e-6)
    assert "95% t interval (fold level)" in fold_t.summary()


def test_a_figure_is_neither_an_attribute_nor_a_keyword():
    _, fold_t, _ = _intervals()
    assert not any(hasattr(fold_t, name) for name in MOVED)
    figures = {name: fold_t.details[name] for name in MOVED}
    core = {name: getattr(fold_t, name) for name in ("estimate", "low", "high", "confidence_level", "method",
                                                     "estimand", "assumptions", "target", "conditions", "notes",
                                                     "warnings")}
    with pytest.raises(TypeError, match="averaging"):
        Interval(**core, **figures)
    assert Interval(**core, details=figures) == fold_t


def test_arguments_after_method_are_keywords_and_averaging_is_needed():
    with pytest.raises(TypeError):
        Interval(0.5, 0.4, 0.6, 0.95, "t", "dataset", "accuracy", "", "kfold")
    with pytest.raises(ValueError, match="details must hold 'averaging'"):
        Interval(estimate=0.5, low=0.4, high=0.6, confidence_level=0.95, method="t", estimand="accuracy",
                 assumptions="", target="kfold")


def test_a_moved_figure_of_the_wrong_kind_is_refused():
    data = json.loads(_intervals()[1].to_json())
    data["details"]["mapping"]["averaging"] = "instance"
    with pytest.raises(ValueError, match=r"Interval.details\['averaging'\]"):
        Interval.from_dict(data)
    del data["details"]["mapping"]["averaging"]
    with pytest.raises(ValueError, match=r"Interval.details must be .*; it has no key 'averaging'"):
        Interval.from_dict(data)
