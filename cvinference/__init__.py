"""cvinference: honest statistical inference from cross-validation.

Splitters with equal fold sizes, an evaluator that records what
cross-validation did to every instance, and (from these records) intervals
and tests that say what they estimate and when they cannot be trusted.

The package is layered; each layer is a subpackage that imports only from
the layers below it::

    _utils  <  splitters, records  <  evaluation  <  inference  <  report, conveniences
        <  studies, model_selection  <  workflows  <  cli

The front door is :func:`evaluate` and :func:`compare` (``workflows``): the
honest answer in one call, as the command line gives it.

Every public name is importable from here; each is imported when first used
(PEP 562), so that ``import cvinference`` and the command line's ``--help``
do not wait for scikit-learn.
"""

from ._utils._lazy import lazy_exports

__version__ = "0.1.0.dev0"

_EXPORTS = {
    "._utils": (
        "InferenceWarning",
    ),
    ".conveniences": (
        "bootstrap_accuracy", "combined_ftest_5x2cv", "conservative_z_interval", "nested_cv_interval",
        "paired_ttest_5x2cv",
    ),
    ".evaluation": (
        "CVEvaluator", "bootstrap_sampling", "cross_val_correctness", "five_by_two_cv", "holdout",
        "nested_cross_validation", "paired_subsampling", "random_subsampling",
    ),
    ".inference": (
        "BayesianResult", "BootstrapResult", "FTestResult", "Interval",
        "LargeSampleConditions", "LossDifferenceTestResult", "McNemarTestResult", "NoInformationTestResult",
        "SchemeDiagnostic", "TestResult", "accuracy_interval", "bayesian_correlated_ttest", "bootstrap_accuracy_of",
        "cluster_paired_test", "clustered_mcnemar_test",
        "combined_ftest_5x2cv_of", "conservative_z_interval_of", "corrected_resampled_ttest",
        "independent_sample_test", "large_sample_conditions", "loss_difference_test", "loss_interval",
        "make_metric", "matched_sample_test", "mcnemar_test", "mean_baseline_test", "metric_interval",
        "nested_cv_interval_of", "no_information_test", "paired_ttest_5x2cv_of", "regression_interval",
        "scheme_diagnostic",
    ),
    ".model_selection": (
        "CandidateComparison", "DatasetComparison", "FriedmanResult", "OneStandardError",
        "SimplestIndistinguishable", "compare_candidates", "compare_on_datasets", "tuning_interval",
    ),
    ".policy": (
        "Decision", "DecisionTest", "decide",
    ),
    ".records": (
        "BootstrapSamplingResult", "CVResult", "Loss", "NestedCVResult", "PairedCVResult",
        "PairedSubsamplingResult", "SubsamplingResult", "make_log_loss", "make_loss",
    ),
    ".splitters": (
        "EqualSizeGroupKFold", "EqualSizeKFold", "LeaveOneOut", "RandomAssignmentKFold", "RemainderLastKFold",
        "StratifiedEqualSizeGroupKFold", "StratifiedEqualSizeKFold",
    ),
    ".studies": (
        "POPULATIONS", "ConditionalErrorStudyResult", "FoldSizeStudyResult", "PrecisionStudyResult",
        "WinnerTableResult", "conditional_error_study", "fold_size_study", "load_population", "precision_study",
        "winner_table",
    ),
    ".workflows": (
        "compare", "evaluate",
    ),
}

__all__ = sorted((name for names in _EXPORTS.values() for name in names),
                 key=lambda name: (name[0].islower(), name.lower()))  # classes and constants, then functions

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
