"""Dietterich's 5x2cv fits: five replications of stratified 2-fold cross-validation, two learners on the same halves."""

import warnings

import numpy as np

from .._utils._docstring import fill_doc
from .._utils._params import Jobs, Seed, validate_params
from .._utils._validation import check_estimator_methods, check_not_regressor, prepare_data
from .._utils._warnings import InferenceWarning
from ..splitters import StratifiedEqualSizeGroupKFold, StratifiedEqualSizeKFold
from ._evaluator import CVEvaluator
from ._fit_task import add_context

N_REPLICATIONS = 5
"""Replications of 2-fold cross-validation (Dietterich 1998, section 3.5)."""

N_FOLDS = 2


@validate_params(random_state=Seed(), n_jobs=Jobs())
@fill_doc
def five_by_two_cv(estimator_a, estimator_b, X, y, *, groups=None, random_state=None, n_jobs=None):
    """Five replications of stratified 2-fold cross-validation of two classifiers on the same halves.

    The 20 fits of Dietterich's (1998) 5x2cv: in replication i the data are
    split into two stratified halves; each learner is fitted on one half and
    tested on the other, and then the other way round. The record is an
    ordinary :class:`PairedCVResult` with five repeats of two folds, which
    :func:`paired_ttest_5x2cv_of` and :func:`combined_ftest_5x2cv_of` read.

    Parameters
    ----------
    estimator_a, estimator_b : estimator instance
        The two classifiers (objects with ``fit`` and ``predict``), cloned
        for each fit, never fitted or modified. Set their own
        ``random_state`` for reproducible fits.
    %(X)s
    y : array-like of shape (n_samples,)
        Class labels.
    groups : array-like of shape (n_samples,) or None, default=None
        Each instance's group (a patient, a subject, a site): each half
        then holds whole groups, so that no model is tested on a group it
        was trained on, and the record keeps the groups. At least 2 groups.
    random_state : int, RandomState instance or None, default=None
        Seeds the five partitions: five ints are drawn from
        ``sklearn.utils.check_random_state(random_state)`` (as the evaluator
        does for its repeats) and replication i uses
        ``StratifiedEqualSizeKFold(2, shuffle=True, random_state=seed_i)``,
        or with ``groups``
        ``StratifiedEqualSizeGroupKFold(2, shuffle=True, random_state=seed_i)``.
        With an int, the result is identical for any ``n_jobs``.
    %(n_jobs)s
        The 20 fits run in one :class:`sklearn.utils.parallel.Parallel` pool.

    Returns
    -------
    PairedCVResult
        ``CVEvaluator(StratifiedEqualSizeKFold(2, shuffle=True), n_repeats=5,
        random_state=random_state, n_jobs=n_jobs).compare(estimator_a,
        estimator_b, X, y)`` (with ``groups``, on
        ``StratifiedEqualSizeGroupKFold(2, shuffle=True)`` and with the
        groups): fold j of repeat i is fold j of replication i.

    See Also
    --------
    paired_ttest_5x2cv, combined_ftest_5x2cv : this function and the test in one call.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation import five_by_two_cv
    >>> from cvinference.inference import paired_ttest_5x2cv_of
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> pair = five_by_two_cv(GaussianNB(), DummyClassifier(), X, y, random_state=0)
    >>> pair.a.n_repeats, pair.a.n_splits
    (5, 2)
    >>> paired_ttest_5x2cv_of(pair).df
    5
    """
    for name, estimator in (("estimator_a", estimator_a), ("estimator_b", estimator_b)):
        check_estimator_methods(estimator, name)
        check_not_regressor(estimator, name, "the 5x2cv tests compare accuracies")
    X, y, _, _ = prepare_data(X, y, classification=True, needed_by="the 5x2cv test")
    _check_groups(groups)
    kind = StratifiedEqualSizeKFold if groups is None else StratifiedEqualSizeGroupKFold
    evaluator = CVEvaluator(kind(N_FOLDS, shuffle=True), n_repeats=N_REPLICATIONS, random_state=random_state,
                            n_jobs=n_jobs)
    try:
        return evaluator.compare(estimator_a, estimator_b, X, y, groups)
    except Exception as exc:
        add_context(exc, "cvinference: the 5x2cv test ran its replications as repeats: fold j of repeat i "
                         "is fold j of 5x2cv replication i.")
        raise



FEW_GROUPS = 10
"""Fewer groups than this leave a half of 5x2cv fewer than 5 groups: its variance estimates rest on those few."""


def _check_groups(groups):
    """Refuse groups that cannot be halved in more than one way; warn where a half holds fewer than 5 groups."""
    if groups is None:
        return
    n_groups = len(np.unique(np.asarray(groups)))
    if n_groups < 3:
        raise ValueError(f"groups holds {n_groups} group{'s' if n_groups != 1 else ''}: 5x2cv halves the data into "
                         "whole groups five times at random, which needs at least 3 groups (2 give one halving only); "
                         "pass more groups, or compare on folds without groups")
    if n_groups < FEW_GROUPS:
        warnings.warn(f"groups holds {n_groups} groups, so each half of 5x2cv holds {n_groups // 2} or "
                      f"{n_groups - n_groups // 2} of them: the 5x2cv t's variance estimates rest on so few groups "
                      "that its p-value is rough (the calibration benchmark measured it at 40 groups). Prefer the "
                      "tests that count groups (mcnemar_test(method='mcnemar-obuchowski'), matched_sample_test("
                      "method='cluster-paired-t')) or more groups.", InferenceWarning, stacklevel=3)
