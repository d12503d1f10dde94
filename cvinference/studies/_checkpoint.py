"""A study's finished draws, kept in one JSON file that is replaced atomically.

The file is ``{"format": ..., "version": 1, "fingerprint": ..., "draws": {draw:
record}}``; a study that runs several engines' plans (one per number of
folds, say) keeps each one's draws under ``"parts": {name: {draw: record}}``
of the same file (see :meth:`Checkpoint.part`).
"""

import json
import os
import tempfile

_FORMAT = "cvinference.StudyCheckpoint"
_VERSION = 1


def _normalised(record):
    """``record`` as it reads back from JSON, so that a resumed run and an uninterrupted one hold equal records."""
    return json.loads(json.dumps(record, allow_nan=False))


class Checkpoint:
    """The records of a study's finished draws, saved after each one.

    A record is a JSON-safe dict. The file is rewritten whole into a
    temporary file in the same folder and moved into place with
    :func:`os.replace`, so a run killed at any moment (SIGKILL included)
    leaves either the previous file or the new one, never a partial one.

    Parameters
    ----------
    path : str, path-like or None
        The file; None keeps the records in memory only.
    fingerprint : str
        What the study was asked (a hash of its arguments and data). A file
        written for another fingerprint is refused.
    parameter : str
        The parameter's name, for messages.

    Examples
    --------
    >>> import os, tempfile
    >>> from cvinference.studies._checkpoint import Checkpoint
    >>> path = os.path.join(tempfile.mkdtemp(), "study.json")
    >>> first = Checkpoint(path, "abc")
    >>> first.save(3, {"error": 0.25})
    >>> Checkpoint(path, "abc").records
    {3: {'error': 0.25}}
    >>> Checkpoint(path, "other")
    Traceback (most recent call last):
    ...
    ValueError: checkpoint=... was written by a study with other arguments or data; pass the arguments it was made
    with, or another file to start afresh.
    """

    def __init__(self, path, fingerprint, parameter="checkpoint"):
        self.path = None if path is None else os.fspath(path)
        self.fingerprint = fingerprint
        self.parameter = parameter
        self.records = {}
        self._parts = {}
        if self.path is not None and os.path.exists(self.path):
            self.records, self._parts = self._read()

    def _refuse(self, why):
        return ValueError(f"{self.parameter}={self.path!r} {why}")

    def _read(self):
        try:
            with open(self.path, encoding="utf-8") as file:
                data = json.load(file)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise self._refuse(f"cannot be read as a study checkpoint ({exc}); remove it, or pass another "
                               "file.") from None
        if not isinstance(data, dict) or data.get("format") != _FORMAT or not isinstance(data.get("draws"), dict):
            raise self._refuse("is not a cvinference study checkpoint; pass another file.")
        if data.get("version") != _VERSION:
            raise self._refuse(f"has checkpoint version {data.get('version')!r}, and this cvinference reads "
                               f"version {_VERSION}; remove it to start afresh.")
        if data.get("fingerprint") != self.fingerprint:
            raise self._refuse("was written by a study with other arguments or data; pass the arguments it "
                               "was made with, or another file to start afresh.")
        parts = data.get("parts", {})
        if not isinstance(parts, dict) or not all(isinstance(part, dict) for part in parts.values()):
            raise self._refuse("is not a cvinference study checkpoint; pass another file.")
        try:
            return (self._numbered(data["draws"]),
                    {name: self._numbered(draws) for name, draws in parts.items()})
        except ValueError:
            raise self._refuse("holds a draw number that is not an integer; remove it.") from None

    @staticmethod
    def _numbered(draws):
        return {int(draw): record for draw, record in draws.items()}

    def part(self, name):
        """The draws of part ``name``: an object with this checkpoint's ``records`` and ``save(draw, record)``.

        Every part is kept in this checkpoint's one file, under
        ``"parts": {name: {draw: record}}``, with this checkpoint's
        fingerprint; saving a draw of one part rewrites the whole file.

        Parameters
        ----------
        name : str

        Returns
        -------
        CheckpointPart

        Examples
        --------
        >>> import os, tempfile
        >>> from cvinference.studies._checkpoint import Checkpoint
        >>> path = os.path.join(tempfile.mkdtemp(), "study.json")
        >>> Checkpoint(path, "abc").part("K=5").save(0, {"error": 0.5})
        >>> reread = Checkpoint(path, "abc")
        >>> reread.part("K=5").records, reread.part("K=10").records
        ({0: {'error': 0.5}}, {})
        """
        return CheckpointPart(self, str(name))

    def save(self, draw, record):
        """Keep ``record`` as draw ``draw``'s and, with a path, rewrite the file."""
        self.records[draw] = _normalised(record)
        self._write()

    def _save_part(self, name, draw, record):
        self._parts.setdefault(name, {})[draw] = _normalised(record)
        self._write()

    def _write(self):
        if self.path is None:
            return
        data = {"format": _FORMAT, "version": _VERSION, "fingerprint": self.fingerprint,
                "draws": self._written(self.records)}
        if self._parts:
            data["parts"] = {name: self._written(draws) for name, draws in sorted(self._parts.items())}
        folder = os.path.dirname(os.path.abspath(self.path))
        handle, temporary = tempfile.mkstemp(prefix=".cvinference-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                json.dump(data, file, allow_nan=False)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            if os.path.exists(temporary):
                os.remove(temporary)
            raise

    @staticmethod
    def _written(draws):
        return {str(draw): draws[draw] for draw in sorted(draws)}


class CheckpointPart:
    """One part of a :class:`Checkpoint` (made by :meth:`Checkpoint.part`), with the same interface.

    Attributes
    ----------
    records : dict
        The part's finished draws, ``{draw: record}``.
    """

    def __init__(self, checkpoint, name):
        self._checkpoint, self._name = checkpoint, name

    @property
    def records(self):
        return self._checkpoint._parts.get(self._name, {})

    def save(self, draw, record):
        """Keep ``record`` as draw ``draw``'s of this part and, with a path, rewrite the file."""
        self._checkpoint._save_part(self._name, draw, record)
