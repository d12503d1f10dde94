"""The calibration cells of nested cross-validation's (K, R) grid (issue 31, item 1): what folds and repeats buy.

``benchmarks/calibration.py --nested-grid`` runs them; this module holds the grid and the figures of one
replication. Each replication runs nested cross-validation once with R = 25 partitions for each K in
(5, 10), and reads the interval of every R in (3, 5, 10, 25) from the first R of those partitions (a
record of R repeats is the first R repeats of the same seed's record): the configurations of a replication
share their sample, their truth and their partitions (common random numbers).

Cells (``Cell.n`` instances drawn from the population, as in the main run):
- ``coverage-nested-grid``: one learner's error interval (turned into accuracy), against the conditional
  target (the accuracy of the model fitted to the whole sample on the held-back rows: what nested CV
  estimates) and the unconditional one (its mean over the replications);
- ``null-nested-grid``: the difference interval of the learner on block 1 and on block 2 (equal by
  construction), which rejects when it leaves out 0.

Every row carries ``n_fits`` (R K (K + 1) / 2 per learner, in the pair cells too) and ``width_sd``, the spread
of the interval's width over the replications: how steady the estimate of the mean squared error is.
"""

import re

import numpy as np

import cvinference as cvi
from cvinference.records import NestedCVResult
from cvinference.records._nested_cv_result import nested_fit_count

SPLITS = (5, 10)
REPEATS = (3, 5, 10, 25)
NOMINAL = 0.95
TASK = "nested-grid"


def config_name(n_splits, n_repeats):
    """The method name of one configuration, as its rows carry it."""
    return f"nested-cv (K={n_splits}, R={n_repeats})"


def configuration(method):
    """(K, R) of a configuration's method name (:func:`config_name`)."""
    k, r = re.fullmatch(r"nested-cv \(K=(\d+), R=(\d+)\)", method).groups()
    return int(k), int(r)


def first_repeats(record, n_repeats):
    """The record of the first ``n_repeats`` partitions of ``record``."""
    return NestedCVResult(fold=record.fold[:n_repeats], outer=record.outer[:, :n_repeats],
                          inner=record.inner[:, :n_repeats], loss_name=record.loss_name,
                          estimator_reprs=record.estimator_reprs, cv_repr=record.cv_repr, groups=record.groups)


def grid_intervals(estimator, X, y, seed, estimator_b=None):
    """Every configuration's interval (low, high, standard error) and fits, from one nested run per K."""
    seeds = np.random.default_rng(seed).integers(2**31, size=len(SPLITS))
    intervals, fits = {}, {}
    for n_splits, split_seed in zip(SPLITS, seeds, strict=True):
        record = cvi.nested_cross_validation(estimator, X, y, estimator_b=estimator_b, n_splits=n_splits,
                                             n_repeats=max(REPEATS), random_state=int(split_seed))
        for n_repeats in REPEATS:
            interval = cvi.nested_cv_interval_of(first_repeats(record, n_repeats), confidence_level=NOMINAL)
            name = config_name(n_splits, n_repeats)
            intervals[name] = (float(interval.low), float(interval.high))
            fits[name] = int(interval.details["n_fits"])  # of all the learners
    return intervals, fits


def coverage_record(estimator, X, y, conditional_accuracy, seed):
    """One coverage replication's record: accuracy bounds of every configuration, and the truth."""
    errors, fits = grid_intervals(estimator, X, y, seed)
    intervals = {name: (1 - high, 1 - low) for name, (low, high) in errors.items()}
    return {"intervals": intervals, "fits": fits, "truth": {"conditional": conditional_accuracy}}


def null_record(estimators, X, y, true_difference, seed):
    """One null replication's record: does each configuration's difference interval leave out 0?"""
    intervals, fits = grid_intervals(estimators[0], X, y, seed, estimator_b=estimators[1])
    tests = {name: {"reject": not low <= 0 <= high, "width": high - low, "target": "conditional"}
             for name, (low, high) in intervals.items()}
    return {"tests": tests, "fits": fits, "truth": {"conditional": true_difference}}


def _widths(record, method):
    if "intervals" in record:
        low, high = record["intervals"][method]
        return high - low
    return record["tests"][method]["width"]


def with_costs(rows, records):
    """The rows with each configuration's fits per learner and the spread of its width over the replications."""
    return [dict(row, task=TASK, n_fits=nested_fit_count(*configuration(row["method"])),
                 width_sd=float(np.std([_widths(r, row["method"]) for r in records], ddof=1)))
            for row in rows]


def nested_grid_cells(cell_class, replications=None):
    """Tree and logistic regression at N = 100 and 300 on the synthetic population, the tree at 300 on phoneme."""
    r = replications or 200
    found = []
    for kind, population, real in (("coverage-nested-grid", "nonlinear", "phoneme"),
                                   ("null-nested-grid", "nonlinear", "phoneme-pairs")):
        found += [cell_class(kind, population, lrn, n, r) for lrn in ("tree", "logistic") for n in (100, 300)]
        found.append(cell_class(kind, real, "tree", 300, r))
    return found
