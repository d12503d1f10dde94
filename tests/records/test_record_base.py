"""The records' one base class (issue 44, item 5): ``records._record.Record`` and ``Grouped``.

Their reprs, summaries and JSON are pinned by tests/test_recorded_outputs.py and tests/test_codec.py; this checks
that every record takes them from the one base, and the base's own rules.
"""

import warnings

import numpy as np
import pytest

import cvinference as cvi
from cvinference.records import __all__ as RECORD_NAMES
from cvinference.records._record import Grouped, Record

from result_cases import result_cases

RECORDS = {"CVResult", "PairedCVResult", "SubsamplingResult", "NestedCVResult", "PairedSubsamplingResult",
           "BootstrapSamplingResult", "ForwardResult", "PairedForwardResult"}


def test_every_record_class_derives_from_the_one_base_and_draws_its_repr_from_it():
    import cvinference.records as records

    classes = {name: getattr(records, name) for name in RECORD_NAMES}
    assert {name for name, cls in classes.items() if isinstance(cls, type) and issubclass(cls, Record)} == RECORDS
    for name in RECORDS:  # one __repr__, the base's; each class says only what it shows
        assert "__repr__" not in vars(classes[name]) and "_repr_fields" in vars(classes[name]), name
    assert {name for name in RECORDS if issubclass(classes[name], Grouped)} == {"CVResult", "NestedCVResult"}


def test_a_records_repr_is_its_class_and_its_fields():
    seen = set()
    for _, result in result_cases():
        if isinstance(result, Record):
            fields = ", ".join(f"{name}={text}" for name, text in result._repr_fields().items())
            assert repr(result) == f"{type(result).__name__}({fields})"
            assert repr(result).startswith(f"{type(result).__name__}(n_samples={result_size(result)}, ")
            seen.add(type(result).__name__)
    assert seen == RECORDS


def result_size(result):
    return result.n_samples if hasattr(result, "n_samples") else result.a.n_samples


def test_n_groups_counts_the_distinct_groups_once():
    groups = np.array([3, 3, 7, 7, 9, 9, 11, 11])
    result = cvi.CVResult(y_true=[0, 1] * 4, y_pred=[0, 1] * 4, fold=[0, 0, 1, 1, 2, 2, 3, 3], groups=groups)
    assert result.n_groups == 4 and "_n_groups_value" in vars(result)  # kept: computed on first use only
    assert cvi.CVResult(y_true=[0, 1] * 4, y_pred=[0, 1] * 4, fold=[0, 1] * 4).n_groups is None
    fold = np.array([[0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]])  # 3 folds of 2 groups each: nested CV's least
    inner = np.where(fold[:, None, :] == np.arange(3)[None, :, None], np.nan, 0.5)[None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = cvi.records.NestedCVResult(fold=fold, outer=np.zeros((1, 1, 12)), inner=inner,
                                    estimator_reprs=("GaussianNB()",), groups=np.arange(12) // 2)
    assert nested.n_groups == 6 and "_n_groups_value" in vars(nested)


def test_a_record_that_says_nothing_is_refused_by_name():
    class Unfinished(Record):
        pass

    with pytest.raises(TypeError, match=r"Can't instantiate abstract class Unfinished.*_repr_fields.*summary"):
        Unfinished()
