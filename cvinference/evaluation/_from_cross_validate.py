"""The record of scikit-learn's ``cross_validate`` output: its fitted fold models predict their test parts."""

import numpy as np
from sklearn.utils import _safe_indexing
from sklearn.utils.validation import _num_samples

from .._utils._describe import learner_labels
from .._utils._params import Nullable, Text, validate_params
from .._utils._validation import group_labels
from ..records import CVResult
from ..records._from_predictions import record_arguments, split_layout
from ._scores import ResponseMethod, fold_scores, response_method_of


def _split_parts(cv_results):
    """The fitted models and (train, test) indices of ``cross_validate(..., return_indices=True,
    return_estimator=True)``; a dict without the train parts gives None for them."""
    if not isinstance(cv_results, dict):
        raise TypeError(f"cv_results must be the dict cross_validate returns; got {type(cv_results).__name__}.")
    missing = [key for key in ("estimator", "indices") if key not in cv_results]
    if missing:
        flags = {"estimator": "return_estimator=True", "indices": "return_indices=True"}
        raise ValueError(f"cv_results has no {missing[0]!r}: call cross_validate(..., "
                         f"{', '.join(flags[key] for key in missing)}), whose fold models and test indices make the "
                         "record without refitting.")
    models, tests = list(cv_results["estimator"]), list(cv_results["indices"]["test"])
    if len(models) != len(tests):
        raise ValueError(f"cv_results holds {len(models)} models and {len(tests)} test parts; pass cross_validate's "
                         "dict as it returned it.")
    trains = list(cv_results["indices"].get("train", [None] * len(tests)))
    if len(trains) != len(tests):
        raise ValueError(f"cv_results holds {len(trains)} train parts and {len(tests)} test parts; pass "
                         "cross_validate's dict as it returned it.")
    return models, list(zip(trains, tests, strict=True))


@validate_params(response_method=ResponseMethod(), name=Nullable(Text("name")))
def from_cross_validate(cv_results, X, y, *, groups=None, response_method=None, name=None):
    """The record of ``cross_validate(..., return_indices=True, return_estimator=True)``, without refitting.

    Each fold model that scikit-learn fitted predicts the test part it was
    not trained on; the record holds those out-of-fold predictions (and,
    with ``response_method``, scores), each instance's fold, and a repeat
    per partition (``RepeatedKFold``'s included). With the folds the
    evaluator draws, it is the evaluator's record, to the last digit.

    Parameters
    ----------
    cv_results : dict
        What ``sklearn.model_selection.cross_validate`` returned with
        ``return_indices=True`` and ``return_estimator=True``.
    X : array-like of shape (n_samples, n_features)
        The data ``cross_validate`` was given.
    y : array-like of shape (n_samples,)
        Its targets.
    groups : array-like of shape (n_samples,) or None, default=None
        Each instance's group, kept in the record.
    response_method : None, "auto", "predict_proba", "decision_function" or list, default=None
        The scores to keep, as :class:`CVEvaluator` takes it.
    name : str or None, default=None
        The learner's name in reports.

    Returns
    -------
    CVResult

    Raises
    ------
    ValueError
        Splits that train on a row they test (a leak), test parts that make
        no partition of the rows in a repeat (a ShuffleSplit's, or a
        TimeSeriesSplit's forward validation, which
        ``ForwardResult.from_forecasts`` or ``CVEvaluator(cv=TimeSeriesSplit(...))``
        records), or indices outside the rows of ``X`` and ``y``. Indices
        that a JSON or pandas round trip turned into whole-number floats are
        taken as integers.

    See Also
    --------
    CVResult.from_predictions : the record of predictions of any origin.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import KFold, cross_validate
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from cvinference.evaluation import from_cross_validate
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> folds = KFold(5, shuffle=True, random_state=0)
    >>> results = cross_validate(GaussianNB(), X, y, cv=folds, return_indices=True, return_estimator=True)
    >>> record = from_cross_validate(results, X, y)
    >>> record.n_splits, round(record.accuracy, 4)
    (5, 0.9385)
    """
    models, splits = _split_parts(cv_results)
    y_array = np.asarray(y)
    n_samples = y_array.shape[0]
    if _num_samples(X) != n_samples:
        raise ValueError(f"X has {_num_samples(X)} rows and y {n_samples}; pass the X and y cross_validate was given.")
    groups = group_labels(groups, n_samples, counted=f"X has {n_samples} rows", per="row of X")
    _, repeat_of, tests = split_layout(splits, n_samples, "cv_results", rows_of="X and y, as cross_validate was given")
    classification = hasattr(models[0], "classes_")
    classes = np.unique(y_array) if classification else None
    method = None if response_method is None else response_method_of(models[0], response_method, "the fold models")
    if method is not None and not classification:
        raise ValueError("response_method asks for scores, and the fold models are regressors; drop it.")
    predictions, scores = [], []
    for model, test in zip(models, tests, strict=True):
        X_test = _safe_indexing(X, test)
        predictions.append(np.asarray(model.predict(X_test)))
        if method is not None:
            scores.append(fold_scores(model, X_test, (method, classes)))
    order = np.concatenate([repeat * n_samples + test for repeat, test in zip(repeat_of, tests, strict=True)])
    rows = np.argsort(order, kind="stable")
    tested = np.concatenate(tests)[rows]
    arguments = record_arguments(
        y_array[tested], np.concatenate(predictions)[rows],
        fold=np.concatenate([np.full(test.size, split) for split, test in enumerate(tests)])[rows],
        repeat=np.repeat(repeat_of, [test.size for test in tests])[rows],
        y_score=None if method is None else np.concatenate(scores)[rows], response_method=method,
        groups=None if groups is None else groups[tested], loss="zero_one" if classification else "squared_error",
        name=name)
    labels = learner_labels(models[0], name)
    return CVResult(**arguments | {"estimator_repr": labels["estimator_repr"],
                                   "estimator_type": labels["estimator_type"], "name": labels["name"],
                                   "cv_repr": f"cross_validate's {len(models)} splits"})
