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

``--nested-defaults`` runs the same cells (``coverage-nested-defaults``, ``null-nested-defaults``) with the
library's defaults alone (K = 5, R = 5), 1,000 replications a cell by default: a replication costs a
twenty-third of the grid's, so the cells the defaults are judged by can be measured to a Monte-Carlo standard
error of about 0.007 near 0.05. Their seeds differ from the grid's and the main run's (the cells' keys
differ), so the evidence pools the three runs' replications of a cell.
"""

import math
import re

import numpy as np
from scipy import stats

import cvinference as cvi
from cvinference.records import NestedCVResult
from cvinference.records._nested_cv_result import N_REPEATS, N_SPLITS, nested_fit_count

SPLITS = (5, 10)
REPEATS = (3, 5, 10, 25)
NOMINAL = 0.95
TASK = "nested-grid"
DEFAULTS_TASK = "nested-defaults"
GRIDS = {TASK: {k: REPEATS for k in SPLITS}, DEFAULTS_TASK: {N_SPLITS: (N_REPEATS,)}}
"""The configurations each mode measures: K -> the R read from the first R of max(R) partitions."""


def rate_row(successes, trials):
    """A rate's figures: ``measured``, its Monte-Carlo standard error and 95% Wilson interval, ``replications``."""
    measured = successes / trials
    wilson = stats.binomtest(int(successes), int(trials)).proportion_ci(NOMINAL, method="wilson")
    return {"measured": measured, "mc_se": math.sqrt(measured * (1 - measured) / trials),
            "wilson_low": float(wilson.low), "wilson_high": float(wilson.high), "replications": int(trials)}


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


def grid_intervals(estimator, X, y, seed, estimator_b=None, grid=GRIDS[TASK]):
    """Every configuration's interval (low, high) and fits, from one nested run per K of ``grid``."""
    seeds = np.random.default_rng(seed).integers(2**31, size=len(grid))
    intervals, fits = {}, {}
    for (n_splits, repeats), split_seed in zip(grid.items(), seeds, strict=True):
        record = cvi.evaluation.nested_cross_validation(estimator, X, y, estimator_b=estimator_b, n_splits=n_splits,
                                                        n_repeats=max(repeats), random_state=int(split_seed))
        for n_repeats in repeats:
            interval = cvi.inference.nested_cv_interval_of(first_repeats(record, n_repeats), confidence_level=NOMINAL)
            name = config_name(n_splits, n_repeats)
            intervals[name] = (float(interval.low), float(interval.high))
            fits[name] = int(interval.details["n_fits"])  # of all the learners
    return intervals, fits


def coverage_record(estimator, X, y, conditional_accuracy, seed, grid=GRIDS[TASK]):
    """One coverage replication's record: accuracy bounds of every configuration, and the truth."""
    errors, fits = grid_intervals(estimator, X, y, seed, grid=grid)
    intervals = {name: (1 - high, 1 - low) for name, (low, high) in errors.items()}
    return {"intervals": intervals, "fits": fits, "truth": {"conditional": conditional_accuracy}}


def null_record(estimators, X, y, true_difference, seed, grid=GRIDS[TASK]):
    """One null replication's record: does each configuration's difference interval leave out 0?"""
    intervals, fits = grid_intervals(estimators[0], X, y, seed, estimator_b=estimators[1], grid=grid)
    tests = {name: {"reject": not low <= 0 <= high, "width": high - low, "target": "conditional"}
             for name, (low, high) in intervals.items()}
    return {"tests": tests, "fits": fits, "truth": {"conditional": true_difference}}


def _widths(record, method):
    if "intervals" in record:
        low, high = record["intervals"][method]
        return high - low
    return record["tests"][method]["width"]


def task_of(kind):
    """The task of a cell kind of this module ("null-nested-grid": "nested-grid"), or None for another kind."""
    return next((task for task in GRIDS if kind.endswith(f"-{task}")), None)


def with_costs(rows, records, task=TASK):
    """The rows with each configuration's fits per learner and the spread of its width over the replications."""
    return [dict(row, task=task, n_fits=nested_fit_count(*configuration(row["method"])),
                 width_sd=float(np.std([_widths(r, row["method"]) for r in records], ddof=1)))
            for row in rows]


def nested_grid_cells(cell_class, replications=None, task=TASK):
    """Tree and logistic regression at N = 100 and 300 on the synthetic population, the tree at 300 on phoneme.

    200 replications a cell for the grid, 1,000 for the defaults alone (``task="nested-defaults"``).
    """
    r = replications or (200 if task == TASK else 1000)
    found = []
    for kind, population, real in ((f"coverage-{task}", "nonlinear", "phoneme"),
                                   (f"null-{task}", "nonlinear", "phoneme-pairs")):
        found += [cell_class(kind, population, lrn, n, r) for lrn in ("tree", "logistic") for n in (100, 300)]
        found.append(cell_class(kind, real, "tree", 300, r))
    return found
