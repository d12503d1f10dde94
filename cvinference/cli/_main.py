"""The ``cvinference`` command line: argument parsing and exit statuses."""

import argparse
import itertools
import sys
import warnings

from .._utils._warnings import InferenceWarning
from ..studies import POPULATIONS
from ._bundled import BUNDLED
from ._errors import UserError, tell_interrupted, was_interrupted
from ._workers import workers_end_with_this_process


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UserError(message)


def _demo_estimators(seed=0):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    return (
        make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
        DecisionTreeClassifier(random_state=seed),
    )


def _run_demo(args, out):
    from .._utils._describe import estimator_description
    from ._commands import check_outputs, compare_estimators, shows_text
    from ._data import load_data

    check_outputs(args)
    dataset = load_data("breast_cancer")
    args.data, args.loss, args.metric, args.pos_label = "breast_cancer", "zero_one", [], None
    args.task = "classification"
    if shows_text(args):
        print(
            "cvinference demo: scaled logistic regression (A) against a decision tree (B) on the bundled\n"
            f"breast_cancer data, on identical stratified equal-size {args.cv}-fold partitions\n"
            f"({args.repeats} repeats, random_state={args.seed}).\n",
            file=out,
        )
    estimators = _demo_estimators(args.seed)
    names = ("logreg", "tree")
    descriptions = [f"{name}: {estimator_description(e)}" for name, e in zip(names, estimators, strict=True)]
    return compare_estimators(args, dataset, estimators, descriptions, out, names=names)


def _run_evaluate(args, out):
    from ._commands import run_evaluate

    return run_evaluate(args, out)


def _run_compare(args, out):
    from ._commands import run_compare

    return run_compare(args, out)


def _run_plan(args, out):
    from ._plan import run_plan

    return run_plan(args, out)


def _run_study(args, out):
    from ._study import run_study

    return run_study(args, out)


def _run_select(args, out):
    from ._select import run_select

    return run_select(args, out)


def _fold_count(text):
    if text == "loo":
        return text
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer number of folds or 'loo', got {text!r}") from None
    if value < 2:
        raise argparse.ArgumentTypeError(f"cross-validation needs at least 2 folds, got {value}")
    return value


def _option_type(convert, accept, expected):
    """An argparse type: ``convert`` the text, and refuse it unless ``accept(value)``."""

    def parse(text):
        try:
            value = convert(text)
        except ValueError:
            value = None
        if value is None or not accept(value):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
        return value

    return parse


_positive_int = _option_type(int, lambda value: value >= 1, "a positive integer")
_repeats_or_auto = _option_type(lambda text: "auto" if text == "auto" else int(text),
                                lambda value: value == "auto" or value >= 1, "a positive integer or 'auto'")
_n_jobs = _option_type(int, lambda value: value != 0, "a non-zero integer (-1 for all cores)")
_seed = _option_type(int, lambda value: 0 <= value < 2**32, "an integer from 0 to 2**32 - 1")
_confidence = _option_type(float, lambda value: 0 < value < 1, "a level strictly between 0 and 1, such as 0.95")
_alpha = _option_type(float, lambda value: 0 < value < 1, "a significance level strictly between 0 and 1, such as 0.05")
_at_least_two = _option_type(int, lambda value: value >= 2, "an integer >= 2")
_positive_number = _option_type(float, lambda value: 0 < value < float("inf"), "a positive number, such as 0.01")


def _fold_list(text):
    """``--folds 2,3,5,10``: increasing numbers of folds, each at least 2."""
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        values = ()
    if not values or min(values) < 2 or any(b <= a for a, b in itertools.pairwise(values)):
        raise argparse.ArgumentTypeError(f"expected increasing numbers of folds >= 2 separated by commas, "
                                         f"such as 2,3,5,10, got {text!r}")
    return values


def _add_data_options(parser, *, default="breast_cancer", names=None):
    names = names or "a bundled dataset (iris, wine, breast_cancer, digits; diabetes for regression)"
    parser.add_argument("--data", default=default, help=f"{names} or a CSV file (default: {default})")
    parser.add_argument("--target", help="the target column of a CSV file")
    parser.add_argument("--impute", action="store_true",
                        help="impute missing feature values inside each fold (median / most frequent)")


def _add_groups_option(parser):
    parser.add_argument("--groups", metavar="COLUMN",
                        help="the CSV column of each row's group (a patient, a subject, a site), not a feature: "
                             "every group is kept whole in one test fold, and the inference takes groups, not rows, "
                             "as the independent units")


def _add_run_options(parser, *, seeded="partitions and models"):
    parser.add_argument("--n-jobs", type=_n_jobs, default=None, help="parallel jobs for the fits (default: 1)")
    parser.add_argument("--seed", type=_seed, default=0, help=f"random_state of {seeded} (default: 0)")
    parser.add_argument("--json", metavar="FILE",
                        help="also write the report as JSON to FILE; '-' prints the JSON to standard output "
                             "instead of the text report")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="also draw the report to a PNG file, not the --json file (needs matplotlib)")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")
    parser.add_argument("--traceback", action="store_true", default=argparse.SUPPRESS,
                        help="show the full traceback of an internal error")


def _add_time_options(parser):
    parser.add_argument("--time", metavar="COLUMN",
                        help="the CSV column of each row's time (numbers or ISO dates), not a feature: forward "
                             "validation of the series, its rows sorted by time; --cv is then the number of origins")
    parser.add_argument("--horizon", type=_positive_int, metavar="H",
                        help="with --time: the rows forecast after each origin (default: as scikit-learn's "
                             "TimeSeriesSplit, rows // (origins + 1))")
    parser.add_argument("--window", type=_positive_int, metavar="W",
                        help="with --time: train on the last W rows before each origin (a sliding window; default: "
                             "every row before it, an expanding window)")
    parser.add_argument("--gap", type=_positive_int, metavar="G",
                        help="with --time: rows left out between each training window and its forecasts (default: 0)")
    parser.add_argument("--step", type=_positive_int, metavar="S",
                        help="with --time: rows between origins (default: the horizon)")
    parser.add_argument("--season", type=_at_least_two, metavar="M",
                        help="with --time: the baseline is the seasonal naive forecast of period M (12 for monthly "
                             "data) instead of the naive one")


def _add_task_option(parser):
    parser.add_argument("--task", default="auto", choices=("auto", "classification", "regression"),
                        help="what the target is: class labels or a quantity (default: auto, told from the "
                             "target; a target of whole numbers that could be either asks for --task)")


def _add_common_options(parser, *, default_cv_repeats=1, with_data=True, auto_repeats=False):
    if with_data:
        _add_data_options(parser)
        _add_groups_option(parser)
        _add_time_options(parser)
        _add_task_option(parser)
        parser.add_argument("--loss", default=None,
                            choices=("zero_one", "log_loss", "brier", "squared_error", "absolute_error"),
                            help="per-instance loss to record: zero_one, log_loss or brier for classification "
                                 "(default: zero_one), squared_error or absolute_error for regression (default: "
                                 "squared_error)")
        parser.add_argument("--metric", action="append", default=[], metavar="NAME",
                            help="a set-level metric per fold, such as f1, or r2 for regression (repeatable; not "
                                 "with leave-one-out)")
        parser.add_argument("--pos-label", metavar="LABEL",
                            help="the positive class of --metric f1, precision, recall or jaccard, as written in "
                                 "the data (default: 1)")
    parser.add_argument("--cv", type=_fold_count, default=10, help="number of folds, or 'loo' (default: 10)")
    auto = (", or 'auto': the calibrated number with the most measured power that --budget allows, planned "
            "before any fit") if auto_repeats else ""
    parser.add_argument("--repeats", type=_repeats_or_auto if auto_repeats else _positive_int,
                        default=default_cv_repeats,
                        help=f"repeats of the cross-validation{auto} (default: {default_cv_repeats})")
    parser.add_argument("--confidence", type=_confidence, default=0.95, help="confidence level (default: 0.95)")
    _add_run_options(parser)


def _add_plan_parser(commands):
    """The ``plan`` command's parser: the learners, the data (for N and the pilot) and the comparison planned."""
    parser = commands.add_parser(
        "plan", help="before the fits: the smallest difference a comparison would detect, its cost, and the data or "
                     "repeats a difference needs")
    parser.add_argument("estimator_a", metavar="ESTIMATOR_A", help="an alias or a dotted path")
    parser.add_argument("estimator_b", metavar="ESTIMATOR_B", help="an alias or a dotted path")
    parser.add_argument("--params-a", help="JSON hyper-parameters of ESTIMATOR_A")
    parser.add_argument("--params-b", help="JSON hyper-parameters of ESTIMATOR_B")
    _add_data_options(parser)
    _add_groups_option(parser)
    _add_task_option(parser)
    parser.add_argument("--metric", default=None, metavar="NAME",
                        help="the decision's metric (default: accuracy; for regression the loss)")
    parser.set_defaults(loss=None, pos_label=None, time=None, run=_run_plan)
    parser.add_argument("--cv", type=_fold_count, default=10,
                        help="number of folds K, or 'loo' (planned without a pilot; default: 10)")
    parser.add_argument("--repeats", type=_repeats_or_auto, default="auto",
                        help="repeats R, or 'auto': what compare --repeats auto would plan (default: auto)")
    parser.add_argument("--n-samples", type=_positive_int, metavar="N",
                        help="the N to plan for (default: the data's)")
    parser.add_argument("--difference", type=_positive_number, metavar="D",
                        help="a difference to detect: the N and repeats that detect it with --power")
    parser.add_argument("--margin", type=_positive_number, metavar="M",
                        help="a non-inferiority margin (or equivalence, --question equivalent) to show when the "
                             "learners are equal: the N and repeats that show it")
    parser.add_argument("--question", choices=("non-inferior", "equivalent"), default=None,
                        help="with --margin: plan non-inferiority (default) or equivalence")
    parser.add_argument("--power", type=_confidence, default=0.8, help="the power planned for (default: 0.8)")
    parser.add_argument("--confidence", type=_confidence, default=0.95, help="confidence level (default: 0.95)")
    parser.add_argument("--no-pilot", action="store_true",
                        help="plan from the calibration benchmark's cells alone (its population's variance) instead "
                             "of a 1 x K-fold pilot on the data (2 K fits)")
    _add_run_options(parser, seeded="the pilot's partition and models")


def _budget(text):
    """``--budget``: a number of fits, or a multiple of one 10-fold cross-validation such as 8x."""
    multiple = text.strip().lower().endswith("x")
    try:
        value = float(text.strip()[:-1]) if multiple else int(text)
    except ValueError:
        value = 0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number of fits, such as 200, or a multiple of one 10-fold "
                                         f"cross-validation, such as 8x; got {text!r}")
    return text.strip().lower() if multiple else value


def _add_budget_option(parser):
    parser.add_argument("--budget", type=_budget, default=None, metavar="FITS",
                        help="the most fits to run: a number, or a multiple of one 10-fold cross-validation of the "
                             "learners such as 8x (default: no limit); the plan is said before the first fit")


def _add_decision_options(parser):
    parser.add_argument("--nested", default="auto", choices=("auto", "always", "never"),
                        help="nested cross-validation's difference interval (5 x 5 folds, 150 fits; 100 with --cv 5 "
                             "--repeats 5 or more, whose fits are its outer ones), on which the "
                             "decision can rest: auto runs it when no test computable from the folds is calibrated "
                             "for these learners and this size and it is (with --groups, on folds of whole groups; "
                             "default: auto)")
    parser.add_argument("--margin", type=_positive_number, metavar="M",
                        help="ask whether A is no worse than B by M (in the metric's units; for a loss, an "
                             "increase), not whether either is better: the decision answers 'A non-inferior' or "
                             "'not shown non-inferior'")
    parser.add_argument("--question", choices=("non-inferior", "equivalent"), default=None,
                        help="with --margin: non-inferior (default) or equivalent (A and B within +-M, two one-sided "
                             "tests)")


def _add_study_kind(kinds, name, description, *, pair=False, options=()):
    """``cvinference study NAME``: its estimator(s), population, sizes, ``options`` and the run options."""
    parser = kinds.add_parser(name, help=description, description=description)
    if pair:
        parser.add_argument("estimator_a", metavar="ESTIMATOR_A", help="an alias or a dotted path")
        parser.add_argument("estimator_b", metavar="ESTIMATOR_B", help="an alias or a dotted path")
        parser.add_argument("--params-a", help="JSON hyper-parameters of ESTIMATOR_A")
        parser.add_argument("--params-b", help="JSON hyper-parameters of ESTIMATOR_B")
    else:
        parser.add_argument("estimator", metavar="ESTIMATOR",
                            help="an alias (logreg, tree, nb, knn, svm, rf, gb, dummy) or a dotted path")
        parser.add_argument("--params", help="JSON hyper-parameters, such as '{\"C\": 0.5}'")
    _add_data_options(parser, default="synthetic",
                      names=f"the population: a study population ({', '.join(POPULATIONS)}), "
                            f"a bundled dataset ({', '.join(BUNDLED)})")
    parser.add_argument("--sample-size", type=_at_least_two, required=True, metavar="N",
                        help="instances per drawn sample (required)")
    parser.add_argument("--draws", type=_at_least_two, default=100, metavar="D",
                        help="samples drawn from the population (default: 100)")
    for flags, settings in options:
        parser.add_argument(*flags, **settings)
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="keep finished draws in FILE while the study runs; a rerun of the same command resumes")
    _add_run_options(parser, seeded="the samples, partitions and models")
    parser.set_defaults(run=_run_study)


def _cv_option(default, name="n_splits"):
    return (("--cv",), dict(type=_at_least_two, default=default, metavar="K",
                            help=f"number of folds ({name}; default: {default})"))


def _repeats_option(default, name):
    return (("--repeats",), dict(type=_positive_int, default=default, metavar="R",
                                 help=f"repetitions of the cross-validation on every sample ({name}; "
                                      f"default: {default})"))


def _add_study_parser(commands):
    study = commands.add_parser("study", help="how good is cross-validation itself: a study on a population",
                                description="Draw many samples from a population, cross-validate the "
                                            "estimator on each and measure the truth on the rest.")
    kinds = study.add_subparsers(dest="kind", metavar="KIND", parser_class=_Parser, required=True)
    _add_study_kind(kinds, "conditional", "what repeated cross-validation estimates: the conditional or the "
                    "unconditional error (conditional_error_study)",
                    options=[_cv_option(10, "cv"), _repeats_option(30, "max_repeats")])
    _add_study_kind(kinds, "winner", "how often cross-validation picks the really better of two estimators "
                    "(winner_table)", pair=True, options=[_cv_option(10, "cv"), _repeats_option(1, "n_repeats")])
    _add_study_kind(kinds, "precision", "how precise K-fold cross-validation is for several K (precision_study)",
                    options=[(("--folds",), dict(type=_fold_list, default=(2, 3, 5, 10), metavar="K,K,...",
                                                 help="numbers of folds, increasing (default: 2,3,5,10)")),
                             (("--loss",), dict(default="log_loss", choices=("log_loss", "zero_one", "brier"),
                                                help="per-instance loss (default: log_loss)")),
                             _repeats_option(1, "n_repeats")])
    _add_study_kind(kinds, "fold-size", "Wong's three ways of cutting a sample into k folds, side by side "
                    "(fold_size_study)",
                    options=[_cv_option(5),
                             (("--confidence",), dict(type=_confidence, default=0.95, metavar="LEVEL",
                                                      help="level of the fold-level t interval whose coverage "
                                                           "is measured (default: 0.95)"))])


def _add_select_parser(commands):
    select = commands.add_parser(
        "select", help="a grid search: which candidates are really worse than the best",
        description="Cross-validate every candidate of a grid on the same repeated stratified k-fold splits (plain "
                    "k-fold for a regression target, group k-fold with --groups) and compare each with the best "
                    "(corrected resampled t, Holm-adjusted p-values).")
    select.add_argument("estimator", help="an alias (logreg, tree, nb, knn, svm, rf, gb, dummy; ridge, linreg, "
                                          "tree_reg, knn_reg, svr, rf_reg, gb_reg, hgb_reg, dummy_reg for regression) "
                                          "or a dotted path")
    select.add_argument("--grid", required=True, metavar="JSON",
                        help="the grid as JSON, such as '{\"max_depth\": [1, 2, 3, null]}' (null is None)")
    select.add_argument("--params", help="JSON hyper-parameters shared by every candidate")
    _add_data_options(select)
    _add_groups_option(select)
    _add_task_option(select)
    select.add_argument("--cv", type=_at_least_two, default=10, metavar="K", help="number of folds (default: 10)")
    select.add_argument("--repeats", type=_positive_int, default=10, metavar="R",
                        help="repeats of the k-fold cross-validation (default: 10, as Bouckaert & Frank advise)")
    select.add_argument("--scoring", help="a scikit-learn scorer name (default: the estimator's score, accuracy or "
                                          "R²)")
    select.add_argument("--correction", default="holm", choices=("holm", "bonferroni", "none"),
                        help="adjustment of the p-values for the comparisons (default: holm)")
    select.add_argument("--alpha", type=_alpha, default=0.05, help="family-wise level (default: 0.05)")
    select.add_argument("--confidence", type=_confidence, default=0.95,
                        help="level of each difference's interval (default: 0.95)")
    select.add_argument("--simplest", metavar="PARAM",
                        help="also name the candidate each refit rule picks, simplest by PARAM (smaller is simpler)")
    select.add_argument("--descending", action="store_true", help="with --simplest: larger values are simpler")
    _add_run_options(select)
    select.set_defaults(run=_run_select)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """A library's warning on one line of stderr, without its source location."""
    print(f"cvinference: warning: {category.__name__}: {' '.join(str(message).split())}", file=sys.stderr)


def build_parser():
    parser = _Parser(prog="cvinference", description="Honest statistical inference from cross-validation.")
    parser.add_argument("--traceback", action="store_true", help="show the full traceback of an internal error")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    demo = commands.add_parser("demo", help="compare two classifiers on the bundled breast_cancer data")
    _add_common_options(demo, default_cv_repeats=5, with_data=False)
    _add_decision_options(demo)
    _add_budget_option(demo)
    demo.set_defaults(run=_run_demo)

    evaluate = commands.add_parser("evaluate", help="one estimator: accuracy, intervals, conditions")
    evaluate.add_argument("estimator", help="an alias (logreg, tree, nb, knn, svm, rf, gb, dummy; for regression "
                                            "linreg, ridge, tree_reg, knn_reg, svr, rf_reg, gb_reg, hgb_reg, "
                                            "dummy_reg) or a dotted path")
    evaluate.add_argument("--params", help="JSON hyper-parameters, such as '{\"C\": 0.5}'")
    _add_common_options(evaluate)
    _add_budget_option(evaluate)
    evaluate.set_defaults(run=_run_evaluate)

    compare = commands.add_parser("compare", help="two estimators on identical folds: every applicable test")
    compare.add_argument("estimator_a", metavar="ESTIMATOR_A", help="an alias or a dotted path")
    compare.add_argument("estimator_b", metavar="ESTIMATOR_B", help="an alias or a dotted path")
    compare.add_argument("--params-a", help="JSON hyper-parameters of ESTIMATOR_A")
    compare.add_argument("--params-b", help="JSON hyper-parameters of ESTIMATOR_B")
    _add_common_options(compare, default_cv_repeats="auto", auto_repeats=True)  # compare's n_repeats default
    _add_decision_options(compare)
    _add_budget_option(compare)
    compare.set_defaults(run=_run_compare)

    _add_select_parser(commands)
    _add_study_parser(commands)
    _add_plan_parser(commands)
    return parser


def main(argv=None, out=None):
    """Run the command line; return the exit status.

    Parameters
    ----------
    argv : list of str, default=None
        Arguments without the program name; None reads ``sys.argv``.
    out : file, default=None
        Where reports go; None means standard output.

    Returns
    -------
    int
        The exit status: 0 when the report was printed, 2 for a mistake on
        the command line (told in one line on standard error), 1 for an
        internal error, 130 when interrupted.

    Examples
    --------
    >>> import io
    >>> from cvinference.cli import main
    >>> main(["evaluate", "nb", "--data", "no_such_data.csv"], out=io.StringIO())
    2
    """
    out = sys.stdout if out is None else out
    args = None
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise UserError("a command is required; try 'cvinference demo' or 'cvinference --help'")
        with warnings.catch_warnings(record=True) as caught, workers_end_with_this_process(args.n_jobs):
            warnings.simplefilter("ignore" if args.quiet else "default")
            warnings.simplefilter("ignore", InferenceWarning)  # the report shows them
            status = args.run(args, out)
        shown = set()
        for warning in caught:  # only once the command succeeded: a failure is told in one line
            if (warning.category, str(warning.message)) not in shown:  # once, however many fits raised it
                shown.add((warning.category, str(warning.message)))
                _show_warning(warning.message, warning.category, warning.filename, warning.lineno)
        return status
    except BrokenPipeError:  # the reader went away (| head): nothing more to say
        return 0
    except KeyboardInterrupt:  # Ctrl-C: the shell's convention is 128 + SIGINT
        return tell_interrupted()
    except Exception as exc:
        if was_interrupted(exc):  # raised while a library was stopping after Ctrl-C
            return tell_interrupted()
        if isinstance(exc, UserError):
            print(f"cvinference: error: {exc}", file=sys.stderr)
            return 2
        if args is not None and args.traceback:
            raise
        details = " ".join([*str(exc).split(), *" ".join(getattr(exc, "__notes__", [])).split()])
        print(f"cvinference: internal error: {type(exc).__name__}: {details} (rerun with --traceback "
              "for details)", file=sys.stderr)
        return 1
