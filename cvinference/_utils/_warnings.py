"""The toolkit's warning class, and notes and warnings collected while a result is computed."""

import os
import sys
import warnings


class InferenceWarning(UserWarning):
    """A result was computed but one of its assumptions is doubtful.

    Raised, for example, when the large-sample conditions fail for a normal
    approximation, when repeats of cross-validation are pooled, or when a test
    is degenerate (no discordant pairs). The message is also kept in the
    result's ``warnings``.
    """


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
        self.warnings.append(text)
        warnings.warn(text, InferenceWarning, stacklevel=first_caller_outside_package())



def quietly(function, *args, **kwargs):
    """Call ``function``; the InferenceWarnings it issues stay in its result only."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InferenceWarning)
        return function(*args, **kwargs)
