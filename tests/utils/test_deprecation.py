"""The deprecation decorators: old calls keep working for one release, warn naming the new form, same answer."""

import inspect
import warnings

import pytest

from cvinference._utils._deprecation import deprecated, positional_deprecated, removal_version, renamed_parameter
from cvinference._utils._params import PROBABILITY, Integer, validate_params


@renamed_parameter(old="n_splits", new="n_rounds", since="0.1")
@validate_params(n_rounds=Integer(minimum=2))
def _rounds(estimator, *, n_rounds=15, test_size=0.2):
    return estimator, n_rounds, test_size


@renamed_parameter(old="folds", new="cv", since="0.1")
def _positional_new(estimator, cv=10):
    return estimator, cv


@positional_deprecated("confidence_level", since="0.1")
@validate_params(confidence_level=PROBABILITY)
def _interval(result, metric="f1", *, confidence_level=0.95, repeat=None):
    return result, metric, confidence_level, repeat


def _no_warning(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return function(*args, **kwargs)


def test_the_new_name_works_without_a_warning():
    assert _no_warning(_rounds, "tree", n_rounds=5) == ("tree", 5, 0.2)


def test_the_old_name_warns_naming_the_new_one_and_gives_the_same_answer():
    with pytest.warns(FutureWarning, match=r"n_splits was renamed n_rounds in version 0\.1") as caught:
        old = _rounds("tree", n_splits=5)
    assert old == _rounds("tree", n_rounds=5)
    message = str(caught[0].message)
    assert "pass n_rounds=5" in message and "version 0.2" in message
    assert caught[0].filename == __file__  # the warning points at the caller's line


def test_the_old_name_is_still_validated_under_the_new_one():
    with pytest.warns(FutureWarning), pytest.raises(ValueError, match="n_rounds must be an integer >= 2"):
        _rounds("tree", n_splits=1)


def test_both_names_at_once_is_a_type_error_naming_the_fix():
    with pytest.raises(TypeError, match=r"_rounds\(\) got both n_splits= and n_rounds=.*pass only n_rounds="):
        _rounds("tree", n_splits=5, n_rounds=5)


def test_the_new_name_by_position_and_the_old_by_keyword_is_a_type_error():
    with pytest.raises(TypeError, match="got both folds= and cv="):
        _positional_new("tree", 5, folds=3)
    with pytest.warns(FutureWarning, match="folds was renamed cv"):
        assert _positional_new("tree", folds=3) == ("tree", 3)


def test_the_signature_shows_only_the_new_name():
    assert list(inspect.signature(_rounds).parameters) == ["estimator", "n_rounds", "test_size"]


def test_renaming_checks_its_own_arguments():
    with pytest.raises(TypeError, match="must have the parameter 'cv'"):
        renamed_parameter(old="folds", new="cv", since="0.1")(lambda folds: folds)


def test_keyword_only_by_keyword_works_without_a_warning():
    assert _no_warning(_interval, "r", "f1", confidence_level=0.9) == ("r", "f1", 0.9, None)
    assert _no_warning(_interval, "r") == ("r", "f1", 0.95, None)


def test_keyword_only_by_position_warns_naming_the_keyword_and_gives_the_same_answer():
    with pytest.warns(FutureWarning, match=r"passing confidence_level=0\.9 by position is deprecated") as caught:
        old = _interval("r", "f1", 0.9)
    assert old == _interval("r", "f1", confidence_level=0.9)
    assert "pass it by keyword: confidence_level=0.9" in str(caught[0].message)
    assert caught[0].filename == __file__


def test_keyword_only_by_position_is_still_validated():
    with pytest.warns(FutureWarning), pytest.raises(ValueError, match="confidence_level must be"):
        _interval("r", "f1", 95)


def test_more_positional_arguments_than_before_is_a_type_error():
    with pytest.raises(TypeError, match=r"takes at most 3 positional arguments \(2 from version 0\.2\) but 4"):
        _interval("r", "f1", 0.9, 0)


def test_a_keyword_given_twice_is_a_type_error():
    with pytest.raises(TypeError, match="multiple values for argument 'confidence_level'"):
        _interval("r", "f1", 0.9, confidence_level=0.8)


def test_the_keyword_only_signature_is_kept():
    parameter = inspect.signature(_interval).parameters["confidence_level"]
    assert parameter.kind is inspect.Parameter.KEYWORD_ONLY


def test_keyword_only_needs_keyword_only_parameters():
    with pytest.raises(TypeError, match="must be keyword-only"):
        positional_deprecated("metric", since="0.1")(lambda result, metric="f1": metric)


class _Old:
    @deprecated(since="0.1", instead="call new(x) instead")
    def method(self, x):
        """Return x.

        Parameters
        ----------
        x : int
        """
        return x


def test_a_deprecated_method_warns_and_answers():
    with pytest.warns(FutureWarning, match=r"_Old\.method\(\) is deprecated since version 0\.1 and will be removed "
                                           r"in version 0\.2; call new\(x\) instead\.") as caught:
        assert _Old().method(3) == 3
    assert caught[0].filename == __file__


def test_a_deprecated_method_says_so_in_its_docstring():
    doc = inspect.getdoc(_Old.method)
    assert doc.splitlines()[:4] == ["Return x.", "", ".. deprecated:: 0.1",
                                    "    Removed in version 0.2; call new(x) instead."]
    assert "Parameters\n----------\nx : int" in doc


@pytest.mark.parametrize("since, removal", [("0.1", "0.2"), ("1.9", "1.10"), ("2.0.1", "2.1")])
def test_removal_is_the_next_minor_release(since, removal):
    assert removal_version(since) == removal
