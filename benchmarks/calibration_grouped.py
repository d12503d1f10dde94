"""The calibration cells of grouped data (issue 30, item 5): real fits on instances that come in groups.

``benchmarks/calibration.py --grouped`` runs them; this module holds their populations and replications.

Populations (``clustered-m<sizes>-icc<rho>``): groups of m instances, m fixed at 5 or 50 or drawn uniformly
from 5 .. 50. Instance i of group g has features x_i = z_i + 0.5 v_g (z_i, v_g standard normal, 2 x BLOCK
columns: a group's instances are alike) and the label 1[f(x_i block 1) + f(x_i block 2) > 0], with f(b) =
sin(2 b_1) + b_2 b_3 - 0.5 b_4^2 + b_5 + 0.5 on a block's five columns, flipped with the group's own
probability q_g ~ Beta(mean 0.15, intra-cluster correlation rho), so that a group's instances are all easy or
all hard: the correctness of a learner is correlated within groups. The two blocks play the same part, so a
learner on block 1 and the same learner on block 2 are equal (the null cells). A population is a pool of 6,000
groups; a replication draws G groups from the first 4,000 and the last 2,000 are the truth (new groups,
instance-weighted: the ratio estimand sum_g Y_g / sum_g m_g).

The real population is statsmodels' ``modechoice`` (Greene: 210 travellers, 4 travel modes each; the
target is whether the mode was chosen, the features the mode's costs and times, the traveller's income
and party size, and the mode): a replication draws 105 travellers at random and the other 105 are the
truth (so the truth varies between replications, as for the main run's real populations).

The regression populations (``clustered-m<sizes>-icc<rho>-regression``) have the same features and groups,
and y = h(block 1) + h(block 2) + u_g + e_i, h mostly linear (:func:`_regression_signal`), u_g and e_i normal
with variances rho and 1 - rho times NOISE_VARIANCE: the noise's intra-cluster correlation is rho.

Cells (``Cell.n`` is the number of groups G drawn, not of instances):
- ``coverage-grouped``: one 10-fold group-respecting partition (StratifiedEqualSizeGroupKFold); Wong's
  normal interval (every instance independent), the fold-level t, and the cluster-robust interval that
  ``accuracy_interval`` recommends for a grouped record; truth: the fold models' accuracy on the held-back
  groups (k-fold target) and the model fitted to all drawn groups' (conditional).
- ``null-grouped``: 10 x 10 group-respecting folds of A (the learner on block 1 and a noise column) and B
  (on block 2 and another), equal by construction: McNemar's test on the instances (repeat 0), the
  clustered McNemar tests (Obuchowski, Durkalski; repeat 0), the cluster-robust paired t (10 repeats), the
  corrected t (10 x 10), and the decision ``decide`` makes from them.
- ``power-grouped``: A on both blocks, B on block 1 (A better), the same tests.
- ``coverage-grouped-regression``: ridge regression and a regression tree, one 10-fold partition
  (EqualSizeGroupKFold); ``regression_interval``'s CV-CLT (every instance independent), cluster-robust and
  half-sample cluster intervals of MSE, MAE and R²; truths as for accuracy, per metric.
- ``null-grouped-regression``, ``power-grouped-regression``: the pairs above on the squared error, with the
  CV-CLT loss difference test (instances, repeat 0) in place of McNemar's; no decision (a regressor pair's rests
  on the test these cells' evidence picks).
- ``null-grouped-refit``: the null pairs' tests that refit on splits of their own, with groups: the 5x2cv t and
  combined F on halves of whole groups, and nested CV's difference interval (5 x 5-fold); for regressors
  (``null-grouped-regression-refit``, the two most clustered populations) nested CV's only.
- ``coverage-grouped-nested``: nested CV's interval of one learner's accuracy, against its conditional target.
"""

import warnings

import numpy as np
from calibration_decision import decision_entry
from regression_figures import REGRESSION_METRICS, regression_figures
from sklearn.base import clone
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import cvinference as cvi
from cvinference.records._nested_cv_result import N_REPEATS, N_SPLITS

BLOCK = 5
FLIP_MEAN = 0.15
POOL_GROUPS, TRUTH_GROUPS = 4000, 2000
SIZES = {"m5": (5, 5), "m5to50": (5, 50), "m50": (50, 50)}
NOISE_VARIANCE = 2.0  # the regression populations' noise: a group's shared part and each instance's own
MODECHOICE = "modechoice-halves"
REGRESSION = "-regression"  # the suffix of a regression population's name
ALPHA = 0.05
TASK = "grouped"
REGRESSION_TASK = "grouped-regression"
DECISION = "decision (decide, as shipped)"


class GroupedPopulation:
    """Rows ``X``, ``y`` and each row's ``groups`` (0 .. G - 1, in order); groups ``truth_from`` and later are the
    truth, or, when it is None, the groups a replication does not draw."""

    def __init__(self, X, y, groups, truth_from=None):
        self.X, self.y, self.groups, self.truth_from = X, y, groups, truth_from
        self.rows_of = np.split(np.arange(y.size), np.flatnonzero(np.diff(groups)) + 1)

    def draw(self, n_groups, rng):
        pool = len(self.rows_of) if self.truth_from is None else self.truth_from
        chosen = rng.choice(pool, size=n_groups, replace=False)
        sample = np.concatenate([self.rows_of[g] for g in chosen])
        if self.truth_from is None:
            truth = np.concatenate([self.rows_of[g] for g in np.setdiff1d(np.arange(pool), chosen)])
        else:
            truth = np.arange(self.rows_of[self.truth_from][0], self.y.size)
        return sample, truth


def _block_score(block):
    return np.sin(2 * block[:, 0]) + block[:, 1] * block[:, 2] - 0.5 * block[:, 3] ** 2 + block[:, 4] + 0.5


def _grouped_features(sizes, rng):
    """Each instance's group (0 .. G - 1, in order) and its features: alike within a group."""
    n_groups = POOL_GROUPS + TRUTH_GROUPS
    group_sizes = rng.integers(sizes[0], sizes[1] + 1, n_groups)
    groups = np.repeat(np.arange(n_groups), group_sizes)
    X = rng.standard_normal((groups.size, 2 * BLOCK)) + 0.5 * rng.standard_normal((n_groups, 2 * BLOCK))[groups]
    return groups, X


def _regression_signal(block):
    """h(b) = b_1 + 0.5 b_2 - 0.5 b_3 + sin(2 b_4) + 0.25 b_5^2: mostly linear, so that ridge regression learns
    much of it and a regression tree some."""
    return block[:, 0] + 0.5 * block[:, 1] - 0.5 * block[:, 2] + np.sin(2 * block[:, 3]) + 0.25 * block[:, 4] ** 2


def clustered_population(sizes, icc, seed=20261124):
    """The synthetic grouped population ``clustered-<sizes>-icc<icc>`` (see the module's docstring)."""
    rng = np.random.default_rng(seed)
    groups, X = _grouped_features(sizes, rng)
    n_groups = groups[-1] + 1
    strength = (1 - icc) / icc
    flip = rng.beta(FLIP_MEAN * strength, (1 - FLIP_MEAN) * strength, n_groups)[groups]
    clean = _block_score(X[:, :BLOCK]) + _block_score(X[:, BLOCK:]) > 0
    y = (clean ^ (rng.random(groups.size) < flip)).astype(int)
    return GroupedPopulation(X, y, groups, POOL_GROUPS)


def clustered_regression_population(sizes, icc, seed=20261126):
    """The synthetic grouped regression population ``clustered-<sizes>-icc<icc>-regression``: the features of
    :func:`clustered_population`, and y = h(block 1) + h(block 2) + u_g + e_i, with the group's u_g and the
    instance's e_i normal, of variances icc and 1 - icc times NOISE_VARIANCE (the noise's intra-cluster
    correlation is icc)."""
    rng = np.random.default_rng(seed)
    groups, X = _grouped_features(sizes, rng)
    shared = rng.normal(0.0, np.sqrt(icc * NOISE_VARIANCE), groups[-1] + 1)[groups]
    own = rng.normal(0.0, np.sqrt((1 - icc) * NOISE_VARIANCE), groups.size)
    y = _regression_signal(X[:, :BLOCK]) + _regression_signal(X[:, BLOCK:]) + shared + own
    return GroupedPopulation(X, y, groups, POOL_GROUPS)


def modechoice_population():
    """statsmodels' modechoice: a replication draws half the travellers, and the other half is the truth."""
    from statsmodels.datasets import modechoice

    data = modechoice.load_pandas().data.sort_values(["individual", "mode"], kind="stable")
    modes = np.eye(4)[data["mode"].to_numpy(dtype=int) - 1]
    X = np.hstack([data[["ttme", "invc", "invt", "gc", "hinc", "psize"]].to_numpy(dtype=float), modes])
    groups = np.unique(data["individual"].to_numpy(), return_inverse=True)[1]
    return GroupedPopulation(X, data["choice"].to_numpy(dtype=int), groups)


def load_grouped(name):
    if name == MODECHOICE:
        return modechoice_population()
    make = clustered_regression_population if name.endswith(REGRESSION) else clustered_population
    _, sizes, icc = name.removesuffix(REGRESSION).split("-")
    return make(SIZES[sizes], float(icc.removeprefix("icc")))


def grouped_population_names(suffix=""):
    return [f"clustered-{sizes}-icc{icc}{suffix}" for sizes, icc in
            (("m5", 0.05), ("m5", 0.5), ("m5to50", 0.2), ("m50", 0.05), ("m50", 0.5))]


def _learner(name, columns=None):
    model = {"tree": lambda: DecisionTreeClassifier(min_samples_leaf=5, random_state=0),
             "logistic": lambda: make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
             "tree_reg": lambda: DecisionTreeRegressor(min_samples_leaf=5, random_state=0),
             "ridge": lambda: make_pipeline(StandardScaler(), Ridge())}[name]()
    if columns is None:
        return model
    return make_pipeline(ColumnTransformer([("kept", "passthrough", columns)]), model)


def _splitter(seed, regression=False):
    splitter = cvi.EqualSizeGroupKFold if regression else cvi.StratifiedEqualSizeGroupKFold
    return splitter(10, shuffle=True, random_state=seed)


def _bounds(interval):
    return [float(interval.low), float(interval.high)]


def coverage_grouped_replication(population, cell, seed):
    rng = np.random.default_rng(seed)
    sample, truth_rows = population.draw(cell.n, rng)
    X, y, groups = population.X[sample], population.y[sample], population.groups[sample]
    X_truth, y_truth = population.X[truth_rows], population.y[truth_rows]
    estimator = _learner(cell.learner)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = cvi.cross_val_correctness(estimator, X, y, cv=_splitter(int(rng.integers(2**31))), groups=groups)
        models = [clone(estimator).fit(X[result.fold[0] != j], y[result.fold[0] != j]) for j in range(result.n_splits)]
        conditional = float(np.mean(estimator.fit(X, y).predict(X_truth) == y_truth))
        cluster = cvi.accuracy_interval(result, method="cluster")
        intervals = {"cluster": _bounds(cluster),
                     "cluster half-sample": _bounds(cvi.accuracy_interval(result, method="cluster-half-sample")),
                     "normal": _bounds(cvi.accuracy_interval(result, method="normal")),
                     "fold t": _bounds(cvi.accuracy_interval(result, averaging="fold", method="t"))}
    kfold = float(np.mean([np.mean(model.predict(X_truth) == y_truth) for model in models]))
    return {"intervals": intervals, "truth": {"kfold": kfold, "conditional": conditional},
            "design_effect": cluster.details["design_effect"], "n_samples": int(y.size)}


def coverage_grouped_regression_replication(population, cell, seed):
    """MSE, MAE and R2 intervals of one 10-fold group-respecting partition: the CV-CLT (every instance
    independent), the cluster-robust interval and its half-sample form."""
    rng = np.random.default_rng(seed)
    sample, truth_rows = population.draw(cell.n, rng)
    X, y, groups = population.X[sample], population.y[sample], population.groups[sample]
    X_truth, y_truth = population.X[truth_rows], population.y[truth_rows]
    estimator = _learner(cell.learner)
    intervals = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = cvi.cross_val_correctness(estimator, X, y, cv=_splitter(int(rng.integers(2**31)), regression=True),
                                           groups=groups, loss="squared_error")
        for label, (metric, _) in REGRESSION_METRICS.items():
            for method, name in (("cv-clt", "cv-clt"), ("cluster", "cluster"),
                                 ("cluster-half-sample", "cluster half-sample")):
                intervals[f"{label}: {name}"] = _bounds(cvi.inference.regression_interval(result, metric,
                                                                                          method=method))
    folds = np.array([regression_figures(y_truth, clone(estimator).fit(X[result.fold[0] != j], y[result.fold[0] != j])
                                         .predict(X_truth)) for j in range(result.n_splits)])
    conditional = regression_figures(y_truth, clone(estimator).fit(X, y).predict(X_truth))
    truth = {label: {"kfold": float(folds[:, column].mean()), "conditional": conditional[column]}
             for label, (_, column) in REGRESSION_METRICS.items()}
    return {"intervals": intervals, "truth": truth, "n_samples": int(y.size)}


def _test_record(test, target):
    interval = test.confidence_interval(1 - ALPHA)
    return {"reject": bool(test.pvalue < ALPHA), "width": float(interval.high - interval.low), "target": target}


def _true_difference(a, b, X, y, X_truth, y_truth, regression=False):
    """How much better A is than B, both fitted to all the drawn groups, on the truth groups: the accuracy of A
    minus B's, or B's mean squared error minus A's."""
    if regression:
        return float(np.mean((b.fit(X, y).predict(X_truth) - y_truth) ** 2)
                     - np.mean((a.fit(X, y).predict(X_truth) - y_truth) ** 2))
    return float(np.mean(a.fit(X, y).predict(X_truth) == y_truth) - np.mean(b.fit(X, y).predict(X_truth) == y_truth))


NESTED = {"n_splits": N_SPLITS, "n_repeats": N_REPEATS}  # the library's defaults, as the main run's (calibration.py)


def _pair_learners(cell):
    """A null cell's equal pair (A on block 1, B on block 2) or a power cell's (A on both blocks, B on block 1),
    each with a noise column of its own."""
    if cell.kind.startswith("power"):
        return (_learner(cell.learner, [*range(2 * BLOCK), 2 * BLOCK]),
                _learner(cell.learner, [*range(BLOCK), 2 * BLOCK + 1]))
    return (_learner(cell.learner, [*range(BLOCK), 2 * BLOCK]),
            _learner(cell.learner, [*range(BLOCK, 2 * BLOCK), 2 * BLOCK + 1]))


def _pair_sample(population, cell, rng):
    """A pair cell's drawn groups: X with two noise columns, y, the groups, and the truth groups' rows."""
    sample, truth_rows = population.draw(cell.n, rng)
    X = np.hstack([population.X[sample], rng.standard_normal((sample.size, 2))])
    X_truth = np.hstack([population.X[truth_rows], rng.standard_normal((truth_rows.size, 2))])
    return X, population.y[sample], population.groups[sample], X_truth, population.y[truth_rows]


def _nested_record(interval):
    """Nested CV's difference interval as a test: it rejects when it leaves out 0."""
    return {"reject": not interval.low <= 0 <= interval.high, "width": float(interval.high - interval.low),
            "target": "conditional"}


def refit_grouped_replication(population, cell, seed):
    """The tests that refit on their own splits, with groups: Dietterich's 5x2cv t and the combined F on halves of
    whole groups, and nested CV's interval of the difference (5 x 5-fold of whole groups), which rejects when it
    leaves out 0."""
    rng = np.random.default_rng(seed)
    X, y, groups, _, _ = _pair_sample(population, cell, rng)
    a, b = _pair_learners(cell)
    seed_5x2, seed_nested = (int(s) for s in rng.integers(2**31, size=2))
    if cell.kind.endswith(REGRESSION + "-refit"):  # 5x2cv is a test of classifiers' accuracies
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nested = cvi.nested_cv_interval(a, X, y, estimator_b=b, groups=groups, loss="squared_error",
                                            random_state=seed_nested, **NESTED)
        return {"tests": {"nested-cv": _nested_record(nested)}, "truth": {"conditional": 0.0},
                "n_samples": int(y.size)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        halves = cvi.evaluation.five_by_two_cv(a, b, X, y, groups=groups, random_state=seed_5x2)
        nested = cvi.nested_cv_interval(a, X, y, estimator_b=b, groups=groups, random_state=seed_nested, **NESTED)
        tests = {"5x2cv t": _test_record(cvi.inference.paired_ttest_5x2cv_of(halves), "unconditional"),
                 "5x2cv combined F": {"reject": bool(cvi.inference.combined_ftest_5x2cv_of(halves).pvalue < ALPHA),
                                      "width": None, "target": "unconditional"},
                 "nested-cv": _nested_record(nested)}
    return {"tests": tests, "truth": {"conditional": 0.0}, "n_samples": int(y.size)}


def coverage_grouped_nested_replication(population, cell, seed):
    """Nested CV's interval of one learner's accuracy (5 x 5-fold of whole groups), against the accuracy of the
    model fitted to all drawn groups on the truth groups (its conditional target)."""
    rng = np.random.default_rng(seed)
    sample, truth_rows = population.draw(cell.n, rng)
    X, y, groups = population.X[sample], population.y[sample], population.groups[sample]
    estimator = _learner(cell.learner)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        error = cvi.nested_cv_interval(estimator, X, y, groups=groups, random_state=int(rng.integers(2**31)),
                                       **NESTED)
    conditional = float(np.mean(estimator.fit(X, y).predict(population.X[truth_rows]) == population.y[truth_rows]))
    return {"intervals": {"nested-cv": [1 - float(error.high), 1 - float(error.low)]},
            "truth": {"conditional": conditional}, "n_samples": int(y.size)}


def pair_grouped_replication(population, cell, seed):
    """A null cell (A on block 1, B on block 2: equal) or a power cell (A on both blocks, B on block 1: A better)."""
    rng = np.random.default_rng(seed)
    X, y, groups, X_truth, y_truth = _pair_sample(population, cell, rng)
    regression = cell.kind.endswith(REGRESSION)
    a, b = _pair_learners(cell)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair = cvi.CVEvaluator(cv=_splitter(int(rng.integers(2**31)), regression), n_repeats=10,
                               random_state=int(rng.integers(2**31)),
                               **({"loss": "squared_error"} if regression else {})).compare(a, b, X, y, groups=groups)
        if regression:
            tests = {"CV-CLT loss difference (instances, repeat 0)": _test_record(
                cvi.inference.loss_difference_test(pair, repeat=0), "kfold")}
        else:
            tests = {"McNemar (instances, repeat 0)": _test_record(cvi.mcnemar_test(pair, repeat=0), "kfold"),
                     "clustered McNemar (Obuchowski, repeat 0)": _test_record(
                         cvi.mcnemar_test(pair, repeat=0, method="mcnemar-obuchowski"), "kfold"),
                     "clustered McNemar (Durkalski, repeat 0)": _test_record(
                         cvi.mcnemar_test(pair, method="mcnemar-durkalski", repeat=0), "kfold")}
        tests["cluster paired t (10 repeats)"] = _test_record(cvi.matched_sample_test(pair, method="cluster-paired-t"),
                                                              "kfold")
        tests["corrected t (10x10-fold)"] = _test_record(cvi.corrected_resampled_ttest(pair), "unconditional")
        if not regression:  # a regressor's decision rests on the test these cells' evidence picks: not yet shipped
            tests[DECISION] = decision_entry(cvi.decide(pair))
    truth = 0.0
    if cell.kind.startswith("power"):
        truth = _true_difference(clone(a), clone(b), X, y, X_truth, y_truth, regression)
    return {"tests": tests, "truth": {"conditional": truth}, "n_samples": int(y.size)}


def grouped_cells(cell_class, replications=None):
    """The grouped cells (Cell.n = G): coverage for a tree and logistic regression at G = 40 and 100; type-I error
    for both at G = 40; power for the tree at G = 40 (half the replications, as in the main run); and G = 20 for
    the tree on groups of 5 to 50."""
    r = replications or 200
    learners = ("tree", "logistic")
    coverage = [cell_class("coverage-grouped", name, lrn, n, r)
                for n in (40, 100) for name in grouped_population_names() for lrn in learners]
    coverage += [cell_class("coverage-grouped", MODECHOICE, lrn, 105, r) for lrn in learners]
    coverage += [cell_class("coverage-grouped", "clustered-m5to50-icc0.2", "tree", 20, r)]
    pairs = [cell_class("null-grouped", name, lrn, 40, r) for lrn in learners for name in grouped_population_names()]
    pairs += [cell_class("null-grouped", "clustered-m5to50-icc0.2", "tree", 20, r)]
    pairs += [cell_class("power-grouped", name, "tree", 40, max(r // 2, 1)) for name in grouped_population_names()]
    refit = [cell_class(kind, name, lrn, 40, r) for kind in ("null-grouped-refit", "coverage-grouped-nested")
             for lrn in learners for name in grouped_population_names()]
    return coverage + pairs + _regression_cells(cell_class, r) + refit


def _regression_cells(cell_class, r):
    """Ridge regression and a regression tree on the grouped regression populations: coverage at G = 40 and 100,
    type-I error at G = 40, power for the tree at G = 40."""
    names, learners = grouped_population_names(REGRESSION), ("ridge", "tree_reg")
    cells = [cell_class("coverage-grouped-regression", name, lrn, n, r)
             for n in (40, 100) for name in names for lrn in learners]
    cells += [cell_class("null-grouped-regression", name, lrn, 40, r) for lrn in learners for name in names]
    cells += [cell_class("power-grouped-regression", name, "tree_reg", 40, max(r // 2, 1)) for name in names]
    return cells + [cell_class("null-grouped-regression-refit", name + REGRESSION, lrn, 40, r) for lrn in learners
                    for name in ("clustered-m50-icc0.5", "clustered-m5to50-icc0.2")]


GROUPED_REPLICATIONS = {"coverage-grouped": coverage_grouped_replication, "null-grouped": pair_grouped_replication,
                        "power-grouped": pair_grouped_replication,
                        "coverage-grouped-regression": coverage_grouped_regression_replication,
                        "null-grouped-regression": pair_grouped_replication,
                        "power-grouped-regression": pair_grouped_replication,
                        "null-grouped-refit": refit_grouped_replication,
                        "null-grouped-regression-refit": refit_grouped_replication,
                        "coverage-grouped-nested": coverage_grouped_nested_replication}
