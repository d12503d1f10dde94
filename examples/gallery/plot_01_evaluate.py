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
# every interval by what it is about and its method (the method's one name,
# docs/methods.md); ``evaluation.recommended`` names the one to quote.
record = evaluation.result
print(f"{record.n_samples} instances, {record.n_splits} folds, accuracy {record.accuracy:.4f}")
quantity, recommended = evaluation.recommended
print(f"recommended: the {recommended} interval of the {quantity}")
for method, interval in evaluation.intervals[quantity].items():
    print(f"{method}: [{interval.low:.4f}, {interval.high:.4f}]")

# %%
# Every fold's accuracy, with the recommended interval as a band, and every
# interval beside it.
drawn = evaluation.plot()
