"""The package's import graph flows one way, and only through public layers.

``cvinference`` is layered (``docs/architecture.md``)::

    _utils (0) < splitters, records (1) < evaluation (2) < inference (3) < policy (4)
        < report, conveniences (5) < studies, model_selection (6) < workflows (7) < cli (8)

A module may import from its own subpackage and from lower layers, never from
a higher layer or from another subpackage of its own layer, and the graph has
no cycle. Every import counts, also one inside a function. The inference
layer imports nothing from the evaluation layer either: its intervals and
tests are pure functions of records (issue 27). What reads the calibration
evidence (``method="auto"``'s choices, the evidence's warnings, the decision)
is the policy layer's alone (issue 44): no other module imports its modules
or reads its data. The one sanctioned upward reference is a public function
of a higher layer looked up by name when called (``_utils/_upward.py``): a
record's convenience method, the moved ``estimator, X, y`` forms and decision
names that ``cvinference.inference`` still resolves for one release, and the
two questions the statistics ask the policy (``choose_method`` for
``method="auto"``, ``evidence_warnings`` for a method told). A namespace of
re-exports (``cvinference.results``) stands outside the layers, as the
top-level package does: it may name any layer's public names, and no layer
may import it.
"""

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cvinference"

LAYERS = {"_utils": 0, "splitters": 1, "records": 1, "evaluation": 2, "inference": 3, "policy": 4, "report": 5,
          "conveniences": 5, "studies": 6, "model_selection": 6, "workflows": 7, "cli": 8}
# Namespaces of re-exports, outside the layers as the top-level package is: each lazily re-exports the
# public names of several layers (``lazy_exports(..., reexport=True)``), and no layer imports from it.
NAMESPACES = {"results"}


def _module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules():
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imported(module, path):
    """The cvinference modules ``module`` imports, anywhere in its code."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            stem = ".".join(base + ([node.module] if node.module else []))
            names |= {stem} | {f"{stem}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    known = _modules()
    return {name for name in names if name in known and name != module}


def _subpackage(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _graph():
    return {module: _imported(module, path) for module, path in _modules().items()}


def test_every_subpackage_has_a_layer_and_the_top_holds_at_most_three_modules():
    subpackages = {_subpackage(module) for module in _modules()} - {None, "__main__"}
    assert subpackages == set(LAYERS) | NAMESPACES
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert top == ["__init__.py", "__main__.py"]


def _violations(graph):
    found = []
    for module, imported in graph.items():
        source = _subpackage(module)
        if source not in LAYERS:
            continue  # the top-level package, __main__ and the namespaces may import any layer
        for target in imported:
            destination = _subpackage(target)
            if destination == source:
                continue
            if destination not in LAYERS or LAYERS[destination] >= LAYERS[source]:
                found.append(f"{module} imports {target}")
    return found


def test_imports_only_go_down():
    violations = _violations(_graph())
    assert not violations, "upward or sideways imports:\n" + "\n".join(sorted(violations))


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph.get(module, ()):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    return components


def test_the_import_graph_has_no_cycle():
    cycles = _cycles(_graph())
    assert not cycles, f"import cycles: {cycles}"


def _imports_between(graph, source, target):
    return sorted(f"{module} imports {imported}" for module, modules in graph.items() if _subpackage(module) == source
                  for imported in modules if _subpackage(imported) == target)


def test_inference_imports_nothing_from_evaluation():
    """Every interval and test is a pure function of records: the fits reach inference only as records."""
    found = _imports_between(_graph(), "inference", "evaluation")
    assert not found, "the inference layer imports the evaluation layer:\n" + "\n".join(found)


def test_the_checks_catch_an_upward_import_and_a_cycle():
    graph = {"cvinference.records._x": {"cvinference.inference._y"},
             "cvinference.inference._y": {"cvinference.records._x"},
             "cvinference.splitters._z": {"cvinference.records._x"}}
    assert _violations(graph) == ["cvinference.records._x imports cvinference.inference._y",
                                  "cvinference.splitters._z imports cvinference.records._x"]
    assert _cycles(graph) == [["cvinference.inference._y", "cvinference.records._x"]]
    assert _imports_between({"cvinference.inference._y": {"cvinference.evaluation._w"}}, "inference", "evaluation") == [
        "cvinference.inference._y imports cvinference.evaluation._w"]


def _calls(name):
    """(module, call node) of every call of a function or attribute called ``name`` in the package."""
    for module, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if called == name:
                    yield module, node


def _upward_references():
    """(module, layer, name) of every ``upward(...)`` and ``UpwardMethod(...)`` call; None for a non-literal."""
    found = []
    for module, node in [*_calls("upward"), *_calls("UpwardMethod")]:
        if module == "cvinference._utils._upward":
            continue  # the mechanism itself
        literal = len(node.args) >= 2 and all(isinstance(a, ast.Constant) for a in node.args[:2])
        found.append((module, *(a.value for a in node.args[:2])) if literal else (module, None, None))
    return found


def test_the_sanctioned_upward_references_name_public_functions_of_higher_layers():
    references = _upward_references()
    assert references, "the records' convenience methods should be found"
    for module, layer, name in references:
        assert layer is not None, f"{module}: an upward reference must name its layer and function literally"
        assert LAYERS[layer] > LAYERS[_subpackage(module)], (module, layer)
        target = importlib.import_module(f"cvinference.{layer}")
        assert name in target.__all__, f"{module}: cvinference.{layer}.{name} is not public"


def _reexporters():
    """The modules that call ``lazy_exports(..., reexport=True)``, which lets them name other subpackages."""
    return {module for module, node in _calls("lazy_exports")
            if any(k.arg == "reexport" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
                   for k in node.keywords)}


def test_only_a_namespace_reexports_other_subpackages():
    """A layer's lazy exports naming another subpackage (``"..inference"``) would hide an import from these tests."""
    assert _reexporters() == {f"cvinference.{namespace}" for namespace in NAMESPACES}


@pytest.mark.parametrize("layer", sorted(LAYERS | dict.fromkeys(NAMESPACES)))
def test_every_subpackage_exports_what_it_lists(layer):
    package = importlib.import_module(f"cvinference.{layer}")
    assert all(hasattr(package, name) for name in package.__all__)


def test_modules_are_imported_by_name_only_where_that_is_the_job():
    """``importlib.import_module`` is how the upward reference works, how the command line loads the
    estimator class a user names, how the calibration evidence finds a record's learner class
    from its recorded name, and how a package imports its own modules when a name is first used
    (``_utils/_lazy.py``, which refuses any other module); anywhere else it would hide an import
    from these tests."""
    allowed = {"cvinference._utils._upward", "cvinference.cli._estimators", "cvinference.policy._evidence",
               "cvinference._utils._lazy"}
    users = {module for module, _ in _calls("import_module")}
    assert users <= allowed, f"import_module outside {sorted(allowed)}: {sorted(users - allowed)}"


_EVIDENCE_READERS = {"cvinference.policy._evidence", "cvinference.policy._regression_evidence"}
"""The modules that read the calibration evidence's rows: the policy's, and nobody else's."""


def test_the_evidence_is_read_in_the_policy_layer_only():
    """Issue 44: the calibration evidence, the automatic choices and the decision are one part of the architecture
    (docs/architecture.md, "The policy"); the statistics below compute what they are told and ask the policy by
    the sanctioned lookup alone; the layers above read the policy's public names (the command line and the report
    also its private decision helpers)."""
    graph = _graph()
    assert _imports_between(graph, "inference", "policy") == []
    readers = {module for module, _ in _calls("calibration_evidence")}
    assert readers and all(_subpackage(module) == "policy" for module in readers), readers
    assert (PACKAGE / "policy" / "data" / "calibration.json").is_file()
    assert not (PACKAGE / "inference" / "data").exists()
    asked = {(layer, name) for module, layer, name in _upward_references() if _subpackage(module) == "inference"}
    assert {("policy", "choose_method"), ("policy", "evidence_warnings")} <= asked
    for module, imported in graph.items():
        evidence = {target for target in imported if target in _EVIDENCE_READERS}
        assert not evidence or _subpackage(module) == "policy" or module.startswith("cvinference.policy"), module
