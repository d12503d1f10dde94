"""The one sanctioned upward reference: a record's method calling a higher layer.

Records offer ``result.summary()``; the function behind it lives in a higher
layer (report). It is looked up by module name when the method is called,
never imported, so the import graph stays one-way; ``tests/test_layers.py``
walks it. The records' forwarding methods to inference functions
(``result.accuracy_interval()``) are deprecated: statistics are functions of
records (``docs/architecture.md``, "One way per operation"). The inference
package uses the same lookup for the ``estimator, X, y`` forms that moved up
to ``cvinference.conveniences``, kept reachable from it for one release.
"""

import importlib
import inspect
import types

from ._deprecation import deprecated_docstring, removal_version, warn_deprecated


def upward(layer, name):
    """The public function ``name`` of the subpackage ``cvinference.<layer>``, looked up now."""
    return getattr(importlib.import_module(f"cvinference.{layer}"), name)


class UpwardMethod:
    """A method that calls ``cvinference.<layer>.<name>`` with the record's results first.

    ``subjects`` names the attributes passed first: ``()`` passes the record
    itself, ``("a", "b")`` a pair's two results. The signature and the first
    docstring line are the function's, read when asked for.

    Parameters
    ----------
    layer : str
        The subpackage, such as ``"inference"``.
    name : str
        The function's public name in it.
    subjects : tuple of str, default=()
        Attributes of the record passed as the leading arguments.
    since : str, optional
        The version that deprecated the method: calling it then warns
        (FutureWarning) and names the function call to write instead.
    """

    def __init__(self, layer, name, subjects=(), *, since=None):
        self.layer = layer
        self.name = name
        self.subjects = subjects
        self.since = since
        self.owner = None

    def __set_name__(self, owner, attribute):
        self.owner = owner.__name__

    def _instead(self):
        subject = "pair" if self.subjects else "result"
        return f"call cvinference.{self.name}({subject}) instead, as statistics are functions of records"

    def _function(self):
        return upward(self.layer, self.name)

    def _leading(self, record):
        return [getattr(record, subject) for subject in self.subjects] if self.subjects else [record]

    def __get__(self, record, owner=None):
        return self if record is None else types.MethodType(self, record)

    def __call__(self, record, *args, **kwargs):
        if self.since is not None:
            warn_deprecated(f"{self.owner}.{self.name}() is deprecated since version {self.since} and will be "
                            f"removed in version {removal_version(self.since)}; {self._instead()}.")
        return self._function()(*self._leading(record), *args, **kwargs)

    @property
    def __signature__(self):
        signature = inspect.signature(self._function())
        parameters = list(signature.parameters.values())[max(len(self.subjects), 1):]
        own = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
        return signature.replace(parameters=[own, *parameters])

    @property
    def __doc__(self):
        first_line = inspect.getdoc(self._function()).splitlines()[0]
        on = " and ".join(self.subjects) if self.subjects else "this result"
        doc = f"{first_line}\n\nCalls :func:`cvinference.{self.name}` on {on}; see it for the parameters."
        return doc if self.since is None else deprecated_docstring(doc, self.since, self._instead())
