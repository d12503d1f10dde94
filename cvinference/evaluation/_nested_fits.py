"""Nested cross-validation's fits: every outer fold's model and the inner cross-validation beside it.

Bates, Hastie & Tibshirani (2023, Algorithm 1) run, in each of R random
K-fold partitions, K outer fits (all folds but k, tested on fold k) and, for
every outer fold k, an inner cross-validation on the other K - 1 folds (fold
k' tested by the model fitted to the K - 2 folds other than k and k'). The
model fitted without folds k and k' serves two inner cross-validations: it
tests fold k' for outer fold k and fold k for outer fold k'. It is fitted
once, so a repeat costs K + K(K - 1)/2 fits instead of K + K(K - 1).

The losses are kept in a :class:`NestedCVResult`; the statistics computed
from them live in the inference layer (:func:`cvinference.inference.nested_cv_interval_of`).
"""

import numpy as np

from .._utils._describe import estimator_description
from .._utils._docstring import fill_doc
from .._utils._params import VERBOSE, Integer, Jobs, Seed, validate_params
from .._utils._validation import is_classifier_like, is_regressor_like
from ..records import NestedCVResult
from ..records._losses import get_loss
from ..records._nested_cv_result import N_REPEATS, N_SPLITS, check_groups_per_fold, groups_per_fold_fix
from ._fit_task import FitTask
from ._loss_data import LossSpec, prepare_loss_data
from ._nested_reuse import record_groups, reused_folds
from ._partitions import draw_partitions
from ._scheduler import run_fits


class _SplitsForNesting(Integer):
    """``n_splits``: K >= 3, because each inner cross-validation splits K - 1 folds."""

    def __init__(self):
        super().__init__(minimum=3)

    def describe(self):
        return ("an integer >= 3 (each outer fold's inner cross-validation is a cross-validation on the other "
                "n_splits - 1 folds, and needs at least 2 of them)")


class _NestedTasks:
    """The :class:`FitTask` of every nested fit of some estimators, made on access.

    Within a repeat, fit ``(k, None)`` is outer fold k and fit ``(k, k2)``
    (k < k2) leaves out folds k and k2; the estimators' fits follow one
    another, repeat by repeat. Without ``outer``, the outer fits are left
    out (their losses are known).
    """

    def __init__(self, partitions, n_estimators, outer=True):
        self._partitions = partitions
        n_splits = partitions.n_splits
        self._left_out = [(k, None) for k in range(n_splits) if outer] + [
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


def check_same_task(estimator, estimator_b, names=("estimator", "estimator_b")):
    """Refuse two estimators of which one is a classifier and the other a regressor (``names``: their parameters)."""
    kinds = [("classifier" if is_classifier_like(e) else "regressor" if is_regressor_like(e) else None)
             for e in (estimator, estimator_b)]
    first, second = names
    if None not in kinds and kinds[0] != kinds[1]:
        raise ValueError(
            f"{second} must do the same task as {first}, so that their losses can be subtracted; got "
            f"{first}={estimator_description(estimator)}, a {kinds[0]}, and "
            f"{second}={estimator_description(estimator_b)}, a {kinds[1]}. Pass two classifiers or two "
            "regressors."
        )


def _check_fold_sizes(n_samples, n_splits, groups):
    """Refuse folds of one instance (or group): the spread of a fold's losses (b_k) needs two."""
    if groups is not None:
        n_groups = np.unique(groups).size
        if n_groups < 2 * n_splits:
            raise ValueError(
                f"nested cross-validation with groups needs at least 2 groups in every fold (the cluster-robust "
                f"variance of a fold's mean loss enters its estimate), but groups holds {n_groups} groups with "
                f"n_splits={n_splits}. {groups_per_fold_fix(n_groups)}"
            )
        return
    if n_samples < 2 * n_splits:
        raise ValueError(
            f"nested cross-validation needs at least 2 instances in every fold (the variance of a fold's "
            f"losses enters its estimate), but n_samples={n_samples} with n_splits={n_splits} gives folds of "
            f"1. Pass n_splits <= {max(n_samples // 2, 1)}."
        )


@validate_params(n_splits=_SplitsForNesting(), n_repeats=Integer(minimum=1), loss=LossSpec(), random_state=Seed(),
                 n_jobs=Jobs(), verbose=VERBOSE)
@fill_doc
def nested_cross_validation(estimator, X, y, *, n_splits=N_SPLITS, n_repeats=N_REPEATS, loss="zero_one",
                            estimator_b=None, groups=None, cv_result=None, random_state=None, n_jobs=None, verbose=0):
    """Run nested cross-validation: every instance's outer and inner losses, in one pool of fits.

    Bates, Hastie & Tibshirani (2023, Algorithm 1): in each of R random
    partitions into K folds, each outer fold k is tested by the model fitted
    to the other folds, and the other K - 1 folds are cross-validated
    among themselves (the inner cross-validation of outer fold k). With
    ``estimator_b`` both learners are fitted on identical folds.
    :func:`nested_cv_interval_of` computes the interval from the record.

    Parameters
    ----------
    estimator : estimator instance
        Any object with ``fit`` and ``predict`` (and ``predict_proba`` for a
        loss that needs it); it is cloned, never fitted.
    %(X)s
    y : array-like of shape (n_samples,)
        The target: class labels, or numbers for a regressor.
    n_splits : int, default=5
        K, the folds of every partition; at least 3, since each outer
        fold's inner cross-validation splits the other K - 1 folds. Every
        fold needs at least 2 instances.
    n_repeats : int, default=5
        R, the random partitions. The defaults (K = 5, R = 5: 75 fits per
        learner) are the cheapest configuration whose one-learner interval
        covered at least 0.93 in every cell of the calibration's (K, R)
        grid (docs/calibration.md, "Nested cross-validation: folds and
        repeats"); its difference interval kept the type-I error at or
        below 0.06 in every cell but one (logistic regression at N = 100:
        0.064, and no K or R of the grid did better there). More repeats
        make the estimate of the mean squared error steadier and the
        interval a little narrower (K = 5: mean width 0.181 at R = 5, 0.170
        at R = 25; its spread over samples 0.052 and 0.032), at
        K (K + 1) / 2 fits each; K = 10 costs 55 fits a repeat against 15
        and covered less at R = 5. The authors' R package ``nestedcv``
        defaults to K = 10, R = 50 (2,750 fits).
    loss : str, callable or Loss, default="zero_one"
        The per-instance loss, as in :func:`cross_val_correctness`:
        ``"zero_one"``, ``"log_loss"``, ``"brier"``, ``"squared_error"``,
        ``"absolute_error"``, a callable or :func:`make_loss`.
    estimator_b : estimator instance or None, default=None
        A second learner, of the same task, fitted on the same folds.
    groups : array-like of shape (n_samples,) or None, default=None
        Each instance's group (a patient, a subject, a site): every
        partition then keeps each group whole in one fold, so that no outer
        or inner model is tested on a group it was trained on, and the
        record keeps the groups. Every fold needs at least 2 groups, so at
        least 2 ``n_splits`` groups are needed.
    cv_result : CVResult, PairedCVResult or None, default=None
        A cross-validation of the same learner (with ``estimator_b``: of
        both, a :class:`PairedCVResult`) on the same data, with ``n_splits``
        folds and at least ``n_repeats`` repeats, recording ``loss``: its
        first ``n_repeats`` partitions become nested cross-validation's and
        its losses the outer losses, so that no outer model is fitted again
        (K (K - 1) / 2 fits per learner and repeat instead of
        K (K + 1) / 2). ``random_state`` then draws nothing; ``groups``
        default to the record's. The record's learners must be these (by
        the short description it keeps: a search's grid values are not
        in it), its targets y, and each of its models must have been
        trained on all the folds but its test fold (any K-fold splitter of
        this package or scikit-learn, not hand-made splits with smaller
        training sets).
    random_state : int, RandomState instance or None, default=None
        Seeds the partitions: repeat r uses
        :class:`StratifiedEqualSizeKFold` (for classifiers;
        :class:`EqualSizeKFold` otherwise) with the r-th seed drawn from it,
        as :func:`cross_val_correctness` with ``cv=n_splits,
        n_repeats=n_repeats`` does, so the outer losses are that call's
        ``loss``. With ``groups``, repeat r uses
        :class:`StratifiedEqualSizeGroupKFold` (for classifiers;
        otherwise the same search balancing the fold sizes only) with
        ``shuffle=True`` and the same r-th seed. It does not seed the
        estimators.
    %(n_jobs)s
        The result does not depend on it.
    verbose : int, default=0
        1: a progress line on standard error while the models are fitted
        (fits done of all, time spent, time left); 2 and more: also the
        joblib pool's messages. The result does not depend on it.

    Returns
    -------
    NestedCVResult
        The folds, the groups and every outer and inner loss; ``n_fits`` says how many
        models the record rests on: K (K + 1) / 2 per learner and repeat (the
        model fitted without folds k and k' serves the inner
        cross-validations of outer folds k and k'); with ``cv_result``, K of
        them per repeat are that record's and are not fitted again.

    See Also
    --------
    nested_cv_interval : this function and :func:`nested_cv_interval_of` in one call.

    Notes
    -----
    The inner cross-validation of outer fold k is made of the other outer
    folds (Bates, Hastie & Tibshirani 2023, Algorithm 1): fold k' is
    tested by the model fitted to the folds other than k and k'. Outer
    folds that keep every group whole therefore give inner folds that do
    too; no other splitter is needed.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation import nested_cross_validation
    >>> X, y = load_iris(return_X_y=True)
    >>> result = nested_cross_validation(GaussianNB(), X, y, n_splits=3, n_repeats=2, random_state=0)
    >>> result.outer.shape, result.inner.shape, result.n_fits
    ((1, 2, 150), (1, 2, 3, 150), 12)
    >>> print(result.summary().splitlines()[0])
    nested cross-validation: 2 partitions into 3 folds, n = 150, 12 fits
    """
    estimators = [estimator] if estimator_b is None else [estimator, estimator_b]
    names = ["estimator", "estimator_b"][:len(estimators)]
    if len(estimators) == 2:
        check_same_task(*estimators)
    if cv_result is not None and groups is None:
        groups = record_groups(cv_result)
    X, y, groups, y_array, loss = prepare_loss_data(estimators, names, X, y, get_loss(loss), groups)
    reused = None if cv_result is None else reused_folds(cv_result, estimators, names, y_array, loss, groups,
                                                         n_splits, n_repeats)
    _check_fold_sizes(y_array.size, n_splits, groups)
    classifier = all(is_classifier_like(e) for e in estimators)
    partitions = reused.partitions if reused is not None else draw_partitions(
        n_splits, X, y_array, groups, n_repeats=n_repeats, random_state=random_state, classifier=classifier)
    if groups is not None:  # before any fit: unequal groups can leave a fold with one
        check_groups_per_fold(groups, partitions.fold, n_splits)
    classes = np.unique(y_array) if loss.classification else None
    n_samples = y_array.size
    outer = np.full((len(estimators), n_repeats, n_samples), np.nan) if reused is None else reused.outer
    inner = np.full((len(estimators), n_repeats, n_splits, n_samples), np.nan)
    tasks = _NestedTasks(partitions, len(estimators), outer=reused is None)

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

    run_fits(estimators, X, y, tasks, names=names, n_jobs=n_jobs, verbose=verbose,
             proba_loss=(loss, y_array, classes) if loss.needs_proba else None, collect=keep)
    return NestedCVResult(fold=partitions.fold, outer=outer, inner=inner, loss_name=loss.name,
                          estimator_reprs=tuple(estimator_description(e) for e in estimators),
                          cv_repr=partitions.cv_repr, groups=groups)
