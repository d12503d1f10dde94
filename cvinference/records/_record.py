"""What every record shares: its repr's shape, its notebook display, and the count of its groups."""

import abc
import functools

import numpy as np

from .._utils._notebook import summary_html
from .._utils._serialize import Serializable


def computed_once(method):
    """A read-only property whose value is computed on first access and kept (records are immutable)."""
    key = f"_{method.__name__}_value"

    @functools.wraps(method)
    def getter(self):
        if key not in self.__dict__:
            self.__dict__[key] = method(self)
        return self.__dict__[key]

    return property(getter)


class Record(Serializable, metaclass=abc.ABCMeta):
    """The common face of the records: ``summary()``, a repr of its sizes, and the notebook display.

    A subclass defines ``summary()`` (the record in words) and
    ``_repr_fields()`` (what its repr shows, by name, as text); the notebook
    display is a table of its figures and its summary
    (:func:`~cvinference._utils._notebook.summary_html`) unless it defines
    its own.
    """

    @abc.abstractmethod
    def summary(self):
        """The record in words; each record says what its scheme did."""

    @abc.abstractmethod
    def _repr_fields(self):
        """``{name: text}``: what the repr shows, in its order."""

    def __repr__(self):
        fields = ", ".join(f"{name}={text}" for name, text in self._repr_fields().items())
        return f"{type(self).__name__}({fields})"

    _repr_html_ = summary_html


class Grouped:
    """``n_groups`` of a record whose ``groups`` are None or one group label per instance."""

    @computed_once
    def n_groups(self):
        return None if self.groups is None else int(np.unique(self.groups).size)
