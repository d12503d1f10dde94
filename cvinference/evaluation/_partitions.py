"""Turn the evaluator's ``cv`` argument into one checked partition per repeat."""

import copy
import numbers
from dataclasses import dataclass, field

import numpy as np
from sklearn import model_selection
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import type_of_target

from .._utils._arrays import smallest_int_dtype
from .._utils._params import Rule
from .._utils._validation import check_fits_in_memory
from ..splitters import EqualSizeKFold, LeaveOneOut, StratifiedEqualSizeKFold
from ..splitters._group_kfold import group_kfold
from ._forward import is_forward_splitter


@dataclass(frozen=True)
class Partitions:
    """The fold of every instance in every repeat, from which each split is made on demand.

    Only the fold numbers are kept (the smallest integer type that holds
    them), so the memory is n_repeats x n_samples small integers rather than
    n_splits index arrays per repeat.

    Attributes
    ----------
    fold : ndarray of int, shape (n_repeats, n_samples)
        The test fold of each instance in each repeat.
    n_splits : int
    cv_repr : str
        A description of the splitter, for reports.
    irregular : dict
        ``{(r, j): (train, test)}`` for the splits that :meth:`split` cannot
        rebuild from ``fold``: a training set smaller than the complement of
        the test set, or indices out of ascending order.
    """

    fold: np.ndarray
    n_splits: int
    cv_repr: str
    irregular: dict = field(default_factory=dict)

    @property
    def n_repeats(self):
        return self.fold.shape[0]

    @property
    def is_loo(self):
        return self.n_splits == self.fold.shape[1]

    def split(self, r, j):
        """The (train, test) indices of fold j in repeat r."""
        if (r, j) in self.irregular:
            return self.irregular[r, j]
        in_test = self.fold[r] == j
        return np.flatnonzero(~in_test), np.flatnonzero(in_test)

    def test(self, r, j):
        """The test indices of fold j in repeat r."""
        if (r, j) in self.irregular:
            return self.irregular[r, j][1]
        return np.flatnonzero(self.fold[r] == j)


def _is_randomisable(cv):
    return hasattr(cv, "random_state") and getattr(cv, "shuffle", True) is True


def _is_splitter(cv):
    return hasattr(cv, "split") and hasattr(cv, "get_n_splits")


def is_repeated_splitter(cv):
    """Whether ``cv`` repeats a k-fold partition as scikit-learn's ``RepeatedKFold`` and ``RepeatedStratifiedKFold``
    do (built around ``cv.cv``, the k-fold class drawn anew for each of ``cv.n_repeats`` repeats)."""
    return (_is_splitter(cv) and isinstance(getattr(cv, "cv", None), type)
            and isinstance(getattr(cv, "n_repeats", None), numbers.Integral))


def _is_list_of_splits(cv):
    return not isinstance(cv, str) and hasattr(cv, "__iter__") and not hasattr(cv, "shape")


class CrossValidation(Rule):
    """A ``cv``: an int >= 2, ``"loo"``, a cross-validation splitter or an iterable of (train, test) splits.

    Examples
    --------
    >>> CrossValidation().check("cv", "leave-one-out")
    Traceback (most recent call last):
    ...
    ValueError: cv must be an int >= 2, 'loo', a cross-validation splitter or an iterable of (train, test) splits;
    got cv='leave-one-out'.
    """

    def describe(self):
        return "an int >= 2, 'loo', a cross-validation splitter or an iterable of (train, test) splits"

    def check(self, name, value):
        if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
            refused = value < 2
        elif isinstance(value, str):
            refused = value != "loo"
        elif _is_splitter(value) or _is_list_of_splits(value):
            return value
        else:
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if refused:
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return value

    def invalid_values(self):
        return [(1, ValueError), (0, ValueError), ("LOO", ValueError), ("leave-one-out", ValueError),
                (2.5, TypeError), (True, TypeError), (None, TypeError)]


def check_cv_argument(cv, n_repeats):
    """Refuse a ``cv`` (with ``n_repeats``) that no data set could make valid.

    Returns ``cv``, with an iterable of splits made into a list so that it can
    be used more than once (as sklearn's ``check_cv`` does).
    """
    CrossValidation().check("cv", cv)
    if n_repeats != 1 and is_repeated_splitter(cv):
        raise ValueError(f"cv={cv!r} repeats its partition itself (its n_repeats={cv.n_repeats}), and n_repeats="
                         f"{n_repeats} asks for repeats too; give the repeats once: n_repeats=1 with this cv, or "
                         "n_repeats with a k-fold splitter such as StratifiedKFold(shuffle=True).")
    is_loo = cv == "loo" if isinstance(cv, str) else isinstance(cv, model_selection.LeaveOneOut)
    if n_repeats > 1 and is_loo:
        raise ValueError(
            f"Leave-one-out has no random partition to repeat; got cv={cv!r} with "
            f"n_repeats={n_repeats}. Use n_repeats=1."
        )
    if _is_list_of_splits(cv) and not _is_splitter(cv):
        if n_repeats > 1:
            raise ValueError(
                f"A fixed list of splits cannot be repeated; got n_repeats={n_repeats}. Use n_repeats=1."
            )
        cv = list(cv)
    if n_repeats > 1 and is_forward_splitter(cv):
        raise ValueError(f"cv={cv!r} draws one fixed set of origins, with nothing random to repeat; got "
                         f"n_repeats={n_repeats}. Use n_repeats=1.")
    if n_repeats > 1 and _is_splitter(cv) and not _is_randomisable(cv):
        raise ValueError(
            f"n_repeats={n_repeats} needs a splitter that draws a new random partition "
            f"per repeat, but cv={cv!r} has no random_state or does not shuffle. Pass "
            "a shuffling splitter (e.g. StratifiedEqualSizeKFold(10)) or n_repeats=1."
        )
    return cv


RECORD_BYTES = 25
"""What a record keeps of one instance in one repeat: its fold, prediction and loss (8 bytes each), correctness (1)."""


def _seeds(source, n_repeats):
    return [int(seed) for seed in check_random_state(source).randint(np.iinfo(np.int32).max, size=n_repeats)]


def stratifies(y, classifier):
    """Whether an int ``cv`` (or the folds drawn for groups) stratifies: a classifier's class labels."""
    return bool(classifier and type_of_target(y) in ("binary", "multiclass"))


def _splitters_per_repeat(cv, y, *, n_repeats, random_state, classifier, grouped=False):
    """One splitter (or list of splits) per repeat.

    An int ``cv`` is the toolkit's equal-size k-fold, stratified for a
    classifier's class labels, and with ``grouped`` its group k-fold (whole
    groups in every fold). The seeding rule: an int ``cv`` builds one splitter per repeat, seeded by
    ``random_state``. A shuffling splitter is copied and reseeded per repeat
    when ``random_state`` is given or ``n_repeats > 1`` (the seeds then come
    from ``random_state``, or from the splitter's own ``random_state`` when
    ``random_state`` is None); otherwise it is used exactly as given.
    """
    cv = check_cv_argument(cv, n_repeats)
    if isinstance(cv, str):
        return [model_selection.LeaveOneOut()]
    if isinstance(cv, numbers.Integral):
        if grouped:
            return [group_kfold(stratifies(y, classifier), int(cv), random_state=seed)
                    for seed in _seeds(random_state, n_repeats)]
        kind = StratifiedEqualSizeKFold if stratifies(y, classifier) else EqualSizeKFold
        return [kind(int(cv), shuffle=True, random_state=seed) for seed in _seeds(random_state, n_repeats)]
    if _is_splitter(cv) and _is_randomisable(cv) and (random_state is not None or n_repeats > 1):
        source = random_state if random_state is not None else cv.random_state
        splitters = []
        for seed in _seeds(source, n_repeats):
            splitter = copy.deepcopy(cv)
            splitter.random_state = seed
            splitters.append(splitter)
        return splitters
    return [cv]


def _as_indices(part, n_samples, j, cv_repr):
    """A split's train or test part as an index array, refusing indices out of range."""
    part = np.asarray(part)
    if part.dtype == bool:
        if part.shape != (n_samples,):
            raise ValueError(f"cv={cv_repr} gave a boolean mask of shape {part.shape} in split {j}; "
                             f"masks must have shape ({n_samples},).")
        return np.flatnonzero(part)
    if part.size and (part.dtype.kind not in "iu" or part.min() < 0 or part.max() >= n_samples):
        raise ValueError(f"cv={cv_repr} gave indices outside 0 .. {n_samples - 1} in split {j}; "
                         "splits must hold integer indices of rows of X.")
    return part.astype(np.intp, copy=False)


def _is_ascending(indices):
    return bool(np.all(indices[1:] > indices[:-1]))


def _forward_validation_message(cv_repr, never):
    return (
        f"cv={cv_repr} is forward (rolling-origin) validation: every model is tested only on instances after its "
        f"training window, so the first {never} instances are never tested and the test sets are no partition, "
        "which the intervals and tests of a CVResult assume (Wong 2015, sections 2-3). Pass the splitter itself, "
        "cvinference.splitters.ForwardSplit or scikit-learn's TimeSeriesSplit, with loss='squared_error' or "
        "'absolute_error': the evaluator then returns a ForwardResult, whose intervals and tests "
        "(cvinference.inference.forecast_interval, forecast_test) allow for serially dependent forecast errors."
    )


def _checked_partition(splits, n_samples, cv_repr):
    """The fold of every instance, and the splits that the folds alone do not describe.

    Refuses splits that are not a partition of the instances into test folds.
    """
    fold = np.full(n_samples, -1, dtype=np.int64)
    times_tested = np.zeros(n_samples, dtype=np.int64)
    in_test = np.zeros(n_samples, dtype=bool)
    irregular = {}
    n_splits, forward = 0, True
    for j, (train, test) in enumerate(splits):
        train, test = _as_indices(train, n_samples, j, cv_repr), _as_indices(test, n_samples, j, cv_repr)
        n_splits += 1
        forward = forward and train.size > 0 and test.size > 0 and train.max() < test.min()
        np.add.at(times_tested, test, 1)
        fold[test] = j
        in_test[test] = True
        if in_test[train].any():
            raise ValueError(
                f"cv={cv_repr} put a test instance in its own training set in split {j}; "
                "cross-validation needs disjoint training and test sets."
            )
        in_test[test] = False
        if train.size + test.size != n_samples or not (_is_ascending(train) and _is_ascending(test)):
            irregular[j] = (train, test)
    never, repeated = int((times_tested == 0).sum()), int((times_tested > 1).sum())
    if (never or repeated) and forward:
        raise ValueError(_forward_validation_message(cv_repr, never))
    if never or repeated:
        raise ValueError(
            f"cv={cv_repr} is not a partition: {never} instances are never tested and "
            f"{repeated} are tested more than once. Per-instance inference needs every "
            "instance in exactly one test fold; use a k-fold splitter such as "
            "StratifiedEqualSizeKFold or LeaveOneOut."
        )
    return fold.astype(smallest_int_dtype(n_splits)), n_splits, irregular


def _is_leave_one_out(cv):
    return (isinstance(cv, str) and cv == "loo") or type(cv) in (model_selection.LeaveOneOut, LeaveOneOut)


def _partitions_of(splitter, X, y, groups):
    """The splits of each partition ``splitter`` draws: one list of (train, test) per repeat of a repeated
    splitter (``RepeatedKFold``: its k splits per repeat, in the order it yields them), else all its splits."""
    if not _is_splitter(splitter):
        return [splitter]
    splits = splitter.split(X, y, groups)
    if not is_repeated_splitter(splitter):
        return [splits]
    splits = list(splits)
    k = len(splits) // splitter.n_repeats
    return [splits[r * k:(r + 1) * k] for r in range(splitter.n_repeats)]


def draw_partitions(cv, X, y, groups, *, n_repeats, random_state, classifier, score_columns=0):
    """Draw and check the partition of every repeat.

    Parameters
    ----------
    cv : int, "loo", splitter or iterable of (train, test)
        An int means :class:`StratifiedEqualSizeKFold` when ``classifier`` is
        true and y holds class labels, :class:`EqualSizeKFold` otherwise;
        with ``groups``, their group-respecting forms
        (:class:`StratifiedEqualSizeGroupKFold`, ``EqualSizeGroupKFold``).
    X, y, groups : array-like
        Passed to the splitter's ``split``.
    n_repeats : int
        Number of partitions; leave-one-out cannot be repeated.
    random_state : int, RandomState instance or None
        Seeds the partitions, by the rule of ``_splitters_per_repeat``.
    classifier : bool
        Whether the estimators are classifiers.
    score_columns : int
        The float64 scores (8 bytes each) kept per instance and repeat (0 when none are
        kept), counted in the record's size.

    Returns
    -------
    Partitions
    """
    n_samples = y.shape[0]
    n_partitions = n_repeats * (cv.n_repeats if is_repeated_splitter(cv) else 1)
    if _is_leave_one_out(cv):
        # Leave-one-out's folds are known without materialising its n splits.
        check_cv_argument(cv, n_repeats)
        return Partitions(fold=np.arange(n_samples)[np.newaxis, :].astype(smallest_int_dtype(n_samples)),
                          n_splits=n_samples, cv_repr="LeaveOneOut()")
    per_instance = RECORD_BYTES + 8 * score_columns
    kept = "the fold, prediction, loss, correctness and scores" if score_columns else (
        "the fold, prediction, loss and correctness")
    check_fits_in_memory({"n_repeats": n_partitions}, n_partitions * n_samples * per_instance,
                         f"a record of {n_samples} instances per repeat ({kept} of each, {per_instance} bytes)")
    splitters = _splitters_per_repeat(cv, y, n_repeats=n_repeats, random_state=random_state, classifier=classifier,
                                      grouped=groups is not None)
    cv_repr = repr(splitters[0]) if _is_splitter(splitters[0]) else "a list of splits"
    checked = [_checked_partition(splits, n_samples, cv_repr)
               for splitter in splitters for splits in _partitions_of(splitter, X, y, groups)]
    n_splits = {count for _, count, _ in checked}
    if len(n_splits) > 1:
        raise ValueError(f"cv={cv_repr} gave different numbers of folds across repeats: {sorted(n_splits)}.")
    n_splits = n_splits.pop()
    repeats = f"cv={cv_repr}'s n_repeats={n_partitions}" if is_repeated_splitter(cv) else f"n_repeats={n_repeats}"
    if n_partitions > 1 and n_splits == n_samples:
        raise ValueError(
            f"cv={cv_repr} is leave-one-out here (n_splits = n_samples = {n_samples}), which has "
            f"no random partition to repeat; got {repeats}. Use n_repeats=1."
        )
    if n_partitions > 1 and groups is not None and n_splits == np.unique(np.asarray(groups)).size:
        raise ValueError(
            f"cv={cv_repr} makes every one of the {n_splits} groups a fold of its own, so each repeat is the same "
            f"partition; got {repeats}. Use n_repeats=1, or fewer folds than groups."
        )
    return Partitions(
        fold=np.stack([fold for fold, _, _ in checked]),
        n_splits=n_splits,
        cv_repr=cv_repr,
        irregular={(r, j): split for r, (_, _, irregular) in enumerate(checked) for j, split in irregular.items()},
    )
