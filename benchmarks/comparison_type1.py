"""Type-I error and power of the comparison tests, with real fits (after Dietterich 1998).

A large dataset stands in for the population
(make_classification(n_samples=20000, n_features=20, n_informative=5, flip_y=0.1,
random_state=0)); R small training samples of n instances (300 by default) are
drawn from it without replacement, and on each sample every test compares two
learners:

- two nulls: A and B are the same learner, DecisionTreeClassifier(max_features=0.5),
  differing only in their internal randomness. Their expected accuracy over
  training sets (and seeds) is equal by construction, so every rejection is a
  false positive. The null hypothesis here is "equal expected accuracy of the
  two learners over training sets"; a test of the difference on this one
  dataset and partition (conditional on the data and, here, the seeds, as
  McNemar's test and the 10-fold t are) has a different estimand and may
  legitimately reject more often. That gap is the point Vanwinckelen &
  Blockeel (2015) make: no test computed from one dataset can measure the
  variation over training sets. The rate is still the one a user sees when
  asking "is A better than B?".
  "null: fresh seed": the randomness is fresh in every fit (a seed drawn from
  the learner's own seed and a hash of the training data). A and B are then
  exchangeable in every single fit, so on every dataset the difference has
  mean 0 and the fold or round differences are uncorrelated: the null is true
  conditionally too, and the correlation the corrected tests allow for is
  absent.
  "null: seed/sample": each learner gets one random_state, drawn afresh for
  every sample and kept for all its fits on that sample, as a user sets
  random_state once. On a given sample the two seeded trees do differ (a
  seed fixes which features are tried), so the differences of the folds and
  rounds share a component, as between two different learners; over samples
  the difference averages to 0. This is the null that shows what Dietterich
  measured.
- seeds 1 vs 2: the same tree with random_state=1 and random_state=2 for every
  sample. Not a null: a fixed seed fixes the features tried at the top of the
  tree whatever the training set, and on this population the two seeds differ
  in expected accuracy (see the "population" line, which estimates it); shown
  because it looks like a null.
- power: A of the fresh-seed null against GaussianNB(), a real difference.

On every sample, for every pair: from one 10 x 10-fold CVEvaluator.compare, the
matched-sample t, the independent-sample z and McNemar's test (exact=None) on its
first repeat (a single 10-fold cross-validation), the naive paired t over all
100 fold differences (scipy.stats.ttest_1samp, written out here, as cvinference
does not offer it) and the corrected resampled t over the same 100; the 5x2cv
paired t and combined F (same seed, so the same five partitions); and on 30
rounds of random_subsampling of both learners (same int random_state, so the
same test sets) the naive t over the 30 round differences and the corrected t.
The population line fits A and B on the whole sample and scores them on the
other 20000 - n instances: the mean of that difference estimates the true
difference in expected accuracy at n_train = n (the tests' training sizes are
smaller: 270, 150, 200).

Printed: the rejection rate at alpha = 0.05 with its Monte-Carlo standard error
sqrt(p (1 - p) / R), R, and the wall time. Each sample has its own seed spawned
from --seed, so the results do not depend on --n-jobs (samples run in parallel
with joblib; every fit inside a sample uses n_jobs=1). A --quick run (R = 10)
took 25 s on the shared 2-core development machine with --n-jobs 1 (about 2.5 s
per sample for the four pairs), so the default R = 150 takes about 7 minutes
there (422 s measured); with R = 150 a true rate of 0.05 has a standard error
of 0.018.

    python benchmarks/comparison_type1.py [--samples 150] [--n 300] [--seed 0] [--n-jobs 1]
    python benchmarks/comparison_type1.py --quick
"""

import argparse
import time
import warnings
import zlib

import numpy as np
from joblib import Parallel, delayed
from scipy import stats
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

ALPHA = 0.05
TESTS = [
    "matched t, 10-fold",
    "independent z, 10-fold",
    "McNemar, 10-fold",
    "naive t, 10x10-fold",
    "corrected t, 10x10-fold",
    "5x2cv t",
    "5x2cv F",
    "naive t, 30 subsampling",
    "corrected t, 30 subsampling",
]


class FreshSeedTree(DecisionTreeClassifier):
    """A decision tree whose every fit draws its own seed from random_state and the training data.

    Two of them with different random_state are the same learning algorithm with
    independent internal randomness in every fit, reproducibly.
    """

    def fit(self, X, y, sample_weight=None, check_input=True):
        data = zlib.crc32(np.ascontiguousarray(y).tobytes(), zlib.crc32(np.ascontiguousarray(X).tobytes()))
        seed = int(np.random.SeedSequence([self.random_state, data]).generate_state(1)[0])
        own = self.random_state
        self.random_state = seed
        try:
            return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)
        finally:
            self.random_state = own


def pairs(rng):
    tree = FreshSeedTree(max_features=0.5, random_state=1)
    seed_a, seed_b = (int(s) for s in rng.integers(2**31 - 1, size=2))
    return {
        "null: fresh seed": (tree, FreshSeedTree(max_features=0.5, random_state=2)),
        "null: seed/sample": (DecisionTreeClassifier(max_features=0.5, random_state=seed_a),
                              DecisionTreeClassifier(max_features=0.5, random_state=seed_b)),
        "seeds 1 vs 2": (DecisionTreeClassifier(max_features=0.5, random_state=1),
                         DecisionTreeClassifier(max_features=0.5, random_state=2)),
        "power: vs NB": (tree, GaussianNB()),
    }


def _naive_t(differences):
    """p-value of the plain one-sample t over all differences; 1 when they are all equal."""
    pvalue = stats.ttest_1samp(np.ravel(differences), 0.0).pvalue
    return 1.0 if np.isnan(pvalue) else float(pvalue)


def pvalues(a, b, X, y, rng):
    """The p-value of every test in TESTS comparing learners a and b on (X, y)."""
    seed_cv, seed_5x2, seed_sub = (int(s) for s in rng.integers(2**31 - 1, size=3))
    pair = cvi.CVEvaluator(cv=10, n_repeats=10, n_jobs=1, random_state=seed_cv).compare(a, b, X, y)
    fold_differences = (pair.a.fold_correct - pair.b.fold_correct) / pair.a.fold_sizes
    sub_a = cvi.evaluation.random_subsampling(a, X, y, n_rounds=30, random_state=seed_sub, n_jobs=1)
    sub_b = cvi.evaluation.random_subsampling(b, X, y, n_rounds=30, random_state=seed_sub, n_jobs=1)
    return [
        cvi.matched_sample_test(pair.a, pair.b, repeat=0).pvalue,
        cvi.independent_sample_test(pair.a, pair.b, repeat=0).pvalue,
        cvi.mcnemar_test(pair.a, pair.b, repeat=0).pvalue,
        _naive_t(fold_differences),
        cvi.corrected_resampled_ttest(pair.a, pair.b).pvalue,
        cvi.paired_ttest_5x2cv(a, b, X, y, random_state=seed_5x2, n_jobs=1).pvalue,
        cvi.combined_ftest_5x2cv(a, b, X, y, random_state=seed_5x2, n_jobs=1).pvalue,
        _naive_t(sub_a.round_accuracy - sub_b.round_accuracy),
        cvi.corrected_resampled_ttest(sub_a, sub_b).pvalue,
    ]


def one_sample(X, y, n, seed_sequence):
    """Draw one training sample; return {pair: (p-values, population difference)}."""
    warnings.simplefilter("ignore", cvi.InferenceWarning)  # also in joblib's worker processes
    rng = np.random.default_rng(seed_sequence)
    sample = rng.choice(len(y), size=n, replace=False)
    rest = np.ones(len(y), dtype=bool)
    rest[sample] = False
    out = {}
    for name, (a, b) in pairs(rng).items():
        population = (clone(a).fit(X[sample], y[sample]).score(X[rest], y[rest])
                      - clone(b).fit(X[sample], y[sample]).score(X[rest], y[rest]))
        out[name] = (pvalues(a, b, X[sample], y[sample], rng), population)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=150, help="R, the number of training samples")
    parser.add_argument("--quick", action="store_true", help="R = 10, to check that the script runs")
    parser.add_argument("--n", type=int, default=300, help="size of each training sample")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-jobs", type=int, default=1, help="samples run in parallel")
    args = parser.parse_args()
    samples = 10 if args.quick else args.samples
    X, y = make_classification(n_samples=20000, n_features=20, n_informative=5, flip_y=0.1, random_state=0)
    start = time.perf_counter()
    results = Parallel(n_jobs=args.n_jobs)(
        delayed(one_sample)(X, y, args.n, s) for s in np.random.SeedSequence(args.seed).spawn(samples)
    )
    wall = time.perf_counter() - start
    names = list(results[0])
    print(f"R = {samples} samples of n = {args.n} from make_classification(20000, 20, n_informative=5, "
          f"flip_y=0.1, random_state=0); seed {args.seed}; n_jobs {args.n_jobs}; wall time {wall:.0f} s")
    print(f"rejection rate at alpha = {ALPHA} (Monte-Carlo standard error)")
    print(f"{'':<28}" + "".join(f"{name:>19}" for name in names))
    for i, test in enumerate(TESTS):
        cells = []
        for name in names:
            rate = np.mean([result[name][0][i] < ALPHA for result in results])
            cells.append(f"{rate:.3f} ({np.sqrt(rate * (1 - rate) / samples):.3f})")
        print(f"{test:<28}" + "".join(f"{cell:>19}" for cell in cells))
    cells = []
    for name in names:
        difference = np.array([result[name][1] for result in results])
        cells.append(f"{difference.mean():+.4f} ({difference.std(ddof=1) / np.sqrt(samples):.4f})")
    print(f"{'population acc(A) - acc(B)':<28}" + "".join(f"{cell:>19}" for cell in cells))
    print(f"(the last line: A and B fitted on each whole sample, scored on the other {len(y) - args.n} "
          "instances; mean over samples (standard error))")


if __name__ == "__main__":
    main()
