"""``--groups COLUMN``: group-respecting folds, so that no model is tested on a group it was trained on.

A classification target gets :class:`~cvinference.StratifiedEqualSizeGroupKFold`
(folds as equal in size and class counts as the groups allow); a regression
target, which has no classes to balance, gets ``EqualSizeGroupKFold`` (in
``cvinference.splitters._group_kfold``), the same search with every instance
in one class, so that only the fold sizes count. Both shuffle, seeded by
``--seed``: ``evaluate`` and ``compare`` hand the splitter to the evaluator,
which reseeds it for every repeat as it does any shuffling splitter;
``select`` uses :func:`group_folds` with ``n_repeats``, a new partition per
repeat. Nested cross-validation and 5x2cv draw the same kind of folds from
the groups themselves.
"""

from sklearn.utils import check_random_state

from ..splitters._group_kfold import group_kfold
from ._errors import UserError


class RepeatedGroupFolds:
    """``n_repeats`` shuffled partitions by the group k-fold class ``cv``, drawn as scikit-learn's ``RepeatedKFold``
    draws its own (each repeat's splitter is seeded with one RandomState made from ``random_state``) and built
    as it is (``cv`` the class, ``n_repeats``), so that a search's ``compare_candidates`` reads its k and r."""

    def __init__(self, cv, *, n_repeats, n_splits, random_state=None):
        self.cv, self.n_repeats, self.n_splits, self.random_state = cv, n_repeats, n_splits, random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits * self.n_repeats

    def split(self, X, y=None, groups=None):
        rng = check_random_state(self.random_state)
        for _ in range(self.n_repeats):
            yield from self.cv(self.n_splits, shuffle=True, random_state=rng).split(X, y, groups)

    def __repr__(self):
        return (f"RepeatedGroupFolds({self.cv.__name__}, n_repeats={self.n_repeats}, n_splits={self.n_splits}, "
                f"random_state={self.random_state!r})")


def group_folds(task, n_splits, *, random_state, n_repeats=None):
    """The shuffling group k-fold of ``--groups`` for ``task``; with ``n_repeats``, a new partition per repeat.

    The repeated splitter is built as scikit-learn builds ``RepeatedKFold``, so
    that a search's ``compare_candidates`` reads its k and r.

    Examples
    --------
    >>> group_folds("classification", 5, random_state=0)
    StratifiedEqualSizeGroupKFold(n_splits=5, random_state=0, shuffle=True)
    >>> cv = group_folds("regression", 5, random_state=0, n_repeats=3)
    >>> cv.cv.__name__, cv.n_repeats, cv.get_n_splits()
    ('EqualSizeGroupKFold', 3, 15)
    """
    if n_repeats is None:
        return group_kfold(task == "classification", n_splits, random_state=random_state)
    kind = type(group_kfold(task == "classification", n_splits))
    return RepeatedGroupFolds(kind, n_repeats=n_repeats, n_splits=n_splits, random_state=random_state)


def check_group_folds(dataset, n_splits, n_repeats):
    """Refuse leave-one-out, more folds than groups, and repeats of a partition with one group per fold.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.cli._data import Dataset
    >>> data = Dataset(X=np.zeros((6, 1)), y=np.arange(6) % 2, name="visits.csv", feature_names=("x",),
    ...                groups=np.array(list("aabbcc")), groups_column="patient")
    >>> check_group_folds(data, 4, 1)
    Traceback (most recent call last):
    ...
    cvinference.cli._errors.UserError: --cv 4 is more folds than the 3 groups of --groups patient in visits.csv; \
every group must fit in one test fold: use --cv 2 to 3
    """
    where = f"--groups {dataset.groups_column}"
    if n_splits == "loo":
        raise UserError(f"--cv loo with {where}: leave-one-out would test every row on a model trained on the other "
                        "rows of its own group; use --cv K, K folds of whole groups")
    n_groups = dataset.n_groups
    if n_splits > n_groups:
        raise UserError(f"--cv {n_splits} is more folds than the {n_groups} groups of {where} in {dataset.name}; "
                        f"every group must fit in one test fold: use --cv 2 to {n_groups}")
    if n_splits == n_groups and n_repeats > 1:
        raise UserError(f"--repeats {n_repeats} with --cv {n_splits} and the {n_groups} groups of {where}: each "
                        "group is a fold of its own in every repeat, so there is no new partition to draw; drop "
                        "--repeats or use fewer folds")
