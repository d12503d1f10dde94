"""Layer 4: the policy, what to choose and what to conclude on the calibration evidence.

Above the pure statistics of :mod:`cvinference.inference`, which compute what
they are told, this layer holds everything that reads the calibration
benchmark's evidence (``data/calibration.json``, read by ``_evidence`` and
``_regression_evidence``): the automatic choices of ``method="auto"``
(``_auto_choice``; the statistics ask for them through ``_advice``), the
warnings the evidence owes an explicit method, and the decision a user acts
on (``_decision``: :func:`decide`, :class:`Decision`; ``_detectable``: what
a decision of "no difference shown" could have detected,
:func:`minimum_detectable_difference`; ``_plan``: what a comparison would
detect before its fits, :func:`plan`, :class:`Plan`). It finds a method's
evidence by its row of the table of methods
(``cvinference/inference/_methods.py``), never by a label's text.
"""

from ._advice import choose_method, evidence_warnings
from ._assess import (
    HORIZON_TEST,
    NamedInterval,
    PairAssessment,
    RecordAssessment,
    RecordChecks,
    assess_pair,
    assess_record,
    baseline_test,
    comparison_decision,
    comparison_tests,
    estimator_intervals,
    forecast_baseline_test,
    forecast_intervals,
    forecast_tests,
    horizon_results,
    record_checks,
    record_intervals,
)
from ._decision import ANSWERS, Decision, DecisionTest, decide, pair_tests
from ._detectable import POWER, minimum_detectable_difference
from ._plan import RANGE_LEVEL, Plan, plan

__all__ = [
    "ANSWERS",
    "Decision",
    "DecisionTest",
    "HORIZON_TEST",
    "NamedInterval",
    "POWER",
    "PairAssessment",
    "Plan",
    "RANGE_LEVEL",
    "RecordAssessment",
    "RecordChecks",
    "assess_pair",
    "assess_record",
    "baseline_test",
    "choose_method",
    "comparison_decision",
    "comparison_tests",
    "decide",
    "estimator_intervals",
    "evidence_warnings",
    "forecast_baseline_test",
    "forecast_intervals",
    "forecast_tests",
    "horizon_results",
    "minimum_detectable_difference",
    "pair_tests",
    "plan",
    "record_checks",
    "record_intervals",
]
