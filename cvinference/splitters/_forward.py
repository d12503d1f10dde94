"""Forward (rolling-origin) validation: every model is trained on the past and forecasts the rows after it.

Tashman (2000) names the scheme rolling-origin evaluation: origins move forward through the series, a model is
fitted to the rows up to each origin (all of them, an expanding window, or the last few, a sliding one) and
forecasts the rows that follow. scikit-learn's :class:`~sklearn.model_selection.TimeSeriesSplit` is its expanding
form with test blocks that tile the end of the series; :class:`ForwardSplit` adds the step between origins and a
sliding window of fixed size, which Giacomini & White's (2006) test of a forecasting method assumes.
"""

import numpy as np
from sklearn import model_selection

from .._utils._params import Integer, Nullable, validate_params
from .._utils._validation import num_samples
from ._kfold import _SplitCount

__all__ = ["ForwardSplit"]


class ForwardSplit(model_selection.TimeSeriesSplit):
    """Forward validation: models fitted to the past, each forecasting the next ``horizon`` rows.

    The rows are taken in time order (the first row the oldest). Origin j
    is the last training row of split j; its model forecasts the
    ``horizon`` rows that start ``gap + 1`` rows after it. The last split's
    forecasts end at the last row, and the origins lie ``step`` rows apart.
    With the defaults (``step = horizon``, ``window=None``) the splits are
    those of scikit-learn's :class:`~sklearn.model_selection.TimeSeriesSplit`
    with ``test_size=horizon`` and the same ``gap``.

    Parameters
    ----------
    n_splits : int, default=5
        Number of origins (fitted models); at least 2.
    horizon : int or None, default=None
        Rows each model forecasts, h = gap + 1, ..., gap + horizon steps
        after its origin. None: ``n_samples // (n_splits + 1)``, as
        ``TimeSeriesSplit``'s ``test_size``.
    gap : int, default=0
        Rows left out between each training window and its forecasts, as in
        ``TimeSeriesSplit`` (for features that look ahead, or a forecast
        made ``gap`` steps before its first target is known).
    step : int or None, default=None
        Rows between successive origins. None: ``horizon``, so that every
        row after the first training window is forecast once. A step smaller
        than the horizon forecasts a row from several origins, at several
        horizons; a larger one leaves rows between the blocks unforecast.
    window : int or None, default=None
        None: an expanding window, each model fitted to every row up to its
        origin. An int: a sliding window, each model fitted to exactly the
        last ``window`` rows up to its origin (the first split must have
        that many).

    See Also
    --------
    sklearn.model_selection.TimeSeriesSplit : The expanding window with
        ``step = horizon``; its ``max_train_size`` caps the window instead
        of fixing it.

    Notes
    -----
    Split j (j = 0, ..., n_splits - 1) forecasts the rows
    [s_j, s_j + horizon) with s_j = n - horizon - (n_splits - 1 - j) step,
    from a model fitted to the rows [s_j - gap - window, s_j - gap) (from
    row 0 for the expanding window). Its origin is s_j - gap - 1 and the
    forecast of row t is t - origin steps ahead. Tashman (2000), "Out-of-
    sample tests of forecasting accuracy", section 2.2, calls these fixed
    and rolling origins; Giacomini & White (2006), section 2, require the
    window of fixed size ("rolling window") for their test of a method.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference.splitters import ForwardSplit
    >>> X = np.arange(10).reshape(-1, 1)
    >>> for train, test in ForwardSplit(n_splits=3, horizon=2, window=4).split(X):
    ...     print(train, test)
    [0 1 2 3] [4 5]
    [2 3 4 5] [6 7]
    [4 5 6 7] [8 9]
    >>> for train, test in ForwardSplit(n_splits=3, horizon=3, step=1, gap=1).split(X):
    ...     print(train, test)
    [0 1 2 3] [5 6 7]
    [0 1 2 3 4] [6 7 8]
    [0 1 2 3 4 5] [7 8 9]
    """

    @validate_params(n_splits=_SplitCount(), horizon=Nullable(Integer(minimum=1)), gap=Integer(minimum=0),
                     step=Nullable(Integer(minimum=1)), window=Nullable(Integer(minimum=1)))
    def __init__(self, n_splits=5, *, horizon=None, gap=0, step=None, window=None):
        super().__init__(n_splits, gap=gap)
        self.horizon = horizon
        self.step = step
        self.window = window

    def _sizes(self, n_samples):
        """(horizon, step) for ``n_samples`` rows, refusing a series too short for the splits asked for."""
        horizon = self.horizon if self.horizon is not None else n_samples // (self.n_splits + 1)
        if horizon < 1:
            raise ValueError(f"Cannot have number of splits n_splits={self.n_splits} with n_samples={n_samples}: "
                             f"the default horizon n_samples // (n_splits + 1) is 0; pass fewer splits or a "
                             "horizon.")
        step = self.step if self.step is not None else horizon
        first_test = n_samples - horizon - (self.n_splits - 1) * step
        needed = self.gap + (self.window or 1)
        if first_test < needed:
            what = f"a window of {self.window} rows" if self.window else "at least 1 training row"
            raise ValueError(
                f"Too many splits n_splits={self.n_splits} for n_samples={n_samples} with horizon={horizon}, "
                f"step={step} and gap={self.gap}: the first split's forecasts start at row {first_test}, which "
                f"leaves {max(first_test - self.gap, 0)} rows before the gap for {what}. Pass fewer splits, a "
                "smaller horizon, step or window, or a longer series."
            )
        return horizon, step

    def split(self, X, y=None, groups=None):
        """Generate the training and test indices of every split, oldest origin first.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows, in time order.
        y : array-like of shape (n_samples,), default=None
            Ignored; exists for API compatibility.
        groups : array-like of shape (n_samples,), default=None
            Ignored, with a warning, as ``TimeSeriesSplit`` ignores it.

        Yields
        ------
        train : ndarray
            The training rows of the split.
        test : ndarray
            The rows its model forecasts.
        """
        if groups is not None:
            super().split(X, y, groups)  # warns as TimeSeriesSplit does that groups are ignored, and yields nothing
        n_samples = num_samples(X)
        horizon, step = self._sizes(n_samples)
        indices = np.arange(n_samples)
        for j in range(self.n_splits):
            test_start = n_samples - horizon - (self.n_splits - 1 - j) * step
            train_end = test_start - self.gap
            train_start = 0 if self.window is None else train_end - self.window
            yield indices[train_start:train_end], indices[test_start:test_start + horizon]

    def get_n_splits(self, X=None, y=None, groups=None):
        """The number of splits, ``n_splits``.

        Parameters
        ----------
        X, y, groups : object
            Ignored; there for scikit-learn's splitter interface.
        """
        return self.n_splits
