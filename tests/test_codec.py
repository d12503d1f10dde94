"""One codec for every public result: lossless round trips, old versions read, tampered dicts refused by name.

The classes are found among the public names (``tests/public_names.py``: every class with a
``to_dict``), so a new result class is covered as soon as it is exported; its
instances come from ``tests/result_cases.py``. The oracle of a round trip is
the original object (``==`` compares every field with its type). A tampered
dict is one ``to_dict()`` cannot have written: each must be refused with a
``ValueError`` or ``TypeError`` whose message names the class and the field.
The stored payloads of ``tests/data`` were written by an older commit
(``tests/data/README.md``) and must read as the same results today.
"""

import dataclasses
import inspect
import json
import math
import numbers
import re
import types
import typing
import warnings
from pathlib import Path

import numpy as np
import pytest

import cvinference as cvi
from cvinference._utils._serialize import _rebuilt, declared_kinds, decode, encode

from public_names import public_names
from result_cases import result_cases

DATA = Path(__file__).parent / "data"


PUBLIC = public_names()


def _exported_result_classes():
    return sorted(name for name, obj in PUBLIC.items() if inspect.isclass(obj) and hasattr(obj, "to_dict"))


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
        with pytest.raises(ValueError, match=f"{name} format version {data['version'] + 1}.*newer cvinference"):
            cls.from_dict(data | {"version": data["version"] + 1})
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


_CLASSES_OF_VERSION_1 = {
    "BayesianResult", "BootstrapResult", "CVResult", "CandidateComparison", "ConditionalErrorStudyResult",
    "DatasetComparison", "Decision", "DecisionTest", "FTestResult", "FoldSizeStudyResult", "FriedmanResult",
    "Interval", "LargeSampleConditions", "McNemarTestResult", "NoInformationTestResult", "PairedCVResult",
    "PrecisionStudyResult", "SchemeDiagnostic", "SubsamplingResult", "TestResult", "WinnerTableResult",
}
"""The public result classes when the stored payloads were written (commits cfc92f7, 52b37a6, 263c0a1, issue 29)."""

_LATER_CLASSES = {3: {"BootstrapSamplingResult", "NestedCVResult", "PairedSubsamplingResult"},
                  5: {"LossDifferenceTestResult"}, 6: {"Evaluation", "Comparison"}}
"""The public result classes added since, by the first stored file that holds them."""


def _stored(version):
    document = json.loads((DATA / f"result_payloads_v{version}.json").read_text())
    assert re.fullmatch(r"[0-9a-f]{40}", document["written_by_commit"])
    return document["cases"]


_CURRENT = {3: {"CVResult": 2, "Interval": 2}, 4: {"CVResult": 3, "Interval": 2},
            5: {"CVResult": 4, "Interval": 3, "Decision": 2},
            6: {"CVResult": 4, "Interval": 4, "Decision": 2, "NestedCVResult": 2, "CandidateComparison": 2,
                "DatasetComparison": 2},
            7: {"CVResult": 5, "Interval": 4, "Decision": 2, "NestedCVResult": 2, "CandidateComparison": 2,
                "DatasetComparison": 2},
            8: {"CVResult": 5, "Interval": 4, "Decision": 3, "DecisionTest": 2, "NestedCVResult": 2,
                "CandidateComparison": 3, "DatasetComparison": 2}}
"""The format versions a stored file of each later version holds that are not 1."""


_COMPUTED_DIFFERENTLY = {"DatasetComparison": ("notes", "warnings"), "DecisionTest": ("regime", "why_not", "df"),
                         "Interval of R²": ("warnings",), "Interval": ("warnings",),
                         "Evaluation": ("intervals", "report")}
"""Fields a later change computes differently for the same inputs, by class or by case label; the stored
payloads keep what the older commit computed, and every other field must still read the same. Issue 28: 5
datasets or fewer warn. Issue 26: a test's regime (the measured cells that stand for the pair) and its reason
read the calibration evidence, which the learners' cells extended, and the reason names the worst cell.
Issue 29: regression_interval warns where the evidence measured it short of nominal. Issue 45: a DecisionTest
keeps its interval's degrees of freedom (``df``), which a payload written before its format version 2 did not hold
(it reads as None, the normal reference); ``method="auto"``'s exact fallback warns where the evidence measured the
Clopper-Pearson interval below 0.93 (item 10), which the case "Interval" (too few errors for Wong's conditions)
now does, and the front door's naive Bayes at N = 100 ("Evaluation") gets the Clopper-Pearson interval where
Wong's measured coverage (0.908) is below the floor: its intervals and report are the policy's choice of the day."""


def _as_computed_today(again, result, label=None):
    fields = _COMPUTED_DIFFERENTLY.get(label) or _COMPUTED_DIFFERENTLY.get(type(result).__name__, ())
    again = dataclasses.replace(again, **{name: getattr(result, name) for name in fields}) if fields else again
    if isinstance(result, cvi.results.Comparison):
        again = _with_todays_detectable(again, result)
    return _with_todays_codes(again, result)


def _without_detectable(data):
    """``data`` (a decision's ``to_dict()`` or its record in a report) without what issue 45 added to it: the
    minimum detectable difference and its tests' degrees of freedom."""
    if isinstance(data, dict):
        return {key: _without_detectable(value) for key, value in data.items()
                if key not in ("df", "minimum_detectable_difference", "version")}
    if isinstance(data, list):
        return [_without_detectable(value) for value in data]
    return data


def _with_todays_detectable(again, result):
    """A comparison's decision, as a stored decision, rests on the calibration evidence shipped when it was written,
    which later runs extend (issue 45's --decision cells): it must read back as itself, as what it answered, and the
    report around it as today's; the decision, the learners' intervals and the report are then today's."""
    assert type(again.decision).from_dict(_json(again.decision.to_dict())) == again.decision
    assert again.decision.metric == result.decision.metric
    stored, today = dict(again.report), dict(result.report)
    assert _without_detectable(stored.pop("decision"))["answer"] == again.decision.answer
    today.pop("decision")
    today.pop("plan")  # issue 59: the plan it ran, which a comparison of format version 1 did not keep
    assert again.plan is None
    assert _without_auto_choice(stored) == _without_auto_choice(today)
    return dataclasses.replace(again, decision=result.decision, report=result.report, intervals=result.intervals,
                               plan=result.plan)


def _without_auto_choice(report):
    """A report without its learners' intervals, which ``method="auto"`` chooses on the evidence of the day (issue 45,
    item 10: naive Bayes at N = 100 gets the Clopper-Pearson interval where Wong's measured 0.908)."""
    estimators = {name: {key: value for key, value in figures.items() if key != "intervals"}
                  for name, figures in report["estimators"].items()}
    return report | {"estimators": estimators}


def _with_todays_codes(again, result):
    """Issue 44: a warning carries a code, which payloads written before it do not hold: an older payload's
    warnings read as their text alone, and must be today's texts; the codes are then today's."""
    if not dataclasses.is_dataclass(result) or "warnings" not in {f.name for f in dataclasses.fields(result)}:
        return again
    assert [str(w) for w in again.warnings] == [str(w) for w in result.warnings]
    return dataclasses.replace(again, warnings=result.warnings)


def _float32_scores(data):
    """``data`` with every CVResult's scores rounded to float32, as the stored files of issues 29 to 44 hold them."""
    if isinstance(data, list):
        return [_float32_scores(item) for item in data]
    if not isinstance(data, dict):
        return data
    if data.get("format") == "cvinference.CVResult" and data["y_score"] is not None:
        rounded = np.array(data["y_score"]["array"], dtype=np.float32).astype(np.float64).tolist()
        return data | {"y_score": data["y_score"] | {"array": rounded}}
    return {key: _float32_scores(value) for key, value in data.items()}


_ROUND_OFF = {"rel": 1e-9, "abs": 1e-12}
"""How far a stored float may lie from today's computation of it: the stored payloads were written on another machine,
whose BLAS kernels round differently (issue 58: the case "CVResult, regression" fits ``LinearRegression`` to exactly
linear data, so its per-instance losses are round-off, 7.0e-31 where written and 4.8e-31 on another machine). A float of
order one differs between kernels in its last bits, about 1e-16 relative; these bounds are far above that and far below
any change a codec or a method could make to a figure it reports (four decimals)."""


_NUMBER = re.compile(r"[-+]?\d+\.\d+(?:e[-+]\d+)?")


def _assert_same_up_to_round_off(found, expected, label, where="payload"):
    """``found == expected`` for two JSON-ready payloads, with floats equal within ``_ROUND_OFF``; every other value
    (strings, ints, bools, None, the codec's encodings of NaN and infinity) exactly, and every key and length."""
    if isinstance(expected, dict):
        assert isinstance(found, dict) and found.keys() == expected.keys(), f"{label}: {where} keys"
        for key in expected:
            _assert_same_up_to_round_off(found[key], expected[key], label, f"{where}[{key!r}]")
    elif isinstance(expected, list):
        assert isinstance(found, list) and len(found) == len(expected), f"{label}: {where} length"
        for index, (a, b) in enumerate(zip(found, expected, strict=True)):
            _assert_same_up_to_round_off(a, b, label, f"{where}[{index}]")
    elif isinstance(expected, float):
        assert isinstance(found, float) and found == pytest.approx(expected, **_ROUND_OFF), f"{label}: {where}"
    elif isinstance(expected, str) and _NUMBER.search(expected):
        # a note that prints a round-off figure ("sigma_hat = 6.893e-31"): its words exactly, its numbers as floats
        words, numbers = _NUMBER.split(found), [float(n) for n in _NUMBER.findall(found)]
        assert words == _NUMBER.split(expected), f"{label}: {where}: {found!r} != {expected!r}"
        stored = [float(n) for n in _NUMBER.findall(expected)]
        assert numbers == pytest.approx(stored, **_ROUND_OFF), f"{label}: {where}"
    else:
        assert type(found) is type(expected) and found == expected, f"{label}: {where}: {found!r} != {expected!r}"


def test_round_off_is_the_only_difference_the_stored_payloads_are_allowed():
    payload = {"loss": [7.022e-31, 1.0], "name": "x", "n": 3}
    _assert_same_up_to_round_off({"loss": [4.831e-31, 1.0 + 1e-15], "name": "x", "n": 3}, payload, "round-off")
    note = {"note": "sigma_hat = 6.893e-31 of 2.50"}
    _assert_same_up_to_round_off({"note": "sigma_hat = 5.388e-31 of 2.50"}, note, "round-off in a note")
    for changed in ("sigma_hat = 6.893e-31 of 2.51", "sigma = 6.893e-31 of 2.50"):
        with pytest.raises(AssertionError):
            _assert_same_up_to_round_off({"note": changed}, note, "a real change")
    for changed in ({"loss": [7.022e-31, 1.0001], "name": "x", "n": 3}, {"loss": [7.022e-31, 1.0], "name": "y", "n": 3},
                    {"loss": [7.022e-31, 1.0], "name": "x", "n": 3.0}, {"loss": [7.022e-31], "name": "x", "n": 3}):
        with pytest.raises(AssertionError):
            _assert_same_up_to_round_off(changed, payload, "a real change")


def _read_stored(cls, data):
    """``cls.from_dict(data)``, and whether it warned that the payload's scores were stored as float32."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read = cls.from_dict(data)
    return read, any("stored y_score as float32" in str(w.message) for w in caught)


@pytest.mark.parametrize("version", [1, 2, 3, 4, 5, 6, 7, 8])
def test_stored_payloads_of_older_versions_read_as_the_same_results(version):
    cases = dict(result_cases())
    stored = _stored(version)
    later = set().union(*(classes for first, classes in _LATER_CLASSES.items() if version >= first))
    assert {type(cases[label]).__name__ for label in stored} == _CLASSES_OF_VERSION_1 | later
    for label, data in stored.items():
        result = cases[label]
        if isinstance(result, cvi.results.Decision):
            # A decision rests on the calibration evidence shipped when it was written, which later runs
            # extend: the stored one must read back as itself, not as today's decision.
            read = type(result).from_dict(data)
            assert type(result).from_dict(_json(read.to_dict())) == read, label
            assert (read.answer, read.metric) == (data["answer"], data["metric"]), label
            continue
        read, warned = _read_stored(type(result), data)
        # Issue 45, item 5: CVResult's format version 4 and older stored scores as float32; they read as float64,
        # with a warning, and equal today's case with its scores rounded to float32, no more.
        float32 = '"<f4"' in json.dumps(data)
        assert warned == float32, label
        if float32:
            result = type(result).from_dict(_float32_scores(result.to_dict()))
        again = _as_computed_today(read, result, label)
        _assert_same_up_to_round_off(_json(again.to_dict()), _json(result.to_dict()), label)
        name = type(result).__name__
        if version in _CURRENT:
            assert data["version"] == _CURRENT[version].get(name, 1), label
        elif name == "CVResult":
            assert data["version"] == version and again.to_dict()["version"] == cvi.CVResult._format_version, label


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
