"""Pickling that keeps a result read-only: its mappings stay ``mappingproxy`` and its arrays locked.

``pickle`` refuses ``types.MappingProxyType`` and brings every ndarray back
writeable. :class:`KeepsReadOnly` sends such values as plain ones, tagged, and
locks them again on arrival, so a result is the same after ``pickle``,
``joblib.dump`` or a trip to a worker process.
"""

import types

import numpy as np

from ._arrays import locked


def _read_only_mapping(mapping):  # pickle cannot name types.MappingProxyType itself
    return types.MappingProxyType(mapping)


class _Tagged:
    """A value on its way through pickle, rebuilt by ``rebuild(value)``."""

    def __init__(self, rebuild, value):
        self.rebuild = rebuild
        self.value = value

    def __reduce__(self):
        return self.rebuild, (self.value,)


def picklable(value):
    """``value`` with its read-only mappings and arrays, in any container, tagged for pickle."""
    if isinstance(value, types.MappingProxyType):
        return _Tagged(_read_only_mapping, {key: picklable(item) for key, item in value.items()})
    if isinstance(value, np.ndarray) and not value.flags.writeable:
        return _Tagged(locked, value)
    if type(value) is dict:
        return {key: picklable(item) for key, item in value.items()}
    if type(value) is tuple:
        return tuple(picklable(item) for item in value)
    if type(value) is list:
        return [picklable(item) for item in value]
    return value


def _rebuild(cls, attributes):
    obj = cls.__new__(cls)
    for name, value in attributes.items():
        object.__setattr__(obj, name, value)  # frozen dataclasses too
    return obj


class KeepsReadOnly:
    """Pickles an object attribute by attribute, through :func:`picklable`."""

    def __reduce__(self):
        return _rebuild, (type(self), {name: picklable(value) for name, value in vars(self).items()})
