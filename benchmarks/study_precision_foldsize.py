"""How precise is K-fold cross-validation (Nedel'ko 2021), and do fold sizes matter (Wong 2015, 4.3.2)?

Runs ``precision_study`` and ``fold_size_study`` on the synthetic population
and on two real ones that install offline (statsmodels' ``fair`` and
``randhie``; see ``load_population``), prints their tables next to the
papers' numbers, writes every result's ``to_dict()`` to a JSON file and draws
the figures of ``docs/studies.md``.

Precision (Nedel'ko 2021, sections 4-5): log loss with his clip of the
probabilities to [0.001, 0.999]; his learner, sklearn's
GradientBoostingClassifier(max_depth=2), with his settings for each N
(Table 1: n_estimators=100, learning_rate=0.2 at N = 1000;
n_estimators=30, learning_rate=0.05 at N = 100), and logistic regression
(standardised features) as a cheap second learner:

- synthetic, logistic regression, N = 1000, K = 2, 3, 5, 10, 50 draws: the 50
  disjoint samples that fill the training half (50,000 rows);
- synthetic, boosting (30, 0.05), N = 100, K = 2, 3, 5, 10, 20 (his Table 4),
  80 disjoint draws;
- randhie, boosting (100, 0.2), N = 1000, K = 2, 3, 5, 10 (his Table 2), 30
  draws: the training half (10,095 rows) holds only 10 disjoint samples, so
  the samples are independent draws that overlap by about 10% pairwise;
- fair, boosting (30, 0.05), N = 100, K = 2, 3, 5, 10, 20 (his Table 4), 31
  draws: the disjoint samples that fill the training half (3,183 rows).

Nedel'ko used the UCI "adult" data (32,560 rows, 5 numeric features) and
BNP Paribas (Tables 6-7), neither of which installs offline. His scheme cuts
the training half into disjoint samples, so at N = 1000 on adult he had at
most 16 of them and at N = 100 at most 162; the draws here are of the same
order, chosen so that the run fits the time below. One repeat of the
cross-validation (his Tables 2, 4, 6; Tables 3, 5, 7 repeat it 10 times).

Fold sizes (Wong 2015, section 4.3.2): samples of n = 203 (his example,
where k = 5 and k = 10 cannot give equal folds); GaussianNB on the synthetic
population (200 draws) and on fair (300 draws), a depth-3 decision tree on
randhie (300 draws; naive Bayes does worse than guessing the majority class
there). Every draw cross-validates the same sample with the three approaches. Wong gives no
simulation, only the fold sizes of his example and the argument from his
Theorem 1 (Var p_j = p(1-p)/m_j) that equal sizes are best; the script
prints what Theorem 1 says his example sizes add to the fold variance.

A full run took 441 s (7.4 minutes; 6.9 minutes of CPU) on the shared 2-core
development machine with --n-jobs 2, and 11 minutes while other jobs kept
it busier (see the JSON's "seconds"; the results do not depend on
--n-jobs). --quick (a few draws of each run) takes under a minute and
writes to a temporary folder unless --out and --figures are given.

    python benchmarks/study_precision_foldsize.py [--quick] [--n-jobs 2] [--checkpoint-dir DIR]
        [--out benchmarks/results/study_precision_foldsize.json] [--figures docs/figures]
"""

import argparse
import json
import math
import os
import sys
import tempfile
import time
from fractions import Fraction

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from cvinference.studies import fold_size_study, load_population, precision_study

# Nedel'ko (2021), "adult", one repeat: Table 2 (N = 1000) and Table 4 (N = 100), per K:
# bias_cv, err_cv, sigma~, kappa, E S~, eps~_S, S_folds, R_folds; Table 1: E Kbar, E K, sigma, E S, eps_S, err_test.
NEDELKO = {
    1000: {"table": "Table 2", "table1": (0.314, 0.421, 0.007, 0.637, 0.064, 0.019), "rows": {
        2: (0.040, 0.052, 0.030, -0.421, 0.729, 0.051, 0.025, 1.367),
        3: (0.022, 0.035, 0.024, -0.390, 0.690, 0.045, 0.028, 0.642),
        5: (0.012, 0.032, 0.026, -0.454, 0.662, 0.039, 0.042, 0.397),
        10: (0.007, 0.031, 0.027, -0.485, 0.649, 0.036, 0.065, 0.250)}},
    100: {"table": "Table 4", "table1": (0.368, 0.480, 0.020, 0.553, 0.175, 0.056), "rows": {
        2: (0.030, 0.092, 0.082, -0.137, 0.628, 0.159, 0.054, 1.266),
        3: (0.013, 0.081, 0.076, -0.085, 0.590, 0.127, 0.077, 0.771),
        5: (0.000, 0.072, 0.069, -0.045, 0.563, 0.111, 0.107, 0.385),
        10: (-0.006, 0.071, 0.068, -0.028, 0.550, 0.106, 0.166, 0.255),
        20: (-0.007, 0.071, 0.068, -0.004, 0.546, 0.104, 0.240, 0.190)}},
}
NEDELKO_COLUMNS = ("bias_cv", "err_cv", "sigma_tilde", "kappa", "mean_s_tilde", "eps_s_tilde", "s_folds", "r_folds")
# Wong (2015), section 4.3.2: his example's fold sizes for n = 203, k = 5, per approach.
WONG_SIZES = {"random assignment (1)": (38, 41, 44, 37, 43), "remainder last (2)": (40, 40, 40, 40, 43),
              "equal sizes (3)": (40, 40, 41, 41, 41)}


def logistic_regression():
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))


def boosting(n_estimators, learning_rate):
    return GradientBoostingClassifier(max_depth=2, n_estimators=n_estimators, learning_rate=learning_rate,
                                      random_state=0)


PRECISION_RUNS = [
    dict(name="synthetic-logreg-N1000", population="synthetic", learner="logistic regression",
         make=logistic_regression, sample_size=1000, folds=(2, 3, 5, 10), n_draws=50, quick_draws=3),
    dict(name="synthetic-boosting-N100", population="synthetic", learner="boosting (30, 0.05)",
         make=lambda: boosting(30, 0.05), sample_size=100, folds=(2, 3, 5, 10, 20), n_draws=80, quick_draws=3),
    dict(name="randhie-boosting-N1000", population="randhie", learner="boosting (100, 0.2)",
         make=lambda: boosting(100, 0.2), sample_size=1000, folds=(2, 3, 5, 10), n_draws=30, quick_draws=2),
    dict(name="fair-boosting-N100", population="fair", learner="boosting (30, 0.05)",
         make=lambda: boosting(30, 0.05), sample_size=100, folds=(2, 3, 5, 10, 20), n_draws=31, quick_draws=3),
]
FOLD_SIZE_LEARNERS = {"nb": ("GaussianNB", GaussianNB),
                      "tree": ("tree (max_depth=3)", lambda: DecisionTreeClassifier(max_depth=3, random_state=0))}
FOLD_SIZE_RUNS = [
    dict(name=f"{population}-{learner}-n203-k{k}", population=population, learner=FOLD_SIZE_LEARNERS[learner][0],
         make=FOLD_SIZE_LEARNERS[learner][1], sample_size=203, n_splits=k, n_draws=draws, quick_draws=5)
    for population, learner, draws in (("synthetic", "nb", 200), ("fair", "nb", 300), ("randhie", "tree", 300))
    for k in (5, 10)
]


def _checkpoint(directory, name, quick):
    if directory is None:
        return None
    return os.path.join(directory, f"{name}{'-quick' if quick else ''}.json")


def run_all(quick, n_jobs, checkpoint_dir):
    populations = {}
    runs = {"precision": [], "fold_size": []}
    for kind, specs, study in (("precision", PRECISION_RUNS, precision_study),
                               ("fold_size", FOLD_SIZE_RUNS, fold_size_study)):
        for spec in specs:
            if spec["population"] not in populations:
                populations[spec["population"]] = load_population(spec["population"], return_X_y=True)
            X, y = populations[spec["population"]]
            arguments = {key: spec[key] for key in ("sample_size", "folds", "n_splits") if key in spec}
            arguments["n_draws"] = spec["quick_draws"] if quick else spec["n_draws"]
            print(f"{kind} {spec['name']}: {arguments}", file=sys.stderr, flush=True)
            start = time.perf_counter()
            result = study(spec["make"](), X, y, **arguments, random_state=0, n_jobs=n_jobs,
                           checkpoint=_checkpoint(checkpoint_dir, spec["name"], quick), verbose=1)
            seconds = time.perf_counter() - start
            runs[kind].append({"name": spec["name"], "population": spec["population"], "learner": spec["learner"],
                               "arguments": {**arguments, "random_state": 0}, "seconds": round(seconds, 1),
                               "result": result})
    return runs


def _ratio_table(result):
    """err_cv, the half-sample ratio err_cv / (E S~ / sqrt(N/2)) and err_cv / err_test, per K."""
    return {int(k): (float(e), float(h), float(e / result.err_test))
            for k, e, h in zip(result.folds, result.err_cv, result.half_sample_ratio, strict=True)}


def nedelko_ratios(sample_size):
    """The same ratios from Nedel'ko's own table for this N (adult, one repeat)."""
    paper = NEDELKO[sample_size]
    err_test = paper["table1"][5]
    return {k: (row[1], row[1] / (row[4] / math.sqrt(sample_size / 2)), row[1] / err_test)
            for k, row in paper["rows"].items()}


def print_precision(run):
    result = run["result"]
    paper = NEDELKO[result.sample_size]
    print(f"\n## precision: {run['name']} ({run['learner']}, N={result.sample_size}, {result.n_draws} draws, "
          f"{run['seconds']:.0f} s), against Nedel'ko {paper['table']} (adult)")
    print("K   " + "  ".join(f"{c:>17s}" for c in NEDELKO_COLUMNS) + "  half-sample ratio")
    ours = _ratio_table(result)
    theirs = nedelko_ratios(result.sample_size)
    for j, k in enumerate(result.folds):
        k = int(k)
        cells = [getattr(result, c)[j] for c in NEDELKO_COLUMNS]
        them = paper["rows"].get(k)
        text = [f"{v:8.3f} ({p:6.3f})" if them else f"{v:8.3f}         "
                for v, p in zip(cells, them or cells, strict=True)]
        ratio = f"{ours[k][1]:.2f} ({theirs[k][1]:.2f})" if k in theirs else f"{ours[k][1]:.2f}"
        print(f"{k:<3d} " + "  ".join(text) + "  " + ratio)
    mine = (result.mean_train_loss, result.mean_true_loss, result.sigma, result.mean_s, result.eps_s,
            result.err_test)
    print("Table 1: " + ", ".join(f"{name} {v:.3f} ({p:.3f})" for name, v, p in zip(
        ("E Kbar", "E K", "sigma", "E S", "eps_S", "err_test"), mine, paper["table1"], strict=True)))


def wong_size_excess():
    """Theorem 1's extra fold variance of Wong's example sizes, relative to equal sizes: (mean 1/m_j) / (k/n) - 1."""
    out = {}
    for approach, sizes in WONG_SIZES.items():
        mean_inverse = sum(Fraction(1, m) for m in sizes) / len(sizes)
        out[approach] = float(mean_inverse / Fraction(len(sizes), sum(sizes)) - 1)
    return out


def variance_ratios(result):
    """Mean fold-accuracy variance of each approach over that of equal sizes (3), with 2 paired standard errors."""
    variance = result.fold_variance
    reference = variance[:, 2].mean()
    difference = variance - variance[:, [2]]
    ratio = variance.mean(axis=0) / reference
    error = 2 * difference.std(axis=0, ddof=1) / math.sqrt(result.n_draws) / reference
    p = result.cv_accuracy
    theory = 1 + result.unequal_size_term.mean(axis=0) / (p * (1 - p) * result.n_splits / result.sample_size).mean()
    return ratio, error, theory


def print_fold_size(run):
    result = run["result"]
    columns = result.to_frame()
    ratio, error, theory = variance_ratios(result)
    print(f"\n## fold sizes: {run['name']} ({result.n_draws} draws of n={result.sample_size}, k={result.n_splits}, "
          f"{run['seconds']:.0f} s; unconditional accuracy {result.unconditional_accuracy:.3f})")
    print(f"{'approach':24s} {'spread':>6s} {'fold var':>9s} {'/ (3)':>14s} {'Thm 1':>6s} {'sd_cv':>6s} "
          f"{'bias':>7s} {'cover cond':>10s} {'cover uncond':>12s}")
    for a, name in enumerate(result.approaches):
        print(f"{name:24s} {columns['size_spread'][a]:6.2f} {columns['fold_accuracy_variance'][a]:9.5f} "
              f"{ratio[a]:7.3f}+-{error[a]:.3f} {theory[a]:6.4f} {columns['sd_cv'][a]:6.4f} "
              f"{columns['bias'][a]:+7.4f} {columns['coverage_conditional'][a]:10.3f} "
              f"{columns['coverage_unconditional'][a]:12.3f}")


def plot_precision(run, path):
    import matplotlib.pyplot as plt

    result = run["result"]
    k = np.asarray(result.folds)
    figure, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    left.plot(k, result.err_cv, "o-", label="err_cv")
    left.plot(k, result.bias_cv, "^:", label="bias_cv")
    left.plot(k, result.mean_s_tilde / math.sqrt(result.sample_size / 2), "x-.",
              label="E S~ / sqrt(N/2): test sample of N/2")
    left.axhline(result.err_test, color="black", linewidth=1, label="err_test: test sample of N")
    left.axhline(0, color="grey", linewidth=0.5)
    left.set(xscale="log", xlabel="number of folds K", ylabel="log loss",
             title=f"{run['population']}, {run['learner']}, N={result.sample_size}, {result.n_draws} draws")
    left.set_xticks(k, [str(int(v)) for v in k])
    left.minorticks_off()
    left.legend(fontsize="small")
    theirs = nedelko_ratios(result.sample_size)
    right.plot(k, result.half_sample_ratio, "o-", label="this run")
    paper_k = sorted(theirs)
    right.plot(paper_k, [theirs[v][1] for v in paper_k], "s--", color="grey",
               label=f"Nedel'ko {NEDELKO[result.sample_size]['table']} (adult)")
    right.axhline(1, color="black", linewidth=1, label="1: as precise as N/2 test rows")
    right.axhline(math.sqrt(0.5), color="black", linewidth=0.8, linestyle=":", label="0.71: as precise as N test rows")
    right.set(xscale="log", xlabel="number of folds K", ylabel="err_cv / (E S~ / sqrt(N/2))",
              title="half-sample ratio", ylim=(0, 2))
    right.set_xticks(k, [str(int(v)) for v in k])
    right.minorticks_off()
    right.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def plot_fold_sizes(runs, path):
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    labels = [f"{run['population']}\nk={run['result'].n_splits}" for run in runs]
    x = np.arange(len(runs))
    width = 0.26
    for a, name in enumerate(runs[0]["result"].approaches):
        ratios = [variance_ratios(run["result"]) for run in runs]
        left.errorbar(x + (a - 1) * width, [r[0][a] for r in ratios], yerr=[r[1][a] for r in ratios], fmt="o",
                      color=f"C{a}", capsize=3, label=name)
        left.plot(x + (a - 1) * width, [r[2][a] for r in ratios], "D", color=f"C{a}", markerfacecolor="none")
        coverage = [run["result"].covers_conditional[:, a].mean() for run in runs]
        right.bar(x + (a - 1) * width, coverage, width, color=f"C{a}", label=name)
    left.axhline(1, color="black", linewidth=0.5)
    left.set_xticks(x, labels, fontsize="small")
    left.set(ylabel="mean fold-accuracy variance / that of (3)",
             title="fold variance (dots: +-2 SE; diamonds: Theorem 1)")
    left.legend(fontsize="small")
    level = runs[0]["result"].confidence_level
    right.axhline(level, color="black", linestyle="--", linewidth=1)
    right.set_xticks(x, labels, fontsize="small")
    right.set(ylim=(0.5, 1.0), ylabel="coverage of the conditional accuracy",
              title=f"Wong's fold-level t interval ({level:.0%})")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few draws of every run, to check that it works")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--checkpoint-dir", default=None,
                        help="keep each study's finished draws here, so that a killed run resumes")
    parser.add_argument("--out", default=None,
                        help="the results JSON (default benchmarks/results/study_precision_foldsize.json; "
                             "with --quick a temporary folder)")
    parser.add_argument("--figures", default=None, help="folder of the PNG figures (default docs/figures; "
                                                        "with --quick a temporary folder)")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    scratch = tempfile.mkdtemp(prefix="study_precision_foldsize-") if args.quick else None
    out = args.out or (os.path.join(scratch, "study_precision_foldsize.json") if args.quick else
                       os.path.join(root, "benchmarks", "results", "study_precision_foldsize.json"))
    figures = args.figures or (scratch if args.quick else os.path.join(root, "docs", "figures"))
    for folder in (os.path.dirname(os.path.abspath(out)), figures, args.checkpoint_dir):
        if folder:
            os.makedirs(folder, exist_ok=True)

    start = time.perf_counter()
    runs = run_all(args.quick, args.n_jobs, args.checkpoint_dir)
    seconds = time.perf_counter() - start

    for run in runs["precision"]:
        print_precision(run)
    print("\n## Wong's example sizes (n = 203, k = 5): Theorem 1's extra fold variance over equal sizes: "
          + ", ".join(f"{name} {100 * v:.3f}%" for name, v in wong_size_excess().items()))
    for run in runs["fold_size"]:
        print_fold_size(run)
    print(f"\ntotal {seconds:.0f} s with n_jobs={args.n_jobs}")

    for run in runs["precision"]:
        plot_precision(run, os.path.join(figures, f"precision_{run['name']}.png"))
    plot_fold_sizes(runs["fold_size"], os.path.join(figures, "fold_size_variance.png"))
    document = {
        "command": "python benchmarks/study_precision_foldsize.py " + " ".join(sys.argv[1:]),
        "seconds": round(seconds, 1), "n_jobs": args.n_jobs, "quick": args.quick,
        "papers": {"nedelko2021": {str(n): {"table": t["table"], "table1": t["table1"],
                                            "rows": {str(k): dict(zip(NEDELKO_COLUMNS, row, strict=True))
                                                     for k, row in t["rows"].items()}}
                                   for n, t in NEDELKO.items()},
                   "wong2015_sizes": WONG_SIZES, "wong2015_theorem1_excess": wong_size_excess()},
        **{kind: [{**{key: value for key, value in run.items() if key != "result"},
                   "result": run["result"].to_dict()} for run in kind_runs]
           for kind, kind_runs in runs.items()},
    }
    temporary = out + ".tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump(document, file, allow_nan=False)
    os.replace(temporary, out)
    print(f"wrote {out} and the figures in {figures}")


if __name__ == "__main__":
    main()
