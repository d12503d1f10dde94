"""What ``cvinference select`` does: a grid search on repeated k-fold, then every candidate against the best.

With ``--groups`` the folds are group k-fold, a new partition per repeat
(:func:`~cvinference.cli._groups.group_folds`), and the search is fitted with
the groups.

When the candidates are scored by accuracy, each is also checked against the
no-information rate of the data's labels (``compare_candidates(..., y=)``).

The grid is checked before the first fit: each candidate's hyper-parameters
are built with :func:`~cvinference.cli._estimators.build_estimator`, which
names a bad value as ``evaluate --params`` does.
"""

import dataclasses
import json

from ..model_selection import OneStandardError, SimplestIndistinguishable, compare_candidates
from ._commands import check_outputs, data_record, fold_fits, progress, showing_progress, shows_text, write_outputs
from ._data import load_data
from ._errors import UserError
from ._estimators import build_estimator, load_for_learners, parse_params
from ._groups import check_group_folds, group_folds

REPORT_FORMAT = "cvinference.select_report"
REPORT_VERSION = 1


def parse_grid(text):
    """``--grid``: a JSON object of name -> non-empty list of values, or a list of such objects."""
    try:
        grid = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"--grid {text!r} is not valid JSON: {exc.msg} at char {exc.pos}; write for example "
                        "'{\"max_depth\": [1, 2, 3, null]}' (double quotes, null for None)") from None
    grids = grid if isinstance(grid, list) else [grid]
    if not grids or not all(isinstance(g, dict) and g for g in grids):
        raise UserError(f"--grid {text!r} must be a JSON object of hyper-parameter: list of values (or a list of "
                        "such objects); write for example '{\"max_depth\": [1, 2, 3, null]}'")
    for g in grids:
        for name, values in g.items():
            if not isinstance(values, list) or not values:
                raise UserError(f"--grid: the values of {name!r} must be a non-empty JSON list, got "
                                f"{json.dumps(values)}; write for example '{{\"{name}\": [1, 2, 3]}}'")
    return grids


def _candidates(grids):
    from sklearn.model_selection import ParameterGrid

    return list(ParameterGrid(grids))


def _step_prefix(estimator):
    """``"classifier__"`` or ``"regressor__"`` where build_estimator wrapped the estimator in a pipeline, else ""."""
    return f"{estimator.steps[-1][0]}__" if hasattr(estimator, "steps") else ""


def _search_grid(grids, estimator):
    """The grid with the pipeline's step prefix where build_estimator wrapped the estimator."""
    prefix = _step_prefix(estimator)
    return [{prefix + name: values for name, values in g.items()} for g in grids]


def _unprefixed(comparison, prefix):
    """The comparison with the pipeline prefix taken off its parameters (its candidates' names have none)."""
    params = {name.removeprefix(prefix): values for name, values in comparison.params.items()}
    return dataclasses.replace(comparison, params=type(comparison.params)(params))


def _scorer(name):
    if name is None:
        return None
    from sklearn.metrics import get_scorer

    try:
        get_scorer(name)
    except ValueError:
        raise UserError(f"--scoring {name!r} is not a scikit-learn scorer name; use for example accuracy, "
                        "balanced_accuracy, roc_auc or neg_log_loss (r2 or neg_mean_squared_error for "
                        "regression)") from None
    return name


def _rules(args, search, comparison):
    """The candidate each refit rule picks on the search, when ``--simplest PARAM`` is given."""
    if args.simplest is None:
        return {}
    order = "descending" if args.descending else "ascending"
    prefix = _step_prefix(search.estimator)
    param = prefix + args.simplest
    # The search scored one metric (--scoring or the estimator's score): its cv_results_ call it "score".
    rules = (SimplestIndistinguishable(param, cv=search.cv, order=order, correction=args.correction,
                                       alpha=args.alpha),
             OneStandardError(param, order=order))
    try:
        simplest, one_se = (rule(search.cv_results_) for rule in rules)
    except ValueError as exc:
        raise UserError(f"--simplest {args.simplest}: {str(exc).replace(prefix, '') if prefix else exc}") from None
    return {"param": args.simplest, "order": order, "simplest_indistinguishable": comparison.candidates[simplest],
            "one_standard_error": comparison.candidates[one_se]}


def run_select(args, out):
    """``cvinference select ESTIMATOR --grid JSON``: print the comparison; write its JSON and PNG when asked."""
    from sklearn.model_selection import GridSearchCV, RepeatedKFold, RepeatedStratifiedKFold

    check_outputs(args)
    grids = parse_grid(args.grid)
    scoring = _scorer(args.scoring)
    dataset = load_for_learners(lambda task: load_data(args.data, target=args.target, impute=args.impute, task=task,
                                                       groups=args.groups), args.task, [args.estimator])
    regression = dataset.task == "regression"
    base = parse_params(args.params, args.estimator)
    candidates = _candidates(grids)
    if len(candidates) < 2:
        raise UserError(f"--grid {args.grid} makes {len(candidates)} candidate; give at least two values to "
                        "compare, such as '{\"max_depth\": [2, 4]}'")
    for candidate in candidates:  # every value is checked before the first fit
        build_estimator(args.estimator, params={**base, **candidate}, dataset=dataset, random_state=args.seed)
    estimator, description = build_estimator(args.estimator, params=base, dataset=dataset, random_state=args.seed)
    if dataset.groups is not None:
        check_group_folds(dataset, args.cv, args.repeats)
        cv = group_folds(dataset.task, args.cv, random_state=args.seed, n_repeats=args.repeats)
    elif args.cv > dataset.n_samples // 2:
        raise UserError(f"--cv {args.cv} leaves folds of fewer than 2 of the {dataset.n_samples} instances; "
                        "use fewer folds")
    else:
        splitter = RepeatedKFold if regression else RepeatedStratifiedKFold
        cv = splitter(n_splits=args.cv, n_repeats=args.repeats, random_state=args.seed)
    options = {"cv": cv, "scoring": scoring, "refit": False, "n_jobs": args.n_jobs, "error_score": "raise"}
    if showing_progress(args):  # the same search, one candidate at a time, with the progress line
        from ._search_progress import ProgressGridSearchCV

        search = ProgressGridSearchCV(estimator, _search_grid(grids, estimator),
                                      n_fits_per_candidate=args.repeats * args.cv, **options)
    else:
        search = GridSearchCV(estimator, _search_grid(grids, estimator), **options)
    progress(args, f"fitting {len(candidates)} candidates on {args.repeats} x {args.cv} folds "
                   f"({fold_fits(args, dataset, len(candidates))})")
    try:
        search.fit(dataset.X, dataset.y, groups=dataset.groups)
    except (ValueError, TypeError) as exc:
        fold_check = "" if regression else ", and that every fold has instances of each class"
        raise UserError(f"fitting or scoring a candidate failed: {' '.join(str(exc).split())}; check the grid, "
                        f"--params and --scoring{fold_check}") from None
    comparison = _unprefixed(compare_candidates(search, correction=args.correction, alpha=args.alpha,
                                                confidence_level=args.confidence,
                                                y=None if regression else dataset.y), _step_prefix(estimator))
    rules = _rules(args, search, comparison)
    report = {"format": REPORT_FORMAT, "version": REPORT_VERSION, "command": "select",
              "options": {"estimator": args.estimator, "params": base, "grid": grids, "data": args.data,
                          "task": dataset.task, "cv": args.cv, "repeats": args.repeats, "scoring": args.scoring,
                          "correction": args.correction, "alpha": args.alpha, "seed": args.seed},
              "data": data_record(dataset), "estimator": description,
              "refit_rules": rules, "result": comparison.to_dict()}
    write_outputs(args, report, lambda path: comparison.plot(path=path), out)
    if shows_text(args):
        grouped = "" if dataset.groups is None else f" in {dataset.n_groups} groups ({dataset.groups_column})"
        lines = [f"{dataset.name}: {dataset.n_samples} instances{grouped}; {description}", "", comparison.summary()]
        if rules:
            lines += ["", f"refit rules, by {rules['param']} ({rules['order']}: simplest first):",
                      f"  simplest indistinguishable from the best: {rules['simplest_indistinguishable']}",
                      f"  one-standard-error rule (a rule of thumb): {rules['one_standard_error']}"]
        print("\n".join(lines), file=out)
    return 0
