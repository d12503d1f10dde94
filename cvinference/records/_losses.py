"""Per-instance losses the evaluator can record."""

import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._utils._params import Boolean, Nullable, Text, validate_params

LOSS_NAME = Text("cost")
"""A loss's name, which reports show."""

NEDELKO_CLIP = (0.001, 0.999)
"""Probability clip of Nedel'ko (2021, section 5) for the log loss."""

SKLEARN_CLIP = (float(np.finfo(np.float64).eps), 1.0 - float(np.finfo(np.float64).eps))
"""Probability clip of ``sklearn.metrics.log_loss`` for float64 probabilities (scikit-learn >= 1.3: the dtype's
machine epsilon, 2.2e-16; before, 1e-15), under which a record's kept scores give scikit-learn's ``neg_log_loss``."""


@dataclass(frozen=True)
class Loss:
    """A per-instance loss.

    Attributes
    ----------
    name : str
        The name reports use (and users pass as ``loss=`` for the built-in ones).
    classification : bool or None
        True when the loss needs class labels in y, False when it needs a
        numeric target, None to decide from y (class labels unless y is
        continuous).
    function : callable
        ``function(y_true, y_pred) -> ndarray`` of per-instance losses; with
        ``needs_proba``, ``function(y_true, proba)`` where ``proba`` has one
        column per class, in the order of ``numpy.unique(y)``.
    needs_proba : bool
        Whether the loss needs ``predict_proba`` rather than ``predict``.
    """

    name: str
    classification: bool | None
    function: Callable[[np.ndarray, np.ndarray], np.ndarray]
    needs_proba: bool = False

    __cvinference_params__ = dict(name=LOSS_NAME, classification=Nullable(Boolean()), needs_proba=Boolean())
    """What each field accepts, checked when the loss is made."""

    def __post_init__(self):
        for name, rule in self.__cvinference_params__.items():
            object.__setattr__(self, name, rule.check(name, getattr(self, name)))
        if not callable(self.function):
            raise TypeError(f"function must be callable, (y_true, y_pred) -> per-instance losses; "
                            f"got {self.function!r}.")

    def __call__(self, y_true, predictions, classes=None):
        if self.needs_proba:
            losses = np.asarray(self.function(y_true, predictions, classes), dtype=np.float64)
        else:
            losses = np.asarray(self.function(y_true, predictions), dtype=np.float64)
        if losses.shape != (len(y_true),):
            raise ValueError(
                f"the loss {self.name!r} must return one loss per instance, an array of shape ({len(y_true)},); "
                f"got shape {losses.shape}. A metric such as sklearn.metrics.zero_one_loss returns one number for "
                "the whole set: pass a per-instance function instead (make_loss(lambda y_true, y_pred: ...)), "
                "or use metric_interval for a set-level metric."
            )
        return losses


def _zero_one(y_true, y_pred):
    return np.not_equal(y_true, y_pred)


def _squared_error(y_true, y_pred):
    return np.square(np.subtract(y_true, y_pred, dtype=np.float64))


def _absolute_error(y_true, y_pred):
    return np.abs(np.subtract(y_true, y_pred, dtype=np.float64))


def _true_class_columns(y_true, classes):
    return np.searchsorted(classes, y_true)


class _ClippedLogLoss:
    """-ln p(true class), with p clipped to ``clip`` (a picklable callable)."""

    def __init__(self, clip):
        self.clip = clip

    def __call__(self, y_true, proba, classes):
        true_proba = proba[np.arange(len(y_true)), _true_class_columns(y_true, classes)]
        return -np.log(np.clip(true_proba, *self.clip))


def _brier(y_true, proba, classes):
    """Sum over classes of (p_k - [y = k])^2, halved for two classes as sklearn does."""
    onehot = np.zeros(proba.shape)
    onehot[np.arange(len(y_true)), _true_class_columns(y_true, classes)] = 1.0
    squares = np.square(proba - onehot).sum(axis=1)
    return squares / 2 if proba.shape[1] == 2 else squares


def make_log_loss(clip=NEDELKO_CLIP):
    """The log loss -ln p(true class), with probabilities clipped to ``clip``.

    Parameters
    ----------
    clip : (float, float), default=(0.001, 0.999)
        The range predicted probabilities are clipped to before the
        logarithm. The default is Nedel'ko's (2021, section 5), which keeps a
        confident mistake from dominating the mean; with
        ``eps = numpy.finfo(float).eps`` (2.2e-16), ``(eps, 1 - eps)`` is
        ``sklearn.metrics.log_loss``'s clip.

    Returns
    -------
    Loss
        A loss named ``"log_loss"`` to pass as ``loss=``.

    Examples
    --------
    >>> from cvinference.records import make_log_loss
    >>> make_log_loss((1e-6, 1 - 1e-6)).needs_proba
    True
    """
    if (not isinstance(clip, (tuple, list)) or len(clip) != 2
            or not all(isinstance(v, numbers.Real) for v in clip) or not 0 < clip[0] < clip[1] <= 1):
        raise ValueError(
            f"clip must be a pair (low, high) with 0 < low < high <= 1, such as {NEDELKO_CLIP}; got clip={clip!r}."
        )
    return Loss("log_loss", True, _ClippedLogLoss((float(clip[0]), float(clip[1]))), needs_proba=True)


@validate_params(name=Nullable(LOSS_NAME), needs_proba=Boolean(), classification=Nullable(Boolean()))
def make_loss(function, *, name=None, needs_proba=False, classification=None):
    """A per-instance loss from a function, to pass as ``loss=``.

    Parameters
    ----------
    function : callable
        ``function(y_true, y_pred) -> array of per-instance losses``; with
        ``needs_proba=True``, ``function(y_true, proba)``, where ``proba`` has
        one column per class in the order of ``numpy.unique(y)``.
    name : str, default=None
        The name reports use; the function's ``__name__`` by default.
    needs_proba : bool, default=False
        Whether the loss needs ``predict_proba``.
    classification : bool or None, default=None
        Whether y must hold class labels (True) or numbers (False). None
        decides from y: class labels unless y is continuous. A loss that
        needs probabilities needs class labels.

    Returns
    -------
    Loss

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference import make_loss
    >>> def cost(y_true, y_pred):  # a missed positive costs five times a false alarm
    ...     return np.where(y_true == 1, 5.0, 1.0) * (y_true != y_pred)
    >>> loss = make_loss(cost)
    >>> loss.name, loss(np.array([1, 0, 1]), np.array([0, 0, 1])).tolist()
    ('cost', [5.0, 0.0, 0.0])
    """
    if not callable(function):
        raise TypeError(f"function must be callable, (y_true, y_pred) -> losses; got {function!r}.")
    name = getattr(function, "__name__", type(function).__name__) if name is None else name
    if not needs_proba:
        return Loss(str(name), classification, function)
    if classification is False:
        raise ValueError("make_loss(needs_proba=True) needs class labels; got classification=False. "
                         "Drop classification=False, or needs_proba=True for a regression loss.")
    return Loss(str(name), True, _UserProbaLoss(function), needs_proba=True)


class _UserProbaLoss:
    """Adapts ``function(y_true, proba)`` to the evaluator's ``(y_true, proba, classes)``."""

    def __init__(self, function):
        self.function = function

    def __call__(self, y_true, proba, classes):
        return self.function(y_true, proba)


LOSSES = {
    loss.name: loss
    for loss in (
        Loss("zero_one", True, _zero_one),
        make_log_loss(),
        Loss("brier", True, _brier, needs_proba=True),
        Loss("squared_error", False, _squared_error),
        Loss("absolute_error", False, _absolute_error),
    )
}


def get_loss(loss):
    """Return the :class:`Loss` for ``loss`` (a name, a Loss or a callable)."""
    if isinstance(loss, Loss):
        return loss
    if isinstance(loss, str) and loss in LOSSES:
        return LOSSES[loss]
    if callable(loss) and not isinstance(loss, str):
        return make_loss(loss)
    raise ValueError(
        f"loss={loss!r} is not supported; choose one of {sorted(LOSSES)}, a callable "
        "(y_true, y_pred) -> per-instance losses, or make_loss(...) / make_log_loss(...)."
    )


def proba_in_class_order(proba, model_classes, classes):
    """Columns of ``proba`` (ordered as ``model_classes``) placed in the order of ``classes``.

    A class missing from the model's training data gets probability 0.
    """
    aligned = np.zeros((proba.shape[0], len(classes)))
    aligned[:, np.searchsorted(classes, model_classes)] = proba
    return aligned


def check_loss_name(loss_name, loss):
    """Refuse a record without per-instance losses whose ``loss_name`` is not the 0/1 loss it would then hold."""
    if loss is not None or loss_name == "zero_one":
        return
    if loss_name in LOSSES:
        raise ValueError(f"loss_name={loss_name!r} needs the per-instance losses; got loss=None, which would report "
                         "the error rate under that name. Pass loss=, or loss_name='zero_one'.")
    raise ValueError(f"loss_name={loss_name!r} is no loss this package knows ({', '.join(map(repr, sorted(LOSSES)))}) "
                     "and the record holds no per-instance losses (loss=None), so it would report the error rate "
                     "under that name. Pass loss_name='zero_one', or the losses themselves as loss= for a loss of "
                     "your own.")


def check_loss_sign(loss_name, loss):
    """Refuse a negative per-instance value of a built-in loss: every one of them (-ln p with p <= 1, a square, a
    distance, a count of mistakes) is >= 0."""
    if loss_name not in LOSSES or not (loss < 0).any():
        return
    repeat, instance = (int(i) for i in np.argwhere(loss < 0)[0])
    what = "a log loss (-ln p with p <= 1)" if loss_name == "log_loss" else f"the loss {loss_name!r}"
    raise ValueError(f"loss holds {loss[repeat, instance].item()!r} (instance {instance} in repeat {repeat}) under "
                     f"loss_name={loss_name!r}, and {what} is >= 0 for every instance. Pass the losses themselves "
                     "(not a score such as neg_log_loss, whose sign is turned round), or a loss_name of your own.")


LOSS_METRICS = {"squared_error": "mean_squared_error", "absolute_error": "mean_absolute_error"}
"""scikit-learn's metric that is the mean of each per-instance regression loss (``regression_interval``'s name of
it)."""
