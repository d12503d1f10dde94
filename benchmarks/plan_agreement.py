"""Does a plan made before the fits give the minimum detectable difference the decision reports after them? (issue 49,
item 3, its done-when condition).

On breast cancer (N = 569), a scaled logistic regression (A) against a random forest (B, 100 trees): the decision of
``cvi.compare(A, B, X, y, cv=10, random_state=s, nested="never")`` rests on the corrected t (1x10-fold), calibrated
for these learners at this size, and reports its minimum detectable difference (MDD) at power 0.8. Before it, for
each seed s of :data:`SEEDS`:

* ``pilot``: ``cvi.plan(pilot=...)`` on a 1 x 10-fold pilot of its own partition (random_state 1000 + s): the same
  N, K and R, other folds;
* ``half pilot``: the same on a pilot of a random half of the rows (N = 284), carried to N = 569 by the plan's
  fold-size scaling;
* ``calibration``: ``cvi.plan(A, B, n_samples=569)`` without a pilot, from the calibration cells' variance.

Reported per plan: the median and the 10% and 90% quantiles of plan MDD / decision MDD over the seeds, and how often
the decision's MDD lies within the plan's stated range (a pilot's: its 90% sampling range; the calibration's: the
spread of its cells). One more row checks the identity: a plan whose pilot is the comparison itself gives the
decision's MDD exactly (the largest relative difference over the seeds).

    OMP_NUM_THREADS=1 python benchmarks/plan_agreement.py   # about 5 minutes on one core
"""

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import cvinference as cvi

SEEDS = range(40)
OUT = Path(__file__).resolve().parent / "results" / "plan_agreement.json"


def learners():
    return make_pipeline(StandardScaler(), LogisticRegression()), RandomForestClassifier(random_state=0)


def one_seed(seed, X, y):
    a, b = learners()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        comparison = cvi.compare(a, b, X, y, cv=10, random_state=seed, nested="never")
        decision = comparison.decision
        pilot = cvi.CVEvaluator(cv=10, random_state=1000 + seed).compare(a, b, X, y)
        half = np.random.default_rng(seed).choice(y.size, y.size // 2, replace=False)
        half_pilot = cvi.CVEvaluator(cv=10, random_state=1000 + seed).compare(a, b, X[half], y[half])
        plans = {"pilot": cvi.plan(pilot=pilot, n_repeats=1),
                 "half pilot": cvi.plan(pilot=half_pilot, n_samples=y.size, n_repeats=1),
                 "calibration": cvi.plan(a, b, n_samples=y.size, n_repeats=1)}
        itself = cvi.plan(pilot=comparison.pair, n_repeats=1)
    return {"seed": seed, "rests_on": decision.rests_on.name if decision.rests_on else None,
            "decision_mdd": decision.minimum_detectable_difference, "itself": itself.detectable,
            **{name: {"mdd": p.detectable, "low": p.low, "high": p.high} for name, p in plans.items()}}


def summary(records):
    found = {"replications": len(records),
             "rests_on": sorted({r["rests_on"] for r in records}, key=str),
             "itself_max_relative_difference": float(max(abs(r["itself"] / r["decision_mdd"] - 1) for r in records))}
    for name in ("pilot", "half pilot", "calibration"):
        ratio = np.array([r[name]["mdd"] / r["decision_mdd"] for r in records])
        inside = np.mean([r[name]["low"] <= r["decision_mdd"] <= r[name]["high"] for r in records])
        found[name] = {"median_ratio": float(np.median(ratio)), "ratio_10": float(np.quantile(ratio, 0.1)),
                       "ratio_90": float(np.quantile(ratio, 0.9)), "within_range": float(inside)}
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=len(SEEDS))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    X, y = load_breast_cancer(return_X_y=True)
    start = time.perf_counter()
    records = [one_seed(seed, X, y) for seed in range(args.seeds)]
    found = summary(records) | {"seconds": round(time.perf_counter() - start, 1),
                                "decision_mdd_median": float(np.median([r["decision_mdd"] for r in records])),
                                "command": "python benchmarks/plan_agreement.py"}
    args.out.write_text(json.dumps({"summary": found, "records": records}, indent=1) + "\n")
    print(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
