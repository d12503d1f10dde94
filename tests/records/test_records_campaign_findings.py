"""Issue 58: the held-out fault campaign's findings on records made from predictions (findings 3, 4, 7, 8, 9, 14,
16, 17 and 18): each reproduction is refused before any work with the words that name the input and its fix, or
answered right with a warning.

The oracles: a record from ``cross_validate``'s output equals the evaluator's on the same folds (the module
``test_from_predictions`` shows it); row numbers and fold sizes below are counted by hand from the arrays built here;
``sklearn.metrics.log_loss`` for the kept probabilities.
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import Ridge
from sklearn.metrics import log_loss
from sklearn.model_selection import KFold, TimeSeriesSplit, cross_validate
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference import CVResult
from cvinference._utils._warnings import InferenceWarning
from cvinference.evaluation import from_cross_validate

X, Y = load_breast_cancer(return_X_y=True)
X, Y = X[:150, :5], Y[:150]
FOLD = np.arange(60) % 5  # 5 folds of 12 rows: each fold's model trained on 48


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _cross_validate():
    return cross_validate(GaussianNB(), X, Y, cv=KFold(5), return_indices=True, return_estimator=True)


def _with_indices(results, train, test):
    return results | {"indices": {"train": train, "test": test}}


def test_labels_of_mixed_types_are_refused_naming_the_column():
    """Finding 3: numpy's "'<' not supported between 'str' and 'int'" named nothing."""
    mixed = np.array([0, "a"] * 30, dtype=object)
    with pytest.raises(ValueError, match=r"^y_true mixes label types \(int, str\); convert all labels to one type"):
        CVResult.from_predictions(mixed, mixed, fold=FOLD)
    labels = np.array(["a", "b"] * 30, dtype=object)
    with pytest.raises(ValueError, match=r"^y_pred mixes label types \(int, str\)"):
        CVResult.from_predictions(labels, mixed, fold=FOLD)


def test_whole_number_indices_of_a_round_trip_are_taken_and_fractions_refused():
    """Finding 4: indices cast to float (a JSON or pandas round trip) raised numpy's IndexError."""
    results = _cross_validate()
    train, test = results["indices"]["train"], results["indices"]["test"]
    as_floats = _with_indices(results, [np.asarray(t, float) for t in train], [np.asarray(t, float) for t in test])
    assert from_cross_validate(as_floats, X, Y) == from_cross_validate(results, X, Y)
    halves = [np.asarray(t, float) for t in test]
    halves[2] = halves[2] + 0.5
    with pytest.raises(ValueError, match=r"^cv_results: split 2's test part holds \d+\.5, which is no row number; "
                                         r"pass integer row numbers"):
        from_cross_validate(_with_indices(results, train, halves), X, Y)


def test_a_fold_that_trains_on_its_test_rows_is_refused():
    """Finding 7: test rows added to fold 0's training part (a leak) were taken without a word."""
    results = _cross_validate()
    train = [np.array(t) for t in results["indices"]["train"]]
    leaked = results["indices"]["test"][0][:3]  # KFold(5) on 150 rows: fold 0 tests rows 0 .. 29
    train[0] = np.r_[train[0], leaked]
    with pytest.raises(ValueError, match=r"^cv_results: split 0 puts 3 of its test rows in its own training set "
                                         r"\(rows \[0, 1, 2\]\); out-of-fold predictions need disjoint"):
        from_cross_validate(_with_indices(results, train, results["indices"]["test"]), X, Y)


def test_n_train_may_not_exceed_what_the_folds_of_a_k_fold_record_allow():
    """Finding 8: a tampered n_train moved the corrected t's p from 0.061 to 0.00057. A model of a 5-fold record of
    60 rows was trained on at most 60 - 12 = 48 instances; fewer is possible (a purged or embargoed split), more
    is not. The review's cases: a purged 10-fold record of 100 rows (80 < 90), unequal folds of 101 rows (91)."""
    record = CVResult.from_predictions(np.arange(60) % 2, np.arange(60) % 2, fold=FOLD)
    with pytest.raises(ValueError, match=r"n_train=1000000 is more than the record's 5 folds allow: the model of its "
                                         r"largest fold was trained on at most the other folds, n - m_j = 48 "
                                         r"instances\. Pass n_train=None"):
        CVResult.from_dict(record.to_dict() | {"n_train": 10**6})
    assert CVResult.from_dict(record.to_dict() | {"n_train": 48}).n_train == 48
    assert CVResult.from_dict(record.to_dict() | {"n_train": 40}).n_train == 40  # purged: fewer than the rest
    labels = np.arange(100) % 2
    assert CVResult(y_true=labels, y_pred=labels, fold=np.arange(100) % 10, n_train=80).n_train == 80
    labels = np.arange(101) % 2
    assert CVResult(y_true=labels, y_pred=labels, fold=np.arange(101) % 10, n_train=90).n_train == 90
    holdout = CVResult.from_predictions(np.arange(60) % 2, np.arange(60) % 2)  # one fold: its training size is free
    assert CVResult.from_dict(holdout.to_dict() | {"n_train": 10**6}).n_train == 10**6


def test_an_estimator_type_that_names_no_class_is_refused():
    """Finding 16: estimator_type='bogus' was taken."""
    record = CVResult.from_predictions(np.arange(60) % 2, np.arange(60) % 2, fold=FOLD)
    with pytest.raises(ValueError, match=r"estimator_type must be the dotted name of a class, module.QualifiedName"):
        CVResult.from_dict(record.to_dict() | {"estimator_type": "bogus"})
    kept = CVResult.from_dict(record.to_dict() | {"estimator_type": "mypackage.models.<locals>.Stump"})
    assert kept.estimator_type == "mypackage.models.<locals>.Stump"


def test_two_columns_of_probabilities_must_sum_to_one_before_one_is_dropped():
    """Finding 9: rows of 0.9 and 0.9 were taken, column 0 dropped, and the log loss read -1.057 (sklearn: 0.105)."""
    y_true = np.arange(60) % 2
    with pytest.raises(ValueError, match=r"^y_score holds predict_proba's probabilities, and 60 of its rows do not "
                                         r"sum to 1 \(first: 1\.8 at index \(0,\)\)"):
        CVResult.from_predictions(y_true, y_true, fold=FOLD, y_score=np.c_[np.full(60, 0.9), np.full(60, 0.9)],
                                  response_method="predict_proba")
    p = np.linspace(0.05, 0.95, 60)
    record = CVResult.from_predictions(y_true, y_true, fold=FOLD, y_score=np.c_[1 - p, p],
                                       response_method="predict_proba")
    # the mean of the fold log losses, each sklearn's log_loss on its fold (equal folds: their mean)
    folds = [log_loss(y_true[FOLD == j], p[FOLD == j], labels=[0, 1]) for j in range(5)]
    estimate = _quiet(cvi.metric_interval, record, "neg_log_loss").estimate
    assert estimate == pytest.approx(-np.mean(folds), rel=1e-9)


def test_whole_numbers_read_as_classes_warn_where_they_may_be_a_quantity():
    """Finding 14: Poisson counts with rounded predictions became a 7-class accuracy record without a word."""
    rng = np.random.default_rng(0)
    counts = rng.poisson(3, 60)
    assert (np.bincount(counts) == 1).any()  # a value held by one row: the count's tail
    predicted = np.clip(np.round(counts + rng.normal(0, 1, 60)), 0, None).astype(int)
    with pytest.warns(InferenceWarning, match=r"distinct whole numbers .* held by one row only, as in a count's "
                                              r"tail: read as class labels .* pass loss='squared_error'"):
        record = CVResult.from_predictions(counts, predicted, fold=FOLD)
    assert record.loss_name == "zero_one"
    ranks = np.arange(60) % 25  # more distinct values than the command line reads as classes without asking
    with pytest.warns(InferenceWarning, match=r"25 distinct whole numbers \(0 to 24\), more than the 20"):
        CVResult.from_predictions(ranks, ranks, fold=FOLD)
    iris = load_iris().target
    with warnings.catch_warnings():
        warnings.simplefilter("error", InferenceWarning)
        CVResult.from_predictions(iris, iris, fold=np.arange(150) % 5)  # three classes of 50: labels
        CVResult.from_predictions(counts, predicted, fold=FOLD, loss="zero_one")  # said so: no doubt left
        CVResult.from_predictions(ranks % 2 * 1.0, ranks % 2 * 1.0, fold=FOLD)  # 0.0 / 1.0: labels
        # the review's cases: labels as pandas leaves them (0.0, 1.0, 2.0), and a holdout (no folds: a class of one
        # row in a small evaluation set is no sign of a count)
        CVResult.from_predictions(ranks % 4 * 1.0, ranks % 4 * 1.0, fold=FOLD)
        holdout = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 2])
        CVResult.from_predictions(holdout, holdout)


def test_from_frame_says_that_y_true_names_a_column():
    """Finding 17: an array as y_true gave "The truth value of an array ... is ambiguous"."""
    pd = pytest.importorskip("pandas")
    y = np.arange(60) % 2
    table = pd.DataFrame({"t": y, "p": y, "f": FOLD})
    with pytest.raises(TypeError, match=r"^y_true must name a column of the table \(a str\); got an array of shape "
                                        r"\(60,\)\. Pass the column's name \(y_true='t' names the first\), or pass "
                                        r"the arrays to CVResult\.from_predictions"):
        CVResult.from_frame(table, y_true=y, y_pred="p", fold="f")
    with pytest.raises(TypeError, match=r"^fold must name a column of the table"):
        CVResult.from_frame(table, y_true="t", y_pred="p", fold=["f"])


def test_forward_splits_are_sent_to_the_forward_records():
    """Finding 18: a TimeSeriesSplit's output was refused as "which a ShuffleSplit does not"."""
    rng = np.random.default_rng(0)
    Xr = rng.standard_normal((100, 2))
    yr = Xr[:, 0] + rng.standard_normal(100)
    results = cross_validate(Ridge(), Xr, yr, cv=TimeSeriesSplit(4), return_indices=True, return_estimator=True)
    with pytest.raises(ValueError, match=r"^cv_results: the splits are forward validation .* instance 0 is in no "
                                         r"test part of repeat 0: .* ForwardResult\.from_forecasts, or evaluate with "
                                         r"the forward splitter itself: CVEvaluator\(cv=TimeSeriesSplit"):
        from_cross_validate(results, Xr, yr)


def test_test_parts_that_overlap_are_named_by_their_rows():
    """Finding 18: rows 17, 18, 22 tested twice were reported as "leave instance 23 untested" (23 is tested)."""
    results = _cross_validate()
    train = [np.array(t) for t in results["indices"]["train"]]
    test = [np.array(t) for t in results["indices"]["test"]]
    twice = test[1][[17, 18, 22]]  # KFold(5) on 150 rows: fold 1 tests rows 30 .. 59, so rows 47, 48 and 52
    test[0], train[0] = np.r_[test[0], twice], np.setdiff1d(train[0], twice)
    with pytest.raises(ValueError, match=r"^cv_results: splits 0 and 1 both test rows \[47, 48, 52\] before repeat 0 "
                                         r"has tested every instance once; the test parts of each repeat must be "
                                         r"disjoint and cover every instance once"):
        from_cross_validate(_with_indices(results, train, test), X, Y)
