"""cvinference: honest statistical inference from cross-validation.

Splitters with equal fold sizes, an evaluator that records what
cross-validation did to every instance, and (from these records) intervals
and tests that say what they estimate and when they cannot be trusted.

The package is layered; each layer is a subpackage that imports only from
the layers below it::

    _utils  <  splitters, records  <  evaluation  <  inference  <  report  <  studies, model_selection  <  cli

Every public name is importable from here.
"""

from ._utils import InferenceWarning
from .evaluation import CVEvaluator, cross_val_correctness, holdout, random_subsampling
from .inference import (
    BayesianResult,
    BootstrapResult,
    Decision,
    DecisionTest,
    FTestResult,
    Interval,
    LargeSampleConditions,
    McNemarTestResult,
    NoInformationTestResult,
    SchemeDiagnostic,
    TestResult,
    accuracy_interval,
    bayesian_correlated_ttest,
    bootstrap_accuracy,
    combined_ftest_5x2cv,
    conservative_z_interval,
    corrected_resampled_ttest,
    decide,
    independent_sample_test,
    large_sample_conditions,
    loss_interval,
    matched_sample_test,
    mcnemar_test,
    metric_interval,
    nested_cv_interval,
    no_information_test,
    paired_ttest_5x2cv,
    scheme_diagnostic,
)
from .model_selection import (
    CandidateComparison,
    DatasetComparison,
    FriedmanResult,
    OneStandardError,
    SimplestIndistinguishable,
    compare_candidates,
    compare_on_datasets,
    tuning_interval,
)
from .records import CVResult, Loss, PairedCVResult, SubsamplingResult, make_log_loss, make_loss
from .splitters import (
    EqualSizeKFold,
    LeaveOneOut,
    RandomAssignmentKFold,
    RemainderLastKFold,
    StratifiedEqualSizeKFold,
)
from .studies import (
    POPULATIONS,
    ConditionalErrorStudyResult,
    FoldSizeStudyResult,
    PrecisionStudyResult,
    WinnerTableResult,
    conditional_error_study,
    fold_size_study,
    load_population,
    precision_study,
    winner_table,
)

__version__ = "0.1.0.dev0"

__all__ = [
    "POPULATIONS",
    "BayesianResult",
    "BootstrapResult",
    "CVEvaluator",
    "CandidateComparison",
    "CVResult",
    "ConditionalErrorStudyResult",
    "DatasetComparison",
    "Decision",
    "DecisionTest",
    "EqualSizeKFold",
    "FTestResult",
    "FoldSizeStudyResult",
    "FriedmanResult",
    "InferenceWarning",
    "Interval",
    "LargeSampleConditions",
    "LeaveOneOut",
    "Loss",
    "McNemarTestResult",
    "NoInformationTestResult",
    "OneStandardError",
    "PairedCVResult",
    "PrecisionStudyResult",
    "RandomAssignmentKFold",
    "RemainderLastKFold",
    "SchemeDiagnostic",
    "SimplestIndistinguishable",
    "StratifiedEqualSizeKFold",
    "SubsamplingResult",
    "TestResult",
    "WinnerTableResult",
    "accuracy_interval",
    "bayesian_correlated_ttest",
    "bootstrap_accuracy",
    "combined_ftest_5x2cv",
    "compare_candidates",
    "compare_on_datasets",
    "conditional_error_study",
    "conservative_z_interval",
    "corrected_resampled_ttest",
    "cross_val_correctness",
    "decide",
    "fold_size_study",
    "load_population",
    "holdout",
    "independent_sample_test",
    "large_sample_conditions",
    "loss_interval",
    "make_log_loss",
    "make_loss",
    "matched_sample_test",
    "mcnemar_test",
    "metric_interval",
    "nested_cv_interval",
    "no_information_test",
    "paired_ttest_5x2cv",
    "precision_study",
    "random_subsampling",
    "scheme_diagnostic",
    "tuning_interval",
    "winner_table",
]
