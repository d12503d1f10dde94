"""
Dependent data: instances that come in groups
=============================================

When instances come in groups (patients, sessions, sites), instances of one
group are alike, and an interval that counts every instance as independent is
too narrow. Folds keep whole groups (:class:`~cvinference.StratifiedEqualSizeGroupKFold`),
and ``method="auto"`` takes the cluster-robust interval, or its half-sample
form where the calibration found the cluster-robust one short, with the groups
as the independent units (Cameron & Miller 2015).
"""

import numpy as np
from sklearn.linear_model import LogisticRegression

import cvinference as cvi

rng = np.random.default_rng(0)
n_groups, per_group = 40, 10
groups = np.repeat(np.arange(n_groups), per_group)
shared = rng.normal(size=(n_groups, 5))[groups]  # what the instances of one group have in common
X = shared + rng.normal(size=(groups.size, 5))
y = (X[:, 0] + shared[:, 1] + rng.normal(size=groups.size) > 0).astype(int)

result = cvi.cross_val_correctness(LogisticRegression(), X, y, groups=groups,
                                   cv=cvi.StratifiedEqualSizeGroupKFold(n_splits=5, shuffle=True, random_state=0))
naive = cvi.accuracy_interval(result, method="wilson")
grouped = cvi.accuracy_interval(result)
print(f"counting instances:  [{naive.low:.3f}, {naive.high:.3f}] ({naive.method})")
print(f"counting groups:     [{grouped.low:.3f}, {grouped.high:.3f}] ({grouped.method})")

# %%
# The record's folds of whole groups, and its intervals.
drawn = result.plot()
