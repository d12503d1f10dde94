"""Nadeau & Bengio's paired subsampling: random splits of all the data and of pairs of disjoint halves.

The splits are planned here (:func:`plan_paired_subsampling`) and fitted
through the scheduler (:func:`paired_subsampling`), which returns every test
instance's loss in a :class:`PairedSubsamplingResult`; the conservative Z
interval built from them lives in the inference layer
(:func:`cvinference.inference.conservative_z_interval_of`).
"""

import dataclasses
import math

import numpy as np
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit
from sklearn.utils import check_random_state

from .._utils._arrays import python_scalar, readonly_array
from .._utils._describe import estimator_description
from .._utils._docstring import fill_doc
from .._utils._params import VERBOSE, Boolean, Integer, Jobs, Seed, validate_params
from .._utils._validation import check_fits_in_memory
from ..records import PairedSubsamplingResult
from ..records._losses import get_loss
from ..records._paired_subsampling_result import N_PAIRS
from ._fit_task import FitTask
from ._holdout import TEST_SIZE
from ._loss_data import LossSpec, prepare_loss_data
from ._scheduler import run_fits

_SEED_LIMIT = 2**31 - 1


@dataclasses.dataclass(frozen=True)
class PairedSubsamplingPlan:
    """The splits of paired subsampling, in groups of ``n_splits``.

    Group 0 holds the J splits of all the data; group ``1 + 2 m + side``
    holds the J splits of side ``side`` (0 or 1) of the m-th pair of halves.
    Every split trains on ``n_train`` (n1) and tests on ``n_test`` (n2)
    instances, indices into the whole data.

    Attributes
    ----------
    n_samples, n_pairs, n_splits, n_train, n_test, half_size : int
    stratified : bool
        Whether every split (and every halving) kept the class proportions.
    train, test : ndarray of int, shape (2 n_pairs + 1, n_splits, n_train or n_test)
        Read-only.
    halves : ndarray of int, shape (n_pairs, 2, half_size)
        Read-only: the two disjoint halves of every pair.
    """

    n_samples: int
    n_pairs: int
    n_splits: int
    n_train: int
    n_test: int
    half_size: int
    stratified: bool
    train: np.ndarray
    test: np.ndarray
    halves: np.ndarray

    def where(self, group, j):
        """What split ``j`` of ``group`` is, in words (for error messages)."""
        if group == 0:
            return f"split {j} of all the data"
        m, side = divmod(group - 1, 2)
        return f"split {j} of half {side} of pair {m}"


def split_sizes(n_samples, test_size):
    """(half_size, n1, n2): each half holds floor(n / 2), of which ceil(test_size * half) are tested."""
    half_size = n_samples // 2
    n_test = math.ceil(test_size * half_size - 1e-9)
    return half_size, half_size - n_test, n_test


def _check_sizes(n_samples, test_size, half_size, n_train, n_test, classes, stratified):
    """Refuse, with the fix, halves too small for a training and a test part (of every class, stratified)."""
    if n_train < 1 or n_test < 1:
        raise ValueError(
            f"Paired subsampling splits each half of the data (floor(n_samples / 2) = {half_size} instances for "
            f"n_samples={n_samples}) into n1 = {n_train} training and n2 = {n_test} test instances with "
            f"test_size={test_size:.4g}; both need at least one. Pass a test_size nearer 0.5, or more data "
            "(at least 4 instances)."
        )
    if not stratified:
        return
    labels, counts = classes
    rare = labels[counts < 4]
    if rare.size:
        raise ValueError(
            "Paired subsampling with stratify=True puts every class in both halves of every pair and in both "
            "the training and the test part of every split, so every class needs at least 4 instances; "
            f"class(es) {[python_scalar(c) for c in rare]} have fewer ({counts[counts < 4].tolist()}). Pass "
            "stratify=False, or merge or remove the rare classes."
        )
    if min(n_train, n_test) < labels.size:
        raise ValueError(
            f"Paired subsampling with stratify=True puts every class in both parts of every split, but with "
            f"test_size={test_size:.4g} a half of {half_size} instances gives n1 = {n_train} and n2 = {n_test} "
            f"for {labels.size} classes. Pass a test_size nearer 0.5, or stratify=False."
        )


def _splitter(stratified, n_splits, n_train, n_test, seed):
    kind = StratifiedShuffleSplit if stratified else ShuffleSplit
    return kind(n_splits=n_splits, train_size=n_train, test_size=n_test, random_state=seed)


def _splits(rows, y_array, stratified, n_splits, n_train, n_test, seed):
    """``n_splits`` (train, test) index pairs of the instances ``rows``, as indices into the whole data."""
    splitter = _splitter(stratified, n_splits, n_train, n_test, seed)
    try:
        pairs = list(splitter.split(np.zeros((rows.size, 1)), y_array[rows]))
    except ValueError as exc:  # a class allocation StratifiedShuffleSplit cannot make
        raise ValueError(f"Paired subsampling with stratify=True failed: {exc} Pass stratify=False, or "
                         "merge or remove the rare classes.") from exc
    return [(rows[train], rows[test]) for train, test in pairs]


def plan_paired_subsampling(y_array, *, n_pairs, n_splits, test_size, stratified, random_state):
    """Draw every split of Nadeau & Bengio's paired subsampling, before any fit.

    Parameters
    ----------
    y_array : ndarray of shape (n_samples,)
        The targets (stratified on when ``stratified``).
    n_pairs : int
        M, the number of random pairs of disjoint halves.
    n_splits : int
        J, the random train/test splits of all the data and of each half.
    test_size : float
        The share of a half tested in each split: n2 = ceil(test_size *
        floor(n / 2)), n1 = floor(n / 2) - n2, so n1 + n2 = floor(n / 2).
    stratified : bool
        Keep the class proportions in every halving and every split
        (:class:`~sklearn.model_selection.StratifiedShuffleSplit`; otherwise
        :class:`~sklearn.model_selection.ShuffleSplit`).
    random_state : int, RandomState instance or None
        Seeds one generator that seeds every splitter in turn: the J splits
        of all the data first, then, pair by pair, the halving and the J
        splits of each half.

    Returns
    -------
    PairedSubsamplingPlan

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.evaluation._paired_subsampling import plan_paired_subsampling
    >>> plan = plan_paired_subsampling(np.arange(20) % 2, n_pairs=2, n_splits=3, test_size=0.2,
    ...                                stratified=True, random_state=0)
    >>> plan.half_size, plan.n_train, plan.n_test, plan.test.shape
    (10, 8, 2, (5, 3, 2))
    >>> bool(np.intersect1d(*plan.halves[0]).size == 0)
    True
    """
    n_samples = y_array.size
    half_size, n_train, n_test = split_sizes(n_samples, test_size)
    classes = np.unique(y_array, return_counts=True) if stratified else None
    _check_sizes(n_samples, test_size, half_size, n_train, n_test, classes, stratified)
    check_fits_in_memory({"n_pairs": n_pairs, "n_rounds": n_splits}, (2 * n_pairs + 1) * n_splits * half_size * 8,
                         f"the splits ({2 * n_pairs + 1} groups of n_rounds splits of {half_size} indices of 8 bytes)")
    rng = check_random_state(random_state)

    def seed():
        return int(rng.randint(_SEED_LIMIT))

    everyone = np.arange(n_samples)
    groups = [_splits(everyone, y_array, stratified, n_splits, n_train, n_test, seed())]
    halves = []
    for _ in range(n_pairs):
        [(first, second)] = _splits(everyone, y_array, stratified, 1, half_size, half_size, seed())
        halves.append((first, second))
        groups += [_splits(half, y_array, stratified, n_splits, n_train, n_test, seed()) for half in (first, second)]
    return PairedSubsamplingPlan(
        n_samples=n_samples, n_pairs=n_pairs, n_splits=n_splits, n_train=n_train, n_test=n_test,
        half_size=half_size, stratified=stratified,
        train=readonly_array(np.array([[train for train, _ in group] for group in groups]), np.intp),
        test=readonly_array(np.array([[test for _, test in group] for group in groups]), np.intp),
        halves=readonly_array(np.array(halves), np.intp),
    )


@validate_params(n_pairs=N_PAIRS, n_rounds=Integer(minimum=1), test_size=TEST_SIZE, stratify=Boolean(),
                 loss=LossSpec(), random_state=Seed(), n_jobs=Jobs(), verbose=VERBOSE)
@fill_doc
def paired_subsampling(estimator, X, y, *, n_pairs=10, n_rounds=15, test_size=0.2, loss="zero_one", estimator_b=None,
                       stratify=True, random_state=None, n_jobs=None, verbose=0):
    """Nadeau & Bengio's paired subsampling: random splits of all the data and of M pairs of disjoint halves.

    Draws every split first (:func:`plan_paired_subsampling`), then fits a
    clone of every learner to the training part of every split and records
    its loss on every test instance, in one pool of fits. Both learners are
    fitted on identical splits. :func:`conservative_z_interval_of` computes
    the conservative Z interval from the record.

    Parameters
    ----------
    estimator : estimator instance
        Any object with ``fit`` and ``predict`` (``predict_proba`` for a
        probability loss); it is cloned, never fitted.
    %(X)s
    y : array-like of shape (n_samples,)
        Class labels for a classification loss, numbers for a regression loss.
    n_pairs : int, default=10
        M, the number of random pairs of disjoint halves, at least 2: one
        pair gives a variance estimate with one degree of freedom, which the
        conservative Z's normal quantile would treat as known.
    n_rounds : int, default=15
        J, the number of random train/test splits of all the data and of
        each half.
    test_size : float, default=0.2
        The share of a half tested in each split, strictly between 0 and 1:
        with h = floor(n / 2) instances in a half, n2 = ceil(test_size * h)
        are tested and n1 = h - n2 train, so n1 + n2 = n / 2, the largest
        the method allows. The default gives n1 = 0.4 n and n2 = 0.1 n.
    loss : str, callable or Loss, default="zero_one"
        Per-instance loss, as in :class:`CVEvaluator`.
    estimator_b : estimator instance or None, default=None
        A second learner, fitted on the same splits.
    stratify : bool, default=True
        Keep the class proportions in every halving and every split when y
        holds class labels (a numeric target is split at random).
    random_state : int, RandomState instance or None, default=None
        Seeds every split, all drawn before any fit, so that with an int the
        result is identical for any ``n_jobs``. It does not seed the estimators.
    %(n_jobs)s
        The fits are J (2 M + 1) per learner.
    verbose : int, default=0
        1: a progress line on standard error while the models are fitted
        (fits done of all, time spent, time left); 2 and more: also the
        joblib pool's messages. The result does not depend on it.

    Returns
    -------
    PairedSubsamplingResult

    See Also
    --------
    conservative_z_interval : this function and :func:`conservative_z_interval_of` in one call.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation import paired_subsampling
    >>> X, y = load_iris(return_X_y=True)
    >>> result = paired_subsampling(GaussianNB(), X, y, n_pairs=2, n_rounds=3, random_state=0)
    >>> result.losses.shape, result.n_train, result.n_test, result.half_size
    ((1, 5, 3, 15), 60, 15, 75)
    """
    estimators, names = ([estimator], ["estimator"]) if estimator_b is None else (
        [estimator, estimator_b], ["estimator", "estimator_b"])
    X, y, _, y_array, loss = prepare_loss_data(estimators, names, X, y, get_loss(loss))
    plan = plan_paired_subsampling(y_array, n_pairs=n_pairs, n_splits=n_rounds, test_size=test_size,
                                   stratified=bool(stratify and loss.classification), random_state=random_state)
    n_groups = plan.test.shape[0]
    cells = [(e, g, j) for e in range(len(estimators)) for g in range(n_groups) for j in range(n_rounds)]
    tasks = [FitTask(e, plan.where(g, j), plan.train[g, j], plan.test[g, j]) for e, g, j in cells]
    classes = np.unique(y_array) if loss.classification else None
    proba_loss = (loss, y_array, classes) if loss.needs_proba else None
    losses = np.empty((len(estimators), n_groups, n_rounds, plan.n_test))

    def collect(index, output):
        predictions, proba_losses = output
        e, g, j = cells[index]
        losses[e, g, j] = proba_losses if loss.needs_proba else loss(y_array[plan.test[g, j]], predictions)

    run_fits(estimators, X, y, tasks, names=names, n_jobs=n_jobs, verbose=verbose, proba_loss=proba_loss,
             collect=collect)
    return PairedSubsamplingResult(
        test_indices=plan.test, losses=losses, halves=plan.halves, n_samples=plan.n_samples, n_train=plan.n_train,
        stratified=plan.stratified, loss_name=loss.name,
        estimator_reprs=tuple(estimator_description(e) for e in estimators))
