"""What a CVResult dict must hold beyond each field's kind: the checks between its fields.

The common codec (:mod:`cvinference._utils._serialize`) writes the record's
stored arrays as tagged arrays with their dtypes, whether the record holds
class labels as ``classification``, the out-of-fold scores ``y_score`` as
float64 (``"<f8"``) with their ``response_method``, and the instances'
``groups`` (each null when the record has none).
"""


import numpy as np

from ._losses import LOSSES

_OWNER = "CVResult"


def classification_by_default(loss_name, y_true_kind):
    """Whether a record holds class labels when the caller does not say: the loss's, else unless y is float."""
    return LOSSES[loss_name].classification if loss_name in LOSSES else y_true_kind not in "fc"


def _refuse(message):
    raise ValueError(f"{_OWNER}.from_dict: {message}; pass the output of to_dict() unchanged.")


def _sorted_and_distinct(values):
    """Whether ``values`` are distinct and sorted as ``numpy.unique`` sorts them (nan last)."""
    try:
        unique = np.unique(values)
    except TypeError:
        return False
    return unique.shape == values.shape and np.array_equal(unique, values, equal_nan=values.dtype.kind in "fc")


def check_labels(owner, values):
    """A classification record holds its classes and codes into them; a regression record neither.

    The classes start with the sorted labels of y_true, each of them used
    (then the predicted labels that equal none of them), as the constructor
    encodes them.
    """
    classes = values["classes"]
    if values["classification"] != (classes is not None):
        has = "None" if classes is None else "an array"
        _refuse(f"CVResult.classification={values['classification']} but CVResult.classes is {has}: a record of "
                "class labels holds its classes, a regression record none")
    if classes is None:
        return
    if classes.size == 0 or len(set(classes.tolist())) != classes.size:
        _refuse(f"CVResult.classes must be distinct labels, at least one; got {classes.tolist()!r}")
    for key in ("y_true", "y_pred"):
        codes = values[key]
        if codes.dtype.kind not in "iu" or (codes.size and (codes.min() < 0 or codes.max() >= classes.size)):
            _refuse(f"CVResult.{key} must hold integer codes 0 .. {classes.size - 1}, the positions of the classes")
    y_true = values["y_true"]
    n_true = int(y_true.max()) + 1
    if np.unique(y_true).size != n_true or not _sorted_and_distinct(classes[:n_true]):
        _refuse("CVResult.classes must start with the sorted labels of CVResult.y_true, each of them used, as "
                "to_dict() writes them; these are not (were they reordered?)")


def score_shape(n_repeats, n_samples, n_classes):
    """The shape of a record's scores: one per repeat and instance for two classes, else one per class too.

    Examples
    --------
    >>> score_shape(2, 100, 2), score_shape(2, 100, 3)
    ((2, 100), (2, 100, 3))
    """
    return (n_repeats, n_samples) if n_classes == 2 else (n_repeats, n_samples, n_classes)


def check_scores(owner, values):
    """Scores go with the method that gave them, in a record of class labels, float64, finite, of :func:`score_shape`.

    The classes counted are those of y_true (the codes' range), not the
    labels that are only predicted.
    """
    scores, method = values["y_score"], values["response_method"]
    if (scores is None) != (method is None):
        _refuse(f"CVResult.y_score is {'None' if scores is None else 'an array'} but CVResult.response_method is "
                f"{method!r}: scores are kept with the method that gave them, or neither is")
    if scores is None:
        return
    if values["classes"] is None:
        _refuse("CVResult.y_score is an array in a regression record, which holds no scores")
    if scores.dtype != np.float64:
        _refuse(f"CVResult.y_score must be an array of dtype float64 ('<f8'), as to_dict() writes it; got "
                f"{scores.dtype}")
    if not np.isfinite(scores).all():
        _refuse("CVResult.y_score holds NaN or infinity, where a record keeps finite scores only")
    n_repeats, n_samples = values["fold"].shape
    expected = score_shape(n_repeats, n_samples, int(values["y_true"].max()) + 1)
    if scores.shape != expected:
        _refuse(f"CVResult.y_score must have the shape {expected} (repeats, instances, classes beyond two); "
                f"got {scores.shape}")
