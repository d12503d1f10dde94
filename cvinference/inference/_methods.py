"""The table of methods: every interval and test of the inference layer, one row each.

A method has one name, its row's ``id`` (hyphen-case, the style of the
``method=`` options: ``"corrected-t"``, ``"half-sample"``). An interval that
several functions compute (half-sample for the accuracy and for a loss)
keeps one id, so a row is found by its function and id (:func:`row`), and an
id alone (:func:`method_row`) finds the first row that has it: the test
where a test and an interval share one. The decision finds a test's
evidence by the row of the result it is given (:func:`row_of`), never by
the text of a label; the calibration evidence keys an interval's coverage
rows by its id, and a test's rows by id once they are read
(:func:`evidence_row` maps a test's stored name to its row); reports name a
method by :func:`display_label` alone; ``docs/methods.md`` is generated
from the table (:func:`methods_markdown`).

The table says what exists and what each method is built for; what to
*choose* on the evidence is the policy's (:mod:`cvinference.policy`).
"""

from typing import NamedTuple

from .._utils._text import wrapped


class MethodRow(NamedTuple):
    """One interval or test.

    Attributes
    ----------
    id : str
        The method's one name, hyphen-case; unique among the rows of its
        ``function``.
    family : str
        ``"interval"`` or ``"test"``.
    record : str
        The record it takes: ``"CVResult"``, ``"PairedCVResult"``, the record
        of its own scheme.
    quantity : str
        What it is about: ``"accuracy"``, ``"loss"``, ``"metric"``, or the
        difference of one of them between two learners.
    target : str
        The error it is built for (``"kfold"``, ``"conditional"``,
        ``"unconditional"`` or, for forecasts, ``"forward"``;
        docs/inference.md, "Targets").
    function : str
        The public function of :mod:`cvinference.inference` that computes it.
    evidence_key : str or None
        The name of its rows in the calibration evidence
        (``policy/data/calibration.json``): an interval's coverage rows are
        keyed by its id (with the fields ``averaging``, ``metric``,
        ``variance``, ``repeats`` where its rows need them), so its key is
        its id; a test's type-I and power rows keep the benchmark's name, as
        :func:`test_family` reduces it (the reader maps it to the id once);
        None: not measured.
    label : str
        How reports name it (:func:`display_label` adds a variant or a
        design).
    preference : int or None
        A test's rank among eligible tests of equal (or unmeasured) power,
        steadiest first (0 comes first); None: the decision does not rank it.
    """

    id: str
    family: str
    record: str
    quantity: str
    target: str
    function: str
    evidence_key: str | None
    label: str
    preference: int | None = None


_PAIR = "PairedCVResult"
_DIFFERENCE = "accuracy difference"
_LOSS_DIFFERENCE = "loss difference"

METHODS = (
    # ------------------------------------------------------------------ tests of two learners
    MethodRow("nested-cv", "interval", "NestedCVResult", "accuracy or loss (difference)", "conditional",
              "nested_cv_interval_of", "nested-cv", "nested-cv", 0),
    MethodRow("corrected-t", "test", _PAIR, _DIFFERENCE, "unconditional", "corrected_resampled_ttest", "corrected t",
              "corrected t", 1),
    MethodRow("mcnemar", "test", _PAIR, _DIFFERENCE, "kfold", "mcnemar_test", "McNemar", "McNemar", 2),
    MethodRow("5x2cv-t", "test", "PairedCVResult of five_by_two_cv", _DIFFERENCE, "unconditional",
              "paired_ttest_5x2cv_of", "5x2cv t", "5x2cv t", 3),
    MethodRow("matched-t", "test", _PAIR, _DIFFERENCE, "kfold", "matched_sample_test", "matched-sample t",
              "matched-sample t", 4),
    MethodRow("independent-z", "test", _PAIR, _DIFFERENCE, "kfold", "independent_sample_test", "independent-sample z",
              "independent-sample z", 5),
    MethodRow("independent-t", "test", _PAIR, _DIFFERENCE, "kfold", "independent_sample_test", None,
              "independent-sample t (folds)"),
    MethodRow("5x2cv-f", "test", "PairedCVResult of five_by_two_cv", _DIFFERENCE, "unconditional",
              "combined_ftest_5x2cv_of", "5x2cv F", "combined 5x2cv F"),
    MethodRow("mcnemar-obuchowski", "test", _PAIR + " with groups", _DIFFERENCE, "kfold", "mcnemar_test",
              "clustered McNemar (Obuchowski)", "clustered McNemar (Obuchowski)"),
    MethodRow("mcnemar-durkalski", "test", _PAIR + " with groups", _DIFFERENCE, "kfold", "mcnemar_test",
              "clustered McNemar (Durkalski)", "clustered McNemar (Durkalski)"),
    MethodRow("cluster-paired-t", "test", _PAIR + " with groups", _LOSS_DIFFERENCE, "kfold", "matched_sample_test",
              "cluster paired t", "cluster paired t"),
    MethodRow("cv-clt-difference", "test", _PAIR, _LOSS_DIFFERENCE, "kfold", "loss_difference_test", "CV-CLT",
              "CV-CLT"),
    MethodRow("delong-paired", "test", _PAIR + " with scores", "ROC AUC difference", "kfold", "delong_paired_test",
              "DeLong paired z", "DeLong paired z"),
    MethodRow("bayesian-correlated-t", "test", _PAIR, _DIFFERENCE, "unconditional", "bayesian_correlated_ttest", None,
              "Bayesian correlated t"),
    # ------------------------------------------------------------------ intervals of one learner
    MethodRow("normal", "interval", "CVResult", "accuracy", "kfold", "accuracy_interval", "normal",
              "normal (Wong, dataset level)"),
    MethodRow("t", "interval", "CVResult", "accuracy", "kfold", "accuracy_interval", "t", "t (Wong, fold level)"),
    MethodRow("wilson", "interval", "CVResult", "accuracy", "kfold", "accuracy_interval", "wilson", "Wilson"),
    MethodRow("clopper-pearson", "interval", "CVResult", "accuracy", "kfold", "accuracy_interval", "clopper-pearson",
              "Clopper-Pearson"),
    MethodRow("half-sample", "interval", "CVResult", "accuracy", "conditional", "accuracy_interval", "half-sample",
              "half-sample (Nedel'ko)"),
    MethodRow("cluster", "interval", "CVResult with groups", "accuracy", "kfold", "accuracy_interval", "cluster",
              "cluster-robust"),
    MethodRow("cluster-half-sample", "interval", "CVResult with groups", "accuracy", "kfold", "accuracy_interval",
              "cluster-half-sample", "cluster-robust half-sample"),
    MethodRow("half-sample", "interval", "CVResult", "loss", "conditional", "loss_interval", None,
              "half-sample (Nedel'ko)"),
    MethodRow("normal", "interval", "CVResult", "loss", "kfold", "loss_interval", None, "normal"),
    MethodRow("t", "interval", "CVResult", "loss", "kfold", "loss_interval", None, "fold t"),
    MethodRow("cv-clt", "interval", "CVResult", "loss", "kfold", "loss_interval", "cv-clt", "CV-CLT (Bayle et al.)"),
    MethodRow("cluster", "interval", "CVResult with groups", "loss", "kfold", "loss_interval", None, "cluster-robust"),
    MethodRow("cv-clt", "interval", "CVResult", "regression metric", "kfold", "regression_interval", "cv-clt",
              "CV-CLT (Bayle et al.)"),
    MethodRow("cluster", "interval", "CVResult with groups", "regression metric", "kfold", "regression_interval",
              "cluster", "cluster-robust"),
    MethodRow("cluster-half-sample", "interval", "CVResult with groups", "regression metric", "kfold",
              "regression_interval", "cluster-half-sample", "cluster-robust half-sample"),
    MethodRow("t", "interval", "CVResult", "metric", "kfold", "metric_interval", None, "t"),
    MethodRow("corrected-t", "interval", "CVResult", "metric", "unconditional", "metric_interval", "corrected-t",
              "corrected t"),
    MethodRow("delong", "interval", "CVResult with scores", "ROC AUC", "kfold", "metric_interval", "delong", "DeLong"),
    MethodRow("conservative-z", "interval", "SubsamplingResult", "accuracy or loss", "unconditional",
              "conservative_z_interval_of", "conservative-z", "conservative Z"),
    MethodRow(".632", "interval", "BootstrapSamplingResult", "accuracy", "conditional", "bootstrap_accuracy_of", None,
              ".632 bootstrap"),
    MethodRow(".632+", "interval", "BootstrapSamplingResult", "accuracy", "conditional", "bootstrap_accuracy_of", None,
              ".632+ bootstrap"),
    MethodRow("oob", "interval", "BootstrapSamplingResult", "accuracy", "kfold", "bootstrap_accuracy_of", None,
              "out-of-bag bootstrap"),
    # ------------------------------------------------------------------ forward validation (time order)
    MethodRow("prewhitened-hac", "interval", "ForwardResult", "forecast loss", "forward", "forecast_interval", None,
              "pre-whitened HAC"),
    MethodRow("hac", "interval", "ForwardResult", "forecast loss", "forward", "forecast_interval", None, "HAC"),
    MethodRow("block-bootstrap", "interval", "ForwardResult", "forecast loss", "forward", "forecast_interval", None,
              "moving-block bootstrap"),
    MethodRow("stationary-bootstrap", "interval", "ForwardResult", "forecast loss", "forward", "forecast_interval",
              None, "stationary bootstrap"),
    MethodRow("iid", "interval", "ForwardResult", "forecast loss", "forward", "forecast_interval", None,
              "independent forecasts"),
    MethodRow("diebold-mariano", "test", "PairedForwardResult", "forecast loss difference", "forward", "forecast_test",
              None, "Diebold-Mariano"),
    MethodRow("prewhitened-diebold-mariano", "test", "PairedForwardResult", "forecast loss difference", "forward",
              "forecast_test", None, "Diebold-Mariano, pre-whitened"),
    MethodRow("giacomini-white", "test", "PairedForwardResult", "forecast loss difference", "forward", "forecast_test",
              None, "Giacomini-White"),
)
"""Every interval and test, one row each."""

OPTION_FUNCTIONS = frozenset({
    "mcnemar_test", "matched_sample_test", "independent_sample_test", "accuracy_interval", "loss_interval",
    "regression_interval", "metric_interval", "bootstrap_accuracy_of", "forecast_interval", "forecast_test"})
"""The functions that compute several rows, each as ``method=<its id>``; every other function is one method."""

_BY_ID = {method.id: method for method in reversed(METHODS)}  # reversed: the first row of an id wins
_BY_FUNCTION = {(method.function, method.id): method for method in METHODS}
_BY_EVIDENCE_KEY = {method.evidence_key: method for method in reversed(METHODS) if method.evidence_key is not None}
_TESTS_BY_METHOD = {method.id: method for method in METHODS if method.family == "test"}
_REFITTING_INTERVALS = {"nested-cv": _BY_ID["nested-cv"], "conservative-z": _BY_ID["conservative-z"]}
"""The intervals a decision may weigh as tests, by their results' ``method`` (unique among intervals)."""


def method_row(method_id, function=None):
    """The row whose ``id`` is ``method_id``: of ``function`` (a public function's name) where given, else the
    first in the table (the test, where a test and an interval share the id).

    Raises
    ------
    KeyError
        When no row has that id (for that function).
    """
    return _BY_ID[method_id] if function is None else _BY_FUNCTION[function, method_id]


def method_ids():
    """Every method's id, once each, in the table's order."""
    return tuple(dict.fromkeys(method.id for method in METHODS))


def options(function):
    """The ``method=`` values of ``function`` (a public function's name), in the table's order: its rows' ids,
    what its ``method`` parameter accepts besides ``"auto"`` where it has one (none: the function is one method)."""
    return tuple(method.id for method in METHODS if method.function == function and function in OPTION_FUNCTIONS)


def option(method):
    """The keyword arguments that make ``method.function`` compute the row ``method``: ``{"method": its id}``, or
    none where the function is the method."""
    return {"method": method.id} if method.function in OPTION_FUNCTIONS else {}


def row(function, method_id=None):
    """The row of ``function`` (a public function's name) computed with ``method=method_id`` (None: the row of a
    function that is the method); None when there is none."""
    if method_id is None:
        return None if function in OPTION_FUNCTIONS else next((m for m in METHODS if m.function == function), None)
    return _BY_FUNCTION.get((function, method_id))


def evidence_rank(evidence_key):
    """The decision's rank of the test whose rows in the evidence are named ``evidence_key`` (the number of rows
    when no ranked test has that key): what ``benchmarks/calibration_report.py`` orders measured tests by."""
    found = _BY_EVIDENCE_KEY.get(evidence_key)
    return len(METHODS) if found is None or found.preference is None else found.preference


def evidence_row(evidence_key):
    """The row whose rows in the stored evidence are named ``evidence_key`` (the first, where rows share it); None
    when no row has it. The evidence's reader maps each stored key to its row's id with it, once."""
    return _BY_EVIDENCE_KEY.get(evidence_key)


def row_of(result):
    """The row of a test result (or of a refitting interval a decision weighs: nested-cv, conservative-z), found
    from the result itself, by its ``method``; None for a result no row computes (one made by hand)."""
    table = _TESTS_BY_METHOD if hasattr(result, "pvalue") else _REFITTING_INTERVALS
    return table.get(result.method)


def result_label(result):
    """How reports name a test result (or a refitting interval a decision weighs): its row's label and its
    ``details["variant"]``; a result no row computes keeps its own ``method``."""
    found = _TESTS_BY_METHOD.get(result.method) or _REFITTING_INTERVALS.get(result.method)
    details = getattr(result, "details", None) or {}
    return result.method if found is None else display_label(found.id, variant=details.get("variant"))


def display_label(method_id, details="", *, function=None, variant=None):
    """How reports name a method: its row's label, then its ``variant`` in parentheses where it has one (McNemar's
    "exact"), then ``details`` (a design, " (5x10-fold)", or what it is computed on); the one place a method's
    display name is composed.

    Examples
    --------
    >>> display_label("corrected-t", " (5x10-fold)")
    'corrected t (5x10-fold)'
    >>> display_label("normal", function="loss_interval")
    'normal'
    """
    label = method_row(method_id, function).label
    return label + ("" if not variant else f" ({variant})") + details


def methods_markdown():
    """``docs/methods.md``: the table of methods, as Markdown (tests/inference/test_methods.py checks the page)."""
    lines = ["# Methods", "",
             *wrapped("Generated from `cvinference/inference/_methods.py` (`methods_markdown()`); do not edit by "
                      "hand. Each interval and test is one row: its id (the `method` its results carry), the function "
                      "that computes it and its `method=` option, the record it takes, what it is about, the target "
                      "it is built for (docs/reading-results.md), the name of its rows in the calibration evidence "
                      "(docs/calibration.md; \"not measured\" where the benchmark has none) and its rank among the "
                      "tests a decision may rest on (1 first; docs/reading-results.md, \"The decision\").", width=79,
                     continuation=""),
             "",
             "| id | function | `method=` | record | quantity | target | evidence | decision rank |",
             "|---|---|---|---|---|---|---|---|"]
    for method in METHODS:
        option = f'`"{method.id}"`' if method.function in OPTION_FUNCTIONS else ""
        evidence = "not measured" if method.evidence_key is None else f'"{method.evidence_key}"'
        rank = "" if method.preference is None else str(method.preference + 1)
        lines.append(f"| `{method.id}` | `{method.function}` | {option} | {method.record} | "
                     f"{method.quantity} | {method.target} | {evidence} | {rank} |")
    return "\n".join(lines) + "\n"
