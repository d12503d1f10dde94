"""Checks of the data and estimators a public function is given (X, y, groups, the estimator).

A parameter's own value is checked by its rule (:mod:`._params`); what is
checked here depends on the data: one label per row, class labels where a
loss needs them, an estimator that can be fitted. Each check raises
``ValueError`` or ``TypeError`` with a message that names the argument, the
offending value and the fix, in scikit-learn's wording style.
"""

import math
import numbers
import os
import sys

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.utils import column_or_1d, indexable
from sklearn.utils.multiclass import type_of_target

from ._arrays import python_scalar
from ._describe import estimator_description


def num_samples(X):
    """Number of rows of an array-like, sparse matrix or DataFrame."""
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) > 0:
        return int(shape[0])
    return len(X)








def memory_size():
    """The machine's physical memory in bytes; ``sys.maxsize`` where the platform does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return sys.maxsize


def _in_bytes(size):
    for unit, power in (("PiB", 50), ("TiB", 40), ("GiB", 30), ("MiB", 20)):
        if size >= 2**power:
            return f"{size / 2**power:.3g} {unit}"
    return f"{size} bytes"


def check_fits_in_memory(counts, n_bytes, what):
    """Refuse ``counts`` whose arrays would take more than the machine's memory, before anything is allocated.

    numpy refuses such an array only when it is allocated, with a
    ``MemoryError`` that names no parameter; this names them.

    Parameters
    ----------
    counts : dict
        The public parameters that set the size, by name.
    n_bytes : int
        The size the arrays would take.
    what : str
        What takes that size, to follow "would need".

    Examples
    --------
    >>> check_fits_in_memory({"n_repeats": 10**12}, 10**12 * 150 * 25, "a record of 150 instances per repeat")
    Traceback (most recent call last):
    ...
    ValueError: n_repeats=1000000000000 is too large: a record of 150 instances per repeat would need 3.33 PiB, more
    than this machine's ... of memory. Pass a smaller n_repeats.
    """
    limit = memory_size()
    if n_bytes > limit:
        given = " and ".join(f"{name}={value}" for name, value in counts.items())
        raise ValueError(f"{given} {'is' if len(counts) == 1 else 'are'} too large: {what} would need "
                         f"{_in_bytes(n_bytes)}, more than this machine's {_in_bytes(limit)} of memory. Pass a "
                         f"smaller {' or '.join(counts)}.")


def _numeric_cells(X):
    """X's cells as (rows, columns, float values) of its numeric part; sparse matrices give their stored cells."""
    if hasattr(X, "tocoo"):
        coo = X.tocoo()
        return coo.row, coo.col, np.asarray(coo.data, dtype=np.float64)
    if hasattr(X, "columns") and hasattr(X, "dtypes"):
        numeric = [j for j, dtype in enumerate(X.dtypes) if np.dtype(dtype).kind in "biuf"]
        values = np.asarray(X.iloc[:, numeric], dtype=np.float64).reshape(len(X), len(numeric))
        columns = np.broadcast_to(np.asarray(numeric), values.shape)
    else:
        try:
            values = np.asarray(X, dtype=np.float64)
        except (TypeError, ValueError):
            return None
        if values.ndim != 2:
            return None
        columns = np.broadcast_to(np.arange(values.shape[1]), values.shape)
    rows = np.broadcast_to(np.arange(values.shape[0])[:, None], values.shape)
    return rows.ravel(), columns.ravel(), values.ravel()


def non_finite_cells(X):
    """Where X holds infinity or NaN: ``(infinite, nan)``, each a list of (row, column) in row order.

    The columns are positions in X (a DataFrame's non-numeric columns are
    not looked at); both lists are empty when X cannot be read as numbers.

    Examples
    --------
    >>> import numpy as np
    >>> non_finite_cells(np.array([[0.0, np.inf], [np.nan, 1.0], [-np.inf, 2.0]]))
    ([(0, 1), (2, 0)], [(1, 0)])
    """
    cells = _numeric_cells(X)
    if cells is None:
        return [], []
    rows, columns, values = cells
    order = np.lexsort((columns, rows))
    rows, columns, values = rows[order], columns[order], values[order]
    return ([(int(r), int(c)) for r, c in zip(rows[np.isinf(values)], columns[np.isinf(values)], strict=True)],
            [(int(r), int(c)) for r, c in zip(rows[np.isnan(values)], columns[np.isnan(values)], strict=True)])


def _cell_text(X, cell):
    row, column = cell
    names = getattr(X, "columns", None)
    label = f" ({names[column]!r})" if names is not None else ""
    return f"row {row}, column {column}{label}"


def non_finite_note(exc, X, name="X"):
    """A note naming the cell of ``X`` whose infinity or NaN ``exc`` (scikit-learn's refusal) is about, and the fix.

    None when ``exc`` is not such a refusal, or X holds no such cell.
    """
    text = str(exc)
    kind = "infinity" if "contains infinity" in text else "NaN" if "contains NaN" in text else None
    if kind is None or not isinstance(exc, ValueError):
        return None
    infinite, nan = non_finite_cells(X)
    cells = infinite if kind == "infinity" else nan
    if not cells:
        return None
    fix = ("replace it with a finite number, or drop that row" if kind == "infinity" else
           "impute it (sklearn.impute.SimpleImputer in a pipeline), drop that row, or use an estimator that "
           "accepts NaN (such as sklearn.ensemble.HistGradientBoostingClassifier or HistGradientBoostingRegressor)")
    more = f" and {len(cells) - 1} other cell(s)" if len(cells) > 1 else ""
    return f"cvinference: {name} contains {kind} at {_cell_text(X, cells[0])}{more} (0-based): {fix}."


def is_classifier_like(estimator):
    """sklearn's ``is_classifier``, also for objects without sklearn's tags."""
    try:
        return is_classifier(estimator)
    except (AttributeError, TypeError):
        return getattr(estimator, "_estimator_type", None) == "classifier"


def is_regressor_like(estimator):
    """sklearn's ``is_regressor``, also for objects without sklearn's tags."""
    try:
        return is_regressor(estimator)
    except (AttributeError, TypeError):
        return getattr(estimator, "_estimator_type", None) == "regressor"


def check_not_regressor(estimator, name, reason):
    """Refuse a regressor where class predictions are compared; ``reason`` says what compares them."""
    if is_regressor_like(estimator):
        raise TypeError(
            f"{name} must be a classifier: {reason}; got {name}={estimator_description(estimator)}, "
            "which is a regressor."
        )


def check_not_classifier(estimator, name, loss_name):
    """Refuse a classifier for a regression loss, which would compare the codes of its class labels."""
    if is_classifier_like(estimator):
        raise ValueError(
            f"loss={loss_name!r} is a regression loss: it compares numeric predictions with a numeric target, "
            f"but {name}={estimator_description(estimator)} is a classifier, whose predictions are class labels. "
            "Use a classification loss such as loss='zero_one', loss='log_loss' or loss='brier', or "
            "make_loss(function, classification=True) for a cost defined on class labels."
        )


def check_estimator_methods(estimator, name="estimator"):
    """Refuse an object that cannot be fitted and asked for predictions."""
    missing = [m for m in ("fit", "predict") if not callable(getattr(estimator, m, None))]
    if missing or isinstance(estimator, type):
        what = "a class, not an instance" if isinstance(estimator, type) else f"no {' or '.join(missing)} method"
        raise TypeError(
            f"{name} must be a scikit-learn estimator instance with fit and predict; "
            f"got {name}={estimator!r}, which has {what}."
        )


def check_predict_proba(estimator, name, loss_name):
    """Refuse an estimator without ``predict_proba`` for a loss that needs probabilities."""
    if not hasattr(estimator, "predict_proba"):
        raise TypeError(
            f"loss={loss_name!r} needs predicted probabilities, but {name}={type(estimator).__name__}(...) "
            "has no predict_proba. Use an estimator that has it, or wrap this one in "
            "sklearn.calibration.CalibratedClassifierCV(..., ensemble=False), or use loss='zero_one'."
        )


def prepare_data(X, y, *, classification, needed_by, groups=None):
    """Checked data for the fits: indexable X, y and groups, and y as a 1-d array."""
    n_samples = check_same_length(X, y)
    if n_samples == 0:
        raise ValueError(
            "X and y hold no instances (0 rows); cross-validation needs data. Pass at least as many "
            "instances as folds, and at least two of each class."
        )
    check_groups(groups, n_samples)
    y_array = check_target(y, classification=classification, needed_by=needed_by)
    if np.ndim(y) != 1:
        y = y_array
    X, y, groups = indexable(X, y, groups)
    return X, y, groups, y_array


def check_same_length(X, y):
    """Return the common number of samples of X and y."""
    n_x, n_y = num_samples(X), num_samples(y)
    if n_x != n_y:
        raise ValueError(
            f"X and y have inconsistent numbers of samples: X has {n_x} rows and "
            f"y has {n_y} labels. Pass one label per row of X."
        )
    return n_x


def check_groups(groups, n_samples):
    """Refuse a ``groups`` that is not one label per row of X (see :func:`group_labels`), before any fit."""
    group_labels(groups, n_samples, counted=f"X has {n_samples} rows", per="row of X")


_GROUP_KINDS = {"bool", "int", "float", "str"}
_GROUP_FIX = "Give every instance a group label (an instance alone is a group of its own)."


def group_labels(groups, n_samples, *, counted, per="instance"):
    """``groups`` as a 1-d numpy array of one label per instance, or None; refused with what is wrong.

    The labels are what scikit-learn's ``GroupKFold`` takes: integers or
    strings (floats and bools too), of one type, none missing. ``counted``
    says what holds the ``n_samples`` instances, and ``per`` what one of
    them is, for the messages.

    Examples
    --------
    >>> group_labels(["p1", "p1", "p2"], 3, counted="y_true has 3 instances")
    array(['p1', 'p1', 'p2'], dtype='<U2')
    >>> group_labels([1, 2], 3, counted="y_true has 3 instances")
    Traceback (most recent call last):
    ...
    ValueError: groups has 2 entries but y_true has 3 instances. Pass one group label per instance, or groups=None.
    """
    if groups is None:
        return None
    array = np.asarray(groups)
    if array.ndim != 1:
        raise ValueError(f"groups must be 1-d, one group label per instance; got groups of shape {array.shape}.")
    if array.size != n_samples:
        raise ValueError(f"groups has {array.size} entries but {counted}. Pass one group label per {per}, "
                         "or groups=None.")
    kinds = {_label_kind(v) for v in array.tolist()} if array.dtype.kind == "O" else set()
    if array.dtype.kind not in "biufUO" or not kinds <= _GROUP_KINDS | {"NoneType", "NAType"}:
        what = f"dtype {array.dtype}" if array.dtype.kind != "O" else f"items of type {sorted(kinds - _GROUP_KINDS)[0]}"
        raise TypeError(f"groups must hold integers or strings, as GroupKFold takes them; got {what}. Convert "
                        "them, for example with groups.astype(str).")
    check_no_missing_labels(array, "groups", _GROUP_FIX)
    check_one_label_type(array, "groups")
    return array


def _is_missing(value):
    if value is None or (isinstance(value, (float, np.floating)) and not np.isfinite(value)):
        return True
    # pandas.NA (and anything like it) refuses to be a bool when compared with itself.
    try:
        return bool(value != value)
    except TypeError:
        return True


def _missing_mask(y):
    if y.dtype.kind in "fc":
        return ~np.isfinite(y)
    if y.dtype.kind == "O":
        return np.fromiter((_is_missing(v) for v in y), dtype=bool, count=y.size)
    return np.zeros(y.shape, dtype=bool)


def _label_kind(value):
    for kind, types in (("bool", (bool, np.bool_)), ("int", numbers.Integral), ("float", numbers.Real), ("str", str)):
        if isinstance(value, types):
            return kind
    return type(value).__name__


def check_no_missing_labels(y, name="y", fix="Drop or impute those samples before cross-validation."):
    """Refuse a 1-d array of labels (``name``) holding NaN, infinity or None, naming how many and where the first is."""
    bad = _missing_mask(y)
    if bad.any():
        raise ValueError(
            f"{name} contains NaN, infinity or None in {int(bad.sum())} of {y.size} "
            f"entries (first at index {int(np.flatnonzero(bad)[0])}). {fix}"
        )


def check_one_label_type(y, name="y"):
    """Refuse a 1-d object array of labels (``name``) that mixes types (int and str, ...): they cannot be sorted."""
    if y.dtype.kind == "O":
        kinds = sorted({_label_kind(v) for v in y})
        if len(kinds) > 1:
            raise ValueError(
                f"{name} mixes label types ({', '.join(kinds)}); convert all labels to one type, "
                f"for example with {name}.astype(str)."
            )


TARGET_SPREAD = (1e-60, 1e60)
"""The widest and narrowest nonzero spread (max - min) of a regression target the intervals compute in float64."""


def target_spread_problem(y, name="y", rescaled="{name} / {scale:.0e}"):
    """Why a numeric regression target's spread is beyond what float64 intervals hold (words), or None.

    ``rescaled`` says how to rescale it, formatted with ``name`` and the
    power of ten ``scale`` to divide by.

    The intervals of squared errors take the variance of squared errors,
    so fourth powers of the spread: within ``TARGET_SPREAD`` they stay
    between about 1e-240 and 1e240, room for any sample size and for
    errors far smaller than the spread. Outside it squares overflow to
    infinity or vanish to zero, and a mean squared error, its interval or
    R² come out infinite, NaN or exactly zero.

    Examples
    --------
    >>> target_spread_problem(np.array([1.0, 2.5, 4.0])) is None
    True
    >>> print(target_spread_problem(np.array([0.0, 3e200])))
    y spreads over 3e+200 (its largest minus its smallest value), beyond the 1e+60 within which ... y / 1e+200: ...
    """
    spread = float(np.ptp(y)) if np.size(y) else 0.0
    low, high = TARGET_SPREAD
    if spread <= high and (spread == 0 or spread >= low):
        return None
    bound = f"beyond the {high:.0e}" if spread > high else f"below the {low:.0e}"
    scale = 10.0 ** round(math.log10(spread))
    return (f"{name} spreads over {spread:.3g} (its largest minus its smallest value), {bound} within which the "
            f"intervals of squared errors compute in float64 (they take fourth powers of it); rescale it, for "
            f"example {rescaled.format(name=name, scale=scale)}: every interval then comes in the new units, and R² "
            "is unchanged")


def check_target_spread(y, name="y"):
    """Refuse, before any fit, a regression target whose spread float64 intervals cannot hold (see
    :func:`target_spread_problem`)."""
    problem = target_spread_problem(y, name)
    if problem is not None:
        raise ValueError(problem + ".")


def holds_class_labels(y):
    """Whether a checked 1-d y reads as class labels rather than a continuous target."""
    return y.dtype.kind not in "biuf" or type_of_target(y, input_name="y") != "continuous"


MAX_AUTO_CLASSES = 20
"""Most distinct whole numbers a target written as integers may hold to be read as class labels without a question:
the command line's ``--task auto`` asks for ``--task`` above it; a record made from predictions warns."""


def whole_number_doubt(y, name="y"):
    """Why a numeric target of whole numbers read as class labels may be a quantity (words), or None.

    The command line's first rule for ``--task auto`` (more than :data:`MAX_AUTO_CLASSES` distinct whole
    numbers), and a sign of a count: more than two values, one of them held by a single row (a class of
    one instance, which the model that tests it never saw in training; a count's tail looks so). Two
    values (0/1, 0.0/1.0) are always labels, and so are whole numbers written as decimals (0.0, 1.0, 2.0),
    as pandas leaves labels.

    Examples
    --------
    >>> whole_number_doubt(np.array([0, 1, 2, 0, 1, 2]), "y_true") is None
    True
    >>> print(whole_number_doubt(np.array([0, 1, 2, 2, 3, 3, 7]), "y_true"))
    y_true holds 5 distinct whole numbers (0 to 7), and 0 is held by one row only, as in a count's tail
    """
    if y.dtype.kind not in "iuf" or type_of_target(y, input_name=name) == "continuous":
        return None
    values, counts = np.unique(y, return_counts=True)
    if values.size <= 2:
        return None
    what = f"{name} holds {values.size} distinct whole numbers ({python_scalar(values[0])!r} to " \
           f"{python_scalar(values[-1])!r})"
    if values.size > MAX_AUTO_CLASSES:
        return f"{what}, more than the {MAX_AUTO_CLASSES} the command line reads as classes without asking"
    if counts.min() == 1:
        return f"{what}, and {python_scalar(values[np.argmin(counts)])!r} is held by one row only, as in a count's tail"
    return None


def refuse_continuous(y, *, needed_by, name="y"):
    """Refuse a continuous target (sklearn's ``type_of_target``) where class labels are needed; return its type.

    The one rule by which the evaluator and the records made from predictions tell class labels from a
    quantity: floats that are not all whole numbers are a quantity, which no classification loss may compare.
    """
    target_type = type_of_target(y, input_name=name)
    if target_type == "continuous":
        fix = ("For a regression target use a regression loss such as loss='squared_error' or "
               "loss='absolute_error'." if needed_by.startswith("loss=") else
               f"{needed_by} compares class predictions and does not apply to a regression target.")
        raise ValueError(f"{needed_by} needs class labels, but {name} is continuous (for example "
                         f"{name}[0]={python_scalar(y[0])!r}). {fix}")
    return target_type


def check_target(y, *, classification, needed_by="loss='zero_one'"):
    """Return y as a 1-d numpy array after checking it suits the loss.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Targets.
    classification : bool or None
        Whether the loss compares class labels; None decides from y (class
        labels unless y is continuous).
    needed_by : str
        What needs class labels, for the message (``"loss='log_loss'"``,
        ``"bootstrap_accuracy"``).
    """
    y = column_or_1d(np.asarray(y), warn=True)
    check_no_missing_labels(y)
    if classification is None:
        classification = holds_class_labels(y)
    if not classification:
        if y.dtype.kind not in "biuf":
            raise ValueError(
                f"A regression loss needs a numeric y; got y of dtype {y.dtype}. "
                "Use loss='zero_one' for class labels."
            )
        check_target_spread(y)
        return y
    check_one_label_type(y)
    target_type = refuse_continuous(y, needed_by=needed_by)
    if target_type not in ("binary", "multiclass"):
        raise ValueError(
            f"y's labels cannot be read as classes (sklearn's type_of_target says {target_type!r}). "
            "Pass one str, int or bool label per sample."
        )
    labels = np.unique(y)
    if labels.size < 2:
        raise ValueError(
            f"y has a single class ({python_scalar(labels[0])!r}): there is nothing to classify. "
            "Cross-validated accuracy needs at least two classes in y."
        )
    return y
