"""Holdout and random subsampling with stratified parts that cannot be formed (issue 13, item 13)."""

import numpy as np
import pytest
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi

X20 = np.arange(20.0).reshape(-1, 1)


def _holdout_and_subsampling():
    return [
        lambda y, **kw: cvi.evaluation.holdout(GaussianNB(), X20[: len(y)], y, random_state=0, **kw),
        lambda y, **kw: cvi.evaluation.random_subsampling(GaussianNB(), X20[: len(y)], y, n_rounds=3, random_state=0,
                                                          **kw),
    ]


@pytest.mark.parametrize("run", _holdout_and_subsampling())
def test_a_one_member_class_names_the_class_and_the_fix(run):
    """sklearn's "The least populated classes in y have only 1 member" said nothing about stratify."""
    y = np.array(["a"] * 10 + ["b"] * 9 + ["c"])
    with pytest.raises(ValueError, match=r"stratify=True\) puts every class in both.*class\(es\) \['c'\] have 1. "
                                         r"Pass stratify=False"):
        run(y)
    assert run(y, stratify=False).n_samples > 0  # the unstratified split has no such need


@pytest.mark.parametrize("test_size", [0.05, 0.1, 0.15, 0.2, 0.25, 0.5, 0.75, 0.8, 0.85, 0.95])
def test_parts_smaller_than_the_number_of_classes_are_refused_exactly_when_sklearn_refuses(test_size):
    # Oracle: train_test_split(stratify=y) itself, on 20 instances of 5 classes.
    y = np.tile(np.arange(5), 4)
    try:
        train_test_split(np.arange(20), test_size=test_size, stratify=y, random_state=0)
        sklearn_refuses = False
    except ValueError:
        sklearn_refuses = True
    for run in _holdout_and_subsampling():
        if sklearn_refuses:
            with pytest.raises(ValueError, match=f"with test_size={test_size:.4g} one part has .* for 5 classes. "
                                                 "Pass a test_size nearer 0.5, or stratify=False"):
                run(y, test_size=test_size)
        else:
            run(y, test_size=test_size)
