"""What a comparison was computed on, as digests: its rows, its two learners in order, their folds and predictions.

A test or interval of two learners carries the digests of what it was
computed from (:func:`attach_subject`), so that a function handed one,
``decide(pair, tests=..., nested=...)``, can check that it is about that pair
(:func:`subject_mismatch`) rather than about other data, other learners, A
and B the other way round, or other folds. Each digest is a 128-bit BLAKE2b:
two different inputs share one as rarely as a guess of a random 128-bit key
succeeds. The digests live on the result object (pickling and copying keep
them); ``to_dict`` does not write them, so a result read back from JSON
carries none and cannot be checked.
"""

import hashlib
import types

import numpy as np

SUBJECT_PARTS = {"rows": "the rows (another data set, or its rows in another order)",
                 "learners": "the learners (others, or A and B the other way round)",
                 "folds": "the folds",
                 "predictions": "the predictions (other learners or folds, or A and B the other way round)"}
"""The parts of a subject, each with the words for what differs when its digests do."""


def _digest(*parts):
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest()


def _values_bytes(values):
    """The values of an array as bytes: numbers as float64 (1 and 1.0 alike), anything else as its text."""
    array = np.asarray(values)
    if array.dtype.kind in "biuf":
        return repr(array.shape).encode() + np.ascontiguousarray(array, dtype=np.float64).tobytes()
    return repr(array.shape).encode() + "\x1f".join(map(str, array.ravel().tolist())).encode()


def data_subject(y, estimator_reprs):
    """The subject of a result computed from data: its rows (``y``) and, when every learner is described, its
    learners in order.

    Examples
    --------
    >>> sorted(data_subject([0, 1, 1], ("GaussianNB()", "LogisticRegression()")))
    ['learners', 'rows']
    >>> data_subject([0, 1, 1], ()) == data_subject([0.0, 1.0, 1.0], ())
    True
    """
    subject = {"rows": _digest(_values_bytes(y))}
    if estimator_reprs and all(estimator_reprs):
        subject["learners"] = _digest(*(text.encode() for text in estimator_reprs))
    return subject


def records_subject(a, b):
    """The subject of a result computed from two learners' records ``a`` and ``b`` (A first): their rows, learners,
    folds and predictions."""
    reprs = (getattr(a, "estimator_repr", None), getattr(b, "estimator_repr", None))
    subject = data_subject(a.y_true, reprs) if hasattr(a, "y_true") else {}
    folds = [getattr(record, "_fold_digest", None) for record in (a, b)]
    if all(digest is not None for digest in folds):
        subject["folds"] = _digest(*folds)
    if hasattr(a, "y_pred") and hasattr(b, "y_pred"):
        subject["predictions"] = _digest(_values_bytes(a.y_pred), _values_bytes(b.y_pred))
    return subject


def attach_subject(result, subject):
    """``result`` (a frozen result object) with ``subject`` attached; returned for chaining."""
    object.__setattr__(result, "_subject", types.MappingProxyType(dict(subject)))
    return result


def subject_of(result):
    """The subject a result carries, or None (made by hand, or read back from JSON)."""
    return getattr(result, "_subject", None)


def subject_mismatch(given, expected, parts):
    """The words for the first of ``parts`` whose digests ``given`` and ``expected`` both hold and differ, or None.

    Examples
    --------
    >>> pair = data_subject([0, 1, 1], ("A()", "B()"))
    >>> subject_mismatch(data_subject([0, 1, 1], ("B()", "A()")), pair, ("rows", "learners"))
    'the learners (others, or A and B the other way round)'
    >>> subject_mismatch(data_subject([0, 1, 1], ()), pair, ("rows", "learners")) is None
    True
    """
    for part in parts:
        if part in given and part in expected and given[part] != expected[part]:
            return SUBJECT_PARTS[part]
    return None
