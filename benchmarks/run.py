"""The performance suite: ratios of wall time measured side by side, written to docs/performance.md.

Every figure is a ratio of medians of interleaved runs made in this one process
(the machine may be shared and noisy, so seconds from different runs do not
compare). Work W1 is ``make_classification(20000, 20, random_state=0)`` with
10 folds, for a heavy estimator (``DecisionTreeClassifier``) and a cheap one
(``LogisticRegression``).

    python benchmarks/run.py [--runs 5] [--output docs/performance.md] [--quick]
"""

import argparse
import datetime
import functools
import math
import os
import platform
import statistics
import subprocess
import sys
import textwrap
import time
import tracemalloc
import warnings
from pathlib import Path

import joblib
import numpy as np
import scipy
import sklearn
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

HEAVY = DecisionTreeClassifier(random_state=0)
CHEAP = LogisticRegression()
N_JOBS = 2
CHEAP_FIT_SECONDS = cvi.CVEvaluator().cheap_fit_seconds


def _seconds(function):
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


MIN_SECONDS_PER_CANDIDATE = 4.0
"""Runs are added until each candidate has run about this long (at most MAX_RUNS): a 0.1 s call gets 40."""
MAX_RUNS = 60


def _enough_runs(runs, seconds):
    return max(runs, min(MAX_RUNS, math.ceil(MIN_SECONDS_PER_CANDIDATE / seconds)))


class Timings(dict):
    """Median seconds per candidate; ``rounds[name]`` keeps every run's seconds, in round order."""

    def __init__(self, rounds):
        super().__init__({name: statistics.median(values) for name, values in rounds.items()})
        self.rounds = rounds


def interleaved(candidates, runs):
    """Timings of rounds of one run of each candidate, after a warm-up run each.

    At least ``runs`` rounds, and more for quick candidates (see MIN_SECONDS_PER_CANDIDATE).
    """
    runs = _enough_runs(runs, max(_seconds(function) for function in candidates.values()))
    rounds = {name: [] for name in candidates}
    for _ in range(runs):
        for name, function in candidates.items():
            rounds[name].append(_seconds(function))
    return Timings(rounds)


class Report:
    """Rows of (measure, ratio, target) and notes, rendered as Markdown."""

    def __init__(self):
        self.sections = []

    def section(self, title, text=""):
        self.sections.append((f"{len(self.sections) + 1}. {title}", text, []))

    def row(self, measure, ratio, target=None, *, lower_is_better=True, detail=""):
        met = ""
        if target is not None:
            met = "yes" if (ratio <= target if lower_is_better else ratio >= target) else "**no**"
        bound = "" if target is None else ("<= " if lower_is_better else ">= ") + f"{target:g}"
        self.sections[-1][2].append((measure, f"{ratio:.3f}", bound, met, detail))
        print(f"  {measure}: {ratio:.3f} {bound} {met} {detail}", flush=True)

    def markdown(self):
        lines = []
        for title, text, rows in self.sections:
            lines += [f"## {title}", ""]
            if text:
                lines += [textwrap.fill(text, 100), ""]
            if rows:
                lines += ["| measure | ratio | target | met | medians |", "|---|---|---|---|---|"]
                lines += ["| " + " | ".join(row) + " |" for row in rows]
                lines.append("")
        return "\n".join(lines)


FOLDS = cvi.StratifiedEqualSizeKFold(10, shuffle=True, random_state=0)
"""W1's splitter, given as cv to both the evaluator and cross_val_predict: the same folds, drawn by each call."""


def _medians(times, numerator, denominator):
    """Both medians, and the quartiles of the ratio within each round: the run-to-run spread."""
    q1, q3 = np.percentile(np.divide(times.rounds[numerator], times.rounds[denominator]), [25, 75])
    return (f"{numerator} {times[numerator]:.3g} s, {denominator} {times[denominator]:.3g} s; "
            f"ratio within a round: quartiles {q1:.3f} to {q3:.3f}")


def overhead(report, X, y, runs):
    report.section(
        "The evaluator against cross_val_predict (W1)",
        "CVEvaluator(cv).evaluate against sklearn's cross_val_predict(cv=cv) with the same splitter, "
        "cv = StratifiedEqualSizeKFold(10, shuffle=True, random_state=0): the same folds, which each call "
        "draws. For the cheap estimator the target compares "
        "n_jobs=2 with the faster of cross_val_predict's n_jobs=1 and n_jobs=2: the evaluator keeps "
        f"fits under cheap_fit_seconds ({CHEAP_FIT_SECONDS:g} s) out of the worker pool.",
    )
    limits = {}
    splits = list(FOLDS.split(X, y))
    for estimator, heavy in ((HEAVY, True), (CHEAP, False)):
        name = type(estimator).__name__
        candidates = {}
        for n_jobs in (1, N_JOBS):
            evaluator = cvi.CVEvaluator(FOLDS, n_jobs=n_jobs)
            candidates[f"evaluate n_jobs={n_jobs}"] = functools.partial(evaluator.evaluate, estimator, X, y)
            candidates[f"cross_val_predict n_jobs={n_jobs}"] = functools.partial(
                cross_val_predict, estimator, X, y, cv=FOLDS, n_jobs=n_jobs)
        candidates["single fits"] = functools.partial(_single_fits, estimator, X, y, splits)
        times = interleaved(candidates, runs)
        for n_jobs in (1, N_JOBS):
            evaluate, bare = times[f"evaluate n_jobs={n_jobs}"], times[f"cross_val_predict n_jobs={n_jobs}"]
            report.row(f"{name}: evaluate / cross_val_predict, n_jobs={n_jobs}", evaluate / bare,
                       1.03 if heavy else None,
                       detail=_medians(times, f"evaluate n_jobs={n_jobs}", f"cross_val_predict n_jobs={n_jobs}"))
        if not heavy:
            faster = min(("cross_val_predict n_jobs=1", f"cross_val_predict n_jobs={N_JOBS}"), key=times.get)
            report.row(f"{name}: evaluate n_jobs={N_JOBS} / faster cross_val_predict",
                       times[f"evaluate n_jobs={N_JOBS}"] / times[faster], 1.05,
                       detail=_medians(times, f"evaluate n_jobs={N_JOBS}", faster))
        limit = times["single fits"] / joblib.cpu_count()
        report.row(f"{name}: evaluate n_jobs={N_JOBS} / physical limit", times[f"evaluate n_jobs={N_JOBS}"] / limit,
                   1.10 if heavy else None,
                   detail=f"sum of the 10 single fits {times['single fits']:.3g} s on {joblib.cpu_count()} cores")
        limits[name] = times["single fits"]
    return limits


def _single_fits(estimator, X, y, splits):
    for train, test in splits:
        sklearn.base.clone(estimator).fit(X[train], y[train]).predict(X[test])


class SortingClassifier(ClassifierMixin, BaseEstimator):
    """A fit that only computes, in cache: it sorts a 2000-element array ``sorts`` times."""

    def __init__(self, sorts=1):
        self.sorts = sorts

    def fit(self, X, y):
        values = np.arange(2000.0)
        for _ in range(self.sorts):
            values = np.sort(values[::-1])
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def _sorts_per_second():
    sorts = 2000
    return sorts / _seconds(lambda: SortingClassifier(sorts).fit(None, [0, 1]))


def cheap_rule(report, X, y, runs):
    report.section(
        "The rule for cheap fits (W1 data, n_jobs=2)",
        f"evaluate with cheap_fit_seconds=0 (every fit goes to the warm pool) against cheap_fit_seconds=inf "
        f"(every fit here), for LogisticRegression, whose fits stream the training data through memory, and "
        f"for a classifier whose fit only sorts a small array (in cache) for a set time. Below 1 the pool "
        f"pays. The default, {CHEAP_FIT_SECONDS:g} s, keeps fits shorter than that here.",
    )
    rate = _sorts_per_second()
    estimators = {f"LogisticRegression ({_median_fit(CHEAP, X, y) * 1000:.0f} ms a fit)": CHEAP}
    for milliseconds in (5, 20, 50):
        estimators[f"sorting fit of {milliseconds} ms"] = SortingClassifier(round(rate * milliseconds / 1000))
    for label, estimator in estimators.items():
        times = interleaved({
            f"cheap_fit_seconds={seconds:g}": functools.partial(
                cvi.CVEvaluator(FOLDS, n_jobs=N_JOBS, cheap_fit_seconds=seconds).evaluate, estimator, X, y)
            for seconds in (0, np.inf)
        }, runs)
        report.row(f"{label}: pool / here", times["cheap_fit_seconds=0"] / times["cheap_fit_seconds=inf"],
                   detail=_medians(times, "cheap_fit_seconds=0", "cheap_fit_seconds=inf"))


def _median_fit(estimator, X, y):
    train, test = next(FOLDS.split(X, y))
    return statistics.median(
        _seconds(lambda: sklearn.base.clone(estimator).fit(X[train], y[train]).predict(X[test])) for _ in range(11))


def compare_pool(report, X, y, runs, fit_seconds):
    report.section(
        "compare(a, b) in one pool against two cross_val_predict calls (W1)",
        f"CVEvaluator(cv, n_jobs={N_JOBS}).compare(a, b) against cross_val_predict(a) then "
        f"cross_val_predict(b), each with n_jobs={N_JOBS} and the same splitter. One pool over both "
        "estimators' fits saves what two calls leave idle: a worker without a fit while the other finishes "
        "the call's last one, and the start and end of a second call. W1's 10 equal tree fits divide evenly "
        f"over {N_JOBS} workers, so for (tree, tree) two calls are already near the physical limit (the "
        "single fits' time on the cores), and so is compare; with 5 folds each call's fifth fit leaves a "
        "worker idle, which one pool avoids.",
    )
    five_folds = cvi.StratifiedEqualSizeKFold(5, shuffle=True, random_state=0)
    cases = [(CHEAP, HEAVY, FOLDS, 0.95), (HEAVY, CHEAP, FOLDS, 0.95), (HEAVY, HEAVY, FOLDS, None),
             (HEAVY, HEAVY, five_folds, None)]
    for a, b, cv, target in cases:
        label = f"{type(a).__name__}, {type(b).__name__}" + (", 5 folds" if cv is five_folds else "")
        times = interleaved({
            "compare": functools.partial(cvi.CVEvaluator(cv, n_jobs=N_JOBS).compare, a, b, X, y),
            "2 x cross_val_predict": lambda a=a, b=b, cv=cv: [cross_val_predict(e, X, y, cv=cv, n_jobs=N_JOBS)
                                                              for e in (a, b)],
        }, runs)
        report.row(f"compare({label}) / two cross_val_predict", times["compare"] / times["2 x cross_val_predict"],
                   target, detail=_medians(times, "compare", "2 x cross_val_predict"))
        if a is b and cv is FOLDS:
            limit = 2 * fit_seconds[type(a).__name__] / joblib.cpu_count()
            report.row(f"compare({label}) / physical limit", times["compare"] / limit,
                       detail=f"2 x the sum of the 10 single fits on {joblib.cpu_count()} cores: {limit:.3g} s")
            report.row(f"two cross_val_predict({label}) / physical limit", times["2 x cross_val_predict"] / limit)


def against_mlxtend(report, X, y, runs):
    try:
        from mlxtend.evaluate import paired_ttest_5x2cv, paired_ttest_kfold_cv
    except ImportError:
        report.section("Against mlxtend", "Skipped: mlxtend is not installed (pip install mlxtend).")
        print("  skipped: mlxtend is not installed", flush=True)
        return
    import mlxtend

    report.section(
        "Against mlxtend (W1)",
        f"mlxtend {mlxtend.__version__}'s paired_ttest_kfold_cv(tree, logreg, cv=10) against "
        f"matched_sample_test(CVEvaluator(10, n_jobs={N_JOBS}).compare(tree, logreg)), and its "
        f"paired_ttest_5x2cv against cvinference.paired_ttest_5x2cv(n_jobs={N_JOBS}). mlxtend has no n_jobs.",
    )
    evaluator = cvi.CVEvaluator(10, random_state=0, n_jobs=N_JOBS)
    times = interleaved({
        "cvinference k-fold": lambda: cvi.matched_sample_test(evaluator.compare(HEAVY, CHEAP, X, y)),
        "mlxtend k-fold": lambda: paired_ttest_kfold_cv(HEAVY, CHEAP, X, y, cv=10, shuffle=True, random_seed=0),
        "cvinference 5x2cv": lambda: cvi.paired_ttest_5x2cv(HEAVY, CHEAP, X, y, random_state=0, n_jobs=N_JOBS),
        "mlxtend 5x2cv": lambda: paired_ttest_5x2cv(HEAVY, CHEAP, X, y, random_seed=0),
    }, runs)
    for kind in ("k-fold", "5x2cv"):
        report.row(f"paired t, {kind}: cvinference / mlxtend", times[f"cvinference {kind}"] / times[f"mlxtend {kind}"],
                   0.55, detail=_medians(times, f"cvinference {kind}", f"mlxtend {kind}"))


def _synthetic_pair(n_repeats, n_samples, rng):
    y = rng.integers(0, 2, n_samples)
    fold = np.stack([rng.permutation(np.arange(n_samples) % 10) for _ in range(n_repeats)])

    def predictions(accuracy):
        return np.where(rng.random((n_repeats, n_samples)) < accuracy, y, 1 - y)

    return y, fold, predictions(0.8), predictions(0.78)


def _statistics_seconds(y, fold, pred_a, pred_b):
    """Seconds for every interval and test on two freshly built CVResults (building them is not timed)."""
    a, b = cvi.CVResult(y, pred_a, fold), cvi.CVResult(y, pred_b, fold)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for method in ("auto", "normal", "wilson", "clopper-pearson"):
            cvi.accuracy_interval(a, method=method)
        cvi.accuracy_interval(a, method="t", averaging="fold")
        cvi.large_sample_conditions(a)
        cvi.matched_sample_test(a, b)
        cvi.independent_sample_test(a, b)
        cvi.independent_sample_test(a, b, method="independent-t")
        cvi.mcnemar_test(a, b, repeat=0)
        cvi.scheme_diagnostic(a, b)
    return time.perf_counter() - start


STATISTICS_RUNS_PER_ROUND = 9
"""The statistics take milliseconds: each round times them this many times (median) beside one set of W1 fits."""


def statistics_layer(report, X, y, runs):
    report.section(
        "The statistics layer",
        "Every accuracy interval (auto, normal, fold t, Wilson, Clopper-Pearson), the large-sample "
        "conditions, the matched and independent (z and t) tests, McNemar and the phi diagnostic, on two "
        "CVResults of synthetic predictions built before the timer starts (their per-fold counts are "
        "computed inside it, on first use); divided by the sum of W1's 10 single-fit times. Each round "
        f"times W1's fits once and the statistics {STATISTICS_RUNS_PER_ROUND} times (median), so that both "
        "sides of the ratio share the machine's load.",
    )
    rng = np.random.default_rng(0)
    cases = {"n = 10^6, 1 repeat": _synthetic_pair(1, 10**6, rng),
             "n = 10^4, 1000 repeats": _synthetic_pair(1000, 10**4, rng)}
    splits = list(FOLDS.split(X, y))
    seconds_of = {f"{type(estimator).__name__} fits": functools.partial(
                      _seconds, functools.partial(_single_fits, estimator, X, y, splits))
                  for estimator in (HEAVY, CHEAP)}
    for name, data in cases.items():
        seconds_of[f"statistics, {name}"] = lambda data=data: statistics.median(
            _statistics_seconds(*data) for _ in range(STATISTICS_RUNS_PER_ROUND))
    for measure in seconds_of.values():
        measure()
    rounds = {name: [] for name in seconds_of}
    for _ in range(runs):
        for name, measure in seconds_of.items():
            rounds[name].append(measure())
    times = Timings(rounds)
    for name in cases:
        for estimator in (HEAVY, CHEAP):
            report.row(f"{name}: statistics / W1 fit time ({type(estimator).__name__})",
                       times[f"statistics, {name}"] / times[f"{type(estimator).__name__} fits"],
                       0.01 if estimator is HEAVY else None,
                       detail=_medians(times, f"statistics, {name}", f"{type(estimator).__name__} fits"))


_COLD_START = """
import os, time, json
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier
import cvinference as cvi
X, y = make_classification(20000, 20, random_state=0)
evaluator = cvi.CVEvaluator(10, random_state=0, n_jobs={n_jobs})
def workers():
    children = set()
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{{task}}/children") as f:
            children |= set(f.read().split())
    return sorted(children)
times, pools = [], []
for _ in range({calls}):
    start = time.perf_counter()
    evaluator.evaluate(DecisionTreeClassifier(random_state=0), X, y)
    times.append(time.perf_counter() - start)
    pools.append(workers())
print(json.dumps({{"times": times, "pools": pools}}))
"""


def cold_start(report, runs):
    import json

    report.section(
        "Cold start and pool reuse",
        f"A fresh Python process times {runs + 1} successive evaluate(tree) calls with n_jobs={N_JOBS} on W1. The "
        "first call starts joblib's worker pool; the later ones reuse it (the same worker processes, read "
        "from /proc).",
    )
    output = subprocess.run([sys.executable, "-c", _COLD_START.format(n_jobs=N_JOBS, calls=runs + 1)],
                            capture_output=True, text=True, check=True).stdout
    data = json.loads(output)
    warm = statistics.median(data["times"][1:])
    reused = all(pool == data["pools"][0] for pool in data["pools"][1:]) and bool(data["pools"][0])
    report.row("first call / median warm call", data["times"][0] / warm,
               detail=f"first {data['times'][0]:.3g} s, warm {warm:.3g} s; "
                      f"pool reused across calls: {'yes' if reused else 'NO'}")


def fast_loo(report, runs):
    report.section(
        "Fast exact leave-one-out (n = 2000)",
        "cross_val_correctness(cv='loo') with fast_loo=False (n refits) against fast_loo=True, on "
        "make_classification(2000, 20, random_state=0), n_jobs=1. The predictions are identical "
        "(tests/evaluation/test_fast_loo.py).",
    )
    X, y = make_classification(2000, 20, random_state=0)
    for estimator, target in ((GaussianNB(), 100), (KNeighborsClassifier(5), None)):
        name = type(estimator).__name__
        times = interleaved({
            "refits": lambda e=estimator: cvi.cross_val_correctness(e, X, y, cv="loo", fast_loo=False),
            "fast": lambda e=estimator: cvi.cross_val_correctness(e, X, y, cv="loo"),
        }, runs)
        report.row(f"{name}: refits / fast (speed-up)", times["refits"] / times["fast"], target,
                   lower_is_better=False, detail=_medians(times, "refits", "fast"))


def _peak_bytes(function):
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _bare_fits(X, y, partitions):
    for r in range(partitions.n_repeats):
        for j in range(partitions.n_splits):
            train, test = partitions.split(r, j)
            DummyClassifier().fit(X[train], y[train]).predict(X[test])


def _stored_bytes(result):
    # correct is computed on first access, then kept
    return sum(array.nbytes for array in (result._fold, result._y_pred, result._y_true, result.correct))


def memory(report):
    from cvinference.evaluation._partitions import draw_partitions

    report.section(
        "Memory (n_jobs=1, DummyClassifier, X of one column)",
        "Bytes per instance per repeat: of the arrays a CVResult keeps (fold, prediction codes, correctness "
        "and y's codes), and of the evaluator's peak traced memory (tracemalloc) above that of a bare loop "
        "making the same fits on the same splits, so the data and the fits' own copies are excluded. Target: "
        "1 byte of correctness + 4 of fold + 4 of prediction code.",
    )
    rng = np.random.default_rng(0)
    for n_samples, n_repeats in ((10**6, 1), (10**5, 30)):
        X, y = rng.random((n_samples, 1)), rng.integers(0, 2, n_samples)
        evaluator = cvi.CVEvaluator(10, n_repeats=n_repeats, random_state=0)
        result = evaluator.evaluate(DummyClassifier(), X, y)
        partitions = draw_partitions(10, X, y, None, n_repeats=n_repeats, random_state=0, classifier=True)
        evaluator_peak = _peak_bytes(lambda evaluator=evaluator, X=X, y=y: evaluator.evaluate(DummyClassifier(), X, y))
        bare_peak = _peak_bytes(functools.partial(_bare_fits, X, y, partitions))
        cells = n_samples * n_repeats
        report.row(f"n = {n_samples}, {n_repeats} repeats: stored bytes per instance-repeat",
                   _stored_bytes(result) / cells, 9.0)
        report.row(f"n = {n_samples}, {n_repeats} repeats: evaluator's peak above the fits', bytes per instance-repeat",
                   (evaluator_peak - bare_peak) / cells,
                   detail=f"evaluator {evaluator_peak / 2**20:.1f} MiB, bare fits {bare_peak / 2**20:.1f} MiB")


def machine():
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        model = platform.processor() or "unknown processor"
    versions = ", ".join(f"{name} {module.__version__}" for name, module in
                         (("numpy", np), ("scipy", scipy), ("scikit-learn", sklearn), ("joblib", joblib),
                          ("cvinference", cvi)))
    return (f"{platform.system()} {platform.machine()}, {model}, {joblib.cpu_count()} cores "
            f"(os.cpu_count() = {os.cpu_count()}); Python {platform.python_version()}; {versions}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="interleaved runs per measure (median; default 5)")
    parser.add_argument("--output", default=str(Path(__file__).resolve().parents[1] / "docs" / "performance.md"))
    parser.add_argument("--quick", action="store_true", help="smaller W1 (n = 4000) and 3 runs, for a smoke run")
    args = parser.parse_args()
    runs = 3 if args.quick else args.runs
    X, y = make_classification(4000 if args.quick else 20000, 20, random_state=0)
    started = time.perf_counter()
    report = Report()
    fit_seconds = overhead(report, X, y, runs)
    cheap_rule(report, X, y, runs)
    compare_pool(report, X, y, runs, fit_seconds)
    against_mlxtend(report, X, y, runs)
    statistics_layer(report, X, y, runs)
    cold_start(report, runs)
    fast_loo(report, runs)
    memory(report)
    header = [
        "# Performance",
        "",
        f"Written by `python benchmarks/run.py{' --quick' if args.quick else ''}` on "
        f"{datetime.date.today().isoformat()} in {time.perf_counter() - started:.0f} s. Every ratio compares "
        f"medians of at least {runs} interleaved runs made in that one process (after one warm-up run each; "
        f"quick calls get more runs, up to {MAX_RUNS}, so that each side runs about "
        f"{MIN_SECONDS_PER_CANDIDATE:g} s), so "
        "the machine's load affects both sides alike; seconds from different runs do not compare. The "
        "quartiles of the ratio within each round show how much it moves from run to run on this shared "
        "machine: a ratio whose quartiles straddle its target meets it in some runs and not in others. "
        "[Scaling out](scaling.md) explains the worker pool and the rule for cheap fits, and has the figures of "
        "`benchmarks/scaling.py`: n_jobs against one process, first calls, scikit-learn at many workers and "
        "studies on a Dask cluster.",
        "",
        f"Machine: {machine()}.",
        "",
    ]
    Path(args.output).write_text("\n".join(header) + "\n" + report.markdown())
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
