"""Tests for the cross-validators in ``cvinference.splitters``.

Sources of expected values:

* sklearn's own splitters (``KFold``, ``LeaveOneOut``) are used as oracles where
  the cvinference class is documented to make the same partition;
* the fold-size rule "the first ``n % k`` folds hold ``n // k + 1`` instances,
  the others ``n // k``" is the documented contract of ``EqualSizeKFold`` /
  ``StratifiedEqualSizeKFold`` (and of sklearn's ``KFold``);
* the 203-instance, 5-fold example (40, 40, 40, 40, 43) is Wong (2015),
  section 4.3.2, approach (2);
* exact reprs and error messages were checked against scikit-learn 1.9.
"""

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import model_selection
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    check_cv,
    cross_val_score,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

try:
    import pandas as pd
except ImportError:  # the pandas extra is optional; pandas inputs are tested in test_split_pandas.py
    pd = None

from cvinference import EqualSizeKFold, LeaveOneOut, StratifiedEqualSizeKFold
from cvinference.splitters import RandomAssignmentKFold, RemainderLastKFold

PROPERTY_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    database=None,  # do not write a .hypothesis example database
    suppress_health_check=[HealthCheck.too_slow],
)


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def assert_partition(splits, n):
    """Test sets partition range(n); each train set is its test set's complement."""
    assert len(splits) >= 1
    all_test = np.concatenate([np.asarray(test) for _, test in splits])
    # every index exactly once over all test folds
    assert np.array_equal(np.sort(all_test), np.arange(n))
    for train, test in splits:
        train, test = np.asarray(train), np.asarray(test)
        assert len(test) > 0
        assert np.intersect1d(train, test).size == 0
        assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(n))
        # no duplicates inside a fold
        assert np.unique(train).size == train.size
        assert np.unique(test).size == test.size


def equal_fold_sizes(n, k):
    """Documented sizes: the first n % k folds hold one instance more."""
    return [n // k + 1] * (n % k) + [n // k] * (k - n % k)


def as_partition(splits):
    """Unordered set partition given by the test folds."""
    return frozenset(frozenset(np.asarray(test).tolist()) for _, test in splits)


def splits_equal(a, b):
    return len(a) == len(b) and all(
        np.array_equal(tr_a, tr_b) and np.array_equal(te_a, te_b)
        for (tr_a, te_a), (tr_b, te_b) in zip(a, b, strict=True)
    )


def stratified_split(cv, X, y):
    """Split, recording warnings, so that tiny classes do not fail the test."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        splits = list(cv.split(X, y))
    least = [w for w in record if "least populated" in str(w.message)]
    for w in least:
        assert issubclass(w.category, UserWarning)
    return splits, least


n_and_k = st.integers(min_value=2, max_value=12).flatmap(
    lambda k: st.tuples(st.integers(min_value=k, max_value=120), st.just(k))
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def labels_and_k(draw):
    """An arbitrary label vector (tiny classes allowed) and a valid n_splits."""
    k = draw(st.integers(min_value=2, max_value=8))
    n_classes = draw(st.integers(min_value=1, max_value=6))
    n = draw(st.integers(min_value=k, max_value=80))
    codes = draw(
        st.lists(st.integers(min_value=0, max_value=n_classes - 1), min_size=n, max_size=n)
    )
    kind = draw(st.sampled_from(["int", "str", "bool"] + (["categorical"] if pd is not None else [])))
    codes = np.asarray(codes)
    if kind == "int":
        y = codes * 7 - 3  # arbitrary, non-contiguous integer labels
    elif kind == "str":
        y = np.array([f"class_{c}" for c in codes], dtype=object)
    elif kind == "categorical":
        y = pd.Series(pd.Categorical([f"c{c}" for c in codes]))
    else:
        y = (codes % 2).astype(bool)
    return np.asarray(y), y, k


# --------------------------------------------------------------------------
# 1. property tests: EqualSizeKFold
# --------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(nk=n_and_k, seed=seeds, shuffle=st.booleans())
def test_equal_size_kfold_partition_and_sizes(nk, seed, shuffle):
    n, k = nk
    cv = EqualSizeKFold(n_splits=k, shuffle=shuffle, random_state=seed if shuffle else None)
    splits = list(cv.split(np.zeros((n, 2))))
    assert_partition(splits, n)
    sizes = [len(test) for _, test in splits]
    assert sizes == equal_fold_sizes(n, k)
    assert max(sizes) - min(sizes) <= 1
    assert cv.get_n_splits() == len(splits) == k


@PROPERTY_SETTINGS
@given(nk=n_and_k, seed=seeds)
def test_equal_size_kfold_reproducible_with_int_seed(nk, seed):
    n, k = nk
    X = np.zeros((n, 1))
    cv = EqualSizeKFold(n_splits=k, random_state=seed)
    assert splits_equal(list(cv.split(X)), list(cv.split(X)))
    # a fresh, equal instance gives the same splits too
    assert splits_equal(list(cv.split(X)), list(EqualSizeKFold(k, random_state=seed).split(X)))


@PROPERTY_SETTINGS
@given(
    n=st.integers(min_value=40, max_value=100),
    k=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=2**31 - 2),
)
def test_equal_size_kfold_different_seed_different_partition(n, k, seed):
    # With n >= 40 and 2 <= k <= 5 there are at least C(40, 20) / 2 ~ 6.9e10
    # distinct (unordered) partitions with the required fold sizes, so two
    # well-mixed seeds collide with probability ~1e-11 per example:
    # practically impossible over the examples hypothesis runs.
    X = np.zeros((n, 1))
    a = list(EqualSizeKFold(k, random_state=seed).split(X))
    b = list(EqualSizeKFold(k, random_state=seed + 1).split(X))
    assert as_partition(a) != as_partition(b)


def test_equal_size_kfold_default_shuffles_and_ten_folds():
    cv = EqualSizeKFold()
    # sklearn splitters have no get_params; the parameters are plain attributes
    assert (cv.n_splits, cv.shuffle, cv.random_state) == (10, True, None)
    assert isinstance(cv, model_selection.KFold)
    # unseeded default shuffle: the 200 instances are not cut in index order
    # (probability that a shuffle leaves every fold as a consecutive block in
    # order is 1 / (200! / (20!)^10), i.e. zero for practical purposes)
    splits = list(cv.split(np.zeros((200, 1))))
    assert any(not np.array_equal(np.sort(test), np.arange(20 * j, 20 * (j + 1)))
               for j, (_, test) in enumerate(splits))


# --------------------------------------------------------------------------
# 4. sklearn KFold is the oracle for EqualSizeKFold
# --------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(nk=n_and_k)
def test_equal_size_kfold_no_shuffle_matches_sklearn_kfold(nk):
    n, k = nk
    X = np.zeros((n, 1))
    ours = list(EqualSizeKFold(k, shuffle=False).split(X))
    assert splits_equal(ours, list(KFold(k).split(X)))
    # deterministic: a second call gives the same splits
    assert splits_equal(ours, list(EqualSizeKFold(k, shuffle=False).split(X)))


@PROPERTY_SETTINGS
@given(nk=n_and_k, seed=seeds)
def test_equal_size_kfold_shuffle_matches_sklearn_kfold_same_seed(nk, seed):
    # EqualSizeKFold only changes KFold's default (shuffle=True); with the
    # same int random_state it must make exactly KFold's shuffled partition.
    n, k = nk
    X = np.zeros((n, 1))
    ours = list(EqualSizeKFold(k, random_state=seed).split(X))
    theirs = list(KFold(k, shuffle=True, random_state=seed).split(X))
    assert splits_equal(ours, theirs)


# --------------------------------------------------------------------------
# 1./8. property tests: StratifiedEqualSizeKFold
# --------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(data=labels_and_k(), seed=seeds, shuffle=st.booleans())
def test_stratified_partition_sizes_and_class_balance(data, seed, shuffle):
    y_arr, y, k = data
    n = len(y_arr)
    cv = StratifiedEqualSizeKFold(k, shuffle=shuffle, random_state=seed if shuffle else None)
    splits, least = stratified_split(cv, np.zeros((n, 1)), y)

    assert_partition(splits, n)
    sizes = [len(test) for _, test in splits]
    assert sizes == equal_fold_sizes(n, k)
    assert cv.get_n_splits() == len(splits) == k

    classes, codes = np.unique(y_arr, return_inverse=True)
    counts = np.array([np.bincount(codes[test], minlength=classes.size) for _, test in splits])
    # every class's count differs by at most one across folds ...
    assert np.all(counts.max(axis=0) - counts.min(axis=0) <= 1)
    # ... and the per-fold counts add up to the class sizes
    assert np.array_equal(counts.sum(axis=0), np.bincount(codes))

    # the sklearn-style warning is issued exactly when some class is too small
    too_small = np.bincount(codes).min() < k
    assert bool(least) == too_small
    if too_small:
        assert f"only {np.bincount(codes).min()} members" in str(least[0].message)
        assert f"n_splits={k}" in str(least[0].message)


@PROPERTY_SETTINGS
@given(data=labels_and_k(), seed=seeds)
def test_stratified_reproducible_with_int_seed(data, seed):
    y_arr, y, k = data
    X = np.zeros((len(y_arr), 1))
    cv = StratifiedEqualSizeKFold(k, random_state=seed)
    a, _ = stratified_split(cv, X, y)
    b, _ = stratified_split(cv, X, y)
    c, _ = stratified_split(StratifiedEqualSizeKFold(k, random_state=seed), X, y)
    assert splits_equal(a, b)
    assert splits_equal(a, c)


@PROPERTY_SETTINGS
@given(
    class_sizes=st.lists(st.integers(min_value=10, max_value=30), min_size=2, max_size=3),
    k=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31 - 2),
)
def test_stratified_different_seed_different_partition(class_sizes, k, seed):
    # Every class has >= 10 members and k <= 4, so within each of the >= 2
    # classes there are at least 10! / (3! 3! 2! 2!) = 25200 balanced ways to
    # deal it into folds; >= 25200**2 ~ 6.4e8 partitions overall, so a
    # collision between two seeds is practically impossible.
    y = np.repeat(np.arange(len(class_sizes)), class_sizes)
    X = np.zeros((y.size, 1))
    a = list(StratifiedEqualSizeKFold(k, random_state=seed).split(X, y))
    b = list(StratifiedEqualSizeKFold(k, random_state=seed + 1).split(X, y))
    assert as_partition(a) != as_partition(b)


@PROPERTY_SETTINGS
@given(data=labels_and_k())
def test_stratified_no_shuffle_is_deterministic_dealing(data):
    # shuffle=False: the documented dealing (Notes of the class) with classes
    # in order of first appearance and members in index order: the i-th
    # instance of that line goes to fold i % n_splits.
    y_arr, y, k = data
    n = len(y_arr)
    X = np.zeros((n, 1))
    cv = StratifiedEqualSizeKFold(k, shuffle=False)
    a, _ = stratified_split(cv, X, y)
    b, _ = stratified_split(cv, X, y)
    assert splits_equal(a, b)
    first_seen = {}
    for label in y_arr.tolist():
        first_seen.setdefault(label, len(first_seen))
    codes = np.array([first_seen[label] for label in y_arr.tolist()])
    line = np.argsort(codes, kind="stable")
    expected_fold = np.empty(n, dtype=int)
    expected_fold[line] = np.arange(n) % k
    for j, (_, test) in enumerate(a):
        assert np.array_equal(test, np.flatnonzero(expected_fold == j))


def test_stratified_tiny_class_warns_and_stays_balanced():
    y = np.array([0] * 20 + [1] * 2 + [2] * 1)  # classes of 2 and 1 < n_splits=5
    X = np.zeros((y.size, 1))
    cv = StratifiedEqualSizeKFold(5, random_state=0)
    with pytest.warns(UserWarning, match="least populated class in y has only 1 members, "
                                          r"which is less than n_splits=5"):
        splits = list(cv.split(X, y))
    assert_partition(splits, y.size)
    assert [len(t) for _, t in splits] == equal_fold_sizes(23, 5)
    counts = np.array([np.bincount(y[test], minlength=3) for _, test in splits])
    assert np.all(counts.max(axis=0) - counts.min(axis=0) <= 1)
    # the 20-member class is spread exactly 4 per fold (20 / 5)
    assert np.all(counts[:, 0] == 4)


def test_stratified_single_class_partitions_without_warning():
    # one class with n >= n_splits: type_of_target calls it "binary", the
    # dealing reduces to equal-size folds, and no warning is due.
    y = np.array(["only"] * 13, dtype=object)
    X = np.zeros((13, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        splits = list(StratifiedEqualSizeKFold(4, random_state=1).split(X, y))
    assert_partition(splits, 13)
    assert [len(t) for _, t in splits] == equal_fold_sizes(13, 4)


def test_stratified_single_class_with_n_equal_to_n_splits():
    # a single class can never be smaller than n_splits (n_samples >= n_splits
    # is enforced), so no warning; every fold holds exactly one instance.
    y = np.zeros(4, dtype=int)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        splits = list(StratifiedEqualSizeKFold(4, random_state=0).split(np.zeros((4, 1)), y))
    assert_partition(splits, 4)
    assert [len(t) for _, t in splits] == [1, 1, 1, 1]


@pytest.mark.parametrize(
    "y",
    [
        np.linspace(0.0, 1.0, 12),
        [0.5, 1.5, 2.25] * 4,
    ],
    ids=["ndarray", "list"],
)
def test_stratified_continuous_target_raises(y):
    cv = StratifiedEqualSizeKFold(3, random_state=0)
    with pytest.raises(ValueError, match=r"Supported target types are: \('binary', 'multiclass'\)"
                                         r"\. Got 'continuous' instead\."):
        list(cv.split(np.zeros((12, 1)), y))


@pytest.mark.parametrize(
    "y, target_type",
    [
        (np.eye(3, dtype=int)[np.arange(12) % 3], "multilabel-indicator"),
        (np.c_[np.arange(12) % 3, np.arange(12) % 2], "multiclass-multioutput"),
    ],
)
def test_stratified_multioutput_target_message_matches_sklearn(y, target_type):
    X = np.zeros((12, 1))
    # sklearn's own StratifiedKFold names the target type ...
    with pytest.raises(ValueError, match=f"Got '{target_type}' instead"):
        list(model_selection.StratifiedKFold(3).split(X, y))
    # ... and so should the drop-in replacement
    with pytest.raises(ValueError, match=f"Got '{target_type}' instead"):
        list(StratifiedEqualSizeKFold(3, random_state=0).split(X, y))


def test_stratified_label_representations_give_same_partition():
    # the partition depends on the labels only through which instances share
    # a class, so int, str, object, list, Series and categorical encodings of
    # the same labels must give identical splits for one seed.
    codes = np.array([0] * 9 + [1] * 5 + [2] * 3)
    names = np.array(["a", "b", "c"])[codes]
    X = np.zeros((codes.size, 1))
    variants = [
        codes,
        codes.tolist(),
        names,
        names.astype(object),
        names.tolist(),
    ]
    if pd is not None:
        variants += [pd.Series(names), pd.Series(pd.Categorical(names)), pd.Categorical(names)]
    reference = list(StratifiedEqualSizeKFold(3, random_state=4).split(X, codes))
    for y in variants:
        got = list(StratifiedEqualSizeKFold(3, random_state=4).split(X, y))
        assert splits_equal(got, reference), type(y)


@PROPERTY_SETTINGS
@given(data=labels_and_k(), seed=seeds, shuffle=st.booleans(), relabel=st.randoms(use_true_random=False))
def test_stratified_folds_do_not_depend_on_the_names_of_the_classes(data, seed, shuffle, relabel):
    """Issue 13, item 16: renamed or permuted class labels gave other folds (0 of 56 trials identical).

    sklearn's StratifiedKFold numbers the classes by first appearance, so the same seed gives the same
    folds whatever the classes are called; it is the oracle that the property is sklearn's.
    """
    y_arr, _, k = data
    classes = sorted(set(y_arr.tolist()), key=str)
    names = [f"class {i}" for i in range(len(classes))]
    relabel.shuffle(names)
    renamed = np.array([names[classes.index(label)] for label in y_arr.tolist()])
    X = np.zeros((len(y_arr), 1))
    random_state = seed if shuffle else None
    ours, _ = stratified_split(StratifiedEqualSizeKFold(k, shuffle=shuffle, random_state=random_state), X, y_arr)
    ours_renamed, _ = stratified_split(StratifiedEqualSizeKFold(k, shuffle=shuffle, random_state=random_state),
                                       X, renamed)
    assert splits_equal(ours, ours_renamed)
    counts = np.unique(y_arr, return_counts=True)[1]
    if counts.max() >= k:  # sklearn's StratifiedKFold refuses labels whose every class is smaller than k
        sklearn_cv = model_selection.StratifiedKFold(k, shuffle=shuffle, random_state=random_state)
        theirs, _ = stratified_split(sklearn_cv, X, y_arr)
        theirs_renamed, _ = stratified_split(sklearn_cv, X, renamed)
        assert splits_equal(theirs, theirs_renamed)


def test_stratified_unshuffled_line_follows_first_appearance_like_sklearn():
    # Class "b" appears first: unshuffled, its members open the line and go to folds 0, 1, 2, 0, ...
    y = np.array(["b", "a", "b", "a", "b", "b", "a"])
    tests = [test.tolist() for _, test in StratifiedEqualSizeKFold(3, shuffle=False).split(np.zeros((7, 1)), y)]
    # line: b-members 0, 2, 4, 5 then a-members 1, 3, 6 -> folds 0, 1, 2, 0, 1, 2, 0
    assert tests == [[0, 5, 6], [1, 2], [3, 4]]
    swapped = np.where(y == "a", "b", "a")  # the same classes, named the other way round
    assert tests == [t.tolist() for _, t in StratifiedEqualSizeKFold(3, shuffle=False).split(np.zeros((7, 1)), swapped)]


def test_stratified_bool_labels():
    y = np.array([True] * 8 + [False] * 5)
    splits = list(StratifiedEqualSizeKFold(4, random_state=0).split(np.zeros((13, 1)), y))
    assert_partition(splits, 13)
    trues = [int(y[test].sum()) for _, test in splits]
    assert sum(trues) == 8 and max(trues) - min(trues) <= 1


# --------------------------------------------------------------------------
# 5. Wong's alternatives
# --------------------------------------------------------------------------


@pytest.mark.parametrize("shuffle, seed", [(True, 0), (True, 123), (False, None)])
def test_remainder_last_kfold_wong_example(shuffle, seed):
    # Wong (2015), section 4.3.2, approach (2): 203 instances in 5 folds give
    # fold sizes 40, 40, 40, 40 and 43.
    cv = RemainderLastKFold(n_splits=5, shuffle=shuffle, random_state=seed)
    splits = list(cv.split(np.zeros((203, 1))))
    assert [len(test) for _, test in splits] == [40, 40, 40, 40, 43]
    assert_partition(splits, 203)
    assert cv.get_n_splits() == 5


def test_remainder_last_kfold_no_shuffle_is_consecutive_blocks():
    splits = list(RemainderLastKFold(5, shuffle=False).split(np.zeros((203, 1))))
    bounds = [0, 40, 80, 120, 160, 203]
    for j, (_, test) in enumerate(splits):
        assert np.array_equal(test, np.arange(bounds[j], bounds[j + 1]))


@PROPERTY_SETTINGS
@given(nk=n_and_k, seed=seeds)
def test_remainder_last_kfold_properties(nk, seed):
    n, k = nk
    X = np.zeros((n, 1))
    cv = RemainderLastKFold(k, random_state=seed)
    splits = list(cv.split(X))
    assert_partition(splits, n)
    assert [len(t) for _, t in splits] == [n // k] * (k - 1) + [n // k + n % k]
    assert cv.get_n_splits() == len(splits) == k
    assert splits_equal(splits, list(cv.split(X)))


@PROPERTY_SETTINGS
@given(
    n=st.integers(min_value=10, max_value=150),
    k=st.integers(min_value=2, max_value=5),
    seed=seeds,
)
def test_random_assignment_kfold_properties(n, k, seed):
    # n >= 2k keeps the chance of 100 failed redraws astronomically small
    X = np.zeros((n, 1))
    cv = RandomAssignmentKFold(k, random_state=seed)
    splits = list(cv.split(X))
    assert_partition(splits, n)  # includes: every fold is non-empty
    assert all(len(test) > 0 for _, test in splits)
    assert cv.get_n_splits() == len(splits) == k
    assert splits_equal(splits, list(cv.split(X)))
    assert splits_equal(splits, list(RandomAssignmentKFold(k, random_state=seed).split(X)))


def test_random_assignment_kfold_sizes_are_multinomial_not_balanced():
    # With n=203, k=5 the multinomial fold sizes have sd ~ sqrt(203*0.2*0.8) ~ 5.7,
    # so sizes all within one of each other are very unlikely for any one
    # seed; we require it to fail for at least one of ten seeds.
    spreads = []
    for seed in range(10):
        sizes = [len(t) for _, t in RandomAssignmentKFold(5, random_state=seed).split(np.zeros((203, 1)))]
        assert sum(sizes) == 203 and len(sizes) == 5
        spreads.append(max(sizes) - min(sizes))
    assert max(spreads) > 1


def test_random_assignment_kfold_is_roughly_uniform():
    # each fold count ~ Binomial(10000, 1/4): mean 2500, sd ~ 43.3; a 6-sd band
    # (+-260) is failed with probability < 1e-8 for a correct implementation.
    sizes = [len(t) for _, t in RandomAssignmentKFold(4, random_state=7).split(np.zeros((10000, 1)))]
    assert all(abs(s - 2500) < 260 for s in sizes)


def test_random_assignment_kfold_redraws_until_no_fold_is_empty():
    # n_samples == n_splits == 2: a single draw leaves a fold empty with
    # probability 1/2, so the redraw loop is exercised for many seeds, yet
    # 100 failed draws have probability 2**-100.
    for seed in range(30):
        splits = list(RandomAssignmentKFold(2, random_state=seed).split(np.zeros((2, 1))))
        assert sorted(len(t) for _, t in splits) == [1, 1]


def test_random_assignment_kfold_hopeless_case_raises():
    # n_splits = n_samples = 30: one draw fills every fold only if it is a
    # permutation, probability 30!/30**30 ~ 1.29e-12; all 100 draws fail with
    # probability 1 - ~1.3e-10, i.e. the error is practically certain.
    # (n_splits = n_samples = 10 would NOT do: 10!/10**10 ~ 3.6e-4 per draw,
    # so 100 draws fail only with probability ~0.964.)
    p_one_draw = math.factorial(30) / 30**30
    assert 1 - (1 - p_one_draw) ** 100 < 1e-9
    cv = RandomAssignmentKFold(n_splits=30, random_state=0)
    with pytest.raises(ValueError, match=r"left a fold empty in 100 draws with "
                                         r"n_samples=30 and n_splits=30"):
        list(cv.split(np.zeros((30, 1))))


def test_random_assignment_kfold_unseeded_calls_differ():
    # n=200, k=5: two independent multinomial assignments coincide with
    # probability 5**-200; so unseeded calls must give different partitions.
    cv = RandomAssignmentKFold(5)
    X = np.zeros((200, 1))
    assert as_partition(list(cv.split(X))) != as_partition(list(cv.split(X)))


# --------------------------------------------------------------------------
# 7. LeaveOneOut
# --------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 5, 17])
def test_leave_one_out(n):
    cv = LeaveOneOut()
    assert isinstance(cv, model_selection.LeaveOneOut)
    X = np.zeros((n, 3))
    splits = list(cv.split(X))
    assert len(splits) == n == cv.get_n_splits(X)
    assert all(len(test) == 1 for _, test in splits)
    assert_partition(splits, n)
    assert splits_equal(splits, list(model_selection.LeaveOneOut().split(X)))


# --------------------------------------------------------------------------
# 2. repr
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cv, expected",
    [
        (EqualSizeKFold(n_splits=3, random_state=0),
         "EqualSizeKFold(n_splits=3, random_state=0, shuffle=True)"),
        (EqualSizeKFold(), "EqualSizeKFold(n_splits=10, random_state=None, shuffle=True)"),
        (EqualSizeKFold(4, shuffle=False),
         "EqualSizeKFold(n_splits=4, random_state=None, shuffle=False)"),
        (StratifiedEqualSizeKFold(n_splits=5, random_state=0),
         "StratifiedEqualSizeKFold(n_splits=5, random_state=0, shuffle=True)"),
        (StratifiedEqualSizeKFold(),
         "StratifiedEqualSizeKFold(n_splits=10, random_state=None, shuffle=True)"),
        (LeaveOneOut(), "LeaveOneOut()"),
        (RemainderLastKFold(n_splits=5, random_state=0),
         "RemainderLastKFold(n_splits=5, random_state=0, shuffle=True)"),
        (RemainderLastKFold(), "RemainderLastKFold(n_splits=10, random_state=None, shuffle=True)"),
        # RandomAssignmentKFold has no shuffle parameter, so none in its repr
        (RandomAssignmentKFold(n_splits=5, random_state=0),
         "RandomAssignmentKFold(n_splits=5, random_state=0)"),
        (RandomAssignmentKFold(), "RandomAssignmentKFold(n_splits=10, random_state=None)"),
    ],
)
def test_repr(cv, expected):
    assert repr(cv) == expected


# --------------------------------------------------------------------------
# 6. errors (inherited sklearn conventions)
# --------------------------------------------------------------------------

KFOLD_CLASSES = [EqualSizeKFold, StratifiedEqualSizeKFold, RemainderLastKFold, RandomAssignmentKFold]


@pytest.mark.parametrize("cls", KFOLD_CLASSES)
@pytest.mark.parametrize("bad", [1, 0, -3, 2.5, 3.0, "3", True, None])
def test_a_bad_number_of_splits_is_a_value_error_naming_n_splits_and_the_value(cls, bad):
    # a ValueError, as scikit-learn's KFold raises for n_splits=1 and n_splits=2.5 (issue 28: its messages,
    # "The number of folds must be of Integral type" and "got n_splits=1" for True, named neither)
    with pytest.raises(ValueError, match=rf"^n_splits must be an integer >= 2; got n_splits={re.escape(repr(bad))}\.$"):
        cls(n_splits=bad)


@pytest.mark.parametrize("cls", KFOLD_CLASSES)
@pytest.mark.parametrize("bad, error", [("x", TypeError), (-1, ValueError), (2**40, ValueError), (1.5, TypeError)])
def test_a_bad_random_state_is_refused_when_made_naming_it_and_the_value(cls, bad, error):
    # checked in __init__ with the package's Seed rule (scikit-learn's check_random_state refuses these in split,
    # with "'x' cannot be used to seed a numpy.random.RandomState instance", which names no parameter)
    with pytest.raises(error, match=rf"^random_state must be None, an integer from 0 to .*; got random_state="
                                    rf"{re.escape(repr(bad))}\.$"):
        cls(n_splits=3, random_state=bad)


@pytest.mark.parametrize("cls", [EqualSizeKFold, StratifiedEqualSizeKFold, RemainderLastKFold])
def test_a_bad_shuffle_is_a_type_error_as_in_scikit_learn(cls):
    with pytest.raises(TypeError, match=r"^shuffle must be True or False; got shuffle='yes'\.$"):
        cls(n_splits=3, shuffle="yes")


@pytest.mark.parametrize("cls", [EqualSizeKFold, StratifiedEqualSizeKFold, RemainderLastKFold])
def test_random_state_without_shuffle_raises(cls):
    with pytest.raises(ValueError, match="Setting a random_state has no effect since shuffle is False"):
        cls(n_splits=3, shuffle=False, random_state=0)
    # random_state=None with shuffle=False is fine
    assert cls(n_splits=3, shuffle=False).shuffle is False


@pytest.mark.parametrize("cls", KFOLD_CLASSES)
def test_more_splits_than_samples_raises(cls):
    cv = cls(n_splits=5, random_state=0)
    X, y = np.zeros((3, 1)), np.array([0, 1, 0])
    with pytest.raises(ValueError, match=r"Cannot have number of splits n_splits=5 greater than "
                                         r"the number of samples: n_samples=3\."):
        list(cv.split(X, y))


def test_leave_one_out_single_sample_raises():
    with pytest.raises(ValueError, match="n_samples=1"):
        list(LeaveOneOut().split(np.zeros((1, 1))))


# --------------------------------------------------------------------------
# 3. drop-in use with real sklearn
# --------------------------------------------------------------------------


SEEDED_KFOLDS = [
    EqualSizeKFold(5, random_state=0),
    StratifiedEqualSizeKFold(5, random_state=0),
    RemainderLastKFold(5, random_state=0),
    RandomAssignmentKFold(5, random_state=0),
]


def make_pipe():
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))


@pytest.mark.parametrize(
    "cv",
    [*SEEDED_KFOLDS, LeaveOneOut()],
    ids=lambda cv: type(cv).__name__,
)
def test_check_cv_passes_splitter_through(cv):
    y = np.array([0, 1] * 10)
    assert check_cv(cv) is cv
    assert check_cv(cv, y, classifier=True) is cv


def test_grid_search_with_stratified_equal_size_kfold(iris):
    X, y = iris
    cv = StratifiedEqualSizeKFold(5, random_state=0)
    grid = {"logisticregression__C": [0.1, 1.0]}
    search = GridSearchCV(make_pipe(), grid, cv=cv).fit(X, y)
    assert search.n_splits_ == 5
    splits = list(cv.split(X, y))
    # iris has 50 per class: per-class counts within one across 5 folds and
    # summing to 50 force exactly 10 per class per fold
    for _, test in splits:
        assert np.array_equal(np.bincount(y[test]), [10, 10, 10])
    # GridSearchCV really used our folds: recompute each split score by hand
    for i, C in enumerate(search.cv_results_["param_logisticregression__C"]):
        for j, (train, test) in enumerate(splits):
            model = make_pipe().set_params(logisticregression__C=C).fit(X[train], y[train])
            assert search.cv_results_[f"split{j}_test_score"][i] == pytest.approx(
                model.score(X[test], y[test])
            )


@pytest.mark.parametrize(
    "cv",
    SEEDED_KFOLDS,
    ids=lambda cv: type(cv).__name__,
)
def test_cross_validate_uses_the_splitter_folds(iris, cv):
    X, y = iris
    result = cross_validate(make_pipe(), X, y, cv=cv, return_indices=True)
    expected = list(cv.split(X, y))
    assert len(result["test_score"]) == len(expected)
    for got_test, got_train, (train, test) in zip(
        result["indices"]["test"], result["indices"]["train"], expected, strict=True
    ):
        assert np.array_equal(got_test, test)
        assert np.array_equal(got_train, train)
    assert np.all((result["test_score"] >= 0) & (result["test_score"] <= 1))


@pytest.mark.slow
def test_nested_cross_validation_matches_manual_loop(iris):
    X, y = iris
    inner = StratifiedEqualSizeKFold(3, random_state=1)
    outer = EqualSizeKFold(5, random_state=2)
    grid = {"logisticregression__C": [0.1, 1.0]}
    scores = cross_val_score(GridSearchCV(make_pipe(), grid, cv=inner), X, y, cv=outer)
    assert scores.shape == (5,)
    manual = []
    for train, test in outer.split(X, y):
        search = GridSearchCV(make_pipe(), grid, cv=inner).fit(X[train], y[train])
        manual.append(search.score(X[test], y[test]))
    np.testing.assert_allclose(scores, manual)


@pytest.mark.slow
def test_nested_with_leave_one_out_outer(iris):
    X, y = iris
    idx = np.r_[0:8, 50:58, 100:108]  # 24 instances, 8 per class
    X, y = X[idx], y[idx]
    inner = StratifiedEqualSizeKFold(4, random_state=0)
    scores = cross_val_score(
        GridSearchCV(make_pipe(), {"logisticregression__C": [1.0]}, cv=inner),
        X, y, cv=LeaveOneOut(),
    )
    assert scores.shape == (24,)
    assert set(np.unique(scores)) <= {0.0, 1.0}  # one test instance per fold
