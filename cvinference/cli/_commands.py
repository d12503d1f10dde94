"""What ``cvinference demo``, ``evaluate`` and ``compare`` do: data, fits, report."""

import json
import os
import sys

from .._utils._paths import unwritable_reason
from ..inference._metric_interval import score_methods, takes_pos_label
from ..policy._budget import BudgetTooSmall
from ..policy._design import NESTED_GROUPS
from ..policy._margin import check_margin
from ..policy._routes import NESTED_SETTINGS
from ..report import plot_report
from ..workflows._class_folds import FoldWithoutClass
from ..workflows._compare import run_comparison
from ..workflows._evaluate import run_evaluation
from ..workflows._settings import REGRESSION_LOSSES, metric_names, response_method, uncomputed_score_metric
from ._data import load_data
from ._errors import UserError
from ._estimators import build_estimator, load_for_learners
from ._forward import check_forecasters, check_forward_metrics, forward_splitter, forward_task, time_record
from ._groups import check_group_folds
from ._outputs import staged_outputs


def showing_progress(args):
    """Whether to report progress: on a terminal's stderr, unless quiet (a pipe or a log file gets none)."""
    return not args.quiet and sys.stderr.isatty()


def progress(args, message):
    """A progress line on stderr, for long runs, when :func:`showing_progress`."""
    if showing_progress(args):
        print(f"cvinference: {message}", file=sys.stderr, flush=True)


def fold_fits(args, dataset, learners=1):
    """The fits of ``learners`` learners on --repeats x --cv folds ("loo": one per instance), in words."""
    folds = dataset.n_samples if args.cv == "loo" else args.cv
    return f"{learners * args.repeats * folds:,} fits"


def _check_folds(args, dataset):
    if dataset.time is not None:
        return  # forward validation's origins: checked by forward_splitter
    repeats = 1 if args.repeats == "auto" else args.repeats  # "auto" plans the repeats the folds allow
    if dataset.groups is not None:
        check_group_folds(dataset, args.cv, repeats)
        return
    if args.cv == dataset.n_samples:
        args.cv = "loo"  # one instance per fold is leave-one-out, whatever it is called
    if args.cv != "loo" and args.cv > dataset.n_samples:
        raise UserError(f"--cv {args.cv} is more folds than the {dataset.n_samples} instances of "
                        f"{dataset.name}; use 2 to {dataset.n_samples}, or --cv loo")
    if args.cv == "loo" and repeats > 1:
        raise UserError("--repeats needs k-fold cross-validation: leave-one-out gives the same partition "
                        "every time (Wong 2015, section 5.1); drop --repeats or use --cv K")


def resolve_loss(args, dataset):
    """``--loss`` for the dataset's task: its default when not given; a UserError when it is the other task's."""
    regression = dataset.task == "regression"
    if args.loss is None:
        args.loss = REGRESSION_LOSSES[0] if regression else "zero_one"
    elif regression != (args.loss in REGRESSION_LOSSES):
        fits = ", ".join(REGRESSION_LOSSES) if regression else "zero_one, log_loss, brier"
        raise UserError(f"--loss {args.loss} is for {'regression' if not regression else 'classification'}, and the "
                        f"target of {dataset.name} is a {dataset.task} target; use --loss {fits.replace(', ', ' or ')}"
                        f"{', or --task regression' if not regression else ''}")


def check_loss(args, estimator, spec):
    if args.loss in ("log_loss", "brier") and not hasattr(estimator, "predict_proba"):
        raise UserError(f"--loss {args.loss} needs predicted probabilities, but {spec} has no predict_proba; "
                        "use --loss zero_one, or an estimator with predict_proba such as logreg, nb or rf")


STDOUT = "-"
"""The ``--json`` value that means standard output."""


def shows_text(args):
    """Whether to print the text report: not under --quiet, nor when --json - puts the JSON on standard output."""
    return not args.quiet and args.json != STDOUT


def _output_paths(args):
    """The files the command writes: option -> path, for the output options given (standard output left out)."""
    paths = {"--json": args.json, "--plot": args.plot, "--checkpoint": getattr(args, "checkpoint", None)}
    return {option: path for option, path in paths.items() if path is not None and path != STDOUT}


def _check_writable(option, path):
    problem = unwritable_reason(path)
    if problem is not None:
        raise UserError(f"{option} {path}: cannot write there ({problem}); give a file path in an existing folder")


def _check_distinct(paths):
    """Refuse two output options naming one file: the last written would silently replace the other."""
    seen = {}
    for option, path in paths.items():
        resolved = os.path.realpath(path)
        if resolved in seen:
            first = seen[resolved]
            raise UserError(f"{first} {paths[first]} and {option} {path} name the same file, and one would "
                            f"overwrite the other; give {option} a file name of its own")
        seen[resolved] = option


def check_outputs(args):
    """Refuse unwritable or clashing --json / --plot (/ --checkpoint) paths and a missing matplotlib before fitting."""
    if args.plot == STDOUT:
        raise UserError("--plot -: a PNG image cannot go to standard output (only --json can); give a file name "
                        "ending in .png")
    if getattr(args, "checkpoint", None) == STDOUT:
        raise UserError("--checkpoint -: the study reads its checkpoint back, so it cannot be standard output; "
                        "give a file name")
    paths = _output_paths(args)
    for option, path in paths.items():
        if option == "--plot" and not path.lower().endswith(".png"):
            raise UserError(f"--plot {path}: the figure is a PNG image; give a file name ending in .png")
        _check_writable(option, path)
    _check_distinct(paths)
    if args.plot:
        try:
            import matplotlib
        except ImportError:
            raise UserError("--plot needs matplotlib; install it with pip install 'cvinference[plot]'") from None
        matplotlib.use("Agg")  # the command line only writes files; a library call never selects a backend


_TWO_CLASS_METRICS = ("f1", "precision", "recall", "jaccard", "positive_likelihood_ratio",
                      "neg_negative_likelihood_ratio")


def check_metrics(args, dataset):
    """Refuse --metric names that cannot be computed from predictions or scores of this target, or under LOO.

    Before fitting. A metric of scores (roc_auc, neg_log_loss, ...) makes the
    evaluator keep them (:func:`response_method`).
    """
    check_forward_metrics(args, dataset)
    regression = getattr(dataset, "task", "classification") == "regression"
    valid = metric_names(regression)
    multiclass = not regression and len(set(dataset.y.tolist())) > 2
    for metric in args.metric:
        if metric not in valid and not regression and uncomputed_score_metric(metric):
            raise UserError(f"--metric {metric}: {uncomputed_score_metric(metric)}")
        if metric not in valid:
            what = "predictions of a quantity (regression)" if regression else "predicted labels or scores"
            raise UserError(f"--metric {metric}: unknown or not computable from {what}; "
                            f"choose one of {', '.join(sorted(valid))}")
        if multiclass and metric == "roc_auc":
            raise UserError(f"--metric roc_auc is for two classes, and {dataset.name} has "
                            f"{len(set(dataset.y.tolist()))}; use roc_auc_ovr (one-vs-rest)")
        if multiclass and metric in _TWO_CLASS_METRICS:
            averaged = (f"use {metric}_macro, {metric}_micro or {metric}_weighted" if "likelihood" not in metric
                        else "choose another metric")
            raise UserError(f"--metric {metric} is for two classes, and {dataset.name} has "
                            f"{len(set(dataset.y.tolist()))}; {averaged}")
    args.pos_label = _positive_label(args, dataset)
    if args.metric and args.cv in ("loo", dataset.n_samples):
        _refuse_metric_under_loo(args.metric[0], dataset)


def check_scores(args, estimator, spec):
    """Refuse an estimator that cannot give the scores a --metric needs, before fitting."""
    kept = response_method(args.metric)
    if kept is None:
        return
    if kept == "predict_proba" and not hasattr(estimator, "predict_proba"):
        metric = next(metric for metric in args.metric if score_methods(metric) == ("predict_proba",))
        raise UserError(f"--metric {metric} needs predicted probabilities, but {spec} has no predict_proba; use an "
                        "estimator with predict_proba such as logreg, nb or rf, or a metric of predicted labels")
    if not any(hasattr(estimator, method) for method in ("predict_proba", "decision_function")):
        metric = next(metric for metric in args.metric if score_methods(metric) is not None)
        raise UserError(f"--metric {metric} needs scores (predict_proba or decision_function), and {spec} has "
                        "neither; use an estimator such as logreg, nb or rf, or a metric of predicted labels")


def _matches(label, text):
    """Whether the class ``label`` is written ``text`` on the command line: "1" is the number 1 (and 1.0)."""
    if isinstance(label, str):
        return label == text
    if str(label) == text:
        return True
    try:
        return float(text) == label
    except ValueError:
        return False


def _positive_label(args, dataset):
    """``--pos-label`` as the class of ``dataset`` it names (None without it), refused when it names none.

    Without it, a metric about one class needs sklearn's default positive class, 1.
    """
    classes = sorted(set(dataset.y.tolist()))
    binary = [metric for metric in args.metric if takes_pos_label(metric)]
    if args.pos_label is None:
        if binary and len(classes) <= 2 and 1 not in classes:
            raise UserError(f"--metric {binary[0]} needs to know the positive class, and the classes of "
                            f"{dataset.name} are {classes}; pass --pos-label with one of them, or use "
                            f"{binary[0]}_macro")
        return None
    if not binary:
        raise UserError(f"--pos-label {args.pos_label}: it is the positive class of --metric f1, precision, recall "
                        "or jaccard, and none of them is asked for; add such a --metric or drop --pos-label")
    found = [label for label in classes if _matches(label, args.pos_label)]
    if not found:
        raise UserError(f"--pos-label {args.pos_label}: not a class of {dataset.name}, whose classes are "
                        f"{', '.join(map(str, classes))}")
    return found[0]


def _refuse_metric_under_loo(metric, dataset):
    """A set-level metric per fold needs folds of more than one instance (as :func:`metric_interval` says)."""
    folds = max(2, min(10, dataset.n_samples // 2))
    raise UserError(f"--metric {metric} is computed on each fold, and under leave-one-out each of the "
                    f"{dataset.n_samples} folds of {dataset.name} holds a single instance; use k-fold "
                    f"cross-validation such as --cv {folds}, or drop --metric (the report's accuracy intervals "
                    "and --loss work with leave-one-out)")


def fit_failure(exc, advice):
    """The UserError for an estimator's own ValueError in a fit (bad hyper-parameter, too little data), else None.

    The fits' scheduler notes where a fit failed (``"cvinference: fitting ... failed on fold 3 of repeat
    0 ..."``); an exception without that note did not come from an estimator's fit.
    """
    notes = [note for note in getattr(exc, "__notes__", []) if note.startswith("cvinference:")]
    if not isinstance(exc, ValueError) or not notes:
        return None
    message = " ".join(str(exc).split())
    return UserError(f"{notes[0][len('cvinference: '):].rstrip('.')}: {message.rstrip('.')}. {advice}")


def check_margin_option(args, dataset, option):
    """Refuse ``--margin`` (or ``--difference``) beyond any difference in the metric, before any fit
    (:func:`~cvinference.policy._margin.check_margin`)."""
    metric = args.metric[0] if isinstance(args.metric, list) and args.metric else args.metric or "accuracy"
    try:
        check_margin(getattr(args, option), metric, regression=getattr(dataset, "task", None) == "regression",
                     name=f"--{option}")
    except ValueError as exc:
        raise UserError(str(exc).rstrip(".")) from None


def fitting(function, *args, **kwargs):
    """Run the fits; an estimator's own ValueError is a user error (see :func:`fit_failure`), and so are a --budget
    below what the cross-validation needs and folds without a class a --metric needs (refused before any fit)."""
    try:
        return function(*args, **kwargs)
    except BudgetTooSmall as exc:
        raise UserError(f"--budget {kwargs.get('budget')}: {exc.allowed:,} fits, and {exc.what} alone needs "
                        f"{exc.needed:,}; give --budget {exc.needed} or more, or {exc.option_fix}") from None
    except FoldWithoutClass as exc:
        fix = f"--cv {exc.most_folds} or fewer folds" if exc.most_folds is not None else "fewer folds (--cv)"
        raise UserError(f"--metric {exc.metric} is computed on every test fold, and {exc.where}; use {fix}, or a "
                        "--metric of predicted labels such as balanced_accuracy") from None
    except ValueError as exc:
        error = fit_failure(exc, "Check the estimator's --params and that every fold has enough instances of "
                                 "each class")
        if error is None:
            raise
        raise error from None


def data_record(dataset):
    """The report's ``"data"``: the data set's name and size, and its group column when grouped (its time column
    and first and last times under ``--time``)."""
    record = {"name": dataset.name, "n_samples": dataset.n_samples}
    if dataset.groups is not None:  # only then, so that the reports of ungrouped data keep their shape
        record.update(groups_column=dataset.groups_column, n_groups=dataset.n_groups)
    if dataset.time is not None:
        record.update(time_record(dataset))
    return record


def _front_door_options(args, dataset):
    """The options the front door's ``evaluate`` and ``compare`` share, from the command line's (under ``--time``,
    forward validation's splitter and season)."""
    cv = forward_splitter(args, dataset)
    forward = {} if cv is None else {"season": args.season}
    return dict(cv=args.cv if cv is None else cv, n_repeats=args.repeats, groups=dataset.groups, metric=args.metric,
                loss=args.loss, pos_label=args.pos_label, confidence_level=args.confidence,
                budget=getattr(args, "budget", None), n_jobs=args.n_jobs, random_state=args.seed,
                verbose=int(showing_progress(args)), data=data_record(dataset), **forward)


def write_outputs(args, report, draw, out):
    """``--json`` (``report``) and ``--plot`` (``draw(path)``), all of them or none (see :func:`staged_outputs`).

    ``--json -`` prints the report as JSON to ``out``, once every file is written.
    """
    with staged_outputs() as stage:
        if args.json and args.json != STDOUT:
            write_json(report, stage(args.json), shown_as=args.json)
        if args.plot:
            try:
                draw(stage(args.plot))
            except OSError as exc:
                raise UserError(f"--plot {args.plot}: cannot write the figure ({exc.strerror or exc}); "
                                "check the path") from None
    if args.json == STDOUT:
        print(_json_text(report), file=out)


def _finish(args, answer, out):
    """Write ``answer``'s report to --json and --plot, then print its summary (unless quiet)."""
    report = answer.to_dict()
    write_outputs(args, report, lambda path: plot_report(report, path), out)
    if shows_text(args):
        print(answer.summary(), file=out)
    return 0


def _load(args):
    """The data of ``evaluate`` and ``compare``: ``--data`` with its target, groups and time; under ``--task auto``
    a regressor's or a classifier's alias settles the task (:func:`~cvinference.cli._estimators.learner_task`)."""
    specs = [getattr(args, name, None) for name in ("estimator", "estimator_a", "estimator_b")]
    return load_for_learners(lambda task: load_data(args.data, target=args.target, impute=args.impute, task=task,
                                                    groups=args.groups, time=args.time), forward_task(args), specs)


def run_evaluate(args, out):
    check_outputs(args)
    dataset = _load(args)
    resolve_loss(args, dataset)
    _check_folds(args, dataset)
    check_metrics(args, dataset)
    check_forecasters(dataset, [args.estimator])
    estimator, description = build_estimator(args.estimator, params=args.params, dataset=dataset,
                                             random_state=args.seed)
    check_loss(args, estimator, args.estimator)
    check_scores(args, estimator, args.estimator)
    evaluation = fitting(run_evaluation, estimator, dataset.X, dataset.y, description=description,
                         **_front_door_options(args, dataset))
    return _finish(args, evaluation, out)


def compare_estimators(args, dataset, estimators, descriptions, out, names=None):
    """Both estimators on identical folds, 5x2cv, and nested CV when the decision needs it: the front door's
    :func:`~cvinference.compare`, reported."""
    _check_folds(args, dataset)
    if args.nested == "always" and args.metric and args.metric[0] != "accuracy":
        raise UserError(f"--nested always: nested cross-validation's interval is for accuracy, and --metric "
                        f"{args.metric[0]} asks for a decision about {args.metric[0]}; drop one of them")
    if args.nested == "always" and dataset.groups is not None and dataset.n_groups < NESTED_GROUPS:
        raise UserError(f"--nested always with --groups {dataset.groups_column}: nested cross-validation's "
                        f"{NESTED_SETTINGS['n_splits']} folds need 2 groups each, {NESTED_GROUPS} groups, and "
                        f"{dataset.name} has {dataset.n_groups}; drop --nested (the decision rests on tests that "
                        "take the groups as the units)")
    if args.question is not None and args.margin is None:
        raise UserError(f"--question {args.question} asks about a margin; pass --margin M (in the metric's "
                        "units, 0.01 for one point of accuracy), or drop --question")
    check_margin_option(args, dataset, "margin")
    comparison = fitting(run_comparison, *estimators, dataset.X, dataset.y, nested=args.nested, names=names,
                         descriptions=descriptions, margin=args.margin, question=args.question,
                         **_front_door_options(args, dataset))
    return _finish(args, comparison, out)


def run_compare(args, out):
    check_outputs(args)
    dataset = _load(args)
    resolve_loss(args, dataset)
    check_metrics(args, dataset)
    specs = ((args.estimator_a, args.params_a), (args.estimator_b, args.params_b))
    check_forecasters(dataset, [spec for spec, _ in specs])
    built = [build_estimator(spec, params=params, dataset=dataset, random_state=args.seed) for spec, params in specs]
    for (estimator, _), (spec, _) in zip(built, specs, strict=True):
        check_loss(args, estimator, spec)
        check_scores(args, estimator, spec)
    return compare_estimators(args, dataset, [e for e, _ in built], [d for _, d in built], out,
                              names=pair_names(args.estimator_a, args.estimator_b))


def _short_name(spec):
    """An estimator's name on the command line: its alias, or the class name of a dotted path."""
    return spec.rsplit(".", 1)[-1]


def pair_names(spec_a, spec_b):
    """The two learners' names in the report; one estimator twice (with other --params) gets (A) and (B)."""
    a, b = _short_name(spec_a), _short_name(spec_b)
    return (a, b) if a != b else (f"{a} (A)", f"{b} (B)")


def _json_text(report):
    return json.dumps(report, indent=1, allow_nan=False)


def write_json(report, path, *, shown_as=None):
    """Write the report to ``path`` as JSON (the schema is in docs/cli.md); errors name ``shown_as``."""
    text = _json_text(report)
    try:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)
    except OSError as exc:
        raise UserError(f"--json {shown_as or path}: cannot write the report ({exc.strerror or exc}); "
                        "check the path") from None
