"""The long-run variance of a serially dependent series (HAC), and the lag and block-length rules that go with it."""

import math

import numpy as np

KERNELS = ("bartlett", "uniform")
"""The lag windows of :func:`long_run_variance`."""


def newey_west_lag(n):
    """Newey & West's (1994) rule of thumb for the Bartlett window's lag: floor(4 (n / 100)^(2/9)).

    Examples
    --------
    >>> newey_west_lag(100), newey_west_lag(500), newey_west_lag(20)
    (4, 5, 2)
    """
    return math.floor(4 * (n / 100) ** (2 / 9))


def autocovariances(values, lag, *, demean=True):
    """gamma_0, ..., gamma_lag of ``values``: gamma_k = (1/n) sum_{t=k}^{n-1} (x_t - mean)(x_{t-k} - mean), or of the
    values as they are (``demean=False``: residuals whose mean is zero in theory, as a pre-whitening's)."""
    values = np.asarray(values, dtype=np.float64)
    centred = values - np.mean(values) if demean else values
    n = centred.size
    return np.array([centred[k:] @ centred[:n - k] / n for k in range(lag + 1)])


def long_run_variance(values, lag, kernel="bartlett", *, demean=True):
    """The long-run variance of a stationary series: gamma_0 + 2 sum_{k=1}^{lag} w_k gamma_k.

    ``n`` times the variance of the series' mean, as n grows, estimated
    from the first ``lag`` autocovariances (:func:`autocovariances`, with
    divisor n) weighted by the lag window: Bartlett's w_k = 1 - k/(lag + 1)
    (Newey & West 1987, always non-negative) or the uniform w_k = 1
    (Diebold & Mariano 1995, section 1.1, with lag h - 1 for h-step
    forecasts; it can be negative).

    Parameters
    ----------
    values : array-like of shape (n,)
        The series, in time order.
    lag : int
        The last autocovariance used, 0 <= lag < n.
    kernel : {"bartlett", "uniform"}, default="bartlett"
    demean : bool, default=True
        Centre the series on its mean first; False for a series whose mean
        is zero by construction (the residuals of a pre-whitening,
        :func:`prewhitened_long_run_variance`).

    Returns
    -------
    float

    Notes
    -----
    Equals ``n`` times the squared standard error of the constant of
    ``statsmodels.api.OLS(values, ones).fit(cov_type="HAC", cov_kwds={"maxlags": lag, "kernel": kernel,
    "use_correction": False})``.

    Examples
    --------
    >>> bool(long_run_variance([1.0, 2.0, 3.0, 2.0, 1.0], 0) == np.var([1.0, 2.0, 3.0, 2.0, 1.0]))
    True
    >>> round(long_run_variance([1.0, 2.0, 3.0, 2.0, 1.0], 1), 4)  # 0.56 + 2 (1/2) 0.032
    0.592
    """
    gamma = autocovariances(values, lag, demean=demean)
    k = np.arange(1, lag + 1)
    weights = 1 - k / (lag + 1) if kernel == "bartlett" else np.ones(lag)
    return float(gamma[0] + 2 * weights @ gamma[1:])


def block_length_rule(n, largest_horizon):
    """The moving-block bootstrap's block length: the larger of ceil(n^(1/3)) (the rate that minimises the error of
    a block bootstrap variance, Hall, Horowitz & Jing 1995) and the largest horizon (so that a block holds the
    overlap of one origin's forecasts), at most n.

    Examples
    --------
    >>> block_length_rule(125, 1), block_length_rule(125, 12), block_length_rule(8, 20)
    (5, 12, 8)
    """
    return min(max(math.ceil(n ** (1 / 3) - 1e-9), largest_horizon), n)


def hln_factor(n, horizon):
    """Harvey, Leybourne & Newbold's (1997, equation 9) small-sample factor of the Diebold-Mariano statistic:
    sqrt((n + 1 - 2h + h (h - 1) / n) / n), for n forecasts h steps ahead.

    Examples
    --------
    >>> round(hln_factor(100, 1) ** 2, 4)  # (n - 1) / n for one step ahead
    0.99
    >>> round(hln_factor(20, 4), 6)  # sqrt(13.6 / 20)
    0.824621
    """
    return math.sqrt((n + 1 - 2 * horizon + horizon * (horizon - 1) / n) / n)


FIRST_OBSERVATIONS = ("prais-winsten", "drop")
"""What :func:`prewhitened_long_run_variance` makes of the first observation, which has no predecessor."""


def ar1_coefficient(centred):
    """The Yule-Walker AR(1) coefficient of a centred series, the first autocorrelation
    sum_{t>=1} c_t c_(t-1) / sum_t c_t^2 (0 for a constant series), clipped to [-0.97, 0.97] as Andrews & Monahan
    (1992, section 2) adjust a VAR whose recolouring (1 - rho)^-1 would explode.

    Least squares would divide by sum_{t<n-1} c_t^2, which leaves out the last observation: one large last value
    then enters the numerator alone and can throw rho anywhere in [-0.97, 0.97] (a variance 0.5 to 35 times the one
    the same value gets in the middle of the series); the Yule-Walker denominator holds every observation, so that
    |rho| <= 1 and both ends of the series count alike. The two differ by a factor 1 - c_(n-1)^2 / sum c_t^2, of
    order 1/n otherwise (Brockwell & Davis 1991, section 8.1, equations 8.1.3 and 8.1.4: the Yule-Walker
    estimator).

    Examples
    --------
    >>> round(ar1_coefficient(np.array([-2.0, -1.0, 0.0, 1.0, 2.0])), 4)  # (2 + 0 + 0 + 2) / 10
    0.4
    """
    denominator = centred @ centred
    return 0.0 if denominator == 0 else float(np.clip(centred[1:] @ centred[:-1] / denominator, -0.97, 0.97))


def andrews_lag(values):
    """Andrews' (1991, section 6, equations 6.2 and 6.4) automatic lag of the Bartlett window, from an AR(1) fitted
    to the series: S = 1.1447 (alpha(1) n)^(1/3) with alpha(1) = 4 rho^2 / ((1 - rho)^2 (1 + rho)^2), and the lag
    the last one S weights (ceil(S) - 1), at most n - 1; rho is clipped to [-0.97, 0.97].

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> andrews_lag(rng.standard_normal(250)) <= 3
    True
    """
    centred = np.asarray(values, dtype=np.float64) - np.mean(values)
    rho = ar1_coefficient(centred)
    alpha = 4 * rho**2 / ((1 - rho) ** 2 * (1 + rho) ** 2)
    bandwidth = 1.1447 * (alpha * centred.size) ** (1 / 3)
    return int(min(max(math.ceil(bandwidth) - 1, 0), centred.size - 1))


def prewhitened_long_run_variance(values, *, first_observation="prais-winsten"):
    """Andrews & Monahan's (1992) pre-whitened long-run variance, with every observation's residual.

    Fit an AR(1) to the centred series c_t (rho, Yule-Walker's:
    :func:`ar1_coefficient`), take Bartlett's long-run variance of its
    residuals e_t = c_t - rho c_(t-1), not re-centred, at Andrews's (1991)
    automatic lag (:func:`andrews_lag`), and recolour it by 1 / (1 - rho)^2.

    Parameters
    ----------
    values : array-like of shape (n,)
        The series, in time order, n >= 3.
    first_observation : {"prais-winsten", "drop"}, default="prais-winsten"
        c_0 has no predecessor. ``"prais-winsten"``: its residual is
        e_0 = sqrt(1 - rho^2) c_0 (Prais & Winsten 1954), which has the
        innovations' variance under a stationary AR(1), so that the n
        residuals see every observation. ``"drop"``: no residual for it,
        the n - 1 others' sums divided by n, as R's
        ``sandwich::vcovHAC(..., prewhite=1, ar.method="yule-walker")``
        does: a large first loss then enters only rho, and the variance
        misses it.

    Returns
    -------
    (float, float, int)
        The long-run variance, rho and the residuals' lag.

    Notes
    -----
    Andrews & Monahan (1992, section 2) whiten the estimating functions
    V_t (here c_t, the mean's) by a VAR (fitted by least squares there;
    Yule-Walker's here, :func:`ar1_coefficient` says why), apply
    the kernel estimator to the VAR's residuals V*_t, whose mean is zero
    in theory (they are not centred again: the kernel estimator of the
    residuals uses sums of V*_t V*_(t-j) as they are), and recolour by
    (I - A)^(-1) on both sides; for one series that is 1 / (1 - rho)^2.
    The VAR's residuals start at the second observation; the first one's
    residual e_0 = sqrt(1 - rho^2) c_0 is Prais & Winsten's (1954)
    transformation of the first observation of an AR(1), which leaves the
    estimator's limit unchanged (one term of n) and keeps a large first
    loss in it: with ``"drop"`` one loss of 150 first among 120 losses
    near 1 leaves a small fraction of the variance it has at any later
    position (tests/inference/test_hac.py).
    rho and the residuals' AR(1) in the lag rule are clipped to
    [-0.97, 0.97].

    Examples
    --------
    >>> variance, rho, lag = prewhitened_long_run_variance([1.0, 3.0, 4.0, 3.0, 1.0, 0.0, 1.0, 3.0])
    >>> round(rho, 4)  # sum c_t c_(t-1) / sum c_t^2 = 5 / 14 of the centred series
    0.3571
    """
    if first_observation not in FIRST_OBSERVATIONS:
        raise ValueError(f"first_observation={first_observation!r} is not one of {FIRST_OBSERVATIONS}; pass "
                         "'prais-winsten' (the default) or 'drop'.")
    centred = np.asarray(values, dtype=np.float64) - np.mean(values)
    rho = ar1_coefficient(centred)
    residuals = centred[1:] - rho * centred[:-1]
    if first_observation == "prais-winsten":
        residuals = np.r_[math.sqrt(1 - rho**2) * centred[0], residuals]
    lag = andrews_lag(residuals)
    variance = long_run_variance(residuals, lag, "bartlett", demean=False) * residuals.size / centred.size
    return variance / (1 - rho) ** 2, rho, lag
