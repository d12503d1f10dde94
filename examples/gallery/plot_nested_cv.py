"""
Nested cross-validation: the error of the model you will deploy
===============================================================

Plain cross-validation's intervals are about the models fitted in the folds.
Nested cross-validation (Bates, Hastie & Tibshirani 2023) gives an interval
for the error of the model fitted to the whole dataset, the one you deploy,
and covered it in every cell of the calibration benchmark. Its defaults,
5 folds in 5 partitions, are the cheapest configuration that did: 75 fits,
7.5 times one 10-fold cross-validation. Given a 5 x 5-fold cross-validation
already run, it reuses those fits as its outer ones.
"""

from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi

X, y = load_breast_cancer(return_X_y=True)
plain = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, n_repeats=5, random_state=1)
nested = cvi.nested_cv_interval(GaussianNB(), X, y, cv_result=plain)
print(nested.summary())
print(f"{nested.details['n_fits']} models, {nested.details['n_fits'] - 25} of them fitted for nested CV")

# %%
# Left, the plain record's accuracy intervals, about the models fitted in the
# folds (target kfold). Each is grey: each warns that it pools 5 repeats that
# reuse the same instances, and so are not independent (see
# ``plain.summary()``). Right, the nested interval, about the deployed model
# (target conditional), of the error, 1 - accuracy.
# Each ``plot`` draws on the Axes it is given, as scikit-learn's Display
# objects do.
import matplotlib.pyplot as plt  # noqa: E402

figure, (left, right) = plt.subplots(1, 2, figsize=(12, 3.5), layout="constrained", width_ratios=(3, 2))
plain.plot(ax=left)
nested.plot(ax=right)
