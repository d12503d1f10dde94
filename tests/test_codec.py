"""One codec for every public result: lossless round trips, one format version, tampered dicts refused by name.

The classes are found among the public names (``tests/public_names.py``: every class with a
``to_dict``), so a new result class is covered as soon as it is exported; its
instances come from ``tests/result_cases.py``. The oracle of a round trip is
the original object (``==`` compares every field with its type). A tampered
dict is one ``to_dict()`` cannot have written: each must be refused with a
``ValueError`` or ``TypeError`` whose message names the class and the field.
Every payload is at format version 1, the first release's (0.1.0); no older
version is read.
"""

import dataclasses
import inspect
import json
import math
import numbers
import types
import typing

import numpy as np
import pytest

import cvinference as cvi
from cvinference._utils._serialize import _rebuilt, declared_kinds, decode, encode

from public_names import public_names
from result_cases import result_cases

PUBLIC = public_names()


def _exported_result_classes():
    """Every exported class that reads back what it writes (``from_dict``); the front door's answers
    (``Evaluation``, ``Comparison``) write their report, which is not read back."""
    return sorted(name for name, obj in PUBLIC.items() if inspect.isclass(obj) and hasattr(obj, "from_dict"))


CLASSES = _exported_result_classes()


@pytest.fixture(scope="module")
def by_class():
    found = {}
    for label, result in result_cases():
        found.setdefault(type(result).__name__, []).append((label, result))
    return found


def _json(data):
    return json.loads(json.dumps(data, allow_nan=False))


def _refused(cls, data, field):
    """Assert that ``cls.from_dict(data)`` raises a ValueError or TypeError naming ``cls`` and ``field``."""
    with pytest.raises((ValueError, TypeError)) as caught:
        cls.from_dict(data)
    message = str(caught.value)
    named = f"{cls.__name__}.{field}" in message or f"'{field}'" in message
    assert named and cls.__name__ in message, f"{cls.__name__}.{field}: the message does not name it: {message}"


def test_the_exported_result_classes_are_found():
    assert {"CVResult", "PairedCVResult", "Interval", "Decision", "DecisionTest", "FriedmanResult",
            "CandidateComparison", "NoInformationTestResult", "PrecisionStudyResult"} <= set(CLASSES)


@pytest.mark.parametrize("name", CLASSES)
def test_every_exported_result_class_has_a_case(by_class, name):
    assert by_class.get(name), f"no case of {name} in tests/result_cases.py"


@pytest.mark.parametrize("name", CLASSES)
def test_a_result_round_trips_exactly_through_a_dict_and_through_json(by_class, name):
    cls = PUBLIC[name]
    for label, result in by_class[name]:
        data = result.to_dict()
        assert (data["format"], type(data["version"])) == (f"cvinference.{name}", int), label
        assert cls.from_dict(data) == result, label
        written = json.loads(json.dumps(data, allow_nan=False))
        again = cls.from_dict(written)
        assert again == result and type(again) is cls, label
        assert again.to_dict() == written, label  # writes exactly what it read


@pytest.mark.parametrize("name", CLASSES)
def test_json_conveniences_round_trip(by_class, name):
    cls = PUBLIC[name]
    for label, result in by_class[name]:
        text = result.to_json()
        assert json.loads(text) == _json(result.to_dict()), label
        assert cls.from_json(text) == result, label


def _dicts(by_class, name):
    """Each case of the class ``name``: the class, and the case's dict after a JSON round trip."""
    return [(PUBLIC[name], _json(result.to_dict())) for _, result in by_class[name]]


def _fields(data):
    return [key for key in data if key not in ("format", "version")]


def _decoded(data, key):
    return decode(data[key])


_LABELS = {"majority_class"}
"""Fields that hold a class label, which may be a number or a string."""


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _is_numeric_array(value):
    return isinstance(value, np.ndarray) and value.dtype.kind in "iuf" and value.size > 0


@pytest.mark.parametrize("name", CLASSES)
def test_format_version_and_keys_are_checked(by_class, name):
    for cls, data in _dicts(by_class, name):
        with pytest.raises(ValueError, match=rf"not a cvinference.{name} dict \(format='cvinference.Other'\)"):
            cls.from_dict(data | {"format": "cvinference.Other"})
        assert data["version"] == 1
        with pytest.raises(ValueError, match=f"{name} format version 2; this cvinference reads version 1 of it. "
                                             "It was written by a newer cvinference"):
            cls.from_dict(data | {"version": 2})
        with pytest.raises(ValueError, match=f"{name} format version 0; this cvinference reads version 1 of it.$"):
            cls.from_dict(data | {"version": 0})
        with pytest.raises(ValueError, match=f"{name} format version True"):
            cls.from_dict(data | {"version": True})
        with pytest.raises(ValueError, match=f"{name}.from_dict: data has the unknown key 'surplus'"):
            cls.from_dict(data | {"surplus": 1})
        for field in _fields(data):
            _refused(cls, {key: value for key, value in data.items() if key != field}, field)


@pytest.mark.parametrize("name", CLASSES)
def test_a_string_where_a_number_belongs_is_refused_by_name(by_class, name):
    cls = PUBLIC[name]
    checked = 0
    for _, result in by_class[name]:
        data = _json(result.to_dict())
        for field in _fields(data):
            value = _decoded(data, field)
            if field in _LABELS:
                continue
            if _is_number(value):
                _refused(cls, data | {field: "0.5"}, field)
                checked += 1
            elif _is_numeric_array(value):
                tampered = json.loads(json.dumps(data))
                tampered[field]["array"][0] = "0.5"
                _refused(cls, tampered, field)
                checked += 1
    assert checked or name in ("PairedCVResult", "PairedForwardResult"), f"{name} has no number to tamper with"


def _probability_fields(data):
    return [field for field in _fields(data)
            if ("pvalue" in field or field.startswith(("prob_", "measured_")))
            and data[field] is not None]


def _set_first(data, field, value):
    """``data`` with ``field`` (a number, or the first item of an array of numbers) set to ``value``."""
    tampered = json.loads(json.dumps(data))
    if isinstance(tampered[field], dict) and "array" in tampered[field]:
        tampered[field]["array"][0] = value
    else:
        tampered[field] = value
    return tampered


@pytest.mark.parametrize("name", CLASSES)
def test_a_probability_or_a_level_out_of_range_is_refused_by_name(by_class, name):
    for cls, data in _dicts(by_class, name):
        for field in _probability_fields(data):
            _refused(cls, _set_first(data, field, 2.0), field)
            _refused(cls, _set_first(data, field, -0.5), field)
        for field in ("confidence_level", "alpha"):
            if field in data:
                for level in (2.0, 0.0, 1.0, {"float": "nan"}):
                    _refused(cls, data | {field: level}, field)


def _bound_pairs(data):
    return [(low, low.replace("low", "high")) for low in _fields(data)
            if low.endswith("low") and low.replace("low", "high") in data and data[low] is not None]


@pytest.mark.parametrize("name", CLASSES)
def test_low_above_high_is_refused_by_name(by_class, name):
    for cls, data in _dicts(by_class, name):
        for low, high in _bound_pairs(data):
            lows, highs = np.atleast_1d(_decoded(data, low)), np.atleast_1d(_decoded(data, high))
            both = np.flatnonzero(np.isfinite(lows.ravel()) & np.isfinite(highs.ravel()))
            if both.size == 0:
                continue
            i = int(both[0])
            tampered = json.loads(json.dumps(data))
            bigger = float(highs.ravel()[i]) + 0.5
            if isinstance(tampered[low], dict):
                tampered[low]["array"][i] = bigger
            else:
                tampered[low] = bigger
            _refused(cls, tampered, low)


_NAME_LISTS = ("learners", "datasets", "candidates", "names", "approaches")


@pytest.mark.parametrize("name", CLASSES)
def test_an_empty_list_of_learners_is_refused_by_name(by_class, name):
    for cls, data in _dicts(by_class, name):
        for field in _NAME_LISTS:
            if field in data:
                _refused(cls, data | {field: {"tuple": []}}, field)


def _emptied(tagged):
    """A tagged array with no rows: what a result of no draws, no candidates or no instances would write."""
    return tagged | {"array": [], "shape": [0, *tagged["shape"][1:]]}


@pytest.mark.parametrize("name", CLASSES)
def test_an_empty_array_is_refused_by_name(by_class, name):
    """Issue 28: a study of n_draws=3 whose arrays held no draw was read, and failed only in its summary."""
    for cls, data in _dicts(by_class, name):
        for field in _fields(data):
            value = data[field]
            if isinstance(value, dict) and "array" in value and value["shape"] and value["shape"][0] > 0:
                _refused(cls, data | {field: _emptied(value)}, field)


def _sliced(data, field, index):
    """``data`` with the array ``field`` cut to ``index`` (a tuple of slices), as to_dict() would write it."""
    return data | {field: _json(encode(np.ascontiguousarray(decode(data[field])[index])))}


@pytest.mark.parametrize("label, field, index, match", [
    ("PrecisionStudyResult", "cv_loss", (slice(None), slice(1)),
     r"PrecisionStudyResult.cv_loss must hold one item per entry of PrecisionStudyResult.folds \(2\) along axis 1; "
     r"got 1"),
    ("FoldSizeStudyResult", "fold_sizes", (slice(None), slice(2)),
     r"FoldSizeStudyResult.fold_sizes must hold one item per entry of FoldSizeStudyResult.approaches \(3\) along "
     r"axis 1; got 2"),
    ("FoldSizeStudyResult", "fold_correct", (Ellipsis, slice(2)),
     r"FoldSizeStudyResult.fold_correct must hold FoldSizeStudyResult.n_splits=3 items along axis 2; got 2"),
    ("WinnerTableResult", "cv_error", (Ellipsis, slice(1)),
     r"WinnerTableResult.cv_error must hold WinnerTableResult.n_repeats=2 items along axis 2; got 1"),
    ("WinnerTableResult", "conditional_error", (slice(None), slice(1)),
     r"WinnerTableResult.conditional_error must be an array of shape \(any, 2\) of floats"),
])
def test_an_array_of_too_few_columns_is_refused_by_name(label, field, index, match):
    result = dict(result_cases())[label]
    with pytest.raises(ValueError, match=match):
        type(result).from_dict(_sliced(_json(result.to_dict()), field, index))


def test_a_refusal_of_the_constructor_names_the_class_and_the_field():
    data = _json(dict(result_cases())["CVResult"].to_dict())
    data["fold"]["array"] = [2 * number for number in data["fold"]["array"]]  # fold 1 left empty
    with pytest.raises(ValueError, match=r"^CVResult\.fold numbers must cover 0 \.\. \d+ in every repeat; repeat 0 "
                                         r"has an empty fold\. Pass the output of to_dict\(\) unchanged\.$"):
        cvi.CVResult.from_dict(data)


def test_a_refusal_that_names_no_field_names_the_class():
    class Refuses:
        @classmethod
        def _from_fields(cls, values):
            raise TypeError("the rows disagree.")

    with pytest.raises(TypeError, match=r"^Refuses\.from_dict: the rows disagree\. Pass the output of to_dict"):
        _rebuilt(Refuses, {"rows": 1})


def test_a_classification_record_without_its_classes_is_refused():
    record = dict(result_cases())["CVResult"]
    data = _json(record.to_dict())
    _refused(cvi.CVResult, data | {"classes": None}, "classes")
    pair = _json(dict(result_cases())["PairedCVResult"].to_dict())
    pair["b"]["classes"] = None
    with pytest.raises(ValueError, match=r"CVResult\.classification=True but CVResult\.classes is None"):
        cvi.PairedCVResult.from_dict(pair)


def test_a_tampered_nested_result_is_refused_by_its_own_name():
    test = dict(result_cases())["TestResult matched"]
    data = _json(test.to_dict())
    data["diagnostic"]["phi"] = 3.0
    with pytest.raises(ValueError, match=r"SchemeDiagnostic.phi must be a number between -1 and 1, or nan"):
        cvi.results.TestResult.from_dict(data)
    data = _json(test.to_dict())
    data["conditions"]["tuple"][0]["satisfied"] = not data["conditions"]["tuple"][0]["satisfied"]
    with pytest.raises(ValueError, match=r"LargeSampleConditions.satisfied=.* disagrees with"):
        cvi.results.TestResult.from_dict(data)
    data = _json(test.to_dict())
    data["diagnostic"] = _json(dict(result_cases())["Interval"].to_dict())
    with pytest.raises(TypeError, match=r"TestResult.diagnostic must be a SchemeDiagnostic, or None"):
        cvi.results.TestResult.from_dict(data)


@pytest.mark.parametrize("tag, match", [
    ({"float": "huge"}, r"Interval.estimate holds \{'float': 'huge'\}"),
    ({"float": "nan", "extra": 1}, r"Interval.estimate holds an object with the keys \['extra', 'float'\]"),
    ({"scalar": "x", "dtype": "<f8"}, r"Interval.estimate is an array of dtype float64 but holds the string 'x'"),
    ({"scalar": 1.5, "dtype": "<i8"}, r"Interval.estimate is an array of dtype int64 but holds 1.5"),
    ({"scalar": 1, "dtype": "no such dtype"}, r"Interval.estimate has the dtype 'no such dtype'"),
    ({"array": [1.0], "dtype": "<f8", "shape": [2], "writeable": False}, r"has the shape \[2\], which does not"),
    ({"format": "cvinference.Nothing", "version": 1}, r"holds a result of unknown format 'cvinference.Nothing'"),
])
def test_a_malformed_tagged_value_is_refused_where_it_is(tag, match):
    data = _json(dict(result_cases())["Interval"].to_dict())
    with pytest.raises(ValueError, match=match):
        cvi.results.Interval.from_dict(data | {"estimate": tag})


def test_an_array_item_its_dtype_would_change_is_refused():
    data = _json(dict(result_cases())["BootstrapResult"].to_dict())
    for item, match in ((True, "holds True, of type bool"), ([1.0], r"holds \[1.0\], of type list"),
                        ("nan-ish", "holds the string 'nan-ish'")):
        tampered = json.loads(json.dumps(data))
        tampered["values"]["array"][0] = item
        with pytest.raises(ValueError, match=rf"BootstrapResult.values is an array of dtype float64 but {match}"):
            cvi.results.BootstrapResult.from_dict(tampered)
    data = _json(dict(result_cases())["SubsamplingResult"].to_dict())
    data["test_indices"]["array"][0] = 2**70
    with pytest.raises(ValueError, match=r"SubsamplingResult.test_indices holds integers .* beyond its dtype"):
        cvi.records.SubsamplingResult.from_dict(data)


def _loose(annotation):
    """Whether a field of this annotation needs its kind declared: a tuple or an array says nothing of its items."""
    args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    return annotation in (tuple, np.ndarray) or any(_loose(arg) for arg in args)


@pytest.mark.parametrize("name", CLASSES)
def test_every_tuple_and_array_field_declares_its_kind(name):
    cls = PUBLIC[name]
    if not dataclasses.is_dataclass(cls):
        return
    hints, declared = typing.get_type_hints(cls), declared_kinds(cls)
    loose = [field.name for field in dataclasses.fields(cls)
             if _loose(hints[field.name]) and field.name not in declared]
    assert not loose, f"{name} declares no kind for {loose} in _kinds"


def test_non_finite_numbers_survive_everywhere(by_class):
    for label, result in result_cases():
        text = result.to_json()
        again = type(result).from_json(text)
        assert again == result, label
    inf_test = dict(result_cases())["TestResult matched, infinite statistic"]
    assert inf_test.statistic == math.inf and math.isnan(inf_test.pvalue)
    data = _json(inf_test.to_dict())
    assert data["statistic"] == {"float": "inf"} and data["pvalue"] == {"float": "nan"}
    assert isinstance(cvi.results.TestResult.from_dict(data).details, types.MappingProxyType)


@pytest.mark.parametrize("label, key, value, match", [
    ("NoInformationTestResult", "n_correct", -3,
     r"NoInformationTestResult.details\['n_correct'\] must be an integer >= 0"),
    ("NoInformationTestResult", "no_information_rate", 1.5,
     r"details\['no_information_rate'\] must be a number between 0"),
    ("McNemarTestResult", "n", "60", r"McNemarTestResult.details\['n'\] must be an integer >= 1"),
    ("McNemarTestResult", "extra", 1, r"McNemarTestResult.details must be .*; it has the unknown key 'extra'"),
    ("BootstrapResult", "weight", 2.0, r"BootstrapResult.details\['weight'\] must be a number between 0 and 1"),
])
def test_the_details_a_method_reads_are_checked(label, key, value, match):
    result = dict(result_cases())[label]
    data = _json(result.to_dict())
    data["details"]["mapping"][key] = value
    with pytest.raises((TypeError, ValueError), match=match):
        type(result).from_dict(data)
