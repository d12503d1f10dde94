"""Estimators in words and by type: short descriptions, the final learner, short parameter names."""

import pytest
from sklearn.calibration import CalibratedClassifierCV
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import VotingClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, RandomizedSearchCV
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import FeatureUnion, Pipeline, make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from cvinference._utils._describe import (
    estimator_description,
    estimator_type,
    final_estimator,
    learner_labels,
    short_param_names,
)

TREE = "sklearn.tree._classes.DecisionTreeClassifier"
LOGISTIC = "sklearn.linear_model._logistic.LogisticRegression"


def _scaled(model, step="classifier"):
    return Pipeline([("scale", StandardScaler()), (step, model)])


# The expected names are the classes' own: f"{cls.__module__}.{cls.__qualname__}".
@pytest.mark.parametrize("estimator, expected", [
    (DecisionTreeClassifier(), TREE),
    (_scaled(LogisticRegression()), LOGISTIC),
    (make_pipeline(StandardScaler(), DecisionTreeClassifier()), TREE),
    (Pipeline([("outer", StandardScaler()), ("model", _scaled(DecisionTreeClassifier()))]), TREE),
    (GridSearchCV(_scaled(LogisticRegression()), {"classifier__C": [0.1, 1.0]}), LOGISTIC),
    (RandomizedSearchCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}), TREE),
    (GridSearchCV(Pipeline([("s", StandardScaler()), ("m", _scaled(GaussianNB()))]),
                  {"m__classifier__var_smoothing": [1e-9]}),
     "sklearn.naive_bayes.GaussianNB"),
    (CalibratedClassifierCV(_scaled(SVC())), "sklearn.calibration.CalibratedClassifierCV"),
], ids=["plain", "pipeline", "make_pipeline", "nested pipeline", "grid search over a pipeline", "randomized search",
        "search over a nested pipeline", "other meta-estimator"])
def test_estimator_type_names_the_final_estimators_class(estimator, expected):
    assert estimator_type(estimator) == expected
    final = final_estimator(estimator)[0]
    assert f"{type(final).__module__}.{type(final).__qualname__}" == expected


def test_estimator_type_reads_the_class_not_the_text():
    class DecisionTreeLookalike(LogisticRegression):
        pass

    assert estimator_type(DecisionTreeLookalike()).endswith(
        "test_estimator_type_reads_the_class_not_the_text.<locals>.DecisionTreeLookalike")


@pytest.mark.parametrize("estimator, expected", [
    (DecisionTreeClassifier(), ""),
    (_scaled(LogisticRegression()), "classifier__"),
    (Pipeline([("outer", StandardScaler()), ("model", _scaled(LogisticRegression(), step="clf"))]), "model__clf__"),
    (GridSearchCV(_scaled(LogisticRegression()), {"classifier__C": [1.0]}), ""),
])
def test_final_estimator_prefix(estimator, expected):
    assert final_estimator(estimator)[1] == expected


@pytest.mark.parametrize("estimator, expected", [
    (LogisticRegression(C=0.5, max_iter=1000), "LogisticRegression(C=0.5, max_iter=1000)"),
    (GaussianNB(), "GaussianNB()"),
    (make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
     "StandardScaler + LogisticRegression(max_iter=1000)"),
    (Pipeline([("impute", SimpleImputer(strategy="median")), ("skip", "passthrough"),
               ("knn", KNeighborsClassifier(3))]),
     "SimpleImputer(strategy='median') + KNeighborsClassifier(n_neighbors=3)"),
    (Pipeline([("outer", StandardScaler()), ("model", make_pipeline(SimpleImputer(), GaussianNB()))]),
     "StandardScaler + SimpleImputer + GaussianNB()"),
    (Pipeline([("prep", ColumnTransformer([("cat", OneHotEncoder(), [0]), ("num", "passthrough", [1])])),
               ("classifier", DecisionTreeClassifier(max_depth=3))]),
     "ColumnTransformer(cat: OneHotEncoder; num: passthrough) + DecisionTreeClassifier(max_depth=3)"),
    (make_pipeline(FeatureUnion([("s", StandardScaler()), ("i", SimpleImputer())]), GaussianNB()),
     "FeatureUnion(s: StandardScaler; i: SimpleImputer) + GaussianNB()"),
    (GridSearchCV(_scaled(DecisionTreeClassifier()), {"classifier__max_depth": [1, 2], "scale__with_mean": [True]}),
     "GridSearchCV(StandardScaler + DecisionTreeClassifier(), tuning max_depth, scale__with_mean)"),
    (RandomizedSearchCV(_scaled(LogisticRegression()), [{"classifier__C": [1.0]}, {"classifier__tol": [0.1]}]),
     "RandomizedSearchCV(StandardScaler + LogisticRegression(), tuning C, tol)"),
    (CalibratedClassifierCV(_scaled(SVC()), method="isotonic"),
     "CalibratedClassifierCV(estimator=StandardScaler + SVC(), method='isotonic')"),
    (VotingClassifier([("lr", _scaled(LogisticRegression())), ("tree", DecisionTreeClassifier())]),
     "VotingClassifier(estimators=[lr: StandardScaler + LogisticRegression(), tree: DecisionTreeClassifier()])"),
])
def test_estimator_description_is_short(estimator, expected):
    text = estimator_description(estimator)
    assert text == expected
    assert "Pipeline(" not in text and "__" not in text.replace("scale__with_mean", "")


def test_a_plain_estimator_is_described_by_its_own_repr_on_one_line():
    estimator = LogisticRegression(C=0.5, class_weight={0: 1.0, 1: 2.0}, max_iter=1000, solver="liblinear",
                                   tol=0.01, random_state=0)
    assert estimator_description(estimator) == " ".join(repr(estimator).split())


def test_short_param_names_drop_the_final_steps_prefix_only_where_unambiguous():
    pipeline = _scaled(DecisionTreeClassifier())
    names = ["classifier__max_depth", "scale__with_mean", "classifier__verbose", "verbose"]
    assert short_param_names(pipeline, names) == {
        "classifier__max_depth": "max_depth", "scale__with_mean": "scale__with_mean",
        "classifier__verbose": "classifier__verbose", "verbose": "verbose"}
    assert short_param_names(DecisionTreeClassifier(), ["max_depth"]) == {"max_depth": "max_depth"}


def test_learner_labels():
    model = _scaled(LogisticRegression(max_iter=1000))
    assert learner_labels(model) == {"estimator_repr": "StandardScaler + LogisticRegression(max_iter=1000)",
                                     "name": "StandardScaler + LogisticRegression(max_iter=1000)",
                                     "estimator_type": LOGISTIC}
    assert learner_labels(model, "logistic")["name"] == "logistic"
