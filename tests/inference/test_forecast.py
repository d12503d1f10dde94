"""Forward validation's intervals and tests (issue 48). Oracles: statsmodels' HAC covariance
(``OLS(values, ones).fit(cov_type="HAC")``) for the long-run variance; Diebold & Mariano (1995, equation 4) and
Harvey, Leybourne & Newbold (1997, equation 9) computed by hand, with loops, for the test; Politis & Romano's
(1994) stationary bootstrap by a loop over resamples and blocks."""

import math
import re

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import Ridge
from statsmodels.stats.sandwich_covariance import S_hac_simple

import cvinference as cvi
from cvinference.inference import forecast_interval, forecast_test
from cvinference.inference._forecast import SMALL_SAMPLE_FORECASTS
from cvinference.inference._hac import (
    block_length_rule,
    long_run_variance,
    newey_west_lag,
    prewhitened_long_run_variance,
)
from cvinference.records import ForwardResult, PairedForwardResult
from cvinference.splitters import ForwardSplit

RNG = np.random.default_rng(7)
N = 260
SERIES = np.zeros(N)
for _t in range(1, N):
    SERIES[_t] = 0.7 * SERIES[_t - 1] + RNG.normal()
LAGS = np.column_stack([np.r_[0.0, SERIES[:-1]], np.r_[0.0, 0.0, SERIES[:-2]]])


def _pair(cv):
    evaluator = cvi.CVEvaluator(cv=cv, loss="squared_error")
    return evaluator.compare(Ridge(), DummyRegressor(), LAGS, SERIES, names=("ridge", "mean"))


def _statsmodels_lrv(values, lag, kernel):
    fit = sm.OLS(values, np.ones(values.size)).fit(
        cov_type="HAC", cov_kwds={"maxlags": lag, "kernel": kernel, "use_correction": False})
    return float(fit.bse[0] ** 2 * values.size)


@pytest.mark.parametrize("kernel", ["bartlett", "uniform"])
@pytest.mark.parametrize("lag", [0, 1, 3, 7])
def test_the_long_run_variance_is_statsmodels_hac(kernel, lag):
    values = RNG.normal(size=120).cumsum() * 0.1 + RNG.normal(size=120)
    assert long_run_variance(values, lag, kernel) == pytest.approx(_statsmodels_lrv(values, lag, kernel), rel=1e-10)


def _hand_dm(d, h):
    """Diebold & Mariano's S with h - 1 unweighted autocovariances, then HLN's factor and t(n - 1), by loops."""
    n = len(d)
    mean = sum(d) / n
    gamma = []
    for k in range(h):
        gamma.append(sum((d[t] - mean) * (d[t - k] - mean) for t in range(k, n)) / n)
    variance = gamma[0] + 2 * sum(gamma[1:])
    s = mean / math.sqrt(variance / n)
    corrected = s * math.sqrt((n + 1 - 2 * h + h * (h - 1) / n) / n)
    return corrected, 2 * stats.t.sf(abs(corrected), n - 1)


@pytest.mark.parametrize("horizon", [1, 3, 6])
def test_diebold_mariano_with_hln_is_the_hand_computation_and_statsmodels(horizon):
    pair = _pair(ForwardSplit(40, horizon=6, step=1, window=120))
    test = forecast_test(pair, horizon=horizon)
    at = pair.a.horizon == horizon
    order = np.argsort(pair.a.time[at])
    d = (pair.b.loss - pair.a.loss)[at][order]
    statistic, pvalue = _hand_dm(list(d), horizon)  # one origin per step: lag h - 1
    assert (test.details["lag"], test.details["kernel"], test.df) == (horizon - 1, "uniform", d.size - 1)
    assert test.statistic == pytest.approx(statistic, rel=1e-10) and test.pvalue == pytest.approx(pvalue, rel=1e-10)
    hac = math.sqrt(_statsmodels_lrv(d, horizon - 1, "uniform") / d.size)
    factor = math.sqrt((d.size + 1 - 2 * horizon + horizon * (horizon - 1) / d.size) / d.size)
    assert test.statistic == pytest.approx(d.mean() / hac * factor, rel=1e-10)
    assert test.estimate == pytest.approx(pair.b.loss[at].mean() - pair.a.loss[at].mean(), rel=1e-12)
    assert (test.method, test.details["variant"]) == ("diebold-mariano", "HLN") and test.target == "forward"


def test_forecasts_from_origins_further_apart_than_the_horizon_do_not_overlap():
    pair = _pair(ForwardSplit(12, horizon=3, step=5, window=100))
    assert forecast_test(pair, horizon=3).details["lag"] == 0  # origins 5 apart, 3 steps ahead: no shared steps
    assert forecast_test(pair, horizon=3, lag=2).details["kernel"] == "bartlett"


def test_over_every_horizon_the_lag_is_the_larger_of_the_horizon_and_newey_wests_rule():
    pair = _pair(ForwardSplit(10, horizon=10, window=100))
    test = forecast_test(pair)
    d = np.asarray(pair.b.loss - pair.a.loss)[np.argsort(pair.a.time)]
    assert (test.details["lag"], test.details["kernel"], test.details["hln_factor"]) == (9, "bartlett", 1.0)
    expected = d.mean() / math.sqrt(_statsmodels_lrv(d, 9, "bartlett") / d.size)
    assert test.statistic == pytest.approx(expected, rel=1e-10)
    assert test.pvalue == pytest.approx(2 * stats.t.sf(abs(expected), d.size - 1), rel=1e-10)
    assert (test.method, test.details["variant"]) == ("diebold-mariano", "HAC")


def test_the_sign_is_positive_when_a_forecasts_better_and_swapping_flips_it():
    pair = _pair(ForwardSplit(20, horizon=1, step=1, window=100))
    forward, backward = forecast_test(pair, horizon=1), forecast_test(pair.b, pair.a, horizon=1)
    assert forward.estimate > 0 and backward.estimate == pytest.approx(-forward.estimate)
    assert backward.pvalue == pytest.approx(forward.pvalue)
    greater = forecast_test(pair, horizon=1, alternative="greater")
    assert greater.pvalue == pytest.approx(forward.pvalue / 2)


def test_the_hac_interval_is_the_mean_plus_minus_z_times_statsmodels_standard_error():
    record = _pair(ForwardSplit(10, horizon=10, window=100)).a
    interval = forecast_interval(record, confidence_level=0.9, method="hac")
    losses = np.asarray(record.loss)[np.lexsort((record.fold, record.time))]
    se = math.sqrt(_statsmodels_lrv(losses, 9, "bartlett") / losses.size)
    z = stats.norm.ppf(0.95)
    assert interval.estimate == pytest.approx(losses.mean(), rel=1e-12)
    assert (interval.low, interval.high) == pytest.approx((max(losses.mean() - z * se, 0), losses.mean() + z * se),
                                                          rel=1e-10)
    iid = forecast_interval(record, method="iid")
    assert iid.details["standard_error"] == pytest.approx(losses.std(ddof=1) / math.sqrt(losses.size), rel=1e-12)


def _prewhitened_by_hand(values):
    """Andrews & Monahan (1992): LRV = LRV(residuals of an AR(1), Yule-Walker's, not centred again) / (1 - rho)^2,
    the first
    residual Prais & Winsten's (1954) sqrt(1 - rho^2) c_0, the residuals' kernel sum statsmodels' ``S_hac_simple``
    (Bartlett, no centring) at Andrews's (1991) AR(1) plug-in lag, computed here by hand: (LRV, rho, lag)."""
    centred = values - values.mean()
    rho = (centred[1:] @ centred[:-1]) / (centred @ centred)
    residuals = np.r_[math.sqrt(1 - rho**2) * centred[0], centred[1:] - rho * centred[:-1]]
    r = residuals - residuals.mean()
    rho_r = (r[1:] @ r[:-1]) / (r @ r)
    bandwidth = 1.1447 * (4 * rho_r**2 / ((1 - rho_r) ** 2 * (1 + rho_r) ** 2) * residuals.size) ** (1 / 3)
    lag = max(math.ceil(bandwidth) - 1, 0)
    return float(S_hac_simple(residuals, lag)[0, 0]) / values.size / (1 - rho) ** 2, rho, lag


def test_the_prewhitened_interval_recolours_statsmodels_hac_of_the_ar1_residuals_on_the_log_scale():
    """The interval is exp(log(mean) +- z se / mean), se from the pre-whitened LRV (by hand)."""
    record = _pair(ForwardSplit(10, horizon=10, window=100)).a
    interval = forecast_interval(record)
    losses = np.asarray(record.loss)[np.lexsort((record.fold, record.time))]
    variance, rho, lag = _prewhitened_by_hand(losses)
    se = math.sqrt(variance / losses.size)
    z = stats.norm.ppf(0.975)
    assert (interval.details["lag"], interval.details["ar1"]) == (lag, pytest.approx(rho, rel=1e-12))
    assert (interval.low, interval.high) == pytest.approx(
        (losses.mean() * math.exp(-z * se / losses.mean()), losses.mean() * math.exp(z * se / losses.mean())),
        rel=1e-10)
    with pytest.raises(ValueError, match="chooses its lag"):
        forecast_interval(record, lag=3)


def test_the_prewhitened_diebold_mariano_test_is_the_mean_differential_over_the_prewhitened_standard_error():
    """t = mean(d) / sqrt(LRV_pw(d) / n) with d = loss B - loss A in time order, referred to t(n - 1)."""
    pair = _pair(ForwardSplit(10, horizon=10, window=100))
    test = forecast_test(pair, method="prewhitened-diebold-mariano")
    order = np.lexsort((pair.a.fold, pair.a.time))
    d = (np.asarray(pair.b.loss) - np.asarray(pair.a.loss))[order]
    variance, rho, lag = _prewhitened_by_hand(d)
    t = d.mean() / math.sqrt(variance / d.size)
    assert test.method == "prewhitened-diebold-mariano" and "variant" not in test.details and test.df == d.size - 1
    assert (test.details["lag"], test.details["ar1"]) == (lag, pytest.approx(rho, rel=1e-12))
    assert test.statistic == pytest.approx(t, rel=1e-10)
    assert test.pvalue == pytest.approx(2 * stats.t.sf(abs(t), d.size - 1), rel=1e-10)
    greater = forecast_test(pair, method="prewhitened-diebold-mariano", alternative="greater")
    assert greater.pvalue == pytest.approx(stats.t.sf(t, d.size - 1), rel=1e-10)
    with pytest.raises(ValueError, match="chooses its lag"):
        forecast_test(pair, method="prewhitened-diebold-mariano", lag=2)


def test_the_block_bootstrap_is_seeded_and_its_block_length_follows_the_rule():
    record = _pair(ForwardSplit(10, horizon=10, window=100)).a
    first = forecast_interval(record, method="block-bootstrap", random_state=0)
    assert first == forecast_interval(record, method="block-bootstrap", random_state=0)
    assert first.details["block_length"] == block_length_rule(100, 10) == 10
    assert first.low < record.mean_loss < first.high
    assert block_length_rule(1000, 1) == 10  # ceil(1000^(1/3))


def _loop_stationary_bootstrap(values, block_length, n_resamples, seed):
    """Politis & Romano's (1994, section 2) stationary bootstrap, by loops: for each resample, block after block,
    a uniform start and a geometric length (p = 1 / block_length, by inversion) from two uniforms, the values from
    the start on, wrapping circularly, until n are drawn; a resample's n (start, length) pairs are all drawn."""
    n, p = len(values), 1 / block_length
    rng = np.random.default_rng(seed)
    means = []
    for _ in range(n_resamples):
        resample = []
        for _ in range(n):
            u, v = rng.random(), rng.random()
            start = min(int(u * n), n - 1)
            length = 1 if p == 1 else 1 + math.floor(math.log1p(-v) / math.log1p(-p))
            for j in range(length):
                if len(resample) < n:
                    resample.append(values[(start + j) % n])
        means.append(sum(resample) / n)
    return np.array(means)


@pytest.mark.parametrize("block_length", [None, 3, 100])
def test_the_stationary_bootstrap_is_the_loop_of_politis_and_romano(block_length):
    record = _pair(ForwardSplit(10, horizon=10, window=100)).a
    losses = list(np.asarray(record.loss)[np.lexsort((record.fold, record.time))])
    interval = forecast_interval(record, confidence_level=0.9, method="stationary-bootstrap", block_length=block_length,
                                 n_resamples=300, random_state=5)
    expected_length = block_length or block_length_rule(100, 10)
    means = _loop_stationary_bootstrap(losses, expected_length, 300, 5)
    assert interval.details["block_length"] == expected_length and interval.details["n_resamples"] == 300
    assert (interval.low, interval.high) == pytest.approx(tuple(np.quantile(means, [0.05, 0.95])), rel=1e-12)
    assert interval.details["standard_error"] == pytest.approx(means.std(ddof=1), rel=1e-10)
    assert interval.method == "stationary-bootstrap" and interval.estimate == pytest.approx(np.mean(losses))


def test_the_stationary_bootstrap_with_blocks_of_one_is_the_iid_bootstrap():
    """block_length=1: p = 1, every block one value, so each resample is n uniform draws with replacement."""
    record = _pair(ForwardSplit(10, horizon=10, window=100)).a
    losses = np.asarray(record.loss)[np.lexsort((record.fold, record.time))]
    interval = forecast_interval(record, method="stationary-bootstrap", block_length=1, n_resamples=400,
                                 random_state=9)
    starts = np.random.default_rng(9).random((400, 100, 2))[:, :, 0]  # the start of each block; lengths unused
    means = losses[np.minimum((starts * 100).astype(int), 99)].mean(axis=1)
    assert (interval.low, interval.high) == pytest.approx(tuple(np.quantile(means, [0.025, 0.975])), rel=1e-12)


def test_the_stationary_bootstrap_is_seeded_and_refuses_blocks_longer_than_the_series():
    record = _pair(ForwardSplit(10, horizon=10, window=100)).a
    first = forecast_interval(record, method="stationary-bootstrap", random_state=0)
    assert first == forecast_interval(record, method="stationary-bootstrap", random_state=0)
    assert first != forecast_interval(record, method="stationary-bootstrap", random_state=1)
    assert first.details["block_length"] == 10 and first.low < record.mean_loss < first.high
    with pytest.raises(ValueError, match=r"block_length=101 is more than the 100 forecasts; pass at most 100"):
        forecast_interval(record, method="stationary-bootstrap", block_length=101)
    with pytest.raises(ValueError, match="block_length"):
        forecast_interval(record, method="stationary-bootstrap", block_length=0)


def test_one_horizon_of_a_record_and_its_errors():
    record = _pair(ForwardSplit(5, horizon=4, window=100)).a
    with pytest.raises(ValueError, match=r"horizon=9 is not among the record's horizons \[1, 2, 3, 4\]"):
        forecast_interval(record, horizon=9)
    with pytest.raises(ValueError, match="horizon=2 leaves 2 forecasts; a variance of their mean"):
        forecast_interval(ForwardResult(y=SERIES[:20], time=[10, 12], fold=[0, 1], y_pred=[0.0, 0.0],
                                        origin=[8, 10], train_size=[9, 11]), horizon=2)
    with pytest.raises(TypeError, match="result must be a ForwardResult"):
        forecast_interval(cvi.CVResult.from_predictions([1.0, 2.0], [1.0, 2.5]))
    with pytest.raises(TypeError, match="compares two learners"):
        forecast_test(record)


def test_constant_loss_differences_give_the_degenerate_answer_with_a_warning():
    common = dict(y=np.arange(10.0), time=np.arange(5, 10), fold=np.arange(5), origin=np.arange(4, 9),
                  train_size=np.arange(5, 10))
    same = PairedForwardResult(ForwardResult(y_pred=np.arange(5, 10.0), **common),
                               ForwardResult(y_pred=np.arange(5, 10.0), **common))
    with pytest.warns(cvi.InferenceWarning, match=r"no variance \(all 0\); the test says only that they are equal"):
        test = forecast_test(same, horizon=1)
    assert (test.statistic, test.pvalue) == (0.0, 1.0) and "no variance" in test.warnings[0]


def _hand_gw(d, back, lag):
    """Giacomini & White's (2006, Theorem 1) Wald statistic with h_t = (1, d_{t-back}), by loops."""
    z = [(d[t], d[t - back] * d[t]) for t in range(back, len(d))]
    n = len(z)
    mean = [sum(row[i] for row in z) / n for i in range(2)]
    omega = [[sum(row[i] * row[j] for row in z) / n for j in range(2)] for i in range(2)]
    for k in range(1, lag + 1):
        weight = 1 - k / (lag + 1)
        for i in range(2):
            for j in range(2):
                cross = sum(z[t][i] * z[t - k][j] + z[t - k][i] * z[t][j] for t in range(k, n)) / n
                omega[i][j] += weight * cross
    det = omega[0][0] * omega[1][1] - omega[0][1] * omega[1][0]
    inverse = [[omega[1][1] / det, -omega[0][1] / det], [-omega[1][0] / det, omega[0][0] / det]]
    return n * sum(mean[i] * inverse[i][j] * mean[j] for i in range(2) for j in range(2))


def test_giacomini_white_one_step_is_n_r_squared_of_the_artificial_regression():
    """Giacomini & White (2006, section 3.1): for one-step forecasts T = n R^2 (uncentred) of 1 on h_t d_{t+1}."""
    pair = _pair(ForwardSplit(60, horizon=1, step=1, window=150))
    test = forecast_test(pair, method="giacomini-white")
    d = np.asarray(pair.b.loss - pair.a.loss)[np.argsort(pair.a.time)]
    z = np.column_stack([np.ones(d.size - 1), d[:-1]]) * d[1:, np.newaxis]
    expected = z.shape[0] * sm.OLS(np.ones(z.shape[0]), z).fit().rsquared
    assert test.statistic == pytest.approx(expected, rel=1e-10) == pytest.approx(_hand_gw(list(d), 1, 0), rel=1e-10)
    assert test.pvalue == pytest.approx(stats.chi2.sf(expected, 2), rel=1e-10)
    assert (test.df, test.method, test.details["instrument_lag"]) == (2.0, "giacomini-white", 1)
    assert not test.warnings  # a sliding window, as the test assumes


def test_giacomini_white_at_three_steps_lags_the_instrument_past_the_overlap():
    pair = _pair(ForwardSplit(60, horizon=3, step=1, window=150))
    test = forecast_test(pair, method="giacomini-white", horizon=3)
    at = pair.a.horizon == 3
    d = np.asarray(pair.b.loss - pair.a.loss)[at][np.argsort(pair.a.time[at])]
    assert (test.details["instrument_lag"], test.details["lag"]) == (3, 2)
    assert test.statistic == pytest.approx(_hand_gw(list(d), 3, 2), rel=1e-10)
    with pytest.raises(ValueError, match=r"tests the forecasts of one horizon .*pass horizon= one of \[1, 2, 3\]"):
        forecast_test(pair, method="giacomini-white")
    with pytest.raises(ValueError, match="a Wald test of two restrictions, with no direction"):
        forecast_test(pair, method="giacomini-white", horizon=3, alternative="greater")


def test_giacomini_white_warns_on_an_expanding_window():
    pair = _pair(ForwardSplit(40, horizon=1, step=1))
    with pytest.warns(cvi.InferenceWarning, match="assumes models refitted on a window of fixed size"):
        forecast_test(pair, method="giacomini-white")


def test_the_naive_baselines_are_the_last_known_value_and_one_season_back():
    record = _pair(ForwardSplit(5, horizon=4, step=3, window=100)).a
    naive, seasonal = record.baseline(), record.baseline(season=3)
    origin = record.origin[record.fold]
    np.testing.assert_array_equal(naive.y_pred, SERIES[origin])  # the value at the origin
    back = 3 * np.ceil(record.horizon / 3).astype(int)
    np.testing.assert_array_equal(seasonal.y_pred, SERIES[record.time - back])
    np.testing.assert_array_equal(record.baseline(last_known=1).y_pred, SERIES[record.time - 1])
    assert (naive.name, seasonal.name) == ("naive", "seasonal naive (season 3)")
    test = forecast_test(record, record.baseline(last_known=1))
    assert test.estimate == pytest.approx(np.mean((SERIES[record.time - 1] - record.y_true) ** 2) - record.mean_loss)
    with pytest.raises(ValueError, match="needs row -"):
        record.baseline(season=400)


def test_a_negative_uniform_window_variance_falls_back_to_bartletts_with_a_warning_and_keeps_the_hln_factor():
    """Diebold & Mariano's uniform window can give a negative long-run variance (alternating differentials at lag
    1: gamma_0 + 2 gamma_1 < 0); the test then uses Bartlett's, checked against statsmodels, and keeps Harvey,
    Leybourne & Newbold's (1997, equation 9) factor for h = 2, as R's forecast::dm.test(varestimator="bartlett")
    does (issue 58; R's own figures: tests/inference/test_hac.py)."""
    time = np.arange(2, 40)
    alternating = (time % 2).astype(float)
    common = dict(time=time, origin=time - 2, train_size="expanding")
    a = ForwardResult.from_forecasts(np.zeros(40), alternating, **common)
    b = ForwardResult.from_forecasts(np.zeros(40), 1 - alternating, **common)
    d = np.asarray(b.loss - a.loss)
    n = d.size
    assert long_run_variance(d, 1, "uniform") < 0
    with pytest.warns(cvi.InferenceWarning, match="not positive .*Bartlett's window.*factor 0.9604 is kept"):
        test = forecast_test(a, b, horizon=2)
    factor = math.sqrt((n + 1 - 2 * 2 + 2 * 1 / n) / n)
    assert (test.details["kernel"], test.method, test.details["variant"]) == ("bartlett", "diebold-mariano", "HLN")
    assert test.details["hln_factor"] == pytest.approx(factor, rel=1e-12)
    assert test.standard_error == pytest.approx(math.sqrt(_statsmodels_lrv(d, 1, "bartlett") / n) / factor,
                                                rel=1e-10)

def _equal_loss_pair(n, seed=0):
    """Two learners' records of ``n`` one-step forecasts, one per origin, independent N(0, 1) draws of a N(0, 1)
    series: equal expected loss (the null of benchmarks/forecast_small_n.py)."""
    rng = np.random.default_rng(seed)
    y, rows = rng.standard_normal(n + 5), np.arange(5, n + 5)
    return PairedForwardResult(*[ForwardResult.from_forecasts(y, rng.standard_normal(n), time=rows, origin=rows - 1,
                                                              train_size="expanding") for _ in "ab"])


def _hac_standard_error(d, method):
    """The HAC standard error of the mean differential: Bartlett's at Newey & West's lag (statsmodels) or the
    pre-whitened one (tested against statsmodels and sandwich above)."""
    if method == "diebold-mariano":
        return math.sqrt(_statsmodels_lrv(d, newey_west_lag(d.size), "bartlett") / d.size)
    return math.sqrt(prewhitened_long_run_variance(d)[0] / d.size)


@pytest.mark.parametrize("method", ["diebold-mariano", "prewhitened-diebold-mariano"])
@pytest.mark.parametrize("n", [5, 30, 49])
def test_below_the_small_sample_rule_the_standard_error_is_the_larger_of_the_hac_and_hlns(method, n):
    """Issue 58, finding 6: on few forecasts the HAC tests rejected a true null far too often (0.093 at 10
    forecasts, 0.070 at 20; benchmarks/results/forecast_small_n.json), HLN's too often with dependent forecasts;
    below SMALL_SAMPLE_FORECASTS, without a lag, the test takes the larger standard error, with a note. Oracle: at
    one step ahead HLN's standard error at lag 0 is the paired t's, s / sqrt(n) (scipy's ttest_1samp)."""
    pair = _equal_loss_pair(n)
    d = pair.b.loss - pair.a.loss
    paired = stats.ttest_1samp(d, 0.0)
    hln, hac = d.mean() / paired.statistic, _hac_standard_error(d, method)
    test = forecast_test(pair, method=method)
    assert test.standard_error == pytest.approx(max(hln, hac), rel=1e-10)
    assert test.pvalue == pytest.approx(2 * stats.t.sf(abs(d.mean()) / max(hln, hac), n - 1), rel=1e-9)
    assert test.details["small_sample"] == ("hln" if hln > hac else "hac")
    if hln > hac:
        assert test.details["variant"] == "HLN" and test.pvalue == pytest.approx(paired.pvalue, rel=1e-9)
    assert any(f"{n} forecasts, fewer than {SMALL_SAMPLE_FORECASTS}: the standard error is the larger" in note
               for note in test.notes)


def _differential_pair(d):
    """A pair whose loss differential is ``d`` (A forecasts the series exactly; B's squared errors are ``d``)."""
    rows = np.arange(10, 10 + d.size)
    y = np.zeros(10 + d.size)
    return PairedForwardResult(
        ForwardResult.from_forecasts(y, y[rows], time=rows, origin=rows - 1, train_size="expanding"),
        ForwardResult.from_forecasts(y, np.sqrt(d), time=rows, origin=rows - 1, train_size="expanding"))


def test_the_small_sample_rule_takes_hln_for_an_alternating_and_the_hac_for_a_persistent_differential():
    """Hand: an alternating differential (1, 3, 1, 3, ...) has negative autocorrelations, so Bartlett's long-run
    variance is below the variance and HLN's standard error is the larger; a slowly rising one (1, 1.1, ..., 2.9)
    has positive ones, and the HAC standard error is the larger."""
    alternating = forecast_test(_differential_pair(np.tile([1.0, 3.0], 10)))
    assert (alternating.details["small_sample"], alternating.details["variant"]) == ("hln", "HLN")
    assert (alternating.details["lag"], alternating.details["kernel"]) == (0, "uniform")
    rising = forecast_test(_differential_pair(np.linspace(1.0, 2.9, 20)))
    assert (rising.details["small_sample"], rising.details["variant"]) == ("hac", "HAC")
    assert (rising.details["lag"], rising.details["kernel"]) == (newey_west_lag(20), "bartlett")


def test_the_small_sample_rule_is_50_forecasts_and_a_lag_keeps_bartletts_window():
    """From SMALL_SAMPLE_FORECASTS (50, the smallest n of the benchmark from which the Wilson lower bound of both
    HAC tests' rate stayed at or below 0.06) the tests are the HAC ones; a lag the user passes is honoured at any n.
    Oracle for the lag: statsmodels' HAC variance (_statsmodels_lrv)."""
    assert SMALL_SAMPLE_FORECASTS == 50
    at_rule = _equal_loss_pair(SMALL_SAMPLE_FORECASTS)
    assert forecast_test(at_rule).details["variant"] == "HAC"
    assert "variant" not in forecast_test(at_rule, method="prewhitened-diebold-mariano").details
    assert "small_sample" not in forecast_test(at_rule).details
    few = _equal_loss_pair(20)
    d = few.b.loss - few.a.loss
    test = forecast_test(few, lag=2)
    assert (test.details["variant"], test.details["lag"], test.details["kernel"]) == ("HAC", 2, "bartlett")
    assert test.statistic == pytest.approx(d.mean() / math.sqrt(_statsmodels_lrv(d, 2, "bartlett") / d.size))


def test_on_few_forecasts_over_every_horizon_hlns_lag_is_the_largest_horizon_minus_one():
    """Over every horizon of 5 origins x 4 steps (20 forecasts), the small-sample rule's HLN standard error is at
    lag 3 (where forecasts of one origin meet), uniform window, with HLN's factor at h = 4 (hand: equation 9); the
    test takes it or the HAC one, whichever is larger (statsmodels for both long-run variances)."""
    pair = _pair(ForwardSplit(5, horizon=4, window=100))
    test = forecast_test(pair)
    d = pair.b.loss - pair.a.loss  # the records are in time order, one forecast per row
    n = d.size
    factor = math.sqrt((n + 1 - 2 * 4 + 4 * 3 / n) / n)
    hln = math.sqrt(_statsmodels_lrv(d, 3, "uniform") / n) / factor
    hac = math.sqrt(_statsmodels_lrv(d, max(3, newey_west_lag(n)), "bartlett") / n)
    assert test.standard_error == pytest.approx(max(hln, hac))
    if hln > hac:
        assert (test.details["lag"], test.details["kernel"]) == (3, "uniform")
        assert test.details["hln_factor"] == pytest.approx(factor)


@pytest.mark.parametrize("method", ["prewhitened-hac", "hac", "block-bootstrap", "stationary-bootstrap", "iid"])
def test_a_constant_loss_gives_a_zero_width_interval_with_a_warning_whatever_the_method(method):
    """Issue 58, finding 11: a constant loss of 1 gave [1, 1] without a word for the pre-whitened HAC and the
    bootstraps (the HAC and independent intervals warned). Hand: every loss is 1, so the mean is 1 and nothing
    varies."""
    rows = np.arange(40, 70)
    record = ForwardResult.from_forecasts(np.zeros(80), np.ones(30), time=rows, origin=rows - 1,
                                          train_size="expanding")
    with pytest.warns(cvi.InferenceWarning, match="zero width"):
        interval = forecast_interval(record, method=method, random_state=0)
    assert (interval.low, interval.estimate, interval.high) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("method, kwargs, words", [
    ("iid", {"lag": 5}, "lag=5 is the HAC lag, and method='iid' has none; drop lag, or pass method='hac'"),
    ("block-bootstrap", {"lag": 1}, "lag=1 is the HAC lag, and method='block-bootstrap' has none"),
    ("stationary-bootstrap", {"lag": 1}, "lag=1 is the HAC lag, and method='stationary-bootstrap' has none"),
    ("hac", {"block_length": 5}, "block_length=5 is the bootstrap's block length, and method='hac' resamples nothing"),
    ("iid", {"block_length": 5}, "method='iid' resamples nothing; drop block_length, or pass "
                                 "method='block-bootstrap' or 'stationary-bootstrap'"),
    ("prewhitened-hac", {"block_length": 5}, "method='prewhitened-hac' resamples nothing"),
])
def test_a_lag_or_block_length_the_method_does_not_use_is_refused(method, kwargs, words):
    """Issue 58, finding 12: forecast_interval(method="iid", lag=5) and (method="hac", block_length=5) ignored the
    argument without a word."""
    with pytest.raises(ValueError, match=re.escape(words)):
        forecast_interval(_pair(ForwardSplit(5, horizon=4, window=100)).a, method=method, **kwargs)


def test_too_few_forecasts_over_every_horizon_say_how_to_make_more():
    """Issue 58, finding 21: on 2 forecasts the message advised "Pass horizon=None", the value already passed."""
    rows = np.array([40, 41])
    record = ForwardResult.from_forecasts(np.zeros(50), np.ones(2), time=rows, origin=rows - 1,
                                          train_size="expanding")
    with pytest.raises(ValueError) as raised:
        forecast_interval(record)
    message = str(raised.value)
    assert "horizon=None leaves 2 forecasts" in message and "Pass horizon=None" not in message
    assert "make more origins (ForwardSplit's n_splits) or a longer horizon" in message
