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
