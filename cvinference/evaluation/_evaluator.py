"""Cross-validate estimators and record what happened to every instance."""

import typing

import numpy as np
from sklearn.base import BaseEstimator

from .._utils._arrays import smallest_int_dtype
from .._utils._describe import learner_labels
from .._utils._docstring import fill_doc
from .._utils._params import NAME, NAMES, SECONDS, VERBOSE, Boolean, Integer, Jobs, Seed, validate_params
from .._utils._validation import is_classifier_like
from ..records import CVResult, ForwardResult, PairedCVResult, PairedForwardResult
from ..records._losses import get_loss
from ._fast_loo import fast_loo_predictions
from ._fit_params import FitParams, routed_fit_params
from ._fit_task import FitTask
from ._forward import check_forward_settings, forward_records, is_forward_splitter
from ._loss_data import LossSpec, prepare_loss_data
from ._partitions import CrossValidation, check_cv_argument, draw_partitions
from ._scheduler import CHEAP_FIT_SECONDS, run_fits
from ._scores import ResponseMethod, response_method_of, scores_from_proba


class _Settings(typing.NamedTuple):
    """An evaluator's parameters after checking."""

    cv: object
    n_repeats: int
    loss: object
    n_jobs: object
    random_state: object
    verbose: object
    cheap_fit_seconds: float
    fast_loo: bool
    response_method: tuple | None


@fill_doc
class CVEvaluator(BaseEstimator):
    """Cross-validate estimators and keep every instance's fold, prediction and loss.

    The evaluator draws one partition per repeat, fits a clone of each
    estimator on every training part (one joblib pool over all estimator,
    repeat and fold tasks) and records the out-of-fold prediction of every
    instance. The predictions equal
    :func:`sklearn.model_selection.cross_val_predict` on the same splits.

    Parameters
    ----------
    cv : int, "loo", cross-validation splitter or iterable, default=10
        An int k means :class:`StratifiedEqualSizeKFold` with k folds for
        classifiers and :class:`EqualSizeKFold` otherwise, and when the
        call passes ``groups`` their group-respecting forms
        (:class:`StratifiedEqualSizeGroupKFold` and ``EqualSizeGroupKFold``:
        whole groups in every fold); ``"loo"`` means
        leave-one-out. Any sklearn splitter whose test sets form a partition
        (``KFold``, ``GroupKFold`` with ``groups``, ``PredefinedSplit``, ...)
        is accepted, and an iterable of (train, test) index pairs; a
        shuffling splitter is reseeded as ``random_state`` describes.
        scikit-learn's ``RepeatedKFold`` and ``RepeatedStratifiedKFold``
        give their ``n_repeats`` partitions as the record's repeats (the
        record :func:`~cvinference.evaluation.from_cross_validate` makes of
        ``cross_validate`` with the same splitter); ``n_repeats`` must then
        be 1. Splitters whose test sets overlap or miss instances
        (``ShuffleSplit``) are refused. A forward splitter
        (:class:`~cvinference.splitters.ForwardSplit`, ``TimeSeriesSplit``)
        with a regression loss gives a
        :class:`~cvinference.records.ForwardResult` (a
        :class:`~cvinference.records.PairedForwardResult` from
        :meth:`compare`) instead of a CVResult. A one-shot iterator of splits (such
        as ``KFold(3).split(X)``) is read on first use and kept, so the
        evaluator can be used again; a clone cannot read it again (and a
        generator cannot be copied at all), so pass a list of splits to an
        evaluator you will clone.
    n_repeats : int, default=1
        Number of partitions. Each repeat draws a new random partition; this
        needs an int ``cv`` or a shuffling splitter (leave-one-out has nothing
        to repeat, and a ``RepeatedKFold`` repeats itself). Repeated
        partitions are **not** independent samples (Wong 2015, section
        4.3.4): the inference functions treat them accordingly.
    loss : str, callable or Loss, default="zero_one"
        Per-instance loss to record. ``"zero_one"`` (misclassification),
        ``"log_loss"`` (-ln of the predicted probability of the true class,
        clipped to [0.001, 0.999] as in Nedel'ko 2021, section 5; see
        :func:`make_log_loss` for another clip) and ``"brier"`` (the sum
        over classes of (p_k - [y = k])^2, halved for two classes as
        ``sklearn.metrics.brier_score_loss`` does) need class labels;
        ``"squared_error"`` and ``"absolute_error"`` need a numeric y. A
        callable ``(y_true, y_pred) -> per-instance losses`` is used as is;
        :func:`make_loss` makes one that takes probabilities. ``predict_proba``
        is called only for a loss that needs it, and its columns are lined up
        with the classes of y through each fold model's ``classes_``, so a
        class missing from a training fold gets probability 0.
    %(n_jobs)s
    random_state : int, RandomState instance or None, default=None
        Seeds the partitions: one seed per repeat is drawn from it, and each
        repeat's splitter is seeded with its own (so an int ``cv=10`` with
        ``random_state=0`` uses some derived seed, not 0; ``result.fold``
        records every partition). A shuffling splitter passed as ``cv`` is
        copied and reseeded the same way when ``random_state`` is given or
        ``n_repeats > 1`` (then from its own ``random_state`` if this one is
        None); otherwise it is used exactly as given. With an int, results
        are identical for any ``n_jobs`` or joblib backend, and the first r
        repeats equal a run with ``n_repeats=r``. A RandomState instance
        advances with each call, as in sklearn, so two calls get different
        partitions: use :meth:`compare`, not two :meth:`evaluate` calls, to
        pair estimators. It seeds only the partitions, not the estimators:
        the learners are fitted as given, so set their own ``random_state``
        for reproducible fits (the front door, :func:`~cvinference.evaluate`
        and :func:`~cvinference.compare`, seeds their unset ones from its
        ``random_state``).
    verbose : int, default=0
        1: a progress line on standard error while the models are fitted
        (fits done of all, time spent, time left); 2 and more: also the
        joblib pool's own messages, at ``verbose - 1``.
    cheap_fit_seconds : float, default=0.05
        With ``n_jobs`` > 1, this process is one of the workers: it times the
        first fit (with its predictions) of each estimator, and an estimator
        whose fit took less than this many seconds is cheap: its other fits go
        to the joblib pool only in batches of about 0.1 s of work, and only
        when they add up to 20 ms or more (the rest stay here), since sending
        one such fit costs about as much as running it. The other
        estimators' fits go to the pool one by one, the slowest estimator's
        first. 0 sends every estimator's fits to the pool one by one; ``inf``
        makes every estimator cheap. Under joblib's dask backend every fit
        goes to the cluster as futures, whatever this is. Where a fit runs
        never changes the results.
    fast_loo : bool, default=True
        Under leave-one-out, compute the predictions of a plain
        ``KNeighborsClassifier`` (uniform or distance weights) or
        ``GaussianNB`` (without ``priors``) from one fit on all the data,
        with each instance's own contribution removed, instead of n refits.
        The predictions are identical to the refits' (rows whose result
        depends on tie order are refitted); any other estimator, a pipeline
        included, is refitted n times. False always refits. With scores
        (``response_method``), the shortcut gives them too, from its
        leave-one-out ``predict_proba``.
    response_method : {"auto", "predict_proba", "decision_function"}, list or None, default=None
        Keep each instance's out-of-fold scores in ``result.y_score``, from
        the model that predicts it (no second fit), in scikit-learn's
        vocabulary: a method's name, a list of them tried in order (the first
        the estimator has is used in every fold), or ``"auto"`` for
        ``["predict_proba", "decision_function"]`` (as
        ``sklearn.utils._response._get_response_values`` tries them). For two
        classes, the score of the second class (``result.classes[1]``, the
        positive class of ``sklearn.metrics.roc_auc_score``); for more, one
        column per class in the order of ``result.classes``. Score metrics
        (``metric_interval(result, "roc_auc")``) need them. None keeps none.
        Scores are kept as float64, as the model gives them (float32 would
        tie probabilities above 1 - 3e-8 and change ROC AUC): 8 bytes per
        repeat, instance and class (one class for two).

    See Also
    --------
    cross_val_correctness : The same as a function.

    Notes
    -----
    The evaluator follows scikit-learn's rules for estimators: ``__init__``
    stores the parameters unchanged, they are checked when the evaluator is
    used (:meth:`evaluate`, :meth:`compare`), and ``get_params``,
    ``set_params``, :func:`sklearn.base.clone` and the repr work as for any
    scikit-learn estimator.

    The caller's estimators are never fitted: every fit uses
    :func:`sklearn.base.clone`. Per-instance records follow Wong (2015),
    section 4.1 (fold j holds m_j instances of which r_j are correct).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from cvinference import CVEvaluator
    >>> X, y = load_iris(return_X_y=True)
    >>> evaluator = CVEvaluator(cv=5, random_state=0)
    >>> evaluator.evaluate(GaussianNB(), X, y).fold_sizes
    array([[30, 30, 30, 30, 30]])
    >>> pair = evaluator.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y)
    >>> bool((pair.a.fold == pair.b.fold).all())
    True
    """

    __cvinference_params__ = dict(cv=CrossValidation(), n_repeats=Integer(minimum=1), loss=LossSpec(), n_jobs=Jobs(),
                                  random_state=Seed(), verbose=VERBOSE, cheap_fit_seconds=SECONDS, fast_loo=Boolean(),
                                  response_method=ResponseMethod())
    """What each parameter accepts: checked when the evaluator is used, as scikit-learn checks in ``fit``."""

    def __init__(self, cv=10, *, n_repeats=1, loss="zero_one", n_jobs=None, random_state=None, verbose=0,
                 cheap_fit_seconds=CHEAP_FIT_SECONDS, fast_loo=True, response_method=None):
        self.cv = cv
        self.n_repeats = n_repeats
        self.loss = loss
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.cheap_fit_seconds = cheap_fit_seconds
        self.fast_loo = fast_loo
        self.response_method = response_method

    def _checked_settings(self):
        """The parameters, checked now (when used), as scikit-learn checks an estimator's in ``fit``.

        A one-shot iterable of splits given as ``cv`` is read once and kept,
        so that the evaluator can be used more than once.
        """
        checked = {name: rule.check(name, getattr(self, name)) for name, rule in self.__cvinference_params__.items()}
        cv = self.cv
        kept = self.__dict__.get("_splits_read_from_cv")
        if kept is not None and kept[0] is cv:
            cv = kept[1]
        else:
            cv = check_cv_argument(cv, checked["n_repeats"])
            if cv is not self.cv:
                if not cv:
                    raise ValueError(
                        f"cv={self.cv!r} gave no splits: an iterator of splits can be read only once, and "
                        "this one was read before (by a clone's original, for example). Pass a list of "
                        "(train, test) splits, or a splitter such as KFold(3)."
                    )
                self._splits_read_from_cv = (self.cv, cv)
        return _Settings(**{**checked, "cv": cv, "loss": get_loss(self.loss)})

    @validate_params(name=NAME, params=FitParams())
    @fill_doc
    def evaluate(self, estimator, X, y, groups=None, *, name=None, params=None):
        """Cross-validate one estimator.

        Parameters
        ----------
        estimator : estimator instance
            Any object with ``fit`` and ``predict``; it is cloned, never fitted.
        %(X)s
        y : array-like of shape (n_samples,)
            Targets: class labels (str, int, bool) for ``loss="zero_one"``.
        groups : array-like of shape (n_samples,), default=None
            Group labels for group-aware splitters such as ``GroupKFold`` or
            :class:`StratifiedEqualSizeGroupKFold`: integers or strings, none
            missing. The record keeps them (``result.groups``).
        name : str, default=None
            The learner's name in reports (``result.name``). None names it
            by its short description (``result.estimator_repr``), such as
            ``"StandardScaler + LogisticRegression(max_iter=1000)"``.
        params : dict or None, default=None
            Fit parameters passed to every fit, as scikit-learn's
            ``cross_validate(params=...)`` passes them: one of one value per
            row is cut to the fit's training rows, any other is passed as is.
            ``sample_weight`` is refused (the intervals here are unweighted,
            and a silently unweighted answer to a weighted question is
            wrong); ``groups`` has its own parameter. With scikit-learn's
            metadata routing enabled, each fit gets only the parameters the
            estimator requests (``set_fit_request``), as ``cross_validate``
            routes them.

        Returns
        -------
        CVResult or ForwardResult
            With ``name``, ``estimator_repr`` (the short description),
            ``estimator_type`` (the final estimator's class, as
            ``module.QualifiedName``) and ``groups`` (None when none were
            given).
        """
        return self._run([estimator], X, y, groups, None if name is None else (name,), params)[0]

    @validate_params(names=NAMES, params=FitParams())
    def compare(self, estimator_a, estimator_b, X, y, groups=None, *, names=None, params=None):
        """Cross-validate two estimators on identical folds in every repeat.

        Parameters
        ----------
        estimator_a, estimator_b : estimator instance
            The two estimators; both are cloned, never fitted.
        X, y, groups
            As in :meth:`evaluate`.
        names : pair of str, default=None
            The two learners' names in reports, different from each other
            (``pair.a.name``, ``pair.b.name``). None names each by its short
            description.
        params : dict or None, default=None
            As in :meth:`evaluate`, for the fits of both.

        Returns
        -------
        PairedCVResult
            ``.a`` and ``.b`` hold the two CVResults, each with the
            ``groups``.
        """
        a, b = self._run([estimator_a, estimator_b], X, y, groups, names, params)
        return PairedForwardResult(a, b) if isinstance(a, ForwardResult) else PairedCVResult(a, b)

    def _run(self, estimators, X, y, groups, names=None, params=None):
        settings = self._checked_settings()
        arguments = ["estimator"] if len(estimators) == 1 else ["estimator_a", "estimator_b"]
        forward = is_forward_splitter(settings.cv)
        if forward:
            check_forward_settings(settings.cv, settings.loss, groups, settings.response_method)
        X, y, groups, y_array, loss = prepare_loss_data(estimators, arguments, X, y, settings.loss, groups)
        params = routed_fit_params(estimators, params)
        if forward:
            return forward_records(estimators, arguments, X, y, y_array, settings.cv, loss=loss,
                                   n_jobs=settings.n_jobs, verbose=settings.verbose,
                                   cheap_fit_seconds=settings.cheap_fit_seconds, names=names, fit_params=params)
        methods = _response_methods(estimators, arguments, settings.response_method, loss)
        classes = np.unique(y_array) if loss.classification else None
        partitions = draw_partitions(
            settings.cv, X, y_array, groups,
            n_repeats=settings.n_repeats,
            random_state=settings.random_state,
            classifier=all(is_classifier_like(e) for e in estimators),
            score_columns=0 if settings.response_method is None else _score_columns(classes),
        )
        out_of_fold = [_OutOfFoldPredictions(partitions.fold.shape, classes, loss.needs_proba, method)
                       for method in methods]
        refit = []
        for e, estimator in enumerate(estimators):
            shortcut = (self._fast_loo(estimator, X, y_array, partitions, loss, methods[e])
                        if settings.fast_loo and not params else None)
            if shortcut is None:
                refit.append(e)
            else:
                out_of_fold[e].add(0, np.arange(y_array.size), *_shortcut_outputs(shortcut, loss, y_array, classes,
                                                                                  methods[e]))
        tasks = _FoldTasks(partitions, refit)
        proba_loss = (loss, y_array, classes) if loss.needs_proba else None
        responses = None if settings.response_method is None else [(method, classes) for method in methods]
        run_fits(estimators, X, y, tasks, names=arguments, n_jobs=settings.n_jobs, verbose=settings.verbose,
                 cheap_fit_seconds=settings.cheap_fit_seconds, proba_loss=proba_loss, responses=responses,
                 collect=lambda index, output: out_of_fold[tasks.estimator(index)].add(*tasks.where(index), *output),
                 fit_params=params)
        names = names or [None] * len(estimators)
        return [kept.result(y_array, partitions, loss, learner_labels(estimator, name) | {"groups": groups})
                for kept, estimator, name in zip(out_of_fold, estimators, names, strict=True)]

    def _fast_loo(self, estimator, X, y_array, partitions, loss, method):
        """Exact leave-one-out predictions without refits, or None (see :func:`fast_loo_predictions`)."""
        if not (partitions.is_loo and loss.classification and not partitions.irregular):
            return None
        if method not in (None, "predict_proba"):
            return None
        return fast_loo_predictions(estimator, X, y_array, need_proba=loss.needs_proba or method is not None)


def _response_methods(estimators, arguments, response_method, loss):
    """The method that gives each estimator's scores (None for all when none are kept), checked before any fit."""
    if response_method is None:
        return [None] * len(estimators)
    if not loss.classification:
        raise ValueError(
            f"response_method={list(response_method)!r} keeps classifiers' scores, and loss={loss.name!r} is a "
            "regression loss, whose estimators give none; drop response_method."
        )
    return [response_method_of(estimator, response_method, argument)
            for estimator, argument in zip(estimators, arguments, strict=True)]


def _score_columns(classes):
    """The scores kept per instance and repeat: one for two classes, else one per class."""
    return 1 if classes.size == 2 else classes.size


def _shortcut_outputs(shortcut, loss, y_array, classes, method):
    """What a fit's output holds (predictions, losses, scores) for the leave-one-out shortcut's predictions."""
    predictions, proba = shortcut
    losses = None if not loss.needs_proba else loss(y_array, proba, classes)
    return predictions, losses, None if method is None else scores_from_proba(proba)


class _FoldTasks:
    """The :class:`FitTask` of every fold of some estimators, made on access."""

    def __init__(self, partitions, estimators):
        self._partitions = partitions
        self._estimators = estimators
        self._per_estimator = partitions.n_repeats * partitions.n_splits

    def __len__(self):
        return len(self._estimators) * self._per_estimator

    def estimator(self, index):
        return self._estimators[index // self._per_estimator]

    def where(self, index):
        """(repeat, test indices) of a fit."""
        r, j = divmod(index % self._per_estimator, self._partitions.n_splits)
        return r, self._partitions.test(r, j)

    def __getitem__(self, index):
        r, j = divmod(index % self._per_estimator, self._partitions.n_splits)
        train, test = self._partitions.split(r, j)
        return FitTask(estimator=self.estimator(index), where=f"fold {j} of repeat {r}", train=train, test=test)


def _common_dtype(*dtypes):
    try:
        return np.result_type(*dtypes)
    except TypeError:
        return np.dtype(object)


class _OutOfFoldPredictions:
    """One estimator's out-of-fold predictions (as codes into the classes while they are classes) and losses."""

    def __init__(self, shape, classes, has_losses, response_method=None):
        self._classes = classes
        self._codes = None if classes is None else np.zeros(shape, dtype=smallest_int_dtype(classes.size))
        self._labels = None
        self._shape = shape
        self._losses = np.empty(shape) if has_losses else None
        self._response_method = response_method
        self._scores = None
        if response_method is not None:
            columns = () if classes.size == 2 else (classes.size,)
            self._scores = np.empty((*shape, *columns), dtype=np.float64)

    def _as_codes(self, predictions):
        """``predictions`` as codes into the classes, or None when one of them is no class."""
        if self._codes is None:
            return None
        try:
            codes = np.minimum(np.searchsorted(self._classes, predictions), self._classes.size - 1)
            return codes if np.asarray(self._classes[codes] == predictions, dtype=bool).all() else None
        except (TypeError, ValueError):
            return None

    def _store_labels(self, r, test, predictions):
        if self._labels is None and self._codes is not None:
            self._labels = self._classes.astype(_common_dtype(self._classes.dtype, predictions.dtype))[self._codes]
            self._codes = None
        elif self._labels is None:
            self._labels = np.empty(self._shape, dtype=predictions.dtype)
        dtype = _common_dtype(self._labels.dtype, predictions.dtype)
        if dtype != self._labels.dtype:
            self._labels = self._labels.astype(dtype)
        self._labels[r, test] = predictions

    def add(self, r, test, predictions, losses, scores=None):
        codes = self._as_codes(predictions)
        if codes is not None:
            self._codes[r, test] = codes
        else:
            self._store_labels(r, test, predictions)
        if losses is not None:
            self._losses[r, test] = losses
        if scores is not None:
            self._scores[r, test] = scores

    def result(self, y_true, partitions, loss, labels):
        """The CVResult; ``labels`` are the learner's (:func:`learner_labels`) and the instances' ``groups``."""
        losses = self._losses
        labels = {**labels, "y_score": self._scores, "response_method": self._response_method}
        if self._codes is not None:
            code_dtype = self._codes.dtype
            y_true_codes = np.searchsorted(self._classes, y_true).astype(code_dtype)
            if losses is None and loss.name != "zero_one":
                losses = np.stack([loss(y_true, self._classes[row]) for row in self._codes])
            return CVResult._from_codes(y_true_codes, self._codes, partitions.fold, classes=self._classes,
                                        loss=losses, loss_name=loss.name, cv_repr=partitions.cv_repr, **labels)
        if losses is None and loss.name != "zero_one":
            losses = np.stack([loss(y_true, row) for row in self._labels])
        return CVResult(y_true, self._labels, partitions.fold, loss=losses, loss_name=loss.name,
                        classification=loss.classification, cv_repr=partitions.cv_repr, **labels)


@validate_params(**CVEvaluator.__cvinference_params__, name=NAME, params=FitParams())
def cross_val_correctness(estimator, X, y, *, cv=10, groups=None, n_repeats=1, loss="zero_one",
                          n_jobs=None, random_state=None, verbose=0, cheap_fit_seconds=CHEAP_FIT_SECONDS,
                          fast_loo=True, response_method=None, name=None, params=None):
    """Cross-validate an estimator and record every instance's fold and correctness.

    A thin wrapper around ``CVEvaluator(...).evaluate(estimator, X, y, groups, name=name, params=params)``;
    see :class:`CVEvaluator` for the parameters and :meth:`CVEvaluator.evaluate` for ``name`` and ``params``
    (fit parameters, as scikit-learn's ``cross_validate(params=...)``).

    Returns
    -------
    CVResult or ForwardResult
        Per-instance ``correct``, ``loss``, ``fold`` and ``y_pred`` for every
        repeat, and the per-fold counts m_j, r_j and p_j; with
        ``response_method``, the out-of-fold scores ``y_score``; with
        ``groups``, the groups (``result.groups``).

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from cvinference import cross_val_correctness
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> result = cross_val_correctness(DecisionTreeClassifier(random_state=0), X, y,
    ...                                cv=10, random_state=0)
    >>> result.n_splits, result.fold_sizes.min().item(), result.fold_sizes.max().item()
    (10, 56, 57)
    >>> result.correct.shape
    (1, 569)

    Scores, for metrics such as ROC AUC, are kept on request:

    >>> scored = cross_val_correctness(DecisionTreeClassifier(random_state=0), X, y, cv=10,
    ...                                random_state=0, response_method="auto")
    >>> scored.response_method, scored.y_score.shape, scored.y_score.dtype
    ('predict_proba', (1, 569), dtype('float64'))
    """
    evaluator = CVEvaluator(cv, n_repeats=n_repeats, loss=loss, n_jobs=n_jobs, random_state=random_state,
                            verbose=verbose, cheap_fit_seconds=cheap_fit_seconds, fast_loo=fast_loo,
                            response_method=response_method)
    return evaluator.evaluate(estimator, X, y, groups, name=name, params=params)
