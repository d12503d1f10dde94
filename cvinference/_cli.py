"""The ``cvinference`` command line."""

import argparse
import sys

from ._evaluate import CVEvaluator


class UserError(Exception):
    """A mistake in the command line: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UserError(message)


def _demo_estimators():
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    return (
        make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
        DecisionTreeClassifier(random_state=0),
    )


def _run_demo(args, out):
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    if args.cv > len(y):
        raise UserError(f"--cv {args.cv} is more folds than the {len(y)} instances of breast_cancer; use 2 to {len(y)}")
    logreg, tree = _demo_estimators()
    evaluator = CVEvaluator(cv=args.cv, n_jobs=args.n_jobs, random_state=args.seed)
    pair = evaluator.compare(logreg, tree, X, y)
    print(
        "cvinference demo: scaled logistic regression (A) against a decision tree (B)\n"
        "on the bundled breast_cancer data (569 instances), both on the same\n"
        f"stratified equal-size {args.cv}-fold partition (random_state={args.seed}).\n",
        file=out,
    )
    print(pair.summary(), file=out)
    return 0


def _fold_count(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer number of folds, got {text!r}") from None
    if value < 2:
        raise argparse.ArgumentTypeError(f"cross-validation needs at least 2 folds, got {value}")
    return value


def _n_jobs(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value == 0:
        raise argparse.ArgumentTypeError(f"expected a non-zero integer (-1 for all cores), got {text!r}")
    return value


def build_parser():
    parser = _Parser(prog="cvinference", description="Honest statistical inference from cross-validation.")
    parser.add_argument("--traceback", action="store_true", help="show the full traceback of an internal error")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    demo = commands.add_parser("demo", help="compare two classifiers on the bundled breast_cancer data")
    demo.add_argument("--cv", type=_fold_count, default=10, help="number of folds (default: 10)")
    demo.add_argument("--seed", type=int, default=0, help="random_state from which the partition is drawn (default: 0)")
    demo.add_argument("--n-jobs", type=_n_jobs, default=None, help="parallel jobs for the fits (default: 1)")
    demo.set_defaults(run=_run_demo)
    return parser


def main(argv=None, out=None):
    """Run the command line; return the exit status.

    Parameters
    ----------
    argv : list of str, default=None
        Arguments without the program name; None reads ``sys.argv``.
    out : file, default=None
        Where reports go; None means standard output.
    """
    out = sys.stdout if out is None else out
    parser = build_parser()
    args = None
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise UserError("a command is required; try 'cvinference demo' or 'cvinference --help'")
        return args.run(args, out)
    except UserError as exc:
        print(f"cvinference: error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        if args is not None and args.traceback:
            raise
        details = " ".join([*str(exc).split(), *" ".join(getattr(exc, "__notes__", [])).split()])
        print(f"cvinference: internal error: {type(exc).__name__}: {details} (rerun with --traceback "
              "for details)", file=sys.stderr)
        return 1
