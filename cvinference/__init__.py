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
:mod:`cvinference.inference`.
"""

from ._utils._lazy import lazy_exports

__version__ = "0.1.0"

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
    ".results": (),  # the result classes' namespace: cvinference.results.Interval, with no name at the top
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

__all__ = sorted((name for names in _EXPORTS.values() for name in names),
                 key=lambda name: (name[0].islower(), name.lower()))  # classes and constants, then functions

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
