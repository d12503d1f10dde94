"""``evaluate`` and ``compare`` with a forward splitter: the forecasts' records, their intervals beside the naive
forecast, the tests per horizon and the decision, in the front door's objects."""


from ..evaluation import CVEvaluator
from ..evaluation._forward import is_forward_splitter
from ..policy import assess_pair, assess_record
from ..policy._budget import budget_fits, budget_words, check_budget, in_units
from ..policy._decision import forward_metrics
from ._settings import REGRESSION_LOSSES, decision_metric, say


def check_season(season, cv):
    """Refuse ``season`` without forward validation: the seasonal naive forecast is its baseline."""
    if season is not None and not is_forward_splitter(cv):
        raise ValueError(f"season={season} sets the seasonal naive forecast, the baseline of forward validation, and "
                         f"cv={cv!r} is not forward validation; pass cv=ForwardSplit(...) or drop season.")


def answered_metrics(loss):
    """The metrics a forward decision answers for, a user may name: the forecast ``loss`` and scikit-learn's scorer
    of it (policy's :func:`~cvinference.policy._decision.forward_metrics` without ``decide``'s default, "accuracy",
    which no forecast has).

    Examples
    --------
    >>> answered_metrics("squared_error")
    ('squared_error', 'neg_mean_squared_error')
    """
    default = decision_metric(())
    return tuple(metric for metric in forward_metrics(loss) if metric != default)


def check_forward_options(cv, *, regression, n_repeats, groups, metrics, loss, pos_label, nested="auto"):
    """Refuse, before any fit, what forward validation of a numeric series cannot honour, naming the fix."""
    where = f"cv={cv!r} is forward validation"
    if not regression:
        raise ValueError(f"{where}, which forecasts a numeric series with a regressor; pass a regressor, or cv=K "
                         "for the cross-validation of a classifier.")
    if loss not in REGRESSION_LOSSES:
        raise ValueError(f"loss={loss!r}: {where}, whose forecast losses are {' or '.join(REGRESSION_LOSSES)}; pass "
                         "one of them.")
    if n_repeats not in (1, "auto"):
        raise ValueError(f"n_repeats={n_repeats}: {where}, whose origins are the same every time; pass n_repeats=1.")
    if groups is not None:
        raise ValueError(f"groups: {where}, which orders the rows by time, not by group; pass groups=None (one "
                         "series).")
    unknown = [m for m in metrics if m not in answered_metrics(loss)]
    if unknown:
        raise ValueError(f"metric={unknown[0]!r}: {where}, whose report and decision are about the forecast loss "
                         f"{loss!r} (metric= one of {', '.join(map(repr, answered_metrics(loss)))}); drop metric"
                         + (", or pass loss='absolute_error' for the mean absolute error." if loss == "squared_error"
                            else "."))
    if pos_label is not None:
        raise ValueError(f"pos_label={pos_label!r} names a positive class, and {where} of a numeric series; drop "
                         "pos_label.")
    if nested == "always":
        raise ValueError(f"nested='always': nested cross-validation shuffles the rows, and {where}, whose decision "
                         "rests on Diebold & Mariano's test; pass nested='auto'.")


MIN_FORECASTS = 3
"""The fewest forecasts whose mean loss has an interval that allows for their dependence (``forecast_interval``)."""


_TIME_INDEXES = {"datetime64": "DatetimeIndex", "datetime": "index of dates", "date": "index of dates",
                 "period": "PeriodIndex", "timedelta64": "TimedeltaIndex"}
"""pandas' ``inferred_type`` of the indexes that say when each row was observed, and their names in messages."""


def check_time_order(X, y):
    """Refuse, before any fit, an ``X`` or ``y`` whose pandas index holds times not in increasing order (newest first,
    or shuffled): forward validation takes the rows in their order, oldest first, and would forecast the past from
    the future.

    Examples
    --------
    >>> import pandas as pd
    >>> check_time_order(pd.DataFrame({"x": [1.0, 2.0]}, index=pd.to_datetime(["2021-01-02", "2021-01-01"])), None)
    Traceback (most recent call last):
    ...
    ValueError: X's DatetimeIndex is not in increasing order: row 0 is 2021-01-02 00:00:00 and row 1 ...
    """
    for name, data in (("X", X), ("y", y)):
        index = getattr(data, "index", None)
        kind = _TIME_INDEXES.get(getattr(index, "inferred_type", None))
        if kind is None or index.is_monotonic_increasing:
            continue
        row = next(i for i in range(len(index) - 1) if not index[i] <= index[i + 1])
        raise ValueError(f"{name}'s {kind} is not in increasing order: row {row} is {index[row]} and row {row + 1} "
                         f"{index[row + 1]}. Forward validation takes the rows in their order, oldest first, and "
                         "would forecast the past from the future; sort the rows by time (X.sort_index(), "
                         "y.sort_index()) and pass them again.")


def _check_splits(cv, X, y, season):
    """Refuse, before any fit, rows whose time index is not increasing (:func:`check_time_order`), fewer than
    :data:`MIN_FORECASTS` forecasts, and a season longer than the rows up to the first origin (the seasonal naive
    forecast from it would need rows before the series starts)."""
    check_time_order(X, y)
    splits = list(cv.split(X, y))
    forecasts = sum(test.size for _, test in splits)
    if forecasts < MIN_FORECASTS:
        raise ValueError(f"cv={cv!r} makes {forecasts} forecasts, and an interval of their mean loss that allows for "
                         f"their dependence needs at least {MIN_FORECASTS}; make more origins or a longer horizon.")
    first = splits[0][0].max()
    if season is not None and season > first + 1:
        raise ValueError(f"season={season}: the seasonal naive forecast from the first origin (row {first}) needs "
                         f"{season} rows up to it, and the series has {first + 1}; pass a smaller season, or fewer "
                         "origins or a smaller horizon.")


def _plan(cv, X, y, budget, learners, verbose, what, season):
    """The fits of forward validation (one per origin and learner), within ``budget``; says the plan."""
    _check_splits(cv, X, y, season)
    planned = learners * cv.get_n_splits(X, y)
    allowed = budget_fits(budget, learners)
    check_budget(budget, allowed, planned, what)
    say(verbose, f"fitting {what} at {planned // learners} origins ({planned:,} fits, {in_units(planned, learners)}; "
                 f"{budget_words(allowed)})")
    return planned, allowed


def _evaluator(cv, loss, n_jobs, random_state, verbose):
    return CVEvaluator(cv=cv, loss=loss, n_jobs=n_jobs, random_state=random_state, verbose=int(verbose))


def forward_evaluation(estimator, X, y, *, cv, loss, confidence_level, budget, name, n_jobs, random_state, verbose,
                       description, params, season):
    """:func:`~cvinference.evaluate` with a forward splitter: the ``result``, ``rows``, ``fits`` and ``budget`` of
    its :class:`~cvinference.workflows.Evaluation`."""
    planned, allowed = _plan(cv, X, y, budget, 1, verbose, description, season)
    result = _evaluator(cv, loss, n_jobs, random_state, verbose).evaluate(estimator, X, y, name=name, params=params)
    found = assess_record(result, confidence_level, season=season, random_state=random_state)
    return dict(result=result, rows=(found.intervals,), fits=planned, budget=allowed, checks=found.checks)


def forward_comparison(estimators, X, y, *, cv, loss, metrics, confidence_level, budget, names, n_jobs, random_state,
                       verbose, params, season, margin=None, question=None):
    """:func:`~cvinference.compare` with a forward splitter: the fields of its
    :class:`~cvinference.workflows.Comparison` but its words (no nested cross-validation) and what the assembler
    left out."""
    planned, allowed = _plan(cv, X, y, budget, 2, verbose, "A and B", season)
    pair = _evaluator(cv, loss, n_jobs, random_state, verbose).compare(*estimators, X, y, names=names, params=params)
    found = assess_pair(pair, confidence_level, metrics=metrics, names=names, margin=margin, question=question,
                        random_state=random_state, season=season)
    return dict(pair=pair, rows=found.intervals, test_rows=tuple(found.tests), nested=None,
                decision=found.decision, fits=planned, budget=allowed, checks=found.checks,
                diagnostic=found.diagnostic, horizons=found.horizons), found.notes
