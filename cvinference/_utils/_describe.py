"""Estimators in words and by type: short descriptions, the final learner, its parameters' short names.

A record names the learner it cross-validated twice: by a short description
for people (``"StandardScaler + LogisticRegression(max_iter=1000)"``, never a
pipeline's full repr) and by the class of its final estimator for code
(``"sklearn.linear_model._logistic.LogisticRegression"``), read from the
objects, not from the text.
"""

import inspect
import math

import numpy as np

_SEARCH_SPACES = ("param_grid", "param_distributions")
"""The parameter that makes an object a hyper-parameter search (GridSearchCV and the halving searches,
RandomizedSearchCV and HalvingRandomSearchCV), whose ``estimator`` is the learner searched over."""


def _pipeline_classes():
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import FeatureUnion, Pipeline

    return Pipeline, ColumnTransformer, FeatureUnion


def _is_estimator(value):
    return hasattr(value, "get_params") and not isinstance(value, type)


def _search_space(estimator):
    """A search's grid or distributions (a dict or a list of dicts), or None when ``estimator`` is no search."""
    params = estimator.get_params(deep=False) if _is_estimator(estimator) else {}
    if not _is_estimator(params.get("estimator")):
        return None
    return next((params[name] for name in _SEARCH_SPACES if name in params), None)


def _last_step(estimator):
    """``(step name, step)`` of a pipeline that ends in an estimator, else None."""
    pipeline = _pipeline_classes()[0]
    if isinstance(estimator, pipeline) and estimator.steps and _is_estimator(estimator.steps[-1][1]):
        return estimator.steps[-1]
    return None


def final_estimator(estimator):
    """The learner at the end of an estimator, and the prefix of its parameters' names.

    The last step of a :class:`~sklearn.pipeline.Pipeline` (recursively),
    the ``estimator`` of a hyper-parameter search (then its last step), or
    the estimator itself. The prefix is what names the final estimator's
    parameters among the pipeline's (``"classifier__"`` for a step called
    ``"classifier"``; ``""`` for a plain estimator, and for a search, whose
    grid names the parameters of its ``estimator``).

    Parameters
    ----------
    estimator : estimator instance

    Returns
    -------
    final : estimator instance
    prefix : str

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import Pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> model = Pipeline([("scale", StandardScaler()), ("classifier", LogisticRegression())])
    >>> final_estimator(model)
    (LogisticRegression(), 'classifier__')
    """
    if _search_space(estimator) is not None:
        return final_estimator(estimator.get_params(deep=False)["estimator"])[0], ""
    step = _last_step(estimator)
    if step is None:
        return estimator, ""
    final, prefix = final_estimator(step[1])
    return final, f"{step[0]}__{prefix}"


def estimator_type(estimator):
    """``module.QualifiedName`` of the final estimator's class (see :func:`final_estimator`).

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> estimator_type(make_pipeline(StandardScaler(), DecisionTreeClassifier()))
    'sklearn.tree._classes.DecisionTreeClassifier'
    """
    cls = type(final_estimator(estimator)[0])
    return f"{cls.__module__}.{cls.__qualname__}"


def short_param_names(estimator, names):
    """Each parameter name of ``estimator`` without the final estimator's prefix, where that is unambiguous.

    ``classifier__max_depth`` becomes ``max_depth`` for a pipeline whose last
    step is called ``"classifier"``, unless another of ``names`` is already
    ``max_depth``; names of other steps keep their prefix.

    Parameters
    ----------
    estimator : estimator instance
        The estimator the names are parameters of (a search's ``estimator``).
    names : iterable of str

    Returns
    -------
    dict
        Each name of ``names`` and how to show it.

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> model = make_pipeline(StandardScaler(), DecisionTreeClassifier())
    >>> short_param_names(model, ["decisiontreeclassifier__max_depth", "standardscaler__with_mean"])
    {'decisiontreeclassifier__max_depth': 'max_depth', 'standardscaler__with_mean': 'standardscaler__with_mean'}
    """
    names = list(names)
    prefix = final_estimator(estimator)[1]
    if not prefix:
        return {name: name for name in names}
    short = {name: name.removeprefix(prefix) for name in names}
    taken = set(names)
    return {name: shown if shown == name or shown not in taken else name for name, shown in short.items()}


def _one_line(text):
    return " ".join(str(text).split())


def _default_text(estimator, name):
    """repr of a parameter's default in ``estimator``'s constructor, or None when it has none."""
    try:
        parameter = inspect.signature(type(estimator).__init__).parameters.get(name)
    except (TypeError, ValueError):
        return None
    return None if parameter is None or parameter.default is inspect.Parameter.empty else repr(parameter.default)


def _is_nan(value):
    return isinstance(value, float) and math.isnan(value)


def _changed(estimator, name, value):
    """Whether a parameter differs from its default, as scikit-learn's repr decides it (nan equals nan)."""
    default = _default_text(estimator, name)
    return default is None or (repr(value) != default and not (_is_nan(value) and default == "nan"))


def _value_text(value):
    """A parameter value: an estimator described, a list of (name, estimator) pairs as ``[name: ..., ...]``."""
    if _is_estimator(value):
        return estimator_description(value)
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(item, tuple) and len(item) >= 2 and _is_estimator(item[1]) for item in value):
        return f"[{', '.join(f'{item[0]}: {estimator_description(item[1])}' for item in value)}]"
    return repr(value)


def _part(estimator):
    """A step before the final estimator: as :func:`estimator_description`, without ``()`` when it is all defaults."""
    text = estimator_description(estimator) if _is_estimator(estimator) else str(estimator)
    return text.removesuffix("()")


def _search_text(estimator, space):
    searched = estimator.get_params(deep=False)["estimator"]
    spaces = space if isinstance(space, (list, tuple)) else [space]
    names = list(dict.fromkeys(name for grid in spaces if isinstance(grid, dict) for name in grid))
    shown = list(short_param_names(searched, names).values())
    tuning = f", tuning {', '.join(shown)}" if shown else ""
    return f"{type(estimator).__name__}({estimator_description(searched)}{tuning})"


def estimator_description(estimator):
    """A short one-line description of an estimator, for records and reports.

    A plain estimator is its repr (the parameters that differ from their
    defaults) on one line. A pipeline is its steps joined by ``" + "``, a
    step with default parameters without ``()``; a column transformer or
    feature union names each part; a hyper-parameter search names the
    learner it searches over and the parameters it tunes (without the final
    step's prefix); any other estimator holding estimators describes them so.

    Parameters
    ----------
    estimator : estimator instance

    Returns
    -------
    str

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    >>> estimator_description(model)
    'StandardScaler + LogisticRegression(max_iter=1000)'
    >>> estimator_description(GridSearchCV(model, {"logisticregression__C": [0.1, 1.0]}))
    'GridSearchCV(StandardScaler + LogisticRegression(max_iter=1000), tuning C)'
    """
    pipeline, column_transformer, feature_union = _pipeline_classes()
    if isinstance(estimator, pipeline):
        steps = [step for _, step in estimator.steps if step is not None and step != "passthrough"]
        if not steps:
            return "Pipeline(passthrough)"
        last = estimator_description(steps[-1]) if _is_estimator(steps[-1]) else str(steps[-1])
        return " + ".join([*(_part(step) for step in steps[:-1]), last])
    if isinstance(estimator, (column_transformer, feature_union)):
        parts = estimator.transformers if isinstance(estimator, column_transformer) else estimator.transformer_list
        return f"{type(estimator).__name__}({'; '.join(f'{part[0]}: {_part(part[1])}' for part in parts)})"
    space = _search_space(estimator)
    if space is not None:
        return _search_text(estimator, space)
    params = estimator.get_params(deep=False) if _is_estimator(estimator) else {}
    if not any(_is_estimator(value) or _value_text(value) != repr(value) for value in params.values()):
        return _one_line(repr(estimator))
    shown = [f"{name}={_value_text(value)}" for name, value in params.items() if _changed(estimator, name, value)]
    return _one_line(f"{type(estimator).__name__}({', '.join(shown)})")


def learner_labels(estimator, name=None):
    """A record's words for its learner: ``estimator_repr``, ``name`` (the description when None), ``estimator_type``.

    Examples
    --------
    >>> from sklearn.naive_bayes import GaussianNB
    >>> learner_labels(GaussianNB())
    {'estimator_repr': 'GaussianNB()', 'name': 'GaussianNB()', 'estimator_type': 'sklearn.naive_bayes.GaussianNB'}
    """
    description = estimator_description(estimator)
    return {"estimator_repr": description, "name": description if name is None else name,
            "estimator_type": estimator_type(estimator)}


def _same_value(first, second):
    if _is_estimator(first) or _is_estimator(second):
        return same_configuration(first, second)
    if isinstance(first, (list, tuple)) and isinstance(second, (list, tuple)):
        return len(first) == len(second) and all(map(_same_value, first, second))
    try:
        if isinstance(first, np.ndarray) or isinstance(second, np.ndarray):
            return bool(np.array_equal(first, second))
        return bool(first == second)
    except (TypeError, ValueError):
        return False


def same_configuration(first, second):
    """Whether two estimators are one learner: one object, or one class with equal parameters.

    Parameters are compared as ``get_params(deep=False)`` gives them, nested
    estimators (a pipeline's steps, a search's estimator) alike; values that
    cannot be compared count as different.

    Examples
    --------
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> same_configuration(DecisionTreeClassifier(max_depth=2), DecisionTreeClassifier(max_depth=2))
    True
    >>> same_configuration(DecisionTreeClassifier(max_depth=2), DecisionTreeClassifier(max_depth=3))
    False
    """
    if first is second:
        return True
    if type(first) is not type(second) or not _is_estimator(first):
        return False
    params, others = first.get_params(deep=False), second.get_params(deep=False)
    return params.keys() == others.keys() and all(_same_value(params[name], others[name]) for name in params)
