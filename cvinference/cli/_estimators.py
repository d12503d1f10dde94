"""Estimators for the command line: short aliases, dotted paths, JSON hyper-parameters.

:func:`build_estimator` turns an ``ESTIMATOR`` argument and its ``--params``
into an unfitted scikit-learn classifier, wrapped in the preprocessing the
data and the model need (imputation, one-hot encoding, scaling). Every step
sits inside one :class:`sklearn.pipeline.Pipeline`, so cross-validation refits
it on each training part and nothing is learnt from a test fold. Every mistake
it can detect is a :class:`~cvinference.cli._errors.UserError` whose one-line
message names the offending value and the fix.
"""

import importlib
import inspect
import json

from .._utils._describe import estimator_description
from .._utils._validation import is_classifier_like, is_regressor_like
from ._errors import UserError, did_you_mean

#: Alias -> (dotted path of the class, default hyper-parameters).
ALIASES = {
    "logreg": ("sklearn.linear_model.LogisticRegression", {"max_iter": 1000}),
    "tree": ("sklearn.tree.DecisionTreeClassifier", {}),
    "nb": ("sklearn.naive_bayes.GaussianNB", {}),
    "knn": ("sklearn.neighbors.KNeighborsClassifier", {}),
    "svm": ("sklearn.svm.SVC", {}),
    "rf": ("sklearn.ensemble.RandomForestClassifier", {}),
    "gb": ("sklearn.ensemble.GradientBoostingClassifier", {}),
    "dummy": ("sklearn.dummy.DummyClassifier", {}),
}

#: Regressors' aliases -> (dotted path of the class, default hyper-parameters), for --task regression.
REGRESSOR_ALIASES = {
    "linreg": ("sklearn.linear_model.LinearRegression", {}),
    "ridge": ("sklearn.linear_model.Ridge", {}),
    "tree_reg": ("sklearn.tree.DecisionTreeRegressor", {}),
    "knn_reg": ("sklearn.neighbors.KNeighborsRegressor", {}),
    "svr": ("sklearn.svm.SVR", {}),
    "rf_reg": ("sklearn.ensemble.RandomForestRegressor", {}),
    "gb_reg": ("sklearn.ensemble.GradientBoostingRegressor", {}),
    "hgb_reg": ("sklearn.ensemble.HistGradientBoostingRegressor", {}),
    "dummy_reg": ("sklearn.dummy.DummyRegressor", {}),
}

#: Aliases whose model depends on the scale of the features: a StandardScaler precedes them.
NEEDS_SCALING = {"logreg", "svm", "knn", "ridge", "knn_reg", "svr"}

_ALL_ALIASES = {**ALIASES, **REGRESSOR_ALIASES}

_EXAMPLE = "sklearn.ensemble.ExtraTreesClassifier"


def _alias_tasks(specs):
    """``{alias: its task}`` of the aliases among ``specs`` (a dotted path settles nothing: it is imported later)."""
    found = {}
    for spec in specs:
        name = spec.strip() if isinstance(spec, str) else None
        if name in REGRESSOR_ALIASES:
            found[name] = "regression"
        elif name in ALIASES:
            found[name] = "classification"
    return found


def learner_task(task, specs):
    """The task the learners named by ``specs`` settle: ``task`` unless it is "auto"; under "auto", regression
    where an alias among them is a regressor's only (``ridge``, ``linreg``, ...), classification where one is a
    classifier's only (``logreg``, ``tree``, ...), "auto" where no alias settles it.

    Raises
    ------
    UserError
        Under "auto", when a regressor's alias and a classifier's alias are named together.

    Examples
    --------
    >>> learner_task("auto", ["ridge", "rf_reg"]), learner_task("auto", ["nb"]), learner_task("auto", ["a.B"])
    ('regression', 'classification', 'auto')
    """
    if task != "auto":
        return task
    found = _alias_tasks(specs)
    tasks = set(found.values())
    if len(tasks) > 1:
        regressor = next(name for name, kind in found.items() if kind == "regression")
        classifier = next(name for name, kind in found.items() if kind == "classification")
        raise UserError(f"estimator {regressor!r} is a regressor and {classifier!r} a classifier: name learners of "
                        f"one task, regressors ({', '.join(REGRESSOR_ALIASES)}) for a quantity or classifiers "
                        f"({', '.join(ALIASES)}) for class labels")
    return tasks.pop() if tasks else task


def load_for_learners(load, task, specs):
    """The data, as ``load(task)`` gives it, for the learners ``specs`` name: under ``task="auto"`` with the task
    their aliases settle (:func:`learner_task`), so that ``ridge`` on a target of whole numbers is a regression
    without ``--task``. Where the data have a task of their own that refuses it (a target of text, a bundled data
    set), they are loaded as ``task`` says, and the learners' check then names the mismatch."""
    settled = learner_task(task, specs)
    if settled == task:
        return load(task)
    try:
        return load(settled)
    except UserError:
        return load(task)


def _one_line(text):
    return " ".join(str(text).split())


def _scaled_classes():
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
    from sklearn.svm import SVC, SVR

    return (LogisticRegression, SVC, KNeighborsClassifier, Ridge, SVR, KNeighborsRegressor)


def _aliases(task):
    return REGRESSOR_ALIASES if task == "regression" else ALIASES


def _example(task):
    return "sklearn.ensemble.ExtraTreesRegressor" if task == "regression" else _EXAMPLE


def _kind_word(task):
    return "regressor" if task == "regression" else "classifier"


def _import_class(path, spec):
    """The object a dotted path names; a UserError if it cannot be imported."""
    module_name, _, attribute = path.rpartition(".")
    if not module_name or not attribute:
        raise UserError(
            f"estimator {spec!r} is not a valid dotted path; write package.module.ClassName, "
            f"for example {_EXAMPLE}"
        )
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # ImportError, or anything the module raises while importing
        raise UserError(
            f"estimator {spec!r}: cannot import module {module_name!r} ({type(exc).__name__}: "
            f"{_one_line(exc)}); check the spelling or install the package that provides it"
        ) from exc
    try:
        return getattr(module, attribute)
    except AttributeError:
        public = [name for name in dir(module) if not name.startswith("_")]
        raise UserError(
            f"estimator {spec!r}: module {module_name!r} has no attribute {attribute!r}"
            f"{did_you_mean(attribute, public)}; check the class name"
        ) from None


def _what_is(obj):
    if inspect.ismodule(obj):
        return "a module"
    if inspect.isroutine(obj):
        return "a function"
    return f"an object of type {type(obj).__name__}"


def _resolve(spec, task="classification"):
    """``(class, default parameters, alias or None)`` for an alias or a dotted path."""
    aliases, example, kind = _aliases(task), _example(task), _kind_word(task)
    if not isinstance(spec, str) or not spec.strip():
        raise UserError(
            f"estimator {spec!r} is empty; use an alias ({', '.join(aliases)}) or a dotted path "
            f"such as {example}"
        )
    spec = spec.strip()
    if spec in _ALL_ALIASES and spec not in aliases:
        other = "regression" if task != "regression" else "classification"
        target = "a quantity" if other == "regression" else "class labels"
        raise UserError(
            f"estimator {spec!r} is a {_kind_word(other)}, and the task is {task}; use one of "
            f"{', '.join(aliases)}, or pass --task {other} if the target is {target}"
        )
    if spec in aliases:
        path, defaults = aliases[spec]
        return _import_class(path, spec), dict(defaults), spec
    if "." not in spec:
        raise UserError(
            f"unknown estimator {spec!r}{did_you_mean(spec, aliases)}: use one of "
            f"{', '.join(aliases)}, or the dotted path of a {kind} class such as {example}"
        )
    cls = _import_class(spec, spec)
    if not inspect.isclass(cls):
        raise UserError(
            f"estimator {spec!r} is {_what_is(cls)}, not a {kind} class; pass the dotted path "
            f"of a scikit-learn compatible {kind} class, such as {example}"
        )
    return cls, {}, None


def _check_estimator(cls, spec, task="classification"):
    """A default instance of ``cls``, after checking it is a scikit-learn classifier (or regressor, for regression)."""
    kind, example = _kind_word(task), _example(task)
    try:
        instance = cls()
    except Exception as exc:
        raise UserError(
            f"estimator {spec!r}: cannot create {cls.__name__}() without arguments "
            f"({type(exc).__name__}: {_one_line(exc)}); pass a {kind} that has defaults for all "
            "its parameters"
        ) from exc
    methods = ("fit", "predict", "get_params", "set_params")
    missing = [m for m in methods if not callable(getattr(instance, m, None))]
    if missing:
        raise UserError(
            f"estimator {spec!r} is not a scikit-learn estimator (it has no {', '.join(missing)} "
            f"method); pass a {kind} class such as {example}"
        )
    if task == "regression":
        if not is_regressor_like(instance):
            what = "a classifier" if is_classifier_like(instance) else "not a regressor"
            raise UserError(
                f"estimator {spec!r} is {what}, and the target is a quantity (regression): use an alias "
                f"({', '.join(REGRESSOR_ALIASES)}) or a regressor class such as {example}"
            )
    elif not is_classifier_like(instance):
        if is_regressor_like(instance):
            raise UserError(
                f"estimator {spec!r} is a regressor, and the target holds class labels (classification): use an "
                f"alias ({', '.join(ALIASES)}) or a classifier class such as {_EXAMPLE}, or pass --task regression "
                "if the target is a quantity"
            )
        raise UserError(
            f"estimator {spec!r} is not a classifier; cvinference evaluates classifiers and regressors: use an "
            f"alias ({', '.join(ALIASES)}) or a classifier class such as {_EXAMPLE}"
        )
    return instance


def parse_params(params, spec):
    """The hyper-parameters as a dict, from a JSON object (or a dict)."""
    if params is None:
        return {}
    if isinstance(params, dict):
        return dict(params)
    try:
        value = json.loads(params)
    except json.JSONDecodeError as exc:
        raise UserError(
            f"invalid JSON in the hyper-parameters of {spec!r}, {params!r}: {exc.msg} at line "
            f"{exc.lineno} column {exc.colno} (char {exc.pos}); write a JSON object such as "
            "'{\"C\": 0.5, \"penalty\": \"l2\"}' (double quotes around names and strings)"
        ) from None
    except TypeError:
        raise UserError(f"the hyper-parameters of {spec!r} must be a JSON string, got {params!r}") from None
    if not isinstance(value, dict):
        raise UserError(
            f"the hyper-parameters of {spec!r} must be a JSON object of name: value pairs, "
            f"got {type(value).__name__} {params!r}; write for example '{{\"max_depth\": 3}}'"
        )
    return value


def _configure(cls, instance, spec, params, defaults, random_state):
    """A new instance of ``cls`` with the defaults, the user's params and the seed."""
    valid = instance.get_params(deep=True)
    unknown = [name for name in params if name not in valid]
    if unknown:
        names = sorted(instance.get_params(deep=False))
        raise UserError(
            f"estimator {spec!r} has no hyper-parameter {unknown[0]!r}{did_you_mean(unknown[0], names)}; "
            f"its hyper-parameters are: {', '.join(names)}"
        )
    chosen = {**defaults, **params}
    if random_state is not None and "random_state" in valid and "random_state" not in params:
        chosen["random_state"] = random_state
    shallow = {k: v for k, v in chosen.items() if "__" not in k}
    deep = {k: v for k, v in chosen.items() if "__" in k}
    shown = json.dumps(params) if params else "{}"
    try:
        estimator = cls(**shallow)
        if deep:
            estimator.set_params(**deep)
    except Exception as exc:
        raise UserError(
            f"estimator {spec!r} rejects the hyper-parameters {shown} ({type(exc).__name__}: "
            f"{_one_line(exc)}); fix the value"
        ) from exc
    # scikit-learn checks values only when fitting; check them now, so that a bad value is
    # reported before any fit. _validate_params is scikit-learn's own (private) hook for
    # this: if it is missing, the fit reports the value instead.
    validate = getattr(estimator, "_validate_params", None)
    if callable(validate) and getattr(estimator, "_parameter_constraints", None) is not None:
        try:
            validate()
        except (TypeError, ValueError) as exc:
            raise UserError(
                f"estimator {spec!r} rejects the hyper-parameters {shown}: "
                f"{_one_line(exc).rstrip('.')}; change that value"
            ) from exc
    return estimator


def _names(names, limit=5):
    names = list(names)
    shown = ", ".join(names[:limit])
    return shown + (f", ... ({len(names)} columns)" if len(names) > limit else "")


def _preprocessing(dataset, scale):
    """Pipeline steps before the classifier, and their description."""
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    categorical = tuple(dataset.categorical)
    impute = bool(dataset.has_missing)
    if not categorical:
        steps, words = [], []
        if impute:
            steps.append(("impute", SimpleImputer(strategy="median")))
            words.append("SimpleImputer(median)")
        if scale:
            steps.append(("scale", StandardScaler()))
            words.append("StandardScaler")
        return steps, words

    names = list(dataset.feature_names)
    cat_index = [names.index(c) for c in categorical]
    num_index = [i for i in range(len(names)) if i not in set(cat_index)]
    encoder = OneHotEncoder(handle_unknown="ignore", sparse_output=False)
    cat_steps = [("onehot", encoder)]
    num_steps = []
    if impute:
        cat_steps.insert(0, ("impute", SimpleImputer(strategy="most_frequent")))
        num_steps.append(("impute", SimpleImputer(strategy="median")))
    if scale and num_index:
        num_steps.append(("scale", StandardScaler()))
    transformers = [("categorical", Pipeline(cat_steps), cat_index)]
    if num_index:
        transformers.append(("numeric", Pipeline(num_steps) if num_steps else "passthrough", num_index))
    words = []
    if impute:
        words.append("SimpleImputer(median; most_frequent for categorical)" if num_index
                     else "SimpleImputer(most_frequent)")
    words.append(f"OneHotEncoder({_names(categorical)})")
    if scale and num_index:
        words.append("StandardScaler(numeric)")
    return [("preprocess", ColumnTransformer(transformers, sparse_threshold=0))], words


def build_estimator(spec, *, params=None, dataset, random_state=None):
    """Build the unfitted classifier (or regressor) an ``ESTIMATOR`` argument names.

    Parameters
    ----------
    spec : str
        An alias from :data:`ALIASES` (``logreg``, ``tree``, ``nb``, ``knn``,
        ``svm``, ``rf``, ``gb``, ``dummy``), or for a regression dataset from
        :data:`REGRESSOR_ALIASES` (``linreg``, ``ridge``, ``tree_reg``,
        ``knn_reg``, ``svr``, ``rf_reg``, ``gb_reg``, ``hgb_reg``,
        ``dummy_reg``), or the dotted path of a scikit-learn
        compatible classifier (regressor) class, ``package.module.ClassName``, which is
        imported. The class must be constructible without arguments and its
        instance a classifier (:func:`sklearn.base.is_classifier`), or a
        regressor when ``dataset.task`` is ``"regression"``.
    params : str or dict, default=None
        Hyper-parameters as a JSON object (``'{"C": 0.5}'``), or a dict. They
        override an alias's defaults (``logreg`` has ``max_iter=1000``). Keys
        are names from the estimator's ``get_params()``, nested ones with
        ``__`` included.
    dataset : Dataset
        The data from :func:`cvinference.cli._data.load_data`: its
        ``feature_names``, ``categorical`` and ``has_missing`` decide the
        preprocessing, its ``task`` the kind of estimator.
    random_state : int, default=None
        Given to the estimator's ``random_state`` when it has that parameter
        and ``params`` does not set it, so that randomized models (``tree``,
        ``rf``, ``gb``, ...) give the same result on every run.

    Returns
    -------
    estimator : estimator
        The bare classifier when no preprocessing is needed, otherwise a
        :class:`sklearn.pipeline.Pipeline` ending in it (step ``"classifier"``,
        or ``"regressor"``).
    description : str
        One line for reports, e.g.
        ``"logreg: StandardScaler + LogisticRegression(max_iter=1000)"``.

    Raises
    ------
    UserError
        With a one-line message naming the value and the fix: an unknown alias,
        a path that cannot be imported, an object that is not a class, a class
        that cannot be created without arguments or is not a classifier,
        invalid JSON, JSON that is not an object, an unknown hyper-parameter, or
        a value the estimator rejects.

    Notes
    -----
    The pipeline, in order (every step is refitted inside each training part):

    1. With ``dataset.has_missing``: a :class:`~sklearn.impute.SimpleImputer`,
       median for numeric columns, most frequent value for categorical ones.
    2. With ``dataset.categorical``: a
       :class:`~sklearn.compose.ColumnTransformer` one-hot encodes those columns
       (``OneHotEncoder(handle_unknown="ignore", sparse_output=False)``: a
       category absent from a training part is encoded as all zeros in its
       test fold; dense output, so that every classifier, ``nb`` included,
       accepts it) and passes the numeric columns through.
    3. For the aliases in :data:`NEEDS_SCALING`, and for dotted paths to
       ``LogisticRegression``, ``SVC``, ``KNeighborsClassifier``, ``Ridge``,
       ``SVR``, ``KNeighborsRegressor`` or their
       subclasses: a :class:`~sklearn.preprocessing.StandardScaler` on the
       numeric columns (one-hot columns are left as 0/1).

    Values are checked when the estimator is built, with scikit-learn's
    own parameter validation where the estimator has it, so that a bad value
    is reported before any fit.

    Examples
    --------
    >>> from cvinference.cli._data import load_data
    >>> from cvinference.cli._estimators import build_estimator
    >>> iris = load_data("iris")
    >>> estimator, description = build_estimator("logreg", params='{"C": 0.5}', dataset=iris)
    >>> description
    'logreg: StandardScaler + LogisticRegression(C=0.5, max_iter=1000)'
    >>> build_estimator("tree", dataset=iris, random_state=0)[1]
    'tree: DecisionTreeClassifier(random_state=0)'
    """
    task = getattr(dataset, "task", "classification")
    cls, defaults, alias = _resolve(spec, task)
    spec = spec.strip()
    instance = _check_estimator(cls, spec, task)
    estimator = _configure(cls, instance, spec, parse_params(params, spec), defaults, random_state)
    scale = alias in NEEDS_SCALING if alias is not None else issubclass(cls, _scaled_classes())
    steps, words = _preprocessing(dataset, scale)
    description = f"{spec}: {' + '.join([*words, estimator_description(estimator)])}"
    if not steps:
        return estimator, description
    from sklearn.pipeline import Pipeline

    return Pipeline([*steps, (_kind_word(task), estimator)]), description
