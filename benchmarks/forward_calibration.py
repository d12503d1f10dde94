"""Forward validation's calibration with real fits (issue 48, item 5).

Synthetic series with known dependence: a regression on two independent features whose errors follow an AR(1)
process with phi = 0, 0.5, 0.7 and 0.9 (unit marginal variance), the rows in time order. Each replication draws
a series of N rows and runs ``CVEvaluator(cv=ForwardSplit(50, horizon=5, window=150)).compare`` of two ridge
regressions that see the two features and one pure-noise feature each, drawn independently for A and B: an exact
null (A and B are exchangeable, so their expected losses are equal), on 250 forecasts.

Two more cells (``--cells``), with AR(1) errors of phi = 0.5:
* ``seasonal``: y also has a seasonal mean 2 sin(2 pi t / 12); every learner also sees the twelve month dummies,
  so that the ridge regressions fit the season;
* ``level-shift`` (rows "level shift"): the mean of y rises by 1 (the errors' standard deviation) at row 200 of
  the 400, and no learner sees it: the origins before row 200 forecast as in the other cells, the next 30 from
  windows that straddle the shift, their forecasts biased until the window holds only rows after it.

Measured per cell:
* the coverage of ``forecast_interval``'s pre-whitened HAC, HAC, moving-block bootstrap, stationary bootstrap and
  independent (``iid``) intervals of A's mean loss, against the "forward" target: the expected loss of the same
  forecasting scheme. In the AR(1) cells, computed once per phi from one long series (``--truth-origins``
  origins of the same window and horizon, fits included). In ``--cells``, the expected mean loss of the 250
  forecasts at the origins of the 400-row series, over the series' whole distribution (errors, features, fits):
  the average of that mean over ``--truth-replications`` independent series (rows record its Monte Carlo standard
  error, ``target_se``). Under the level shift the losses' mean changes with the origin, so there is no stationary
  expected loss and no long series stands for it; this target is what the mean of the 250 losses estimates
  without bias, and so what the intervals are about. (For the seasonal cell it is the long series' target up to
  the share of each month among the origins.)
* the type-I error of ``forecast_test``: Diebold-Mariano over every horizon (HAC), at horizon 1 (HLN), and
  Giacomini-White at horizon 1;
* their power against a B that sees the second signal through noise of unit variance (its expected loss higher
  by about 0.125; the row says by how much, from the same targets).

``--real R`` adds R nulls on each of three of statsmodels' real series (sunspots, CO2, El Nino; ``--series`` names
fewer): ridge regressions on three lags and a fresh noise column each, exchangeable given the series, 150 forecasts
of 30 origins.

``--learner boosting`` replaces the two ridge regressions with one randomised gradient-boosted model,
``GradientBoostingRegressor(n_estimators=50, max_depth=2, subsample=0.8, learning_rate=0.1)`` (each tree sees a
random 80% of the window's rows), fitted for A and for B to A's columns (the signals and noise column 2, and the
cell's extra columns) with random states of their own, drawn afresh in every replication: an exact null, A and B
exchangeable. The power cell's B is the same model (B's random state) on the weaker B's columns, as above. On a real
series both see the three lags and A's noise column. Its rows say ``"learner": "boosting"`` (the ridge rows
``"ridge"``), and a boosted cell's random draws are its own. A boosted fit costs about ten times a ridge fit (22 ms
against 2 ms), and the long series' 20,000 origins would be 40,000 boosted fits, about 15 minutes a cell; so a
boosted phi cell's target is the mean over ``--truth-windows`` independent windows of 150 rows of the expected loss
of one fit's forecasts at horizons 1 to 5 given the window, computed from the AR(1) model (``window_truth``, under a
minute for 1,000 windows; rows record its Monte Carlo standard error, ``target_se``). With ridge regressions that
target agrees with the long series' within the long series' own Monte Carlo error (roughly 0.005 at phi 0 to 0.015
at 0.9, from the losses' variance and autocorrelation): ``window_truth(phi, 3000, np.random.default_rng(5),
"ridge")`` gives 1.0272, 1.0348 and 1.0443 at phi 0, 0.5 and 0.9, against the long series' 1.0331, 1.0425 and
1.0251.

Rows (with Wilson bounds) go to ``cvinference/policy/data/forward_calibration.json``, the evidence the decision
for forecasters reads (``cvinference/policy/_forward_decision.py``): the cells run replace their rows, the others
are kept; the file is written after each cell, so that an interrupted run keeps the cells it finished.
``--markdown`` prints the table of ``docs/calibration.md``, "Forward validation". With neither
``--phis`` nor ``--cells`` every synthetic cell runs; with one of them, only the cells it names.

    python benchmarks/forward_calibration.py --replications 300        # every synthetic cell, about 20 min on 2 cores
    python benchmarks/forward_calibration.py --replications 300 --cells seasonal level-shift  # about 6 min
    python benchmarks/forward_calibration.py --phis --real 300               # the real series alone, about 5 min
    python benchmarks/forward_calibration.py --learner boosting --phis 0.5 0.9 --replications 160 \
        --truth-windows 1000 --real 200 --series sunspots                     # the boosted cells, about 25 min
"""

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.linear_model import Ridge
from statsmodels.stats.proportion import proportion_confint

from cvinference import CVEvaluator
from cvinference.inference import forecast_interval, forecast_test
from cvinference.records import PairedForwardResult
from cvinference.splitters import ForwardSplit

PHIS = (0.0, 0.5, 0.7, 0.9)
N, WINDOW, HORIZON, ORIGINS = 400, 150, 5, 50
BETA = np.array([1.0, -0.5])
CELLS = {"seasonal": "seasonal", "level-shift": "level shift"}
"""The cells beyond the AR(1) errors, by their ``--cells`` names: their names in the evidence."""
CELL_PHI, PERIOD, SEASON, SHIFT = 0.5, 12, 2.0, 1.0
"""The cells' AR(1) errors, the seasonal cell's period and amplitude (2 sin(2 pi t / 12)), the level shift's jump."""
CELL_SEEDS = {"seasonal": 12, "level shift": 13}
INTERVALS = ("prewhitened-hac", "hac", "block-bootstrap", "stationary-bootstrap", "iid")
TESTS = {"Diebold-Mariano (HAC), every horizon": {},
         "Diebold-Mariano (pre-whitened HAC), every horizon": {"method": "prewhitened-diebold-mariano"},
         "Diebold-Mariano (HLN), horizon 1": {"horizon": 1},
         "Giacomini-White, horizon 1": {"method": "giacomini-white", "horizon": 1}}
"""The tests, by their names in the tables, and the arguments of ``forecast_test`` that compute each."""


def test_key(name):
    """The fields that key the test ``name``'s rows in the evidence: its id in the table of methods (docs/methods.md)
    and its ``horizon`` where it reads one horizon (none: every horizon), the arguments of ``forecast_test``."""
    kwargs = TESTS[name]
    return {"method": kwargs.get("method", "diebold-mariano"), **{k: v for k, v in kwargs.items() if k != "method"}}


test_key.__test__ = False  # not a pytest test


def of_test(row, name):
    """Whether ``row`` is a row of the test ``name`` (its id and horizon)."""
    key = test_key(name)
    return (row["method"], row.get("horizon")) == (key["method"], key.get("horizon"))
LEARNERS = ("ridge", "boosting")
"""``--learner``: the ridge regressions, or the same randomised gradient-boosted model under two seeds."""
LEARNER_SEEDS = {"ridge": (), "boosting": (1,)}
"""Appended to a cell's seed sequence, so that a boosted cell draws its own series (the ridge cells' draws do not
move)."""
TRUTH_ROWS = 2000
"""Fresh feature rows on which a boosted phi cell's target evaluates each fit (``window_truth``)."""
OUT = Path(__file__).resolve().parents[1] / "cvinference" / "policy" / "data" / "forward_calibration.json"


def series(phi, n, rng, cell=None):
    """Features (two signals, two noise columns; the seasonal cell's twelve month dummies after them) and a target
    whose errors are AR(1) with unit variance; the seasonal cell adds 2 sin(2 pi t / 12), the level shift adds
    ``SHIFT`` from row n / 2 on."""
    e = rng.standard_normal(n + 200)
    u = np.empty_like(e)
    u[0] = e[0]
    for t in range(1, u.size):
        u[t] = phi * u[t - 1] + math.sqrt(1 - phi**2) * e[t]
    x = rng.standard_normal((n, 4))
    y = x[:, :2] @ BETA + u[200:]
    t = np.arange(n)
    if cell == "seasonal":
        return np.column_stack([x, np.eye(PERIOD)[t % PERIOD]]), y + SEASON * np.sin(2 * np.pi * t / PERIOD)
    if cell == "level shift":
        return x, y + SHIFT * (t >= n // 2)
    return x, y


def extra_columns(cell):
    """The columns every learner sees besides its own (the seasonal cell's month dummies)."""
    return list(range(4, 4 + PERIOD)) if cell == "seasonal" else []


def regressor(learner, seed=None):
    """Ridge regression, or the boosted model with random state ``seed`` (stochastic: each tree sees a random 80%
    of the window's rows)."""
    if learner == "ridge":
        return Ridge(alpha=1.0)
    return GradientBoostingRegressor(n_estimators=50, max_depth=2, subsample=0.8, learning_rate=0.1,
                                     random_state=seed)


def on_columns(columns, model):
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    return make_pipeline(ColumnTransformer([("keep", "passthrough", columns)]), model)


def learners(cell=None, learner="ridge", seeds=(None, None)):
    """Ridge: A sees the signals and noise column 2, B the signals and noise column 3 (and both the cell's extra
    columns). Boosting: A and B are the same boosted model on A's columns, with random states ``seeds``. Either way
    exchangeable (the seeds are drawn independently in each replication)."""
    extra = extra_columns(cell)
    if learner == "ridge":
        return tuple(on_columns([0, 1, noise, *extra], regressor(learner)) for noise in (2, 3))
    return tuple(on_columns([0, 1, 2, *extra], regressor(learner, seed)) for seed in seeds)


def with_noisy_signal(X, seed):
    """X and a fifth column: the second signal measured with noise of unit variance (from its own generator, so the
    null cells' draws do not move)."""
    noise = np.random.default_rng(seed).standard_normal(X.shape[0])
    return np.column_stack([X, X[:, 1] + noise])


def weaker(cell=None, learner="ridge", seed=None):
    """The power cell's B: the signals, the second one measured with noise (the last column, which
    ``with_noisy_signal`` appends), noise column 3 and the cell's extra columns, with the null's B's model (its random
    state ``seed``); A is the null's A."""
    extra = extra_columns(cell)
    return on_columns([0, 4 + len(extra), 3, *extra], regressor(learner, seed))


def truth(phi, origins, rng):
    """The expected pooled losses of the scheme, of A and of the power cell's B: one long series, ``origins`` origins
    of the same window and horizon."""
    X, y = series(phi, WINDOW + HORIZON * origins, rng)
    pair = CVEvaluator(cv=ForwardSplit(origins, horizon=HORIZON, window=WINDOW), loss="squared_error").compare(
        learners()[0], weaker(), with_noisy_signal(X, [48, 0]), y)
    return pair.a.mean_loss, pair.b.mean_loss


def window_truth(phi, fits, rng, learner="boosting"):
    """A boosted phi cell's expected losses of the scheme, of A and of the power cell's B, and the Monte Carlo
    standard error of A's, without one long series (its 20,000 origins would be 40,000 boosted fits): the mean over
    ``fits`` independent windows of WINDOW rows, each learner fitted once to each (with a random state of its own),
    of the expected loss of its forecasts at horizons h = 1, ..., HORIZON given the window. The features of a
    forecast row are independent of the window and its error is u_{t+h} = phi^h u_t + an independent innovation of
    variance 1 - phi^2h (u_t the error of the window's last row), so with d(x) = x beta - f(x) that expected loss is
    E_x d^2 + 2 phi^h u_t E_x d + phi^2h u_t^2 + 1 - phi^2h; E_x is a mean over ``TRUTH_ROWS`` fresh feature rows,
    and phi^2h (u_t^2 - 1), whose expectation is 0 (u_t has unit variance), is left out: unbiased, with less
    variance."""
    decay = np.mean(phi ** np.arange(1, HORIZON + 1))
    losses = np.empty((fits, 2))
    for index in range(fits):
        X, y = series(phi, WINDOW, rng)
        error = y[-1] - X[-1, :2] @ BETA
        fresh = rng.standard_normal((TRUTH_ROWS, 4))
        window, rows = (np.column_stack([Z, Z[:, 1] + rng.standard_normal(Z.shape[0])]) for Z in (X, fresh))
        seeds = rng.integers(2**31, size=2)
        for column, model in enumerate((learners(None, learner, seeds)[0], weaker(None, learner, seeds[1]))):
            d = fresh[:, :2] @ BETA - model.fit(window, y).predict(rows)
            losses[index, column] = np.mean(d**2) + 2 * decay * error * np.mean(d) + 1
    a, b = losses.mean(axis=0)
    return float(a), float(b), float(losses[:, 0].std(ddof=1) / math.sqrt(fits))


def replicated_truth(cell, replications, rng, learner="ridge"):
    """A cell's expected mean losses of the forecasts at the origins of the N-row series, of A and of the power
    cell's B, and the Monte Carlo standard error of A's: the average over ``replications`` independent series of
    N rows (the level shift's series is not stationary, so no long series stands for it)."""
    evaluator = CVEvaluator(cv=ForwardSplit(ORIGINS, horizon=HORIZON, window=WINDOW), loss="squared_error")
    losses = np.empty((replications, 2))
    for index in range(replications):
        X, y = series(CELL_PHI, N, rng, cell)
        seeds = rng.integers(2**31, size=2) if learner != "ridge" else (None, None)
        pair = evaluator.compare(learners(cell, learner, seeds)[0], weaker(cell, learner, seeds[1]),
                                 with_noisy_signal(X, [48, 2, index]), y)
        losses[index] = pair.a.mean_loss, pair.b.mean_loss
    a, b = losses.mean(axis=0)
    return float(a), float(b), float(losses[:, 0].std(ddof=1) / math.sqrt(replications))


def skip_truth(rng, learner, phi=None, cell=None, truth_origins=0, truth_windows=0, truth_replications=0):
    """Draw from ``rng`` what the cell's target draws (``truth``, ``window_truth`` or ``replicated_truth``), in the
    same order, without the fits: so that ``--reuse-targets`` runs the same replications as a run that computed the
    target."""
    if cell is not None:
        for _ in range(truth_replications):
            series(CELL_PHI, N, rng, cell)
            if learner != "ridge":
                rng.integers(2**31, size=2)
    elif learner == "ridge":
        series(phi, WINDOW + HORIZON * truth_origins, rng)
    else:
        for _ in range(truth_windows):
            series(phi, WINDOW, rng)
            rng.standard_normal((TRUTH_ROWS, 4))
            rng.standard_normal(WINDOW)
            rng.standard_normal(TRUTH_ROWS)
            rng.integers(2**31, size=2)


def stored_target(rows, cell):
    """A cell's target, the power cell's B's expected loss and the target's record (``target_se`` and how it was
    made), from its rows of an earlier run."""
    of_cell = [row for row in rows if cell_of(row) == cell]
    if not of_cell:
        raise SystemExit(f"--reuse-targets: no rows of {cell} in --out to take its target from; run it without.")
    coverage = next(row for row in of_cell if row["quantity"] == "coverage")
    power = next(row for row in of_cell if row["quantity"] == "power")
    about = {key: coverage[key] for key in ("target_se", "truth_windows", "truth_replications") if key in coverage}
    return coverage["target"], coverage["target"] + power["difference"], about


def replication(phi, rng, index, cell=None, learner="ridge"):
    X, y = series(phi, N, rng, cell)
    seeds = rng.integers(2**31, size=2) if learner != "ridge" else (None, None)
    evaluator = CVEvaluator(cv=ForwardSplit(ORIGINS, horizon=HORIZON, window=WINDOW), loss="squared_error")
    pair = evaluator.compare(*learners(cell, learner, seeds), X, y)
    seed = int(rng.integers(2**31))
    intervals = {m: forecast_interval(pair.a, method=m, random_state=seed) for m in INTERVALS}
    pvalues = {name: forecast_test(pair, **kwargs).pvalue for name, kwargs in TESTS.items()}
    power_pair = PairedForwardResult(pair.a, evaluator.evaluate(weaker(cell, learner, seeds[1]),
                                                                with_noisy_signal(X, [48, 1, index]), y))
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


def real_replication(values, rng, learner="ridge"):
    """One null on a real series: ridge on three lags and a fresh noise column of its own, for A and for B; or the
    boosted model on the three lags and A's noise column, with random states of its own for A and for B."""
    lags = np.column_stack([np.r_[np.full(k, values[0]), values[:-k]] for k in (1, 2, 3)])[3:]
    y = values[3:]
    noise = rng.standard_normal((y.size, 2))
    X = np.column_stack([lags, noise])
    if learner == "ridge":
        a, b = (on_columns([0, 1, 2, column], regressor(learner)) for column in (3, 4))
    else:
        a, b = (on_columns([0, 1, 2, 3], regressor(learner, seed)) for seed in rng.integers(2**31, size=2))
    pair = CVEvaluator(cv=ForwardSplit(30, horizon=5, window=120), loss="squared_error").compare(a, b, X, y)
    return {name: forecast_test(pair, **kwargs).pvalue for name, kwargs in TESTS.items()}


def real_rows(replications, names=REAL_SERIES, learner="ridge"):
    """The type-I error of every test on each real series named (the noise columns, and the boosted model's random
    states, drawn afresh in every replication)."""
    rows = []
    for name in names:
        rng = np.random.default_rng([48, 7, len(name), *LEARNER_SEEDS[learner]])
        values = real_series(name)
        rejected = {test: 0 for test in TESTS}
        for _ in range(replications):
            for test, p in real_replication(values, rng, learner).items():
                rejected[test] += p < 0.05
        rows += [{"series": name, "learner": learner, "quantity": "type_i", **test_key(test),
                  "measured": round(rejected[test] / replications, 3), "wilson": wilson(rejected[test], replications),
                  "replications": replications} for test in TESTS]
        print(f"{name}: done", flush=True)
    return rows


def wilson(count, n):
    low, high = proportion_confint(count, n, alpha=0.05, method="wilson")
    return round(float(low), 3), round(float(high), 3)


def cell_rows(key, phi, cell, target, weaker_loss, rng, replications, learner="ridge"):
    """A cell's rows: the intervals' coverage of ``target``, the tests' type-I error and their power against the
    weaker B (whose expected loss is ``weaker_loss``); ``key`` names the cell in every row."""
    covered = {m: 0 for m in INTERVALS}
    widths = {m: [] for m in INTERVALS}
    rejected = {name: 0 for name in TESTS}
    detected = {name: 0 for name in TESTS}
    for index in range(replications):
        intervals, pvalues, power = replication(phi, rng, index, cell, learner)
        for m, interval in intervals.items():
            covered[m] += interval.low <= target <= interval.high
            widths[m].append(interval.high - interval.low)
        for name, p in pvalues.items():
            rejected[name] += p < 0.05
        for name, p in power.items():
            detected[name] += p < 0.05
    r = replications
    return ([key | {"quantity": "coverage", "method": m, "measured": round(covered[m] / r, 3),
                    "wilson": wilson(covered[m], r), "mean_width": round(float(np.mean(widths[m])), 4),
                    "target": round(target, 4), "replications": r} for m in INTERVALS]
            + [key | {"quantity": "type_i", **test_key(name), "measured": round(rejected[name] / r, 3),
                      "wilson": wilson(rejected[name], r), "replications": r} for name in TESTS]
            + [key | {"quantity": "power", **test_key(name), "measured": round(detected[name] / r, 3),
                      "wilson": wilson(detected[name], r), "difference": round(weaker_loss - target, 4),
                      "replications": r} for name in TESTS])


def cell_of(row):
    """The cell a row belongs to: ("phi", phi, learner), ("cell", name, learner) or ("series", name, learner); rows
    without a learner are the ridge regressions'."""
    return next((field, row[field], row.get("learner", "ridge")) for field in ("phi", "cell", "series") if field in row)


def with_learner(row):
    """The row with its learner named after its cell ("ridge" for the rows measured before there was a choice)."""
    field = cell_of(row)[0]
    return {field: row[field], "learner": row.get("learner", "ridge")} | row


def merged(old, new):
    """The rows of ``old`` whose cells ``new`` did not measure, and ``new``'s: the synthetic cells, the ridge
    regressions' before the boosted model's, each the phi cells (by phi) and then the other cells, and then the real
    series in the same order."""
    measured = {cell_of(row) for row in new}
    rows = [with_learner(row) for row in old if cell_of(row) not in measured] + new
    cells = list(CELLS.values())
    order = {"phi": lambda v: v, "cell": cells.index, "series": REAL_SERIES.index}
    groups = ("phi", "cell", "series")

    def key(row):
        field, value, learner = cell_of(row)
        return field == "series", LEARNERS.index(learner), groups.index(field), order[field](value)
    return sorted(rows, key=key)


def checkpoint(path, data, rows):
    """Write ``data`` with ``rows`` merged in (:func:`merged`) to ``path``: after each cell, so that an interrupted
    run keeps the cells it finished (run again with the cells left)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"setting": data["setting"], "rows": merged(data["rows"], rows)}, indent=1) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--replications", type=int, default=400)
    parser.add_argument("--truth-origins", type=int, default=20000)
    parser.add_argument("--truth-replications", type=int, default=400,
                        help="independent series whose mean losses make a --cells cell's target")
    parser.add_argument("--phis", type=float, nargs="*", default=None,
                        help=f"the AR(1) cells to run (default {' '.join(map(str, PHIS))}, or none when --cells is "
                             "given); with no value, none")
    parser.add_argument("--cells", nargs="*", default=None, choices=tuple(CELLS),
                        help="the seasonal and level-shift cells to run (default both, or none when --phis is "
                             "given); with no value, none")
    parser.add_argument("--learner", choices=LEARNERS, default="ridge",
                        help="the exchangeable pair: two ridge regressions (default), or the same gradient-boosted "
                             "model under two random states")
    parser.add_argument("--truth-windows", type=int, default=1000,
                        help="independent windows whose expected losses make a boosted phi cell's target")
    parser.add_argument("--series", nargs="+", default=list(REAL_SERIES), choices=REAL_SERIES,
                        help="the real series --real runs (default all three)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--markdown", action="store_true", help="print the table of the rows in --out and stop")
    parser.add_argument("--real", type=int, default=0, metavar="R",
                        help="add R replications of the nulls on each of statsmodels' real series")
    parser.add_argument("--reuse-targets", action="store_true",
                        help="take each cell's target and power difference from its rows in --out (rounded to 4 "
                             "decimals, as stored) instead of computing them again, drawing the same random "
                             "numbers without the fits, so that the replications are the same: for rerunning the "
                             "intervals and tests after a change to them (the truth options must be the run's)")
    args = parser.parse_args()
    if args.markdown:
        print(markdown(json.loads(args.out.read_text())))
        return
    phis = args.phis if args.phis is not None else (() if args.cells is not None else PHIS)
    cells = args.cells if args.cells is not None else (() if args.phis is not None else tuple(CELLS))
    data = json.loads(args.out.read_text()) if args.out.exists() else {"setting": {}, "rows": []}
    rows, started = [], time.perf_counter()
    learner = args.learner
    for phi in phis:
        rng = np.random.default_rng([48, int(phi * 100), *LEARNER_SEEDS[learner]])
        if args.reuse_targets:
            target, weaker_loss, about = stored_target(data["rows"], ("phi", phi, learner))
            skip_truth(rng, learner, phi=phi, truth_origins=args.truth_origins, truth_windows=args.truth_windows)
        elif learner == "ridge":
            (target, weaker_loss), about = truth(phi, args.truth_origins, rng), {}
        else:
            target, weaker_loss, error = window_truth(phi, args.truth_windows, rng, learner)
            about = {"target_se": round(error, 4), "truth_windows": args.truth_windows}
        rows += [row | about if row["quantity"] == "coverage" else row
                 for row in cell_rows({"phi": phi, "learner": learner}, phi, None, target, weaker_loss, rng,
                                      args.replications, learner)]
        print(f"phi = {phi}, {learner}: {time.perf_counter() - started:.0f} s", flush=True)
        checkpoint(args.out, data, rows)
    for name in cells:
        cell = CELLS[name]
        rng = np.random.default_rng([48, CELL_SEEDS[cell], *LEARNER_SEEDS[learner]])
        if args.reuse_targets:
            target, weaker_loss, about = stored_target(data["rows"], ("cell", cell, learner))
            skip_truth(rng, learner, cell=cell, truth_replications=args.truth_replications)
        else:
            target, weaker_loss, error = replicated_truth(cell, args.truth_replications, rng, learner)
            about = {"target_se": round(error, 4), "truth_replications": args.truth_replications}
        rows += [row | about if row["quantity"] == "coverage" else row
                 for row in cell_rows({"cell": cell, "learner": learner, "noise_phi": CELL_PHI}, CELL_PHI, cell,
                                      target, weaker_loss, rng, args.replications, learner)]
        print(f"{cell}, {learner}: {time.perf_counter() - started:.0f} s", flush=True)
        checkpoint(args.out, data, rows)
    if args.real:
        rows += real_rows(args.real, args.series, learner)
        print(f"real series, {learner}: {time.perf_counter() - started:.0f} s", flush=True)
    setting = data["setting"] | {
        "N": N, "window": WINDOW, "horizon": HORIZON, "origins": ORIGINS, "forecasts": HORIZON * ORIGINS,
        "learners": "ridge on (x1, x2, noise_A) and (x1, x2, noise_B)",
        "boosting": "GradientBoostingRegressor(n_estimators=50, max_depth=2, subsample=0.8, learning_rate=0.1) on "
                    "(x1, x2, noise_A) for both A and B, under two random states drawn afresh in every replication "
                    "(on a real series, on its three lags and A's noise column)",
        "cells": {"seasonal": f"AR(1) errors with phi {CELL_PHI:g} plus {SEASON:g} sin(2 pi t / {PERIOD}); every "
                              f"learner also sees the {PERIOD} month dummies",
                  "level shift": f"AR(1) errors with phi {CELL_PHI:g}; the mean of y rises by {SHIFT:g} at row "
                                 f"{N // 2} of {N}"}}
    if phis:
        setting["truth_origins" if learner == "ridge" else "truth_windows"] = (
            args.truth_origins if learner == "ridge" else args.truth_windows)
    if cells:
        setting["truth_replications"] = args.truth_replications
    data = {"setting": setting, "rows": data["rows"]}
    checkpoint(args.out, data, rows)
    print(markdown(json.loads(args.out.read_text())))


PREWHITENING = "prewhitening"
"""A row's key that names the pre-whitening it was measured with, when not the one that ships: the rows of the
pre-whitened interval and test measured before issue 58 and not rerun since (``OLD_PREWHITENING``)."""
OLD_PREWHITENING = ("before issue 58: the first loss's residual dropped, the residuals centred again, rho by least "
                    "squares")
OLD_MARK = " (old)"
"""What ``markdown`` appends to a figure measured with ``OLD_PREWHITENING``."""


def _figure(row, text):
    return text + (OLD_MARK if row.get(PREWHITENING) == OLD_PREWHITENING else "")


def _old_note(rows):
    return ([f"Figures marked \"{OLD_MARK.strip()}\" were measured with the pre-whitening {OLD_PREWHITENING} (not "
             "rerun since)."] if any(row.get(PREWHITENING) == OLD_PREWHITENING for row in rows) else [])


def markdown(data):
    rows = [row for row in data["rows"] if "series" not in row]
    cells = list(dict.fromkeys(cell_of(row) for row in rows))
    powered = any(row["quantity"] == "power" for row in rows)
    lines = ["| cell | " + " | ".join(f"{m} coverage (width)" for m in INTERVALS) + " | "
             + " | ".join(f"{name} type-I" for name in TESTS) + " |"
             + ("".join(f" {name} power |" for name in TESTS) if powered else ""),
             "|---" * (1 + len(INTERVALS) + len(TESTS) * (2 if powered else 1)) + "|"]
    for cell in cells:
        of_cell = [row for row in rows if cell_of(row) == cell]
        cells_text = []
        for m in INTERVALS:
            row = next((r for r in of_cell if r["method"] == m), None)
            cells_text.append("not measured" if row is None
                              else _figure(row, f"{row['measured']:.3f} ({row['mean_width']:.3f})"))
        for quantity in ("type_i", "power") if powered else ("type_i",):
            for name in TESTS:
                row = next(r for r in of_cell if of_test(r, name) and r["quantity"] == quantity)
                cells_text.append(_figure(row, f"{row['measured']:.3f} [{row['wilson'][0]:.3f}, "
                                               f"{row['wilson'][1]:.3f}]"))
        label = f"phi {cell[1]:g}" if cell[0] == "phi" else f"{cell[1]} (phi {of_cell[0]['noise_phi']:g})"
        label += "" if cell[2] == "ridge" else f", {cell[2]}"
        lines.append(f"| {label} | " + " | ".join(cells_text) + " |")
    real = [row for row in data["rows"] if "series" in row]
    if real:
        lines += ["", "| real series (ForwardSplit(30, horizon=5, window=120)) | "
                  + " | ".join(f"{name} type-I" for name in TESTS) + " |", "|---" * (1 + len(TESTS)) + "|"]
        for cell in dict.fromkeys(cell_of(row) for row in real):
            cells_text = [next(r for r in real if cell_of(r) == cell and of_test(r, name)) for name in TESTS]
            label = cell[1] + ("" if cell[2] == "ridge" else f", {cell[2]}")
            lines.append(f"| {label} | " + " | ".join(
                _figure(r, f"{r['measured']:.3f} [{r['wilson'][0]:.3f}, {r['wilson'][1]:.3f}]")
                for r in cells_text) + " |")
    note = _old_note(data["rows"])
    return "\n".join(lines + ([""] + note if note else []))


if __name__ == "__main__":
    main()
