"""Nested cross-validation of a whole search: the error of tuning and refitting, not of the best candidate."""

import dataclasses

from .._utils._params import validate_params
from ..conveniences import nested_cv_interval
from ..records._nested_cv_result import N_REPEATS, N_SPLITS


@validate_params(**nested_cv_interval.__cvinference_params__)
def tuning_interval(search, X, y, *, n_splits=N_SPLITS, n_repeats=N_REPEATS, confidence_level=0.95, loss="zero_one",
                    random_state=None, n_jobs=None, verbose=0):
    """Nested cross-validation interval for the error of the whole tuning procedure.

    The best candidate's cross-validation score is biased upwards, since it
    was chosen on the same splits (the winner's curse). Cross-validating the
    search itself (every fit runs the whole search on the training part and
    refits its choice) measures what tuning delivers. This runs
    :func:`nested_cv_interval` (Bates, Hastie & Tibshirani 2023) with the
    unfitted search as the learner.

    Parameters
    ----------
    search : GridSearchCV or RandomizedSearchCV
        The search, fitted or not (it is cloned); ``refit`` must be on (True,
        a metric name or a refit rule), so that it can predict.
    X : array-like of shape (n_samples, n_features)
        The features.
    y : array-like of shape (n_samples,)
        The target.
    n_splits, n_repeats, confidence_level, loss, random_state, n_jobs, verbose
        As for :func:`nested_cv_interval` (``verbose=1``: a progress line of
        the searches done, the time spent and left). Every fit is a whole search:
        R K (K + 1) / 2 searches in all (75 with the defaults, K = 5 and
        R = 5; ``n_splits=10, n_repeats=10`` makes 550), so keep the
        search's own ``n_jobs`` at None and parallelise here.

    Returns
    -------
    Interval
        ``method="nested-cv"``, ``target="conditional"``: for the error (mean
        ``loss``) of the model that the search, run on this whole dataset,
        would end with.

    See Also
    --------
    compare_candidates : its ``selection_bias`` is the cheap estimate of the winner's curse.

    Notes
    -----
    Bates, Hastie & Tibshirani (2023), "Cross-validation: what does it
    estimate and how well does it do it?", JASA, Algorithm 1; see
    :func:`nested_cv_interval` for the formulas and the choices made. That
    the inner search must run inside every training part, not once on all
    data, is Varma & Simon (2006), "Bias in error estimation when using
    cross-validation for model selection", BMC Bioinformatics 7:91.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from cvinference.model_selection import tuning_interval
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}, cv=3)
    >>> interval = tuning_interval(search, X, y, n_splits=5, n_repeats=2, random_state=0)
    >>> interval.method, interval.target
    ('nested-cv', 'conditional')
    >>> print(f"error {interval.estimate:.3f}, 95% interval [{interval.low:.3f}, {interval.high:.3f}]")
    error 0.065, 95% interval [0.030, 0.101]
    """
    if not (hasattr(search, "cv") and hasattr(search, "estimator") and hasattr(search, "refit")):
        raise TypeError(f"search must be a GridSearchCV or RandomizedSearchCV; got {type(search).__name__}. "
                        "For a single learner, use nested_cv_interval.")
    if search.refit is False:
        raise ValueError("search has refit=False, so it cannot predict; set refit=True (or a refit rule) to "
                         "measure the tuning procedure.")
    interval = nested_cv_interval(search, X, y, n_splits=n_splits, n_repeats=n_repeats,
                                  confidence_level=confidence_level, loss=loss, random_state=random_state,
                                  n_jobs=n_jobs, verbose=verbose)
    estimand = ("error of the model that the whole search (selection among its candidates by its own "
                "cross-validation, then a refit) fits to this dataset; " + interval.estimand)
    return dataclasses.replace(interval, estimand=estimand)
