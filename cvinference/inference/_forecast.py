"""Forward validation's intervals and tests: the mean forecast loss and the difference of two learners' losses,
with a variance that allows for the serial dependence of forecast errors."""

import math
import types

import numpy as np
from scipy import stats

from .._utils._docstring import fill_doc
from .._utils._params import PROBABILITY, Integer, Nullable, Options, Seed, validate_params
from .._utils._warnings import Messages
from ..records import ForwardResult, PairedForwardResult
from ._accuracy_interval import Bounds, PointEstimate, estimate_interval, normal_bounds
from ._hac import block_length_rule, hln_factor, long_run_variance, newey_west_lag, prewhitened_long_run_variance
from ._methods import options
from ._parameters import ALTERNATIVE
from ._results import LossDifferenceTestResult

INTERVAL_METHODS = options("forecast_interval")
"""``forecast_interval``'s methods: its rows of the method table."""

TEST_METHODS = options("forecast_test")
"""``forecast_test``'s methods: its rows of the method table."""

_STATIONARY = "the loss series is stationary (its mean and autocovariances do not change over time)"
_INTERVAL_ASSUMPTIONS = {
    "prewhitened-hac": (f"{_STATIONARY}; an AR(1) takes up most of its dependence, Bartlett's window at Andrews's "
                        "lag the rest; normal approximation to the log of the mean"),
    "hac": f"{_STATIONARY}; its autocovariances beyond the lag are negligible; normal approximation to the mean",
    "block-bootstrap": f"{_STATIONARY} and weakly dependent: blocks of the block length hold its dependence",
    "stationary-bootstrap": (f"{_STATIONARY} and weakly dependent: blocks of random (geometric) length, the block "
                             "length on average, hold its dependence"),
    "iid": "independent, identically distributed losses (which serially dependent forecasts are not)",
}


def _check_record(result, name="result"):
    if not isinstance(result, ForwardResult):
        raise TypeError(f"{name} must be a ForwardResult, as CVEvaluator(cv=ForwardSplit(...), "
                        f"loss='squared_error').evaluate returns; got {type(result).__name__}.")
    return result


def _selected(result, values, horizon):
    """``values`` of the forecasts at ``horizon`` (all when None), in time order (then by origin), and the horizon
    the lag rules see (its largest)."""
    keep = np.ones(result.n_forecasts, dtype=bool) if horizon is None else result.horizon == horizon
    if not keep.any():
        raise ValueError(f"horizon={horizon} is not among the record's horizons {result.horizons.tolist()}; pass one "
                         "of them, or None for every forecast.")
    order = np.lexsort((result.fold[keep], result.time[keep]))
    values = np.asarray(values, dtype=np.float64)[keep][order]
    if values.size < 3:
        fix = ("make more origins (ForwardSplit's n_splits) or a longer horizon" if horizon is None else
               "pass horizon=None for every forecast, or make more origins (ForwardSplit's n_splits)")
        raise ValueError(f"horizon={horizon} leaves {values.size} forecasts; a variance of their mean that allows for "
                         f"dependence needs at least 3: {fix}.")
    return values, int(result.horizon[keep].max())


def _overlap_lag(result, horizon):
    """The lag of the h-step forecasts' overlap: forecasts h steps ahead from origins s apart share h - s steps of
    the future when s < h, so their errors are correlated up to ceil(h / s) - 1 origins apart (Diebold & Mariano
    1995, section 1.1: h-step errors are MA(h - 1) at one origin per step)."""
    spacing = int(np.diff(result.origin).min()) if result.n_splits > 1 else horizon
    return max(math.ceil(horizon / max(spacing, 1)) - 1, 0)


def _lag(result, horizon, n, largest, lag):
    """The lag and kernel: the user's with Bartlett's window; at one horizon, its overlap (uniform, Diebold &
    Mariano); over all, the larger of the overlap and Newey & West's rule (Bartlett)."""
    if lag is not None:
        if lag >= n:
            raise ValueError(f"lag={lag} must be less than the {n} forecasts used; pass a smaller lag or None.")
        return lag, "bartlett"
    if horizon is not None:
        return _overlap_lag(result, horizon), "uniform"
    return min(max(largest - 1, newey_west_lag(n)), n - 1), "bartlett"


def _variance(values, lag, kernel, messages, kept=""):
    """The long-run variance, Bartlett's when the uniform window's is not positive (with a warning that ends with
    ``kept``: what the fallback keeps)."""
    variance = long_run_variance(values, lag, kernel)
    if variance <= 0 and kernel == "uniform" and lag > 0:
        messages.warn(f"The uniform-window long-run variance at lag {lag} is {variance:.3g}, not positive (Diebold & "
                      "Mariano's estimator can be); Bartlett's window (Newey & West 1987) is used instead" + kept
                      + ".")
        return long_run_variance(values, lag, "bartlett"), "bartlett"
    return variance, kernel


def _warn_zero_width(mean, messages):
    """Warn that an interval of zero width (every loss equal, or every loss difference) is no certainty, as
    :func:`~cvinference.inference._accuracy_interval.normal_bounds` warns for the ``"hac"`` and ``"iid"`` intervals."""
    if mean == 0:
        messages.warn("Every forecast has loss 0, so the interval is [0, 0]; it does not mean the loss is known "
                      "exactly.")
    else:
        messages.warn(f"Every forecast has loss {mean:.4g}, so the standard error is 0 and the interval has zero "
                      "width; it does not mean the mean loss is known exactly.")


def _log_scale_bounds(mean, standard_error, confidence_level, messages):
    """exp(log(mean) +- z se / mean): the delta-method interval of the log mean loss, back on the loss's scale, which
    stays positive and follows the right skew of a mean of squared or absolute errors."""
    z = stats.norm.ppf((1 + confidence_level) / 2)
    if standard_error == 0:
        _warn_zero_width(mean, messages)
    if mean == 0:
        return Bounds(low=0.0, high=0.0, standard_error=standard_error, critical_value=float(z), df=None, clipped=())
    factor = math.exp(z * standard_error / mean)
    return Bounds(low=mean / factor, high=mean * factor, standard_error=standard_error, critical_value=float(z),
                  df=None, clipped=())


def _moving_block_means(values, block_length, n_resamples, random_state):
    """Means of moving-block bootstrap resamples (Künsch 1989): ceil(n / b) blocks of b consecutive values, starts
    drawn uniformly from 0 .. n - b, joined and cut to n values."""
    n = values.size
    n_blocks = math.ceil(n / block_length)
    rng = np.random.default_rng(random_state)
    starts = rng.integers(0, n - block_length + 1, size=(n_resamples, n_blocks))
    rows = (starts[:, :, np.newaxis] + np.arange(block_length)).reshape(n_resamples, -1)[:, :n]
    return values[rows].mean(axis=1)


def _stationary_block_means(values, block_length, n_resamples, random_state):
    """Means of stationary bootstrap resamples (Politis & Romano 1994, section 2): blocks of geometric length with
    mean ``block_length`` (p = 1 / block_length), starts uniform on 0 .. n - 1, wrapping circularly, joined and cut
    to n values.

    The draws are ``rng.random((n_resamples, n, 2))``: for resample r and block k, in that order, the start
    floor(u n) and the length 1 + floor(log(1 - v) / log(1 - p)) (the geometric law by inversion; 1 when p = 1).
    A resample never needs more than n blocks; the ones it does not reach are drawn and left unused, so that a
    plain loop over resamples and blocks, drawing two uniforms per block, makes the same resamples."""
    n = values.size
    rng = np.random.default_rng(random_state)
    draws = rng.random((n_resamples, n, 2))
    starts = np.minimum(np.floor(draws[:, :, 0] * n).astype(np.int64), n - 1)
    if block_length == 1:
        lengths = np.ones((n_resamples, n), dtype=np.int64)
    else:
        lengths = 1 + np.floor(np.log1p(-draws[:, :, 1]) / math.log1p(-1 / block_length)).astype(np.int64)
    ends = np.cumsum(np.minimum(lengths, n), axis=1)  # where each block stops; a length beyond n never matters
    first = np.zeros((n_resamples, n + 1), dtype=np.int64)
    first[np.arange(n_resamples)[:, np.newaxis], np.minimum(ends, n)] = 1  # 1 where the next block begins
    block = np.cumsum(first[:, :n], axis=1)  # the block of each position
    begins = np.concatenate([np.zeros((n_resamples, 1), dtype=np.int64), ends[:, :-1]], axis=1)
    rows = np.arange(n_resamples)[:, np.newaxis]
    offset = np.arange(n) - begins[rows, block]
    return values[(starts[rows, block] + offset) % n].mean(axis=1)


def _estimand(result, horizon, what):
    steps = "every horizon" if horizon is None else f"{horizon} step(s) ahead"
    return (f"{what} of the forecasts ({steps}) of the learner refitted at each origin on a {result.window} window, "
            "on the process the series follows")


_BOOTSTRAPS = ("block-bootstrap", "stationary-bootstrap")


def _check_used(method, lag, block_length):
    """Refuse a ``lag`` or ``block_length`` that ``method`` would not use (``"prewhitened-hac"``'s lag is refused in
    its branch, which says why)."""
    if lag is not None and method in ("iid", *_BOOTSTRAPS):
        raise ValueError(f"lag={lag} is the HAC lag, and method={method!r} has none; drop lag, or pass method='hac' "
                         "with the lag.")
    if block_length is not None and method not in _BOOTSTRAPS:
        raise ValueError(f"block_length={block_length} is the bootstrap's block length, and method={method!r} "
                         "resamples nothing; drop block_length, or pass method='block-bootstrap' or "
                         "'stationary-bootstrap' with it.")


@validate_params(confidence_level=PROBABILITY, method=Options(*INTERVAL_METHODS), horizon=Nullable(Integer(minimum=1)),
                 lag=Nullable(Integer(minimum=0)), block_length=Nullable(Integer(minimum=1)),
                 n_resamples=Integer(minimum=100), random_state=Seed())
@fill_doc
def forecast_interval(result, *, confidence_level=0.95, method="prewhitened-hac", horizon=None, lag=None,
                      block_length=None, n_resamples=2000, random_state=None):
    """Confidence interval for the mean forecast loss of forward validation.

    Parameters
    ----------
    result : ForwardResult
        A learner's forward validation.
    %(confidence_level)s
    method : {"prewhitened-hac", "hac", "block-bootstrap", "stationary-bootstrap", "iid"}, \
default="prewhitened-hac"
        ``"prewhitened-hac"``: the long-run variance LRV of the losses in
        time order pre-whitened by an AR(1) (Andrews & Monahan 1992), at
        Andrews's (1991) automatic lag, and the interval of the log mean
        loss, exp(log(mean) +- z sqrt(LRV / n) / mean), back on the loss's
        scale: the one that held best in the calibration (docs/calibration.md,
        "Forward validation"). ``"hac"``: mean +- z sqrt(LRV / n), LRV by
        Bartlett's window at the lag below (:func:`long_run_variance`). ``"block-bootstrap"``:
        the percentile interval of moving-block bootstrap means (Künsch
        1989). ``"stationary-bootstrap"``: the percentile interval of
        stationary bootstrap means (Politis & Romano 1994): blocks of
        random, geometric length whose mean is the block length, wrapping
        around the end of the series. ``"iid"``: mean +- z s / sqrt(n), which
        treats the forecasts as independent; shown to measure what ignoring
        time order costs.
    horizon : int or None, default=None
        The forecasts of one horizon (one per origin); None: every forecast.
    lag : int or None, default=None
        The HAC lag (``"hac"`` only: the other methods refuse a lag rather
        than ignore it). None: at one horizon h, the overlap of its forecasts,
        ceil(h / s) - 1 for origins s rows apart, with the uniform window
        (Diebold & Mariano 1995); over every horizon, the larger of the
        largest horizon minus 1 and Newey & West's (1994) rule
        floor(4 (n / 100)^(2/9)), with Bartlett's window.
    block_length : int or None, default=None
        The bootstrap's block length (the stationary bootstrap's mean block
        length); None: :func:`block_length_rule`. At most the number of
        forecasts. The bootstraps only: the other methods refuse it.
    n_resamples : int, default=2000
        Bootstrap resamples.
    random_state : int, RandomState instance or None, default=None
        Seeds the bootstrap.

    Returns
    -------
    Interval
        ``target="forward"``; ``details`` hold ``standard_error``, ``n``,
        ``lag`` and ``kernel`` (HAC), ``ar1`` (the pre-whitening AR(1)
        coefficient) and ``first_observation`` (``"prais-winsten"``: the
        first loss's residual, which the AR(1) has no predecessor for),
        ``block_length`` and ``n_resamples`` (bootstrap) and
        ``horizon``.

    Notes
    -----
    The losses L_t of forecasts in time order are a serially dependent
    series: forecasts from one origin share its model, and h-step errors
    overlap. Under stationarity, sqrt(n) (mean - mu) is asymptotically
    normal with the long-run variance gamma_0 + 2 sum_k gamma_k (Newey &
    West 1987, Theorem 2; Diebold & Mariano 1995, section 1.1); the
    moving-block bootstrap (Künsch 1989, Theorem 3.5) estimates the same
    distribution. The lower bound is clipped at 0, a loss's least value.

    The stationary bootstrap (Politis & Romano 1994, section 2) resamples
    blocks of the losses in time order whose lengths are geometric with
    p = 1 / ``block_length`` (mean length 1/p) and whose starts are uniform
    on the n forecasts, the series wrapped into a circle, until n values
    are drawn; unlike fixed blocks, the resampled series is stationary
    given the data, and the mean of the resampled means is the mean loss.
    As an estimator of the mean's variance it has a larger asymptotic mean
    squared error than the moving blocks at the same (mean) block length
    (Lahiri 1999), so it is offered beside them, not instead of them;
    the forward calibration measured both (docs/calibration.md, "Forward
    validation"). ``block_length=1`` is the independent (iid) bootstrap.

    Pre-whitening (Andrews & Monahan 1992, section 2): with c_t the
    centred losses, rho their first autocorrelation
    sum c_t c_{t-1} / sum c_t^2 (the Yule-Walker AR(1) coefficient, whose
    denominator holds the last loss too; clipped to [-0.97, 0.97]) and
    e_t = c_t - rho c_{t-1} its residuals, not centred again,
    e_0 = sqrt(1 - rho^2) c_0 for the first loss (Prais & Winsten 1954;
    without it a large first loss would be all but ignored),
    LRV = LRV_Bartlett(e) / (1 - rho)^2
    (:func:`~cvinference.inference._hac.prewhitened_long_run_variance`),
    the residuals' lag from Andrews's
    (1991, equations 6.2 and 6.4) AR(1) plug-in bandwidth
    1.1447 (alpha(1) n)^(1/3), alpha(1) = 4 r^2 / ((1 - r)^2 (1 + r)^2) for
    the residuals' own AR(1) coefficient r. The interval of log(mean), whose
    standard error is sqrt(LRV / n) / mean by the delta method, is taken
    back by exp; the forward calibration measured its coverage
    (docs/calibration.md, "Forward validation").

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Ridge
    >>> from cvinference import CVEvaluator
    >>> from cvinference.inference import forecast_interval
    >>> from cvinference.splitters import ForwardSplit
    >>> rng = np.random.default_rng(0)
    >>> y = np.cumsum(rng.normal(size=200)) * 0.1 + rng.normal(size=200)
    >>> X = np.column_stack([np.r_[0.0, y[:-1]], np.arange(200.0)])
    >>> record = CVEvaluator(cv=ForwardSplit(10, horizon=10), loss="squared_error").evaluate(Ridge(), X, y)
    >>> interval = forecast_interval(record)
    >>> interval.method, interval.target, interval.details["n"], interval.low > 0
    ('prewhitened-hac', 'forward', 100, True)
    >>> forecast_interval(record, method="hac").details["lag"]  # the largest horizon minus 1
    9
    >>> forecast_interval(record, method="stationary-bootstrap", random_state=0).details["block_length"]
    10
    """
    _check_record(result)
    _check_used(method, lag, block_length)
    messages = Messages()
    values, largest = _selected(result, result.loss, horizon)
    n, mean = values.size, float(values.mean())
    details = {"horizon": horizon}
    if method == "iid":
        bounds = normal_bounds(mean, float(values.std(ddof=1) / math.sqrt(n)), confidence_level, None, messages,
                               limits=(0.0, None), what="mean loss", exact_advice="")
    elif method == "prewhitened-hac":
        if lag is not None:
            raise ValueError(f"method='prewhitened-hac' chooses its lag (Andrews 1991) on the pre-whitened losses; "
                             f"got lag={lag}. Leave lag=None, or pass method='hac' with the lag.")
        variance, rho, lag = prewhitened_long_run_variance(values)
        bounds = _log_scale_bounds(mean, math.sqrt(max(variance, 0.0) / n), confidence_level, messages)
        details |= {"lag": lag, "kernel": "bartlett", "ar1": rho, "first_observation": "prais-winsten"}
    elif method == "hac":
        lag, kernel = _lag(result, horizon, n, largest, lag)
        variance, kernel = _variance(values, lag, kernel, messages)
        bounds = normal_bounds(mean, math.sqrt(max(variance, 0.0) / n), confidence_level, None, messages,
                               limits=(0.0, None), what="mean loss", exact_advice="")
        details |= {"lag": lag, "kernel": kernel}
    else:
        block_length = block_length or block_length_rule(n, largest)
        if block_length > n:
            raise ValueError(f"block_length={block_length} is more than the {n} forecasts; pass at most {n}.")
        resample = _moving_block_means if method == "block-bootstrap" else _stationary_block_means
        means = resample(values, block_length, n_resamples, random_state)
        alpha = 1 - confidence_level
        low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2])
        bounds = Bounds(low=float(max(low, 0.0)), high=float(high), standard_error=float(means.std(ddof=1)),
                        critical_value=None, df=None, clipped=())
        if values.min() == values.max():
            _warn_zero_width(mean, messages)
        details |= {"block_length": block_length, "n_resamples": n_resamples}
    return estimate_interval(PointEstimate(mean, n, bounds), confidence_level=confidence_level, method=method,
                             averaging="dataset", estimand=_estimand(result, horizon, f"mean {result.loss_name}"),
                             assumptions=_INTERVAL_ASSUMPTIONS[method], messages=messages, target="forward",
                             details=details)


SMALL_SAMPLE_FORECASTS = 50
"""The fewest forecasts at which ``forecast_test``'s HAC estimators (Bartlett's window at Newey & West's lag, the
default over every horizon, and the pre-whitened one) hold their size; below it, without a ``lag``, the test takes
the larger of their standard error and Harvey, Leybourne & Newbold's at the forecasts' overlap. Measured by
``benchmarks/forecast_small_n.py`` (one-step forecasts, one per origin): under an exact null of independent forecasts
(4,000 replications per n) the HAC tests' rejection rate at alpha = 0.05 exceeded 0.06 by its 95% Wilson lower bound
at every n from 5 to 40 (0.133 and 0.149 at 5, 0.093 at 10, 0.070 and 0.072 at 20, 0.073 and 0.069 at 40) and at none
from 50 to 100, HLN's stayed at or below 0.051; with AR(1) forecast errors HLN's rejected more than the pre-whitened
test, and the larger standard error held the smaller of the two rates in every cell (docs/forward-validation.md,
"Few forecasts")."""


def _small_sample_guard(result, values, horizon, largest, standard_error, messages):
    """On fewer than :data:`SMALL_SAMPLE_FORECASTS` forecasts: ``(lag, kernel, factor, standard_error)`` of Harvey,
    Leybourne & Newbold's test where its standard error is larger than the HAC one (``standard_error``), else None;
    a note says which. HLN's lag: at one horizon the forecasts' overlap, over every horizon the largest horizon minus
    1 (where forecasts of one origin meet), at most n - 2 (where its factor is positive)."""
    n = values.size
    lag = min(_overlap_lag(result, horizon) if horizon is not None else largest - 1, n - 2)
    factor = hln_factor(n, lag + 1)
    variance = long_run_variance(values, lag, "uniform")
    hln = math.sqrt(variance / n) / factor if variance > 0 else 0.0
    chosen = (f"Harvey, Leybourne & Newbold's, at lag {lag} (uniform window)" if hln > standard_error
              else "the HAC one")
    messages.note(f"{n} forecasts, fewer than {SMALL_SAMPLE_FORECASTS}: the standard error is the larger of the HAC "
                  f"one and Harvey, Leybourne & Newbold's: {chosen}. On so few forecasts the HAC tests rejected a true "
                  "null too often when forecasts were independent (0.09 at 10, 0.07 at 20 and 40, at alpha = 0.05), "
                  "HLN's when they were dependent; the larger held both (docs/forward-validation.md, \"Few "
                  "forecasts\"). Pass lag= for Bartlett's window at that lag alone.")
    return (lag, "uniform", factor, hln) if hln > standard_error else None


def _two_records(a, b):
    if isinstance(a, PairedForwardResult):
        if b is not None:
            raise TypeError("forecast_test() takes a PairedForwardResult or two ForwardResults, not both; pass "
                            "forecast_test(pair).")
        return a
    if b is None:
        raise TypeError(f"forecast_test() compares two learners: pass a PairedForwardResult, or two ForwardResults "
                        f"as forecast_test(a, b); got a of type {type(a).__name__} and no b.")
    return PairedForwardResult(_check_record(a, "a"), _check_record(b, "b"))


@validate_params(method=Options(*TEST_METHODS), horizon=Nullable(Integer(minimum=1)),
                 lag=Nullable(Integer(minimum=0)), alternative=ALTERNATIVE)
def forecast_test(a, b=None, *, method="diebold-mariano", horizon=None, lag=None, alternative="two-sided"):
    """Test whether two learners forecast equally well: Diebold & Mariano's test, Harvey et al.'s correction.

    Parameters
    ----------
    a : PairedForwardResult or ForwardResult
        Both learners' forward validation (``CVEvaluator.compare`` with a
        forward splitter), or learner A's record.
    b : ForwardResult or None, default=None
        Learner B's record on the same series, origins and windows.
    method : {"diebold-mariano", "prewhitened-diebold-mariano", "giacomini-white"}, default="diebold-mariano"
        ``"diebold-mariano"``: equal expected loss (Diebold & Mariano 1995,
        with Harvey, Leybourne & Newbold's 1997 correction at one horizon).
        ``"prewhitened-diebold-mariano"``: the same statistic with the long-run
        variance of :func:`forecast_interval`'s default, pre-whitened by an
        AR(1) at Andrews's automatic lag (Andrews & Monahan 1992), referred
        to t with n - 1 degrees of freedom: for strongly persistent loss
        differentials, where Bartlett's window at a fixed lag is too narrow.
        ``"giacomini-white"``: equal expected loss given what was known at
        the origin (Giacomini & White 2006, conditional test, with the test
        functions 1 and the last loss differential known at the origin); a
        Wald test, two-sided only, of the forecasts of one horizon.
    horizon : int or None, default=None
        The forecasts of one horizon; None: every forecast (Giacomini-White:
        the record's one horizon).
    lag : int or None, default=None
        As in :func:`forecast_interval`.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: A's expected loss is smaller (A forecasts better).

    Returns
    -------
    LossDifferenceTestResult
        ``estimate`` mean loss(B) - mean loss(A), positive when A forecasts
        better; ``statistic`` the corrected t; ``df`` n - 1; ``details``
        hold ``lag``, ``kernel``, ``hln_factor`` (1 over every horizon
        with Bartlett's window), ``horizon`` and ``n`` (and ``ar1``, the
        pre-whitening coefficient, and ``first_observation``,
        ``"prais-winsten"``; ``small_sample``, ``"hln"`` or ``"hac"``, the
        standard error taken on fewer than :data:`SMALL_SAMPLE_FORECASTS`
        forecasts).

    Notes
    -----
    The loss differential d_t = L(B)_t - L(A)_t of forecasts in time order
    has mean d-bar; Diebold & Mariano (1995, section 1.1, equation 4) refer
    S = d-bar / sqrt(LRV / n), with LRV the long-run variance of d from its
    first h - 1 autocovariances for h-step forecasts (uniform window), to
    the standard normal. Harvey, Leybourne & Newbold (1997, equation 9)
    multiply S by sqrt((n + 1 - 2h + h (h - 1) / n) / n) and refer it to
    Student's t with n - 1 degrees of freedom, which holds the size far
    better in small samples. Over every horizon together, the lag is the
    larger of the largest horizon minus 1 and Newey & West's rule, with
    Bartlett's window, and S is referred to t with n - 1 degrees of freedom
    without the factor (derived for one horizon). At one horizon, where
    the uniform window's variance is not positive, Bartlett's window at
    the same lag replaces it (with a warning) and the factor stays, as R's
    ``forecast::dm.test(varestimator="bartlett")`` keeps it. What the test is about is
    the learner refitted at each origin (its forecasting method), as
    Giacomini & White (2006) define it for rolling windows.

    On fewer than :data:`SMALL_SAMPLE_FORECASTS` (50) forecasts and without
    a ``lag``, ``"prewhitened-diebold-mariano"`` and ``"diebold-mariano"``
    over every horizon take the larger of their standard error and Harvey,
    Leybourne & Newbold's (the uniform window at the forecasts' overlap,
    over every horizon the largest horizon minus 1, and their factor; at
    one step ahead, the paired t's), with a note and
    ``details["small_sample"]``; the statistic is referred to t with n - 1
    degrees of freedom either way. Under an exact null of independent
    one-step forecasts (``benchmarks/forecast_small_n.py``, 4,000
    replications per n) the HAC tests rejected at alpha = 0.05 in 0.093 of
    the replications with 10 forecasts, 0.070 and 0.072 with 20, 0.073 and
    0.069 with 40 (every n up to 40 above 0.06 by the Wilson lower bound,
    none from 50), HLN's at most 0.051; with AR(1) forecast errors HLN's
    rejected more than the pre-whitened test, and the larger of the two
    standard errors held the smaller rate of the two in every cell
    (docs/forward-validation.md, "Few forecasts").

    ``"prewhitened-diebold-mariano"`` takes the long-run variance of the
    differential as :func:`forecast_interval`'s default does (Andrews &
    Monahan 1992, section 2: an AR(1) fitted to the centred differential,
    Bartlett's window on its residuals, not centred again and the first
    one Prais & Winsten's, at Andrews's 1991 automatic lag, recoloured by
    1 / (1 - rho)^2), and refers the same
    S to t with n - 1 degrees of freedom; Bartlett's window at a fixed lag
    underestimates the variance of a persistent differential, which the
    forward calibration measured (docs/calibration.md, "Forward
    validation").

    Giacomini & White (2006, section 3, Theorem 1): with h_t = (1, d_{t-q})
    (q forecasts back: the last differential known at the origin, q =
    ceil(tau / s) for tau-step forecasts from origins s rows apart) and
    Z_t = h_t d_t, T = n Z-bar' Omega^{-1} Z-bar is chi-square with 2
    degrees of freedom under the null E[d_t | h_t] = 0; Omega is the mean
    of Z_t Z_t' plus Bartlett-weighted autocovariances up to lag q - 1.
    For tau = 1 and one origin per step, T is n R^2 of the regression of 1
    on Z_t without a constant (their section 3.1). They require a window of
    fixed size (a sliding window); with an expanding one the test is about
    the forecasts as made, and a warning says so. ``estimate`` and the
    interval of ``confidence_interval`` are the unconditional difference
    with its HAC standard error.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.dummy import DummyRegressor
    >>> from sklearn.linear_model import Ridge
    >>> from cvinference import CVEvaluator
    >>> from cvinference.inference import forecast_test
    >>> from cvinference.splitters import ForwardSplit
    >>> rng = np.random.default_rng(0)
    >>> y = np.zeros(300)
    >>> for t in range(1, 300):
    ...     y[t] = 0.8 * y[t - 1] + rng.normal()
    >>> X = np.r_[0.0, y[:-1]].reshape(-1, 1)
    >>> evaluator = CVEvaluator(cv=ForwardSplit(20, horizon=1, step=1, window=100), loss="squared_error")
    >>> test = forecast_test(evaluator.compare(Ridge(), DummyRegressor(), X, y), horizon=1)
    >>> test.method, test.details["variant"], test.df, bool(test.estimate > 0)
    ('diebold-mariano', 'HLN', 19.0, True)
    """
    pair = _two_records(a, b)
    if method == "giacomini-white":
        return _giacomini_white(pair, horizon, lag, alternative)
    messages = Messages()
    values, largest = _selected(pair.a, pair.b.loss - pair.a.loss, horizon)
    n = values.size
    details = {}
    if method == "prewhitened-diebold-mariano" and lag is not None:
        raise ValueError(f"method='prewhitened-diebold-mariano' chooses its lag (Andrews 1991) on the "
                         f"pre-whitened differential; got lag={lag}. Leave lag=None, or pass "
                         "method='diebold-mariano' with the lag.")
    guard = lag is None and n < SMALL_SAMPLE_FORECASTS and (horizon is None or method != "diebold-mariano")
    if method == "prewhitened-diebold-mariano":
        variance, rho, lag = prewhitened_long_run_variance(values)
        kernel, details = "bartlett", {"ar1": rho, "first_observation": "prais-winsten"}
        factor = 1.0
    else:
        lag, kernel = _lag(pair.a, horizon, n, largest, lag)
        overlap = horizon is not None and kernel == "uniform"
        factor = hln_factor(n, lag + 1) if overlap else 1.0
        variance, kernel = _variance(values, lag, kernel, messages,
                                     f"; Harvey, Leybourne & Newbold's factor {factor:.4g} is kept, as R's "
                                     "forecast::dm.test(varestimator='bartlett') keeps it" if overlap else "")
    estimate = float(values.mean())
    standard_error = math.sqrt(max(variance, 0.0) / n) / factor
    if guard:
        hln = _small_sample_guard(pair.a, values, horizon, largest, standard_error, messages)
        if hln is not None:
            lag, kernel, factor, standard_error = hln
        details["small_sample"] = "hac" if hln is None else "hln"
    df = float(n - 1)
    if standard_error == 0:
        messages.warn(f"The loss differences of the {n} forecasts have no variance (all {values[0]:.4g}); the test "
                      "says only that they are " + ("equal." if estimate == 0 else "all of one sign."))
        statistic = 0.0 if estimate == 0 else math.copysign(math.inf, estimate)
    else:
        statistic = estimate / standard_error
    pvalue = {"two-sided": 2 * stats.t.sf(abs(statistic), df), "greater": stats.t.sf(statistic, df),
              "less": stats.t.cdf(statistic, df)}[alternative]
    variant = "HLN" if factor != 1.0 else None if method == "prewhitened-diebold-mariano" else "HAC"
    return LossDifferenceTestResult(
        statistic=float(statistic), pvalue=float(min(pvalue, 1.0)), df=df, alternative=alternative, estimate=estimate,
        standard_error=standard_error, method=method,
        estimand=_estimand(pair.a, horizon, f"difference in expected {pair.a.loss_name} (B minus A)"),
        assumptions=(f"the loss differential is stationary, its autocovariances negligible beyond lag {lag}; the same "
                     "series, origins and windows for A and B"),
        target="forward", _interval_standard_error=standard_error, _interval_df=df,
        details=types.MappingProxyType({"lag": lag, "kernel": kernel, "hln_factor": factor, "horizon": horizon,
                                        "n": n, **details,
                                        **({} if variant is None else {"variant": variant})}),
        notes=tuple(messages.notes), warnings=tuple(messages.warnings))


def _giacomini_white(pair, horizon, lag, alternative):
    """Giacomini & White's (2006) conditional test of equal predictive ability at one horizon."""
    if alternative != "two-sided":
        raise ValueError(f"method='giacomini-white' is a Wald test of two restrictions, with no direction; got "
                         f"alternative={alternative!r}. Pass alternative='two-sided', or method='diebold-mariano' "
                         "for a one-sided test.")
    if horizon is None:
        if pair.a.horizons.size != 1:
            raise ValueError(f"method='giacomini-white' tests the forecasts of one horizon (its test function is "
                             f"the last loss differential known at the origin); pass horizon= one of "
                             f"{pair.a.horizons.tolist()}.")
        horizon = int(pair.a.horizons[0])
    messages = Messages()
    values, _ = _selected(pair.a, pair.b.loss - pair.a.loss, horizon)
    overlap = _overlap_lag(pair.a, horizon)
    back = overlap + 1
    lag = overlap if lag is None else lag
    if values.size - back < 5:
        raise ValueError(f"method='giacomini-white' at horizon={horizon} has {values.size - back} forecasts with a "
                         "known earlier differential; it needs at least 5. Make more origins (n_splits).")
    if pair.a.window != "sliding":
        messages.warn("Giacomini & White's test assumes models refitted on a window of fixed size (a sliding window, "
                      "ForwardSplit(window=...)); with this record's expanding window the estimation error shrinks "
                      "over the origins, and the test is about the forecasts as made.")
    moments = np.column_stack([np.ones(values.size - back), values[:-back]]) * values[back:, np.newaxis]
    n = moments.shape[0]
    omega = moments.T @ moments / n
    for k in range(1, lag + 1):
        cross = moments[k:].T @ moments[:-k] / n
        omega += (1 - k / (lag + 1)) * (cross + cross.T)
    mean = moments.mean(axis=0)
    statistic = float(n * mean @ np.linalg.solve(omega, mean))
    estimate = float(values.mean())
    standard_error = math.sqrt(max(long_run_variance(values, lag, "bartlett"), 0.0) / values.size)
    return LossDifferenceTestResult(
        statistic=statistic, pvalue=float(stats.chi2.sf(statistic, 2)), df=2.0, alternative=alternative,
        estimate=estimate, standard_error=standard_error, method="giacomini-white",
        estimand=_estimand(pair.a, horizon, f"difference in expected {pair.a.loss_name} (B minus A), given the "
                                            "last loss differential known at the origin,"),
        assumptions=(f"the loss differential is a mixing series, its products with the test functions uncorrelated "
                     f"beyond lag {lag}; models refitted on a window of fixed size; the same series, origins and "
                     "windows for A and B"),
        target="forward", _interval_standard_error=standard_error, _interval_df=None,
        details=types.MappingProxyType({"lag": lag, "instrument_lag": back, "horizon": horizon, "n": n}),
        notes=tuple(messages.notes), warnings=tuple(messages.warnings))
