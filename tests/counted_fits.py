"""Learners that count their fits in this process, to show that a bad input is refused before any fit."""

from sklearn.linear_model import LinearRegression
from sklearn.naive_bayes import GaussianNB


class CountedNB(GaussianNB):
    """GaussianNB that counts its fits."""

    fits = 0

    def fit(self, X, y, sample_weight=None):
        type(self).fits += 1
        return super().fit(X, y, sample_weight=sample_weight)


class CountedLinear(LinearRegression):
    """LinearRegression that counts its fits."""

    fits = 0

    def fit(self, X, y, sample_weight=None):
        type(self).fits += 1
        return super().fit(X, y, sample_weight=sample_weight)
