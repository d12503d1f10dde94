"""Layer 3: intervals and tests computed from the records; immutable results.

Pure numpy and scipy on the records of the ``records`` layer: every function
here takes records (:class:`~cvinference.CVResult`,
:class:`~cvinference.PairedCVResult`, :class:`~cvinference.records.SubsamplingResult`,
:class:`~cvinference.records.NestedCVResult`,
:class:`~cvinference.records.PairedSubsamplingResult`,
:class:`~cvinference.records.BootstrapSamplingResult`, :class:`~cvinference.records.ForwardResult`) and fits
nothing; nothing here
imports the evaluation layer. The ``estimator, X, y`` forms of the refitting
methods (``nested_cv_interval``, ``conservative_z_interval``,
``bootstrap_accuracy``, the 5x2cv tests) fit the record and call the
function here; they live in :mod:`cvinference.conveniences`. What reads the
calibration evidence (``method="auto"``'s choices, the evidence's warnings,
the decision) lives above, in :mod:`cvinference.policy`.
"""

from ._accuracy_interval import accuracy_interval
from ._bootstrap import bootstrap_accuracy_of
from ._conditions import large_sample_conditions
from ._conservative_z import conservative_z_interval_of
from ._five_by_two import combined_ftest_5x2cv_of, paired_ttest_5x2cv_of
from ._forecast import forecast_interval, forecast_test
from ._loss_interval import loss_interval
from ._make_metric import make_metric
from ._metric_interval import metric_interval
from ._nested_cv import nested_cv_interval_of
from ._no_information import no_information_test
from ._paired_tests import independent_sample_test, matched_sample_test, mcnemar_test, scheme_diagnostic
from ._regression import loss_difference_test, mean_baseline_test, regression_interval
from ._resampled_tests import bayesian_correlated_ttest, corrected_resampled_ttest
from ._resampling_results import BayesianResult, BootstrapResult
from ._results import (
    FTestResult,
    Interval,
    LargeSampleConditions,
    LossDifferenceTestResult,
    McNemarTestResult,
    NoInformationTestResult,
    SchemeDiagnostic,
    TestResult,
)

__all__ = [
    "BayesianResult",
    "BootstrapResult",
    "FTestResult",
    "Interval",
    "LargeSampleConditions",
    "LossDifferenceTestResult",
    "McNemarTestResult",
    "NoInformationTestResult",
    "SchemeDiagnostic",
    "TestResult",
    "accuracy_interval",
    "bayesian_correlated_ttest",
    "bootstrap_accuracy_of",
    "combined_ftest_5x2cv_of",
    "conservative_z_interval_of",
    "corrected_resampled_ttest",
    "forecast_interval",
    "forecast_test",
    "independent_sample_test",
    "large_sample_conditions",
    "loss_difference_test",
    "loss_interval",
    "make_metric",
    "matched_sample_test",
    "mean_baseline_test",
    "mcnemar_test",
    "metric_interval",
    "nested_cv_interval_of",
    "no_information_test",
    "regression_interval",
    "paired_ttest_5x2cv_of",
    "scheme_diagnostic",
]
