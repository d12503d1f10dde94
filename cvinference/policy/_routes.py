"""The refitting routes of a decision that cannot tell, and the most powerful one a budget of fits allows.

A decision from one cross-validation that cannot tell has two kinds of calibrated route:

- the same cross-validation on more repeats R, whose corrected resampled t
  (Nadeau & Bengio 2003; Bouckaert & Frank 2004) the decision then rests on,
  for any metric with a value per fold;
- nested cross-validation's difference interval (Bates, Hastie & Tibshirani
  2023), for per-instance losses only (accuracy, a regressor's loss).

A route is calibrated where the benchmark measured its type-I error within
the limit for the pair's learners at about its size (the corrected t at that
very R). Among the calibrated routes a budget allows, the one with the most
measured power on the power cells they share is taken, the fewer fits on a
tie; where they share no power cell, nested cross-validation comes first,
then the fewest repeats.
"""

from typing import NamedTuple

from ..inference._metric_interval import SCORE_METRICS
from ..records._nested_cv_result import N_REPEATS, N_SPLITS, nested_fit_count
from ._budget import budget_fits, check_budget
from ._evidence import (
    TestEvidence,
    grouped_task,
    learner_of,
    measured_rows,
    measured_task,
    pair_learners,
    repeats_of,
    test_evidence,
    type_i_limit,
)

NESTED_SETTINGS = {"n_splits": N_SPLITS, "n_repeats": N_REPEATS}
"""The nested cross-validation the decision may rest on: the library's defaults, R = 5 partitions into K = 5 folds,
which the calibration benchmark measured (its main cells, and the (K, R) grid they were chosen from)."""


def nested_fits(n_learners=2, n_splits=NESTED_SETTINGS["n_splits"], n_repeats=NESTED_SETTINGS["n_repeats"],
                outer=True):
    """The fits of :func:`nested_cv_interval` for ``n_learners``: R K (K + 1) / 2 each (R K (K - 1) / 2 with
    its ``cv_result``, ``outer=False``)."""
    return nested_fit_count(n_splits, n_repeats, n_learners, outer)


NESTED_FITS = {outer: nested_fits(outer=outer) for outer in (True, False)}
"""Nested cross-validation's fits for two learners, with its own outer fits (True) and reusing a comparison's
(False)."""


def label_task(metric):
    """The evidence's task whose rows judge the tests of a label metric: its own rows where the benchmark measured
    it ("balanced_accuracy"), else accuracy's ("classification"), with a caveat that says so."""
    return metric if metric != "accuracy" and measured_task(metric) else "classification"


def fold_task(metric):
    """The evidence's task of the corrected t on a metric's fold values: a score metric's own, else the label
    metric's (:func:`label_task`)."""
    return metric if metric in SCORE_METRICS else label_task(metric)


def nested_evidence(pair):
    """Nested CV's difference interval's measured figures for this pair's learners at about its size (its number
    of groups, for records made with groups)."""
    if pair.a.groups is not None:
        return nested_evidence_of(pair_learners(pair), pair.a.n_groups, grouped_task(pair.a.classes is not None))
    return nested_evidence_of(pair_learners(pair), pair.a.n_samples)


def nested_evidence_of(learners, size, task=None):
    """Nested CV's difference interval's measured figures for ``learners`` at about ``size`` in the rows of
    ``task`` (None: ungrouped records, sized by N; a grouped task: sized by their groups)."""
    key = "nested-cv"
    return test_evidence(key, learners, size) if task is None else test_evidence(key, learners, size, task)


def _holds(evidence):
    return evidence.type_i is not None and evidence.type_i <= type_i_limit()


def nested_calibrated(pair):
    """Whether the benchmark measured nested CV's difference interval within the type-I limit for this pair's
    learners at about its size: only then can the decision rest on it, so only then are its fits worth running for
    the decision."""
    return _holds(nested_evidence(pair))


class Route(NamedTuple):
    """A calibrated refitting route: its name, the repeats R and folds K of the cross-validation it runs (None:
    nested CV), the fits it costs and its measured figures for the pair."""

    name: str
    repeats: int | None
    n_splits: int | None
    fits: int
    evidence: TestEvidence

    @property
    def power(self):
        """Its measured power by cell, ``{(learner, n, population): rate}``."""
        return dict(self.evidence.power_cells)

    def describe(self):
        if self.repeats is None:
            return "nested cross-validation's difference interval"
        return f"the corrected t on {self.repeats} x {self.n_splits}-fold cross-validation"


def nested_route(pair, fits=None):
    """Nested cross-validation's :class:`Route` where it is calibrated for the pair (``fits``: its cost, by default
    with its own outer fits), else None."""
    found = nested_evidence(pair)
    return Route("nested-cv", None, None, nested_fits() if fits is None else fits, found) if _holds(found) else None


def nested_route_of(learners, size, task, fits, holding=True):
    """Nested cross-validation's :class:`Route` of ``fits`` for ``learners`` at about ``size`` in the rows of
    ``task`` (:func:`nested_evidence_of`), known before any fit: None where ``holding`` asks that it be calibrated
    and it is not."""
    found = nested_evidence_of(learners, size, task)
    return Route("nested-cv", None, None, fits, found) if _holds(found) or not holding else None


def repeats_routes(pair, metric):
    """The corrected t's calibrated routes on the fold values of ``metric``: every number of repeats R other than
    the record's at which the benchmark measured it within the limit for these learners at this size (those cells
    alone: :func:`test_evidence`'s ``repeats``), fewest repeats first; none for leave-one-out."""
    if pair.a.is_loo:
        return []
    task = "regression" if pair.a.classes is None else fold_task(metric)
    return measured_repeats_routes(pair_learners(pair), pair.a.n_samples, task, pair.a.n_splits, pair.a.n_repeats)


def measured_repeats_routes(learners, n_samples, task, n_splits, record_repeats):
    """:func:`repeats_routes` for ``learners`` (:class:`Learner`) at ``n_samples`` in the rows of ``task``, from a
    record of ``record_repeats`` repeats of ``n_splits`` folds."""
    measured = sorted({r for r in map(repeats_of, measured_rows("type_i", "corrected-t", task)) if r is not None})
    routes = []
    for repeats in measured:
        found = test_evidence("corrected-t", learners, n_samples, task, repeats)
        if repeats != record_repeats and found.repeats == (repeats,) and _holds(found):
            routes.append(Route(f"corrected t ({repeats}x{n_splits}-fold)", repeats, n_splits, 2 * n_splits * repeats,
                                found))
    return routes


def _shared_power(routes):
    """Each route's mean measured power over the power cells every one of ``routes`` holds (None: they share
    none, or one has none)."""
    if not routes:
        return None
    shared = set.intersection(*(set(route.power) for route in routes))
    if not shared:
        return None
    return {route: sum(route.power[cell] for cell in shared) / len(shared) for route in routes}


def compared_on_power(*routes):
    """Whether ``routes`` were measured on power cells they share (so that one can be said to have more power)."""
    return _shared_power(list(routes)) is not None


def most_powerful(routes, fits_left=None):
    """The route to run among ``routes`` (nested CV first, then by repeats): of those within ``fits_left`` (None: no
    limit), the most measured power on the cells they share, the fewer fits on a tie; where they share no power
    cell, the first. None when none is within ``fits_left``."""
    affordable = [route for route in routes if fits_left is None or route.fits <= fits_left]
    power = _shared_power(affordable)
    if power is None:
        return affordable[0] if affordable else None
    return max(power, key=lambda route: (power[route], -route.fits))


def power_words(routes):
    """The calibrated ``routes``' measured power on the cells they share, as a sentence ("" for fewer than two
    routes so measured)."""
    power = _shared_power(routes)
    if power is None or len(power) < 2:
        return ""
    cells = len(set.intersection(*(set(route.power) for route in power)))
    each = "; ".join(f"{route.describe()}, {power[route]:.2f} ({route.fits} fits)" for route in power)
    plural = "s" if cells != 1 else ""
    return f" Measured power of the calibrated routes on the {cells} power cell{plural} they share: {each}."


def planned_repeats(learners, n_samples, task, n_splits, fits_left=None):
    """The repeats a comparison plans before any fit (``n_repeats="auto"``): among the numbers of repeats R at which
    the benchmark measured the corrected t within the limit for ``learners`` at ``n_samples`` in the rows of
    ``task`` (:func:`measured_repeats_routes`), the route of most measured power within ``fits_left``
    (:func:`most_powerful`), or None; and every such route. The plan depends on the learners, the size, the
    metric, the budget and the evidence, never on the data, so running it spends no test's level."""
    routes = measured_repeats_routes(learners, n_samples, task, n_splits, 0)
    return most_powerful(routes, fits_left), routes


def _before_fitting(estimator_types, n_samples, metric, regression, n_groups):
    """The learners of ``estimator_types``, the evidence's task of ``metric`` and the size the cells are read at,
    known before any fit."""
    learners = [learner_of(name) for name in estimator_types]
    if n_groups is not None:
        return learners, grouped_task(not regression), n_groups
    return learners, "regression" if regression else fold_task(metric), n_samples


def repeats_plan(estimator_types, n_samples, metric, *, n_splits, regression=False, n_groups=None, fits_left=None,
                 budget=None):
    """``n_repeats="auto"`` of the front door: the repeats :func:`planned_repeats` gives two learners of
    ``estimator_types`` ("module.QualName") at ``n_samples`` (``n_groups`` groups, where given) for ``metric``,
    1 where none was measured holding or none fits ``fits_left``, and the note that says which and why."""
    learners, task, size = _before_fitting(estimator_types, n_samples, metric, regression, n_groups)
    chosen, routes = planned_repeats(learners, size, task, n_splits, fits_left)
    if chosen is None and routes:
        listed = ", ".join(str(route.repeats) for route in routes)
        return 1, (f"n_repeats='auto': budget={budget!r} ({fits_left:,} fits) allows none of the numbers of repeats "
                   f"measured holding for these learners (R = {listed}); 1 repeat was run.")
    if chosen is None:
        return 1, (f"n_repeats='auto': the benchmark measured no number of repeats of the corrected t within "
                   f"{type_i_limit():g} for these learners at about this size; 1 repeat was run.")
    repeats = chosen.repeats
    return repeats, (
        f"n_repeats='auto' planned {repeats} x {n_splits}-fold cross-validation ({chosen.fits:,} fits) before any "
        f"fit: the corrected t on {repeats} repeat{'s' if repeats > 1 else ''} kept its type-I error at or below "
        f"{type_i_limit():g} (its worst: {chosen.evidence.type_i:.3f}) for {chosen.evidence.regime.describe()}, the "
        f"calibrated number of repeats with the most measured power{'' if fits_left is None else ' within the budget'}."
        + power_words(routes))


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
    power the budget aside; ``notes`` say what was planned and left out, and why; ``loss``: the records' loss;
    ``folds``: the
    :class:`~cvinference.policy._design.Folds` to run, where :func:`~cvinference.policy._design.planned_design`
    resolved them.
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
    loss: str | None = None

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


def about_loss(metric, regression, loss):
    """Whether a decision about ``metric`` is about the records' loss, which nested cross-validation estimates."""
    negated = {"squared_error": "neg_mean_squared_error", "absolute_error": "neg_mean_absolute_error"}
    return metric == "accuracy" or (regression and metric in (loss, negated.get(loss)))


def weighs_repeats(metric, nested_applies, regression, grouped):
    """Whether the route to more repeats is weighed: for a metric nested cross-validation does not cover, and for
    accuracy on ungrouped class labels."""
    return not nested_applies or (metric == "accuracy" and not regression and not grouped)


def _repeats(estimator_types, n_samples, cv, n_splits, n_repeats, metric, regression, n_groups, allowed, budget,
             repeatable):
    """The repeats to run and the note of ``n_repeats="auto"`` (None for a number given)."""
    if n_repeats != "auto":
        return n_repeats, None
    if not repeatable:
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


def _candidate_routes(learners, n_samples, *, metric, n_splits, n_repeats, regression, loss, n_groups, repeatable,
                      nested, nested_cost):
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


def comparison_design(estimator_types, n_samples, *, cv, n_splits, n_repeats, loss, repeatable, folds=None,
                      metric="accuracy", regression=False, n_groups=None, nested="auto", params=False, budget=None):
    """The :class:`Design` of a comparison of two learners of ``estimator_types`` ("module.QualName") at
    ``n_samples`` instances (``n_groups`` groups, where grouped) on ``cv`` (an int, "loo" or a splitter; ``folds``:
    it resolved, by default ``cv``; ``n_splits``: its folds; ``repeatable``: whether they draw a new partition
    per repeat) repeated ``n_repeats`` times (or "auto"), for
    ``metric`` on the records' ``loss``, with ``nested`` and ``budget``; refuses a budget below the
    cross-validation before any fit."""
    check_nested(nested, metric, regression, loss, n_groups, params)
    folds = cv if folds is None else folds
    allowed = budget_fits(budget, 2)
    learners = [learner_of(name) for name in estimator_types]
    n_repeats, repeats_note = _repeats(estimator_types, n_samples, folds, n_splits, n_repeats, metric, regression,
                                       n_groups, allowed, budget, repeatable)
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
    nested_cost = NESTED_FITS[not reuse]
    runs_five_by_two = _stage_fits(plain, five_by_two, nested_cost, allowed, budget, nested)
    if five_by_two and not runs_five_by_two:
        notes.append(f"budget={budget!r} ({allowed:,} fits) left out Dietterich's 5x2cv t ({five_by_two} fits).")
    spent = plain + (five_by_two if runs_five_by_two else 0)
    routes = _candidate_routes(learners, n_samples, metric=metric, n_splits=n_splits, n_repeats=n_repeats,
                               regression=regression, loss=loss, n_groups=n_groups, repeatable=repeatable,
                               nested=nested, nested_cost=nested_cost)
    route = most_powerful(routes, None if allowed is None else allowed - spent)
    return Design(n_splits=n_splits, n_repeats=n_repeats, cv_fits=plain,
                  five_by_two_fits=five_by_two if runs_five_by_two else 0, route=route,
                  best=most_powerful(routes), always=nested == "always" and route is not None, reuse=reuse,
                  notes=tuple(notes), loss=loss)
