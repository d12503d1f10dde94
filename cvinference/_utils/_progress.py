"""A progress report on standard error for long calls (``verbose=1``): done, time spent, time left.

On a terminal one line is redrawn in place (a carriage return); written to a file or a pipe (a log, a batch job),
where a carriage return runs every update into one line, each update is a line of its own, and fewer are written.
"""

import sys
import time

_EVERY_SECONDS = 0.5  # fits can finish hundreds a second: the line is redrawn at most this often, and at the end
_LOG_EVERY_SECONDS = 10.0  # a line of its own per update (not a terminal): at most this often, and at the end


def is_terminal(stream):
    """Whether ``stream`` redraws a line after a carriage return: a terminal (its ``isatty()``), or a Jupyter
    kernel's output (ipykernel's stream, whose ``isatty()`` is False but whose cell output honours ``\\r``); False
    for a file, a pipe, a closed stream, or an object without ``isatty``."""
    if type(stream).__module__.startswith("ipykernel."):
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """``step()`` after each of ``total`` units of work; with ``verbose``, reports them on standard error.

    The line reads "fits 37/150, 12 s elapsed, about 36 s left" (after ``label``, if any), the time left
    extrapolated from the units done in this call (``done`` of them were done before it: a resumed study).
    On a terminal it is redrawn in place at most every 0.5 s; on a file or a pipe each update is a line of its
    own, at most one every 10 s, and the last.

    Examples
    --------
    >>> progress = Progress(3, verbose=0)
    >>> for _ in range(3):
    ...     progress.step()
    >>> progress.done
    3
    """

    def __init__(self, total, verbose, *, done=0, unit="fits", label=None):
        self.done, self._total, self._verbose, self._unit = done, total, verbose, unit
        self._prefix = "" if label is None else f"{label}: "
        self._start_done, self._start = done, time.perf_counter()
        self._drawn, self._terminal = None, None

    def step(self):
        self.done += 1
        if not self._verbose:
            return
        if self._terminal is None:  # asked once, at the first step: standard error as the call found it
            self._terminal = is_terminal(sys.stderr)
        elapsed = time.perf_counter() - self._start
        last = self.done == self._total
        every = _EVERY_SECONDS if self._terminal else _LOG_EVERY_SECONDS
        if not last and self._drawn is not None and elapsed - self._drawn < every:
            return
        self._drawn = elapsed
        left = elapsed / (self.done - self._start_done) * (self._total - self.done)
        line = (f"{self._prefix}{self._unit} {self.done}/{self._total}, {duration(elapsed)} elapsed, "
                f"about {duration(left)} left")
        sys.stderr.write(f"\r{line}{chr(10) if last else ''}" if self._terminal else f"{line}\n")
        sys.stderr.flush()


def duration(seconds):
    """Seconds in words: "12 s", "3.5 min", "1.2 h"."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"
