"""Issue 58, the held-out fault campaign's findings 2, 12 (pos_label), 19 and 20: the front door's ``cv``, a
``pos_label`` no metric reads, a callable metric that returns no number, and a plan of learners of two tasks.

Oracles: the same call with a Python int (``cv=5``), whose records a numpy integer must reproduce exactly;
:func:`cvinference.metric_interval` on the evaluation's own record (the interval ``pos_label`` asks for);
scikit-learn's ``check_cv``, which reads ``cv=None`` as 5-fold cross-validation (its documentation: "None, to use
the default 5-fold cross validation"), the reason None is refused rather than read as either default; and the
learner counts of ``tests/counted_fits.py``: every refusal comes before the first fit.
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.model_selection import KFold, check_cv
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.splitters import ForwardSplit

from counted_fits import CountedLinear, CountedNB

X, Y = make_classification(n_samples=60, n_features=4, n_informative=3, n_redundant=0, random_state=0)
R = X[:, 0] + X[:, 1] + np.random.default_rng(0).standard_normal(60)
STUMP = DecisionTreeClassifier(max_depth=1, random_state=0)


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def refused_before_fits(call, error, *words):
    fits = CountedNB.fits, CountedLinear.fits
    with pytest.raises(error) as raised:
        quiet(call)
    assert (CountedNB.fits, CountedLinear.fits) == fits, "fitted before refusing"
    for word in words:
        assert word in str(raised.value), f"{word!r} not in {str(raised.value)!r}"
    return str(raised.value)


@pytest.mark.parametrize("front_door", ["evaluate", "compare"])
def test_a_numpy_integer_cv_is_the_int(front_door):
    """cv=np.int64(5) raised "'numpy.int64' object is not iterable"; it is now cv=5, record for record."""
    learners = (GaussianNB(),) if front_door == "evaluate" else (GaussianNB(), STUMP)
    call = getattr(cvi, front_door)
    given, expected = (quiet(call, *learners, X, Y, cv=cv, random_state=0) for cv in (np.int64(5), 5))
    assert given.fits == expected.fits
    records = [answer.result if front_door == "evaluate" else answer.pair.a for answer in (given, expected)]
    assert records[0].n_splits == records[1].n_splits == 5
    assert records[0].to_dict() == records[1].to_dict()
    assert given.to_dict() == expected.to_dict()


@pytest.mark.parametrize("front_door", ["evaluate", "compare"])
def test_an_iterator_of_splits_is_read_once_as_their_list(front_door):
    """The front door counted the folds by reading a generator of splits, and the evaluator then found it empty
    ("was read before"): it is now listed once, as scikit-learn's check_cv lists it."""
    learners = (Ridge(),) if front_door == "evaluate" else (Ridge(), DummyRegressor())
    call = getattr(cvi, front_door)
    splits = list(KFold(3).split(X))
    given = quiet(call, *learners, X, R, cv=KFold(3).split(X))
    expected = quiet(call, *learners, X, R, cv=splits)
    records = [answer.result if front_door == "evaluate" else answer.pair.a for answer in (given, expected)]
    assert given.fits == expected.fits == 3 * len(learners)
    assert records[0].to_dict() == records[1].to_dict()
    np.testing.assert_array_equal(records[0].fold[0], np.repeat([0, 1, 2], 20))


@pytest.mark.parametrize("front_door", ["evaluate", "compare"])
@pytest.mark.parametrize(("cv", "words"), [
    (2.0, ["got cv=2.0, a float: pass cv=2"]),
    (np.float64(5), ["a float: pass cv=5"]),
    (None, ["got cv=None", "scikit-learn's cv=None is 5-fold cross-validation", "pass cv=5, or leave cv out for 10"]),
    (2.5, ["cv must be an int >= 2, 'loo', a cross-validation splitter", "got cv=2.5"]),
])
def test_a_cv_that_is_no_number_of_folds_is_refused_as_the_evaluator_refuses_it(front_door, cv, words):
    """The front door said "'float' object is not iterable"; CVEvaluator(cv=2.0) names cv: so does the front
    door now, before any fit."""
    learners = (CountedNB(),) if front_door == "evaluate" else (CountedNB(), STUMP)
    refused_before_fits(lambda: getattr(cvi, front_door)(*learners, X, Y, cv=cv), TypeError,
                        "cv must be an int >= 2", *words)


def test_cv_none_is_scikit_learns_five_folds_and_not_this_functions_default():
    """Why None is refused: scikit-learn reads it as 5 folds, and the front door's default is 10."""
    assert check_cv(None).get_n_splits() == 5
    import inspect

    assert inspect.signature(cvi.evaluate).parameters["cv"].default == 10
    assert inspect.signature(cvi.compare).parameters["cv"].default == 10


@pytest.mark.parametrize("call", [
    lambda: cvi.evaluate(CountedLinear(), X, R, cv=3, pos_label=1),
    lambda: cvi.compare(CountedLinear(), DummyRegressor(), X, R, cv=3, pos_label=1),
    lambda: cvi.compare(CountedLinear(), DummyRegressor(), X, R, cv=3, pos_label=1, metric="r2"),
], ids=["evaluate", "compare", "compare r2"])
def test_pos_label_with_regressors_is_refused_before_any_fit(call):
    """It was silently ignored (the forward front door refused it)."""
    refused_before_fits(call, ValueError, "pos_label=1 names a positive class", "a regressor's target is a quantity",
                        "drop pos_label")


@pytest.mark.parametrize("kwargs", [{}, {"metric": "roc_auc"}, {"metric": ["accuracy", "balanced_accuracy"]}])
def test_pos_label_that_no_metric_reads_is_refused_as_the_command_line_refuses_it(kwargs):
    message = refused_before_fits(lambda: cvi.compare(CountedNB(), STUMP, X, Y, cv=3, pos_label=1, **kwargs),
                                  ValueError, "pos_label=1 is the positive class of a metric about one class",
                                  "'f1', 'precision', 'recall', 'jaccard'", "add such a metric (metric='f1')")
    assert f"metric={kwargs['metric']!r}" in message if kwargs else "metric=None asks for none" in message
    refused_before_fits(lambda: cvi.evaluate(CountedNB(), X, Y, cv=3, pos_label=0, **kwargs), ValueError,
                        "pos_label=0 is the positive class")


def test_pos_label_with_a_metric_about_one_class_is_the_intervals():
    evaluation = quiet(cvi.evaluate, GaussianNB(), X, Y, cv=3, random_state=0, metric="f1", pos_label=0)
    expected = quiet(cvi.metric_interval, evaluation.result, "f1", pos_label=0)
    found = [interval for methods in evaluation.intervals.values() for interval in methods.values()
             if interval.estimand == expected.estimand]
    assert list(evaluation.intervals["f1"]) == [expected.method]
    assert len(found) == 1
    assert (found[0].estimate, found[0].low, found[0].high) == pytest.approx(
        (expected.estimate, expected.low, expected.high), rel=1e-12)


@pytest.fixture(scope="module")
def regressors():
    return quiet(cvi.CVEvaluator(5, random_state=0, loss="squared_error").compare, Ridge(), DummyRegressor(), X, R)


@pytest.fixture(scope="module")
def forecasters():
    return quiet(cvi.CVEvaluator(ForwardSplit(5, horizon=3), loss="squared_error").compare, LinearRegression(),
                 LinearRegression(fit_intercept=False), X, R)


@pytest.mark.parametrize(("pair", "words"), [("regressors", "two regressors' records"),
                                             ("forecasters", "two regressors' forecasts")])
def test_decide_refuses_pos_label_for_regressors_and_forecasts(pair, words, request):
    """cvi.decide(forward_pair, pos_label=1) and decide of two regressors answered as if it were not given."""
    records = request.getfixturevalue(pair)
    assert quiet(cvi.decide, records).answer in cvi.policy.ANSWERS  # the same call without it decides
    for kwargs in ({}, {"margin": 0.1}):
        with pytest.raises(ValueError, match="pos_label=1 names a positive class") as raised:
            cvi.decide(records, pos_label=1, **kwargs)
        assert words in str(raised.value) and "drop pos_label" in str(raised.value)


@pytest.mark.parametrize("returned", ["x", None, [0.5, 0.5]])
def test_a_callable_metric_that_returns_no_number_is_named(returned, regressors):
    """decide(P, metric=lambda a, b: "x") said "could not convert string to float: 'x'" without naming metric."""
    pair = quiet(cvi.CVEvaluator(3, random_state=0).compare, GaussianNB(), STUMP, X, Y)
    for call in (lambda: cvi.decide(pair, metric=lambda a, b: returned),
                 lambda: cvi.metric_interval(pair.a, lambda a, b: returned),
                 lambda: cvi.decide(regressors, metric=lambda a, b: returned)):
        with pytest.raises(TypeError) as raised:
            quiet(call)
        assert "metric must return a number, (y_true, y_pred) -> float" in str(raised.value)
        assert f"it returned {returned!r} ({type(returned).__name__}) on fold 0 of repeat 0" in str(raised.value)


def test_a_callable_metric_may_return_a_numpy_scalar_or_a_zero_dimensional_array():
    pair = quiet(cvi.CVEvaluator(3, random_state=0).compare, GaussianNB(), STUMP, X, Y)

    def accuracy(y_true, y_pred):
        return float(np.mean(y_true == y_pred))

    expected = cvi.metric_interval(pair.a, accuracy)
    for wrapped in (np.float32, np.asarray):
        found = cvi.metric_interval(pair.a, lambda a, b, wrap=wrapped: wrap(accuracy(a, b)))
        assert (found.estimate, found.low, found.high) == pytest.approx(
            (expected.estimate, expected.low, expected.high), rel=1e-6)


@pytest.mark.parametrize(("a", "b", "kinds"), [(GaussianNB(), Ridge(), ("a classifier", "a regressor")),
                                               (Ridge(), GaussianNB(), ("a regressor", "a classifier"))])
def test_a_plan_of_a_classifier_and_a_regressor_says_their_tasks_differ(a, b, kinds):
    """It said "a regressors' plan needs pilot=" (the command line says the learners are of different tasks)."""
    with pytest.raises(ValueError) as raised:
        cvi.plan(a, b, n_samples=150)
    message = str(raised.value)
    assert "estimator_b must do the same task as estimator_a" in message
    assert f"estimator_a={type(a).__name__}(), {kinds[0]}" in message
    assert f"estimator_b={type(b).__name__}(), {kinds[1]}" in message
    assert "Pass two classifiers or two regressors" in message and "pilot" not in message
