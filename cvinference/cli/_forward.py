"""``--time COLUMN``: forward validation of a series in a CSV file, its rows sorted by time.

``--cv K`` is then the number of origins of :class:`~cvinference.splitters.ForwardSplit`, and ``--horizon``,
``--window``, ``--gap`` and ``--step`` are its own options; ``--season`` makes the baseline the seasonal naive
forecast. Every option that forward validation cannot honour is refused before any fit, in one line naming the fix.
"""

from ..splitters import ForwardSplit
from ..workflows._forward import MIN_FORECASTS, answered_metrics
from ..workflows._settings import metric_names
from ._errors import UserError
from ._estimators import ALIASES, REGRESSOR_ALIASES

FORWARD_OPTIONS = ("horizon", "window", "gap", "step", "season")
"""The options of forward validation, which need ``--time``."""


def forward_task(args):
    """The ``--task`` to load the data with: regression under ``--time`` (a forecast is of a numeric series)."""
    if getattr(args, "time", None) is None:
        return args.task
    if args.task == "classification":
        raise UserError(f"--time {args.time} with --task classification: forward validation forecasts a numeric "
                        "series (its losses are squared_error or absolute_error); drop --task, or drop --time")
    return "regression"


def check_forecasters(dataset, specs):
    """Refuse a classifier's alias under ``--time``, naming the regressors (before the estimators are built)."""
    if dataset.time is None:
        return
    for spec in specs:
        if spec in ALIASES:
            raise UserError(f"estimator {spec!r} is a classifier, and --time {dataset.time_column} forecasts a numeric "
                            f"series; use a regressor: one of {', '.join(REGRESSOR_ALIASES)}")


def _option(name):
    return f"--{name.replace('_', '-')}"


def check_forward_metrics(args, dataset):
    """Refuse, under ``--time``, a ``--metric`` that the forward report and decision do not answer for (they are
    about the forecast loss), naming those they do; nothing without ``--time``."""
    if dataset.time is None:
        return
    answered = [metric for metric in answered_metrics(args.loss) if metric in metric_names(True)]  # scorers' names
    unknown = [metric for metric in args.metric if metric not in answered]
    if unknown:
        raise UserError(f"--metric {unknown[0]} with --time {dataset.time_column}: the report and decision are about "
                        f"the forecast loss {args.loss} (--metric {' or '.join(answered)}); drop --metric"
                        + (", or pass --loss absolute_error for the mean absolute error"
                           if args.loss == "squared_error" else ""))


def _refuse_unforecastable(args, dataset):
    where = f"--time {dataset.time_column}"
    if dataset.groups is not None:
        raise UserError(f"--groups {dataset.groups_column} with {where}: forward validation reads one series in "
                        "time order, not groups; drop --groups")
    if args.cv == "loo":
        raise UserError(f"--cv loo with {where}: under forward validation --cv K is the number of origins; use "
                        "--cv K")
    if args.repeats not in (1, "auto"):
        raise UserError(f"--repeats {args.repeats} with {where}: forward validation's origins are the same every "
                        "time; drop --repeats")
    check_forward_metrics(args, dataset)
    if getattr(args, "nested", "auto") == "always":
        raise UserError(f"--nested always with {where}: nested cross-validation shuffles the rows, and the decision "
                        "on forecasts rests on Diebold & Mariano's test; drop --nested")


def forward_splitter(args, dataset):
    """The forward splitter of ``--time`` (None without it), checked against the series before any fit."""
    if dataset.time is None:
        given = [name for name in FORWARD_OPTIONS if getattr(args, name, None) is not None]
        if given:
            raise UserError(f"{_option(given[0])} applies to forward validation; pass --time COLUMN, the CSV column "
                            "of each row's time, or drop it")
        return None
    _refuse_unforecastable(args, dataset)
    cv = ForwardSplit(args.cv, horizon=args.horizon, gap=args.gap or 0, step=args.step, window=args.window)
    try:
        splits = list(cv.split(dataset.X))
    except ValueError as exc:
        raise UserError(f"--time {dataset.time_column}: the {dataset.n_samples} rows of {dataset.name} cannot hold "
                        f"--cv {args.cv} origins so (the splitter says: {' '.join(str(exc).split())}); pass a "
                        "smaller --cv, --horizon, --step or --window") from None
    origins = [train.max() for train, _ in splits]
    forecasts = sum(test.size for _, test in splits)
    if forecasts < MIN_FORECASTS:
        raise UserError(f"--cv {args.cv} with --time {dataset.time_column} makes {forecasts} forecasts, and an "
                        f"interval of their mean loss that allows for their dependence needs at least {MIN_FORECASTS}; "
                        "pass a larger --cv or --horizon")
    if args.season is not None and args.season > origins[0] + 1:
        raise UserError(f"--season {args.season}: the seasonal naive forecast from the first origin (row "
                        f"{origins[0] + 1} of {dataset.n_samples}) needs {args.season} rows before it; pass a "
                        "smaller --season, or fewer origins (--cv) or a smaller --horizon")
    return cv


def time_record(dataset):
    """The report's ``"data"`` keys of ``--time``: the column and the first and last times."""
    return {"time_column": dataset.time_column, "first_time": str(dataset.time[0]),
            "last_time": str(dataset.time[-1])}
