"""One fit and its predictions: the unit of work every parallel pool runs."""

from typing import NamedTuple, Optional

import numpy as np
from sklearn.utils import _safe_indexing

from ..records._losses import proba_in_class_order


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
    train: Optional[np.ndarray]
    test: Optional[np.ndarray]


def add_context(exc, message):
    """Append ``message`` to an exception without changing its type."""
    if hasattr(exc, "add_note"):
        exc.add_note(message)
    elif exc.args and isinstance(exc.args[0], str):
        exc.args = (f"{exc.args[0]}\n{message}",) + exc.args[1:]


def _rows(X, indices):
    return X if indices is None else _safe_indexing(X, indices)


def fit_and_predict(estimator, X, y, train, test, *, where, name="estimator", proba_loss=None):
    """Fit on ``train``; return the predictions for ``test`` and, for a probability loss, their losses.

    ``train`` or ``test`` None means every row. ``proba_loss`` is
    ``(loss, y_true, classes)`` when the loss needs ``predict_proba``: the
    columns are lined up with ``classes`` through the fitted model's
    ``classes_``, so a class missing from the training rows gets probability
    0. A failure is re-raised with a note naming ``name`` and ``where``.
    """
    step = "fitting"
    try:
        estimator.fit(_rows(X, train), _rows(y, train))
        n_test = len(y) if test is None else len(test)
        if n_test == 0:
            return np.empty(0), None
        step = "predicting with"
        X_test = _rows(X, test)
        predictions = np.asarray(estimator.predict(X_test))
        if predictions.shape != (n_test,):
            raise ValueError(
                f"{type(estimator).__name__}.predict returned shape {predictions.shape} for "
                f"{n_test} test instances; one prediction per instance is needed."
            )
        if proba_loss is None:
            return predictions, None
        loss, y_true, classes = proba_loss
        proba = proba_in_class_order(np.asarray(estimator.predict_proba(X_test)), estimator.classes_, classes)
        return predictions, loss(_rows(y_true, test), proba, classes)
    except Exception as exc:
        n_train = len(y) if train is None else len(train)
        n_test = len(y) if test is None else len(test)
        add_context(exc, f"cvinference: {step} {name} failed on {where} ({n_train} training, {n_test} test instances).")
        raise
