"""
How good is this classifier, and how sure are we?
=================================================

One call answers it: :func:`~cvinference.evaluate` cross-validates naive
Bayes on the breast-cancer data (equal-size stratified 10-fold), gives every
interval of its accuracy with the one to quote first (``method="auto"``,
chosen from the calibration benchmark's evidence), checks Wong's
large-sample conditions fold by fold, and sets the accuracy beside the
no-information rate. Its ``summary()`` is what ``cvinference evaluate``
prints. The intervals estimate the accuracy of the models fitted in the
folds, given this dataset (Wong 2015; Bayle et al. 2020).
"""

from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi

X, y = load_breast_cancer(return_X_y=True)
evaluation = cvi.evaluate(GaussianNB(), X, y, random_state=0)
print(evaluation.summary())

# %%
# The answer keeps what it computed: the record of every instance's fold and
# correctness (``evaluation.result``, a :class:`~cvinference.CVResult`) and
# every interval by its row's name, the recommended one first.
record = evaluation.result
print(f"{record.n_samples} instances, {record.n_splits} folds, accuracy {record.accuracy:.4f}")
for name, interval in evaluation.intervals.items():
    print(f"{name}: [{interval.low:.4f}, {interval.high:.4f}] ({interval.method})")

# %%
# Every fold's accuracy, with the recommended interval as a band, and every
# interval beside it.
drawn = evaluation.plot()
