"""``evaluate``: one learner's honest answer in one call."""

import dataclasses

from .._utils._describe import estimator_description
from .._utils._docstring import fill_doc
from .._utils._params import (
    NAME,
    PROBABILITY,
    VERBOSE,
    ClassLabel,
    Integer,
    Jobs,
    Nullable,
    Seed,
    validate_params,
)
from ..evaluation._fit_params import FitParams
from ..evaluation._forward import is_forward_splitter
from ..policy import Plan, RecordChecks, assess_record
from ..policy._budget import Budget, budget_fits, budget_words, in_units
from ..policy._design import planned_folds
from ..policy._plan import evaluation_plan
from ..records import CVResult, ForwardResult
from ._answer import Answer, Words, by_quantity, recommended
from ._class_folds import check_classes_in_folds
from ._forward import check_forward_options, check_season, forward_evaluation
from ._records import PAIRS, check_record_call, record_evaluation
from ._settings import (
    FrontDoorCV,
    check_metric_names,
    check_pos_label,
    default_loss,
    evaluator,
    is_regression,
    metric_list,
    say,
    seeded,
)


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class Evaluation(Answer):
    """One learner cross-validated, with every interval and its baseline: what ``cvinference evaluate`` prints.

    Made by :func:`evaluate`. Its objects are held once; :meth:`to_dict`
    (the command line's ``--json``), :meth:`summary`, HTML and
    :meth:`plot` are the report built from them.

    Attributes
    ----------
    result : CVResult or ForwardResult
        The record: every instance's fold, prediction, loss (and scores and
        groups when kept); with a forward splitter, every forecast's origin,
        horizon, prediction and loss.
    rows : tuple of list of NamedInterval
        The learner's intervals as the report's rows (one list):
        :func:`~cvinference.policy.record_intervals` of the record.
    words : Words
        How the report words them: the learner's description, the data's
        name, the level, the metrics and the notes of the call.
    fits : int
        The models fitted (0 for a record passed in).
    budget : int or None
        The fits the call was allowed, None without a limit.
    checks : RecordChecks
        What the report shows beside the intervals, computed once with them
        (:func:`~cvinference.policy.record_checks`): the baseline test, the
        large-sample conditions, the metrics' fold values and, for forward
        validation, the results per horizon.
    plan : Plan or None
        The plan it ran, made before its fits: what :func:`~cvinference.plan`
        gives with the learner and the same arguments (``n_samples`` the
        rows of ``X``): its folds, repeats and fits, and the half-width its
        recommended interval was expected to have; None for a record passed
        in and for forward validation.
    """

    result: CVResult | ForwardResult
    rows: tuple
    words: Words
    fits: int
    budget: int | None
    checks: RecordChecks
    plan: Plan | None = None

    @property
    def baseline(self):
        """The test that the learner beats its trivial baseline (the no-information rate, the training mean's loss,
        the naive forecast), or None where it has none."""
        return self.checks.baseline

    @property
    def horizons(self):
        """Forward validation's recommended interval of the mean loss per horizon (a read-only mapping of horizon
        to Interval, None where a horizon has too few forecasts); None for cross-validation."""
        return self.checks.horizons

    @property
    def intervals(self):
        """Every interval the report shows, by quantity then method (read-only mappings of str to Interval):
        ``evaluation.intervals["accuracy"]["wilson"]``; the one to quote is named by :attr:`recommended`."""
        return by_quantity(self.rows[0])

    @property
    def recommended(self):
        """``(quantity, method)`` of the interval to quote, the report's first row: for a classifier the one
        ``method="auto"`` chose from the calibration evidence, as its notes say (``("accuracy", "wilson")``)."""
        return recommended(self.rows[0])

    def __repr__(self):
        result = self.result
        figure = (f"accuracy={result.accuracy:.4f}" if getattr(result, "classes", None) is not None
                  else f"mean_loss={result.mean_loss:.4g}")
        return f"Evaluation({figure}, fits={self.fits})"


def _notes(seeding):
    return () if seeding is None else (seeding,)


def run_evaluation(estimator, X, y, *, cv=10, n_repeats=1, groups=None, metric=None, loss=None, pos_label=None,
                   confidence_level=0.95, budget=None, name=None, n_jobs=None, random_state=None, verbose=0,
                   description=None, data=None, params=None, season=None):
    """:func:`evaluate` with the command line's wording: ``description`` names the learner in the report and
    ``data`` is its ``{"name", "n_samples", ...}``."""
    metrics = metric_list(metric)
    regression = is_regression(estimator)
    loss = default_loss(loss, regression)
    check_season(season, cv)
    if description is None:
        description = estimator_description(estimator)
        description = description if name is None else f"{name}: {description}"
    learner = name if name is not None else estimator_description(estimator)  # the plan's name, before seeding
    (estimator,), seeding = seeded((estimator,), random_state, [None])
    words = Words((description,), data, confidence_level, tuple(metrics), pos_label)
    if is_forward_splitter(cv):
        check_forward_options(cv, regression=regression, n_repeats=n_repeats, groups=groups, metrics=metrics,
                              loss=loss, pos_label=pos_label)
        found = forward_evaluation(
            estimator, X, y, cv=cv, loss=loss, confidence_level=confidence_level, budget=budget, name=name,
            n_jobs=n_jobs, random_state=random_state, verbose=verbose, description=description, params=params,
            season=season)
        return Evaluation(**found, words=words._replace(season=season, notes=_notes(seeding)))
    check_metric_names(metrics, regression)
    check_pos_label(pos_label, metrics, regression)
    folds = planned_folds(cv, len(y), groups=groups, n_repeats=n_repeats, regression=regression, X=X, y=y,
                          random_state=random_state)
    plan = evaluation_plan(estimator, len(y), folds, n_repeats=n_repeats, regression=regression, loss=loss,
                           budget=budget, confidence_level=confidence_level, name=learner)
    cv, planned, allowed = folds.folds, plan.fits, budget_fits(budget, 1)
    if not regression:
        random_state = check_classes_in_folds(metrics, cv, X, y, groups, n_repeats=n_repeats,
                                              random_state=random_state)
    say(verbose, f"fitting {description} on {n_repeats} x {cv} folds ({planned:,} fits, "
                 f"{in_units(planned, 1)}; {budget_words(allowed)})")
    result = evaluator(cv, n_repeats=n_repeats, loss=loss, metrics=metrics, n_jobs=n_jobs, random_state=random_state,
                       verbose=verbose).evaluate(estimator, X, y, groups, name=name, params=params)
    found = assess_record(result, confidence_level, metrics=metrics, pos_label=pos_label)
    return Evaluation(result=result, rows=(found.intervals,), words=words._replace(notes=_notes(seeding)),
                      fits=planned, budget=allowed, checks=found.checks,
                      plan=plan)


@fill_doc
@validate_params(cv=FrontDoorCV(), n_repeats=Integer(minimum=1), pos_label=Nullable(ClassLabel()),
                 confidence_level=PROBABILITY, budget=Budget(), name=NAME, n_jobs=Jobs(), random_state=Seed(),
                 verbose=VERBOSE, params=FitParams(), season=Nullable(Integer(minimum=1)))
def evaluate(estimator, X=None, y=None, *, cv=10, n_repeats=1, groups=None, metric=None, loss=None, pos_label=None,
             confidence_level=0.95, budget=None, name=None, n_jobs=None, random_state=None, verbose=0, params=None,
             season=None):
    """How good is this learner, and how sure are we: cross-validate it and give every honest interval.

    The front door for one learner: it runs what ``cvinference evaluate``
    runs (the record, the intervals, Wong's large-sample conditions and the
    trivial baseline) and returns them in one object whose ``summary()``
    is what the command line prints.

    Given a record already made (a :class:`~cvinference.records.CVResult`
    or :class:`~cvinference.records.ForwardResult`, without ``X`` and
    ``y``), it fits nothing and answers from the record: the same
    intervals and baseline (``fits`` 0), worded as the record's
    ``summary()``, which is this answer's. Only ``confidence_level``,
    ``metric``, ``pos_label``, ``season`` and ``random_state`` (which seeds
    a forward record's block bootstrap) apply then; a setting of the fits
    is refused.

    Parameters
    ----------
    estimator : estimator, CVResult or ForwardResult
        A scikit-learn classifier or regressor (cloned, never fitted in
        place), or a record of its fits already made.
    X : array-like of shape (n_samples, n_features) or None, default=None
        The features (numpy, lists or a pandas DataFrame); None with a
        record.
    y : array-like of shape (n_samples,) or None, default=None
        The target: class labels, or numbers for a regressor; None with a
        record.
    cv : int, "loo" or cross-validation splitter, default=10
        As :class:`~cvinference.CVEvaluator` takes it: an int k is
        stratified equal-size k-fold for a classifier (its group form with
        ``groups``); k equal to the number of instances is leave-one-out. A
        forward splitter (:class:`~cvinference.splitters.ForwardSplit`,
        scikit-learn's ``TimeSeriesSplit``) evaluates a regressor's forecasts
        of the rows after each origin (rows in time order): the record is a
        :class:`~cvinference.records.ForwardResult`, the intervals those of
        :func:`~cvinference.inference.forecast_interval` and the baseline
        the naive forecast (docs/forward-validation.md). A numpy integer is
        taken as an int; a float (``5.0``) and None are refused before any
        fit (scikit-learn reads ``cv=None`` as 5 folds, and the default here
        is 10: pass the number).
    n_repeats : int, default=1
        Partitions drawn; repeats are not independent (Wong 2015, 4.3.4).
        One learner's intervals count the N instances and the K folds once
        however many repeats pool, so more repeats cost fits without
        narrowing them: one is the default here, where :func:`compare` and
        :func:`plan`, whose corrected t does gain from repeats, plan theirs
        (``"auto"``).
    groups : array-like of shape (n_samples,) or None, default=None
        Each instance's group: whole groups go to one test fold and the
        intervals take groups as the independent units.
    metric : str, callable, list of them or None, default=None
        Set-level metrics to give fold-level intervals of, as
        :func:`~cvinference.metric_interval` takes them (``"f1"``,
        ``"roc_auc"``, ...); the scores they need are kept.
    loss : str or None, default=None
        The per-instance loss recorded: None is ``"zero_one"`` for a
        classifier and ``"squared_error"`` for a regressor.
    pos_label : str, int, float or None, default=None
        The positive class of a metric about one class (``"f1"``); refused
        before any fit without such a metric, and for a regressor.
    confidence_level : float, default=0.95
        The level of every interval, strictly between 0 and 1.
    budget : int, str or None, default=None
        The most fits the call may run: a number, or a multiple of one
        10-fold cross-validation such as ``"3x"``; None sets no limit. A
        budget below what the cross-validation needs is refused before any
        fit.
    name : str or None, default=None
        The learner's name in the record.
    %(n_jobs)s
    random_state : int, RandomState or None, default=None
        Seeds the partitions and the learner: every ``random_state``
        parameter of the learner that is None (``get_params(deep=True)``:
        a pipeline's or meta-estimator's included) is set, on a clone, to an
        int drawn from it, the same in every fit, so that a rerun gives the
        same answer for any ``n_jobs``; the report's notes name the seeds. A
        learner's own seed is kept, and randomness not held in a
        ``random_state`` parameter (numpy's global generator called
        directly) is not seeded. None seeds nothing.
    verbose : int or bool, default=0
        Say the plan (fits, and their multiple of one 10-fold
        cross-validation) before fitting, and show progress on standard
        error.
    params : dict or None, default=None
        Fit parameters for every fit, as scikit-learn's
        ``cross_validate(params=...)`` takes them (see
        :meth:`CVEvaluator.evaluate`); ``sample_weight`` is refused.
    season : int or None, default=None
        Forward validation only: the baseline is then the seasonal naive
        forecast of this period (12 for monthly data with a yearly
        season), not the naive one.

    Returns
    -------
    Evaluation

    See Also
    --------
    compare : two learners and the decision between them.
    cross_val_correctness : the record alone.

    Notes
    -----
    The intervals are those of :func:`~cvinference.accuracy_interval` (Wong
    2015, Theorem 1 and section 4.3.3; Wilson; Clopper-Pearson; the
    recommended one chosen by ``method="auto"`` from the calibration
    evidence), :func:`~cvinference.loss_interval` (Nedel'ko 2021) and,
    for a regressor, the CV-CLT of Bayle et al. (2020); each cites its
    source in its own documentation. With a forward splitter they are
    :func:`~cvinference.inference.forecast_interval`'s (Andrews & Monahan
    1992; Newey & West 1987; Künsch 1989), over every forecast and per
    horizon, and the naive forecast is beaten when Diebold & Mariano's
    (1995) one-sided test says so.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> import cvinference as cvi
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> evaluation = cvi.evaluate(GaussianNB(), X, y, random_state=0)
    >>> evaluation.fits
    10
    >>> round(evaluation.result.accuracy, 4)
    0.9385
    >>> quantity, method = evaluation.recommended
    >>> evaluation.intervals[quantity][method].target
    'kfold'
    >>> again = cvi.evaluate(evaluation.result)  # the record: no fit
    >>> again.fits, again.summary() == evaluation.result.summary()
    (0, True)
    """
    if X is None and y is None:
        settings = dict(cv=cv, n_repeats=n_repeats, groups=groups, metric=metric, loss=loss, pos_label=pos_label,
                        confidence_level=confidence_level, budget=budget, name=name, n_jobs=n_jobs,
                        random_state=random_state, verbose=verbose, params=params, season=season)
        check_record_call(evaluate, estimator, settings, "X and y", PAIRS)
        return Evaluation(**record_evaluation(estimator, confidence_level=confidence_level, metric=metric,
                                              pos_label=pos_label, season=season, random_state=random_state))
    return run_evaluation(estimator, X, y, cv=cv, n_repeats=n_repeats, groups=groups, metric=metric, loss=loss,
                          pos_label=pos_label, confidence_level=confidence_level, budget=budget, name=name,
                          n_jobs=n_jobs, random_state=random_state, verbose=verbose, params=params, season=season)
