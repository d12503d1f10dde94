"""One or more instances of every public result class, built by the public functions on small seeded data.

``result_cases()`` returns (label, result) pairs: the records (CVResult with text, integer and float
labels, a regression record, a holdout, records with scores of two and three classes, grouped records),
every inference result (with nan statistics and pooled repeats among them), the model-selection results,
the studies' results and the front door's. ``tests/inference/test_results.py`` and ``tests/test_codec.py``
read them, so a new public result class needs one case here.
"""

import functools
import warnings

import numpy as np
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import cvinference as cvi


def quiet(function, *args, **kwargs):
    """``function(*args, **kwargs)`` with the package's InferenceWarnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        return function(*args, **kwargs)


def _data():
    return make_classification(n_samples=60, n_features=4, n_informative=3, n_redundant=0, random_state=0)


def _one_more_wrong_per_fold(result):
    """Predictions of ``result`` with one correct prediction per fold made wrong (binary 0/1 labels)."""
    y_pred = result.y_pred[0].copy()
    for j in range(result.n_splits):
        first_correct = np.flatnonzero((result.fold[0] == j) & result.correct[0])[0]
        y_pred[first_correct] = 1 - y_pred[first_correct]
    return y_pred


def _record_cases(X, y):
    tree, nb = DecisionTreeClassifier(max_depth=2, random_state=0), GaussianNB()
    a = cvi.cross_val_correctness(tree, X, y, cv=5, random_state=0)
    b = cvi.cross_val_correctness(nb, X, y, cv=5, random_state=0)
    scored_a, scored_b = (cvi.cross_val_correctness(learner, X, y, cv=5, random_state=0, response_method="auto")
                          for learner in (tree, nb))
    patients = np.array([f"patient {i // 4}" for i in range(y.size)])  # 15 groups of 4 rows
    grouped_a, grouped_b = (cvi.cross_val_correctness(learner, X, y, cv=GroupKFold(5), groups=patients)
                            for learner in (tree, nb))
    text = cvi.CVResult(y_true=np.where(y == 1, "yes", "no"), y_pred=np.where(a.y_pred == 1, "yes", "maybe"),
                        fold=a.fold, name="text labels")
    regression = cvi.cross_val_correctness(LinearRegression(), X, X[:, 0] + 0.5 * X[:, 1], cv=5,
                                           loss="squared_error", random_state=0)
    return [
        ("CVResult", a),
        ("CVResult, text labels and an extra predicted label", text),
        ("CVResult, regression", regression),
        ("CVResult, holdout", cvi.evaluation.holdout(nb, X, y, test_size=0.25, random_state=0)),
        ("PairedCVResult", cvi.PairedCVResult(a, b)),
        ("CVResult, scores of two classes", scored_a),
        ("CVResult, scores of three classes", cvi.cross_val_correctness(
            nb, X, np.arange(y.size) % 3, cv=3, n_repeats=2, response_method="predict_proba", random_state=0)),
        ("PairedCVResult, scores", cvi.PairedCVResult(scored_a, scored_b)),
        ("CVResult, groups", grouped_a),
        ("PairedCVResult, groups", cvi.PairedCVResult(grouped_a, grouped_b)),
        ("SubsamplingResult", cvi.evaluation.random_subsampling(tree, X, y, n_rounds=5, random_state=0)),
        ("NestedCVResult of two learners", cvi.evaluation.nested_cross_validation(nb, X, y, n_splits=3, n_repeats=2,
                                                                                   estimator_b=tree, random_state=0)),
        ("PairedSubsamplingResult", cvi.evaluation.paired_subsampling(nb, X, y, n_pairs=2, n_rounds=3, random_state=0)),
        ("BootstrapSamplingResult", cvi.evaluation.bootstrap_sampling(tree, X, y, n_bootstraps=5, stratify=True,
                                                                      random_state=0)),
        ("ForwardResult", forward_pair().a),
        ("PairedForwardResult", forward_pair()),
    ]


@functools.cache
def forward_pair():
    """Two regressors' forward validation of a column of X, taken as a series."""
    X, _ = _data()
    series = X[:, 0] + 0.5 * X[:, 1]
    lagged = np.column_stack([np.r_[0.0, series[:-1]], np.arange(series.size)])
    return cvi.CVEvaluator(cv=cvi.splitters.ForwardSplit(8, horizon=2, step=1, window=30),
                           loss="squared_error").compare(LinearRegression(), DecisionTreeRegressor(max_depth=2),
                                                         lagged, series, names=("linear", "tree"))


def _inference_cases(X, y):
    tree, nb, dummy = DecisionTreeClassifier(max_depth=2, random_state=0), GaussianNB(), DummyClassifier()
    a = cvi.cross_val_correctness(tree, X, y, cv=5, random_state=0)
    b = cvi.cross_val_correctness(nb, X, y, cv=5, random_state=0)
    a2 = cvi.cross_val_correctness(tree, X, y, cv=5, n_repeats=2, random_state=0)
    b2 = cvi.cross_val_correctness(nb, X, y, cv=5, n_repeats=2, random_state=0)
    same = cvi.CVResult(y_true=y, y_pred=a.y_pred, fold=a.fold)  # A = B: no discordant pairs
    worse = cvi.CVResult(y_true=y, y_pred=_one_more_wrong_per_fold(a), fold=a.fold)  # d_j all equal
    always_right = cvi.CVResult(y_true=y, y_pred=y, fold=a.fold)  # constant correctness: phi is nan
    sub_a = cvi.evaluation.random_subsampling(tree, X, y, n_rounds=5, random_state=0)
    sub_b = cvi.evaluation.random_subsampling(nb, X, y, n_rounds=5, random_state=0)
    decision = quiet(cvi.decide, cvi.PairedCVResult(a2, b2))
    target = X[:, 0] + 0.5 * X[:, 1]
    regressors = cvi.CVEvaluator(cv=5, n_repeats=2, loss="squared_error", random_state=0).compare(
        LinearRegression(), DecisionTreeRegressor(max_depth=2, random_state=0), X, target)
    return [
        ("LossDifferenceTestResult", quiet(cvi.inference.loss_difference_test, regressors)),
        ("LossDifferenceTestResult, corrected t of regressors", quiet(cvi.corrected_resampled_ttest, regressors)),
        ("LossDifferenceTestResult, mean baseline", quiet(cvi.inference.mean_baseline_test, regressors.b)),
        ("LossDifferenceTestResult, Diebold-Mariano", quiet(cvi.inference.forecast_test, forward_pair(), horizon=1)),
        ("Interval of R²", quiet(cvi.inference.regression_interval, regressors.a)),
        ("Decision of regressors", quiet(cvi.decide, regressors)),
        ("Interval", quiet(cvi.accuracy_interval, a)),
        ("Interval pooled repeats, fold level", quiet(cvi.accuracy_interval, a2, averaging="fold")),
        ("Interval dropped folds", quiet(cvi.accuracy_interval, a, method="normal", drop_failing_folds=True)),
        ("Interval of a loss", quiet(cvi.loss_interval, a, method="half-sample")),  # as the stored payloads
        ("Interval of forecasts", quiet(cvi.inference.forecast_interval, forward_pair().a)),
        ("LargeSampleConditions", cvi.large_sample_conditions(a2)),
        ("TestResult matched", quiet(cvi.matched_sample_test, a, b)),
        ("TestResult matched, infinite statistic", quiet(cvi.matched_sample_test, a, worse)),
        ("TestResult matched pooled repeats", quiet(cvi.matched_sample_test, a2, b2)),
        ("TestResult independent z", quiet(cvi.independent_sample_test, a, b)),
        ("TestResult independent t", quiet(cvi.independent_sample_test, a, b, method="independent-t",
                                           alternative="less")),
        ("TestResult corrected t", quiet(cvi.corrected_resampled_ttest, a2, b2)),
        ("TestResult 5x2cv t", quiet(cvi.paired_ttest_5x2cv, tree, nb, X, y, random_state=0)),
        ("McNemarTestResult", quiet(cvi.mcnemar_test, a, b)),
        ("McNemarTestResult, no discordant pairs", quiet(cvi.mcnemar_test, a, same)),
        ("NoInformationTestResult", cvi.no_information_test(a)),
        ("NoInformationTestResult pooled repeats", cvi.no_information_test(a2)),
        ("FTestResult", quiet(cvi.combined_ftest_5x2cv, tree, nb, X, y, random_state=0)),
        ("FTestResult, A = B", quiet(cvi.combined_ftest_5x2cv, tree, tree, X, y, random_state=0)),
        ("BayesianResult", quiet(cvi.bayesian_correlated_ttest, a2, b2)),
        ("BayesianResult of subsampling", quiet(cvi.bayesian_correlated_ttest, sub_a, sub_b)),
        ("BootstrapResult", quiet(cvi.bootstrap_accuracy, dummy, X[:8], y[:8], n_bootstraps=30, random_state=0)),
        ("SchemeDiagnostic", cvi.scheme_diagnostic(a, b)),
        ("SchemeDiagnostic, nan phi", cvi.scheme_diagnostic(always_right, b)),
        ("Decision", decision),
        ("Decision on another metric", quiet(cvi.decide, cvi.PairedCVResult(a2, b2), metric="balanced_accuracy")),
        ("DecisionTest", decision.context[0]),
        ("Plan", cvi.plan(pilot=cvi.PairedCVResult(a2, b2), n_repeats=1, difference=0.05)),
        ("Plan without a pilot", cvi.plan(tree, nb, n_samples=300, margin=0.02)),
    ]


def _model_selection_cases(X, y):
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, None]}, cv=5).fit(X, y)
    scores = np.array([[0.81, 0.80, 0.75], [0.62, 0.66, 0.60], [0.90, 0.90, 0.88], [0.70, 0.71, 0.74]])
    datasets = quiet(cvi.compare_on_datasets, scores, learners=("tree", "bayes", "knn"))
    evaluator = cvi.CVEvaluator(cv=5, n_repeats=2, random_state=0)
    by_dataset = {}
    for seed in (0, 1):
        X_d, y_d = make_classification(n_samples=50, n_features=4, random_state=seed)
        pair = evaluator.compare(DecisionTreeClassifier(max_depth=2, random_state=0), GaussianNB(), X_d, y_d)
        by_dataset[f"data {seed}"] = {"tree": pair.a, "bayes": pair.b}
    return [
        ("CandidateComparison", quiet(cvi.compare_candidates, search, y=y)),
        ("CandidateComparison, Bayesian", quiet(cvi.compare_candidates, search, method="bayesian")),
        ("DatasetComparison", datasets),
        ("DatasetComparison of CVResults", quiet(cvi.compare_on_datasets, by_dataset)),
        ("FriedmanResult", datasets.friedman),
        ("ModelComparison", quiet(cvi.compare_models, {"tree": by_dataset["data 0"]["tree"],
                                                       "bayes": by_dataset["data 0"]["bayes"]})),
        ("ModelComparison, all pairs, grouped", quiet(cvi.compare_models, [
            cvi.CVResult.from_predictions(y_d, y_d, groups=np.arange(y_d.size) // 5, name="oracle"),
            cvi.CVResult.from_predictions(y_d, 1 - y_d, groups=np.arange(y_d.size) // 5, name="contrarian"),
            cvi.CVResult.from_predictions(y_d, np.zeros_like(y_d), groups=np.arange(y_d.size) // 5,
                                          name="zeros")], against="all")),
    ]


def _study_cases():
    X, y = make_classification(1000, 5, n_informative=3, flip_y=0.1, random_state=0)
    nb, tree = GaussianNB(), DecisionTreeClassifier(max_depth=3, random_state=0)
    common = {"sample_size": 60, "n_draws": 3, "random_state": 0}
    return [
        ("ConditionalErrorStudyResult", cvi.conditional_error_study(nb, X, y, cv=3, max_repeats=2, **common)),
        ("WinnerTableResult", cvi.winner_table(nb, tree, X, y, cv=3, n_repeats=2, **common)),
        ("FoldSizeStudyResult", quiet(cvi.fold_size_study, nb, X, y, n_splits=3, **common)),
        ("PrecisionStudyResult", quiet(cvi.precision_study, nb, X, y, folds=(2, 3), **common)),
    ]


@functools.cache
def _all_cases():
    X, y = _data()
    return tuple(_record_cases(X, y) + _inference_cases(X, y) + _model_selection_cases(X, y) + _study_cases())


def result_cases():
    """(label, result) pairs: at least one for every public class that has ``from_dict``."""
    return list(_all_cases())


INTERVAL_FIGURES = ("averaging", "standard_error", "critical_value", "df", "n", "dropped_folds", "clipped")
"""The figures every Interval's ``details`` begin with (fields of their own until issue 44)."""


