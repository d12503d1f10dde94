"""Forward validation's calibration with real fits (issue 48, item 5).

Synthetic series with known dependence: a regression on two independent features whose errors follow an AR(1)
process with phi = 0, 0.5, 0.7 and 0.9 (unit marginal variance), the rows in time order. Each replication draws
a series of N rows and runs ``CVEvaluator(cv=ForwardSplit(50, horizon=5, window=150)).compare`` of two ridge
regressions that see the two features and one pure-noise feature each, drawn independently for A and B: an exact
null (A and B are exchangeable, so their expected losses are equal), on 250 forecasts.

Measured per cell:
* the coverage of ``forecast_interval``'s pre-whitened HAC, HAC, moving-block bootstrap and independent
  (``iid``) intervals of A's mean loss, against the "forward" target: the expected loss of the same
  forecasting scheme, computed once per phi from one long series (``--truth-origins`` origins of the same
  window and horizon, fits included);
* the type-I error of ``forecast_test``: Diebold-Mariano over every horizon (HAC), at horizon 1 (HLN), and
  Giacomini-White at horizon 1;
* their power against a B that sees the second signal through noise of unit variance (its expected loss higher
  by about 0.125; the row says by how much, from the long series).

``--real R`` adds R nulls on each of three of statsmodels' real series (sunspots, CO2, El Nino): ridge regressions on
three lags and a fresh noise column each, exchangeable given the series, 150 forecasts of 30 origins.

Rows (with Wilson bounds) go to ``cvinference/policy/data/forward_calibration.json``, the evidence the decision
for forecasters reads (``cvinference/policy/_forward_decision.py``); ``--markdown`` prints the table of
``docs/calibration.md``, "Forward validation".

    python benchmarks/forward_calibration.py --replications 300 --real 300   # about 15 min on the shared 2-core machine
    python benchmarks/forward_calibration.py --phis --real 300               # the real series alone, about 5 min
"""

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np
from sklearn.linear_model import Ridge
from statsmodels.stats.proportion import proportion_confint

from cvinference import CVEvaluator
from cvinference.inference import forecast_interval, forecast_test
from cvinference.records import PairedForwardResult
from cvinference.splitters import ForwardSplit

PHIS = (0.0, 0.5, 0.7, 0.9)
N, WINDOW, HORIZON, ORIGINS = 400, 150, 5, 50
BETA = np.array([1.0, -0.5])
INTERVALS = ("prewhitened-hac", "hac", "block-bootstrap", "iid")
TESTS = {"Diebold-Mariano (HAC), every horizon": {},
         "Diebold-Mariano (HLN), horizon 1": {"horizon": 1},
         "Giacomini-White, horizon 1": {"method": "giacomini-white", "horizon": 1}}
OUT = Path(__file__).resolve().parents[1] / "cvinference" / "policy" / "data" / "forward_calibration.json"


def series(phi, n, rng):
    """Features (two signals, two noise columns) and a target whose errors are AR(1) with unit variance."""
    e = rng.standard_normal(n + 200)
    u = np.empty_like(e)
    u[0] = e[0]
    for t in range(1, u.size):
        u[t] = phi * u[t - 1] + math.sqrt(1 - phi**2) * e[t]
    x = rng.standard_normal((n, 4))
    return x, x[:, :2] @ BETA + u[200:]


def learners():
    """A sees the signals and noise column 2, B the signals and noise column 3: exchangeable."""
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    pick = [lambda columns: ColumnTransformer([("keep", "passthrough", columns)]) for _ in range(2)]
    return (make_pipeline(pick[0]([0, 1, 2]), Ridge(alpha=1.0)), make_pipeline(pick[1]([0, 1, 3]), Ridge(alpha=1.0)))


def with_noisy_signal(X, seed):
    """X and a fifth column: the second signal measured with noise of unit variance (from its own generator, so the
    null cells' draws do not move)."""
    noise = np.random.default_rng(seed).standard_normal(X.shape[0])
    return np.column_stack([X, X[:, 1] + noise])


def weaker():
    """The power cell's B: the signals, the second one measured with noise, and noise column 3; A is the null's A."""
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    return make_pipeline(ColumnTransformer([("keep", "passthrough", [0, 4, 3])]), Ridge(alpha=1.0))


def truth(phi, origins, rng):
    """The expected pooled losses of the scheme, of A and of the power cell's B: one long series, ``origins`` origins
    of the same window and horizon."""
    X, y = series(phi, WINDOW + HORIZON * origins, rng)
    pair = CVEvaluator(cv=ForwardSplit(origins, horizon=HORIZON, window=WINDOW), loss="squared_error").compare(
        learners()[0], weaker(), with_noisy_signal(X, [48, 0]), y)
    return pair.a.mean_loss, pair.b.mean_loss


def replication(phi, rng, index):
    X, y = series(phi, N, rng)
    evaluator = CVEvaluator(cv=ForwardSplit(ORIGINS, horizon=HORIZON, window=WINDOW), loss="squared_error")
    pair = evaluator.compare(*learners(), X, y)
    seed = int(rng.integers(2**31))
    intervals = {m: forecast_interval(pair.a, method=m, random_state=seed) for m in INTERVALS}
    pvalues = {name: forecast_test(pair, **kwargs).pvalue for name, kwargs in TESTS.items()}
    power_pair = PairedForwardResult(pair.a, evaluator.evaluate(weaker(), with_noisy_signal(X, [48, 1, index]), y))
    power = {name: forecast_test(power_pair, **kwargs).pvalue for name, kwargs in TESTS.items()}
    return intervals, pvalues, power


REAL_SERIES = ("sunspots", "co2", "elnino")
"""statsmodels' series for the real-series nulls: yearly sunspots (309), monthly CO2 at Mauna Loa (526, the weekly
readings averaged by month, gaps interpolated) and the monthly El Nino sea temperatures (732)."""


def real_series(name):
    import statsmodels.api as sm
    if name == "sunspots":
        return sm.datasets.sunspots.load_pandas().data["SUNACTIVITY"].to_numpy(dtype=float)
    if name == "co2":
        weekly = sm.datasets.co2.load_pandas().data["co2"]
        return weekly.resample("MS").mean().interpolate().to_numpy(dtype=float)
    table = sm.datasets.elnino.load_pandas().data
    return table.drop(columns="YEAR").to_numpy(dtype=float).ravel()


def real_replication(values, rng):
    """One null on a real series: ridge on three lags and a fresh noise column of its own, for A and for B."""
    lags = np.column_stack([np.r_[np.full(k, values[0]), values[:-k]] for k in (1, 2, 3)])[3:]
    y = values[3:]
    noise = rng.standard_normal((y.size, 2))
    X = np.column_stack([lags, noise])
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    a, b = (make_pipeline(ColumnTransformer([("keep", "passthrough", [0, 1, 2, column])]), Ridge(alpha=1.0))
            for column in (3, 4))
    pair = CVEvaluator(cv=ForwardSplit(30, horizon=5, window=120), loss="squared_error").compare(a, b, X, y)
    return {name: forecast_test(pair, **kwargs).pvalue for name, kwargs in TESTS.items()}


def real_rows(replications):
    """The type-I error of every test on each real series (the noise columns drawn afresh in every replication)."""
    rows = []
    for name in REAL_SERIES:
        rng = np.random.default_rng([48, 7, len(name)])
        values = real_series(name)
        rejected = {test: 0 for test in TESTS}
        for _ in range(replications):
            for test, p in real_replication(values, rng).items():
                rejected[test] += p < 0.05
        rows += [{"series": name, "quantity": "type_i", "method": test,
                  "measured": round(rejected[test] / replications, 3), "wilson": wilson(rejected[test], replications),
                  "replications": replications} for test in TESTS]
        print(f"{name}: done", flush=True)
    return rows


def wilson(count, n):
    low, high = proportion_confint(count, n, alpha=0.05, method="wilson")
    return round(float(low), 3), round(float(high), 3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--replications", type=int, default=400)
    parser.add_argument("--truth-origins", type=int, default=20000)
    parser.add_argument("--phis", type=float, nargs="*", default=PHIS)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--markdown", action="store_true", help="print the table of the rows in --out and stop")
    parser.add_argument("--real", type=int, default=0, metavar="R",
                        help="add R replications of the nulls on each of statsmodels' real series")
    args = parser.parse_args()
    if args.markdown:
        print(markdown(json.loads(args.out.read_text())))
        return
    if args.real and not args.phis:  # the real series alone, their rows replaced in the file
        data = json.loads(args.out.read_text())
        data["rows"] = [row for row in data["rows"] if "series" not in row] + real_rows(args.real)
        args.out.write_text(json.dumps(data, indent=1) + "\n")
        print(markdown(data))
        return
    rows, started = [], time.perf_counter()
    for phi in args.phis:
        rng = np.random.default_rng([48, int(phi * 100)])
        target, weaker_loss = truth(phi, args.truth_origins, rng)
        covered = {m: 0 for m in INTERVALS}
        widths = {m: [] for m in INTERVALS}
        rejected = {name: 0 for name in TESTS}
        detected = {name: 0 for name in TESTS}
        for index in range(args.replications):
            intervals, pvalues, power = replication(phi, rng, index)
            for m, interval in intervals.items():
                covered[m] += interval.low <= target <= interval.high
                widths[m].append(interval.high - interval.low)
            for name, p in pvalues.items():
                rejected[name] += p < 0.05
            for name, p in power.items():
                detected[name] += p < 0.05
        r = args.replications
        rows += [{"phi": phi, "quantity": "coverage", "method": m, "measured": round(covered[m] / r, 3),
                  "wilson": wilson(covered[m], r), "mean_width": round(float(np.mean(widths[m])), 4),
                  "target": round(target, 4), "replications": r} for m in INTERVALS]
        rows += [{"phi": phi, "quantity": "type_i", "method": name, "measured": round(rejected[name] / r, 3),
                  "wilson": wilson(rejected[name], r), "replications": r} for name in TESTS]
        rows += [{"phi": phi, "quantity": "power", "method": name, "measured": round(detected[name] / r, 3),
                  "wilson": wilson(detected[name], r), "difference": round(weaker_loss - target, 4),
                  "replications": r} for name in TESTS]
        print(f"phi = {phi}: {time.perf_counter() - started:.0f} s", flush=True)
    if args.real:
        rows += real_rows(args.real)
    setting = {"N": N, "window": WINDOW, "horizon": HORIZON, "origins": ORIGINS, "forecasts": HORIZON * ORIGINS,
               "truth_origins": args.truth_origins, "learners": "ridge on (x1, x2, noise_A) and (x1, x2, noise_B)"}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"setting": setting, "rows": rows}, indent=1) + "\n")
    print(markdown({"setting": setting, "rows": rows}))


def markdown(data):
    rows = [row for row in data["rows"] if "phi" in row]
    phis = sorted({row["phi"] for row in rows})
    powered = any(row["quantity"] == "power" for row in rows)
    lines = ["| phi | " + " | ".join(f"{m} coverage (width)" for m in INTERVALS) + " | "
             + " | ".join(f"{name} type-I" for name in TESTS) + " |"
             + ("".join(f" {name} power |" for name in TESTS) if powered else ""),
             "|---" * (1 + len(INTERVALS) + len(TESTS) * (2 if powered else 1)) + "|"]
    for phi in phis:
        cells = []
        for m in INTERVALS:
            row = next(r for r in rows if r["phi"] == phi and r["method"] == m)
            cells.append(f"{row['measured']:.3f} ({row['mean_width']:.3f})")
        for quantity in ("type_i", "power") if powered else ("type_i",):
            for name in TESTS:
                row = next(r for r in rows if r["phi"] == phi and r["method"] == name and r["quantity"] == quantity)
                cells.append(f"{row['measured']:.3f} [{row['wilson'][0]:.3f}, {row['wilson'][1]:.3f}]")
        lines.append(f"| {phi:g} | " + " | ".join(cells) + " |")
    real = [row for row in data["rows"] if "series" in row]
    if real:
        lines += ["", "| real series (ForwardSplit(30, horizon=5, window=120)) | "
                  + " | ".join(f"{name} type-I" for name in TESTS) + " |", "|---" * (1 + len(TESTS)) + "|"]
        for series_name in dict.fromkeys(row["series"] for row in real):
            cells = [next(r for r in real if r["series"] == series_name and r["method"] == name) for name in TESTS]
            lines.append(f"| {series_name} | " + " | ".join(
                f"{r['measured']:.3f} [{r['wilson'][0]:.3f}, {r['wilson'][1]:.3f}]" for r in cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
