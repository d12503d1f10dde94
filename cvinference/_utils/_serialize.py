"""Results as JSON-safe dicts and back: one codec for every result and record, checked as it reads.

Every result's ``to_dict()`` is ``{"format": "cvinference.<ClassName>",
"version": <its format version>, <field>: <encoded value>, ...}``. A value is
written as itself when JSON has a literal for it (str, bool, int, finite
float, None, list); anything else becomes a JSON object with one tag key:

=====================================  =====================================================
value                                  written as
=====================================  =====================================================
nan, inf, -inf (a float)               ``{"float": "nan"}``, ``{"float": "inf"}``, ``{"float": "-inf"}``
tuple                                  ``{"tuple": [items]}``
dict, read-only mapping                ``{"dict": {...}}``, ``{"mapping": {...}}`` (str keys)
numpy scalar                           ``{"scalar": value, "dtype": "<f8"}``
ndarray                                ``{"array": [flat items], "dtype": "<f8", "shape": [2, 3],``
                                       ``"writeable": false}``; a non-finite float item is the
                                       string ``"nan"``, ``"inf"`` or ``"-inf"`` (in an object
                                       array, each item is encoded as a value)
a result's warning with its code       ``{"warning": text, "code": "conditions", "fields": {...}}``
(``_warnings.Caution``)                (a warning without a code of its own is its text)
a result (``Serializable``)            its own ``to_dict()``
=====================================  =====================================================

So ``json.dumps(result.to_dict(), allow_nan=False)`` always works, and
``from_dict`` rebuilds every field with its type: tuples stay tuples, arrays
keep their dtype, shape and read-only flag, nested results are rebuilt as
their classes (found by their ``"format"``).

``from_dict`` reads only what ``to_dict`` writes. It refuses another format,
a version this cvinference cannot read, a missing or an unknown key, a
tagged object of another shape, an array item its dtype would change, a
field of the wrong kind or out of its range (each class declares its fields'
kinds once, see :mod:`._kinds`) and a dict that breaks a rule between fields
(``low <= high``); each message names the class, the field, the value and
what is expected. A private field (``_interval_df``, plumbing that only a
method reads) is written under its public name (``interval_df``). Every format
starts at version 1 with the first release (0.1.0); a dict of another version
is refused, naming the version this cvinference reads.
"""

import dataclasses
import functools
import json
import math
import re
import types
import typing

import numpy as np

from ._kinds import ANY, BOOLEAN, COUNT, NUMBER, STRING, Array, Instance, Mapping, Sequence
from ._params import Integer, Nullable, validate_params
from ._pickling import KeepsReadOnly
from ._warnings import Caution, InferenceWarning

FORMAT_VERSION = 1
"""The version of every format, as the first release (0.1.0) writes it."""

_PREFIX = "cvinference."
_NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
_ARRAY_KINDS = "biufUO"
_REGISTRY = {}


def format_name(cls):
    """The ``"format"`` of ``cls``'s dicts: ``"cvinference.<ClassName>"``."""
    return _PREFIX + cls.__name__


def read_format(data, cls):
    """``data`` itself, or an error naming what is wrong with it: anything but a dict of ``cls``'s format and of
    the version this cvinference reads."""
    name = cls.__name__
    if not isinstance(data, dict):
        raise TypeError(f"{name}.from_dict needs the dict that {name}.to_dict() writes; got a {type(data).__name__}.")
    if data.get("format") != format_name(cls):
        raise ValueError(f"data is not a {format_name(cls)} dict (format={data.get('format')!r}); pass the output "
                         f"of {name}.to_dict().")
    version, current = data.get("version"), cls._format_version
    if type(version) is not int or version != current:
        newer = (" It was written by a newer cvinference: upgrade cvinference to read it."
                 if type(version) is int and version > current else "")
        raise ValueError(f"data has {format_name(cls)} format version {version!r}; this cvinference reads version "
                         f"{current} of it.{newer}")
    return data


def _float_text(value):
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")


def _encode_array(array):
    kind = array.dtype.kind
    if kind not in _ARRAY_KINDS:
        raise TypeError(f"to_dict() cannot write an array of dtype {array.dtype} to JSON; it writes arrays of bools, "
                        "integers, floats, strings or Python objects (such as class labels of mixed types). Convert "
                        "the values, for example dates to strings with .astype(str).")
    items = array.ravel().tolist()
    if kind == "O":  # each item encoded as a value, so that a float nan stays apart from the text "nan"
        items = [encode(item) for item in items]
    elif kind == "f" and not np.isfinite(array).all():
        items = [item if math.isfinite(item) else _float_text(item) for item in items]
    return {"array": items, "dtype": array.dtype.str, "shape": list(array.shape),
            "writeable": bool(array.flags.writeable)}


def _encode_mapping(mapping, tag):
    for key in mapping:
        if not isinstance(key, str):
            raise TypeError(f"to_dict() writes mappings with str keys only; got the key {key!r}.")
    return {tag: {key: encode(value) for key, value in mapping.items()}}


def _encode_scalar(value):
    if value.dtype.kind not in "biufU":
        raise TypeError(f"to_dict() cannot write the numpy scalar {value!r} of dtype {value.dtype} to JSON.")
    item = value.item()
    if isinstance(item, float) and not math.isfinite(item):
        item = _float_text(item)
    return {"scalar": item, "dtype": value.dtype.str}


def encode(value):
    """``value`` as JSON-safe data (see the module's table)."""
    if isinstance(value, Serializable):
        return value.to_dict()
    if isinstance(value, np.ndarray):
        return _encode_array(value)
    if isinstance(value, np.generic):
        return _encode_scalar(value)
    if isinstance(value, float) and not math.isfinite(value):
        return {"float": _float_text(value)}
    if isinstance(value, Caution) and value.code != InferenceWarning.code:
        return {"warning": str(value), "code": value.code, "fields": dict(value.fields)}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, tuple):
        return {"tuple": [encode(item) for item in value]}
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, types.MappingProxyType):
        return _encode_mapping(value, "mapping")
    if isinstance(value, dict):
        return _encode_mapping(value, "dict")
    raise TypeError(f"to_dict() cannot write a value of type {type(value).__name__} to JSON: {value!r}.")


def _refuse(where, what):
    raise ValueError(f"{where} {what}; pass the output of to_dict() unchanged.")


def _dtype(text, where, kinds):
    try:
        dtype = np.dtype(text) if isinstance(text, str) else None
    except TypeError:
        dtype = None
    if dtype is None or dtype.kind not in kinds:
        _refuse(where, f"has the dtype {text!r}, which is not a numpy dtype to_dict() writes (kinds {kinds!r})")
    return dtype


_ITEM_TYPES = {"b": {bool}, "i": {int}, "u": {int}, "f": {int, float, str}, "U": {str}}


def _items(items, dtype, where):
    """The JSON items of an array or scalar of ``dtype`` as Python values it holds unchanged."""
    if not isinstance(items, list):
        _refuse(where, f"holds {items!r} where to_dict() writes a list of items")
    if dtype.kind == "O":
        return [decode(item, f"{where}[{i}]") for i, item in enumerate(items)]
    allowed = _ITEM_TYPES[dtype.kind]
    found = {type(item) for item in items}
    if not found <= allowed:
        bad = next(item for item in items if type(item) not in allowed)
        _refuse(where, f"is an array of dtype {dtype} but holds {bad!r}, of type {type(bad).__name__}")
    if dtype.kind in "iu" and items and (min(items) < np.iinfo(dtype).min or max(items) > np.iinfo(dtype).max):
        _refuse(where, f"holds integers from {min(items)} to {max(items)}, beyond its dtype {dtype}")
    if dtype.kind == "U" and items and max(map(len, items)) > dtype.itemsize // 4:
        _refuse(where, f"holds a string longer than its dtype {dtype} keeps")
    if dtype.kind == "f" and str in found:
        unknown = next((item for item in items if isinstance(item, str) and item not in _NON_FINITE), None)
        if unknown is not None:
            _refuse(where, f"is an array of dtype {dtype} but holds the string {unknown!r}")
        items = [_NON_FINITE[item] if isinstance(item, str) else item for item in items]
    return items


def _shape(shape, size, where):
    if not isinstance(shape, list) or any(type(n) is not int or n < 0 for n in shape) or math.prod(shape) != size:
        _refuse(where, f"has the shape {shape!r}, which does not hold its {size} items")
    return shape


def _decode_array(data, where):
    dtype = _dtype(data["dtype"], where, _ARRAY_KINDS)
    items = _items(data["array"], dtype, where)
    shape = _shape(data["shape"], len(items), where)
    if type(data["writeable"]) is not bool:
        _refuse(where, f"has writeable={data['writeable']!r}, where to_dict() writes true or false")
    array = np.empty(len(items), dtype=dtype)
    if dtype.kind == "O":
        for i, item in enumerate(items):  # one by one: numpy would read a tuple item as a row
            array[i] = item
    else:
        array[:] = items
    array = array.reshape(shape)
    array.setflags(write=data["writeable"])
    return array


def _decode_scalar(data, where):
    dtype = _dtype(data["dtype"], where, "biufU")
    return dtype.type(_items([data["scalar"]], dtype, where)[0])


def _decode_float(data, where):
    if data["float"] not in _NON_FINITE:
        _refuse(where, f"holds {{'float': {data['float']!r}}}, where to_dict() writes 'nan', 'inf' or '-inf'")
    return _NON_FINITE[data["float"]]


def _decode_tuple(data, where):
    if not isinstance(data["tuple"], list):
        _refuse(where, f"holds {{'tuple': {data['tuple']!r}}}, where to_dict() writes a list")
    return tuple(decode(item, f"{where}[{i}]") for i, item in enumerate(data["tuple"]))


def _decode_dict(data, where, tag):
    mapping = data[tag]
    if not isinstance(mapping, dict) or not all(isinstance(key, str) for key in mapping):
        _refuse(where, f"holds {{{tag!r}: {mapping!r}}}, where to_dict() writes an object with string keys")
    return {key: decode(value, f"{where}[{key!r}]") for key, value in mapping.items()}


def _decode_caution(data, where):
    fields = data["fields"]
    if not (isinstance(data["warning"], str) and isinstance(data["code"], str) and isinstance(fields, dict)
            and all(isinstance(value, str) for value in fields.values())):
        _refuse(where, f"holds the warning {data!r}, where to_dict() writes its text, its code and its fields "
                       "(strings)")
    try:
        return Caution(data["warning"], data["code"], **fields)
    except ValueError as error:
        _refuse(where, str(error).rstrip("."))


_TAGGED = {
    frozenset({"warning", "code", "fields"}): _decode_caution,
    frozenset({"float"}): _decode_float,
    frozenset({"tuple"}): _decode_tuple,
    frozenset({"array", "dtype", "shape", "writeable"}): _decode_array,
    frozenset({"scalar", "dtype"}): _decode_scalar,
    frozenset({"mapping"}): lambda data, where: types.MappingProxyType(_decode_dict(data, where, "mapping")),
    frozenset({"dict"}): lambda data, where: _decode_dict(data, where, "dict"),
}


def decode(data, where="data"):
    """The value that :func:`encode` wrote as ``data``; ``where`` names it in error messages."""
    if isinstance(data, list):
        return [decode(item, f"{where}[{i}]") for i, item in enumerate(data)]
    if data is None or isinstance(data, (str, bool, int, float)):
        return data
    if not isinstance(data, dict):
        raise TypeError(f"{where} holds a {type(data).__name__}, which to_dict() never writes; pass the output of "
                        "to_dict(), after a JSON round trip if any.")
    if "format" in data:
        if not isinstance(data["format"], str) or data["format"] not in _REGISTRY:
            _refuse(where, f"holds a result of unknown format {data['format']!r}")
        return _REGISTRY[data["format"]].from_dict(data)
    reader = _TAGGED.get(frozenset(data))
    if reader is None:
        _refuse(where, f"holds an object with the keys {sorted(data)}, none of the forms to_dict() writes")
    return reader(data, where)


def plain(data):
    """What :func:`encode` wrote, as a report's reader wants it: JSON literals only, lossy.

    nan and infinities become null, tuples and arrays lists (nested by the
    array's shape), mappings objects, and a nested result the object of its
    fields (without ``format`` and ``version``). :func:`decode` cannot
    rebuild a value from it; ``to_dict()`` is the lossless form.
    """
    if isinstance(data, list):
        return [plain(item) for item in data]
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if not isinstance(data, dict):
        return data
    if "format" in data:
        return {key: plain(value) for key, value in data.items() if key not in ("format", "version")}
    if "array" in data or "scalar" in data:
        return plain(decode(data).tolist())
    if "float" in data:
        return None
    if "warning" in data:
        return data["warning"]
    if "tuple" in data:
        return plain(data["tuple"])
    (mapping,) = data.values()
    return {key: plain(value) for key, value in mapping.items()}


def plain_fields(result, names):
    """The fields ``names`` of ``result.to_dict()``, in that order, each as :func:`plain` writes it."""
    written = result.to_dict()
    return {name: plain(written[name]) for name in names}


_ANNOTATION_KINDS = {float: NUMBER, int: COUNT, str: STRING, bool: BOOLEAN, object: ANY,
                     tuple: Sequence(ANY), np.ndarray: Array(), types.MappingProxyType: Mapping()}


def _kind_of(annotation):
    """The kind a field's type annotation implies, when the class declares none."""
    args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        return Nullable(_kind_of(args[0]))
    if annotation in _ANNOTATION_KINDS:
        return _ANNOTATION_KINDS[annotation]
    if isinstance(annotation, type) and issubclass(annotation, Serializable):
        return Instance(annotation)
    raise TypeError(f"no field kind for the annotation {annotation!r}; declare the field in _kinds.")


def declared_kinds(cls):
    """The kinds ``cls`` and its bases declare in ``_kinds``, a subclass's over its bases'."""
    declared = {}
    for klass in reversed(cls.__mro__):
        declared.update(vars(klass).get("_kinds", {}))
    return declared


@functools.cache
def field_kinds(cls):
    """Every field of ``cls`` with its kind, in the order ``to_dict`` writes them."""
    declared = declared_kinds(cls)
    if not dataclasses.is_dataclass(cls):
        return types.MappingProxyType(declared)
    names = [field.name for field in dataclasses.fields(cls)]
    unknown = sorted(set(declared) - set(names))
    if unknown:
        raise TypeError(f"{cls.__name__}._kinds names {unknown}, which are not its fields.")
    hints = typing.get_type_hints(cls)
    return types.MappingProxyType({name: declared.get(name) or _kind_of(hints[name]) for name in names})


def stored_name(name):
    """The key of the field ``name`` in a dict: a private field (``_df``) is written under its public name (``df``)."""
    return name[1:] if name.startswith("_") else name


def _check_keys(cls, data, kinds):
    kinds = [stored_name(name) for name in kinds]
    expected = ("format", "version", *kinds)
    unknown = [key for key in data if key not in expected]
    if unknown:
        raise ValueError(f"{cls.__name__}.from_dict: data has the unknown key {unknown[0]!r}; {cls.__name__}.to_dict() "
                         f"writes only the keys {', '.join(expected)}.")
    missing = [key for key in kinds if key not in data]
    if missing:
        raise ValueError(f"{cls.__name__}.from_dict: data has no key {missing[0]!r}, which {cls.__name__}.to_dict() "
                         "writes; pass the output of to_dict().")


def _rebuilt(cls, values):
    """``cls._from_fields(values)``; a refusal of the constructor's is raised again with the class (and field) named.

    A constructor names the field it refuses first (``"fold must be ..."``):
    that becomes ``"<Class>.fold must be ..."``; any other message follows
    ``"<Class>.from_dict: "``.
    """
    try:
        return cls._from_fields(values)
    except (ValueError, TypeError) as error:
        message = str(error)
        field = re.match(r"\w+", message)
        named = field is not None and field.group() in {stored_name(name) for name in values}
        prefix = f"{cls.__name__}." if named else f"{cls.__name__}.from_dict: "
        refusal = TypeError if isinstance(error, TypeError) else ValueError
        raise refusal(f"{prefix}{message} Pass the output of to_dict() unchanged.") from error


class EqualByContent:
    """``==`` compares what ``to_dict()`` writes: every field, with its type; nan equals nan.

    A result whose fields JSON cannot hold (an estimator among a search's
    parameters) equals only itself. Results are unhashable, like the arrays
    they hold.
    """

    __hash__ = None

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        try:
            return self.to_dict() == other.to_dict()
        except TypeError:
            return self is other


class Serializable(EqualByContent, KeepsReadOnly):
    """``to_dict()`` and ``from_dict(data)`` for a result, field by field, checked on the way in.

    A subclass is registered under ``"cvinference.<ClassName>"`` so that a
    nested result is rebuilt as its own class. A dataclass's fields are its
    dataclass fields, with the kinds of their annotations unless ``_kinds``
    declares others; another class declares every field in ``_kinds`` and
    defines ``_field_values`` and ``_from_fields``. ``_rules`` are checks
    across fields, made after every field's own. It pickles read-only too
    (:class:`KeepsReadOnly`), and ``==`` compares content
    (:class:`EqualByContent`).
    """

    _format_version = FORMAT_VERSION
    _kinds = types.MappingProxyType({})
    _rules = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _REGISTRY[format_name(cls)] = cls

    def __post_init__(self):
        """A dataclass result is checked when made as :meth:`from_dict` checks a payload (:meth:`_validate`); a
        subclass with its own ``__post_init__`` ends it with ``super().__post_init__()``."""
        self._validate()

    def _field_values(self):
        """Each field's value, by name, in the order ``to_dict`` writes them."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    @classmethod
    def _from_fields(cls, values):
        """The result of the checked field values."""
        return cls(**values)

    def to_dict(self):
        """A JSON-safe dict from which :meth:`from_dict` rebuilds this result exactly.

        Non-finite floats, tuples, arrays and mappings are written as tagged
        objects, so ``json.dumps(result.to_dict(), allow_nan=False)`` works.

        Returns
        -------
        dict
        """
        fields = {stored_name(name): encode(value) for name, value in self._field_values().items()}
        return {"format": format_name(type(self)), "version": self._format_version, **fields}

    @classmethod
    def from_dict(cls, data):
        """Rebuild a result written by :meth:`to_dict`, checking every field.

        Parameters
        ----------
        data : dict
            The output of ``to_dict()``, possibly after a JSON round trip.

        Returns
        -------
        The result, equal to the one written in every field.

        Raises
        ------
        ValueError, TypeError
            When ``data`` is not what ``to_dict()`` writes: another format,
            an unknown version, a missing or unknown key, a field of the
            wrong kind or out of range, fields that contradict each other.
            The message names the class, the field and the value.
        """
        data = read_format(data, cls)
        kinds = field_kinds(cls)
        _check_keys(cls, data, kinds)
        values = {}
        for name, kind in kinds.items():
            where = f"{cls.__name__}.{stored_name(name)}"
            values[name] = decode(data[stored_name(name)], where)
            kind.check(where, values[name])  # its canonical form is not kept: the value stays as written
        for rule in cls._rules:
            rule(cls.__name__, values)
        return _rebuilt(cls, values)

    def _validate(self):
        """Check this result's fields as :meth:`from_dict` checks a payload's (each field's kind, then the rules
        across fields): a result made by hand is held to what a stored one is."""
        values, name = self._field_values(), type(self).__name__
        for field, kind in field_kinds(type(self)).items():
            kind.check(f"{name}.{stored_name(field)}", values[field])
        for rule in self._rules:
            rule(name, values)

    @validate_params(indent=Nullable(Integer(minimum=0)))
    def to_json(self, *, indent=None):
        """:meth:`to_dict` as JSON text (``json.dumps`` with ``allow_nan=False``: non-finite numbers are tagged).

        Parameters
        ----------
        indent : int or None, default=None
            As ``json.dumps`` takes it: None writes one line.

        Returns
        -------
        str

        Examples
        --------
        >>> from cvinference import CVResult
        >>> result = CVResult(y_true=["a", "b"], y_pred=["a", "a"], fold=[0, 1])
        >>> text = result.to_json()
        >>> CVResult.from_json(text) == result
        True
        """
        return json.dumps(self.to_dict(), allow_nan=False, indent=indent)

    @classmethod
    def from_json(cls, text):
        """Rebuild a result from the JSON text of :meth:`to_json` (or of ``to_dict()``), checking every field.

        Parameters
        ----------
        text : str, bytes or bytearray
            JSON text holding one result's dict.

        Returns
        -------
        The result, equal to the one written in every field.
        """
        if not isinstance(text, (str, bytes, bytearray)):
            raise TypeError(f"{cls.__name__}.from_json: text must be the JSON text (str) of {cls.__name__}.to_json(); "
                            f"got {type(text).__name__} {text!r:.60}.")
        try:
            found = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"{cls.__name__}.from_json: text must be the JSON of {cls.__name__}.to_json(); got "
                             f"text={text!r:.60} ({exc}).") from None
        return cls.from_dict(found)
