"""Data for the command line: a bundled scikit-learn data set or a CSV file.

:func:`load_data` turns the ``--data``, ``--target`` and ``--impute`` options into
a :class:`Dataset`. Every mistake it can detect (an unknown name, a missing
file, an unknown column, missing values, a single class) is a
:class:`~cvinference.cli._errors.UserError` whose one-line message names the
offending value and the fix.

A CSV file is read with pandas when it is installed, and with the standard
library's :mod:`csv` module otherwise. Either reader only splits the file into
cells of text; one shared function then decides which columns are numeric and
which cells are missing, so the two readers give the same :class:`Dataset` for
the same file.
"""

import csv
import dataclasses
import os
import re
import warnings

import numpy as np

from .._utils._validation import MAX_AUTO_CLASSES, non_finite_cells, target_spread_problem
from ._bundled import BUNDLED, REGRESSION_BUNDLED
from ._errors import UserError, did_you_mean

#: Cells (after stripping surrounding spaces) that count as missing in a CSV file.
MISSING_TOKENS = ("", "NA", "N/A", "n/a", "NaN", "nan", "NULL", "null")

_MAX_LISTED = 10


@dataclasses.dataclass(frozen=True, eq=False)
class Dataset:
    """Features and class labels ready for cross-validation.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features)
        The features, always a numpy array (whichever CSV reader was used, so
        that the readers agree and nothing needs pandas). Its dtype is float64
        when every feature column is numeric; otherwise it is ``object``, with
        Python floats in the numeric columns and strings in the categorical
        ones. Missing cells are ``nan`` in both kinds of column.
    y : ndarray of shape (n_samples,)
        The class labels: int64 when every label is an integer number, strings
        otherwise.
    name : str
        The bundled name (``"iris"``) or the CSV path as given.
    feature_names : tuple of str
        The feature columns, in the order of the columns of ``X``.
    categorical : tuple of str
        The feature columns that are not numeric (some non-missing cell does
        not parse as a float); the estimator's pipeline one-hot encodes them.
    has_missing : bool
        Whether ``X`` has missing values (only possible with ``impute=True``).
    target_name : str
        The target column of a CSV file; ``"target"`` for a bundled data set.
    task : {"classification", "regression"}
        What ``y`` holds: class labels, or a quantity (then ``y`` is float64).
    groups : ndarray of shape (n_samples,) or None
        Each row's group (a patient, a subject, a site) as text, from the
        CSV column ``groups_column``; None without ``--groups``.
    groups_column : str or None
        The CSV column of ``groups``, which is not a feature.
    time : ndarray of shape (n_samples,) or None
        Each row's time as written in the CSV column ``time_column``, the
        rows (of ``X``, ``y`` and ``time``) sorted by it; None without
        ``--time``.
    time_column : str or None
        The CSV column of ``time``, which is not a feature.
    """

    X: np.ndarray
    y: np.ndarray
    name: str
    feature_names: tuple
    categorical: tuple = ()
    has_missing: bool = False
    target_name: str = "target"
    task: str = "classification"
    groups: np.ndarray | None = None
    groups_column: str | None = None
    time: np.ndarray | None = None
    time_column: str | None = None

    @property
    def n_samples(self):
        """Number of instances (rows of ``X``)."""
        return int(self.y.shape[0])

    @property
    def n_groups(self):
        """Number of distinct groups; None without groups."""
        return None if self.groups is None else int(np.unique(self.groups).size)

    @property
    def n_features(self):
        """Number of feature columns before any encoding."""
        return len(self.feature_names)

    def __eq__(self, other):
        if not isinstance(other, Dataset):
            return NotImplemented
        return all(
            _same(getattr(self, field.name), getattr(other, field.name))
            for field in dataclasses.fields(self)
        )

    __hash__ = None


def _same(a, b):
    """Equality that treats arrays elementwise and nan as equal to nan."""
    if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray):
        return type(a) is type(b) and a == b
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True))
    if a.dtype.kind != "O":
        return bool(np.array_equal(a, b))
    return all(_same_cell(u, v) for u, v in zip(a.ravel(), b.ravel(), strict=True))


def _same_cell(u, v):
    if isinstance(u, float) and isinstance(v, float) and u != u and v != v:
        return True
    return type(u) is type(v) and u == v


TASKS = ("auto", "classification", "regression")
"""The values of ``--task``."""

def load_data(data, *, target=None, impute=False, other_names=(), task="classification", groups=None, time=None):
    """Load a bundled data set or a CSV file for the command line.

    Parameters
    ----------
    data : str or path-like
        One of :data:`BUNDLED` (``"iris"``, ``"wine"``, ``"breast_cancer"``,
        ``"digits"``; loaded from the copies that ship with scikit-learn,
        nothing is downloaded), or the path of a CSV file whose first line
        names its columns. A string that is neither a bundled name nor an
        existing file, and does not end in ``.csv``, is taken as a mistyped
        bundled name. A bundled name always means the bundled data set: write
        ``./iris`` for a file of that name.
    target : str, default=None
        The CSV column that holds the class labels; required for a CSV file,
        and must be None for a bundled data set (which has its own target).
    impute : bool, default=False
        Accept missing feature values. They are then filled inside each
        training fold by the estimator's pipeline (see
        :func:`cvinference.cli._estimators.build_estimator`); without it, a
        missing value is an error. A missing class label is always an error.
    other_names : tuple of str, default=()
        Further names that the caller loads itself (the study populations),
        listed with the bundled ones when ``data`` is an unknown name.
    task : {"classification", "regression", "auto"}, default="classification"
        What the target is. ``"auto"`` decides from the target with
        scikit-learn's ``type_of_target``: ``"continuous"`` (some value is
        not a whole number) is regression; text labels, or whole numbers
        written as integers with at most :data:`MAX_AUTO_CLASSES` distinct
        values, are classes; whole numbers written with a decimal point
        (``3.0``), or more distinct integers than that, are ambiguous and
        refused with a message that asks for ``--task``. A bundled data set
        has its own task (``diabetes`` is regression, the others
        classification).
    groups : str, default=None
        The CSV column that holds each row's group (a patient, a subject, a
        site), read as text labels (``1`` and ``1.0`` are two groups); it is
        not a feature. None for a bundled data set (which has no groups).
    time : str, default=None
        The CSV column that holds each row's time, for forward validation:
        finite numbers, or ISO 8601 dates and times (``2024-03``,
        ``2024-03-31``, ``2024-03-31T12:00``), one kind for the whole column.
        The rows are sorted by it; a missing, infinite or repeated time and a
        mix of numbers and dates are refused (one series, one row per time).
        It is not a feature. None for a bundled data set.

    Returns
    -------
    Dataset
        The features, labels and the facts the estimator's pipeline needs
        (``categorical``, ``has_missing``).

    Raises
    ------
    UserError
        With a one-line message naming the value and the fix, for an unknown
        bundled name, a missing file or a directory, an unreadable or empty
        CSV, a missing or unknown ``target``, a target with missing values, a
        continuous target or one with a single class, a file with no feature
        column, infinite feature values, and missing feature values without
        ``impute``, a target that does not fit ``task`` or is ambiguous
        under ``task="auto"``; and for ``groups`` on a bundled data set, an
        unknown group column or the target's, a missing group label, or a
        single group.

    Notes
    -----
    CSV cells are split by pandas (``dtype=str``, no missing-value guessing)
    when pandas is installed and by :mod:`csv` otherwise; blank lines are
    skipped and short rows are padded with empty cells, as pandas does. Then,
    for both readers alike: a cell is missing when, stripped of spaces, it is
    one of :data:`MISSING_TOKENS`; a column is numeric when each of its
    non-missing cells parses with Python's ``float``; any other feature column
    is categorical. An empty header cell is named ``"Unnamed: i"`` (``i`` its
    0-based position), as pandas names it. A column of codes that look like
    numbers (zip codes, say) is therefore numeric: recode it with letters to
    have it one-hot encoded.

    Examples
    --------
    >>> from cvinference.cli._data import load_data
    >>> iris = load_data("iris")
    >>> iris.X.shape, iris.n_samples, iris.categorical, iris.has_missing
    ((150, 4), 150, (), False)
    """
    text = os.fspath(data) if isinstance(data, os.PathLike) else data
    if not isinstance(text, str):
        raise UserError(f"--data must be a bundled name or a CSV path, got {data!r}")
    if text in BUNDLED:
        if target is not None:
            raise UserError(
                f"--target {target} applies to CSV files only; the bundled data set {text!r} "
                "has its own target, so drop --target"
            )
        if groups is not None:
            raise UserError(
                f"--groups {groups} applies to CSV files only; the bundled data set {text!r} has no groups: "
                "drop --groups, or pass a CSV file with a column of group labels"
            )
        if time is not None:
            raise UserError(f"--time {time} applies to CSV files only; the bundled data set {text!r} is no time "
                            "series: drop --time, or pass a CSV file with a column of each row's time")
        return _load_bundled(text, task)
    if not os.path.exists(text) and not text.lower().endswith(".csv"):
        names = (*other_names, *BUNDLED)
        raise UserError(
            f"unknown data set {text!r}{did_you_mean(text, names)}: use one of "
            f"{', '.join(names)}, or the path of a .csv file with --target COLUMN"
        )
    return _load_csv(text, target=target, impute=impute, task=task, groups=groups, time=time)


def _load_bundled(name, task):
    import sklearn.datasets

    own = "regression" if name in REGRESSION_BUNDLED else "classification"
    if task not in ("auto", own):
        others = [other for other in BUNDLED if (other in REGRESSION_BUNDLED) == (task == "regression")]
        raise UserError(f"the bundled data set {name!r} is a {own} task, not {task}; drop --task, or use "
                        f"{', '.join(others)}" if others else f"{name!r} is a {own} task; drop --task")
    bunch = getattr(sklearn.datasets, f"load_{name}")()
    return Dataset(
        X=np.asarray(bunch.data, dtype=float),
        y=np.asarray(bunch.target, dtype=float if own == "regression" else None),
        name=name,
        feature_names=tuple(str(f) for f in bunch.feature_names),
        task=own,
    )


# ---------------------------------------------------------------------------
# CSV: the readers only split cells; _build_dataset interprets them.


def _load_csv(path, *, target, impute, task, groups=None, time=None):
    if os.path.isdir(path):
        raise UserError(f"--data {path} is a directory; pass the path of a .csv file")
    if not os.path.exists(path):
        where = "" if os.path.isabs(path) else f" (relative to {os.getcwd()})"
        raise UserError(f"--data {path}: no such file; check the path{where}")
    try:
        import pandas  # noqa: F401
    except ImportError:
        rows = _read_rows_stdlib(path)
    else:
        rows = _read_rows_pandas(path)
    return _build_dataset(path, rows, target=target, impute=impute, task=task, groups=groups, time=time)


def _unreadable(path, exc):
    detail = " ".join(str(exc).split()) or type(exc).__name__
    return UserError(
        f"cannot read --data {path} as a CSV file ({detail}); pass a comma-separated UTF-8 text file"
    )


def _read_rows_stdlib(path):
    """The file's rows as lists of str, header first, with pandas' layout rules."""
    rows = []
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            for row in reader:
                if not row or (len(row) == 1 and not row[0].strip()):
                    continue  # a blank line, which pandas skips too
                if rows and len(row) > len(rows[0]):
                    raise UserError(
                        f"cannot read --data {path} as a CSV file: line {reader.line_num} has "
                        f"{len(row)} fields but the header has {len(rows[0])}; fix that line"
                    )
                rows.append(row)
    except (OSError, UnicodeError, csv.Error) as exc:
        raise _unreadable(path, exc) from exc
    width = len(rows[0]) if rows else 0
    return [row + [""] * (width - len(row)) for row in rows]


def _read_rows_pandas(path):
    """As :func:`_read_rows_stdlib`, with pandas' faster parser."""
    import pandas as pd

    try:
        frame = pd.read_csv(
            path, header=None, dtype=str, keep_default_na=False, na_filter=False,
            encoding="utf-8-sig", compression=None, skip_blank_lines=True,
        )
    except pd.errors.EmptyDataError:
        return []
    except (OSError, UnicodeError, ValueError) as exc:  # pandas' ParserError is a ValueError
        raise _unreadable(path, exc) from exc
    return frame.to_numpy(dtype=object).tolist()


def _listing(names, limit=_MAX_LISTED):
    """Names joined by commas, cut after ``limit`` with a count of the rest."""
    names = [str(n) for n in names]
    if len(names) <= limit:
        return ", ".join(names)
    return f"{', '.join(names[:limit])}, ... ({len(names) - limit} more, {len(names)} in all)"


def _rows_text(mask):
    rows = np.flatnonzero(mask) + 1
    shown = ", ".join(str(r) for r in rows[:5])
    return f"data row{'s' if rows.size > 1 else ''} {shown}{', ...' if rows.size > 5 else ''}"


def _parse_column(cells):
    """Missing mask and values of one column of str cells.

    Returns ``(missing, values, numeric)``: ``values`` is a float array (nan
    where missing) when every non-missing cell parses as a float, else an object
    array of the cells with nan where missing.
    """
    cells = np.asarray(cells, dtype=object)
    missing = np.fromiter((c.strip() in _MISSING for c in cells), dtype=bool, count=cells.size)
    text = cells.copy()
    text[missing] = "nan"
    try:
        return missing, text.astype(float), True
    except (TypeError, ValueError):
        values = cells.copy()
        values[missing] = np.nan
        return missing, values, False


_MISSING = frozenset(MISSING_TOKENS)


def _target_task(target, cells, labels, numeric, task):
    """The task of a target column: ``task``, or under "auto" the one its values imply (a UserError when ambiguous)."""
    if not numeric:
        if task == "regression":
            example = next(c.strip() for c in cells if _parse_column([c])[1].dtype == object)
            raise UserError(f"--target {target} holds text ({example!r}), not numbers; --task regression needs a "
                            "numeric target: pick another column, or drop --task for classification")
        return "classification"
    if task != "auto":
        return task
    from sklearn.utils.multiclass import type_of_target

    kind = type_of_target(labels) if np.all(np.isfinite(labels)) else "continuous"
    if kind == "continuous":
        return "regression"
    distinct = np.unique(labels).size
    decimal = next((c.strip() for c in cells if any(mark in c for mark in ".eE")), None)
    if decimal is None and distinct <= MAX_AUTO_CLASSES:
        return "classification"
    why = (f"whole numbers written as decimals (for example {decimal!r})" if decimal is not None else
           f"{distinct} distinct whole numbers")
    raise UserError(f"--target {target} holds {why}: class labels or a quantity? cvinference cannot tell; pass "
                    "--task classification or --task regression")


def _unknown_column(option, column, names, path):
    """The UserError of an ``option`` naming a column the file does not have."""
    return UserError(f"{option} {column}: no such column in {path}{did_you_mean(column, names)}; its columns are: "
                     f"{_listing(names)}")


def _refuse_missing(option, column, missing, need):
    """Refuse a column with missing cells (``missing``), naming the rows and what every row ``need`` s."""
    if missing.any():
        raise UserError(f"{option} {column} has {int(missing.sum())} missing value{'s' if missing.sum() > 1 else ''} "
                        f"({_rows_text(missing)}); {need}")


def _group_column(groups, target, names, path):
    """Refuse a ``--groups`` column that is the target or not in the file (before the rows are read)."""
    if groups == target:
        raise UserError(f"--groups {groups} is the --target column; the groups are who or where each row comes "
                        "from (a patient, a subject, a site), not what is predicted: name another column")
    if groups not in names:
        raise _unknown_column("--groups", groups, names, path)


def _group_labels(groups, cells):
    """The ``--groups`` column's cells as text labels; a UserError for a missing label or a single group."""
    _refuse_missing("--groups", groups, _parse_column(cells)[0],
                    "every row needs its group: fill them in or drop those rows")
    labels = np.asarray([cell.strip() for cell in cells], dtype=str)
    distinct = np.unique(labels)
    if distinct.size < 2:
        raise UserError(f"--groups {groups} holds a single group ({distinct[0].item()!r}) in all {labels.size} rows; "
                        "grouped cross-validation needs at least 2 groups: pick another column or drop --groups")
    return labels


def _time_column(time, target, groups, names, path):
    """Refuse a ``--time`` column that is the target's, the groups' or not in the file (before the rows are read)."""
    if time in (target, groups):
        which = "--target" if time == target else "--groups"
        raise UserError(f"--time {time} is the {which} column; the time is when each row was observed: name "
                        "another column")
    if time not in names:
        raise _unknown_column("--time", time, names, path)


def _time_order(time, cells):
    """The rows sorted by the ``--time`` column (numbers, or ISO 8601 dates and times) and its cells as text; a
    UserError for a missing, unreadable or repeated time."""
    _refuse_missing("--time", time, _parse_column(cells)[0], "every row needs its time: fill them in or drop those "
                    "rows")
    text = np.asarray([cell.strip() for cell in cells], dtype=str)
    values = _time_values(time, text)
    order = np.argsort(values, kind="stable")
    repeated = values[order][1:] == values[order][:-1]
    if repeated.any():
        first = str(text[order][1:][repeated][0])
        rows = np.flatnonzero(text == first) + 1
        raise UserError(f"--time {time} holds {first!r} in data rows {', '.join(map(str, rows[:5]))}: forward "
                        "validation reads one series, one row per time; drop the repeats or aggregate them")
    _warn_uneven(time, values[order], text[order], order)
    return order, text[order]


UNEVEN_GAP = 10
"""How many times the median gap between consecutive times the largest may be before ``--time`` warns: business
days (3 / 1), months (31 / 28) and a missing holiday stay below it; a break in the series (59, then 1000) does not."""


def _warn_uneven(time, values, text, order):
    """Warn when the largest gap between consecutive (sorted) times is more than :data:`UNEVEN_GAP` times the median
    gap: forward validation counts rows, not time, so it takes the rows as evenly spaced."""
    if values.size < 3:
        return
    gaps = np.diff(values).astype(np.float64)  # in the times' own unit (days, months, ...): only ratios matter
    median, i = float(np.median(gaps)), int(np.argmax(gaps))
    if gaps[i] > UNEVEN_GAP * median:
        warnings.warn(f"--time {time} jumps from {text[i]} to {text[i + 1]} (data rows {order[i] + 1} and "
                      f"{order[i + 1] + 1}), {gaps[i] / median:.3g} times the median gap between times; forward "
                      "validation counts rows, not time, and takes them as evenly spaced: check for missing rows or "
                      "two series joined, or fill the gap", UserWarning, stacklevel=2)


_ISO_TIME = re.compile(r"\d{4}-\d{2}(-\d{2}([T ]\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?)?)?")
"""An ISO 8601 date or time as numpy reads it without a time zone: 2024-03, 2024-03-31, 2024-03-31T12:00:00.5."""

_ZONE = re.compile(r"(?P<time>\d{4}-\d{2}-\d{2}[T ]\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?)(?P<zone>Z|[+-]\d{2}(:?\d{2})?)")
"""An ISO 8601 time with its zone designator (2021-01-01T00:00:00+05:00, 2021-01-01T00:00Z), which numpy's times
do not hold."""


def _time_kind(cell):
    """"number" (a float, infinite ones included), "date" (ISO 8601, a valid calendar date), "zoned" (ISO 8601 with
    a zone designator) or None (neither)."""
    try:
        float(cell)
        return "number"
    except ValueError:
        pass
    if _ZONE.fullmatch(cell):
        return "zoned"
    if not _ISO_TIME.fullmatch(cell):
        return None
    try:
        np.datetime64(cell)
    except ValueError:
        return None
    return "date"


def _time_values(time, text):
    """The ``--time`` cells as finite numbers or as ISO 8601 datetimes, one kind for the whole column; a UserError
    naming the first cell (and its data row) that is neither, of the other kind than most, or not finite."""
    kinds = [_time_kind(cell) for cell in text]
    where = {kind: next((i for i, k in enumerate(kinds) if k == kind), None)
             for kind in ("number", "date", "zoned", None)}
    if where["zoned"] is not None:
        i = where["zoned"]
        zone = _ZONE.fullmatch(text[i])["zone"]
        raise UserError(f"--time {time} holds {str(text[i])!r} in data row {i + 1}, a time with the zone {zone}; "
                        "numpy's times hold no zone, and times of different zones (or a zone among times without "
                        "one) would sort wrongly: write every time in one zone without its designator (such as "
                        f"{_ZONE.fullmatch(text[i])['time']} in UTC)")
    if where[None] is not None:
        i = where[None]
        raise UserError(f"--time {time} holds {str(text[i])!r}, neither a number nor an ISO 8601 date or time (such "
                        f"as 2024-03 or 2024-03-31), in data row {i + 1}; write the times so")
    if where["number"] is not None and where["date"] is not None:
        dates = kinds.count("date")
        usual = "date" if dates * 2 > len(kinds) or (dates * 2 == len(kinds) and kinds[0] == "date") else "number"
        i = next(i for i, kind in enumerate(kinds) if kind != usual)
        among = "ISO 8601 dates" if usual == "date" else "numbers"
        raise UserError(f"--time {time} holds {str(text[i])!r} in data row {i + 1}, a {kinds[i]} among {among}; a "
                        "time column holds numbers only or ISO 8601 dates only (the two share no order): write every "
                        "time in one form")
    if where["date"] is not None:
        return text.astype("datetime64")
    values = np.array([float(cell) for cell in text])
    if not np.isfinite(values).all():
        i = int(np.flatnonzero(~np.isfinite(values))[0])
        raise UserError(f"--time {time} holds {str(text[i])!r} in data row {i + 1}, which is no time a row was "
                        "observed at (not finite); give every row its finite time")
    return values


def _header(path, rows, *, target, groups, time):
    """The column names of ``rows``' header line, refused where the header cannot give a dataset: no rows, two
    columns of one name, no target or an unknown one, no feature column."""
    if not rows:
        raise UserError(f"--data {path} is empty; pass a CSV file with a header line and data rows")
    names = [cell.strip() or f"Unnamed: {i}" for i, cell in enumerate(rows[0])]
    seen = set()
    for column in names:
        if column in seen:
            raise UserError(
                f"--data {path} has two columns named {column!r}; give each column a distinct name"
            )
        seen.add(column)
    if target is None:
        raise UserError(
            f"--target is required with a CSV file: name the column of class labels in {path}, "
            f"one of: {_listing(names)}"
        )
    if target not in names:
        separator = next((mark for mark in (";", "\t", "|") if len(names) == 1 and mark in names[0]), None)
        hint = (f" (the file seems to separate columns with {separator!r}; cvinference reads comma-separated "
                "files)") if separator else ""
        raise UserError(f"{_unknown_column('--target', target, names, path)}{hint}")
    if groups is not None:
        _group_column(groups, target, names, path)
    if time is not None:
        _time_column(time, target, groups, names, path)
    if len(names) == 1 + (groups is not None) + (time is not None):
        others = [f"the {what} {name!r}" for what, name in (("groups", groups), ("time", time)) if name is not None]
        only = f"only column is the target {target!r}" if not others else (
            f"only columns are the target {target!r} and {' and '.join(others)}")
        raise UserError(f"--data {path} has no feature columns: its {only}; add the columns to predict it from")
    return names


def _target_values(target, cells, task):
    """``(y, task)``: the target column's values (floats for regression, integers or strings for class labels)
    and the task they are for, refused where they cannot be predicted (missing, infinite, a single value)."""
    missing, labels, numeric = _parse_column(cells)
    _refuse_missing("--target", target, missing, "every instance needs a class label: drop those rows or fill them in")
    task = _target_task(target, cells, labels, numeric, task)
    if task == "regression":
        if not np.all(np.isfinite(labels)):
            raise UserError(f"--target {target} holds an infinite value ({_rows_text(~np.isfinite(labels))}); "
                            "a regression target must be finite: fix or drop those rows")
        problem = target_spread_problem(labels, name=f"--target {target}", rescaled="divide the column by {scale:.0e}")
        if problem is not None:
            raise UserError(problem)
        y = labels
    elif numeric:
        if not np.all(np.isfinite(labels)) or not np.all(labels == np.round(labels)):
            example = next(c for c, v in zip(cells, labels, strict=True) if not np.isfinite(v) or v != round(v))
            raise UserError(
                f"--target {target} holds continuous numbers (for example {example.strip()!r}); "
                "classification needs class labels: pick a column of class labels, or pass --task regression"
            )
        y = labels.astype(np.int64)
    else:
        y = np.asarray(labels.tolist(), dtype=str)
    classes = np.unique(y)
    if task == "regression" and classes.size < 2:
        raise UserError(f"--target {target} has a single value ({classes[0].item()!r}) in all {y.size} rows; "
                        "there is nothing to predict: pick another column")
    if classes.size < 2:
        raise UserError(
            f"--target {target} has a single class ({classes[0].item()!r}) in all {y.size} rows; "
            "classification needs at least two classes: pick another column or add instances"
        )
    return y, task


def _features(path, names, columns, *, skip, impute, n_rows):
    """``(X, feature_names, categorical, missing_counts)``: the feature columns (every column not in ``skip``),
    refused where one is empty or infinite, or where values are missing without ``impute``."""
    feature_names, values, categorical, missing_counts = [], [], [], {}
    for name, cells in zip(names, columns, strict=True):
        if name in skip:
            continue
        missing, column, numeric = _parse_column(cells)
        if missing.all():
            raise UserError(
                f"feature column {name!r} of {path} has no value in any row; remove it from the file"
            )
        infinite = non_finite_cells(column.reshape(-1, 1))[0] if numeric else []
        if infinite:
            bad = np.isin(np.arange(column.size), [row for row, _ in infinite])
            raise UserError(
                f"feature column {name!r} of {path} has an infinite value ({_rows_text(bad)}); "
                "replace it with a finite number, or empty the cell and pass --impute"
            )
        if missing.any():
            missing_counts[name] = int(missing.sum())
        if not numeric:
            categorical.append(name)
        feature_names.append(name)
        values.append(column)
    if missing_counts and not impute:
        total = sum(missing_counts.values())
        where = _listing([f"{name} ({count})" for name, count in missing_counts.items()])
        raise UserError(
            f"--data {path} has {total} missing feature value{'s' if total > 1 else ''} "
            f"in {len(missing_counts)} column{'s' if len(missing_counts) > 1 else ''}: {where}; "
            "pass --impute to fill them within each training fold (median of numeric columns, "
            "most frequent value of categorical ones), or drop those rows"
        )
    if categorical:
        X = np.empty((n_rows, len(values)), dtype=object)
        for k, column in enumerate(values):
            X[:, k] = column
    else:
        X = np.column_stack(values)
    return X, feature_names, categorical, missing_counts


def _build_dataset(path, rows, *, target, impute, task="classification", groups=None, time=None):
    names = _header(path, rows, target=target, groups=groups, time=time)
    body = rows[1:]
    if not body:
        raise UserError(f"--data {path} has a header but no data rows; pass a file with data")
    columns = list(zip(*body, strict=True))
    group_labels = None if groups is None else _group_labels(groups, columns[names.index(groups)])
    y, task = _target_values(target, columns[names.index(target)], task)
    X, feature_names, categorical, missing_counts = _features(path, names, columns, skip=(target, groups, time),
                                                              impute=impute, n_rows=y.size)
    stamps = None
    if time is not None:
        order, stamps = _time_order(time, columns[names.index(time)])
        X, y = X[order], y[order]
    return Dataset(
        X=X, y=y, name=str(path), feature_names=tuple(feature_names), categorical=tuple(categorical),
        has_missing=bool(missing_counts), target_name=target, task=task, groups=group_labels, groups_column=groups,
        time=stamps, time_column=time,
    )
