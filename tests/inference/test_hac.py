"""The pre-whitened long-run variance and the Diebold-Mariano test's Bartlett fallback (issue 58, item 3).

Oracles: R's sandwich (``kernHAC(lm(x ~ 1), prewhite = 1)``, ``lrvar``, ``meatHAC``) and forecast
(``dm.test(varestimator = "bartlett")``) as Debian ships them, their figures stored in ``tests/data/hac_oracle.json``
by ``tests/data/hac_oracle.R`` (which the last test reruns where R is installed); statsmodels' ``S_hac_simple``
(the Bartlett kernel sum of a series as it is); and hand computations with loops of Andrews & Monahan (1992,
section 2: a VAR(1), here an AR(1), fitted by least squares to the estimating functions, the kernel estimator
applied to its residuals as they are, recoloured by (1 - rho)^-1 on both sides; Zeileis 2004, J. Stat. Softw.
11(10), section 3, writes out the same estimator as sandwich computes it), Prais & Winsten (1954: the first
observation of an AR(1), sqrt(1 - rho^2) c_0) and Harvey, Leybourne & Newbold (1997, equation 9)."""

import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.sandwich_covariance import S_hac_simple

import cvinference as cvi
from cvinference.inference import forecast_interval, forecast_test
from cvinference.inference._hac import andrews_lag, long_run_variance, prewhitened_long_run_variance
from cvinference.records import ForwardResult

SCRIPT = Path(__file__).resolve().parents[1] / "data" / "hac_oracle.R"
ORACLE = json.loads(SCRIPT.with_suffix(".json").read_text())
SERIES = sorted(ORACLE["prewhitened"])


def _record(losses):
    """A forward record of one-step forecasts whose squared errors are ``losses``, in this order."""
    losses = np.asarray(losses, dtype=float)
    time = np.arange(1, losses.size + 1)
    return ForwardResult.from_forecasts(np.zeros(losses.size + 1), np.sqrt(losses), time=time, origin=time - 1,
                                        train_size="expanding")


def _by_hand(values, first_observation):
    """Andrews & Monahan's pre-whitened long-run variance with loops: rho = sum c_t c_(t-1) / sum c_t^2 (Yule-Walker,
    Brockwell & Davis 1991, equation 8.1.4), the
    residuals e_t = c_t - rho c_(t-1) (and e_0 = sqrt(1 - rho^2) c_0 for Prais & Winsten), their Bartlett sum
    sum_t e_t^2 + 2 sum_k (1 - k / (L + 1)) sum_t e_t e_(t-k) divided by n, not centred, times 1 / (1 - rho)^2, at
    the lag L of Andrews (1991, equations 6.2 and 6.4) on the residuals: (variance, rho, lag)."""
    n = len(values)
    mean = sum(values) / n
    c = [v - mean for v in values]
    rho = sum(c[t] * c[t - 1] for t in range(1, n)) / sum(x * x for x in c)
    e = [c[t] - rho * c[t - 1] for t in range(1, n)]
    if first_observation == "prais-winsten":
        e = [math.sqrt(1 - rho**2) * c[0]] + e
    m = len(e)
    e_mean = sum(e) / m
    r = [x - e_mean for x in e]
    rho_r = sum(r[t] * r[t - 1] for t in range(1, m)) / sum(x * x for x in r)
    bandwidth = 1.1447 * (4 * rho_r**2 / ((1 - rho_r) ** 2 * (1 + rho_r) ** 2) * m) ** (1 / 3)
    lag = max(math.ceil(bandwidth) - 1, 0)
    total = sum(x * x for x in e)
    for k in range(1, lag + 1):
        total += 2 * (1 - k / (lag + 1)) * sum(e[t] * e[t - k] for t in range(k, m))
    return total / n / (1 - rho) ** 2, rho, lag


@pytest.mark.parametrize("name", SERIES)
def test_the_drop_rule_is_sandwichs_prewhitened_kernhac(name):
    """first_observation="drop" is R's sandwich::kernHAC(lm(x ~ 1), kernel="Bartlett", prewhite=1, adjust=FALSE,
    ar.method="yule-walker") at the same bandwidth: the residuals not centred again, the sums divided by n."""
    case = ORACLE["prewhitened"][name]
    variance, rho, lag = prewhitened_long_run_variance(case["values"], first_observation="drop")
    assert (lag, rho) == (case["lag_drop"], pytest.approx(case["rho"], rel=1e-9))
    assert variance == pytest.approx(case["lrv_drop"], rel=1e-9)


@pytest.mark.parametrize("name", SERIES)
def test_the_default_keeps_the_first_residual_as_prais_winsten_and_sandwich_sum_it(name):
    """The default: the n residuals (the first sqrt(1 - rho^2) c_0), summed by sandwich's meatHAC with the same
    Bartlett weights, recoloured by sandwich's D = 1 / (1 - rho)."""
    case = ORACLE["prewhitened"][name]
    variance, rho, lag = prewhitened_long_run_variance(case["values"])
    assert (lag, rho) == (case["lag_prais_winsten"], pytest.approx(case["rho"], rel=1e-9))
    assert variance == pytest.approx(case["lrv_prais_winsten"], rel=1e-9)


@pytest.mark.parametrize("first_observation", ["prais-winsten", "drop"])
@pytest.mark.parametrize("name", SERIES)
def test_the_prewhitened_variance_is_the_hand_computation(name, first_observation):
    values = ORACLE["prewhitened"][name]["values"]
    variance, rho, lag = prewhitened_long_run_variance(values, first_observation=first_observation)
    expected = _by_hand(values, first_observation)
    assert (variance, rho) == (pytest.approx(expected[0], rel=1e-10), pytest.approx(expected[1], rel=1e-12))
    assert lag == expected[2]


def test_the_residuals_kernel_sum_is_statsmodels_s_hac_simple_not_centred():
    """long_run_variance(demean=False) is statsmodels' S_hac_simple / n (Bartlett, the series as it is); with
    demean=True it is the same of the centred series."""
    values = np.asarray(ORACLE["prewhitened"]["ar1_differential"]["values"])
    for lag in (0, 1, 4):
        assert long_run_variance(values, lag, demean=False) == pytest.approx(
            S_hac_simple(values, lag)[0, 0] / values.size, rel=1e-12)
        assert long_run_variance(values, lag) == pytest.approx(
            S_hac_simple(values - values.mean(), lag)[0, 0] / values.size, rel=1e-12)


def test_one_large_first_loss_counts_as_it_does_anywhere_else():
    """Issue 58's reproduction: one loss of 150 among 120 ordinary ones. Dropping the first residual (sandwich's
    rule, and the re-centred one before) leaves a variance a thirtieth of the one the loss has in the middle; the
    default sees it, and the default interval's width with the loss first is within a factor of two of its width
    with the loss in the middle (the issue's criterion)."""
    first, middle = (ORACLE["prewhitened"][name]["values"] for name in ("one_large_loss_first",
                                                                         "one_large_loss_middle"))
    dropped = prewhitened_long_run_variance(first, first_observation="drop")[0]
    seen = [prewhitened_long_run_variance(values)[0] for values in (first, middle)]
    assert dropped < seen[1] / 30 and 0.5 < seen[0] / seen[1] < 2
    assert seen[0] == pytest.approx(long_run_variance(first, 0), rel=0.05)  # rho near 0: about gamma_0
    widths = []
    for values in (first, middle):
        interval = forecast_interval(_record(values))
        assert interval.details["first_observation"] == "prais-winsten"
        widths.append(interval.high - interval.low)
    assert 0.5 < widths[0] / widths[1] < 2


def test_a_large_loss_at_any_position_keeps_the_interval_within_a_factor_of_two_of_the_middle():
    """First, second, middle, last but one and last: Yule-Walker's rho (whose denominator holds the last loss too;
    least squares' does not, and a large last loss then throws it anywhere) and Prais & Winsten's first residual."""
    ordinary = np.asarray(ORACLE["prewhitened"]["one_large_loss_first"]["values"][1:])
    width = {}
    for position in (0, 1, 60, 119, 120):
        interval = forecast_interval(_record(np.insert(ordinary, position, 150.0)))
        width[position] = interval.high - interval.low
    assert all(0.5 < width[position] / width[60] < 2 for position in width)


def test_the_prewhitened_diebold_mariano_test_sees_a_large_first_differential():
    """forecast_test(method="prewhitened-diebold-mariano") uses the same variance: its standard error is
    sqrt(LRV / n) with the default's LRV (the hand computation), and says which rule it used."""
    values = np.asarray(ORACLE["prewhitened"]["one_large_loss_first"]["values"])
    b = _record(values)
    a = _record(np.ones(values.size))
    test = forecast_test(a, b, method="prewhitened-diebold-mariano")
    variance = _by_hand(list(values), "prais-winsten")[0]
    assert test.standard_error == pytest.approx(math.sqrt(variance / values.size), rel=1e-10)
    assert test.details["first_observation"] == "prais-winsten"


def _dm_records():
    case = ORACLE["dm_bartlett"]
    n = len(case["errors_a"])
    time = np.arange(2, n + 2)
    common = dict(time=time, origin=time - 2, train_size="expanding")  # h = 2, one origin per step: lag 1
    return (ForwardResult.from_forecasts(np.zeros(n + 2), case["errors_a"], **common),
            ForwardResult.from_forecasts(np.zeros(n + 2), case["errors_b"], **common), case)


def test_the_bartlett_fallback_keeps_the_hln_factor_as_rs_dm_test():
    """forecast::dm.test(e_b, e_a, h=2, varestimator="bartlett") keeps Harvey, Leybourne & Newbold's factor; where
    the uniform window's variance is negative, forecast_test(horizon=2) gives R's statistic and p-values."""
    a, b, case = _dm_records()
    d = np.asarray(b.loss - a.loss)
    assert long_run_variance(d, 1, "uniform") == pytest.approx(case["uniform_variance"], rel=1e-9)
    assert case["uniform_variance"] < 0
    with pytest.warns(cvi.InferenceWarning, match="Harvey, Leybourne & Newbold's factor .* is kept"):
        test = forecast_test(a, b, horizon=2)
    assert (test.details["kernel"], test.method, test.details["variant"]) == ("bartlett", "diebold-mariano", "HLN")
    assert test.statistic == pytest.approx(case["statistic"], rel=1e-8)
    assert test.pvalue == pytest.approx(case["pvalue_two_sided"], rel=1e-8)
    with pytest.warns(cvi.InferenceWarning):
        greater = forecast_test(a, b, horizon=2, alternative="greater")
    assert greater.pvalue == pytest.approx(case["pvalue_greater"], rel=1e-8)


def test_the_bartlett_fallback_is_the_hand_computation():
    """S = mean(d) / sqrt((gamma_0 + 2 (1/2) gamma_1) / n) times sqrt((n + 1 - 2h + h (h - 1) / n) / n), h = 2
    (Harvey, Leybourne & Newbold 1997, equation 9), referred to t(n - 1), with loops."""
    a, b, _ = _dm_records()
    d = list(np.asarray(b.loss - a.loss))
    n, h = len(d), 2
    mean = sum(d) / n
    gamma = [sum((d[t] - mean) * (d[t - k] - mean) for t in range(k, n)) / n for k in range(2)]
    statistic = mean / math.sqrt((gamma[0] + gamma[1]) / n) * math.sqrt((n + 1 - 2 * h + h * (h - 1) / n) / n)
    with pytest.warns(cvi.InferenceWarning):
        test = forecast_test(a, b, horizon=h)
    assert test.statistic == pytest.approx(statistic, rel=1e-10)
    assert test.pvalue == pytest.approx(2 * stats.t.sf(abs(statistic), n - 1), rel=1e-10)


def test_andrews_lag_of_the_residuals_is_the_plug_in_rule():
    """ceil(1.1447 (alpha(1) n)^(1/3)) - 1 (Andrews 1991, equations 6.2 and 6.4), by hand above; and 0 for white
    noise of any length here."""
    values = ORACLE["prewhitened"]["ar1_differential"]["values"]
    assert prewhitened_long_run_variance(values)[2] == _by_hand(values, "prais-winsten")[2]
    assert andrews_lag(np.zeros(10)) == 0


def test_an_unknown_first_observation_rule_is_refused():
    with pytest.raises(ValueError, match=r"first_observation='first'.*'prais-winsten'"):
        prewhitened_long_run_variance([1.0, 2.0, 3.0], first_observation="first")


def _r_ready():
    if shutil.which("Rscript") is None:
        return False
    check = subprocess.run(["Rscript", "-e", "for (p in c('sandwich', 'forecast', 'jsonlite')) "
                            "if (!requireNamespace(p, quietly = TRUE)) quit(status = 1)"], capture_output=True)
    return check.returncode == 0


@pytest.mark.skipif(not _r_ready(), reason="needs Rscript with R's sandwich, forecast and jsonlite")
def test_the_r_script_makes_the_stored_figures(tmp_path):
    """Rerun tests/data/hac_oracle.R: the same figures as stored (to 1e-9: other BLAS, other round-off)."""
    out = tmp_path / "hac_oracle.json"
    subprocess.run(["Rscript", str(SCRIPT), str(out)], check=True, capture_output=True, timeout=300)
    fresh = json.loads(out.read_text())
    for name in SERIES:
        for key, value in ORACLE["prewhitened"][name].items():
            assert np.asarray(fresh["prewhitened"][name][key]) == pytest.approx(np.asarray(value), rel=1e-9), key
    for key in ("statistic", "pvalue_two_sided", "pvalue_greater", "uniform_variance"):
        assert fresh["dm_bartlett"][key] == pytest.approx(ORACLE["dm_bartlett"][key], rel=1e-9)
