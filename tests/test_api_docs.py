"""docs/api.md documents every public name, with signatures that match the code.

The conventions are stated at the top of docs/api.md:

1. every name in ``cvinference.__all__`` has a level-3 heading ``### `name` ``;
2. the ```text blocks of the page hold signatures only: ``name(...)`` or
   ``Class.method(...)`` at the start of a line, continued on indented lines,
   followed by nothing but an optional ``# comment``; methods without ``self``;
3. each signature matches ``inspect.signature``: parameter names, order, kinds
   and defaults (annotations are not written; a default ``...`` stands for a
   dataclass ``default_factory``). Every public function and class with an
   inspectable signature, and every public method defined by a cvinference
   class, is written exactly once.
"""

import ast
import collections
import inspect
import re
from pathlib import Path

import pytest

import cvinference
from cvinference._utils._upward import UpwardMethod

API = Path(__file__).resolve().parents[1] / "docs" / "api.md"
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
_START = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\(")


def _text_blocks():
    return [match.group(2) for match in _BLOCK.finditer(API.read_text()) if match.group(1) == "text"]


def _closing_paren(text, start):
    """Index of the parenthesis that closes the one at ``start``, skipping string literals."""
    depth, quote, i = 0, None, start
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise AssertionError(f"unbalanced parentheses in api.md signature: {text[start - 40:start + 80]!r}")


def _written_signatures():
    """(qualified name, parameter text) for every signature in the text blocks, in page order."""
    found = []
    for block in _text_blocks():
        position = 0
        while position < len(block):
            end_of_line = block.find("\n", position)
            end_of_line = len(block) if end_of_line == -1 else end_of_line
            line = block[position:end_of_line]
            if not line.strip():
                position = end_of_line + 1
                continue
            match = _START.match(line)
            assert match, f"api.md: a text block line is not a signature (see the top of api.md): {line!r}"
            opening = position + match.end() - 1
            closing = _closing_paren(block, opening)
            rest_end = block.find("\n", closing)
            rest_end = len(block) if rest_end == -1 else rest_end
            rest = block[closing + 1:rest_end].strip()
            assert rest == "" or rest.startswith("#"), (
                f"api.md: only a comment may follow the signature of {match.group(1)}; got {rest!r}")
            found.append((match.group(1), block[opening + 1:closing]))
            position = rest_end + 1
    return found


def _parse(params):
    """[(name, kind, default)] of a written parameter list; default is inspect's empty when absent."""
    function = ast.parse(f"def f({params}): pass").body[0]
    arguments = function.args
    empty = inspect.Parameter.empty
    positional = [(a, inspect.Parameter.POSITIONAL_ONLY) for a in arguments.posonlyargs]
    positional += [(a, inspect.Parameter.POSITIONAL_OR_KEYWORD) for a in arguments.args]
    defaults = [empty] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    parsed = [(a.arg, kind, default) for (a, kind), default in zip(positional, defaults)]
    if arguments.vararg is not None:
        parsed.append((arguments.vararg.arg, inspect.Parameter.VAR_POSITIONAL, empty))
    parsed += [(a.arg, inspect.Parameter.KEYWORD_ONLY, empty if d is None else d)
               for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults)]
    if arguments.kwarg is not None:
        parsed.append((arguments.kwarg.arg, inspect.Parameter.VAR_KEYWORD, empty))
    return [(name, kind, default if default is empty else _value(default)) for name, kind, default in parsed]


_FACTORY = object()


def _value(node):
    """The value of a written default: a literal or simple arithmetic such as 1/3; ``...`` is a factory."""
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return _FACTORY
    return eval(compile(ast.Expression(node), "<api.md default>", "eval"), {"__builtins__": {}})


def _public_methods(cls):
    """Public functions a cvinference class defines itself or takes from a private cvinference mixin.

    A mixin (a cvinference base class outside ``cvinference.__all__``, such as
    the one giving every result ``to_dict``) has no heading of its own, so
    its methods are written under each public class that uses it; methods
    inherited from scikit-learn or from a public class are not repeated.
    """
    mixins = [base for base in cls.__mro__[1:]
              if base.__module__.startswith("cvinference") and base.__name__ not in cvinference.__all__]
    methods = {}
    for owner in [*reversed(mixins), cls]:
        for name, member in vars(owner).items():
            if name.startswith("_"):
                continue
            if isinstance(member, (classmethod, staticmethod, UpwardMethod)) or inspect.isfunction(member):
                methods[f"{cls.__name__}.{name}"] = getattr(cls, name)
    return methods


def _documentable():
    """Every public object whose signature api.md must show, by qualified name."""
    objects = {}
    for name in cvinference.__all__:
        obj = getattr(cvinference, name)
        try:
            inspect.signature(obj)
        except (TypeError, ValueError):
            pass  # no inspectable signature: an exception class such as InferenceWarning
        else:
            objects[name] = obj
        if inspect.isclass(obj) and obj.__module__.startswith("cvinference"):
            objects.update(_public_methods(obj))
    return objects


def _actual(name, obj):
    """[(name, kind, default)] of the code's signature; a method's ``self`` is left out."""
    parameters = list(inspect.signature(obj).parameters.values())
    if "." in name:
        owner, attribute = name.split(".")
        if not isinstance(inspect.getattr_static(getattr(cvinference, owner), attribute), (classmethod, staticmethod)):
            assert parameters and parameters[0].name == "self", f"{name}: expected a method taking self"
            parameters = parameters[1:]
    return [(p.name, p.kind, p.default) for p in parameters]


def _same_default(written, actual):
    if written is _FACTORY:
        return repr(actual) == "<factory>"
    if actual is inspect.Parameter.empty or written is inspect.Parameter.empty:
        return written is actual
    return type(written) is type(actual) and written == actual


def test_every_public_name_has_its_own_heading():
    headings = re.findall(r"^### `([^`]+)`\s*$", API.read_text(), flags=re.M)
    missing = sorted(set(cvinference.__all__) - set(headings))
    assert not missing, f"api.md has no '### `name`' heading for: {missing}"
    stale = sorted(set(headings) - set(cvinference.__all__))
    assert not stale, f"api.md has headings for names that are not in cvinference.__all__: {stale}"
    repeated = [name for name, count in collections.Counter(headings).items() if count > 1]
    assert not repeated, f"api.md has more than one heading for: {repeated}"


def test_every_written_signature_names_a_public_object():
    documentable = _documentable()
    unknown = [name for name, _ in _written_signatures() if name not in documentable]
    assert not unknown, f"api.md shows signatures of names that are not public or have none: {unknown}"


def test_every_public_signature_is_written_exactly_once():
    counts = collections.Counter(name for name, _ in _written_signatures())
    missing = sorted(set(_documentable()) - set(counts))
    assert not missing, f"api.md shows no signature for: {missing}"
    repeated = sorted(name for name, count in counts.items() if count > 1)
    assert not repeated, f"api.md shows more than one signature for: {repeated}"


def _signature_cases():
    try:
        return [pytest.param(name, params, id=name) for name, params in _written_signatures()]
    except AssertionError:
        return []  # test_text_blocks_hold_only_signatures reports the mistake


def test_text_blocks_hold_only_signatures():
    assert _written_signatures()


@pytest.mark.parametrize("name, params", _signature_cases())
def test_written_signature_matches_the_code(name, params):
    documentable = _documentable()
    if name not in documentable:
        pytest.skip(f"{name} is not public (reported by test_every_written_signature_names_a_public_object)")
    written = _parse(params)
    actual = _actual(name, documentable[name])
    assert [(n, k) for n, k, _ in written] == [(n, k) for n, k, _ in actual], (
        f"api.md: the parameters of {name} differ from the code:\n  written {[(n, k.name) for n, k, _ in written]}"
        f"\n  actual  {[(n, k.name) for n, k, _ in actual]}")
    for (parameter, _, default), (_, _, expected) in zip(written, actual):
        assert _same_default(default, expected), (
            f"api.md: {name}({parameter}=...) shows the default {default!r}; the code has {expected!r}")


def test_the_convention_catches_a_wrong_signature():
    """The checks above are not vacuous: a mistyped default or a missing parameter is found."""
    actual = _actual("accuracy_interval", cvinference.accuracy_interval)
    right = _parse('result, confidence_level=0.95, *, averaging="dataset", method="auto", '
                   "drop_failing_folds=False, repeat=None, min_count=5, target='kfold'")
    wrong_default = _parse('result, confidence_level=0.9, *, averaging="dataset", method="auto", '
                           "drop_failing_folds=False, repeat=None, min_count=5, target='kfold'")
    not_keyword_only = _parse('result, confidence_level=0.95, averaging="dataset", method="auto", '
                              "drop_failing_folds=False, repeat=None, min_count=5, target='kfold'")
    assert all(_same_default(w, a) for (_, _, w), (_, _, a) in zip(right, actual))
    assert [(n, k) for n, k, _ in right] == [(n, k) for n, k, _ in actual]
    assert not all(_same_default(w, a) for (_, _, w), (_, _, a) in zip(wrong_default, actual))
    assert [(n, k) for n, k, _ in not_keyword_only] != [(n, k) for n, k, _ in actual]
    assert _parse("test_size=1/3")[0][2] == 1 / 3
