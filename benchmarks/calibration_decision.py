"""The decision's cells (issue 45): the tests ``decide`` weighs, measured with real fits on the forest, gradient
boosting and logistic regression, up to N = 10,000, for accuracy, balanced accuracy and ROC AUC.

``benchmarks/calibration.py --decision`` runs them; this module holds their cells and their replication.

Cells (``kind/population/learner/N``):
- ``null-decision/nonlinear/...``: the symmetric population's null (calibration.py, "Populations"): A = the
  learner on block 1, B = the same learner on block 2, exactly equal at every N, so the truth is 0 and no
  whole-sample model is fitted.
- ``power-decision/nonlinear-power/...``: A is better (s = 0.6). The truth of every row of a power cell is the
  difference of *accuracy* of the whole-sample models on the held-back rows (capped at TRUTH_ROWS), also for the
  balanced accuracy's and ROC AUC's rows.
- Learners: ``forest`` = RandomForestClassifier(n_estimators=25, random_state=0) (the evidence recognises the
  forest by its class, so its rows are the forest's evidence), ``hgb`` = HistGradientBoostingClassifier(
  random_state=0), ``logistic`` (calibration.learner's). ``forest100`` (the default 100 trees) is measured at
  N = 300 only, on the same seeds as ``forest``'s cell (:func:`seed_key`), to see whether the type-I error
  depends on the forest's size; its rows are named ``forest100`` so that they are compared, not read as evidence.
- Sizes: 300, 1,000, 3,000, 10,000 for the forest, gradient boosting and k-NN (calibration.learner's, 15
  neighbours in a scaling pipeline; its nulls only); 100, 300, 1,000 for logistic regression; 100 to 10,000 for
  ``logistic_cv``, a linear model with a regularisation path (calibration.learner's: LogisticRegressionCV over 10
  values of C chosen by an inner 5-fold cross-validation, in a scaling pipeline; nulls, and power at 1,000 and
  3,000).

One replication reuses every fit: one ``CVEvaluator(cv=10, n_repeats=R, response_method="predict_proba")``
compare of A and B (R = 10 up to N = 3,000, R = 3 at 10,000) and one 5x2cv t (20 fits). Every prefix of r in
(1, 3, 10) repeats (r <= R) is a record of its own (the first r rows of the arrays); on each and for each metric
``decide`` weighs its tests (accuracy: the records' tests and the 5x2cv t; the other metrics: decide's own) and
every test it weighed is kept (``record["candidates"][metric][str(r)]``). The rows' methods: the corrected t of
each r ("corrected t (3x10-fold)"), Wong's tests, McNemar, the 5x2cv t and DeLong from r = 1 (they use one
partition, repeat 0), and the decision as shipped without nested CV at r = 1 (what ``cvi.compare(..., cv=10,
n_repeats=1)`` decides before nested CV) and at r = R, with ``rests_on`` (how often it rested on each test).
Rows are calibration.py's test rows with ``task`` "classification" (accuracy), "balanced_accuracy" or "roc_auc"
and ``seconds_per_replication`` (the cell's mean wall time of a whole replication, all metrics together).

Replications: :data:`DECISION_REPLICATIONS` per cell (``--replications`` overrides them all), sized so that the
run ends in its time on one core of the shared 2-core machine (see benchmarks/README.md).
"""

import re
import time
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.ensemble import RandomForestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

import cvinference as cvi

ALPHA = 0.05
NOMINAL = 0.95
N_SPLITS = 10
PREFIXES = (1, 3, 10)
METRICS = ("accuracy", "balanced_accuracy", "roc_auc")
METRIC_TASKS = {"accuracy": "classification", "balanced_accuracy": "balanced_accuracy", "roc_auc": "roc_auc"}
DECISION_KINDS = {"null-decision": "type_i", "power-decision": "power"}
FOREST_TREES = 25
SIZES = {"forest": (300, 1000, 3000, 10000), "hgb": (300, 1000, 3000, 10000), "logistic": (100, 300, 1000),
         "knn": (300, 1000, 3000, 10000), "logistic_cv": (100, 300, 1000, 3000, 10000)}
DECISION_NO_NESTED = "decision (decide, as shipped, without nested CV, {r}x10-fold)"

DECISION_REPLICATIONS = {
    # Sized to end in about 95 minutes on one core of the shared 2-core machine (2026-11-28; measured: 10-50 s a
    # replication of the forest and gradient boosting, 1.5-2.5 s of logistic regression, the other workers
    # leaving this run half a core to a whole one), then the large cells and N = 1,000 extended on two cores
    # (--replications 40 and 24 with --cells, on the same checkpoint: 11 and 1 minutes more). The run is
    # round-robin over the replications' indices, so a run cut short leaves each cell about as many; the rows'
    # Wilson bounds say what they hold.
    "null-decision/nonlinear/forest/3000": 40, "null-decision/nonlinear/hgb/3000": 40,
    "null-decision/nonlinear/forest/10000": 40, "null-decision/nonlinear/hgb/10000": 40,
    "null-decision/nonlinear/logistic/100": 200, "null-decision/nonlinear/logistic/300": 200,
    "null-decision/nonlinear/logistic/1000": 100,
    "null-decision/nonlinear/forest/1000": 24, "null-decision/nonlinear/hgb/1000": 24,
    "null-decision/nonlinear/forest/300": 20, "null-decision/nonlinear/hgb/300": 10,
    "null-decision/nonlinear/forest100/300": 20,
    "null-decision/nonlinear/knn/300": 40, "null-decision/nonlinear/knn/1000": 40,
    "null-decision/nonlinear/knn/3000": 40, "null-decision/nonlinear/knn/10000": 40,
    "power-decision/nonlinear-power/forest/1000": 20, "power-decision/nonlinear-power/hgb/1000": 20,
    "power-decision/nonlinear-power/forest/3000": 5, "power-decision/nonlinear-power/hgb/3000": 5,
    "null-decision/nonlinear/logistic_cv/3000": 40, "null-decision/nonlinear/logistic_cv/10000": 40,
    "null-decision/nonlinear/logistic_cv/1000": 40, "null-decision/nonlinear/logistic_cv/300": 40,
    "null-decision/nonlinear/logistic_cv/100": 40,
    "power-decision/nonlinear-power/logistic_cv/1000": 20, "power-decision/nonlinear-power/logistic_cv/3000": 20,
}
"""Replications per cell (the order of the issue's priorities: the large nulls first)."""


def n_repeats(n):
    """R, the repeats of the one 10 x R-fold of a replication: 10 up to N = 3,000, 3 at 10,000."""
    return 10 if n <= 3000 else 3


def decision_cells(cell_class, replications=None):
    """Every cell of the --decision mode, in the order of the issue's priorities."""
    found = []
    for key, count in DECISION_REPLICATIONS.items():
        kind, population, name, n = key.split("/")
        found.append(cell_class(kind, population, name, int(n), replications or count))
    return found


def seed_key(cell):
    """The key a cell's seeds come from: ``forest100``'s cell shares ``forest``'s, so their replications pair up."""
    if cell.kind in DECISION_KINDS and cell.learner == "forest100":
        return cell.key.replace("/forest100/", "/forest/")
    return cell.key


def decision_learner(name, columns, learner):
    """The estimator of a decision cell on ``columns``; ``learner`` is calibration.learner (the other learners)."""
    if name not in ("forest", "forest100"):
        return learner(name, columns)
    start, stop = columns
    trees = FOREST_TREES if name == "forest" else 100
    return make_pipeline(FunctionTransformer(_columns, kw_args={"start": start, "stop": stop}),
                         RandomForestClassifier(n_estimators=trees, random_state=0))


def _columns(X, start, stop):
    return X[:, start:stop]


def first_repeats(result, r):
    """The record of the first ``r`` repeats of ``result`` (the learner's type and names kept)."""
    rows = slice(0, r)
    return cvi.CVResult(result.y_true, result.y_pred[rows], result.fold[rows], y_score=result.y_score[rows],
                        response_method=result.response_method, estimator_type=result.estimator_type,
                        name=result.name, estimator_repr=result.estimator_repr, cv_repr=result.cv_repr)


def method_of(name):
    """A candidate's name as the rows keep it: the family, with the repeats for the corrected t.

    "corrected t on fold roc_auc (3x10-fold)" -> "corrected t (3x10-fold)"; "McNemar (repeat 0)" -> "McNemar";
    DeLong keeps "(pooled scores, repeat 0)".
    """
    if name.startswith("corrected t"):
        folds = re.search(r"\((\d+x\d+-fold)\)", name)
        return f"corrected t ({folds.group(1)})" if folds else name
    if name.startswith("DeLong"):
        return "DeLong paired z (pooled scores, repeat 0)"
    return name.removesuffix(" (repeat 0)")


def _candidate(test):
    return {"name": test.name, "estimate": float(test.estimate), "low": float(test.low), "high": float(test.high),
            "pvalue": float(test.pvalue), "target": test.target}


def decision_entry(decision):
    """A decision as a replication's record keeps it: whether it declared a difference, its test's width and
    target, and the test it rested on ("cannot tell": none)."""
    rests_on = decision.rests_on
    return {"reject": decision.answer in ("A better", "B better"),
            "width": None if rests_on is None else float(rests_on.high - rests_on.low),
            "target": "per test" if rests_on is None else rests_on.target,
            "rests_on": "cannot tell" if rests_on is None else rests_on.name}


def decisions_of(pair, five_by_two, big_r):
    """Every prefix's decisions on every metric: (candidates by metric and r, tests by "metric: method")."""
    candidates = {metric: {} for metric in METRICS}
    tests = {}
    for r in (p for p in PREFIXES if p <= big_r):
        sub = cvi.PairedCVResult(first_repeats(pair.a, r), first_repeats(pair.b, r))
        for metric in METRICS:
            weighed = [*cvi.policy.pair_tests(sub), ("5x2cv t", five_by_two)] if metric == "accuracy" else None
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                decision = cvi.decide(sub, metric=metric, tests=weighed, confidence_level=NOMINAL)
            found = [test for test in (decision.rests_on, *decision.context) if test is not None]
            candidates[metric][str(r)] = [_candidate(test) for test in found]
            for test in found:
                method = method_of(test.name)
                if method.startswith("corrected t") or r == 1:
                    tests[f"{metric}: {method}"] = {"reject": bool(test.pvalue < ALPHA),
                                                    "width": float(test.high - test.low), "target": test.target}
            if r in (1, big_r):
                tests[f"{metric}: {DECISION_NO_NESTED.format(r=r)}"] = decision_entry(decision)
    return candidates, tests


def decision_replication(population, cell, seed, *, learner, held_back_accuracy, truth_rows_cap):
    """One replication of a decision cell (every fit reused across the prefixes, the metrics and the tests)."""
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    sample, truth_rows = population.draw(cell.n, rng)
    X, y = population.X[sample], population.y[sample]
    half = population.X.shape[1] // 2
    estimators = (decision_learner(cell.learner, (0, half), learner),
                  decision_learner(cell.learner, (half, 2 * half), learner))
    seed_cv, seed_5x2 = (int(s) for s in rng.integers(2**31, size=2))
    big_r = n_repeats(cell.n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair = cvi.CVEvaluator(cv=N_SPLITS, n_repeats=big_r, random_state=seed_cv,
                               response_method="predict_proba").compare(*estimators, X, y)
        five_by_two = cvi.paired_ttest_5x2cv(*estimators, X, y, random_state=seed_5x2)
    candidates, tests = decisions_of(pair, five_by_two, big_r)
    if cell.kind == "null-decision":  # exactly 0 by symmetry: no whole-sample fits
        truth = 0.0
    else:  # accuracy's true difference, for every metric's rows
        rows = truth_rows[:truth_rows_cap]
        X_truth, y_truth = population.X[rows], population.y[rows]
        truth = (held_back_accuracy(clone(estimators[0]), X, y, X_truth, y_truth)
                 - held_back_accuracy(clone(estimators[1]), X, y, X_truth, y_truth))
    return {"tests": tests, "candidates": candidates, "n_repeats": big_r, "truth": {"conditional": float(truth)},
            "seconds": time.perf_counter() - start}


def decision_rows(cell, records, test_rows):
    """The rows of a decision cell: ``test_rows`` (calibration._test_rows) per metric, with the metric's task.

    A method that some replication's decide did not weigh is rated over the replications that hold it (its row's
    ``replications`` says how many).
    """
    rows = []
    seconds = [r["seconds"] for r in records if "seconds" in r]
    for metric in METRICS:
        prefix = f"{metric}: "
        methods = list(dict.fromkeys(name for r in records for name in r["tests"] if name.startswith(prefix)))
        for name in methods:
            held = [{"tests": {name.removeprefix(prefix): r["tests"][name]}, "truth": r["truth"]}
                    for r in records if name in r["tests"]]
            rows += [dict(row, task=METRIC_TASKS[metric], seconds_per_replication=float(np.mean(seconds)) if seconds
                          else None) for row in test_rows(cell, held)]
    return rows


def forest_size_report(records_by_key, log=print):
    """The forest's size check: 25 against 100 trees on the same seeds at N = 300 (rates and discordant pairs)."""
    small = records_by_key.get("null-decision/nonlinear/forest/300", [])
    large = records_by_key.get("null-decision/nonlinear/forest100/300", [])
    small = {r["replication"]: r for r in small}
    large = {r["replication"]: r for r in large}
    both = sorted(set(small) & set(large))
    if not both:
        return None
    found = {}
    for metric in METRICS:
        for method in ("corrected t (10x10-fold)", DECISION_NO_NESTED.format(r=10)):
            name = f"{metric}: {method}"
            a = np.array([small[i]["tests"][name]["reject"] for i in both])
            b = np.array([large[i]["tests"][name]["reject"] for i in both])
            found[name] = {"replications": len(both), "forest25": float(a.mean()), "forest100": float(b.mean()),
                           "discordant": int(np.sum(a != b)), "only25": int(np.sum(a & ~b)),
                           "only100": int(np.sum(b & ~a))}
            log(f"  forest size, {name}: 25 trees {a.mean():.3f}, 100 trees {b.mean():.3f} over {len(both)} paired "
                f"replications; discordant {int(np.sum(a != b))} (25 only {int(np.sum(a & ~b))}, "
                f"100 only {int(np.sum(b & ~a))})")
    return found
