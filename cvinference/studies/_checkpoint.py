"""A study's finished draws, kept in one JSON file that is replaced atomically.

The file is ``{"format": ..., "version": 1, "fingerprint": ..., "draws": {draw:
record}, "digests": {draw: digest}}``; a study that runs several engines' plans (one per
number of folds, say) keeps each one's draws under ``"parts": {name: {draw:
record}}`` of the same file (see :meth:`Checkpoint.part`).

A checkpoint is checked when it is read, before the study fits anything:
its format, version and fingerprint (the study's arguments and data), then
every draw: its number (0 to ``n_draws - 1``, each once) and its record,
against the :class:`Record` its study declares (the record's keys, the kind
and range of each value, and the rules between them), and last its digest:
the SHA-256 of the fingerprint, the draw's place and its record as the
study wrote them, so that an edit that leaves a record possible (a
plausible error rate in place of the one measured) is found too; a draw
removed is only fitted again. A file that fails is refused with a
ValueError naming the file, the draw and what is wrong.
"""

import hashlib
import json
import math
import os
import re
import tempfile
import types

from .._utils._kinds import Fields, Instance
from .._utils._params import Real, Rule

_FORMAT = "cvinference.StudyCheckpoint"
_VERSION = 1
_DRAW_NUMBER = re.compile(r"0|[1-9][0-9]*")
_AFRESH = "Delete the file, or choose another checkpoint path, to start afresh."


class _Conflict(ValueError):
    """A JSON object that holds one key twice, with different values."""


def _unique_keys(pairs):
    """A JSON object's dict; a key written twice must hold the same value both times."""
    found = {}
    for key, value in pairs:
        if key in found and found[key] != value:
            raise _Conflict(key)
        found[key] = value
    return found


def _codec_shapes(value):
    """A JSON value as the codec's kinds take it: a list as a tuple, an object as a read-only mapping."""
    if isinstance(value, list):
        return tuple(_codec_shapes(item) for item in value)
    if isinstance(value, dict):
        return types.MappingProxyType({key: _codec_shapes(item) for key, item in value.items()})
    return value


class Record(Fields):
    """A draw's record as a study writes it: exactly the keys of ``kinds``, each of its kind, then ``rules``.

    The kinds are the codec's (:mod:`cvinference._utils._kinds`), which see
    a JSON list as a tuple and a JSON object as a read-only mapping; a rule
    is called as ``rule(name, record)`` once every key has passed, and
    raises a ValueError naming what breaks it.

    Examples
    --------
    >>> from cvinference._utils._kinds import COUNT
    >>> record = Record(correct=COUNT, size=COUNT)
    >>> record.check("record", {"correct": 3, "size": 4})
    {'correct': 3, 'size': 4}
    >>> record.check("record", {"correct": "3", "size": 4})
    Traceback (most recent call last):
    ...
    TypeError: record['correct'] must be an integer >= 0; got record['correct']='3'.
    >>> record.check("record", {})
    Traceback (most recent call last):
    ...
    ValueError: record must be a JSON object of the keys correct, size; it has no key 'correct'.
    """

    def __init__(self, *, rules=(), **kinds):
        super().__init__(**kinds)
        self.rules = rules

    def describe(self):
        return f"a JSON object of the keys {', '.join(self.kinds)}"

    def check(self, name, value):
        if not isinstance(value, dict):
            raise TypeError(f"{name} must be {self.describe()}; got {name}={value!r}.")
        shaped = _codec_shapes(value)
        super().check(name, shaped)
        for rule in self.rules:
            rule(name, shaped)
        return value


class Proportion(Rule):
    """A proportion of ``n`` items (an error or an accuracy over ``n`` rows): k / n, k an integer from 0 to n.

    Examples
    --------
    >>> Proportion(15).check("record['conditional']", 0.4)
    0.4
    >>> Proportion(15).check("record['conditional']", 0.41)
    Traceback (most recent call last):
    ...
    ValueError: record['conditional'] must be a proportion k/15 of 15 rows, k an integer from 0 to 15; got
    record['conditional']=0.41 (6.15 of 15).
    """

    def __init__(self, n):
        self.n = n

    def describe(self):
        return f"a proportion k/{self.n} of {self.n} rows, k an integer from 0 to {self.n}"

    def check(self, name, value):
        value = Real(0, 1, what="a proportion").check(name, value)
        count = value * self.n
        if not math.isclose(count, round(count), abs_tol=1e-6):
            raise ValueError(f"{name} must be {self.describe()}; got {name}={value!r} ({count:g} of {self.n}).")
        return value


_ANY_OBJECT = Instance(dict)
"""The record of a checkpoint made without a :class:`Record`: any JSON object."""

FINITE_NON_NEGATIVE = Real(0, math.inf, closed="left", what="a finite number")
"""A loss or a standard deviation in a record: a finite number >= 0."""


class RowsSumTo:
    """The rule that every row of ``key`` (a list of lists of counts) adds up to ``total``."""

    def __init__(self, key, total):
        self.key, self.total = key, total

    def __call__(self, name, record):
        for i, row in enumerate(record[self.key]):
            if sum(row) != self.total:
                raise ValueError(f"{name}[{self.key!r}][{i}] must add up to {self.total}; got {list(row)}, which "
                                 f"adds up to {sum(row)}.")


class NotAbove:
    """The rule that every count in ``low`` (a list of lists) is at most the one at the same place in ``high``."""

    def __init__(self, low, high):
        self.low, self.high = low, high

    def __call__(self, name, record):
        for i, (lows, highs) in enumerate(zip(record[self.low], record[self.high], strict=True)):
            for j, (low, high) in enumerate(zip(lows, highs, strict=True)):
                if low > high:
                    raise ValueError(f"{name}[{self.low!r}][{i}][{j}] must not exceed {name}[{self.high!r}][{i}][{j}]; "
                                     f"got {low} > {high}.")


def _place(part, draw):
    """Where a draw's digest is kept in ``"digests"``: its number, or ``part/number`` for a part's draw."""
    return str(draw) if part is None else f"{part}/{draw}"


def _digest(fingerprint, part, draw, record):
    """The SHA-256 (hex) of a draw's record with the study's fingerprint and its place, as canonical JSON."""
    text = json.dumps([fingerprint, _place(part, draw), record], sort_keys=True, separators=(",", ":"),
                      allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
    n_draws : int or None
        The study's number of draws: a draw numbered beyond it is refused.
        None accepts any draw number.
    record : Record or None
        What each plain draw's record holds; None accepts any JSON object.
    parts : dict or None
        ``{name: Record}``: the only parts the file may hold, and what each
        part's records hold. None accepts any part, of any JSON objects.

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

    def __init__(self, path, fingerprint, parameter="checkpoint", *, n_draws=None, record=None, parts=None):
        self.path = None if path is None else os.fspath(path)
        self.fingerprint = fingerprint
        self.parameter = parameter
        self.n_draws, self.record, self.part_records = n_draws, record or _ANY_OBJECT, parts
        self.records = {}
        self._parts = {}
        if self.path is not None and os.path.exists(self.path):
            self.records, self._parts = self._read()

    def _refuse(self, why):
        return ValueError(f"{self.parameter}={self.path!r} {why}")

    def _read(self):
        try:
            with open(self.path, encoding="utf-8") as file:
                data = json.load(file, object_pairs_hook=_unique_keys)
        except _Conflict as exc:
            raise self._refuse(f"holds the key {exc.args[0]!r} twice, with different values, so which one holds is "
                               f"unknown. {_AFRESH}") from None
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
        unknown = sorted(set(parts) - set(self.part_records or parts))
        if unknown:
            raise self._refuse(f"holds the draws of part {unknown[0]!r}, and this study has only the parts "
                               f"{', '.join(map(repr, self.part_records))}. {_AFRESH}")
        digests = data.get("digests", {})
        if not isinstance(digests, dict):
            raise self._refuse("is not a cvinference study checkpoint; pass another file.")
        return (self._checked(data["draws"], self.record, None, digests),
                {name: self._checked(draws, (self.part_records or {}).get(name, _ANY_OBJECT), name, digests)
                 for name, draws in parts.items()})

    def _checked(self, draws, record, name, digests):
        """``draws`` of part ``name`` (None: the plain draws) by draw number, each number, record and digest
        checked."""
        part = "" if name is None else f" of part {name!r}"
        checked = {}
        for key, value in draws.items():
            if not _DRAW_NUMBER.fullmatch(key):
                raise self._refuse(f"holds a draw numbered {key!r}{part}, where a study writes the numbers 0, 1, "
                                   f"2, ... {_AFRESH}")
            if self.n_draws is not None and int(key) >= self.n_draws:
                raise self._refuse(f"holds draw {key}{part}, and this study makes draws 0 to {self.n_draws - 1} "
                                   f"(n_draws={self.n_draws}). {_AFRESH}")
            try:
                record.check("record", value)
            except (TypeError, ValueError) as exc:
                raise self._refuse(f"holds a record for draw {key}{part} that this study does not write: {exc} "
                                   f"{_AFRESH}") from None
            if digests.get(_place(name, key)) != _digest(self.fingerprint, name, key, value):
                raise self._refuse(f"holds a record for draw {key}{part} that was changed after the study wrote it: "
                                   "it does not match the digest saved with it (an edit by hand, or by another "
                                   f"program), so it cannot be trusted. {_AFRESH}")
            checked[int(key)] = value
        return checked

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
        data["digests"] = {_place(None, draw): _digest(self.fingerprint, None, draw, record)
                           for draw, record in data["draws"].items()}
        data["digests"].update({_place(name, draw): _digest(self.fingerprint, name, draw, record)
                                for name, draws in data.get("parts", {}).items() for draw, record in draws.items()})
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
