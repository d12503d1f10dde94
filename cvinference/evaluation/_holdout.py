"""Holdout and random subsampling: one random test part, or many (Kohavi 1995).

Kohavi (1995) gives the holdout its binomial interval ("Holdout", "Confidence
Bounds") and warns that repeating it (random subsampling) makes the rounds
dependent ("Random Subsampling").
"""

import math

import numpy as np
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, train_test_split

from .._utils._arrays import python_scalar
from .._utils._describe import estimator_description, learner_labels
from .._utils._docstring import fill_doc
from .._utils._params import Boolean, Integer, Jobs, Real, Seed, validate_params
from .._utils._validation import (
    check_estimator_methods,
    check_fits_in_memory,
    check_not_regressor,
    prepare_data,
)
from ..records import CVResult, SubsamplingResult
from ._fit_task import FitTask
from ._scheduler import run_fits

TEST_SIZE = Real(0, 1, closed="neither", what="the fraction of instances held out for testing, a number",
                 example="1/3 (a count of instances is not accepted)")
"""``test_size``: a fraction, as in ``train_test_split`` but never a count."""


def _prepare(estimator, X, y, needed_by):
    """Checked estimator and data: indexable X and y, the labels as an array, n."""
    check_estimator_methods(estimator)
    check_not_regressor(estimator, "estimator", f"{needed_by} compares class predictions")
    X, y, _, y_array = prepare_data(X, y, classification=True, needed_by=needed_by)
    return X, y, y_array, y_array.size


def _check_stratifiable(y_array, test_size, needed_by):
    """Refuse, with the fix, labels that stratified training and test parts cannot split."""
    classes, counts = np.unique(y_array, return_counts=True)
    rare = classes[counts < 2]
    if rare.size:
        raise ValueError(
            f"{needed_by}(stratify=True) puts every class in both the training and the test part, so every class "
            f"needs at least 2 instances; class(es) {[python_scalar(c) for c in rare]} have 1. Pass "
            "stratify=False, or merge or remove the rare classes."
        )
    n_test = math.ceil(test_size * y_array.size)
    smaller = min(n_test, y_array.size - n_test)
    if smaller < classes.size:
        raise ValueError(
            f"{needed_by}(stratify=True) puts every class in both parts, but with test_size={test_size:.4g} one "
            f"part has {smaller} instances for {classes.size} classes. Pass a test_size nearer 0.5, or "
            "stratify=False."
        )


@validate_params(test_size=TEST_SIZE, stratify=Boolean(), random_state=Seed())
@fill_doc
def holdout(estimator, X, y, *, test_size=1 / 3, stratify=True, random_state=None):
    """Fit on one random training part, test on the rest (Kohavi's holdout).

    Parameters
    ----------
    estimator : estimator instance
        A classifier with ``fit`` and ``predict``; it is cloned, never fitted.
    %(X)s
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
    >>> from cvinference import accuracy_interval
    >>> from cvinference.evaluation import holdout
    >>> X, y = load_iris(return_X_y=True)
    >>> result = holdout(GaussianNB(), X, y, random_state=0)
    >>> result.n_samples, result.n_train
    (50, 100)
    >>> accuracy_interval(result, method="clopper-pearson").method
    'clopper-pearson'
    """
    X, y, y_array, n_samples = _prepare(estimator, X, y, "holdout")
    if stratify:
        _check_stratifiable(y_array, test_size, "holdout")
    train, test = train_test_split(
        np.arange(n_samples), test_size=test_size, stratify=y_array if stratify else None,
        random_state=random_state,
    )
    [(predictions, _)] = run_fits([estimator], X, y, [FitTask(0, "the holdout split", train, test)],
                                  names=["estimator"])
    return CVResult(
        y_array[test], predictions, np.zeros(test.size, dtype=np.intp),
        cv_repr=f"holdout(test_size={test_size:.4g}, stratify={stratify}, random_state={random_state!r})",
        n_train=train.size, **learner_labels(estimator),
    )


@validate_params(n_rounds=Integer(minimum=2), test_size=TEST_SIZE, stratify=Boolean(), random_state=Seed(),
                 n_jobs=Jobs())
@fill_doc
def random_subsampling(estimator, X, y, *, n_rounds=30, test_size=1 / 3, stratify=True, random_state=None,
                       n_jobs=None):
    """Repeat the holdout on ``n_rounds`` random splits and average the accuracies.

    Parameters
    ----------
    estimator : estimator instance
        A classifier with ``fit`` and ``predict``; it is cloned, never fitted.
    %(X)s
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
    %(n_jobs)s
        One joblib pool runs the fits of every round.

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
    >>> from cvinference.evaluation import random_subsampling
    >>> X, y = load_iris(return_X_y=True)
    >>> result = random_subsampling(GaussianNB(), X, y, n_rounds=5, random_state=0)
    >>> result.n_rounds, result.n_train, result.n_test
    (5, 100, 50)
    >>> bool(result.accuracy == result.round_accuracy.mean())
    True
    """
    X, y, y_array, n_samples = _prepare(estimator, X, y, "random_subsampling")
    check_fits_in_memory({"n_rounds": n_rounds}, n_rounds * n_samples * 9,
                         f"the rounds' splits and correctness ({n_samples} instances, 9 bytes each)")
    if stratify:
        _check_stratifiable(y_array, test_size, "random_subsampling")
    splitter = (StratifiedShuffleSplit if stratify else ShuffleSplit)(
        n_splits=n_rounds, test_size=test_size, random_state=random_state)
    splits = list(splitter.split(np.zeros((n_samples, 1)), y_array))
    tasks = [FitTask(0, f"round {r}", train, test) for r, (train, test) in enumerate(splits)]
    outputs = run_fits([estimator], X, y, tasks, names=["estimator"], n_jobs=n_jobs)
    correct = [np.asarray(predictions == y_array[test], dtype=bool)
               for (predictions, _), (_, test) in zip(outputs, splits, strict=True)]
    return SubsamplingResult(
        test_indices=np.stack([test for _, test in splits]), correct=np.stack(correct), y_true=y_array,
        n_train=len(splits[0][0]), estimator_repr=estimator_description(estimator),
        cv_repr=" ".join(repr(splitter).split()),
    )
