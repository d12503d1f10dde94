"""The report renders; it reads the layers below through their public names only (issue 59, item 5).

Parsed from the code (every import, also one inside a function): a module of ``cvinference.report`` imports from a
private module of ``cvinference.inference`` or ``cvinference.policy`` only the names listed in ``REMAINING``, which is
empty: the words it needs are the report's own or shared (``_utils._text``: ``loss_words``, ``METRIC_WORDS``), the
results carry their labels (``result.label``), the policy hands the figures what they draw (a decision's
``margin_interval``) and says what its per-horizon tests are (``policy.HORIZON_TEST``).
"""

import ast
from pathlib import Path

REPORT = Path(__file__).resolve().parents[2] / "cvinference" / "report"

REMAINING = set()
"""The private imports of inference and policy the report still makes (none; it may stay empty only)."""


def _report_sources():
    return [(path.stem, path.read_text()) for path in sorted(REPORT.glob("*.py"))]


def _private_imports(sources):
    found = set()
    for stem, text in sources:
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.ImportFrom) or node.level != 2 or not node.module:
                continue
            layer, *rest = node.module.split(".")
            if layer in ("inference", "policy") and rest and rest[0].startswith("_"):
                found |= {(stem, f"..{node.module}", alias.name) for alias in node.names}
    return found


def test_the_report_imports_from_private_modules_below_only_the_listed_names():
    found = _private_imports(_report_sources())
    assert found <= REMAINING, f"new private imports in the report: {sorted(found - REMAINING)}"
    assert REMAINING <= found, f"no longer imported, drop from REMAINING: {sorted(REMAINING - found)}"


def test_the_check_sees_a_private_import():
    """Not vacuous: the parser finds a private import of inference or policy (one inside a function too), and not the
    public ones nor those of ``_utils``."""
    source = ("from ..inference._regression import loss_words\nfrom ..policy import decide\n"
              "from .._utils._text import wrapped\ndef draw():\n    from ..policy._margin import relevelled\n")
    assert _private_imports([("_plot", source)]) == {("_plot", "..inference._regression", "loss_words"),
                                                     ("_plot", "..policy._margin", "relevelled")}
