"""Do the stratified folds change when the class labels are renamed? cvinference against sklearn.

56 trials: 2-5 classes, shuffle off and on, 7 seeds; n = 60 random labels, 5 folds; the classes
are permuted and renamed (new label = 10 * permuted code + 7). Prints how many trials give
identical folds after renaming, for StratifiedEqualSizeKFold and sklearn's StratifiedKFold.

    python benchmarks/stratified_relabelling.py
"""

import itertools
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold

from cvinference import StratifiedEqualSizeKFold

warnings.simplefilter("ignore")
rng = np.random.default_rng(0)
same = {"cvinference": 0, "sklearn": 0}
trials = 0
for n_classes, shuffle, seed in itertools.product([2, 3, 4, 5], [False, True], range(7)):
    y = rng.integers(0, n_classes, size=60)
    renamed = rng.permutation(n_classes)[y] * 10 + 7
    X = np.zeros((60, 1))
    trials += 1
    for name, cls in [("cvinference", StratifiedEqualSizeKFold), ("sklearn", StratifiedKFold)]:
        cv = cls(5, shuffle=shuffle, random_state=seed if shuffle else None)
        a = [t.tolist() for _, t in cv.split(X, y)]
        b = [t.tolist() for _, t in cv.split(X, renamed)]
        same[name] += a == b
print(f"{trials} trials; identical folds after renaming: {same}")
