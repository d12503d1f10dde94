"""Cross-validators whose folds have (nearly) equal sizes.

Every class here is a drop-in scikit-learn cross-validator: it subclasses a
public sklearn splitter, stores its parameters unchanged under their own names
and overrides one hook (``_iter_test_indices`` or ``_iter_test_masks``), so
``repr``, ``split``, ``GridSearchCV``, ``cross_validate`` and pipelines work as
with sklearn's own splitters.
"""

import warnings

import numpy as np
from sklearn import model_selection
from sklearn.utils import check_random_state, column_or_1d
from sklearn.utils.multiclass import type_of_target

from .._utils._params import Boolean, Integer, Seed, validate_params
from .._utils._validation import check_no_missing_labels, check_one_label_type, num_samples

__all__ = [
    "EqualSizeKFold",
    "StratifiedEqualSizeKFold",
    "LeaveOneOut",
    "RemainderLastKFold",
    "RandomAssignmentKFold",
]


class _SplitCount(Integer):
    """``n_splits``: an integer >= 2, every refusal a ValueError, as scikit-learn's ``KFold`` raises for it."""

    def __init__(self):
        super().__init__(minimum=2)

    def check(self, name, value):
        try:
            return super().check(name, value)
        except TypeError as exc:
            raise ValueError(str(exc)) from None

    def invalid_values(self):
        return [(value, ValueError) for value, _ in super().invalid_values()]


_RULES = dict(n_splits=_SplitCount(), shuffle=Boolean(), random_state=Seed())
"""The splitters' parameters, checked in ``__init__`` as scikit-learn's splitters check theirs."""


class EqualSizeKFold(model_selection.KFold):
    """K-fold cross-validator whose fold sizes differ by at most one.

    The data are shuffled (by default) and cut into ``n_splits`` consecutive
    folds; the first ``n_samples % n_splits`` folds hold one instance more than
    the others. This is Wong's recommended "approach (3)" up to the order of
    the folds (his example puts the larger folds last) and the partition
    sklearn's :class:`~sklearn.model_selection.KFold` makes; the only
    difference from ``KFold`` is that shuffling is on by default, because the
    sampling theory of k-fold cross-validation assumes randomly formed folds.

    Parameters
    ----------
    n_splits : int, default=10
        Number of folds. Must be at least 2.
    shuffle : bool, default=True
        Whether to shuffle the instances before cutting them into folds.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffle. Pass an int for the same partition on every call
        to ``split``. Must be None when ``shuffle=False``.

    See Also
    --------
    StratifiedEqualSizeKFold : Equal sizes and balanced classes.
    RemainderLastKFold : Wong's approach (2), the remainder in the last fold.
    RandomAssignmentKFold : Wong's approach (1), independent random folds.

    Notes
    -----
    Wong (2015), section 4.3.2: by Theorem 1 each fold accuracy p_j is
    approximately normal with variance p(1-p)/m_j, so the fold accuracies share
    one distribution only when the fold sizes m_j are as close as possible.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference import EqualSizeKFold
    >>> cv = EqualSizeKFold(n_splits=3, random_state=0)
    >>> cv
    EqualSizeKFold(n_splits=3, random_state=0, shuffle=True)
    >>> [len(test) for _, test in cv.split(np.zeros((11, 1)))]
    [4, 4, 3]
    """

    @validate_params(**_RULES)
    def __init__(self, n_splits=10, *, shuffle=True, random_state=None):
        super().__init__(n_splits=n_splits, shuffle=shuffle, random_state=random_state)


class RemainderLastKFold(model_selection.KFold):
    """K-fold cross-validator that puts the whole remainder in the last fold.

    Wong's "approach (2)": the (shuffled) instances are cut into folds of
    ``n_samples // n_splits`` instances and the last fold also takes the
    ``n_samples % n_splits`` left over, so it can be up to ``n_splits - 1``
    instances larger than the others. Provided for studies of the fold-size
    question; for inference use :class:`EqualSizeKFold`.

    Parameters
    ----------
    n_splits : int, default=10
        Number of folds. Must be at least 2.
    shuffle : bool, default=True
        Whether to shuffle the instances before cutting them into folds.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffle. Must be None when ``shuffle=False``.

    Notes
    -----
    Wong (2015), section 4.3.2, approach (2): 203 instances in 5 folds give
    sizes 40, 40, 40, 40 and 43.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.splitters import RemainderLastKFold
    >>> cv = RemainderLastKFold(n_splits=5, random_state=0)
    >>> [len(test) for _, test in cv.split(np.zeros((203, 1)))]
    [40, 40, 40, 40, 43]
    """

    @validate_params(**_RULES)
    def __init__(self, n_splits=10, *, shuffle=True, random_state=None):
        super().__init__(n_splits=n_splits, shuffle=shuffle, random_state=random_state)

    def _iter_test_indices(self, X, y=None, groups=None):
        indices = np.arange(num_samples(X))
        if self.shuffle:
            check_random_state(self.random_state).shuffle(indices)
        base_size = len(indices) // self.n_splits
        for j in range(self.n_splits - 1):
            yield indices[j * base_size : (j + 1) * base_size]
        yield indices[(self.n_splits - 1) * base_size :]


class RandomAssignmentKFold(model_selection.KFold):
    """K-fold cross-validator that assigns every instance to a random fold.

    Wong's "approach (1)": each instance independently goes to fold
    ``ceil(n_splits * u)`` for a uniform ``u``, so the fold sizes are
    multinomial and can differ widely. Provided for studies of the fold-size
    question; for inference use :class:`EqualSizeKFold`.

    Parameters
    ----------
    n_splits : int, default=10
        Number of folds. Must be at least 2.
    random_state : int, RandomState instance or None, default=None
        Seeds the assignment. Pass an int for the same partition on every call.

    Notes
    -----
    Wong (2015), section 4.3.2, approach (1). A fold left empty by the draw
    cannot be tested, so the assignment is drawn again until every fold has
    an instance (at most 100 draws). This conditions the multinomial on
    non-empty folds, which changes nothing noticeable once ``n_samples`` is a
    few times ``n_splits``: the probability of an empty fold is at most
    ``n_splits * (1 - 1/n_splits) ** n_samples``.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.splitters import RandomAssignmentKFold
    >>> cv = RandomAssignmentKFold(n_splits=5, random_state=0)
    >>> sizes = [len(test) for _, test in cv.split(np.zeros((203, 1)))]
    >>> sum(sizes), len(sizes)
    (203, 5)
    """

    _max_draws = 100

    @validate_params(n_splits=_RULES["n_splits"], random_state=_RULES["random_state"])
    def __init__(self, n_splits=10, *, random_state=None):
        super().__init__(n_splits=n_splits, shuffle=True, random_state=random_state)

    def _iter_test_masks(self, X, y=None, groups=None):
        rng = check_random_state(self.random_state)
        for _ in range(self._max_draws):
            fold = rng.randint(self.n_splits, size=num_samples(X))
            if np.unique(fold).size == self.n_splits:
                return (fold == j for j in range(self.n_splits))
        raise ValueError(
            f"RandomAssignmentKFold left a fold empty in {self._max_draws} draws "
            f"with n_samples={num_samples(X)} and n_splits={self.n_splits}. Use fewer "
            "splits or more samples, or EqualSizeKFold, which never leaves a "
            "fold empty."
        )


def class_codes(y, n_splits):
    """y's class labels as codes 0 .. n_classes - 1, classes numbered by first appearance (sklearn's order).

    Refuses what is not a binary or multiclass target (with sklearn's
    ``StratifiedKFold`` message), missing labels and mixed label types;
    warns, as sklearn does, when the least populated class has fewer
    members than ``n_splits``.
    """
    y = np.asarray(y)
    if y.ndim == 1:
        check_no_missing_labels(y)
        check_one_label_type(y)
    target_type = type_of_target(y, input_name="y")
    if target_type not in ("binary", "multiclass"):
        raise ValueError(
            "Supported target types are: ('binary', 'multiclass'). "
            f"Got {target_type!r} instead."
        )
    y = column_or_1d(y)
    _, first, sorted_codes = np.unique(y, return_index=True, return_inverse=True)
    y_codes = np.argsort(np.argsort(first))[sorted_codes]
    smallest = np.bincount(y_codes).min()
    if smallest < n_splits:
        warnings.warn(
            f"The least populated class in y has only {smallest} "
            f"members, which is less than n_splits={n_splits}.",
            UserWarning,
            stacklevel=1,  # as sklearn's StratifiedKFold: split() reaches it via generators, no frame is the user's
        )
    return y_codes


class StratifiedEqualSizeKFold(model_selection.StratifiedKFold):
    """Stratified k-fold cross-validator with equal fold sizes.

    A partition in which the fold sizes differ by at most one (the first
    ``n_samples % n_splits`` folds hold one more) **and** every class's count
    differs by at most one across folds. Both hold for any label
    distribution, including classes with fewer members than ``n_splits``:
    they get sklearn's "least populated class" warning, and unlike
    sklearn's ``StratifiedKFold`` no error even when every class is smaller
    than ``n_splits``.

    Parameters
    ----------
    n_splits : int, default=10
        Number of folds. Must be at least 2.
    shuffle : bool, default=True
        Whether to shuffle the order of the classes and the members within
        each class before dealing them into folds.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffle. Pass an int for the same partition on every call
        to ``split``. Must be None when ``shuffle=False``.

    See Also
    --------
    EqualSizeKFold : Equal sizes without stratification.

    Notes
    -----
    The instances are lined up class by class (classes in random order,
    members in random order; unshuffled, classes in order of first
    appearance, members in data order) and dealt out like cards: the i-th
    instance in the line goes to fold ``i % n_splits``. The classes are
    numbered by first appearance, as in sklearn's ``StratifiedKFold``, so
    renamed or permuted labels give the same folds for the same seed. Dealing any line this way gives
    fold sizes that differ by at most one with the larger folds first, and
    because each class occupies one contiguous stretch of the line, each
    class is itself dealt evenly. Equal sizes follow Wong (2015), section
    4.3.2; stratification follows Kohavi (1995), slides "The Variance of CV"
    ("stratification slightly reduces both bias and variance") and
    "Recommendation" (stratified 10 to 20-fold CV for accuracy estimation).

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference import StratifiedEqualSizeKFold
    >>> y = np.array([0] * 7 + [1] * 4)
    >>> cv = StratifiedEqualSizeKFold(n_splits=3, random_state=0)
    >>> [(len(test), int(y[test].sum())) for _, test in cv.split(np.zeros((11, 1)), y)]
    [(4, 2), (4, 1), (3, 1)]
    """

    @validate_params(**_RULES)
    def __init__(self, n_splits=10, *, shuffle=True, random_state=None):
        super().__init__(n_splits=n_splits, shuffle=shuffle, random_state=random_state)

    def _iter_test_masks(self, X, y, groups=None):
        y_codes = class_codes(y, self.n_splits)
        class_counts = np.bincount(y_codes)
        rng = check_random_state(self.random_state) if self.shuffle else None
        class_order = rng.permutation(class_counts.size) if self.shuffle else range(class_counts.size)
        members = [np.flatnonzero(y_codes == c) for c in class_order]
        if self.shuffle:
            members = [rng.permutation(m) for m in members]
        fold = np.empty(y.size, dtype=np.intp)
        fold[np.concatenate(members)] = np.arange(y.size) % self.n_splits
        for j in range(self.n_splits):
            yield fold == j


class LeaveOneOut(model_selection.LeaveOneOut):
    """Leave-one-out cross-validator.

    Each instance is tested once, by a model trained on all the others. This
    is sklearn's :class:`~sklearn.model_selection.LeaveOneOut`, re-exported
    so that the toolkit recognises it and applies the leave-one-out theory.

    See Also
    --------
    EqualSizeKFold : k-fold, the usual choice when n is not small.

    Notes
    -----
    Leave-one-out has no random partition, so its estimate is a constant for a
    given data set; Wong (2015), section 5, gives its sampling distributions
    (large-sample conditions on the whole vector, matched t on the per-instance
    differences). Kohavi (1995), slide "Failure of cross-validation/leave-one-
    out", shows how it can fail: for a majority inducer on iris (50 instances
    per class) every left-out instance is a minority of its training set, so
    leave-one-out reports 0% accuracy instead of about 33%.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference import LeaveOneOut
    >>> LeaveOneOut().get_n_splits(np.zeros((4, 1)))
    4
    """
