"""The toolkit's warning class, and notes and warnings collected while a result is computed."""

import os
import sys
import types
import warnings


class InferenceWarning(UserWarning):
    """A result was computed but one of its assumptions is doubtful.

    Raised, for example, when the large-sample conditions fail for a normal
    approximation, when repeats of cross-validation are pooled, or when a test
    is degenerate (no discordant pairs). The message is also kept in the
    result's ``warnings``, as a :class:`Caution` whose ``code`` is the
    class's: the kinds a reader may act on have a subclass of their own, so
    that a filter (``warnings.simplefilter("ignore", ConditionsWarning)``) or
    a report recognises them by class or code, never by their text.
    """

    code = "inference"


class ConditionsWarning(InferenceWarning):
    """Wong's large-sample conditions fail for a normal approximation (the report shows them apart)."""

    code = "conditions"


class PooledRepeatsWarning(InferenceWarning):
    """Repeats of cross-validation are pooled, which the interval does not count as independent."""

    code = "pooled-repeats"


class GroupedInstancesWarning(InferenceWarning):
    """An instance-level method on a record made with groups: it counts every instance as independent."""

    code = "grouped-instances"


WARNING_CLASSES = {cls.code: cls for cls in (InferenceWarning, ConditionsWarning, PooledRepeatsWarning,
                                             GroupedInstancesWarning)}
"""Each warning class by its code."""


class Caution(str):
    """A warning's text as a result keeps it, with its ``code`` and the ``fields`` a report combines it by.

    It is a ``str`` (its text), so results, reports and JSON read it as
    before; ``code`` is the code of its :class:`InferenceWarning` class and
    ``fields`` a read-only mapping of strings (the words of the warning a
    report reuses: the method named, the hint to replace). The codec writes
    it with both and reads it back (``_utils/_serialize.py``).

    Examples
    --------
    >>> caution = Caution("The large-sample conditions fail (fold 2).", "conditions")
    >>> caution == "The large-sample conditions fail (fold 2).", caution.code, dict(caution.fields)
    (True, 'conditions', {})
    """

    def __new__(cls, text, code=InferenceWarning.code, **fields):
        if code not in WARNING_CLASSES:
            raise ValueError(f"code={code!r} is not a warning code; pass one of {sorted(WARNING_CLASSES)}.")
        caution = super().__new__(cls, text)
        caution.code = code
        caution.fields = types.MappingProxyType(dict(fields))
        return caution

    def __reduce__(self):
        return _caution, (str(self), self.code, dict(self.fields))

    @property
    def category(self):
        """The :class:`InferenceWarning` class of the code."""
        return WARNING_CLASSES[self.code]


def _caution(text, code, fields):
    return Caution(text, code, **fields)


def code_of(text):
    """The code of a result's warning: its :class:`Caution` code, ``"inference"`` for a plain string."""
    return getattr(text, "code", InferenceWarning.code)


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def first_caller_outside_package():
    """The ``stacklevel`` that makes a warning point at the user's line."""
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR + os.sep):
        frame, level = frame.f_back, level + 1
    return level


class Messages:
    """Notes and warnings collected while a result is computed.

    Warnings are issued at once as :class:`InferenceWarning` and kept, so the
    result can carry them.
    """

    def __init__(self):
        self.notes = []
        self.warnings = []

    def note(self, text):
        self.notes.append(text)

    def warn(self, text):
        """Issue ``text`` (a :class:`Caution`, or a string: code ``"inference"``) as its warning class and keep it."""
        self.warnings.append(text)
        category = text.category if isinstance(text, Caution) else InferenceWarning
        warnings.warn(str(text), category, stacklevel=first_caller_outside_package())



def quietly(function, *args, **kwargs):
    """Call ``function``; the InferenceWarnings it issues stay in its result only."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InferenceWarning)
        return function(*args, **kwargs)
