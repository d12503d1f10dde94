"""The bootstrap's fits: draw the samples, fit each, predict its out-of-bag rows.

The samples and the correctness of their out-of-bag predictions are kept in a
:class:`BootstrapSamplingResult`; the statistics computed from them
(out-of-bag, .632, .632+) live in the inference layer
(:func:`cvinference.inference.bootstrap_accuracy_of`).
"""

import numpy as np
from sklearn.utils import check_random_state

from .._utils._arrays import python_scalar
from .._utils._describe import estimator_description
from .._utils._docstring import fill_doc
from .._utils._params import VERBOSE, Boolean, Integer, Jobs, Seed, validate_params
from .._utils._validation import (
    check_estimator_methods,
    check_fits_in_memory,
    check_not_regressor,
    prepare_data,
)
from ..records import BootstrapSamplingResult
from ._fit_task import FitTask
from ._scheduler import run_fits


def bootstrap_indices(y, n_bootstraps, *, stratify=False, random_state=None):
    """The training indices of every bootstrap sample, shape (n_bootstraps, n).

    Row b holds n draws with replacement from 0 .. n-1. With ``stratify``,
    position j draws among the instances of y[j]'s class, so every sample has
    y's class counts. The rows are drawn in order from one random generator:
    the first r rows do not depend on ``n_bootstraps``.
    """
    rng = check_random_state(random_state)
    y = np.asarray(y)
    n = y.shape[0]
    check_fits_in_memory({"n_bootstraps": n_bootstraps}, n_bootstraps * n * 8,
                         f"the bootstrap samples ({n} indices of 8 bytes each)")
    if not stratify:
        return rng.randint(0, n, size=(n_bootstraps, n))
    _, codes = np.unique(y, return_inverse=True)
    members = [np.flatnonzero(codes == k) for k in range(codes.max() + 1)]
    indices = np.empty((n_bootstraps, n), dtype=np.intp)
    for b in range(n_bootstraps):
        for member in members:
            indices[b, member] = member[rng.randint(0, member.size, size=member.size)]
    return indices


def _left_out(training_indices, n_samples):
    """The ascending indices of 0 .. n_samples-1 absent from ``training_indices``."""
    left_out = np.ones(n_samples, dtype=bool)
    left_out[training_indices] = False
    return np.flatnonzero(left_out)


def _bootstrap_where(bootstrap, labels):
    """What fit ``bootstrap`` is, for error messages; a sample of one class says how to avoid it."""
    if bootstrap is None:
        return "the full dataset (resubstitution)"
    classes = np.unique(labels)
    if classes.size > 1:
        return f"bootstrap sample {bootstrap}"
    return (f"bootstrap sample {bootstrap}, which holds only class {python_scalar(classes[0])!r} "
            "(stratify=True draws every sample within classes, so that each holds every class)")


@validate_params(n_bootstraps=Integer(minimum=1), stratify=Boolean(), random_state=Seed(), n_jobs=Jobs(),
                 verbose=VERBOSE)
@fill_doc
def bootstrap_sampling(estimator, X, y, *, n_bootstraps=200, stratify=False, random_state=None, n_jobs=None,
                       verbose=0):
    """Fit a classifier to bootstrap samples and predict what each left out; fit one more to all the data.

    Draws ``n_bootstraps`` bootstrap samples (n draws with replacement),
    fits a clone of ``estimator`` to each and predicts the instances the
    sample left out (out of bag); fits one more clone to all the data for the
    resubstitution predictions. All the fits run in one pool.
    :func:`bootstrap_accuracy_of` computes the out-of-bag, .632 and .632+
    accuracies from the record.

    Parameters
    ----------
    estimator : estimator instance
        A classifier with ``fit`` and ``predict``; it is cloned, never fitted.
        Its own ``random_state`` (if any) seeds its fits.
    %(X)s
    y : array-like of shape (n_samples,)
        Class labels (str, int or bool), at least two classes.
    n_bootstraps : int, default=200
        Number of bootstrap samples (Efron & Tibshirani 1997 use 50 to 200).
    stratify : bool, default=False
        Draw every bootstrap sample within classes, so that it has y's class
        counts (no sample lacks a class).
    random_state : int, RandomState instance or None, default=None
        Seeds the bootstrap samples (all drawn before any fit, so with an int
        the result is identical for any ``n_jobs``; the first r samples do
        not depend on ``n_bootstraps``): sample b is row b of
        ``check_random_state(random_state).randint(0, n, size=(n_bootstraps, n))``
        (without ``stratify``). It does not seed the estimator.
    %(n_jobs)s
        The fits are n_bootstraps + 1.
    verbose : int, default=0
        1: a progress line on standard error while the models are fitted
        (fits done of all, time spent, time left); 2 and more: also the
        joblib pool's messages. The result does not depend on it.

    Returns
    -------
    BootstrapSamplingResult

    See Also
    --------
    bootstrap_accuracy : this function and :func:`bootstrap_accuracy_of` in one call.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation import bootstrap_sampling
    >>> X, y = load_iris(return_X_y=True)
    >>> result = bootstrap_sampling(GaussianNB(), X, y, n_bootstraps=3, random_state=0)
    >>> result.sample_indices.shape, result.out_of_bag_correct.shape
    ((3, 150), (3, 150))
    """
    check_estimator_methods(estimator)
    check_not_regressor(estimator, "estimator", "the bootstrap's accuracy compares class predictions")
    X, y, _, y_array = prepare_data(X, y, classification=True, needed_by="the bootstrap's accuracy")
    n_samples = y_array.size
    indices = bootstrap_indices(y_array, n_bootstraps, stratify=stratify, random_state=random_state)
    out_of_bag = [_left_out(row, n_samples) for row in indices]
    tasks = [FitTask(0, _bootstrap_where(None, y_array), None, None)] + [
        FitTask(0, _bootstrap_where(b, y_array[train]), train, test)
        for b, (train, test) in enumerate(zip(indices, out_of_bag, strict=True))
    ]
    predictions = [prediction for prediction, _ in run_fits([estimator], X, y, tasks, names=["estimator"],
                                                            n_jobs=n_jobs, verbose=verbose)]
    correct = np.zeros(indices.shape, dtype=bool)
    for b, (test, prediction) in enumerate(zip(out_of_bag, predictions[1:], strict=True)):
        correct[b, test] = prediction == y_array[test]
    return BootstrapSamplingResult(y_true=y_array, y_pred=predictions[0], sample_indices=indices,
                                   out_of_bag_correct=correct, stratified=stratify,
                                   estimator_repr=estimator_description(estimator))
