"""
An accuracy interval that says what it estimates
================================================

The pieces under :func:`~cvinference.evaluate`, for a user who wants one
interval and no report: how accurate is naive Bayes on the breast-cancer data,
and how sure are we? :func:`~cvinference.cross_val_correctness` records every
instance's fold and correctness on equal-size stratified folds;
:func:`~cvinference.accuracy_interval` chooses the interval that the
calibration benchmark found covering its target (``method="auto"``), and says
what that target is: the accuracy of the models fitted in the folds, given
this dataset (Wong 2015; Bayle et al. 2020).
"""

from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi

X, y = load_breast_cancer(return_X_y=True)
result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=10, random_state=0)
interval = cvi.accuracy_interval(result)
print(interval.summary())

# %%
# Every fold's accuracy, with the recommended interval as a band, and every
# interval the record supports: Wong's dataset-level normal and fold-level t,
# Wilson, and the exact Clopper-Pearson interval, which ``"auto"`` takes when
# Wong's large-sample conditions (r_j >= 5 and m_j - r_j >= 5 in every fold)
# fail, as they do here.
drawn = result.plot()
