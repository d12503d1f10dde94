"""
Is A better than B? Two models compared in one call
===================================================

Is a scaled logistic regression more accurate than a decision tree on the
breast-cancer data? :func:`~cvinference.compare` cross-validates both on
identical folds (here 5 partitions into 5 folds), runs every test of the
difference and Dietterich's 5x2cv, and decides: the decision rests on the
one test that the calibration benchmark found keeping its false alarms
within the limit for such learners at this size. When no test computable
from the folds does, it runs the calibrated route itself (nested
cross-validation's difference interval, reusing these folds as its outer
ones; Bates, Hastie & Tibshirani 2023) and rests on that.
"""

from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

X, y = load_breast_cancer(return_X_y=True)
logreg = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
tree = DecisionTreeClassifier(random_state=0)
comparison = cvi.compare(logreg, tree, X, y, cv=5, n_repeats=5, random_state=0,
                         names=("logistic regression", "decision tree"))
print(comparison.decision.summary())

# %%
# The answer holds what the call computed, so nothing is assembled by hand:
# both records on their identical folds (``comparison.pair``), every test of
# the difference by its method (``comparison.tests``), the route's result
# (``comparison.nested``) and the decision with the test it rests on.
pair = comparison.pair
print(f"accuracy: A {pair.a.accuracy:.4f}, B {pair.b.accuracy:.4f}; {comparison.fits} fits")
for method, test in comparison.tests.items():
    print(f"{method}: A - B = {test.estimate:+.4f}, p = {test.pvalue:.3g}")
print(f"the decision rests on: {comparison.decision.rests_on.name}")

# %%
# The folds of both learners, the fold differences, and every test with the
# one the decision rests on in red.
drawn = comparison.plot()
