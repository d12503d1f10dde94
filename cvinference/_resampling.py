"""Holdout, random subsampling, and the tests for repeated resampling.

Kohavi (1995) gives the holdout its binomial interval ("Holdout", "Confidence
Bounds") and warns that repeating it (random subsampling) makes the rounds
dependent ("Random Subsampling"). The corrected resampled t of Nadeau & Bengio
(2003), its repeated k-fold form of Bouckaert & Frank (2004) and the Bayesian
correlated t-test of Corani & Benavoli (2015) and Benavoli et al. (2017)
compare two learners on such dependent rounds or folds.
"""

import dataclasses
import math
import numbers
import types
from typing import Optional

import numpy as np
from scipy import stats
from sklearn.base import clone
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, train_test_split

from ._comparisons import _check_paired, _t_or_z, same_folds
from ._fitting import fit_and_predict
from ._inference_support import Messages, check_accuracy_result
from ._pool import run_fits
from ._results import CVResult
from ._stat_results import ALTERNATIVES, TestResult, _format_number, _readonly_array, _text_block, check_choice
from ._validation import check_bool, check_estimator_methods, check_int, estimator_description, prepare_data

_NOT_INDEPENDENT = (
    "the test sets of different rounds overlap, so the round accuracies are not independent and a "
    "standard deviation or t-test across rounds is wrong (Kohavi 1995, \"Random Subsampling\"; "
    "Wong 2015, section 4.3.4)"
)


# --------------------------------------------------------------------------- holdout and subsampling


def _check_test_size(test_size):
    """Return ``test_size`` as a float strictly between 0 and 1."""
    if isinstance(test_size, (bool, np.bool_)) or not isinstance(test_size, numbers.Real):
        raise TypeError(
            f"test_size must be the fraction of instances held out for testing, a number strictly "
            f"between 0 and 1 such as 1/3; got test_size={test_size!r}."
        )
    if not 0 < test_size < 1:
        raise ValueError(
            f"test_size must be strictly between 0 and 1: the fraction of instances held out for "
            f"testing, such as 1/3 (a count of instances is not accepted); got test_size={test_size!r}."
        )
    return float(test_size)


def _prepare(estimator, X, y, needed_by):
    """Checked estimator and data: indexable X and y, the labels as an array, n."""
    check_estimator_methods(estimator)
    X, y, _, y_array = prepare_data(X, y, classification=True, needed_by=needed_by)
    return X, y, y_array, y_array.size


def holdout(estimator, X, y, *, test_size=1 / 3, stratify=True, random_state=None):
    """Fit on one random training part, test on the rest (Kohavi's holdout).

    Parameters
    ----------
    estimator : estimator instance
        A classifier with ``fit`` and ``predict``; it is cloned, never fitted.
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels.
    test_size : float, default=1/3
        Fraction of the instances held out for testing, strictly between 0
        and 1; the test part has ceil(test_size * n) instances, as in
        :func:`sklearn.model_selection.train_test_split`.
    stratify : bool, default=True
        Keep the class proportions in both parts.
    random_state : int, RandomState instance or None, default=None
        Seeds the split, as in ``train_test_split``.

    Returns
    -------
    CVResult
        The test part as a result with one fold (``fold`` all zeros) over the
        test instances: ``y_true`` the test labels, ``y_pred`` the
        predictions, and ``n_train`` the training size. ``accuracy_interval``
        gives its binomial interval.

    See Also
    --------
    random_subsampling : the holdout repeated.

    Notes
    -----
    Kohavi (1995), "Holdout": the training and test sets are mutually
    exclusive; the estimate is pessimistic, as only part of the data trains
    the model. "Confidence Bounds": each test instance is a Bernoulli trial,
    so the number S of correct predictions among the h test instances is
    binomial and acc_h = S / h is approximately normal with variance
    acc (1 - acc) / h (his equation 1). ``accuracy_interval(result)`` gives
    that normal interval when the counts allow it (Wong 2015, Theorem 1,
    with one fold) and the exact Clopper-Pearson interval otherwise; the
    estimand names the training size. Wong (2015, end of section 4.3.4) also
    accepts a single random test part, but not its repetition.

    The split is ``train_test_split(arange(n), test_size=test_size,
    stratify=y if stratify else None, random_state=random_state)``, so
    ``train_test_split(X, y, ...)`` with the same arguments gives the same
    parts.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference import accuracy_interval, holdout
    >>> X, y = load_iris(return_X_y=True)
    >>> result = holdout(GaussianNB(), X, y, random_state=0)
    >>> result.n_samples, result.n_train
    (50, 100)
    >>> accuracy_interval(result, method="clopper-pearson").method
    'clopper-pearson'
    """
    test_size = _check_test_size(test_size)
    stratify = check_bool(stratify, "stratify")
    X, y, y_array, n_samples = _prepare(estimator, X, y, "holdout")
    train, test = train_test_split(
        np.arange(n_samples), test_size=test_size, stratify=y_array if stratify else None,
        random_state=random_state,
    )
    predictions, _ = fit_and_predict(clone(estimator), X, y, train, test, where="the holdout split")
    return CVResult(
        y_array[test], predictions, np.zeros(test.size, dtype=np.intp),
        estimator_repr=estimator_description(estimator),
        cv_repr=f"holdout(test_size={test_size:.4g}, stratify={stratify}, random_state={random_state!r})",
        n_train=train.size,
    )


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class SubsamplingResult:
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
    >>> from cvinference import SubsamplingResult
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
    estimator_repr: Optional[str] = None
    cv_repr: Optional[str] = None

    def __post_init__(self):
        y_true = np.asarray(self.y_true)
        if y_true.ndim != 1:
            raise ValueError(f"y_true must be 1-d; got shape {y_true.shape}.")
        indices, correct = np.asarray(self.test_indices), np.asarray(self.correct)
        n_samples = y_true.size
        if indices.ndim != 2 or indices.shape[1] == 0 or indices.dtype.kind not in "iu":
            raise ValueError(
                f"test_indices must be a 2-d integer array (n_rounds, n_test) with n_test >= 1; got "
                f"dtype {indices.dtype} and shape {indices.shape}."
            )
        if indices.min() < 0 or indices.max() >= n_samples:
            raise ValueError(f"test_indices must lie in 0 .. n_samples - 1 = {n_samples - 1}.")
        if correct.shape != indices.shape or correct.dtype.kind != "b":
            raise ValueError(
                f"correct must be a bool array of the shape of test_indices {indices.shape}; got "
                f"dtype {correct.dtype} and shape {correct.shape}."
            )
        n_train = check_int(self.n_train, "n_train", minimum=1)
        if n_train + indices.shape[1] > n_samples:
            raise ValueError(
                f"n_train + n_test must not exceed n_samples={n_samples}; got n_train={n_train} and "
                f"n_test={indices.shape[1]}."
            )
        object.__setattr__(self, "test_indices", _readonly_array(indices, np.intp))
        object.__setattr__(self, "correct", _readonly_array(correct, bool))
        object.__setattr__(self, "y_true", _readonly_array(y_true))
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

    def __repr__(self):
        return (
            f"{type(self).__name__}(n_samples={self.n_samples}, n_rounds={self.n_rounds}, "
            f"n_train={self.n_train}, n_test={self.n_test}, accuracy={self.accuracy:.4g})"
        )

    def summary(self):
        """The rounds, the mean accuracy, and why no interval or t-test is given.

        Returns
        -------
        str

        Examples
        --------
        >>> from cvinference import SubsamplingResult
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
        note = (f"No standard error, interval or t-test across rounds: {_NOT_INDEPENDENT}. Compare two "
                "learners with corrected_resampled_ttest(a, b) or bayesian_correlated_ttest(a, b) on "
                "random_subsampling results with the same data and the same int random_state; for an "
                "interval on one learner use holdout() and accuracy_interval")
        return "\n".join(lines + _text_block("notes", [note]))


def random_subsampling(estimator, X, y, *, n_rounds=30, test_size=1 / 3, stratify=True, random_state=None,
                       n_jobs=None):
    """Repeat the holdout on ``n_rounds`` random splits and average the accuracies.

    Parameters
    ----------
    estimator : estimator instance
        A classifier with ``fit`` and ``predict``; it is cloned, never fitted.
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels.
    n_rounds : int, default=30
        Number of random splits, at least 2 (one round is :func:`holdout`).
    test_size : float, default=1/3
        Fraction of the instances tested in each round, strictly between 0
        and 1 (ceil(test_size * n) instances).
    stratify : bool, default=True
        Keep the class proportions in every split
        (:class:`~sklearn.model_selection.StratifiedShuffleSplit`; otherwise
        :class:`~sklearn.model_selection.ShuffleSplit`).
    random_state : int, RandomState instance or None, default=None
        Seeds the splitter. Two calls with the same int and the same data
        draw the same test sets, which the paired tests need.
    n_jobs : int, default=None
        Number of jobs for the fits (one joblib pool over the rounds). None
        means 1 unless in a :func:`joblib.parallel_config` context.

    Returns
    -------
    SubsamplingResult
        Per-round test indices and correctness, ``round_accuracy`` and their
        mean ``accuracy``.

    See Also
    --------
    corrected_resampled_ttest : compare two learners on the same rounds.

    Notes
    -----
    Kohavi (1995), "Random Subsampling": repeating the holdout many times.
    Its test sets overlap from round to round (two rounds share about
    n_test^2 / n instances), so the round accuracies are not independent:
    "One cannot compute the standard deviation of the samples' mean accuracy
    in random subsampling because the test instances are not independent",
    and the t-tests commonly reported for it are wrong; his summary:
    "Standard deviations can be computed for cross-validation, but are
    incorrect for random subsampling (holdout)". Wong (2015, section 4.3.4)
    says the same of repeated random test sets. The result therefore gives
    the mean accuracy but no interval, and the naive tests
    (:func:`matched_sample_test`, :func:`accuracy_interval`, ...) refuse it.
    :func:`corrected_resampled_ttest` (Nadeau & Bengio 2003) was derived for
    exactly this scheme.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference import random_subsampling
    >>> X, y = load_iris(return_X_y=True)
    >>> result = random_subsampling(GaussianNB(), X, y, n_rounds=5, random_state=0)
    >>> result.n_rounds, result.n_train, result.n_test
    (5, 100, 50)
    >>> bool(result.accuracy == result.round_accuracy.mean())
    True
    """
    n_rounds = check_int(n_rounds, "n_rounds", minimum=2)
    test_size = _check_test_size(test_size)
    stratify = check_bool(stratify, "stratify")
    X, y, y_array, n_samples = _prepare(estimator, X, y, "random_subsampling")
    splitter = (StratifiedShuffleSplit if stratify else ShuffleSplit)(
        n_splits=n_rounds, test_size=test_size, random_state=random_state)
    splits = list(splitter.split(np.zeros((n_samples, 1)), y_array))
    tasks = [(0, f"round {r}", train, test) for r, (train, test) in enumerate(splits)]
    outputs = run_fits([estimator], X, y, tasks, names=["estimator"], n_jobs=n_jobs)
    correct = [np.asarray(predictions == y_array[test], dtype=bool) for (predictions, _), (_, test) in zip(outputs, splits)]
    return SubsamplingResult(
        test_indices=np.stack([test for _, test in splits]), correct=np.stack(correct), y_true=y_array,
        n_train=len(splits[0][0]), estimator_repr=estimator_description(estimator),
        cv_repr=" ".join(repr(splitter).split()),
    )


# --------------------------------------------------------------------------- paired differences


@dataclasses.dataclass(frozen=True)
class _Differences:
    """The paired differences of two resampling results, and what their correlation needs."""

    values: np.ndarray  # accuracy(A) - accuracy(B) per fold or round, all repeats
    variance: float  # sample variance of values (exactly 0 when they are all equal)
    test_train_ratio: float  # n_test / n_train
    rho: float  # n_test / (n_test + n_train)
    training_size: float  # n_train (mean over folds)
    kfold: bool  # repeated k-fold (True) or random subsampling (False)
    layout: dict  # {"k": ..., "r": ...} or {"n_rounds": ...}

    @property
    def scheme(self):
        if self.kfold:
            return f"{self.layout['r']} x {self.layout['k']}-fold cross-validation"
        return f"random subsampling, {self.layout['n_rounds']} rounds"


def _paired_differences(a, b, test):
    """Check a pair of results for a corrected test and return their differences."""
    for name, result in (("a", a), ("b", b)):
        if not isinstance(result, (CVResult, SubsamplingResult)):
            raise TypeError(
                f"{test} takes two CVResults of (repeated) k-fold on identical folds, as made by "
                f"CVEvaluator.compare, or two SubsamplingResults of random_subsampling; got {name} of "
                f"type {type(result).__name__}."
            )
    if isinstance(a, CVResult) != isinstance(b, CVResult):
        raise TypeError(
            f"{test} pairs results of the same scheme; a is a {type(a).__name__} and b a "
            f"{type(b).__name__}. Evaluate both learners with CVEvaluator.compare or both with "
            "random_subsampling (same data, same int random_state)."
        )
    if isinstance(a, CVResult):
        return _kfold_differences(a, b, test)
    return _subsampling_differences(a, b, test)


def _values_and_variance(values):
    """Values as a 1-d array and their sample variance, exactly 0 when all are equal."""
    values = np.ravel(values).astype(np.float64)
    values.setflags(write=False)
    variance = 0.0 if (values == values[0]).all() else float(values.var(ddof=1))
    return values, variance


def _kfold_differences(a, b, test):
    check_accuracy_result(a, "a")
    check_accuracy_result(b, "b")
    _check_paired(a, b, test)
    if not same_folds(a, b):
        raise ValueError(
            f"{test} pairs the fold accuracies of A and B, but a and b were not cross-validated on "
            f"identical folds (fold arrays of shapes {a.fold.shape} and {b.fold.shape}, or different "
            "partitions). Use CVEvaluator(...).compare(estimator_a, estimator_b, X, y)."
        )
    if a.is_loo:
        raise ValueError(
            f"{test} does not apply to leave-one-out (n_splits = n_samples = {a.n_samples}): each "
            "difference is -1, 0 or +1 on one instance, and the correction n_test / n_train was not "
            "derived or studied for it. Use matched_sample_test(a, b) (Wong 2015, Theorem 4) or "
            "mcnemar_test(a, b), or repeated k-fold with k < n."
        )
    if a.n_splits < 2:
        raise ValueError(
            f"{test} needs at least two folds; a has n_splits=1 (a holdout?). Compare a holdout with "
            "mcnemar_test(a, b), or use repeated k-fold or random_subsampling."
        )
    if a.n_train != b.n_train:
        raise ValueError(f"a and b must have the same training size; got n_train={a.n_train} and {b.n_train}.")
    sizes = a.fold_sizes
    training = np.full(sizes.shape, a.n_train) if a.n_train is not None else a.n_samples - sizes
    values, variance = _values_and_variance((a.fold_correct - b.fold_correct) / sizes)
    return _Differences(
        values=values, variance=variance, test_train_ratio=float(np.mean(sizes / training)),
        rho=float(np.mean(sizes / (sizes + training))), training_size=float(training.mean()), kfold=True,
        layout={"k": a.n_splits, "r": a.n_repeats},
    )


def _subsampling_differences(a, b, test):
    if a.n_samples != b.n_samples or not np.array_equal(a.y_true, b.y_true):
        raise ValueError(
            f"{test} pairs the rounds of A and B on the same instances, but a and b have different "
            "y_true. Run random_subsampling on the same data for both."
        )
    if a.test_indices.shape != b.test_indices.shape or not np.array_equal(a.test_indices, b.test_indices):
        raise ValueError(
            f"{test} pairs the rounds of A and B, but their test indices differ (shapes "
            f"{a.test_indices.shape} and {b.test_indices.shape}). Run random_subsampling for both with "
            "the same n_rounds, test_size, stratify and int random_state."
        )
    if a.n_train != b.n_train:
        raise ValueError(f"a and b must have the same training size; got n_train={a.n_train} and {b.n_train}.")
    if a.n_rounds < 2:
        raise ValueError(f"{test} needs at least two rounds; a and b have n_rounds={a.n_rounds}.")
    correct_a, correct_b = np.count_nonzero(a.correct, axis=1), np.count_nonzero(b.correct, axis=1)
    values, variance = _values_and_variance((correct_a - correct_b) / a.n_test)
    return _Differences(
        values=values, variance=variance, test_train_ratio=a.n_test / a.n_train,
        rho=a.n_test / (a.n_test + a.n_train), training_size=float(a.n_train), kfold=False,
        layout={"n_rounds": a.n_rounds},
    )


def _estimand(differences, what="difference"):
    size = differences.training_size
    size = f"{size:.0f}" if size.is_integer() else f"about {round(size)}"
    return (
        f"{what} in expected accuracy (A minus B) of the two learners' models fitted to "
        f"{size} instances, averaged over training sets of that size from the "
        "population (Nadeau & Bengio 2003's generalization error); the correction allows for the variation "
        "of training sets only approximately, and one dataset cannot check it (Vanwinckelen & Blockeel 2015)"
    )


def _assumptions(differences):
    source = ("Nadeau & Bengio's approximation for random splits, applied to repeated k-fold as Bouckaert & "
              "Frank 2004 propose: a heuristic, as its folds are not independent random splits"
              if differences.kfold else
              "Nadeau & Bengio 2003's approximation, derived for independent random train/test splits")
    return (
        "the differences share one mean and variance, and any two are correlated by about "
        f"rho = n_test / n ({source}); normal differences"
    )


# --------------------------------------------------------------------------- the two tests


def corrected_resampled_ttest(a, b, *, alternative="two-sided"):
    """Corrected t-test over repeated resampling (Nadeau-Bengio; Bouckaert-Frank).

    Parameters
    ----------
    a, b : CVResult or SubsamplingResult
        Either two results of (repeated) k-fold on identical folds, as made by
        :meth:`CVEvaluator.compare` (with ``n_repeats = r``), or two results
        of :func:`random_subsampling` with identical test sets (same data and
        int ``random_state``). Leave-one-out is refused.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative to accuracy(A) = accuracy(B); ``"greater"`` is
        "A is more accurate".

    Returns
    -------
    TestResult
        ``statistic`` (t), ``pvalue``, ``df``, ``estimate`` (the mean
        difference, A minus B), ``standard_error`` (the corrected one) and
        ``confidence_interval()``. ``details`` holds the differences ``d``,
        ``n_test_over_n_train``, ``variance_factor`` and the layout (``k``
        and ``r``, or ``n_rounds``).

    Warns
    -----
    InferenceWarning
        When all differences are equal (p = 1 when they are all 0).

    See Also
    --------
    bayesian_correlated_ttest : the same differences, read as a posterior.
    matched_sample_test : Wong's t for a single k-fold.

    Notes
    -----
    With the N paired differences d_i = accuracy_A - accuracy_B of the folds
    (or rounds), their mean d and sample variance s^2,

        t = d / sqrt((1 / N + n_test / n_train) s^2),  df = N - 1.

    Random subsampling, J rounds (N = J): the corrected resampled t of Nadeau
    & Bengio (2003), "Inference for the generalization error", Machine
    Learning 52. Two rounds share training and test instances, so their
    differences are correlated. With variance sigma^2 and correlation rho
    between any two, the mean difference has variance
    sigma^2 (1 / J + rho (J - 1) / J) while s^2 estimates (1 - rho) sigma^2,
    so Var(mean d) = (1 / J + rho / (1 - rho)) E[s^2]; Nadeau & Bengio
    approximate rho by n_test / n, that is rho / (1 - rho) by
    n_test / n_train. They
    derived it for independent random train/test splits, the scheme of
    :func:`random_subsampling`; in their simulations its size was near the
    nominal level, where the uncorrected resampled t (factor 1 / J) rejects
    far too often (as Dietterich 1998 had shown).

    Repeated k-fold, r repeats (N = k r): the corrected repeated k-fold cv
    test of Bouckaert & Frank (2004), "Evaluating the replicability of
    significance tests for comparing learning algorithms", PAKDD: the same
    formula over all k r fold differences, with n_test / n_train the mean of
    m_j / (n - m_j) over the folds (1 / (k - 1) for equal folds). This is a
    heuristic: the folds of one repeat are disjoint, not independent random
    splits, and the correction was not derived for them. In Bouckaert &
    Frank's simulations it was among the most replicable tests, with
    acceptable type I error (they recommend 10 x 10-fold). With r = 1 it differs from the matched-sample t only by the
    factor 1 / k + 1 / (k - 1) in place of 1 / k.

    What it estimates: the expected difference in accuracy of the two
    learners trained on n_train instances, over training sets of that size
    (Nadeau & Bengio's generalization error), not the difference of the
    particular models fitted here; the term n_test / n_train stands for the
    variation of training sets, which one dataset cannot measure
    (Vanwinckelen & Blockeel 2015). All differences equal gives s = 0: a
    warning and, when they are all 0, t = 0 and p = 1.

    Examples
    --------
    Two repeats of 5-fold cross-validation with 40 instances per fold.

    >>> import numpy as np
    >>> from cvinference import CVResult, corrected_resampled_ttest
    >>> fold = np.tile(np.repeat(np.arange(5), 40), (2, 1))
    >>> def result(correct):
    ...     y_pred = [np.concatenate([[1] * r + [0] * (40 - r) for r in row]) for row in correct]
    ...     return CVResult(y_true=np.ones(200, dtype=int), y_pred=y_pred, fold=fold)
    >>> a = result([[32, 28, 30, 30, 32], [31, 30, 29, 33, 29]])
    >>> b = result([[30, 27, 30, 26, 30], [30, 29, 30, 28, 30]])
    >>> corrected_resampled_ttest(a, b)
    TestResult(statistic=1.21, pvalue=0.2569, df=9, alternative='two-sided', estimate=0.035, method='corrected repeated k-fold t')
    """
    differences = _paired_differences(a, b, "corrected_resampled_ttest")
    check_choice(alternative, "alternative", ALTERNATIVES)
    d, n = differences.values, differences.values.size
    factor = 1 / n + differences.test_train_ratio
    estimate = float(d.mean())
    standard_error = math.sqrt(factor * differences.variance)
    df = n - 1
    messages = Messages()
    statistic, pvalue = _t_or_z(estimate, standard_error, df, alternative, messages)
    if differences.kfold:
        method = "corrected repeated k-fold t"
        messages.note(
            f"{differences.scheme}: Nadeau & Bengio's correction applied to the {n} fold differences as "
            "Bouckaert & Frank (2004) propose; it was derived for random train/test splits, so here it "
            "is a heuristic"
        )
    else:
        method = "corrected resampled t"
        messages.note(f"{differences.scheme}: the corrected resampled t of Nadeau & Bengio (2003)")
    messages.note(
        f"variance factor 1/{n} + n_test/n_train = {factor:.4g} in place of the naive 1/{n}: the standard "
        f"error is {math.sqrt(factor * n):.3g} times the naive t's"
    )
    details = {"d": tuple(float(v) for v in d), "n_differences": n, "variance": differences.variance,
               "n_test_over_n_train": differences.test_train_ratio, "variance_factor": factor,
               **differences.layout}
    return TestResult(
        statistic=statistic, pvalue=pvalue, df=df, alternative=alternative, estimate=estimate,
        standard_error=standard_error, method=method, estimand=_estimand(differences),
        assumptions=_assumptions(differences), interval_standard_error=standard_error, interval_df=df,
        details=types.MappingProxyType(details), **messages.as_fields(),
    )


def _check_rope(rope):
    if isinstance(rope, (bool, np.bool_)) or not isinstance(rope, numbers.Real):
        raise TypeError(
            f"rope must be a number >= 0, the half-width of the region of practical equivalence "
            f"(such as 0.01 for one percentage point of accuracy); got rope={rope!r}."
        )
    if not (math.isfinite(rope) and rope >= 0):
        raise ValueError(
            f"rope must be a finite number >= 0: the half-width of the region of practical equivalence "
            f"[-rope, rope] in accuracy, such as 0.01; got rope={rope!r}."
        )
    return float(rope)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class BayesianResult:
    """The posterior of the mean difference in accuracy, and its three regions.

    Made by :func:`bayesian_correlated_ttest`. The posterior of the mean
    difference mu = accuracy(A) - accuracy(B) is Student's t with ``df``
    degrees of freedom, location ``posterior_mean`` and scale
    ``posterior_scale`` (a point mass when the scale is 0).

    Attributes
    ----------
    prob_a_better : float
        P(mu > rope): A is practically better.
    prob_equivalent : float
        P(-rope <= mu <= rope): practically equivalent (0 for ``rope=0``,
        unless the posterior is a point mass at 0).
    prob_b_better : float
        P(mu < -rope): B is practically better.
    posterior_mean : float
        The mean of the differences, A minus B.
    posterior_scale : float
        s sqrt(1 / n + rho / (1 - rho)).
    df : int
        n - 1, with n the number of differences.
    rope : float
        Half-width of the region of practical equivalence.
    rho : float
        The correlation of two differences, n_test / n (1/k for k-fold).
    method, estimand, assumptions : str
    details : mapping
        The differences ``d``, their ``variance`` and the layout (``k`` and
        ``r``, or ``n_rounds``).
    notes, warnings : tuple of str
    """

    prob_a_better: float
    prob_equivalent: float
    prob_b_better: float
    posterior_mean: float
    posterior_scale: float
    df: int
    rope: float
    rho: float
    method: str
    estimand: str
    assumptions: str
    details: types.MappingProxyType = dataclasses.field(default_factory=lambda: types.MappingProxyType({}))
    notes: tuple = ()
    warnings: tuple = ()

    def __repr__(self):
        return (
            f"{type(self).__name__}(prob_a_better={_format_number(self.prob_a_better)}, "
            f"prob_equivalent={_format_number(self.prob_equivalent)}, "
            f"prob_b_better={_format_number(self.prob_b_better)}, rope={self.rope})"
        )

    def summary(self):
        """The three probabilities, the posterior, what it is about, and warnings.

        Returns
        -------
        str
        """
        lines = [
            f"{self.method} (rope = +-{self.rope:g} in accuracy): P(A better) = {self.prob_a_better:.3f}, "
            f"P(equivalent) = {self.prob_equivalent:.3f}, P(B better) = {self.prob_b_better:.3f}",
            f"posterior of accuracy A - accuracy B: Student t, df = {self.df}, location "
            f"{self.posterior_mean:+.4f}, scale {self.posterior_scale:.4f} (rho = {self.rho:.4g})",
            f"estimand: {self.estimand}",
            f"assumptions: {self.assumptions}",
        ]
        return "\n".join(lines + _text_block("notes", self.notes) + _text_block("warnings", self.warnings))


def bayesian_correlated_ttest(a, b, *, rope=0.01):
    """Bayesian correlated t-test: P(A better), P(practically equal), P(B better).

    Parameters
    ----------
    a, b : CVResult or SubsamplingResult
        As for :func:`corrected_resampled_ttest`: (repeated) k-fold on
        identical folds, or random subsampling on identical test sets.
    rope : float, default=0.01
        Half-width of the region of practical equivalence: differences in
        accuracy within [-rope, rope] count as no difference. 0 gives
        ``prob_equivalent = 0``.

    Returns
    -------
    BayesianResult
        ``prob_a_better``, ``prob_equivalent`` and ``prob_b_better`` (they
        sum to 1), and the posterior's ``posterior_mean``,
        ``posterior_scale`` and ``df``.

    Warns
    -----
    InferenceWarning
        When all differences are equal: the posterior is then a point mass.

    See Also
    --------
    corrected_resampled_ttest : the frequentist test on the same differences.

    Notes
    -----
    Corani & Benavoli (2015), "A Bayesian approach for comparing
    cross-validated algorithms on multiple data sets", Machine Learning 100;
    Benavoli, Corani, Demšar & Zaffalon (2017), "Time for a change: a
    tutorial for comparing multiple classifiers through Bayesian analysis",
    JMLR 18(77), section 3 (the Bayesian correlated t-test). The n
    differences d_i (k r folds, or J rounds) are modelled as normal with a
    common mean mu and a correlation rho between any two; under their
    non-informative prior the posterior of mu is Student's t with n - 1
    degrees of freedom, location mean(d) and scale
    s sqrt(1 / n + rho / (1 - rho)), s the sample standard deviation of the
    d_i. rho is not identifiable from the data and is set to
    n_test / n_total, Nadeau & Bengio's (2003) approximation: 1/k for k-fold
    (the mean m_j / n here), n_test / n for random subsampling; then
    rho / (1 - rho) = n_test / n_train, the term of the corrected t (for
    unequal folds the corrected t averages m_j / (n - m_j) instead, which is
    slightly larger; the two differ noticeably only for small n). The probabilities are posterior
    probabilities of the regions mu > rope, |mu| <= rope and mu < -rope; they
    are about the mean difference mu, the quantity the corrected t tests,
    and share its approximations (the correlation heuristic; the folds of
    k-fold are not independent random splits). With s = 0 (all differences
    equal) the posterior is a point mass at mean(d).

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference import CVResult, bayesian_correlated_ttest
    >>> fold = np.tile(np.repeat(np.arange(5), 40), (2, 1))
    >>> def result(correct):
    ...     y_pred = [np.concatenate([[1] * r + [0] * (40 - r) for r in row]) for row in correct]
    ...     return CVResult(y_true=np.ones(200, dtype=int), y_pred=y_pred, fold=fold)
    >>> a = result([[32, 28, 30, 30, 32], [31, 30, 29, 33, 29]])
    >>> b = result([[30, 27, 30, 26, 30], [30, 29, 30, 28, 30]])
    >>> bayesian_correlated_ttest(a, b, rope=0.01)
    BayesianResult(prob_a_better=0.7951, prob_equivalent=0.1278, prob_b_better=0.07704, rope=0.01)
    """
    rope = _check_rope(rope)
    differences = _paired_differences(a, b, "bayesian_correlated_ttest")
    d, n, rho = differences.values, differences.values.size, differences.rho
    mean = float(d.mean())
    scale = math.sqrt(differences.variance * (1 / n + rho / (1 - rho)))
    df = n - 1
    messages = Messages()
    if scale > 0:
        posterior = stats.t(df, loc=mean, scale=scale)
        b_better, below_rope = float(posterior.cdf(-rope)), float(posterior.cdf(rope))
        a_better, equivalent = float(posterior.sf(rope)), below_rope - b_better
    else:
        messages.warn(
            f"The differences between A and B have no spread (all equal to {mean:+.4g}), so the posterior "
            "is a point mass there and each probability is 0 or 1; that reflects too few or too coarse "
            "differences, not certainty."
        )
        a_better, b_better = float(mean > rope), float(mean < -rope)
        equivalent = float(abs(mean) <= rope)
    how = ("1/k for k-fold, as Corani & Benavoli (2015) set it" if differences.kfold
           else "Nadeau & Bengio's (2003) approximation for random subsampling")
    messages.note(f"{differences.scheme}: rho = n_test / n = {rho:.4g} ({how})")
    details = {"d": tuple(float(v) for v in d), "n_differences": n, "variance": differences.variance,
               **differences.layout}
    return BayesianResult(
        prob_a_better=a_better, prob_equivalent=equivalent, prob_b_better=b_better, posterior_mean=mean,
        posterior_scale=scale, df=df, rope=rope, rho=rho, method="Bayesian correlated t-test",
        estimand=_estimand(differences, "mean difference"),
        assumptions=_assumptions(differences) + "; non-informative prior (Corani & Benavoli 2015)",
        details=types.MappingProxyType(details), **messages.as_fields(),
    )
