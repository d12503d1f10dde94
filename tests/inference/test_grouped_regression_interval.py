"""regression_interval(method="cluster") on grouped records (issue 30): MSE, MAE and R² with the groups as the units.

Oracles:
- statsmodels' cluster-robust OLS of the per-instance errors on a constant,
  ``OLS(e, 1).fit(cov_type="cluster", cov_kwds={"groups": ...}, use_t=True)``, with its defaults
  ``use_correction=True`` (the CR1 factor G / (G - 1) * (N - 1) / (N - K), = G / (G - 1) for K = 1) and
  ``df_correction=True`` (t with G - 1 degrees of freedom): Cameron & Miller (2015, "A practitioner's guide to
  cluster-robust inference", J. Human Resources 50(2), sections II.C and VI), for the MSE and the MAE;
- for R² = 1 - M / V, the delta method written out here: the joint CR1 covariance Sigma of the two means
  M = mean squared error and V = mean (y - mean y)^2, computed by a loop over the groups
  (G / (G - 1) sum_g u_g u_g' / N^2 with u_g the group's sums of the deviations from M and from V; Cameron & Miller,
  section II.C, eq. (11) for two regressors), and Var(R²) = grad' Sigma grad with grad = (-1 / V, M / V^2) (the
  gradient of 1 - M / V; van der Vaart 1998, Asymptotic Statistics, chapter 3). And the same Sigma from statsmodels:
  the stacked regression of (e_i; q_i) on the two indicators "is an error" / "is a squared deviation", clustered by
  group, whose CR1 factor (N' - 1) / (N' - K) with N' = 2N and K = 2 is divided out here;
- with one instance per group, CR1 is G / (G - 1) times the all-pairs variance of Bayle et al.'s CV-CLT
  (both are sums of squared deviations over N; CR1 adds G / (G - 1)), which ``method="cv-clt"`` computes.
"""

import math
import warnings

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats
from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score

import cvinference as cvi
from cvinference import InferenceWarning

N_GROUPS = 26


def grouped_regressor(seed=0, n_repeats=1, loss="squared_error", grouped=True, sizes=(2, 9)):
    """A regressor's record on groups of 2 to 9 instances whose y and errors share a group effect."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(N_GROUPS), rng.integers(sizes[0], sizes[1] + 1, N_GROUPS))
    groups = groups[rng.permutation(groups.size)]
    fold = rng.permutation(N_GROUPS)[groups] % 5
    x = rng.normal(0, 1, groups.size)
    y = 2 * x + rng.normal(0, 1, N_GROUPS)[groups] + rng.normal(0, 1, groups.size)
    y_pred = 2 * x + rng.normal(0, 0.8, (n_repeats, N_GROUPS))[:, groups] + rng.normal(0, 0.5, (n_repeats, y.size))
    errors = y_pred - y
    return cvi.CVResult(y_true=y, y_pred=y_pred, fold=np.tile(fold, (n_repeats, 1)),
                        loss=errors ** 2 if loss == "squared_error" else np.abs(errors), loss_name=loss,
                        groups=groups if grouped else None)


def cluster_ols(values, groups):
    _, codes = np.unique(groups, return_inverse=True)
    return sm.OLS(values, np.ones(values.size)).fit(cov_type="cluster", cov_kwds={"groups": codes}, use_t=True)


def r2_delta_by_hand(y, y_pred, groups):
    """R² and its delta-method variance from the CR1 covariance of (M, V), by a loop over the groups."""
    squared = (y_pred - y) ** 2
    spread = (y - y.mean()) ** 2
    n, labels = y.size, np.unique(groups)
    m, v = squared.mean(), spread.mean()
    sigma = np.zeros((2, 2))
    for g in labels:
        u = np.array([np.sum(squared[groups == g] - m), np.sum(spread[groups == g] - v)])
        sigma += np.outer(u, u)
    sigma *= labels.size / (labels.size - 1) / n ** 2
    gradient = np.array([-1 / v, m / v ** 2])
    return 1 - m / v, float(gradient @ sigma @ gradient)


def r2_delta_by_statsmodels(y, y_pred, groups):
    """The same, with Sigma from statsmodels' clustered OLS of the stacked (e; q) on two indicators."""
    n = y.size
    stacked = np.concatenate([(y_pred - y) ** 2, (y - y.mean()) ** 2])
    indicators = np.zeros((2 * n, 2))
    indicators[:n, 0] = indicators[n:, 1] = 1
    _, codes = np.unique(groups, return_inverse=True)
    fit = sm.OLS(stacked, indicators).fit(cov_type="cluster", cov_kwds={"groups": np.tile(codes, 2)})
    sigma = fit.cov_params() / ((2 * n - 1) / (2 * n - 2))  # statsmodels' (N' - 1) / (N' - K), N' = 2N, K = 2
    m, v = fit.params
    gradient = np.array([-1 / v, m / v ** 2])
    return 1 - m / v, float(gradient @ sigma @ gradient)


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InferenceWarning)
        return function(*args, **kwargs)


@pytest.fixture(scope="module")
def result():
    return grouped_regressor()


# --------------------------------------------------------------------------- MSE and MAE


@pytest.mark.parametrize("metric, error", [("mean_absolute_error", np.abs), ("mean_squared_error", np.square)])
@pytest.mark.parametrize("confidence_level", [0.9, 0.95])
def test_mse_and_mae_are_statsmodels_cluster_robust_ols_of_the_errors(result, metric, error, confidence_level,
                                                                      evidence):
    evidence()  # the shipped evidence warns of the cluster interval's measured coverage; that is tested below
    with warnings.catch_warnings():
        warnings.simplefilter("error", InferenceWarning)  # 26 groups, whole in their folds: nothing to warn about
        interval = cvi.inference.regression_interval(result, metric, confidence_level=confidence_level,
                                                     method="cluster")
    fit = cluster_ols(error(result.y_pred[0] - result.y_true), result.groups)
    critical = stats.t.ppf((1 + confidence_level) / 2, N_GROUPS - 1)
    assert (interval.method, interval.details["averaging"], interval.details["df"], interval.target) == (
        "cluster", "dataset", N_GROUPS - 1, "kfold")
    assert interval.estimate == pytest.approx(fit.params[0], rel=1e-12)
    assert interval.details["standard_error"] == pytest.approx(fit.bse[0], rel=1e-10)
    low, high = fit.conf_int(alpha=1 - confidence_level)[0]
    assert (interval.low, interval.high) == pytest.approx((low, high), rel=1e-10)
    assert interval.high - interval.low == pytest.approx(2 * critical * fit.bse[0], rel=1e-10)
    sklearn_metric = mean_absolute_error if metric == "mean_absolute_error" else mean_squared_error
    assert interval.estimate == pytest.approx(sklearn_metric(result.y_true, result.y_pred[0]), rel=1e-12)
    assert interval.details["n_groups"] == N_GROUPS and interval.details["groups_within_folds"] is True


def test_mae_is_loss_interval_cluster_of_an_absolute_error_record():
    record = grouped_regressor(loss="absolute_error", n_repeats=2)
    interval = quiet(cvi.inference.regression_interval, record, "mean_absolute_error", method="cluster")
    oracle = quiet(cvi.loss_interval, record, method="cluster")
    assert (interval.estimate, interval.low, interval.high, interval.details["df"]) == pytest.approx(
        (oracle.estimate, oracle.low, oracle.high, oracle.details["df"]), rel=1e-12)


# --------------------------------------------------------------------------- R²


@pytest.mark.parametrize("oracle", [r2_delta_by_hand, r2_delta_by_statsmodels])
def test_r2_is_the_delta_method_on_the_cluster_robust_covariance_of_the_two_means(result, oracle):
    interval = cvi.inference.regression_interval(result, "r2", method="cluster")
    r2, variance = oracle(result.y_true, result.y_pred[0], result.groups)
    assert interval.estimate == pytest.approx(r2, rel=1e-12)
    assert interval.estimate == pytest.approx(r2_score(result.y_true, result.y_pred[0]), rel=1e-12)
    assert interval.details["standard_error"] == pytest.approx(math.sqrt(variance), rel=1e-9)
    critical = stats.t.ppf(0.975, N_GROUPS - 1)
    assert (interval.low, interval.high) == pytest.approx((r2 - critical * math.sqrt(variance),
                                                           r2 + critical * math.sqrt(variance)), rel=1e-9)
    assert interval.details["df"] == N_GROUPS - 1 and interval.method == "cluster"
    assert any("delta method" in note for note in interval.notes)


def test_the_two_r2_oracles_agree_with_each_other(result):
    by_hand = r2_delta_by_hand(result.y_true, result.y_pred[0], result.groups)
    assert by_hand == pytest.approx(r2_delta_by_statsmodels(result.y_true, result.y_pred[0], result.groups),
                                    rel=1e-10)


def test_repeats_average_the_r2s_and_the_variances():
    record = grouped_regressor(seed=1, n_repeats=3)
    interval = quiet(cvi.inference.regression_interval, record, "r2", method="cluster")
    figures = [r2_delta_by_hand(record.y_true, record.y_pred[r], record.groups) for r in range(3)]
    assert interval.estimate == pytest.approx(np.mean([r2 for r2, _ in figures]), rel=1e-12)
    assert interval.details["standard_error"] == pytest.approx(math.sqrt(np.mean([v for _, v in figures])), rel=1e-9)
    one = quiet(cvi.inference.regression_interval, record, "r2", repeat=2, method="cluster")
    assert one.details["standard_error"] == pytest.approx(math.sqrt(figures[2][1]), rel=1e-9)


@pytest.mark.parametrize("metric", ["r2", "mean_absolute_error", "mean_squared_error"])
def test_one_instance_per_group_gives_the_all_pairs_cv_clt_variance_times_g_over_g_minus_1(metric):
    record = grouped_regressor(seed=2)
    singletons = cvi.CVResult(y_true=record.y_true, y_pred=record.y_pred, fold=record.fold, loss=record.loss,
                              loss_name=record.loss_name, groups=np.arange(record.n_samples))
    cluster = quiet(cvi.inference.regression_interval, singletons, metric, method="cluster")
    clt = quiet(cvi.inference.regression_interval, singletons, metric, method="cv-clt", variance="all-pairs")
    n = record.n_samples
    assert cluster.estimate == pytest.approx(clt.estimate, rel=1e-12)
    expected = n / (n - 1) * clt.details["standard_error"] ** 2
    assert cluster.details["standard_error"] ** 2 == pytest.approx(expected, rel=1e-9)


def test_grouped_errors_widen_the_r2_interval(result):
    cluster = cvi.inference.regression_interval(result, "r2")
    naive = quiet(cvi.inference.regression_interval, result, "r2", method="cv-clt")
    assert cluster.details["design_effect"] > 1.5 and cluster.high - cluster.low > naive.high - naive.low


def test_r2_is_clipped_at_one():
    record = grouped_regressor(seed=3)
    y_pred = record.y_true + 1e-3 * (record.y_pred - record.y_true)
    near = cvi.CVResult(y_true=record.y_true, y_pred=y_pred, fold=record.fold, loss=(y_pred - record.y_true) ** 2,
                        loss_name="squared_error", groups=record.groups)
    interval = cvi.inference.regression_interval(near, "r2", confidence_level=0.999999999)
    assert interval.high == 1.0 and interval.details["clipped"] == ("high",)


# --------------------------------------------------------------------------- method="auto"


def test_auto_picks_the_cluster_interval_on_a_grouped_record_only(result, evidence):
    evidence()  # nothing measured: the cluster-robust interval
    for metric in ("r2", "mean_absolute_error", "mean_squared_error"):
        auto = cvi.inference.regression_interval(result, metric)
        explicit = cvi.inference.regression_interval(result, metric, method="cluster")
        assert (auto.method, auto.low, auto.high) == (explicit.method, explicit.low, explicit.high)
        assert any("method='auto' chose the cluster-robust interval because the result was made with groups" in note
                   for note in auto.notes)
    plain = grouped_regressor(grouped=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # the calibration evidence's warning (an unnamed learner at this size)
        assert cvi.inference.regression_interval(plain) == cvi.inference.regression_interval(plain, method="cv-clt")
    assert not any("made with groups" in str(w.message) for w in caught)
    assert cvi.inference.regression_interval(plain).method == "cv-clt"
    with pytest.raises(ValueError, match=r"made without groups\. Pass groups="):
        cvi.inference.regression_interval(plain, method="cluster")
    with pytest.raises(ValueError, match="method"):
        cvi.inference.regression_interval(plain, method="bootstrap")


def test_the_cv_clt_on_a_grouped_record_warns_and_names_the_cluster_method(result):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        interval = cvi.inference.regression_interval(result, "mean_absolute_error", method="cv-clt")
    [text] = [str(w.message) for w in caught if "made with groups" in str(w.message)]
    assert "method='cluster' (which method='auto' chooses for a grouped record)" in text and text in interval.warnings


def test_the_cluster_interval_round_trips(result):
    interval = cvi.inference.regression_interval(result, "r2")
    assert cvi.results.Interval.from_json(interval.to_json()) == interval


# --------------------------------------------------------------------------- the half-sample form


@pytest.mark.parametrize("metric, error", [("mean_absolute_error", np.abs), ("mean_squared_error", np.square)])
def test_the_half_sample_form_is_statsmodels_cluster_ols_with_twice_its_variance(result, metric, error):
    """Nedel'ko (2021, section 3): the cross-validated error varies about as one measured on half the sample; the
    half-sample form carries that factor 2 of the variance to the groups, as accuracy_interval's does."""
    interval = cvi.inference.regression_interval(result, metric, method="cluster-half-sample")
    fit = cluster_ols(error(result.y_pred[0] - result.y_true), result.groups)
    standard_error = math.sqrt(2) * fit.bse[0]
    critical = stats.t.ppf(0.975, N_GROUPS - 1)
    assert (interval.method, interval.details["df"], interval.target) == ("cluster-half-sample", N_GROUPS - 1, "kfold")
    assert interval.estimate == pytest.approx(fit.params[0], rel=1e-12)
    assert interval.details["standard_error"] == pytest.approx(standard_error, rel=1e-10)
    low, high = fit.params[0] - critical * standard_error, fit.params[0] + critical * standard_error
    assert (interval.low, interval.high) == pytest.approx((max(low, 0.0), high), rel=1e-10)  # errors are >= 0
    assert interval.details["clipped"] == (("low",) if low < 0 else ())


def test_the_half_sample_form_of_r2_doubles_the_delta_method_variance(result):
    interval = cvi.inference.regression_interval(result, "r2", method="cluster-half-sample")
    r2, variance = r2_delta_by_hand(result.y_true, result.y_pred[0], result.groups)
    assert interval.estimate == pytest.approx(r2, rel=1e-12)
    assert interval.details["standard_error"] == pytest.approx(math.sqrt(2 * variance), rel=1e-9)


def test_the_half_sample_form_needs_groups():
    with pytest.raises(ValueError, match=r"method='cluster-half-sample'.*made without groups\. Pass groups="):
        cvi.inference.regression_interval(grouped_regressor(grouped=False), method="cluster-half-sample")


def regression_row(method, measured, learner="tree_reg", n=26):
    """A grouped regression coverage cell of the evidence ("grouped-regression" rows, sized by groups); ``method`` is
    "<metric>: <id>", the interval's metric and id (the id alone: a row of no metric)."""
    low, high = stats.binomtest(round(measured * 200), 200).proportion_ci(0.95, method="wilson")
    metric, _, method_id = method.rpartition(": ")
    return {"method": method_id, **({"metric": metric} if metric else {}), "quantity": "coverage",
            "target": "kfold", "learner": learner, "n": n,
            "population": "clustered-test-regression", "nominal": 0.95, "measured": measured,
            "wilson_low": float(low), "wilson_high": float(high), "replications": 200, "mean_width": 0.1,
            "task": "grouped-regression"}


def tree_record(seed=0):
    """A regression tree's grouped record (its learner is what the evidence's cells are matched by)."""
    from sklearn.tree import DecisionTreeRegressor

    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(N_GROUPS), 6)
    X = rng.normal(0, 1, (groups.size, 2))
    y = X[:, 0] + rng.normal(0, 1, N_GROUPS)[groups] + rng.normal(0, 1, groups.size)
    return cvi.cross_val_correctness(DecisionTreeRegressor(min_samples_leaf=5, random_state=0), X, y,
                                     cv=cvi.EqualSizeGroupKFold(5, shuffle=True, random_state=0), groups=groups,
                                     loss="squared_error")


def test_auto_reads_each_metrics_own_grouped_regression_cells(evidence):
    """R²'s cluster interval measured short, the MSE's not: auto takes the half-sample form for R² only, and
    the grouped accuracy cells ("grouped" rows, named without a metric) play no part."""
    evidence(regression_row("mean_squared_error: cluster", 0.94),
             regression_row("mean_squared_error: cluster-half-sample", 0.99),
             regression_row("r2: cluster", 0.91), regression_row("r2: cluster-half-sample", 0.97),
             regression_row("cluster", 0.5) | {"task": "grouped", "learner": "tree"})
    record = tree_record()
    mse, r2 = (cvi.inference.regression_interval(record, metric) for metric in ("mean_squared_error", "r2"))
    assert mse.method == "cluster" and mse.warnings == ()
    assert r2.method == "cluster-half-sample" and r2.warnings == ()
    explicit = cvi.inference.regression_interval(record, "r2", method="cluster-half-sample")
    assert (r2.low, r2.high) == (explicit.low, explicit.high)
    note = next(note for note in r2.notes if "half-sample" in note)
    assert "covered the kfold R² only 0.910" in note and "0.970" in note and "a regression tree at G = 26" in note


def test_an_explicit_cluster_interval_warns_from_the_grouped_regression_cells(evidence):
    evidence(regression_row("mean_absolute_error: cluster", 0.9),
             regression_row("mean_absolute_error: cluster-half-sample", 0.96))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        interval = cvi.inference.regression_interval(tree_record(), "mean_absolute_error", method="cluster")
    [text] = [str(w.message) for w in caught if "covered" in str(w.message)]
    assert text.startswith("The cluster interval covered the kfold mean absolute error (the mean population "
                           "absolute error of the models fitted in the folds") and "only 0.900" in text
    assert text.endswith("method='cluster-half-sample' covered it 0.960 of the time there.")
    assert "Wong" not in text and text in interval.warnings
    assert cvi.inference.regression_interval(tree_record(), "mean_absolute_error",
                                             method="cluster-half-sample").warnings == ()


def test_auto_warns_when_neither_grouped_regression_interval_reached_the_floor(evidence):
    evidence(regression_row("mean_squared_error: cluster", 0.85),
             regression_row("mean_squared_error: cluster-half-sample", 0.9))
    interval = quiet(cvi.inference.regression_interval, tree_record(), "mean_squared_error")
    assert interval.method == "cluster-half-sample"
    [text] = [w for w in interval.warnings if "no interval computable" in w]
    assert "covers the kfold mean squared error (the mean population squared error" in text and "0.900" in text


def test_the_grouped_nested_cells_of_regressors_are_their_own(evidence, null_row):
    """nested_calibrated reads a regressor pair's nested-CV cells among the "grouped-regression" rows,
    not the classifiers' ("grouped") ones."""
    from cvinference.policy._routes import nested_calibrated

    def row(measured, task):
        return null_row("nested-cv", measured, learner="ridge", n=N_GROUPS, task=task, target="conditional")

    a = grouped_regressor(seed=4)
    y_pred = a.y_pred + 0.1
    b = cvi.CVResult(y_true=a.y_true, y_pred=y_pred, fold=a.fold, loss=(y_pred - a.y_true) ** 2,
                     loss_name="squared_error", groups=a.groups)
    pair = cvi.PairedCVResult(a, b)
    evidence(row(0.04, "grouped"), row(0.1, "grouped-regression"))
    assert not nested_calibrated(pair)
    evidence(row(0.1, "grouped"), row(0.04, "grouped-regression"))
    assert nested_calibrated(pair)
