"""The shared parameter texts of ``_utils/_docstring.py``: every placeholder filled, every text in place."""

import importlib
import inspect
import pkgutil
import re

import pytest

import cvinference
from cvinference._utils import _docstring
from cvinference._utils._docstring import SHARED, fill_doc

from public_names import public_names

_PLACEHOLDER = re.compile(r"%\(\w+\)s")


def _documented_objects():
    """(qualified name, object) of every module, function, class and method defined in cvinference."""
    for info in pkgutil.walk_packages(cvinference.__path__, "cvinference."):
        module = importlib.import_module(info.name)
        if module is _docstring:
            continue  # it explains the placeholders, in its own docstrings
        yield info.name, module
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{info.name}.{name}", obj
            if inspect.isclass(obj):
                for attribute, member in vars(obj).items():
                    member = getattr(member, "__func__", member)
                    if inspect.isfunction(member):
                        yield f"{info.name}.{name}.{attribute}", member


def _users(key):
    """The public functions and classes whose docstring holds the shared text ``key``, in the right place."""
    text = SHARED[key]
    first, *rest = text.split("\n")
    if " : " in first or (rest and all(line.startswith("    ") for line in rest if line)):
        blocks = ["\n" + text]  # a whole entry (a parameter's, or a Returns type's): its description 4 columns in
    else:  # sentences of a description, continued 4 columns in, or a paragraph of its own
        blocks = [text.replace("\n", "\n    "), "\n" + text + "\n"]
    users = []
    report = [getattr(cvinference.report, name) for name in cvinference.report.__all__]
    for obj in [*public_names().values(), *report]:
        methods = [m for m in vars(obj).values() if inspect.isfunction(m)] if inspect.isclass(obj) else []
        for candidate in [obj, *methods]:
            doc = inspect.getdoc(candidate) or ""
            lines = "\n" + "\n".join(line if line.strip() else "" for line in doc.splitlines()) + "\n"
            if any(block in lines for block in blocks):
                users.append(candidate.__qualname__)
    return users


def test_no_docstring_keeps_a_placeholder():
    docs = [(name, obj.__doc__) for name, obj in _documented_objects()]
    unfilled = [name for name, doc in docs if isinstance(doc, str) and _PLACEHOLDER.search(doc)]
    assert len(docs) > 500, "the walk over the package found too few docstrings to check"
    assert not unfilled, f"docstrings with an unfilled %(name)s placeholder (decorate them with fill_doc): {unfilled}"


@pytest.mark.parametrize("key", sorted(SHARED))
def test_each_shared_text_is_used_where_it_is_shared(key):
    """Written once because four or more public docstrings say it; each reads it correctly indented."""
    users = _users(key)
    assert len(set(users)) >= 4, f"SHARED[{key!r}] is used by {users}; a text of fewer than four can stay inline"


def test_the_entries_keep_the_numpydoc_layout():
    """A filled entry sits under Parameters like a written one: name line, then the description 4 columns in."""
    doc = inspect.getdoc(cvinference.accuracy_interval)
    parameters = doc[doc.index("Parameters\n----------\n"):doc.index("Returns\n-------")]
    names = re.findall(r"^(\w+) : ", parameters, flags=re.M)
    assert names == list(inspect.signature(cvinference.accuracy_interval).parameters)
    assert "confidence_level : float, default=0.95\n    The confidence level" in parameters


def test_a_method_docstring_is_indented_as_its_placeholder():
    doc = cvinference.CVEvaluator.evaluate.__doc__
    assert "\n        X : array-like or sparse matrix of shape (n_samples, n_features)\n            Features (" in doc


def test_an_unknown_placeholder_fails_at_decoration():
    def documented():
        """Summary.

        Parameters
        ----------
        %(confidence_levle)s
        """

    with pytest.raises(KeyError, match=r"%\(confidence_levle\)s names no shared text"):
        fill_doc(documented)


def test_a_function_without_docstring_is_returned_unchanged():
    def bare():
        pass

    assert fill_doc(bare) is bare and bare.__doc__ is None
