"""Every public name of the package, with its object: the top level's ``__all__`` and the subpackages' own.

The result classes, the refitting schemes and the helpers live in their
subpackages (``SUBPACKAGE_NAMES``); the tests that walk the public API
(parameter rules, names, results, the codec) walk both, each name taken from
its home, so that no public name leaves their view.
"""

import importlib

import cvinference as cvi


def public_names():
    """``{name: object}`` of every name in ``cvinference.__all__``, in ``SUBPACKAGE_NAMES`` and in
    ``cvinference.results`` (the front door's results were never at the top level), each from its home."""
    found = {name: getattr(cvi, name) for name in cvi.__all__}
    for module, names in SUBPACKAGE_NAMES.items():
        home = importlib.import_module(f"cvinference{module}")
        found.update((name, getattr(home, name)) for name in names)
    results = importlib.import_module("cvinference.results")
    found.update((name, getattr(results, name)) for name in results.__all__)  # those that never were at the top
    for module, names in NEVER_AT_THE_TOP.items():
        home = importlib.import_module(f"cvinference{module}")
        found.update((name, getattr(home, name)) for name in names)
    return found


NEVER_AT_THE_TOP = {
    ".splitters": ("ForwardSplit",),
    ".records": ("ForwardResult", "PairedForwardResult"),
    ".inference": ("forecast_interval", "forecast_test"),
}
"""Public names born in their subpackage (issue 48), which the walks of the public API must see too."""


SUBPACKAGE_NAMES = {
    ".evaluation": (
        "bootstrap_sampling", "five_by_two_cv", "holdout", "nested_cross_validation", "paired_subsampling",
        "random_subsampling",
    ),
    ".inference": (
        "bootstrap_accuracy_of", "combined_ftest_5x2cv_of",
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
"""The public names that live in a subpackage only, by their home (the top level holds at most 40 names)."""
