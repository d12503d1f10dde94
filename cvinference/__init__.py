"""cvinference: honest statistical inference from cross-validation.

Splitters with equal fold sizes, an evaluator that records what
cross-validation did to every instance, and (from these records) intervals
and tests that say what they estimate and when they cannot be trusted.
"""

from ._bootstrap import BootstrapResult, bootstrap_accuracy
from ._comparisons import independent_sample_test, matched_sample_test, mcnemar_test, scheme_diagnostic
from ._conditions import large_sample_conditions
from ._evaluate import CVEvaluator, cross_val_correctness
from ._five_by_two import combined_ftest_5x2cv, paired_ttest_5x2cv
from ._intervals import accuracy_interval
from ._loss_interval import loss_interval
from ._losses import Loss, make_log_loss, make_loss
from ._metric_interval import metric_interval
from ._resampling import (
    BayesianResult,
    SubsamplingResult,
    bayesian_correlated_ttest,
    corrected_resampled_ttest,
    holdout,
    random_subsampling,
)
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
    "BayesianResult",
    "BootstrapResult",
    "CVEvaluator",
    "CVResult",
    "EqualSizeKFold",
    "InferenceWarning",
    "Interval",
    "LargeSampleConditions",
    "LeaveOneOut",
    "Loss",
    "PairedCVResult",
    "RandomAssignmentKFold",
    "RemainderLastKFold",
    "SchemeDiagnostic",
    "StratifiedEqualSizeKFold",
    "SubsamplingResult",
    "TestResult",
    "accuracy_interval",
    "bayesian_correlated_ttest",
    "bootstrap_accuracy",
    "combined_ftest_5x2cv",
    "corrected_resampled_ttest",
    "cross_val_correctness",
    "holdout",
    "independent_sample_test",
    "large_sample_conditions",
    "loss_interval",
    "make_log_loss",
    "make_loss",
    "matched_sample_test",
    "mcnemar_test",
    "metric_interval",
    "paired_ttest_5x2cv",
    "random_subsampling",
    "scheme_diagnostic",
]
