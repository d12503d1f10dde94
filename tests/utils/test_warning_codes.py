"""Warnings carry a code (issue 44): a result keeps each warning as a ``Caution`` whose code is its
``InferenceWarning`` subclass's, the codec keeps it through JSON, and the report recognises warnings by code,
never by their text."""

import json
import warnings

import numpy as np
import pytest

import cvinference as cvi
from cvinference._utils._warnings import (
    Caution,
    ConditionsWarning,
    GroupedInstancesWarning,
    InferenceWarning,
    Messages,
    PooledRepeatsWarning,
    code_of,
)
from cvinference.report import _report


def _result(errors_per_fold, n_repeats=1, groups=None):
    """A 10-fold result of 30 instances per fold, the first ``errors_per_fold`` of each fold wrong."""
    k, n = 10, 30
    y_true = np.tile(np.arange(n) % 2, k)
    fold = np.repeat(np.arange(k), n)
    y_pred = y_true.copy()
    for j in range(k):
        wrong = np.flatnonzero(fold == j)[:errors_per_fold]
        y_pred[wrong] = 1 - y_pred[wrong]
    return cvi.CVResult(y_true, np.tile(y_pred, (n_repeats, 1)), np.tile(fold, (n_repeats, 1)), groups=groups)


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InferenceWarning)
        return function(*args, **kwargs)


@pytest.mark.parametrize(("make", "category"), [
    (lambda: cvi.accuracy_interval(_result(2), method="normal"), ConditionsWarning),  # m_j - r_j = 2 < 5
    (lambda: cvi.accuracy_interval(_result(8, n_repeats=2), method="wilson"), PooledRepeatsWarning),
    (lambda: cvi.accuracy_interval(_result(8, groups=np.arange(300) // 10), method="wilson"),
     GroupedInstancesWarning),
])
def test_each_kind_is_issued_as_its_class_and_kept_with_its_code(make, category):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = make()
    assert any(w.category is category for w in caught)
    coded = [w for w in result.warnings if code_of(w) == category.code]
    assert coded and all(isinstance(w, Caution) for w in coded)
    again = type(result).from_dict(json.loads(json.dumps(result.to_dict())))
    assert [code_of(w) for w in again.warnings] == [code_of(w) for w in result.warnings]
    assert [dict(w.fields) for w in again.warnings] == [dict(getattr(w, "fields", {})) for w in result.warnings]
    assert again == result


def test_a_warning_without_a_code_of_its_own_is_written_as_its_text():
    messages = Messages()
    with pytest.warns(InferenceWarning):
        messages.warn("plain words")
    interval = _quiet(cvi.accuracy_interval, _result(8), method="wilson")
    written = cvi.inference.Interval.to_dict(interval.__class__(**{**interval.__dict__, "warnings": tuple(
        messages.warnings)}))
    assert written["warnings"] == {"tuple": ["plain words"]}
    assert code_of("an old payload's warning") == "inference"


def test_a_tampered_code_is_refused_by_name():
    data = _quiet(cvi.accuracy_interval, _result(2), method="normal").to_dict()
    data["warnings"]["tuple"][0]["code"] = "no-such-code"
    with pytest.raises(ValueError, match="warnings"):
        cvi.inference.Interval.from_dict(data)


def test_the_report_filters_and_combines_by_code_not_by_text():
    """A conditions-coded warning is left out whatever its words; the same words without the code stay."""
    records = [{"warnings": [Caution("Anything at all.", ConditionsWarning.code),
                             "The large-sample conditions fail (plain text, no code).",
                             Caution("Pooled. Pass repeat=0 to use one repeat.", PooledRepeatsWarning.code,
                                     hint="Pass repeat=0 to use one repeat."),
                             Caution("Grouped words.", GroupedInstancesWarning.code, counts="9 instances in 3 groups",
                                     what="the normal interval"),
                             Caution("Other grouped words.", GroupedInstancesWarning.code,
                                     counts="9 instances in 3 groups", what="McNemar's test")]}]
    cautions = _report._cautions(records, command_line=True)
    assert cautions[0] == "The large-sample conditions fail (plain text, no code)."
    assert cautions[1] == "Pooled. n_repeats=1 (--repeats 1) uses a single repeat."
    assert cautions[2].startswith("The result was made with groups (9 instances in 3 groups): the normal interval "
                                  "and McNemar's test count every instance")
    assert len(cautions) == 3


def test_a_coded_warning_survives_pickling_and_copying():
    """Results cross process boundaries (joblib workers, studies' checkpoints) with their codes."""
    import copy
    import pickle

    interval = _quiet(cvi.accuracy_interval, _result(8, n_repeats=2), method="wilson")
    for again in (pickle.loads(pickle.dumps(interval)), copy.deepcopy(interval)):
        assert again == interval
        assert [(type(w), code_of(w), dict(w.fields)) for w in again.warnings] == [
            (type(w), code_of(w), dict(w.fields)) for w in interval.warnings]
