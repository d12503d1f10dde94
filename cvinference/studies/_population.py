"""What every study shares: the population's checks, the plan of its draws, its checkpoint and its loss."""

import os
import tempfile
import warnings

import joblib
import numpy as np
from sklearn.base import clone

from .._utils._arrays import python_scalar
from .._utils._params import VERBOSE, Integer, Jobs, Rule, Seed
from .._utils._validation import (
    check_estimator_methods,
    check_fits_in_memory,
    check_not_regressor,
    prepare_data,
)
from .._utils._warnings import InferenceWarning, first_caller_outside_package
from ..evaluation._fit_task import ScoredRows
from ..studies._checkpoint import Checkpoint
from ._draws import draw_seeds, plan_draw


class CheckpointPath(Rule):
    """A ``checkpoint``: None or a file path (str or path-like) in an existing folder this process can write.

    The folder is tried by making (and removing) a temporary file in it, as
    every save does, and a file already there must be readable and
    writable: a checkpoint the study cannot keep is refused before any fit.

    Examples
    --------
    >>> import os, tempfile
    >>> blocker = os.path.join(tempfile.mkdtemp(), "a_file")
    >>> open(blocker, "w").close()
    >>> CheckpointPath().check("checkpoint", os.path.join(blocker, "study.json"))
    Traceback (most recent call last):
    ...
    ValueError: checkpoint must be None or the path of a file (str or os.PathLike) in an existing, writable folder;
    got checkpoint='.../a_file/study.json'.
    """

    def describe(self):
        return "None or the path of a file (str or os.PathLike) in an existing, writable folder"

    def check(self, name, value):
        if value is None:
            return None
        if not isinstance(value, (str, os.PathLike)):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        path = os.fspath(value)
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path) or not os.path.isdir(folder):
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        try:
            handle, probe = tempfile.mkstemp(prefix=".cvinference-", suffix=".tmp", dir=folder)
        except OSError as exc:
            raise ValueError(f"{name}={path!r} is in a folder this process cannot write ({exc.strerror}), and the "
                             f"study saves its draws there; make {folder!r} writable, or choose a checkpoint path "
                             "in another folder.") from None
        os.close(handle)
        os.remove(probe)
        if os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK):
            raise ValueError(f"{name}={path!r} exists and this process cannot read or write it, and the study "
                             "reads its finished draws from it and saves new ones; make it readable and writable, "
                             "or choose another checkpoint path.")
        return path

    def invalid_values(self):
        return [(1, TypeError), (b"draws.json", TypeError), (os.curdir, ValueError),
                (os.path.join("no such folder", "draws.json"), ValueError)]


STUDY_RULES = dict(sample_size=Integer(minimum=2), n_draws=Integer(minimum=2), random_state=Seed(), n_jobs=Jobs(),
                   checkpoint=CheckpointPath(), verbose=VERBOSE)
"""The parameters every study shares, and their rules."""


def population(estimators, X, y, *, needed_by):
    """Checked estimators and population: indexable X, y as an array, and the classes."""
    for name, estimator in estimators.items():
        check_estimator_methods(estimator, name)
        check_not_regressor(estimator, name, f"{needed_by} measures classification errors")
    X, _, _, y_array = prepare_data(X, y, classification=True, needed_by=needed_by)
    return X, y_array, np.unique(y_array)


def check_sample_size(sample_size, available, *, n_splits, needed_by, rest_needed=1, where="the population"):
    """Refuse a ``sample_size`` too small for the folds or leaving no rest; warn when the rest is smaller than it."""
    if sample_size < 2 * n_splits:
        raise ValueError(
            f"sample_size={sample_size} is too small for {n_splits}-fold cross-validation in {needed_by}: each "
            f"training part needs instances of every class; pass sample_size >= {2 * n_splits}."
        )
    if sample_size + rest_needed > available:
        raise ValueError(
            f"sample_size={sample_size} leaves too few rows of {where} ({available}) to measure the truth on: "
            f"{needed_by} needs at least {rest_needed} rows outside each sample. Pass sample_size <= "
            f"{available - rest_needed}, or a larger population."
        )
    rest = available - sample_size
    if rest_needed and rest < sample_size:
        warnings.warn(
            f"sample_size={sample_size} leaves {rest} rows of {where} ({available}) outside each sample: the truth is "
            f"measured on fewer rows than the sample holds (its standard error is up to 0.5/sqrt({rest}) = "
            f"{0.5 / np.sqrt(rest):.2g}), and the samples overlap heavily, so they vary less than independent "
            f"datasets would. Pass sample_size <= {available // 2}, or a larger population.",
            InferenceWarning, stacklevel=first_caller_outside_package())


def check_classes_in_sample(y, sample_size, *, needed_by):
    """Refuse a population whose rarest class would often miss from a sample of ``sample_size``."""
    classes, counts = np.unique(y, return_counts=True)
    expected = counts.min() * sample_size / y.size
    if expected < 2:
        raise ValueError(
            f"class {python_scalar(classes[np.argmin(counts)])!r} holds {counts.min()} of {y.size} rows, so a sample "
            f"of sample_size={sample_size} holds {expected:.2g} of them on average and the learner often sees none; "
            f"{needed_by} needs about 2 or more. Pass a larger sample_size, or merge the rare class."
        )


def study_checkpoint(checkpoint, random_state, *, study, estimators, X, y, arguments, n_draws, record=None,
                     parts=None):
    """The study's :class:`Checkpoint`, keyed by everything that decides its draws; None without a path.

    ``record`` (or ``parts``, ``{name: Record}``, for a study that keeps its
    draws in parts) declares what the study's records hold: the file's
    draws are checked against it, and against ``n_draws``, as it is read.
    """
    if checkpoint is None:
        return None
    if not isinstance(random_state, int):
        raise ValueError(
            f"checkpoint={checkpoint!r} needs an int random_state, so that a restarted run draws the same "
            f"samples; got random_state={random_state!r}."
        )
    fingerprint = joblib.hash([study, [clone(estimator) for estimator in estimators], X, y, random_state,
                               sorted(arguments.items())])
    return Checkpoint(checkpoint, fingerprint, n_draws=n_draws, record=record, parts=parts)


def check_draws_fit(arguments, plans_per_draw=1):
    """Refuse a study whose plans, every draw's sample and folds made before any fit, would not fit in memory.

    ``arguments`` are the study's (``n_draws``, ``sample_size`` and its
    ``n_repeats`` or ``max_repeats`` when it has them).
    """
    repeats = {name: arguments[name] for name in ("max_repeats", "n_repeats") if name in arguments}
    rows = plans_per_draw * (1 + sum(repeats.values(), 0) or 1) * arguments["sample_size"]
    check_fits_in_memory({"n_draws": arguments["n_draws"], **repeats}, arguments["n_draws"] * rows * 8,
                         f"the plans of the draws ({rows} indices of 8 bytes per draw: its sample and its folds), "
                         "made before any fit,")


def plan_draws(X, y, *, n_draws, random_state, choose_sample, scored, cv, n_repeats):
    """The plan of every draw, from one seed per draw."""
    return [plan_draw(X, y, seed, choose_sample=choose_sample, scored=scored, cv=cv, n_repeats=n_repeats,
                      classifier=True)
            for seed in draw_seeds(random_state, n_draws)]


def rest_of_population(n_rows):
    """The truth of Vanwinckelen & Blockeel's Algorithm 1: every row of the population outside the sample."""
    def scored(sample):
        return ScoredRows(0, n_rows, np.sort(sample))
    return scored
