"""The command line's error type, shared by the parser and the input modules.

A :class:`UserError` is a mistake the user can fix on the command line (a bad
option value, a missing file, an unknown column or estimator). The command line
prints its message on one line, ``cvinference: error: ...``, and exits with
status 2, without a traceback.
"""

import difflib


class UserError(Exception):
    """A mistake in the command line: reported in one line, exit status 2."""


def did_you_mean(value, choices):
    """`` (did you mean 'x'?)`` for the closest of ``choices``, or an empty string."""
    close = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1, cutoff=0.6)
    if not close:
        lowered = {str(c).lower(): str(c) for c in choices}
        close = [lowered[str(value).lower()]] if str(value).lower() in lowered else []
    return f" (did you mean {close[0]!r}?)" if close else ""
