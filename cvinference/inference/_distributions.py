"""Reference distributions of the tests: quantiles and p-values of z and t statistics."""

import math

from scipy import stats

ALTERNATIVES = ("two-sided", "less", "greater")


def _reference(df):
    """The standard normal for ``df=None``, Student's t with ``df`` otherwise, with its shape arguments.

    The distribution is not frozen: freezing one costs more than evaluating it.
    """
    return (stats.norm, ()) if df is None else (stats.t, (df,))


def reference_quantile(q, df):
    """The ``q`` quantile of the standard normal (``df=None``) or of Student's t with ``df``."""
    distribution, shape = _reference(df)
    return float(distribution.ppf(q, *shape))


def pvalue_of(statistic, df, alternative):
    """P-value of a z (``df=None``) or t statistic under ``alternative``."""
    distribution, shape = _reference(df)
    if math.isnan(statistic):
        return math.nan
    if alternative == "greater":
        return float(distribution.sf(statistic, *shape))
    if alternative == "less":
        return float(distribution.cdf(statistic, *shape))
    return float(min(1.0, 2 * distribution.sf(abs(statistic), *shape)))


def statistic_and_pvalue(estimate, standard_error, df, alternative, messages):
    """Statistic and p-value of estimate / standard_error; degenerate cases warned about."""
    if standard_error > 0:
        statistic = estimate / standard_error
        return statistic, pvalue_of(statistic, df, alternative)
    if estimate == 0:
        messages.warn("A and B do not differ at all in the data this test uses: the statistic is 0 and "
                      "p = 1, for every alternative.")
        return 0.0, 1.0
    messages.warn(
        f"The differences between A and B have no spread (all equal to {estimate:+.4g}), so the "
        "statistic is infinite and the p-value is undefined (nan); a test on the instances, such as "
        "mcnemar_test, can judge such data."
    )
    return math.copysign(math.inf, estimate), math.nan
