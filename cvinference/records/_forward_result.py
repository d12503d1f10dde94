"""The record of forward validation: every forecast's origin, horizon, row, true value, prediction and loss."""

import dataclasses

import numpy as np

from .._utils._arrays import readonly_array
from .._utils._docstring import fill_doc
from .._utils._kinds import STRING, Array, Instance
from .._utils._notebook import import_pandas
from .._utils._params import Integer, Nullable, Options, Text, validate_params
from .._utils._upward import upward
from ._fields import array_field, check_indices
from ._losses import LOSSES
from ._record import Record, computed_once

FORECAST_LOSSES = ("squared_error", "absolute_error")
"""The per-forecast losses a forward record keeps."""

SUMMARY_SEED = 0
"""The ``random_state`` of a forward record's ``summary()``: it seeds the block bootstrap's intervals, so that one
record has one summary."""


def _check_origins(origin, fold, time, train_size):
    """Refuse a forecast at or before its model's origin, or a model fitted to more rows than precede its origin."""
    ahead = time - origin[fold]
    if ahead.min() < 1:
        i = int(np.argmin(ahead))
        raise ValueError(f"every forecast must be of a row after its model's origin (its last training row); "
                         f"forecast {i} is of row {time[i]} by split {fold[i]}, whose origin is row "
                         f"{origin[fold[i]]}.")
    if (train_size > origin + 1).any():
        j = int(np.argmax(train_size > origin + 1))
        raise ValueError(f"train_size[{j}]={train_size[j]} is more rows than the {origin[j] + 1} up to split {j}'s "
                         f"origin (row {origin[j]}); a forward model is fitted to the past only.")


def _check_splits(fold, n_splits):
    counts = np.bincount(fold, minlength=n_splits)
    if fold.min() < 0 or (fold.size and fold.max() >= n_splits) or (counts == 0).any():
        raise ValueError(f"fold must number the splits 0 .. n_splits - 1 = {n_splits - 1} (n_splits is the length of "
                         "origin), each with at least one forecast; got "
                         f"{np.unique(fold).tolist()[:10]}.")


def _check_unique_forecasts(fold, time, origin):
    """Refuse two forecasts of one row by one split's model (one origin): each (origin, row) is forecast once."""
    keys = fold.astype(np.int64) * (int(time.max()) + 1) + time
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    repeated = np.flatnonzero(first[inverse.reshape(-1)] != np.arange(keys.size))
    if repeated.size:
        i = int(repeated[0])
        j = int(first[inverse.reshape(-1)[i]])
        raise ValueError(f"forecasts {j} and {i} are both of row {time[i]} from origin {origin[fold[i]]} (split "
                         f"{fold[i]}); a model forecasts a row once, so drop the duplicate (or average the two "
                         "forecasts into one).")


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class ForwardResult(Record):
    """What forward (rolling-origin) validation did: every forecast of a series, with its origin and horizon.

    Made by :class:`~cvinference.CVEvaluator` with a forward splitter
    (:class:`~cvinference.splitters.ForwardSplit`, scikit-learn's
    :class:`~sklearn.model_selection.TimeSeriesSplit`) or from forecasts
    already made (:meth:`from_forecasts`). The series is kept whole, so
    that baselines (the naive forecast, the seasonal naive one) can be
    computed from the values known at each origin.

    Parameters
    ----------
    y : array-like of float, shape (n_samples,)
        The whole series, in time order (oldest first).
    time : array-like of int, shape (n_forecasts,)
        The row each forecast is of.
    fold : array-like of int, shape (n_forecasts,)
        The split (fitted model) that made each forecast, 0 .. n_splits - 1.
    y_pred : array-like of float, shape (n_forecasts,)
        The forecasts.
    origin : array-like of int, shape (n_splits,)
        Each split's origin: its last training row. Every forecast is of a
        later row.
    train_size : array-like of int, shape (n_splits,)
        The rows each split's model was fitted to, at most origin + 1.
    loss_name : {"squared_error", "absolute_error"}, default="squared_error"
        The per-forecast loss.
    estimator_repr : str or None, default=None
        The learner, in words.
    name : str or None, default=None
        The learner's name in reports; None: ``estimator_repr``.
    cv_repr : str or None, default=None
        The splitter.

    Attributes
    ----------
    y, time, fold, y_pred, origin, train_size : ndarray
        Read-only.
    y_true : ndarray of shape (n_forecasts,)
        ``y[time]``.
    horizon : ndarray of shape (n_forecasts,)
        Steps ahead of each forecast: its row minus its model's origin.
    loss : ndarray of shape (n_forecasts,)
        Each forecast's loss.
    n_samples, n_splits, n_forecasts : int
    window : str
        "sliding" when every model was fitted to the same number of rows
        ending at its origin and some model left older rows out; "expanding"
        when every model was fitted to all the rows up to its origin;
        "other" otherwise.
    mean_loss : float

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.records import ForwardResult
    >>> result = ForwardResult(y=[1.0, 2.0, 3.0, 5.0, 4.0, 6.0], time=[3, 4, 4, 5], fold=[0, 0, 1, 1],
    ...                        y_pred=[3.0, 3.5, 5.5, 5.0], origin=[2, 3], train_size=[3, 4])
    >>> result
    ForwardResult(n_samples=6, n_splits=2, n_forecasts=4, horizons=[1, 2], loss_name='squared_error')
    >>> result.horizon.tolist(), result.loss.tolist(), result.window
    ([1, 2, 1, 2], [4.0, 0.25, 2.25, 1.0], 'expanding')
    """

    y: np.ndarray
    time: np.ndarray
    fold: np.ndarray
    y_pred: np.ndarray
    origin: np.ndarray
    train_size: np.ndarray
    loss_name: str = "squared_error"
    estimator_repr: str | None = None
    name: str | None = None
    cv_repr: str | None = None

    _kinds = {"y": Array("f", ndim=1, min_rows=2), "time": Array("iu", ndim=1, low=0, min_rows=1),
              "fold": Array("iu", ndim=1, low=0, min_rows=1), "y_pred": Array("f", ndim=1, min_rows=1),
              "origin": Array("iu", ndim=1, low=0, min_rows=1), "train_size": Array("iu", ndim=1, low=1, min_rows=1),
              "loss_name": Options(*FORECAST_LOSSES), "estimator_repr": Nullable(STRING),
              "name": Nullable(STRING), "cv_repr": Nullable(STRING)}

    def __post_init__(self):
        y = array_field("y", self.y, "float", (None,))
        time = array_field("time", self.time, "int", (None,))
        n_forecasts = time.size
        fold = array_field("fold", self.fold, "int", (n_forecasts,))
        y_pred = array_field("y_pred", self.y_pred, "float", (n_forecasts,))
        origin = array_field("origin", self.origin, "int", (None,))
        train_size = array_field("train_size", self.train_size, "int", (origin.size,))
        check_indices("time", time, y.size)
        check_indices("origin", origin, y.size)
        _check_splits(fold, origin.size)
        _check_origins(origin, fold, time, train_size)
        _check_unique_forecasts(fold, time, origin)
        for name, values in (("y", y), ("y_pred", y_pred)):
            if not np.isfinite(values).all():
                raise ValueError(f"{name} holds NaN or infinity at position {int(np.argmin(np.isfinite(values)))}; "
                                 "a forward record needs finite values (drop or fill the missing ones first).")
        if train_size.min() < 1:
            raise ValueError(f"train_size must be at least 1 row for every split; got {train_size.tolist()}.")
        loss_name = self.loss_name
        if loss_name not in FORECAST_LOSSES:
            raise ValueError(f"loss_name must be one of {list(FORECAST_LOSSES)} for forecasts of a numeric series; "
                             f"got loss_name={loss_name!r}.")
        for name, value in (("y", y), ("time", time), ("fold", fold), ("y_pred", y_pred), ("origin", origin),
                            ("train_size", train_size)):
            object.__setattr__(self, name, value)
        for name in ("estimator_repr", "name", "cv_repr"):
            object.__setattr__(self, name, Nullable(Text("Ridge()")).check(name, getattr(self, name)))
        if self.name is None:
            object.__setattr__(self, "name", self.estimator_repr)

    @classmethod
    @validate_params(loss=Options(*FORECAST_LOSSES), name=Nullable(Text("ridge")))
    def from_forecasts(cls, y, y_pred, *, time, origin, train_size, loss="squared_error", name=None):
        """A forward record from forecasts made elsewhere (any framework, any loop), checked as the evaluator's.

        Parameters
        ----------
        y : array-like of float, shape (n_samples,)
            The whole series, in time order (oldest first).
        y_pred : array-like of float, shape (n_forecasts,)
            The forecasts.
        time : array-like of int, shape (n_forecasts,)
            The row of ``y`` each forecast is of.
        origin : array-like of int, shape (n_forecasts,)
            The last row of ``y`` the forecast's model was fitted to (its
            origin); forecasts of one origin came from one model.
        train_size : int, "expanding" or array-like of int
            The rows each model was fitted to: an int for a sliding window of
            that many rows, "expanding" for every row up to its origin, or one
            value per forecast (equal for the forecasts of one origin).
        loss : {"squared_error", "absolute_error"}, default="squared_error"
            The per-forecast loss.
        name : str or None, default=None
            The learner's name in reports.

        Returns
        -------
        ForwardResult
            One split per distinct origin, in time order.

        Examples
        --------
        >>> from cvinference.records import ForwardResult
        >>> result = ForwardResult.from_forecasts([1.0, 2.0, 3.0, 5.0, 4.0], [2.5, 4.0, 4.5], time=[2, 3, 4],
        ...                                       origin=[1, 1, 3], train_size=2)
        >>> result.origin.tolist(), result.fold.tolist(), result.horizon.tolist(), result.window
        ([1, 3], [0, 0, 1], [1, 2, 1], 'sliding')
        """
        origin = np.asarray(origin)
        if origin.ndim != 1 or origin.dtype.kind not in "iu":
            raise ValueError(f"origin must be a 1-d array of row numbers, one per forecast; got dtype {origin.dtype} "
                             f"and shape {origin.shape}.")
        origins, fold = np.unique(origin, return_inverse=True)
        if isinstance(train_size, str):
            if train_size != "expanding":
                raise ValueError(f"train_size must be an int, 'expanding' or one value per forecast; got "
                                 f"train_size={train_size!r}.")
            sizes = origins + 1
        elif np.ndim(train_size) == 0:
            sizes = np.full(origins.size, Integer(minimum=1).check("train_size", train_size))
        else:
            per_forecast = np.asarray(train_size)
            if per_forecast.shape != origin.shape:
                raise ValueError(f"train_size must hold one value per forecast ({origin.size}); got shape "
                                 f"{per_forecast.shape}.")
            sizes = np.zeros(origins.size, dtype=np.int64)
            sizes[fold] = per_forecast
            if not np.array_equal(sizes[fold], per_forecast):
                raise ValueError("train_size must be equal for the forecasts of one origin (they came from one model).")
        return cls(y=y, time=time, fold=fold, y_pred=y_pred, origin=origins, train_size=sizes, loss_name=loss,
                   name=name)

    @computed_once
    def y_true(self):
        return readonly_array(self.y[self.time])

    @computed_once
    def horizon(self):
        return readonly_array(self.time - self.origin[self.fold])

    @computed_once
    def loss(self):
        return readonly_array(LOSSES[self.loss_name](self.y_true, self.y_pred))

    @property
    def n_samples(self):
        return self.y.size

    @property
    def n_splits(self):
        return self.origin.size

    @property
    def n_forecasts(self):
        return self.time.size

    @property
    def horizons(self):
        """The distinct horizons, ascending."""
        return np.unique(self.horizon)

    @property
    def mean_loss(self):
        return float(self.loss.mean())

    @property
    def window(self):
        if (self.train_size == self.origin + 1).all():
            return "expanding"
        if np.unique(self.train_size).size == 1:
            return "sliding"
        return "other"

    @validate_params(season=Nullable(Integer(minimum=1)), last_known=Nullable(Integer(minimum=1)))
    def baseline(self, season=None, *, last_known=None):
        """The naive forecasts of the same rows from the same origins, as a record to compare with this one.

        Parameters
        ----------
        season : int or None, default=None
            None: the naive forecast, the last value known. An int m: the
            seasonal naive forecast, the value one or more whole seasons back
            from the row, the latest known (Hyndman & Koehler 2006, the MASE's
            benchmark).
        last_known : int or None, default=None
            How many rows before each forecast's row the last known value
            is. None: the forecast's horizon, so the value at its model's
            origin; 1 when the features hold the previous value (lagged
            values of the series), so that the naive forecast knows what the
            model knew.

        Returns
        -------
        ForwardResult
            Named "naive" or "seasonal naive (season m)".

        Notes
        -----
        For a forecast of row t whose last known row is t - k, the naive
        forecast is y[t - k] and the seasonal naive one y[t - m ceil(k / m)]
        (Hyndman & Koehler 2006, section 3; Hyndman & Athanasopoulos,
        *Forecasting: principles and practice*, section 5.2).

        Examples
        --------
        >>> from cvinference.records import ForwardResult
        >>> result = ForwardResult(y=[1.0, 2.0, 3.0, 5.0, 4.0, 6.0], time=[3, 4, 4, 5], fold=[0, 0, 1, 1],
        ...                        y_pred=[3.0, 3.5, 5.5, 5.0], origin=[2, 3], train_size=[3, 4])
        >>> result.baseline().y_pred.tolist(), result.baseline(season=2).y_pred.tolist()
        ([3.0, 3.0, 5.0, 5.0], [2.0, 3.0, 3.0, 5.0])
        """
        known = self.horizon if last_known is None else np.full(self.n_forecasts, last_known)
        back = known if season is None else season * -(-known // season)
        source = self.time - back
        if source.min() < 0:
            i = int(np.argmin(source))
            raise ValueError(f"the {'seasonal ' if season else ''}naive forecast of row {self.time[i]} needs row "
                             f"{source[i]}, before the series starts; pass a smaller season or last_known.")
        name = "naive" if season is None else f"seasonal naive (season {season})"
        return dataclasses.replace(self, y_pred=self.y[source], estimator_repr=name, name=name)

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Draw the series with the forecasts and the origins, and the forecast losses over time (needs matplotlib).

        %(display)s

        Parameters
        ----------
        ax : matplotlib Axes, sequence of 2 Axes or None, default=None
            None draws both panels on a new figure; one Axes draws the
            losses there; two draw the series and the losses.
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s

        Examples
        --------
        >>> import matplotlib.pyplot as plt
        >>> from cvinference.records import ForwardResult
        >>> result = ForwardResult(y=[1.0, 2.0, 3.0, 5.0, 4.0, 6.0], time=[3, 4, 4, 5], fold=[0, 0, 1, 1],
        ...                        y_pred=[3.0, 3.5, 5.5, 5.0], origin=[2, 3], train_size=[3, 4])
        >>> drawn = result.plot()
        >>> [axis.get_title() for axis in drawn.axes_][0]
        'the series and the forecasts'
        >>> plt.close(drawn.figure_)
        """
        return upward("report", "plot_forecasts")(self, ax, path=path)

    def _repr_fields(self):
        return {"n_samples": self.n_samples, "n_splits": self.n_splits, "n_forecasts": self.n_forecasts,
                "horizons": self.horizons.tolist(), "loss_name": repr(self.loss_name)}

    def to_frame(self):
        """A pandas DataFrame with one row per forecast (needs pandas).

        Columns: ``split``, ``origin``, ``horizon``, ``time`` (the row
        forecast), ``y_true``, ``y_pred`` and ``loss``.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> from cvinference.records import ForwardResult
        >>> result = ForwardResult(y=[1.0, 2.0, 3.0, 5.0], time=[2, 3], fold=[0, 1], y_pred=[2.0, 3.0],
        ...                        origin=[1, 2], train_size=[2, 3])
        >>> result.to_frame()[["split", "origin", "horizon", "loss"]].values.tolist()
        [[0.0, 1.0, 1.0, 1.0], [1.0, 2.0, 1.0, 4.0]]
        """
        return import_pandas().DataFrame({
            "split": self.fold, "origin": self.origin[self.fold], "horizon": self.horizon, "time": self.time,
            "y_true": self.y_true, "y_pred": self.y_pred, "loss": self.loss})

    def summary(self):
        """The report of this record as text, as ``cvinference evaluate`` prints it for a forward splitter.

        The summary of ``cvinference.evaluate(result, random_state=0)``, the
        answer of this record (no fit; its block bootstrap seeded, so that a
        record has one summary): the forecasts by horizon beside the naive
        forecast's, every interval of the mean loss (the pre-whitened HAC one
        first), the test of beating the naive forecast and a verdict.

        Returns
        -------
        str

        Examples
        --------
        >>> import numpy as np
        >>> from cvinference.records import ForwardResult
        >>> y = np.sin(np.arange(40) / 3)
        >>> origin = np.arange(19, 37)
        >>> result = ForwardResult(y=y, time=origin + 1, fold=np.arange(18), y_pred=0.9 * y[origin + 1],
        ...                        origin=origin, train_size=origin + 1)
        >>> for line in result.summary().splitlines()[:6]:
        ...     print(line)
        40 instances; forward validation, 18 origins, expanding window of 20 to 37 rows, horizon 1; 95%
          confidence
        <BLANKLINE>
        per horizon
        horizon  forecasts  squared_error          interval   naive
              1         18         0.0052  [0.0026, 0.0106]  0.0525
        """
        return upward("workflows", "evaluate")(self, random_state=SUMMARY_SEED).summary()


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class PairedForwardResult(Record):
    """Two learners' forward validation on the same series, origins and windows: forecast i of A and of B are of
    the same row, from models fitted to the same rows.

    Parameters
    ----------
    a, b : ForwardResult
        The records of A and B; their series, forecast rows, splits, origins,
        training sizes and loss must agree.

    Examples
    --------
    >>> from cvinference.records import ForwardResult, PairedForwardResult
    >>> common = dict(y=[1.0, 2.0, 3.0, 5.0], time=[2, 3], fold=[0, 1], origin=[1, 2], train_size=[2, 3])
    >>> pair = PairedForwardResult(ForwardResult(y_pred=[2.0, 3.0], **common),
    ...                            ForwardResult(y_pred=[3.0, 5.0], **common))
    >>> pair
    PairedForwardResult(n_samples=4, n_forecasts=2, a=None, b=None)
    >>> pair.loss_difference.tolist()
    [1.0, 4.0]
    """

    a: ForwardResult
    b: ForwardResult

    _kinds = {"a": Instance(ForwardResult), "b": Instance(ForwardResult)}

    def __post_init__(self):
        for name in ("a", "b"):
            value = getattr(self, name)
            if not isinstance(value, ForwardResult):
                raise TypeError(f"{name} must be a ForwardResult; got {type(value).__name__}.")
        for field in ("y", "time", "fold", "origin", "train_size"):
            if not np.array_equal(getattr(self.a, field), getattr(self.b, field)):
                raise ValueError(f"a and b differ in {field}: a pair compares two learners' forecasts of the same "
                                 "rows of the same series from the same origins and windows; evaluate both with "
                                 "CVEvaluator(cv=...).compare(estimator_a, estimator_b, X, y).")
        if self.a.loss_name != self.b.loss_name:
            raise ValueError(f"a and b record different losses ({self.a.loss_name!r}, {self.b.loss_name!r}); pass "
                             "the same loss for both.")

    @property
    def loss_difference(self):
        """Each forecast's loss of A minus that of B (negative where A forecast better)."""
        return self.a.loss - self.b.loss

    @property
    def n_samples(self):
        return self.a.n_samples

    def _repr_fields(self):
        return {"n_samples": self.n_samples, "n_forecasts": self.a.n_forecasts, "a": repr(self.a.name),
                "b": repr(self.b.name)}

    def to_frame(self):
        """A pandas DataFrame with one row per forecast: A's table, then ``y_pred_b``, ``loss_b`` and
        ``loss_difference`` (A minus B), A's prediction and loss as ``y_pred_a`` and ``loss_a`` (needs pandas).

        Returns
        -------
        pandas.DataFrame
        """
        frame = self.a.to_frame().rename(columns={"y_pred": "y_pred_a", "loss": "loss_a"})
        frame["y_pred_b"], frame["loss_b"], frame["loss_difference"] = self.b.y_pred, self.b.loss, self.loss_difference
        return frame

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Draw the series with both learners' forecasts, and the difference of their losses over time (needs
        matplotlib).

        %(display)s

        Parameters
        ----------
        ax : matplotlib Axes, sequence of 2 Axes or None, default=None
            As in :meth:`ForwardResult.plot`.
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s
        """
        return upward("report", "plot_forecasts")(self, ax, path=path)

    def summary(self):
        """The report of this pair as text, as ``cvinference compare`` prints it for a forward splitter.

        The summary of ``cvinference.compare(pair, random_state=0)``, the
        answer of this pair (no fit; its block bootstrap seeded): each learner beside the naive forecast, the tests of
        their difference over every forecast and per horizon, and the
        decision.

        Returns
        -------
        str
        """
        return upward("workflows", "compare")(self, random_state=SUMMARY_SEED).summary()
