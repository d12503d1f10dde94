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

The top level holds the core names, at most 40 (``__all__``): the
splitters, the evaluator, the intervals and tests, and the comparisons of
many models; each is imported when first used (PEP 562), so that ``import
cvinference`` and the command line's ``--help`` do not wait for
scikit-learn. The rest lives in its subpackage: the result classes in
:mod:`cvinference.results`, the refitting schemes in
:mod:`cvinference.evaluation`, the records of those schemes in
:mod:`cvinference.records`, the variants and the ``*_of`` functions in
:mod:`cvinference.inference`. A name that left the top level in version 0.1
(``MOVED``) still resolves here until 0.2, with a ``FutureWarning`` naming
its new home.
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
        "CVEvaluator", "cross_val_correctness",
    ),
    ".inference": (
        "accuracy_interval", "bayesian_correlated_ttest", "corrected_resampled_ttest",
        "independent_sample_test", "large_sample_conditions", "loss_interval", "make_metric", "matched_sample_test",
        "mcnemar_test", "metric_interval", "no_information_test", "scheme_diagnostic",
    ),
    ".model_selection": (
        "compare_candidates", "compare_models", "compare_on_datasets",
    ),
    ".policy": (
        "decide", "plan",
    ),
    ".records": (
        "CVResult", "PairedCVResult", "make_loss",
    ),
    ".splitters": (
        "EqualSizeGroupKFold", "EqualSizeKFold", "LeaveOneOut", "StratifiedEqualSizeGroupKFold",
        "StratifiedEqualSizeKFold",
    ),
    ".studies": (
        "conditional_error_study", "fold_size_study", "precision_study", "winner_table",
    ),
    ".workflows": (
        "compare", "evaluate",
    ),
}

MOVED = {  # left the top level in version 0.1 for their subpackage; each works here, warning, until 0.2
    ".evaluation": (
        "bootstrap_sampling", "five_by_two_cv", "holdout", "nested_cross_validation", "paired_subsampling",
        "random_subsampling",
    ),
    ".inference": (
        "bootstrap_accuracy_of", "cluster_paired_test", "clustered_mcnemar_test", "combined_ftest_5x2cv_of",
        "conservative_z_interval_of", "loss_difference_test", "mean_baseline_test", "nested_cv_interval_of",
        "paired_ttest_5x2cv_of", "regression_interval",
    ),
    ".model_selection": (
        "OneStandardError", "SimplestIndistinguishable", "tuning_interval",
    ),
    ".records": (
        "BootstrapSamplingResult", "Loss", "NestedCVResult", "PairedSubsamplingResult", "SubsamplingResult",
        "make_log_loss",
    ),
    ".results": (
        "BayesianResult", "BootstrapResult", "CandidateComparison", "ConditionalErrorStudyResult",
        "DatasetComparison", "Decision", "DecisionTest", "FTestResult", "FoldSizeStudyResult", "FriedmanResult",
        "Interval", "LargeSampleConditions", "LossDifferenceTestResult", "McNemarTestResult",
        "NoInformationTestResult", "PrecisionStudyResult", "SchemeDiagnostic", "TestResult", "WinnerTableResult",
    ),
    ".splitters": (
        "RandomAssignmentKFold", "RemainderLastKFold",
    ),
    ".studies": (
        "POPULATIONS", "load_population",
    ),
}

__all__ = sorted((name for names in _EXPORTS.values() for name in names),
                 key=lambda name: (name[0].islower(), name.lower()))  # classes and constants, then functions

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, moved=MOVED, since="0.1")
