"""What "no difference shown" can and cannot rule out: the minimum detectable difference of a decision's test.

A test that does not reject says nothing about differences it had little
chance to see. The decision states, beside its answer, the smallest
difference its test would have detected with power 0.8 at the variance it
observed (Bloom 1995's *minimum detectable effect*), in the metric's units.
"""

import math

from .._utils._params import PROBABILITY, validate_params
from ..inference._distributions import reference_quantile

POWER = 0.8
"""The power at which a :class:`~cvinference.results.Decision` states its minimum detectable difference."""


@validate_params(confidence_level=PROBABILITY, power=PROBABILITY)
def minimum_detectable_difference(test, *, confidence_level=0.95, power=POWER):
    """The smallest difference a two-sided test would detect with probability ``power``, at its observed variance.

    The minimum detectable difference (MDD) of the test's interval: its
    standard error, read back from the interval's width, times the sum of
    the reference distribution's quantiles at 1 - alpha/2 and at ``power``.
    A decision of "no difference shown" rules out differences of this size
    or more (at that power), and nothing smaller: it is not a sign that
    the learners are equal.

    Parameters
    ----------
    test : DecisionTest
        A test of a :class:`~cvinference.results.Decision` (its ``rests_on``
        or a test for context): its two-sided interval ``low``, ``high`` at
        ``confidence_level``, and its ``df`` (None: the normal reference).
    confidence_level : float, default=0.95
        The level of the test's interval, 1 - alpha; the decision's own.
    power : float, default=0.8
        The probability of detecting a true difference of the returned size.

    Returns
    -------
    float
        The MDD, at least 0, in the metric's units (a difference of
        accuracies, of mean losses, ...); nan when the interval has no
        finite width.

    See Also
    --------
    decide : the decision, whose ``minimum_detectable_difference`` this is
        for the test it rests on (power 0.8).

    Notes
    -----
    With q the reference quantile (standard normal, or Student's t with the
    test's ``df``), the two-sided interval is ``estimate -/+ q_{1-alpha/2}
    se``, so ``se = (high - low) / (2 q_{1-alpha/2})``. If the true
    difference is delta > 0, the estimate is about normal (or t) around
    delta with standard error se, and the test rejects when ``estimate / se
    > q_{1-alpha/2}`` (or below ``-q_{1-alpha/2}``); ignoring the far tail,
    whose probability is at most alpha/2 and negligible at any useful
    power, the power is ``P(Z > q_{1-alpha/2} - delta / se)``. It equals
    ``power`` at

        MDD = (q_{1-alpha/2} + q_{power}) se,

    2.80 se at alpha = 0.05 and power 0.8 with the normal reference: the
    *minimum detectable effect* of Bloom (1995, "Minimum detectable
    effects: a simple way to report the statistical power of experimental
    designs", Evaluation Review 19(5), 547-556), a multiple of the
    standard error (2.8 for a two-tailed test at 0.05 with power 0.8, with
    t quantiles for a t test), and the normal sample-size formula of the
    tests of means, n = (z_{1-alpha/2} + z_{power})^2 sigma^2 / delta^2
    (Chow, Shao & Wang 2008, *Sample Size Calculations in Clinical
    Research*, 2nd ed., chapter 3), solved for delta. With a t reference
    the central t quantile stands in for the noncentral t, as in Bloom's
    multipliers. The standard error is the observed one: the MDD is about
    the test as it ran on these data (its variance, its folds), not a
    power analysis planned in advance; it is the threshold of a two-sided
    test in either direction.

    The width is read from ``high - low``, the whole interval, which is
    right for every interval of the tests a decision weighs (centered on
    a point, of half-width q se): McNemar's Agresti-Min interval is
    centered on its adjusted difference, not on the estimate, and has the
    same width. An interval clipped at the possible range of the metric (a
    difference of accuracies near +1 or -1) is narrower than its q se, and
    its MDD too small; such a difference is far from "no difference".

    Examples
    --------
    >>> from cvinference.policy import minimum_detectable_difference
    >>> from cvinference.results import DecisionTest
    >>> test = DecisionTest(name="corrected t (10x10-fold)", estimate=0.02, low=-0.0196, high=0.0596,
    ...                     pvalue=0.32, target="unconditional", measured_type_i=0.05, measured_power=0.6,
    ...                     regime="", role="rests on", why_not="", df=None)
    >>> round(minimum_detectable_difference(test), 4)  # se = 0.0792 / 3.92 = 0.0202; 2.80 se
    0.0566
    >>> round(minimum_detectable_difference(test, power=0.9), 4)  # (1.96 + 1.28) se
    0.0655
    """
    low, high, df = float(test.low), float(test.high), getattr(test, "df", None)
    if not (math.isfinite(low) and math.isfinite(high)):
        return math.nan
    critical = reference_quantile(1 - (1 - confidence_level) / 2, df)
    return float((critical + reference_quantile(power, df)) * interval_standard_error(low, high, confidence_level, df))


def interval_standard_error(low, high, confidence_level, df):
    """The standard error of a symmetric two-sided t (``df``) or normal (``df`` None) interval at
    ``confidence_level``: its width over twice the reference quantile at 1 - alpha/2."""
    return (high - low) / (2 * reference_quantile(1 - (1 - confidence_level) / 2, df))
