"""Per-instance records of cross-validation: the toolkit's single currency.

Every statistic downstream (intervals, tests, reports, studies) is derived from
the arrays held here; nothing downstream refits a model.
"""

import hashlib
import typing

import numpy as np

from .._utils._arrays import locked, python_scalar, smallest_int_dtype
from .._utils._blockwise import row_blocks
from .._utils._docstring import fill_doc
from .._utils._kinds import BOOLEAN, POSITIVE, STRING, TEXT, Array, Instance, SameLength
from .._utils._notebook import import_pandas
from .._utils._params import NAME, PROBABILITY, Boolean, Integer, Nullable, Options, Text, validate_params
from .._utils._upward import upward
from .._utils._validation import group_labels
from ._cv_result_codec import (
    check_labels,
    check_scores,
    classification_by_default,
    score_shape,
)
from ._fields import TYPE_NAME, check_probabilities, check_training_size
from ._from_predictions import frame_arguments, record_arguments
from ._label_codes import encode_labels
from ._losses import check_loss_name, check_loss_sign
from ._record import Grouped, Record, computed_once
from ._same_folds import same_folds

RESPONSE_METHOD = Nullable(Options("predict_proba", "decision_function"))
"""``response_method`` of a record: None (no scores kept) or the method that gave ``y_score``."""


class _Labels(typing.NamedTuple):
    """What a record says about the learner and the splitter, beside its arrays."""

    estimator_repr: str | None
    cv_repr: str | None
    name: str | None
    estimator_type: str | None


def _as_rows(values, name, n_samples):
    """Return ``values`` as a 2-d array (n_repeats, n_samples)."""
    given = np.asarray(values)
    values = given[np.newaxis, :] if given.ndim == 1 else given
    if values.ndim != 2 or values.shape[1] != n_samples:
        expected = f"(n_samples,) or (n_repeats, n_samples) with n_samples={n_samples}"
        raise ValueError(f"{name} must have shape {expected}; got shape {given.shape}.")
    return values


def _checked_scores(y_score, response_method, shape, n_classes):
    """``y_score`` as a read-only float64 array of :func:`score_shape`, or None; refused with what is wrong.

    ``shape`` is (n_repeats, n_samples) and ``n_classes`` the number of
    classes of y_true (None for a regression record); one repeat's scores may
    come without the repeat axis. Scores of another numeric dtype (float32
    among them) are converted to float64, which holds each of them exactly.
    """
    if y_score is None and response_method is None:
        return None
    if y_score is None or response_method is None:
        raise ValueError(f"y_score and response_method go together (the method that gave the scores); got "
                         f"response_method={response_method!r} and y_score {'None' if y_score is None else 'given'}.")
    if n_classes is None:
        raise ValueError("y_score holds a classifier's scores, and this record holds no class labels "
                         "(a regression loss, or classification=False); drop y_score and response_method.")
    given = np.asarray(y_score)
    expected = score_shape(*shape, n_classes)
    scores = given[np.newaxis] if given.ndim == len(expected) - 1 and shape[0] == 1 else given
    if given.dtype.kind not in "biuf" or scores.shape != expected:
        raise ValueError(f"y_score must be a numeric array of shape {expected} (repeats, instances"
                         f"{', classes' if n_classes != 2 else ''}); got dtype {given.dtype} and shape {given.shape}.")
    scores = np.array(scores, dtype=np.float64, copy=True)
    bad = ~np.isfinite(scores)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"y_score holds NaN or infinity in {int(bad.sum())} of {scores.size} entries (first: "
                         f"{python_scalar(scores[where])} at index {where}); scores must be finite numbers, which "
                         f"ROC AUC and average precision can rank. Check the estimator's {response_method} for that "
                         "instance.")
    if response_method == "predict_proba":
        check_probabilities(scores, by_class=n_classes > 2)
    return locked(scores)


def _report_html(record):
    """The report of a record's ``summary()`` as HTML with real tables (``cvinference.report.record_html``)."""
    return upward("report", "record_html")(record)


class CVResult(Grouped, Record):
    """What cross-validation did to every instance, in every repeat.

    Usually made by :func:`cross_val_correctness` or :class:`CVEvaluator`. One
    row per repeat of the cross-validation, one column per instance. All arrays
    are read-only numpy arrays; derived per-fold counts are computed on first
    access.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True targets.
    y_pred : array-like of shape (n_samples,) or (n_repeats, n_samples)
        Out-of-fold predictions.
    fold : array-like of int, same shape as ``y_pred``
        Test fold of each instance, numbered 0 .. n_splits - 1 in every repeat;
        every fold must be non-empty.
    loss : array-like of float, same shape as ``y_pred``, default=None
        Per-instance losses. None means the 0/1 loss, derived from correctness.
    loss_name : str, default="zero_one"
        Name of the loss in ``loss``.
    estimator_repr, cv_repr : str, default=None
        Short descriptions of the estimator and the splitter, for reports.
    n_train : int, default=None
        How many instances each model was trained on, for a result that does
        not imply it, such as the test part of a holdout. None means the
        rest of the data: n - m_j for fold j.
    classification : bool, default=None
        Whether y holds class labels (then ``correct`` and the accuracy are
        defined). None takes it from a built-in ``loss_name``, and for any
        other name assumes class labels unless y_true holds floats.
    name : str, default=None
        The learner's name in reports (the evaluator's default is
        ``estimator_repr``).
    estimator_type : str, default=None
        ``module.QualifiedName`` of the final estimator's class: the last
        step of a pipeline, the ``estimator`` of a search; set by the
        evaluator, None for a record made by hand.
    y_score : array-like of float, default=None
        Out-of-fold scores, of shape (n_repeats, n_samples) for two classes
        (the score of ``classes[1]``) or (n_repeats, n_samples, n_classes)
        for more (columns in the order of ``classes``); (n_samples,) or
        (n_samples, n_classes) for one repeat. Needs ``response_method``.
    response_method : {"predict_proba", "decision_function"} or None, default=None
        The method that gave ``y_score``.
    groups : array-like of shape (n_samples,), default=None
        The group of each instance (a patient, a subject, a site), as
        scikit-learn's ``GroupKFold`` takes them: integers or strings, of one
        type, none missing. The evaluator keeps the ``groups`` it was given.

    Attributes
    ----------
    correct : ndarray of bool, shape (n_repeats, n_samples)
        Whether the prediction equals the true label.
    loss : ndarray of float, shape (n_repeats, n_samples)
        Per-instance loss.
    fold : ndarray of int, shape (n_repeats, n_samples)
        Test fold of each instance.
    y_pred : ndarray, shape (n_repeats, n_samples)
        Out-of-fold predictions.
    y_true : ndarray, shape (n_samples,)
        True targets.
    classes : ndarray or None
        The sorted labels of ``y_true``, followed by any predicted label
        equal to none of them (None for a regression loss). Labels are
        stored as integer codes into it.
    fold_sizes, fold_correct : ndarray of int, shape (n_repeats, n_splits)
        m_j, the instances tested in fold j, and r_j, those predicted correctly.
    fold_accuracy : ndarray of float, shape (n_repeats, n_splits)
        p_j = r_j / m_j; nan for a regression loss.
    fold_mean_loss : ndarray of float, shape (n_repeats, n_splits)
        Mean per-instance loss in each fold.
    accuracy : float
        Total correct over total tested, all repeats pooled; nan for a
        regression loss, whose predictions are not right or wrong.
    class_counts : ndarray of int, shape (len(classes),) or None
        How many tested instances hold each label of ``classes`` in
        ``y_true`` (0 for a label only predicted); None for a regression loss.
    no_information_rate : float
        The largest class's share of the tested instances' true labels: the
        accuracy of always predicting ``majority_class`` (caret's "No
        Information Rate"); nan for a regression loss.
    majority_class : label or None
        The most frequent label of ``y_true`` (the first of ``classes`` on
        ties); None for a regression loss.
    mean_loss : float
        Mean per-instance loss, all repeats pooled.
    n_samples, n_splits, n_repeats : int
    is_loo : bool
        Whether every fold holds one instance (leave-one-out; a holdout that
        tests a single instance is not).
    n_train : int or None
        Training-set size when the result does not imply it (a holdout).
    y_score : ndarray of float64 or None
        Out-of-fold scores, (n_repeats, n_samples) for two classes or
        (n_repeats, n_samples, n_classes), None when none were kept (the
        evaluator keeps them with ``response_method``). float64 keeps the
        scores as the model gives them (float32 would tie probabilities
        above 1 - 3e-8 and change ROC AUC and average precision), in
        8 * n_repeats * n_samples * n_classes bytes (n_classes = 1 for two
        classes). Every score is finite.
    response_method : str or None
        ``"predict_proba"`` or ``"decision_function"``: what gave ``y_score``.
    groups : ndarray of shape (n_samples,) or None
        The group label of each instance, read-only; None when the record
        was made without groups.
    n_groups : int or None
        The number of distinct groups; None without groups.
    name, estimator_type, estimator_repr, cv_repr : str or None
        As given.

    Notes
    -----
    The notation follows Wong (2015): fold j holds m_j instances (section
    4.3.2) of which r_j are predicted correctly, p_j = r_j / m_j is the fold
    accuracy (section 4.1), and the dataset-level accuracy is sum(r_j) / n
    (section 4.3.3).

    The no-information rate follows R caret's ``confusionMatrix`` (Kuhn
    2008, J. Stat. Softw. 28(5)): the largest class's share of the observed
    (true) classes, here of the tested instances; a label that is only
    predicted never counts. It is not the no-information error of the .632+
    bootstrap (Efron & Tibshirani 1997), which also looks at the predictions.
    :func:`no_information_test` tests whether the accuracy exceeds it.

    Examples
    --------
    >>> from cvinference import CVResult
    >>> result = CVResult(y_true=["a", "a", "b", "b"], y_pred=["a", "b", "b", "b"],
    ...                   fold=[0, 1, 0, 1])
    >>> result
    CVResult(n_samples=4, n_splits=2, n_repeats=1, accuracy=0.75)
    >>> result.fold_correct
    array([[2, 1]])
    >>> result.fold_accuracy
    array([[1. , 0.5]])
    >>> skewed = CVResult(y_true=[0, 1, 1, 1], y_pred=[1, 1, 1, 1], fold=[0, 1, 0, 1])
    >>> skewed.no_information_rate, skewed.majority_class, skewed.class_counts
    (0.75, 1, array([1, 3]))

    A record of grouped instances (two patients, two rows each) keeps the groups:

    >>> grouped = CVResult(y_true=[0, 0, 1, 1], y_pred=[0, 1, 1, 1], fold=[0, 0, 1, 1],
    ...                    groups=["p1", "p1", "p2", "p2"])
    >>> grouped.n_groups, grouped.groups
    (2, array(['p1', 'p1', 'p2', 'p2'], dtype='<U2'))
    """

    @validate_params(loss_name=Text("zero_one"), estimator_repr=Nullable(Text("GaussianNB()")),
                     cv_repr=Nullable(Text("EqualSizeKFold(n_splits=10)")), n_train=Nullable(Integer(minimum=1)),
                     classification=Nullable(Boolean()), name=NAME, estimator_type=TYPE_NAME,
                     response_method=RESPONSE_METHOD)
    def __init__(self, y_true, y_pred, fold, *, loss=None, loss_name="zero_one", estimator_repr=None, cv_repr=None,
                 n_train=None, classification=None, name=None, estimator_type=None, y_score=None,
                 response_method=None, groups=None):
        y_true = np.asarray(y_true)
        if y_true.ndim != 1:
            raise ValueError(f"y_true must be 1-d; got shape {y_true.shape}.")
        if y_true.size == 0:
            raise ValueError("y_true is empty; a CVResult records at least one tested instance.")
        y_pred = _as_rows(y_pred, "y_pred", y_true.size)
        classes = None
        if classification is None:
            classification = classification_by_default(loss_name, y_true.dtype.kind)
        if classification:
            classes, y_true, y_pred = encode_labels(y_true, y_pred)
        self._store(y_true, y_pred, fold, classes, loss, loss_name,
                    _Labels(estimator_repr, cv_repr, name, estimator_type), n_train, (y_score, response_method), groups)

    def _store(self, y_true, y_pred, fold, classes, loss, loss_name, labels, n_train=None, scores=(None, None),
               groups=None):
        n_samples = y_true.size
        y_true = np.array(y_true, copy=True)
        y_pred = np.array(_as_rows(y_pred, "y_pred", n_samples), copy=True)
        fold = _as_rows(fold, "fold", n_samples)
        if fold.shape != y_pred.shape:
            raise ValueError(f"fold must have the shape of y_pred {y_pred.shape}; got {fold.shape}.")
        if fold.dtype.kind not in "iu" or fold.min() < 0 or fold.max() >= n_samples:
            low, high = (fold.min(), fold.max()) if fold.size else (None, None)
            raise ValueError(
                f"fold must hold integer fold numbers 0 .. n_splits - 1 with n_splits <= "
                f"n_samples={n_samples}; got dtype {fold.dtype} with values from {python_scalar(low)} to "
                f"{python_scalar(high)}."
            )
        n_splits = int(fold.max()) + 1
        self._fold = locked(fold.astype(smallest_int_dtype(n_splits), copy=True))
        self._n_splits = n_splits
        empty = (self.fold_sizes == 0).any(axis=1)
        if empty.any():
            raise ValueError(
                f"fold numbers must cover 0 .. {n_splits - 1} in every repeat; repeat "
                f"{int(np.flatnonzero(empty)[0])} has an empty fold."
            )
        check_loss_name(loss_name, loss)
        if loss is not None:
            loss = np.array(loss, dtype=np.float64, copy=True)
            if loss.size != y_pred.size:
                raise ValueError(f"loss must have the shape of y_pred {y_pred.shape}; got shape {loss.shape}.")
            loss = loss.reshape(y_pred.shape)
            bad = ~np.isfinite(loss)
            if bad.any():
                repeat, instance = (int(i) for i in np.argwhere(bad)[0])
                raise ValueError(
                    f"loss holds NaN or infinity for {int(bad.sum())} of {loss.size} instance-repeats (first: "
                    f"instance {instance} in repeat {repeat}); a mean of them means nothing. Check the loss "
                    "function, or the estimator's predict_proba for those instances."
                )
            check_loss_sign(loss_name, loss)
            loss = locked(loss)
        n_classes = None if classes is None else int(y_true.max()) + 1
        self.y_score = _checked_scores(*scores, fold.shape, n_classes)
        self.response_method = RESPONSE_METHOD.check("response_method", scores[1])
        self._y_true = locked(y_true)
        self._y_pred = locked(y_pred)
        self._classes = None if classes is None else locked(np.array(classes, copy=True))
        self._loss = loss
        self.loss_name = loss_name
        self.estimator_repr = labels.estimator_repr
        self.cv_repr = labels.cv_repr
        self.name = NAME.check("name", labels.name)
        self.estimator_type = TYPE_NAME.check("estimator_type", labels.estimator_type)
        self.n_train = None if n_train is None else Integer(minimum=1).check("n_train", n_train)
        check_training_size(self.n_train, self.fold_sizes)
        groups = group_labels(groups, n_samples, counted=f"y_true has {n_samples} instances")
        self._groups = None if groups is None else locked(np.array(groups, copy=True))

    @classmethod
    def _from_codes(cls, y_true, y_pred, fold, *, classes, loss=None, loss_name="zero_one", estimator_repr=None,
                    cv_repr=None, n_train=None, name=None, estimator_type=None, y_score=None, response_method=None,
                    groups=None):
        result = cls.__new__(cls)
        result._store(y_true, y_pred, fold, classes, loss, loss_name,
                      _Labels(estimator_repr, cv_repr, name, estimator_type), n_train, (y_score, response_method),
                      groups)
        return result

    @classmethod
    @validate_params(response_method=RESPONSE_METHOD, name=NAME)
    def from_predictions(cls, y_true, y_pred, *, fold=None, repeat=None, y_score=None, response_method=None,
                         groups=None, classes=None, loss=None, name=None):
        """The record of predictions you already have: one row per tested instance (and repeat), from any model.

        The door for predictions made outside the evaluator: out-of-fold
        predictions of cross-validation run elsewhere (XGBoost's or
        LightGBM's own loops, PyTorch, R, Spark, ``cross_val_predict``), or
        one model's predictions on one evaluation set (a holdout, a
        benchmark's questions, a clinical test set). Every piece is checked
        as the evaluator's records are; what is not given is not invented.

        Parameters
        ----------
        y_true : array-like of shape (n_rows,)
            The true target of each row: class labels, or a quantity.
        y_pred : array-like of shape (n_rows,)
            The prediction of each row.
        fold : array-like of shape (n_rows,), splitter, sequence of (train, test) or None, default=None
            Each row's test fold (integers or strings); a scikit-learn
            splitter with a fixed ``random_state`` (its folds on ``n_rows``
            rows, with ``y_true`` and ``groups``, as ``cross_val_predict``
            drew them); or the (train, test) index pairs it used. None: one
            evaluation set, without folds.
        repeat : array-like of shape (n_rows,) or None, default=None
            Each row's repeat, for repeated cross-validation given as one
            long table: every repeat holds every instance once, in one
            order of the instances (the same ``y_true`` in every repeat).
        y_score : array-like of shape (n_rows,) or (n_rows, n_classes), default=None
            Each row's scores: of ``classes[1]`` for two classes (or both
            classes' probabilities), one column per class otherwise.
        response_method : {"predict_proba", "decision_function"} or None, default=None
            What gave ``y_score``; None: ``"predict_proba"`` when every score
            is a probability (rows of several summing to 1), else
            ``"decision_function"``.
        groups : array-like of shape (n_rows,) or None, default=None
            Each row's group (a patient, a passage of several questions).
        classes : array-like or None, default=None
            The labels, to check ``y_true`` and ``y_pred`` against (and the
            order of ``y_score``'s columns, which is the sorted one).
        loss : str, Loss or None, default=None
            The per-instance loss recorded: None is ``"zero_one"`` for class
            labels and ``"squared_error"`` for a continuous ``y_true``. Whole
            numbers that may be a quantity (more than 20 distinct ones, ones
            written as decimals, or more than two with one held by a single
            row, as a count's tail is: the command line's rule, which asks
            for ``--task``) are read as labels with an ``InferenceWarning``
            that names ``loss='squared_error'``; give ``loss`` to decide.
        name : str or None, default=None
            The model's name in reports.

        Returns
        -------
        CVResult
            One row per repeat. Without ``fold``, one fold holding every row,
            ``cv_repr`` "a single evaluation set" and ``n_train`` None.

        Raises
        ------
        ValueError
            Columns of other lengths, a missing value, labels of mixed types,
            a repeat that does not hold every instance once, a label outside
            ``classes``, scores of the wrong shape (probabilities whose rows
            do not sum to 1), a splitter that reshuffles, splits that train
            on their test rows or whose test parts make no partition
            (forward validation goes to ``ForwardResult.from_forecasts``).

        See Also
        --------
        from_frame : the same from a pandas or polars table's columns.
        cvinference.evaluation.from_cross_validate : the record of
            scikit-learn's ``cross_validate(..., return_indices=True,
            return_estimator=True)``, without refitting.

        Notes
        -----
        What each missing piece costs. Without ``fold`` the record is one
        evaluation set: the intervals and tests treat the rows as
        independent tests of one fixed model (a binomial or normal interval
        of its accuracy, McNemar's test, the paired t on per-row losses;
        Kohavi 1995, "Holdout"); the fold-level intervals and tests (Wong
        2015, section 4.3.3; the corrected t) need folds and do not apply.
        Without ``y_score``, the metrics of scores (ROC AUC, log loss) are
        not computable. Without ``groups``, rows are taken as independent,
        which several questions about one passage are not.

        Examples
        --------
        >>> import numpy as np
        >>> from cvinference import CVResult
        >>> y_true = np.array([0, 1, 1, 0, 1, 0, 1, 1])
        >>> y_pred = np.array([0, 1, 0, 0, 1, 1, 1, 1])
        >>> record = CVResult.from_predictions(y_true, y_pred)
        >>> record.n_splits, record.accuracy, record.cv_repr
        (1, 0.75, 'a single evaluation set')
        >>> CVResult.from_predictions(y_true, y_pred, fold=[0, 0, 0, 0, 1, 1, 1, 1]).fold_accuracy.tolist()
        [[0.75, 0.75]]
        """
        return cls(**record_arguments(y_true, y_pred, fold=fold, repeat=repeat, y_score=y_score,
                                      response_method=response_method, groups=groups, classes=classes, loss=loss,
                                      name=name))

    @classmethod
    @validate_params(response_method=RESPONSE_METHOD, name=NAME)
    def from_frame(cls, frame, *, y_true, y_pred, fold=None, repeat=None, groups=None, y_score=None,
                   response_method=None, classes=None, loss=None, name=None):
        """The record of a table of predictions (pandas or polars), its columns named by each argument.

        As :meth:`from_predictions`, each argument naming a column of
        ``frame`` instead of holding the values; ``y_score`` names one
        column, or one per class in the order of the sorted labels.

        Parameters
        ----------
        frame : pandas.DataFrame, polars.DataFrame or mapping
            One row per tested instance (and repeat); a mapping of column
            names to equally long columns is read alike.
        y_true, y_pred : str
            The columns of the true targets and the predictions.
        fold, repeat, groups : str or None, default=None
            The columns of each row's fold, repeat and group.
        y_score : str, list of str or None, default=None
            The column of the scores, or one column per class.
        response_method, classes, loss, name
            As :meth:`from_predictions`.

        Returns
        -------
        CVResult

        Examples
        --------
        >>> import pandas as pd
        >>> from cvinference import CVResult
        >>> table = pd.DataFrame({"label": [0, 1, 1, 0, 1, 0], "pred": [0, 1, 0, 0, 1, 1],
        ...                       "fold": ["a", "a", "a", "b", "b", "b"]})
        >>> record = CVResult.from_frame(table, y_true="label", y_pred="pred", fold="fold")
        >>> record.n_splits, round(record.accuracy, 4)
        (2, 0.6667)
        """
        columns = frame_arguments(frame, y_true=y_true, y_pred=y_pred, fold=fold, repeat=repeat, y_score=y_score,
                                  groups=groups)
        return cls.from_predictions(**columns, response_method=response_method, classes=classes, loss=loss,
                                    name=name)

    def _per_fold(self, weights=None):
        """Per-repeat, per-fold counts of instances, or sums of ``weights`` (n_repeats, n_samples)."""
        return np.stack([
            np.bincount(fold, weights=None if weights is None else weights[r], minlength=self._n_splits)
            for r, fold in enumerate(self._fold)
        ])

    def _decode(self, values):
        return values if self._classes is None else self._classes[values]

    @property
    def n_samples(self):
        return self._y_true.size

    @property
    def n_splits(self):
        return self._n_splits

    @property
    def n_repeats(self):
        return self._fold.shape[0]

    @property
    def is_loo(self):
        return self._n_splits == self.n_samples > 1

    @property
    def classes(self):
        return self._classes

    @property
    def groups(self):
        return self._groups

    @property
    def fold(self):
        return self._fold

    @computed_once
    def _fold_digest(self):
        """A BLAKE2b digest of the fold numbers (shape and values, not dtype): equal digests, equal folds."""
        digest = hashlib.blake2b(repr(self._fold.shape).encode(), digest_size=32)
        for block in row_blocks(*self._fold.shape):
            digest.update(np.ascontiguousarray(self._fold[block], dtype=np.int64).tobytes())
        return digest.digest()

    @computed_once
    def y_true(self):
        return locked(self._decode(self._y_true))

    @computed_once
    def y_pred(self):
        return locked(self._decode(self._y_pred))

    @computed_once
    def correct(self):
        return locked(self._y_pred == self._y_true[np.newaxis, :])

    @computed_once
    def loss(self):
        if self._loss is None:
            return locked((~self.correct).astype(np.float64))
        return self._loss

    @computed_once
    def fold_sizes(self):
        return locked(self._per_fold())

    @computed_once
    def fold_correct(self):
        return locked(self._per_fold_true(self.correct))

    def _per_fold_true(self, flags):
        """Per-repeat, per-fold counts of True in ``flags`` (n_repeats, n_samples), as int64.

        The rarer of True and False is counted, by position: a ``bincount`` of
        (repeat, fold) keys over those positions costs less than a weighted
        ``bincount`` of every position when they are few.
        """
        n_true = int(np.count_nonzero(flags))
        rare_is_true = 2 * n_true <= flags.size
        if (n_true if rare_is_true else flags.size - n_true) > flags.size // 4:
            return self._per_fold(flags).astype(np.int64)
        counts = np.empty(self.fold_sizes.shape, dtype=np.int64)
        inverted = None
        for block in row_blocks(*flags.shape):
            rare = flags[block]
            if not rare_is_true:
                inverted = np.logical_not(rare, out=None if inverted is None else inverted[:rare.shape[0]])
                rare = inverted
            keys = np.flatnonzero(rare)  # positions, made into (repeat, fold) keys in place
            folds = self._fold[block].ravel()[keys]
            keys //= self.n_samples
            keys *= self._n_splits
            keys += folds
            counts[block] = np.bincount(keys, minlength=rare.shape[0] * self._n_splits).reshape(-1, self._n_splits)
        return counts if rare_is_true else self.fold_sizes - counts

    @computed_once
    def fold_accuracy(self):
        if self._classes is None:  # a regression loss: nothing is "correct"
            return locked(np.full(self.fold_sizes.shape, np.nan))
        return locked(self.fold_correct / self.fold_sizes)

    @computed_once
    def fold_mean_loss(self):
        if self._loss is None:
            return locked(1.0 - self.fold_accuracy)
        return locked(self._per_fold(self._loss) / self.fold_sizes)

    @property
    def accuracy(self):
        if self._classes is None:
            return float("nan")
        return float(np.count_nonzero(self.correct) / self.correct.size)

    @computed_once
    def class_counts(self):
        if self._classes is None:
            return None
        return locked(np.bincount(self._y_true, minlength=self._classes.size).astype(np.int64))

    @property
    def no_information_rate(self):
        if self._classes is None:
            return float("nan")
        return float(self.class_counts.max() / self.n_samples)

    @property
    def majority_class(self):
        if self._classes is None:
            return None
        return python_scalar(self._classes[int(np.argmax(self.class_counts))])

    @property
    def mean_loss(self):
        return float(self.loss.mean())

    def _repr_fields(self):
        sizes = {"n_samples": self.n_samples, "n_splits": self.n_splits, "n_repeats": self.n_repeats}
        if self.loss_name == "zero_one":
            return {**sizes, "accuracy": f"{self.accuracy:.4g}"}
        return {**sizes, "mean_loss": f"{self.mean_loss:.4g}", "loss_name": repr(self.loss_name)}

    def summary(self):
        """The report of this result as text: per-fold counts, accuracy, intervals, conditions, verdict.

        The same report as ``cvinference evaluate`` prints: the summary of
        ``cvinference.evaluate(result)``, the answer of this record (no
        fit), with every repeat's folds.
        Under leave-one-out the per-fold table is left out.

        Returns
        -------
        str

        Examples
        --------
        >>> from cvinference import CVResult
        >>> print(CVResult(y_true=[0, 0, 1, 1], y_pred=[0, 1, 1, 1], fold=[0, 1, 0, 1]).summary())
        4 instances; 2-fold cross-validation; 95% confidence
        <BLANKLINE>
        per fold
        fold  m_j  r_j     p_j  r_j, m_j - r_j >= 5
           0    2    2  1.0000                   NO
           1    2    1  0.5000                   NO
        <BLANKLINE>
        A
          accuracy 0.7500 (3 of 4 tested instances correct)
          does not beat the no-information rate 0.5000 (always predicting 0); accuracy > NIR: p = 0.312
            (one-sided binomial)
                                        interval  estimate            bounds  target
                     recommended (method='auto')    0.7500  [0.1499, 1.0000]   kfold
          dataset level, normal (Wong Theorem 1)    0.7500  [0.3257, 1.0000]   kfold
                      fold level, t (Wong 4.3.3)    0.7500  [0.0000, 1.0000]   kfold
                                          Wilson    0.7500  [0.3006, 0.9544]   kfold
                         Clopper-Pearson (exact)    0.7500  [0.1941, 0.9937]   kfold
          recommended: half-sample, because clopper-pearson covered the kfold error only 0.900 in its worst
            measured cell (floor 0.93), half-sample 0.960
          large-sample conditions: r_j >= 5 and m_j - r_j >= 5 in every fold (Wong 2015, Theorem 1): fails
            (folds [0, 1])
        <BLANKLINE>
        verdict: Does not beat the no-information rate: always predicting 0 scores 50.0%, and
          accuracy > 50.0% has p = 0.312 (one-sided exact binomial). Accuracy 75.0%; with 95% confidence
          between 15.0% and 100.0% (half-sample interval).
        - These numbers describe this dataset: the models were trained on parts of it and tested on the
          rest, so they estimate how well the learner does given these data, not how it would do on another
          dataset of the same size, whose variation one dataset cannot show (Vanwinckelen & Blockeel 2015).
        """
        return upward("workflows", "evaluate")(self).summary()

    @validate_params(confidence_level=PROBABILITY)
    @fill_doc
    def plot(self, ax=None, *, confidence_level=0.95, path=None):
        """Draw the accuracy (or a regressor's loss) of every fold and every interval (needs matplotlib).

        The report of :meth:`summary`, drawn as the command line's
        ``--plot`` draws it (``cvinference.report.plot_result``): each
        fold's value (repeat 0) with the recommended interval as a band,
        and every interval of the quantity, under a title that names the
        data and the learner.
        %(display)s

        Parameters
        ----------
        ax : matplotlib Axes, sequence of 2 Axes or None, default=None
            None draws both panels on a new figure; one Axes draws the
            intervals there; two Axes draw the folds and the intervals.
        confidence_level : float, default=0.95
            The intervals' level.
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s

        Examples
        --------
        >>> import matplotlib.pyplot as plt
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> import cvinference as cvi
        >>> X, y = load_iris(return_X_y=True)
        >>> result = cvi.cross_val_correctness(DecisionTreeClassifier(random_state=0), X, y, cv=5, random_state=0)
        >>> drawn = result.plot()
        >>> [axis.get_title() for axis in drawn.axes_]
        ['accuracy per fold (repeat 0)', 'accuracy intervals']
        >>> plt.close(drawn.figure_)
        """
        return upward("report", "plot_result")(self, ax, confidence_level=confidence_level, path=path)

    _repr_html_ = _report_html

    def _instance_columns(self):
        """``repeat``, ``instance``, ``group`` (grouped records), ``fold`` and ``y_true``, per repeat and instance."""
        columns = {
            "repeat": np.repeat(np.arange(self.n_repeats), self.n_samples),
            "instance": np.tile(np.arange(self.n_samples), self.n_repeats),
        }
        if self._groups is not None:
            columns["group"] = np.tile(self._groups, self.n_repeats)
        return columns | {"fold": self._fold.ravel(), "y_true": np.tile(self.y_true, self.n_repeats)}

    def _outcome_columns(self, suffix=""):
        """``y_pred``, ``correct`` (class labels only), ``loss`` and any scores, each name followed by ``suffix``."""
        columns = {f"y_pred{suffix}": self.y_pred.ravel()}
        if self._classes is not None:
            columns[f"correct{suffix}"] = self.correct.ravel()
        columns[f"loss{suffix}"] = self.loss.ravel()
        if self.y_score is not None and self.y_score.ndim == 2:
            columns[f"y_score{suffix}"] = self.y_score.ravel()
        elif self.y_score is not None:
            for k, label in enumerate(self._classes[: self.y_score.shape[2]].tolist()):
                columns[f"y_score_{label}{suffix}"] = self.y_score[:, :, k].ravel()
        return columns

    def to_frame(self):
        """A pandas DataFrame with one row per repeat and instance.

        Columns: ``repeat``, ``instance`` (the row number in the data),
        ``group`` (only when the record keeps groups), ``fold``, ``y_true``,
        ``y_pred``, ``correct`` (only when y holds class labels) and
        ``loss``; with scores, ``y_score`` (two classes) or
        ``y_score_<class>`` for each class. Needs pandas.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> from cvinference import CVResult
        >>> CVResult(y_true=["a", "b"], y_pred=["a", "a"], fold=[0, 1]).to_frame()
           repeat  instance  fold y_true y_pred  correct  loss
        0       0         0     0      a      a     True   0.0
        1       0         1     1      b      a    False   1.0
        """
        return import_pandas().DataFrame(self._instance_columns() | self._outcome_columns())

    _kinds = {
        "loss_name": TEXT, "estimator_repr": Nullable(STRING), "cv_repr": Nullable(STRING), "name": NAME,
        "estimator_type": TYPE_NAME, "n_train": Nullable(POSITIVE), "classification": BOOLEAN,
        "classes": Nullable(Array(ndim=1)), "y_true": Array(ndim=1, min_rows=1), "y_pred": Array(ndim=2, min_rows=1),
        "fold": Array("iu", ndim=2, low=0, min_rows=1), "loss": Nullable(Array("f", ndim=2, min_rows=1)),
        "y_score": Nullable(Array("f", min_rows=1)), "response_method": RESPONSE_METHOD,
        "groups": Nullable(Array(ndim=1, min_rows=1)),
    }
    _rules = (check_labels, check_scores, SameLength("y_true", "groups"))

    def _field_values(self):
        """What the record stores: labels as codes into ``classes`` (a record of class labels)."""
        return {"loss_name": self.loss_name, "estimator_repr": self.estimator_repr, "cv_repr": self.cv_repr,
                "name": self.name, "estimator_type": self.estimator_type, "n_train": self.n_train,
                "classification": self._classes is not None, "classes": self._classes, "y_true": self._y_true,
                "y_pred": self._y_pred, "fold": self._fold, "loss": self._loss, "y_score": self.y_score,
                "response_method": self.response_method, "groups": self._groups}

    @classmethod
    def _from_fields(cls, values):
        return cls._from_codes(
            values["y_true"], values["y_pred"], values["fold"], classes=values["classes"], loss=values["loss"],
            loss_name=values["loss_name"], estimator_repr=values["estimator_repr"], cv_repr=values["cv_repr"],
            n_train=values["n_train"], name=values["name"], estimator_type=values["estimator_type"],
            y_score=values["y_score"], response_method=values["response_method"], groups=values["groups"],
        )


def _check_same_groups(a, b):
    """Refuse a pair of records of which one keeps groups that the other does not keep as they are."""
    if a.groups is None and b.groups is None:
        return
    if a.groups is None or b.groups is None or not np.array_equal(a.groups, b.groups):
        which = ("a has groups and b has none" if b.groups is None else "b has groups and a has none"
                 if a.groups is None else f"their groups differ (first at instance {_first_difference(a, b)})")
        raise ValueError(f"a and b must hold the same groups when either has groups; {which}. Evaluate both "
                         "estimators with the same groups, with CVEvaluator.compare(..., groups=groups).")


def _first_difference(a, b):
    return int(np.flatnonzero(np.asarray(a.groups != b.groups, dtype=bool))[0])


class PairedCVResult(Record):
    """Two estimators cross-validated on identical folds.

    Made by :meth:`CVEvaluator.compare`. Both results share ``y_true`` and the
    ``fold`` array of every repeat, which is what the matched-sample tests need,
    and their ``groups`` (both the same groups, or both none).

    Parameters
    ----------
    a, b : CVResult
        The results of estimator A and estimator B.

    Attributes
    ----------
    a, b : CVResult

    Examples
    --------
    >>> from cvinference import CVResult, PairedCVResult
    >>> a = CVResult(y_true=[0, 0, 1, 1], y_pred=[0, 0, 1, 1], fold=[0, 1, 0, 1])
    >>> b = CVResult(y_true=[0, 0, 1, 1], y_pred=[0, 1, 1, 0], fold=[0, 1, 0, 1])
    >>> PairedCVResult(a, b)
    PairedCVResult(n_samples=4, n_splits=2, n_repeats=1, accuracy_a=1, accuracy_b=0.5)
    """

    def __init__(self, a, b):
        for name, result in (("a", a), ("b", b)):
            if not isinstance(result, CVResult):
                raise TypeError(f"{name} must be a CVResult; got {type(result).__name__}.")
        if a.n_samples != b.n_samples or not np.array_equal(a.y_true, b.y_true):
            raise ValueError(
                "a and b must hold the same instances; their y_true differ. "
                "Evaluate both estimators on the same data with CVEvaluator.compare, or make both records with "
                "CVResult.from_predictions from the same rows in one order."
            )
        if not same_folds(a, b):
            raise ValueError(
                "a and b were not cross-validated on identical folds. A paired "
                "comparison needs the same partition in every repeat; use CVEvaluator.compare, or give both "
                "CVResult.from_predictions the same fold of each row."
            )
        _check_same_groups(a, b)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    def __setattr__(self, name, value):
        raise AttributeError(f"a PairedCVResult cannot be changed (setting {name!r}); make a new one: "
                             "PairedCVResult(a, b).")

    def __delattr__(self, name):
        raise AttributeError(f"a PairedCVResult cannot be changed (deleting {name!r}); make a new one: "
                             "PairedCVResult(a, b).")

    def _repr_fields(self):
        a, b = self.a, self.b
        sizes = {"n_samples": a.n_samples, "n_splits": a.n_splits, "n_repeats": a.n_repeats}
        if a.loss_name == "zero_one":
            return {**sizes, "accuracy_a": f"{a.accuracy:.4g}", "accuracy_b": f"{b.accuracy:.4g}"}
        return {**sizes, "mean_loss_a": f"{a.mean_loss:.4g}", "mean_loss_b": f"{b.mean_loss:.4g}",
                "loss_name": repr(a.loss_name)}

    def summary(self):
        """The report of this pair as text, as ``cvinference compare`` prints it (but 5x2cv).

        A side-by-side per-fold table with d_j = p_Aj - p_Bj (for a
        regression loss, the fold mean losses and their difference), each
        result's intervals, then the matched-sample t, the independent-sample
        z and McNemar's test (on repeat 0 when there are several repeats), the
        corrected repeated-CV t (all repeats), the phi diagnostic, the
        warnings and a verdict: the summary of ``cvinference.compare(pair)``,
        the answer of this pair (no fit).

        Returns
        -------
        str
        """
        return upward("workflows", "compare")(self).summary()

    @validate_params(confidence_level=PROBABILITY)
    @fill_doc
    def plot(self, ax=None, *, confidence_level=0.95, nested=None, path=None):
        """Draw A and B fold by fold, the fold differences, and every test with the decision (needs matplotlib).

        The report of :meth:`summary`, drawn as ``cvinference compare
        --plot`` draws it (``cvinference.report.plot_result``), about the
        decision's metric: each learner's fold values (repeat 0) with its
        recommended interval as a band, the histogram of the fold
        differences (positive when A is better), and each test's estimate
        of the difference with its interval and p-value, under a title that
        names the data, which learner is A and which is B, and the test the
        decision rests on.
        %(display)s

        Parameters
        ----------
        ax : matplotlib Axes, sequence of 3 Axes or None, default=None
            None draws the three panels on a new figure; one Axes draws
            the tests there, with the learners in its title; three Axes
            draw every panel.
        confidence_level : float, default=0.95
            The intervals' and the decision's level.
        nested : Interval or None, default=None
            Nested cross-validation's difference interval of the same two
            learners (``nested_cv_interval(..., estimator_b=...,
            cv_result=pair)``), drawn with the tests; the decision may rest
            on it, as ``decide(pair, nested=...)`` does.
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s

        Examples
        --------
        >>> import matplotlib.pyplot as plt
        >>> from sklearn.datasets import load_breast_cancer
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> import cvinference as cvi
        >>> X, y = load_breast_cancer(return_X_y=True)
        >>> pair = cvi.CVEvaluator(cv=10, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(random_state=0),
        ...                                                       X, y)
        >>> figure, axis = plt.subplots()
        >>> pair.plot(ax=axis).ax_ is axis
        True
        >>> print(axis.get_title())
        tests: estimate and interval
        A = GaussianNB(); B =
          DecisionTreeClassifier(random_state=0)
        decision on accuracy: cannot tell (no calibrated test to
          rest on)
        >>> plt.close(figure)
        """
        return upward("report", "plot_result")(self, ax, confidence_level=confidence_level, nested=nested, path=path)

    _repr_html_ = _report_html

    def to_frame(self):
        """A pandas DataFrame with one row per repeat and instance, A and B side by side.

        Columns: ``repeat``, ``instance``, ``fold``, ``y_true``, then
        ``y_pred_a``, ``correct_a`` (class labels only), ``loss_a``, the
        scores kept (``y_score_a``) and the same for B. Needs pandas.

        Returns
        -------
        pandas.DataFrame
        """
        columns = self.a._instance_columns() | self.a._outcome_columns("_a") | self.b._outcome_columns("_b")
        return import_pandas().DataFrame(columns)

    _kinds = {"a": Instance(CVResult), "b": Instance(CVResult)}

    def _field_values(self):
        return {"a": self.a, "b": self.b}

    @classmethod
    def _from_fields(cls, values):
        return cls(values["a"], values["b"])
