"""Layer 1: what cross-validation did to every instance; data only, no statistics.

:class:`CVResult` and :class:`PairedCVResult` hold per-instance folds,
predictions, correctness and losses; :class:`SubsamplingResult` the rounds of
random subsampling; :class:`Loss` and its factories the per-instance losses.
Nothing here fits a model or computes a statistic: statistics are functions
of records (``accuracy_interval(result)``, ``mcnemar_test(pair)``). A
record's ``summary()`` is the one sanctioned upward reference: it looks the
report up in a higher layer when called (:mod:`cvinference._utils._upward`),
never at import. The forwarding methods ``result.accuracy_interval()``,
``pair.mcnemar_test()``, ... are deprecated since version 0.1.
"""

from ._cv_result import CVResult, PairedCVResult
from ._losses import Loss, make_log_loss, make_loss
from ._subsampling_result import SubsamplingResult

__all__ = ["CVResult", "Loss", "PairedCVResult", "SubsamplingResult", "make_log_loss", "make_loss"]
