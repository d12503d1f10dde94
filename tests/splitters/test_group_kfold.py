"""StratifiedEqualSizeGroupKFold: whole groups, balanced folds, scikit-learn's GroupKFold interface (issue 30).

Sources of expected values:

* the cost is the one written in the class's Notes (two Pearson chi-square distances from the ideal
  fold-by-class table n_c / k and fold sizes n / k), recomputed here from the folds' class counts; a
  partition is checked to be a local minimum of it by trying every move and swap by brute force;
* scikit-learn's ``StratifiedGroupKFold`` with the same ``random_state`` is the comparison of balance
  (``benchmarks/group_kfold_balance.py`` runs it on 1,200 data sets; its figures are in the Notes);
* equal groups whose number divides by k: n / k instances per fold follows from the cap of the Notes
  (no fold above ceil(n/k) + m - 1 = n/k + m - 1, so none can take a group beyond n / k);
* one instance per group: the cost is lowest when every class's counts, and the sizes, differ by at
  most one across folds (each term of the sum is convex in X_fc with the sum over f fixed), which is
  what StratifiedEqualSizeKFold guarantees;
* reprs and error messages: scikit-learn 1.9's ``GroupKFold`` / ``StratifiedGroupKFold`` wording.
"""

import copy
import functools
import importlib.util
import itertools
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedGroupKFold,
    check_cv,
    cross_val_predict,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference import StratifiedEqualSizeGroupKFold

PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, database=None, derandomize=True,
                             suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def _benchmark():
    """benchmarks/group_kfold_balance.py, whose random grouped data sets the tests draw too."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "group_kfold_balance.py"
    spec = importlib.util.spec_from_file_location("group_kfold_balance", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def grouped_data(rng, concentration=1.0, n_groups=(8, 80)):
    return _benchmark().dataset(rng, concentration, n_groups)


def split(cv, y, groups):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the least populated class
        return list(cv.split(np.zeros((len(y), 1)), y, groups))


def table(splits, y):
    """Fold-by-class counts."""
    classes, codes = np.unique(y, return_inverse=True)
    return np.array([np.bincount(codes[test], minlength=classes.size) for _, test in splits])


def cost(counts):
    """The Notes' cost of a fold-by-class table: chi-square distances of the table and the sizes from the ideal."""
    k = counts.shape[0]
    with_sizes = np.column_stack([counts, counts.sum(axis=1)])
    ideal = with_sizes.sum(axis=0) / k
    return float(((with_sizes - ideal) ** 2 / ideal).sum())


def spreads(splits, y):
    """(std of the fold sizes, mean over classes of the std across folds of the class's share in the fold)."""
    counts = table(splits, y)
    sizes = counts.sum(axis=1)
    return float(np.std(sizes)), float(np.mean(np.std(counts / sizes[:, None], axis=0)))


def assert_groups_whole_and_partition(splits, groups):
    n = len(groups)
    tested = np.concatenate([test for _, test in splits])
    assert np.array_equal(np.sort(tested), np.arange(n))  # every instance tested exactly once
    for train, test in splits:
        assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(n))
        assert not set(groups[train].tolist()) & set(groups[test].tolist())  # no group on both sides


# --------------------------------------------------------------------------
# partition, whole groups, reproducibility
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("shuffle", [False, True])
def test_groups_are_never_split_and_every_instance_is_tested_once(seed, shuffle):
    rng = np.random.default_rng(seed)
    y, groups = grouped_data(rng)
    k = int(rng.choice([2, 3, 5, 8]))
    cv = StratifiedEqualSizeGroupKFold(k, shuffle=shuffle, random_state=seed if shuffle else None)
    splits = split(cv, y, groups)
    assert len(splits) == cv.get_n_splits() == k
    assert_groups_whole_and_partition(splits, groups)


@PROPERTY_SETTINGS
@given(sizes=st.lists(st.integers(1, 12), min_size=2, max_size=40), k=st.integers(2, 6),
       labels=st.integers(0, 2**32 - 1), seed=st.integers(0, 2**32 - 1), shuffle=st.booleans())
def test_any_grouping_gives_whole_groups_in_nonempty_folds(sizes, k, labels, seed, shuffle):
    if len(sizes) < k:
        k = len(sizes)
    if k < 2:
        return
    groups = np.repeat([f"g{i}" for i in range(len(sizes))], sizes)
    y = np.random.default_rng(labels).integers(0, 3, groups.size)
    if np.unique(y).size < 2:
        y[0] = 1 - y[0]
    splits = split(StratifiedEqualSizeGroupKFold(k, shuffle=shuffle, random_state=seed if shuffle else None),
                   y, groups)
    assert_groups_whole_and_partition(splits, groups)
    assert all(len(test) > 0 for _, test in splits)
    assert max(len(test) for _, test in splits) <= -(-groups.size // k) + max(sizes) - 1  # the cap of the Notes


def test_an_int_random_state_gives_identical_splits():
    y, groups = grouped_data(np.random.default_rng(3))
    cv = StratifiedEqualSizeGroupKFold(5, shuffle=True, random_state=7)
    first = split(cv, y, groups)
    for again in (split(cv, y, groups), split(StratifiedEqualSizeGroupKFold(5, shuffle=True, random_state=7), y,
                                              groups), split(copy.deepcopy(cv), y, groups)):
        assert all(np.array_equal(a[1], b[1]) and np.array_equal(a[0], b[0]) for a, b in zip(first, again,
                                                                                           strict=True))
    unshuffled = StratifiedEqualSizeGroupKFold(5)
    assert [t.tolist() for _, t in split(unshuffled, y, groups)] == [t.tolist() for _, t in split(unshuffled, y,
                                                                                                  groups)]


def test_the_shuffle_changes_the_partition_of_groups_of_one_size():
    # 40 groups of 3 (two classes mixed alike): only the shuffled order tells them apart
    groups = np.repeat(np.arange(40), 3)
    y = np.tile([0, 1, 1], 40)
    partitions = {frozenset(frozenset(groups[t].tolist()) for _, t in
                            split(StratifiedEqualSizeGroupKFold(4, shuffle=True, random_state=s), y, groups))
                  for s in range(5)}
    assert len(partitions) == 5


def test_the_folds_do_not_depend_on_the_names_of_the_classes():
    y, groups = grouped_data(np.random.default_rng(11))
    renamed = np.array(["z", "a", "m"])[y]
    for shuffle in (False, True):
        cv = StratifiedEqualSizeGroupKFold(4, shuffle=shuffle, random_state=1 if shuffle else None)
        assert [t.tolist() for _, t in split(cv, y, groups)] == [t.tolist() for _, t in split(cv, renamed, groups)]


# --------------------------------------------------------------------------
# balance
# --------------------------------------------------------------------------


@pytest.mark.parametrize("k, groups_per_fold, size", [(2, 5, 4), (3, 4, 7), (5, 3, 2), (4, 1, 9), (10, 2, 5)])
@pytest.mark.parametrize("shuffle", [False, True])
def test_equal_groups_whose_number_divides_by_k_give_exactly_equal_folds(k, groups_per_fold, size, shuffle):
    rng = np.random.default_rng(k * 100 + size)
    n_groups = k * groups_per_fold
    for labels in ("mixed", "one class per group", "a rare class"):
        if labels == "mixed":
            y = rng.integers(0, 3, n_groups * size)
        elif labels == "one class per group":
            y = np.repeat(rng.integers(0, 2, n_groups), size)
        else:
            y = np.zeros(n_groups * size, dtype=int)
            y[rng.choice(y.size, 3, replace=False)] = 1
        groups = rng.permutation(np.repeat(np.arange(n_groups), size))
        splits = split(StratifiedEqualSizeGroupKFold(k, shuffle=shuffle, random_state=0 if shuffle else None),
                       y, groups)
        assert [len(test) for _, test in splits] == [groups_per_fold * size] * k, labels
        assert [np.unique(groups[test]).size for _, test in splits] == [groups_per_fold] * k, labels


@PROPERTY_SETTINGS
@given(n=st.integers(4, 150), k=st.integers(2, 10), n_classes=st.integers(2, 4), seed=st.integers(0, 2**32 - 1),
       shuffle=st.booleans())
def test_one_instance_per_group_balances_as_a_stratified_kfold(n, k, n_classes, seed, shuffle):
    k = min(k, n)
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    if np.unique(y).size < 2:
        y[0] = (y[0] + 1) % n_classes
    counts = table(split(StratifiedEqualSizeGroupKFold(k, shuffle=shuffle, random_state=seed if shuffle else None),
                         y, rng.permutation(n)), y)
    sizes = counts.sum(axis=1)
    assert sizes.max() - sizes.min() <= 1
    assert np.all(counts.max(axis=0) - counts.min(axis=0) <= 1)


def test_many_instances_of_one_per_group_balance_too():
    # 3,000 groups of one instance, a single kind per class: the swaps of the local search stay cheap
    rng = np.random.default_rng(0)
    y = rng.choice(3, 3000, p=[0.6, 0.3, 0.1])
    counts = table(split(StratifiedEqualSizeGroupKFold(10, shuffle=True, random_state=0), y, np.arange(3000)), y)
    assert np.ptp(counts.sum(axis=1)) <= 1 and np.all(np.ptp(counts, axis=0) <= 1)


def _moves_and_swaps(fold_of, sizes, k):
    """Every partition one move or one swap of a group away from ``fold_of`` (folds kept non-empty)."""
    n_groups = fold_of.size
    for g in range(n_groups):
        for f in range(k):
            if f != fold_of[g] and np.count_nonzero(fold_of == fold_of[g]) > 1:
                moved = fold_of.copy()
                moved[g] = f
                yield moved
    for g, h in itertools.combinations(range(n_groups), 2):
        if fold_of[g] != fold_of[h]:
            swapped = fold_of.copy()
            swapped[g], swapped[h] = fold_of[h], fold_of[g]
            yield swapped


@pytest.mark.parametrize("seed", range(8))
def test_the_partition_is_a_local_minimum_of_the_notes_cost(seed):
    # brute force: no single move or swap within the cap of the Notes lowers the cost, recomputed from scratch
    rng = np.random.default_rng(seed)
    y, groups = grouped_data(rng, n_groups=(6, 20))
    k = int(rng.choice([2, 3, 4]))
    labels, codes = np.unique(groups, return_inverse=True)
    splits = split(StratifiedEqualSizeGroupKFold(k, shuffle=True, random_state=seed), y, groups)
    fold_of = np.empty(labels.size, dtype=int)
    for j, (_, test) in enumerate(splits):
        fold_of[codes[test]] = j
    sizes = np.bincount(codes)
    cap = -(-y.size // k) + sizes.max() - 1
    classes = np.unique(y, return_inverse=True)[1]
    per_group = np.zeros((labels.size, classes.max() + 1), dtype=int)
    np.add.at(per_group, (codes, classes), 1)

    def cost_of(assignment):
        return cost(np.array([per_group[assignment == f].sum(axis=0) for f in range(k)]))

    found = cost_of(fold_of)
    assert found == pytest.approx(cost(table(splits, y)), rel=1e-12)
    for other in _moves_and_swaps(fold_of, sizes, k):
        if np.bincount(other, weights=sizes, minlength=k).max() <= cap:
            assert cost_of(other) >= found - 1e-9


def test_the_balance_is_no_worse_than_sklearns_stratified_group_kfold():
    """On 30 random grouped data sets, against sklearn's StratifiedGroupKFold with the same seed.

    The two splitters weigh sizes and class shares differently, so on a data set either can be better on one
    of the two: the measured claim is that scikit-learn's folds are never more even on both counts at once, and
    that on average ours are more even on each (benchmarks/group_kfold_balance.py, 1,200 data sets: scikit-learn
    better on both in 1, by a partition that more than one move or swap separates from ours).
    """
    ours, theirs = [], []
    for seed in range(30):
        rng = np.random.default_rng(1000 + seed)
        y, groups = grouped_data(rng, concentration=float(rng.choice([0.3, 1.0, 5.0])))
        k = int(rng.choice([3, 5, 10]))
        if np.unique(groups).size < k:
            continue
        ours.append(spreads(split(StratifiedEqualSizeGroupKFold(k, shuffle=True, random_state=seed), y, groups), y))
        theirs.append(spreads(split(StratifiedGroupKFold(k, shuffle=True, random_state=seed), y, groups), y))
    ours, theirs = np.array(ours), np.array(theirs)
    assert len(ours) >= 25
    worse = ours > theirs + 1e-12
    assert not worse.all(axis=1).any(), np.flatnonzero(worse.all(axis=1))
    assert ours[:, 0].mean() < theirs[:, 0].mean() and ours[:, 1].mean() < theirs[:, 1].mean()
    # where sklearn's class shares are more even, its folds are of less equal size (or as equal)
    assert np.all(ours[worse[:, 1], 0] <= theirs[worse[:, 1], 0] + 1e-12)


def test_the_docs_example_against_sklearn():
    groups = np.repeat(np.arange(10), [6, 6, 5, 5, 4, 4, 3, 3, 2, 2])
    y = np.zeros(40, dtype=int)
    y[[0, 6, 7, 17, 18, 19, 22, 26, 27, 33, 38]] = 1
    ours = split(StratifiedEqualSizeGroupKFold(4, shuffle=True, random_state=0), y, groups)
    theirs = split(StratifiedGroupKFold(4, shuffle=True, random_state=0), y, groups)
    assert [len(t) for _, t in ours] == [10] * 4
    assert cost(table(ours, y)) < cost(table(theirs, y))


# --------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------


def test_groups_are_required_and_checked():
    y, groups = np.array([0, 1] * 6), np.repeat(np.arange(6), 2)
    cv = StratifiedEqualSizeGroupKFold(3)
    X = np.zeros((12, 1))
    with pytest.raises(ValueError, match=r"^The 'groups' parameter should not be None\. Pass one group label per "
                                         r"row of X"):
        list(cv.split(X, y))
    bad = groups.astype(float)
    bad[4] = np.nan
    with pytest.raises(ValueError, match=r"^groups contains NaN, infinity or None in 1 of 12 entries \(first at "
                                         r"index 4\)\. Give every instance a group label"):
        list(cv.split(X, y, bad))
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[12, 12, 11\]"):  # sklearn's split
        list(cv.split(X, y, groups[:11]))
    with pytest.raises(ValueError, match=r"^Cannot have number of splits n_splits=7 greater than the number of "
                                         r"groups: 6\. Use n_splits <= 6, or more groups\.$"):
        list(StratifiedEqualSizeGroupKFold(7).split(X, y, groups))


@pytest.mark.parametrize("y, match", [
    (np.linspace(0, 1, 12), r"Supported target types are: \('binary', 'multiclass'\)\. Got 'continuous' instead\."),
    (np.array(["a", None] * 6, dtype=object), r"y contains NaN, infinity or None in 6 of 12 entries"),
])
def test_y_must_hold_class_labels(y, match):
    with pytest.raises(ValueError, match=match):
        list(StratifiedEqualSizeGroupKFold(3).split(np.zeros((12, 1)), y, np.repeat(np.arange(6), 2)))


@pytest.mark.parametrize("kw, error, match", [
    ({"n_splits": 1}, ValueError, r"^n_splits must be an integer >= 2; got n_splits=1\.$"),
    ({"n_splits": 2.5}, ValueError, r"^n_splits must be an integer >= 2; got n_splits=2\.5\.$"),
    ({"shuffle": "yes"}, TypeError, r"^shuffle must be True or False; got shuffle='yes'\.$"),
    ({"shuffle": True, "random_state": -1}, ValueError, r"^random_state must be None, an integer from 0 to"),
    ({"random_state": 0}, ValueError, "Setting a random_state has no effect since shuffle is False"),
])
def test_bad_parameters_are_refused_when_made(kw, error, match):
    with pytest.raises(error, match=match):
        StratifiedEqualSizeGroupKFold(**kw)


def test_a_class_smaller_than_n_splits_warns_as_sklearn_does():
    y = np.array([0] * 20 + [1] * 2)
    groups = np.arange(22) // 2
    with pytest.warns(UserWarning, match=r"The least populated class in y has only 2 members, which is less than "
                                         r"n_splits=3\."):
        list(StratifiedEqualSizeGroupKFold(3).split(np.zeros((22, 1)), y, groups))


# --------------------------------------------------------------------------
# drop-in for GroupKFold
# --------------------------------------------------------------------------


def test_repr_get_params_and_check_cv_as_sklearn_splitters():
    cv = StratifiedEqualSizeGroupKFold(4, shuffle=True, random_state=3)
    assert repr(cv) == "StratifiedEqualSizeGroupKFold(n_splits=4, random_state=3, shuffle=True)"
    assert repr(StratifiedEqualSizeGroupKFold()) == ("StratifiedEqualSizeGroupKFold(n_splits=5, random_state=None, "
                                                     "shuffle=False)")
    assert check_cv(cv, np.array([0, 1] * 5), classifier=True) is cv
    assert cv.get_n_splits() == cv.get_n_splits(np.zeros((8, 1)), groups=np.arange(8)) == 4
    assert isinstance(cv, StratifiedGroupKFold)
    assert re.fullmatch(r"\{'groups': True\}", str(cv._get_metadata_request().split.requests))


@pytest.fixture(scope="module")
def patients():
    rng = np.random.default_rng(0)
    y, groups = grouped_data(rng, concentration=5.0, n_groups=(40, 41))
    X = rng.normal(size=(y.size, 3)) + y[:, None]
    return X, y, np.array([f"patient {g}" for g in groups])


def test_cross_val_predict_and_cross_validate_take_it_as_group_kfold(patients):
    X, y, groups = patients
    cv = StratifiedEqualSizeGroupKFold(5, shuffle=True, random_state=0)
    predicted = cross_val_predict(GaussianNB(), X, y, cv=cv, groups=groups)
    by_hand = np.empty_like(y)
    for train, test in cv.split(X, y, groups):
        by_hand[test] = GaussianNB().fit(X[train], y[train]).predict(X[test])
    np.testing.assert_array_equal(predicted, by_hand)
    scores = cross_validate(GaussianNB(), X, y, cv=cv, groups=groups, return_indices=True)
    for (_, test), kept in zip(cv.split(X, y, groups), scores["indices"]["test"], strict=True):
        np.testing.assert_array_equal(test, kept)
    with pytest.raises(ValueError, match="The 'groups' parameter should not be None"):
        cross_val_predict(GaussianNB(), X, y, cv=cv)


@pytest.mark.slow
def test_grid_search_routes_the_groups(patients):
    X, y, groups = patients
    cv = StratifiedEqualSizeGroupKFold(4, shuffle=True, random_state=0)
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=cv).fit(X, y, groups=groups)
    assert search.n_splits_ == 4
    reference = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=list(cv.split(X, y, groups))).fit(X, y)
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], reference.cv_results_["mean_test_score"])
    with pytest.raises(ValueError, match="The 'groups' parameter should not be None"):
        GridSearchCV(LogisticRegression(), {"C": [1.0]}, cv=cv).fit(X, y)


def test_pandas_inputs_give_the_same_splits(patients):
    pd = pytest.importorskip("pandas")
    X, y, groups = patients
    cv = StratifiedEqualSizeGroupKFold(5, shuffle=True, random_state=2)
    plain = [t.tolist() for _, t in cv.split(X, y, groups)]
    frame = pd.DataFrame(X, index=np.arange(y.size) + 500)
    labels = pd.Series(np.array(["no", "yes", "maybe"])[y], index=frame.index)
    assert [t.tolist() for _, t in cv.split(frame, labels, pd.Series(groups, index=frame.index))] == plain
    assert [t.tolist() for _, t in cv.split(X.tolist(), y.tolist(), groups.tolist())] == plain


def test_the_evaluator_uses_it_and_keeps_the_groups(patients):
    X, y, groups = patients
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=StratifiedEqualSizeGroupKFold(5, shuffle=True),
                                       groups=groups, n_repeats=3, random_state=0)
    np.testing.assert_array_equal(result.groups, groups)
    for r in range(3):
        for g in np.unique(groups):
            assert np.unique(result.fold[r][groups == g]).size == 1
    assert result.cv_repr.startswith("StratifiedEqualSizeGroupKFold(n_splits=5")
    assert len({tuple(fold) for fold in result.fold.tolist()}) == 3  # each repeat reseeded: three partitions
