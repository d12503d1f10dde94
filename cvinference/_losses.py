"""Per-instance losses the evaluator can record."""

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Loss:
    """A per-instance loss.

    Attributes
    ----------
    name : str
        The name users pass as ``loss=``.
    classification : bool
        True when the loss compares class labels; y must then be class labels.
    function : callable
        ``function(y_true, y_pred) -> ndarray`` of per-instance losses.
    """

    name: str
    classification: bool
    function: Callable[[np.ndarray, np.ndarray], np.ndarray]

    def __call__(self, y_true, y_pred):
        return np.asarray(self.function(y_true, y_pred), dtype=np.float64)


def _zero_one(y_true, y_pred):
    return np.not_equal(y_true, y_pred)


def _squared_error(y_true, y_pred):
    return np.square(np.subtract(y_true, y_pred, dtype=np.float64))


def _absolute_error(y_true, y_pred):
    return np.abs(np.subtract(y_true, y_pred, dtype=np.float64))


LOSSES = {
    loss.name: loss
    for loss in (
        Loss("zero_one", True, _zero_one),
        Loss("squared_error", False, _squared_error),
        Loss("absolute_error", False, _absolute_error),
    )
}


def get_loss(loss):
    """Return the :class:`Loss` named ``loss``, or raise naming the choices."""
    if isinstance(loss, Loss):
        return loss
    if isinstance(loss, str) and loss in LOSSES:
        return LOSSES[loss]
    raise ValueError(f"loss={loss!r} is not supported; choose one of {sorted(LOSSES)}.")
