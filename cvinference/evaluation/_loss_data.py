"""The checks every loss-recording scheme makes of its estimators, data and loss, once."""

import dataclasses

from .._utils._params import Rule
from .._utils._validation import (
    check_estimator_methods,
    check_not_classifier,
    check_not_regressor,
    check_predict_proba,
    holds_class_labels,
    prepare_data,
)
from ..records._losses import LOSSES


class LossSpec(Rule):
    """A ``loss``: a built-in loss's name, a :class:`Loss`, or a callable ``(y_true, y_pred) -> losses``.

    Examples
    --------
    >>> LossSpec().check("loss", None)
    Traceback (most recent call last):
    ...
    TypeError: loss must be one of 'absolute_error', 'brier', 'log_loss', 'squared_error', 'zero_one', a Loss, or a
    callable (y_true, y_pred) -> per-instance losses (see make_loss); got loss=None.
    """

    def describe(self):
        names = ", ".join(repr(name) for name in sorted(LOSSES))
        return f"one of {names}, a Loss, or a callable (y_true, y_pred) -> per-instance losses (see make_loss)"

    def check(self, name, value):
        if isinstance(value, str) and value not in LOSSES:
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if not (isinstance(value, str) or callable(value)):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return value

    def invalid_values(self):
        return [("hinge", ValueError), ("Zero_One", ValueError), ("", ValueError), (1, TypeError), (None, TypeError)]


def prepare_loss_data(estimators, names, X, y, loss, groups=None):
    """Checked estimators and data for recording the per-instance ``loss``.

    Every estimator must fit and predict (and ``predict_proba`` for a loss
    that needs it); y must suit the loss; a loss that compares class labels
    refuses a regressor, and a regression loss refuses a classifier. A loss
    whose ``classification`` is None is decided from y here.

    Parameters
    ----------
    estimators : sequence of estimator
    names : sequence of str
        The estimators' parameter names, for error messages.
    X, y : array-like
    loss : Loss
    groups : array-like or None

    Returns
    -------
    X, y, groups, y_array, loss
        Indexable data, y as a 1-d array, and the loss with ``classification`` decided.
    """
    for name, estimator in zip(names, estimators, strict=True):
        check_estimator_methods(estimator, name)
    if loss.needs_proba:
        for name, estimator in zip(names, estimators, strict=True):
            check_predict_proba(estimator, name, loss.name)
    X, y, groups, y_array = prepare_data(X, y, classification=loss.classification,
                                         needed_by=f"loss={loss.name!r}", groups=groups)
    if loss.classification is None:
        loss = dataclasses.replace(loss, classification=holds_class_labels(y_array))
    if not loss.needs_proba:
        loss(y_array, y_array)  # a set-level metric passed as a loss is refused before any fit
    if loss.classification is False:
        for name, estimator in zip(names, estimators, strict=True):
            check_not_classifier(estimator, name, loss.name)
    if loss.classification:
        reason = (f"loss={loss.name!r} compares class labels (a regressor's predictions are numbers; use "
                  "a regression loss such as loss='squared_error' for a numeric target)")
        for name, estimator in zip(names, estimators, strict=True):
            check_not_regressor(estimator, name, reason)
    return X, y, groups, y_array, loss
