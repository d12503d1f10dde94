"""Exact leave-one-out predictions without n refits.

Two scikit-learn classifiers admit a leave-one-out shortcut whose predictions
are those of refitting a clone on the other n - 1 rows:

- ``KNeighborsClassifier``: one fit on all n rows and one query of k + 2
  neighbours per row; dropping the row itself leaves the k neighbours the
  refit would find.
- ``GaussianNB``: the per-class means and variances (and the overall
  variances that set ``epsilon_``) of the n - 1 other rows follow from the
  full-data moments by the standard one-point mean/variance downdate, the
  inverse of the pairwise update of Chan, Golub & LeVeque (1979) that
  ``GaussianNB.partial_fit`` uses.

Rows whose brute-force result could depend on tie order or on floating-point
rounding are detected and refitted by brute force, so that every prediction
equals the brute-force one.

References
----------
Chan, T. F., Golub, G. H. & LeVeque, R. J. (1979). Updating formulae and a
pairwise algorithm for computing sample variances. Technical Report
STAN-CS-79-773, Stanford University.

Welford, B. P. (1962). Note on a method for calculating corrected sums of
squares and products. Technometrics, 4(3), 419-420.
"""

import typing
from numbers import Integral, Real

import numpy as np
from scipy import sparse
from scipy.special import logsumexp
from sklearn.base import clone
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils.multiclass import type_of_target

# Relative size, against a first-order bound on the rounding of the scores,
# below which two scores (or distances) count as tied.
_RTOL = 1e-9

# A downdated sum of squares (plus what is added to it before use) smaller
# than this fraction of the original has lost too many digits to be trusted.
_CANCELLATION = 1e-5

# Elements per (rows, classes, features) block of the GaussianNB scores.
_BLOCK_ELEMENTS = 2**18

# Effective metrics that sklearn's brute-force search computes from dot
# products, |x|^2 - 2 x.y + |y|^2 or 1 - x.y / (|x| |y|): their rounding is
# relative to the norms, not to the distance.
_DOT_PRODUCT_METRICS = ("euclidean", "sqeuclidean", "cosine")


class _Shortcut(typing.NamedTuple):
    """Leave-one-out scores from the shortcut, before brute-force repairs.

    Attributes
    ----------
    scores : ndarray of shape (n_samples, n_classes)
        Whose row-wise argmax is the prediction (votes or log likelihoods).
    proba : ndarray of shape (n_samples, n_classes)
        The matching ``predict_proba``.
    suspect : ndarray of bool, shape (n_samples,)
        Rows to recompute by brute force.
    """

    scores: np.ndarray
    proba: np.ndarray
    suspect: np.ndarray


def fast_loo_predictions(estimator, X, y, *, need_proba=False):
    """Leave-one-out predictions of ``estimator`` without n refits, or None.

    Parameters
    ----------
    estimator : estimator
        Not fitted or modified; a clone is used.
    X : array-like or scipy sparse matrix of shape (n_samples, n_features)
        Features: an array, a list of rows, a DataFrame or a sparse matrix;
        anything that is not numeric once made an array falls back to refits.
    y : ndarray of shape (n_samples,)
        Class labels.
    need_proba : bool, default=False
        Whether to return the leave-one-out ``predict_proba`` as well.

    Returns
    -------
    tuple of (ndarray, ndarray or None), or None
        None when no exact shortcut applies (any estimator other than a
        plain ``KNeighborsClassifier`` or ``GaussianNB``, e.g. a Pipeline, a
        subclass, a callable ``weights``, ``metric="precomputed"``, more
        neighbours than other rows, ``GaussianNB`` with ``priors``, sparse or
        low-precision float X for ``GaussianNB``, y not 1-d class labels,
        fewer than 2 rows): the caller then refits by brute force.
        Otherwise ``(predictions, proba)``: ``predictions`` of shape
        (n_samples,) with y's labels and dtype, ``proba`` None unless
        ``need_proba``, else of shape (n_samples, n_classes) with columns in
        the order of ``numpy.unique(y)``. A class absent from a row's
        training set (a singleton class left out) has probability 0 there.

    Notes
    -----
    Predictions equal those of ``cross_val_predict(estimator, X, y,
    cv=LeaveOneOut())``: rows where the brute-force result could depend on
    tie order or rounding are refitted by brute force. Probabilities agree
    with the brute-force ones up to rounding.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X = np.array([[0.0], [0.2], [0.1], [3.0], [3.3], [2.9]])
    >>> y = np.array([0, 0, 0, 1, 1, 1])
    >>> predictions, proba = fast_loo_predictions(GaussianNB(), X, y)
    >>> predictions
    array([0, 0, 0, 1, 1, 1])
    >>> print(proba)
    None
    """
    shortcut = _SHORTCUTS.get(type(estimator))
    if shortcut is None:
        return None
    if not sparse.issparse(X):
        X = np.asarray(X)
        if X.ndim != 2 or X.dtype.kind not in "biuf":
            return None
    y = np.asarray(y)
    labels = _class_codes(X, y)
    if labels is None:
        return None
    classes, codes = labels
    found = shortcut(estimator, X, codes, classes.size)
    if found is None:
        return None
    predictions = classes[np.argmax(found.scores, axis=1)]
    proba = found.proba if need_proba else None
    for row in np.flatnonzero(found.suspect):
        _refit_row(estimator, X, y, row, classes, predictions, proba)
    return predictions, proba


def _class_codes(X, y):
    """Sorted classes of ``y`` and each row's class index, or None if unusable."""
    if y.ndim != 1 or X.ndim != 2 or X.shape[0] != y.shape[0] or y.shape[0] < 2:
        return None
    if type_of_target(y) not in ("binary", "multiclass"):
        return None
    return np.unique(y, return_inverse=True)


def _refit_row(estimator, X, y, row, classes, predictions, proba):
    """Overwrite ``row``'s prediction (and proba) with a brute-force refit."""
    train = np.delete(np.arange(y.shape[0]), row)
    model = clone(estimator).fit(X[train], y[train])
    predictions[row] = model.predict(X[row : row + 1])[0]
    if proba is not None:
        proba[row] = 0.0
        proba[row, np.searchsorted(classes, model.classes_)] = model.predict_proba(X[row : row + 1])[0]


def _tolerance(dtype):
    """Relative tie tolerance for scores computed in ``dtype``."""
    if not np.issubdtype(dtype, np.floating):
        return _RTOL
    return max(_RTOL, 1e4 * np.finfo(dtype).eps)


def _runner_up(scores):
    """Each row's best and second-best column, and the gap between their scores."""
    n_rows = scores.shape[0]
    if scores.shape[1] == 1:
        zeros = np.zeros(n_rows, dtype=np.intp)
        return zeros, zeros, np.full(n_rows, np.inf)
    top = np.argpartition(-scores, 1, axis=1)
    best, second = top[:, 0], top[:, 1]
    rows = np.arange(n_rows)
    return best, second, scores[rows, best] - scores[rows, second]


# --------------------------------------------------------------------------
# KNeighborsClassifier
# --------------------------------------------------------------------------


class _Neighbours(typing.NamedTuple):
    """Each row's k nearest other rows, as the full-data fit found them.

    Attributes
    ----------
    distances, indices : ndarray of shape (n_samples, k)
    compared : ndarray of shape (n_samples, k)
        The distances on the scale sklearn computes and rounds them on:
        squared for the euclidean metric, else as they are.
    slack : ndarray of shape (n_samples,)
        How far apart two ``compared`` values of the row may be and still
        count as tied.
    rounding : ndarray of shape (n_samples,)
        An additive scale of the rounding of ``compared`` (0 unless brute
        force computes the metric from dot products).
    exact_zeros : bool
        Whether a zero in ``compared`` is exactly zero in any fit (false
        when dot products can round a small distance to 0).
    ambiguous : ndarray of bool, shape (n_samples,)
        Rows whose k nearest others the refit may choose differently.
    """

    distances: np.ndarray
    indices: np.ndarray
    compared: np.ndarray
    slack: np.ndarray
    rounding: np.ndarray
    exact_zeros: bool
    ambiguous: np.ndarray


def _knn_shortcut(estimator, X, codes, n_classes):
    """Leave-one-out votes of a ``KNeighborsClassifier``, or None.

    Notes
    -----
    Suspect rows are those where (a) the k-th and (k+1)-th other neighbours
    are tied in distance, or the row itself was not among its own k + 2
    nearest (more exact duplicates than that), (b) distance weights give a
    near tie between the top two classes, or a neighbour at a distance that
    is zero up to rounding. Ties are judged against ``_RTOL`` times a bound
    on the rounding of the distances. Exact count ties (uniform weights, or
    zero distances) need no refit: the refit breaks them towards the first
    class in sorted order, as ``numpy.argmax`` does.
    """
    params = estimator.get_params()
    weights = params["weights"]
    k = params["n_neighbors"]
    if weights not in (None, "uniform", "distance") or params["metric"] == "precomputed":
        return None
    if not isinstance(k, Integral) or not 1 <= k < X.shape[0]:
        return None
    model = clone(estimator).fit(X, codes)
    neighbours = _loo_neighbours(model, X, k)
    vote_weights, counted = _neighbour_weights(neighbours.distances, weights)
    votes = _votes(codes[neighbours.indices], vote_weights, n_classes)
    suspect = neighbours.ambiguous
    if weights == "distance":
        suspect = suspect | _fragile_distance_votes(neighbours, votes, vote_weights, counted, _tolerance(X.dtype))
    return _Shortcut(votes, votes / votes.sum(axis=1, keepdims=True), suspect)


def _loo_neighbours(model, X, k):
    """The k nearest other rows of each row, from one query of the full fit."""
    n_rows = X.shape[0]
    distances, indices = model.kneighbors(X, n_neighbors=min(n_rows, k + 2))
    distances, indices, found_self = _without_self(distances, indices)
    compared, rounding, exact_zeros = _comparable_distances(model, X, distances, indices)
    slack = _tolerance(X.dtype) * (compared[:, -1] + rounding)
    ambiguous = ~found_self
    if compared.shape[1] > k:
        ambiguous |= compared[:, k] - compared[:, k - 1] <= slack
    return _Neighbours(distances[:, :k], indices[:, :k], compared[:, :k], slack, rounding, exact_zeros, ambiguous)


def _without_self(distances, indices):
    """Drop each row's own index from its neighbour list.

    Returns the distances and indices of the other rows, one column fewer
    (rows that did not find themselves lose their last neighbour), and
    whether each row found itself.
    """
    n_rows, n_found = indices.shape
    is_self = indices == np.arange(n_rows)[:, None]
    found_self = is_self.any(axis=1)
    keep = ~is_self
    keep[~found_self, -1] = False
    shape = (n_rows, n_found - 1)
    return distances[keep].reshape(shape), indices[keep].reshape(shape), found_self


def _comparable_distances(model, X, distances, indices):
    """Distances on the scale they are computed on, and how they round.

    Returns
    -------
    compared : ndarray of shape (n_samples, n_neighbours)
        Squared distances for the euclidean metric (sklearn computes and
        rounds these), the distances otherwise; monotone in the distances.
    rounding : ndarray of shape (n_samples,)
        An additive scale of the rounding of ``compared`` where brute force
        computes it from dot products: the squared norms of the row and of
        its largest-norm neighbour for |x|^2 - 2 x.y + |y|^2, 1 for the
        cosine distance 1 - x.y / (|x| |y|); else 0.
    exact_zeros : bool
        False when ``compared`` comes from dot products, whose rounding can
        give (after clipping at 0) a zero distance between distinct rows.
    """
    metric = model.effective_metric_
    compared = distances**2 if metric == "euclidean" else distances
    # sklearn keeps the algorithm that "auto" resolved to in a private
    # attribute; without it, brute force's wider rounding is assumed, which
    # only sends more rows to be refitted.
    if getattr(model, "_fit_method", "brute") != "brute" or metric not in _DOT_PRODUCT_METRICS:
        return compared, np.zeros(distances.shape[0]), True
    if metric == "cosine":
        return compared, np.ones(distances.shape[0]), False
    if sparse.issparse(X):
        norms = np.asarray(X.multiply(X).sum(axis=1)).ravel()
    else:
        norms = np.einsum("ij,ij->i", X, X, dtype=np.float64)
    return compared, norms + norms[indices].max(axis=1), False


def _neighbour_weights(distances, weights):
    """sklearn's neighbour weights, and whether each row's votes are counts.

    With ``weights="distance"`` a row with a zero distance weighs its
    zero-distance neighbours 1 and the others 0 (sklearn's ``_get_weights``);
    the other rows weigh each neighbour 1 / distance.
    """
    if weights != "distance":
        return np.ones(distances.shape), np.ones(distances.shape[0], dtype=bool)
    with np.errstate(divide="ignore"):
        inverse = 1.0 / distances
    infinite = np.isinf(inverse)
    counted = infinite.any(axis=1)
    inverse[counted] = infinite[counted]
    return inverse, counted


def _votes(neighbour_codes, vote_weights, n_classes):
    """Summed weights per class, added neighbour by neighbour as sklearn does."""
    rows = np.arange(neighbour_codes.shape[0])
    votes = np.zeros((neighbour_codes.shape[0], n_classes))
    for column in range(neighbour_codes.shape[1]):
        votes[rows, neighbour_codes[:, column]] += vote_weights[:, column]
    return votes


def _fragile_distance_votes(neighbours, votes, vote_weights, counted, rtol):
    """Rows whose 1/distance votes rounding could change.

    A neighbour at a distance that is zero up to rounding may be exactly
    zero in one fit and not in the other, which switches sklearn's
    zero-distance rule; and the top two votes may be closer than their
    rounding.
    """
    compared, slack = neighbours.compared, neighbours.slack[:, None]
    near_zero = compared <= slack
    if neighbours.exact_zeros:
        near_zero &= compared > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        relative_rounding = 1.0 + neighbours.rounding[:, None] / compared
    _, _, gap = _runner_up(votes)
    near_tie = ~counted & (gap <= rtol * (vote_weights * relative_rounding).sum(axis=1))
    return near_zero.any(axis=1) | near_tie


# --------------------------------------------------------------------------
# GaussianNB
# --------------------------------------------------------------------------


class _Moments(typing.NamedTuple):
    """Full-data moments that the leave-one-out statistics are downdated from.

    Attributes
    ----------
    counts : ndarray of shape (n_classes,)
    means, variances : ndarray of shape (n_classes, n_features)
        Per class, as ``GaussianNB.fit`` computes them (``np.mean``,
        ``np.var``) before ``epsilon_`` is added.
    total_mean, total_variance : ndarray of shape (n_features,)
        Over all rows.
    magnitude : ndarray of shape (n_features,)
        Largest absolute value of each feature; scales the rounding of any
        mean or variance of it.
    """

    counts: np.ndarray
    means: np.ndarray
    variances: np.ndarray
    total_mean: np.ndarray
    total_variance: np.ndarray
    magnitude: np.ndarray


def _gaussian_nb_shortcut(estimator, X, codes, n_classes):
    """Leave-one-out joint log likelihoods of a ``GaussianNB``, or None.

    Notes
    -----
    For row i of class c, ``GaussianNB.fit`` on the other rows has class c's
    count, mean and variance downdated by x_i (Welford 1962; the inverse of
    the pairwise update of Chan, Golub & LeVeque 1979 in ``partial_fit``),
    the other classes' statistics unchanged, and ``epsilon_`` =
    ``var_smoothing`` times the largest downdated overall variance. A class
    whose only member is row i is absent (log likelihood -inf).

    Suspect rows are those whose downdates cancel too many digits, whose
    model has a zero variance (brute force divides by zero), or whose top
    two log likelihoods are tied within ``_RTOL`` times a first-order bound
    on their rounding.
    """
    params = estimator.get_params()
    var_smoothing = params["var_smoothing"]
    if params["priors"] is not None or sparse.issparse(X):
        return None
    if not isinstance(var_smoothing, Real) or not var_smoothing >= 0:
        return None
    if X.dtype.kind not in "biuf" or (X.dtype.kind == "f" and X.dtype != np.float64):
        return None
    X = np.asarray(X, dtype=np.float64)
    moments = _class_moments(X, codes, n_classes)
    n_rows = X.shape[0]
    scores = np.empty((n_rows, n_classes))
    suspect = np.empty(n_rows, dtype=bool)
    block = max(1, _BLOCK_ELEMENTS // max(1, n_classes * X.shape[1]))
    for start in range(0, n_rows, block):
        rows = slice(start, start + block)
        scores[rows], suspect[rows] = _loo_log_likelihoods(X[rows], codes[rows], moments, var_smoothing, n_rows)
    proba = np.exp(scores - logsumexp(scores, axis=1, keepdims=True))
    return _Shortcut(scores, proba, suspect)


def _class_moments(X, codes, n_classes):
    """The full-data moments of ``X``, per class and overall."""
    members = [X[codes == c] for c in range(n_classes)]
    return _Moments(
        counts=np.bincount(codes, minlength=n_classes).astype(np.float64),
        means=np.array([np.mean(rows, axis=0) for rows in members]),
        variances=np.array([np.var(rows, axis=0) for rows in members]),
        total_mean=np.mean(X, axis=0),
        total_variance=np.var(X, axis=0),
        magnitude=np.abs(X).max(axis=0),
    )


def _downdate(count, mean, variance, x, floor=0.0):
    """Mean and sum of squared deviations after removing ``x`` from a sample.

    Parameters
    ----------
    count : ndarray of shape (n_rows, 1)
        Sample sizes before removal, each at least 2.
    mean, variance : ndarray of shape (n_rows, n_features)
        Mean and (ddof 0) variance before removal.
    x : ndarray of shape (n_rows, n_features)
    floor : float or ndarray of shape (n_rows, 1), default=0.0
        What the caller adds to the downdated sum of squares before use.

    Returns
    -------
    mean, sum_of_squares, cancelled
        After removal; ``sum_of_squares`` is clipped at 0, and ``cancelled``
        marks features where it (plus ``floor``) is below ``_CANCELLATION``
        times the original: its rounding, relative to the original, is then
        too large relative to itself.
    """
    sum_of_squares = count * variance
    new_mean = mean - (x - mean) / (count - 1)
    remaining = np.maximum(sum_of_squares - (x - mean) * (x - new_mean), 0.0)
    return new_mean, remaining, remaining + floor < _CANCELLATION * sum_of_squares


def _loo_epsilon(x, moments, var_smoothing, n_rows):
    """Each row's leave-one-out ``epsilon_``, and whether it is unreliable."""
    if var_smoothing == 0:
        return np.zeros(x.shape[0]), np.zeros(x.shape[0], dtype=bool)
    _, sum_of_squares, cancelled = _downdate(
        np.full((x.shape[0], 1), float(n_rows)), moments.total_mean, moments.total_variance, x
    )
    largest = sum_of_squares.argmax(axis=1)
    unreliable = cancelled[np.arange(x.shape[0]), largest]
    return var_smoothing * sum_of_squares.max(axis=1) / (n_rows - 1), unreliable


def _loo_log_likelihoods(x, own, moments, var_smoothing, n_rows):
    """Joint log likelihoods of rows ``x`` under their leave-one-out models.

    Returns the scores of shape (n_rows_in_block, n_classes) and which rows
    are suspect.
    """
    rows = np.arange(x.shape[0])
    counts, theta, variance, suspect = _loo_models(x, own, moments, var_smoothing, n_rows)
    alone = counts[rows, own] == 0
    variance[rows[alone], own[alone]] = 1.0
    suspect |= (variance == 0).any(axis=(1, 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        log_prior = np.log(counts / (n_rows - 1))
        scores, rounding = _gaussian_log_likelihoods(x, log_prior, theta, variance, moments.magnitude)
    rounding[rows[alone], own[alone]] = 0.0
    best, second, gap = _runner_up(scores)
    suspect |= gap <= _RTOL * (rounding[rows, best] + rounding[rows, second])
    return scores, suspect


def _loo_models(x, own, moments, var_smoothing, n_rows):
    """Class counts, means and smoothed variances fitted without each row of ``x``.

    Returns
    -------
    counts : ndarray of shape (n_rows_in_block, n_classes)
    theta, variance : ndarray of shape (n_rows_in_block, n_classes, n_features)
        ``GaussianNB``'s ``theta_`` and ``var_``; meaningless for a class
        whose count is 0.
    unreliable : ndarray of bool, shape (n_rows_in_block,)
        Rows whose downdates cancelled too many digits.
    """
    rows = np.arange(x.shape[0])
    epsilon, unreliable = _loo_epsilon(x, moments, var_smoothing, n_rows)
    counts = np.tile(moments.counts, (x.shape[0], 1))
    counts[rows, own] -= 1
    theta = np.tile(moments.means, (x.shape[0], 1, 1))
    variance = moments.variances + epsilon[:, None, None]
    present = counts[rows, own] > 0
    rows, own = rows[present], own[present]
    own_count = counts[rows, own][:, None]
    own_mean, own_squares, cancelled = _downdate(
        own_count + 1, moments.means[own], moments.variances[own], x[present], floor=own_count * epsilon[rows, None]
    )
    theta[rows, own] = own_mean
    variance[rows, own] = own_squares / own_count + epsilon[rows, None]
    unreliable[rows] |= cancelled.any(axis=1)
    return counts, theta, variance, unreliable


def _gaussian_log_likelihoods(x, log_prior, theta, variance, magnitude):
    """Joint log likelihoods as ``GaussianNB._joint_log_likelihood``, with a rounding bound.

    Returns
    -------
    scores : ndarray of shape (n_rows, n_classes)
    rounding : ndarray of shape (n_rows, n_classes)
        A first-order bound, in units of the machine epsilon up to a modest
        factor, on the rounding of each score in this computation or in
        sklearn's: the magnitudes of the summed terms, plus the effect of
        rounding the mean and variance of data as large as ``magnitude``.
    """
    log_det = np.log(2.0 * np.pi * variance)
    deviation = np.abs(x[:, None, :] - theta) / np.sqrt(variance)
    quadratic = deviation**2
    scores = log_prior - 0.5 * log_det.sum(axis=2) - 0.5 * quadratic.sum(axis=2)
    relative_magnitude = magnitude / np.sqrt(variance)
    per_feature = 0.5 * np.abs(log_det) + 1.0 + quadratic + relative_magnitude * (1.0 + quadratic + deviation)
    return scores, np.abs(log_prior) + per_feature.sum(axis=2)


_SHORTCUTS = {KNeighborsClassifier: _knn_shortcut, GaussianNB: _gaussian_nb_shortcut}
