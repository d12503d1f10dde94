"""Vanwinckelen & Blockeel's experiments: what repeated cross-validation estimates, how often it picks the winner."""

import numbers

import numpy as np

from .._utils._kinds import Sequence
from ..records._losses import get_loss
from ._checkpoint import Proportion, Record
from ._draws import run_draws
from ._population import (
    check_classes_in_sample,
    check_draws_fit,
    check_sample_size,
    plan_draws,
    population,
    rest_of_population,
    study_checkpoint,
)

ERROR = get_loss("zero_one")


def n_splits_of(cv):
    """The number of folds of a ``cv`` argument (an int or a splitter)."""
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        return int(cv)
    if hasattr(cv, "get_n_splits"):
        return int(cv.get_n_splits())
    raise TypeError(f"cv must be an int >= 2 or a k-fold splitter with a random_state; got cv={cv!r}.")


def algorithm_1_record(*, n_estimators, n_repeats, sample_size, population_size):
    """What a draw of Algorithm 1 keeps: each learner's conditional error and its error in each repeat.

    The conditional error is a proportion of the rows outside the sample,
    a repeat's error one of the sample's rows (each is tested once per
    repeat).
    """
    return Record(conditional=Sequence(Proportion(population_size - sample_size), length=n_estimators),
                  cv=Sequence(Sequence(Proportion(sample_size), length=n_repeats), length=n_estimators))


def run_algorithm_1(estimators, X, y, *, study, sample_size, n_draws, cv, n_repeats, random_state, n_jobs,
                    checkpoint, verbose, arguments):
    """Vanwinckelen & Blockeel's Algorithm 1 for one or more learners on the same samples and partitions.

    Returns ``(conditional, repeat_error)``: the conditional errors, shape
    (n_draws, n_estimators), and each repeat's cross-validation error, shape
    (n_draws, n_estimators, n_repeats).
    """
    X, y, classes = population(estimators, X, y, needed_by=study)
    check_sample_size(sample_size, y.size, n_splits=n_splits_of(cv), needed_by=study)
    check_classes_in_sample(y, sample_size, needed_by=study)
    check_draws_fit(arguments)
    saved = study_checkpoint(checkpoint, random_state, study=study, estimators=list(estimators.values()), X=X, y=y,
                             arguments=arguments, n_draws=n_draws,
                             record=algorithm_1_record(n_estimators=len(estimators), n_repeats=n_repeats,
                                                       sample_size=sample_size, population_size=y.size))

    def choose_sample(rng):
        return rng.choice(y.size, sample_size, replace=False)

    plans = plan_draws(X, y, n_draws=n_draws, random_state=random_state, choose_sample=choose_sample,
                       scored=rest_of_population(y.size), cv=cv, n_repeats=n_repeats)

    def summarize(fits):
        return {"conditional": [moments.mean for moments in fits.truth],
                "cv": [loss.mean(axis=1).tolist() for loss in fits.cv_loss]}

    records = run_draws(list(estimators.values()), X, y, plans, names=list(estimators), loss=ERROR, classes=classes,
                        summarize=summarize, checkpoint=saved, n_jobs=n_jobs, verbose=verbose)
    return (np.array([record["conditional"] for record in records]),
            np.array([record["cv"] for record in records]))


def cumulative_mean(values):
    """The mean of the first r values along the last axis, for r = 1, 2, ...: repeated CV after r repetitions."""
    return np.cumsum(values, axis=-1) / np.arange(1, values.shape[-1] + 1)


def repeat_counts(max_repeats):
    """The repetition counts reported in tables: 1, 2, 5, 10, 20, 30, ... up to and including ``max_repeats``."""
    counts = [r for r in (1, 2, 5, 10, 20, 30, 50, 100) if r < max_repeats]
    return counts + [max_repeats]
