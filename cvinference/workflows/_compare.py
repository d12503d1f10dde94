"""``compare``: is A better than B, answered in one call, the calibrated route run when the decision needs it."""

import dataclasses
from types import MappingProxyType

import numpy as np

from .._utils._describe import estimator_description, estimator_type
from .._utils._docstring import fill_doc
from .._utils._kinds import ANY, COUNT, Instance, Mapping
from .._utils._params import (
    NAMES,
    PROBABILITY,
    VERBOSE,
    ClassLabel,
    Integer,
    IntegerOrWord,
    Jobs,
    Nullable,
    Options,
    Seed,
    validate_params,
)
from ..conveniences import nested_cv_interval, paired_ttest_5x2cv
from ..evaluation._fit_params import FitParams
from ..evaluation._forward import is_forward_splitter
from ..inference import Interval, TestResult
from ..policy import Decision
from ..policy._decision import MARGIN, margin_question
from ..policy._margin import MARGIN_ALTERNATIVES, check_margin
from ..policy._routes import (
    NESTED_SETTINGS,
    Route,
    compared_on_power,
    more_repeats_before_fitting,
    most_powerful,
    nested_evidence,
    nested_fits,
    nested_route,
    repeats_plan,
    repeats_routes,
)
from ..records import PairedCVResult, PairedForwardResult
from ..report import comparison_decision, comparison_report, comparison_tests, estimator_intervals
from ._answer import Answer
from ._budget import Budget, budget_fits, budget_words, check_budget, cv_fits, in_units
from ._class_folds import check_classes_in_folds
from ._forward import check_forward_options, check_season, forward_comparison
from ._settings import (
    FrontDoorCV,
    by_name,
    can_repeat,
    check_folds,
    check_metric_names,
    check_pos_label,
    decision_metric,
    default_loss,
    evaluator,
    fold_count,
    is_regression,
    metric_list,
    resolved_cv,
    say,
    seeded,
    with_note,
)

FIVE_BY_TWO_FITS = 20
"""Dietterich's 5x2cv: five 2-fold cross-validations of two learners."""

NESTED_GROUPS = 2 * NESTED_SETTINGS["n_splits"]
"""The fewest groups for nested cross-validation on grouped data: two in each of its folds."""


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class Comparison(Answer):
    """Two learners on identical folds, every test, and the one decision: what ``cvinference compare`` prints.

    Made by :func:`compare`.

    Attributes
    ----------
    pair : PairedCVResult or PairedForwardResult
        Both learners' records on identical folds (with a forward splitter,
        their forecasts from identical origins).
    intervals : mapping
        ``{"A": {name: Interval}, "B": {name: Interval}}``: every interval
        of each learner the report shows.
    tests : mapping of str to TestResult
        Every test of the difference, by its row's name (Wong's tests,
        McNemar, the corrected t, 5x2cv; for regressors the loss tests).
    nested : Interval or None
        Nested cross-validation's interval of the difference (Bates, Hastie
        & Tibshirani 2023), when it ran.
    decision : Decision
        The answer, the one test it rests on, the others and why not.
    report : dict
        The report (the command line's ``--json``).
    fits : int
        The models fitted.
    budget : int or None
        The fits the call was allowed, None without a limit.
    """

    pair: PairedCVResult | PairedForwardResult
    intervals: object
    tests: object
    nested: Interval | None
    decision: Decision
    report: dict
    fits: int
    budget: int | None

    _kinds = {"pair": Instance((PairedCVResult, PairedForwardResult)),
              "intervals": Mapping(Mapping(Instance(Interval))), "tests": Mapping(Instance(TestResult)),
              "nested": Nullable(Instance(Interval)),
              "decision": Instance(Decision), "report": ANY, "fits": COUNT, "budget": Nullable(COUNT)}

    def __repr__(self):
        return f"Comparison(answer={self.decision.answer!r}, metric={self.decision.metric!r}, fits={self.fits})"


def _nested_applies(pair, metric):
    """Whether nested cross-validation's difference is about ``metric``: accuracy (zero-one loss) for classifiers,
    the records' own loss for regressors."""
    return _about_loss(metric, pair.a.classes is None, pair.a.loss_name)


def _routes_to_weigh(nested, pair, tests, metric, confidence_level, pos_label, nested_cost, repeatable=True):
    """The calibrated routes the front door may run after the folds (:mod:`cvinference.policy._routes`).

    ``"always"``: nested cross-validation alone. ``"auto"``, when the decision from the folds cannot tell: nested
    cross-validation where it is about ``metric`` and the benchmark measured it within the limit for these learners
    at about this size (for grouped data, at about this many groups, never fewer than two per fold; two ungrouped
    regressors' decision on their loss rests on tests of the folds, and nested CV runs for them when asked for), and
    the corrected t on more repeats than ``pair``'s (never fewer than asked for) for a set-level or score metric, or
    for accuracy on ungrouped classes, where the splitter draws a new partition per repeat (``repeatable``).
    """
    if nested == "never":
        return []
    applies = _nested_applies(pair, metric)
    if nested == "always":
        return [Route("nested-cv", None, None, nested_cost, nested_evidence(pair))] if applies else []
    decision = decision_of(pair, tests if pair.a.classes is not None else [], metric, confidence_level, pos_label)
    if decision.answer != "cannot tell":
        return []
    routes = []
    if applies:
        enough = pair.a.n_groups >= NESTED_GROUPS if pair.a.groups is not None else pair.a.classes is not None
        found = nested_route(pair, nested_cost) if enough else None
        routes += [found] if found is not None else []
    if repeatable and _weighs_repeats(metric, applies, pair.a.classes is None, pair.a.groups is not None):
        routes += [route for route in repeats_routes(pair, decision.metric) if route.repeats > pair.a.n_repeats]
    return routes


def _weighs_repeats(metric, nested_applies, regression, grouped):
    """Whether the front door weighs more repeats of the cross-validation as a route: for a metric nested
    cross-validation does not cover, and for accuracy on ungrouped class labels."""
    return not nested_applies or (metric == "accuracy" and not regression and not grouped)


def decision_of(pair, tests, metric, confidence_level, pos_label=None):
    return comparison_decision(pair, tests, confidence_level=confidence_level, metrics=[metric], pos_label=pos_label)


def _reusable(pair, cv, loss):
    """``pair`` when its folds are nested cross-validation's (K folds, at least R repeats, its loss), else None: its
    first R partitions and their fits are then nested CV's outer ones."""
    same = (cv == NESTED_SETTINGS["n_splits"] and pair.a.n_repeats >= NESTED_SETTINGS["n_repeats"]
            and pair.a.loss_name == loss)
    return pair if same else None


def _about_loss(metric, regression, loss):
    """Whether a decision about ``metric`` is about the records' loss, which nested cross-validation estimates."""
    negated = {"squared_error": "neg_mean_squared_error", "absolute_error": "neg_mean_absolute_error"}
    return metric == "accuracy" or (regression and metric in (loss, negated.get(loss)))


def _check_nested(nested, metric, regression, loss, groups):
    if nested != "always":
        return
    if not _about_loss(metric, regression, loss):
        raise ValueError(f"nested='always': nested cross-validation's interval is about the records' loss (accuracy "
                         f"for classifiers), and metric={metric!r} asks for a decision about {metric}; use "
                         "nested='auto', or drop metric")
    n_groups = None if groups is None else len(np.unique(np.asarray(groups)))
    if n_groups is not None and n_groups < NESTED_GROUPS:
        raise ValueError(f"nested='always' needs {NESTED_GROUPS} groups (2 in each of nested cross-validation's "
                         f"{NESTED_SETTINGS['n_splits']} folds), and groups holds {n_groups}; use nested='auto' "
                         "(the decision rests on tests that take the groups as the units)")


def _left_out_words(best, chosen, budget, allowed, fits, metric):
    """The note of a budget that left out the most powerful route (``chosen``: the route it ran instead, or None)."""
    what = ("nested cross-validation" if best.repeats is None
            else f"the {best.repeats} x {best.n_splits}-fold cross-validation")
    spent = fits - (chosen.fits if chosen is not None else 0)
    if chosen is None:
        needed = "which the decision needed" if best.repeats is None else f"that the decision on {metric} needed"
        return (f"budget={budget!r} ({allowed:,} fits) left out {what} ({best.fits:,} fits), {needed}: {fits:,} fits "
                f"were spent, so a budget of {fits + best.fits:,} runs it.")
    why = ("the calibrated route with more measured power" if compared_on_power(best, chosen)
           else "the calibrated route the rule puts first, their power not measured on shared cells")
    return (f"budget={budget!r} ({allowed:,} fits) ran {chosen.describe()} ({chosen.fits:,} fits) instead of {what} "
            f"({best.fits:,} fits), {why}: a budget of {spent + best.fits:,} runs it.")


def _route_bound(estimators, n_samples, metric, regression, loss, groups, folds, n_splits, n_repeats, nested,
                 nested_cost, allowed, spent):
    """The fits of the costliest route the front door may run after the folds, within the budget, and its words
    ((0, None): none): nested cross-validation (``nested_cost``, None where the budget leaves it out) and the
    calibrated routes to more repeats, known before any fit."""
    applies = _about_loss(metric, regression, loss)
    found = [(nested_cost, "nested cross-validation")] if nested_cost is not None and nested != "never" and (
        applies) else []
    if nested == "auto" and can_repeat(folds) and _weighs_repeats(metric, applies, regression, groups is not None):
        found += [(route.fits, f"the {route.repeats} x {n_splits}-fold cross-validation")
                  for route in more_repeats_before_fitting([estimator_type(e) for e in estimators], n_samples, metric,
                                                           n_splits=n_splits, n_repeats=n_repeats,
                                                           regression=regression)
                  if allowed is None or spent + route.fits <= allowed]
    return max(found, default=(0, None), key=lambda item: item[0])


def _auto_repeats(estimators, folds, n_splits, y, groups, metric, regression, allowed, budget):
    """``n_repeats="auto"``: the repeats planned before any fit, and the note that says why
    (:func:`~cvinference.policy._routes.repeats_plan`; 1 for leave-one-out)."""
    if not can_repeat(folds):
        return 1, (f"n_repeats='auto': cv={folds!r} gives the same partition every time (leave-one-out, a fixed list "
                   "of splits or a splitter that does not shuffle); 1 repeat was run.")
    n_groups = None if groups is None else len(np.unique(np.asarray(groups)))
    return repeats_plan([estimator_type(estimator) for estimator in estimators], len(y), metric,
                        n_splits=n_splits, regression=regression, n_groups=n_groups, fits_left=allowed,
                        budget=budget)


def _plan(plain, five_by_two, nested_cost, allowed, budget, nested="auto"):
    """The fits of each stage the budget allows: (run 5x2cv, may run nested CV); refuses a budget below ``plain``,
    and with ``nested="always"`` below ``plain`` and nested cross-validation's fits (5x2cv then runs only beside
    both)."""
    what = "the cross-validation of both learners"
    check_budget(budget, allowed, plain, what)
    if nested == "always":
        check_budget(budget, allowed, plain + nested_cost, f"{what} ({plain:,} fits) and the nested "
                     f"cross-validation asked for ({nested_cost:,} fits)", "pass nested='auto' (nested "
                     "cross-validation then runs where the decision needs it and the budget allows)",
                     "drop --nested always (nested cross-validation then runs where the decision needs it and "
                     "the budget allows)")
    if allowed is None:
        return bool(five_by_two), True
    if nested == "always":
        return bool(five_by_two) and plain + nested_cost + five_by_two <= allowed, True
    run_five_by_two = bool(five_by_two) and plain + five_by_two <= allowed
    spent = plain + (five_by_two if run_five_by_two else 0)
    return run_five_by_two, spent + nested_cost <= allowed


def run_comparison(estimator_a, estimator_b, X, y, *, cv=10, n_repeats=1, groups=None, metric=None, loss=None,
                   pos_label=None, confidence_level=0.95, nested="auto", budget=None, names=None, n_jobs=None,
                   random_state=None, verbose=0, descriptions=None, data=None, params=None, season=None, margin=None,
                   alternative=None):
    """:func:`compare` with the command line's wording: ``descriptions`` name the learners in the report and
    ``data`` is its ``{"name", "n_samples", ...}``."""
    metrics = metric_list(metric)
    metric = decision_metric(metrics)
    regression = is_regression(estimator_a)
    loss = default_loss(loss, regression)
    check_season(season, cv)
    alternative = margin_question(margin, alternative)
    check_margin(margin, metric, regression=regression or is_forward_splitter(cv))
    estimators = (estimator_a, estimator_b)
    if descriptions is None:
        descriptions = tuple(estimator_description(e) if name is None else f"{name}: {estimator_description(e)}"
                             for e, name in zip(estimators, names or (None, None), strict=True))
    estimators, seeding = seeded(estimators, random_state, "AB")
    estimator_a, estimator_b = estimators
    if is_forward_splitter(cv):
        check_forward_options(cv, regression=regression, n_repeats=n_repeats, groups=groups, metrics=metrics,
                              loss=loss, pos_label=pos_label, nested=nested)
        notes = [f"n_repeats='auto': cv={cv!r} is forward validation, whose origins are the same every time; 1 "
                 "repeat was run."] if n_repeats == "auto" else []
        return Comparison(**forward_comparison(
            estimators, X, y, cv=cv, loss=loss, metrics=metrics, confidence_level=confidence_level, budget=budget,
            names=names, n_jobs=n_jobs, random_state=random_state, verbose=verbose, descriptions=descriptions,
            data=data, params=params, season=season, notes=[*notes, seeding] if seeding else notes, margin=margin,
            alternative=alternative))
    check_metric_names(metrics, regression)
    check_pos_label(pos_label, metrics, regression)
    n_samples = len(y)
    folds = resolved_cv(cv, n_samples, groups, regression, random_state)
    allowed = budget_fits(budget, 2)
    notes = []
    if n_repeats == "auto":
        n_repeats, planned = _auto_repeats((estimator_a, estimator_b), folds, fold_count(folds, X, y, groups), y,
                                           groups, metric, regression, allowed, budget)
        notes.append(planned)
    check_folds(folds, n_repeats, n_samples)
    _check_nested(nested, metric, regression, loss, groups)
    if params and nested == "always":
        raise ValueError("nested='always' runs nested cross-validation, which does not take fit parameters, and params "
                         "passes some to every fit; drop one of them.")
    if params:
        notes.append("params passes fit parameters to the cross-validation's fits; 5x2cv and nested "
                     "cross-validation, which do not take them, were left out.")
        nested = "never"
    n_splits = fold_count(folds, X, y, groups)
    plain = cv_fits(2, n_splits, n_repeats)
    five_by_two = FIVE_BY_TWO_FITS if folds != "loo" and not regression and not params else 0
    reuse = cv == NESTED_SETTINGS["n_splits"] and n_repeats >= NESTED_SETTINGS["n_repeats"] and (
        regression or loss == "zero_one")
    nested_cost = nested_fits(outer=not reuse)
    run_five_by_two, nested_allowed = _plan(plain, five_by_two, nested_cost, allowed, budget, nested)
    if not regression:
        random_state = check_classes_in_folds(metrics, folds, X, y, groups, n_repeats=n_repeats,
                                              random_state=random_state)
    left_out = notes if run_five_by_two or not five_by_two else [
        *notes, f"budget={budget!r} ({allowed:,} fits) left out Dietterich's 5x2cv t ({five_by_two} fits)."]
    spent = plain + (five_by_two if run_five_by_two else 0)
    route_cost, route_words = _route_bound(estimators, n_samples, metric, regression, loss, groups, folds, n_splits,
                                           n_repeats, nested, nested_cost if nested_allowed else None, allowed, spent)
    most = spent + route_cost
    say(verbose, f"plan: at most {most:,} fits ({in_units(most, 2)}; {budget_words(allowed)}): {plain:,} for the "
                 "cross-validation" + (f", {five_by_two} for 5x2cv" if run_five_by_two else "")
        + (f", {route_cost} for {route_words}" + (" if the decision needs it" if nested == "auto" else "")
           if route_words else ""))
    say(verbose, f"fitting A and B on {n_repeats} x {cv} identical folds ({plain:,} fits)")
    pair = evaluator(folds, n_repeats=n_repeats, loss=loss, metrics=metrics, n_jobs=n_jobs,
                     random_state=random_state, verbose=verbose).compare(*estimators, X, y, groups, names=names,
                                                                         params=params)
    fits, extra = plain, []
    if run_five_by_two and not pair.a.is_loo:
        say(verbose, f"fitting A and B for 5x2cv ({FIVE_BY_TWO_FITS} fits)")
        extra.append(("5x2cv t", paired_ttest_5x2cv(*estimators, X, y, groups=groups, random_state=random_state,
                                                    n_jobs=n_jobs)))
        fits += FIVE_BY_TWO_FITS
    tests = comparison_tests(pair, extra_tests=extra)
    interval = None
    reused = _reusable(pair, cv, loss if regression else "zero_one")
    routes = _routes_to_weigh(nested, pair, tests, metric, confidence_level, pos_label,
                              nested_fits(outer=reused is None), can_repeat(folds))
    chosen, best = most_powerful(routes, None if allowed is None else allowed - fits), most_powerful(routes)
    if chosen is not None and chosen.repeats is None:
        say(verbose, f"fitting A and B for nested cross-validation ({NESTED_SETTINGS['n_repeats']} x "
                     f"{NESTED_SETTINGS['n_splits']} folds, {chosen.fits} fits"
                     f"{'' if reused is None else '; the outer fits are those of the folds above'})")
        interval = nested_cv_interval(estimator_a, X, y, estimator_b=estimator_b, groups=groups,
                                      confidence_level=confidence_level, random_state=random_state,
                                      n_jobs=n_jobs, verbose=int(verbose), cv_result=reused,
                                      **({"loss": loss} if regression else {}), **NESTED_SETTINGS)
        fits += chosen.fits
    elif chosen is not None:
        say(verbose, f"fitting A and B on {chosen.repeats} x {cv} identical folds ({chosen.fits:,} fits): the "
                     f"decision on {metric} rests on the corrected t on {chosen.repeats} repeats, the calibrated route "
                     "with the most measured power within the budget")
        pair = evaluator(folds, n_repeats=chosen.repeats, loss=loss, metrics=metrics, n_jobs=n_jobs,
                         random_state=random_state, verbose=verbose).compare(*estimators, X, y, groups, names=names,
                                                                             params=params)
        tests = comparison_tests(pair, extra_tests=extra)
        fits += chosen.fits
    if best is not None and best != chosen:
        left_out.append(_left_out_words(best, chosen, budget, allowed, fits, metric))
        say(verbose, left_out[-1])
    intervals = [estimator_intervals(result, confidence_level, metrics=metrics, pos_label=pos_label)
                 for result in (pair.a, pair.b)]
    decision = comparison_decision(pair, tests, confidence_level=confidence_level, metrics=metrics,
                                   nested=interval, names=names, pos_label=pos_label, margin=margin,
                                   alternative=alternative)
    report = comparison_report(pair, descriptions=descriptions, data=data, confidence_level=confidence_level,
                               metrics=metrics, nested=interval, names=names, pos_label=pos_label,
                               intervals=intervals, tests=tests, decision=decision)
    if left_out:
        report["notes"] = [*report.get("notes", []), *left_out]
    with_note(report, seeding)
    return Comparison(pair=pair, intervals=MappingProxyType({
        label: by_name(found_intervals) for label, found_intervals in zip("AB", intervals, strict=True)}),
        tests=MappingProxyType(dict(tests)), nested=interval, decision=decision, report=report, fits=fits,
        budget=allowed)


@fill_doc
@validate_params(cv=FrontDoorCV(), n_repeats=IntegerOrWord(1, "auto"), pos_label=Nullable(ClassLabel()),
                 confidence_level=PROBABILITY,
                 nested=Options("auto", "always", "never"), budget=Budget(), names=NAMES, n_jobs=Jobs(),
                 random_state=Seed(), verbose=VERBOSE, params=FitParams(), season=Nullable(Integer(minimum=1)),
                 margin=Nullable(MARGIN), alternative=Nullable(Options("difference", *MARGIN_ALTERNATIVES)))
def compare(estimator_a, estimator_b, X, y, *, cv=10, n_repeats=1, groups=None, metric=None, loss=None,
            pos_label=None, confidence_level=0.95, nested="auto", budget=None, names=None, n_jobs=None,
            random_state=None, verbose=0, params=None, season=None, margin=None, alternative=None):
    """Is A better than B? Cross-validate both on identical folds, run every test and decide, in one call.

    The front door for two learners: it runs what ``cvinference compare``
    runs (both records on identical folds, each learner's intervals beside
    its trivial baseline, every test of the difference, Dietterich's 5x2cv)
    and one decision (:func:`~cvinference.decide`) that rests on the one
    test the calibration benchmark measured keeping its false alarms within
    the limit for these learners at this size. When none computable from
    the folds is, it runs the calibrated route with the most measured
    power that the budget allows: nested cross-validation (Bates, Hastie &
    Tibshirani 2023; K = 5, R = 5, reusing the folds above when ``cv=5``
    and ``n_repeats >= 5``), or the cross-validation again on the number of
    repeats at which the corrected t was measured holding; the decision
    rests on its result. The returned object's ``summary()`` is what the
    command line prints.

    Parameters
    ----------
    estimator_a, estimator_b : estimator
        Two scikit-learn classifiers (or two regressors), cloned, never
        fitted in place.
    X : array-like of shape (n_samples, n_features)
        The features (numpy, lists or a pandas DataFrame).
    y : array-like of shape (n_samples,)
        The target: class labels, or numbers for a regressor.
    cv : int, "loo" or cross-validation splitter, default=10
        As :func:`evaluate` takes it. With a forward splitter both
        regressors forecast from identical origins, and the decision rests
        on Diebold & Mariano's test over every forecast, the one the forward
        calibration measured holding (no nested cross-validation, no 5x2cv).
    n_repeats : int or "auto", default=1
        Partitions drawn; the corrected t uses them all. ``"auto"`` plans
        them before any fit: the number of repeats R at which the benchmark
        measured the corrected t within the limit for these learners at
        about this size with the most measured power that the budget allows
        (the fewer fits on a tie; 1 where none was measured holding). The
        plan reads the learners' types, the size, the metric, the budget
        and the evidence, never the data, so it spends no test's level; the
        report's notes say what it planned and why.
    groups : array-like of shape (n_samples,) or None, default=None
        Each instance's group: whole groups go to one test fold, and the
        decision considers only tests that take groups as the units.
    metric : str, callable, list of them or None, default=None
        What the decision is about: the first metric (None or
        ``"accuracy"``: accuracy, or a regressor's loss); every metric also
        gets fold-level intervals. The same calibrated route runs for
        ``metric="accuracy"`` as without a metric.
    loss : str or None, default=None
        As :func:`evaluate` takes it.
    pos_label : str, int, float or None, default=None
        The positive class of a metric about one class (``"f1"``); refused
        before any fit without such a metric, and for regressors.
    confidence_level : float, default=0.95
        The level of every interval, the decision's included, strictly
        between 0 and 1.
    nested : {"auto", "always", "never"}, default="auto"
        The calibrated refitting route. ``"auto"``, when the decision from
        the folds cannot tell, weighs the routes the benchmark measured
        within the limit for these learners at about this size: nested
        cross-validation's difference interval (for accuracy or a
        regressor's loss; not for a set-level or score metric such as
        balanced accuracy, F1 or ROC AUC) and the cross-validation again on
        more repeats than ``n_repeats`` (the corrected t); it runs the one
        with the most measured power on the power cells they share (the
        fewer fits on a tie; nested cross-validation first where they share
        none) that the budget allows. ``"always"`` runs nested
        cross-validation; ``"never"`` runs no route.
    budget : int, str or None, default=None
        The most fits the call may run: a number, or a multiple of one
        10-fold cross-validation of both learners (20 fits) such as
        ``"10x"``; None sets no limit. Below what the cross-validation needs
        (with ``nested="always"``, the cross-validation and nested
        cross-validation) it is refused before any fit; 5x2cv and then the
        route run only within it (the report's notes then say what the more
        powerful route would cost).
    names : tuple of str or None, default=None
        The learners' names; None takes them from the records.
    %(n_jobs)s
    random_state : int, RandomState or None, default=None
        Seeds the partitions, 5x2cv, nested cross-validation and the
        learners: every ``random_state`` parameter of A or B that is None
        (``get_params(deep=True)``: a pipeline's or meta-estimator's
        included) is set, on a clone, to an int drawn from it (one stream
        per learner, so A's seed differs from B's), the same in every fit
        of the call, so that a rerun gives the same answer for any
        ``n_jobs``; the report's notes name the seeds. A learner's own seed
        is kept, and randomness not held in a ``random_state`` parameter is
        not seeded. None seeds nothing.
    verbose : int or bool, default=0
        Say the plan (fits per stage and their multiple of one 10-fold
        cross-validation) before fitting, and show progress on standard
        error.
    params : dict or None, default=None
        Fit parameters for the cross-validation's fits of both learners, as
        scikit-learn's ``cross_validate(params=...)`` takes them (see
        :meth:`CVEvaluator.evaluate`); ``sample_weight`` is refused. 5x2cv
        and nested cross-validation, which do not take them, are then left
        out (a note says so).
    season : int or None, default=None
        Forward validation only: each learner's baseline is then the
        seasonal naive forecast of this period, not the naive one.
    margin : float or None, default=None
        Ask whether A is no worse than B by this much (in the metric's
        units; for a loss, an increase), not whether either is better: the
        decision answers "A non-inferior" or "not shown non-inferior" (with
        ``alternative="equivalent"``, "equivalent" or "not shown
        equivalent"), from the same test, as :func:`decide` does. The route
        run when the decision cannot tell is chosen as for a difference. A
        margin no difference of the metric can reach (1 or more for
        accuracy, whose values lie in [0, 1]) is refused before any fit.
    alternative : {"difference", "non-inferior", "equivalent"} or None, default=None
        As :func:`decide` takes it; None: ``"non-inferior"`` with a margin.

    Returns
    -------
    Comparison

    See Also
    --------
    evaluate : one learner.
    decide : the decision from records already made.

    Notes
    -----
    The tests are Wong's (2015, Theorems 2 and 3), McNemar's, the corrected
    repeated k-fold t (Nadeau & Bengio 2003; Bouckaert & Frank 2004) and
    Dietterich's (1998) 5x2cv t; the decision's rule is :func:`decide`'s.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> import cvinference as cvi
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> comparison = cvi.compare(make_pipeline(StandardScaler(), LogisticRegression()),
    ...                          DecisionTreeClassifier(random_state=0), X, y, random_state=0)
    >>> comparison.decision.answer, comparison.decision.rests_on.name
    ('A better', 'nested-cv difference')
    >>> comparison.fits
    190
    """
    return run_comparison(estimator_a, estimator_b, X, y, cv=cv, n_repeats=n_repeats, groups=groups, metric=metric,
                          loss=loss, pos_label=pos_label, confidence_level=confidence_level, nested=nested,
                          budget=budget, names=names, n_jobs=n_jobs, random_state=random_state, verbose=verbose,
                          params=params, season=season, margin=margin, alternative=alternative)
