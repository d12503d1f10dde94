"""A record from the predictions users already have: one row per tested instance (and repeat), checked.

The pieces come as columns of one table, one row per test of an instance: the true target, the
prediction, and optionally the fold, the repeat, the scores and the group. They are checked as the
evaluator's records are, then laid out as :class:`~cvinference.CVResult` keeps them (one row per repeat).
"""

import numbers
import warnings
from collections.abc import Mapping

import numpy as np

from .._utils._validation import (
    check_no_missing_labels,
    check_one_label_type,
    group_labels,
    holds_class_labels,
    refuse_continuous,
    whole_number_doubt,
)
from .._utils._warnings import InferenceWarning, first_caller_outside_package
from ._fields import check_probabilities
from ._losses import get_loss

SINGLE_SET = "a single evaluation set"
"""The ``cv_repr`` of a record made without folds: one model (or one fixed set of them) tested once."""


def _column(values, name, n_rows=None):
    """``values`` as a 1-d numpy array (a pandas or polars column included), of ``n_rows`` rows when given."""
    array = np.asarray(values.to_numpy() if hasattr(values, "to_numpy") else values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-d, one value per row; got an array of shape {array.shape}.")
    if n_rows is not None and array.size != n_rows:
        raise ValueError(f"{name} has {array.size} rows and y_true has {n_rows}; give one value per row of "
                         "y_true (each tested instance, in each repeat).")
    return array


def _ids(values, name, n_rows):
    """Labels of a column (fold or repeat ids: integers or strings) as codes 0 .. k - 1 in sorted order."""
    array = _column(values, name, n_rows)
    check_no_missing_labels(array, name, fix=f"Give every row its {name}.")
    if array.dtype.kind == "f" and not np.all(array == np.round(array)):
        raise ValueError(f"{name} must hold identifiers (integers or strings); got "
                         f"{array[array != np.round(array)][0].item()!r} in {name}.")
    _, codes = np.unique(array, return_inverse=True)
    return codes.reshape(-1)


def _is_splitter(fold):
    return hasattr(fold, "split") and hasattr(fold, "get_n_splits")


def _row_numbers(part, what, where, n_samples, rows_of):
    """A split's train or test part as integer row numbers within 0 .. n_samples - 1: a boolean mask's rows, and
    whole-number floats (what a JSON or pandas round trip makes of indices) as integers."""
    part = np.asarray(part)
    if part.dtype == bool:
        return np.flatnonzero(part)
    if part.dtype.kind == "f":
        fractional = ~np.isfinite(part) | (part != np.round(part))
        if fractional.any():
            raise ValueError(f"{where}: {what} holds {part[fractional][0].item()!r}, which is no row number; pass "
                             "integer row numbers (as scikit-learn's splitters give them).")
    elif part.size and part.dtype.kind not in "iu":
        raise TypeError(f"{where}: {what} must hold integer row numbers; got an array of dtype {part.dtype}.")
    part = part.astype(np.intp)
    if part.size and (part.min() < 0 or part.max() >= n_samples):
        raise ValueError(f"{where}: {what} holds row {int(part.max() if part.max() >= n_samples else part.min())}, "
                         f"outside 0 .. {n_samples - 1}; the splits must be of the {n_samples} rows of {rows_of}.")
    return part


def _forward(parts):
    """Whether every split trains only on rows before those it tests (forward validation, as TimeSeriesSplit's)."""
    return all(train.size and train.max() < test.min() for train, test in parts)


def _refuse_no_partition(where, parts, message):
    """Refuse splits whose test parts make no partition; forward validation is told where it goes."""
    if _forward(parts):
        raise ValueError(f"{where}: the splits are forward validation (each trains on rows before those it tests, "
                         f"as TimeSeriesSplit's), and {message}: a CVResult holds every instance tested once per "
                         "partition. Pass the forecasts to ForwardResult.from_forecasts, or evaluate with the "
                         "forward splitter itself: CVEvaluator(cv=TimeSeriesSplit(...)) or cvi.compare(..., "
                         "cv=ForwardSplit(...)).")
    raise ValueError(f"{where}: {message}; the test parts of each repeat must be disjoint and cover every instance "
                     "once (a partition, as KFold, StratifiedKFold, GroupKFold and RepeatedKFold make; a "
                     "ShuffleSplit's test parts do not). Pass the splits as they were used, of a splitter that "
                     "partitions the rows.")


def _checked_split(number, train, test, where, n_samples, rows_of):
    """Split ``number``'s parts as row numbers (``train`` None: not given), refused when it tests no row or trains
    on a row it tests (a leak)."""
    test = _row_numbers(test, f"split {number}'s test part", where, n_samples, rows_of)
    train = _row_numbers([] if train is None else train, f"split {number}'s train part", where, n_samples, rows_of)
    if test.size == 0:
        raise ValueError(f"{where}: split {number} tests no row; pass the splits cross_val_predict or cross_validate "
                         "used.")
    leak = np.intersect1d(train, test)
    if leak.size:
        raise ValueError(f"{where}: split {number} puts {leak.size} of its test rows in its own training set (rows "
                         f"{leak[:5].tolist()}); out-of-fold predictions need disjoint train and test parts. Pass the "
                         "splits as they were used: a model tested on rows it was trained on gives no honest record.")
    return train, test


def split_layout(splits, n_samples, where, rows_of="y_true"):
    """The test folds of a sequence of (train, test) splits (``train`` may be None), one repeat per partition.

    Consecutive splits whose test parts cover every instance once make one repeat (as ``RepeatedKFold``
    yields them). Returns the (n_repeats, n_samples) folds, each split's repeat and each split's test
    rows. Refuses a split that trains on its own test rows, and test parts that make no partition
    (overlapping before every instance is tested once, or leaving one untested), naming the rows.
    """
    parts, repeat_of, done, current, owner = [], [], [], None, None
    for number, (train, test) in enumerate(splits):
        train, test = _checked_split(number, train, test, where, n_samples, rows_of)
        parts.append((train, test))
        if current is not None and (current[test] >= 0).any():
            if (current < 0).any():
                twice = test[current[test] >= 0]
                rows = np.sort(twice)[:5].tolist()
                _refuse_no_partition(where, parts, f"splits {int(owner[twice[0]])} and {number} both test rows {rows} "
                                     f"before repeat {len(done)} has tested every instance once")
            done.append(current)
            current = None
        if current is None:
            current, owner, fold_number = np.full(n_samples, -1), np.full(n_samples, -1), 0
        current[test], owner[test] = fold_number, number
        fold_number += 1
        repeat_of.append(len(done))
    if current is None:
        raise ValueError(f"{where}: no split; pass the splits cross_val_predict or cross_validate used.")
    folds = np.vstack(done + [current])
    untested = np.argwhere(folds < 0)
    if untested.size:
        r, i = untested[0]
        _refuse_no_partition(where, parts, f"instance {i} is in no test part of repeat {r}")
    return folds, np.array(repeat_of), [test for _, test in parts]


def _splits_folds(splits, n_samples, where):
    """The (n_repeats, n_samples) test folds of a sequence of (train, test) splits (see :func:`split_layout`)."""
    return split_layout(splits, n_samples, where)[0]


def _unseeded(splitter):
    """Whether ``splitter`` draws new folds at every call by its settings: it shuffles (scikit-learn's ``shuffle``,
    or a splitter that draws, which has no such flag) with ``random_state`` None or a generator. Two equal draws
    cannot show it on few rows, where two shuffles agree by chance."""
    seed = getattr(splitter, "random_state", 0)
    unfixed = seed is None or isinstance(seed, (np.random.RandomState, np.random.Generator))
    return unfixed and getattr(splitter, "shuffle", True)


def splitter_folds(splitter, y_true, groups=None):
    """The test folds a scikit-learn splitter gives on ``len(y_true)`` rows (one repeat per partition), refusing a
    splitter that shuffles without a fixed ``random_state`` (its folds would not be the ones used)."""
    n_samples = len(y_true)
    placeholder = np.zeros((n_samples, 1))

    def drawn():
        return _splits_folds(splitter.split(placeholder, y_true, groups), n_samples, "fold")

    first = drawn()
    if _unseeded(splitter) or not np.array_equal(first, drawn()):
        raise ValueError(f"fold={splitter!r} gives other folds at every call (it shuffles without a fixed "
                         "random_state), so its folds are not the ones the predictions were made on; pass the "
                         "splitter with the random_state it was used with, or the fold of each row.")
    return first


def _score_rows(y_score, n_rows, classes, response_method, given=None):
    """``y_score`` as float64 rows (one score per row for two classes, one column per class otherwise) and the
    method that gave them; ``given`` is the order of the user's ``classes`` (the columns' order), None for the
    record's own."""
    scores = np.asarray(y_score.to_numpy() if hasattr(y_score, "to_numpy") else y_score)
    if scores.dtype.kind not in "biuf":
        raise TypeError(f"y_score must hold numbers; got an array of dtype {scores.dtype}.")
    scores = scores.astype(np.float64)
    if scores.ndim not in (1, 2) or scores.shape[0] != n_rows:
        raise ValueError(f"y_score must have one row per row of y_true ({n_rows},) or ({n_rows}, n_classes); got "
                         f"shape {scores.shape}.")
    probabilities = bool(np.all((scores >= 0) & (scores <= 1)))
    reordered = given is not None and not np.array_equal(np.asarray(given), classes)
    if reordered and scores.ndim == 2 and scores.shape[1] == len(classes):
        scores = scores[:, [int(np.flatnonzero(np.asarray(given) == label)[0]) for label in classes]]
    elif reordered and scores.ndim == 1:  # the score of given[1] = classes[0]: the other class's, turned round
        scores = 1.0 - scores if probabilities and response_method != "decision_function" else -scores
    if scores.ndim == 2 and len(classes) == 2 and scores.shape[1] == 2:
        if response_method == "predict_proba":  # the column dropped must be 1 minus the one kept
            check_probabilities(scores, by_class=True)
        probabilities = probabilities and bool(np.allclose(scores.sum(axis=1), 1.0, atol=1e-6))
        scores = scores[:, 1]  # the score of classes[1], as a record of two classes keeps it
    elif scores.ndim == 2 and scores.shape[1] != len(classes):
        raise ValueError(f"y_score has {scores.shape[1]} columns and the record has {len(classes)} classes "
                         f"({list(classes)}); give one column per class, in that order.")
    elif scores.ndim == 2:
        probabilities = probabilities and bool(np.allclose(scores.sum(axis=1), 1.0, atol=1e-6))
    if response_method is None:
        response_method = "predict_proba" if probabilities else "decision_function"
    return scores, response_method


def _classes_of(y_true, y_pred, classes):
    """The record's classes (y_true's sorted labels, then any label only predicted), checked against ``classes``."""
    present = np.unique(y_true)
    extra = np.setdiff1d(np.unique(y_pred), present)
    found = np.concatenate([present, extra]) if extra.size else present
    if classes is not None:
        given = np.asarray(classes)
        unknown = np.setdiff1d(found, given)
        if unknown.size:
            raise ValueError(f"y_true or y_pred holds the label {unknown[0].item()!r}, which classes "
                             f"({given.tolist()}) does not list; pass every label in classes.")
        missing = np.setdiff1d(given, found)
        if missing.size:
            raise ValueError(f"classes lists {missing[0].item()!r}, which neither y_true nor y_pred holds; a record's "
                             "classes are the labels it tested and predicted. Drop it from classes (and its column "
                             "from y_score).")
    return found


def record_arguments(y_true, y_pred, *, fold=None, repeat=None, y_score=None, response_method=None, groups=None,
                     classes=None, loss=None, name=None):
    """The keyword arguments of :class:`CVResult` for predictions given one row per tested instance and repeat."""
    y_true = _column(y_true, "y_true")
    n_rows = y_true.size
    if n_rows == 0:
        raise ValueError("y_true holds no rows; a record needs the tested instances.")
    y_pred = _column(y_pred, "y_pred", n_rows)
    check_no_missing_labels(y_true, "y_true", fix="Drop the rows without a true target.")
    check_no_missing_labels(y_pred, "y_pred", fix="Drop the rows without a prediction, or predict them.")
    check_one_label_type(y_true, "y_true")
    check_one_label_type(y_pred, "y_pred")
    repeats = np.zeros(n_rows, dtype=int) if repeat is None else _ids(repeat, "repeat", n_rows)
    n_repeats = int(repeats.max()) + 1
    counts = np.bincount(repeats)
    if len(set(counts.tolist())) > 1:
        raise ValueError(f"repeat {int(np.argmin(counts))} has {counts.min()} rows and repeat {int(np.argmax(counts))} "
                         f"has {counts.max()}; every repeat tests every instance once, so each holds the same rows.")
    n_samples = n_rows // n_repeats
    order = np.argsort(repeats, kind="stable")
    by_repeat = order.reshape(n_repeats, n_samples)
    truth = y_true[by_repeat]
    if n_repeats > 1 and not (truth == truth[0]).all():
        r = int(np.flatnonzero(~(truth == truth[0]).all(axis=1))[0])
        raise ValueError(f"the rows of repeat {r} do not hold the y_true of repeat 0 in the same order; give each "
                         "repeat's rows in one order of the instances (sort the table by repeat, then instance).")
    group_rows = None
    if groups is not None:
        group_rows = group_labels(_column(groups, "groups", n_rows), n_rows, counted=f"y_true has {n_rows} rows",
                                  per="row")[by_repeat]
        if n_repeats > 1 and not (group_rows == group_rows[0]).all():
            raise ValueError("groups differ between repeats for the same instance; an instance keeps its group.")
    y_first = truth[0]
    folds, cv_repr = _record_folds(fold, repeat, y_first, None if group_rows is None else group_rows[0],
                                   by_repeat)
    predictions = y_pred[by_repeat]
    loss = None if loss is None else get_loss(loss)
    classification = _is_classification(y_first, predictions, loss)
    if loss is None and classification and fold is not None:
        _warn_if_a_quantity(y_first)
    loss = loss or get_loss("zero_one" if classification else "squared_error")
    if classification:
        _check_labels(y_first, predictions, loss)
    if loss.needs_proba:
        raise ValueError(f"loss={loss.name!r} needs probabilities; record the labels' loss here (loss='zero_one') "
                         "and pass y_score: metric_interval(record, 'neg_log_loss') reads the kept probabilities.")
    if not classification and (y_first.dtype.kind not in "biuf" or predictions.dtype.kind not in "biuf"):
        raise ValueError(f"loss={loss.name!r} is a regression loss, and y_true or y_pred holds text; pass "
                         "loss='zero_one' for class labels, 'squared_error' or 'absolute_error' for numbers.")
    arguments = dict(y_true=y_first, y_pred=predictions, fold=folds, loss_name=loss.name, cv_repr=cv_repr,
                     classification=classification, name=name, groups=None if group_rows is None else group_rows[0])
    if loss.name != "zero_one":
        arguments["loss"] = np.vstack([loss(y_first, row) for row in predictions])
    if classification:
        found = _classes_of(y_first, predictions, classes)
    elif classes is not None:
        raise ValueError("classes is given, and y_true holds a continuous target; classes are for class labels.")
    if y_score is not None:
        if not classification:
            raise ValueError("y_score holds a classifier's scores, and y_true is a continuous target; drop y_score.")
        scores, response_method = _score_rows(y_score, n_rows, found, response_method, classes)
        arguments.update(y_score=scores[by_repeat], response_method=response_method)
    elif response_method is not None:
        raise ValueError(f"response_method={response_method!r} names the method that gave y_score, and no y_score "
                         "is given; pass y_score, or drop response_method.")
    return arguments


def _record_folds(fold, repeat, y_first, groups, by_repeat):
    """The (n_repeats, n_samples) folds and the ``cv_repr`` of the record's ``fold`` argument: None (a single
    evaluation set), a splitter, a list of (train, test) splits, or one fold id per row (``by_repeat`` lays the
    rows out as repeats of the instances)."""
    n_repeats, n_samples = by_repeat.shape
    if hasattr(fold, "__next__"):  # an iterator of splits, such as cv.split(X, y): read once
        fold = list(fold)
    if fold is None:
        folds = np.zeros((n_repeats, n_samples), dtype=int)
        cv_repr = SINGLE_SET
    elif _is_splitter(fold):
        if repeat is not None:
            raise ValueError("fold is a splitter and repeat is given; a splitter gives the folds of every repeat "
                             "(RepeatedKFold), so drop repeat, or pass each row's fold id.")
        folds = splitter_folds(fold, y_first, groups)
        cv_repr = repr(fold)
    elif not isinstance(fold, (str, bytes)) and _looks_like_splits(fold):
        if repeat is not None:
            raise ValueError("fold is a list of (train, test) splits and repeat is given; consecutive splits that "
                             "cover every instance make a repeat, so drop repeat, or pass each row's fold id.")
        folds = _splits_folds(fold, n_samples, "fold")
        cv_repr = f"{folds.max() + 1} folds given as (train, test) splits"
    else:
        codes = _ids(fold, "fold", by_repeat.size)[by_repeat]
        folds = np.vstack([np.unique(row, return_inverse=True)[1].reshape(-1) for row in codes])
        cv_repr = f"{folds.max() + 1} folds given by fold id"
    if folds.shape[0] != by_repeat.shape[0]:  # a splitter or splits of several partitions, one prediction each
        raise ValueError(f"the splits make {folds.shape[0]} repeats of the {n_samples} instances, and "
                         "cross_val_predict gives one prediction per instance (one partition); use a splitter of one "
                         "partition, such as KFold, or cross_validate(..., return_indices=True) for repeats.")
    return folds, cv_repr


def _is_classification(y_true, predictions, loss):
    """Whether the rows hold class labels: as ``loss`` says, else when y_true reads as labels (sklearn's
    ``type_of_target``) and no prediction is a fraction (whole-number targets predicted by a regressor are a
    quantity)."""
    if loss is not None and loss.classification is not None:
        return loss.classification
    if not holds_class_labels(y_true):
        return False
    return not (predictions.dtype.kind == "f" and not np.all(predictions == np.round(predictions)))


def _warn_if_a_quantity(y_true):
    """Warn when whole numbers read as class labels (no ``loss`` given) may be a quantity: the command line's rule
    for the same doubt (:func:`~cvinference._utils._validation.whole_number_doubt`), which asks for ``--task``."""
    doubt = whole_number_doubt(y_true, "y_true")
    if doubt is not None:
        warnings.warn(f"{doubt}: read as class labels (loss='zero_one', accuracy), since loss is not given. If they "
                      "are a quantity (a count, a rating), pass loss='squared_error' or loss='absolute_error'; pass "
                      "loss='zero_one' to keep them as classes without this warning.", InferenceWarning,
                      stacklevel=first_caller_outside_package())


def _check_labels(y_true, predictions, loss):
    """Refuse a quantity compared as class labels: a continuous y_true (the evaluator's rule, sklearn's
    ``type_of_target``), or fractions predicted for labels that are not fractions (probabilities given as y_pred)."""
    refuse_continuous(y_true, needed_by=f"loss={loss.name!r}", name="y_true")
    if predictions.dtype.kind != "f":
        return
    fractions = (predictions != np.round(predictions)) & ~np.isin(predictions, y_true)
    if fractions.any():
        value = predictions[fractions][0].item()
        raise ValueError(f"loss={loss.name!r} compares class labels, and y_pred holds {value!r}, which is no label "
                         "of y_true; pass the predicted labels as y_pred (predict, not predict_proba) and the "
                         "probabilities as y_score, or loss='squared_error'/'absolute_error' for a quantity.")


def _looks_like_splits(fold):
    """Whether ``fold`` is a sequence of (train, test) pairs rather than one fold id per row."""
    try:
        first = next(iter(fold))
    except (TypeError, StopIteration):
        return False
    return (isinstance(first, (tuple, list)) and len(first) == 2
            and not isinstance(first[0], (numbers.Number, str, bytes)))


def frame_arguments(frame, *, y_true, y_pred, fold=None, repeat=None, y_score=None, groups=None):
    """The columns of a pandas or polars table (or a mapping of names to columns) named by each argument
    (``y_score`` one name, or one per class)."""
    if hasattr(frame, "columns"):
        columns = [str(column) for column in frame.columns]
    elif isinstance(frame, Mapping):
        columns = [str(column) for column in frame]
    else:
        raise TypeError(f"frame must be a pandas or polars DataFrame, or a mapping of column names to columns; got "
                        f"{type(frame).__name__}.")

    def column(argument, named):
        if named is None:
            return None
        if not isinstance(named, (str, numbers.Integral)):
            what = f"an array of shape {np.shape(named)}" if np.ndim(named) else f"{named!r}"
            raise TypeError(f"{argument} must name a column of the table (a str); got {what}. Pass the column's name "
                            f"({argument}={columns[0]!r} names the first), or pass the arrays to "
                            "CVResult.from_predictions.")
        if named not in columns:
            close = [c for c in columns if c.lower() == str(named).lower()]
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"{argument}={named!r} is not a column of the table{hint}; its columns are "
                           f"{', '.join(map(repr, columns[:20]))}.")
        return _column(frame[named], argument)

    if isinstance(y_score, (list, tuple)):
        scores = np.column_stack([column("y_score", named) for named in y_score])
    else:
        scores = column("y_score", y_score)
    return dict(y_true=column("y_true", y_true), y_pred=column("y_pred", y_pred), fold=column("fold", fold),
                repeat=column("repeat", repeat), y_score=scores, groups=column("groups", groups))
