"""Checks a record's constructor runs on its fields: arrays of a kind and shape, learners' descriptions."""

import re

import numpy as np

from .._utils._arrays import python_scalar, readonly_array
from .._utils._params import Nullable, Text

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


class ClassName(Text):
    """The dotted name of a class, ``module.QualifiedName``, such as ``example``.

    Examples
    --------
    >>> ClassName("sklearn.tree.DecisionTreeClassifier").check("estimator_type", "bogus")
    Traceback (most recent call last):
    ...
    ValueError: estimator_type must be the dotted name of a class, module.QualifiedName (such as
    'sklearn.tree.DecisionTreeClassifier'); got estimator_type='bogus'.
    """

    _DOTTED = re.compile(r"[^\s.]+(\.[^\s.]+)+")

    def describe(self):
        return f"the dotted name of a class, module.QualifiedName (such as {self.example!r})"

    def check(self, name, value):
        super().check(name, value)
        if not self._DOTTED.fullmatch(value):
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return value

    def invalid_values(self):
        return super().invalid_values() + [("bogus", ValueError), ("sklearn. tree.X", ValueError)]


TYPE_NAME = Nullable(ClassName("sklearn.tree.DecisionTreeClassifier"))
"""``estimator_type``: None or the dotted name of a class (what ``type(estimator)`` is, as the evaluator writes it)."""

PROBABILITY_TOLERANCE = 1e-6
"""How far kept probabilities may stray from [0, 1], and a row's sum from 1, by rounding."""


def check_probabilities(scores, by_class):
    """Refuse ``predict_proba`` scores outside [0, 1], or, where the last axis holds one column per class
    (``by_class``), rows that do not sum to 1."""
    outside = (scores < -PROBABILITY_TOLERANCE) | (scores > 1 + PROBABILITY_TOLERANCE)
    if outside.any():
        where = tuple(int(i) for i in np.argwhere(outside)[0])
        raise ValueError(f"y_score holds predict_proba's probabilities, and {int(outside.sum())} of {scores.size} "
                         f"entries are outside [0, 1] (first: {python_scalar(scores[where])} at index {where}); pass "
                         "the estimator's predict_proba, or response_method='decision_function' for other scores.")
    if by_class:
        sums = scores.sum(axis=-1)
        off = np.abs(sums - 1) > PROBABILITY_TOLERANCE
        if off.any():
            where = tuple(int(i) for i in np.argwhere(off)[0])
            raise ValueError(f"y_score holds predict_proba's probabilities, and {int(off.sum())} of its rows do not "
                             f"sum to 1 (first: {python_scalar(sums[where])} at index {where}); pass the estimator's "
                             "predict_proba, one probability per class.")


def check_training_size(n_train, fold_sizes):
    """Refuse an ``n_train`` larger than a record of several folds allows.

    In a record of ``k >= 2`` folds (``fold_sizes`` of shape (n_repeats, k), each repeat a partition of the
    ``n`` instances) the model of fold j was trained on at most the other folds, ``n - m_j`` instances (fewer
    where a purged or embargoed split left rows out): the corrected resampled t reads n_test / n_train (Nadeau
    & Bengio 2003), so a larger ``n_train`` would shrink its variance factor with nothing to justify it. A
    record of one fold (a holdout's test part) does not bound its training size; any ``n_train`` is taken there.
    """
    if n_train is None or fold_sizes.shape[1] < 2:
        return
    most = int((fold_sizes.sum(axis=1, keepdims=True) - fold_sizes).min())
    if n_train > most:
        raise ValueError(f"n_train={n_train} is more than the record's {fold_sizes.shape[1]} folds allow: the model "
                         f"of its largest fold was trained on at most the other folds, n - m_j = {most} instances. "
                         "Pass n_train=None (the folds give the training sizes), the number the models were "
                         "trained on, or a record of one fold for a holdout.")


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
