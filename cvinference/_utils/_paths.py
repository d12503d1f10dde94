"""Whether a file can be written at a path, asked before any work that would end by writing it."""

import os
import tempfile


def unwritable_reason(path):
    """Why a file cannot be written at ``path`` (words), or None where it can.

    The folder is tried by making and removing a temporary file in it, as a
    save does, so a read-only file system is found also for a user whose
    permissions would allow the write.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> unwritable_reason(os.path.join(folder, "figure.png")) is None
    True
    >>> unwritable_reason(folder)
    'a directory'
    >>> unwritable_reason(os.path.join(folder, "missing", "figure.png"))
    'no such folder'
    """
    path = os.fsdecode(os.fspath(path))
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return "a directory"
    if not os.path.isdir(folder):
        return "no such folder"
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return "the file exists and is not writable"
    try:
        handle, probe = tempfile.mkstemp(prefix=".cvinference-", suffix=".tmp", dir=folder)
    except OSError as exc:
        return f"the folder is not writable: {exc.strerror}"
    os.close(handle)
    os.remove(probe)
    return None
