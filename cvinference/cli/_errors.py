"""The command line's error type, shared by the parser and the input modules.

A :class:`UserError` is a mistake the user can fix on the command line (a bad
option value, a missing file, an unknown column or estimator). The command line
prints its message on one line, ``cvinference: error: ...``, and exits with
status 2, without a traceback.

Ctrl-C ends a command with status 130 (128 + SIGINT, the shell's convention)
and the one line ``cvinference: interrupted``, also when the interrupt
surfaces as another exception raised while a library was cleaning up after it.
"""

import difflib
import sys
import threading

INTERRUPTED = 130
_told = threading.Event()


class UserError(Exception):
    """A mistake in the command line: reported in one line, exit status 2."""


def did_you_mean(value, choices):
    """`` (did you mean 'x'?)`` for the closest of ``choices``, or an empty string."""
    close = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1, cutoff=0.6)
    if not close:
        lowered = {str(c).lower(): str(c) for c in choices}
        close = [lowered[str(value).lower()]] if str(value).lower() in lowered else []
    return f" (did you mean {close[0]!r}?)" if close else ""


def was_interrupted(exc):
    """Whether ``exc`` is a Ctrl-C or was raised while handling one (joblib stopping its pool, for example)."""
    pending, seen = [exc], set()
    while pending:
        exc = pending.pop()
        if exc is None or id(exc) in seen:
            continue
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        pending += [exc.__cause__, exc.__context__]
    return False


def tell_interrupted():
    """Print ``cvinference: interrupted`` on standard error; return the exit status, 130."""
    _told.set()
    print("cvinference: interrupted", file=sys.stderr, flush=True)
    return INTERRUPTED


def told_interrupted():
    """Whether this process has printed ``cvinference: interrupted``."""
    return _told.is_set()
