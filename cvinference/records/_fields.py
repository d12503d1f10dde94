"""Checks a record's constructor runs on its fields: arrays of a kind and shape, learners' descriptions."""

import numpy as np

from .._utils._arrays import readonly_array

_KINDS = {"int": ("iu", np.intp, "integer"), "float": ("iuf", np.float64, "numeric"), "bool": ("b", bool, "bool")}


def _shape_text(shape):
    return "(" + ", ".join("any" if size is None else str(size) for size in shape) + ")"


def array_field(name, values, kind, shape):
    """``values`` as a read-only array of ``kind`` ("int", "float" or "bool") and ``shape`` (None: any size >= 1).

    Examples
    --------
    >>> array_field("fold", [[0, 1, 0]], "int", (1, None))
    array([[0, 1, 0]])
    >>> array_field("fold", [0, 1, 0], "int", (1, None))
    Traceback (most recent call last):
    ...
    ValueError: fold must be a 2-d integer array of shape (1, any); got dtype int64 and shape (3,).
    """
    array = np.asarray(values)
    dtype_kinds, dtype, words = _KINDS[kind]
    fits = array.ndim == len(shape) and all(
        size >= 1 if expected is None else size == expected for size, expected in zip(array.shape, shape, strict=True))
    if not fits or array.dtype.kind not in dtype_kinds:
        raise ValueError(f"{name} must be a {len(shape)}-d {words} array of shape {_shape_text(shape)}; got dtype "
                         f"{array.dtype} and shape {array.shape}.")
    return readonly_array(array, dtype)


def check_indices(name, indices, n_samples):
    """Refuse row numbers outside 0 .. n_samples - 1."""
    if indices.size and (indices.min() < 0 or indices.max() >= n_samples):
        raise ValueError(f"{name} must hold row numbers from 0 to n_samples - 1 = {n_samples - 1}; got values from "
                         f"{indices.min()} to {indices.max()}.")


def learner_descriptions(name, descriptions, n_learners):
    """``descriptions`` as a tuple of str: empty, or one per learner."""
    if isinstance(descriptions, str) or not all(isinstance(text, str) for text in descriptions):
        raise TypeError(f"{name} must be a tuple of str, one per learner; got {name}={descriptions!r}.")
    descriptions = tuple(descriptions)
    if len(descriptions) not in (0, n_learners):
        raise ValueError(f"{name} must describe each of the {n_learners} learner(s) or be empty; got "
                         f"{len(descriptions)} descriptions.")
    return descriptions


def learner_lines(descriptions):
    """The summary's lines naming the learners: ``estimator: ...``, or A and B."""
    if len(descriptions) == 1:
        return [f"estimator: {descriptions[0]}"]
    # none (no descriptions kept), or A and B
    return [f"estimator {label}: {text}" for label, text in zip("AB", descriptions, strict=False)]


class OneOrTwoLearners:
    """``n_learners`` and ``paired`` of a record whose ``_losses_of_learners`` has one row per learner."""

    @property
    def n_learners(self):
        return self._losses_of_learners.shape[0]

    @property
    def paired(self):
        return self.n_learners == 2

    def _loss_lines(self, texts, function, what):
        """``mean <loss> loss[ of A|B]<text>`` per learner, then what ``function(result)`` gives."""
        # one text per learner, labelled from "AB": one or two of the labels
        lines = [f"mean {self.loss_name} loss{f' of {label}' if self.paired else ''}{text}"
                 for label, text in zip("AB", texts, strict=False)]
        difference = " (for the loss of B minus the loss of A)" if self.paired else ""
        return lines + [f"{function}(result) gives the interval for {what}{difference}"]
