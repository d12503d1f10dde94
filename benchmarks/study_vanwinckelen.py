"""Vanwinckelen & Blockeel (2012), section 5, reproduced: what repeated CV estimates, and whether it picks the winner.

For every population (``load_population``: by default the synthetic one, the
bundled UCI mushroom and statsmodels' randhie) the script runs

- ``conditional_error_study`` of the decision tree (section 5.1, Algorithm 1,
  Figure 2): samples of N = 300 instances, 10-fold cross-validation repeated
  up to 30 times on each, the conditional error of the tree fitted to the
  sample measured on the rest of the population;
- ``winner_table`` for naive Bayes against the decision tree and naive Bayes
  against 10-nearest-neighbours (section 5.2, Appendix A Tables 1-3): the
  same samples and partitions for both learners, 10-fold, 1 and 10 repetitions.

Learners, as stand-ins for the paper's Weka ones: naive Bayes is
``GaussianNB`` (``BernoulliNB`` on mushroom, whose 22 nominal attributes are
one-hot encoded); C4.5 is ``DecisionTreeClassifier(min_samples_leaf=2)``
(C4.5's minimum of two instances per leaf, without its pruning); 10NN is
``KNeighborsClassifier(10)`` after ``MinMaxScaler`` (Weka's IBk scales every
attribute to [0, 1]).

Scale. The paper draws 100 samples per table and repeats up to 30 times, and
does not state its sample size N. Here the fits are the cost (about 5 ms each
on the shared 2-core development machine, 10 fits per 10-fold repetition), so
the full run uses 30 samples x 30 repetitions for the conditional-error study
(9,030 fits per population) and 50 samples x 10 repetitions per winner table
(10,100 fits per table): about 29,000 fits per population, 88,000 in all,
some 8 minutes at --n-jobs 2. The paper's Tables count out of 100 samples,
these out of 50; compare shares, not counts.

The paper's own 10-fold winner tables for the same learner pairs (on adult,
kr-vs-k and nursery, populations not available offline) are copied into
``PAPER_TABLES`` and summarised the same way, so that the JSON holds both
sides of every comparison.

    python benchmarks/study_vanwinckelen.py [--quick] [--n-jobs 2] [--checkpoint-dir DIR]
        [--out benchmarks/results/study_vanwinckelen.json] [--figures docs/figures]
        [--populations synthetic mushroom randhie]

``--quick`` (3-4 samples of 100, 2-3 repetitions) only checks that the script
runs; it writes no file unless ``--out`` or ``--figures`` is given.
"""

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import sklearn
from sklearn.naive_bayes import BernoulliNB, GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.studies import POPULATIONS, ConditionalErrorStudyResult, load_population
from cvinference.studies._conditional_error import study_result

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "study_vanwinckelen.json"
DEFAULT_FIGURES = ROOT / "docs" / "figures"
DEFAULT_POPULATIONS = ("synthetic", "mushroom", "randhie")
SEED = 0

FULL = {"sample_size": 300, "n_splits": 10, "conditional_draws": 30, "max_repeats": 30, "winner_draws": 50,
        "winner_repeats": 10}
QUICK = {"sample_size": 100, "n_splits": 10, "conditional_draws": 3, "max_repeats": 3, "winner_draws": 4,
         "winner_repeats": 2}

PAPER_TABLES = {
    # Vanwinckelen & Blockeel (2012), Appendix A, Table 1, 10-fold column: (1 repetition, 30 repetitions).
    # Layout as the paper's text reads them (section 5.2): rows "CV says L1 is better" / "CV says L2 is";
    # columns "L1's conditional error is smaller" / "L2's is". L1 is naive Bayes.
    "NB-DT": {"adult": ([[32, 30], [7, 31]], [[28, 34], [5, 33]]),
              "kr-vs-k": ([[8, 8], [29, 55]], [[8, 8], [15, 69]]),
              "nursery": ([[52, 13], [13, 22]], [[52, 13], [11, 24]])},
    "NB-10NN": {"adult": ([[47, 21], [3, 29]], [[51, 17], [5, 27]]),
                "kr-vs-k": ([[12, 27], [21, 40]], [[15, 24], [18, 43]]),
                "nursery": ([[95, 4], [1, 0]], [[97, 2], [1, 0]])},
}
PAPER_REPEATS = (1, 30)


def naive_bayes(population):
    return BernoulliNB() if population == "mushroom" else GaussianNB()


def decision_tree():
    return DecisionTreeClassifier(min_samples_leaf=2, random_state=0)


def ten_nn():
    return make_pipeline(MinMaxScaler(), KNeighborsClassifier(n_neighbors=10))


def table_shares(table):
    """Agreement and the paper's conditional probabilities from a table laid out as the paper's (L1 first).

    ``cv_right_given_l1``: P(CV says L1 | L1 really better), the paper's
    P(CV_NB > CV_DT | NB > DT); ``l1_right_given_cv``: P(L1 really better |
    CV says L1), its P(NB > DT | CV_NB > CV_DT); likewise for L2. NaN where
    the condition never occurred.
    """
    m = np.asarray(table, dtype=float)

    def share(count, total):
        return float(count / total) if total else float("nan")

    return {
        "agreement": share(m[0, 0] + m[1, 1], m.sum()),
        "l1_really_better": share(m[:, 0].sum(), m.sum()),
        "cv_says_l1": share(m[0].sum(), m.sum()),
        "cv_right_given_l1": share(m[0, 0], m[:, 0].sum()),
        "cv_right_given_l2": share(m[1, 1], m[:, 1].sum()),
        "l1_right_given_cv": share(m[0, 0], m[0].sum()),
        "l2_right_given_cv": share(m[1, 1], m[1].sum()),
    }


def paper_layout(table):
    """A ``winner_table(L2, L1)`` table (rows "CV error of L2 > L1", ...) is already the paper's layout for L1-L2."""
    return np.asarray(table).tolist()


def conditional_findings(study):
    """The numbers the docs quote from a conditional-error study, all derived from the result's own arrays."""
    last = study.max_repeats
    repeats = sorted({1, min(10, last), min(20, last), last})
    final = study.cv_error[:, -1]
    per_draw_se = np.std(study.repeat_error, axis=1, ddof=1) / np.sqrt(last) if last > 1 else np.full(final.size,
                                                                                                       np.nan)
    total = study.internal_variance + study.sample_variance
    return {
        "unconditional_error": study.unconditional_error,
        "mean_cv_error": float(final.mean()),
        "bias": study.bias,
        "repeats": repeats,
        "rmse_conditional": [float(study.rmse("conditional")[r - 1]) for r in repeats],
        "rmse_unconditional": [float(study.rmse("unconditional")[r - 1]) for r in repeats],
        "internal_variance": study.internal_variance,
        "sample_variance": study.sample_variance,
        "conditional_error_variance": study.conditional_error_variance,
        "internal_share": study.internal_variance / total if total > 0 else float("nan"),
        "internal_se_after_all_repeats": float(np.sqrt(study.internal_variance / last)),
        "corr_cv_conditional": float(np.corrcoef(final, study.conditional_error)[0, 1]),
        # Draws whose fully repeated estimate lies more than 2 of its own internal standard errors from the truth:
        # the repetitions have converged, and not to the truth.
        "share_apart_from_conditional": float(np.mean(np.abs(final - study.conditional_error) > 2 * per_draw_se)),
        "share_apart_from_unconditional": float(np.mean(np.abs(final - study.unconditional_error) > 2 * per_draw_se)),
    }


def winner_findings(result):
    """The tables in the paper's layout, their shares, and each learner's own conditional-error figures."""
    learners = {}
    for role, column, name in (("L1", 1, result.estimator_b), ("L2", 0, result.estimator_a)):
        # The draws of a winner table hold, per learner, what a conditional-error study of it would (n_repeats deep).
        study = study_result(result.conditional_error[:, column], result.cv_error[:, column, :],
                             sample_size=result.sample_size, n_splits=result.n_splits, estimator=name)
        learners[role] = {"estimator": name, **conditional_findings(study)}
    return {
        "table_one_repeat": paper_layout(result.table_one_repeat),
        "table": paper_layout(result.table),
        "n_repeats": result.n_repeats,
        "shares_one_repeat": table_shares(result.table_one_repeat),
        "shares": table_shares(result.table),
        "learners": learners,
    }


def paper_findings():
    return {pair: {population: {f"{r}_repeats": {"table": table, **table_shares(table)}
                                for r, table in zip(PAPER_REPEATS, tables, strict=True)}
                   for population, tables in populations.items()}
            for pair, populations in PAPER_TABLES.items()}


def without_nan(value):
    """The findings with NaN (a probability whose condition never occurred) written as JSON null."""
    if isinstance(value, dict):
        return {key: without_nan(item) for key, item in value.items()}
    if isinstance(value, list):
        return [without_nan(item) for item in value]
    if isinstance(value, float) and np.isnan(value):
        return None
    return value


def checkpoint_path(directory, population, name, quick):
    if directory is None:
        return None
    return os.path.join(directory, f"vanwinckelen-{'quick-' if quick else ''}{population}-{name}.json")


def timed(function, **kwargs):
    start = time.perf_counter()
    result = function(**kwargs)
    return result, time.perf_counter() - start


def run_population(population, scale, *, n_jobs, checkpoint_dir, quick):
    X, y = load_population(population, return_X_y=True)
    common = {"X": X, "y": y, "sample_size": scale["sample_size"], "cv": scale["n_splits"], "random_state": SEED,
              "n_jobs": n_jobs, "verbose": 1}
    print(f"\n=== {population}: {X.shape[0]} rows ===", flush=True)
    study, seconds = timed(cvi.conditional_error_study, estimator=decision_tree(), n_draws=scale["conditional_draws"],
                           max_repeats=scale["max_repeats"],
                           checkpoint=checkpoint_path(checkpoint_dir, population, "conditional-dt", quick), **common)
    print(study.summary(), f"\n({seconds:.0f} s)", flush=True)
    record = {"rows": int(X.shape[0]), "seconds": {"conditional_dt": seconds},
              "conditional_dt": study.to_dict(), "conditional_dt_findings": conditional_findings(study)}
    # a = L2, b = L1 = naive Bayes: the table's rows and columns then read as the paper's "NB-L2" tables.
    for name, other in (("nb_dt", decision_tree()), ("nb_10nn", ten_nn())):
        result, seconds = timed(cvi.winner_table, estimator_a=other, estimator_b=naive_bayes(population),
                                n_draws=scale["winner_draws"], n_repeats=scale["winner_repeats"],
                                checkpoint=checkpoint_path(checkpoint_dir, population, f"winner-{name}", quick),
                                **common)
        findings = winner_findings(result)
        print(result.summary(), f"\n({seconds:.0f} s)", flush=True)
        print(f"paper layout (rows: CV says NB / the other; columns: NB really better / the other): "
              f"1 repeat {findings['table_one_repeat']}, {result.n_repeats} repeats {findings['table']}", flush=True)
        record["seconds"][f"winner_{name}"] = seconds
        record[f"winner_{name}"] = result.to_dict()
        record[f"winner_{name}_findings"] = findings
    return record, study


def save_figure(study, population, directory):
    figure = study.plot().figure_
    figure.suptitle(f"{population}: decision tree, {study.n_draws} samples of {study.sample_size}, "
                    f"{study.n_splits}-fold CV repeated 1-{study.max_repeats} times", fontsize="medium")
    path = Path(directory) / f"vanwinckelen_{population}.png"
    figure.savefig(path, dpi=100)
    import matplotlib.pyplot as plt

    plt.close(figure)
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


def redraw(results_path, directory, populations):
    """The figures of the conditional-error studies a results file keeps (their ``to_dict()``), without fitting."""
    with open(results_path, encoding="utf-8") as file:
        kept = json.load(file)["populations"]
    os.makedirs(directory, exist_ok=True)
    for population in populations:
        save_figure(ConditionalErrorStudyResult.from_dict(kept[population]["conditional_dt"]), population, directory)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny scale, to check that the script runs")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--checkpoint-dir", default=None,
                        help="keep every study's finished draws here; a killed run restarted with it resumes")
    parser.add_argument("--out", default=None, help=f"the JSON of all results (default {DEFAULT_OUT}, none with "
                                                    "--quick)")
    parser.add_argument("--figures", default=None, help=f"folder for the PNG figures (default {DEFAULT_FIGURES}, "
                                                        "none with --quick)")
    parser.add_argument("--populations", nargs="+", default=list(DEFAULT_POPULATIONS), choices=POPULATIONS)
    parser.add_argument("--redraw", default=None, metavar="RESULTS",
                        help="fit nothing: draw the figures of the studies kept in this JSON of a full run "
                             f"({DEFAULT_OUT}) into --figures")
    args = parser.parse_args(argv)
    if args.redraw is not None:
        redraw(args.redraw, args.figures or DEFAULT_FIGURES, args.populations)
        return
    scale = QUICK if args.quick else FULL
    out = args.out if args.out is not None else (None if args.quick else DEFAULT_OUT)
    figures = args.figures if args.figures is not None else (None if args.quick else DEFAULT_FIGURES)
    if args.checkpoint_dir is not None:
        os.makedirs(args.checkpoint_dir, exist_ok=True)

    start = time.perf_counter()
    results = {}
    for population in args.populations:
        results[population], study = run_population(population, scale, n_jobs=args.n_jobs,
                                                    checkpoint_dir=args.checkpoint_dir, quick=args.quick)
        if figures is not None:
            os.makedirs(figures, exist_ok=True)
            save_figure(study, population, figures)
    seconds = time.perf_counter() - start
    print(f"\ntotal {seconds:.0f} s")

    if out is not None:
        document = {
            "command": " ".join(["python", "benchmarks/study_vanwinckelen.py", *(argv if argv is not None
                                                                               else sys.argv[1:])]),
            "date": time.strftime("%Y-%m-%d"),
            "seconds": seconds,
            "n_jobs": args.n_jobs,
            "cpu_count": os.cpu_count(),
            "versions": {"python": platform.python_version(), "numpy": np.__version__,
                         "scikit-learn": sklearn.__version__},
            "scale": scale,
            "seed": SEED,
            "learners": {"NB": "GaussianNB() (BernoulliNB() on mushroom)", "DT": repr(decision_tree()),
                         "10NN": repr(ten_nn())},
            "populations": results,
            "paper": {"source": "Vanwinckelen & Blockeel (2012), Appendix A, Table 1, 10-fold column",
                      "repeats": list(PAPER_REPEATS), "tables": paper_findings()},
        }
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w", encoding="utf-8") as file:
            json.dump(without_nan(document), file, indent=1, allow_nan=False)
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
