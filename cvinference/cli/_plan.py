"""``cvinference plan``: what a comparison of two learners would detect, before its fits (:func:`cvinference.plan`)."""

from .._utils._text import wrapped
from ._commands import (
    _check_folds,
    check_margin_option,
    check_metrics,
    check_outputs,
    check_scores,
    data_record,
    fitting,
    pair_names,
    resolve_loss,
    shows_text,
    write_outputs,
)
from ._data import load_data
from ._errors import UserError
from ._estimators import build_estimator, load_for_learners


def _check_power(args):
    """``--power`` as :func:`cvinference.plan` takes ``power`` (at least 0.5, below 1), refused before the pilot's
    fits in the option's name."""
    from ..policy import plan

    try:
        plan.__cvinference_params__["power"].check("power", args.power)
    except ValueError:
        raise UserError(f"--power {args.power:g}: a plan's power is at least 0.5 and below 1 (the chance of "
                        "detecting the difference, such as 0.8); give --power 0.8 or another in [0.5, 1)") from None


def _check(args, dataset):
    _check_power(args)
    if args.n_samples is not None and dataset.groups is not None:
        raise UserError(f"--n-samples with --groups {dataset.groups_column}: the groups' column gives N; drop "
                        "--n-samples, or --groups")
    _check_folds(args, dataset)  # as compare checks them: --cv N is leave-one-out, whole groups per fold
    if args.cv == "loo" and dataset.task == "regression":
        raise UserError(f"--cv loo with the regression target of {dataset.name}: a regressors' plan rests on a pilot "
                        "of k-fold cross-validation, and leave-one-out's decision rests on tests of its instances; "
                        "give --cv K")
    if args.difference is not None and args.margin is not None:
        raise UserError("--difference and --margin: a plan sizes a difference or a margin; give one of them")
    if args.question is not None and args.margin is None:
        raise UserError(f"--question {args.question} plans a margin; give --margin M (in the metric's units), "
                        "or drop --question")
    for option in ("difference", "margin"):
        check_margin_option(args, dataset, option)
    if args.no_pilot and dataset.task == "regression":
        raise UserError(f"--no-pilot with the regression target of {dataset.name}: the scale of a loss is the data's, "
                        "which no calibration cell carries; drop --no-pilot to plan from a 1 x K pilot on the data")
    n_samples = args.n_samples or dataset.n_samples
    if args.cv != "loo" and n_samples < 2 * args.cv:
        raise UserError(f"--n-samples {n_samples} with --cv {args.cv}: each fold needs at least 2 instances; give "
                        f"--n-samples {2 * args.cv} or more, or fewer folds")
    return n_samples


def run_plan(args, out):
    from ..policy import plan
    from ..workflows._settings import evaluator, resolved_cv, seeded

    check_outputs(args)
    dataset = load_for_learners(lambda task: load_data(args.data, target=args.target, impute=args.impute, task=task,
                                                       groups=args.groups),
                                args.task, [args.estimator_a, args.estimator_b])
    n_samples = _check(args, dataset)
    args.metric = [] if args.metric is None else [args.metric]
    resolve_loss(args, dataset)
    check_metrics(args, dataset)
    specs = ((args.estimator_a, args.params_a), (args.estimator_b, args.params_b))
    built = [build_estimator(spec, params=params, dataset=dataset, random_state=args.seed)[0]
             for spec, params in specs]
    for estimator, (spec, _) in zip(built, specs, strict=True):
        check_scores(args, estimator, spec)
    built, seeding = seeded(built, args.seed, "AB")  # as compare seeds them, so that the pilot is its folds' fits
    names = pair_names(args.estimator_a, args.estimator_b)
    metric = args.metric[0] if args.metric else None
    grouped = dataset.groups is not None
    settings = dict(n_samples=None if grouped else n_samples, groups=dataset.groups, metric=metric, cv=args.cv,
                    n_repeats=args.repeats, power=args.power,
                    confidence_level=args.confidence, difference=args.difference, margin=args.margin,
                    question=args.question, names=names)
    pilot = None
    try:
        if args.no_pilot or args.cv == "loo":  # leave-one-out's decision rests on no corrected t to pilot
            planned = plan(*built, **settings)
        else:
            folds = resolved_cv(args.cv, dataset.n_samples, dataset.groups, dataset.task == "regression", args.seed)
            pilot = fitting(evaluator(folds, n_repeats=1, loss=args.loss, metrics=args.metric, n_jobs=args.n_jobs,
                                      random_state=args.seed, verbose=0).compare, *built, dataset.X, dataset.y,
                            dataset.groups)
            planned = plan(pilot=pilot, **settings)
    except ValueError as exc:
        message = " ".join(str(exc).split())
        if args.no_pilot:  # what is left after _check: the calibration has no cell for these learners and metric
            message = (f"--no-pilot: the calibration benchmark measured the corrected t on {metric or 'accuracy'} "
                       "for none of "
                       f"{names[0]} and {names[1]}; drop --no-pilot to plan from a 1 x K pilot on the data")
        raise UserError(message) from None
    report = {"command": "plan", "data": data_record(dataset), "pilot": None if pilot is None else {
        "n_samples": pilot.a.n_samples, "n_splits": pilot.a.n_splits, "n_repeats": pilot.a.n_repeats,
        "fits": 2 * pilot.a.n_splits * pilot.a.n_repeats}, "plan": planned.to_dict()}
    write_outputs(args, report, lambda path: planned.plot(path=path), out)
    if shows_text(args):
        if pilot is not None:
            print(f"pilot: {names[0]} and {names[1]} on 1 x {args.cv}-fold cross-validation of {dataset.name} "
                  f"({2 * args.cv} fits, random_state={args.seed})", file=out)
            for line in wrapped(seeding, "  ") if seeding is not None else []:
                print(line, file=out)
        print(planned.summary(), file=out)
    return 0
