"""What ``cvinference study KIND`` does: the population, the estimators, the study, its report and files.

Every mistake that can be seen before the first fit is reported before it:
the command line's own checks (output paths, data, estimators, a loss
without ``predict_proba``) come first, then the study's, which refuses a bad
argument with a ValueError or TypeError before it fits anything; both become
a :class:`~cvinference.cli._errors.UserError`. An estimator's failure inside a
fit (a class missing from a training part, say) is a user error as it is for
``evaluate``; anything else is an internal error.
"""

import contextlib
import dataclasses
import os
import re
import traceback
from pathlib import Path

import numpy as np

from ..studies import (
    POPULATIONS,
    conditional_error_study,
    fold_size_study,
    load_population,
    precision_study,
    winner_table,
)
from ..studies._draws import run_draws
from ._commands import check_loss, check_outputs, fit_failure, progress, showing_progress, shows_text, write_outputs
from ._data import Dataset, load_data
from ._errors import UserError
from ._estimators import build_estimator
from ._outputs import staged_outputs

REPORT_FORMAT = "cvinference.study_report"
REPORT_VERSION = 1

_PACKAGE = Path(__file__).resolve().parents[1]

#: The study parameters every kind takes: parameter -> (attribute of the parsed arguments, option).
_SHARED = {"sample_size": ("sample_size", "--sample-size"), "n_draws": ("draws", "--draws"),
           "random_state": ("seed", "--seed"), "n_jobs": ("n_jobs", "--n-jobs"),
           "checkpoint": ("checkpoint", "--checkpoint")}


@dataclasses.dataclass(frozen=True)
class _Kind:
    """A study the command runs: its function, and its own parameters as (attribute, option)."""

    function: object
    parameters: dict
    pair: bool = False


KINDS = {
    "conditional": _Kind(conditional_error_study, {"cv": ("cv", "--cv"), "max_repeats": ("repeats", "--repeats")}),
    "winner": _Kind(winner_table, {"cv": ("cv", "--cv"), "n_repeats": ("repeats", "--repeats")}, pair=True),
    "precision": _Kind(precision_study, {"folds": ("folds", "--folds"), "loss": ("loss", "--loss"),
                                         "n_repeats": ("repeats", "--repeats")}),
    "fold-size": _Kind(fold_size_study, {"n_splits": ("cv", "--cv"), "confidence_level": ("confidence",
                                                                                           "--confidence")}),
}
"""``KIND`` -> the study it runs."""

_FIT_ADVICE = ("A sample or a training part may lack a class: pass a larger --sample-size or fewer folds, or "
               "check the estimator's --params")


def load_population_data(data, *, target=None, impute=False):
    """The population of ``--data``: a study population, a bundled data set or a CSV file.

    A name in :data:`~cvinference.studies.POPULATIONS` is loaded with
    :func:`~cvinference.studies.load_population` (one that needs a package that
    is not installed is a user error); anything else goes to
    :func:`~cvinference.cli._data.load_data`.

    Examples
    --------
    >>> from cvinference.cli._study import load_population_data
    >>> mushroom = load_population_data("mushroom")
    >>> mushroom.name, mushroom.n_samples, mushroom.n_features
    ('mushroom', 5644, 98)
    """
    if data not in POPULATIONS:
        return load_data(data, target=target, impute=impute, other_names=POPULATIONS)
    if target is not None:
        raise UserError(f"--target {target} applies to CSV files only; the population {data!r} has its own "
                        "target, so drop --target")
    try:
        population = load_population(data)
    except ValueError as exc:  # a package that the population needs is not installed
        raise UserError(f"--data {data}: {' '.join(str(exc).split())}") from None
    return Dataset(X=population.data, y=np.asarray(population.target), name=data,
                   feature_names=tuple(population.feature_names))


def _with_options(message, options):
    """``message`` with the study's parameter names replaced by the command line's options.

    ``name=value`` becomes ``--option value`` (a quoted string unquoted, a tuple
    written as the comma-separated list the option takes); a bare name with an
    underscore (``sample_size``), which is no English word, becomes the option.
    """
    def value(match):
        text = match.group(2)
        if text.startswith("("):
            text = text[1:-1].replace(", ", ",")
        elif text.startswith("'"):
            text = text[1:-1]
        return f"{options[match.group(1)]} {text}"

    names = "|".join(re.escape(name) for name in options)
    message = re.sub(rf"\b({names})=('[^']*'|\([^)]*\)|[^\s,;]*[^\s,;.])", value, message)
    words = "|".join(re.escape(name) for name in options if "_" in name)
    return re.sub(rf"(?<![\w-])({words})\b", lambda match: options[match.group(1)], message) if words else message


def _refusal(exc, options):
    """A study's refusal of an argument as a UserError; None for an exception that is no refusal.

    A refusal is a ValueError or TypeError that cvinference's own code raised
    (the innermost frame of its traceback is in the package) and not within
    the draws' fits (:func:`~cvinference.studies._draws.run_draws`), that
    is, one of the checks a study makes before its first fit. One raised
    inside numpy, scikit-learn or Python, or within the fits, is a fault,
    not a refusal.
    """
    if not isinstance(exc, (ValueError, TypeError)):
        return None
    code = [frame.f_code for frame, _ in traceback.walk_tb(exc.__traceback__)]
    if not code or run_draws.__code__ in code:
        return None
    raised_in = Path(code[-1].co_filename).resolve()
    if _PACKAGE not in raised_in.parents:
        return None
    return UserError(_with_options(" ".join(str(exc).split()), options))


def _contents(path):
    """The bytes of the file ``path``; None when there is none, or when it cannot be read (the study refuses it)."""
    try:
        return Path(path).read_bytes() if path is not None and os.path.isfile(path) else None
    except OSError:
        return None


@contextlib.contextmanager
def _checkpoint_unchanged_on_error(path):
    """Leave ``--checkpoint`` as it was when the study stops with an error (it would fail again the same way).

    An interruption (Ctrl-C, or a killed process) keeps the draws finished
    so far: that is what the checkpoint is for. A file that cannot be read
    is left alone: the study refuses it before it writes anything.
    """
    before = _contents(path)
    unreadable = before is None and path is not None and os.path.isfile(path)
    try:
        yield
    except Exception:
        now = _contents(path)
        if now != before and not unreadable:
            with contextlib.suppress(OSError):  # the error that stopped the study is the one to report
                if before is None:
                    os.remove(path)
                else:
                    with staged_outputs() as stage:
                        Path(stage(path)).write_bytes(before)
        raise


def _run(kind, estimators, dataset, keywords, options):
    try:
        return kind.function(*estimators, dataset.X, dataset.y, **keywords)
    except (ValueError, TypeError) as exc:
        error = fit_failure(exc, _FIT_ADVICE) or _refusal(exc, options)
        if error is None:
            raise
        raise error from None


def _specs(args, kind):
    if kind.pair:
        return [("estimator_a", args.estimator_a, "params_a", args.params_a),
                ("estimator_b", args.estimator_b, "params_b", args.params_b)]
    return [("estimator", args.estimator, "params", args.params)]


def _header(dataset, descriptions):
    estimators = (f"estimator {descriptions[0]}" if len(descriptions) == 1
                  else f"a = {descriptions[0]}, b = {descriptions[1]}")
    return f"{dataset.name}: {dataset.n_samples} instances, the population; {estimators}"


def _report(args, kind, specs, dataset, descriptions, result):
    """The JSON report: the command, the population and the estimators around the result's ``to_dict()``."""
    options = {}
    for name, spec, params_name, params in specs:
        options[name], options[params_name] = spec, params
    options.update(data=args.data, target=args.target, impute=args.impute)
    for attribute, _ in [*_SHARED.values(), *kind.parameters.values()]:
        if attribute not in ("n_jobs", "checkpoint"):
            value = getattr(args, attribute)
            options[attribute] = list(value) if isinstance(value, tuple) else value
    return {"format": REPORT_FORMAT, "version": REPORT_VERSION, "command": "study", "kind": args.kind,
            "options": options, "data": {"name": dataset.name, "n_samples": dataset.n_samples},
            "estimators": descriptions, "result": result.to_dict()}


def run_study(args, out):
    """``cvinference study KIND ...``: print the study's summary; write its JSON and PNG when asked."""
    kind = KINDS[args.kind]
    check_outputs(args)
    dataset = load_population_data(args.data, target=args.target, impute=args.impute)
    specs = _specs(args, kind)
    built = [build_estimator(spec, params=params, dataset=dataset, random_state=args.seed)
             for _, spec, _, params in specs]
    if "loss" in kind.parameters:
        for (estimator, _), (_, spec, _, _) in zip(built, specs, strict=True):
            check_loss(args, estimator, spec)
    parameters = {**_SHARED, **kind.parameters}
    keywords = {name: getattr(args, attribute) for name, (attribute, _) in parameters.items()}
    progress(args, f"{args.kind} study: {args.draws} samples of {args.sample_size} from {dataset.name}")
    with _checkpoint_unchanged_on_error(args.checkpoint):
        result = _run(kind, [estimator for estimator, _ in built], dataset,
                      {**keywords, "verbose": int(showing_progress(args))},
                      {name: option for name, (_, option) in parameters.items()})
    descriptions = [description for _, description in built]
    report = _report(args, kind, specs, dataset, descriptions, result)
    write_outputs(args, report, lambda path: result.plot(path=path), out)
    if shows_text(args):
        print(f"{_header(dataset, descriptions)}\n\n{result.summary()}", file=out)
    return 0
