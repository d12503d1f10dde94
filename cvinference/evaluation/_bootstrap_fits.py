"""The bootstrap's fits: draw the samples, fit each, predict its out-of-bag rows.

The statistics computed from these predictions (out-of-bag, .632, .632+) live
in the inference layer (:func:`cvinference.bootstrap_accuracy`).
"""

import dataclasses

import numpy as np
from sklearn.utils import check_random_state

from .._utils._arrays import python_scalar
from ._fit_task import FitTask
from ._scheduler import run_fits


@dataclasses.dataclass(frozen=True)
class BootstrapFits:
    """What the fits of :func:`fit_bootstraps` gave.

    Attributes
    ----------
    resubstitution_predictions : ndarray of shape (n_samples,)
        Predictions on every row of the model fitted to all of them.
    out_of_bag : list of ndarray of int
        For each bootstrap sample, the (ascending) indices it left out.
    out_of_bag_predictions : list of ndarray
        For each bootstrap sample, the predictions of the model fitted to it
        on its ``out_of_bag`` rows.
    """

    resubstitution_predictions: np.ndarray
    out_of_bag: list
    out_of_bag_predictions: list


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


def fit_bootstraps(estimator, X, y, y_array, *, n_bootstraps, stratify, random_state, n_jobs):
    """Fit a clone to all the data and one to each bootstrap sample, in one call of :func:`run_fits`.

    Parameters
    ----------
    estimator : estimator instance
        Cloned for each fit, never fitted.
    X, y : array-like
        The data, already validated.
    y_array : ndarray of shape (n_samples,)
        The labels as an array (what :func:`bootstrap_indices` stratifies on).
    n_bootstraps : int
    stratify : bool
        Draw every sample within classes (see :func:`bootstrap_indices`).
    random_state : int, RandomState instance or None
        Seeds the samples, all drawn before any fit, so that the result does
        not depend on ``n_jobs``.
    n_jobs : int or None

    Returns
    -------
    BootstrapFits

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation._bootstrap_fits import fit_bootstraps
    >>> X, y = load_iris(return_X_y=True)
    >>> fits = fit_bootstraps(GaussianNB(), X, y, y, n_bootstraps=3, stratify=False, random_state=0, n_jobs=1)
    >>> fits.resubstitution_predictions.shape, len(fits.out_of_bag_predictions)
    ((150,), 3)
    >>> all(p.shape == left_out.shape for p, left_out in zip(fits.out_of_bag_predictions, fits.out_of_bag))
    True
    """
    n_samples = y_array.size
    indices = bootstrap_indices(y_array, n_bootstraps, stratify=stratify, random_state=random_state)
    out_of_bag = [_left_out(row, n_samples) for row in indices]
    tasks = [FitTask(0, _bootstrap_where(None, y_array), None, None)] + [
        FitTask(0, _bootstrap_where(b, y_array[train]), train, test)
        for b, (train, test) in enumerate(zip(indices, out_of_bag))
    ]
    predictions = [prediction for prediction, _ in run_fits([estimator], X, y, tasks, names=["estimator"],
                                                            n_jobs=n_jobs)]
    return BootstrapFits(resubstitution_predictions=predictions[0], out_of_bag=out_of_bag,
                         out_of_bag_predictions=predictions[1:])
