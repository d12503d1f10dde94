"""Adjusted p-values for a family of tests: Holm's step-down and Bonferroni."""

import numpy as np

from .._utils._params import Options

CORRECTION = Options("holm", "bonferroni", "none")
"""``correction``: how the p-values of a family of comparisons are adjusted."""


def adjust_pvalues(pvalues, correction):
    """The p-values adjusted for multiplicity; nan entries (no test) are left out of the family and stay nan.

    Parameters
    ----------
    pvalues : array-like of float, shape (m,)
    correction : {"holm", "bonferroni", "none"}

    Returns
    -------
    ndarray of float, shape (m,)

    Notes
    -----
    Bonferroni: min(1, m p_i). Holm (1979), "A simple sequentially
    rejective multiple test procedure", Scand. J. Statist. 6: with the m
    p-values sorted, p_(1) <= ... <= p_(m), the adjusted p_(i) is
    max over j <= i of min(1, (m - j + 1) p_(j)); rejecting where it is at
    most alpha controls the family-wise error at alpha under any dependence.

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03, float("nan")], "holm")
    array([0.03, 0.06, 0.06,  nan])
    """
    pvalues = np.asarray(pvalues, dtype=np.float64)
    adjusted = np.full(pvalues.shape, np.nan)
    tested = np.flatnonzero(~np.isnan(pvalues))
    m = tested.size
    if m == 0:
        return adjusted
    p = pvalues[tested]
    if correction == "none":
        adjusted[tested] = p
    elif correction == "bonferroni":
        adjusted[tested] = np.minimum(1.0, m * p)
    else:
        order = np.argsort(p, kind="stable")
        stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
        adjusted[tested[order]] = np.maximum.accumulate(stepped)
    return adjusted
