"""Nested cross-validation on the partitions of a cross-validation already run: its fits are the outer fits.

The outer fits of nested cross-validation (Bates, Hastie & Tibshirani 2023,
Algorithm 1) are those of a repeated K-fold cross-validation: in repeat r,
fold k is tested by the model fitted to the other folds. A :class:`CVResult`
of the same learner on the same data with K folds holds exactly their
losses, so nested cross-validation on its partitions needs only the inner
fits, K (K - 1) / 2 per repeat of its K (K + 1) / 2.
"""

from dataclasses import dataclass

import numpy as np

from .._utils._arrays import python_scalar
from .._utils._describe import estimator_description
from ..records import CVResult, PairedCVResult
from ._partitions import Partitions


@dataclass(frozen=True)
class ReusedFolds:
    """The partitions and the outer losses that a cross-validation's record gives nested cross-validation."""

    partitions: Partitions
    outer: np.ndarray  # (n_learners, n_repeats, n_samples)


def _records_of(cv_result, paired):
    """The one or two learners' CVResult of ``cv_result``, or a TypeError naming what to pass."""
    wanted = PairedCVResult if paired else CVResult
    if not isinstance(cv_result, wanted):
        made_by = ("CVEvaluator(cv=n_splits, n_repeats=n_repeats).compare(estimator, estimator_b, X, y)" if paired
                   else "cross_val_correctness(estimator, X, y, cv=n_splits, n_repeats=n_repeats)")
        learners = "two learners, with estimator_b" if paired else "one learner, without estimator_b"
        raise TypeError(f"cv_result must be a {wanted.__name__} ({learners}), as {made_by} makes it; got "
                        f"{type(cv_result).__name__}.")
    return (cv_result.a, cv_result.b) if paired else (cv_result,)


def _check_learners(records, estimators, names):
    for record, estimator, name in zip(records, estimators, names, strict=True):
        described = estimator_description(estimator)
        if record.estimator_repr is not None and record.estimator_repr != described:
            raise ValueError(f"cv_result was made by {record.estimator_repr}, not by {name}={described}: its losses "
                             f"are another learner's. Pass the {name} that made it, or leave out cv_result.")


def _check_layout(record, n_splits, n_repeats):
    if record.is_loo or record.n_train is not None:
        kind = "leave-one-out" if record.is_loo else "a holdout or subsampling record (n_train is set)"
        raise ValueError(f"cv_result is {kind}; nested cross-validation reuses a K-fold cross-validation. "
                         "Leave out cv_result, or pass one made with cv=n_splits.")
    if record.n_splits != n_splits:
        raise ValueError(f"cv_result has {record.n_splits} folds and n_splits={n_splits}: pass "
                         f"n_splits={record.n_splits}, or a cv_result made with cv={n_splits}.")
    if record.n_repeats < n_repeats:
        raise ValueError(f"cv_result holds {record.n_repeats} repeats and n_repeats={n_repeats}: pass "
                         f"n_repeats <= {record.n_repeats}, or a cv_result made with n_repeats={n_repeats}.")


def _check_targets(record, y_array):
    if record.n_samples != y_array.size:
        raise ValueError(f"cv_result was made on other data: it holds {record.n_samples} instances and y "
                         f"{y_array.size}. Pass the X and y it was made on, or leave out cv_result.")
    differ = np.flatnonzero(np.asarray(record.y_true) != y_array)
    if differ.size:
        i = differ[0]
        ours, theirs = python_scalar(record.y_true[i]), python_scalar(y_array[i])
        raise ValueError(f"cv_result was made on other data: its target of instance {i} is {ours!r} and y's is "
                         f"{theirs!r}. Pass the X and y it was made on, or leave out cv_result.")


def record_groups(cv_result):
    """The groups ``cv_result`` was made with (None without, or for an object that is not a record)."""
    record = cv_result.a if isinstance(cv_result, PairedCVResult) else cv_result
    return getattr(record, "groups", None)


def _check_groups(record, groups, fold):
    """Refuse other groups than the record's, and folds that split a group (a splitter that ignored them)."""
    if record.groups is None and groups is not None:
        raise ValueError("groups are given but cv_result was made without groups: its folds need not keep them "
                         "whole. Pass a cv_result made with these groups, or leave out cv_result.")
    if groups is None:
        return
    if not np.array_equal(np.asarray(record.groups), np.asarray(groups)):
        raise ValueError("groups differ from the groups cv_result was made with; pass the same groups (or none: "
                         "the record's are used), or leave out cv_result.")
    codes = np.unique(np.asarray(groups), return_inverse=True)[1]
    for r, row in enumerate(fold):
        folds_of_group = np.unique(np.stack([codes, row]), axis=1)[0]
        if np.unique(folds_of_group).size < folds_of_group.size:
            raise ValueError(f"repeat {r} of cv_result splits a group across folds, so nested cross-validation on "
                             "its partitions would test models on groups they were trained on. Pass a cv_result "
                             "made with a group splitter (the evaluator's groups=), or leave out cv_result.")


def reused_folds(cv_result, estimators, names, y_array, loss, groups, n_splits, n_repeats):
    """The first ``n_repeats`` partitions of ``cv_result`` and their losses, after checking it fits this call.

    Refused with a TypeError or ValueError naming the fix: a record of
    another kind (one learner against two), of another learner (by the
    short description the record keeps), of other targets, another loss,
    leave-one-out or a holdout, another number of folds, too few repeats,
    other groups, or folds that split a group.
    """
    records = _records_of(cv_result, len(estimators) == 2)
    _check_learners(records, estimators, names)
    first = records[0]
    _check_layout(first, n_splits, n_repeats)
    _check_targets(first, y_array)
    if first.loss_name != loss.name:
        raise ValueError(f"cv_result holds the loss {first.loss_name!r} and loss={loss.name!r}: pass "
                         f"loss={first.loss_name!r}, or a cv_result made with loss={loss.name!r}.")
    fold = np.asarray(first.fold[:n_repeats])
    _check_groups(first, groups, fold)
    partitions = Partitions(fold=fold, n_splits=n_splits, cv_repr=first.cv_repr or f"{n_splits} folds of cv_result")
    outer = np.stack([np.asarray(record.loss[:n_repeats], dtype=np.float64) for record in records])
    return ReusedFolds(partitions=partitions, outer=outer)
