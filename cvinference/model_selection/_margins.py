"""The margin of practical equivalence of a comparison of candidates (``margin``), in the units of their scores.

A margin of 0.01 is one percentage point of an accuracy, but a meaningless number for a
squared error, whose scale is that of the target's variance. ``margin="auto"`` takes a default
for each metric (:func:`resolved_margin`); a number is taken as given, in the metric's units;
None is no margin.
"""

from typing import NamedTuple

import numpy as np

from .._utils._params import Rule
from ..inference._resampled_tests import MARGIN

BOUNDED_DEFAULT = 0.01
"""The default margin of a score in [0, 1] (or [-1, 1]): one percentage point."""

RELATIVE_DEFAULT = 0.01
"""The default margin of a negated loss, as a share of the best candidate's mean loss: 1%."""

_BOUNDED_NAMES = ("accuracy", "balanced_accuracy", "top_k_accuracy", "average_precision", "matthews_corrcoef", "r2",
                  "explained_variance", "adjusted_rand_score", "rand_score", "homogeneity_score",
                  "completeness_score", "v_measure_score", "adjusted_mutual_info_score",
                  "normalized_mutual_info_score", "fowlkes_mallows_score")
_BOUNDED_PREFIXES = ("roc_auc", "f1", "precision", "recall", "jaccard", "d2_")
_LOSS_NAMES = ("max_error",)  # a negated loss whose scikit-learn name has no "neg_"

class _Margin(Rule):
    """``margin``: ``"auto"`` (the metric's default), a margin >= 0 in the metric's units, or None (no margin)."""

    def describe(self):
        return f"'auto', {MARGIN.describe()} in the metric's units, or None (no margin)"

    def check(self, name, value):
        if value is None or (isinstance(value, str) and value == "auto"):
            return value
        try:
            return MARGIN.check(name, value)
        except (TypeError, ValueError) as exc:
            kind = ValueError if isinstance(value, str) else type(exc)
            raise kind(f"{name} must be {self.describe()}; got {name}={value!r}.") from None

    def invalid_values(self):
        return [(value, ValueError if isinstance(value, str) else kind) for value, kind in MARGIN.invalid_values()
                if value is not None] + [("Auto", ValueError), ("fixed", ValueError)]


RULE = _Margin()
"""What ``margin`` accepts."""

AUTO_NOTE = ("margin='auto' takes 0.01 for a score in [0, 1] such as accuracy, ROC AUC, F1 or R² (one percentage "
             "point), 1% of the best candidate's mean loss for a negated loss (scoring='neg_...'), and no margin "
             "for a score of unknown scale (a callable scorer): pass margin= in the metric's units there")
"""What ``margin="auto"`` resolves to, for docstrings and notes."""


class Margin(NamedTuple):
    """The margin used (0.0 for none) and the words that say where it comes from."""

    value: float
    rule: str


def scale_of(scoring):
    """``"bounded"``, ``"loss"`` (a negated loss, higher is better) or None (unknown) for a scorer's name; None for
    what is not a name (a dict's tampered ``scoring``, which its decoding then refuses by name).

    Examples
    --------
    >>> scale_of("roc_auc"), scale_of("neg_log_loss"), scale_of("score"), scale_of(5)
    ('bounded', 'loss', None, None)
    """
    if not isinstance(scoring, str):
        return None
    if scoring in _BOUNDED_NAMES or scoring.startswith(_BOUNDED_PREFIXES):
        return "bounded"
    if scoring.startswith("neg_") or scoring in _LOSS_NAMES:
        return "loss"
    return None


def resolved_margin(margin, scoring, best_mean_score):
    """The :class:`Margin` of ``margin`` for scores named ``scoring`` whose best mean is ``best_mean_score``.

    Scores are higher-is-better (scikit-learn's scorers negate a loss:
    ``neg_mean_squared_error``), so "the best is better by more than the
    margin" is its score higher, its loss lower, by more than the margin.

    Examples
    --------
    >>> resolved_margin("auto", "roc_auc", 0.93).value
    0.01
    >>> round(resolved_margin("auto", "neg_mean_squared_error", -0.004).value, 10)  # 1% of the best's loss
    4e-05
    >>> resolved_margin("auto", "score", 0.5).rule[:4]  # a callable scorer: scale unknown, no margin
    'none'
    """
    if margin is None:
        return Margin(0.0, "none (margin=None): P(best better) is the probability that the best is better at all")
    if margin != "auto":
        return Margin(float(margin), f"{margin:g} in {scoring}, as given")
    scale = scale_of(scoring)
    if scale == "bounded":
        return Margin(BOUNDED_DEFAULT, f"{BOUNDED_DEFAULT:g} in {scoring}, the default for a score on a proportion's "
                                       "scale: one percentage point")
    if scale == "loss" and np.isfinite(best_mean_score) and best_mean_score != 0:
        value = RELATIVE_DEFAULT * abs(float(best_mean_score))
        return Margin(value, f"{value:.4g} in {scoring}, the default for a negated loss: {RELATIVE_DEFAULT:.0%} of "
                              "the best candidate's mean loss")
    return Margin(0.0, f"none: {scoring} has no default margin on its scale, so P(best better) is the probability "
                       "that the best is better at all; pass margin= in its units for one")
