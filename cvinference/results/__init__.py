"""The result classes of every layer, in one namespace (as scipy keeps its result classes out of ``scipy.stats``).

Every interval, test, decision, comparison, study and front-door call returns an immutable
result object; their classes live here so that the top-level package holds
the functions that make them. Users rarely need a class by name: to check a
type (``isinstance(result, cvinference.results.Interval)``) or to rebuild a
saved result (``cvinference.results.Interval.from_dict(...)``).

This is a namespace of re-exports, not a layer: it imports nothing until a
name is used (PEP 562), and no subpackage of cvinference imports from it
(``tests/test_layers.py``). The records (``CVResult``, ``NestedCVResult``,
...) hold data, not statistics, and stay in :mod:`cvinference.records`.

Examples
--------
>>> import cvinference.inference
>>> from cvinference.results import Interval, TestResult
>>> Interval is cvinference.inference.Interval
True
>>> import cvinference.results
>>> len(cvinference.results.__all__)
23
"""

from .._utils._lazy import lazy_exports

_EXPORTS = {
    "..inference": (
        "BayesianResult", "BootstrapResult", "FTestResult", "Interval",
        "LargeSampleConditions", "LossDifferenceTestResult", "McNemarTestResult", "NoInformationTestResult",
        "SchemeDiagnostic", "TestResult",
    ),
    "..policy": (
        "Decision", "DecisionTest", "Plan",
    ),
    "..model_selection": (
        "CandidateComparison", "DatasetComparison", "FriedmanResult", "ModelComparison",
    ),
    "..studies": (
        "ConditionalErrorStudyResult", "FoldSizeStudyResult", "PrecisionStudyResult", "WinnerTableResult",
    ),
    "..workflows": (
        "Comparison", "Evaluation",
    ),
}

__all__ = sorted(name for names in _EXPORTS.values() for name in names)

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, reexport=True)
