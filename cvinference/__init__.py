"""cvinference: honest statistical inference from cross-validation.

Splitters with equal fold sizes, an evaluator that records what
cross-validation did to every instance, and (from these records) intervals
and tests that say what they estimate and when they cannot be trusted.
"""

from ._evaluate import CVEvaluator, cross_val_correctness
from ._results import CVResult, PairedCVResult
from ._split import (
    EqualSizeKFold,
    LeaveOneOut,
    RandomAssignmentKFold,
    RemainderLastKFold,
    StratifiedEqualSizeKFold,
)

__version__ = "0.1.0.dev0"

__all__ = [
    "CVEvaluator",
    "CVResult",
    "EqualSizeKFold",
    "LeaveOneOut",
    "PairedCVResult",
    "RandomAssignmentKFold",
    "RemainderLastKFold",
    "StratifiedEqualSizeKFold",
    "cross_val_correctness",
]
