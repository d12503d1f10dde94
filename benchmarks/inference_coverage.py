"""Coverage of the accuracy intervals and type-I error of the two-sample tests.

Simulated under the model the formulas assume: every instance's correctness is
an independent Bernoulli(p) trial (Wong's instance independence), dealt into k
equal-size folds. For the tests, A and B have the same accuracy p and their
correctness on an instance has correlation phi (phi = 0 is Wong's scheme
independence). The fits of real cross-validation, whose folds share training
data, are not simulated here: this measures the formulas, not cross-validation.

    python benchmarks/inference_coverage.py [--replicates 2000] [--seed 0]
"""

import argparse
import warnings

import numpy as np

import cvinference as cvi

INTERVALS = {
    "normal": {"method": "normal"},
    "wilson": {"method": "wilson"},
    "clopper-pearson": {"method": "clopper-pearson"},
    "fold t": {"averaging": "fold", "method": "t"},
    "auto": {},
}
TESTS = {
    "matched t": lambda a, b: cvi.matched_sample_test(a, b),
    "independent z": lambda a, b: cvi.independent_sample_test(a, b),
    "independent t": lambda a, b: cvi.independent_sample_test(a, b, method="independent-t"),
    "McNemar": lambda a, b: cvi.mcnemar_test(a, b),
}


def _result(correct, fold):
    y_true = np.ones(correct.size, dtype=np.int8)
    return cvi.CVResult(y_true, correct.astype(np.int8), fold)


def _correlated_pair(rng, n, p, phi):
    """Two Bernoulli(p) vectors whose entries have correlation phi."""
    both = p * p + phi * p * (1 - p)
    cells = np.array([both, p - both, p - both, 1 - 2 * p + both])
    cell = rng.choice(4, size=n, p=cells)
    return np.isin(cell, (0, 1)), np.isin(cell, (0, 2))


def interval_coverage(n, k, p, replicates, rng):
    fold = np.arange(n) % k
    hits = {name: 0 for name in INTERVALS}
    widths = {name: 0.0 for name in INTERVALS}
    for _ in range(replicates):
        result = _result(rng.random(n) < p, fold)
        for name, options in INTERVALS.items():
            interval = cvi.accuracy_interval(result, **options)
            hits[name] += interval.low <= p <= interval.high
            widths[name] += interval.high - interval.low
    return {name: (hits[name] / replicates, widths[name] / replicates) for name in INTERVALS}


def rejection_rates(n, k, p, phi, replicates, rng, alpha=0.05):
    fold = np.arange(n) % k
    rejections = {name: 0 for name in TESTS}
    for _ in range(replicates):
        correct_a, correct_b = _correlated_pair(rng, n, p, phi)
        a, b = _result(correct_a, fold), _result(correct_b, fold)
        for name, test in TESTS.items():
            rejections[name] += test(a, b).pvalue < alpha
    return {name: count / replicates for name, count in rejections.items()}


def _wald_paired(b, c, n, z):
    """The plain Wald interval of a paired difference (Agresti 2002, section 10.1.1), for comparison."""
    d = (b - c) / n
    half_width = z * np.sqrt(max(b + c - (b - c) ** 2 / n, 0.0)) / n
    return d - half_width, d + half_width


def paired_interval_coverage(n, p_a_only, p_b_only, replicates, rng):
    """Coverage of mcnemar_test's interval (Agresti-Min) and of the plain Wald interval."""
    true_difference = p_a_only - p_b_only
    z = 1.959963984540054
    hits = {"agresti-min": 0, "wald": 0}
    for _ in range(replicates):
        a_only, b_only, rest = rng.multinomial(n, [p_a_only, p_b_only, 1 - p_a_only - p_b_only])
        both = rest // 2  # the concordant instances do not enter the interval; half right, half wrong
        correct_a = np.repeat([True, False, True, False], [a_only, b_only, both, rest - both])
        correct_b = np.repeat([False, True, True, False], [a_only, b_only, both, rest - both])
        fold = np.arange(n) % 2
        a, b = _result(correct_a, fold), _result(correct_b, fold)
        low, high = cvi.mcnemar_test(a, b).confidence_interval()
        hits["agresti-min"] += low <= true_difference <= high
        low, high = _wald_paired(a_only, b_only, n, z)
        hits["wald"] += low <= true_difference <= high
    return {name: count / replicates for name, count in hits.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    warnings.simplefilter("ignore", cvi.InferenceWarning)
    print(f"{args.replicates} replicates per row, seed {args.seed}; nominal coverage 0.95")
    print(f"{'n':>5} {'k':>3} {'p':>5}  " + "  ".join(f"{name:>17}" for name in INTERVALS))
    settings = [(100, 10, 0.7), (200, 10, 0.9), (200, 10, 0.97), (569, 10, 0.98), (1000, 10, 0.9), (150, 150, 0.95)]
    for n, k, p in settings:
        rates = interval_coverage(n, k, p, args.replicates, rng)
        cells = "  ".join(f"{rate:.3f} (w {width:.3f})" for rate, width in rates.values())
        print(f"{n:>5} {k:>3} {p:>5}  {cells}")
    print("\nrejection rate at alpha = 0.05 under H0: accuracy(A) = accuracy(B) = p")
    print(f"{'n':>5} {'k':>3} {'p':>5} {'phi':>4}  " + "  ".join(f"{name:>13}" for name in TESTS))
    for n, k, p, phi in [(300, 10, 0.8, 0.0), (300, 10, 0.8, 0.5), (569, 10, 0.95, 0.3), (150, 150, 0.85, 0.3)]:
        rates = rejection_rates(n, k, p, phi, args.replicates, rng)
        print(f"{n:>5} {k:>3} {p:>5} {phi:>4}  " + "  ".join(f"{rate:>13.3f}" for rate in rates.values()))
    print("\ncoverage of the 95% interval of mcnemar_test (Agresti-Min) and of the plain Wald interval")
    print(f"{'n':>5} {'P(A only)':>9} {'P(B only)':>9}  {'agresti-min':>11}  {'wald':>6}")
    for n, p_a_only, p_b_only in [(40, 0.05, 0.0), (40, 0.1, 0.02), (100, 0.03, 0.01), (200, 0.1, 0.05),
                                  (569, 0.02, 0.01)]:
        rates = paired_interval_coverage(n, p_a_only, p_b_only, args.replicates, rng)
        print(f"{n:>5} {p_a_only:>9} {p_b_only:>9}  {rates['agresti-min']:>11.3f}  {rates['wald']:>6.3f}")


if __name__ == "__main__":
    main()
