"""Out-of-fold scores (issue 29, item 1): ``response_method`` keeps what ``cross_val_predict`` computes.

The oracle is scikit-learn's ``cross_val_predict(estimator, X, y, cv=<the record's splits>,
method=<the record's response_method>)``: for two classes its column of ``classes_[1]`` (the
positive class of ``roc_auc_score``), for more every column, in float64 as the record keeps them: equal,
not close (issue 45, item 5: float32 tied probabilities above 1 - 3e-8 and changed the ROC AUC).
"""

import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, make_classification
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.model_selection import LeaveOneOut, StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

BINARY = load_breast_cancer(return_X_y=True)
IRIS = load_iris(return_X_y=True)
LOGREG = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
SVC = make_pipeline(StandardScaler(), LinearSVC())


def _splits(result, repeat):
    fold = result.fold[repeat]
    return [(np.flatnonzero(fold != j), np.flatnonzero(fold == j)) for j in range(result.n_splits)]


def _oracle(estimator, X, y, result, repeat):
    """``cross_val_predict`` on the record's splits of ``repeat``, as the record keeps it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # sklearn's warning for a fold that lacks a class
        scores = cross_val_predict(clone(estimator), X, y, cv=_splits(result, repeat), method=result.response_method)
    if scores.ndim == 2 and scores.shape[1] == 2:
        scores = scores[:, 1]
    return scores


@pytest.mark.parametrize("estimator, data, response_method, expected_method", [
    (LOGREG, BINARY, "auto", "predict_proba"),
    (LOGREG, BINARY, "decision_function", "decision_function"),
    (SVC, BINARY, "auto", "decision_function"),
    (LOGREG, IRIS, "predict_proba", "predict_proba"),
    (LOGREG, IRIS, ["decision_function", "predict_proba"], "decision_function"),
    (DecisionTreeClassifier(random_state=0), IRIS, "auto", "predict_proba"),
])
def test_scores_equal_cross_val_predict_on_the_same_splits_in_every_repeat(estimator, data, response_method,
                                                                          expected_method):
    X, y = data
    result = cvi.cross_val_correctness(estimator, X, y, cv=5, n_repeats=2, random_state=0,
                                       response_method=response_method)
    n_classes = np.unique(y).size
    assert result.response_method == expected_method
    assert result.y_score.dtype == np.float64 and not result.y_score.flags.writeable
    assert result.y_score.shape == ((2, y.size) if n_classes == 2 else (2, y.size, n_classes))
    for repeat in range(2):
        np.testing.assert_array_equal(result.y_score[repeat], _oracle(estimator, X, y, result, repeat))


def test_a_class_missing_from_a_training_fold_gets_probability_zero_as_in_cross_val_predict():
    X, y = IRIS
    rest = np.flatnonzero(y != 2)
    two = np.flatnonzero(y == 2)
    # fold 0 tests every instance of class 2: its model never saw that class
    splits = [(rest, two), (np.concatenate([two, rest[::2]]), rest[1::2]), (np.concatenate([two, rest[1::2]]),
                                                                           rest[::2])]
    result = cvi.cross_val_correctness(LOGREG, X, y, cv=splits, response_method="predict_proba")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        # the splits as given: their training rows in that order (the record's folds would sort them, and the
        # fits' float64 sums would differ in the last place)
        expected = cross_val_predict(LOGREG, X, y, cv=splits, method="predict_proba")
    np.testing.assert_array_equal(result.y_score[0], expected)
    assert (result.y_score[0][two, 2] == 0).all()
    np.testing.assert_allclose(result.y_score[0][two].sum(axis=1), 1, rtol=1e-6)


def test_decision_values_of_a_class_missing_from_a_training_fold_are_the_lowest_float64():
    # cross_val_predict gives them the lowest value of the predictions' dtype (float64), as the record does
    X, y = make_classification(n_samples=120, n_features=5, n_informative=4, n_redundant=0, n_classes=4,
                               random_state=0)
    rest, three = np.flatnonzero(y != 3), np.flatnonzero(y == 3)
    splits = [(rest, three), (np.concatenate([three, rest[::2]]), rest[1::2]),
              (np.concatenate([three, rest[1::2]]), rest[::2])]
    result = cvi.cross_val_correctness(LOGREG, X, y, cv=splits, response_method="decision_function")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = cross_val_predict(LOGREG, X, y, cv=splits, method="decision_function")
    missing = np.zeros(expected.shape, dtype=bool)
    missing[three, 3] = True
    assert (expected[missing] == np.finfo(np.float64).min).all()
    np.testing.assert_array_equal(result.y_score[0], expected)


def test_two_class_decision_values_of_a_fold_model_that_saw_one_class_are_refused():
    class OneClassScorer(DecisionTreeClassifier):
        def decision_function(self, X):
            return self.predict_proba(X)[:, -1]

    X, y = BINARY
    zeros, ones = np.flatnonzero(y == 0), np.flatnonzero(y == 1)
    splits = [(zeros, ones), (ones, zeros)]
    with pytest.raises(ValueError, match=r"decision_function of a model trained on 1 of the 2 classes .*"
                                         r"response_method='predict_proba'") as caught:
        cvi.cross_val_correctness(OneClassScorer(random_state=0), X, y, cv=splits,
                                  response_method="decision_function")
    assert any("fold 0 of repeat 0" in note for note in caught.value.__notes__)


def test_scores_are_identical_for_one_and_two_jobs():
    X, y = IRIS
    runs = [cvi.cross_val_correctness(LOGREG, X, y, cv=5, n_repeats=3, random_state=0, response_method="auto",
                                      n_jobs=n_jobs, cheap_fit_seconds=0)
            for n_jobs in (1, 2)]
    np.testing.assert_array_equal(runs[0].y_score, runs[1].y_score)
    assert runs[0] == runs[1]


def test_compare_keeps_both_learners_scores_each_from_its_own_method():
    X, y = BINARY
    pair = cvi.CVEvaluator(5, random_state=0, response_method="auto").compare(LOGREG, SVC, X, y)
    assert (pair.a.response_method, pair.b.response_method) == ("predict_proba", "decision_function")
    np.testing.assert_array_equal(pair.a.y_score[0], _oracle(LOGREG, X, y, pair.a, 0))
    np.testing.assert_array_equal(pair.b.y_score[0], _oracle(SVC, X, y, pair.b, 0))
    again = cvi.PairedCVResult.from_json(pair.to_json())
    assert again == pair and again.b.y_score.dtype == np.float64


def test_no_scores_are_kept_unless_asked():
    X, y = IRIS
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=5, random_state=0)
    assert result.y_score is None and result.response_method is None


def test_the_losses_and_the_scores_of_one_fit_agree():
    # log_loss needs predict_proba too: the losses are -ln of the clipped probability of the true class
    # (Nedel'ko 2021, section 5, as the evaluator's docstring says), here from the kept scores
    X, y = BINARY
    result = cvi.cross_val_correctness(LOGREG, X, y, cv=5, random_state=0, loss="log_loss",
                                       response_method="predict_proba")
    p_true = np.where(y == 1, result.y_score[0], 1 - result.y_score[0])
    unclipped = (p_true > 0.001) & (p_true < 0.999)
    # the scores are the float64 probabilities the losses were computed from: exp(-ln p) is p to rounding
    np.testing.assert_allclose(np.exp(-result.loss[0])[unclipped], p_true[unclipped], rtol=1e-13)
    assert unclipped.sum() > 100


def test_the_fast_leave_one_out_path_gives_the_refits_scores():
    X, y = IRIS
    fast, refit = (cvi.cross_val_correctness(KNeighborsClassifier(5), X, y, cv="loo", response_method="auto",
                                             fast_loo=fast_loo) for fast_loo in (True, False))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = cross_val_predict(KNeighborsClassifier(5), X, y, cv=LeaveOneOut(), method="predict_proba")
    np.testing.assert_array_equal(refit.y_score[0], expected)
    np.testing.assert_allclose(fast.y_score[0], expected, rtol=1e-6)
    assert fast.response_method == refit.response_method == "predict_proba"


def test_an_estimator_without_the_method_is_refused_before_any_fit():
    class Counted(LinearSVC):
        fits = 0

        def fit(self, X, y):
            type(self).fits += 1
            return super().fit(X, y)

    X, y = BINARY
    with pytest.raises(ValueError, match=r"response_method='predict_proba' asks for the scores of predict_proba, "
                                         r"and estimator \(Counted\) has none of them; pass response_method='auto'"):
        cvi.cross_val_correctness(Counted(), X, y, cv=3, response_method="predict_proba")
    with pytest.raises(ValueError, match=r"estimator_b \(Counted\)"):
        cvi.CVEvaluator(3, response_method=["predict_proba"]).compare(LOGREG, Counted(), X, y)
    assert Counted.fits == 0


def test_scores_of_a_regression_loss_are_refused():
    X, y = BINARY
    with pytest.raises(ValueError, match=r"response_method=\['predict_proba', 'decision_function'\] keeps "
                                         r"classifiers' scores, and loss='squared_error' is a regression loss"):
        cvi.cross_val_correctness(LinearRegression(), X, y.astype(float), cv=3, loss="squared_error",
                                  response_method="auto")


@pytest.mark.parametrize("value, error", [
    ("predict", ValueError), ("auto ", ValueError), ([], ValueError), (["predict_proba", "predict_proba"], ValueError),
    (("decision_function", "predict_log_proba"), ValueError), (1, TypeError),
])
def test_bad_response_methods_are_refused_naming_the_parameter(value, error):
    X, y = IRIS
    with pytest.raises(error, match=rf"response_method must be None, 'auto', .*; got response_method={value!r}"
                       .replace("[", r"\[").replace("]", r"\]").replace("(", r"\(").replace(")", r"\)")):
        cvi.cross_val_correctness(GaussianNB(), X, y, cv=3, response_method=value)


def test_a_record_with_scores_pickles_read_only_and_equal():
    X, y = IRIS
    result = cvi.cross_val_correctness(GaussianNB(), X, y, cv=3, random_state=0, response_method="auto")
    again = pickle.loads(pickle.dumps(result))
    assert again == result and not again.y_score.flags.writeable


class _ShiftedDecision(LogisticRegression):
    """Logistic regression whose decision values are shifted by 1e8: the same ranks, 9 digits before the point."""

    def decision_function(self, X):
        return super().decision_function(X) + 1e8


def test_decision_values_shifted_by_1e8_keep_every_distinct_value():
    # Issue 45, item 5: float32 has a spacing of 8 at 1e8, so the 150 distinct decision values fell into about 5
    # values and the ROC AUC counted the ties. Oracle: cross_val_predict's float64 values on the same splits, and
    # sklearn's roc_auc_score on them.
    X, y = make_classification(n_samples=150, n_features=5, random_state=0)
    estimator = _ShiftedDecision(max_iter=1000)
    result = cvi.cross_val_correctness(estimator, X, y, cv=5, random_state=0, response_method="decision_function")
    expected = cross_val_predict(estimator, X, y, cv=_splits(result, 0), method="decision_function")
    assert np.unique(expected).size == 150 and np.unique(expected.astype(np.float32)).size < 10
    np.testing.assert_array_equal(result.y_score[0], expected)
    assert np.unique(result.y_score).size == 150
    delong = cvi.metric_interval(result, "roc_auc", method="delong")
    assert delong.estimate == pytest.approx(roc_auc_score(y, expected), rel=1e-12)


def test_gaussian_nb_on_digits_gives_sklearn_s_auc_and_average_precision():
    # Issue 45, item 5: GaussianNB's probabilities on digits (3 against the rest) are mostly within 3e-8 of 0 or
    # 1; float32 kept 511 distinct values of 1157 and gave the record an AUC of 0.846 where sklearn's is 0.890.
    # Oracle: sklearn's cross_val_predict with the same splitter, and roc_auc_score / average_precision_score on
    # its out-of-fold scores (pooled for DeLong; per fold, then averaged, for the corrected t).
    X, y = load_digits(return_X_y=True)
    y = (y == 3).astype(int)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    result = cvi.CVEvaluator(cv, response_method="predict_proba").evaluate(GaussianNB(), X, y)
    expected = cross_val_predict(GaussianNB(), X, y, cv=cv, method="predict_proba")[:, 1]
    np.testing.assert_array_equal(result.y_score[0], expected)
    assert np.unique(result.y_score).size == np.unique(expected).size > np.unique(expected.astype(np.float32)).size
    delong = cvi.metric_interval(result, "roc_auc", method="delong")
    assert delong.estimate == pytest.approx(roc_auc_score(y, expected), rel=1e-12)
    assert delong.estimate == pytest.approx(roc_auc_score(y, result.y_score[0]), rel=1e-12)
    folds = [result.fold[0] == j for j in range(result.n_splits)]
    for metric, oracle in (("roc_auc", roc_auc_score), ("average_precision", average_precision_score)):
        per_fold = np.mean([oracle(y[test], expected[test]) for test in folds])
        assert cvi.metric_interval(result, metric).estimate == pytest.approx(per_fold, rel=1e-12), metric


@pytest.mark.parametrize("data", ["breast cancer", "iris"])
def test_neg_log_loss_per_fold_is_scikit_learns_on_the_same_folds(data):
    """Issue 58: GaussianNB's neg_log_loss was -0.61698 on breast cancer (10 folds) against scikit-learn's -0.61962:
    the kept probabilities were clipped to 1e-15, and scikit-learn >= 1.3 clips them to float64's machine epsilon
    (2.2e-16; GaussianNB gives p = 1.0 exactly to instances whose other class has p ~ 1e-200). Oracles:
    ``cross_validate(scoring="neg_log_loss")`` and ``sklearn.metrics.log_loss`` on each fold model's
    ``predict_proba``, on the record's folds. Tolerance 1e-12 relative: the figures are the same arithmetic, and
    only the sum's order (the fold mean) may differ in the last digits. For two classes the record keeps p1 (as
    the neg_log_loss scorer passes log_loss p1 alone) and p0 is 1 - p1, whose absolute error is float64's spacing
    near 1 (1.1e-16): log_loss on both columns of predict_proba differs where p0 is tiny (1.1e-16 in a p0 of 1e-12
    gives 1e-4 in its log), up to 1.5e-6 in a fold's mean here; hence 1e-5 absolute against it."""
    from sklearn.metrics import log_loss
    from sklearn.model_selection import PredefinedSplit, cross_validate

    from cvinference.inference._metric_interval import metric_fold_values

    X, y = BINARY if data == "breast cancer" else IRIS
    record = cvi.CVEvaluator(10, random_state=0, response_method="predict_proba").evaluate(GaussianNB(), X, y)
    _, folds = metric_fold_values(record, "neg_log_loss")
    sklearn = cross_validate(GaussianNB(), X, y, cv=PredefinedSplit(record.fold[0]), scoring="neg_log_loss",
                             return_estimator=True, return_indices=True)
    np.testing.assert_allclose(folds[0], sklearn["test_score"], rtol=1e-12, atol=0)
    by_hand = [-log_loss(y[test], model.predict_proba(X[test]), labels=np.unique(y))
               for model, test in zip(sklearn["estimator"], sklearn["indices"]["test"], strict=True)]
    np.testing.assert_allclose(folds[0], by_hand, rtol=0, atol=1e-5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimate = cvi.metric_interval(record, "neg_log_loss").estimate
    assert estimate == pytest.approx(np.mean(sklearn["test_score"]), rel=1e-12)
