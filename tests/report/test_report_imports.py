"""The report renders; it reads the layers below through their public names only (issue 59, item 5).

Parsed from the code (every import, also one inside a function): a module of ``cvinference.report`` imports from a
private module of ``cvinference.inference`` or ``cvinference.policy`` only the names listed in ``REMAINING`` (words,
constants and one re-levelling of an interval for a figure; the inference layer is being renamed in parallel, so
they stay for now; the merge of the one-name-per-method branch added ``result_label``, the table's name of a result,
which the report shows). The list may only shrink.
"""

import ast
from pathlib import Path

REPORT = Path(__file__).resolve().parents[2] / "cvinference" / "report"

REMAINING = {
    ("_forward_report", "..inference._forecast", "SMALL_SAMPLE_FORECASTS"),
    ("_forward_report", "..inference._methods", "result_label"),
    ("_forward_report", "..inference._regression", "loss_words"),
    ("_plot", "..inference._methods", "result_label"),
    ("_plot", "..inference._regression", "LOSS_METRICS"),
    ("_plot", "..inference._regression", "loss_words"),
    ("_plot", "..policy._margin", "relevelled"),
    ("_report", "..inference._accuracy_interval", "CLUSTER_METHODS"),
    ("_report", "..inference._estimands", "TARGET_PHRASES"),
    ("_report", "..inference._no_information", "baseline_test_words"),
    ("_report", "..inference._regression", "loss_words"),
}
"""The private imports of inference and policy the report still makes: text and constants, not computations."""


def _private_imports():
    found = set()
    for path in sorted(REPORT.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or node.level != 2 or not node.module:
                continue
            layer, *rest = node.module.split(".")
            if layer in ("inference", "policy") and rest and rest[0].startswith("_"):
                found |= {(path.stem, f"..{node.module}", alias.name) for alias in node.names}
    return found


def test_the_report_imports_from_private_modules_below_only_the_listed_names():
    found = _private_imports()
    assert found <= REMAINING, f"new private imports in the report: {sorted(found - REMAINING)}"
    assert REMAINING <= found, f"no longer imported, drop from REMAINING: {sorted(REMAINING - found)}"


def test_the_check_sees_a_private_import():
    """Not vacuous: the parser finds the private imports that are there."""
    assert ("_report", "..inference._regression", "loss_words") in _private_imports()
