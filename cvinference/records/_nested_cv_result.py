"""The record of nested cross-validation: every instance's outer and inner losses, for one or two learners."""

import dataclasses

import numpy as np

from .._utils._arrays import readonly_array
from .._utils._kinds import STRING, TEXT, Array, Sequence
from .._utils._notebook import import_pandas
from .._utils._params import Nullable, Text
from .._utils._validation import group_labels
from ._fields import OneOrTwoLearners, array_field, learner_descriptions, learner_lines
from ._record import Grouped, Record

N_SPLITS = 5
"""The default folds K of nested cross-validation (see :data:`N_REPEATS`)."""

N_REPEATS = 5
"""The default partitions R of nested cross-validation, with K = :data:`N_SPLITS` = 5 folds.

R K (K + 1) / 2 = 75 fits per learner, 7.5 times one 10-fold cross-validation: the cheapest
configuration of the calibration's (K, R) grid whose one-learner interval covered at least 0.93 in
every measured cell (docs/calibration.md, "Nested cross-validation: folds and repeats"). Pooled
over the main run, the grid and 1,000 more replications a cell, it covers 0.941 to 0.976, and its
difference interval keeps its type-I error at or below 0.06 in every cell but logistic regression
at N = 100 (0.064; no K or R of the grid did better there). The authors' R package ``nestedcv``
uses K = 10 and R = 50 (2,750 fits).
"""


def nested_fit_count(n_splits, n_repeats=1, n_learners=1, outer=True):
    """The fits of nested cross-validation: per learner and repeat, K outer fits and one per pair of folds.

    The model fitted without folds k and k' serves the inner
    cross-validations of outer folds k and k', so a repeat costs
    K + K (K - 1) / 2 = K (K + 1) / 2 fits instead of Bates, Hastie &
    Tibshirani's (2023, Algorithm 1) K + K (K - 1); K (K - 1) / 2 without
    the outer fits (``outer=False``: a cross-validation already made them).

    Examples
    --------
    >>> nested_fit_count(5), nested_fit_count(10, n_repeats=50, n_learners=2), nested_fit_count(5, outer=False)
    (15, 5500, 10)
    """
    return n_learners * n_repeats * n_splits * (n_splits + (1 if outer else -1)) // 2


def _check_folds(fold, n_splits):
    """Refuse fold numbers outside 0 .. K - 1, and a fold of fewer than 2 instances in a repeat."""
    if fold.min() < 0 or fold.max() >= n_splits:
        raise ValueError(f"fold must number the folds 0 .. n_splits - 1 = {n_splits - 1} (n_splits is the third "
                         f"dimension of inner); got values from {fold.min()} to {fold.max()}.")
    sizes = np.stack([np.bincount(row, minlength=n_splits) for row in fold])
    if sizes.min() < 2:
        r, k = np.argwhere(sizes < 2)[0]
        raise ValueError(f"every fold needs at least 2 instances (the variance of a fold's losses enters the "
                         f"estimate); fold {k} of repeat {r} has {sizes[r, k]}.")


def groups_per_fold_fix(n_groups):
    """What to do when folds of 2 groups each are too many for ``n_groups``: fewer folds, or more groups.

    Examples
    --------
    >>> groups_per_fold_fix(9)
    'With 9 groups, use n_splits <= 4 (2 groups per fold).'
    """
    if n_groups >= 6:
        return f"With {n_groups} groups, use n_splits <= {n_groups // 2} (2 groups per fold)."
    return (f"Nested cross-validation needs at least 3 folds of 2 groups, 6 groups; there are {n_groups}: use an "
            "interval from one cross-validation instead (accuracy_interval or loss_interval, method='cluster').")


def check_groups_per_fold(groups, fold, n_splits):
    """Refuse a fold of fewer than 2 groups in a repeat: the cluster-robust variance of its mean loss needs 2."""
    labels, codes = np.unique(groups, return_inverse=True)
    for r, row in enumerate(fold):
        counts = [np.unique(codes[row == k]).size for k in range(n_splits)]
        if min(counts) < 2:
            k = int(np.argmin(counts))
            fix = (groups_per_fold_fix(labels.size) if n_splits > labels.size // 2 else
                   f"The groups are too unequal in size for {n_splits} folds of 2 groups each (a large group fills "
                   "a fold by itself): use fewer folds, or an interval from one cross-validation (accuracy_interval "
                   "or loss_interval, method='cluster').")
            raise ValueError(f"every fold needs at least 2 groups (the cluster-robust variance of a fold's mean loss "
                             f"enters the estimate); fold {k} of repeat {r} holds {counts[k]}. {fix}")


def _check_finite(outer, inner, fold):
    """Refuse NaN or infinite losses where they are used (a user's loss, or predict_proba), naming the first."""
    n_splits = inner.shape[2]
    outside = fold[np.newaxis, :, np.newaxis, :] != np.arange(n_splits)[np.newaxis, np.newaxis, :, np.newaxis]
    for losses, in_use, fits in ((outer, np.ones(outer.shape, dtype=bool), "outer"),
                                 (inner, np.broadcast_to(outside, inner.shape), "inner")):
        bad = in_use & ~np.isfinite(losses)
        if bad.any():
            first = np.argwhere(bad)[0]
            raise ValueError(
                f"loss gave NaN or infinity for {int(bad.sum())} of {int(in_use.sum())} losses of the {fits} fits "
                f"(first: instance {int(first[-1])} in repeat {int(first[1])}); a mean of them means nothing. "
                "Check the loss function, or the estimator's predict_proba for those instances."
            )


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class NestedCVResult(OneOrTwoLearners, Grouped, Record):
    """What nested cross-validation did to every instance: its outer and inner losses, per learner.

    Made by :func:`nested_cross_validation`; :func:`nested_cv_interval_of`
    computes Bates, Hastie & Tibshirani's (2023) interval from it. In each
    of R random partitions into K folds, instance i has one outer loss (by
    the model fitted to the folds other than its own) and, for every other
    fold k, one inner loss (by the model fitted to the folds other than k
    and its own: the inner cross-validation of outer fold k). Two learners
    are on identical folds.

    Parameters
    ----------
    fold : array-like of int, shape (n_repeats, n_samples)
        The fold (0 .. K - 1) of every instance in every repeat; every fold
        holds at least 2 instances.
    outer : array-like of float, shape (n_learners, n_repeats, n_samples)
        ``outer[e, r, i]``: learner e's loss on instance i in repeat r
        (Bates et al.'s e_out). One or two learners.
    inner : array-like of float, shape (n_learners, n_repeats, n_splits, n_samples)
        ``inner[e, r, k, i]``, for i outside fold k: the loss on instance i
        of learner e's model fitted without folds k and i's own (e_in).
        The entries of fold k's own instances are unused (nan when made by
        :func:`nested_cross_validation`). K = n_splits >= 3.
    loss_name : str, default="zero_one"
        The per-instance loss.
    estimator_reprs : tuple of str, default=()
        One description per learner, or none.
    cv_repr : str or None, default=None
        The splitter of the first repeat.
    groups : array-like of shape (n_samples,) or None, default=None
        Each instance's group (a patient, a subject, a site), when the
        partitions were drawn by group (integers or strings, of one type);
        every fold then holds at least 2 groups. None for independent
        instances.

    Attributes
    ----------
    fold, outer, inner : ndarray
        Read-only.
    n_learners, n_repeats, n_splits, n_samples : int
    n_fits : int
        The fits :func:`nested_cross_validation` runs for this record:
        K (K + 1) / 2 per learner and repeat.
    paired : bool
        Whether two learners were fitted.
    loss_name, estimator_reprs, cv_repr
        As given.
    groups : ndarray or None
        Read-only; None without groups.
    n_groups : int or None
        The number of distinct groups; None without groups.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.records import NestedCVResult
    >>> fold = np.array([[0, 0, 1, 1, 2, 2]])
    >>> own_fold = fold[:, np.newaxis, :] == np.arange(3)[np.newaxis, :, np.newaxis]
    >>> inner = np.where(own_fold, np.nan, 0.5)[np.newaxis]
    >>> result = NestedCVResult(fold=fold, outer=np.zeros((1, 1, 6)), inner=inner)
    >>> result
    NestedCVResult(n_samples=6, n_splits=3, n_repeats=1, n_learners=1, loss_name='zero_one')
    >>> result.n_fits
    6
    """

    fold: np.ndarray
    outer: np.ndarray
    inner: np.ndarray
    loss_name: str = "zero_one"
    estimator_reprs: tuple = ()
    cv_repr: str | None = None
    groups: np.ndarray | None = None

    _kinds = {"fold": Array("iu", ndim=2, low=0, min_rows=1), "outer": Array("f", ndim=3, min_rows=1),
              "inner": Array("f", ndim=4, min_rows=1), "loss_name": TEXT, "estimator_reprs": Sequence(TEXT),
              "cv_repr": Nullable(STRING), "groups": Nullable(Array(ndim=1, min_rows=1))}

    def __post_init__(self):
        inner = array_field("inner", self.inner, "float", (None, None, None, None))
        n_learners, n_repeats, n_splits, n_samples = inner.shape
        if n_learners > 2 or n_splits < 3:
            raise ValueError(f"inner must hold one or two learners (its first dimension) and n_splits >= 3 folds "
                             f"(its third); got shape {inner.shape}.")
        fold = array_field("fold", self.fold, "int", (n_repeats, n_samples))
        outer = array_field("outer", self.outer, "float", (n_learners, n_repeats, n_samples))
        _check_folds(fold, n_splits)
        _check_finite(outer, inner, fold)
        for name, value in (("fold", fold), ("outer", outer), ("inner", inner)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "loss_name", Text("zero_one").check("loss_name", self.loss_name))
        object.__setattr__(self, "estimator_reprs",
                           learner_descriptions("estimator_reprs", self.estimator_reprs, n_learners))
        object.__setattr__(self, "cv_repr", Nullable(Text("EqualSizeKFold(n_splits=5)")).check("cv_repr", self.cv_repr))
        groups = group_labels(self.groups, n_samples, counted=f"fold has {n_samples} instances")
        if groups is not None:
            check_groups_per_fold(groups, fold, n_splits)
            groups = readonly_array(groups)
        object.__setattr__(self, "groups", groups)

    @property
    def _losses_of_learners(self):
        return self.outer

    @property
    def n_repeats(self):
        return self.fold.shape[0]

    @property
    def n_splits(self):
        return self.inner.shape[2]

    @property
    def n_samples(self):
        return self.fold.shape[1]

    @property
    def n_fits(self):
        return nested_fit_count(self.n_splits, self.n_repeats, self.n_learners)

    def _repr_fields(self):
        return {"n_samples": self.n_samples, "n_splits": self.n_splits, "n_repeats": self.n_repeats,
                "n_learners": self.n_learners, "loss_name": repr(self.loss_name)}

    def to_frame(self):
        """A pandas DataFrame with one row per learner, repeat and instance: the outer losses (needs pandas).

        Columns: ``learner`` (0, and 1 for a second learner), ``repeat``,
        ``instance`` (the row number in the data), ``group`` (only with
        groups), ``fold`` and ``outer_loss``. The inner losses, one per
        other fold, stay in ``inner`` (learner, repeat, fold, instance).

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import numpy as np
        >>> from cvinference.records import NestedCVResult
        >>> two = NestedCVResult(fold=[[0, 1, 2, 0, 1, 2]], outer=np.arange(12.0).reshape(2, 1, 6),
        ...                      inner=np.zeros((2, 1, 3, 6)))
        >>> two.to_frame().groupby("learner")["outer_loss"].sum().tolist()
        [15.0, 51.0]
        """
        learners, repeats, n = self.n_learners, self.n_repeats, self.n_samples
        columns = {"learner": np.repeat(np.arange(learners), repeats * n),
                   "repeat": np.tile(np.repeat(np.arange(repeats), n), learners),
                   "instance": np.tile(np.arange(n), learners * repeats)}
        if self.groups is not None:
            columns["group"] = np.tile(self.groups, learners * repeats)
        columns.update(fold=np.tile(self.fold.ravel(), learners), outer_loss=self.outer.ravel())
        return import_pandas().DataFrame(columns)

    def summary(self):
        """The partitions, the fits, and each learner's mean outer and inner loss.

        Returns
        -------
        str

        Examples
        --------
        >>> import numpy as np
        >>> from cvinference.records import NestedCVResult
        >>> fold = np.array([[0, 0, 1, 1, 2, 2]])
        >>> inner = np.where(fold[:, None, :] == np.arange(3)[None, :, None], np.nan, 0.5)[None]
        >>> print(NestedCVResult(fold=fold, outer=np.zeros((1, 1, 6)), inner=inner,
        ...                      estimator_reprs=("GaussianNB()",)).summary())
        nested cross-validation: 1 partition into 3 folds, n = 6, 6 fits
        estimator: GaussianNB()
        mean zero_one loss: 0.0000 in the outer folds (Err_CV), 0.5000 in the inner cross-validations (Err_NCV)
        nested_cv_interval_of(result) gives the interval for the model fitted to all n instances
        """
        partitions = "partition" if self.n_repeats == 1 else "partitions"
        lines = [f"nested cross-validation: {self.n_repeats} {partitions} into {self.n_splits} folds, "
                 f"n = {self.n_samples}, {self.n_fits} fits", *learner_lines(self.estimator_reprs)]
        if self.cv_repr:
            lines.append(f"splitter, repeat 0: {self.cv_repr}")
        if self.groups is not None:
            lines.append(f"grouped: {self.n_groups} groups, each a unit of the interval's standard errors")
        outside = self.fold[:, np.newaxis, :] != np.arange(self.n_splits)[np.newaxis, :, np.newaxis]
        texts = [f": {outer.mean():.4f} in the outer folds (Err_CV), {inner[outside].mean():.4f} in the inner "
                 "cross-validations (Err_NCV)" for outer, inner in zip(self.outer, self.inner, strict=True)]
        lines += self._loss_lines(texts, "nested_cv_interval_of", "the model fitted to all n instances")
        return "\n".join(lines)
