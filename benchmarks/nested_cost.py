"""The price of the honest answer (issue 31): fits and wall time of nested CV and its peers against one 10-fold CV.

Every call runs on breast cancer (569 x 30, scikit-learn's bundled copy) with a decision tree in a scaling
pipeline, n_jobs=1, in this one process; the wall times are medians of interleaved rounds (run.py), so their
ratios to one 10-fold ``cross_val_correctness`` are measured side by side. Rows:

- the reference: one 10-fold cross-validation of one learner (and of two, for the differences);
- ``nested_cv_interval`` with the library's defaults, with the calibrated configuration named
  (``--configs``), and with the former defaults (K = 10, R = 50; ``--former`` to include them, about 240
  times the reference);
- the plain and the nested answer together: ``cross_val_correctness(cv=K, n_repeats=R)`` then
  ``nested_cv_interval(cv_result=...)`` (the outer fits reused), against the two run apart;
- the difference of two learners (the tree against logistic regression) in the same configurations;
- the other refitting answers at their defaults: the conservative Z, and the bootstrap's.

The fits column counts the models each call fits, and "fits / 10" divides by the reference's (20 for two
learners): the issue's target is at most 10 for the recommended calibrated interval.

    python benchmarks/nested_cost.py [--runs 5] [--former]
"""

import argparse
import inspect
import sys
import warnings

from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.records._nested_cv_result import nested_fit_count

from run import interleaved, machine

FORMER = (10, 50)
"""The defaults before the (K, R) grid (issue 31): K = 10 folds, R = 50 repeats (the authors' R package's)."""


def _defaults():
    parameters = inspect.signature(cvi.nested_cv_interval).parameters
    return parameters["n_splits"].default, parameters["n_repeats"].default


def _tree():
    return make_pipeline(StandardScaler(), DecisionTreeClassifier(random_state=0))


def _logistic():
    return make_pipeline(StandardScaler(), LogisticRegression())


def _plain_and_nested(X, y, k, r, reuse):
    """The plain answer on nested CV's partitions, then the nested one, on its fits with ``reuse``."""
    plain = cvi.cross_val_correctness(_tree(), X, y, cv=k, n_repeats=r, random_state=0)
    return cvi.nested_cv_interval(_tree(), X, y, n_splits=k, n_repeats=r, random_state=0,
                                  cv_result=plain if reuse else None)


def candidates(X, y, configs):
    """(name, fits, call) for every row; the first is the reference."""
    rows = [("one 10-fold cross_val_correctness", 10,
             lambda: cvi.cross_val_correctness(_tree(), X, y, cv=10, random_state=0))]
    for label, (k, r) in configs.items():
        rows.append((f"nested_cv_interval, K = {k}, R = {r} ({label})", nested_fit_count(k, r),
                     lambda k=k, r=r: cvi.nested_cv_interval(_tree(), X, y, n_splits=k, n_repeats=r, random_state=0)))
    k, r = configs["defaults"]
    rows += [(f"plain {k} x {r}-fold CV and nested CV, apart", k * r + nested_fit_count(k, r),
              lambda k=k, r=r: _plain_and_nested(X, y, k, r, reuse=False)),
             (f"plain {k} x {r}-fold CV and nested CV on its fits (cv_result)",
              k * r + nested_fit_count(k, r, outer=False), lambda k=k, r=r: _plain_and_nested(X, y, k, r, reuse=True))]
    rows.append(("two learners: one 10-fold compare", 20,
                 lambda: cvi.CVEvaluator(cv=10, random_state=0).compare(_tree(), _logistic(), X, y)))
    for label, (k, r) in configs.items():
        rows.append((f"two learners: nested difference, K = {k}, R = {r} ({label})", nested_fit_count(k, r, 2),
                     lambda k=k, r=r: cvi.nested_cv_interval(_tree(), X, y, estimator_b=_logistic(), n_splits=k,
                                                             n_repeats=r, random_state=0)))
    rows += [("conservative_z_interval (defaults: 10 pairs, 15 rounds)", 15 * (2 * 10 + 1),
              lambda: cvi.conservative_z_interval(_tree(), X, y, random_state=0)),
             ("bootstrap_accuracy (defaults: .632, 200 bootstraps and the whole data)", 201,
              lambda: cvi.bootstrap_accuracy(_tree(), X, y, random_state=0))]
    return rows


def main(argv=None):
    warnings.simplefilter("ignore", cvi.InferenceWarning)  # this script's own filter: a few repeats warn, as documented
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--former", action="store_true", help="also the former defaults, K = 10, R = 50")
    args = parser.parse_args(argv)
    X, y = load_breast_cancer(return_X_y=True)
    configs = {"defaults": _defaults()}
    if args.former:
        configs["former defaults"] = FORMER
    rows = candidates(X, y, configs)
    times = interleaved({name: call for name, _, call in rows}, args.runs)
    reference = times[rows[0][0]]
    pair_reference = times["two learners: one 10-fold compare"]
    command = "python benchmarks/nested_cost.py" + "".join(f" {a}" for a in (argv if argv is not None
                                                                              else sys.argv[1:]))
    print(f"`{command}`; {machine()}; medians of {len(times.rounds[rows[0][0]])} interleaved rounds, n_jobs=1\n")
    print("| call | fits | fits / 10 | wall time | wall / one 10-fold CV |\n|---|---|---|---|---|")
    for name, fits, _ in rows:
        base, base_fits = (pair_reference, 20) if name.startswith("two learners") else (reference, 10)
        print(f"| {name} | {fits:,} | {fits / base_fits:.1f} | {times[name]:.2f} s | {times[name] / base:.1f} |")


if __name__ == "__main__":
    main()
