"""Out-of-fold scores: which response method gives them, and their columns in the record's class order.

scikit-learn's vocabulary (``response_method`` of its scorers and of
``sklearn.utils._response._get_response_values``): ``"predict_proba"``,
``"decision_function"``, a list of them tried in order, ``"auto"`` for
predict_proba, then decision_function.
"""

import numpy as np

from .._utils._params import Rule
from ..records._losses import proba_in_class_order

RESPONSE_METHODS = ("predict_proba", "decision_function")
"""The methods that give scores, in the order ``"auto"`` tries them."""


class ResponseMethod(Rule):
    """A ``response_method``: None (keep no scores), ``"auto"``, a method's name, or a list of names in order.

    The canonical form is None or a tuple of method names, in the order to try them.

    Examples
    --------
    >>> ResponseMethod().check("response_method", "auto")
    ('predict_proba', 'decision_function')
    >>> ResponseMethod().check("response_method", "predict")
    Traceback (most recent call last):
    ...
    ValueError: response_method must be None, 'auto', 'predict_proba', 'decision_function', or a list of these
    two methods in the order to try them; got response_method='predict'.
    """

    def describe(self):
        return ("None, 'auto', 'predict_proba', 'decision_function', or a list of these two methods in the order "
                "to try them")

    def check(self, name, value):
        if value is None:
            return None
        if isinstance(value, str):
            methods = RESPONSE_METHODS if value == "auto" else (value,)
        elif isinstance(value, (list, tuple)):
            methods = tuple(value)
        else:
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if not methods or len(set(methods)) != len(methods) or not all(
                isinstance(method, str) and method in RESPONSE_METHODS for method in methods):
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return methods

    def invalid_values(self):
        return [("predict", ValueError), ("Predict_proba", ValueError), ("auto ", ValueError), ([], ValueError),
                (["predict_proba", "predict"], ValueError), (["decision_function"] * 2, ValueError),
                (1, TypeError), (True, TypeError)]


def response_method_of(estimator, methods, argument):
    """The first of ``methods`` that ``estimator`` has, as scikit-learn's ``_check_response_method`` picks it.

    Asked of the estimator before any fit, so that every fold model of one
    learner gives scores of one kind. A ValueError names ``argument`` (the
    estimator's parameter) and the methods when it has none of them.

    Examples
    --------
    >>> from sklearn.svm import LinearSVC
    >>> response_method_of(LinearSVC(), ("predict_proba", "decision_function"), "estimator")
    'decision_function'
    """
    for method in methods:
        if hasattr(estimator, method):
            return method
    asked = methods[0] if len(methods) == 1 else list(methods)
    raise ValueError(
        f"response_method={asked!r} asks for the scores of {' or '.join(methods)}, and {argument} "
        f"({type(estimator).__name__}) has none of them; pass response_method='auto' to take what it has, or "
        "an estimator with predict_proba (such as LogisticRegression) or decision_function (such as LinearSVC)."
    )


def _refuse_missing_classes(method, model_classes, classes):
    raise ValueError(
        f"{method} of a model trained on {len(model_classes)} of the {len(classes)} classes "
        f"({np.asarray(model_classes).tolist()} of {np.asarray(classes).tolist()}) gives no score for the others, "
        "and decision values cannot be completed as probabilities can (with 0). Use a stratified splitter or "
        "fewer folds, so that every training fold holds every class, or response_method='predict_proba'."
    )


def _decision_in_class_order(values, model_classes, classes):
    """Multi-class decision values (columns ordered as ``model_classes``) in the order of ``classes``.

    A class missing from the model gets the lowest float64 value, as
    ``cross_val_predict`` gives it the lowest value of the predictions'
    dtype (``_enforce_prediction_order``), float64 too.
    """
    if values.ndim != 2 or values.shape[1] != len(model_classes) or len(model_classes) < 3:
        if len(model_classes) < len(classes):
            _refuse_missing_classes("decision_function", model_classes, classes)
        raise ValueError(
            f"decision_function returned shape {values.shape} for {len(model_classes)} classes; one column per "
            "class is needed (for SVC, decision_function_shape='ovr'), or response_method='predict_proba'."
        )
    aligned = np.full((values.shape[0], len(classes)), np.finfo(np.float64).min, dtype=np.float64)
    aligned[:, np.searchsorted(classes, model_classes)] = values
    return aligned


def scores_from_proba(proba):
    """The scores a record keeps from probabilities in class order: the second class's for two classes.

    For two classes that is the column of ``classes[1]``, the positive
    class of ``sklearn.metrics.roc_auc_score``; otherwise every column.
    """
    return np.asarray(proba[:, 1] if proba.shape[1] == 2 else proba, dtype=np.float64)


def scores_in_class_order(values, method, model_classes, classes):
    """What ``method`` returned, as the scores a record keeps: float64, columns in the order of ``classes``.

    Two classes give one score per instance (that of ``classes[1]``), more
    classes one per instance and class. Probabilities of a class the model
    never saw are 0 (as ``cross_val_predict`` makes them). float64 keeps
    the scores as scikit-learn's models compute them: float32 would tie
    probabilities above 1 - 3e-8 and decision values that differ only past
    their seventh digit, and change ROC AUC and average precision.

    Examples
    --------
    >>> import numpy as np
    >>> proba = np.array([[0.25, 0.75], [1.0, 0.0]])
    >>> scores_in_class_order(proba, "predict_proba", np.array([0, 2]), np.array([0, 1, 2]))
    array([[0.25, 0.  , 0.75],
           [1.  , 0.  , 0.  ]])
    """
    values = np.asarray(values, dtype=np.float64)
    if method == "predict_proba":
        return scores_from_proba(proba_in_class_order(values, model_classes, classes))
    if len(classes) != 2:
        return _decision_in_class_order(values, model_classes, classes)
    if len(model_classes) != 2:
        _refuse_missing_classes(method, model_classes, classes)
    if values.ndim == 2 and values.shape[1] == 1:
        values = values[:, 0]
    if values.ndim != 1:
        raise ValueError(f"decision_function returned shape {values.shape} for two classes; one value per "
                         "instance (the score of the second class) is needed.")
    return values


def fold_scores(estimator, X_test, response):
    """The scores of a fitted model on the rows ``X_test``; ``response`` is ``(method, classes)``."""
    method, classes = response
    return scores_in_class_order(getattr(estimator, method)(X_test), method, estimator.classes_, classes)


def no_scores(classes):
    """The scores of no instance: an empty array of the shape the classes make."""
    return np.empty((0,) if len(classes) == 2 else (0, len(classes)), dtype=np.float64)
