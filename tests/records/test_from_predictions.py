"""Records from the predictions users already have (issue 47, item 1): CVResult.from_predictions, from_frame and
evaluation.from_cross_validate, checked as the evaluator's records are.

The oracle of "the same record" is the evaluator itself: on the folds it draws, scikit-learn's cross_validate and
cross_val_predict fit the same clones on the same rows, so the records, and every interval and test computed from
them, must agree to the last digit.
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    cross_val_predict,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference import CVResult, PairedCVResult
from cvinference.evaluation import from_cross_validate

X, Y = load_breast_cancer(return_X_y=True)
FOLDS = StratifiedKFold(5, shuffle=True, random_state=0)
LOGISTIC = make_pipeline(StandardScaler(), LogisticRegression())
TREE = DecisionTreeClassifier(max_depth=3, random_state=0)


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _cross_validated(estimator, cv=FOLDS, X=X, y=Y):
    results = cross_validate(estimator, X, y, cv=cv, return_indices=True, return_estimator=True)
    return from_cross_validate(results, X, y, response_method="auto")


def _same_figures(first, second):
    fields = ("estimate", "low", "high")
    return all(getattr(first, field) == getattr(second, field) for field in fields)


def test_cross_validate_output_gives_the_evaluators_record_and_every_figure_to_the_last_digit():
    """Issue 47, "done when": the record of cross_validate's fold models equals the evaluator's on the same folds,
    and so do the intervals and tests computed from them (== on every figure, no tolerance)."""
    ours = cvi.CVEvaluator(FOLDS, response_method="auto").compare(LOGISTIC, TREE, X, Y)
    theirs = PairedCVResult(_cross_validated(LOGISTIC), _cross_validated(TREE))
    for mine, given in ((ours.a, theirs.a), (ours.b, theirs.b)):
        np.testing.assert_array_equal(given.fold, mine.fold)
        np.testing.assert_array_equal(given.y_pred, mine.y_pred)
        np.testing.assert_array_equal(given.y_score, mine.y_score)
        assert given.response_method == mine.response_method and given.estimator_repr == mine.estimator_repr
        for options in ({"method": "normal"}, {"method": "wilson"}, {"method": "clopper-pearson"},
                        {"method": "t", "averaging": "fold"}):
            assert _same_figures(_quiet(cvi.accuracy_interval, given, **options),
                                 _quiet(cvi.accuracy_interval, mine, **options))
        for metric in ("roc_auc", "f1"):
            assert _same_figures(_quiet(cvi.metric_interval, given, metric), _quiet(cvi.metric_interval, mine, metric))
    for test in (cvi.mcnemar_test, cvi.corrected_resampled_ttest, cvi.matched_sample_test):
        given, mine = _quiet(test, theirs), _quiet(test, ours)
        assert (given.statistic, given.pvalue) == (mine.statistic, mine.pvalue)
    assert _quiet(cvi.decide, theirs).answer == _quiet(cvi.decide, ours).answer


def test_cross_val_predict_with_its_splitter_or_its_splits_gives_the_evaluators_record():
    predictions = cross_val_predict(GaussianNB(), X, Y, cv=FOLDS)
    expected = cvi.CVEvaluator(FOLDS).evaluate(GaussianNB(), X, Y)
    for fold in (FOLDS, list(FOLDS.split(X, Y)), FOLDS.split(X, Y)):
        record = CVResult.from_predictions(Y, predictions, fold=fold)
        np.testing.assert_array_equal(record.fold, expected.fold)
        assert record.accuracy == expected.accuracy and record.n_splits == 5
    assert CVResult.from_predictions(Y, predictions, fold=FOLDS).cv_repr == repr(FOLDS)


def test_repeated_folds_from_cross_validate_and_as_one_long_table_agree():
    repeated = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=0)
    record = _quiet(_cross_validated, GaussianNB(), repeated)
    assert (record.n_repeats, record.n_splits) == (3, 5)
    assert (record.fold_sizes.sum(axis=1) == Y.size).all()
    rng = np.random.default_rng(0)
    instances = rng.permutation(Y.size)  # one order of the instances, the same in every repeat
    rows = np.concatenate([r * Y.size + instances for r in rng.permutation(3)])  # the repeats in any order
    repeat = np.repeat(["r1", "r2", "r3"], Y.size)
    again = CVResult.from_predictions(np.tile(Y, 3)[rows], record.y_pred.ravel()[rows], fold=record.fold.ravel()[rows],
                                      repeat=repeat[rows])
    np.testing.assert_array_equal(again.fold, record.fold[:, instances])
    np.testing.assert_array_equal(again.y_pred, record.y_pred[:, instances])


def test_a_single_evaluation_set_is_one_fold_and_says_so():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    predicted = np.where(rng.random(300) < 0.8, y, 1 - y)
    record = CVResult.from_predictions(y, predicted)
    assert (record.n_splits, record.n_repeats, record.n_train) == (1, 1, None)
    assert record.cv_repr == "a single evaluation set"
    assert record.accuracy == np.mean(y == predicted)  # the hand computation: the share of rows predicted right
    assert record.to_dict() == CVResult.from_dict(record.to_dict()).to_dict()


def test_a_regression_target_records_squared_errors_by_default():
    Xr, yr = load_diabetes(return_X_y=True)
    predictions = cross_val_predict(LinearRegression(), Xr, yr, cv=KFold(5))
    record = CVResult.from_predictions(yr, predictions, fold=KFold(5))
    assert record.classes is None and record.loss_name == "squared_error"
    assert record.mean_loss == pytest.approx(mean_squared_error(yr, predictions), rel=1e-12)  # sklearn's oracle
    absolute = CVResult.from_predictions(yr, predictions, loss="absolute_error")
    assert absolute.mean_loss == pytest.approx(np.mean(np.abs(yr - predictions)), rel=1e-12)


def test_scores_two_columns_of_probabilities_keep_the_second_class_and_are_told_apart_from_decision_values():
    proba = cross_val_predict(GaussianNB(), X, Y, cv=FOLDS, method="predict_proba")
    predicted = proba.argmax(axis=1)
    record = CVResult.from_predictions(Y, predicted, fold=FOLDS, y_score=proba)
    assert record.response_method == "predict_proba"
    np.testing.assert_array_equal(record.y_score[0], proba[:, 1])
    decision = cross_val_predict(LOGISTIC, X, Y, cv=FOLDS, method="decision_function")
    assert CVResult.from_predictions(Y, (decision > 0).astype(int), fold=FOLDS,
                                     y_score=decision).response_method == "decision_function"
    Xi, yi = load_iris(return_X_y=True)
    proba3 = cross_val_predict(GaussianNB(), Xi, yi, cv=StratifiedKFold(5), method="predict_proba")
    three = CVResult.from_predictions(yi, proba3.argmax(axis=1), fold=StratifiedKFold(5), y_score=proba3)
    assert three.y_score.shape == (1, 150, 3) and three.response_method == "predict_proba"


def test_from_frame_reads_named_columns_as_from_predictions_reads_arrays():
    pd = pytest.importorskip("pandas")
    predictions = cross_val_predict(GaussianNB(), X, Y, cv=FOLDS)
    fold = np.empty(Y.size, dtype=int)
    for j, (_, test) in enumerate(FOLDS.split(X, Y)):
        fold[test] = j
    table = pd.DataFrame({"label": Y, "pred": predictions, "fold": fold, "passage": np.arange(Y.size) // 4})
    record = CVResult.from_frame(table, y_true="label", y_pred="pred", fold="fold", groups="passage")
    expected = CVResult.from_predictions(Y, predictions, fold=fold, groups=np.arange(Y.size) // 4)
    assert record.to_dict() == expected.to_dict()
    with pytest.raises(ValueError, match=r"^y_pred='Pred' is not a column of the table \(did you mean 'pred'\?\)"):
        CVResult.from_frame(table, y_true="label", y_pred="Pred")


def test_from_frame_reads_polars_as_pandas():
    pl = pytest.importorskip("polars")
    table = pl.DataFrame({"label": [0, 1, 1, 0, 1, 0], "pred": [0, 1, 0, 0, 1, 1], "fold": [0, 0, 0, 1, 1, 1]})
    record = CVResult.from_frame(table, y_true="label", y_pred="pred", fold="fold")
    assert record.fold_accuracy.tolist() == [[2 / 3, 2 / 3]]


def test_two_records_on_other_folds_are_refused_as_a_pair_naming_the_fix():
    predictions = cross_val_predict(GaussianNB(), X, Y, cv=FOLDS)
    a = CVResult.from_predictions(Y, predictions, fold=FOLDS)
    b = CVResult.from_predictions(Y, predictions, fold=KFold(5))
    with pytest.raises(ValueError, match=r"give both CVResult\.from_predictions the same fold of each row"):
        PairedCVResult(a, b)
    with pytest.raises(ValueError, match=r"make both records with CVResult\.from_predictions from the same rows"):
        PairedCVResult(a, CVResult.from_predictions(Y[::-1], predictions, fold=FOLDS))


Y8 = np.array([0, 1, 1, 0, 1, 0, 1, 1])
P8 = np.array([0, 1, 0, 0, 1, 1, 1, 1])


@pytest.mark.parametrize("arguments, error, message", [
    (dict(y_pred=P8[:-1]), ValueError, r"^y_pred has 7 rows and y_true has 8; give one value per row"),
    (dict(y_pred=np.where(P8 == 1, np.nan, 0.0)), ValueError, r"^y_pred contains NaN, infinity or None in 5 of 8"),
    (dict(fold=[0, 0, 0, 0, 1, 1, 1, None]), ValueError, r"^fold contains NaN, infinity or None in 1 of 8"),
    (dict(fold=[0.5] * 8), ValueError, r"^fold must hold identifiers \(integers or strings\); got 0.5"),
    (dict(repeat=[0, 0, 0, 0, 0, 1, 1, 1]), ValueError, r"^repeat 1 has 3 rows and repeat 0 has 5; every repeat"),
    (dict(repeat=[0, 0, 0, 0, 1, 1, 1, 1]), ValueError, r"^the rows of repeat 1 do not hold the y_true of repeat 0"),
    (dict(classes=[0, 2]), ValueError, r"^y_true or y_pred holds the label 1, which classes \(\[0, 2\]\) does not"),
    (dict(classes=[0, 1, 2]), ValueError, r"^classes lists 2, which neither y_true nor y_pred holds"),
    (dict(y_score=np.ones((8, 3))), ValueError, r"^y_score has 3 columns and the record has 2 classes"),
    (dict(y_score=np.ones(7)), ValueError, r"^y_score must have one row per row of y_true"),
    (dict(y_score=np.array(["a"] * 8)), TypeError, r"^y_score must hold numbers"),
    (dict(response_method="predict_proba"), ValueError, r"^response_method='predict_proba' names the method that"),
    (dict(loss="log_loss"), ValueError, r"^loss='log_loss' needs probabilities; record the labels' loss here"),
    (dict(y_true=np.array(list("abba" * 2)), y_pred=np.array(list("abab" * 2)), loss="squared_error"), ValueError,
     r"^loss='squared_error' is a regression loss, and y_true or y_pred holds text"),
    (dict(fold=KFold(2, shuffle=True)), ValueError, r"gives other folds at every call \(it shuffles without a fixed"),
    (dict(fold=RepeatedStratifiedKFold(n_splits=2, n_repeats=2, random_state=0)), ValueError,
     r"^the splits make 2 repeats of the 8 instances, and cross_val_predict gives one prediction per instance"),
    (dict(fold=[(np.arange(4, 8), np.arange(4))]), ValueError, r"^fold: instance 4 is in no test part of repeat 0"),
    (dict(fold=KFold(2), repeat=[0] * 8), ValueError, r"^fold is a splitter and repeat is given"),
])
def test_what_does_not_describe_a_record_is_refused_naming_the_piece_and_the_fix(arguments, error, message):
    with pytest.raises(error, match=message):
        CVResult.from_predictions(**({"y_true": Y8, "y_pred": P8} | arguments))


@pytest.mark.parametrize("splitter", [KFold(2, shuffle=True),
                                      KFold(2, shuffle=True, random_state=np.random.RandomState(0)),
                                      RepeatedKFold(n_splits=2, n_repeats=2)], ids=["none", "generator", "repeated"])
def test_an_unseeded_shuffle_is_refused_even_where_two_of_its_draws_agree(splitter):
    """On 4 rows, two 2-fold shuffles agree one time in three: the splitter's settings, not its draws, decide."""
    for _ in range(20):
        with pytest.raises(ValueError, match=r"gives other folds at every call"):
            CVResult.from_predictions([0, 1, 0, 1], [0, 1, 1, 1], fold=splitter)


def test_a_group_splitter_reads_the_groups():
    groups = np.arange(Y.size) // 5
    predictions = cross_val_predict(GaussianNB(), X, Y, cv=GroupKFold(5), groups=groups)
    record = CVResult.from_predictions(Y, predictions, fold=GroupKFold(5), groups=groups)
    expected = cvi.CVEvaluator(GroupKFold(5)).evaluate(GaussianNB(), X, Y, groups)
    np.testing.assert_array_equal(record.fold, expected.fold)
    assert record.n_groups == len(np.unique(groups))


@pytest.mark.parametrize("results, message", [
    ({}, r"^cv_results has no 'estimator': call cross_validate\(\.\.\., return_estimator=True, "
         r"return_indices=True\)"),
    ([], r"^cv_results must be the dict cross_validate returns"),
])
def test_cross_validate_output_without_its_models_or_indices_is_refused(results, message):
    with pytest.raises((TypeError, ValueError), match=message):
        from_cross_validate(results, X, Y)


def test_cross_validate_of_shuffle_split_is_not_a_record_of_cross_validation():
    from sklearn.model_selection import ShuffleSplit

    results = cross_validate(GaussianNB(), X, Y, cv=ShuffleSplit(3, random_state=0), return_indices=True,
                             return_estimator=True)
    with pytest.raises(ValueError, match=r"^cv_results: splits 0 and 1 both test rows \[\d+.*\] before repeat 0 has "
                                         r"tested every instance once; .* a ShuffleSplit's test parts do not"):
        from_cross_validate(results, X, Y)


def test_every_record_has_a_table_and_polars_gets_the_same_columns():
    """Issue 47, item 5: to_frame on every record (pandas); report.to_polars gives any table as polars."""
    pytest.importorskip("pandas")
    from cvinference import records
    from cvinference.report import to_polars

    from result_cases import result_cases

    made = {type(result).__name__: result for _, result in _quiet(result_cases)}
    classes = [getattr(records, name) for name in records.__all__ if name not in ("Loss", "make_loss", "make_log_loss")]
    for cls in classes:
        record = made[cls.__name__]
        frame = record.to_frame()
        assert len(frame) > 0 and len(frame.columns) >= 3, cls.__name__
        pl = pytest.importorskip("polars")
        polars_frame = to_polars(record)
        assert isinstance(polars_frame, pl.DataFrame) and polars_frame.columns == [str(c) for c in frame.columns]
        assert polars_frame.height == len(frame)


def test_scores_in_the_order_of_the_classes_given_are_kept_in_the_records_order():
    """Review find: classes=["b", "a"] with y_score columns in that order kept P(a) as the score of "b" (AUC 0 for
    1). The oracle: sklearn's roc_auc_score on the positive class's probability."""
    from sklearn.metrics import roc_auc_score

    labels = np.array(["a", "b"] * 10)
    p_b = np.where(labels == "b", 0.9, 0.2)
    straight = CVResult.from_predictions(labels, labels, y_score=np.column_stack([1 - p_b, p_b]))
    turned = CVResult.from_predictions(labels, labels, y_score=np.column_stack([p_b, 1 - p_b]), classes=["b", "a"])
    one_column = CVResult.from_predictions(labels, labels, y_score=1 - p_b, classes=["b", "a"])
    expected = roc_auc_score(labels == "b", p_b)
    for record in (straight, turned, one_column):
        np.testing.assert_allclose(record.y_score[0], p_b)
        assert _quiet(cvi.metric_interval, record, "roc_auc").estimate == pytest.approx(expected)


@pytest.mark.parametrize("arguments, message", [
    (dict(fold=[[np.arange(8), np.arange(4)]]),
     r"^fold: split 0 puts 4 of its test rows in its own training set \(rows \[0, 1, 2, 3\]\)"),
    (dict(fold=[[np.arange(4, 8), np.arange(4)], [np.arange(4), np.arange(4, 8)]]), None),
    (dict(y_score=0.5), r"^y_score must have one row per row of y_true"),
])
def test_splits_as_lists_scalars_and_overlapping_parts(arguments, message):
    if message is None:
        assert CVResult.from_predictions(Y8, P8, **arguments).fold.tolist() == [[0, 0, 0, 0, 1, 1, 1, 1]]
        return
    with pytest.raises(ValueError, match=message):
        CVResult.from_predictions(Y8, P8, **arguments)


def test_cross_validate_output_of_other_data_is_refused_naming_x_and_y():
    results = cross_validate(GaussianNB(), X, Y, cv=KFold(3), return_indices=True, return_estimator=True)
    with pytest.raises(ValueError, match=r"^cv_results: split 0's (train|test) part holds row \d+, outside 0 \.\. 99; "
                                         r"the splits must be of the 100 rows of X and y, as cross_validate was given"):
        from_cross_validate(results, X[:100], Y[:100])
    with pytest.raises(ValueError, match=r"^X has 569 rows and y 100"):
        from_cross_validate(results, X, Y[:100])


def test_groups_of_another_length_than_x_are_refused_before_any_prediction():
    """Issue 58: groups one short of X's rows raised IndexError (one long passed silently)."""
    X150, y150 = X[:150, :5], Y[:150]
    results = cross_validate(GaussianNB(), X150, y150, return_indices=True, return_estimator=True)
    for n_groups in (149, 151):
        with pytest.raises(ValueError, match=rf"^groups has {n_groups} entries but X has 150 rows\. Pass one group "):
            from_cross_validate(results, X150, y150, groups=np.arange(n_groups))
    kept = from_cross_validate(results, X150, y150, groups=np.arange(150) // 3)
    np.testing.assert_array_equal(kept.groups, np.arange(150) // 3)


def test_a_continuous_target_with_a_classification_loss_is_refused_as_the_evaluator_refuses_it():
    """Issue 58: 150 distinct continuous values under loss='zero_one' gave accuracy 0.0067; the rule is
    sklearn's type_of_target, the one the evaluator uses, so both refuse the same target with the same fix."""
    rng = np.random.default_rng(0)
    yc = rng.normal(size=150)
    pc = yc + rng.normal(size=150)
    fold = np.arange(150) % 5
    with pytest.raises(ValueError, match=r"^loss='zero_one' needs class labels, but y_true is continuous \(for "
                                         r"example y_true\[0\]=0\.12.*loss='squared_error' or loss='absolute_error'"):
        CVResult.from_predictions(yc, pc, fold=fold, loss="zero_one")
    with pytest.raises(ValueError, match=r"^loss='zero_one' needs class labels, but y is continuous"):
        cvi.CVEvaluator(5, loss="zero_one").evaluate(LinearRegression(), X[:150, :5], yc)
    assert CVResult.from_predictions(yc, pc, fold=fold).loss_name == "squared_error"
    whole = CVResult.from_predictions(np.round(yc * 3), np.round(pc * 3), fold=fold, loss="zero_one")
    assert whole.accuracy == np.mean(np.round(yc * 3) == np.round(pc * 3))  # whole numbers are labels


def test_probabilities_given_as_predictions_of_labels_are_refused_naming_y_score():
    proba = np.clip(Y8 * 0.8 + 0.1, 0, 1)
    with pytest.raises(ValueError, match=r"^loss='zero_one' compares class labels, and y_pred holds 0\.1, which is "
                                         r"no label of y_true; pass the predicted labels as y_pred .* as y_score"):
        CVResult.from_predictions(Y8, proba, loss="zero_one")
