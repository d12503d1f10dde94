"""Cochran's Q: do k models on the same rows have one accuracy? And its form for rows that come in groups."""

from typing import NamedTuple

import numpy as np
from scipy import stats


class Omnibus(NamedTuple):
    """A chi-square test of k equal accuracies: its statistic, degrees of freedom, p-value and method."""

    statistic: float
    df: int
    pvalue: float
    method: str


def cochrans_q(correct, groups=None):
    """Cochran's Q test that k models on the same n rows are right equally often; with ``groups``, its Wald form
    with the groups as the independent units.

    Parameters
    ----------
    correct : array-like of bool, shape (n_rows, k)
        Whether model j was right on row i.
    groups : array-like of shape (n_rows,) or None, default=None
        The group of each row (a passage of several questions); None: rows
        independent.

    Returns
    -------
    Omnibus
        ``method`` is ``"cochran-q"`` or ``"clustered-wald"``; the p-value
        is the chi-square's with ``df`` = k - 1 (the rank of the estimated
        covariance of the k - 1 differences, for the clustered form). Where
        no row tells the models apart, the statistic is 0 and the p-value 1.

    Notes
    -----
    Cochran (1950), "The comparison of percentages in matched samples",
    Biometrika 37, 256-266: with C_j the rows model j got right, R_i the
    models right on row i and N the total,

        Q = (k - 1) (k sum_j C_j^2 - N^2) / (k N - sum_i R_i^2),

    approximately chi-square with k - 1 degrees of freedom when no model
    differs; for k = 2 it is McNemar's statistic without continuity
    correction, (b - c)^2 / (b + c). Rows of one group are not independent
    (several questions about one passage): then the covariance of the k - 1
    differences d = (p_1 - p_k, ..., p_{k-1} - p_k) is taken over the G
    groups, under the null as Obuchowski (1998) takes it for two: with
    t_g = C s_g the group's differences in right answers (s_g per model, C
    the contrasts), V_0 = G / (G - 1) sum_g t_g t_g^T / N^2, the
    cluster-robust (CR1) covariance of Liang & Zeger (1986) at d = 0, and
    the Wald statistic d^T V_0^+ d. For k = 2 it is Obuchowski's clustered
    McNemar statistic (``mcnemar_test(a, b, method="mcnemar-obuchowski")``).

    Examples
    --------
    >>> import numpy as np
    >>> correct = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 1, 0], [1, 1, 0], [1, 0, 0]], dtype=bool)
    >>> result = cochrans_q(correct)
    >>> round(result.statistic, 4), result.df, round(result.pvalue, 4)
    (5.2, 2, 0.0743)
    """
    correct = np.asarray(correct, dtype=np.float64)
    n, k = correct.shape
    if groups is None:
        columns, rows = correct.sum(axis=0), correct.sum(axis=1)
        total = columns.sum()
        denominator = k * total - np.sum(rows ** 2)
        if denominator <= 0:
            return Omnibus(0.0, k - 1, 1.0, "cochran-q")
        statistic = (k - 1) * (k * np.sum(columns ** 2) - total ** 2) / denominator
        return Omnibus(float(statistic), k - 1, float(stats.chi2.sf(statistic, k - 1)), "cochran-q")
    _, codes = np.unique(np.asarray(groups), return_inverse=True)
    codes = codes.reshape(-1)
    n_groups = int(codes.max()) + 1
    if n_groups < 2:
        raise ValueError(f"groups holds {n_groups} group: the clustered test takes the groups as the independent units "
                         "and needs at least 2 (many more for its chi-square to hold); pass the rows' groups, or "
                         "groups=None for independent rows.")
    sums = np.zeros((n_groups, k))
    np.add.at(sums, codes, correct)
    contrast = np.hstack([np.eye(k - 1), -np.ones((k - 1, 1))])
    differences = contrast @ correct.mean(axis=0)
    group_differences = sums @ contrast.T  # under the null each has mean 0
    variance = n_groups / (n_groups - 1) * group_differences.T @ group_differences / n ** 2
    df = int(np.linalg.matrix_rank(variance, tol=1e-12 * max(1.0, float(np.abs(variance).max(initial=0.0)))))
    if df == 0:
        return Omnibus(0.0, k - 1, 1.0, "clustered-wald")
    statistic = float(differences @ np.linalg.pinv(variance, rcond=1e-12) @ differences)
    return Omnibus(statistic, df, float(stats.chi2.sf(statistic, df)), "clustered-wald")
