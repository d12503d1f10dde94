"""
Two models compared, and one decision
=====================================

Is a scaled logistic regression more accurate than a decision tree? Both are
cross-validated on identical folds (5 partitions into 5 folds). The decision
rests on the one test that the calibration benchmark found keeping its false
alarms at or below 0.06 for such learners at this size. No test computable
from the folds is, for logistic regression near N = 569; nested
cross-validation's difference interval is, and on the comparison's own folds
it fits only the inner models.
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
pair = cvi.CVEvaluator(cv=5, n_repeats=5, random_state=0).compare(logreg, tree, X, y)
print(cvi.decide(pair).answer)  # from the folds alone

nested = cvi.nested_cv_interval(logreg, X, y, estimator_b=tree, cv_result=pair)
decision = cvi.decide(pair, nested=nested)
print(decision.summary())

# %%
# The folds of both learners, the fold differences, and every test with the
# one the decision rests on in red.
drawn = pair.plot(nested=nested)
