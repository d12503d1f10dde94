"""An int ``cv`` with ``groups`` draws group-respecting folds, and repeats of a partition with one group per fold
are refused (issue 30: a user who passes groups must never get folds that split them)."""

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier, DummyRegressor

import cvinference as cvi
from cvinference.evaluation._partitions import draw_partitions


def patients(n_groups=24, seed=0):
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_groups), rng.integers(2, 9, n_groups))
    return np.zeros((groups.size, 1)), rng.integers(0, 2, groups.size), groups


def groups_per_fold(fold, groups):
    """How many folds each group's instances fall in, per repeat."""
    return [{g: np.unique(row[groups == g]).size for g in np.unique(groups)} for row in fold]


@pytest.mark.parametrize(("estimator", "loss", "kind"), [
    (DummyClassifier(), "zero_one", "StratifiedEqualSizeGroupKFold"),
    (DummyRegressor(), "squared_error", "EqualSizeGroupKFold")])
def test_an_int_cv_with_groups_keeps_every_group_in_one_fold(estimator, loss, kind):
    X, y, groups = patients()
    result = cvi.CVEvaluator(5, n_repeats=3, random_state=0, loss=loss).evaluate(estimator, X, y, groups=groups)
    assert all(set(counts.values()) == {1} for counts in groups_per_fold(result.fold, groups))
    assert result.cv_repr.startswith(kind + "(")
    assert not np.array_equal(result.fold[0], result.fold[1])  # a new partition per repeat


def test_an_int_cv_without_groups_is_unchanged():
    X, y, groups = patients()
    plain = draw_partitions(5, X, y, None, n_repeats=1, random_state=0, classifier=True)
    assert plain.cv_repr.startswith("StratifiedEqualSizeKFold(")
    assert any(counts > 1 for counts in groups_per_fold(plain.fold, groups)[0].values())


def test_the_groups_fold_choice_is_seeded_like_the_splitter_passed_explicitly():
    X, y, groups = patients()
    by_int = draw_partitions(4, X, y, groups, n_repeats=2, random_state=7, classifier=True)
    explicit = draw_partitions(cvi.StratifiedEqualSizeGroupKFold(4, shuffle=True), X, y, groups, n_repeats=2,
                               random_state=7, classifier=True)
    np.testing.assert_array_equal(by_int.fold, explicit.fold)


@pytest.mark.parametrize("cv", [6, cvi.StratifiedEqualSizeGroupKFold(6, shuffle=True, random_state=0)])
def test_repeats_of_one_group_per_fold_are_refused(cv):
    X, y, groups = patients(n_groups=6)
    with pytest.raises(ValueError, match=r"every one of the 6 groups a fold of its own.*n_repeats=3\. Use "
                                         r"n_repeats=1, or fewer folds than groups"):
        cvi.CVEvaluator(cv, n_repeats=3, random_state=0).evaluate(DummyClassifier(), X, y, groups=groups)
    single = cvi.CVEvaluator(cv, random_state=0).evaluate(DummyClassifier(), X, y, groups=groups)
    assert single.n_splits == 6
