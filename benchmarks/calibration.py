"""Calibration: how often every interval covers each target, and how often every test rejects, with real fits.

A large dataset stands in for the population. Each replication draws a
training sample of N rows without replacement, runs every method on it, and
scores the models on rows outside the sample (the truth). Within a
replication every method sees the same sample, the same 10-fold partition
(the first repeat of the 10 x 10-fold) and the same truth: common random
numbers, so differences between methods are not Monte-Carlo noise of
different draws. The coverage cells also cross-validate the learner on a
10 x 10-fold whose first repeat is that partition, and measure the pooled
intervals of that repeated result (methods "normal (10 repeats)",
"wilson (10 repeats)", "clopper-pearson (10 repeats)", "auto (10 repeats)").

Populations
-----------
- ``nonlinear``: 250,000 rows of ten standard-normal features in two blocks
  of five, y = 1[g(block 1) + s g(block 2) + logistic noise > 0] with
  g(b) = sin(2 b1) + b2 b3 + 0.6 |b4| - 0.5 b5 - 0.48 (s = 1). 50,000 rows are
  held back for the truth (k-NN, slow to predict, is scored on the first
  10,000 of them); samples come from the other 200,000. Swapping the
  blocks leaves the population unchanged, so a learner on block 1 and the same
  learner on block 2 have exactly equal expected accuracy at every training
  size: the null of the type-I cells.
- ``nonlinear-power``: the same with s = 0.6, so the learner on block 1 is
  better (power); the true difference is estimated from the held-back rows.
- ``familywise`` cells (population ``nonlinear``): a grid search of four
  candidates equal by construction (the learner on block 1 or block 2 with
  one independent standard-normal column appended, a new column for each
  candidate) on 10 x 10-fold; ``compare_candidates`` compares them with the
  best of them, and the row says how often it declares any worse
  (quantity ``familywise_error``), with Holm, Bonferroni, no adjustment, and
  the naive t over the splits with Holm (a positive control).
- ``fair`` (6,366 rows, statsmodels): a real population; the truth is the
  rest of the population (about 5,400-6,300 rows), different in every draw.

Targets (see docs/inference.md, "Targets")
------------------------------------------
- ``kfold``: the mean held-back accuracy of the ten fold models of the draw
  (for the "(10 repeats)" methods, of the 100 fold models of the 10 x 10-fold);
- ``conditional``: the held-back accuracy of the model fitted to the whole
  sample;
- ``unconditional``: the mean of the conditional accuracies over the
  replications of the cell (its Monte-Carlo error is printed beside it);
  the conservative Z, built for a smaller training size n_train, is also
  measured against the unconditional accuracy at that size (method
  "conservative-z (at n_train = ...)"), the mean held-back accuracy of a
  model fitted to the first n_train rows of every sample.

Rows (JSON, one per method, quantity, target, cell)::

    {method, quantity: coverage|type_i|power|familywise_error, target, learner, n, population,
     nominal, measured, mc_se, wilson_low, wilson_high, replications,
     mean_width, truth}

``measured`` is the covering (or rejecting) fraction, ``mc_se`` its
Monte-Carlo standard error sqrt(p (1 - p) / R), ``wilson_low``/``wilson_high``
its 95% Wilson interval (``scipy.stats.binomtest``), ``mean_width`` the mean
width of the interval (for tests: of the difference's interval) and ``truth``
the mean target value (for power: the true difference).

Modes: ``--quick`` (the tree and logistic regression at N = 100 and 300,
100 replications per cell; the tree pair's null and power; the tree's
family-wise cell at N = 300) was meant to stay under 10 minutes on 2 cores (513 s), and the 10 x 10-fold
of the coverage cells makes them about three times as costly (about 12 minutes in all, estimated); the
full mode (four learners, N = 100, 300, 1000, the real population, 500 replications per cell) is long on 2
cores: it keeps every finished replication in ``--checkpoint`` (JSON lines) so it can be
stopped and resumed, and ``--cells`` runs a subset. Results do not depend
on ``--n-jobs`` (each replication has its own seed, spawned from
``--seed``; fits inside a replication use one job). With ``--dask`` the
replications run on a Dask cluster instead: the populations go to every
worker once, a task holds whole replications, and the checkpoint is written
as they finish.

``--decision`` (calibration_decision.py, issue 45) measures what ``decide`` rests on for the learners people
use, at the sizes they use: a 25-tree random forest and histogram gradient boosting at N = 300, 1,000, 3,000
and 10,000 and logistic regression at N = 100, 300, 1,000, on the symmetric null (``null-decision``) and the
power population at N = 1,000 and 3,000 (``power-decision``). A replication fits one 10 x R-fold (R = 10; 3 at
N = 10,000, with ``response_method="predict_proba"``) and one 5x2cv t, and reads from them, for every prefix
of r = 1, 3, 10 repeats and for accuracy, balanced accuracy and ROC AUC, every test ``decide`` weighs (kept in
the record's ``candidates``) and the decision without nested CV at r = 1 and r = R; rows carry ``task``
("classification", "balanced_accuracy", "roc_auc"). The null's truth is 0 by symmetry (no whole-sample fits);
a power cell's truth is accuracy's difference, for every metric. ``forest100`` (100 trees) at N = 300 shares
the 25-tree cell's seeds: the report prints both rates and the discordant replications. Replications per cell:
``calibration_decision.DECISION_REPLICATIONS`` (``--replications`` sets them all).

    python benchmarks/calibration.py --quick [--n-jobs 2]
    python benchmarks/calibration.py --n-jobs 2 --checkpoint /tmp/calibration.jsonl \\
        --out benchmarks/results/calibration.json
    python benchmarks/calibration.py --dask local:16 --checkpoint /tmp/calibration.jsonl
    OMP_NUM_THREADS=1 python benchmarks/calibration.py --decision --n-jobs 1 --checkpoint /tmp/decision.jsonl \\
        --out benchmarks/results/calibration_decision.json
"""

import argparse
import collections
import contextlib
import dataclasses
import functools
import json
import os
import sys
import tempfile
import time
import warnings

import calibration_nested as nested_grid
import numpy as np
from calibration_decision import (
    DECISION_KINDS,
    decision_cells,
    decision_replication,
    decision_rows,
    forest_size_report,
    seed_key,
)
from calibration_grouped import GROUPED_REPLICATIONS, MODECHOICE, grouped_cells, load_grouped
from joblib import Parallel, delayed
from regression_figures import REGRESSION_METRICS, regression_figures
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV, Ridge
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import cvinference as cvi
from cvinference.model_selection._multiple_testing import adjust_pvalues
from cvinference.records._nested_cv_result import N_REPEATS as N_REPEATS_NESTED
from cvinference.records._nested_cv_result import N_SPLITS as N_SPLITS_NESTED

NOMINAL = 0.95
ALPHA = 0.05
N_SPLITS = 10
N_REPEATS = 10
SUBSAMPLING_ROUNDS = 15
NESTED = {"n_splits": N_SPLITS_NESTED, "n_repeats": N_REPEATS_NESTED}  # the library's defaults: 75 fits per learner
CONSERVATIVE_Z = {"n_pairs": 5, "n_rounds": 10}  # J (2 M + 1) = 110 fits per learner (the default 10 x 15: 315)
HELD_BACK = 50_000
BLOCK = 5
FAMILY = 4  # equal candidates of a family-wise cell
PAIRS = "-pairs"  # a real population's paired_population: the null of the type-I cells on real data
TRUTH_ROWS = 10_000  # the learners that predict slowly are scored on the first 10,000 held-back rows
SLOW_PREDICTORS = ("knn", "forest", "hgb", "svm")
NEW_LEARNERS = ("svm", "hgb", "forest")  # the --learners mode's, cheapest first
REAL = ("phoneme", "spambase")
VISITS = "randhie-visits"  # statsmodels' randhie with its count target: the real regression population
TASKS = {"coverage-auc": "roc_auc", "null-auc": "roc_auc", "power-auc": "roc_auc",
         "coverage-regression": "regression", "null-regression": "regression", "power-regression": "regression",
         "coverage-grouped": "grouped", "null-grouped": "grouped", "power-grouped": "grouped",
         "coverage-grouped-regression": "grouped-regression", "null-grouped-regression": "grouped-regression",
         "power-grouped-regression": "grouped-regression", "null-grouped-refit": "grouped",
         "coverage-grouped-nested": "grouped", "null-grouped-regression-refit": "grouped-regression"}
"""The --metrics and --grouped modes' cell kinds and the ``task`` their rows carry (the decision reads rows of its
task)."""
DECISION = "decision (decide, as shipped, --nested auto)"
DECISION_FOLDS = "decision (decide, as shipped, without nested CV)"
REPEATED = f" ({N_REPEATS} repeats)"  # the name's suffix of the pooled intervals of a 10 x 10-fold result


class OnColumns(ClassifierMixin, BaseEstimator):
    """``estimator`` fitted to and predicting from the columns ``start <= j < stop`` of X only."""

    def __init__(self, estimator, start, stop):
        self.estimator = estimator
        self.start = start
        self.stop = stop

    def fit(self, X, y):
        self.model_ = clone(self.estimator).fit(X[:, self.start:self.stop], y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X[:, self.start:self.stop])


def _columns(X, start, stop):
    return X[:, start:stop]


def learner(name, columns=None):
    """A fresh estimator; ``columns`` (start, stop) restricts it to those features (the pair cells).

    The restriction is a pipeline's first step, so the learner stays the pipeline's final step, where
    ``decide`` recognises it (its evidence is that learner's).
    """
    estimators = {
        # liblinear: the same penalised fit as lbfgs, seven times faster on these small samples
        "logistic": lambda: make_pipeline(StandardScaler(), LogisticRegression(solver="liblinear")),
        # a regularisation path: 10 values of C chosen by an inner 5-fold cross-validation
        "logistic_cv": lambda: make_pipeline(StandardScaler(), LogisticRegressionCV(Cs=10, cv=5)),
        "tree": lambda: DecisionTreeClassifier(random_state=0),
        "knn": lambda: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=15, algorithm="brute")),
        "naive_bayes": GaussianNB,
        "forest": lambda: RandomForestClassifier(random_state=0),
        "hgb": lambda: HistGradientBoostingClassifier(random_state=0),
        "svm": lambda: make_pipeline(StandardScaler(), SVC()),
        "ridge": lambda: make_pipeline(StandardScaler(), Ridge()),
        "tree_reg": lambda: DecisionTreeRegressor(random_state=0),
    }
    estimator = estimators[name]()
    if columns is None:
        return estimator
    start, stop = columns
    return make_pipeline(FunctionTransformer(_columns, kw_args={"start": start, "stop": stop}), estimator)


def _block_score(block):
    return (np.sin(2 * block[:, 0]) + block[:, 1] * block[:, 2] + 0.6 * np.abs(block[:, 3])
            - 0.5 * block[:, 4] - 0.48)


def nonlinear_population(strength=1.0, n_rows=HELD_BACK + 200_000, seed=20261123):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_rows, 2 * BLOCK))
    score = _block_score(X[:, :BLOCK]) + strength * _block_score(X[:, BLOCK:])
    y = (score + rng.logistic(scale=0.6, size=n_rows) > 0).astype(np.int64)
    return X, y


@dataclasses.dataclass(frozen=True)
class Population:
    X: np.ndarray
    y: np.ndarray
    held_back: int  # the first ``held_back`` rows are the truth; 0: the rest of the population is

    def draw(self, n, rng):
        pool = np.arange(self.held_back, self.y.size)
        sample = rng.choice(pool, size=n, replace=False)
        if self.held_back:
            truth = np.arange(self.held_back)
        else:
            truth = np.setdiff1d(pool, sample, assume_unique=True)
        return sample, truth


def paired_population(X, y, seed=20261124):
    """Two real instances of one class side by side, in both orders: learners on either half are equal.

    The instances of each class are matched at random into disjoint pairs (i, j), and each pair gives
    the rows [x_i, x_j] and [x_j, x_i] with their class (one instance of an odd class is left out).
    Swapping the halves maps the population onto itself, so a learner on the first half and the same
    learner on the second have exactly equal expected accuracy over the draws at every training size:
    the null of the type-I cells, on real class-conditional distributions.
    """
    rng = np.random.default_rng(seed)
    first, second = [], []
    for label in np.unique(y):
        rows = rng.permutation(np.flatnonzero(y == label))
        rows = rows[:rows.size - rows.size % 2]
        first += [rows[0::2], rows[1::2]]
        second += [rows[1::2], rows[0::2]]
    first, second = np.concatenate(first), np.concatenate(second)
    return np.hstack([X[first], X[second]]), y[first]


def regression_population(strength=1.0, n_rows=HELD_BACK + 200_000, seed=20261125):
    """The regression twin of :func:`nonlinear_population`: y = g(block 1) + s g(block 2) + N(0, 1) noise."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_rows, 2 * BLOCK))
    y = _block_score(X[:, :BLOCK]) + strength * _block_score(X[:, BLOCK:]) + rng.standard_normal(n_rows)
    return X, y


def paired_regression_population(X, y, seed=20261124):
    """Two real instances side by side, in both orders, with the mean of their targets: the regression null.

    The rows are matched at random into disjoint pairs (i, j); each pair gives [x_i, x_j] and [x_j, x_i],
    both with target (y_i + y_j) / 2 (one row of an odd count is left out). Swapping the halves maps the
    population onto itself, so a regressor on either half has the same expected loss at every training size.
    """
    rows = np.random.default_rng(seed).permutation(y.size)
    first, second = rows[0:rows.size - 1:2], rows[1::2]
    target = (y[first] + y[second]) / 2
    return (np.vstack([np.hstack([X[first], X[second]]), np.hstack([X[second], X[first]])]),
            np.concatenate([target, target]))


def randhie_visits():
    """statsmodels' randhie (RAND Health Insurance Experiment): 9 features, the count of outpatient visits."""
    from statsmodels.datasets import randhie

    data = randhie.load_pandas()
    return data.exog.to_numpy(dtype=np.float64), data.endog.to_numpy(dtype=np.float64)


def load(name):
    if name.startswith("clustered-") or name == MODECHOICE:
        return load_grouped(name)
    if name in ("regression", "regression-power"):
        return Population(*regression_population(strength=0.6 if name.endswith("power") else 1.0),
                          held_back=HELD_BACK)
    if name.startswith(VISITS):
        X, y = randhie_visits()
        if name.endswith(PAIRS):
            X, y = paired_regression_population(X, y)
        return Population(X, y, held_back=0)
    if name == "nonlinear":
        return Population(*nonlinear_population(), held_back=HELD_BACK)
    if name == "nonlinear-power":
        return Population(*nonlinear_population(strength=0.6), held_back=HELD_BACK)
    from cvinference.studies import load_population
    X, y = load_population(name.removesuffix(PAIRS), return_X_y=True)
    if name.endswith(PAIRS):
        X, y = paired_population(X, np.asarray(y))
    return Population(X, np.asarray(y), held_back=0)


@dataclasses.dataclass(frozen=True)
class Cell:
    kind: str  # "coverage", "null", "power", "familywise", or "coverage-folds", "null-folds" (see learner_cells)
    population: str
    learner: str
    n: int
    replications: int

    @property
    def key(self):
        return f"{self.kind}/{self.population}/{self.learner}/{self.n}"


def learner_cells(replications=None):
    """The learners people use (an RBF SVM, histogram gradient boosting, a random forest), cheapest first.

    Record-based intervals only ("coverage-folds": one 10-fold partition; what accuracy_interval chooses
    among) on the synthetic population and two real ones, and the tests ``cvinference compare`` runs
    before nested CV ("null-folds": 10 x 10 folds and the 5x2cv t, and the decision from them) on the
    synthetic null and the real populations made null by :func:`paired_population`.
    """
    r = replications or 300
    coverage = [Cell("coverage-folds", population, lrn, n, r)
                for lrn in NEW_LEARNERS for population in ("nonlinear", *REAL) for n in (100, 300, 1000)]
    nulls = [Cell("null-folds", population, lrn, n, r) for lrn in NEW_LEARNERS for n in (100, 300, 1000)
             for population in ("nonlinear", *(f"{name}{PAIRS}" for name in REAL))]
    return coverage + nulls


def metric_cells(replications=None):
    """ROC AUC and regression: the intervals' coverage and the comparisons' type-I error and power.

    ROC AUC with logistic regression and a decision tree (the synthetic population at N = 100, 300,
    1000; phoneme and spambase, made null by pairing for the type-I cells, at N = 300); regression with
    ridge regression and a regression tree (the synthetic regression population at N = 100, 300, 1000;
    randhie's outpatient visits at N = 300). Power cells hold half the replications.
    """
    r = replications or 200
    synthetic = (100, 300, 1000)
    plans = {"auc": (("logistic", "tree"), "nonlinear", REAL), "regression": (("ridge", "tree_reg"), "regression",
                                                                              (VISITS,))}
    found = []
    for suffix, (learners, population, real) in plans.items():
        for kind, populations in (("coverage", [population, *real]), ("null", [population, *(f"{name}{PAIRS}"
                                                                                        for name in real)])):
            found += [Cell(f"{kind}-{suffix}", name, lrn, n, r) for lrn in learners for name in populations
                      for n in (synthetic if name == population else (300,))]
        found += [Cell(f"power-{suffix}", f"{population}-power", lrn, n, max(r // 2, 1)) for lrn in learners
                  for n in synthetic]
    return found


def cells(mode, replications=None):
    if mode in nested_grid.GRIDS:
        return nested_grid.nested_grid_cells(Cell, replications, task=mode)
    if mode == "grouped":
        return grouped_cells(Cell, replications)
    if mode == "decision":
        return decision_cells(Cell, replications)
    if mode == "learners":
        return learner_cells(replications)
    if mode == "metrics":
        return metric_cells(replications)
    if mode == "quick":
        r = replications or 100
        coverage = [Cell("coverage", "nonlinear", lrn, n, r) for lrn in ("tree", "logistic") for n in (100, 300)]
        pairs = [Cell("null", "nonlinear", "tree", n, r) for n in (100, 300)]
        return coverage + pairs + [Cell("power", "nonlinear-power", "tree", 300, r),
                                   Cell("familywise", "nonlinear", "tree", 300, r)]
    r = replications or 500
    coverage = [Cell("coverage", "nonlinear", lrn, n, r)
                for n in (100, 300, 1000) for lrn in ("tree", "logistic", "naive_bayes", "knn")]
    coverage += [Cell("coverage", "fair", lrn, 300, r) for lrn in ("tree", "logistic")]
    pairs = [Cell(kind, population, lrn, n, r)
             for kind, population in (("null", "nonlinear"), ("power", "nonlinear-power"))
             for n in (100, 300, 1000) for lrn in ("tree", "logistic")]
    families = [Cell("familywise", "nonlinear", lrn, n, r) for n in (100, 300, 1000) for lrn in ("tree", "logistic")]
    return coverage + pairs + families


# ---------------------------------------------------------------------------------------------------------
# One replication


def _accuracy_bounds(interval, loss=False):
    """(low, high) of an interval on the accuracy scale; a zero-one loss interval is turned over."""
    low, high = float(interval.low), float(interval.high)
    return (1 - high, 1 - low) if loss else (low, high)


def _repeated_intervals(result):
    """The pooled dataset-level intervals of a repeated result, as accuracy bounds."""
    return {f"{method}{REPEATED}": _accuracy_bounds(cvi.accuracy_interval(result, NOMINAL, method=method))
            for method in ("normal", "wilson", "clopper-pearson", "auto")}


def _coverage_intervals(result):
    """Every record-based interval of one 10-fold result, as accuracy bounds."""
    found = {}
    for method in ("normal", "wilson", "clopper-pearson", "auto"):
        interval = cvi.accuracy_interval(result, NOMINAL, method=method)
        found[method] = _accuracy_bounds(interval)
    interval = cvi.accuracy_interval(result, NOMINAL, averaging="fold", method="t")
    found["fold t"] = _accuracy_bounds(interval)
    found["half-sample"] = _accuracy_bounds(cvi.loss_interval(result, NOMINAL), loss=True)
    for variance in ("within-fold", "all-pairs"):
        interval = cvi.loss_interval(result, NOMINAL, method="cv-clt", variance=variance)
        found[f"cv-clt {variance}"] = _accuracy_bounds(interval, loss=True)
    return found


def _refitting_intervals(estimator, X, y, seeds, estimator_b=None):
    """The intervals that refit the learner: nested CV and the conservative Z (accuracy scale, or A - B)."""
    nested = cvi.nested_cv_interval(estimator, X, y, estimator_b=estimator_b, confidence_level=NOMINAL,
                                    random_state=seeds[0], **NESTED)
    conservative = cvi.conservative_z_interval(estimator, X, y, estimator_b=estimator_b, confidence_level=NOMINAL,
                                               random_state=seeds[1], **CONSERVATIVE_Z)
    turn = estimator_b is None  # one learner: an error interval, turned into accuracy; A - B is already signed
    bounds = {"nested-cv": _accuracy_bounds(nested, loss=turn),
              "conservative-z": _accuracy_bounds(conservative, loss=turn)}
    return bounds, int(conservative.details["n_train"]), nested


def _cross_validate(name, X, y, splitters, X_truth, y_truth, output=None, figures=None):
    """Out-of-fold outputs of learner ``name``, one repeat per splitter, and each fold model's truth.

    ``output(model, X)`` is what the record keeps (by default the predicted labels) and
    ``figures(y_truth, output)`` a fold model's held-back figures (by default its accuracy). Returns
    the (n_repeats, n) outputs and folds and the (n_repeats, N_SPLITS) held-back figures of the fold
    models, with a last axis when ``figures`` gives several.
    """
    output = output or (lambda model, rows: model.predict(rows))
    figures = figures or (lambda truth, predicted: np.mean(predicted == truth))
    outputs, fold, fold_truth = None, np.empty((len(splitters), y.size), dtype=np.int64), []
    for r, splitter in enumerate(splitters):
        fold_truth.append([])
        for j, (train, test) in enumerate(splitter.split(X, y)):
            model = clone(learner(name)).fit(X[train], y[train])
            predicted = output(model, X[test])
            if outputs is None:
                outputs = np.empty((len(splitters), y.size), dtype=predicted.dtype)
            outputs[r, test] = predicted
            fold[r, test] = j
            fold_truth[r].append(figures(y_truth, output(model, X_truth)))
    return outputs, fold, np.array(fold_truth)


def _coverage_sample(population, cell, rng):
    """The sample (X, y) of a coverage replication and the rows its models are scored on (X_truth, y_truth)."""
    sample, truth_rows = population.draw(cell.n, rng)
    if cell.learner in SLOW_PREDICTORS:
        truth_rows = truth_rows[:TRUTH_ROWS]
    return population.X[sample], population.y[sample], population.X[truth_rows], population.y[truth_rows]


def _held_back_accuracy(estimator, X, y, X_truth, y_truth):
    return float(np.mean(clone(estimator).fit(X, y).predict(X_truth) == y_truth))


def coverage_replication(population, cell, seed):
    rng = np.random.default_rng(seed)
    X, y, X_truth, y_truth = _coverage_sample(population, cell, rng)
    partition_seeds = [int(rng.integers(2**31))]
    refitting_seeds = [int(s) for s in rng.integers(2**31, size=2)]
    partition_seeds += [int(s) for s in rng.integers(2**31, size=N_REPEATS - 1)]
    splitters = [cvi.StratifiedEqualSizeKFold(N_SPLITS, shuffle=True, random_state=s) for s in partition_seeds]
    y_pred, fold, fold_truth = _cross_validate(cell.learner, X, y, splitters, X_truth, y_truth)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        intervals = _coverage_intervals(cvi.CVResult(y, y_pred[0], fold[0]))
        intervals.update(_repeated_intervals(cvi.CVResult(y, y_pred, fold)))
        refitting, n_train, _ = _refitting_intervals(learner(cell.learner), X, y, refitting_seeds)
    intervals.update(refitting)
    # The sample is in random order, so its first n_train rows are a random training set of that size.
    return {"intervals": intervals,
            "truth": {"kfold": float(np.mean(fold_truth[0])), "kfold_repeated": float(np.mean(fold_truth)),
                      "conditional": _held_back_accuracy(learner(cell.learner), X, y, X_truth, y_truth),
                      "at_n_train": _held_back_accuracy(learner(cell.learner), X[:n_train], y[:n_train], X_truth,
                                                        y_truth),
                      "n_train": n_train}}


def coverage_folds_replication(population, cell, seed):
    """The record-based intervals of one 10-fold partition only (what accuracy_interval chooses among)."""
    rng = np.random.default_rng(seed)
    X, y, X_truth, y_truth = _coverage_sample(population, cell, rng)
    splitter = cvi.StratifiedEqualSizeKFold(N_SPLITS, shuffle=True, random_state=int(rng.integers(2**31)))
    y_pred, fold, fold_truth = _cross_validate(cell.learner, X, y, [splitter], X_truth, y_truth)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        intervals = _coverage_intervals(cvi.CVResult(y, y_pred[0], fold[0]))
    return {"intervals": intervals,
            "truth": {"kfold": float(np.mean(fold_truth[0])),
                      "conditional": _held_back_accuracy(learner(cell.learner), X, y, X_truth, y_truth)}}


def _naive_t_pvalue(a, b):
    return float(stats.ttest_rel(a, b).pvalue)


def _pair_sample(population, cell, rng):
    """The sample (X, y), the learner on each half of the columns (A, B) and the held-back rows."""
    sample, truth_rows = population.draw(cell.n, rng)
    half = population.X.shape[1] // 2
    estimators = (learner(cell.learner, (0, half)), learner(cell.learner, (half, 2 * half)))
    if cell.learner in SLOW_PREDICTORS:
        truth_rows = truth_rows[:TRUTH_ROWS]
    return population.X[sample], population.y[sample], estimators, truth_rows


def _rejection(test):
    low, high = test.confidence_interval(NOMINAL)
    return {"reject": bool(test.pvalue < ALPHA), "width": float(high - low), "target": test.target}


def _fold_tests(estimators, X, y, seed_cv, seed_5x2):
    """Both learners on identical 10 x 10 folds, the tests of their records and the 5x2cv t (with its name)."""
    pair = cvi.CVEvaluator(cv=N_SPLITS, n_repeats=N_REPEATS, random_state=seed_cv).compare(*estimators, X, y)
    a, b = pair.a, pair.b
    tests = {"matched-sample t": cvi.matched_sample_test(a, b, repeat=0),
             "independent-sample z": cvi.independent_sample_test(a, b, repeat=0),
             "McNemar": cvi.mcnemar_test(a, b, repeat=0),
             "corrected t (10x10-fold)": cvi.corrected_resampled_ttest(a, b),
             "5x2cv t": cvi.paired_ttest_5x2cv(*estimators, X, y, random_state=seed_5x2)}
    return pair, tests


def _decision(pair, five_by_two=None, nested=None, metric="accuracy"):
    """What ``decide`` answers, as ``cvinference compare --nested auto`` runs it (the evidence shipped now).

    It declares a difference when it answers "A better" or "B better"; ``nested`` (a callable giving
    nested CV's difference interval) is asked for only when the folds' tests cannot tell. The accuracy
    tests are the records' and ``five_by_two``'s; another metric's are decide's own.
    """
    tests = None if five_by_two is None else [*cvi.policy.pair_tests(pair), ("5x2cv t", five_by_two)]
    decision = cvi.decide(pair, tests=tests, metric=metric, confidence_level=NOMINAL)
    if decision.answer == "cannot tell" and nested is not None:
        decision = cvi.decide(pair, tests=tests, metric=metric, nested=nested(), confidence_level=NOMINAL)
    rests_on = decision.rests_on
    return {"reject": decision.answer in ("A better", "B better"),
            "width": None if rests_on is None else rests_on.high - rests_on.low,
            "target": "per test" if rests_on is None else rests_on.target,
            "rests_on": "cannot tell" if rests_on is None else rests_on.name}


def _pair_truth(population, estimators, X, y, truth_rows):
    X_truth, y_truth = population.X[truth_rows], population.y[truth_rows]
    accuracy = [_held_back_accuracy(e, X, y, X_truth, y_truth) for e in estimators]
    return {"conditional": accuracy[0] - accuracy[1]}


def pair_replication(population, cell, seed):
    rng = np.random.default_rng(seed)
    X, y, estimators, truth_rows = _pair_sample(population, cell, rng)
    seed_cv, seed_5x2, seed_sub = (int(s) for s in rng.integers(2**31, size=3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair, tests = _fold_tests(estimators, X, y, seed_cv, seed_5x2)
        tests["5x2cv F"] = cvi.combined_ftest_5x2cv(*estimators, X, y, random_state=seed_5x2)
        found = {name: _rejection(test) for name, test in tests.items()}
        found["naive t (10x10-fold, control)"] = {
            "reject": _naive_t_pvalue(pair.a.fold_accuracy.ravel(), pair.b.fold_accuracy.ravel()) < ALPHA,
            "width": None, "target": "unconditional"}
        rounds_a, rounds_b = (cvi.evaluation.random_subsampling(e, X, y, n_rounds=SUBSAMPLING_ROUNDS,
                                                                random_state=seed_sub)
                              for e in estimators)
        found[f"uncorrected resampled t ({SUBSAMPLING_ROUNDS} rounds, control)"] = {
            "reject": _naive_t_pvalue(rounds_a.round_accuracy, rounds_b.round_accuracy) < ALPHA, "width": None,
            "target": "unconditional"}
        refitting, _, nested = _refitting_intervals(estimators[0], X, y, [int(s) for s in rng.integers(2**31, size=2)],
                                                    estimator_b=estimators[1])
        for name, (low, high) in refitting.items():
            found[name] = {"reject": not low <= 0 <= high, "width": high - low,
                           "target": "conditional" if name == "nested-cv" else "unconditional"}
        found[DECISION] = _decision(pair, tests["5x2cv t"], nested=lambda: nested)
    return {"tests": found, "truth": _pair_truth(population, estimators, X, y, truth_rows)}


def pair_folds_replication(population, cell, seed):
    """The tests ``cvinference compare`` computes before nested CV (10 x 10 folds and the 5x2cv t), and the
    decision from them alone (nested CV, 150 fits more, is left out: "cannot tell" declares nothing)."""
    rng = np.random.default_rng(seed)
    X, y, estimators, truth_rows = _pair_sample(population, cell, rng)
    seed_cv, seed_5x2 = (int(s) for s in rng.integers(2**31, size=2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair, tests = _fold_tests(estimators, X, y, seed_cv, seed_5x2)
        found = {name: _rejection(test) for name, test in tests.items()}
        found[DECISION_FOLDS] = _decision(pair, tests["5x2cv t"])
    return {"tests": found, "truth": _pair_truth(population, estimators, X, y, truth_rows)}


def coverage_nested_grid_replication(population, cell, seed):
    """Nested CV's one-learner interval in every (K, R) of the grid (calibration_nested.py)."""
    rng = np.random.default_rng(seed)
    X, y, X_truth, y_truth = _coverage_sample(population, cell, rng)
    conditional = _held_back_accuracy(learner(cell.learner), X, y, X_truth, y_truth)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nested_grid.coverage_record(learner(cell.learner), X, y, conditional, int(rng.integers(2**31)),
                                           grid=nested_grid.GRIDS[nested_grid.task_of(cell.kind)])


def null_nested_grid_replication(population, cell, seed):
    """Nested CV's difference interval of a null pair in every (K, R) of the grid (calibration_nested.py)."""
    rng = np.random.default_rng(seed)
    X, y, estimators, truth_rows = _pair_sample(population, cell, rng)
    truth = _pair_truth(population, estimators, X, y, truth_rows)["conditional"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nested_grid.null_record(estimators, X, y, truth, int(rng.integers(2**31)),
                                       grid=nested_grid.GRIDS[nested_grid.task_of(cell.kind)])


# ROC AUC and regression (the --metrics mode)


def _positive_score(model, rows):
    """The score of the second class, as ``response_method="auto"`` keeps it (predict_proba first)."""
    if hasattr(model, "predict_proba"):
        return model.predict_proba(rows)[:, 1]
    return model.decision_function(rows)


def _metric_sample(population, cell, rng):
    """A coverage sample, its held-back rows capped at TRUTH_ROWS (the fold models score them 100 times).

    A synthetic population's held-back rows are independent draws, so the first TRUTH_ROWS are a random
    subset; a real population's rest is in the data's own order, so a random subset of it is drawn.
    """
    X, y, X_truth, y_truth = _coverage_sample(population, cell, rng)
    if population.held_back == 0 and y_truth.size > TRUTH_ROWS:
        keep = rng.choice(y_truth.size, size=TRUTH_ROWS, replace=False)
        return X, y, X_truth[keep], y_truth[keep]
    return X, y, X_truth[:TRUTH_ROWS], y_truth[:TRUTH_ROWS]


def _splitters(kind, rng):
    splitter = cvi.StratifiedEqualSizeKFold if kind.endswith("auc") else cvi.EqualSizeKFold
    return [splitter(N_SPLITS, shuffle=True, random_state=int(s)) for s in rng.integers(2**31, size=N_REPEATS)]


def coverage_auc_replication(population, cell, seed):
    """ROC AUC intervals of one 10-fold partition and of the 10 x 10-fold whose first repeat it is."""
    rng = np.random.default_rng(seed)
    X, y, X_truth, y_truth = _metric_sample(population, cell, rng)
    y_score, fold, fold_truth = _cross_validate(cell.learner, X, y, _splitters(cell.kind, rng), X_truth, y_truth,
                                                _positive_score, roc_auc_score)
    classes = np.unique(y)
    y_pred = classes[(y_score > 0.5).astype(int)]
    one, repeated = (cvi.CVResult(y, y_pred[rows], fold[rows], y_score=y_score[rows], response_method="predict_proba")
                     for rows in (slice(0, 1), slice(None)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        intervals = {method: _accuracy_bounds(cvi.metric_interval(one, "roc_auc", method=method))
                     for method in ("corrected-t", "delong")}
        intervals[f"corrected-t{REPEATED}"] = _accuracy_bounds(cvi.metric_interval(repeated, "roc_auc"))
    model = clone(learner(cell.learner)).fit(X, y)
    return {"intervals": intervals,
            "truth": {"kfold": float(np.mean(fold_truth[0])), "kfold_repeated": float(np.mean(fold_truth)),
                      "conditional": float(roc_auc_score(y_truth, _positive_score(model, X_truth)))}}


def coverage_regression_replication(population, cell, seed):
    """MSE, MAE and R2 intervals (the CV-CLT) of one 10-fold partition and the 10 x 10-fold; nested CV's MSE."""
    rng = np.random.default_rng(seed)
    X, y, X_truth, y_truth = _metric_sample(population, cell, rng)
    y_pred, fold, fold_truth = _cross_validate(cell.learner, X, y, _splitters(cell.kind, rng), X_truth, y_truth,
                                               figures=regression_figures)
    one, repeated = (cvi.CVResult(y, y_pred[rows], fold[rows], loss=(y_pred[rows] - y) ** 2,
                                  loss_name="squared_error") for rows in (slice(0, 1), slice(None)))
    conditional = regression_figures(y_truth, clone(learner(cell.learner)).fit(X, y).predict(X_truth))
    intervals, truth = {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for label, (metric, column) in REGRESSION_METRICS.items():
            for variance in ("within-fold", "all-pairs"):
                intervals[f"{label}: cv-clt {variance}"] = _accuracy_bounds(
                    cvi.inference.regression_interval(one, metric, variance=variance))
            intervals[f"{label}: cv-clt{REPEATED}"] = _accuracy_bounds(cvi.inference.regression_interval(repeated,
                                                                                                         metric))
            truth[label] = {"kfold": float(np.mean(fold_truth[0, :, column])),
                            "kfold_repeated": float(np.mean(fold_truth[:, :, column])),
                            "conditional": conditional[column]}
        nested = cvi.nested_cv_interval(learner(cell.learner), X, y, loss="squared_error", confidence_level=NOMINAL,
                                        random_state=int(rng.integers(2**31)), **NESTED)
    intervals["MSE: nested-cv"] = _accuracy_bounds(nested)
    return {"intervals": intervals, "truth": truth}


def _evidence_method(name):
    """A decision test's name as the evidence keeps it: the family, and the folds for the corrected t."""
    if name.startswith("corrected t"):
        return f"corrected t ({N_REPEATS}x{N_SPLITS}-fold)"
    return "CV-CLT (per-instance differences)" if name.startswith("CV-CLT") else name


def metric_pair_replication(population, cell, seed):
    """Two learners on identical 10 x 10 folds: the tests decide() weighs on ROC AUC or on the squared error
    (with nested CV's difference interval for regressors), and the decision as shipped (--nested auto)."""
    rng = np.random.default_rng(seed)
    X, y, estimators, truth_rows = _pair_sample(population, cell, rng)
    seed_cv, seed_nested = (int(s) for s in rng.integers(2**31, size=2))
    auc = TASKS[cell.kind] == "roc_auc"
    evaluator = cvi.CVEvaluator(cv=N_SPLITS, n_repeats=N_REPEATS, random_state=seed_cv,
                                **({"response_method": "auto"} if auc else {"loss": "squared_error"}))
    metric = "roc_auc" if auc else "accuracy"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair = evaluator.compare(*estimators, X, y)
        nested = None if auc else cvi.nested_cv_interval(*estimators[:1], X, y, estimator_b=estimators[1],
                                                         loss="squared_error", confidence_level=NOMINAL,
                                                         random_state=seed_nested, **NESTED)
        decision = cvi.decide(pair, metric=metric, confidence_level=NOMINAL)
        found = {_evidence_method(test.name): {"reject": bool(test.pvalue < ALPHA), "width": test.high - test.low,
                                               "target": test.target}
                 for test in (decision.rests_on, *decision.context)}
        if nested is not None:
            found["nested-cv"] = {"reject": not nested.low <= 0 <= nested.high, "width": nested.high - nested.low,
                                  "target": "conditional"}
        found[DECISION] = _decision(pair, nested=None if nested is None else lambda: nested, metric=metric)
    X_truth, y_truth = population.X[truth_rows], population.y[truth_rows]
    if auc:
        truth = [roc_auc_score(y_truth, _positive_score(clone(e).fit(X, y), X_truth)) for e in estimators]
    else:  # the difference of squared errors B - A: positive when A is better, as the tests'
        truth = [-np.mean((clone(e).fit(X, y).predict(X_truth) - y_truth) ** 2) for e in estimators]
    return {"tests": found, "truth": {"conditional": float(truth[0] - truth[1])}}


def _equal_candidates(X, rng):
    """FAMILY column slices [block, a noise column], blocks alternating: candidates equal by construction.

    The two blocks play the same part in y and the noise columns are independent standard normals, so
    a learner on any slice has the same expected accuracy at every training size.
    """
    noise = rng.standard_normal((X.shape[0], FAMILY))
    parts = []
    for j in range(FAMILY):
        start = (j % 2) * BLOCK
        parts += [X[:, start:start + BLOCK], noise[:, j:j + 1]]
    return np.hstack(parts)


def _naive_holm_rejects(comparison):
    """The positive control: the uncorrected t over the splits (variance factor 1/N), Holm-adjusted."""
    scores = comparison.split_scores
    pvalues = [_naive_t_pvalue(scores[i], scores[comparison.best]) for i in range(scores.shape[0])
               if i != comparison.best]
    return bool((adjust_pvalues(pvalues, "holm") <= ALPHA).any())  # an undefined p (nan) is left out


def familywise_replication(population, cell, seed):
    """FAMILY equal candidates in a grid search on 10 x 10-fold: does any comparison with the best reject?"""
    rng = np.random.default_rng(seed)
    sample, _ = population.draw(cell.n, rng)
    X, y = _equal_candidates(population.X[sample], rng), population.y[sample]
    width = BLOCK + 1
    grid = [{"start": [j * width], "stop": [(j + 1) * width]} for j in range(FAMILY)]
    cv = RepeatedStratifiedKFold(n_splits=N_SPLITS, n_repeats=N_REPEATS, random_state=int(rng.integers(2**31)))
    search = GridSearchCV(OnColumns(learner(cell.learner), 0, width), grid, cv=cv, refit=False).fit(X, y)
    found = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, correction in (("candidates: corrected t, Holm", "holm"),
                                 ("candidates: corrected t, Bonferroni", "bonferroni"),
                                 ("candidates: corrected t, unadjusted (control)", "none")):
            comparison = cvi.compare_candidates(search, correction=correction)
            found[name] = {"reject": bool((comparison.table["pvalue_adjusted"] <= ALPHA).any()),
                           "width": float(np.nanmean(comparison.table["high"] - comparison.table["low"])),
                           "target": comparison.target}
        found["candidates: naive t, Holm (control)"] = {"reject": _naive_holm_rejects(comparison), "width": None,
                                                         "target": "unconditional"}
    return {"tests": found, "truth": {"conditional": 0.0}}


REPLICATIONS = {"coverage": coverage_replication, "null": pair_replication, "power": pair_replication,
                "familywise": familywise_replication, "coverage-folds": coverage_folds_replication,
                "null-folds": pair_folds_replication, "coverage-auc": coverage_auc_replication,
                "coverage-regression": coverage_regression_replication, "null-auc": metric_pair_replication,
                "power-auc": metric_pair_replication, "null-regression": metric_pair_replication,
                "power-regression": metric_pair_replication, "coverage-nested-grid": coverage_nested_grid_replication,
                "null-nested-grid": null_nested_grid_replication,
                "coverage-nested-defaults": coverage_nested_grid_replication,
                "null-nested-defaults": null_nested_grid_replication, **GROUPED_REPLICATIONS,
                **dict.fromkeys(DECISION_KINDS, functools.partial(
                    decision_replication, learner=learner, held_back_accuracy=_held_back_accuracy,
                    truth_rows_cap=TRUTH_ROWS))}
QUANTITIES = {"null": "type_i", "power": "power", "familywise": "familywise_error", "null-folds": "type_i",
              "null-grouped": "type_i", "null-auc": "type_i", "power-auc": "power", "null-regression": "type_i",
              "power-regression": "power", "power-grouped": "power", "null-grouped-regression": "type_i",
              "power-grouped-regression": "power", "null-grouped-refit": "type_i",
              "null-grouped-regression-refit": "type_i", "null-nested-grid": "type_i",
              "null-nested-defaults": "type_i", **DECISION_KINDS}


def replication(population, cell, index, seed):
    run = REPLICATIONS[cell.kind]
    record = run(population, cell, seed)
    record.update(cell=cell.key, replication=index)
    return record


# ---------------------------------------------------------------------------------------------------------
# Rows


def _coverage_rows(cell, records):
    truths = {target: np.array([r["truth"][target] for r in records])
              for target in ("kfold", "conditional") if target in records[0]["truth"]}  # nested CV: no kfold
    truths["unconditional"] = np.full(len(records), truths["conditional"].mean())
    rows = []
    for method in records[0]["intervals"]:
        bounds = np.array([r["intervals"][method] for r in records])
        targets = truths
        if method.endswith(REPEATED):  # the repeated result's k-fold target: its 100 fold models
            targets = dict(truths, kfold=np.array([r["truth"]["kfold_repeated"] for r in records]))
        for target, truth in targets.items():
            covered = int(np.sum((bounds[:, 0] <= truth) & (truth <= bounds[:, 1])))
            rows.append({"method": method, "quantity": "coverage", "target": target, "learner": cell.learner,
                         "n": cell.n, "population": cell.population, "nominal": NOMINAL,
                         **nested_grid.rate_row(covered, len(records)),
                         "mean_width": float(np.mean(bounds[:, 1] - bounds[:, 0])),
                         "truth": float(truth.mean())})
        if method == "conservative-z":  # also against its own target, the learner's error at n_train
            at_n_train = np.full(len(records), np.mean([r["truth"]["at_n_train"] for r in records]))
            covered = int(np.sum((bounds[:, 0] <= at_n_train) & (at_n_train <= bounds[:, 1])))
            rows.append({"method": f"{method} (at n_train = {records[0]['truth']['n_train']})",
                         "quantity": "coverage", "target": "unconditional", "learner": cell.learner, "n": cell.n,
                         "population": cell.population, "nominal": NOMINAL,
                         **nested_grid.rate_row(covered, len(records)),
                         "mean_width": float(np.mean(bounds[:, 1] - bounds[:, 0])), "truth": float(at_n_train[0])})
    return rows


def _test_rows(cell, records):
    rows = []
    truth = float(np.mean([r["truth"]["conditional"] for r in records]))
    for method, first in records[0]["tests"].items():
        rejects = np.array([r["tests"][method]["reject"] for r in records])
        widths = [r["tests"][method]["width"] for r in records]
        widths = [w for w in widths if w is not None] or [None]  # the decision has none when it cannot tell
        rows.append({"method": method, "quantity": QUANTITIES[cell.kind],
                     "target": first["target"], "learner": cell.learner, "n": cell.n,
                     "population": cell.population, "nominal": ALPHA,
                     **nested_grid.rate_row(int(np.sum(rejects)), len(records)),
                     "mean_width": None if widths[0] is None else float(np.mean(widths)),
                     "truth": truth if QUANTITIES[cell.kind] == "power" else 0.0})
        if "rests_on" in first:  # the decision: which test it rested on, how often
            rows[-1]["rests_on"] = dict(collections.Counter(r["tests"][method]["rests_on"] for r in records))
    return rows


def _per_metric_coverage_rows(cell, records):
    """Coverage rows of records whose truth is keyed by metric, each method named "<metric>: <method>"."""
    rows = []
    for metric in records[0]["truth"]:
        rows += _coverage_rows(cell, [
            {"intervals": {name: bounds for name, bounds in r["intervals"].items() if name.startswith(f"{metric}: ")},
             "truth": r["truth"][metric]} for r in records])
    return rows


def rows_of(cell, records):
    records = sorted(records, key=lambda r: r["replication"])
    if cell.kind in DECISION_KINDS:  # one row per metric and method, each with its metric's task
        rows = decision_rows(cell, records, _test_rows)
    elif cell.kind in ("coverage-regression", "coverage-grouped-regression"):
        rows = _per_metric_coverage_rows(cell, records)
    else:
        rows = (_coverage_rows if cell.kind.startswith("coverage") else _test_rows)(cell, records)
    if cell.kind in TASKS:
        rows = [dict(row, task=TASKS[cell.kind]) for row in rows]
    if nested_grid.task_of(cell.kind):
        rows = nested_grid.with_costs(rows, records, nested_grid.task_of(cell.kind))
    return rows


# ---------------------------------------------------------------------------------------------------------
# Running


def seeds(master, cell, replications):
    """One seed per replication of a cell: the first r do not depend on how many are run.

    The key is the cell's (calibration_decision.seed_key: the 100-tree forest's cell shares the 25-tree one's).
    """
    entropy = [master, *seed_key(cell).encode()]
    return [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(entropy).spawn(replications)]


def _checkpoint_record(path, number, line):
    """Line ``number`` of the checkpoint ``path``: a replication's record, or a ValueError saying what is wrong."""
    fix = "remove that line (its replication runs again), or pass another --checkpoint"
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--checkpoint {path}: line {number} is not JSON ({exc}); {fix}.") from None
    if (not isinstance(record, dict) or not isinstance(record.get("cell"), str)
            or type(record.get("replication")) is not int or record["replication"] < 0):
        raise ValueError(f"--checkpoint {path}: line {number} is not a replication's record (an object with a "
                         f"\"cell\" string and a \"replication\" integer >= 0); {fix}.")
    return record


def read_checkpoint(path):
    """The replications the checkpoint ``path`` holds, by (cell key, replication index).

    One JSON object a line, as :func:`run` appends them. A last line without
    its newline is the one a killed run was writing: it is left out (and
    :func:`run` cuts it off before it appends). Any other line that is not a
    replication's record, or a replication held twice with different
    records, is refused with the line's number.
    """
    done = {}
    if not path or not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as handle:
        *whole, _torn = handle.read().split("\n")
    for number, line in enumerate(whole, 1):
        if line.strip():
            record = _checkpoint_record(path, number, line)
            key = record["cell"], record["replication"]
            if done.get(key, record) != record:
                raise ValueError(f"--checkpoint {path}: line {number} holds replication {key[1]} of {key[0]} "
                                 "again, with another record; remove the wrong line (its replication runs again), "
                                 "or pass another --checkpoint.")
            done[key] = record
    return done


def _cut_torn_line(path):
    """Cut off a last line without its newline (a killed run's), so that the next record starts a line."""
    if path and os.path.exists(path):
        with open(path, "rb+") as handle:
            data = handle.read()
            handle.truncate(data.rfind(b"\n") + 1)


def _replication_of(populations, job):
    cell, index, seed = job
    return replication(populations[cell.population], cell, index, seed)


def _run_jobs(populations, jobs, n_jobs, client, keep):
    """``keep(record)`` for each replication as it finishes: on joblib's pool, or on a Dask cluster."""
    if client is None:
        for record in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                delayed(replication)(populations[cell.population], cell, index, s) for cell, index, s in jobs):
            keep(record)
        return
    from cvinference._utils._cluster import run_on_cluster

    # The populations go to every worker once; a task holds whole replications.
    run_on_cluster(client, _replication_of, (populations,), jobs, lambda job, record: keep(record))


def rows_from_checkpoint(selected, checkpoint, complete_only=False):
    """The rows of the selected cells from the replications a checkpoint holds, without running any.

    A cell with fewer replications than asked is reported with those it has (its rows say how many), or
    left out with ``complete_only``; one with none is left out.
    """
    done = read_checkpoint(checkpoint)
    found = {}
    for cell in selected:
        records = [done[cell.key, i] for i in range(cell.replications) if (cell.key, i) in done]
        if records and (len(records) == cell.replications or not complete_only):
            found[cell.key] = rows_of(cell, records)
    return found


def run(selected, *, seed, n_jobs, checkpoint, log=print, client=None):
    done = read_checkpoint(checkpoint)
    populations = {}
    records = {cell.key: [] for cell in selected}
    jobs = []
    for cell in selected:
        if cell.population not in populations:
            populations[cell.population] = load(cell.population)
        for index, replication_seed in enumerate(seeds(seed, cell, cell.replications)):
            if (cell.key, index) in done:
                records[cell.key].append(done[cell.key, index])
            else:
                jobs.append((cell, index, replication_seed))
    jobs.sort(key=lambda job: job[1])  # round-robin over the cells: a run cut short leaves each about as many
    log(f"{len(jobs)} replications to run, {sum(map(len, records.values()))} from the checkpoint")
    _cut_torn_line(checkpoint)
    out = open(checkpoint, "a") if checkpoint else None
    start = time.perf_counter()
    count = 0

    def keep(record):
        nonlocal count
        count += 1
        records[record["cell"]].append(record)
        if out:
            out.write(json.dumps(record) + "\n")
            out.flush()
        if count % 50 == 0 or count == len(jobs):
            elapsed = time.perf_counter() - start
            log(f"  {count}/{len(jobs)} replications, {elapsed:.0f} s, about "
                f"{elapsed / count * (len(jobs) - count):.0f} s left", flush=True)
    try:
        _run_jobs(populations, jobs, n_jobs, client, keep)
    finally:
        if out:
            out.close()
    return {cell.key: rows_of(cell, records[cell.key]) for cell in selected}, time.perf_counter() - start


def print_table(rows_by_cell):
    for key, rows in rows_by_cell.items():
        print(f"\n{key}")
        for row in rows:
            width = "" if row["mean_width"] is None else f"  width {row['mean_width']:.3f}"
            print(f"  {row['quantity']:8s} {row['target']:14s} {row['method']:44s} {row['measured']:.3f} "
                  f"[{row['wilson_low']:.3f}, {row['wilson_high']:.3f}]{width}")


@contextlib.contextmanager
def _cluster(address):
    """A Dask client for ``--dask`` (None without it)."""
    if address is None:
        yield None
        return
    from distributed import Client, LocalCluster

    if address.startswith("local:"):
        with LocalCluster(n_workers=int(address[6:]), threads_per_worker=1, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            yield client
    else:
        with Client(address) as client:
            yield client


def in_key(part, key):
    """Whether ``part`` is a run of whole segments of ``key`` ("tree/100" is in ".../tree/100", not ".../tree/1000")."""
    return f"/{part.strip('/')}/" in f"/{key}/"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--quick", action="store_true")
    modes.add_argument("--learners", action="store_true",
                       help="the cells of the learners people use (learner_cells): an RBF SVM, histogram gradient "
                            "boosting and a random forest, on the synthetic and two real populations")
    modes.add_argument("--grouped", action="store_true",
                       help="grouped data (calibration_grouped.py): the naive and the cluster-robust intervals' "
                            "coverage and the clustered tests' type-I error, with real fits on clustered populations")
    modes.add_argument("--nested-grid", action="store_true",
                       help="nested cross-validation's (K, R) grid (calibration_nested.py): coverage, type-I error, "
                            "width and fits of K in (5, 10) and R in (3, 5, 10, 25)")
    modes.add_argument("--nested-defaults", action="store_true",
                       help="the nested grid's cells at the library's defaults alone (K = 5, R = 5), 1,000 "
                            "replications a cell: the evidence pools them with the grid's and the main run's")
    modes.add_argument("--decision", action="store_true",
                       help="the decision's cells (calibration_decision.py): the type-I error and power of every "
                            "test decide() weighs and of the decision, for a 25-tree forest, gradient boosting and "
                            "logistic regression up to N = 10,000, on accuracy, balanced accuracy and ROC AUC")
    modes.add_argument("--metrics", action="store_true",
                       help="ROC AUC and regression cells (metric_cells): interval coverage, and the type-I error "
                            "and power of the comparisons decide() weighs")
    parser.add_argument("--from-checkpoint", action="store_true",
                        help="run nothing: report the selected cells from the replications --checkpoint holds")
    parser.add_argument("--complete-only", action="store_true",
                        help="with --from-checkpoint: leave out the cells that hold fewer replications than asked")
    parser.add_argument("--replications", type=int, default=None)
    parser.add_argument("--cells", default=None,
                        help="comma-separated parts of the cell keys (kind/population/learner/N) to run, in whole "
                             "segments: tree/100 is not tree/1000")
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checkpoint", default=None)
    parser.add_argument("--out", default=None)
    parser.add_argument("--dask", default=None, metavar="ADDRESS",
                        help="run on this Dask scheduler (tcp://host:8786), or on a LocalCluster of N single-thread "
                             "worker processes with local:N; --n-jobs is then unused")
    args = parser.parse_args(argv)
    mode = ("quick" if args.quick else "learners" if args.learners else "metrics" if args.metrics
            else "decision" if args.decision
            else "grouped" if args.grouped else "nested-grid" if args.nested_grid
            else "nested-defaults" if args.nested_defaults else "full")
    selected = cells(mode, args.replications)
    if args.cells:
        selected = [cell for cell in selected if any(in_key(part, cell.key) for part in args.cells.split(","))]
    if args.from_checkpoint:
        if not args.checkpoint:
            parser.error("--from-checkpoint reads --checkpoint FILE")
        rows, seconds = rows_from_checkpoint(selected, args.checkpoint, args.complete_only), None
    else:
        with _cluster(args.dask) as client:
            rows, seconds = run(selected, seed=args.seed, n_jobs=args.n_jobs, checkpoint=args.checkpoint,
                                client=client)
    print_table(rows)
    forest_size = None
    if mode == "decision" and args.checkpoint:  # the forest's size check pairs the replications of two cells
        by_cell = collections.defaultdict(list)
        for (key, _), record in read_checkpoint(args.checkpoint).items():
            by_cell[key].append(record)
        forest_size = forest_size_report(by_cell)
        for cell in selected:
            spent = [r["seconds"] for r in by_cell.get(cell.key, []) if "seconds" in r]
            if spent:
                print(f"  {cell.key}: {len(spent)} replications, {np.mean(spent):.1f} s each")
    out = args.out or os.path.join(tempfile.gettempdir(), "calibration.json")
    payload = {"command": "python benchmarks/calibration.py " + " ".join(argv if argv is not None else sys.argv[1:]),
               "mode": mode, "seconds": seconds, "n_jobs": args.n_jobs, "dask": args.dask,
               "seed": args.seed, "python": sys.version.split()[0],
               **({"forest_size": forest_size} if mode == "decision" else {}),
               "rows": [row for cell_rows in rows.values() for row in cell_rows]}
    with open(out, "w") as handle:
        json.dump(payload, handle, indent=1)
    took = "" if seconds is None else f" in {seconds:.0f} s"
    print(f"\n{len(payload['rows'])} rows{took} written to {out}")


if __name__ == "__main__":
    main()
