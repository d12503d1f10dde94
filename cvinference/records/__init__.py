"""Layer 1: what cross-validation did to every instance; data only, no statistics.

:class:`CVResult` and :class:`PairedCVResult` hold per-instance folds,
predictions, correctness and losses; :class:`SubsamplingResult` the rounds of
random subsampling; :class:`Loss` and its factories the per-instance losses.
Nothing here fits a model or computes a statistic. The records' convenience
methods (``result.accuracy_interval()``, ``result.summary()``, ...) are the
one sanctioned upward reference: they look the function up in a higher layer
when called (:mod:`cvinference._utils._upward`), never at import.
"""

from ._cv_result import CVResult, PairedCVResult
from ._losses import Loss, make_log_loss, make_loss
from ._subsampling_result import SubsamplingResult

__all__ = ["CVResult", "Loss", "PairedCVResult", "SubsamplingResult", "make_log_loss", "make_loss"]
