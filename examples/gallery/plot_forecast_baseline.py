"""
A forecast against the seasonal naive forecast
==============================================

A monthly series with a trend, a yearly season and autocorrelated noise. A
ridge regression forecasts each month from the previous month and the same
month one and two years before; forward validation refits it on the last ten
years at each of 60 origins and forecasts the next month. Is it better than
the seasonal naive forecast, last year's value for the same month, which
needs no model at all? The forecasts' errors are serially dependent, so the
interval and the test allow for it (:doc:`/forward-validation`).
"""

import numpy as np
from sklearn.linear_model import Ridge

from cvinference import CVEvaluator
from cvinference.inference import forecast_interval, forecast_test
from cvinference.splitters import ForwardSplit

rng = np.random.default_rng(0)
months = np.arange(240)
noise = np.zeros(months.size)
for t in range(1, months.size):
    noise[t] = 0.6 * noise[t - 1] + rng.normal(0, 0.5)
y = 10 + 0.02 * months + 2 * np.sin(2 * np.pi * months / 12) + noise
lags = (1, 12, 24)
X = np.column_stack([np.r_[np.full(k, y[0]), y[:-k]] for k in lags])  # y one month, a year and two years back
X, y = X[24:], y[24:]  # the first two years have no full history

evaluator = CVEvaluator(cv=ForwardSplit(60, horizon=1, step=1, window=120), loss="absolute_error")
record = evaluator.evaluate(Ridge(), X, y, name="ridge on lags")
seasonal = record.baseline(season=12, last_known=1)  # the features know last month: so does the baseline
for forecasts in (record, seasonal):
    interval = forecast_interval(forecasts)
    print(f"{forecasts.name:30s} mean absolute error {interval.estimate:.3f} "
          f"[{interval.low:.3f}, {interval.high:.3f}]")

# %%
# Diebold & Mariano's test of equal expected absolute error, with Harvey,
# Leybourne & Newbold's correction for the 60 one-step forecasts: positive
# when the ridge regression forecasts better.
test = forecast_test(record, seasonal, horizon=1)
print(f"{test.method}: seasonal naive - ridge = {test.estimate:+.3f} "
      f"{tuple(round(bound, 3) for bound in test.confidence_interval())}, p = {test.pvalue:.2g}")

# %%
# The series with the forecasts and the origins, and the losses over time.
record.plot()
