"""Forward validation's fits: one model per origin, each forecasting the rows after it, kept as a ForwardResult."""

import numpy as np
from sklearn.model_selection import TimeSeriesSplit

from .._utils._describe import learner_labels
from ..records import ForwardResult
from ..records._forward_result import FORECAST_LOSSES
from ._fit_task import FitTask
from ._scheduler import run_fits


def is_forward_splitter(cv):
    """Whether ``cv`` is a forward splitter: scikit-learn's ``TimeSeriesSplit`` or a subclass (``ForwardSplit``)."""
    return isinstance(cv, TimeSeriesSplit)


def check_forward_settings(cv, loss, groups, response_method):
    """Refuse what forward validation's record cannot hold, naming the fix (before the data are read)."""
    if loss.name not in FORECAST_LOSSES or loss.classification:
        raise ValueError(f"cv={cv!r} is forward validation, whose record keeps each forecast's loss of a numeric "
                         f"series: pass loss='squared_error' or loss='absolute_error'; got loss={loss.name!r}.")
    if groups is not None:
        raise ValueError(f"cv={cv!r} is forward validation, which orders rows by time, not by group; pass "
                         "groups=None.")
    if response_method is not None:
        raise ValueError(f"cv={cv!r} is forward validation of a numeric series, which keeps no class scores; pass "
                         "response_method=None.")


def forward_records(estimators, arguments, X, y, y_array, cv, *, loss, n_jobs, verbose, cheap_fit_seconds,
                    names=None, fit_params=None):
    """Fit every estimator at every origin of ``cv`` and return one :class:`ForwardResult` per estimator.

    Each split's model is a fresh clone fitted to the split's training rows
    and predicting its test rows, exactly as
    :func:`sklearn.model_selection.cross_validate` fits it; the fits run on
    the evaluator's scheduler, so the records are identical for any
    ``n_jobs`` and backend.
    """
    splits = [(np.asarray(train), np.asarray(test)) for train, test in cv.split(X, y_array)]
    tasks = [FitTask(e, f"split {j} (origin row {train.max()})", train, test)
             for e in range(len(estimators)) for j, (train, test) in enumerate(splits)]
    outputs = run_fits(estimators, X, y, tasks, names=arguments, n_jobs=n_jobs, verbose=verbose,
                       cheap_fit_seconds=cheap_fit_seconds, fit_params=fit_params)
    time = np.concatenate([test for _, test in splits])
    fold = np.concatenate([np.full(test.size, j) for j, (_, test) in enumerate(splits)])
    origin = np.array([train.max() for train, _ in splits])
    train_size = np.array([train.size for train, _ in splits])
    names = names or [None] * len(estimators)
    records = []
    for e, (estimator, name) in enumerate(zip(estimators, names, strict=True)):
        predictions = outputs[e * len(splits):(e + 1) * len(splits)]
        y_pred = np.concatenate([np.asarray(output[0], dtype=np.float64).ravel() for output in predictions])
        labels = learner_labels(estimator, name)
        records.append(ForwardResult(y=y_array.astype(np.float64), time=time, fold=fold, y_pred=y_pred,
                                     origin=origin, train_size=train_size, loss_name=loss.name,
                                     estimator_repr=labels["estimator_repr"], name=labels["name"], cv_repr=repr(cv)))
    return records
