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
