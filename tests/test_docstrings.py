"""Issue 59, item 7: every public docstring parses with numpydoc and documents its signature.

Every public function and class (the ``__all__`` of ``cvinference`` and of each public subpackage)
and every public method of a public class is parsed with numpydoc's own parser, the one the API pages
render with; what it reads under Parameters is compared with :func:`inspect.signature`: each parameter
documented exactly once, in the signature's order, no documented name that is not a parameter, and
each entry with a description.
``*args``/``**kwargs`` are spelled as numpydoc spells them, and one entry may document several
parameters (``x, y : ...``). A result dataclass documents its fields under Attributes instead (no one
calls its constructor): every public field once, in its own docstring or a base class's. A docstring
that gives its parameters by reference to others' (``cross_val_correctness`` is a thin wrapper of
``CVEvaluator``) is listed in ``DELEGATES``, and the docstrings it names must document them.

numpydoc is in the ``docs`` and ``test`` extras; without it the module is skipped.
"""

import dataclasses
import importlib
import inspect
import pkgutil
import warnings

import pytest

import cvinference

docscrape = pytest.importorskip("numpydoc.docscrape")

DELEGATES = {
    "cvinference.cross_val_correctness": ("cvinference.CVEvaluator", "cvinference.CVEvaluator.evaluate"),
}
"""A thin wrapper -> the public docstrings that document its parameters (its own says where)."""


def _public_modules():
    yield cvinference
    for info in pkgutil.iter_modules(cvinference.__path__):
        if info.ispkg and not info.name.startswith("_"):
            yield importlib.import_module(f"cvinference.{info.name}")


def _methods(cls):
    """(name, function as found on ``cls``) of every public method defined in the package's classes of its MRO."""
    for klass in cls.__mro__:
        if not klass.__module__.startswith("cvinference"):
            continue
        for name, member in vars(klass).items():
            function = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
            if not name.startswith("_") and inspect.isfunction(function):
                yield name, function, getattr(cls, name)


def _public_documented():
    """{qualified name: (object whose docstring documents it, callable whose signature it documents)}."""
    found, seen = {}, set()
    for module in _public_modules():
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            found[f"{module.__name__}.{name}"] = (obj, obj)
            if inspect.isclass(obj):
                for method, function, bound in _methods(obj):
                    if id(function) not in seen:
                        seen.add(id(function))
                        found[f"{module.__name__}.{name}.{method}"] = (function, bound)
    return found


PUBLIC = _public_documented()


def _parse(obj):
    """numpydoc's reading of ``obj``'s docstring, and the warnings it gave while reading."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parsed = docscrape.NumpyDocString(inspect.getdoc(obj) or "")
    return parsed, [str(warning.message) for warning in caught]


def _names(entries):
    """The parameter names of numpydoc's entries, an ``x, y : ...`` entry giving both."""
    return [name.strip() for entry in entries for name in entry.name.split(",")]


def _signature(call):
    """The parameter names of ``call``, ``*args``/``**kwargs`` as numpydoc spells them; None if it has none."""
    try:
        parameters = inspect.signature(call).parameters.values()
    except (TypeError, ValueError):
        return None
    stars = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    return [stars.get(p.kind, "") + p.name for p in parameters if p.name not in ("self", "cls")]


def _is_deprecated(obj):
    return ".. deprecated::" in (inspect.getdoc(obj) or "")


def _is_record_type(obj):
    """A dataclass or a NamedTuple: fields, documented under Attributes."""
    named_tuple = inspect.isclass(obj) and issubclass(obj, tuple) and hasattr(obj, "_fields")
    return named_tuple or (inspect.isclass(obj) and dataclasses.is_dataclass(obj))


def _documented_fields(cls):
    """Names under Attributes of ``cls``'s docstring and of its package bases' (a subclass keeps its base's fields)."""
    names = []
    for klass in cls.__mro__:
        if klass.__module__.startswith("cvinference") and "__doc__" in vars(klass):
            names += _names(_parse(klass)[0]["Attributes"])
    return names


def test_the_walk_finds_the_public_api():
    assert len(PUBLIC) > 150, f"the walk over the public API found only {len(PUBLIC)} docstrings"
    for name in ("cvinference.evaluate", "cvinference.compare", "cvinference.CVResult.from_frame"):
        assert name in PUBLIC


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_the_docstring_parses_without_a_warning(name):
    obj, _ = PUBLIC[name]
    assert inspect.getdoc(obj), f"{name} has no docstring"
    _, caught = _parse(obj)
    assert not caught, f"numpydoc warns on {name}'s docstring: {caught}"


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_the_parameters_documented_are_the_signature_in_order(name):
    obj, call = PUBLIC[name]
    wanted = _signature(call)
    if wanted is None or _is_deprecated(obj):
        pytest.skip("no signature to compare, or a deprecated name whose docstring points to its replacement")
    parsed, _ = _parse(obj)
    if name in DELEGATES:
        assert not parsed["Parameters"], f"{name} documents parameters itself: drop it from DELEGATES"
        homes = [PUBLIC[home][0] for home in DELEGATES[name]]
        assert all(home.__name__ in (inspect.getdoc(obj) or "") for home in homes), \
            f"{name}'s docstring should name {DELEGATES[name]}, where its parameters are documented"
        documented = {n for home in homes for n in _names(_parse(home)[0]["Parameters"])}
        missing = [parameter for parameter in wanted if parameter not in documented]
        assert not missing, f"{name}: {missing} are documented neither by it nor by {DELEGATES[name]}"
        return
    if _is_record_type(obj) and not parsed["Parameters"]:
        documented = _documented_fields(obj)
        fields = [field for field in wanted if not field.startswith("_")]
        twice = sorted({field for field in fields if documented.count(field) > 1})
        missing = [field for field in fields if field not in documented]
        assert not missing and not twice, \
            f"{name}'s Attributes (with its bases'): fields missing {missing}, documented twice {twice}"
        return
    documented = _names(parsed["Parameters"])
    assert documented == wanted, (
        f"{name}: the docstring's Parameters {documented} are not the signature's {wanted} "
        f"(missing {[p for p in wanted if p not in documented]}, "
        f"not parameters {[p for p in documented if p not in wanted]})")


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_documented_parameter_says_what_it_is(name):
    """An entry of a name and a type alone tells ``help()``'s reader nothing the signature does not."""
    parsed, _ = _parse(PUBLIC[name][0])
    bare = [entry.name for entry in parsed["Parameters"] if not "".join(entry.desc).strip()]
    assert not bare, f"{name}'s Parameters {bare} have no description"


def test_a_combined_entry_and_stars_are_read_as_numpydoc_writes_them():
    def function(x, y, *args, **kwargs):
        """Summary.

        Parameters
        ----------
        x, y : float
            Two numbers.
        *args : tuple
            More.
        **kwargs : dict
            Options.
        """

    assert _names(_parse(function)[0]["Parameters"]) == _signature(function) == ["x", "y", "*args", "**kwargs"]


def test_a_bogus_entry_is_caught():
    """A sentence put where an entry belongs (the old shared ``n_jobs`` text) reads as parameters that do not exist."""
    def function(n_jobs=None):
        """Summary.

        Parameters
        ----------
        None means 1 unless in a context; -1 means
        all processors.
        """

    bogus = ["None means 1 unless in a context; -1 means", "all processors."]
    assert _names(_parse(function)[0]["Parameters"]) == bogus
