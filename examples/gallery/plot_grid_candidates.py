"""
Grid-search candidates against the best
=======================================

A grid search names one best candidate. Which of the others are no worse?
:func:`~cvinference.compare_candidates` reads the search's own folds and tests
every candidate against the best with the corrected resampled t (Nadeau &
Bengio 2003), adjusting the p-values for their number (Holm).
"""

from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

X, y = load_breast_cancer(return_X_y=True)
search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3, 5, None]},
                      cv=cvi.StratifiedEqualSizeKFold(n_splits=10, random_state=0)).fit(X, y)
candidates = cvi.compare_candidates(search)
print(candidates.summary())

# %%
# Each candidate's difference from the best, with its interval; those the
# test cannot tell from the best in blue.
drawn = candidates.plot()
