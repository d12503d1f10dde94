"""Non-inferiority and equivalence from the test a decision rests on (issue 49, the arithmetic): its difference and
interval, re-levelled, against a margin in the metric's units.

The difference is the decision's, positive when A is better (metric(A) - metric(B), or for a loss metric(B) -
metric(A)), so one rule serves both: A is non-inferior to B by ``margin`` when the difference is above -margin
(for a loss, A's loss at most ``margin`` above B's), and the two are equivalent within ``margin`` when it lies
between -margin and +margin. A one-sided test at level alpha is the bound of the two-sided interval at 1 - 2 alpha
(Schuirmann 1987: two one-sided tests, TOST, for equivalence).
"""

import math
import numbers
from typing import NamedTuple

from scipy import stats

from ..inference._metric_names import value_range

MARGIN_ALTERNATIVES = ("non-inferior", "equivalent")
"""The questions a margin answers: "A is not worse than B by more than margin", "A and B are within +-margin"."""


MARGIN_ANSWERS = {"non-inferior": {True: "A non-inferior", False: "not shown non-inferior"},
                  "equivalent": {True: "equivalent", False: "not shown equivalent"}}
"""The answers of each question, by whether the margin's test rejects."""


def _metric_words(metric, regression):
    """How a message names ``metric``: its name, "the learners' loss" for a regressor's default."""
    if metric == "accuracy" and regression:
        return "the learners' loss"
    return repr(metric) if isinstance(metric, str) else repr(getattr(metric, "name", None) or "the callable metric")


def check_margin(value, metric, *, regression, name="margin"):
    """Refuse a ``margin`` (or a planned ``difference``, named by ``name``) that no difference of ``metric`` can
    reach, before any fit: the difference of two values of a metric whose range is [lo, hi] lies within
    (-(hi - lo), hi - lo), so a margin must be below hi - lo (below 1 for accuracy, balanced accuracy, ROC AUC,
    F1...); a metric without a known range (a loss, R²) takes any positive, finite margin.

    Examples
    --------
    >>> check_margin(0.02, "accuracy", regression=False)
    >>> check_margin(50, "accuracy", regression=False)
    Traceback (most recent call last):
    ...
    ValueError: margin=50 is beyond any difference in 'accuracy': its values lie in [0, 1], so two learners \
differ by less than 1. Pass margin in its units, below 1, such as margin=0.01 for one point (margin=0.5 for 50 \
points).
    """
    if value is None:
        return
    if isinstance(value, bool) or not (isinstance(value, numbers.Real) and math.isfinite(value) and value > 0):
        raise ValueError(f"{name}={value!r} must be a positive, finite number in the metric's units (0.01 for one "
                         "point of accuracy).")
    bounds = value_range(metric, regression)
    if bounds is None or None in bounds:
        return
    low, high = bounds
    span = high - low
    if value < span:
        return
    example = f"{name}=0.01 for one point" + (f" ({name}={value / 100:g} for {value:g} points)" if 1 < value <= 100
                                              else "") if span == 1 else f"{name}={span / 100:g}"
    raise ValueError(f"{name}={value:g} is beyond any difference in {_metric_words(metric, regression)}: its values "
                     f"lie in [{low:g}, {high:g}], so two learners differ by less than {span:g}. Pass {name} in its "
                     f"units, below {span:g}, such as {example}.")


class MarginAnswer(NamedTuple):
    """The answer about a margin: ``answer`` in words, the (1 - 2 alpha) interval (``low``, ``high``) that gives it
    and the p-value of its one-sided test (for equivalence, the larger of the two)."""

    answer: str
    low: float
    high: float
    pvalue: float


def _distribution(df):
    return stats.norm() if df is None else stats.t(df)


def symmetric(estimate, low, high):
    """Whether [low, high] is symmetric about ``estimate`` (a t or normal interval, whose level can be changed)."""
    return math.isclose(high - estimate, estimate - low, rel_tol=1e-9,
                        abs_tol=1e-12 * max(1.0, abs(high - low) / 2))


def relevelled(estimate, low, high, df, confidence_level, new_level):
    """The interval at ``new_level`` of an estimate whose symmetric t (``df``) or normal (``df`` None) interval at
    ``confidence_level`` is [low, high], and its standard error: (low, high, standard error).

    Examples
    --------
    >>> low, high, se = relevelled(0.0, -1.959963984540054, 1.959963984540054, None, 0.95, 0.90)
    >>> round(se, 12), round(high, 6)
    (1.0, 1.644854)
    """
    half = (high - low) / 2
    if not symmetric(estimate, low, high):
        raise ValueError(f"the interval [{low:.6g}, {high:.6g}] is not symmetric about {estimate:.6g}: its level "
                         "cannot be changed from its bounds; a margin needs a test with a t or normal interval.")
    distribution = _distribution(df)
    standard_error = float(half / distribution.ppf((1 + confidence_level) / 2))
    critical = float(distribution.ppf((1 + new_level) / 2))
    return estimate - critical * standard_error, estimate + critical * standard_error, standard_error


def margin_answer(estimate, low, high, df, *, confidence_level, margin, question):
    """Whether A is non-inferior to B (or equivalent to it) by ``margin``, from the difference's interval.

    Parameters
    ----------
    estimate, low, high : float
        The difference, positive when A is better, and its symmetric
        interval at ``confidence_level``.
    df : float or None
        The t interval's degrees of freedom; None for a normal one.
    confidence_level : float
        1 - alpha: the one-sided tests are at level alpha.
    margin : float
        Positive, in the metric's units.
    question : {"non-inferior", "equivalent"}
        The question the margin answers.

    Returns
    -------
    MarginAnswer
        "A non-inferior" or "not shown non-inferior"; "equivalent" or "not
        shown equivalent" (:data:`MARGIN_ANSWERS`).

    Notes
    -----
    With s the standard error and F the t (or normal) distribution, the
    non-inferiority p-value is 1 - F((d + m) / s), and the answer is "A
    non-inferior" when the lower bound of the 1 - 2 alpha interval is above
    -m; equivalence is shown when the whole 1 - 2 alpha interval lies in
    (-m, m), and its p-value is the larger of 1 - F((d + m) / s) and
    F((d - m) / s) (Schuirmann 1987, two one-sided tests; Wellek 2010,
    *Testing statistical hypotheses of equivalence and noninferiority*,
    sections 2.1 and 2.2).

    Examples
    --------
    >>> margin_answer(0.004, -0.016, 0.024, None, confidence_level=0.95, margin=0.02,
    ...               question="non-inferior").answer
    'A non-inferior'
    """
    if not margin > 0:
        raise ValueError(f"margin={margin!r} must be positive, in the metric's units (0.01 for one point of "
                         "accuracy).")
    if question not in MARGIN_ALTERNATIVES:
        raise ValueError(f"question={question!r}: a margin answers "
                         f"{' or '.join(map(repr, MARGIN_ALTERNATIVES))}.")
    alpha = 1 - confidence_level
    low, high, standard_error = relevelled(estimate, low, high, df, confidence_level, 1 - 2 * alpha)
    distribution = _distribution(df)
    above = distribution.sf((estimate + margin) / standard_error)
    if question == "non-inferior":
        return MarginAnswer(MARGIN_ANSWERS[question][low > -margin], low, high, float(above))
    below = distribution.cdf((estimate - margin) / standard_error)
    return MarginAnswer(MARGIN_ANSWERS[question][-margin < low and high < margin], low, high,
                        float(max(above, below)))
