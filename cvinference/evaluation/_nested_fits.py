"""Nested cross-validation's fits: every outer fold's model and the inner cross-validation beside it.

Bates, Hastie & Tibshirani (2023, Algorithm 1) run, in each of R random
K-fold partitions, K outer fits (all folds but k, tested on fold k) and, for
every outer fold k, an inner cross-validation on the other K - 1 folds (fold
k' tested by the model fitted to the K - 2 folds other than k and k'). The
model fitted without folds k and k' serves two inner cross-validations: it
tests fold k' for outer fold k and fold k for outer fold k'. It is fitted
once, so a repeat costs K + K(K - 1)/2 fits instead of K + K(K - 1).

The statistics computed from these losses live in the inference layer
(:func:`cvinference.nested_cv_interval`).
"""

import dataclasses

import numpy as np

from .._utils._describe import estimator_description
from .._utils._validation import is_classifier_like, is_regressor_like
from ..records._losses import get_loss
from ._loss_data import prepare_loss_data
from ._fit_task import FitTask
from ._partitions import draw_partitions
from ._scheduler import run_fits


@dataclasses.dataclass(frozen=True)
class NestedLosses:
    """The per-instance losses of nested cross-validation, for one or two estimators on the same folds.

    Attributes
    ----------
    fold : ndarray of int, shape (n_repeats, n_samples)
        The fold of every instance in every repeat.
    outer : ndarray of float, shape (n_estimators, n_repeats, n_samples)
        ``outer[e, r, i]``: the loss on instance i of estimator e's model
        fitted to every fold of repeat r but i's own (ordinary
        cross-validation: Bates et al.'s e_out).
    inner : ndarray of float, shape (n_estimators, n_repeats, n_splits, n_samples)
        ``inner[e, r, k, i]``, for i outside fold k: the loss on instance i
        of the model fitted to every fold of repeat r but k and i's own
        (the inner cross-validation of outer fold k: Bates et al.'s e_in);
        nan for the instances of fold k.
    n_splits : int
    loss_name : str
    estimator_reprs : tuple of str
    cv_repr : str
        The splitter of the first repeat.
    n_fits : int
        The fits that were run.
    """

    fold: np.ndarray
    outer: np.ndarray
    inner: np.ndarray
    n_splits: int
    loss_name: str
    estimator_reprs: tuple
    cv_repr: str
    n_fits: int

    @property
    def n_repeats(self):
        return self.fold.shape[0]

    @property
    def n_samples(self):
        return self.fold.shape[1]


def fits_per_repeat(n_splits):
    """K outer fits and one fit per pair of folds: K (K + 1) / 2."""
    return n_splits * (n_splits + 1) // 2


class _NestedTasks:
    """The :class:`FitTask` of every nested fit of some estimators, made on access.

    Within a repeat, fit ``(k, None)`` is outer fold k and fit ``(k, k2)``
    (k < k2) leaves out folds k and k2; the estimators' fits follow one
    another, repeat by repeat.
    """

    def __init__(self, partitions, n_estimators):
        self._partitions = partitions
        n_splits = partitions.n_splits
        self._left_out = [(k, None) for k in range(n_splits)] + [
            (k, k2) for k in range(n_splits) for k2 in range(k + 1, n_splits)]
        self._per_estimator = partitions.n_repeats * len(self._left_out)
        self._n_estimators = n_estimators

    def __len__(self):
        return self._n_estimators * self._per_estimator

    def locate(self, index):
        """(estimator, repeat, k, k2) of a fit; k2 is None for an outer fit."""
        if not 0 <= index < len(self):
            raise IndexError(f"fit index {index} out of range")  # ends iteration over the tasks
        estimator, rest = divmod(index, self._per_estimator)
        r, pair = divmod(rest, len(self._left_out))
        return (estimator, r, *self._left_out[pair])

    def __getitem__(self, index):
        estimator, r, k, k2 = self.locate(index)
        fold = self._partitions.fold[r]
        test = fold == k if k2 is None else (fold == k) | (fold == k2)
        where = (f"outer fold {k} of repeat {r}" if k2 is None else
                 f"the inner fit without folds {k} and {k2} of repeat {r}")
        return FitTask(estimator, where, np.flatnonzero(~test), np.flatnonzero(test))


def check_same_task(estimator, estimator_b):
    """Refuse two estimators of which one is a classifier and the other a regressor."""
    kinds = [("classifier" if is_classifier_like(e) else "regressor" if is_regressor_like(e) else None)
             for e in (estimator, estimator_b)]
    if None not in kinds and kinds[0] != kinds[1]:
        raise ValueError(
            f"estimator_b must do the same task as estimator, so that their losses can be subtracted; got "
            f"estimator={estimator_description(estimator)}, a {kinds[0]}, and "
            f"estimator_b={estimator_description(estimator_b)}, a {kinds[1]}. Pass two classifiers or two "
            "regressors."
        )


def _check_fold_sizes(n_samples, n_splits):
    """Refuse folds of one instance: the spread of a fold's losses (b_k) needs two."""
    if n_samples < 2 * n_splits:
        raise ValueError(
            f"nested cross-validation needs at least 2 instances in every fold (the variance of a fold's "
            f"losses enters its estimate), but n_samples={n_samples} with n_splits={n_splits} gives folds of "
            f"1. Pass n_splits <= {max(n_samples // 2, 1)}."
        )


def _check_finite(outer, inner, fold):
    """Refuse NaN or infinite losses (a user's loss, or predict_proba), naming the first."""
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


def fit_nested(estimators, X, y, *, n_splits, n_repeats, loss, random_state, n_jobs):
    """Run nested cross-validation for one or two estimators on the same folds, in one call of :func:`run_fits`.

    Parameters
    ----------
    estimators : sequence of one or two estimators
        Cloned for each fit, never fitted. Two are named ``estimator`` and
        ``estimator_b`` in messages.
    X, y : array-like
        The data (checked here).
    n_splits : int
        K, at least 3 (checked by the caller).
    n_repeats : int
        R, the random partitions.
    loss : str, callable or Loss
        As ``loss`` of :func:`cross_val_correctness`.
    random_state : int, RandomState instance or None
        Seeds the partitions as :class:`CVEvaluator` does: repeat r's
        splitter (:class:`StratifiedEqualSizeKFold` for classifiers,
        :class:`EqualSizeKFold` otherwise) gets the r-th of R seeds drawn
        from it, so the outer losses equal ``cross_val_correctness(...,
        cv=n_splits, n_repeats=n_repeats, random_state=random_state).loss``.
    n_jobs : int or None

    Returns
    -------
    NestedLosses

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation._nested_fits import fit_nested
    >>> X, y = load_iris(return_X_y=True)
    >>> losses = fit_nested([GaussianNB()], X, y, n_splits=3, n_repeats=2, loss="zero_one", random_state=0,
    ...                     n_jobs=1)
    >>> losses.outer.shape, losses.inner.shape, losses.n_fits
    ((1, 2, 150), (1, 2, 3, 150), 12)
    >>> import numpy as np
    >>> bool(np.isnan(losses.inner[0, 0, 1, losses.fold[0] == 1]).all())
    True
    """
    names = ["estimator", "estimator_b"][:len(estimators)]
    if len(estimators) == 2:
        check_same_task(*estimators)
    X, y, _, y_array, loss = prepare_loss_data(estimators, names, X, y, get_loss(loss))
    _check_fold_sizes(y_array.size, n_splits)
    partitions = draw_partitions(n_splits, X, y_array, None, n_repeats=n_repeats, random_state=random_state,
                                 classifier=all(is_classifier_like(e) for e in estimators))
    classes = np.unique(y_array) if loss.classification else None
    n_samples = y_array.size
    outer = np.full((len(estimators), n_repeats, n_samples), np.nan)
    inner = np.full((len(estimators), n_repeats, n_splits, n_samples), np.nan)
    tasks = _NestedTasks(partitions, len(estimators))

    def keep(index, output):
        predictions, losses = output
        estimator, r, k, k2 = tasks.locate(index)
        test = tasks[index].test
        if losses is None:
            losses = loss(y_array[test], predictions)
        if k2 is None:
            outer[estimator, r, test] = losses
            return
        in_k = partitions.fold[r, test] == k
        inner[estimator, r, k2, test[in_k]] = losses[in_k]  # fold k, in outer fold k2's inner cross-validation
        inner[estimator, r, k, test[~in_k]] = losses[~in_k]

    run_fits(estimators, X, y, tasks, names=names, n_jobs=n_jobs,
             proba_loss=(loss, y_array, classes) if loss.needs_proba else None, collect=keep)
    _check_finite(outer, inner, partitions.fold)
    return NestedLosses(fold=partitions.fold, outer=outer, inner=inner, n_splits=n_splits, loss_name=loss.name,
                        estimator_reprs=tuple(estimator_description(e) for e in estimators),
                        cv_repr=partitions.cv_repr, n_fits=len(tasks))
