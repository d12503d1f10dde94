"""docs/api.md's autosummary tables list every public name, and only public names.

The API reference is generated from the docstrings by the Sphinx build
(``python -m sphinx -W --keep-going -b html docs docs/_build/html``): each
name in an autosummary table of docs/api.md gets a page with its signature,
parameters and examples. What the build cannot see is a public name left out
of the tables; this test does:

1. every name in ``cvinference.__all__`` and in the ``__all__`` of every
   public subpackage is listed, under the ``.. currentmodule::`` that exports
   it (a subpackage's name that ``cvinference`` also exports may be listed
   once, under ``cvinference``);
2. every listed name is in the ``__all__`` of its current module, and none
   is listed twice;
3. every table writes its pages to ``generated/``, so every name has one.

The tables are reStructuredText inside ```` ```{eval-rst} ```` blocks, the
form in which Sphinx's autosummary finds them in a Markdown page.
"""

import collections
import importlib
import pkgutil
import re
from pathlib import Path

import cvinference

API = Path(__file__).resolve().parents[1] / "docs" / "api.md"
_RST_BLOCK = re.compile(r"^```\{eval-rst\}\n(.*?)^```", re.S | re.M)
_CURRENT_MODULE = re.compile(r"^\.\. currentmodule:: (\S+)\s*$")
_AUTOSUMMARY = re.compile(r"^\.\. autosummary::\s*$")


def _tables(text):
    """[(module, [names], options)] of every autosummary table, in page order."""
    tables, module = [], None
    for block in _RST_BLOCK.findall(text):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if match := _CURRENT_MODULE.match(line):
                module = match.group(1)
            elif _AUTOSUMMARY.match(line):
                body = []
                for entry in lines[i + 1:]:
                    if entry.strip() and not entry.startswith(" "):
                        break
                    body.append(entry.strip())
                options = {item.split(":")[1]: item.split(":", 2)[2].strip() for item in body if item.startswith(":")}
                names = [item for item in body if item and not item.startswith(":")]
                tables.append((module, names, options))
    return tables


def _listed(text):
    return [(module, name) for module, names, _ in _tables(text) for name in names]


def _public_modules():
    """cvinference and every subpackage that declares ``__all__``."""
    modules = [cvinference]
    for info in pkgutil.iter_modules(cvinference.__path__):
        if info.ispkg:
            module = importlib.import_module(f"cvinference.{info.name}")
            if hasattr(module, "__all__"):
                modules.append(module)
    return modules


def _undocumented(listed):
    """Public names (module.name) whose object no table lists."""
    listed_objects = collections.defaultdict(list)
    for module, name in listed:
        try:
            listed_objects[name].append(getattr(importlib.import_module(module), name))
        except (ImportError, AttributeError):
            pass  # reported by _not_public
    missing = []
    for module in _public_modules():
        for name in module.__all__:
            obj = getattr(module, name)
            if (module.__name__, name) not in listed and not any(o is obj for o in listed_objects[name]):
                missing.append(f"{module.__name__}.{name}")
    return missing


def _not_public(listed):
    """Listed names that their current module does not export."""
    wrong = []
    for module, name in listed:
        try:
            exported = importlib.import_module(module).__all__
        except (ImportError, AttributeError, TypeError):
            exported = ()
        if name not in exported:
            wrong.append(f"{module}.{name}")
    return wrong


def test_the_page_has_autosummary_tables_under_a_current_module():
    tables = _tables(API.read_text())
    assert len(tables) >= 10, "docs/api.md: expected one autosummary table per group of the reference"
    assert all(module for module, _, _ in tables), "docs/api.md: a table comes before any '.. currentmodule::'"


def test_every_public_name_is_listed():
    missing = _undocumented(_listed(API.read_text()))
    assert not missing, f"docs/api.md lists no autosummary entry for: {missing}"


def test_every_listed_name_is_public():
    wrong = _not_public(_listed(API.read_text()))
    assert not wrong, f"docs/api.md lists names that their module's __all__ does not export: {wrong}"


def test_no_name_is_listed_twice():
    counts = collections.Counter(_listed(API.read_text()))
    repeated = sorted(f"{module}.{name}" for (module, name), count in counts.items() if count > 1)
    assert not repeated, f"docs/api.md lists more than once: {repeated}"


def test_every_table_generates_a_page_per_name():
    for module, names, options in _tables(API.read_text()):
        assert options.get("toctree") == "generated", (
            f"docs/api.md: the table of {names[:3]} ({module}) needs ':toctree: generated' to give each name a page")


def test_the_checks_catch_a_missing_and_a_stale_name():
    """The checks above are not vacuous: a table without a public name, or with a private one, is caught."""
    text = API.read_text()
    without = text.replace("   accuracy_interval\n", "", 1)
    assert without != text
    assert _undocumented(_listed(without)) == ["cvinference.accuracy_interval",
                                               "cvinference.inference.accuracy_interval"]
    stale = text.replace("   accuracy_interval\n", "   accuracy_interval\n   _accuracy_interval_typo\n", 1)
    assert _not_public(_listed(stale)) == ["cvinference._accuracy_interval_typo"]
    subpackage_only = text.replace("   render_text\n", "", 1)
    assert _undocumented(_listed(subpackage_only)) == ["cvinference.report.render_text"]
