"""The studies' speed: n_jobs=2 against n_jobs=1, and n_jobs=1 against the bare fits they make.

A study is many draws in one pool of the evaluation layer's scheduler. Two
ratios of medians of interleaved runs in this one process (see run.py):

1. the study with n_jobs=2 against the same study with n_jobs=1 (the
   speed-up; on 2 cores the target is 1.8 or more);
2. the study with n_jobs=1 against the bare fits it needs, a plain loop of
   ``clone(estimator).fit(...)`` and ``predict`` over the same index sets:
   per draw, the model fitted to the whole sample predicts the sample and
   the rest of the population (scored there), and the fold models predict
   their test folds; each fit takes its rows from the population, as the
   study's do. The draws' index sets are planned before the timer starts, as
   the study documents them (one seed per draw, the sample, then the folds),
   and the loop's errors are checked against the study's before any timing.
   Target: 1.05 or less. A second loop takes each draw's sample first and
   the folds' rows from it (close together in memory, so gathered faster);
   its ratio has no target.

Population: ``make_classification(20000, 20, random_state=0)``; samples of
1000 rows, 10 folds, 3 repeats (31 fits a draw for each learner).
``conditional_error_study`` of a ``DecisionTreeClassifier`` and
``winner_table`` of that tree against ``GaussianNB``.

    python benchmarks/study_speed.py [--runs 3] [--draws 20] [--quick]
"""

import argparse
import time

import numpy as np
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.studies._draws import draw_seeds, plan_draw
from cvinference.studies._population import rest_of_population

from run import Report, _medians, interleaved, machine

N_JOBS = 2
SAMPLE_SIZE = 1000
CV = 10
REPEATS = 3
TREE = DecisionTreeClassifier(random_state=0)


def _plans(X, y, n_draws):
    """Every draw's sample and folds, planned as the studies plan them (tests/studies/test_vanwinckelen.py)."""
    def choose_sample(rng):
        return rng.choice(y.size, SAMPLE_SIZE, replace=False)

    plans = [plan_draw(X, y, seed, choose_sample=choose_sample, scored=rest_of_population(y.size), cv=CV,
                       n_repeats=REPEATS, classifier=True) for seed in draw_seeds(0, n_draws)]
    return [(plan.sample, np.setdiff1d(np.arange(y.size), plan.sample),
             [[plan.partitions.split(r, j) for j in range(CV)] for r in range(REPEATS)]) for plan in plans]


def bare_fits(estimators, X, y, plans, *, sample_first=False):
    """The study's fits in a plain loop: per draw and learner, the conditional error and each repeat's CV error.

    Every fit takes its rows from the population by their indices there, as
    the study does. With ``sample_first`` the draw's sample is taken once and
    the folds' rows are taken from it, where they lie close together in
    memory: the same fits, on rows gathered faster.
    """
    conditional = np.empty((len(plans), len(estimators)))
    cv_error = np.empty((len(plans), len(estimators), REPEATS))
    for d, (sample, rest, splits) in enumerate(plans):
        if sample_first:
            X_draw, y_draw, whole = X[sample], y[sample], slice(None)
        else:
            X_draw, y_draw, whole = X, y, sample
        for e, estimator in enumerate(estimators):
            model = clone(estimator).fit(X_draw[whole], y_draw[whole])
            model.predict(X_draw[whole])  # the study keeps the whole-sample model's losses on the sample
            conditional[d, e] = np.mean(model.predict(X[rest]) != y[rest])
            for r, repeat in enumerate(splits):
                wrong = 0
                for train, test in repeat:
                    if not sample_first:
                        train, test = sample[train], sample[test]
                    model = clone(estimator).fit(X_draw[train], y_draw[train])
                    wrong += np.count_nonzero(model.predict(X_draw[test]) != y_draw[test])
                cv_error[d, e, r] = wrong / SAMPLE_SIZE
    return conditional, cv_error


STUDIES = {
    "conditional_error_study(tree)": (
        [TREE],
        lambda X, y, n_draws, n_jobs: cvi.conditional_error_study(
            TREE, X, y, sample_size=SAMPLE_SIZE, n_draws=n_draws, cv=CV, max_repeats=REPEATS, random_state=0,
            n_jobs=n_jobs),
        lambda result: (result.conditional_error[:, None], result.repeat_error[:, None, :])),
    "winner_table(tree, GaussianNB)": (
        [TREE, GaussianNB()],
        lambda X, y, n_draws, n_jobs: cvi.winner_table(
            TREE, GaussianNB(), X, y, sample_size=SAMPLE_SIZE, n_draws=n_draws, cv=CV, n_repeats=REPEATS,
            random_state=0, n_jobs=n_jobs),
        lambda result: (result.conditional_error, result.cv_error)),
}
"""Per study: its learners, the call, and its per-draw conditional and CV errors in bare_fits' layout."""


def measure(report, name, X, y, n_draws, runs):
    estimators, study, errors = STUDIES[name]
    plans = _plans(X, y, n_draws)
    expected = errors(study(X, y, n_draws, 1))
    for sample_first in (False, True):
        for got, want in zip(bare_fits(estimators, X, y, plans, sample_first=sample_first), expected, strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-12)  # the loop makes the study's fits
    fits = n_draws * len(estimators) * (1 + CV * REPEATS)
    report.section(
        f"{name}, {n_draws} draws ({fits} fits)",
        f"n_jobs={N_JOBS} against n_jobs=1 (speed-up; the pool is warm: the warm-up run started it), and "
        "n_jobs=1 against the bare fits (overhead): a loop that takes each fit's rows from the population, as "
        "the study does, and one that takes the draw's sample first and each fold's rows from it.")
    times = interleaved({
        "study n_jobs=1": lambda: study(X, y, n_draws, 1),
        f"study n_jobs={N_JOBS}": lambda: study(X, y, n_draws, N_JOBS),
        "bare fits": lambda: bare_fits(estimators, X, y, plans),
        "bare fits, sample first": lambda: bare_fits(estimators, X, y, plans, sample_first=True),
    }, runs)
    report.row(f"speed-up: study n_jobs=1 / study n_jobs={N_JOBS}",
               times["study n_jobs=1"] / times[f"study n_jobs={N_JOBS}"], 1.8, lower_is_better=False,
               detail=_medians(times, "study n_jobs=1", f"study n_jobs={N_JOBS}"))
    report.row("overhead: study n_jobs=1 / bare fits", times["study n_jobs=1"] / times["bare fits"], 1.05,
               detail=_medians(times, "study n_jobs=1", "bare fits"))
    report.row("study n_jobs=1 / bare fits, sample first", times["study n_jobs=1"] / times["bare fits, sample first"],
               detail=_medians(times, "study n_jobs=1", "bare fits, sample first"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per measure (median; default 3)")
    parser.add_argument("--draws", type=int, default=20, help="draws per study (default 20: 620 tree fits)")
    parser.add_argument("--studies", nargs="+", choices=list(STUDIES), default=list(STUDIES), metavar="STUDY",
                        help=f"which studies (default: all of {', '.join(repr(name) for name in STUDIES)})")
    parser.add_argument("--quick", action="store_true", help="3 draws and 2 runs, for a smoke run")
    args = parser.parse_args()
    runs, n_draws = (2, 3) if args.quick else (args.runs, args.draws)
    X, y = make_classification(20000, 20, random_state=0)
    started = time.perf_counter()
    report = Report()
    for name in args.studies:
        measure(report, name, X, y, n_draws, runs)
    print()
    print(f"Measured by `python benchmarks/study_speed.py{' --quick' if args.quick else ''}` in "
          f"{time.perf_counter() - started:.0f} s on {machine()}.")
    print()
    print(report.markdown())


if __name__ == "__main__":
    main()
