"""Every public parameter refuses bad values by its declared rule: a generated bad-input suite (issue 28, item 4).

scikit-learn's common-test habit (``check_param_validation`` reading an estimator's
``_parameter_constraints`` and ``generate_invalid_param_val``), for the whole public API:

- every public callable of ``cvinference.__all__`` and of the subpackages' own names
  (``public_names.SUBPACKAGE_NAMES``; functions, classes' constructors and their public methods) is found here
  by walking them (``public_names``), not listed by hand;
- every parameter of its signature is either declared with a rule (``validate_params`` keeps the
  rules as the callable's ``__cvinference_params__``; a class that checks its parameters when
  used, as ``CVEvaluator``, declares them as a class attribute of that name) or named in
  ``NOT_BY_RULE`` with the reason: a new parameter without a rule fails ``test_every_parameter_...``;
- every callable has a cheap valid call in ``BASE_CALLS`` (or a reason in ``NO_BASE_CALL``): a new
  public function fails ``test_every_public_callable_has_a_base_call``;
- for every declared parameter and every value its rule lists in ``invalid_values()``, the base
  call with that value raises the rule's TypeError or ValueError, whose message names the
  parameter and the value, before any model is fitted (the estimators here count their fits).
"""

import functools
import inspect
import math
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import GridSearchCV
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference._utils import _params

from counted_fits import CountedNB
from public_names import public_names
from result_cases import forward_pair, result_cases


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


NB = CountedNB()
X, Y = make_classification(n_samples=60, n_features=4, n_informative=3, n_redundant=0, random_state=0)
POPULATION = make_classification(n_samples=400, n_features=4, n_informative=3, n_redundant=0, random_state=1)
A = cvi.cross_val_correctness(NB, X, Y, cv=3, random_state=0)
B = cvi.cross_val_correctness(NB, X, Y[::-1].copy(), cv=3, random_state=0)
PAIR = cvi.CVEvaluator(3, random_state=0).compare(NB, GaussianNB(var_smoothing=1e-3), X, Y)
REGRESSORS = cvi.CVEvaluator(3, loss="squared_error", random_state=0).compare(
    LinearRegression(), DummyRegressor(), X, X[:, 0] + X[:, 1])
SUBSAMPLING = cvi.evaluation.random_subsampling(NB, X, Y, n_rounds=3, random_state=0)
FIVE_BY_TWO = cvi.evaluation.five_by_two_cv(NB, GaussianNB(var_smoothing=1e-3), X, Y, random_state=0)
NESTED = cvi.evaluation.nested_cross_validation(NB, X, Y, n_splits=3, n_repeats=1, random_state=0)
PAIRED_SUBSAMPLING = cvi.evaluation.paired_subsampling(NB, X, Y, n_pairs=2, n_rounds=2, random_state=0)
BOOTSTRAP = cvi.evaluation.bootstrap_sampling(NB, X, Y, n_bootstraps=3, random_state=0)
SEARCH = GridSearchCV(GaussianNB(), {"var_smoothing": [1e-9, 1e-3]}, cv=3).fit(X, Y)
SCORES = np.array([[0.81, 0.80, 0.75], [0.62, 0.66, 0.60], [0.90, 0.90, 0.88], [0.70, 0.71, 0.74]])
INSTANCES = {}
for _, _instance in result_cases():
    INSTANCES.setdefault(type(_instance).__name__, _instance)

def _closed(drawn):
    """Close the figure of what a base call drew, a ``cvinference.report.Plot`` (needs the plot extra, which the
    test extras hold)."""
    import matplotlib.pyplot as plt

    plt.close(drawn.figure_)


def _study(function, *estimators, **kw):
    return function(*estimators, *POPULATION, **{"sample_size": 40, "n_draws": 2, "random_state": 0, **kw})


BASE_CALLS = {
    # splitters and the evaluator: made, then used on the data (CVEvaluator checks when used)
    "EqualSizeKFold": lambda **kw: list(cvi.EqualSizeKFold(**{"n_splits": 3, **kw}).split(X, Y)),
    "StratifiedEqualSizeKFold": lambda **kw: list(cvi.StratifiedEqualSizeKFold(**{"n_splits": 3, **kw}).split(X, Y)),
    "RemainderLastKFold": lambda **kw: list(cvi.splitters.RemainderLastKFold(**{"n_splits": 3, **kw}).split(X, Y)),
    "RandomAssignmentKFold": lambda **kw: list(cvi.splitters.RandomAssignmentKFold(**{"n_splits": 3, **kw}).split(X,
                                                                                                                  Y)),
    "StratifiedEqualSizeGroupKFold": lambda **kw: list(cvi.StratifiedEqualSizeGroupKFold(
        **{"n_splits": 3, **kw}).split(X, Y, np.arange(60) // 4)),
    "EqualSizeGroupKFold": lambda **kw: list(cvi.EqualSizeGroupKFold(
        **{"n_splits": 3, **kw}).split(X, Y, np.arange(60) // 4)),
    "ForwardSplit": lambda **kw: list(cvi.splitters.ForwardSplit(**{"n_splits": 3, **kw}).split(X, Y)),
    "CVEvaluator": lambda **kw: cvi.CVEvaluator(**{"cv": 3, **kw}).evaluate(NB, X, Y),
    "CVEvaluator.evaluate": lambda **kw: cvi.CVEvaluator(3).evaluate(NB, X, Y, **kw),
    "CVEvaluator.compare": lambda **kw: cvi.CVEvaluator(3).compare(NB, GaussianNB(), X, Y, **kw),
    "evaluate": lambda **kw: cvi.evaluate(NB, X, Y, **{"cv": 3, **kw}),
    "compare": lambda **kw: cvi.compare(NB, GaussianNB(var_smoothing=1e-3), X, Y, **{"cv": 3, "nested": "never", **kw}),
    # the schemes that fit
    "cross_val_correctness": lambda **kw: cvi.cross_val_correctness(NB, X, Y, **{"cv": 3, **kw}),
    "holdout": functools.partial(cvi.evaluation.holdout, NB, X, Y),
    "random_subsampling": lambda **kw: cvi.evaluation.random_subsampling(NB, X, Y, **{"n_rounds": 2, **kw}),
    "five_by_two_cv": functools.partial(cvi.evaluation.five_by_two_cv, NB, NB, X, Y),
    "paired_subsampling": lambda **kw: cvi.evaluation.paired_subsampling(NB, X, Y, **{"n_pairs": 2, "n_rounds": 2,
                                                                                      **kw}),
    "bootstrap_sampling": lambda **kw: cvi.evaluation.bootstrap_sampling(NB, X, Y, **{"n_bootstraps": 2, **kw}),
    "nested_cross_validation": lambda **kw: cvi.evaluation.nested_cross_validation(
        NB, X, Y, **{"n_splits": 3, "n_repeats": 1, **kw}),
    # the conveniences that fit, then infer
    "nested_cv_interval": lambda **kw: cvi.nested_cv_interval(NB, X, Y, **{"n_splits": 3, "n_repeats": 1, **kw}),
    "conservative_z_interval": lambda **kw: cvi.conservative_z_interval(
        NB, X, Y, **{"n_pairs": 2, "n_rounds": 2, **kw}),
    "bootstrap_accuracy": lambda **kw: cvi.bootstrap_accuracy(NB, X, Y, **{"n_bootstraps": 2, **kw}),
    "paired_ttest_5x2cv": functools.partial(cvi.paired_ttest_5x2cv, NB, NB, X, Y),
    "combined_ftest_5x2cv": functools.partial(cvi.combined_ftest_5x2cv, NB, NB, X, Y),
    "tuning_interval": lambda **kw: cvi.model_selection.tuning_interval(
        GridSearchCV(NB, {"var_smoothing": [1e-9, 1e-3]}, cv=2), X, Y, **{"n_splits": 3, "n_repeats": 1, **kw}),
    # inference from records
    "accuracy_interval": functools.partial(cvi.accuracy_interval, A),
    "large_sample_conditions": functools.partial(cvi.large_sample_conditions, A),
    "loss_interval": functools.partial(cvi.loss_interval, A),
    "metric_interval": functools.partial(cvi.metric_interval, A),
    "no_information_test": functools.partial(cvi.no_information_test, A),
    "forecast_interval": lambda **kw: cvi.inference.forecast_interval(forward_pair().a, **kw),
    "forecast_test": lambda **kw: cvi.inference.forecast_test(forward_pair(), **kw),
    "ForwardResult.baseline": lambda **kw: forward_pair().a.baseline(**kw),
    "ForwardResult.from_forecasts": lambda **kw: cvi.records.ForwardResult.from_forecasts(
        [1.0, 2.0, 3.0, 5.0], [2.5, 4.0], **{"time": [2, 3], "origin": [1, 2], "train_size": 2, **kw}),
    "matched_sample_test": functools.partial(cvi.matched_sample_test, PAIR),
    "independent_sample_test": functools.partial(cvi.independent_sample_test, A, B),
    "mcnemar_test": functools.partial(cvi.mcnemar_test, PAIR),
    "scheme_diagnostic": functools.partial(cvi.scheme_diagnostic, PAIR),
    "corrected_resampled_ttest": functools.partial(cvi.corrected_resampled_ttest, PAIR),
    "bayesian_correlated_ttest": functools.partial(cvi.bayesian_correlated_ttest, PAIR),
    "paired_ttest_5x2cv_of": functools.partial(cvi.inference.paired_ttest_5x2cv_of, FIVE_BY_TWO),
    "combined_ftest_5x2cv_of": functools.partial(cvi.inference.combined_ftest_5x2cv_of, FIVE_BY_TWO),
    "nested_cv_interval_of": functools.partial(cvi.inference.nested_cv_interval_of, NESTED),
    "conservative_z_interval_of": functools.partial(cvi.inference.conservative_z_interval_of, PAIRED_SUBSAMPLING),
    "bootstrap_accuracy_of": functools.partial(cvi.inference.bootstrap_accuracy_of, BOOTSTRAP),
    "decide": functools.partial(cvi.decide, PAIR),
    "plan": functools.partial(cvi.plan, NB, GaussianNB(), n_samples=300),
    "regression_interval": functools.partial(cvi.inference.regression_interval, REGRESSORS.a),
    "mean_baseline_test": functools.partial(cvi.inference.mean_baseline_test, REGRESSORS.a),
    "loss_difference_test": functools.partial(cvi.inference.loss_difference_test, REGRESSORS),
    # records and losses
    "CVResult": lambda **kw: cvi.CVResult(**{"y_true": [0, 1, 0, 1], "y_pred": [0, 1, 1, 1],
                                             "fold": [0, 0, 1, 1], **kw}),
    "PairedCVResult": lambda **kw: cvi.PairedCVResult(**{"a": A, "b": A, **kw}),
    "Loss": lambda **kw: cvi.records.Loss(**{"name": "cost", "classification": True, "function": np.not_equal, **kw}),
    "make_loss": lambda **kw: cvi.make_loss(**{"function": np.not_equal, **kw}),
    "make_log_loss": lambda **kw: cvi.records.make_log_loss(**kw),
    "make_metric": lambda **kw: cvi.make_metric(**{"function": np.equal, **kw}),
    # model selection
    "compare_candidates": functools.partial(cvi.compare_candidates, SEARCH),
    "compare_on_datasets": functools.partial(cvi.compare_on_datasets, SCORES),
    "OneStandardError": lambda **kw: cvi.model_selection.OneStandardError(**{"param": "var_smoothing",
                                                                             **kw})(SEARCH.cv_results_),
    "SimplestIndistinguishable": lambda **kw: cvi.model_selection.SimplestIndistinguishable(
        **{"param": "var_smoothing", "cv": 3, **kw})(SEARCH.cv_results_),
    # studies, on a population of 400
    "conditional_error_study": lambda **kw: _study(cvi.conditional_error_study, NB, **{"cv": 3, "max_repeats": 1,
                                                                                        **kw}),
    "winner_table": lambda **kw: _study(cvi.winner_table, NB, GaussianNB(var_smoothing=1e-3), **{"cv": 3, **kw}),
    "precision_study": lambda **kw: _study(cvi.precision_study, NB, **{"folds": (2,), **kw}),
    "fold_size_study": lambda **kw: _study(cvi.fold_size_study, NB, **{"n_splits": 3, **kw}),
    "ConditionalErrorStudyResult.rmse": lambda **kw: INSTANCES["ConditionalErrorStudyResult"].rmse(**kw),
    "load_population": lambda **kw: cvi.studies.load_population(**{"name": "synthetic", **kw}),
    "CVResult.plot": lambda **kw: _closed(INSTANCES["CVResult"].plot(**kw)),
    "compare_models": lambda **kw: cvi.compare_models({"a": A, "b": PAIR.b}, **kw),
    "CVResult.from_predictions": lambda **kw: cvi.CVResult.from_predictions([0, 1, 0, 1], [0, 1, 1, 1], **kw),
    "CVResult.from_frame": lambda **kw: cvi.CVResult.from_frame(
        {"label": [0, 1, 0, 1], "pred": [0, 1, 1, 1]}, y_true="label", y_pred="pred", **kw),
    "PairedCVResult.plot": lambda **kw: _closed(INSTANCES["PairedCVResult"].plot(**kw)),
    "Evaluation.to_json": lambda **kw: cvi.evaluate(INSTANCES["CVResult"]).to_json(**kw),
    "Comparison.to_json": lambda **kw: cvi.compare(PAIR).to_json(**kw),
}
"""A small, valid call of every public callable, taking the parameters to override as keywords."""
for _name, _instance in INSTANCES.items():
    BASE_CALLS[f"{_name}.to_json"] = _instance.to_json
    if "ax" in inspect.signature(getattr(_instance, "plot", lambda: None)).parameters:
        BASE_CALLS.setdefault(f"{_name}.plot", lambda _drawn=_instance, **kw: _closed(_drawn.plot(**kw)))
    if hasattr(_instance, "confidence_interval"):
        BASE_CALLS[f"{_name}.confidence_interval"] = _instance.confidence_interval

# Estimator, data and records: what each parameter accepts is checked by the data checks of
# cvinference/_utils/_validation.py (estimators, X, y, groups) or by the record's own class, with
# messages tested where they are made (tests/test_bad_parameters.py, tests/evaluation, tests/inference).
DATA = "data or an object, checked by the package's data checks, not by a parameter rule"
NOT_BY_RULE = {
    "estimator": DATA, "estimator_a": DATA, "estimator_b": DATA, "X": DATA, "y": DATA, "groups": DATA,
    "result": DATA, "a": DATA, "b": DATA, "pair": DATA, "search": DATA,
    "data": "from_dict's dict: the codec checks it field by field (tests/test_codec.py)",
    "text": "from_json's JSON text: parsed, then checked as from_dict's data (tests/test_codec.py)",
    "scores": DATA,
    ("compare_models", "records"): "records on the same rows: checked by model_selection/_models.py, naming the "
                                   "record (tests/model_selection/test_compare_models.py)",
    ("CVResult", "y_true"): DATA, ("CVResult", "y_pred"): DATA, ("CVResult", "fold"): DATA, ("CVResult", "loss"): DATA,
    ("CVResult", "y_score"): DATA,
    ("CVResult.from_predictions", "fold"): "fold ids, a splitter or (train, test) splits: checked by "
                                           "records/_from_predictions.py, naming fold (tests/records/"
                                           "test_from_predictions.py)",
    "repeat": "one repeat id per row: checked against y_true's rows by records/_from_predictions.py, naming repeat",
    "classes": "the labels y_true and y_pred may hold: checked against them, naming classes and the label",
    ("CVResult.from_predictions", "loss"): "a loss name or Loss: read by records' get_loss, which names loss",
    ("CVResult.from_frame", "loss"): "as from_predictions' loss",
    ("CVResult.from_frame", "frame"): DATA,
    ("CVResult.from_frame", "fold"): "a column name: checked against the table's columns, naming fold",
    ("CVResult.from_frame", "y_true"): "a column name: checked against the table's columns, naming y_true",
    ("CVResult.from_frame", "y_pred"): "a column name: checked against the table's columns, naming y_pred",
    ("CVResult.from_frame", "y_score"): "a column name or one per class: checked against the table's columns",
    ("CVResult.from_predictions", "y_true"): DATA, ("CVResult.from_predictions", "y_pred"): DATA,
    ("CVResult.from_predictions", "y_score"): DATA,
    ("ForwardResult.from_forecasts", "y_pred"): DATA, ("ForwardResult.from_forecasts", "time"): DATA,
    ("ForwardResult.from_forecasts", "origin"): "one row number per forecast: checked by the record, naming origin",
    ("ForwardResult.from_forecasts", "train_size"): "an int, 'expanding' or one per forecast: checked by "
                                                    "from_forecasts, naming train_size (tests/records/"
                                                    "test_forward_result.py)",
    ("make_loss", "function"): "any callable; make_loss refuses another object, naming function",
    ("Loss", "function"): "any callable; Loss refuses another object, naming function",
    ("make_metric", "function"): "any callable; make_metric refuses another object, naming function",
    ("make_metric", "bounds"): "(low, high), each a number or None, low < high: checked by make_metric, naming "
                               "bounds and the value (tests/inference/test_metric_edges.py)",
    ("decide", "tests"): "(name, test result) pairs, as pair_tests makes them: results, checked by decide",
    ("decide", "nested"): "a nested_cv_interval result or None: a result, checked by decide",
    ("Plan.detectable_at", "n_samples"): "an int or an array of ints of at least 2 K: checked against the plan's "
                                         "folds by detectable_at, naming n_samples (tests/policy/test_plan.py)",
    ("plan", "pilot"): "a PairedCVResult or None: plan refuses another object, naming pilot (tests/policy/"
                       "test_plan.py)",
    ("PairedCVResult.plot", "nested"): "a nested_cv_interval result or None: passed to decide, which checks it",
    "cv_result": "a CVResult or PairedCVResult or None: checked against the call by evaluation/_nested_reuse.py, "
                 "naming cv_result and the fix (tests/evaluation/test_nested_reuse.py)",
    "metric": "a scikit-learn scorer's name or a callable: checked against sklearn's scorers where it is used "
              "(the message names metric and the value, and lists the names)",
    ("conditional_error_study", "cv"): "an int >= 2 or a k-fold splitter: checked with the sample size "
                                       "(studies/_vanwinckelen.py, the message names cv and the value)",
    ("winner_table", "cv"): "as conditional_error_study's cv",
    ("precision_study", "folds"): "increasing ints from 2 to sample_size (an int k means (k,)): checked against "
                                  "sample_size by studies/_precision.py, the message names folds and the value",
    ("make_log_loss", "clip"): "a pair 0 < low < high <= 1: checked by make_log_loss, naming clip and the value",
    "path": "plot's file: None, a file name or a file object, checked by the one plot rule (report/_plot.py "
            "draw_panels, naming path; tests/report/test_one_plot_rule.py)",
    "ax": "plot's Axes: None, one Axes or one per panel, checked where it is drawn on (its error names ax and the "
          "panels; tests/report/test_plot_result.py)",
    "order": "'ascending', 'descending' or the parameter's values simplest first: checked against the candidates' "
             "values where they are ranked (model_selection/_split_scores.py, naming order and the value)",
    ("SimplestIndistinguishable", "cv"): "the search's splitter or fold count: read by layout_of, naming cv",
    ("compare_on_datasets", "datasets"): "names of the rows of an array scores: checked against its shape, "
                                         "a TypeError naming datasets for what is not a sequence",
    ("compare_on_datasets", "learners"): "as datasets, for the columns",
    ("compare_on_datasets", "control"): "one of the learners' names: checked against them, naming control",
    ("evaluate", "cv"): "as CVEvaluator's cv, checked by the evaluator when it runs, before any fit",
    ("compare", "cv"): "as CVEvaluator's cv, checked by the evaluator when it runs, before any fit",
    ("evaluate", "loss"): "as CVEvaluator's loss, checked by the evaluator when it runs, before any fit",
    ("compare", "loss"): "as CVEvaluator's loss, checked by the evaluator when it runs, before any fit",
}
"""Parameters that no rule declares, each with the reason: ``name`` for every callable, or (callable, name)."""

# The constructors of result classes: the package's functions build them (one keyword per field);
# a user rebuilds one with from_dict, whose checks tests/test_codec.py covers field by field.
RESULT = "a result's constructor, called by the package; from_dict checks a user's fields (tests/test_codec.py)"
NO_BASE_CALL = {name: RESULT for name in (
    "BayesianResult", "BootstrapResult", "BootstrapSamplingResult", "CandidateComparison",
    "ConditionalErrorStudyResult", "DatasetComparison", "Decision", "DecisionTest", "Plan", "FoldSizeStudyResult",
    "ForwardResult", "FriedmanResult", "FTestResult", "Interval", "LargeSampleConditions", "McNemarTestResult",
    "ModelComparison", "NestedCVResult", "PairedForwardResult",
    "NoInformationTestResult", "LossDifferenceTestResult", "PairedSubsamplingResult", "PrecisionStudyResult",
    "SchemeDiagnostic",
    "SubsamplingResult", "TestResult", "WinnerTableResult", "Evaluation", "Comparison")}
"""Public callables the generated calls leave out, each with the reason."""


def _public_callables():
    """``{name: callable}``: every public function, every public class and its public methods."""
    found = {}
    for name, obj in public_names().items():
        if (inspect.isclass(obj) and issubclass(obj, Warning)) or not callable(obj):
            continue
        found[name] = obj
        if not inspect.isclass(obj):
            continue
        for attribute in dir(obj):
            member = inspect.getattr_static(obj, attribute)
            function = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
            if attribute.startswith("_") or not inspect.isfunction(function):
                continue
            if function.__module__.startswith("cvinference"):
                found[f"{name}.{attribute}"] = getattr(obj, attribute)
    return found


PUBLIC = _public_callables()


def _parameters(function):
    """The names of a callable's parameters (``self``, ``cls``, ``*args`` and ``**kwargs`` left out)."""
    kinds = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [name for name, parameter in inspect.signature(function).parameters.items()
            if name not in ("self", "cls") and parameter.kind not in kinds]


def _rules(function):
    """The rules declared for a callable's parameters: a function's, or a class's (its own, or its __init__'s)."""
    if inspect.isclass(function):
        return dict(vars(function).get("__cvinference_params__", {})
                    or getattr(function.__init__, "__cvinference_params__", {}))
    return dict(getattr(function, "__cvinference_params__", {}))


def _cases():
    """(callable, parameter, value, expected exception) for every declared parameter and every invalid value."""
    for name, function in sorted(PUBLIC.items()):
        for parameter, rule in sorted(_rules(function).items()):
            for value, error in rule.invalid_values():
                yield pytest.param(name, parameter, value, error, id=f"{name}-{parameter}={value!r}")


def _all_rules():
    """Every rule any public callable declares, once per distinct description and kind."""
    rules = {}
    for function in PUBLIC.values():
        for rule in _rules(function).values():
            rules.setdefault((type(rule).__name__, rule.describe()), rule)
    return rules


@pytest.mark.parametrize("key", sorted(_all_rules()), ids=lambda key: f"{key[0]}: {key[1][:60]}")
def test_every_rule_refuses_its_own_invalid_values(key):
    rule = _all_rules()[key]
    assert rule.invalid_values(), f"{key} lists no invalid value"
    for value, error in rule.invalid_values():
        with pytest.raises(error) as caught:
            rule.check("some_parameter", value)
        assert "some_parameter" in str(caught.value) and repr(value) in str(caught.value), str(caught.value)


@pytest.mark.parametrize("rule", [_params.Integer(minimum=1), _params.Boolean(), _params.Options("a", "b"),
                                  _params.Text("x"), _params.DistinctPair(_params.Text("x")), _params.PROBABILITY,
                                  _params.SECONDS, _params.VERBOSE, _params.NAME, _params.NAMES, _params.Seed(),
                                  _params.Jobs(), _params.Real(-math.inf, 0, closed="neither")],
                         ids=lambda rule: f"{type(rule).__name__}: {rule.describe()}")
def test_the_shared_rules_refuse_their_own_invalid_values(rule):
    for value, error in rule.invalid_values():
        with pytest.raises(error, match=r"^some_parameter must be "):
            rule.check("some_parameter", value)


@pytest.mark.parametrize("name", sorted(set(PUBLIC) - set(NO_BASE_CALL)))
def test_every_parameter_is_declared_or_says_why_not(name):
    declared = _rules(PUBLIC[name])
    missing = [parameter for parameter in _parameters(PUBLIC[name]) if parameter not in declared
               and parameter not in NOT_BY_RULE and (name, parameter) not in NOT_BY_RULE]
    assert not missing, (f"{name}: declare a rule for {missing} with validate_params (or __cvinference_params__), "
                         "or add them to NOT_BY_RULE with the reason")


def test_the_tables_name_only_what_exists():
    parameters = {parameter for function in PUBLIC.values() for parameter in _parameters(function)}
    pairs = {(name, parameter) for name, function in PUBLIC.items() for parameter in _parameters(function)}
    stale = [key for key in NOT_BY_RULE if key not in (pairs if isinstance(key, tuple) else parameters)]
    assert not stale, f"NOT_BY_RULE names parameters that no public callable has: {stale}"
    assert not set(NO_BASE_CALL) - set(PUBLIC) and not set(BASE_CALLS) - set(PUBLIC)
    assert not set(NO_BASE_CALL) & set(BASE_CALLS)


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_public_callable_has_a_base_call(name):
    if _rules(PUBLIC[name]):
        assert name in BASE_CALLS or name in NO_BASE_CALL, (
            f"{name} has no base call: add a small, valid call to BASE_CALLS (or a reason to NO_BASE_CALL)")


@pytest.mark.parametrize("name, parameter, value, error", list(_cases()))
def test_a_bad_value_is_refused_naming_the_parameter_and_the_value(name, parameter, value, error):
    fits = CountedNB.fits
    with pytest.raises(error) as caught:
        BASE_CALLS[name](**{parameter: value})
    message = str(caught.value)
    assert parameter in message and repr(value) in message, f"{name}({parameter}={value!r}): {message}"
    assert CountedNB.fits == fits, f"{name}({parameter}={value!r}) fitted models before refusing the value"


@pytest.mark.parametrize("name", sorted(set(PUBLIC) & set(BASE_CALLS)))
def test_the_base_call_is_valid(name):
    _quiet(BASE_CALLS[name])
