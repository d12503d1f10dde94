"""What the evaluator adds on top of sklearn's cross_val_predict, as ratios of wall time.

Both sides run on the same folds and the same n_jobs, interleaved, and the ratio of
their medians is reported (the machine may be shared and noisy, so only ratios
measured side by side in one run mean anything).

    python benchmarks/evaluator_overhead.py [--n-samples 20000] [--runs 5] [--n-jobs 1]
"""

import argparse
import platform
import statistics
import time

import numpy as np
import sklearn
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import PredefinedSplit, cross_val_predict
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi


def _seconds(function):
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def measure(estimator, X, y, *, n_jobs, runs):
    evaluator = cvi.CVEvaluator(10, n_jobs=n_jobs, random_state=0)
    folds = PredefinedSplit(evaluator.evaluate(estimator, X, y).fold[0])
    candidates = {
        "evaluate": lambda: evaluator.evaluate(estimator, X, y),
        "cross_val_predict": lambda: cross_val_predict(estimator, X, y, cv=folds, n_jobs=n_jobs),
        "compare": lambda: evaluator.compare(estimator, estimator, X, y),
        "2 x cross_val_predict": lambda: [cross_val_predict(estimator, X, y, cv=folds, n_jobs=n_jobs) for _ in "ab"],
    }
    times = {name: [] for name in candidates}
    for _ in range(runs):
        for name, function in candidates.items():
            times[name].append(_seconds(function))
    return {name: statistics.median(values) for name, values in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-samples", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args()
    X, y = make_classification(args.n_samples, 20, random_state=0)
    print(f"python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
          f"cvinference {cvi.__version__}; n_samples={args.n_samples}, 10 folds, n_jobs={args.n_jobs}, "
          f"median of {args.runs} interleaved runs")
    print(f"{'estimator':<24}{'evaluate / cross_val_predict':>30}{'compare / 2 x cross_val_predict':>34}")
    for estimator in (DecisionTreeClassifier(random_state=0), LogisticRegression()):
        median = measure(estimator, X, y, n_jobs=args.n_jobs, runs=args.runs)
        print(f"{type(estimator).__name__:<24}"
              f"{median['evaluate'] / median['cross_val_predict']:>30.3f}"
              f"{median['compare'] / median['2 x cross_val_predict']:>34.3f}")


if __name__ == "__main__":
    main()
