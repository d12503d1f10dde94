"""Nested cross-validation with groups (evaluation/_nested_fits.py; issue 30, item 2): no fit sees a test group.

The oracle of the folds is the documented rule: repeat r's
``StratifiedEqualSizeGroupKFold(K, shuffle=True, random_state=seed_r)`` (for
a regressor, the same search on sizes only, ``EqualSizeGroupKFold``), the seeds
drawn as ``RandomState(random_state).randint(2**31 - 1, size=R)``. The
oracle of "no group on both sides" is a spy estimator that records, at every
prediction, the rows it was trained on and the rows it predicts: every outer
and inner fit of Bates, Hastie & Tibshirani's (2023) Algorithm 1 passes
through it.
"""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference.splitters._group_kfold import EqualSizeGroupKFold

N_GROUPS, PER_GROUP = 12, 5
GROUPS = np.repeat([f"p{g:02d}" for g in range(N_GROUPS)], PER_GROUP)


def data(seed=0):
    """Rows whose first column is the row number, so that a spy can tell which rows it saw."""
    rng = np.random.default_rng(seed)
    n = GROUPS.size
    X = np.column_stack([np.arange(n), rng.normal(size=n) + np.repeat(rng.normal(size=N_GROUPS), PER_GROUP)])
    return X, (X[:, 1] + rng.normal(size=n) > 0).astype(int)


SEEN = []
"""(training rows, predicted rows) of every prediction of the spies below."""


class _Spy(BaseEstimator):
    def fit(self, X, y):
        self.rows_ = np.asarray(X)[:, 0].astype(int)
        self.value_ = np.asarray(y)[0]
        return self

    def predict(self, X):
        SEEN.append((self.rows_, np.asarray(X)[:, 0].astype(int)))
        return np.full(len(X), self.value_)


class SpyClassifier(ClassifierMixin, _Spy):
    pass


class SpyRegressor(RegressorMixin, _Spy):
    pass


def group_oracle_folds(splitter_kind, X, y, n_splits, n_repeats, random_state):
    seeds = np.random.RandomState(random_state).randint(np.iinfo(np.int32).max, size=n_repeats)
    folds = np.empty((n_repeats, y.size), dtype=int)
    for r, seed in enumerate(seeds):
        splitter = splitter_kind(n_splits, shuffle=True, random_state=int(seed))
        for j, (_, test) in enumerate(splitter.split(X, y, GROUPS)):
            folds[r, test] = j
    return folds


@pytest.mark.parametrize("spy, loss", [(SpyClassifier, "zero_one"), (SpyRegressor, "squared_error")])
def test_no_outer_or_inner_fit_is_tested_on_a_group_it_was_trained_on(spy, loss):
    X, y = data()
    SEEN.clear()
    record = cvi.evaluation.nested_cross_validation(spy(), X, y.astype(float) if loss != "zero_one" else y, n_splits=3,
                                                    n_repeats=2, loss=loss, groups=GROUPS, random_state=0, n_jobs=1)
    assert len(SEEN) == record.n_fits == 2 * (3 + 3)
    for train, test in SEEN:
        assert not set(GROUPS[train]) & set(GROUPS[test])
        assert train.size + test.size == GROUPS.size
    # 12 groups of 5 rows in 3 folds: 20 rows per fold; an outer fit tests one fold, an inner fit the two it left out
    assert sorted(test.size for _, test in SEEN) == [20] * 6 + [40] * 6
    np.testing.assert_array_equal(record.groups, GROUPS)


@pytest.mark.parametrize("estimator, kind", [(GaussianNB(), cvi.StratifiedEqualSizeGroupKFold),
                                             (SpyRegressor(), EqualSizeGroupKFold)])
def test_the_folds_are_the_group_splitters_with_the_repeats_seeds(estimator, kind):
    X, y = data(1)
    target = y if kind is cvi.StratifiedEqualSizeGroupKFold else X[:, 1] * 2.0
    loss = "zero_one" if kind is cvi.StratifiedEqualSizeGroupKFold else "squared_error"
    record = cvi.evaluation.nested_cross_validation(estimator, X, target, n_splits=3, n_repeats=2, loss=loss,
                                                    groups=GROUPS,
                                                    random_state=4, n_jobs=1)
    np.testing.assert_array_equal(record.fold, group_oracle_folds(kind, X, target, 3, 2, 4))
    assert record.cv_repr.startswith(f"{kind.__name__}(n_splits=3")
    for fold in record.fold:  # every group whole in one fold, and so in every inner cross-validation
        assert all(np.unique(fold[GROUPS == g]).size == 1 for g in np.unique(GROUPS))


def test_the_outer_losses_are_those_of_cross_val_correctness_on_the_same_group_folds():
    X, y = data(2)
    record = cvi.evaluation.nested_cross_validation(GaussianNB(), X, y, n_splits=4, n_repeats=2, groups=GROUPS,
                                                    random_state=3,
                                                    n_jobs=1)
    result = cvi.cross_val_correctness(GaussianNB(), X, y, groups=GROUPS, n_repeats=2, random_state=3,
                                       cv=cvi.StratifiedEqualSizeGroupKFold(4, shuffle=True))
    np.testing.assert_array_equal(record.fold, result.fold)
    np.testing.assert_array_equal(record.outer[0], result.loss)


def test_the_record_round_trips_its_groups_and_says_it_is_grouped():
    X, y = data()
    record = cvi.evaluation.nested_cross_validation(GaussianNB(), X, y, n_splits=3, n_repeats=1, groups=GROUPS,
                                                    estimator_b=GaussianNB(var_smoothing=1e-3), random_state=0,
                                                    n_jobs=1)
    again = cvi.records.NestedCVResult.from_json(record.to_json())
    assert again == record and again.n_groups == N_GROUPS
    np.testing.assert_array_equal(again.groups, GROUPS)
    assert not again.groups.flags.writeable
    assert f"grouped: {N_GROUPS} groups" in record.summary()


def test_too_few_groups_for_two_per_fold_are_refused_before_any_fit():
    X, y = data()
    with pytest.raises(ValueError, match=r"at least 2 groups in every fold .* groups holds 12 groups with "
                                         r"n_splits=7\. With 12 groups, use n_splits <= 6"):
        cvi.evaluation.nested_cross_validation(SpyClassifier(), X, y, n_splits=7, n_repeats=1, groups=GROUPS,
                                               random_state=0)


def test_a_group_that_fills_a_fold_by_itself_is_refused_before_any_fit():
    # Ten groups pass the count (2 x 5), but the group of 100 rows takes a fold alone in the size-balancing split.
    groups = np.repeat([f"g{g}" for g in range(10)], [100] + [3] * 9)
    X = np.column_stack([np.arange(groups.size), np.random.default_rng(0).normal(size=groups.size)])
    y = np.arange(groups.size) % 2
    SEEN.clear()
    with pytest.raises(ValueError, match=r"fold \d of repeat 0 holds 1\. The groups are too unequal in size for 5 "
                                         r"folds of 2 groups each"):
        cvi.evaluation.nested_cross_validation(SpyClassifier(), X, y, n_splits=5, n_repeats=1, groups=groups,
                                               random_state=0)
    assert SEEN == []


def test_a_hand_made_record_with_a_fold_of_one_group_is_refused():
    fold = np.array([[0, 0, 1, 1, 2, 2, 2, 0, 1]])
    inner = np.where(fold[:, None, :] == np.arange(3)[None, :, None], np.nan, 0.5)[None]
    with pytest.raises(ValueError, match=r"every fold needs at least 2 groups .* fold 2 of repeat 0 holds 1"):
        cvi.records.NestedCVResult(fold=fold, outer=np.zeros((1, 1, 9)), inner=inner, groups=list("aabbcccde"))


def test_groups_of_another_length_are_refused_naming_the_parameter():
    X, y = data()
    with pytest.raises(ValueError, match=r"groups has 10 entries but X has 60 rows"):
        cvi.evaluation.nested_cross_validation(GaussianNB(), X, y, n_splits=3, groups=GROUPS[:10], random_state=0)
