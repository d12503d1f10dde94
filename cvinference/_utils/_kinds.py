"""What each field of a result holds, declared once per class, and the checks ``from_dict`` makes.

A result class names its fields' kinds in ``_kinds`` (a field it leaves out
gets the kind of its type annotation: ``float`` a number, ``int`` a count,
``str`` a string, ...) and its cross-field rules in ``_rules``.
``from_dict`` checks every field it reads against its kind and then every
rule, and refuses a dict that ``to_dict`` could not have written, with the
class, the field, the value and what it expects::

    @dataclasses.dataclass(frozen=True)
    class Interval(Serializable):
        low: float
        high: float
        confidence_level: float
        _kinds = {"confidence_level": LEVEL}
        _rules = (Ordered("low", "high"),)

A kind is a :class:`~cvinference._utils._params.Rule`: the same checks, with
the same wording, as the public functions' parameters.
"""

import math
import numbers
import types

import numpy as np

from ._params import PROBABILITY, Boolean, Integer, Nullable, Options, Rule, Text


def _is_real(value):
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _bounds_text(low, high):
    if low == -math.inf and high == math.inf:
        return ""
    if high == math.inf:
        return f" >= {low:g}"
    if low == -math.inf:
        return f" <= {high:g}"
    return f" between {low:g} and {high:g}"


class Number(Rule):
    """A real number (not a bool) from ``low`` to ``high``; nan, an undefined figure, passes when ``nan``.

    Examples
    --------
    >>> P_VALUE.check("TestResult.pvalue", 2.0)
    Traceback (most recent call last):
    ...
    ValueError: TestResult.pvalue must be a number between 0 and 1, or nan; got TestResult.pvalue=2.0.
    """

    def __init__(self, low=-math.inf, high=math.inf, *, nan=True):
        self.low, self.high, self.nan = low, high, nan

    def describe(self):
        return f"a number{_bounds_text(self.low, self.high)}" + (", or nan" if self.nan else "")

    def check(self, name, value):
        if not _is_real(value):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if math.isnan(value) and self.nan:
            return value
        if math.isnan(value) or not self.low <= value <= self.high:
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return value


class String(Rule):
    """A string, empty or not."""

    def describe(self):
        return "a string"

    def check(self, name, value):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a string; got {name}={value!r}.")
        return value


class Anything(Rule):
    """Any value ``to_dict`` can write (a label, a parameter's value)."""

    def describe(self):
        return "any value"

    def check(self, name, value):
        return value


class Instance(Rule):
    """An instance of ``cls``, or of one of a tuple of classes (a nested result, rebuilt and checked by its own
    ``from_dict``)."""

    def __init__(self, cls):
        self.cls = cls

    def describe(self):
        classes = self.cls if isinstance(self.cls, tuple) else (self.cls,)
        return " or ".join(f"a {cls.__name__}" for cls in classes)

    def check(self, name, value):
        if not isinstance(value, self.cls):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return value


class Sequence(Rule):
    """A tuple of items of one kind, of ``length`` items or at least ``min_length``.

    Examples
    --------
    >>> Sequence(STRING, min_length=2).check("DatasetComparison.learners", ())
    Traceback (most recent call last):
    ...
    ValueError: DatasetComparison.learners must be a tuple of at least 2 items, each a string; got
    DatasetComparison.learners=().
    """

    def __init__(self, item, *, length=None, min_length=0):
        self.item, self.length, self.min_length = item, length, min_length

    def describe(self):
        size = (f"{self.length} items" if self.length is not None
                else f"at least {self.min_length} items" if self.min_length else "items")
        return f"a tuple of {size}, each {self.item.describe()}"

    def check(self, name, value):
        if not isinstance(value, tuple):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if len(value) < self.min_length or self.length not in (None, len(value)):
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        for i, item in enumerate(value):
            self.item.check(f"{name}[{i}]", item)
        return value


class Array(Rule):
    """A numpy array of one of the dtype ``kinds`` ("f", "iu", "b", ...), of ``ndim`` dimensions, items in range.

    ``shape`` fixes the size of each axis (None: any size; it implies
    ``ndim``), ``min_rows`` the least size of the first axis (a record of
    at least one instance, one repeat). ``low`` and ``high`` bound the items
    (nan passes when ``nan``).

    Examples
    --------
    >>> import numpy as np
    >>> Array("f", ndim=1, low=0, high=1).check("CandidateComparison.pvalue", np.array([0.5, 2.0]))
    Traceback (most recent call last):
    ...
    ValueError: CandidateComparison.pvalue must be a 1-d array of floats, each a number between 0 and 1, or nan;
    got 2.0 at index (1,).
    >>> Array("iu", ndim=2, min_rows=1).check("CVResult.fold", np.zeros((0, 4), dtype=int))
    Traceback (most recent call last):
    ...
    ValueError: CVResult.fold must be a 2-d array of integers with at least 1 row; got an array of shape (0, 4).
    >>> Array("iu", shape=(2, 2)).check("WinnerTableResult.table", np.zeros((0, 2), dtype=int))
    Traceback (most recent call last):
    ...
    ValueError: WinnerTableResult.table must be an array of shape (2, 2) of integers; got an array of shape (0, 2).
    """

    _NAMES = types.MappingProxyType({"f": "floats", "iu": "integers", "b": "bools", "biufUO": "values",
                                     "U": "strings"})

    def __init__(self, kinds="biufUO", *, ndim=None, shape=None, min_rows=0, low=-math.inf, high=math.inf, nan=True):
        self.kinds, self.shape, self.min_rows = kinds, shape, min_rows
        self.ndim = ndim if shape is None else len(shape)
        bounded = (low, high) != (-math.inf, math.inf) or not nan
        self.items = Number(low, high, nan=nan and "f" in kinds) if bounded else None  # only floats hold nan

    def _shape_text(self):
        if self.shape is not None:
            return f"an array of shape ({', '.join('any' if size is None else str(size) for size in self.shape)})"
        return "an array" if self.ndim is None else f"a {self.ndim}-d array"

    def describe(self):
        items = f" of {self._NAMES.get(self.kinds, 'dtype kind ' + self.kinds)}"
        rows = "item" if self.ndim == 1 else "row"
        size = f" with at least {self.min_rows} {rows}{'s' * (self.min_rows > 1)}" if self.min_rows else ""
        return self._shape_text() + items + size + (f", each {self.items.describe()}" if self.items else "")

    def _fits(self, shape):
        if self.ndim not in (None, len(shape)) or (shape[:1] or (0,))[0] < self.min_rows:
            return False
        return self.shape is None or all(size in (None, found) for size, found in zip(self.shape, shape, strict=True))

    def check(self, name, value):
        if not isinstance(value, np.ndarray) or value.dtype.kind not in self.kinds:
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if not self._fits(value.shape):
            raise ValueError(f"{name} must be {self.describe()}; got an array of shape {value.shape}.")
        if self.items is not None and value.size:
            as_float = value.astype(np.float64)
            nan = np.isnan(as_float)
            bad = ~nan & ((as_float < self.items.low) | (as_float > self.items.high))
            if not self.items.nan:
                bad |= nan
            if bad.any():
                where = tuple(int(i) for i in np.argwhere(bad)[0])
                raise ValueError(f"{name} must be {self.describe()}; got {value[where].item()!r} at index {where}.")
        return value


class Mapping(Rule):
    """A read-only mapping (``types.MappingProxyType``) of str keys to values of one kind."""

    def __init__(self, value=None):
        self.value = Anything() if value is None else value

    def describe(self):
        values = "" if isinstance(self.value, Anything) else f" to {self.value.describe()}"
        return f"a read-only mapping of strings{values}"

    def check(self, name, value):
        if not isinstance(value, types.MappingProxyType) or not all(isinstance(key, str) for key in value):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        for key, item in value.items():
            self.value.check(f"{name}[{key!r}]", item)
        return value


class Fields(Rule):
    """A read-only mapping of exactly the keys of ``kinds``, each value of its kind (a result's ``details``).

    Examples
    --------
    >>> import types
    >>> Fields(n=COUNT).check("McNemarTestResult.details", types.MappingProxyType({"n": -1}))
    Traceback (most recent call last):
    ...
    ValueError: McNemarTestResult.details['n'] must be an integer >= 0; got McNemarTestResult.details['n']=-1.
    """

    def __init__(self, **kinds):
        self.kinds = kinds
        self.extra = {}

    def or_with(self, **kinds):
        """These keys, or these and all of ``kinds`` (the details some results of a class add, such as a grouped
        record's).

        Examples
        --------
        >>> import types
        >>> grouped = Fields(n=COUNT).or_with(n_groups=POSITIVE)
        >>> grouped.check("details", types.MappingProxyType({"n": 3, "n_groups": 2}))["n_groups"]
        2
        >>> grouped.describe()
        'a read-only mapping of the keys n, or of the keys n, n_groups'
        """
        wider = Fields(**self.kinds)
        wider.extra = kinds
        return wider

    def describe(self):
        keys = f"a read-only mapping of the keys {', '.join(self.kinds)}"
        keys = keys if self.kinds else "an empty read-only mapping"
        return f"{keys}, or of the keys {', '.join([*self.kinds, *self.extra])}" if self.extra else keys

    def check(self, name, value):
        Mapping().check(name, value)
        kinds = self.kinds | self.extra if any(key in value for key in self.extra) else self.kinds
        missing = [key for key in kinds if key not in value]
        unknown = [key for key in value if key not in kinds]
        if missing or unknown:
            which = f"has no key {missing[0]!r}" if missing else f"has the unknown key {unknown[0]!r}"
            raise ValueError(f"{name} must be {self.describe()}; it {which}.")
        for key, kind in kinds.items():
            kind.check(f"{name}[{key!r}]", value[key])
        return value


class LeadingFields(Fields):
    """A read-only mapping that holds the keys of ``kinds``, each value of its kind, and any others (an interval's
    ``details``: the figures every interval has, then its method's own).

    Examples
    --------
    >>> import types
    >>> LeadingFields(n=COUNT).check("Interval.details", types.MappingProxyType({"n": 3, "variance": 0.1}))["n"]
    3
    >>> LeadingFields(n=COUNT).check("Interval.details", types.MappingProxyType({"variance": 0.1}))
    Traceback (most recent call last):
    ...
    ValueError: Interval.details must be a read-only mapping of the keys n, then any others; it has no key 'n'.
    """

    def describe(self):
        return f"a read-only mapping of the keys {', '.join(self.kinds)}, then any others"

    def check(self, name, value):
        Mapping().check(name, value)
        missing = [key for key in self.kinds if key not in value]
        if missing:
            raise ValueError(f"{name} must be {self.describe()}; it has no key {missing[0]!r}.")
        for key, kind in self.kinds.items():
            kind.check(f"{name}[{key!r}]", value[key])
        return value


class Ordered:
    """The cross-field rule ``low <= high`` (item by item for arrays) where both are finite."""

    def __init__(self, low, high):
        self.low, self.high = low, high

    def __call__(self, owner, values):
        low, high = values[self.low], values[self.high]
        if low is None or high is None:
            return
        low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
        bad = np.isfinite(low) & np.isfinite(high) & (low > high)
        if bad.any():
            index = tuple(int(i) for i in np.argwhere(bad)[0]) if bad.ndim else ()
            where = f" at index {index}" if bad.ndim else ""
            raise ValueError(
                f"{owner}.{self.low} must not exceed {owner}.{self.high}; got {self.low}={float(low[index])!r} > "
                f"{self.high}={float(high[index])!r}{where}. Pass the output of to_dict() unchanged."
            )


class SameLength:
    """The cross-field rule that arrays and tuples hold one item per entry of ``reference`` along ``axis``.

    When ``reference`` is a count (``n_draws``), they hold that many items
    along ``axis``.

    Examples
    --------
    >>> import numpy as np
    >>> SameLength("n_draws", "true_loss")("PrecisionStudyResult", {"n_draws": 3, "true_loss": np.zeros(0)})
    Traceback (most recent call last):
    ...
    ValueError: PrecisionStudyResult.true_loss must hold PrecisionStudyResult.n_draws=3 items along axis 0; got 0.
    Pass the output of to_dict() unchanged.
    """

    def __init__(self, reference, *names, axis=0):
        self.reference, self.names, self.axis = reference, names, axis

    def __call__(self, owner, values):
        reference = values[self.reference]
        counted = isinstance(reference, numbers.Integral)
        expected = int(reference) if counted else len(reference)
        for name in self.names:
            value = values[name]
            found = None if value is None else len(value) if isinstance(value, tuple) else value.shape[self.axis]
            if found not in (None, expected):
                what = (f"{owner}.{self.reference}={expected} items along axis {self.axis}" if counted else
                        f"one item per entry of {owner}.{self.reference} ({expected})"
                        + (f" along axis {self.axis}" if self.axis else ""))
                raise ValueError(f"{owner}.{name} must hold {what}; got {found}. Pass the output of to_dict() "
                                 "unchanged.")


NUMBER = Number()
"""Any real number; nan and infinities too (an undefined statistic, an infinite t)."""

NON_NEGATIVE = Number(0, math.inf)
"""A standard error, a variance, a margin: at least 0 (or nan)."""

P_VALUE = Number(0, 1)
"""A p-value, a probability, a proportion: from 0 to 1 (or nan)."""

LEVEL = PROBABILITY
"""A confidence level or a significance level: strictly between 0 and 1."""

COUNT = Integer(minimum=0)
"""A count, a size, an index: an integer >= 0."""

POSITIVE = Integer(minimum=1)
"""A size that cannot be 0: an integer >= 1."""

STRING = String()
TEXT = Text("GaussianNB()")
BOOLEAN = Boolean()
ANY = Anything()
TEXTS = Sequence(STRING)
"""Notes, warnings, caveats: a tuple of strings."""

INDICES = Sequence(COUNT)
"""Folds or repeats: a tuple of integers >= 0."""

ALTERNATIVE = Options("two-sided", "less", "greater")


def proportions(ndim):
    """An array of floats from 0 to 1 (or nan) of ``ndim`` dimensions: error rates, accuracies, p-values."""
    return Array("f", ndim=ndim, low=0, high=1)


def non_negatives(ndim):
    """An array of floats >= 0 (or nan) of ``ndim`` dimensions: losses, standard deviations."""
    return Array("f", ndim=ndim, low=0)

__all__ = ["ALTERNATIVE", "ANY", "BOOLEAN", "COUNT", "INDICES", "LEVEL", "NON_NEGATIVE", "NUMBER", "POSITIVE",
           "P_VALUE", "STRING", "TEXT", "TEXTS", "Anything", "Array", "Fields", "Instance", "Mapping", "Nullable",
           "Number", "Options", "Ordered", "SameLength", "Sequence", "String", "non_negatives", "proportions"]
