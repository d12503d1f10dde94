"""The design a comparison of two learners runs, planned before its fits: its folds and repeats, the fits of each
stage and the calibrated route it runs when the decision from the folds cannot tell.

One planner: :func:`cvinference.plan` and :func:`cvinference.compare` both ask :func:`comparison_design`, which
reads the learners' classes, the size, the folds, the metric, the budget and the calibration evidence, never the
data, so that planning spends no test's level.
"""

import numbers
from typing import NamedTuple

import numpy as np

from ..evaluation._partitions import CrossValidation, check_cv_argument
from ..splitters._group_kfold import group_kfold
from ._budget import budget_fits, check_budget
from ._evidence import grouped_task, learner_of
from ._routes import (
    NESTED_SETTINGS,
    Route,
    fold_task,
    measured_repeats_routes,
    most_powerful,
    nested_fits,
    nested_route_of,
    repeats_plan,
)

DEFAULT_REPEATS = "auto"
"""The default ``n_repeats`` of :func:`~cvinference.plan`, :func:`~cvinference.compare`, :func:`~cvinference.evaluate`
and the command line's ``--repeats``: the calibrated number of repeats with the most measured power, planned before
any fit (``benchmarks/repeats_default.py`` measures why)."""

REGRESSION_LOSSES = ("squared_error", "absolute_error")
"""The per-instance losses of a regression task; the first is its default."""


def default_loss(loss, regression):
    """``loss``, or the task's default when None: squared error for a regressor, zero-one otherwise."""
    if loss is not None:
        return loss
    return REGRESSION_LOSSES[0] if regression else "zero_one"


FIVE_BY_TWO_FITS = 20
"""Dietterich's 5x2cv: five 2-fold cross-validations of two learners."""

NESTED_GROUPS = 2 * NESTED_SETTINGS["n_splits"]
"""The fewest groups for nested cross-validation on grouped data: two in each of its folds."""

CROSS_VALIDATION, FIVE_BY_TWO = "cross-validation", "5x2cv"
"""The names of the stages every comparison of k-fold records runs (5x2cv: for classifiers, within the budget)."""

IF_CANNOT_TELL = " if the decision cannot tell"
"""What a stage's name ends with when it runs only when the decision from the folds cannot tell."""


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
    number of groups ``n_groups`` (None without groups)."""

    folds: object
    n_splits: int
    n_groups: int | None


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
    folds = check_cv_argument(folds, repeats)
    n_groups = None if groups is None else len(np.unique(groups))
    if n_groups is not None and isinstance(cv, numbers.Integral) and n_groups < cv:
        raise ValueError(f"cv={cv} is more folds than the {n_groups} groups (whole groups go to one test fold); "
                         f"use cv=2 to {n_groups}.")
    n_splits = _n_splits(folds, np.zeros((n_samples, 0)) if X is None else X, np.zeros(n_samples) if y is None else y,
                         groups)
    return Folds(folds, int(n_splits), n_groups)


def check_nested(nested, metric, regression, loss, n_groups, params=None):
    """Refuse, before any fit, ``nested="always"`` where nested cross-validation cannot run: for a metric it is not
    about, on fewer groups than its folds need, or with fit parameters it does not take."""
    if nested != "always":
        return
    if not about_loss(metric, regression, loss):
        raise ValueError(f"nested='always': nested cross-validation's interval is about the records' loss (accuracy "
                         f"for classifiers), and metric={metric!r} asks for a decision about {metric}; use "
                         "nested='auto', or drop metric")
    if n_groups is not None and n_groups < NESTED_GROUPS:
        raise ValueError(f"nested='always' needs {NESTED_GROUPS} groups (2 in each of nested cross-validation's "
                         f"{NESTED_SETTINGS['n_splits']} folds), and groups holds {n_groups}; use nested='auto' "
                         "(the decision rests on tests that take the groups as the units)")
    if params:
        raise ValueError("nested='always' runs nested cross-validation, which does not take fit parameters, and params "
                         "passes some to every fit; drop one of them.")


class Design(NamedTuple):
    """What a comparison runs, known before its fits.

    ``route`` is the calibrated route run when the decision from the folds cannot tell, within the budget (with
    ``always``, nested cross-validation asked for, run whatever the decision), ``best`` the one of most measured
    power the budget aside; ``notes`` say what was planned and left out, and why; ``folds``: the :class:`Folds` to
    run, where :func:`planned_design` resolved them.
    """

    n_splits: int
    n_repeats: int
    cv_fits: int
    five_by_two_fits: int
    route: Route | None
    best: Route | None
    always: bool
    reuse: bool
    notes: tuple
    folds: object = None

    @property
    def fits(self):
        """The fits run whatever the decision: the cross-validation, 5x2cv and nested cross-validation asked for."""
        return self.cv_fits + self.five_by_two_fits + (self.route.fits if self.always else 0)

    @property
    def most_fits(self):
        """The fits run when the decision from the folds cannot tell (and the route runs)."""
        return self.cv_fits + self.five_by_two_fits + (0 if self.route is None else self.route.fits)

    def stages(self):
        """Each stage's name and fits, in the order they run: ``((name, fits), ...)``."""
        found = [(f"{CROSS_VALIDATION} ({self.n_repeats} x {self.n_splits}-fold)", self.cv_fits)]
        if self.five_by_two_fits:
            found.append((FIVE_BY_TWO, self.five_by_two_fits))
        if self.route is not None:
            found.append((route_words(self.route) + ("" if self.always else IF_CANNOT_TELL), self.route.fits))
        return tuple(found)


def route_words(route):
    """A route as a stage's name."""
    if route.repeats is None:
        return f"nested cross-validation ({NESTED_SETTINGS['n_repeats']} x {NESTED_SETTINGS['n_splits']}-fold)"
    return f"{CROSS_VALIDATION} on {route.repeats} x {route.n_splits}-fold"


def can_repeat(cv):
    """Whether ``cv`` draws a new partition per repeat (a shuffling splitter or a number of folds), so that a route
    to more repeats can run."""
    try:
        check_cv_argument(cv, 2)
    except ValueError:
        return False
    return True


def about_loss(metric, regression, loss):
    """Whether a decision about ``metric`` is about the records' loss, which nested cross-validation estimates."""
    negated = {"squared_error": "neg_mean_squared_error", "absolute_error": "neg_mean_absolute_error"}
    return metric == "accuracy" or (regression and metric in (loss, negated.get(loss)))


def weighs_repeats(metric, nested_applies, regression, grouped):
    """Whether the route to more repeats is weighed: for a metric nested cross-validation does not cover, and for
    accuracy on ungrouped class labels."""
    return not nested_applies or (metric == "accuracy" and not regression and not grouped)


def _repeats(estimator_types, n_samples, cv, n_splits, n_repeats, metric, regression, n_groups, allowed, budget):
    """The repeats to run and the note of ``n_repeats="auto"`` (None for a number given)."""
    if n_repeats != "auto":
        return n_repeats, None
    if not can_repeat(cv):
        return 1, (f"n_repeats='auto': cv={cv!r} gives the same partition every time (leave-one-out, a fixed list of "
                   "splits or a splitter that does not shuffle); 1 repeat was run.")
    return repeats_plan(estimator_types, n_samples, metric, n_splits=n_splits, regression=regression,
                        n_groups=n_groups, fits_left=allowed, budget=budget)


def _stage_fits(plain, five_by_two, nested_cost, allowed, budget, nested):
    """Whether 5x2cv runs within the budget; refuses a budget below ``plain`` (with ``nested="always"``, below
    ``plain`` and nested cross-validation's fits; 5x2cv then runs only beside both)."""
    what = "the cross-validation of both learners"
    check_budget(budget, allowed, plain, what)
    if nested == "always":
        check_budget(budget, allowed, plain + nested_cost, f"{what} ({plain:,} fits) and the nested "
                     f"cross-validation asked for ({nested_cost:,} fits)", "pass nested='auto' (nested "
                     "cross-validation then runs where the decision needs it and the budget allows)",
                     "drop --nested always (nested cross-validation then runs where the decision needs it and "
                     "the budget allows)")
    before_route = plain + (nested_cost if nested == "always" else 0)
    return bool(five_by_two) and (allowed is None or before_route + five_by_two <= allowed)


def _routes(learners, n_samples, *, metric, n_splits, n_repeats, regression, loss, n_groups, repeatable, nested,
            nested_cost):
    """The calibrated routes a decision that cannot tell weighs (nested ``"always"``: nested cross-validation alone):
    nested cross-validation where it is about ``metric`` and measured holding for these learners at about this size
    (for grouped data, at about this many groups, never fewer than two per fold; ungrouped regressors' decision on
    their loss rests on tests of the folds), and the corrected t on more repeats for a set-level or score metric,
    or for accuracy on ungrouped classes, where the splitter draws a new partition per repeat."""
    applies = about_loss(metric, regression, loss)
    size, task = (n_samples, None) if n_groups is None else (n_groups, grouped_task(not regression))
    if nested == "never":
        return []
    if nested == "always":
        found = nested_route_of(learners, size, task, nested_cost, holding=False)
        return [found] if applies else []
    enough = n_groups >= NESTED_GROUPS if n_groups is not None else not regression
    found = nested_route_of(learners, size, task, nested_cost) if applies and enough else None
    routes = [found] if found is not None else []
    if repeatable and weighs_repeats(metric, applies, regression, n_groups is not None):
        routes += [route for route in measured_repeats_routes(
            learners, n_samples, "regression" if regression else fold_task(metric), n_splits, n_repeats)
            if route.repeats > n_repeats]
    return routes


def comparison_design(estimator_types, n_samples, *, cv, n_splits, n_repeats, folds=None, metric="accuracy",
                      regression=False, loss=None, n_groups=None, nested="auto", params=False, allowed=None,
                      budget=None):
    """The :class:`Design` of a comparison of two learners of ``estimator_types`` ("module.QualName") at
    ``n_samples`` instances (``n_groups`` groups, where grouped) on ``cv`` (an int, "loo" or a splitter; ``folds``:
    it resolved, by default ``cv``; ``n_splits``: its folds) repeated ``n_repeats`` times (or "auto"), for
    ``metric`` on the records' ``loss``, with ``nested`` and a budget of ``allowed`` fits (``budget`` as given);
    refuses a budget below the cross-validation before any fit."""
    loss = default_loss(loss, regression)
    folds = cv if folds is None else folds
    learners = [learner_of(name) for name in estimator_types]
    n_repeats, repeats_note = _repeats(estimator_types, n_samples, folds, n_splits, n_repeats, metric, regression,
                                       n_groups, allowed, budget)
    notes = [repeats_note] if repeats_note else []
    if params:
        notes.append("params passes fit parameters to the cross-validation's fits; 5x2cv and nested "
                     "cross-validation, which do not take them, were left out.")
        nested = "never"
    loo = folds == "loo"
    plain = 2 * n_splits * n_repeats
    five_by_two = FIVE_BY_TWO_FITS if not loo and not regression and not params else 0
    reuse = cv == NESTED_SETTINGS["n_splits"] and n_repeats >= NESTED_SETTINGS["n_repeats"] and (
        regression or loss == "zero_one")
    nested_cost = nested_fits(outer=not reuse)
    runs_five_by_two = _stage_fits(plain, five_by_two, nested_cost, allowed, budget, nested)
    if five_by_two and not runs_five_by_two:
        notes.append(f"budget={budget!r} ({allowed:,} fits) left out Dietterich's 5x2cv t ({five_by_two} fits).")
    spent = plain + (five_by_two if runs_five_by_two else 0)
    routes = _routes(learners, n_samples, metric=metric, n_splits=n_splits, n_repeats=n_repeats,
                     regression=regression, loss=loss, n_groups=n_groups, repeatable=not loo and can_repeat(folds),
                     nested=nested, nested_cost=nested_cost)
    route = most_powerful(routes, None if allowed is None else allowed - spent)
    return Design(n_splits=n_splits, n_repeats=n_repeats, cv_fits=plain,
                  five_by_two_fits=five_by_two if runs_five_by_two else 0, route=route,
                  best=most_powerful(routes), always=nested == "always" and route is not None, reuse=reuse,
                  notes=tuple(notes))


def planned_design(estimator_types, n_samples, cv, *, groups=None, X=None, y=None, random_state=None, n_repeats=1,
                   metric="accuracy", regression=False, loss=None, nested="auto", params=None, budget=None):
    """The :class:`Design` of a comparison of learners of ``estimator_types`` on ``cv``, its :class:`Folds` in it
    (:func:`planned_folds` of ``cv`` on ``X``, ``y`` and ``groups``, seeded by ``random_state``), after refusing
    what no fit could run (:func:`planned_folds`, :func:`check_nested`) and a budget below the cross-validation."""
    folds = planned_folds(cv, n_samples, groups=groups, n_repeats=n_repeats, regression=regression, X=X, y=y,
                          random_state=random_state)
    check_nested(nested, metric, regression, default_loss(loss, regression), folds.n_groups, params)
    design = comparison_design(estimator_types, n_samples, cv=cv, folds=folds.folds, n_splits=folds.n_splits,
                               n_repeats=n_repeats, metric=metric, regression=regression, loss=loss,
                               n_groups=folds.n_groups, nested=nested, params=bool(params),
                               allowed=budget_fits(budget, 2), budget=budget)
    return design._replace(folds=folds)
