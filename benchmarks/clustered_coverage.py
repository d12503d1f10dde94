"""Coverage of the naive and the cluster-aware accuracy intervals, and type-I error of the paired tests, on clustered
0/1 correctness (issue 30, items 2 and 5; simulated under the methods' own model, no fits).

Population: G groups (patients) of m_g instances, m_g fixed at 5 or 50 or drawn uniformly from 5 .. 50. Group g has
its own accuracy p_g ~ Beta(mean 0.8, intra-cluster correlation rho), i.e. Beta(0.8 s, 0.2 s) with s = (1 - rho) /
rho, so that two instances of one group have correlation rho (the beta-binomial); given p_g the instances are
independent Bernoulli(p_g). The estimand is the population accuracy E p_g = 0.8 (the sizes do not depend on p_g).

Intervals at 95%, each from one replicate's correctness and groups:
- binomial Wald: p +- z sqrt(p (1 - p) / N), every instance counted as independent (accuracy_interval's "normal");
- cluster t: cluster_mean_interval (ratio estimator, CR1 variance, t with G - 1 df);
- bootstrap percentile and BCa: cluster_bootstrap_interval (--resamples resamples of whole groups).

Tests at alpha = 0.05 under a null with cluster-correlated discordance: in group g, A is right with probability
a_g = clip(p_g + t_g) and B with b_g = clip(p_g - t_g), t_g ~ Normal(0, 0.2 sqrt(rho)), clipped to [0, 1]; (a_g,
b_g) and (b_g, a_g) have the same distribution, so the two accuracies are equal over the population of groups, but a
group favours one of them. On each instance B's uniform draw is A's with probability 1/2 (A and B err on the same
instances) and fresh otherwise. Tests: McNemar's chi-square without continuity correction on the instances (the
statistic of mcnemar_test(exact=False, correction=False)), clustered_mcnemar_of with Obuchowski's and with
Durkalski's statistic, and cluster_paired_difference_of on the 0/1 losses.

Printed: one markdown table of coverage (Monte-Carlo standard error about sqrt(0.95 * 0.05 / R), 0.007 at R = 1000)
and mean width, one of rejection rates, and the wall time. Everything runs in this process, one core; run it with
``nice``. ``--quick`` (R = 100) checks that it runs.
"""

import argparse
import math
import time
import warnings

import numpy as np
from scipy import stats

from cvinference import InferenceWarning
from cvinference.inference._clustered import (
    cluster_bootstrap_interval,
    cluster_mean_interval,
    cluster_paired_difference_of,
    clustered_mcnemar_of,
)

ACCURACY = 0.8
ALPHA = 0.05
SIZES = {"5": (5, 5), "5-50": (5, 50), "50": (50, 50)}
ICCS = (0.05, 0.2, 0.5)
N_GROUPS = (20, 50)
INTERVALS = ("binomial Wald", "cluster t", "bootstrap percentile", "bootstrap BCa")
TESTS = ("McNemar (instances)", "Obuchowski", "Durkalski", "cluster paired t")


def group_accuracies(rng, n_groups, icc):
    strength = (1 - icc) / icc
    return rng.beta(ACCURACY * strength, (1 - ACCURACY) * strength, n_groups)


def group_labels(rng, n_groups, sizes):
    return np.repeat(np.arange(n_groups), rng.integers(sizes[0], sizes[1] + 1, n_groups))


def intervals(correct, groups, resamples, seed):
    """(low, high) of each interval in INTERVALS."""
    p, n = correct.mean(), correct.size
    half = stats.norm.ppf(1 - ALPHA / 2) * math.sqrt(p * (1 - p) / n)
    robust = cluster_mean_interval(correct, groups, bounds=(0, 1))
    percentile = cluster_bootstrap_interval(correct, groups, n_resamples=resamples, random_state=seed)
    bca = cluster_bootstrap_interval(correct, groups, n_resamples=resamples, method="bca", random_state=seed)
    return [(max(p - half, 0.0), min(p + half, 1.0)), (robust.low, robust.high), (percentile.low, percentile.high),
            (bca.low, bca.high)]


def paired_null(rng, p, groups, icc):
    tilt = rng.normal(0, 0.2 * math.sqrt(icc), p.size)
    a, b = np.clip(p + tilt, 0, 1)[groups], np.clip(p - tilt, 0, 1)[groups]
    draw = rng.random(groups.size)
    shared = rng.random(groups.size) < 0.5
    other = np.where(shared, draw, rng.random(groups.size))
    return (draw < a).astype(float), (other < b).astype(float)


def pvalues(correct_a, correct_b, groups):
    """The p-value of each test in TESTS."""
    b = np.count_nonzero((correct_a == 1) & (correct_b == 0))
    c = np.count_nonzero((correct_a == 0) & (correct_b == 1))
    mcnemar = 1.0 if b + c == 0 else float(stats.chi2.sf((b - c) ** 2 / (b + c), 1))
    return [mcnemar,
            clustered_mcnemar_of(correct_a, correct_b, groups, method="mcnemar-obuchowski").pvalue,
            clustered_mcnemar_of(correct_a, correct_b, groups, method="mcnemar-durkalski").pvalue,
            cluster_paired_difference_of(1 - correct_a, 1 - correct_b, groups).pvalue]


def run_cell(n_groups, sizes, icc, replicates, resamples, seed):
    rng = np.random.default_rng(seed)
    covered, width, rejected = np.zeros(len(INTERVALS)), np.zeros(len(INTERVALS)), np.zeros(len(TESTS))
    for _ in range(replicates):
        groups = group_labels(rng, n_groups, sizes)
        p = group_accuracies(rng, n_groups, icc)
        correct = (rng.random(groups.size) < p[groups]).astype(float)
        bounds = np.array(intervals(correct, groups, resamples, int(rng.integers(2**31))))
        covered += (bounds[:, 0] <= ACCURACY) & (ACCURACY <= bounds[:, 1])
        width += bounds[:, 1] - bounds[:, 0]
        rejected += np.array(pvalues(*paired_null(rng, p, groups, icc), groups)) < ALPHA
    return covered / replicates, width / replicates, rejected / replicates


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicates", type=int, default=1000, help="replicates per cell (default 1000)")
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="100 replicates, 200 resamples: checks that it runs")
    args = parser.parse_args()
    replicates, resamples = (100, 200) if args.quick else (args.replicates, args.resamples)
    seeds = np.random.SeedSequence(args.seed).spawn(len(N_GROUPS) * len(SIZES) * len(ICCS))
    started = time.perf_counter()
    coverage_rows, error_rows = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InferenceWarning)  # clipped or zero-width intervals, counted as they are
        cells = [(g, name, icc) for g in N_GROUPS for name in SIZES for icc in ICCS]
        for (n_groups, name, icc), seed in zip(cells, seeds, strict=True):
            coverage, width, rejection = run_cell(n_groups, SIZES[name], icc, replicates, resamples, seed)
            cell = [str(n_groups), name, f"{icc:g}"]
            coverage_rows.append(cell + [f"{c:.3f} ({w:.3f})" for c, w in zip(coverage, width, strict=True)])
            error_rows.append(cell + [f"{r:.3f}" for r in rejection])
    print(f"Coverage of 95% intervals for accuracy {ACCURACY} (mean width in parentheses); {replicates} replicates "
          f"per cell, {resamples} bootstrap resamples\n")
    print(table(["G", "group size", "ICC", *INTERVALS], coverage_rows))
    print(f"\nType-I error at alpha = {ALPHA} (equal accuracies, cluster-correlated discordance)\n")
    print(table(["G", "group size", "ICC", *TESTS], error_rows))
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
