"""The design a comparison of two learners runs, planned before its fits: its folds, checked and resolved before
any fit, then (:func:`~cvinference.policy._routes.comparison_design`) its repeats, the fits of each stage and the
calibrated route it runs when the decision from the folds cannot tell.

One planner: :func:`cvinference.plan` and :func:`cvinference.compare` both ask :func:`planned_design`, which reads
the learners' classes, the size, the folds, the metric, the budget and the calibration evidence, never the data
(a splitter counts its folds on them), so that planning spends no test's level. The planner's modules call one
way: this one the routes (:mod:`~cvinference.policy._routes`), the routes the evidence.
"""

import numbers
from typing import NamedTuple

import numpy as np

from ..evaluation._partitions import CrossValidation, check_cv_argument
from ..splitters._group_kfold import group_kfold
from ._routes import (  # noqa: F401 - the front door's names of the planner
    NESTED_GROUPS,
    REGRESSION_LOSSES,
    comparison_design,
    default_loss,
)

DEFAULT_REPEATS = "auto"
"""The default ``n_repeats`` of :func:`~cvinference.plan`, :func:`~cvinference.compare`, :func:`~cvinference.evaluate`
and the command line's ``--repeats``: the calibrated number of repeats with the most measured power, planned before
any fit (``benchmarks/repeats_default.py`` measures why)."""

class FrontDoorCV(CrossValidation):
    """The front door's ``cv``: what :class:`CVEvaluator` takes (an int >= 2, ``"loo"``, a splitter or a list of
    splits), a numpy integer as a Python int and an iterator of splits as their list (read once, as scikit-learn's
    ``check_cv`` reads it); None, which scikit-learn reads as 5 folds and which is not this function's default
    (10), is refused with both fixes.

    Examples
    --------
    >>> import numpy as np
    >>> FrontDoorCV().check("cv", np.int64(5))
    5
    >>> FrontDoorCV().check("cv", None)
    Traceback (most recent call last):
    ...
    TypeError: cv must be an int >= 2, 'loo', a cross-validation splitter or an iterable of (train, test) splits; \
got cv=None. scikit-learn's cv=None is 5-fold cross-validation, and this function's default is 10 folds: pass cv=5, \
or leave cv out for 10.
    """

    def check(self, name, value):
        if value is None:
            raise TypeError(f"{name} must be {self.describe()}; got {name}=None. scikit-learn's {name}=None is 5-fold "
                            f"cross-validation, and this function's default is 10 folds: pass {name}=5, or leave "
                            f"{name} out for 10.")
        if isinstance(value, float) and value.is_integer() and value >= 2:
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}, a float: pass "
                            f"{name}={int(value)}.")
        value = super().check(name, value)
        if isinstance(value, numbers.Integral):
            return int(value)
        return value if isinstance(value, str) or hasattr(value, "split") else list(value)


def resolved_cv(cv, n_samples, groups, regression, random_state):
    """The folds to run: an int k equal to the instances is leave-one-out; with groups, an int k is the toolkit's
    shuffling group k-fold (seeded by ``random_state``), as the command line's ``--groups`` draws it."""
    if isinstance(cv, int) and groups is None and cv == n_samples:
        return "loo"
    if isinstance(cv, int) and groups is not None:
        return group_kfold(not regression, cv, random_state=random_state)
    return cv


def check_folds(cv, n_repeats, n_samples):
    """Refuse more folds than instances and repeats of leave-one-out, naming the fix."""
    if isinstance(cv, int) and not isinstance(cv, bool) and cv > n_samples:
        raise ValueError(f"cv={cv} is more folds than the {n_samples} instances; use cv=2 to {n_samples}, "
                         "or cv='loo'")
    if cv == "loo" and n_repeats > 1:
        raise ValueError(f"n_repeats={n_repeats} needs k-fold cross-validation: leave-one-out gives the same "
                         "partition every time (Wong 2015, section 5.1); use n_repeats=1 or cv=K")


def fold_count(cv, X, y, groups):
    """The folds of one partition: one per instance under leave-one-out, k for an int, the splitter's otherwise."""
    if isinstance(cv, str):
        return len(y)
    if isinstance(cv, int):
        return cv
    if hasattr(cv, "get_n_splits"):
        return cv.get_n_splits(X, y, groups)
    return len(list(cv))


class Folds(NamedTuple):
    """The folds a comparison runs, known before any fit: ``folds`` (``cv`` resolved: leave-one-out for an int equal
    to N, the shuffling group k-fold for an int with groups), their number ``n_splits`` per partition, and the
    number of groups ``n_groups`` (None without groups), and whether they draw a new partition per repeat
    (``repeatable``: a shuffling splitter or a number of folds, so that a route to more repeats can run)."""

    folds: object
    n_splits: int
    n_groups: int | None
    repeatable: bool = True


def _checked_groups(groups, n_samples):
    """``groups`` as a 1-d array of ``n_samples`` entries, refused (naming the fix) otherwise."""
    found = np.asarray(groups)
    if found.ndim != 1 or len(found) != n_samples:
        raise ValueError(f"groups has shape {found.shape} and n_samples={n_samples}: pass one group per instance "
                         f"(a 1-d array of {n_samples} entries, as compare takes it), or n_samples=len(groups).")
    return found


def _n_splits(folds, X, y, groups):
    """:func:`fold_count`, a splitter's refusal of these data said in ``cv``'s name."""
    try:
        return fold_count(folds, X, y, groups)
    except (TypeError, ValueError) as error:
        raise ValueError(f"cv={folds!r} cannot count its folds on these data ({' '.join(str(error).split())}); pass "
                         "the groups it needs (groups=...), or another cv.") from None


def planned_folds(cv, n_samples, *, groups=None, n_repeats=1, regression=False, X=None, y=None, random_state=None):
    """The :class:`Folds` of ``cv`` (an int, "loo", a splitter or a list of splits, as :class:`FrontDoorCV` takes it)
    on ``n_samples`` instances in ``groups``, refusing before any fit what no fit could run: groups of another
    length, more folds than instances (or than groups), repeats of leave-one-out or of a splitter that does not
    shuffle. ``X`` and ``y``, where given, are what a splitter counts its folds on (by default N rows of zeros)."""
    groups = None if groups is None else _checked_groups(groups, n_samples)
    folds = resolved_cv(cv, n_samples, groups, regression, random_state)
    repeats = 1 if n_repeats == "auto" else n_repeats
    check_folds(folds, repeats, n_samples)
    n_groups = None if groups is None else len(np.unique(groups))
    if n_groups is not None and isinstance(cv, numbers.Integral) and n_groups < cv:
        raise ValueError(f"cv={cv} is more folds than the {n_groups} groups (whole groups go to one test fold); "
                         f"use cv=2 to {n_groups}.")
    n_splits = _n_splits(folds, np.zeros((n_samples, 0)) if X is None else X, np.zeros(n_samples) if y is None else y,
                         groups)
    folds = check_cv_argument(folds, repeats)
    try:  # whether they draw a new partition per repeat (a shuffling splitter or a number of folds)
        check_cv_argument(folds, 2)
    except ValueError:
        return Folds(folds, int(n_splits), n_groups, False)
    return Folds(folds, int(n_splits), n_groups, True)


def planned_design(estimator_types, n_samples, cv, *, groups=None, X=None, y=None, random_state=None, n_repeats=1,
                   metric="accuracy", regression=False, loss=None, nested="auto", params=None, budget=None):
    """The :class:`Design` of a comparison of learners of ``estimator_types`` on ``cv``, its :class:`Folds` in it
    (:func:`planned_folds` of ``cv`` on ``X``, ``y`` and ``groups``, seeded by ``random_state``), after refusing
    what no fit could run (:func:`planned_folds`, :func:`~cvinference.policy._routes.check_nested`) and a budget
    below the cross-validation."""
    folds = planned_folds(cv, n_samples, groups=groups, n_repeats=n_repeats, regression=regression, X=X, y=y,
                          random_state=random_state)
    design = comparison_design(estimator_types, n_samples, cv=cv, folds=folds.folds, n_splits=folds.n_splits,
                               n_repeats=n_repeats, metric=metric, regression=regression,
                               loss=default_loss(loss, regression), repeatable=folds.repeatable,
                               n_groups=folds.n_groups, nested=nested, params=params, budget=budget)
    return design._replace(folds=folds)
