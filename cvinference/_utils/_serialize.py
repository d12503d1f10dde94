"""Results as JSON-safe dicts and back: the format, its version, and field-by-field encoding.

Every result's ``to_dict()`` is ``{"format": "cvinference.<ClassName>",
"version": 1, <field>: <encoded value>, ...}``. A value is written as itself
when JSON has a literal for it (str, bool, int, finite float, None, list);
anything else becomes a JSON object with one tag key:

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
a result (``Serializable``)            its own ``to_dict()``
=====================================  =====================================================

So ``json.dumps(result.to_dict(), allow_nan=False)`` always works, and
``from_dict`` rebuilds every field with its type: tuples stay tuples, arrays
keep their dtype, shape and read-only flag, nested results are rebuilt as
their classes (found by their ``"format"``).
"""

import dataclasses
import math
import types

import numpy as np

from ._arrays import python_scalar
from ._pickling import KeepsReadOnly

FORMAT_VERSION = 1
_PREFIX = "cvinference."
_NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
_REGISTRY = {}


def check_format(data, expected):
    """Refuse ``data`` unless it is a dict of format ``expected`` and the current version."""
    if not isinstance(data, dict) or data.get("format") != expected:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"data is not a {expected} dict (format={found!r}); pass the output of to_dict().")
    if data.get("version") != FORMAT_VERSION:
        raise ValueError(
            f"data has format version {data.get('version')!r}; this cvinference reads version {FORMAT_VERSION}."
        )


def _float_text(value):
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")


def _json_item(value):
    """One array item as a JSON literal: a Python scalar, non-finite floats as text."""
    value = python_scalar(value)
    if isinstance(value, float) and not math.isfinite(value):
        return _float_text(value)
    if value is not None and not isinstance(value, (str, int, float, bool)):
        raise TypeError(f"to_dict() cannot write the array item {value!r} of type {type(value).__name__} to JSON; "
                        "it supports str, int, float, bool and None items.")
    return value


def _encode_array(array):
    if array.dtype.kind not in "biufUO":
        raise TypeError(f"to_dict() cannot write an array of dtype {array.dtype} to JSON.")
    # An object array's items are encoded one by one, so that a float nan stays apart from the text "nan".
    write_item = encode if array.dtype.kind == "O" else _json_item
    return {"array": [write_item(python_scalar(item)) for item in array.ravel().tolist()], "dtype": array.dtype.str,
            "shape": list(array.shape), "writeable": bool(array.flags.writeable)}


def _decode_array(data):
    dtype = np.dtype(data["dtype"])
    items = data["array"]
    if dtype.kind in "fc":
        items = [_NON_FINITE.get(item, item) if isinstance(item, str) else item for item in items]
    elif dtype.kind == "O":
        items = [decode(item) for item in items]
    array = np.empty(len(items), dtype=dtype)
    array[:] = items
    array = array.reshape(data["shape"])
    array.setflags(write=data["writeable"])
    return array


def _encode_mapping(mapping, tag):
    for key in mapping:
        if not isinstance(key, str):
            raise TypeError(f"to_dict() writes mappings with str keys only; got the key {key!r}.")
    return {tag: {key: encode(value) for key, value in mapping.items()}}


def encode(value):
    """``value`` as JSON-safe data (see the module's table)."""
    if isinstance(value, Serializable):
        return value.to_dict()
    if isinstance(value, np.ndarray):
        return _encode_array(value)
    if isinstance(value, np.generic):
        return {"scalar": _json_item(value), "dtype": value.dtype.str}
    if isinstance(value, float) and not math.isfinite(value):
        return {"float": _float_text(value)}
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


def decode(data):
    """The value that :func:`encode` wrote as ``data``."""
    if isinstance(data, list):
        return [decode(item) for item in data]
    if not isinstance(data, dict):
        return data
    if "format" in data:
        name = data["format"]
        if name not in _REGISTRY:
            raise ValueError(f"data holds a result of unknown format {name!r}; pass the output of to_dict().")
        return _REGISTRY[name].from_dict(data)
    if "float" in data:
        return _NON_FINITE[data["float"]]
    if "tuple" in data:
        return tuple(decode(item) for item in data["tuple"])
    if "array" in data:
        return _decode_array(data)
    if "scalar" in data:
        return np.dtype(data["dtype"]).type(_NON_FINITE.get(data["scalar"], data["scalar"]))
    if "mapping" in data:
        return types.MappingProxyType({key: decode(value) for key, value in data["mapping"].items()})
    if "dict" in data:
        return {key: decode(value) for key, value in data["dict"].items()}
    raise ValueError(f"data holds an object with none of the keys to_dict() writes: {sorted(data)}.")


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
    """``to_dict()`` and ``from_dict(data)`` for a dataclass, field by field.

    A subclass is registered under ``"cvinference.<ClassName>"`` so that a
    nested result is rebuilt as its own class. It pickles read-only too
    (:class:`KeepsReadOnly`), and ``==`` compares content (:class:`EqualByContent`).
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _REGISTRY[_PREFIX + cls.__name__] = cls

    def to_dict(self):
        """A JSON-safe dict from which :meth:`from_dict` rebuilds this result exactly.

        Non-finite floats, tuples, arrays and mappings are written as tagged
        objects, so ``json.dumps(result.to_dict(), allow_nan=False)`` works.

        Returns
        -------
        dict
        """
        fields = {field.name: encode(getattr(self, field.name)) for field in dataclasses.fields(self)}
        return {"format": _PREFIX + type(self).__name__, "version": FORMAT_VERSION, **fields}

    @classmethod
    def from_dict(cls, data):
        """Rebuild a result written by :meth:`to_dict`.

        Parameters
        ----------
        data : dict
            The output of ``to_dict()``, possibly after a JSON round trip.

        Returns
        -------
        The result, equal to the one written in every field.
        """
        check_format(data, _PREFIX + cls.__name__)
        values = {}
        for field in dataclasses.fields(cls):
            if field.name not in data:
                raise ValueError(f"data has no key {field.name!r}, which a {cls.__name__} dict holds; "
                                 "pass the output of to_dict().")
            values[field.name] = decode(data[field.name])
        return cls(**values)
