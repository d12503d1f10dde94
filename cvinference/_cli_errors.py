"""The command line's error type, shared by the parser and the input modules.

A :class:`UserError` is a mistake the user can fix on the command line (a bad
option value, a missing file, an unknown column or estimator). The command line
prints its message on one line, ``cvinference: error: ...``, and exits with
status 2, without a traceback.
"""


class UserError(Exception):
    """A mistake in the command line: reported in one line, exit status 2."""
