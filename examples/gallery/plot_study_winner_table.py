"""
How often does cross-validation pick the better learner?
========================================================

Vanwinckelen & Blockeel (2012, section 5.2) treat a large dataset as the
population, draw many small samples from it, and count how often 10-fold
cross-validation on a sample names the learner whose model is really better
on the rest of the population. :func:`~cvinference.winner_table` runs that
study (naive Bayes against 10-NN, as in their Table 1; here 20 samples of 200 from the synthetic population, to keep the
page quick; the paper's tables use 100 samples).
"""

from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier

import cvinference as cvi

X, y = cvi.studies.load_population("synthetic", return_X_y=True)
study = cvi.winner_table(GaussianNB(), KNeighborsClassifier(10), X, y, sample_size=200,
                         n_draws=20, random_state=0)
print(study.summary())

# %%
# Each sample is a point: the difference of the two learners' CV errors
# against the difference of their conditional errors. Where the two agree in
# sign (upper right, lower left), cross-validation named the winner; the
# summary's table counts the quadrants.
drawn = study.plot()
