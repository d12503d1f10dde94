"""The record of the bootstrap: every sample's draws, its out-of-bag correctness, and the full-data predictions."""

import dataclasses

import numpy as np

from .._utils._arrays import locked, readonly_array
from .._utils._kinds import TEXT, Array
from .._utils._notebook import import_pandas
from .._utils._params import Boolean, Nullable, Text
from ._fields import array_field, check_indices
from ._record import Record


def _one_dimensional(name, values):
    array = np.asarray(values)
    if array.ndim != 1 or array.size < 2:
        raise ValueError(f"{name} must be 1-d with at least 2 labels; got shape {array.shape}.")
    return readonly_array(array)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class BootstrapSamplingResult(Record):
    """What the bootstrap did to every instance: the samples, their out-of-bag correctness, the full-data model.

    Made by :func:`bootstrap_sampling`; :func:`bootstrap_accuracy_of`
    computes the out-of-bag, .632 and .632+ accuracies (Efron 1983; Efron &
    Tibshirani 1997) from it. Sample b draws n instances with replacement
    (``sample_indices[b]``); the model fitted to it predicts the instances it
    left out (out of bag). One more model, fitted to all n instances,
    predicts them all (resubstitution).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The class labels.
    y_pred : array-like of shape (n_samples,)
        The predictions of the model fitted to all the instances.
    sample_indices : array-like of int, shape (n_bootstraps, n_samples)
        The draws of every bootstrap sample, as row numbers.
    out_of_bag_correct : array-like of bool, shape (n_bootstraps, n_samples)
        ``out_of_bag_correct[b, i]``: whether sample b's model predicted
        instance i correctly, for i out of bag; False for the instances in
        the sample.
    stratified : bool, default=False
        Whether every sample was drawn within classes.
    estimator_repr : str or None, default=None
        A description of the learner.

    Attributes
    ----------
    y_true, y_pred, sample_indices, out_of_bag_correct : ndarray
        Read-only.
    out_of_bag : ndarray of bool, shape (n_bootstraps, n_samples)
        Whether sample b left instance i out.
    n_samples, n_bootstraps : int
    resubstitution_accuracy : float
        The accuracy of the full-data model on its own training data.
    stratified, estimator_repr
        As given.

    Examples
    --------
    >>> from cvinference.records import BootstrapSamplingResult
    >>> result = BootstrapSamplingResult(y_true=[0, 1, 1], y_pred=[0, 1, 1], sample_indices=[[0, 0, 1], [2, 2, 2]],
    ...                                  out_of_bag_correct=[[False, False, True], [True, False, False]])
    >>> result
    BootstrapSamplingResult(n_samples=3, n_bootstraps=2, stratified=False)
    >>> result.out_of_bag
    array([[False, False,  True],
           [ True,  True, False]])
    """

    y_true: np.ndarray
    y_pred: np.ndarray
    sample_indices: np.ndarray
    out_of_bag_correct: np.ndarray
    stratified: bool = False
    estimator_repr: str | None = None

    _kinds = {"y_true": Array(ndim=1, min_rows=2), "y_pred": Array(ndim=1, min_rows=2),
              "sample_indices": Array("iu", ndim=2, low=0, min_rows=1),
              "out_of_bag_correct": Array("b", ndim=2, min_rows=1), "estimator_repr": Nullable(TEXT)}

    def __post_init__(self):
        y_true = _one_dimensional("y_true", self.y_true)
        n_samples = y_true.size
        y_pred = _one_dimensional("y_pred", self.y_pred)
        if y_pred.size != n_samples:
            raise ValueError(f"y_pred must hold one prediction per instance: {n_samples}; got {y_pred.size}.")
        sample_indices = array_field("sample_indices", self.sample_indices, "int", (None, n_samples))
        correct = array_field("out_of_bag_correct", self.out_of_bag_correct, "bool", sample_indices.shape)
        check_indices("sample_indices", sample_indices, n_samples)
        for name, value in (("y_true", y_true), ("y_pred", y_pred), ("sample_indices", sample_indices),
                            ("out_of_bag_correct", correct)):
            object.__setattr__(self, name, value)
        if (correct & ~self.out_of_bag).any():
            b, i = np.argwhere(correct & ~self.out_of_bag)[0]
            raise ValueError(f"out_of_bag_correct must be False for the instances in a sample; instance {i} is in "
                             f"sample {b} (sample_indices) and marked correct.")
        object.__setattr__(self, "stratified", Boolean().check("stratified", self.stratified))
        object.__setattr__(self, "estimator_repr",
                           Nullable(Text("GaussianNB()")).check("estimator_repr", self.estimator_repr))

    @property
    def n_samples(self):
        return self.y_true.size

    @property
    def n_bootstraps(self):
        return self.sample_indices.shape[0]

    @property
    def out_of_bag(self):
        left_out = np.ones(self.sample_indices.shape, dtype=bool)
        np.put_along_axis(left_out, self.sample_indices, False, axis=1)
        return locked(left_out)

    @property
    def resubstitution_accuracy(self):
        return float(np.mean(self.y_pred == self.y_true))

    def _repr_fields(self):
        return {"n_samples": self.n_samples, "n_bootstraps": self.n_bootstraps, "stratified": self.stratified}

    def to_frame(self):
        """A pandas DataFrame with one row per bootstrap sample and instance (needs pandas).

        Columns: ``bootstrap``, ``instance`` (the row number in the data),
        ``y_true``, ``times_drawn`` (how often the sample drew it),
        ``out_of_bag`` and ``out_of_bag_correct`` (False in the sample).

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> from cvinference.records import BootstrapSamplingResult
        >>> BootstrapSamplingResult(y_true=[0, 1, 1], y_pred=[0, 1, 1], sample_indices=[[0, 0, 1]],
        ...                         out_of_bag_correct=[[False, False, True]]).to_frame()
           bootstrap  instance  y_true  times_drawn  out_of_bag  out_of_bag_correct
        0          0         0       0            2       False               False
        1          0         1       1            1       False               False
        2          0         2       1            0        True                True
        """
        n_bootstraps, n_samples = self.n_bootstraps, self.n_samples
        drawn = np.stack([np.bincount(row, minlength=n_samples) for row in self.sample_indices])
        return import_pandas().DataFrame({
            "bootstrap": np.repeat(np.arange(n_bootstraps), n_samples),
            "instance": np.tile(np.arange(n_samples), n_bootstraps), "y_true": np.tile(self.y_true, n_bootstraps),
            "times_drawn": drawn.ravel(), "out_of_bag": self.out_of_bag.ravel(),
            "out_of_bag_correct": self.out_of_bag_correct.ravel()})

    def summary(self):
        """The samples, how often each instance was left out, and the resubstitution accuracy.

        Returns
        -------
        str

        Examples
        --------
        >>> from cvinference.records import BootstrapSamplingResult
        >>> result = BootstrapSamplingResult(y_true=[0, 1, 1], y_pred=[0, 1, 1],
        ...                                  sample_indices=[[0, 0, 1], [2, 2, 2]],
        ...                                  out_of_bag_correct=[[False, False, True], [True, False, False]])
        >>> print(result.summary())
        bootstrap: 2 samples of n = 3 draws with replacement
        out of bag: 3 of 3 instances at least once; out-of-bag accuracy of the pooled predictions 0.6667
        resubstitution accuracy 1.0000 (the model fitted to all n instances, on them)
        bootstrap_accuracy_of(result, method=...) gives the out-of-bag, .632 or .632+ accuracy
        """
        out_of_bag = self.out_of_bag
        lines = [f"bootstrap: {self.n_bootstraps} samples of n = {self.n_samples} draws with replacement"
                 + (", within classes" if self.stratified else "")]
        if self.estimator_repr:
            lines.append(f"estimator: {self.estimator_repr}")
        lines += [
            f"out of bag: {np.count_nonzero(out_of_bag.any(axis=0))} of {self.n_samples} instances at least once; "
            f"out-of-bag accuracy of the pooled predictions "
            f"{np.count_nonzero(self.out_of_bag_correct) / max(np.count_nonzero(out_of_bag), 1):.4f}",
            f"resubstitution accuracy {self.resubstitution_accuracy:.4f} (the model fitted to all n instances, "
            "on them)",
            "bootstrap_accuracy_of(result, method=...) gives the out-of-bag, .632 or .632+ accuracy",
        ]
        return "\n".join(lines)
