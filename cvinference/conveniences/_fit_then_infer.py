"""Fit the record, then call the pure function: the ``estimator, X, y`` forms of the refitting methods.

Each function checks its parameters first, with the rules of the
evaluation function it calls and those of the parameters that only the
pure function reads (so that a bad value fails before any fit), fits the
record with the evaluation layer and returns the pure function's result on it.
"""

from .._utils._docstring import fill_doc
from .._utils._params import PROBABILITY, Options, validate_params
from ..evaluation import bootstrap_sampling, five_by_two_cv, nested_cross_validation, paired_subsampling
from ..inference import (
    bootstrap_accuracy_of,
    combined_ftest_5x2cv_of,
    conservative_z_interval_of,
    nested_cv_interval_of,
    paired_ttest_5x2cv_of,
)
from ..inference._bootstrap import METHODS
from ..inference._parameters import ALTERNATIVE
from ..records._nested_cv_result import N_REPEATS, N_SPLITS
from ..records._subject import attach_subject, data_subject


@validate_params(**nested_cross_validation.__cvinference_params__, confidence_level=PROBABILITY)
@fill_doc
def nested_cv_interval(estimator, X, y, *, n_splits=N_SPLITS, n_repeats=N_REPEATS, confidence_level=0.95,
                       loss="zero_one", estimator_b=None, groups=None, cv_result=None, random_state=None, n_jobs=None,
                       verbose=0):
    """Nested cross-validation interval for the error of the model fitted to the whole dataset.

    Bates, Hastie & Tibshirani (2023): naive intervals from cross-validation
    are too narrow, because the folds' estimates are correlated; nested
    cross-validation estimates the mean squared error of the
    cross-validation estimate directly and widens the interval accordingly.
    With ``estimator_b``, the interval is for the difference of the two
    learners' errors (the mean loss of B minus the mean loss of A, positive
    when A is better; for the zero-one loss, accuracy(A) - accuracy(B)).

    Parameters
    ----------
    estimator, X, y, n_splits, n_repeats
        As in :func:`nested_cross_validation`: the learner (cloned, never
        fitted), the data, K folds (at least 3) in each of R random
        partitions. The estimate of the mean squared error is noisy: few
        repeats often make it negative or push it outside its bounds (with a
        warning).
    %(confidence_level)s
    loss, estimator_b, groups, cv_result, random_state, n_jobs, verbose
        As in :func:`nested_cross_validation`: the per-instance loss, a
        second learner on the same folds, each instance's group (the folds
        then keep groups whole and the interval takes the groups as the
        independent units), a cross-validation already run whose partitions
        and fits are reused as the outer ones, the seed of the partitions,
        the jobs for the fits and the progress line (``verbose=1``: fits
        done, time spent, time left).

    Returns
    -------
    Interval
        ``nested_cv_interval_of(nested_cross_validation(estimator, X, y,
        n_splits=n_splits, n_repeats=n_repeats, loss=loss,
        estimator_b=estimator_b, groups=groups, cv_result=cv_result,
        random_state=random_state, n_jobs=n_jobs, verbose=verbose),
        confidence_level=confidence_level)``; see
        :func:`nested_cv_interval_of` for its fields.

    See Also
    --------
    nested_cross_validation : the fits, as a record.
    nested_cv_interval_of : the interval from the record; its Notes give
        the formulas and their source (Bates, Hastie & Tibshirani 2023,
        Algorithm 1).

    Notes
    -----
    The fits number R K (K + 1) / 2 per learner: 75 with the defaults
    (K = 5, R = 5), 7.5 times one 10-fold cross-validation, the cheapest
    configuration whose one-learner interval held its coverage in every
    cell of the calibration's (K, R) grid (docs/calibration.md, "Nested
    cross-validation: folds and repeats"); more repeats narrow the interval
    a little and steady its standard error. For a difference the defaults
    kept the type-I error within 0.06 in every measured cell but logistic
    regression at N = 100 (0.064), where no configuration of the grid did
    better. With ``cv_result`` (a repeated K-fold cross-validation already
    run) R K of them are not fitted again. Keep the record
    (:func:`nested_cross_validation`) to compute intervals at other levels
    without fitting again.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference import nested_cv_interval
    >>> X, y = load_iris(return_X_y=True)
    >>> interval = nested_cv_interval(GaussianNB(), X, y, n_splits=5, n_repeats=4, random_state=0)
    >>> interval.method, interval.target, interval.details["n_fits"]
    ('nested-cv', 'conditional', 60)
    >>> bool(interval.low <= interval.estimate <= interval.high)
    True
    """
    record = nested_cross_validation(estimator, X, y, n_splits=n_splits, n_repeats=n_repeats, loss=loss,
                                     estimator_b=estimator_b, groups=groups, cv_result=cv_result,
                                     random_state=random_state, n_jobs=n_jobs, verbose=verbose)
    return attach_subject(nested_cv_interval_of(record, confidence_level=confidence_level),
                          data_subject(y, record.estimator_reprs))


@validate_params(**paired_subsampling.__cvinference_params__, confidence_level=PROBABILITY)
@fill_doc
def conservative_z_interval(estimator, X, y, *, n_pairs=10, n_rounds=15, test_size=0.2, confidence_level=0.95,
                            loss="zero_one", estimator_b=None, stratify=True, random_state=None, n_jobs=None,
                            verbose=0):
    """Nadeau & Bengio's conservative Z interval for a learner's expected loss, from paired subsampling.

    Estimates the mean loss of the models the learner fits to n1 instances,
    averaged over training sets of that size (the ``"unconditional"``
    target at training size n1), and its variance from M pairs of disjoint
    halves of the data. With ``estimator_b``, the interval is for the
    difference of the two learners (the mean loss of B minus that of A,
    positive when A is better), on identical splits.

    Parameters
    ----------
    estimator, X, y, n_pairs, n_rounds, test_size
        As in :func:`paired_subsampling`: the learner (cloned, never
        fitted), the data, M pairs of halves, J random train/test splits of
        all the data and of each half, the share of a
        half tested in each split (the default gives n1 = 0.4 n and
        n2 = 0.1 n).
    %(confidence_level)s
    loss, estimator_b, stratify, random_state, n_jobs, verbose
        As in :func:`paired_subsampling`: the per-instance loss, a second
        learner on the same splits, stratified splits, the seed of the
        splits, the jobs for the fits and the progress line (``verbose=1``).

    Returns
    -------
    Interval
        ``conservative_z_interval_of(paired_subsampling(estimator, X, y,
        n_pairs=n_pairs, n_rounds=n_rounds, test_size=test_size, loss=loss,
        estimator_b=estimator_b, stratify=stratify,
        random_state=random_state, n_jobs=n_jobs, verbose=verbose),
        confidence_level=confidence_level)``; see
        :func:`conservative_z_interval_of` for its fields.

    See Also
    --------
    paired_subsampling : the fits, as a record.
    conservative_z_interval_of : the interval from the record; its Notes
        give the formulas and their source (Nadeau & Bengio 2003, section 4).

    Notes
    -----
    The fits number J (2 M + 1) per learner (315 with the defaults).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference import conservative_z_interval
    >>> X, y = load_iris(return_X_y=True)
    >>> interval = conservative_z_interval(GaussianNB(), X, y, n_pairs=3, n_rounds=4, random_state=0)
    >>> interval.method, interval.target
    ('conservative-z', 'unconditional')
    >>> interval.details["n_train"], interval.details["n_test"], interval.details["half_estimates"].shape
    (60, 15, (3, 2))
    >>> bool(interval.low <= interval.estimate <= interval.high)
    True
    """
    record = paired_subsampling(estimator, X, y, n_pairs=n_pairs, n_rounds=n_rounds, test_size=test_size, loss=loss,
                                estimator_b=estimator_b, stratify=stratify, random_state=random_state,
                                n_jobs=n_jobs, verbose=verbose)
    return conservative_z_interval_of(record, confidence_level=confidence_level)


@validate_params(**bootstrap_sampling.__cvinference_params__, method=Options(*METHODS), confidence_level=PROBABILITY)
def bootstrap_accuracy(estimator, X, y, *, method=".632", n_bootstraps=200, stratify=False,
                       confidence_level=0.95, random_state=None, n_jobs=None, verbose=0):
    """Estimate a classifier's accuracy with the out-of-bag, .632 or .632+ bootstrap.

    Draws ``n_bootstraps`` bootstrap samples (n draws with replacement),
    fits a clone of ``estimator`` to each and predicts the instances the
    sample left out (out of bag); fits one more clone to all the data for the
    resubstitution accuracy. All the fits run in one joblib pool.

    Parameters
    ----------
    estimator, X, y
        As in :func:`bootstrap_sampling`: the classifier (cloned, never
        fitted) and the data.
    method : {".632", ".632+", "oob"}, default=".632"
        As in :func:`bootstrap_accuracy_of`.
    n_bootstraps, stratify
        As in :func:`bootstrap_sampling`: the number of bootstrap samples
        and sampling within classes.
    confidence_level : float, default=0.95
        As in :func:`bootstrap_accuracy_of`: the level of the percentile
        interval of ``values``.
    random_state, n_jobs, verbose
        As in :func:`bootstrap_sampling`: the seed of the samples, the jobs
        for the fits and the progress line (``verbose=1``).

    Returns
    -------
    BootstrapResult
        ``bootstrap_accuracy_of(bootstrap_sampling(estimator, X, y,
        n_bootstraps=n_bootstraps, stratify=stratify,
        random_state=random_state, n_jobs=n_jobs, verbose=verbose), method=method,
        confidence_level=confidence_level)``: ``estimate``, the
        per-bootstrap ``values``, their percentile interval and, in
        ``details``, every ingredient.

    See Also
    --------
    bootstrap_sampling : the fits, as a record.
    bootstrap_accuracy_of : the estimate from the record; its Notes give
        the formulas and their sources (Efron 1983; Efron & Tibshirani 1997).
    cross_val_correctness : Stratified 10-fold cross-validation, the
        estimator Kohavi (1995) recommends for accuracy.

    Notes
    -----
    One record serves every method: ``bootstrap_accuracy_of(record,
    method=m)`` for each m costs no further fit.

    Examples
    --------
    Kohavi's failure case: 1-nearest neighbour on labels that are independent
    of the features, so every model's true accuracy is 0.5.

    >>> import numpy as np
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from cvinference import bootstrap_accuracy
    >>> rng = np.random.default_rng(0)
    >>> X, y = rng.uniform(size=(200, 5)), rng.integers(0, 2, size=200)
    >>> result = bootstrap_accuracy(KNeighborsClassifier(1), X, y, method=".632+",
    ...                             n_bootstraps=40, random_state=0)
    >>> result.details["resubstitution_accuracy"]
    1.0
    >>> round(result.details["accuracy_632"], 2), round(result.estimate, 2)
    (0.67, 0.48)
    """
    record = bootstrap_sampling(estimator, X, y, n_bootstraps=n_bootstraps, stratify=stratify,
                                random_state=random_state, n_jobs=n_jobs, verbose=verbose)
    return bootstrap_accuracy_of(record, method=method, confidence_level=confidence_level)


@validate_params(**five_by_two_cv.__cvinference_params__, alternative=ALTERNATIVE)
@fill_doc
def paired_ttest_5x2cv(estimator_a, estimator_b, X, y, *, alternative="two-sided", groups=None, random_state=None,
                       n_jobs=None):
    """Dietterich's 5x2cv paired t-test of two classifiers' accuracies.

    Five times, the data are split into two stratified halves; each learner
    is fitted on one half and tested on the other, and then the other way
    round. The statistic uses the first difference and the variability within
    each replication.

    Parameters
    ----------
    estimator_a, estimator_b, X, y
        As in :func:`five_by_two_cv`: the two classifiers (cloned for each
        of the 20 fits, never fitted) and the data.
    %(alternative)s
    groups, random_state, n_jobs
        As in :func:`five_by_two_cv`: each instance's group (each half then
        holds whole groups), the seed of the five partitions (with an int,
        the result is identical for any ``n_jobs``) and the jobs for the
        fits.

    Returns
    -------
    TestResult
        ``paired_ttest_5x2cv_of(five_by_two_cv(estimator_a, estimator_b, X,
        y, groups=groups, random_state=random_state, n_jobs=n_jobs),
        alternative=alternative)``; see :func:`paired_ttest_5x2cv_of` for its
        fields.

    See Also
    --------
    five_by_two_cv : the 20 fits, as a record.
    paired_ttest_5x2cv_of : the test from the record; its Notes give the
        formula and its source (Dietterich 1998, section 3.5).
    combined_ftest_5x2cv : Alpaydin's F test on the same 5 x 2 differences.

    Notes
    -----
    The test compares the learners trained on half of the data: its
    estimand is not the accuracy of models trained on all n instances.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference import paired_ttest_5x2cv
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> test = paired_ttest_5x2cv(GaussianNB(), DummyClassifier(), X, y, random_state=0)
    >>> test.df, test.details["differences"].shape
    (5, (5, 2))
    >>> bool(test.statistic > 0), bool(test.pvalue < 0.05)
    (True, True)
    """
    pair = five_by_two_cv(estimator_a, estimator_b, X, y, groups=groups, random_state=random_state, n_jobs=n_jobs)
    return paired_ttest_5x2cv_of(pair, alternative=alternative)


@validate_params(**five_by_two_cv.__cvinference_params__)
def combined_ftest_5x2cv(estimator_a, estimator_b, X, y, *, groups=None, random_state=None, n_jobs=None):
    """Alpaydin's combined 5x2cv F test of two classifiers' accuracies.

    The same five replications of stratified 2-fold cross-validation as
    :func:`paired_ttest_5x2cv`, with a statistic that uses all ten
    differences instead of the first one.

    Parameters
    ----------
    estimator_a, estimator_b, X, y, groups, random_state, n_jobs
        As in :func:`five_by_two_cv`: the same ``groups`` and
        ``random_state`` give both 5x2cv tests the same ten differences.

    Returns
    -------
    FTestResult
        ``combined_ftest_5x2cv_of(five_by_two_cv(estimator_a, estimator_b,
        X, y, groups=groups, random_state=random_state, n_jobs=n_jobs))``; see
        :func:`combined_ftest_5x2cv_of` for its fields.

    See Also
    --------
    five_by_two_cv : the 20 fits, as a record.
    combined_ftest_5x2cv_of : the test from the record; its Notes give the
        formula and its source (Alpaydin 1999).

    Notes
    -----
    Keep the record (:func:`five_by_two_cv`) to run both 5x2cv tests on the
    same 20 fits.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.dummy import DummyClassifier
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference import combined_ftest_5x2cv
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> test = combined_ftest_5x2cv(GaussianNB(), DummyClassifier(), X, y, random_state=0)
    >>> test.df, test.df_denominator, test.alternative
    (10, 5, 'two-sided')
    """
    pair = five_by_two_cv(estimator_a, estimator_b, X, y, groups=groups, random_state=random_state, n_jobs=n_jobs)
    return combined_ftest_5x2cv_of(pair)
