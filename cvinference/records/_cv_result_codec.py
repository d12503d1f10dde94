"""What a CVResult dict must hold beyond each field's kind, and the reading of version-1 dicts.

Version 5 writes the out-of-fold scores ``y_score`` as float64 (``"<f8"``),
as the record keeps them; :func:`from_version_4` reads a version-4 dict,
whose scores are float32 (``"<f4"``), as the same scores in float64, with an
:class:`~cvinference.InferenceWarning`: float32 had already tied
probabilities above 1 - 3e-8 and decision values that differ only past their
seventh digit, so the ROC AUC and average precision of such scores may
count ties the model did not make.
Version 4 adds the instances' ``groups`` (null when the record has none);
:func:`from_version_3` reads a version-3 dict as a record without groups.
Version 3 adds the out-of-fold scores, ``y_score`` and ``response_method``
(both null when none are kept); :func:`from_version_2` reads a version-2
dict as a record without scores. Version 2 (the common codec,
:mod:`cvinference._utils._serialize`) writes the record's stored arrays as
tagged arrays with their dtypes, and whether the record holds class labels
as ``classification``. Version 1, CVResult's own codec until issue 27, wrote
each array as nested lists beside its dtype (``y_true_dtype``,
``y_pred_dtype``, ``classes_dtype``) and nothing for ``classification``;
:func:`from_version_1` turns such a dict into version 2.
"""

import warnings

import numpy as np

from .._utils._serialize import decode, encode
from .._utils._warnings import InferenceWarning, first_caller_outside_package
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


def from_version_4(data):
    """A version-4 CVResult dict as version 5: its float32 scores as float64, with a warning that they may tie.

    Each float32 score is exactly a float64; the digits float32 dropped when
    the dict was written are lost, which the warning says.
    """
    scores = data.get("y_score")
    if isinstance(scores, dict):
        if scores.get("dtype") != "<f4":
            _refuse(f"CVResult.y_score of a version-4 dict must be an array of dtype float32 ('<f4'), as to_dict() "
                    f"of that version wrote it; got the dtype {scores.get('dtype')!r}")
        array = decode(scores, "CVResult.y_score")
        writeable = bool(array.flags.writeable)
        array = array.astype(np.float64)
        array.setflags(write=writeable)
        scores = encode(array)
        warnings.warn(
            "This CVResult dict is of format version 4, which stored y_score as float32: its scores are read as "
            "float64, but the digits float32 dropped are lost, so probabilities above 1 - 3e-8 (and decision values "
            "that differ only past their seventh digit) may tie, and its ROC AUC and average precision may differ "
            "from those of the model's own scores. Evaluate the estimator again to keep exact scores.",
            InferenceWarning, stacklevel=first_caller_outside_package())
    return {**data, "version": 5, "y_score": scores}


def from_version_3(data):
    """A version-3 CVResult dict as version 4: the same record, without groups."""
    if "groups" in data:
        _refuse("the version-3 dict has the unknown key 'groups', which version 4 added")
    return {**data, "version": 4, "groups": None}


def from_version_2(data):
    """A version-2 CVResult dict as version 3: the same record, without scores."""
    added = [key for key in ("y_score", "response_method") if key in data]
    if added:
        _refuse(f"the version-2 dict has the unknown key {added[0]!r}, which version 3 added")
    return {**data, "version": 3, "y_score": None, "response_method": None}


_V1_KEYS = ("format", "version", "loss_name", "estimator_repr", "cv_repr", "name", "estimator_type", "n_train",
            "classes", "classes_dtype", "y_true_dtype", "y_pred_dtype", "y_true", "y_pred", "fold", "loss")
_V1_LATER_KEYS = ("name", "estimator_type")
"""Keys a version-1 dict written before they were added lacks: they read as None."""


def _kind(dtype_text):
    """The kind of a dtype string, or "" for what is none (refused later, by the version-2 checks)."""
    try:
        return np.dtype(dtype_text).kind if isinstance(dtype_text, str) else ""
    except TypeError:
        return ""


def _v1_keys(data):
    missing = [key for key in _V1_KEYS if key not in data and key not in _V1_LATER_KEYS]
    unknown = [key for key in data if key not in _V1_KEYS]
    if missing or unknown:
        which = f"has no key {missing[0]!r}" if missing else f"has the unknown key {unknown[0]!r}"
        _refuse(f"the version-1 dict {which}; it holds exactly the keys: {', '.join(_V1_KEYS)}")


def _v1_rows(data, key, ndim):
    """The flat items and the shape of a version-1 list of ``ndim`` dimensions (1 or 2)."""
    rows = data[key]
    if ndim == 1:
        rows = [rows]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        _refuse(f"CVResult.{key} of a version-1 dict must be a {ndim}-d list; got {data[key]!r:.80}")
    lengths = {len(row) for row in rows}
    if len(lengths) > 1 or any(isinstance(item, (list, dict)) for row in rows for item in row):
        _refuse(f"CVResult.{key} of a version-1 dict must be a rectangular {ndim}-d list of numbers or labels")
    shape = [len(rows[0]) if rows else 0] if ndim == 1 else [len(rows), lengths.pop() if lengths else 0]
    return [item for row in rows for item in row], shape


def _v1_array(data, key, ndim, dtype):
    items, shape = _v1_rows(data, key, ndim)
    return {"array": items, "dtype": dtype, "shape": shape, "writeable": False}


def from_version_1(data):
    """A version-1 CVResult dict as version 2: the same record, every check of version 2 still to come."""
    _v1_keys(data)
    classification = data["classes"] is not None
    y_true_dtype = data["y_true_dtype"]
    if not classification and classification_by_default(data["loss_name"], _kind(y_true_dtype)):
        _refuse(f"CVResult.classes is null in a version-1 dict, which makes a regression record, but "
                f"loss_name={data['loss_name']!r} and y_true of dtype {y_true_dtype!r} make a record of class labels")
    fields = {key: data.get(key) for key in ("loss_name", "estimator_repr", "cv_repr", "name", "estimator_type",
                                             "n_train")}
    classes = None if not classification else _v1_array(data, "classes", 1, data["classes_dtype"])
    loss = None if data["loss"] is None else _v1_array(data, "loss", 2, "<f8")
    return {"format": data["format"], "version": 2, **fields, "classification": classification,
            "classes": classes, "y_true": _v1_array(data, "y_true", 1, y_true_dtype),
            "y_pred": _v1_array(data, "y_pred", 2, data["y_pred_dtype"]),
            "fold": _v1_array(data, "fold", 2, "<i8"), "loss": loss}
