"""What each public parameter accepts, declared once, and the check that enforces it.

A public function lists its parameters' rules in :func:`validate_params`;
each rule checks a value when the function is called and raises
``TypeError`` (wrong kind) or ``ValueError`` (right kind, wrong value) with a
message naming the parameter, the value and what to pass instead, in
scikit-learn's wording::

    @validate_params(confidence_level=PROBABILITY, method=Options("normal", "t"))
    def interval(result, confidence_level=0.95, *, method="normal"): ...

A rule returns the value in its canonical form (a Python ``int`` for a numpy
integer, a ``float`` for a level), and the function receives that form.
"""

import abc
import functools
import inspect
import math
import numbers
import types

import numpy as np


class Rule(abc.ABC):
    """What a parameter accepts; :meth:`check` returns the value, canonical, or raises."""

    @abc.abstractmethod
    def describe(self):
        """What the rule accepts, in words, to follow "name must be"."""

    @abc.abstractmethod
    def check(self, name, value):
        """``value`` in canonical form; TypeError or ValueError naming ``name`` when it is refused."""

    def __or__(self, other):
        return AnyOf(self, other)

    def invalid_values(self):
        """Values the rule must refuse, each with the exception it raises: ``[(value, TypeError), ...]``.

        The bad-input tests (``tests/test_parameter_validation.py``) pass each
        one to every public parameter declared with the rule, and fail for a
        declared rule that lists none. A rule used only as a codec kind
        (``_kinds.py``) checks stored fields, not parameters, and lists none.
        """
        return []


def _is_bool(value):
    return isinstance(value, (bool, np.bool_))


def _refuses(rule, value):
    try:
        rule.check("value", value)
    except (TypeError, ValueError):
        return True
    return False


class Integer(Rule):
    """An integer (not a bool) of at least ``minimum``.

    Examples
    --------
    >>> Integer(minimum=1).check("n_repeats", np.int64(3))
    3
    >>> Integer(minimum=1).check("n_repeats", 0)
    Traceback (most recent call last):
    ...
    ValueError: n_repeats must be an integer >= 1; got n_repeats=0.
    """

    def __init__(self, minimum):
        self.minimum = minimum

    def describe(self):
        return f"an integer >= {self.minimum}"

    def check(self, name, value):
        if _is_bool(value) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if value < self.minimum:
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value}.")
        return int(value)

    def invalid_values(self):
        return [(self.minimum - 1, ValueError), (self.minimum + 0.5, TypeError), (float(self.minimum + 1), TypeError),
                (True, TypeError), (str(self.minimum + 1), TypeError), (None, TypeError)]


class IntegerOrWord(Rule):
    """An integer (not a bool) of at least ``minimum``, or one of a few ``words`` ("auto").

    Examples
    --------
    >>> rule = IntegerOrWord(1, "auto")
    >>> rule.check("n_repeats", "auto"), rule.check("n_repeats", np.int64(3))
    ('auto', 3)
    >>> rule.check("n_repeats", "often")
    Traceback (most recent call last):
    ...
    ValueError: n_repeats must be an integer >= 1 or 'auto'; got n_repeats='often'.
    """

    def __init__(self, minimum, *words):
        self.integer, self.words = Integer(minimum), words

    def describe(self):
        return f"{self.integer.describe()} or {' or '.join(repr(word) for word in self.words)}"

    def check(self, name, value):
        if isinstance(value, str):
            if value not in self.words:
                raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
            return value
        try:
            return self.integer.check(name, value)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{name} must be {self.describe()}; got {name}={value!r}.") from None

    def invalid_values(self):
        strings = [(self.words[0].upper(), ValueError), (str(self.integer.minimum + 1), ValueError)]
        return [value for value in self.integer.invalid_values() if not isinstance(value[0], str)] + strings


class Boolean(Rule):
    """True or False (numpy's bool included), nothing else.

    Examples
    --------
    >>> Boolean().check("stratify", "yes")
    Traceback (most recent call last):
    ...
    TypeError: stratify must be True or False; got stratify='yes'.
    """

    def describe(self):
        return "True or False"

    def check(self, name, value):
        if not _is_bool(value):
            raise TypeError(f"{name} must be True or False; got {name}={value!r}.")
        return bool(value)

    def invalid_values(self):
        return [("yes", TypeError), (1, TypeError), (None, TypeError)]


class Options(Rule):
    """One of a few strings, matched exactly (no prefixes, no case folding).

    Examples
    --------
    >>> Options("two-sided", "less", "greater").check("alternative", "both")
    Traceback (most recent call last):
    ...
    ValueError: alternative must be one of 'two-sided', 'less', 'greater'; got alternative='both'.

    ``moved`` maps a value that was renamed before the first release to its new name, which the error gives:

    >>> Options("matched-t", "cluster-paired-t", moved={"t": "matched-t"}).check("method", "t")
    Traceback (most recent call last):
    ...
    ValueError: method='t' is now method='matched-t'; method must be one of 'matched-t', 'cluster-paired-t'.
    """

    def __init__(self, *choices, moved=None):
        self.choices = choices
        self.moved = dict(moved or {})

    def describe(self):
        return "one of " + ", ".join(repr(choice) for choice in self.choices)

    def check(self, name, value):
        if isinstance(value, str) and value in self.moved:
            raise ValueError(f"{name}={value!r} is now {name}={self.moved[value]!r}; {name} must be "
                             f"{self.describe()}.")
        if not isinstance(value, str) or value not in self.choices:
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return value

    def invalid_values(self):
        near_misses = [self.choices[0].upper(), self.choices[0] + " ", self.choices[0][:-1], *self.moved]
        return [(value, ValueError) for value in near_misses if value not in self.choices] + [
            (1, ValueError), (None, ValueError)]


class Text(Rule):
    """A string that is not empty (nor only spaces), such as ``example``.

    Examples
    --------
    >>> Text("tuned tree").check("name", " ")
    Traceback (most recent call last):
    ...
    ValueError: name must be a non-empty string (such as 'tuned tree'); got name=' '.
    """

    def __init__(self, example):
        self.example = example

    def describe(self):
        return f"a non-empty string (such as {self.example!r})"

    def check(self, name, value):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if not value.strip():
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return value

    def invalid_values(self):
        return [("", ValueError), (" ", ValueError), (1, TypeError), (None, TypeError)]


class DistinctPair(Rule):
    """Two different values, each accepted by ``rule``, as a tuple (a list or tuple of two).

    Examples
    --------
    >>> DistinctPair(Text("logistic")).check("names", ["a", "a"])
    Traceback (most recent call last):
    ...
    ValueError: names must be a pair of different values, each a non-empty string (such as 'logistic'); got
    names=['a', 'a'].
    """

    def __init__(self, rule):
        self.rule = rule

    def describe(self):
        return f"a pair of different values, each {self.rule.describe()}"

    def check(self, name, value):
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        try:
            pair = tuple(self.rule.check(name, item) for item in value)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{name} must be {self.describe()}; got {name}={value!r}.") from None
        if pair[0] == pair[1]:
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return pair

    def invalid_values(self):
        values = [("ab", TypeError), (("a", "b", "c"), TypeError), (1, TypeError)]
        values += [([bad, bad], kind) for bad, kind in self.rule.invalid_values()[:2]]
        if isinstance(self.rule, Text):
            values.append(([self.rule.example, self.rule.example], ValueError))
        return values


class Real(Rule):
    """A real number (not a bool) in a range, with words for what it is; nan is in no range.

    Parameters
    ----------
    low, high : float
        The range's ends (``-math.inf`` or ``math.inf`` for none).
    closed : {"both", "left", "right", "neither"}
        Which ends belong to the range.
    what : str
        What the number is, for the message (``"a number of seconds"``).
    example : str
        A value to suggest, or "" for none.

    Examples
    --------
    >>> PROBABILITY.check("confidence_level", 95)
    Traceback (most recent call last):
    ...
    ValueError: confidence_level must be a number strictly between 0 and 1, such as 0.95 for 95%; got
    confidence_level=95.
    """

    def __init__(self, low, high, *, closed="both", what="a number", example=""):
        self.low, self.high, self.closed = low, high, closed
        self.what, self.example = what, example

    def _range(self):
        if self.low == -math.inf and self.high == math.inf:
            return ""
        if self.high == math.inf:
            return f">= {self.low:g}" if self.closed in ("both", "left") else f"> {self.low:g}"
        if self.low == -math.inf:
            return f"<= {self.high:g}" if self.closed in ("both", "right") else f"< {self.high:g}"
        if self.closed == "neither":
            return f"strictly between {self.low:g} and {self.high:g}"
        return f"between {self.low:g} and {self.high:g}"

    def describe(self):
        example = f", such as {self.example}" if self.example else ""
        return f"{self.what} {self._range()}".rstrip() + example

    def _contains(self, value):
        above = value >= self.low if self.closed in ("both", "left") else value > self.low
        below = value <= self.high if self.closed in ("both", "right") else value < self.high
        return above and below

    def check(self, name, value):
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value[()]
        if _is_bool(value) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if math.isnan(value) or not self._contains(value):
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return float(value)

    def invalid_values(self):
        values = [(math.nan, ValueError), (True, TypeError), ("0.5", TypeError), (None, TypeError)]
        for end, outside in ((self.low, self.low - 1), (self.high, self.high + 1)):
            if math.isfinite(end):
                values.append((outside, ValueError))
                if not self._contains(end):
                    values.append((end, ValueError))
            elif not self._contains(end):
                values.append((end, ValueError))
        return values


class Nullable(Rule):
    """None, or what ``rule`` accepts."""

    def __init__(self, rule):
        self.rule = rule

    def describe(self):
        return f"{self.rule.describe()}, or None"

    def check(self, name, value):
        if value is None:
            return None
        try:
            return self.rule.check(name, value)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{name} must be {self.describe()}; got {name}={value!r}.") from None

    def invalid_values(self):
        return [(value, kind) for value, kind in self.rule.invalid_values() if value is not None]


class AnyOf(Rule):
    """What any of ``rules`` accepts, tried in order; the message lists them all."""

    def __init__(self, *rules):
        self.rules = rules

    def describe(self):
        return " or ".join(rule.describe() for rule in self.rules)

    def check(self, name, value):
        kinds = set()
        for rule in self.rules:
            try:
                return rule.check(name, value)
            except (TypeError, ValueError) as exc:
                kinds.add(type(exc))
        wrong_kind = kinds == {TypeError} or not isinstance(value, (numbers.Real, str))
        raise (TypeError if wrong_kind else ValueError)(f"{name} must be {self.describe()}; got {name}={value!r}.")

    def invalid_values(self):
        """The values some rule lists as invalid and every rule refuses; a ValueError where one rule says so."""
        found = {}
        for rule in self.rules:
            for value, kind in rule.invalid_values():
                key = (type(value), repr(value))
                if all(_refuses(other, value) for other in self.rules) and (kind is ValueError or key not in found):
                    found[key] = (value, kind)
        return list(found.values())


class Explained(Rule):
    """What ``rule`` accepts; its refusal goes on to say ``why`` (the reason for a bound, say).

    Examples
    --------
    >>> Explained(Integer(minimum=2), "One pair gives no variance.").check("n_pairs", 1)
    Traceback (most recent call last):
    ...
    ValueError: n_pairs must be an integer >= 2; got n_pairs=1. One pair gives no variance.
    """

    def __init__(self, rule, why):
        self.rule, self.why = rule, why

    def describe(self):
        return self.rule.describe()

    def check(self, name, value):
        try:
            return self.rule.check(name, value)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{exc} {self.why}") from None

    def invalid_values(self):
        return self.rule.invalid_values()


class Seed(Rule):
    """A ``random_state``, as scikit-learn's ``check_random_state`` takes it: None, a seed, or a RandomState.

    Examples
    --------
    >>> Seed().check("random_state", -1)
    Traceback (most recent call last):
    ...
    ValueError: random_state must be None, an integer from 0 to 2**32 - 1, or a numpy.random.RandomState instance;
    got random_state=-1.
    """

    def describe(self):
        return "None, an integer from 0 to 2**32 - 1, or a numpy.random.RandomState instance"

    def check(self, name, value):
        if value is None or isinstance(value, np.random.RandomState):
            return value
        if _is_bool(value) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if not 0 <= value <= 2**32 - 1:
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return int(value)

    def invalid_values(self):
        return [("x", TypeError), (-1, ValueError), (2**40, ValueError), (1.5, TypeError), (True, TypeError)]


class Jobs(Rule):
    """An ``n_jobs``, as joblib takes it: None, or a nonzero integer (-1 for every processor).

    Examples
    --------
    >>> Jobs().check("n_jobs", 0)
    Traceback (most recent call last):
    ...
    ValueError: n_jobs must be None or a nonzero integer (such as 2, or -1 for every processor); got n_jobs=0.
    """

    def describe(self):
        return "None or a nonzero integer (such as 2, or -1 for every processor)"

    def check(self, name, value):
        if value is None:
            return None
        if _is_bool(value) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if value == 0:
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return int(value)

    def invalid_values(self):
        return [(0, ValueError), ("2", TypeError), (1.5, TypeError), (True, TypeError)]


class ClassLabel(Rule):
    """A class label as scikit-learn's ``pos_label`` takes it: a string or a number (not NaN), as a Python scalar.

    Whether it is one of the data's classes is checked where the classes are known.

    Examples
    --------
    >>> ClassLabel().check("pos_label", np.int64(1))
    1
    >>> ClassLabel().check("pos_label", ["yes"])
    Traceback (most recent call last):
    ...
    TypeError: pos_label must be a class label (a string or a number, such as 1 or 'yes'); got pos_label=['yes'].
    """

    def describe(self):
        return "a class label (a string or a number, such as 1 or 'yes')"

    def check(self, name, value):
        if isinstance(value, np.generic):
            value = value.item()
        if not isinstance(value, (str, numbers.Real)):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if isinstance(value, float) and math.isnan(value):
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return value

    def invalid_values(self):
        return [(["yes"], TypeError), ((1,), TypeError), (math.nan, ValueError)]


PROBABILITY = Real(0, 1, closed="neither", what="a number", example="0.95 for 95%")
"""A confidence level: strictly between 0 and 1."""

SIGNIFICANCE_LEVEL = Real(0, 1, closed="neither", what="a significance level", example="0.05")
"""A test's alpha: strictly between 0 and 1."""

SECONDS = Real(0, math.inf, closed="both", what="a number of seconds")
"""A duration: at least 0, infinity allowed."""

VERBOSE = Integer(minimum=0) | Boolean()
"""A ``verbose`` level, as joblib takes it: an integer >= 0, or a bool."""

NAME = Nullable(Text("tuned tree"))
"""A learner's name in reports: None (its description) or a non-empty string."""

NAMES = Nullable(DistinctPair(Text("logistic")))
"""Two learners' names: None (their descriptions) or two different non-empty strings."""


def validate_params(**rules):
    """Check the named parameters of every call of the decorated function against their rules.

    The function receives each value in the rule's canonical form. Its
    signature, name and docstring are kept (``functools.wraps``), so
    ``inspect.signature`` and ``help`` show the function's own, and the rules
    are kept as its ``__cvinference_params__`` (a read-only mapping of
    parameter names to rules), which the bad-input tests read to call it
    with every rule's invalid values, as scikit-learn's common tests read an
    estimator's ``_parameter_constraints``.
    """

    def decorate(function):
        signature = inspect.signature(function)
        unknown = set(rules) - set(signature.parameters)
        if unknown:
            raise TypeError(f"{function.__name__} has no parameter {sorted(unknown)} to validate")

        @functools.wraps(function)
        def checked(*args, **kwargs):
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise TypeError(f"{function.__qualname__}() {exc}") from None
            bound.apply_defaults()
            for name, rule in rules.items():
                bound.arguments[name] = rule.check(name, bound.arguments[name])
            return function(*bound.args, **bound.kwargs)

        checked.__cvinference_params__ = types.MappingProxyType(dict(rules))
        return checked

    return decorate
