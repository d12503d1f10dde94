"""method="auto" and the verdict follow the calibration benchmark's evidence (docs/calibration.md).

The evidence is replaced by a small hand-made table, so each rule is checked
on figures whose consequence is known: a method falls short in a cell when
its 95% Wilson interval stays below 0.93 (nominal 0.95 - 0.02), and
method="auto" takes only an interval whose measured coverage reached 0.93 in
every cell of the regime (Wong's where it did, else the narrowest on the record).
"""

import warnings

import numpy as np
import pytest
from sklearn.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    ExtraTreesClassifier,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import LinearRegression, LogisticRegression, LogisticRegressionCV, Ridge
from sklearn.naive_bayes import BernoulliNB, GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC, SVR, LinearSVC
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor, ExtraTreeClassifier

import cvinference as cvi
from cvinference import InferenceWarning
from cvinference.policy import _evidence


def _row(method, measured, high, *, target="kfold", learner="tree", n=300, quantity="coverage"):
    return {"method": method, "quantity": quantity, "target": target, "learner": learner, "n": n,
            "population": "test", "nominal": 0.95 if quantity == "coverage" else 0.05, "measured": measured,
            "wilson_low": measured - 0.02, "wilson_high": high, "replications": 500, "mean_width": 0.1}


@pytest.fixture
def evidence(monkeypatch):
    table = {"rows": [], "floor": 0.93, "type_i_limit": 0.06, "mode": "test"}

    def install(*rows):
        table["rows"] = list(rows)
        monkeypatch.setattr(_evidence, "calibration_evidence", lambda: table)
    return install


TREE = "sklearn.tree.DecisionTreeClassifier"


def _result(n_per_fold, errors_per_fold, estimator_type=TREE):
    """A 10-fold result with the given errors in every fold (labels 0/1, prediction wrong on the first ones)."""
    k = 10
    y_true = np.tile(np.arange(n_per_fold) % 2, k)
    y_pred = y_true.copy()
    fold = np.repeat(np.arange(k), n_per_fold)
    for j in range(k):
        wrong = np.flatnonzero(fold == j)[:errors_per_fold]
        y_pred[wrong] = 1 - y_pred[wrong]
    return cvi.CVResult(y_true, y_pred, fold, estimator_type=estimator_type)


CONDITIONS_HOLD = dict(n_per_fold=30, errors_per_fold=8)  # r_j = 22, m_j - r_j = 8: Wong's conditions hold
CONDITIONS_FAIL = dict(n_per_fold=30, errors_per_fold=2)  # m_j - r_j = 2 < 5


class OwnForest(RandomForestClassifier):
    """A user's subclass: of the tree-ensemble family, but not the measured random forest."""


@pytest.mark.parametrize("estimator, kind, family", [
    (DecisionTreeClassifier, "tree", "single trees"),
    (ExtraTreeClassifier, None, "single trees"),  # a subclass of DecisionTreeClassifier, not the measured class
    (RandomForestClassifier, "forest", "tree ensembles"),
    (ExtraTreesClassifier, None, "tree ensembles"),
    (BaggingClassifier, None, "tree ensembles"),
    (OwnForest, None, "tree ensembles"),
    (AdaBoostClassifier, None, "boosting"),
    (HistGradientBoostingClassifier, "hgb", "boosting"),
    (LogisticRegression, "logistic", "linear"),
    (LogisticRegressionCV, "logistic_cv", "linear"),  # its own cells (a regularisation path), not logistic regression's
    (LinearSVC, None, "linear"),
    (SVC, "svm", "kernel"),
    (KNeighborsClassifier, "knn", "neighbours"),
    (GaussianNB, "naive_bayes", "naive Bayes"),
    (BernoulliNB, None, "naive Bayes"),
    (Ridge, "ridge", "linear"),
    (LinearRegression, None, "linear"),
    (DecisionTreeRegressor, "tree_reg", "single trees"),
    (RandomForestRegressor, None, "tree ensembles"),
    (HistGradientBoostingRegressor, None, "boosting"),
    (SVR, None, "kernel"),
])
def test_the_learner_is_recognised_by_its_type(estimator, kind, family):
    learner = _evidence.learner_of(f"{estimator.__module__}.{estimator.__qualname__}")
    assert learner == _evidence.Learner(estimator.__name__, kind, family)


def test_a_learner_that_cannot_be_imported_or_is_unknown_has_no_kind():
    assert _evidence.learner_of("somewhere.not_a_module.Forest") == _evidence.Learner("Forest", None, None)
    assert _evidence.learner_of(None) == _evidence.Learner(None, None, None)


def _learner(kind):
    return _evidence.Learner(kind, kind, _evidence.FAMILY_OF_KIND.get(kind))


def test_a_size_between_measured_ones_takes_both_neighbours_and_beyond_the_range_says_so():
    rows = [_row("normal", 0.9, 0.92, n=n) for n in (100, 300, 1000)]
    assert _evidence.regime_of(rows, [_learner("tree")], 569) == _evidence.Regime(("tree",), (300, 1000))
    assert _evidence.regime_of(rows, [_learner("tree")], 300) == _evidence.Regime(("tree",), (300,))
    below = _evidence.regime_of(rows, [_learner("tree")], 60)
    above = _evidence.regime_of(rows, [_learner("tree")], 5000)
    assert below.sizes == (100,) and "N = 60 is below the smallest size the calibration measured (100)" in below.beyond
    assert above.sizes == (1000,) and "N = 5000 is above the largest size" in above.beyond


def test_an_unmeasured_learner_borrows_its_family_or_else_every_measured_learner():
    rows = [_row("normal", 0.9, 0.92, learner=kind) for kind in ("tree", "logistic", "knn")]
    extra_trees = _evidence.learner_of("sklearn.ensemble.ExtraTreesClassifier")
    extra_tree = _evidence.learner_of("sklearn.tree.ExtraTreeClassifier")
    by_family = _evidence.regime_of(rows, [extra_tree], 300)
    assert by_family.kinds == ("tree",)
    assert by_family.borrowed == ("The calibration benchmark did not measure this for ExtraTreeClassifier; the "
                                  "figures are borrowed from its family (single trees: a decision tree).",)
    everyone = _evidence.regime_of(rows, [extra_trees], 300)
    assert set(everyone.kinds) == {"tree", "logistic", "knn"}
    assert "nor its family (tree ensembles)" in everyone.borrowed[0]


def test_the_worse_of_the_two_neighbouring_cells_stands(evidence):
    evidence(_row("normal", 0.95, 0.96, n=300), _row("normal", 0.90, 0.92, n=1000))
    regime = _evidence.coverage_regime("kfold", _learner("tree"), 569)
    measured = _evidence.measured_coverage("normal", "kfold", regime)
    assert measured.worst == 0.90 and measured.falls_short and measured.cells == 2


def test_rows_of_another_task_say_nothing_about_accuracy(evidence):
    # An ROC AUC row named like an accuracy method, at the same learner and size, failing badly: the accuracy
    # lookups leave it out, and a test's evidence is read from its own task's rows only.
    auc = {"task": "roc_auc"}
    evidence(_row("normal", 0.95, 0.96), _row("normal", 0.50, 0.52) | auc,
             _row("corrected-t", 0.04, 0.05, quantity="type_i") | auc)
    regime = _evidence.coverage_regime("kfold", _learner("tree"), 300)
    assert _evidence.measured_coverage("normal", "kfold", regime).worst == 0.95
    assert _evidence.test_evidence("corrected-t", [_learner("tree")], 300).type_i is None
    assert _evidence.test_evidence("corrected-t", [_learner("tree")], 300, task="roc_auc").type_i == 0.04


def test_learners_measured_over_different_sizes_each_stand_at_their_own(evidence):
    # A forest measured to N = 10,000 and logistic regression to N = 1,000, at N = 5,472: the forest's cells at
    # 3,000 and 10,000 and logistic regression's at 1,000 stand (before issue 45 the pair's joint sizes, 3,000 and
    # 10,000, left logistic regression's figures out altogether).
    evidence(*[_row("mcnemar", 0.04, 0.06, quantity="type_i", learner="forest", n=n) for n in (1000, 3000, 10000)],
             *[_row("mcnemar", rate, rate + 0.02, quantity="type_i", learner="logistic", n=n)
               for n, rate in ((300, 0.02), (1000, 0.09))])
    forest, logistic = _learner("forest"), _learner("logistic")
    found = _evidence.test_evidence("mcnemar", [forest, logistic], 5472)
    assert found.type_i == 0.09 and found.worst_cell == "logistic regression at N = 1000"
    assert found.regime.describe() == "a random forest at N = 3000 and 10000, logistic regression at N = 1000"
    assert found.regime.caveats() == ["N = 5472 is above the largest size the calibration measured for logistic "
                                      "regression (1000); the figures at N = 1000 are used."]
    assert _evidence.test_evidence("mcnemar", [forest], 5472).type_i == 0.04


def test_a_corrected_t_is_judged_by_the_cells_of_its_own_number_of_repeats_where_they_were_measured(evidence):
    # issue 45, item 11: a 1 x 10-fold corrected t rests on the 1 x 10-fold cells, not the 10 x 10-fold ones
    evidence(*[_row("corrected-t", rate, rate + 0.02, quantity="type_i", learner=learner) | {"repeats": r, "folds": 10}
               for r, rate in ((1, 0.03), (10, 0.09)) for learner in ("tree", "logistic")],
             _row("corrected-t", 0.01, 0.02, quantity="type_i") | {"repeats": 3, "folds": 10})  # R = 3: the tree only
    tree, logistic = _learner("tree"), _learner("logistic")
    one = _evidence.test_evidence("corrected-t", [tree, logistic], 300, repeats=1)
    assert one.type_i == 0.03 and one.repeats == (1,)
    assert _evidence.test_evidence("corrected-t", [tree, logistic], 300, repeats=10).type_i == 0.09
    # R = 3 measured for the tree but not for logistic regression: the worst over every R measured stands
    three = _evidence.test_evidence("corrected-t", [tree, logistic], 300, repeats=3)
    assert three.type_i == 0.09 and three.repeats == (1, 3, 10)
    assert _evidence.test_evidence("corrected-t", [tree], 300, repeats=3).type_i == 0.01
    assert _evidence.test_evidence("corrected-t", [tree], 300).type_i == 0.09  # no R given: every R's cells
    # the design R x K-fold is read from a row's fields; repeats alone (a pooled test's, a coverage row's) is none
    assert [_evidence.repeats_of(row) for row in ({"method": "corrected-t", "repeats": 3, "folds": 10},
                                                  {"method": "mcnemar", "repeat": 0},
                                                  {"method": "cluster-paired-t", "repeats": 10})] == [3, None, None]


def test_auto_keeps_wongs_interval_where_it_reached_the_floor(evidence):
    # Wilson is narrower than Wong's normal interval at 220 of 300 correct; Wong's is kept where it qualifies.
    result = _result(**CONDITIONS_HOLD)
    widths = {m: (lambda i: i.high - i.low)(cvi.accuracy_interval(result, method=m))
              for m in ("normal", "wilson", "clopper-pearson")}
    assert widths["wilson"] < widths["normal"] < widths["clopper-pearson"]
    evidence(_row("normal", 0.941, 0.955), _row("clopper-pearson", 0.949, 0.96), _row("wilson", 0.945, 0.958))
    interval = cvi.accuracy_interval(result)
    assert interval.method == "normal" and interval.target == "kfold" and not interval.warnings and not interval.notes
    assert interval.low == cvi.accuracy_interval(result, method="normal").low


def test_auto_takes_the_narrowest_interval_on_the_record_of_those_that_reached_the_floor(evidence):
    # Wong's interval did not reach the floor and every other candidate did: the narrowest on this record (oracle:
    # the explicit intervals' widths).
    result = _result(**CONDITIONS_HOLD)
    evidence(_row("normal", 0.925, 0.955), _row("clopper-pearson", 0.949, 0.96), _row("wilson", 0.945, 0.958),
             _row("half-sample", 0.99, 0.995))
    widths = {m: (lambda i: i.high - i.low)(cvi.accuracy_interval(result, method=m))
              for m in ("wilson", "clopper-pearson", "half-sample")}
    interval = cvi.accuracy_interval(result)
    assert interval.method == min(widths, key=widths.get) == "wilson" and not interval.warnings
    assert "of the intervals whose measured coverage of the kfold error stayed at or above 0.93 in every cell " \
           "there, the wilson interval (0.945 in its worst cell) is the narrowest on this record" in interval.notes[0]


def test_auto_takes_a_binomial_interval_when_wongs_falls_short(evidence):
    evidence(_row("normal", 0.89, 0.915), _row("clopper-pearson", 0.975, 0.985), _row("wilson", 0.945, 0.958))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        interval = cvi.accuracy_interval(_result(**CONDITIONS_HOLD))
    assert interval.method == "wilson"
    assert "Wong's normal interval covered the kfold error only 0.890" in interval.notes[0]
    assert "a decision tree at N = 300" in interval.notes[0]


def test_an_interval_measured_below_the_floor_is_not_chosen_though_not_proven_short(evidence):
    # Issue 45, item 10: Wong's interval measured 0.920 in a cell whose Wilson interval [0.891, 0.944] reaches
    # 0.93 (so it does not "fall short") is no longer chosen; one measured at the floor in every cell is.
    low_but_not_short = _row("normal", 0.920, 0.944) | {"wilson_low": 0.891}
    assert low_but_not_short["wilson_high"] >= 0.93 > low_but_not_short["wilson_low"]
    evidence(low_but_not_short, _row("clopper-pearson", 0.945, 0.96), _row("wilson", 0.925, 0.95),
             _row("half-sample", 0.97, 0.98), _row("normal", 0.95, 0.96, target="unconditional"),
             _row("clopper-pearson", 0.95, 0.96, target="unconditional"),
             _row("wilson", 0.95, 0.96, target="unconditional"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        interval = cvi.accuracy_interval(_result(**CONDITIONS_HOLD))
    assert interval.method == "clopper-pearson"
    assert "Wong's normal interval covered the kfold error only 0.920" in interval.notes[0]
    # The unconditional target, where every binomial interval reached the floor, would be Wong's, but an easier
    # target of the same record got the wider Clopper-Pearson interval: it keeps that.
    harder = cvi.accuracy_interval(_result(**CONDITIONS_HOLD), target="unconditional")
    assert harder.method == "clopper-pearson" and (harder.low, harder.high) == (interval.low, interval.high)
    assert "the one it chose for the easier kfold target of this record" in harder.notes[0]


def test_auto_warns_and_names_the_regime_when_every_candidate_falls_short(evidence):
    evidence(*(_row(m, c, c + 0.02, target="conditional") for m, c in
               (("normal", 0.83, ), ("clopper-pearson", 0.85), ("wilson", 0.84))))
    with pytest.warns(InferenceWarning, match=r"no interval computable from a cross-validation result that covers "
                                              r"the conditional error .* for a decision tree at N = 300: the best, "
                                              r"clopper-pearson, covered it 0.850") as caught:
        interval = cvi.accuracy_interval(_result(**CONDITIONS_HOLD), target="conditional")
    assert "nested_cv_interval" in str(caught[0].message)
    assert interval.method == "clopper-pearson" and interval.target == "conditional"
    assert interval.warnings == (str(caught[0].message),)


def test_auto_stays_exact_when_the_conditions_fail_and_warns_when_that_falls_short(evidence):
    evidence(_row("clopper-pearson", 0.91, 0.925), _row("wilson", 0.95, 0.96))
    with pytest.warns(InferenceWarning, match="The clopper-pearson interval covered the kfold error .* only 0.910"):
        interval = cvi.accuracy_interval(_result(**CONDITIONS_FAIL))
    assert interval.method == "clopper-pearson"
    assert "the large-sample conditions fail" in interval.notes[0]


def test_where_the_exact_interval_fell_short_and_the_half_sample_one_held_auto_takes_the_half_sample_one(evidence):
    # Issue 59, item 3: auto never returns an interval its own evidence calls short. Clopper-Pearson measured 0.925
    # (below the floor 0.93), the half-sample interval 0.97: on this record (conditions fail) the half-sample one
    # is the wider (oracle: the explicit intervals' widths), so auto takes it and says why, with no warning; the
    # explicit method keeps the falls-short rule (its Wilson interval reaches 0.93) and does not warn.
    evidence(_row("clopper-pearson", 0.925, 0.95), _row("half-sample", 0.97, 0.98))
    result = _result(**CONDITIONS_FAIL)
    exact, half = (cvi.accuracy_interval(result, method=m) for m in ("clopper-pearson", "half-sample"))
    assert half.high - half.low >= exact.high - exact.low
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        auto = cvi.accuracy_interval(result)
        cvi.accuracy_interval(result, method="clopper-pearson")
    assert (auto.method, auto.low, auto.high) == ("half-sample", half.low, half.high)
    assert "Clopper-Pearson interval covered the kfold error only 0.925" in auto.notes[0]
    assert auto.details["chosen_because"] == ("clopper-pearson covered the kfold error only 0.925 in its worst "
                                              "measured cell (floor 0.93), half-sample 0.970")


def test_where_neither_exact_nor_half_sample_held_auto_keeps_the_exact_interval_and_warns(evidence):
    evidence(_row("clopper-pearson", 0.925, 0.95), _row("half-sample", 0.92, 0.94))
    with pytest.warns(InferenceWarning, match=r"The clopper-pearson interval covered the kfold error .* only 0\.925"):
        auto = cvi.accuracy_interval(_result(**CONDITIONS_FAIL))
    assert auto.method == "clopper-pearson" and "chosen_because" not in auto.details


def test_an_explicit_method_warns_when_measured_short_of_the_target_asked_for(evidence):
    evidence(_row("normal", 0.87, 0.9, target="unconditional"), _row("normal", 0.95, 0.96))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cvi.accuracy_interval(_result(**CONDITIONS_HOLD), method="normal").target == "kfold"
    with pytest.warns(InferenceWarning, match="The normal interval covered the unconditional error .* only 0.870"):
        cvi.accuracy_interval(_result(**CONDITIONS_HOLD), method="normal", target="unconditional")


def test_without_evidence_auto_is_wongs_rule(evidence):
    evidence()
    assert cvi.accuracy_interval(_result(**CONDITIONS_HOLD)).method == "normal"
    assert cvi.accuracy_interval(_result(**CONDITIONS_FAIL)).method == "clopper-pearson"


def test_the_advice_sentences_agree_with_the_shipped_evidence():
    """_auto_choice's advice says nested CV covered the unconditional error in every cell measured with independent
    instances, and as little as 0.87 with groups: check both."""
    from cvinference.policy._auto_choice import _REFITTING_ADVICE
    shipped = _evidence.calibration_evidence()
    found = [r for r in shipped["rows"] if r["quantity"] == "coverage" and r["target"] == "unconditional"
             and r["method"] == "nested-cv"]
    rows = [r for r in found if r.get("task", "classification") == "classification"]
    grouped = [r for r in found if r.get("task") == "grouped"]
    advice = _REFITTING_ADVICE["unconditional"]
    assert "covered the unconditional error in every cell the benchmark measured with independent instances" in advice
    assert rows and all(r["wilson_high"] >= shipped["floor"] for r in rows)
    assert grouped and f"as low as {min(r['measured'] for r in grouped):.2f}" in advice
    assert {(r["learner"], r["n"]) for r in rows} >= {(learner, n) for learner in ("tree", "logistic", "knn")
                                                      for n in (100, 300, 1000)}


def test_auto_takes_the_half_sample_interval_where_only_it_held(evidence):
    # The learners' cells of docs/calibration.md: for a random forest at N = 300 every binomial interval fell
    # short of the k-fold target and Nedel'ko's half-sample interval did not.
    evidence(*(_row(m, c, c + 0.03) for m, c in
               (("normal", 0.833), ("clopper-pearson", 0.843), ("wilson", 0.837), ("half-sample", 0.953))))
    result = _result(**CONDITIONS_HOLD)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        interval = cvi.accuracy_interval(result)
    assert interval.method == "half-sample"
    assert "the half-sample interval (0.953 in its worst cell) is the narrowest on this record" in interval.notes[0]
    explicit = cvi.accuracy_interval(result, method="half-sample")
    assert (interval.low, interval.high) == (explicit.low, explicit.high)


def test_the_half_sample_interval_is_nedelkos_on_the_zero_one_loss():
    result = _result(**CONDITIONS_HOLD)  # 220 correct of 300
    interval = cvi.accuracy_interval(result, method="half-sample")
    # Nedel'ko (2021, section 3): mean loss +- z S~ / sqrt(N / 2), S~ the population standard deviation of the
    # per-instance losses; loss_interval computes it on the error rate, independently of accuracy_interval.
    on_error = cvi.loss_interval(result, method="half-sample")
    assert interval.low == pytest.approx(1 - on_error.high) and interval.high == pytest.approx(1 - on_error.low)
    p = 220 / 300
    half_width = 1.959963984540054 * np.sqrt(p * (1 - p) / 150)  # by hand: z_0.975 and n / 2 = 150
    assert (interval.estimate, interval.low, interval.high) == pytest.approx((p, p - half_width, p + half_width))
    with pytest.raises(ValueError, match=r"method='half-sample' is Nedel'ko's interval .* averaging='dataset'"):
        cvi.accuracy_interval(result, averaging="fold", method="half-sample")


def test_the_clustered_mcnemar_variants_are_judged_by_their_own_rows(evidence):
    grouped = {"task": "grouped"}
    evidence(_row("mcnemar-obuchowski", 0.05, 0.07, quantity="type_i", n=40) | grouped | {"repeat": 0},
             _row("mcnemar-durkalski", 0.12, 0.14, quantity="type_i", n=40) | grouped | {"repeat": 0},
             _row("corrected-t", 0.04, 0.06, quantity="type_i", n=40) | grouped | {"repeats": 10, "folds": 10})
    tree = [_learner("tree")]
    assert _evidence.test_evidence("mcnemar-obuchowski", tree, 40, "grouped").type_i == 0.05
    assert _evidence.test_evidence("mcnemar-durkalski", tree, 40, "grouped").type_i == 0.12
    assert _evidence.test_evidence("corrected-t", tree, 40, "grouped", repeats=2).type_i == 0.04
    assert _evidence.test_evidence("mcnemar", tree, 40, "grouped").type_i is None  # the plain test: no rows here
