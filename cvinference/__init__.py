"""cvinference: honest statistical inference from cross-validation.

Splitters with equal fold sizes, an evaluator that records what
cross-validation did to every instance, and (from these records) intervals
and tests that say what they estimate and when they cannot be trusted.
"""

from ._comparisons import independent_sample_test, matched_sample_test, mcnemar_test, scheme_diagnostic
from ._conditions import large_sample_conditions
from ._evaluate import CVEvaluator, cross_val_correctness
from ._intervals import accuracy_interval
from ._results import CVResult, PairedCVResult
from ._stat_results import InferenceWarning, Interval, LargeSampleConditions, SchemeDiagnostic, TestResult
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
    "InferenceWarning",
    "Interval",
    "LargeSampleConditions",
    "LeaveOneOut",
    "PairedCVResult",
    "RandomAssignmentKFold",
    "RemainderLastKFold",
    "SchemeDiagnostic",
    "StratifiedEqualSizeKFold",
    "TestResult",
    "accuracy_interval",
    "cross_val_correctness",
    "independent_sample_test",
    "large_sample_conditions",
    "matched_sample_test",
    "mcnemar_test",
    "scheme_diagnostic",
]
