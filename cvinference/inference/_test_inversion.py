"""The interval of a test that estimates its variance under the null hypothesis: the differences it does not reject.

A score-type test of difference = d0 divides theta_hat - d0 by the square root of a
variance estimated under that hypothesis, V(d0). When V(d0) = c0 + c1 d0 + c2 d0^2
(the clustered McNemar statistics of :mod:`._clustered`), the set of d0 that the test
does not reject is bounded by the roots of a quadratic, and it contains 0 exactly when
the test at d0 = 0, the reported p-value, does not reject: the interval and the test
agree by construction (Casella & Berger 2002, Statistical Inference, section 9.2.1,
"Inverting a test statistic"; Wilson's 1927 interval is the one-proportion case).
"""

import itertools
import math
from typing import NamedTuple

from .._utils._text import format_number
from ._distributions import reference_quantile

INVERTED = "null_variance_coefficients"
"""The ``details`` key of a test whose interval inverts it: (c0, c1, c2), its variance under difference = d0 being
c0 + c1 d0 + c2 d0^2 (c0 the one of its p-value)."""


class InvertedSet(NamedTuple):
    """The reported interval and the set of not-rejected differences (a tuple of closed pieces) it comes from."""

    low: float
    high: float
    pieces: tuple


def far_differences_warning(coefficients, critical):
    """The words for a test that cannot reject a difference far from its estimate, or None when it can.

    Far from the estimate z(d0)^2 tends to 1 / c2, so when ``critical``^2 c2 >= 1
    the set of kept differences is unbounded: for Obuchowski's statistic, 1 / c2 =
    (K - 1) / K * N^2 / sum_k n_k^2 is the number of groups in effect, small when one
    group holds much of the instances.
    """
    c2 = coefficients[2]
    if c2 <= 0 or critical * critical * c2 < 1:
        return None
    return (f"The groups count as {format_number(1 / c2)} in effect (few groups, or one holding much of the "
            "instances), "
            f"fewer than the {format_number(critical * critical)} this test needs to reject a difference far "
            "from its estimate: its interval, the differences it does not reject, reaches a bound of the "
            "difference's range.")


def inverted_set_warning(pieces, low, high):
    """The words for a set of kept differences that is not one interval."""
    shown = " and ".join(f"[{format_number(s)}, {format_number(e)}]" for s, e in pieces)
    return (f"The differences that the test does not reject are not one interval but {shown}; the interval "
            f"reported, [{format_number(low)}, {format_number(high)}], holds 0 exactly when the test does not "
            "reject 0.")


def _rejects(d0, estimate, coefficients, critical, alternative):
    """Whether the test of difference = ``d0`` rejects: z(d0) = (estimate - d0) / sqrt(V(d0)) beyond ``critical``."""
    c0, c1, c2 = coefficients
    gap = estimate - d0
    if (alternative == "greater" and gap <= 0) or (alternative == "less" and gap >= 0):
        return False
    variance = max(c0 + c1 * d0 + c2 * d0 * d0, 0.0)
    return gap * gap > critical * critical * variance


def _roots(estimate, coefficients, critical):
    """The real roots of (estimate - d0)^2 - critical^2 V(d0) = 0, where the statistic crosses the critical value."""
    c0, c1, c2 = coefficients
    q = critical * critical
    a, b, c = 1.0 - q * c2, -(2.0 * estimate + q * c1), estimate * estimate - q * c0
    if a == 0:
        return [] if b == 0 else [-c / b]
    discriminant = b * b - 4 * a * c
    if discriminant < 0:
        return []
    root = math.sqrt(discriminant)
    return sorted(((-b - root) / (2 * a), (-b + root) / (2 * a)))


def not_rejected(estimate, coefficients, confidence_level, alternative, bounds, rejects_zero):
    """The interval of the differences in ``bounds`` that the test at level 1 - ``confidence_level`` keeps.

    ``coefficients``: (c0, c1, c2) of V(d0). ``rejects_zero``: whether the test's
    own p-value is below 1 - ``confidence_level`` (so that the interval agrees
    with it exactly, also at the rounding edge). The set is a union of closed
    pieces; when 0 is kept the interval is their hull (which holds 0), and when 0
    is rejected it is the piece that holds the estimate (which does not): the
    set is not one interval only when one group holds most of the instances
    (then a hypothesis far from the estimate is tested with that group's
    residual alone).

    Examples
    --------
    Twenty groups of one instance each with d_k = +1 (A right, B wrong) in
    eight and -1 in two: the estimate is 0.3, V(d0) = 20/19 * sum_k (d_k -
    d0)^2 / 400, and the test of 0 has X^2 = 19/20 * 36/10 = 3.42, p = 0.064.

    >>> factor = 20 / 19 / 400
    >>> coefficients = (factor * 10, -2 * factor * 6, factor * 20)
    >>> kept = not_rejected(0.3, coefficients, 0.95, "two-sided", (-1.0, 1.0), rejects_zero=False)
    >>> round(kept.low, 4), round(kept.high, 4), len(kept.pieces)
    (-0.0223, 0.6223, 1)
    """
    one_sided = alternative != "two-sided"
    critical = reference_quantile(confidence_level if one_sided else (1 + confidence_level) / 2, None)
    lowest, highest = bounds
    cuts = sorted({lowest, highest, *(x for x in (*_roots(estimate, coefficients, critical), estimate)
                                      if lowest < x < highest)})
    kept = []
    for start, end in itertools.pairwise(cuts):
        if _rejects((start + end) / 2, estimate, coefficients, critical, alternative):
            continue
        if kept and kept[-1][1] == start:
            kept[-1] = (kept[-1][0], end)
        else:
            kept.append((start, end))
    if not kept:  # every difference in bounds rejected but the estimate itself: a zero-width set
        kept = [(estimate, estimate)]
    pieces = tuple(kept)
    if not rejects_zero:
        low, high = min(pieces[0][0], 0.0), max(pieces[-1][1], 0.0)
    else:
        low, high = next(((s, e) for s, e in pieces if s <= estimate <= e), pieces[0])
        if low <= 0.0 <= high:  # the rounding edge: the statistic at 0 is the critical value to the last digit
            low, high = (low, math.nextafter(0.0, -1.0)) if estimate < 0 else (math.nextafter(0.0, 1.0), high)
    return InvertedSet(float(low), float(high), pieces)
