"""Layer 1: what a resampling scheme did to every instance; data only, no statistics.

:class:`CVResult` and :class:`PairedCVResult` hold per-instance folds,
predictions, correctness and losses; :class:`SubsamplingResult` the rounds of
random subsampling; :class:`NestedCVResult` the outer and inner losses of
nested cross-validation; :class:`PairedSubsamplingResult` the test losses of
Nadeau & Bengio's paired subsampling; :class:`BootstrapSamplingResult` the
bootstrap samples and their out-of-bag correctness; :class:`Loss` and its
factories the per-instance losses. Nothing here fits a model or computes a
statistic: statistics are functions of records (``accuracy_interval(result)``,
``mcnemar_test(pair)``, ``nested_cv_interval_of(result)``). A record's
``summary()`` is the one sanctioned upward reference: it looks the report up
in a higher layer when called (:mod:`cvinference._utils._upward`), never at
import.
"""

from ._bootstrap_sampling_result import BootstrapSamplingResult
from ._cv_result import CVResult, PairedCVResult
from ._forward_result import ForwardResult, PairedForwardResult
from ._losses import Loss, make_log_loss, make_loss
from ._nested_cv_result import NestedCVResult
from ._paired_subsampling_result import PairedSubsamplingResult
from ._subsampling_result import SubsamplingResult

__all__ = ["BootstrapSamplingResult", "CVResult", "ForwardResult", "Loss", "NestedCVResult", "PairedCVResult",
           "PairedForwardResult", "PairedSubsamplingResult", "SubsamplingResult", "make_log_loss", "make_loss"]
