"""Turn the evaluator's ``cv`` argument into one checked partition per repeat."""

import copy
import numbers
from dataclasses import dataclass

import numpy as np
from sklearn import model_selection
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import type_of_target

from ._split import EqualSizeKFold, StratifiedEqualSizeKFold
from ._validation import check_int


@dataclass(frozen=True)
class Partitions:
    """The splits of every repeat, and the fold of every instance.

    Attributes
    ----------
    splits : list of list of (train, test)
        ``splits[r][j]`` holds the index arrays of fold j in repeat r.
    fold : ndarray of int, shape (n_repeats, n_samples)
        The test fold of each instance in each repeat.
    cv_repr : str
        A description of the splitter, for reports.
    """

    splits: list
    fold: np.ndarray
    cv_repr: str


def _is_randomisable(cv):
    return hasattr(cv, "random_state") and getattr(cv, "shuffle", True) is True


def _is_splitter(cv):
    return hasattr(cv, "split") and hasattr(cv, "get_n_splits")


def _is_list_of_splits(cv):
    return not isinstance(cv, str) and hasattr(cv, "__iter__") and not hasattr(cv, "shape")


def check_cv_argument(cv, n_repeats):
    """Refuse a ``cv`` (with ``n_repeats``) that no data set could make valid."""
    is_loo = cv == "loo" if isinstance(cv, str) else isinstance(cv, model_selection.LeaveOneOut)
    if isinstance(cv, str) and not is_loo:
        raise ValueError(f"cv={cv!r} is not understood; pass an int >= 2, 'loo' or a splitter.")
    if isinstance(cv, numbers.Integral) and not isinstance(cv, (bool, np.bool_)):
        check_int(cv, "cv", minimum=2)
    elif not (is_loo or _is_splitter(cv) or _is_list_of_splits(cv)):
        raise TypeError(
            f"cv must be an int >= 2, 'loo', a cross-validation splitter or an iterable of "
            f"(train, test) splits; got cv={cv!r}."
        )
    if n_repeats > 1 and is_loo:
        raise ValueError(
            f"Leave-one-out has no random partition to repeat; got cv={cv!r} with "
            f"n_repeats={n_repeats}. Use n_repeats=1."
        )
    if n_repeats > 1 and _is_list_of_splits(cv) and not _is_splitter(cv):
        raise ValueError(
            f"A fixed list of splits cannot be repeated; got n_repeats={n_repeats}. Use n_repeats=1."
        )
    if n_repeats > 1 and _is_splitter(cv) and not _is_randomisable(cv):
        raise ValueError(
            f"n_repeats={n_repeats} needs a splitter that draws a new random partition "
            f"per repeat, but cv={cv!r} has no random_state or does not shuffle. Pass "
            "a shuffling splitter (e.g. StratifiedEqualSizeKFold(10)) or n_repeats=1."
        )
    return cv


def _splitters_per_repeat(cv, y, *, n_repeats, random_state, classifier):
    """One splitter (or list of splits) per repeat."""
    check_cv_argument(cv, n_repeats)
    if isinstance(cv, str):
        return [model_selection.LeaveOneOut()]
    if _is_list_of_splits(cv) and not _is_splitter(cv):
        return [list(cv)]
    if _is_splitter(cv) and n_repeats == 1:
        return [cv]
    seeds = check_random_state(random_state).randint(np.iinfo(np.int32).max, size=n_repeats)
    if _is_splitter(cv):
        splitters = [copy.deepcopy(cv) for _ in seeds]
        for splitter, seed in zip(splitters, seeds):
            splitter.random_state = int(seed)
        return splitters
    stratify = classifier and type_of_target(y) in ("binary", "multiclass")
    kind = StratifiedEqualSizeKFold if stratify else EqualSizeKFold
    return [kind(int(cv), shuffle=True, random_state=int(seed)) for seed in seeds]


def _fold_of_each_instance(splits, n_samples, cv_repr):
    """Fold numbers of a partition; refuse splits that are not a partition."""
    fold = np.full(n_samples, -1, dtype=np.int64)
    times_tested = np.zeros(n_samples, dtype=np.int64)
    for j, (train, test) in enumerate(splits):
        test = np.asarray(test)
        np.add.at(times_tested, test, 1)
        fold[test] = j
        in_test = np.zeros(n_samples, dtype=bool)
        in_test[test] = True
        if in_test[np.asarray(train, dtype=np.intp)].any():
            raise ValueError(
                f"cv={cv_repr} put a test instance in its own training set in split {j}; "
                "cross-validation needs disjoint training and test sets."
            )
    never, repeated = int((times_tested == 0).sum()), int((times_tested > 1).sum())
    if never or repeated:
        raise ValueError(
            f"cv={cv_repr} is not a partition: {never} instances are never tested and "
            f"{repeated} are tested more than once. Per-instance inference needs every "
            "instance in exactly one test fold; use a k-fold splitter such as "
            "StratifiedEqualSizeKFold or LeaveOneOut."
        )
    return fold


def draw_partitions(cv, X, y, groups, *, n_repeats, random_state, classifier):
    """Draw and check the partition of every repeat.

    Parameters
    ----------
    cv : int, "loo", splitter or iterable of (train, test)
        An int means :class:`StratifiedEqualSizeKFold` when ``classifier`` is
        true and y holds class labels, :class:`EqualSizeKFold` otherwise.
    X, y, groups : array-like
        Passed to the splitter's ``split``.
    n_repeats : int
        Number of partitions. Repeats draw their seeds from ``random_state``;
        a splitter object is used unchanged when ``n_repeats == 1``.
    random_state : int, RandomState instance or None
        Seeds the partitions of an int ``cv`` and of every repeat.
    classifier : bool
        Whether the estimators are classifiers.

    Returns
    -------
    Partitions
    """
    n_samples = y.shape[0]
    splitters = _splitters_per_repeat(cv, y, n_repeats=n_repeats, random_state=random_state, classifier=classifier)
    cv_repr = repr(splitters[0]) if hasattr(splitters[0], "split") else "a list of splits"
    all_splits = [
        list(splitter.split(X, y, groups)) if hasattr(splitter, "split") else splitter
        for splitter in splitters
    ]
    folds = np.stack([_fold_of_each_instance(splits, n_samples, cv_repr) for splits in all_splits])
    n_splits = {len(splits) for splits in all_splits}
    if len(n_splits) > 1:
        raise ValueError(f"cv={cv_repr} gave different numbers of folds across repeats: {sorted(n_splits)}.")
    return Partitions(splits=all_splits, fold=folds, cv_repr=cv_repr)
