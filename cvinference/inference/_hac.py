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


def autocovariances(values, lag):
    """gamma_0, ..., gamma_lag of ``values``: gamma_k = (1/n) sum_{t=k}^{n-1} (x_t - mean)(x_{t-k} - mean)."""
    centred = np.asarray(values, dtype=np.float64) - np.mean(values)
    n = centred.size
    return np.array([centred[k:] @ centred[:n - k] / n for k in range(lag + 1)])


def long_run_variance(values, lag, kernel="bartlett"):
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
    gamma = autocovariances(values, lag)
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
    denominator = centred[:-1] @ centred[:-1]
    rho = 0.0 if denominator == 0 else float(np.clip(centred[1:] @ centred[:-1] / denominator, -0.97, 0.97))
    alpha = 4 * rho**2 / ((1 - rho) ** 2 * (1 + rho) ** 2)
    bandwidth = 1.1447 * (alpha * centred.size) ** (1 / 3)
    return int(min(max(math.ceil(bandwidth) - 1, 0), centred.size - 1))


def prewhitened_long_run_variance(values):
    """Andrews & Monahan's (1992) pre-whitened long-run variance: fit an AR(1) to the centred series, take
    Bartlett's long-run variance of its residuals at Andrews's (1991) automatic lag (:func:`andrews_lag`), and
    recolour it by 1 / (1 - rho)^2. rho is clipped to [-0.97, 0.97].

    Returns
    -------
    (float, float, int)
        The long-run variance, rho and the residuals' lag.

    Examples
    --------
    >>> variance, rho, lag = prewhitened_long_run_variance([1.0, 3.0, 4.0, 3.0, 1.0, 0.0, 1.0, 3.0])
    >>> round(rho, 4)  # sum c_t c_(t-1) / sum c_(t-1)^2 = 5 / 13 of the centred series
    0.3846
    """
    centred = np.asarray(values, dtype=np.float64) - np.mean(values)
    denominator = centred[:-1] @ centred[:-1]
    rho = 0.0 if denominator == 0 else float(np.clip(centred[1:] @ centred[:-1] / denominator, -0.97, 0.97))
    residuals = centred[1:] - rho * centred[:-1]
    lag = andrews_lag(residuals)
    return long_run_variance(residuals, lag, "bartlett") / (1 - rho) ** 2, rho, lag
