"""``compare``: is A better than B, answered in one call, the calibrated route run when the decision needs it."""

import dataclasses
from types import MappingProxyType
from typing import NamedTuple

from .._utils._describe import estimator_description
from .._utils._docstring import fill_doc
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
from ..inference import Interval
from ..policy import Decision, Plan, assess_pair, comparison_decision, comparison_tests
from ..policy._budget import Budget, budget_fits, budget_words, in_units
from ..policy._decision import MARGIN, margin_question
from ..policy._design import DEFAULT_REPEATS
from ..policy._margin import MARGIN_ALTERNATIVES, check_margin
from ..policy._plan import comparison_plan
from ..policy._routes import FIVE_BY_TWO_FITS, NESTED_SETTINGS, compared_on_power
from ..records import PairedCVResult, PairedForwardResult
from ._answer import Answer, Words, by_quantity, recommended
from ._class_folds import check_classes_in_folds
from ._forward import check_forward_options, check_season, forward_comparison
from ._records import RECORDS, check_record_call, pair_comparison
from ._settings import (
    FrontDoorCV,
    check_metric_names,
    check_pos_label,
    decision_metric,
    default_loss,
    evaluator,
    is_regression,
    metric_list,
    say,
    seeded,
)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class Comparison(Answer):
    """Two learners on identical folds, every test, and the one decision: what ``cvinference compare`` prints.

    Made by :func:`compare`. Its objects are held once; :meth:`to_dict`
    (the command line's ``--json``), :meth:`summary`, HTML and
    :meth:`plot` are the report built from them.

    Attributes
    ----------
    pair : PairedCVResult or PairedForwardResult
        Both learners' records on identical folds (with a forward splitter,
        their forecasts from identical origins).
    rows : tuple of list of NamedInterval
        A's and B's intervals as the report's rows
        (:func:`~cvinference.policy.record_intervals`).
    test_rows : tuple of (str, TestResult)
        Every test of the difference as the report's rows, by their names
        (Wong's tests, McNemar, the corrected t, 5x2cv; for regressors the
        loss tests; for forecasts Diebold & Mariano's and Giacomini &
        White's); :attr:`tests` keys them by method.
    nested : Interval or None
        Nested cross-validation's interval of the difference (Bates, Hastie
        & Tibshirani 2023), when it ran.
    decision : Decision
        The answer, the one test it rests on, the others and why not.
    words : Words
        How the report words them: the learners' descriptions, the data's
        name, the level, the metrics and the notes of the call.
    fits : int
        The models fitted (0 for a pair passed in).
    budget : int or None
        The fits the call was allowed, None without a limit.
    plan : Plan or None
        The plan it ran, made before its fits: what :func:`~cvinference.plan`
        gives with the same arguments (its design, the fits of each stage and
        its minimum detectable difference); None for forward validation.
    checks : tuple of RecordChecks
        A's and B's :func:`~cvinference.policy.record_checks`, computed once
        with the intervals: each learner's baseline test (:attr:`baselines`),
        large-sample conditions, metrics' fold values and forward results
        per horizon.
    diagnostic : SchemeDiagnostic or None
        Two classifiers' scheme independence (the phi correlation of their
        correctness, repeat 0), else None.
    horizons : mapping of int to LossDifferenceTestResult or None, or None
        Forward validation's test of the difference per horizon (the one the
        decision rests on, two-sided; None where a horizon has too few
        forecasts); None for cross-validation.
    """

    pair: PairedCVResult | PairedForwardResult
    rows: tuple
    test_rows: tuple
    nested: Interval | None
    decision: Decision
    words: Words
    fits: int
    budget: int | None
    plan: Plan | None
    checks: tuple
    diagnostic: object
    horizons: object

    @property
    def baselines(self):
        """``{"A": test, "B": test}``: the test that each learner beats its trivial baseline (the no-information
        rate, the training mean's loss, the naive forecast), None where it has none."""
        return MappingProxyType({label: checks.baseline for label, checks in zip("AB", self.checks, strict=True)})

    @property
    def tests(self):
        """Every test of the difference by its ``method`` (a read-only mapping of str to TestResult), in the
        report's order: ``comparison.tests[cvi.mcnemar_test(pair).method]``."""
        found = {}
        for _, test in self.test_rows:
            found.setdefault(test.method, test)
        return MappingProxyType(found)

    @property
    def intervals(self):
        """``{"A": {quantity: {method: Interval}}, "B": ...}``: every interval of each learner the report shows,
        by quantity then method (read-only mappings): ``comparison.intervals["B"]["accuracy"]["wilson"]``."""
        return MappingProxyType({label: by_quantity(rows) for label, rows in zip("AB", self.rows, strict=True)})

    @property
    def recommended(self):
        """``{"A": (quantity, method), "B": ...}``: each learner's interval to quote (``method="auto"`` may choose
        differently for each)."""
        return MappingProxyType({label: recommended(rows) for label, rows in zip("AB", self.rows, strict=True)})

    def __repr__(self):
        return f"Comparison(answer={self.decision.answer!r}, metric={self.decision.metric!r}, fits={self.fits})"


def decision_of(pair, tests, metric, confidence_level, pos_label=None):
    return comparison_decision(pair, tests, confidence_level=confidence_level, metrics=[metric], pos_label=pos_label)


def _reusable(pair, design):
    """``pair`` when its folds are nested cross-validation's (K folds, at least R repeats, its loss), else None: its
    first R partitions and their fits are then nested CV's outer ones."""
    return pair if design.reuse else None


def _left_out_words(best, chosen, budget, allowed, fits, metric):
    """The note of a budget that left out the most powerful route (``chosen``: the route it ran instead, or None)."""
    what = _route_words(best)
    spent = fits - (chosen.fits if chosen is not None else 0)
    if chosen is None:
        needed = "which the decision needed" if best.repeats is None else f"that the decision on {metric} needed"
        return (f"budget={budget!r} ({allowed:,} fits) left out {what} ({best.fits:,} fits), {needed}: {fits:,} fits "
                f"were spent, so a budget of {fits + best.fits:,} runs it.")
    why = ("the calibrated route with more measured power" if compared_on_power(best, chosen)
           else "the calibrated route the rule puts first, their power not measured on shared cells")
    return (f"budget={budget!r} ({allowed:,} fits) ran {chosen.describe()} ({chosen.fits:,} fits) instead of {what} "
            f"({best.fits:,} fits), {why}: a budget of {spent + best.fits:,} runs it.")


def _route_words(route):
    return "nested cross-validation" if route.repeats is None else (
        f"the {route.repeats} x {route.n_splits}-fold cross-validation")


def _say_plan(verbose, design, allowed, cv):
    """The plan's progress lines, before any fit."""
    plain, route = design.cv_fits, design.route
    say(verbose, f"plan: at most {design.most_fits:,} fits ({in_units(design.most_fits, 2)}; "
                 f"{budget_words(allowed)}): {plain:,} for the cross-validation"
        + (f", {design.five_by_two_fits} for 5x2cv" if design.five_by_two_fits else "")
        + (f", {route.fits} for {_route_words(route)}" + ("" if design.always else " if the decision needs it")
           if route is not None else ""))
    say(verbose, f"fitting A and B on {design.n_repeats} x {cv} identical folds ({plain:,} fits)")


class _Call(NamedTuple):
    """What a comparison's stages share: its learners, data, settings and plan."""

    estimators: tuple
    X: object
    y: object
    groups: object
    folds: object
    cv: object
    metrics: list
    metric: object
    loss: str
    regression: bool
    names: object
    params: object
    confidence_level: float
    pos_label: object
    random_state: object
    n_jobs: object
    verbose: object
    design: object
    allowed: object
    budget: object


def _cross_validate(call, n_repeats):
    """Both learners on ``n_repeats`` partitions of identical folds."""
    return evaluator(call.folds, n_repeats=n_repeats, loss=call.loss, metrics=call.metrics, n_jobs=call.n_jobs,
                     random_state=call.random_state, verbose=call.verbose).compare(
        *call.estimators, call.X, call.y, call.groups, names=call.names, params=call.params)


def _fit_folds(call):
    """The cross-validation and 5x2cv the plan runs whatever the decision: the pair, the extra tests, the fits."""
    pair = _cross_validate(call, call.design.n_repeats)
    extra = []
    if call.design.five_by_two_fits:
        say(call.verbose, f"fitting A and B for 5x2cv ({FIVE_BY_TWO_FITS} fits)")
        extra.append(("5x2cv t", paired_ttest_5x2cv(*call.estimators, call.X, call.y, groups=call.groups,
                                                    random_state=call.random_state, n_jobs=call.n_jobs)))
    return pair, extra, call.design.cv_fits + call.design.five_by_two_fits


def _run_route(call, pair, extra, fits, notes):
    """The plan's route, run when nested cross-validation was asked for or the decision from the folds cannot tell:
    (pair, tests, nested interval, fits)."""
    design, verbose = call.design, call.verbose
    tests = comparison_tests(pair, extra_tests=extra)
    route = design.route
    cannot_tell = not design.always and (design.best is not None) and decision_of(
        pair, tests if pair.a.classes is not None else [], call.metric, call.confidence_level,
        call.pos_label).answer == "cannot tell"
    if not (design.always or cannot_tell):
        return pair, tests, None, fits
    interval = None
    if route is not None and route.repeats is None:
        reused = _reusable(pair, design)
        say(verbose, f"fitting A and B for nested cross-validation ({NESTED_SETTINGS['n_repeats']} x "
                     f"{NESTED_SETTINGS['n_splits']} folds, {route.fits} fits"
                     f"{'' if reused is None else '; the outer fits are those of the folds above'})")
        interval = nested_cv_interval(call.estimators[0], call.X, call.y, estimator_b=call.estimators[1],
                                      groups=call.groups, confidence_level=call.confidence_level,
                                      random_state=call.random_state, n_jobs=call.n_jobs, verbose=int(verbose),
                                      cv_result=reused, **({"loss": call.loss} if call.regression else {}),
                                      **NESTED_SETTINGS)
    elif route is not None:
        say(verbose, f"fitting A and B on {route.repeats} x {call.cv} identical folds ({route.fits:,} fits): the "
                     f"decision on {call.metric} rests on the corrected t on {route.repeats} repeats, the calibrated "
                     "route with the most measured power within the budget")
        pair = _cross_validate(call, route.repeats)
        tests = comparison_tests(pair, extra_tests=extra)
    fits += 0 if route is None else route.fits
    if cannot_tell and design.best != route:
        notes.append(_left_out_words(design.best, route, call.budget, call.allowed, fits, call.metric))
        say(verbose, notes[-1])
    return pair, tests, interval, fits


def run_comparison(estimator_a, estimator_b, X, y, *, cv=10, n_repeats=DEFAULT_REPEATS, groups=None, metric=None,
                   loss=None, pos_label=None, confidence_level=0.95, nested="auto", budget=None, names=None,
                   n_jobs=None, random_state=None, verbose=0, descriptions=None, data=None, params=None, season=None,
                   margin=None, question=None):
    """:func:`compare` with the command line's wording: ``descriptions`` name the learners in the report and
    ``data`` is its ``{"name", "n_samples", ...}``."""
    metrics = metric_list(metric)
    metric = decision_metric(metrics)
    regression = is_regression(estimator_a)
    loss = default_loss(loss, regression)
    check_season(season, cv)
    question = margin_question(margin, question)
    check_margin(margin, metric, regression=regression or is_forward_splitter(cv))
    estimators = (estimator_a, estimator_b)
    if descriptions is None:
        descriptions = tuple(estimator_description(e) if name is None else f"{name}: {estimator_description(e)}"
                             for e, name in zip(estimators, names or (None, None), strict=True))
    seeded_estimators, seeding = seeded(estimators, random_state, "AB")
    words = Words(tuple(descriptions), data, confidence_level, tuple(metrics), pos_label, names)
    if is_forward_splitter(cv):
        check_forward_options(cv, regression=regression, n_repeats=n_repeats, groups=groups, metrics=metrics,
                              loss=loss, pos_label=pos_label, nested=nested)
        notes = [f"n_repeats='auto': cv={cv!r} is forward validation, whose origins are the same every time; 1 "
                 "repeat was run."] if n_repeats == "auto" else []
        found, left_out = forward_comparison(
            seeded_estimators, X, y, cv=cv, loss=loss, metrics=metrics, confidence_level=confidence_level,
            budget=budget, names=names, n_jobs=n_jobs, random_state=random_state, verbose=verbose, params=params,
            season=season, margin=margin, question=question)
        return Comparison(plan=None, **found, words=words._replace(
            season=season, left_out=tuple(left_out), notes=(*notes, seeding) if seeding else tuple(notes)))
    check_metric_names(metrics, regression)
    check_pos_label(pos_label, metrics, regression)
    design, planned_comparison = comparison_plan(
        *estimators, len(y), metric=metric, cv=cv, groups=groups, X=X, y=y, random_state=random_state,
        n_repeats=n_repeats, loss=loss, nested=nested, budget=budget, params=params,
        confidence_level=confidence_level, margin=margin, question=question, names=names)
    allowed = budget_fits(budget, 2)
    if not regression:
        random_state = check_classes_in_folds(metrics, design.folds.folds, X, y, groups, n_repeats=design.n_repeats,
                                              random_state=random_state)
    _say_plan(verbose, design, allowed, cv)
    call = _Call(seeded_estimators, X, y, groups, design.folds.folds, cv, metrics, metric, loss, regression, names,
                 params, confidence_level, pos_label, random_state, n_jobs, verbose, design, allowed, budget)
    notes = list(design.notes)
    pair, tests, interval, fits = _run_route(call, *_fit_folds(call), notes)
    found = assess_pair(pair, confidence_level, metrics=metrics, pos_label=pos_label, tests=tests, nested=interval,
                        names=names, margin=margin, question=question)
    return Comparison(pair=pair, rows=found.intervals, test_rows=tuple(found.tests), nested=interval,
                      decision=found.decision, words=words._replace(notes=(*notes, *([seeding] if seeding else []))),
                      fits=fits, budget=allowed, plan=planned_comparison, checks=found.checks,
                      diagnostic=found.diagnostic, horizons=found.horizons)


@fill_doc
@validate_params(cv=FrontDoorCV(), n_repeats=IntegerOrWord(1, "auto"), pos_label=Nullable(ClassLabel()),
                 confidence_level=PROBABILITY,
                 nested=Options("auto", "always", "never"), budget=Budget(), names=NAMES, n_jobs=Jobs(),
                 random_state=Seed(), verbose=VERBOSE, params=FitParams(), season=Nullable(Integer(minimum=1)),
                 margin=Nullable(MARGIN), question=Nullable(Options("difference", *MARGIN_ALTERNATIVES)))
def compare(estimator_a, estimator_b=None, X=None, y=None, *, cv=10, n_repeats=DEFAULT_REPEATS, groups=None,
            metric=None, loss=None, pos_label=None, confidence_level=0.95, nested="auto", budget=None, names=None,
            n_jobs=None, random_state=None, verbose=0, params=None, season=None, margin=None, question=None):
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
    rests on its result. The design it runs is the plan
    :func:`plan` gives with the same arguments (folds, repeats, the fits of
    each stage and the minimum detectable difference), made before any fit
    and kept as ``comparison.plan``. The returned object's ``summary()`` is
    what the command line prints.

    Given a pair of records already made (a
    :class:`~cvinference.records.PairedCVResult` or
    :class:`~cvinference.records.PairedForwardResult`, alone), it fits
    nothing and answers from the pair: the same intervals, tests and
    decision (``fits`` 0, no plan, no nested cross-validation), worded as
    the pair's ``summary()``, which is this answer's. Only
    ``confidence_level``, ``metric``, ``pos_label``, ``names``, ``margin``,
    ``question``, ``season`` and ``random_state`` (which seeds a forward
    pair's block bootstrap) apply then; a setting of the fits is refused.

    Parameters
    ----------
    estimator_a : estimator, PairedCVResult or PairedForwardResult
        A scikit-learn classifier (or regressor), cloned, never fitted in
        place; or a pair of records of both learners' fits already made.
    estimator_b : estimator or None, default=None
        The other classifier (or regressor), like A; None with a pair.
    X : array-like of shape (n_samples, n_features) or None, default=None
        The features (numpy, lists or a pandas DataFrame); None with a pair.
    y : array-like of shape (n_samples,) or None, default=None
        The target: class labels, or numbers for a regressor; None with a
        pair.
    cv : int, "loo" or cross-validation splitter, default=10
        As :func:`evaluate` takes it. With a forward splitter both
        regressors forecast from identical origins, and the decision rests
        on Diebold & Mariano's test over every forecast, the one the forward
        calibration measured holding (no nested cross-validation, no 5x2cv).
    n_repeats : int or "auto", default="auto"
        Partitions drawn; the corrected t uses them all. ``"auto"`` plans
        them before any fit: the number of repeats R at which the benchmark
        measured the corrected t within the limit for these learners at
        about this size with the most measured power that the budget allows
        (the fewer fits on a tie; 1 where none was measured holding). The
        plan reads the learners' types, the size, the metric, the budget
        and the evidence, never the data, so it spends no test's level; the
        report's notes say what it planned and why. It is the default, as
        :func:`plan`'s, because where the corrected t on one repeat was not
        measured holding one repeat cannot settle the decision, and the
        comparison would refit on the calibrated repeats anyway: over the
        180 pairs of eight learner classes and sizes 100 to 10,000
        (``benchmarks/repeats_default.py``), "auto" plans more than one
        repeat in 34, each with a smaller minimum detectable difference
        (0.69 times one repeat's, on average) and fewer fits (208 on
        average) than one repeat followed by its route (225); elsewhere it
        plans 1.
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
        ``question="equivalent"``, "equivalent" or "not shown
        equivalent"), from the same test, as :func:`decide` does. The route
        run when the decision cannot tell is chosen as for a difference. A
        margin no difference of the metric can reach (1 or more for
        accuracy, whose values lie in [0, 1]) is refused before any fit.
    question : {"difference", "non-inferior", "equivalent"} or None, default=None
        The decision's question, as :func:`decide` takes it; None:
        ``"non-inferior"`` with a margin, else ``"difference"``.

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
    if estimator_b is not None or X is not None or y is not None:
        return run_comparison(estimator_a, estimator_b, X, y, cv=cv, n_repeats=n_repeats, groups=groups,
                              metric=metric, loss=loss, pos_label=pos_label, confidence_level=confidence_level,
                              nested=nested, budget=budget, names=names, n_jobs=n_jobs, random_state=random_state,
                              verbose=verbose, params=params, season=season, margin=margin, question=question)
    settings = dict(cv=cv, n_repeats=n_repeats, groups=groups, metric=metric, loss=loss, pos_label=pos_label,
                    confidence_level=confidence_level, nested=nested, budget=budget, names=names, n_jobs=n_jobs,
                    random_state=random_state, verbose=verbose, params=params, season=season, margin=margin,
                    question=question)
    check_record_call(compare, estimator_a, settings, "estimator_b, X and y", RECORDS)  # a pair: no fit
    return Comparison(**pair_comparison(estimator_a, confidence_level=confidence_level, metric=metric,
                                        pos_label=pos_label, names=names, margin=margin, question=question,
                                        season=season, random_state=random_state))
