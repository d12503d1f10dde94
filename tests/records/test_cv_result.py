"""CVResult and PairedCVResult: derived counts, immutability, JSON round trip, summaries."""

import json
import pickle
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.metrics import roc_auc_score
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference import CVResult, InferenceWarning, PairedCVResult
from cvinference.records._same_folds import same_folds


def small_result():
    # Hand-made: fold 0 holds instances 0, 2, 4 (2 correct); fold 1 holds 1, 3 (1 correct).
    return CVResult(
        y_true=["a", "b", "a", "b", "a"],
        y_pred=["a", "b", "b", "a", "a"],
        fold=[0, 1, 0, 1, 0],
    )


def test_per_fold_counts_by_hand():
    result = small_result()
    np.testing.assert_array_equal(result.correct, [[True, True, False, False, True]])
    np.testing.assert_array_equal(result.fold_sizes, [[3, 2]])
    np.testing.assert_array_equal(result.fold_correct, [[2, 1]])
    np.testing.assert_allclose(result.fold_accuracy, [[2 / 3, 1 / 2]])
    assert result.accuracy == pytest.approx(3 / 5)
    np.testing.assert_array_equal(result.loss, [[0.0, 0.0, 1.0, 1.0, 0.0]])
    assert result.mean_loss == pytest.approx(2 / 5)
    assert (result.n_samples, result.n_splits, result.n_repeats, result.is_loo) == (5, 2, 1, False)


def test_repeats_have_their_own_partitions():
    # Repeat 0: folds {0,1},{2,3}; repeat 1: folds {0,2},{1,3}. Instance 3 is wrong in both.
    result = CVResult(y_true=[0, 1, 0, 1], y_pred=[[0, 1, 0, 0], [1, 1, 0, 0]], fold=[[0, 0, 1, 1], [0, 1, 0, 1]])
    np.testing.assert_array_equal(result.fold_correct, [[2, 1], [1, 1]])
    np.testing.assert_array_equal(result.fold_sizes, [[2, 2], [2, 2]])
    assert result.accuracy == pytest.approx(5 / 8)


@pytest.mark.parametrize("accuracy", [0.01, 0.2, 0.5, 0.8, 0.99])
@pytest.mark.parametrize("n_samples, n_repeats, n_splits", [(3000, 400, 7), (50, 3, 50)])
def test_fold_correct_equals_a_weighted_bincount_per_repeat(accuracy, n_samples, n_repeats, n_splits):
    # 3000 x 400 cells exceed the 2**20 counted at a time; accuracies near 0
    # and 1 count the rare value by position, 0.5 by a weighted bincount.
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n_samples)
    fold = np.stack([rng.permutation(np.arange(n_samples) % n_splits) for _ in range(n_repeats)])
    y_pred = np.where(rng.random((n_repeats, n_samples)) < accuracy, y, 1 - y)
    result = CVResult(y, y_pred, fold)
    expected = [np.bincount(f, weights=y_pred[r] == y, minlength=n_splits) for r, f in enumerate(fold)]
    np.testing.assert_array_equal(result.fold_correct, expected)
    assert result.fold_correct.dtype == np.int64


def test_loo_is_recognised_from_singleton_folds():
    result = CVResult(y_true=[0, 1, 1], y_pred=[0, 1, 0], fold=[2, 0, 1])
    assert result.is_loo and result.n_splits == 3
    summary = result.summary()
    assert summary.startswith("3 instances; leave-one-out; 95% confidence") and "per fold" not in summary
    assert "accuracy 0.6667 (2 of 3 tested instances correct)" in summary


def test_labels_are_stored_as_codes_and_decoded():
    result = small_result()
    assert result.classes.tolist() == ["a", "b"]
    assert result._y_pred.dtype == np.int8
    assert result.y_pred.tolist() == [["a", "b", "b", "a", "a"]]
    assert result.y_true.tolist() == ["a", "b", "a", "b", "a"]


def test_a_predicted_label_absent_from_y_true_is_kept():
    result = CVResult(y_true=["a", "b"], y_pred=["c", "b"], fold=[0, 1])
    assert result.classes.tolist() == ["a", "b", "c"]
    assert result.y_pred.tolist() == [["c", "b"]]
    np.testing.assert_array_equal(result.correct, [[False, True]])


def test_arrays_are_read_only():
    result = small_result()
    for name in ("correct", "loss", "fold", "y_pred", "y_true", "fold_sizes", "fold_correct", "fold_accuracy"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(result, name)[..., 0] = 0
    with pytest.raises(AttributeError):
        result.correct = None


@pytest.mark.parametrize("labels", [
    np.array(["no", "yes"]),
    np.array([False, True]),
    np.array([-3, 7]),
    np.array([0.5, 2.25]),
    np.array(["x", "y"], dtype=object),
], ids=["str", "bool", "int", "float", "object"])
def test_json_round_trip_is_lossless(labels):
    rng = np.random.default_rng(0)
    y_true = labels[rng.integers(2, size=40)]
    y_pred = labels[rng.integers(2, size=(3, 40))]
    fold = np.stack([rng.permutation(np.arange(40) % 4) for _ in range(3)])
    result = CVResult(y_true, y_pred, fold, estimator_repr="GaussianNB()", cv_repr="KFold(n_splits=4)")
    text = json.dumps(result.to_dict())
    again = CVResult.from_dict(json.loads(text))
    for name in ("y_true", "y_pred", "fold", "correct", "loss", "classes", "fold_sizes", "fold_correct"):
        expected, actual = getattr(result, name), getattr(again, name)
        np.testing.assert_array_equal(actual, expected)
        assert actual.dtype == expected.dtype, name
    assert (again.estimator_repr, again.cv_repr, again.loss_name) == ("GaussianNB()", "KFold(n_splits=4)", "zero_one")
    assert again.to_dict() == result.to_dict()


def test_json_round_trip_keeps_float_losses_exactly():
    rng = np.random.default_rng(1)
    y = rng.normal(size=30)
    pred = y + rng.normal(scale=1e-3, size=30)
    loss = (y - pred) ** 2
    result = CVResult(y, pred, np.arange(30) % 3, loss=loss, loss_name="squared_error")
    again = CVResult.from_dict(json.loads(json.dumps(result.to_dict())))
    np.testing.assert_array_equal(again.loss, result.loss)
    np.testing.assert_array_equal(again.y_pred, result.y_pred)
    assert again.classes is None and again.mean_loss == result.mean_loss
    assert "mean_loss=" in repr(again) and "accuracy" not in repr(again)


def test_evaluator_output_round_trips(tmp_path):
    X, y = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    pair = cvi.CVEvaluator(5, n_repeats=2, random_state=0).compare(GaussianNB(), DecisionTreeClassifier(random_state=0),
                                                                  X, labels)
    path = tmp_path / "pair.json"
    path.write_text(json.dumps(pair.to_dict()))
    again = PairedCVResult.from_dict(json.loads(path.read_text()))
    assert again.to_dict() == pair.to_dict()
    np.testing.assert_array_equal(again.b.y_pred, pair.b.y_pred)


def test_from_dict_refuses_foreign_data():
    with pytest.raises(ValueError, match=r"not a cvinference.CVResult dict \(format='other'\)"):
        CVResult.from_dict({"format": "other"})
    data = small_result().to_dict()
    data["version"] = 99
    with pytest.raises(ValueError, match="format version 99"):
        CVResult.from_dict(data)
    with pytest.raises(ValueError, match=r"cvinference\.PairedCVResult"):
        PairedCVResult.from_dict(data)


def test_unserialisable_labels_are_refused_by_name():
    labels = np.array([np.datetime64("2020-01-01"), np.datetime64("2021-01-01")])
    result = CVResult(labels, labels, [0, 1])
    with pytest.raises(TypeError, match=r"cannot write an array of dtype datetime64\[D\] to JSON"):
        result.to_dict()


def test_summary_shows_the_per_fold_table():
    summary = small_result().summary()
    lines = summary.splitlines()
    assert lines[0] == "5 instances; 2-fold cross-validation; 95% confidence"
    assert lines[2] == "per fold"
    assert lines[3].split() == ["fold", "m_j", "r_j", "p_j", "r_j,", "m_j", "-", "r_j", ">=", "5"]
    assert lines[4].split() == ["0", "3", "2", "0.6667", "NO"]
    assert lines[5].split() == ["1", "2", "1", "0.5000", "NO"]
    assert "  accuracy 0.6000 (3 of 5 tested instances correct)" in lines


@pytest.mark.parametrize("kwargs, match", [
    ({"y_true": [[0, 1]], "y_pred": [0, 1], "fold": [0, 1]}, "y_true must be 1-d"),
    ({"y_true": [0, 1], "y_pred": [0, 1, 1], "fold": [0, 1]}, r"y_pred must have shape .*got shape \(3,\)"),
    ({"y_true": [0, 1], "y_pred": [0, 1], "fold": [[0, 1], [0, 1]]}, r"fold must have the shape of y_pred \(1, 2\)"),
    ({"y_true": [0, 1, 1], "y_pred": [0, 1, 1], "fold": [0, 2, 2]}, "repeat 0 has an empty fold"),
    ({"y_true": [0, 1], "y_pred": [0, 1], "fold": [0.0, 1.0]}, "got dtype float64 with values from 0.0 to 1.0"),
    ({"y_true": [0, 1], "y_pred": [0, 1], "fold": [0, -1]}, "got dtype int64 with values from -1 to 0"),
    ({"y_true": [0, 1], "y_pred": [0, 1], "fold": [0, 10**9]}, "n_splits <= n_samples=2; got .* to 1000000000"),
])
def test_inconsistent_arrays_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        CVResult(**kwargs)


def test_paired_result_needs_identical_folds_and_instances():
    a = small_result()
    other_folds = CVResult(y_true=["a", "b", "a", "b", "a"], y_pred=["a"] * 5, fold=[1, 0, 1, 0, 1])
    with pytest.raises(ValueError, match="not cross-validated on identical folds"):
        PairedCVResult(a, other_folds)
    other_data = CVResult(y_true=["b"] * 5, y_pred=["a"] * 5, fold=[0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="same instances"):
        PairedCVResult(a, other_data)
    with pytest.raises(TypeError, match="b must be a CVResult; got dict"):
        PairedCVResult(a, {})


def test_a_paired_result_cannot_be_changed_but_pickles_and_round_trips():
    a = CVResult(y_true=[0, 0, 1, 1], y_pred=[0, 0, 1, 1], fold=[0, 1, 0, 1])
    b = CVResult(y_true=[0, 0, 1, 1], y_pred=[0, 1, 1, 0], fold=[0, 1, 0, 1])
    pair = PairedCVResult(a, b)
    with pytest.raises(AttributeError, match=r"cannot be changed \(setting 'a'\).*PairedCVResult\(a, b\)"):
        pair.a = b
    with pytest.raises(AttributeError, match=r"deleting 'b'"):
        del pair.b
    assert pair.a is a and pair.b is b
    assert pickle.loads(pickle.dumps(pair)) == pair
    assert PairedCVResult.from_dict(pair.to_dict()) == pair


def test_paired_summary_shows_both_and_the_differences():
    a = small_result()
    b = CVResult(y_true=["a", "b", "a", "b", "a"], y_pred=["a"] * 5, fold=[0, 1, 0, 1, 0])
    lines = PairedCVResult(a, b).summary().splitlines()
    assert lines[3].split()[:7] == ["fold", "m_j", "r_Aj", "p_Aj", "r_Bj", "p_Bj", "d_j"]
    # Fold 0: A has 2 of 3, B (always "a") has 3 of 3, so d_0 = 2/3 - 1 = -0.3333.
    assert lines[4].split() == ["0", "3", "2", "0.6667", "3", "1.0000", "-0.3333", "NO"]
    assert lines[5].split() == ["1", "2", "1", "0.5000", "0", "0.0000", "+0.5000", "NO"]


def test_float_predictions_of_an_integer_target_round_trip_exactly():
    y = np.array([1, 2, 3, 4])
    pred = np.array([1.25, 2.5, 2.75, 4.0], dtype=np.float64)
    result = CVResult(y, pred, [0, 1, 0, 1], loss=(pred - y) ** 2, loss_name="squared_error")
    again = CVResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert again.y_true.dtype == np.int64 and again.y_pred.dtype == np.float64
    np.testing.assert_array_equal(again.y_pred, [[1.25, 2.5, 2.75, 4.0]])
    single = CVResult(y.astype(np.float32), pred, [0, 1, 0, 1], loss=(pred - y) ** 2, loss_name="squared_error")
    assert CVResult.from_dict(single.to_dict()).y_pred.dtype == np.float64


def test_a_nan_prediction_round_trips_as_a_class_of_its_own():
    # Version 1 refused to write it; version 2 writes non-finite items of a float array as text (issue 27).
    result = CVResult([0.0, 1.0], [np.nan, 1.0], [0, 1])
    again = CVResult.from_dict(json.loads(json.dumps(result.to_dict(), allow_nan=False)))
    assert again == result and again.classes.tolist()[:2] == [0.0, 1.0] and np.isnan(again.classes[2])
    assert again.correct.tolist() == [[False, True]]
    # An infinite loss (here 1e308 squared) no longer gets that far: the record refuses it (issue 13, item 7).
    with pytest.raises(ValueError, match=r"loss holds NaN or infinity for 1 of 2 .*instance 1 in repeat 0"):
        CVResult([0.0, 1.0], [0.0, 1e308], [0, 1], loss=[0.0, np.inf], loss_name="squared_error")


def test_the_result_neither_aliases_nor_freezes_the_callers_arrays():
    y = np.array([0.5, 1.5, 2.5, 3.5])
    pred = np.array([0.0, 1.0, 2.0, 3.0])
    fold = np.array([0, 1, 0, 1], dtype=np.int8)
    result = CVResult(y, pred, fold, loss=(pred - y) ** 2, loss_name="squared_error")
    y[0], pred[0], fold[0] = 99.0, 99.0, 1
    assert result.y_true[0] == 0.5 and result.y_pred[0, 0] == 0.0 and result.fold[0, 0] == 0


@pytest.mark.parametrize("y_true, y_pred, expected_correct", [
    # numpy's == decides: the int 1 and the string "1" differ (with a warning, tested below).
    (np.array([1, 0, 1]), np.array(["1", "0", "1"]), [False, False, False]),
    # True == 1 under numpy, so a bool target and 0/1 predictions agree.
    (np.array([True, False, True]), np.array([1, 0, 0]), [True, True, False]),
    (np.array(["a", "b", "a"]), np.array(["a", "c", "c"]), [True, False, False]),
    (np.array([0.0, 1.0, 1.0]), np.array([0.0, np.nan, 2.0]), [True, False, False]),
])
def test_correctness_follows_numpy_equality(y_true, y_pred, expected_correct):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InferenceWarning)
        result = CVResult(y_true, y_pred, [0, 1, 2])
    np.testing.assert_array_equal(result.correct[0], expected_correct)
    np.testing.assert_array_equal(result.correct[0], y_pred == y_true)
    assert result.y_true.tolist() == y_true.tolist()
    assert all(a == b or (a != a and b != b) for a, b in zip(result.y_pred[0].tolist(), y_pred.tolist(), strict=True))


def test_text_predictions_of_number_labels_warn_that_none_can_be_right():
    """scikit-learn's accuracy_score raises on this mix ("Mix of label input types"); the record keeps it and warns."""
    with pytest.warns(InferenceWarning, match=r"y_pred holds text \(\['0', '1'\]\) where y_true holds numbers"):
        result = CVResult(np.array([1, 0, 1]), np.array(["1", "0", "1"]), [0, 1, 2])
    assert result.accuracy == 0
    with pytest.warns(InferenceWarning, match="y_pred holds numbers"):
        CVResult(np.array(["a", "b"]), np.array([0, 1]), [0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        CVResult(np.array([1, 0, 1]), np.array([2, 0, 1]), [0, 1, 2])  # an unseen number is a mistake, not a mix
        CVResult(np.array(["a", "b", "a"]), np.array(["a", "c", "c"]), [0, 1, 2])
        CVResult(np.array([True, False, True]), np.array([1, 0, 0]), [0, 1, 2])


@pytest.mark.parametrize("y_pred", [np.array(["a", "c", "c"]), np.array(["a", "b", "b"], dtype=object)])
def test_labels_of_matching_kinds_keep_y_trues_dtype_through_json(y_pred):
    y_true = np.array(["a", "b", "a"])
    result = CVResult(y_true, y_pred, [0, 1, 2])
    again = CVResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert result.y_true.dtype == again.y_true.dtype == y_true.dtype
    np.testing.assert_array_equal(again.correct, result.correct)


def test_pandas_nullable_labels_keep_their_values():
    pd = pytest.importorskip("pandas")
    y = pd.Series([True, False, True, False], dtype="boolean")
    result = CVResult(y.to_numpy(), np.array([True, False, False, False]), [0, 1, 0, 1])
    assert result.y_true.tolist() == [True, False, True, False]
    assert result.accuracy == pytest.approx(3 / 4)


def test_regression_summary_shows_per_fold_mean_loss_not_accuracy():
    # Fold 0 holds instances 0 and 2 with squared errors 1 and 9: mean 5; fold 1: (0 + 4) / 2 = 2.
    result = CVResult([1.0, 2.0, 3.0, 4.0], [0.0, 2.0, 0.0, 2.0], [0, 1, 0, 1],
                      loss=[1.0, 0.0, 9.0, 4.0], loss_name="squared_error")
    np.testing.assert_allclose(result.fold_mean_loss, [[5.0, 2.0]])
    lines = result.summary().splitlines()
    assert lines[3].split() == ["fold", "m_j", "squared_error_j"]
    # one number format per report (issue 58): four decimals below 1e4
    assert lines[4].split() == ["0", "2", "5.0000"] and lines[5].split() == ["1", "2", "2.0000"]
    assert "  mean squared error 3.5000" in lines
    assert not any("accuracy" in line for line in lines) and "r_j" not in lines[3].split()


def test_zero_one_fold_mean_loss_is_the_fold_error_rate():
    np.testing.assert_allclose(small_result().fold_mean_loss, [[1 / 3, 1 / 2]])


def test_paired_summary_of_a_regression_loss_shows_fold_mean_losses():
    y = np.array([1.0, 2.0, 3.0, 4.0])
    a = CVResult(y, [1.5, 2.0, 2.0, 4.0], [0, 1, 0, 1], loss=[0.25, 0.0, 1.0, 0.0], loss_name="squared_error")
    b = CVResult(y, [1.0, 2.0, 3.0, 5.0], [0, 1, 0, 1], loss=[0.0, 0.0, 0.0, 1.0], loss_name="squared_error")
    lines = PairedCVResult(a, b).summary().splitlines()
    assert lines[3].split() == ["fold", "m_j", "squared_error_Aj", "squared_error_Bj", "B", "-", "A"]
    # Fold 0 holds instances 0 and 2: A's mean loss (0.25 + 1) / 2 = 0.625, B's 0; B - A, as the loss tests
    # orient it (positive when A is better), is -0.625.
    assert lines[4].split() == ["0", "2", "0.6250", "0.0000", "-0.6250"]
    assert not any("p_Aj" in line or "tests of accuracy" in line for line in lines)


# Issue 13, items 4 and 8, and issue 27, item 3: from_dict trusted tampered dicts and failed with low-level errors.
def _written():
    result = cvi.CVResult(y_true=["no", "yes", "no", "yes"], y_pred=["no", "no", "yes", "yes"], fold=[0, 0, 1, 1])
    return json.loads(json.dumps(result.to_dict()))


def _log_loss_written():
    result = cvi.CVResult(y_true=[0, 1, 0, 1], y_pred=[0, 0, 1, 1], fold=[0, 0, 1, 1], loss=[0.1, 2.3, 1.2, 0.2],
                          loss_name="log_loss")
    return json.loads(json.dumps(result.to_dict()))


def _items(data, key, items):
    data[key]["array"] = items


@pytest.mark.parametrize("tamper, error, match", [
    (lambda d: d.pop("fold"), ValueError, "has no key 'fold'"),
    (lambda d: d.pop("n_train"), ValueError, "has no key 'n_train'"),
    (lambda d: d.update(extra=1), ValueError, "has the unknown key 'extra'"),
    (lambda d: _items(d, "classes", ["yes", "no"]), ValueError, "start with the sorted labels of CVResult.y_true"),
    (lambda d: d["classes"].update(dtype="<U1"), ValueError, "holds a string longer than its dtype <U1 keeps"),
    (lambda d: _items(d, "classes", ["no", "no"]), ValueError, "classes must be distinct labels"),
    (lambda d: _items(d, "classes", ["no", None]), ValueError,
     r"CVResult.classes is an array of dtype <U3 but holds None"),
    (lambda d: _items(d, "y_true", [0, 5, 0, 1]), ValueError, r"y_true must hold integer codes 0 \.\. 1"),
    (lambda d: _items(d, "fold", ["0", "0", "1", "1"]), ValueError,
     r"CVResult.fold is an array of dtype int8 but holds '0'"),
    (lambda d: d["y_pred"].update(shape=[2, 3]), ValueError,
     r"CVResult.y_pred has the shape \[2, 3\], which does not hold"),
    (lambda d: d.update(loss_name=None), TypeError, r"CVResult.loss_name must be a non-empty string"),
    (lambda d: d.update(classes=None), ValueError,
     r"CVResult.classification=True but CVResult.classes is None"),
    (lambda d: d.update(classification="yes"), TypeError, r"CVResult.classification must be True or False"),
    (lambda d: d.update(n_train=0), ValueError, r"CVResult.n_train must be an integer >= 1, or None"),
    (lambda d: d["y_true"].update(dtype="<M8[D]"), ValueError, r"CVResult.y_true has the dtype '<M8\[D\]'"),
    (lambda d: d.update(version=2), ValueError, ("CVResult format version 2; this cvinference reads version 1 of it. "
                                                 "It was written by a newer cvinference")),
])
def test_from_dict_refuses_a_dict_that_to_dict_did_not_write(tamper, error, match):
    data = _written()
    tamper(data)
    with pytest.raises(error, match=match):
        cvi.CVResult.from_dict(data)


def test_from_dict_refuses_a_log_loss_result_without_its_losses():
    data = _log_loss_written()
    assert cvi.CVResult.from_dict(data).mean_loss == pytest.approx(0.95)
    data["loss"] = None
    with pytest.raises(ValueError, match="loss_name='log_loss' needs the per-instance losses"):
        cvi.CVResult.from_dict(data)
    data["loss"] = {"array": [0.1, 2.3, 1.2], "dtype": "<f8", "shape": [1, 3], "writeable": False}
    with pytest.raises(ValueError, match=r"loss must have the shape of y_pred \(1, 4\); got shape \(1, 3\)"):
        cvi.CVResult.from_dict(data)


def test_a_loss_of_the_wrong_length_is_refused_by_the_constructor():
    with pytest.raises(ValueError, match=r"loss must have the shape of y_pred \(1, 4\); got shape \(3,\)"):
        cvi.CVResult(y_true=[0, 1, 0, 1], y_pred=[0, 0, 1, 1], fold=[0, 0, 1, 1], loss=[1.0, 2.0, 3.0],
                     loss_name="custom")


def test_a_regression_result_has_no_accuracy_and_its_pair_shows_mean_losses():
    y = np.array([0.5, 1.5, 2.5, 3.5])
    a = CVResult(y, y + 1.0, [0, 1, 0, 1], loss=np.ones(4), loss_name="squared_error")
    b = CVResult(y, y, [0, 1, 0, 1], loss=np.zeros(4), loss_name="squared_error")
    assert np.isnan(a.accuracy) and np.isnan(a.fold_accuracy).all() and a.fold_accuracy.shape == (1, 2)
    assert a.mean_loss == 1.0
    assert repr(PairedCVResult(a, b)) == ("PairedCVResult(n_samples=4, n_splits=2, n_repeats=1, mean_loss_a=1, "
                                          "mean_loss_b=0, loss_name='squared_error')")


def test_one_tested_instance_is_not_leave_one_out():
    assert not CVResult([1], [1], [0]).is_loo  # a holdout that tests one instance
    assert CVResult([1, 0], [1, 1], [0, 1]).is_loo


def test_an_empty_result_is_refused_by_name():
    with pytest.raises(ValueError, match="y_true is empty"):
        CVResult([], [], [])


def test_no_information_rate_is_the_largest_true_class_share_by_hand():
    # caret's confusionMatrix: "No Information Rate" = the largest class's share of the reference (true) labels.
    # y_true holds a 2 times, b 5 times, c 3 times: NIR = 5 / 10; the predictions ("z" only predicted) do not count.
    y_true = ["a", "b", "b", "c", "b", "c", "a", "b", "c", "b"]
    y_pred = ["z"] * 10
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InferenceWarning)
        result = CVResult(y_true, np.array([y_pred, y_pred]), np.array([[0, 1] * 5, [1, 0] * 5]))
    assert result.no_information_rate == 0.5
    assert result.majority_class == "b" and isinstance(result.majority_class, str)
    assert result.classes.tolist() == ["a", "b", "c", "z"]
    np.testing.assert_array_equal(result.class_counts, [2, 5, 3, 0])
    assert not result.class_counts.flags.writeable


def test_no_information_rate_ties_go_to_the_first_class_and_survive_json():
    result = CVResult([3, 1, 1, 3], [1, 1, 1, 1], [0, 1, 0, 1])
    again = CVResult.from_dict(json.loads(json.dumps(result.to_dict())))
    for record in (result, again):
        assert record.no_information_rate == 0.5 and record.majority_class == 1


def test_a_regression_result_has_no_no_information_rate():
    result = CVResult([0.5, 1.5], [0.5, 1.0], [0, 1], loss=[0.0, 0.25], loss_name="squared_error")
    assert np.isnan(result.no_information_rate)
    assert result.majority_class is None and result.class_counts is None


def _named(**labels):
    return CVResult(y_true=[0, 1, 0, 1], y_pred=[0, 1, 1, 1], fold=[0, 0, 1, 1], **labels)


def test_name_and_estimator_type_default_to_none_on_a_record_made_by_hand():
    result = _named()
    assert (result.name, result.estimator_type) == (None, None)


def test_name_and_estimator_type_round_trip_through_json_and_pickle():
    import pickle

    result = _named(name="tuned tree", estimator_type="sklearn.tree._classes.DecisionTreeClassifier",
                    estimator_repr="DecisionTreeClassifier(max_depth=2)")
    again = CVResult.from_dict(json.loads(json.dumps(result.to_dict())))
    unpickled = pickle.loads(pickle.dumps(result))
    for copy in (again, unpickled):
        assert (copy.name, copy.estimator_type) == ("tuned tree", "sklearn.tree._classes.DecisionTreeClassifier")
        assert copy == result


def test_results_that_differ_only_in_their_name_or_type_are_not_equal():
    assert _named(name="a") != _named(name="b")
    assert _named(estimator_type="x.A") != _named(estimator_type="x.B")
    assert _named(name="a") == _named(name="a")


@pytest.mark.parametrize("tamper, error, match", [
    (lambda d: d.update(name=3), TypeError,
     r"CVResult.name must be a non-empty string .*, or None; got CVResult.name=3"),
    (lambda d: d.update(estimator_type=["x"]), TypeError,
     r"CVResult.estimator_type must be the dotted name of a class"),
    # Issue 58 (finding 16): a word that names no class, "bogus", was taken as the learner's class.
    (lambda d: d.update(estimator_type="bogus"), ValueError,
     r"CVResult.estimator_type must be the dotted name of a class, module.QualifiedName \(such as "
     r"'sklearn.tree.DecisionTreeClassifier'\), or None; got CVResult.estimator_type='bogus'"),
    (lambda d: d.update(name=""), ValueError, "CVResult.name must be a non-empty string"),
])
def test_from_dict_refuses_a_bad_name_or_type(tamper, error, match):
    data = json.loads(json.dumps(_named(name="a").to_dict()))
    tamper(data)
    with pytest.raises(error, match=match):
        CVResult.from_dict(data)


@pytest.mark.parametrize("labels, error, match", [
    ({"name": ""}, ValueError, r"name must be a non-empty string \(such as 'tuned tree'\), or None; got name=''"),
    ({"name": "  "}, ValueError, "got name='  '"),
    ({"name": 7}, TypeError, "got name=7"),
    ({"estimator_type": 7}, TypeError, "estimator_type must be the dotted name of a class"),
    ({"estimator_type": "bogus"}, ValueError, "got estimator_type='bogus'"),
])
def test_the_constructor_refuses_a_bad_name_or_type(labels, error, match):
    with pytest.raises(error, match=match):
        _named(**labels)


def test_summaries_name_the_learner_then_its_description_when_they_differ():
    named = _named(name="tuned tree", estimator_repr="DecisionTreeClassifier(max_depth=2)")
    assert "\nA: tuned tree: DecisionTreeClassifier(max_depth=2)\n" in named.summary()
    same = _named(name="GaussianNB()", estimator_repr="GaussianNB()")
    assert "\nA: GaussianNB()\n" in same.summary()
    only_name = _named(name="mine")
    assert "\nA: mine\n" in only_name.summary()
    b = CVResult(y_true=[0, 1, 0, 1], y_pred=[0, 0, 1, 1], fold=[0, 0, 1, 1], name="coin",
                 estimator_repr="DummyClassifier(strategy='uniform')")
    text = PairedCVResult(named, b).summary()
    assert "\nA: tuned tree: DecisionTreeClassifier(max_depth=2)\n" in text
    assert "\nB: coin: DummyClassifier(strategy='uniform')\n" in text


# --------------------------------------------------------------------------- scores (issue 29)

def _scored(**kw):
    return cvi.CVResult(**{"y_true": ["no", "yes", "no", "yes"], "y_pred": ["no", "no", "yes", "yes"],
                           "fold": [0, 0, 1, 1], "y_score": [0.2, 0.4, 0.7, 0.9],
                           "response_method": "predict_proba", **kw})


def _scored_written():
    return json.loads(json.dumps(_scored().to_dict()))


def test_scores_are_kept_as_read_only_float64_rows_per_repeat():
    result = _scored()
    assert result.y_score.dtype == np.float64 and result.y_score.shape == (1, 4)
    assert not result.y_score.flags.writeable and result.response_method == "predict_proba"
    three = cvi.CVResult(y_true=[0, 1, 2, 0, 1, 2], y_pred=[[0, 1, 2, 0, 1, 1]] * 2, fold=[[0, 0, 0, 1, 1, 1]] * 2,
                         y_score=np.full((2, 6, 3), 1 / 3), response_method="predict_proba")
    assert three.y_score.shape == (2, 6, 3)
    assert float(three.y_score[0, 0, 0]) == 1 / 3


def test_scores_leave_the_folds_digest_alone_and_change_equality():
    plain = cvi.CVResult(y_true=["no", "yes", "no", "yes"], y_pred=["no", "no", "yes", "yes"], fold=[0, 0, 1, 1])
    scored = _scored()
    assert plain._fold_digest == scored._fold_digest and same_folds(plain, scored)
    assert scored != plain and scored == _scored() and scored != _scored(y_score=[0.2, 0.4, 0.7, 0.8])
    pair = cvi.PairedCVResult(scored, plain)
    assert pair.a.y_score is scored.y_score and pair.b.y_score is None


def test_scores_round_trip_through_json_exactly():
    result = _scored(y_score=[0.1, 1 / 3, 0.7, 2 / 3])
    again = cvi.CVResult.from_json(result.to_json())
    assert again == result and again.y_score.dtype == np.float64
    np.testing.assert_array_equal(again.y_score, [[0.1, 1 / 3, 0.7, 2 / 3]])
    assert result.to_dict()["response_method"] == "predict_proba"


@pytest.mark.parametrize("kw, error, match", [
    ({"response_method": None}, ValueError, "y_score and response_method go together"),
    ({"y_score": None}, ValueError, "y_score and response_method go together"),
    ({"y_score": [0.2, 0.4, 0.7]}, ValueError, r"y_score must be a numeric array of shape \(1, 4\) \(repeats, "
                                               r"instances\); got dtype float64 and shape \(3,\)"),
    ({"y_score": np.zeros((1, 4, 2))}, ValueError, r"shape \(1, 4\) .*got dtype float64 and shape \(1, 4, 2\)"),
    ({"y_score": ["a", "b", "c", "d"]}, ValueError, r"y_score must be a numeric array .*got dtype <U1"),
    ({"y_score": [0.2, np.nan, 0.7, 0.9]}, ValueError,
     r"y_score holds NaN or infinity in 1 of 4 entries \(first: nan at index \(0, 1\)\); scores must be finite"),
    ({"y_score": [0.2, 0.4, np.inf, -np.inf]}, ValueError,
     r"y_score holds NaN or infinity in 2 of 4 entries \(first: inf at index \(0, 2\)\)"),
    ({"response_method": "predict"}, ValueError, "response_method must be one of 'predict_proba', "
                                                 "'decision_function', or None; got response_method='predict'"),
    ({"classification": False, "y_true": [0.5, 1.5, 0.5, 1.5], "y_pred": [0.5, 0.5, 1.5, 1.5]}, ValueError,
     "y_score holds a classifier's scores, and this record holds no class labels"),
])
def test_the_constructor_refuses_scores_that_do_not_fit_the_record(kw, error, match):
    with pytest.raises(error, match=match):
        _scored(**kw)


@pytest.mark.parametrize("tamper, match", [
    (lambda d: d.update(response_method=None), "CVResult.y_score is an array but CVResult.response_method is None"),
    (lambda d: d.update(y_score=None), "CVResult.y_score is None but CVResult.response_method is 'predict_proba'"),
    (lambda d: d["y_score"].update(dtype="<f4"), r"CVResult.y_score must be an array of dtype float64 \('<f8'\), "
                                                 r"as to_dict\(\) writes it; got float32"),
    (lambda d: d["y_score"].update(array=[0.2, "inf", 0.7, 0.9]), r"CVResult.y_score holds NaN or infinity"),
    (lambda d: d["y_score"].update(array=[0.2, "nan", 0.7, 0.9]), r"CVResult.y_score holds NaN or infinity"),
    (lambda d: d["y_score"].update(array=[0.5] * 8, shape=[1, 4, 2]),
     r"CVResult.y_score must have the shape \(1, 4\) \(repeats, instances, classes beyond two\); got \(1, 4, 2\)"),
    (lambda d: d.update(response_method="predict"), "CVResult.response_method must be one of 'predict_proba'"),
    (lambda d: d.pop("y_score"), "has no key 'y_score'"),
])
def test_from_dict_refuses_scores_that_to_dict_did_not_write(tamper, match):
    data = _scored_written()
    tamper(data)
    with pytest.raises(ValueError, match=match):
        cvi.CVResult.from_dict(data)


# Issue 45, item 5: scores were float32, which tied every probability above 1 - 3e-8.
def test_probabilities_within_3e_8_of_one_keep_their_order_and_sklearn_s_auc():
    # Oracle: sklearn's roc_auc_score on the scores as given, 0.75; float32 made 1 - 1e-9 and 1 - 1e-12 both
    # 1.0, a tie between a negative and a positive, and gave 0.625.
    y_true, y_score = [0, 0, 1, 1], [0.2, 1 - 1e-9, 0.3, 1 - 1e-12]
    result = cvi.CVResult(y_true=y_true, y_pred=[0, 1, 0, 1], fold=[0, 1, 0, 1], y_score=y_score,
                          response_method="predict_proba")
    np.testing.assert_array_equal(result.y_score, [y_score])
    assert roc_auc_score(y_true, y_score) == 0.75
    with pytest.warns(InferenceWarning, match="clipped to it"):  # four instances: the interval leaves [0, 1]
        assert cvi.metric_interval(result, "roc_auc", method="delong").estimate == 0.75
    assert cvi.CVResult.from_json(result.to_json()) == result


def test_float32_scores_given_to_the_constructor_are_kept_as_float64_silently():
    given = np.array([0.2, 0.4, 0.7, 0.9], dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = _scored(y_score=given)
    assert result.y_score.dtype == np.float64
    np.testing.assert_array_equal(result.y_score[0], given)  # each float32 is exactly a float64
    assert not np.shares_memory(result.y_score, given) and given.flags.writeable  # the caller's array untouched


def test_the_frame_has_a_column_of_scores_per_class_beyond_two():
    pytest.importorskip("pandas")
    assert _scored().to_frame()["y_score"].tolist() == pytest.approx([0.2, 0.4, 0.7, 0.9])
    three = cvi.CVResult(y_true=["a", "b", "c", "a"], y_pred=["a", "b", "c", "b"], fold=[0, 0, 1, 1],
                         y_score=np.eye(3)[[0, 1, 2, 1]], response_method="predict_proba")
    frame = three.to_frame()
    assert [name for name in frame.columns if name.startswith("y_score")] == ["y_score_a", "y_score_b", "y_score_c"]
    assert frame["y_score_b"].tolist() == [0, 1, 0, 1]
    pair = cvi.PairedCVResult(_scored(), _scored(y_score=[0.1, 0.2, 0.3, 0.4])).to_frame()
    assert pair["y_score_b"].tolist() == pytest.approx([0.1, 0.2, 0.3, 0.4])


@pytest.mark.parametrize("y_score, message", [
    ([[.2, .8, 0.], [.1, .1, .8], [7., 0., 0.], [.3, .3, .4]], r"1 of 12 entries are outside \[0, 1\] \(first: 7.0"),
    ([[.2, .8, 0.], [1., 1., 0.], [.5, .5, 0.], [.3, .3, .4]], r"1 of its rows do not sum to 1 \(first: 2.0"),
    ([[.2, .8, 0.], [.1, .1, .8], [-1., 1., 1.], [.3, .3, .4]], r"outside \[0, 1\] \(first: -1.0"),
])
def test_kept_probabilities_are_checked_when_made_and_when_read(y_score, message):
    # issue 46: one validator for the constructor and from_dict (which builds the record through it)
    from cvinference._utils._serialize import encode

    y = np.array([0, 1, 2, 1])
    fold = np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match=message):
        CVResult(y, y, fold, y_score=np.array(y_score), response_method="predict_proba")
    good = CVResult(y, y, fold, y_score=np.array([[.2, .8, 0.], [.1, .1, .8], [.5, .5, 0.], [.3, .3, .4]]),
                    response_method="predict_proba")
    data = good.to_dict()
    data["y_score"] = encode(np.array(y_score, dtype=np.float64)[np.newaxis])  # as to_dict() writes an array
    with pytest.raises(ValueError, match=message):
        CVResult.from_dict(json.loads(json.dumps(data)))


def _dict_with(record, **changes):
    data = record.to_dict()
    return data | changes


def test_from_dict_refuses_an_unknown_loss_name_without_losses_naming_the_known_ones():
    """Issue 58: from_dict took loss_name='banana' for a record of 0/1 losses; a loss of one's own keeps its values."""
    record = CVResult(y_true=[0, 1, 0, 1, 0, 1], y_pred=[0, 1, 1, 1, 0, 0], fold=[0, 1] * 3)
    with pytest.raises(ValueError, match=r"loss_name='banana' is no loss this package knows \('absolute_error', "
                                         r"'brier', 'log_loss', 'squared_error', 'zero_one'\)"):
        CVResult.from_dict(_dict_with(record, loss_name="banana"))
    own = CVResult(y_true=[0, 1, 0, 1], y_pred=[0, 1, 1, 1], fold=[0, 1] * 2, loss=[0.0, 0.0, 5.0, 0.0],
                   loss_name="cost")
    assert CVResult.from_dict(own.to_dict()).mean_loss == 1.25  # (0 + 0 + 5 + 0) / 4


def test_a_negative_value_of_a_built_in_loss_is_refused_naming_the_instance():
    """Issue 58: from_dict took a negative log loss; -ln p >= 0 for p <= 1, and every built-in loss is >= 0."""
    logs = CVResult(y_true=[0, 1, 0, 1], y_pred=[0, 1, 1, 1], fold=[0, 1] * 2, loss=[0.1, 0.2, 2.0, 0.3],
                    loss_name="log_loss")
    data = logs.to_dict()
    data["loss"] = data["loss"] | {"array": [0.1, -0.2, 2.0, 0.3]}
    with pytest.raises(ValueError, match=r"loss holds -0\.2 \(instance 1 in repeat 0\) under loss_name='log_loss', "
                                         r"and a log loss \(-ln p with p <= 1\) is >= 0"):
        CVResult.from_dict(data)
    with pytest.raises(ValueError, match=r"under loss_name='squared_error', and the loss 'squared_error' is >= 0"):
        CVResult(y_true=[0.5, 1.5], y_pred=[0.5, 1.0], fold=[0, 1], loss=[0.0, -0.25], loss_name="squared_error")
    gains = CVResult(y_true=[0, 1], y_pred=[0, 0], fold=[0, 1], loss=[-1.0, 2.0], loss_name="utility")
    assert gains.mean_loss == 0.5  # a loss of one's own may be negative: (-1 + 2) / 2
