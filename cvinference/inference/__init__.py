"""Layer 3: intervals and tests computed from the records; immutable results.

Pure numpy and scipy on :class:`~cvinference.CVResult` and
:class:`~cvinference.PairedCVResult`; the refitting tests (5x2cv, the
bootstrap) ask the evaluation layer for their fits.
"""

from ._accuracy_interval import accuracy_interval
from ._bootstrap import bootstrap_accuracy
from ._conditions import large_sample_conditions
from ._conservative_z import conservative_z_interval
from ._decision import ANSWERS, Decision, DecisionTest, decide, pair_tests
from ._five_by_two import combined_ftest_5x2cv, paired_ttest_5x2cv
from ._loss_interval import loss_interval
from ._metric_interval import metric_interval
from ._nested_cv import nested_cv_interval
from ._no_information import no_information_test
from ._paired_tests import independent_sample_test, matched_sample_test, mcnemar_test, scheme_diagnostic
from ._resampled_tests import bayesian_correlated_ttest, corrected_resampled_ttest
from ._results import (
    BayesianResult,
    BootstrapResult,
    FTestResult,
    Interval,
    LargeSampleConditions,
    McNemarTestResult,
    NoInformationTestResult,
    SchemeDiagnostic,
    TestResult,
)

__all__ = [
    "ANSWERS",
    "Decision",
    "DecisionTest",
    "BayesianResult",
    "BootstrapResult",
    "FTestResult",
    "Interval",
    "LargeSampleConditions",
    "McNemarTestResult",
    "NoInformationTestResult",
    "SchemeDiagnostic",
    "TestResult",
    "accuracy_interval",
    "bayesian_correlated_ttest",
    "bootstrap_accuracy",
    "combined_ftest_5x2cv",
    "conservative_z_interval",
    "corrected_resampled_ttest",
    "decide",
    "independent_sample_test",
    "large_sample_conditions",
    "loss_interval",
    "matched_sample_test",
    "mcnemar_test",
    "metric_interval",
    "nested_cv_interval",
    "no_information_test",
    "pair_tests",
    "paired_ttest_5x2cv",
    "scheme_diagnostic",
]
