"""Class labels as integer codes: a record's classes (y_true's labels, then any label only predicted) and the codes
of the true and predicted labels into them."""

import numbers
import warnings

import numpy as np

from .._utils._arrays import smallest_int_dtype
from .._utils._warnings import InferenceWarning


def _codes_in(values):
    """Distinct values of a 1-d array and each value's index among them.

    Sorted (NaN last, found by ``searchsorted``) when the values can be
    ordered; in order of first appearance otherwise (e.g. mixed str and int).
    """
    try:
        distinct = np.unique(values)
        return distinct, np.searchsorted(distinct, values)
    except TypeError:
        lookup = dict.fromkeys(values.tolist())
        for i, label in enumerate(lookup):
            lookup[label] = i
        distinct = np.empty(len(lookup), dtype=object)
        distinct[:] = list(lookup)
        return distinct, np.array([lookup[label] for label in values.tolist()], dtype=np.intp)


def _label_kind(labels):
    """"numbers", "text" or None (mixed or other objects) for an array of labels."""
    kinds = {"numbers" if isinstance(label, (numbers.Number, np.bool_)) else
             "text" if isinstance(label, (str, bytes)) else None for label in labels.tolist()}
    return kinds.pop() if len(kinds) == 1 else None


def _warn_if_kinds_differ(classes, extra):
    """Warn when predictions are text and the labels numbers (or the reverse): none can be right."""
    true_kind, predicted_kind = _label_kind(classes), _label_kind(extra)
    if None not in (true_kind, predicted_kind) and true_kind != predicted_kind:
        warnings.warn(
            f"y_pred holds {predicted_kind} ({extra[:3].tolist()}) where y_true holds {true_kind} "
            f"({classes[:3].tolist()}): no such prediction can equal a true label, so each counts as wrong "
            "(scikit-learn's accuracy_score refuses this mix). Check how the estimator encodes its classes.",
            InferenceWarning, stacklevel=4,
        )


def encode_labels(y_true, y_pred):
    """Classes and integer codes for true and predicted labels.

    The classes are y_true's distinct labels, followed by any predicted label
    equal to none of them (the classes then have object dtype when the two
    kinds differ, e.g. int labels and str predictions). A prediction gets the
    code of the class it equals under numpy's ``==``, so ``correct`` agrees
    with ``y_pred == y_true``: labels numpy cannot compare (1 and "1") stay
    apart, and a prediction equal to a class (1 and True) takes its label.
    """
    true_classes = classes = np.unique(y_true)
    flat = y_pred.ravel()
    codes = np.zeros(flat.size, dtype=np.intp)
    matched = np.zeros(flat.size, dtype=bool)
    try:
        codes = np.minimum(np.searchsorted(classes, flat), classes.size - 1)
        matched = np.asarray(classes[codes] == flat, dtype=bool)
    except (TypeError, ValueError):
        pass
    if not matched.all():
        extra, extra_codes = _codes_in(flat[~matched])
        _warn_if_kinds_differ(classes, extra)
        if extra.dtype.kind == classes.dtype.kind or {extra.dtype.kind, classes.dtype.kind} <= set("biuf"):
            joined = np.concatenate([classes, extra])
        else:
            joined = np.empty(classes.size + extra.size, dtype=object)
            joined[: classes.size], joined[classes.size :] = classes.tolist(), extra.tolist()
        codes[~matched] = classes.size + extra_codes
        classes = joined
    code_dtype = smallest_int_dtype(classes.size)
    y_true_codes = np.searchsorted(true_classes, y_true).astype(code_dtype)
    return classes, y_true_codes, codes.reshape(y_pred.shape).astype(code_dtype)
