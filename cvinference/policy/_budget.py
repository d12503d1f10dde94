"""What a front-door call may spend, in fits, and its plan said before it starts."""

import math
import numbers
import re

from .._utils._params import Rule

ONE_CV_FOLDS = 10
"""The folds of the unit a budget multiple counts in: one 10-fold cross-validation of every learner."""

_MULTIPLE = re.compile(r"^\s*(?P<times>\d+(\.\d*)?|\.\d+)\s*x\s*$")


class Budget(Rule):
    """A ``budget``: None (no limit), a number of fits (an int >= 1) or a multiple of one 10-fold
    cross-validation of the learners, as a string such as ``"8x"``.

    Examples
    --------
    >>> Budget().check("budget", "7.5x")
    '7.5x'
    >>> Budget().check("budget", 0)
    Traceback (most recent call last):
    ...
    ValueError: budget must be None, a number of fits (an integer >= 1) or a multiple of one 10-fold \
cross-validation such as '8x'; got budget=0.
    """

    def describe(self):
        return "None, a number of fits (an integer >= 1) or a multiple of one 10-fold cross-validation such as '8x'"

    def check(self, name, value):
        if value is None:
            return None
        if isinstance(value, str):
            match = _MULTIPLE.match(value)
            if match is None or float(match["times"]) <= 0:
                raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
            return value
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        if value < 1:
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        return int(value)

    def invalid_values(self):
        return [(0, ValueError), ("8", ValueError), ("0x", ValueError), (2.5, TypeError), (True, TypeError)]


def budget_fits(budget, n_learners):
    """``budget`` in fits: None stays None; ``"8x"`` is 8 times the 10 fits of one 10-fold CV per learner.

    Examples
    --------
    >>> budget_fits("7.5x", 2), budget_fits(120, 2), budget_fits(None, 1)
    (150, 120, None)
    """
    if isinstance(budget, str):
        return math.floor(float(_MULTIPLE.match(budget)["times"]) * ONE_CV_FOLDS * n_learners + 1e-9)
    return budget


class BudgetTooSmall(ValueError):
    """A ``budget`` below what the cross-validation alone (or with what the call asks for) needs: ``allowed`` and
    ``needed`` fits, of ``what``; ``fix`` is the other way out than a larger budget, and ``option_fix`` the same
    in the command line's options."""

    def __init__(self, budget, allowed, needed, what, fix="lower cv or n_repeats",
                 option_fix="lower --cv or --repeats"):
        super().__init__(f"budget={budget!r} allows {allowed:,} fits, and {what} alone needs {needed:,}; raise "
                         f"budget to at least {needed}, or {fix}")
        self.allowed, self.needed, self.what, self.option_fix = allowed, needed, what, option_fix


def check_budget(budget, allowed, needed, what, fix="lower cv or n_repeats", option_fix="lower --cv or --repeats"):
    """Refuse, before any fit, a budget of ``allowed`` fits below the ``needed`` ones of ``what`` (``fix`` and
    ``option_fix``: the other way out, in parameters and in the command line's options)."""
    if allowed is not None and allowed < needed:
        raise BudgetTooSmall(budget, allowed, needed, what, fix, option_fix)


def cv_fits(n_learners, n_splits, n_repeats):
    """The fits of ``n_learners`` learners on ``n_repeats`` partitions of ``n_splits`` folds."""
    return n_learners * n_repeats * n_splits


def in_units(fits, n_learners):
    """``fits`` as a multiple of one 10-fold cross-validation of ``n_learners`` learners, in words.

    Examples
    --------
    >>> in_units(190, 2)
    '9.5 times one 10-fold cross-validation'
    """
    return f"{fits / (ONE_CV_FOLDS * n_learners):.3g} times one {ONE_CV_FOLDS}-fold cross-validation"


def budget_words(fits):
    """How a plan names its budget."""
    return "no budget set" if fits is None else f"budget {fits:,} fits"
