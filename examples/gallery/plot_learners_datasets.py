"""
Learners across datasets: the critical-difference diagram
=========================================================

Which of several learners is best over several datasets? Demšar (2006) ranks
the learners on each dataset, tests whether their average ranks differ
(Friedman), and finds the critical difference of average ranks (Nemenyi).
:func:`~cvinference.compare_on_datasets` takes the scores, here the 10-fold
accuracies of four learners on eight datasets: four bundled with scikit-learn,
the mushroom population bundled with cvinference, and three generated ones.
Demšar asks for more than ten datasets before trusting the test's
approximations; the summary says what eight can and cannot show.
"""

import numpy as np
from sklearn.datasets import (
    load_breast_cancer,
    load_digits,
    load_iris,
    load_wine,
    make_circles,
    make_classification,
    make_moons,
)
from sklearn.model_selection import cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

datasets = {"breast cancer": load_breast_cancer(return_X_y=True), "iris": load_iris(return_X_y=True),
            "wine": load_wine(return_X_y=True), "digits": load_digits(return_X_y=True),
            "mushroom": cvi.studies.load_population("mushroom", return_X_y=True),
            "synthetic": make_classification(500, 10, random_state=0),
            "moons": make_moons(500, noise=0.3, random_state=0),
            "circles": make_circles(500, noise=0.2, factor=0.5, random_state=0)}
learners = {"naive Bayes": GaussianNB(), "3-NN": KNeighborsClassifier(3), "5-NN": KNeighborsClassifier(5),
            "tree": DecisionTreeClassifier(random_state=0)}
splitter = cvi.StratifiedEqualSizeKFold(n_splits=10, random_state=0)
scores = np.array([[cross_val_score(learner, X, y, cv=splitter).mean() for learner in learners.values()]
                   for X, y in datasets.values()])
comparison = cvi.compare_on_datasets(scores, datasets=list(datasets), learners=list(learners))
print(comparison.summary())

# %%
# The critical-difference diagram: learners joined by a bar are not told
# apart by the Nemenyi test.
drawn = comparison.plot()
