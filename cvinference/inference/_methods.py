"""The table of methods: every interval and test of the inference layer, one row each.

A method has one name, its row's ``id`` (hyphen-case, the style of the
``method=`` options: ``"corrected-t"``, ``"half-sample"``). An interval that
several functions compute (half-sample for the accuracy and for a loss)
keeps one id, so a row is found by its function and id (:func:`row`), and an
id alone (:func:`method_row`) finds the first row that has it: the test
where a test and an interval share one. The decision finds a test's
evidence by the row of the result it is given (:func:`row_of`), never by
the text of a label; the calibration evidence keys every row by its
method's id (``policy/data/calibration.json``, with fields of its own for
the design measured); reports name a method by :func:`display_label`
alone; ``docs/methods.md`` is generated from the table
(:func:`methods_markdown`).

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
    label: str
    preference: int | None = None


_PAIR = "PairedCVResult"
_DIFFERENCE = "accuracy difference"
_LOSS_DIFFERENCE = "loss difference"

METHODS = (
    # ------------------------------------------------------------------ tests of two learners
    MethodRow("nested-cv", "interval", "NestedCVResult", "accuracy or loss (difference)", "conditional",
              "nested_cv_interval_of", "nested-cv", 0),
    MethodRow("corrected-t", "test", _PAIR, _DIFFERENCE, "unconditional", "corrected_resampled_ttest", "corrected t",
              1),
    MethodRow("mcnemar", "test", _PAIR, _DIFFERENCE, "kfold", "mcnemar_test", "McNemar", 2),
    MethodRow("5x2cv-t", "test", "PairedCVResult of five_by_two_cv", _DIFFERENCE, "unconditional",
              "paired_ttest_5x2cv_of", "5x2cv t", 3),
    MethodRow("matched-t", "test", _PAIR, _DIFFERENCE, "kfold", "matched_sample_test", "matched-sample t", 4),
    MethodRow("independent-z", "test", _PAIR, _DIFFERENCE, "kfold", "independent_sample_test", "independent-sample z",
              5),
    MethodRow("independent-t", "test", _PAIR, _DIFFERENCE, "kfold", "independent_sample_test",
              "independent-sample t (folds)"),
    MethodRow("5x2cv-f", "test", "PairedCVResult of five_by_two_cv", _DIFFERENCE, "unconditional",
              "combined_ftest_5x2cv_of", "combined 5x2cv F"),
    MethodRow("mcnemar-obuchowski", "test", _PAIR + " with groups", _DIFFERENCE, "kfold", "mcnemar_test",
              "clustered McNemar (Obuchowski)"),
    MethodRow("mcnemar-durkalski", "test", _PAIR + " with groups", _DIFFERENCE, "kfold", "mcnemar_test",
              "clustered McNemar (Durkalski)"),
    MethodRow("cluster-paired-t", "test", _PAIR + " with groups", _LOSS_DIFFERENCE, "kfold", "matched_sample_test",
              "cluster paired t"),
    MethodRow("cv-clt-difference", "test", _PAIR, _LOSS_DIFFERENCE, "kfold", "loss_difference_test", "CV-CLT"),
    MethodRow("delong-paired", "test", _PAIR + " with scores", "ROC AUC difference", "kfold", "delong_paired_test",
              "DeLong paired z"),
    MethodRow("bayesian-correlated-t", "test", _PAIR, _DIFFERENCE, "unconditional", "bayesian_correlated_ttest",
              "Bayesian correlated t"),
    # ------------------------------------------------------------------ intervals of one learner
    MethodRow("normal", "interval", "CVResult", "accuracy", "kfold", "accuracy_interval",
              "normal (Wong, dataset level)"),
    MethodRow("t", "interval", "CVResult", "accuracy", "kfold", "accuracy_interval", "t (Wong, fold level)"),
    MethodRow("wilson", "interval", "CVResult", "accuracy", "kfold", "accuracy_interval", "Wilson"),
    MethodRow("clopper-pearson", "interval", "CVResult", "accuracy", "kfold", "accuracy_interval", "Clopper-Pearson"),
    MethodRow("half-sample", "interval", "CVResult", "accuracy", "conditional", "accuracy_interval",
              "half-sample (Nedel'ko)"),
    MethodRow("cluster", "interval", "CVResult with groups", "accuracy", "kfold", "accuracy_interval",
              "cluster-robust"),
    MethodRow("cluster-half-sample", "interval", "CVResult with groups", "accuracy", "kfold", "accuracy_interval",
              "cluster-robust half-sample"),
    MethodRow("half-sample", "interval", "CVResult", "loss", "conditional", "loss_interval", "half-sample (Nedel'ko)"),
    MethodRow("normal", "interval", "CVResult", "loss", "kfold", "loss_interval", "normal"),
    MethodRow("t", "interval", "CVResult", "loss", "kfold", "loss_interval", "fold t"),
    MethodRow("cv-clt", "interval", "CVResult", "loss", "kfold", "loss_interval", "CV-CLT (Bayle et al.)"),
    MethodRow("cluster", "interval", "CVResult with groups", "loss", "kfold", "loss_interval", "cluster-robust"),
    MethodRow("cv-clt", "interval", "CVResult", "regression metric", "kfold", "regression_interval",
              "CV-CLT (Bayle et al.)"),
    MethodRow("cluster", "interval", "CVResult with groups", "regression metric", "kfold", "regression_interval",
              "cluster-robust"),
    MethodRow("cluster-half-sample", "interval", "CVResult with groups", "regression metric", "kfold",
              "regression_interval", "cluster-robust half-sample"),
    MethodRow("t", "interval", "CVResult", "metric", "kfold", "metric_interval", "t"),
    MethodRow("corrected-t", "interval", "CVResult", "metric", "unconditional", "metric_interval", "corrected t"),
    MethodRow("delong", "interval", "CVResult with scores", "ROC AUC", "kfold", "metric_interval", "DeLong"),
    MethodRow("conservative-z", "interval", "SubsamplingResult", "accuracy or loss", "unconditional",
              "conservative_z_interval_of", "conservative Z"),
    MethodRow(".632", "interval", "BootstrapSamplingResult", "accuracy", "conditional", "bootstrap_accuracy_of",
              ".632 bootstrap"),
    MethodRow(".632+", "interval", "BootstrapSamplingResult", "accuracy", "conditional", "bootstrap_accuracy_of",
              ".632+ bootstrap"),
    MethodRow("oob", "interval", "BootstrapSamplingResult", "accuracy", "kfold", "bootstrap_accuracy_of",
              "out-of-bag bootstrap"),
    # ------------------------------------------------------------------ forward validation (time order)
    MethodRow("prewhitened-hac", "interval", "ForwardResult", "forecast loss", "forward", "forecast_interval",
              "pre-whitened HAC"),
    MethodRow("hac", "interval", "ForwardResult", "forecast loss", "forward", "forecast_interval", "HAC"),
    MethodRow("block-bootstrap", "interval", "ForwardResult", "forecast loss", "forward", "forecast_interval",
              "moving-block bootstrap"),
    MethodRow("stationary-bootstrap", "interval", "ForwardResult", "forecast loss", "forward", "forecast_interval",
              "stationary bootstrap"),
    MethodRow("iid", "interval", "ForwardResult", "forecast loss", "forward", "forecast_interval",
              "independent forecasts"),
    MethodRow("diebold-mariano", "test", "PairedForwardResult", "forecast loss difference", "forward", "forecast_test",
              "Diebold-Mariano"),
    MethodRow("prewhitened-diebold-mariano", "test", "PairedForwardResult", "forecast loss difference", "forward",
              "forecast_test", "Diebold-Mariano, pre-whitened"),
    MethodRow("giacomini-white", "test", "PairedForwardResult", "forecast loss difference", "forward", "forecast_test",
              "Giacomini-White"),
)
"""Every interval and test, one row each."""

OPTION_FUNCTIONS = frozenset({
    "mcnemar_test", "matched_sample_test", "independent_sample_test", "accuracy_interval", "loss_interval",
    "regression_interval", "metric_interval", "bootstrap_accuracy_of", "forecast_interval", "forecast_test"})
"""The functions that compute several rows, each as ``method=<its id>``; every other function is one method."""

_BY_ID = {method.id: method for method in reversed(METHODS)}  # reversed: the first row of an id wins
_BY_FUNCTION = {(method.function, method.id): method for method in METHODS}
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
                      "it is built for (docs/reading-results.md) and its rank among the tests a decision may rest on "
                      "(1 first; docs/reading-results.md, \"The decision\"). The calibration evidence "
                      "(docs/calibration.md) keys its rows by the id.", width=79,
                     continuation=""),
             "",
             "| id | function | `method=` | record | quantity | target | decision rank |",
             "|---|---|---|---|---|---|---|"]
    for method in METHODS:
        option = f'`"{method.id}"`' if method.function in OPTION_FUNCTIONS else ""
        rank = "" if method.preference is None else str(method.preference + 1)
        lines.append(f"| `{method.id}` | `{method.function}` | {option} | {method.record} | "
                     f"{method.quantity} | {method.target} | {rank} |")
    return "\n".join(lines) + "\n"
