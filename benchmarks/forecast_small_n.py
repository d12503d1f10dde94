"""Diebold-Mariano on few forecasts: the rejection rate of ``forecast_test`` under an exact null (issue 58, finding 6).

The null: a series y_t ~ N(0, 1) independent, and two learners whose one-step forecasts are independent N(0, 1)
draws, one forecast per origin (``ForwardResult.from_forecasts``, expanding window). Their squared-error losses
(y_t - a_t)^2 and (y_t - b_t)^2 have the same distribution, so the loss differential d_t has mean 0 exactly and
is serially independent: every rejection at alpha = 0.05 is a false one.

For n = 5, 8, 10, 15, 20, 30, 40, 50, 60, 80, 100 forecasts (``--sizes``) and R replications each
(``--replications``, 4,000 by default), the rate of p < 0.05 (two-sided) of:

- ``bartlett-nw``: the default's estimator over every horizon, Bartlett's window at Newey & West's lag
  floor(4 (n / 100)^(2/9)) and t with n - 1 df (``forecast_test(pair, lag=newey_west_lag(n))``, the same statistic
  as the default had before its small-sample rule);
- ``prewhitened``: the pre-whitened estimator (``prewhitened_long_run_variance``, the statistic of
  ``method="prewhitened-diebold-mariano"`` before its small-sample rule), t with n - 1 df;
- ``hln``: Diebold & Mariano at one horizon with Harvey, Leybourne & Newbold's factor (``horizon=1``);
- ``plain-t``: scipy.stats.ttest_1samp of the differentials (the independent oracle);
- ``default`` and ``prewhitened-as-shipped``: ``forecast_test(pair)`` and
  ``forecast_test(pair, method="prewhitened-diebold-mariano")`` as the package ships them (with the rule).

A second null with dependent losses (``--phis``, 0.5 and 0.8 by default; n = 10, 20, 40;
``--dependent-replications``, 2,000): the same series, and forecasts y_t + u_t with u an AR(1) of coefficient phi
and variance 1, independent for the two learners: equal expected loss, serially correlated loss differential.

Each rate comes with its Monte-Carlo standard error and 95% Wilson interval. The rule in
``cvinference.inference._forecast.SMALL_SAMPLE_FORECASTS`` is the smallest measured n from which on the Wilson lower
bound of ``bartlett-nw`` and ``prewhitened`` stays at or below 0.06 under the independent null (phi = 0); the
script prints that n. Rows are written to
``benchmarks/results/forecast_small_n.json``. The default run took 220 to 480 s on the shared 2-core
machine (one core, under nice, as the load varied).

    nice python benchmarks/forecast_small_n.py
"""

import argparse
import json
import math
import pathlib
import time
import warnings

import numpy as np
from scipy import stats

from cvinference.inference import forecast_test
from cvinference.inference._hac import newey_west_lag, prewhitened_long_run_variance
from cvinference.records import ForwardResult, PairedForwardResult

ALPHA = 0.05
SIZES = (5, 8, 10, 15, 20, 30, 40, 50, 60, 80, 100)
DEPENDENT_SIZES = (10, 20, 40)
PHIS = (0.5, 0.8)
LIMIT = 0.06
"""The rate whose excess, by the Wilson lower bound, sets the small-sample rule."""
OUT = pathlib.Path(__file__).parent / "results" / "forecast_small_n.json"


def rate_row(successes, trials):
    """A rate with its Monte-Carlo standard error and 95% Wilson interval (``scipy.stats.binomtest``)."""
    measured = successes / trials
    wilson = stats.binomtest(int(successes), int(trials)).proportion_ci(0.95, method="wilson")
    return {"measured": measured, "mc_se": math.sqrt(measured * (1 - measured) / trials),
            "wilson_low": float(wilson.low), "wilson_high": float(wilson.high), "replications": int(trials)}


def ar1(rng, n, phi):
    """n values of a stationary AR(1) with coefficient phi and variance 1 (after a burn-in of 50)."""
    shocks = rng.standard_normal(n + 50)
    values = np.zeros(n + 50)
    for t in range(1, n + 50):
        values[t] = phi * values[t - 1] + shocks[t]
    return values[50:] * math.sqrt(1 - phi**2)


def null_pair(n, rng, phi=0.0):
    """Two equal-loss learners' records of n one-step forecasts, one per origin: independent N(0, 1) draws (phi 0),
    or the series plus an AR(1) error of coefficient phi."""
    start = 5
    y = rng.standard_normal(start + n)
    rows = np.arange(start, start + n)
    forecasts = [rng.standard_normal(n) if phi == 0 else y[rows] + ar1(rng, n, phi) for _ in "ab"]
    records = [ForwardResult.from_forecasts(y, forecast, time=rows, origin=rows - 1, train_size="expanding",
                                            name=name) for forecast, name in zip(forecasts, "ab", strict=True)]
    return PairedForwardResult(*records)


def prewhitened_pvalue(d):
    """The pre-whitened statistic d-bar / sqrt(LRV / n) against t with n - 1 df."""
    variance = prewhitened_long_run_variance(d)[0]
    n = d.size
    statistic = d.mean() / math.sqrt(max(variance, 1e-300) / n)
    return 2 * stats.t.sf(abs(statistic), n - 1)


def pvalues(pair, n):
    """Every test's two-sided p-value on one pair."""
    d = pair.b.loss - pair.a.loss
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "bartlett-nw": forecast_test(pair, lag=newey_west_lag(n)).pvalue,
            "prewhitened": prewhitened_pvalue(d),
            "hln": forecast_test(pair, horizon=1).pvalue,
            "plain-t": stats.ttest_1samp(d, 0.0).pvalue,
            "default": forecast_test(pair).pvalue,
            "prewhitened-as-shipped": forecast_test(pair, method="prewhitened-diebold-mariano").pvalue,
        }


def measure(n, replications, seed, phi=0.0):
    """The rows of one n (and phi)."""
    rng = np.random.default_rng([seed, n] if phi == 0 else [seed, n, round(phi * 100)])
    counts = {}
    for _ in range(replications):
        for test, pvalue in pvalues(null_pair(n, rng, phi), n).items():
            counts[test] = counts.get(test, 0) + (pvalue < ALPHA)
    return [{"phi": phi, "n": n, "test": test, **rate_row(count, replications)} for test, count in counts.items()]


def smallest_sound(rows, tests=("bartlett-nw", "prewhitened")):
    """The smallest measured n from which on no test in ``tests`` exceeds :data:`LIMIT` by its Wilson lower bound."""
    sizes = sorted({row["n"] for row in rows})
    rows = [row for row in rows if row["phi"] == 0]
    over = [row["n"] for row in rows if row["test"] in tests and row["wilson_low"] > LIMIT]
    return next((n for n in sizes if all(n > bad for bad in over)), None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    parser.add_argument("--replications", type=int, default=4000)
    parser.add_argument("--phis", type=float, nargs="*", default=PHIS)
    parser.add_argument("--dependent-replications", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=pathlib.Path, default=OUT)
    args = parser.parse_args()
    started = time.perf_counter()
    rows = []
    cells = [(0.0, n, args.replications) for n in args.sizes]
    cells += [(phi, n, args.dependent_replications) for phi in args.phis for n in DEPENDENT_SIZES]
    for phi, n, replications in cells:
        rows += measure(n, replications, args.seed, phi)
        for row in rows[-6:]:
            print(f"phi={phi:.1f} n={n:3d} {row['test']:24s} {row['measured']:.3f} (se {row['mc_se']:.3f}) "
                  f"[{row['wilson_low']:.3f}, {row['wilson_high']:.3f}]", flush=True)
    sound = smallest_sound(rows)
    print(f"smallest n from which the Wilson lower bound stays <= {LIMIT}: {sound}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"alpha": ALPHA, "limit": LIMIT, "seed": args.seed, "smallest_sound_n": sound,
                                    "seconds": round(time.perf_counter() - started, 1), "rows": rows}, indent=1)
                        + "\n")


if __name__ == "__main__":
    main()
