"""One fit and its predictions: the unit of work every parallel pool runs."""

from typing import NamedTuple

import numpy as np
from sklearn.utils import _safe_indexing

from ..records._losses import proba_in_class_order
from ._fit_params import fold_fit_params
from ._scores import fold_scores, no_scores, scores_from_proba

_SCORE_BLOCK_ROWS = 16384
"""Rows predicted at once when a model is scored on many rows in the worker."""


class ScoredRows(NamedTuple):
    """Rows ``start <= i < stop`` of X, except the ``excluded`` ones: where a fitted model is scored in the worker.

    The rows are never listed one by one, so a task that scores a model on
    the rest of a population of 10^5 rows carries two numbers and the (small)
    excluded indices, not 10^5 of them.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.evaluation._fit_task import ScoredRows
    >>> ScoredRows(0, 10, excluded=np.array([2, 5])).count
    8
    """

    start: int
    stop: int
    excluded: np.ndarray | None = None

    @property
    def count(self):
        """The number of rows scored."""
        excluded = 0 if self.excluded is None else int(np.count_nonzero(
            (self.excluded >= self.start) & (self.excluded < self.stop)))
        return self.stop - self.start - excluded

    def blocks(self, size=_SCORE_BLOCK_ROWS):
        """The rows as ascending index arrays of at most ``size`` rows (after exclusion)."""
        excluded = np.zeros(0, dtype=np.intp) if self.excluded is None else np.asarray(self.excluded)
        for first in range(self.start, self.stop, size):
            rows = np.arange(first, min(first + size, self.stop))
            kept = rows[~np.isin(rows, excluded)]
            if kept.size:
                yield kept


class LossMoments(NamedTuple):
    """Count, mean and sum of squared deviations of per-instance losses.

    Two of them merge exactly into the moments of the union (Chan, Golub &
    LeVeque 1979, the pairwise update of the mean and of M2), so blocks are
    summarised one at a time.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.evaluation._fit_task import LossMoments
    >>> losses = np.array([0.0, 1.0, 1.0, 0.0, 1.0])
    >>> merged = LossMoments.of(losses[:2]).merged(LossMoments.of(losses[2:]))
    >>> merged.n, merged.mean, round(merged.std, 6) == round(float(losses.std()), 6)
    (5, 0.6, True)
    """

    n: int
    mean: float
    m2: float

    @classmethod
    def of(cls, losses):
        losses = np.asarray(losses, dtype=np.float64)
        if losses.size == 0:
            return cls(0, 0.0, 0.0)
        mean = float(losses.mean())
        return cls(int(losses.size), mean, float(np.square(losses - mean).sum()))

    def merged(self, other):
        n = self.n + other.n
        if n == 0:
            return self
        delta = other.mean - self.mean
        mean = self.mean + delta * other.n / n
        return LossMoments(n, mean, self.m2 + other.m2 + delta * delta * self.n * other.n / n)

    @property
    def std(self):
        """The standard deviation with divisor n (the loss's spread over these rows)."""
        return float(np.sqrt(self.m2 / self.n)) if self.n else float("nan")


class FitTask(NamedTuple):
    """One fit that :func:`~cvinference.evaluation._scheduler.run_fits` runs: which clone, on which rows.

    Every refitting scheme (k-fold, leave-one-out, 5x2cv, the bootstrap,
    holdout, random subsampling) describes its fits as ``FitTask`` items.

    Attributes
    ----------
    estimator : int
        Index of the estimator (in the ``estimators`` passed to ``run_fits``)
        of which a fresh clone is fitted.
    where : str
        What the fit is, for error messages ("fold 3 of repeat 0").
    train : ndarray of int or None
        Indices of the training rows; None means every row.
    test : ndarray of int or None
        Indices of the rows to predict; None means every row.
    scored : ScoredRows or None
        Rows on which the fitted model is also scored in the worker, block by
        block; the output then has a third item, their :class:`LossMoments`.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.evaluation._fit_task import FitTask
    >>> task = FitTask(0, "round 0", train=np.array([0, 1, 2]), test=np.array([3, 4]))
    >>> task.estimator, task.where, task.test.tolist()
    (0, 'round 0', [3, 4])
    """

    estimator: int
    where: str
    train: np.ndarray | None
    test: np.ndarray | None
    scored: ScoredRows | None = None


def add_context(exc, message):
    """Append ``message`` to an exception without changing its type."""
    if hasattr(exc, "add_note"):
        exc.add_note(message)
    elif exc.args and isinstance(exc.args[0], str):
        exc.args = (f"{exc.args[0]}\n{message}",) + exc.args[1:]


def _rows(X, indices):
    if indices is None:
        return X
    if isinstance(X, np.ndarray):  # what _safe_indexing does for arrays, without its checks for data frames
        return X[indices]
    return _safe_indexing(X, indices)


def _predictions(estimator, X_test, n_test):
    predictions = np.asarray(estimator.predict(X_test))
    if predictions.shape != (n_test,):
        raise ValueError(
            f"{type(estimator).__name__}.predict returned shape {predictions.shape} for "
            f"{n_test} test instances; one prediction per instance is needed."
        )
    return predictions


def _proba(estimator, X_rows, classes):
    return proba_in_class_order(np.asarray(estimator.predict_proba(X_rows)), estimator.classes_, classes)


def _losses(estimator, X_rows, y_rows, loss, classes):
    """Per-instance losses of a fitted model on some rows."""
    if loss.needs_proba:
        return loss(y_rows, _proba(estimator, X_rows, classes), classes)
    return loss(y_rows, _predictions(estimator, X_rows, len(y_rows)))


def _test_losses_and_scores(estimator, X_test, test, proba_loss, response):
    """The losses of a probability loss (or None) and the scores ``response`` asks for (or None).

    ``predict_proba`` is called once when both need it.
    """
    losses = scores = proba = None
    if proba_loss is not None:
        loss, y_true, classes = proba_loss
        proba = _proba(estimator, X_test, classes)
        losses = loss(_rows(y_true, test), proba, classes)
    if response is not None:
        method, classes = response
        same = proba is not None and method == "predict_proba" and np.array_equal(classes, proba_loss[2])
        scores = scores_from_proba(proba) if same else fold_scores(estimator, X_test, response)
    return losses, scores


def _scored_moments(estimator, X, y, scored, score_loss):
    """The loss moments of a fitted model on the rows ``scored``, one block at a time."""
    loss, classes = score_loss
    moments = LossMoments(0, 0.0, 0.0)
    for rows in scored.blocks():
        moments = moments.merged(LossMoments.of(_losses(estimator, _rows(X, rows), _rows(y, rows), loss, classes)))
    return moments


def fit_and_predict(estimator, X, y, train, test, *, where, name="estimator", proba_loss=None, scored=None,
                    score_loss=None, response=None, fit_params=None):
    """Fit on ``train``; return the predictions for ``test`` and, for a probability loss, their losses.

    ``train`` or ``test`` None means every row. ``proba_loss`` is
    ``(loss, y_true, classes)`` when the loss needs ``predict_proba``: the
    columns are lined up with ``classes`` through the fitted model's
    ``classes_``, so a class missing from the training rows gets probability
    0. With ``response`` (``(method, classes)``, see
    :mod:`~cvinference.evaluation._scores`), the same fitted model's scores
    for ``test`` follow as a third item (float64, columns in the order of
    ``classes``). With ``scored`` (a :class:`ScoredRows`) and ``score_loss``
    (``(loss, classes)``), the fitted model is also scored on those rows and
    their :class:`LossMoments` follow as the last item. ``fit_params``
    go to ``fit`` (``_fit_params.fold_fit_params``). A failure is re-raised with a
    note naming ``name`` and ``where``.
    """
    step = "fitting"
    try:
        estimator.fit(_rows(X, train), _rows(y, train), **fold_fit_params(fit_params, train, len(y), _rows))
        n_test = len(y) if test is None else len(test)
        step = "predicting with"
        if n_test == 0:
            predictions, losses, scores = np.empty(0), None, None if response is None else no_scores(response[1])
        else:
            X_test = _rows(X, test)
            predictions = _predictions(estimator, X_test, n_test)
            losses, scores = _test_losses_and_scores(estimator, X_test, test, proba_loss, response)
        output = (predictions, losses) if response is None else (predictions, losses, scores)
        if scored is None:
            return output
        step = "scoring"
        return (*output, _scored_moments(estimator, X, y, scored, score_loss))
    except Exception as exc:
        n_train = len(y) if train is None else len(train)
        n_test = len(y) if test is None else len(test)
        add_context(exc, f"cvinference: {step} {name} failed on {where} ({n_train} training, {n_test} test instances).")
        raise
