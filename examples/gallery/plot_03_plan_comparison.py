"""
Planning a comparison before its fits
=====================================

Is a random forest better than a logistic regression on the breast-cancer
data by 2 points of accuracy? Before spending the comparison's fits,
:func:`~cvinference.plan` says what it could detect. A pilot, one 10-fold
cross-validation of both learners (20 fits), gives the variance of their
fold differences; the plan carries it to the corrected t the decision would
rest on, at this N and at others, with the range the pilot's own sampling
error leaves (Nadeau & Bengio 2003; Bloom 1995).
"""

from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import cvinference as cvi

X, y = load_breast_cancer(return_X_y=True)
logistic = make_pipeline(StandardScaler(), LogisticRegression())
forest = RandomForestClassifier(random_state=0)
pilot = cvi.CVEvaluator(cv=10, random_state=1).compare(logistic, forest, X, y, names=("logistic", "forest"))
planned = cvi.plan(pilot=pilot, difference=0.02)
print(planned.summary())

# %%
# The minimum detectable difference against N, on the same folds and repeats:
# 569 instances detect about 3 points with power 0.8, and 2 points need
# about twice as many. The calibration measured no number of repeats
# holding for these learners at this size but one, and repeats would not
# close the gap anyway: the corrected t's variance keeps its n_test / n_train
# term however many there are.
planned.plot()

# %%
# The comparison itself, on other folds: its decision's minimum detectable
# difference is what the plan foresaw, within its range.
decision = cvi.compare(logistic, forest, X, y, random_state=0, names=("logistic", "forest")).decision
print(f"{decision.answer}; minimum detectable difference {decision.minimum_detectable_difference:.4f} "
      f"(planned {planned.detectable:.4f}, range {planned.low:.4f} to {planned.high:.4f})")
