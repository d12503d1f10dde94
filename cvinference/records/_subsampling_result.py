"""The record of random subsampling: each round's test instances and correctness."""

import dataclasses

import numpy as np

from .._utils._arrays import readonly_array
from .._utils._kinds import POSITIVE, Array
from .._utils._notebook import import_pandas
from .._utils._params import Integer
from .._utils._text import text_block
from ._record import Record

NOT_INDEPENDENT = (
    "the test sets of different rounds overlap, so the round accuracies are not independent and a "
    "standard deviation or t-test across rounds is wrong (Kohavi 1995, \"Random Subsampling\"; "
    "Wong 2015, section 4.3.4)"
)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class SubsamplingResult(Record):
    """What random subsampling (the holdout repeated) did in every round.

    Made by :func:`random_subsampling`. Round i tests the instances
    ``test_indices[i]`` with a model fitted to ``n_train`` other instances.
    The rounds' test sets overlap, so the rounds are not independent: the
    naive tests refuse this result; compare two learners with
    :func:`corrected_resampled_ttest` or :func:`bayesian_correlated_ttest`.

    Parameters
    ----------
    test_indices : array-like of int, shape (n_rounds, n_test)
        The test instances of each round, as row numbers into the data.
    correct : array-like of bool, shape (n_rounds, n_test)
        Whether each test instance was predicted correctly.
    y_true : array-like of shape (n_samples,)
        The labels of all instances.
    n_train : int
        The training size of every round.
    estimator_repr, cv_repr : str, default=None
        Descriptions of the estimator and the splitter, for reports.

    Attributes
    ----------
    test_indices : ndarray of int, shape (n_rounds, n_test)
    correct : ndarray of bool, shape (n_rounds, n_test)
    y_true : ndarray, shape (n_samples,)
    round_accuracy : ndarray of float, shape (n_rounds,)
        The accuracy of each round on its test set.
    accuracy : float
        The mean of the round accuracies (all rounds have ``n_test``
        instances, so it is also the total correct over the total tested).
    n_samples, n_train, n_test, n_rounds : int
    estimator_repr, cv_repr : str or None

    Examples
    --------
    >>> from cvinference.records import SubsamplingResult
    >>> result = SubsamplingResult(test_indices=[[0, 1], [1, 2]], correct=[[True, False], [True, True]],
    ...                            y_true=[0, 1, 1, 0], n_train=2)
    >>> result
    SubsamplingResult(n_samples=4, n_rounds=2, n_train=2, n_test=2, accuracy=0.75)
    >>> result.round_accuracy
    array([0.5, 1. ])
    """

    test_indices: np.ndarray
    correct: np.ndarray
    y_true: np.ndarray
    n_train: int
    estimator_repr: str | None = None
    cv_repr: str | None = None

    _kinds = {"test_indices": Array("iu", ndim=2, low=0, min_rows=1), "correct": Array("b", ndim=2, min_rows=1),
              "y_true": Array(ndim=1, min_rows=1), "n_train": POSITIVE}

    def __post_init__(self):
        y_true = np.asarray(self.y_true)
        if y_true.ndim != 1:
            raise ValueError(f"y_true must be 1-d; got shape {y_true.shape}.")
        indices, correct = np.asarray(self.test_indices), np.asarray(self.correct)
        n_samples = y_true.size
        if indices.ndim != 2 or 0 in indices.shape or indices.dtype.kind not in "iu":
            raise ValueError(
                f"test_indices must be a 2-d integer array (n_rounds, n_test) with n_rounds >= 1 and n_test >= 1; got "
                f"dtype {indices.dtype} and shape {indices.shape}."
            )
        if indices.min() < 0 or indices.max() >= n_samples:
            raise ValueError(f"test_indices must lie in 0 .. n_samples - 1 = {n_samples - 1}.")
        if correct.shape != indices.shape or correct.dtype.kind != "b":
            raise ValueError(
                f"correct must be a bool array of the shape of test_indices {indices.shape}; got "
                f"dtype {correct.dtype} and shape {correct.shape}."
            )
        n_train = Integer(minimum=1).check("n_train", self.n_train)
        if n_train + indices.shape[1] > n_samples:
            raise ValueError(
                f"n_train + n_test must not exceed n_samples={n_samples}; got n_train={n_train} and "
                f"n_test={indices.shape[1]}."
            )
        object.__setattr__(self, "test_indices", readonly_array(indices, np.intp))
        object.__setattr__(self, "correct", readonly_array(correct, bool))
        object.__setattr__(self, "y_true", readonly_array(y_true))
        object.__setattr__(self, "n_train", n_train)

    @property
    def n_samples(self):
        return self.y_true.size

    @property
    def n_rounds(self):
        return self.test_indices.shape[0]

    @property
    def n_test(self):
        return self.test_indices.shape[1]

    @property
    def round_accuracy(self):
        accuracy = np.count_nonzero(self.correct, axis=1) / self.n_test
        accuracy.setflags(write=False)
        return accuracy

    @property
    def accuracy(self):
        return float(self.round_accuracy.mean())

    def _repr_fields(self):
        return {"n_samples": self.n_samples, "n_rounds": self.n_rounds, "n_train": self.n_train,
                "n_test": self.n_test, "accuracy": f"{self.accuracy:.4g}"}

    def to_frame(self):
        """A pandas DataFrame with one row per round and test instance.

        Columns: ``round``, ``instance`` (the row number in the data),
        ``y_true`` and ``correct``. Needs pandas.

        Returns
        -------
        pandas.DataFrame
        """
        return import_pandas().DataFrame({
            "round": np.repeat(np.arange(self.n_rounds), self.n_test),
            "instance": self.test_indices.ravel(),
            "y_true": self.y_true[self.test_indices.ravel()],
            "correct": self.correct.ravel(),
        })

    def summary(self):
        """The rounds, the mean accuracy, and why no interval or t-test is given.

        Returns
        -------
        str

        Examples
        --------
        >>> from cvinference.records import SubsamplingResult
        >>> result = SubsamplingResult(test_indices=[[0, 1], [1, 2]],
        ...                            correct=[[True, False], [True, True]], y_true=[0, 1, 1, 0], n_train=2)
        >>> print(result.summary())
        random subsampling: 2 rounds, 2 training and 2 test instances each, n = 4
        accuracy 0.7500: the mean of 2 round accuracies (from 0.5000 to 1.0000)
        estimand: accuracy of the models the learner fits to 2 instances of this dataset
        test sets: 1 of the 3 tested instances were tested in more than one round
        notes:
          - No standard error, interval or t-test across rounds: the test sets of different rounds overlap, ...
        """
        tested = np.bincount(self.test_indices.ravel(), minlength=self.n_samples)
        lines = [f"random subsampling: {self.n_rounds} rounds, {self.n_train} training and {self.n_test} "
                 f"test instances each, n = {self.n_samples}"]
        if self.estimator_repr:
            lines.append(f"estimator: {self.estimator_repr}")
        if self.cv_repr:
            lines.append(f"splitter: {self.cv_repr}")
        lines += [
            f"accuracy {self.accuracy:.4f}: the mean of {self.n_rounds} round accuracies "
            f"(from {self.round_accuracy.min():.4f} to {self.round_accuracy.max():.4f})",
            f"estimand: accuracy of the models the learner fits to {self.n_train} instances of this dataset",
            f"test sets: {np.count_nonzero(tested > 1)} of the {np.count_nonzero(tested)} tested instances "
            "were tested in more than one round",
        ]
        note = (f"No standard error, interval or t-test across rounds: {NOT_INDEPENDENT}. Compare two "
                "learners with corrected_resampled_ttest(a, b) or bayesian_correlated_ttest(a, b) on "
                "random_subsampling results with the same data and the same int random_state; for an "
                "interval on one learner use holdout() and accuracy_interval")
        return "\n".join(lines + text_block("notes", [note]))
