"""The bad-input generator of the newer parts (issue 46, item 5): inputs that carry meaning, not parameter values.

``tests/test_parameter_validation.py`` generates a parameter's bad values from its rule; what no rule can say
(an interval of other learners, a score out of range, a target float64 cannot square twice, too few groups) is
listed here, one row per case, by part: the decision's inputs, plots, kept scores, regression edge targets and the
refitting methods with groups. Each row is a call and what it must give: an error of its type whose message holds
the words naming the input, the value and the fix, before any fit (the learners count their fits); or, where the
case is degenerate but computable, the value with the warning. ``test_every_part_has_its_rows`` keeps each part
covered. Two parts are generated elsewhere, type by type, so that a new type cannot skip them: every result's
``from_json`` (``tests/test_from_json_errors.py``) and every ``plot()``'s ``ax`` and ``path``
(``tests/report/test_one_plot_rule.py``); the command line's cases are in ``tests/cli``.
"""

import functools
import os
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import TimeSeriesSplit, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference._utils._warnings import InferenceWarning
from cvinference.evaluation import from_cross_validate
from cvinference.records import ForwardResult
from cvinference.splitters import ForwardSplit

from counted_fits import CountedLinear, CountedNB


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


X, Y = make_classification(n_samples=60, n_features=4, n_informative=3, n_redundant=0, random_state=0)
NB, STUMP = GaussianNB(), DecisionTreeClassifier(max_depth=1, random_state=0)
PAIR = _quiet(cvi.CVEvaluator(3, random_state=0).compare, NB, STUMP, X, Y)
OTHER_FOLDS = _quiet(cvi.CVEvaluator(3, random_state=1).compare, NB, STUMP, X, Y)
NESTED = functools.partial(_quiet, cvi.nested_cv_interval, n_splits=3, n_repeats=1, random_state=0)
LABELS = np.array([0, 1] * 10)
R = X[:, 0] + X[:, 1]
FIT = "fits"  # the row's call fits models: it must refuse before the first


def _decide(**kwargs):
    return cvi.decide(PAIR, **kwargs)


def _scores(y_score, response_method, y_true=LABELS):
    return cvi.CVResult(y_true=y_true, y_pred=y_true, fold=np.arange(y_true.size) % 2, y_score=y_score,
                        response_method=response_method)


def _evaluate_regression(y, **kwargs):
    return cvi.evaluate(CountedLinear(), X, y, cv=3, random_state=0, **kwargs)


FORWARD = ForwardSplit(5, horizon=3)
"""Forward validation of the 60 rows: 5 origins, the first at row 44 (15 forecasts)."""


def _forecasts(front_door, **kwargs):
    """``cvi.evaluate`` or ``cvi.compare`` of forecasters of ``R`` (a learner that counts its fits first)."""
    learners = (CountedLinear(),) if front_door is cvi.evaluate else (CountedLinear(), LinearRegression())
    return front_door(*learners, X, R, **{"cv": FORWARD, **kwargs})


def _forward_pair():
    return cvi.CVEvaluator(cv=FORWARD, loss="squared_error").compare(
        LinearRegression(), LinearRegression(fit_intercept=False), X, R)


def _newest_first(data):
    """``data`` as pandas, indexed by days that run from newest to oldest (forward validation needs oldest first)."""
    pd = pytest.importorskip("pandas")
    index = pd.date_range("2020-01-01", periods=len(data), freq="D")[::-1]
    return pd.DataFrame(data, index=index) if np.ndim(data) == 2 else pd.Series(data, index=index)


def _constant_loss(n=30):
    """A record of ``n`` one-step forecasts, each off by 1 (squared error 1)."""
    rows = np.arange(40, 40 + n)
    return ForwardResult.from_forecasts(np.zeros(80), np.ones(n), time=rows, origin=rows - 1, train_size="expanding")


def _in_a_folder_that_is_a_file(tmp):
    blocker = os.path.join(tmp, "a_file")
    open(blocker, "w").close()
    return os.path.join(blocker, "figure.png")


@functools.cache
def _regressors_pair():
    """Two regressors' squared-error records, the plan's pilot and a pair for nested intervals of other losses."""
    return _quiet(cvi.CVEvaluator(3, loss="squared_error", random_state=0).compare, LinearRegression(),
                  LinearRegression(fit_intercept=False), X, R)


def _nested_of_regressors(loss):
    return NESTED(LinearRegression(), X, R, estimator_b=LinearRegression(fit_intercept=False), loss=loss)


def _decision_test(estimate, low, high):
    return cvi.results.DecisionTest(name="corrected t (1x3-fold)", estimate=estimate, low=low, high=high, pvalue=0.5,
                                    target="unconditional", measured_type_i=None, measured_power=None, regime="",
                                    role="context", why_not="")


@functools.cache
def _cross_validated(cv=3):
    """scikit-learn's cross_validate of the naive Bayes on 3 folds (or ``cv``), its models and indices kept."""
    X_cv, y_cv = (X, Y) if cv == 3 else (X, R)
    learner = NB if cv == 3 else LinearRegression()
    return cross_validate(learner, X_cv, y_cv, cv=cv, return_indices=True, return_estimator=True)


def _tampered_splits(change):
    """``_cross_validated()`` with its (train, test) parts as ``change(train, test)`` leaves the lists of them."""
    results = _cross_validated()
    train, test = ([np.array(part) for part in results["indices"][key]] for key in ("train", "test"))
    change(train, test)
    return results | {"indices": {"train": train, "test": test}}


# part -> {case: (call, expected, words)}; expected is an exception class, or a warning class for a value given
# with its warning; call takes the test's tmp_path.
CASES = {
    "decision": {
        "tests=5": (lambda tmp: _decide(tests=5), TypeError, ["tests must be a list of (name, TestResult) pairs"]),
        "tests=[5]": (lambda tmp: _decide(tests=[5]), TypeError, ["tests[0] must be a (name, TestResult) pair"]),
        "tests=[('x', 5)]": (lambda tmp: _decide(tests=[("x", 5)]), TypeError, ["tests[0]", "('x', 5)"]),
        "a test of other folds": (lambda tmp: _decide(tests=[("McNemar", cvi.mcnemar_test(OTHER_FOLDS))]),
                                  ValueError, ["tests[0] ('McNemar') was not computed on this pair: the folds"]),
        "a test with A and B swapped": (lambda tmp: _decide(tests=[("McNemar", cvi.mcnemar_test(PAIR.b, PAIR.a))]),
                                        ValueError, ["the learners (others, or A and B the other way round)"]),
        "nested=5": (lambda tmp: _decide(nested=5), TypeError, ["nested must be nested cross-validation's"]),
        "nested='x'": (lambda tmp: _decide(nested="x"), TypeError, ["nested must be", "got str 'x'"]),
        "nested=a test": (lambda tmp: _decide(nested=cvi.mcnemar_test(PAIR)), TypeError, ["got McNemarTestResult"]),
        "nested=one learner's interval": (lambda tmp: _decide(nested=cvi.accuracy_interval(PAIR.a)), ValueError,
                                          ["which is not a difference of A and B"]),
        "nested of the learners swapped": (lambda tmp: _decide(nested=NESTED(STUMP, X, Y, estimator_b=NB)),
                                           ValueError, ["nested was not computed on this pair: the learners"]),
        "nested of other rows": (lambda tmp: _decide(nested=NESTED(NB, X[::-1], Y[::-1], estimator_b=STUMP)),
                                 ValueError, ["nested was not computed on this pair: the rows"]),
        "a callable metric giving NaN": (lambda tmp: _decide(metric=lambda t, p: float("nan")), ValueError,
                                         ["gave NaN or infinity on fold 0 of repeat 0"]),
        "metric='log_loss'": (lambda tmp: _decide(metric="log_loss"), ValueError, ["'log_loss'", "neg_log_loss"]),
        "a test read back from JSON": (lambda tmp: _decide(tests=[("McNemar", type(cvi.mcnemar_test(PAIR)).from_json(
            cvi.mcnemar_test(PAIR).to_json()))]), InferenceWarning, ["carries no record of the data, learners"]),
        "tests beside metric='f1'": (lambda tmp: _decide(metric="f1", tests=[("McNemar", cvi.mcnemar_test(PAIR))]),
                                     InferenceWarning, ["tests is about accuracy", "does not read it"]),
    },
    "plots": {
        "plot(nested=5)": (lambda tmp: PAIR.plot(nested=5), TypeError, ["nested must be nested cross-validation's"]),
        "plot(nested=swapped)": (lambda tmp: PAIR.plot(nested=NESTED(STUMP, X, Y, estimator_b=NB)), ValueError,
                                 ["nested was not computed on this pair"]),
        "plot(ax=5)": (lambda tmp: cvi.accuracy_interval(PAIR.a).plot(ax=5), ValueError,
                       ["ax must be a matplotlib Axes", "got 5"]),
        "plot(path=a directory)": (lambda tmp: cvi.decide(PAIR).plot(path=tmp), ValueError,
                                   ["cannot be written (a directory)", "path=None to draw without saving"]),
        "plot(path=in a file)": (lambda tmp: PAIR.plot(path=_in_a_folder_that_is_a_file(tmp)), ValueError,
                                 ["cannot be written (no such folder)"]),
        "plot(path=5)": (lambda tmp: cvi.mcnemar_test(PAIR).plot(path=5), TypeError, ["path must be None"]),
    },
    "scores": {
        "a probability of 1.5": (lambda tmp: _scores(np.where(LABELS == 1, 1.5, 0.2), "predict_proba"), ValueError,
                                 ["entries are outside [0, 1] (first: 1.5"]),
        "a probability of -1": (lambda tmp: _scores(np.where(LABELS == 1, 0.9, -1.0), "predict_proba"), ValueError,
                                ["outside [0, 1] (first: -1.0"]),
        "rows summing to 2": (lambda tmp: _scores(np.full((30, 3), 2 / 3), "predict_proba",
                                                  np.array([0, 1, 2] * 10)), ValueError,
                              ["30 of its rows do not sum to 1 (first: 2.0"]),
        "an infinite decision value": (lambda tmp: _scores(np.where(LABELS == 1, np.inf, 0.2), "decision_function"),
                                       ValueError, ["y_score holds NaN or infinity", "first: inf"]),
        "scores without their method": (lambda tmp: _scores(np.full(20, 0.5), None), ValueError,
                                        ["y_score and response_method go together"]),
    },
    "regression edge targets": {
        "a target spread of 1e100": (lambda tmp: _evaluate_regression(R * 1e100), ValueError,
                                     ["y spreads over", "beyond the 1e+60", "rescale it"]),
        "a target spread of 1e-100": (lambda tmp: _evaluate_regression(R * 1e-100), ValueError,
                                      ["y spreads over", "below the 1e-60"]),
        "an infinite target": (lambda tmp: _evaluate_regression(np.where(np.arange(60) == 3, np.inf, R)),
                               ValueError, ["y contains NaN, infinity or None in 1 of 60 entries (first at index 3)"]),
        "a constant target's R²": (lambda tmp: cvi.inference.regression_interval(_quiet(
            cvi.CVEvaluator(3, loss="squared_error", random_state=0).evaluate, LinearRegression(), X,
            np.full(60, 3.0)), "r2"), InferenceWarning, ["y is constant (3), so R² = 1 - MSE / var(y) is undefined"]),
    },
    "grouped refitting methods": {
        "nested CV with one group": (lambda tmp: NESTED(CountedNB(), X, Y, groups=np.zeros(60, int)), ValueError,
                                     ["nested cross-validation with groups needs at least 2 groups in every fold"]),
        "nested CV with 10 groups": (lambda tmp: cvi.nested_cv_interval(NB, X, Y, n_splits=3, n_repeats=1,
                                                                        groups=np.arange(60) // 6, random_state=0),
                                     InferenceWarning, ["Only 10 groups"]),
        "5x2cv t with 2 groups": (lambda tmp: cvi.paired_ttest_5x2cv(CountedNB(), NB, X, Y,
                                                                     groups=np.repeat([0, 1], 30)),
                                  ValueError, ["groups holds 2 groups", "needs at least 3 groups"]),
        "5x2cv t with 3 groups": (lambda tmp: cvi.paired_ttest_5x2cv(NB, STUMP, X, Y, groups=np.repeat([0, 1, 2], 20),
                                                                     random_state=0),
                                  InferenceWarning, ["groups holds 3 groups, so each half of 5x2cv holds 1 or 2"]),
        "5x2cv F with 1 group": (lambda tmp: cvi.combined_ftest_5x2cv(CountedNB(), NB, X, Y, groups=np.zeros(60, int)),
                                 ValueError, ["groups holds 1 group"]),
        "groups one short": (lambda tmp: NESTED(CountedNB(), X, Y, groups=np.arange(59)), ValueError,
                             ["groups has 59 entries but X has 60 rows"]),
    },
    # Issue 58: the parts added last (margins and plans, the front door, records from predictions, forecasts).
    "margins and plans": {
        "decide(margin=50)": (lambda tmp: _decide(margin=50), ValueError,
                              ["margin=50 is beyond any difference in 'accuracy'", "[0, 1]",
                               "margin=0.5 for 50 points"]),
        "decide(margin=1e9)": (lambda tmp: _decide(margin=1e9), ValueError, ["margin=1e+09", "below 1"]),
        "decide(metric='f1', margin=1)": (lambda tmp: _decide(metric="f1", margin=1), ValueError,
                                          ["margin=1 is beyond any difference in 'f1'"]),
        "decide(metric=5)": (lambda tmp: _decide(metric=5), TypeError, ["metric must be one of sklearn's scorer names",
                                                                        "got metric=5 (int)"]),
        "metric_interval(metric=None)": (lambda tmp: cvi.metric_interval(PAIR.a, metric=None), TypeError,
                                         ["got metric=None (NoneType)", "a callable (y_true, y_pred) -> float"]),
        "plan('nb', 5)": (lambda tmp: cvi.plan("nb", 5, n_samples=150), TypeError,
                          ["estimator_a must be a scikit-learn estimator instance", "got estimator_a='nb'"]),
        "plan(estimator_b=5)": (lambda tmp: cvi.plan(NB, 5, n_samples=150), TypeError, ["got estimator_b=5"]),
        "plan(difference=2)": (lambda tmp: cvi.plan(NB, STUMP, n_samples=150, difference=2), ValueError,
                               ["difference=2 is beyond any difference in 'accuracy'", "difference=0.02 for 2 points"]),
        "plan(margin=1.5, metric='roc_auc')": (lambda tmp: cvi.plan(NB, STUMP, n_samples=150, margin=1.5,
                                                                    metric="roc_auc"), ValueError,
                                               ["margin=1.5 is beyond any difference in 'roc_auc'"]),
        "plan(metric='roc_auc_ovo')": (lambda tmp: cvi.plan(NB, STUMP, n_samples=150, metric="roc_auc_ovo"),
                                       ValueError, ["metric='roc_auc_ovo'", "whose intervals cvinference does not"]),
        "a regressors' pilot on accuracy": (lambda tmp: cvi.plan(pilot=_regressors_pair(), metric="accuracy"),
                                            ValueError, ["metric='accuracy'", "the pilot's learners are regressors",
                                                         "neg_mean_squared_error", "metric=None: their loss"]),
        "nested of another loss": (lambda tmp: cvi.decide(_regressors_pair(),
                                                          nested=_nested_of_regressors("absolute_error")),
                                   ValueError, ["nested is an interval of the difference in mean absolute_error loss",
                                                "about its mean squared_error loss"]),
        "a DecisionTest's estimate outside its interval": (lambda tmp: _decision_test(0.5, -0.1, 0.2), ValueError,
                                                           ["got estimate=0.5 outside low=-0.1, high=0.2"]),
        # issue 58, the held-out campaign's findings 12 (pos_label), 19 and 20
        "decide(pos_label=1) of two regressors": (lambda tmp: cvi.decide(_regressors_pair(), pos_label=1), ValueError,
                                                  ["pos_label=1 names a positive class", "two regressors' records",
                                                   "drop pos_label"]),
        "decide(pos_label=1) of forecasts": (lambda tmp: cvi.decide(_forward_pair(), pos_label=1), ValueError,
                                             ["pos_label=1", "two regressors' forecasts", "drop pos_label"]),
        "decide(metric=<callable returning 'x'>)": (
            lambda tmp: _decide(metric=lambda y_true, y_pred: "x"), TypeError,
            ["metric must return a number, (y_true, y_pred) -> float", "it returned 'x' (str) on fold 0 of repeat 0"]),
        "plan of a classifier and a regressor": (
            lambda tmp: cvi.plan(NB, LinearRegression(), n_samples=150), ValueError,
            ["estimator_b must do the same task as estimator_a", "estimator_a=GaussianNB(), a classifier",
             "estimator_b=LinearRegression(), a regressor", "Pass two classifiers or two regressors"]),
    },
    "front door": {
        "compare(margin=50)": (lambda tmp: cvi.compare(CountedNB(), STUMP, X, Y, cv=3, margin=50), ValueError,
                               ["margin=50 is beyond any difference in 'accuracy'"]),
        "compare(margin=1.5)": (lambda tmp: cvi.compare(CountedNB(), STUMP, X, Y, cv=3, margin=1.5), ValueError,
                                ["margin=1.5", "margin=0.015 for 1.5 points"]),
        "compare(metric='balanced_accuracy', margin=1)": (
            lambda tmp: cvi.compare(CountedNB(), STUMP, X, Y, cv=3, metric="balanced_accuracy", margin=1), ValueError,
            ["margin=1 is beyond any difference in 'balanced_accuracy'"]),
        "compare(nested='always', budget=20)": (
            lambda tmp: cvi.compare(CountedNB(), STUMP, X, Y, cv=3, nested="always", budget=20), ValueError,
            ["budget=20 allows 20 fits", "nested cross-validation asked for (150 fits) alone needs 156",
             "nested='auto'"]),
        "compare(metric=5)": (lambda tmp: cvi.compare(CountedNB(), STUMP, X, Y, cv=3, metric=5), TypeError,
                              ["got metric=5 (int)"]),
        "compare regressors on accuracy": (
            lambda tmp: cvi.compare(CountedLinear(), LinearRegression(), X, R, cv=3, metric="accuracy"), ValueError,
            ["metric='accuracy' is not a scikit-learn scorer name computable from a regressor's predictions"]),
        # random_state seeds the unset learners too (issue 58, item 4): a bad one is refused before any seed or fit
        "compare(random_state=-1)": (lambda tmp: cvi.compare(CountedNB(), STUMP, X, Y, cv=3, random_state=-1),
                                     ValueError, ["random_state must be None, an integer from 0 to 2**32 - 1",
                                                  "got random_state=-1"]),
        "compare(random_state='0')": (lambda tmp: cvi.compare(CountedNB(), STUMP, X, Y, cv=3, random_state="0"),
                                      TypeError, ["random_state must be None", "got random_state='0'"]),
        "evaluate(random_state=1.5)": (lambda tmp: cvi.evaluate(CountedNB(), X, Y, cv=3, random_state=1.5), TypeError,
                                       ["random_state must be None", "got random_state=1.5"]),
        "evaluate(random_state=2**40)": (lambda tmp: cvi.evaluate(CountedLinear(), X, R, cv=3, random_state=2**40),
                                         ValueError, ["an integer from 0 to 2**32 - 1",
                                                      f"got random_state={2**40}"]),
        # issue 58, the held-out campaign's findings 2 and 12 (pos_label)
        "evaluate(cv=2.0)": (lambda tmp: cvi.evaluate(CountedNB(), X, Y, cv=2.0), TypeError,
                             ["cv must be an int >= 2", "got cv=2.0, a float: pass cv=2"]),
        "compare(cv=None)": (lambda tmp: cvi.compare(CountedNB(), STUMP, X, Y, cv=None), TypeError,
                             ["got cv=None", "scikit-learn's cv=None is 5-fold cross-validation", "pass cv=5"]),
        "evaluate(pos_label=1) of a regressor": (lambda tmp: _evaluate_regression(R, pos_label=1), ValueError,
                                                 ["pos_label=1 names a positive class", "drop pos_label"]),
        "compare(pos_label=1) without a metric about one class": (
            lambda tmp: cvi.compare(CountedNB(), STUMP, X, Y, cv=3, pos_label=1), ValueError,
            ["pos_label=1 is the positive class of a metric about one class", "metric=None asks for none",
             "add such a metric (metric='f1'), or drop pos_label"]),
    },
    "records from predictions": {
        "cross_validate's record with groups one short": (
            lambda tmp: from_cross_validate(cross_validate(NB, X, Y, cv=3, return_indices=True, return_estimator=True),
                                            X, Y, groups=np.arange(59)),
            ValueError, ["groups has 59 entries but X has 60 rows", "one group label per row of X"]),
        "a continuous y_true under loss='zero_one'": (
            lambda tmp: cvi.CVResult.from_predictions(R, R + 0.5, fold=np.arange(60) % 3, loss="zero_one"),
            ValueError, ["loss='zero_one' needs class labels", "y_true is continuous", "loss='squared_error'"]),
        "probabilities as the predicted labels": (
            lambda tmp: cvi.CVResult.from_predictions(LABELS, LABELS * 0.5 + 0.25, loss="zero_one"),
            ValueError, ["y_pred holds 0.25, which is no label of y_true", "as y_score"]),
        "two forecasts of one row from one origin": (
            lambda tmp: ForwardResult.from_forecasts(R[:6], [2.5, 4.0, 4.5, 3.0], time=[2, 3, 4, 3],
                                                     origin=[1, 1, 3, 1], train_size=2),
            ValueError, ["forecasts 1 and 3 are both of row 3 from origin 1", "drop the duplicate"]),
        "a record's dict with an unknown loss_name": (
            lambda tmp: cvi.CVResult.from_dict(PAIR.a.to_dict() | {"loss_name": "banana"}),
            ValueError, ["loss_name='banana' is no loss this package knows", "'log_loss'", "loss_name='zero_one'"]),
        "a record's dict with a negative log loss": (
            lambda tmp: cvi.CVResult.from_dict(cvi.CVResult(LABELS, LABELS, np.arange(20) % 2, loss=-np.ones(20) / 8,
                                                            loss_name="utility").to_dict()
                                               | {"loss_name": "log_loss"}),
            ValueError, ["loss holds -0.125", "a log loss (-ln p with p <= 1) is >= 0"]),
        # issue 58, the held-out campaign's findings 3, 4, 7, 8, 9, 14, 16, 17 and 18
        "labels of mixed types": (
            lambda tmp: cvi.CVResult.from_predictions(np.array([0, "a"] * 10, dtype=object),
                                                      np.array([0, "a"] * 10, dtype=object)),
            ValueError, ["y_true mixes label types (int, str)", "y_true.astype(str)"]),
        "cross_validate's test indices as fractions": (
            lambda tmp: from_cross_validate(_tampered_splits(lambda train, test: test.__setitem__(0, test[0] + 0.5)),
                                            X, Y),
            ValueError, ["split 0's test part holds", "which is no row number", "pass integer row numbers"]),
        "cross_validate's fold that trains on its test rows": (
            lambda tmp: from_cross_validate(_tampered_splits(
                lambda train, test: train.__setitem__(0, np.r_[train[0], test[0][:3]])), X, Y),
            ValueError, ["split 0 puts 3 of its test rows in its own training set", "disjoint train and test parts"]),
        "cross_validate of a TimeSeriesSplit": (
            lambda tmp: from_cross_validate(_cross_validated(TimeSeriesSplit(3)), X, R), ValueError,
            ["the splits are forward validation", "ForwardResult.from_forecasts", "CVEvaluator(cv=TimeSeriesSplit"]),
        "a record's dict with an n_train its folds cannot hold": (
            lambda tmp: cvi.CVResult.from_dict(PAIR.a.to_dict() | {"n_train": 10**6}), ValueError,
            ["n_train=1000000 is more than the record's 3 folds allow", "n - m_j = 40 instances",
             "Pass n_train=None"]),
        "a record's dict with an estimator_type that names no class": (
            lambda tmp: cvi.CVResult.from_dict(PAIR.a.to_dict() | {"estimator_type": "bogus"}), ValueError,
            ["estimator_type must be the dotted name of a class", "got CVResult.estimator_type='bogus'"]),
        "two columns of probabilities that do not sum to 1": (
            lambda tmp: cvi.CVResult.from_predictions(LABELS, LABELS, y_score=np.full((20, 2), 0.9),
                                                      response_method="predict_proba"),
            ValueError, ["20 of its rows do not sum to 1 (first: 1.8", "pass the estimator's predict_proba"]),
        "whole numbers that may be a count": (
            lambda tmp: cvi.CVResult.from_predictions([0, 1, 1, 2, 2, 2, 3, 3, 5], [0, 1, 2, 2, 2, 3, 3, 3, 4],
                                                         fold=np.arange(9) % 3),
            InferenceWarning, ["held by one row only, as in a count's tail", "pass loss='squared_error'"]),
        "a table's y_true given as an array": (
            lambda tmp: cvi.CVResult.from_frame({"t": LABELS, "p": LABELS}, y_true=LABELS, y_pred="p"), TypeError,
            ["y_true must name a column of the table (a str); got an array of shape (20,)",
             "CVResult.from_predictions"]),
    },
    "forward validation": {
        "metric='accuracy' on forecasts": (
            lambda tmp: _forecasts(cvi.compare, metric="accuracy"), ValueError,
            ["metric='accuracy'", "forecast loss 'squared_error' (metric= one of 'squared_error', "
             "'neg_mean_squared_error')"]),
        "metric='accuracy' on absolute errors": (
            lambda tmp: _forecasts(cvi.evaluate, metric="accuracy", loss="absolute_error"), ValueError,
            ["metric='accuracy'", "(metric= one of 'absolute_error', 'neg_mean_absolute_error'); drop metric."]),
        "a season longer than the rows before the first origin": (
            lambda tmp: _forecasts(cvi.evaluate, season=60), ValueError,
            ["season=60", "first origin (row 44) needs 60 rows", "pass a smaller season"]),
        "a splitter that makes two forecasts": (
            lambda tmp: _forecasts(cvi.compare, cv=TimeSeriesSplit(2, test_size=1)), ValueError,
            ["makes 2 forecasts", "needs at least 3", "make more origins or a longer horizon"]),
        "a classifier forecasting": (
            lambda tmp: cvi.compare(CountedNB(), NB, X, Y, cv=FORWARD), ValueError,
            ["is forward validation", "pass a regressor"]),
        "decide on forecasts about r2": (
            lambda tmp: cvi.decide(_forward_pair(), metric="r2"), ValueError,
            ["answers for the records' loss ('squared_error'); got metric='r2'"]),
        "the pre-whitened test with a lag": (
            lambda tmp: cvi.inference.forecast_test(_forward_pair(), method="prewhitened-diebold-mariano", lag=3),
            ValueError, ["got lag=3", "Leave lag=None"]),
        # issue 58, the held-out campaign's findings 10, 11, 12 and 21
        "a newest-first time index": (
            lambda tmp: cvi.compare(CountedLinear(), LinearRegression(), _newest_first(X), _newest_first(R),
                                    cv=FORWARD), ValueError,
            ["X's DatetimeIndex is not in increasing order: row 0 is 2020-02-29 00:00:00 and row 1 2020-02-28",
             "oldest first",
             "sort the rows by time (X.sort_index(), y.sort_index())"]),
        "a lag the independent interval does not use": (
            lambda tmp: cvi.inference.forecast_interval(_forward_pair().a, method="iid", lag=5), ValueError,
            ["lag=5 is the HAC lag, and method='iid' has none", "drop lag, or pass method='hac'"]),
        "a block length the HAC interval does not use": (
            lambda tmp: cvi.inference.forecast_interval(_forward_pair().a, method="hac", block_length=5), ValueError,
            ["block_length=5", "method='hac' resamples nothing", "drop block_length"]),
        "a lag the bootstrap does not use": (
            lambda tmp: cvi.inference.forecast_interval(_forward_pair().a, method="block-bootstrap", lag=2),
            ValueError, ["lag=2 is the HAC lag, and method='block-bootstrap' has none"]),
        "a constant loss's zero-width pre-whitened interval": (
            lambda tmp: cvi.inference.forecast_interval(_constant_loss()), InferenceWarning,
            ["Every forecast has loss 1", "zero width", "does not mean the mean loss is known exactly"]),
        "a constant loss's zero-width bootstrap interval": (
            lambda tmp: cvi.inference.forecast_interval(_constant_loss(), method="stationary-bootstrap",
                                                        random_state=0), InferenceWarning,
            ["Every forecast has loss 1", "zero width"]),
        "two forecasts over every horizon": (
            lambda tmp: cvi.inference.forecast_interval(_constant_loss(2)), ValueError,
            ["horizon=None leaves 2 forecasts", "make more origins (ForwardSplit's n_splits) or a longer horizon"]),
    },
}

ROWS = [(part, case) for part, cases in CASES.items() for case in cases]


def test_every_part_has_its_rows():
    assert set(CASES) == {"decision", "plots", "scores", "regression edge targets", "grouped refitting methods",
                          "margins and plans", "front door", "records from predictions", "forward validation"}
    assert all(len(cases) >= 4 for cases in CASES.values())


@pytest.mark.parametrize("part, case", ROWS, ids=[f"{part}: {case}" for part, case in ROWS])
def test_a_bad_input_is_refused_or_warned_with_its_words(part, case, tmp_path):
    call, expected, words = CASES[part][case]
    if part == "plots":
        plt = pytest.importorskip("matplotlib.pyplot")
        figures = plt.get_fignums()
    fits = CountedNB.fits, CountedLinear.fits
    if issubclass(expected, Warning):
        with pytest.warns(expected) as caught:
            call(str(tmp_path))
        message = " ".join(str(warning.message) for warning in caught)
    else:
        with pytest.raises(expected) as raised, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(str(tmp_path))
        message = str(raised.value)
        assert (CountedNB.fits, CountedLinear.fits) == fits, f"{case}: fitted before refusing"
    for word in words:
        assert word in message, f"{case}: {word!r} not in {message!r}"
    if part == "plots":
        assert plt.get_fignums() == figures and os.listdir(tmp_path) in ([], ["a_file"]), "drew or wrote first"
