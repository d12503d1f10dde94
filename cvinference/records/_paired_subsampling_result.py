"""The record of Nadeau & Bengio's paired subsampling: test losses of random splits of the data and of its halves."""

import dataclasses

import numpy as np

from .._utils._kinds import POSITIVE, TEXT, Array, Sequence
from .._utils._notebook import import_pandas
from .._utils._params import Boolean, Explained, Integer, Text
from ._fields import OneOrTwoLearners, array_field, check_indices, learner_descriptions, learner_lines
from ._record import Record

ONE_PAIR = (
    "One pair of halves gives one squared difference, a variance estimate with one degree of freedom, which the "
    "conservative Z's normal quantile treats as known: were the halves' variance that of all the data, a 95% "
    "interval would cover about 70% of the time (Student's t with one degree of freedom needs 12.7, not 1.96)."
)
"""Why the conservative Z needs two pairs of halves or more."""

N_PAIRS = Explained(Integer(minimum=2), ONE_PAIR + " Pass n_pairs >= 2; the default is 10.")
"""The number of pairs of halves, M, of paired subsampling."""


def _check_halves(halves, n_samples):
    """Refuse a pair whose halves share an instance."""
    check_indices("halves", halves, n_samples)
    for m, (first, second) in enumerate(halves):
        if np.intersect1d(first, second).size:
            raise ValueError(f"the two halves of pair {m} must be disjoint; they share "
                             f"{np.intersect1d(first, second).size} instance(s).")


def _check_tests_in_halves(test_indices, halves):
    """Refuse a split of half ``side`` of pair m (group 1 + 2 m + side) that tests an instance outside it."""
    for m, pair in enumerate(halves):
        for side, half in enumerate(pair):
            if not np.isin(test_indices[1 + 2 * m + side], half).all():
                raise ValueError(f"test_indices[{1 + 2 * m + side}] must test instances of half {side} of pair {m} "
                                 "(halves[m, side]) only: group 1 + 2 m + side holds the splits of that half.")


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class PairedSubsamplingResult(OneOrTwoLearners, Record):
    """What Nadeau & Bengio's paired subsampling did: the test losses of every split, per learner.

    Made by :func:`paired_subsampling`; :func:`conservative_z_interval_of`
    computes Nadeau & Bengio's (2003) conservative Z interval from it. The
    splits come in 2 M + 1 groups of J: group 0 holds J random splits of
    all the data, group 1 + 2 m + side the J splits of half ``side`` of the
    m-th pair of disjoint halves. Every split trains on ``n_train`` (n1)
    instances and tests ``n_test`` (n2) others. Two learners are on
    identical splits.

    Parameters
    ----------
    test_indices : array-like of int, shape (2 n_pairs + 1, n_rounds, n_test)
        The test instances of every split, as row numbers into the data.
    losses : array-like of float, shape (n_learners, 2 n_pairs + 1, n_rounds, n_test)
        ``losses[e, g, j, i]``: the loss of learner e's model fitted to the
        training part of split j of group g on instance
        ``test_indices[g, j, i]``. One or two learners.
    halves : array-like of int, shape (n_pairs, 2, half_size)
        The two disjoint halves of every pair.
    n_samples : int
        The size of the data.
    n_train : int
        n1, the training size of every split; n1 + n2 <= half_size.
    stratified : bool, default=False
        Whether every halving and every split kept the class proportions.
    loss_name : str, default="zero_one"
        The per-instance loss.
    estimator_reprs : tuple of str, default=()
        One description per learner, or none.

    Attributes
    ----------
    test_indices, losses, halves : ndarray
        Read-only.
    n_learners, n_pairs, n_rounds, n_test, half_size : int
        n_pairs is M and n_rounds J, the random splits of each group.
    paired : bool
        Whether two learners were fitted.
    nonnegative : bool
        Whether no loss is negative.
    n_samples, n_train, stratified, loss_name, estimator_reprs
        As given.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.records import PairedSubsamplingResult
    >>> halves = [[[0, 1], [2, 3]]]
    >>> test_indices = [[[0], [3]], [[1], [0]], [[2], [3]]]  # groups: all the data, half 0, half 1
    >>> result = PairedSubsamplingResult(test_indices=test_indices, losses=np.zeros((1, 3, 2, 1)),
    ...                                  halves=halves, n_samples=4, n_train=1)
    >>> result
    PairedSubsamplingResult(n_samples=4, n_pairs=1, n_rounds=2, n_train=1, n_test=1, n_learners=1)
    """

    test_indices: np.ndarray
    losses: np.ndarray
    halves: np.ndarray
    n_samples: int
    n_train: int
    stratified: bool = False
    loss_name: str = "zero_one"
    estimator_reprs: tuple = ()

    _kinds = {"test_indices": Array("iu", ndim=3, low=0, min_rows=1), "losses": Array("f", ndim=4, min_rows=1),
              "halves": Array("iu", ndim=3, low=0, min_rows=1), "n_samples": POSITIVE, "n_train": POSITIVE,
              "loss_name": TEXT, "estimator_reprs": Sequence(TEXT)}

    def __post_init__(self):
        n_samples = Integer(minimum=2).check("n_samples", self.n_samples)
        halves = array_field("halves", self.halves, "int", (None, 2, None))
        n_pairs, _, half_size = halves.shape
        test_indices = array_field("test_indices", self.test_indices, "int", (2 * n_pairs + 1, None, None))
        losses = array_field("losses", self.losses, "float", (None, *test_indices.shape))
        n_train = Integer(minimum=1).check("n_train", self.n_train)
        if losses.shape[0] > 2:
            raise ValueError(f"losses must hold one or two learners (its first dimension); got {losses.shape[0]}.")
        if n_train + test_indices.shape[2] > half_size or 2 * half_size > n_samples:
            raise ValueError(f"n_train + n_test must not exceed half_size and two halves must fit in n_samples; got "
                             f"n_train={n_train}, n_test={test_indices.shape[2]}, half_size={half_size} and "
                             f"n_samples={n_samples}.")
        _check_halves(halves, n_samples)
        check_indices("test_indices", test_indices, n_samples)
        _check_tests_in_halves(test_indices, halves)
        for name, value in (("test_indices", test_indices), ("losses", losses), ("halves", halves),
                            ("n_samples", n_samples), ("n_train", n_train)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "stratified", Boolean().check("stratified", self.stratified))
        object.__setattr__(self, "loss_name", Text("zero_one").check("loss_name", self.loss_name))
        object.__setattr__(self, "estimator_reprs",
                           learner_descriptions("estimator_reprs", self.estimator_reprs, losses.shape[0]))

    @property
    def _losses_of_learners(self):
        return self.losses

    @property
    def n_pairs(self):
        return self.halves.shape[0]

    @property
    def n_rounds(self):
        return self.test_indices.shape[1]

    @property
    def n_test(self):
        return self.test_indices.shape[2]

    @property
    def half_size(self):
        return self.halves.shape[2]

    @property
    def nonnegative(self):
        return bool(self.losses.min() >= 0)

    def _repr_fields(self):
        return {"n_samples": self.n_samples, "n_pairs": self.n_pairs, "n_rounds": self.n_rounds,
                "n_train": self.n_train, "n_test": self.n_test, "n_learners": self.n_learners}

    def to_frame(self):
        """A pandas DataFrame with one row per learner, group of splits, round and test instance (needs pandas).

        Columns: ``learner`` (0, and 1 for a second learner), ``group`` (0:
        splits of all the data; 1 + 2 m and 2 + 2 m: of the two halves of
        pair m), ``round``, ``instance`` (the row number in the data) and
        ``loss``.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import numpy as np
        >>> from cvinference.records import PairedSubsamplingResult
        >>> record = PairedSubsamplingResult(test_indices=[[[2], [3]], [[1], [1]], [[3], [2]]], n_samples=4,
        ...                                  losses=np.ones((1, 3, 2, 1)), halves=[[[0, 1], [2, 3]]], n_train=1)
        >>> record.to_frame()["instance"].tolist()
        [2, 3, 1, 1, 3, 2]
        """
        learners = self.losses.shape[0]
        groups, rounds, tested = self.test_indices.shape
        index = np.indices((learners, groups, rounds, tested)).reshape(4, -1)
        return import_pandas().DataFrame({
            "learner": index[0], "group": index[1], "round": index[2],
            "instance": np.tile(self.test_indices.ravel(), learners), "loss": self.losses.ravel()})

    def summary(self):
        """The splits, and each learner's mean loss on the splits of all the data.

        Returns
        -------
        str

        Examples
        --------
        >>> import numpy as np
        >>> from cvinference.records import PairedSubsamplingResult
        >>> result = PairedSubsamplingResult(test_indices=[[[0], [3]], [[1], [0]], [[2], [3]]],
        ...                                  losses=np.zeros((1, 3, 2, 1)), halves=[[[0, 1], [2, 3]]],
        ...                                  n_samples=4, n_train=1)
        >>> print(result.summary())
        paired subsampling: n = 4 instances, 1 pair of disjoint halves of 2 instances
        2 random splits of all the data and of each half, n1 = 1 training and n2 = 1 test instances each
        mean zero_one loss on the splits of all the data: 0.0000
        conservative_z_interval_of(result) gives the interval for the models fitted to n1 instances
        """
        pairs = "pair" if self.n_pairs == 1 else "pairs"
        lines = [f"paired subsampling: n = {self.n_samples} instances, {self.n_pairs} {pairs} of disjoint halves of "
                 f"{self.half_size} instances" + (", stratified" if self.stratified else ""),
                 f"{self.n_rounds} random splits of all the data and of each half, n1 = {self.n_train} training "
                 f"and n2 = {self.n_test} test instances each", *learner_lines(self.estimator_reprs)]
        texts = [f" on the splits of all the data: {losses[0].mean():.4f}" for losses in self.losses]
        lines += self._loss_lines(texts, "conservative_z_interval_of", "the models fitted to n1 instances")
        return "\n".join(lines)
