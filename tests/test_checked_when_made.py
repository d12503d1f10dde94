"""Every result is checked when made as ``from_dict`` checks its payload: one validator for both (issue 46, item 4).

``Serializable.__post_init__`` runs ``_validate`` (every field's kind, then the rules across fields) for every
dataclass result; records check their arrays in their constructors, which ``from_dict`` calls. The cases are
every result type of ``tests/result_cases.py`` (so a new type joins them), each remade with one field given a value
its kind refuses: the error names the class and the field, as ``from_dict``'s does.
"""

import dataclasses
import functools
import warnings

import pytest

from result_cases import result_cases

# A field and a value that field's kind refuses, for the fields results share.
BAD = {"pvalue": -1.0, "low": 5.0, "confidence_level": 1.5, "standard_error": -1.0, "method": 5,
       "target": "someday", "notes": "one note, not a tuple", "prob_a_better": 2.0}


@functools.cache
def _results():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = {}
        for _, result in result_cases():
            if dataclasses.is_dataclass(result):
                found.setdefault(type(result).__name__, result)
    return found


def _cases():
    return [(name, field) for name, result in sorted(_results().items())
            for field in BAD if field in {f.name for f in dataclasses.fields(result)}]


def test_every_dataclass_result_type_has_a_refused_field():
    named = {name for name, _ in _cases()}
    assert named >= {"Interval", "TestResult", "McNemarTestResult", "BayesianResult", "BootstrapResult",
                     "Decision", "DecisionTest", "FTestResult", "NoInformationTestResult"}


@pytest.mark.parametrize("name", sorted(_results()))
def test_a_genuine_result_remade_passes(name):
    result = _results()[name]
    assert dataclasses.replace(result) == result


@pytest.mark.parametrize("name, field", _cases())
def test_a_refused_value_is_refused_when_made_as_when_read(name, field):
    result = _results()[name]
    with pytest.raises((TypeError, ValueError)) as made:
        dataclasses.replace(result, **{field: BAD[field]})
    assert field in str(made.value), str(made.value)
    payload = result.to_dict()
    payload[field] = BAD[field]
    with pytest.raises((TypeError, ValueError)):
        type(result).from_dict(payload)
