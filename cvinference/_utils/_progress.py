"""A one-line progress report on standard error for long calls (``verbose=1``): done, time spent, time left."""

import sys
import time

_EVERY_SECONDS = 0.5  # fits can finish hundreds a second: the line is redrawn at most this often, and at the end


class Progress:
    """``step()`` after each of ``total`` units of work; with ``verbose``, redraws one line on standard error.

    The line reads "fits 37/150, 12 s elapsed, about 36 s left" (after ``label``, if any), the time left
    extrapolated from the units done in this call (``done`` of them were done before it: a resumed study).

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
        self._drawn = -_EVERY_SECONDS

    def step(self):
        self.done += 1
        if not self._verbose:
            return
        elapsed = time.perf_counter() - self._start
        last = self.done == self._total
        if not last and elapsed - self._drawn < _EVERY_SECONDS:
            return
        self._drawn = elapsed
        left = elapsed / (self.done - self._start_done) * (self._total - self.done)
        sys.stderr.write(f"\r{self._prefix}{self._unit} {self.done}/{self._total}, {duration(elapsed)} elapsed, "
                         f"about {duration(left)} left{chr(10) if last else ''}")
        sys.stderr.flush()


def duration(seconds):
    """Seconds in words: "12 s", "3.5 min", "1.2 h"."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"
