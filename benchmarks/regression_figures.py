"""The held-back figures of a regressor that the calibration's regression cells take as their truths."""

import numpy as np

REGRESSION_METRICS = {"MSE": ("mean_squared_error", 0), "MAE": ("mean_absolute_error", 1), "R2": ("r2", 2)}
"""The regression coverage cells' metrics: regression_interval's name and the column of regression_figures."""


def regression_figures(y_truth, predicted):
    """A model's held-back (MSE, MAE, R2); R2 against the held-back rows' variance."""
    mse = float(np.mean((predicted - y_truth) ** 2))
    return mse, float(np.mean(np.abs(predicted - y_truth))), 1 - mse / float(np.var(y_truth))
