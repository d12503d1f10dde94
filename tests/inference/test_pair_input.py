"""Issue 27, item 2: every test of two records takes a PairedCVResult as well as (a, b).

The oracle is the (a, b) form itself: ``f(pair)`` must give the result
``f(pair.a, pair.b)`` gives, field for field (results compare by content).
"""

import warnings

import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

X, Y = load_breast_cancer(return_X_y=True)

WONG_TESTS = [
    (cvi.matched_sample_test, {}),
    (cvi.matched_sample_test, {"alternative": "greater"}),
    (cvi.independent_sample_test, {}),
    (cvi.independent_sample_test, {"method": "independent-t", "alternative": "less"}),
    (cvi.mcnemar_test, {}),
    (cvi.mcnemar_test, {"exact": True}),
    (cvi.scheme_diagnostic, {}),
]
RESAMPLED_TESTS = [
    (cvi.corrected_resampled_ttest, {}),
    (cvi.corrected_resampled_ttest, {"alternative": "greater"}),
    (cvi.bayesian_correlated_ttest, {"margin": 0.02}),
]
EVERY_TEST = sorted({function for function, _ in WONG_TESTS + RESAMPLED_TESTS}, key=lambda f: f.__name__)


def _pair(n_repeats):
    evaluator = cvi.CVEvaluator(cv=5, n_repeats=n_repeats, random_state=0)
    return evaluator.compare(GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0), X, Y)


@pytest.fixture(scope="module")
def pair():
    return _pair(1)


@pytest.fixture(scope="module")
def repeated_pair():
    return _pair(3)


def _quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return function(*args, **kwargs)


def _name(case):
    function, options = case
    return function.__name__ + "".join(f"-{key}={value}" for key, value in options.items())


@pytest.mark.parametrize("function, options", WONG_TESTS, ids=map(_name, WONG_TESTS))
def test_a_pair_gives_the_numbers_of_its_two_results(pair, function, options):
    from_pair = _quietly(function, pair, **options)
    from_two = _quietly(function, pair.a, pair.b, **options)
    assert from_pair == from_two
    assert type(from_pair) is type(from_two)


@pytest.mark.parametrize("function, options", RESAMPLED_TESTS, ids=map(_name, RESAMPLED_TESTS))
def test_a_repeated_pair_gives_the_numbers_of_its_two_results(repeated_pair, function, options):
    from_pair = _quietly(function, repeated_pair, **options)
    from_two = _quietly(function, repeated_pair.a, repeated_pair.b, **options)
    assert from_pair == from_two


def test_mcnemar_takes_a_pair(pair):
    """The issue's example: mcnemar_test(pair) failed with "missing a required argument: 'b'"."""
    test = cvi.mcnemar_test(pair)
    assert test.pvalue == cvi.mcnemar_test(pair.a, pair.b).pvalue
    assert test.estimate == pytest.approx(pair.a.accuracy - pair.b.accuracy)


def test_a_pair_by_keyword_is_a_pair(pair):
    assert cvi.mcnemar_test(a=pair) == cvi.mcnemar_test(pair.a, b=pair.b)


@pytest.mark.parametrize("function", EVERY_TEST, ids=lambda f: f.__name__)
def test_a_pair_and_b_is_a_type_error_naming_the_fix(pair, function):
    name = function.__name__
    with pytest.raises(TypeError, match=rf"{name}\(\) takes a PairedCVResult or two results, not both") as caught:
        function(pair, pair.b)
    assert f"Call {name}(pair)" in str(caught.value)
    assert "got b of type CVResult" in str(caught.value)


@pytest.mark.parametrize("function", EVERY_TEST, ids=lambda f: f.__name__)
def test_one_result_alone_is_a_type_error_naming_both_forms(pair, function):
    name = function.__name__
    with pytest.raises(TypeError, match=rf"{name}\(\) compares two results") as caught:
        function(pair.a)
    assert f"{name}(pair)" in str(caught.value) and f"{name}(a, b)" in str(caught.value)


@pytest.mark.parametrize("function", EVERY_TEST, ids=lambda f: f.__name__)
def test_the_options_are_still_checked_with_a_pair(pair, function):
    with pytest.raises(TypeError):
        function(pair, not_an_option=1)
