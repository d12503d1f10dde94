"""The declarative parameter checks: each rule's verdicts, messages, and the decorator."""

import inspect
import math

import numpy as np
import pytest

from cvinference._utils._params import (
    NAMES,
    PROBABILITY,
    SECONDS,
    Boolean,
    DistinctPair,
    Integer,
    Nullable,
    Options,
    Real,
    Text,
    validate_params,
)


@pytest.mark.parametrize("rule, value, expected", [
    (Integer(1), np.int32(4), 4),
    (Integer(0), 0, 0),
    (Boolean(), np.bool_(True), True),
    (Options("a", "b"), "b", "b"),
    (PROBABILITY, np.float32(0.5), 0.5),
    (PROBABILITY, np.array(0.9), 0.9),
    (SECONDS, math.inf, math.inf),
    (SECONDS, 0, 0.0),
    (Nullable(Integer(0)), None, None),
    (Integer(1) | Options("loo"), "loo", "loo"),
    (Text("t"), "a b", "a b"),
    (NAMES, ["a", "b"], ("a", "b")),
    (NAMES, None, None),
])
def test_accepted_values_come_back_canonical(rule, value, expected):
    checked = rule.check("x", value)
    assert checked == expected and type(checked) is type(expected)


@pytest.mark.parametrize("rule, value, error, message", [
    (Integer(1), 1.0, TypeError, "x must be an integer >= 1; got x=1.0."),
    (Integer(1), True, TypeError, "x must be an integer >= 1; got x=True."),
    (Integer(1), 0, ValueError, "x must be an integer >= 1; got x=0."),
    (Boolean(), 1, TypeError, "x must be True or False; got x=1."),
    (Options("a", "b"), "A", ValueError, "x must be one of 'a', 'b'; got x='A'."),
    (Options("a", "b"), None, ValueError, "x must be one of 'a', 'b'; got x=None."),
    (PROBABILITY, 1, ValueError, "x must be a number strictly between 0 and 1, such as 0.95 for 95%; got x=1."),
    (PROBABILITY, math.nan, ValueError,
     "x must be a number strictly between 0 and 1, such as 0.95 for 95%; got x=nan."),
    (PROBABILITY, "0.9", TypeError,
     "x must be a number strictly between 0 and 1, such as 0.95 for 95%; got x='0.9'."),
    (SECONDS, -1, ValueError, "x must be a number of seconds >= 0; got x=-1."),
    (Real(0, 1, closed="left", what="a fraction"), 1, ValueError, "x must be a fraction between 0 and 1; got x=1."),
    (Real(-math.inf, 0, closed="left"), 0, ValueError, "x must be a number < 0; got x=0."),
    (Nullable(Integer(0)), -1, ValueError, "x must be an integer >= 0, or None; got x=-1."),
    (Integer(2) | Options("loo"), "lo", ValueError, "x must be an integer >= 2 or one of 'loo'; got x='lo'."),
    (Integer(2) | Options("loo"), [2], TypeError, "x must be an integer >= 2 or one of 'loo'; got x=[2]."),
    (Text("t"), "", ValueError, "x must be a non-empty string (such as 't'); got x=''."),
    (Text("t"), b"t", TypeError, "x must be a non-empty string (such as 't'); got x=b't'."),
    (DistinctPair(Text("t")), ("a", "a"), ValueError,
     "x must be a pair of different values, each a non-empty string (such as 't'); got x=('a', 'a')."),
    (DistinctPair(Text("t")), ("a", " "), ValueError,
     "x must be a pair of different values, each a non-empty string (such as 't'); got x=('a', ' ')."),
    (DistinctPair(Text("t")), ("a", 1), TypeError,
     "x must be a pair of different values, each a non-empty string (such as 't'); got x=('a', 1)."),
    (DistinctPair(Text("t")), "ab", TypeError,
     "x must be a pair of different values, each a non-empty string (such as 't'); got x='ab'."),
    (DistinctPair(Text("t")), ("a", "b", "c"), TypeError,
     "x must be a pair of different values, each a non-empty string (such as 't'); got x=('a', 'b', 'c')."),
])
def test_refused_values_get_a_message_naming_parameter_value_and_what_is_accepted(rule, value, error, message):
    with pytest.raises(error) as raised:
        rule.check("x", value)
    assert str(raised.value) == message


@validate_params(level=PROBABILITY, repeat=Nullable(Integer(0)), method=Options("z", "t"))
def _documented(result, level=0.95, *, repeat=None, method="z"):
    """A function with checked parameters.

    Examples
    --------
    >>> _documented("r", 0.9, method="t")
    ('r', 0.9, None, 't')
    """
    return result, level, repeat, method


def test_the_decorator_checks_every_call_and_passes_canonical_values():
    assert _documented("r", np.float64(0.5), repeat=np.int64(2)) == ("r", 0.5, 2, "z")
    assert type(_documented("r", repeat=np.int64(2))[2]) is int
    with pytest.raises(ValueError, match="repeat must be an integer >= 0, or None; got repeat=-1"):
        _documented("r", repeat=-1)
    with pytest.raises(ValueError, match="got method='w'"):
        _documented("r", method="w")


def test_the_decorated_function_keeps_its_signature_name_and_docstring():
    assert str(inspect.signature(_documented)) == "(result, level=0.95, *, repeat=None, method='z')"
    assert _documented.__name__ == "_documented" and "Examples" in _documented.__doc__


def test_a_rule_for_a_parameter_the_function_does_not_have_is_a_programming_error():
    with pytest.raises(TypeError, match=r"has no parameter \['levle'\]"):
        validate_params(levle=PROBABILITY)(lambda level=0.95: level)


def test_a_wrong_call_names_the_function_as_python_does():
    with pytest.raises(TypeError, match=r"^_documented\(\) got an unexpected keyword argument 'levle'$"):
        _documented("r", levle=0.9)
    with pytest.raises(TypeError, match=r"^_documented\(\) missing a required argument: 'result'$"):
        _documented()
