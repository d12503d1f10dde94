"""Two records share their folds when their fold numbers are equal in every repeat, whoever made them."""

import numpy as np

from cvinference import CVResult
from cvinference.records._same_folds import same_folds


def _result(fold, y_pred=(0, 1, 1, 0, 1, 0)):
    return CVResult(y_true=[0, 1, 1, 0, 0, 1], y_pred=np.array(y_pred), fold=np.array(fold))


def test_equal_folds_made_apart_are_the_same_and_different_ones_are_not():
    a = _result([0, 1, 2, 0, 1, 2])
    assert same_folds(a, _result([0, 1, 2, 0, 1, 2], y_pred=(1, 1, 1, 1, 1, 1)))
    assert not same_folds(a, _result([0, 1, 2, 0, 2, 1]))
    assert same_folds(a, a)


def test_the_shape_counts_not_only_the_numbers():
    one = _result([[0, 1, 0, 1, 0, 1]], y_pred=[[0, 1, 1, 0, 1, 0]])
    two = _result([[0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 1]], y_pred=[[0, 1, 1, 0, 1, 0]] * 2)
    assert not same_folds(one, two)
    assert same_folds(one, _result([0, 1, 0, 1, 0, 1]))


def test_the_digest_is_computed_once_per_record():
    a, b = _result([0, 1, 2, 0, 1, 2]), _result([0, 1, 2, 0, 1, 2])
    assert same_folds(a, b)
    kept = a.__dict__["__fold_digest_value"]
    assert same_folds(a, b) and a.__dict__["__fold_digest_value"] is kept
