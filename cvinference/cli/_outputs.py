"""A command's output files: all of them written, or none changed.

Each output is first written to a temporary file beside its target (same
folder, so the final move is an atomic rename); only when every output has
been written are they moved into place. On any failure, Ctrl-C included, the
temporary files are removed and the targets are left as they were; a Ctrl-C
that comes while they are moved waits until all of them are in place.
"""

import contextlib
import os
import tempfile


def _default_mode():
    """The permissions a new file gets here (0o666 less the umask), which mkstemp's 0o600 would not give."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def staged_outputs():
    """Yield ``stage(target) -> temporary path``; move every staged file onto its target at the end.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> target = os.path.join(folder, "report.json")
    >>> with staged_outputs() as stage:
    ...     with open(stage(target), "w") as stream:
    ...         _ = stream.write("{}")
    >>> os.listdir(folder), open(target).read()
    (['report.json'], '{}')
    """
    staged = []

    def stage(target):
        folder = os.path.dirname(os.path.abspath(target))
        handle, temporary = tempfile.mkstemp(prefix=".cvinference-", suffix=os.path.splitext(target)[1], dir=folder)
        os.close(handle)
        staged.append((temporary, target))
        return temporary

    try:
        yield stage
        mode = _default_mode()
        for temporary, _ in staged:
            os.chmod(temporary, mode)
    except BaseException:
        for temporary, _ in staged:
            with contextlib.suppress(OSError):
                os.remove(temporary)
        raise
    move_into_place(staged)


def move_into_place(staged):
    """Rename every ``(temporary, target)`` of ``staged``; the program lets no Ctrl-C land in here (``_entry.py``)."""
    for temporary, target in staged:
        os.replace(temporary, target)
