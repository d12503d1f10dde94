"""Every public result survives a JSON round trip, and reads as a table and as HTML.

The result types are found among the public names (``tests/public_names.py``: every class of
the records and inference layers but ``Loss``, a loss function rather than a
result), so a new result class without ``to_dict``/``from_dict`` or without a
case in ``tests/result_cases.py`` fails. Each case is built by the public
functions on small seeded data, with nan statistics and pooled repeats among
them. The oracle of a
round trip is the original object: every field compared with its type
(arrays with dtype, shape and the read-only flag; tuples stay tuples).
"""

import dataclasses
import html
import inspect
import json
import math
import pickle
import re
import sys
import types

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference._utils import _serialize

from public_names import public_names
from result_cases import result_cases

NOT_RESULTS = {"Loss"}


def _public_result_types():
    found = set()
    for name, obj in public_names().items():
        if inspect.isclass(obj) and obj.__module__.split(".")[1] in ("records", "inference"):
            found.add(name)
    return found - NOT_RESULTS


@pytest.fixture(scope="module")
def cases():
    return result_cases()


def _data():
    return make_classification(n_samples=60, n_features=4, n_informative=3, n_redundant=0, random_state=0)


def _round_trip(result):
    text = json.dumps(result.to_dict(), allow_nan=False)
    return type(result).from_dict(json.loads(text))


def assert_same(original, again, where="result"):
    """Equal in every field, with the same types; nan equals nan."""
    assert type(again) is type(original), f"{where}: {type(again).__name__} is not {type(original).__name__}"
    if dataclasses.is_dataclass(original):
        for field in dataclasses.fields(original):
            assert_same(getattr(original, field.name), getattr(again, field.name), f"{where}.{field.name}")
    elif isinstance(original, cvi.PairedCVResult):
        assert_same(original.a, again.a, f"{where}.a")
        assert_same(original.b, again.b, f"{where}.b")
    elif isinstance(original, cvi.CVResult):
        for name in ("y_true", "y_pred", "fold", "loss", "correct", "classes"):
            assert_same(getattr(original, name), getattr(again, name), f"{where}.{name}")
        for name in ("loss_name", "estimator_repr", "cv_repr", "n_train"):
            assert getattr(again, name) == getattr(original, name), f"{where}.{name}"
    elif isinstance(original, np.ndarray):
        assert (again.dtype, again.shape) == (original.dtype, original.shape), where
        assert again.flags.writeable == original.flags.writeable, where
        if original.dtype.kind in "fc":
            np.testing.assert_array_equal(again, original, err_msg=where)  # nan == nan here
        else:
            assert again.tolist() == original.tolist(), where
    elif isinstance(original, (tuple, list)):
        assert len(again) == len(original), where
        for i, (x, y) in enumerate(zip(original, again, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(original, (dict, types.MappingProxyType)):
        assert list(again) == list(original), where
        for key in original:
            assert_same(original[key], again[key], f"{where}[{key!r}]")
    elif isinstance(original, float) and math.isnan(original):
        assert math.isnan(again), where
    else:
        assert again == original, where


def _has_non_finite(value):
    if dataclasses.is_dataclass(value):
        return any(_has_non_finite(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "f" and not np.isfinite(value).all()
    if isinstance(value, (tuple, list)):
        return any(map(_has_non_finite, value))
    if isinstance(value, (dict, types.MappingProxyType)):
        return any(map(_has_non_finite, value.values()))
    return isinstance(value, float) and not math.isfinite(value)


def test_every_public_result_type_has_a_case(cases):
    built = {type(result).__name__ for _, result in cases}
    assert _public_result_types() <= built, f"no round-trip case for {sorted(_public_result_types() - built)}"


def test_the_cases_hold_nan_statistics_and_pooled_repeats(cases):
    by_label = dict(cases)
    infinite = by_label["TestResult matched, infinite statistic"]
    assert infinite.statistic == math.inf and math.isnan(infinite.pvalue)
    assert math.isnan(by_label["SchemeDiagnostic, nan phi"].phi)
    assert np.isnan(by_label["BootstrapResult"].values).any()  # bootstraps of 8 instances that left none out
    assert by_label["TestResult matched pooled repeats"].warnings
    assert by_label["LargeSampleConditions"].holds.shape[0] == 2


def test_every_result_survives_a_json_round_trip(cases):
    non_finite = 0
    for label, result in cases:
        again = _round_trip(result)
        assert_same(result, again, label)
        assert again == result, label
        assert repr(again) == repr(result), label
        if hasattr(result, "summary"):
            assert again.summary() == result.summary(), label
        if hasattr(result, "confidence_interval"):
            for level in (0.9, 0.95):
                assert_same(result.confidence_interval(level), again.confidence_interval(level), label)
        non_finite += _has_non_finite(result)
    assert non_finite >= 3  # infinite statistic and nan p-value, nan phi, empty bootstraps


def test_every_result_survives_pickle_and_joblib(cases):
    """Read-only mappings, which pickle alone refuses, come back read-only; the oracle is the original."""
    joblib = pytest.importorskip("joblib")
    for label, result in cases:
        again = pickle.loads(pickle.dumps(result))
        assert_same(result, again, label)
        assert again == result, label
        assert repr(again) == repr(result), label
    interval = dict(cases)["Interval"]
    back = joblib.Parallel(n_jobs=2, backend="loky")(
        joblib.delayed(pickle.loads)(pickle.dumps(interval)) for _ in range(2))
    for again in back:
        assert_same(interval, again, "Interval from a worker")
    test = pickle.loads(pickle.dumps(dict(cases)["TestResult matched"]))
    assert type(test.details) is types.MappingProxyType
    with pytest.raises(TypeError):
        test.details["d_j"] = ()


def test_results_compare_by_content_and_are_unhashable(cases):
    by_label = dict(cases)
    interval, other = by_label["Interval"], by_label["Interval of a loss"]
    assert interval == _round_trip(interval) and interval != other and interval != interval.to_dict()
    assert by_label["SchemeDiagnostic, nan phi"] == _round_trip(by_label["SchemeDiagnostic, nan phi"])  # nan == nan
    changed = dataclasses.replace(interval, high=interval.high + 1e-12)
    assert changed != interval
    assert by_label["CVResult"] == cvi.CVResult.from_dict(by_label["CVResult"].to_dict())
    assert by_label["CVResult"] != by_label["PairedCVResult"].b
    with pytest.raises(TypeError, match="unhashable"):
        hash(interval)


def test_nested_results_come_back_as_their_classes(cases):
    by_label = dict(cases)
    test = _round_trip(by_label["TestResult matched"])
    assert all(type(c) is cvi.results.LargeSampleConditions for c in test.conditions)
    assert type(test.diagnostic) is cvi.results.SchemeDiagnostic
    assert type(test.details) is types.MappingProxyType and type(test.details["d_j"]) is tuple
    interval = _round_trip(by_label["Interval"])
    (conditions,) = interval.conditions
    assert type(conditions) is cvi.results.LargeSampleConditions and not conditions.holds.flags.writeable


def test_conditions_are_a_tuple_on_intervals_and_tests(cases):
    by_label = dict(cases)
    interval, test = by_label["Interval"], by_label["TestResult matched"]
    assert isinstance(interval.conditions, tuple) and isinstance(test.conditions, tuple)
    assert interval.conditions == (interval.conditions[0],) and (interval.conditions[0],) == interval.conditions
    assert type(interval.conditions[0]) is cvi.results.LargeSampleConditions
    assert cvi.results.Interval(estimate=0.5, low=0.4, high=0.6, confidence_level=0.95, method="normal",
                                details={"averaging": "dataset"},
                                estimand="accuracy", assumptions="", target="kfold").conditions == ()
    for again in (pickle.loads(pickle.dumps(interval)), _round_trip(interval)):
        assert again == interval and type(again.conditions) is type(interval.conditions)


def test_the_conditions_are_a_plain_tuple_and_one_object_or_none_is_refused(cases):
    """One object or None (the shape before issue 27) is refused naming the field; a list reads as a tuple."""
    interval = dict(cases)["Interval"]
    assert type(interval.conditions) is tuple
    with pytest.raises(AttributeError, match="no attribute 'failing_folds'"):
        _ = interval.conditions.failing_folds
    for value in (interval.conditions[0], None):
        with pytest.raises((TypeError, ValueError), match="conditions"):
            dataclasses.replace(interval, conditions=value)
    assert dataclasses.replace(interval, conditions=list(interval.conditions)) == interval


def test_the_interval_plumbing_of_a_test_is_private(cases):
    test = dict(cases)["TestResult independent z"]
    interval = test.confidence_interval()
    details = interval.details
    assert (test._interval_standard_error, test._interval_df) == (details["standard_error"], details["df"])
    assert not hasattr(test, "interval_standard_error") and not hasattr(test, "interval_df")
    data = test.to_dict()
    assert "interval_df" in data and "_interval_df" not in data  # the dict keeps the public names
    assert cvi.results.TestResult.from_dict(data) == test


def test_non_finite_floats_are_written_as_tagged_objects():
    data = _serialize.encode((math.nan, math.inf, -math.inf, np.array([1.5, math.nan])))
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text) == {"tuple": [
        {"float": "nan"}, {"float": "inf"}, {"float": "-inf"},
        {"array": [1.5, "nan"], "dtype": "<f8", "shape": [2], "writeable": True},
    ]}
    again = _serialize.decode(json.loads(text))
    assert math.isnan(again[0]) and again[1:3] == (math.inf, -math.inf)
    assert again[3][0] == 1.5 and math.isnan(again[3][1])


def test_an_object_array_keeps_a_float_nan_apart_from_the_text_nan():
    labels = np.array([1.0, math.nan, "nan", "x", 3], dtype=object)
    again = _serialize.decode(json.loads(json.dumps(_serialize.encode(labels), allow_nan=False)))
    assert again.dtype == object and [type(v) for v in again] == [float, float, str, str, int]
    assert math.isnan(again[1]) and again[2] == "nan"


def test_an_unsupported_value_is_refused_by_name():
    with pytest.raises(TypeError, match="cannot write a value of type set"):
        _serialize.encode({1, 2})
    with pytest.raises(TypeError, match="str keys"):
        _serialize.encode({1: 2})


@pytest.mark.parametrize("name", sorted({"Interval", "TestResult", "SchemeDiagnostic", "SubsamplingResult"}))
def test_from_dict_refuses_another_format_a_version_or_a_missing_key(cases, name):
    result = next(r for _, r in cases if type(r).__name__ == name)
    cls, data = type(result), result.to_dict()
    with pytest.raises(ValueError, match=r"format='cvinference.CVResult'"):
        cls.from_dict(data | {"format": "cvinference.CVResult"})
    for version in (0, 2, "1"):
        message = (f"data has cvinference.{name} format version {version!r}; this cvinference reads version 1 "
                   "of it.")
        with pytest.raises(ValueError, match=re.escape(message)):
            cls.from_dict(data | {"version": version})
    with pytest.raises(ValueError, match="written by a newer cvinference: upgrade cvinference to read it"):
        cls.from_dict(data | {"version": 2})
    field = dataclasses.fields(cls)[0].name
    with pytest.raises(ValueError, match=f"no key '{field}'"):
        cls.from_dict({key: value for key, value in data.items() if key != field})


def test_the_format_of_a_result_dict_is_its_class_name_at_version_1(cases):
    """Every payload starts at format version 1 with the first release (0.1.0)."""
    for _, result in cases:
        data = result.to_dict()
        assert (data["format"], data["version"]) == (f"cvinference.{type(result).__name__}", 1)


# --------------------------------------------------------------------------- notebooks


def test_repr_html_shows_the_escaped_summary(cases):
    for label, result in cases:
        if isinstance(result, cvi.results.Evaluation | cvi.results.Comparison):  # their report, as the records'
            assert result._repr_html_() == cvi.report.render_html(result.report), label
        elif hasattr(result, "summary") and not isinstance(result, cvi.CVResult | cvi.PairedCVResult):
            fragment = result._repr_html_()
            assert f">{html.escape(result.summary())}</pre></div>" in fragment, label  # whole, after its figures
    result = cvi.CVResult(y_true=[0, 1, 0, 1], y_pred=[0, 0, 0, 1], fold=[0, 0, 1, 1],
                          estimator_repr="Wrapper(<lambda> & co)")
    assert "A: Wrapper(&lt;lambda&gt; &amp; co)" in result._repr_html_()


def test_every_result_has_a_summary_a_notebook_view_and_a_dict(cases):
    for label, result in cases:
        for method in ("summary", "_repr_html_", "to_dict"):
            assert callable(getattr(result, method, None)), f"{label} has no {method}()"
        assert result.summary(), label


def test_cv_result_to_frame_agrees_with_the_fold_counts():
    pandas = pytest.importorskip("pandas")
    X, y = _data()
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, n_repeats=2, random_state=0)
    frame = result.to_frame()
    assert list(frame.columns) == ["repeat", "instance", "fold", "y_true", "y_pred", "correct", "loss"]
    assert len(frame) == result.n_repeats * result.n_samples
    counts = frame.groupby(["repeat", "fold"])["correct"].agg(["sum", "size"])
    np.testing.assert_array_equal(counts["sum"].to_numpy().reshape(2, 5), result.fold_correct)
    np.testing.assert_array_equal(counts["size"].to_numpy().reshape(2, 5), result.fold_sizes)
    np.testing.assert_array_equal(frame["y_true"], np.tile(y, 2))
    pandas.testing.assert_series_equal(frame["loss"], (~frame["correct"]).astype(float), check_names=False)


def test_paired_to_frame_puts_a_and_b_side_by_side():
    pytest.importorskip("pandas")
    X, y = _data()
    pair = cvi.CVEvaluator(cv=5, random_state=0).compare(GaussianNB(), DummyClassifier(), X, y)
    frame = pair.to_frame()
    assert list(frame.columns) == ["repeat", "instance", "fold", "y_true", "y_pred_a", "correct_a", "loss_a",
                                   "y_pred_b", "correct_b", "loss_b"]
    np.testing.assert_array_equal(frame["correct_a"], pair.a.correct.ravel())
    np.testing.assert_array_equal(frame["correct_b"], pair.b.correct.ravel())
    assert frame["correct_b"].mean() == pair.b.accuracy


def test_conditions_to_frame_has_a_row_per_repeat_and_fold():
    pytest.importorskip("pandas")
    X, y = _data()
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, n_repeats=2, random_state=0)
    frame = cvi.large_sample_conditions(result).to_frame()
    assert list(frame.columns) == ["repeat", "fold", "r_j", "m_j - r_j", "holds"]
    np.testing.assert_array_equal(frame["r_j"].to_numpy().reshape(2, 5), result.fold_correct)
    np.testing.assert_array_equal(frame["m_j - r_j"].to_numpy().reshape(2, 5),
                                  result.fold_sizes - result.fold_correct)
    np.testing.assert_array_equal(frame["holds"], (frame["r_j"] >= 5) & (frame["m_j - r_j"] >= 5))


def test_subsampling_to_frame_gives_the_round_accuracies():
    pytest.importorskip("pandas")
    X, y = _data()
    result = cvi.evaluation.random_subsampling(GaussianNB(), X, y, n_rounds=4, random_state=0)
    frame = result.to_frame()
    assert list(frame.columns) == ["round", "instance", "y_true", "correct"]
    np.testing.assert_array_equal(frame.groupby("round")["correct"].mean(), result.round_accuracy)
    np.testing.assert_array_equal(frame["y_true"], y[frame["instance"]])


def test_to_frame_without_pandas_says_how_to_install_it(monkeypatch):
    result = cvi.CVResult(y_true=[0, 1], y_pred=[0, 0], fold=[0, 1])
    monkeypatch.setitem(sys.modules, "pandas", None)  # makes "import pandas" raise ImportError
    with pytest.raises(ImportError, match=r"pip install 'cvinference\[pandas\]'"):
        result.to_frame()
